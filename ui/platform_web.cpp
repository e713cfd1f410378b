// Web entry point: SDL2 + WebGL2 under emscripten. The page (web/index.html) creates the module, and once
// `llmsim_on_ready` fires it exposes window.llmsim, whose calls land in the EMSCRIPTEN_KEEPALIVE functions below.
// Frames are drawn only after input, a resize or a state change (plus a few frames after), so an idle page
// costs no CPU beyond the requestAnimationFrame callback that returns at once.
#include <GLES3/gl3.h>
#include <SDL.h>
#include <emscripten.h>
#include <emscripten/html5.h>
#include <imgui.h>
#include <imgui_impl_opengl3.h>
#include <imgui_impl_sdl.h>

#include <algorithm>
#include <cmath>
#include <clocale>
#include <memory>
#include <string>
#include <vector>

#include "a11y.h"
#include <nlohmann/json.hpp>

#include "app_state.h"
#include "core/assets.h"
#include "frame.h"
#include "api/api.h"
#include "api/api_extras.h"
#include "api/best_models.h"
#include "api/predict.h"
#include "serving/serving.h"
#include "runtime/speed_glue.h"
#include "import.h"
#include "panels.h"
#include "url_state.h"

namespace {

struct WebPlatform {
    AppState app;
    SDL_Window* window = nullptr;
    double css_w = 0, css_h = 0, dpr = 0;
    std::string clipboard;         // last text copied (the browser clipboard is write-only from here)
    std::string ret;               // storage for strings returned to JS
    bool ready = false;
    float posted_height = 0;       // embed mode: last content height sent to the host page
    uint64_t import_need_bytes = 0;
    double wheel_px_x = 0, wheel_px_y = 0;   // DOM wheel deltas in CSS px not yet given to ImGui
    std::string spoken, title;     // last text of the aria-live region / document.title (updated on change only)
    std::vector<SDL_Event> deferred_key_ups;   // key-ups held back one frame (frame())
    std::unique_ptr<llmsim::HubLookup> hub;   // the running Hugging Face lookup (llmsim-page.js makes its requests)
    std::string hub_at_start;                 // a link's model= id not in the catalog: looked up once the page is ready
};
WebPlatform g;   // the page has one app; the exported C functions reach it here

// a performance mark ('llmsim:<step>') for the start-up breakdown scripts/page_ready_bench.mjs prints
void mark(const char* step) {
    EM_ASM({ if (self.performance && performance.mark) performance.mark('llmsim:' + UTF8ToString($0)); }, step);
}

void sync_canvas_size() {
    double w = 0, h = 0;
    emscripten_get_element_css_size("#canvas", &w, &h);
    double dpr = emscripten_get_device_pixel_ratio();
    int backing_w = 0, backing_h = 0;
    emscripten_get_canvas_element_size("#canvas", &backing_w, &backing_h);
    const int want_w = (int)(w * dpr + 0.5), want_h = (int)(h * dpr + 0.5);
    if (w == g.css_w && h == g.css_h && dpr == g.dpr && backing_w == want_w && backing_h == want_h) return;
    const bool dpr_changed = dpr != g.dpr;
    g.css_w = w; g.css_h = h; g.dpr = dpr;
    // SDL keeps the window in CSS pixels; the backing store is CSS size x devicePixelRatio so text is crisp
    // on a 2x display. SDL's own resize handling may reset the backing size, so it is checked every frame.
    SDL_SetWindowSize(g.window, (int)w, (int)h);
    emscripten_set_canvas_element_size("#canvas", want_w, want_h);
    if (dpr_changed) {
        load_fonts(g.app, (float)dpr);
        // before the first frame the backend has no GL objects yet: its first NewFrame uploads this atlas (uploading
        // it here as well sent the same texture twice on the way to the first frame)
        if (g.ready) {
            ImGui_ImplOpenGL3_DestroyFontsTexture();
            ImGui_ImplOpenGL3_CreateFontsTexture();
        }
    }
    request_frames(g.app);
}

void push_state_to_page() {
    std::string hash = encode_url_state(g.app.scenario);
    EM_ASM({
        var h = '#' + UTF8ToString($0);
        if (window.location.hash !== h) history.replaceState(null, '', h);
        if (window.llmsim && window.llmsim._emit) window.llmsim._emit('change');
    }, hash.c_str());
}

// The DOM wheel event in CSS pixels, as a normal page scrolls (SDL turns each event into a whole "notch", and
// ImGui 1.86 scrolls floor(5 x font size) = 75 px per notch). Lines and pages are converted to pixels.
EM_BOOL on_wheel(int, const EmscriptenWheelEvent* e, void*) {
    const double unit = e->deltaMode == DOM_DELTA_LINE ? 16.0 : e->deltaMode == DOM_DELTA_PAGE ? g.css_h * 0.9 : 1.0;
    g.wheel_px_x += e->deltaX * unit;
    g.wheel_px_y += e->deltaY * unit;
    request_frames(g.app);
    return EM_TRUE;   // the page itself does not scroll
}

// pending wheel pixels as ImGui wheel units: ImGui scrolls a window by wheel x floor(min(5 x font size, 0.67 x its
// height)) px (imgui.cpp 1.86 UpdateMouseWheel), so one unit = floor(5 x font size) px for the sections
void apply_wheel_pixels() {
    if (g.wheel_px_x == 0 && g.wheel_px_y == 0) return;
    ImGuiIO& io = ImGui::GetIO();
    const ImFont* font = io.FontDefault ? io.FontDefault : (io.Fonts->Fonts.Size > 0 ? io.Fonts->Fonts[0] : nullptr);
    const float font_px = font ? font->FontSize * io.FontGlobalScale : 13.0f;
    const float step = std::max(1.0f, std::floor(5.0f * font_px));
    io.MouseWheel -= (float)(g.wheel_px_y / step);
    io.MouseWheelH -= (float)(g.wheel_px_x / step);
    g.wheel_px_x = g.wheel_px_y = 0;
}

// the screen-reader mirror (web/index.html #summary, aria-live polite) and the title, written only when they change
void update_page_text() {
    if (g.app.derived.version != g.app.state_version) return;   // not recomputed yet
    const std::string spoken = spoken_summary(g.app), title = scenario_title(g.app);
    if (spoken == g.spoken && title == g.title) return;
    g.spoken = spoken;
    g.title = title;
    const std::string page = model_page_path(g.app);
    EM_ASM({
        var s = document.getElementById('summary');
        var a = document.getElementById('model-page');
        var p = UTF8ToString($2);
        if (s) s.textContent = UTF8ToString($0);
        document.title = UTF8ToString($1);
        if (a && p) { a.setAttribute('href', p); a.textContent = 'Static page of ' + UTF8ToString($3); }
    }, spoken.c_str(), title.c_str(), page.c_str(), g.app.derived.model ? g.app.derived.model->name.c_str() : "");
}

void frame(void*) {
    sync_canvas_size();
    if (g.ready && g.app.first_view_light) {   // the frame after the first: every section (main() lightens the first)
        g.app.first_view_light = false;
        request_frames(g.app);
    }
    // ImGui 1.86 samples key state once per frame: a key released in the same frame it went down (a quick tap, a
    // synthetic press) would never be seen, so such a key-up waits for the next frame
    std::vector<SDL_Event> events;
    events.swap(g.deferred_key_ups);
    std::vector<SDL_Scancode> down_now;
    SDL_Event ev;
    while (SDL_PollEvent(&ev)) events.push_back(ev);
    for (SDL_Event& e : events) {
        if (e.type == SDL_KEYDOWN) down_now.push_back(e.key.keysym.scancode);
        if (e.type == SDL_KEYUP && std::find(down_now.begin(), down_now.end(), e.key.keysym.scancode) != down_now.end()) {
            g.deferred_key_ups.push_back(e);
            request_frames(g.app);
            continue;
        }
        ev = e;
        if (ev.type == SDL_MOUSEWHEEL) continue;   // on_wheel has the pixel deltas
        if (ev.type == SDL_KEYDOWN && ev.key.keysym.sym == SDLK_k && (ev.key.keysym.mod & (KMOD_CTRL | KMOD_GUI)))
            g.app.open_model_search = true;          // Ctrl/Cmd-K: the model search (a11y.h)
        ImGui_ImplSDL2_ProcessEvent(&ev);
        request_frames(g.app);
    }
    if (!frame_wanted(g.app)) return;   // idle: nothing changed, draw nothing
    if (!g.ready) mark("first-frame");
    apply_wheel_pixels();
    FrameSize size;
    size.drawable_w = (int)(g.css_w * g.dpr);
    size.drawable_h = (int)(g.css_h * g.dpr);
    size.display_w = (float)g.css_w;
    size.display_h = (float)g.css_h;
    size.framebuffer_scale = (float)g.dpr;
    if (run_frame(g.app, size)) push_state_to_page();
    update_page_text();
    if (!g.app.scenario.embed.empty() && std::abs(g.app.embed_content_height - g.posted_height) > 1) {
        g.posted_height = g.app.embed_content_height;
        EM_ASM({ if (window.parent !== window) window.parent.postMessage({llmsim: 'height', height: Math.ceil($0)}, '*'); },
               g.posted_height);
    }
    if (!g.ready) {
        g.ready = true;
        mark("first-frame-drawn");
        EM_ASM({ if (Module.llmsimReady) Module.llmsimReady(); });
        if (!g.hub_at_start.empty() && g.app.hub_lookup) g.app.hub_lookup(g.hub_at_start);   // a shared link re-fetches
    }
}

const char* get_clipboard(void*) { return g.clipboard.c_str(); }
void set_clipboard(void*, const char* text) {
    g.clipboard = text;
    EM_ASM({
        var t = UTF8ToString($0);
        if (navigator.clipboard && navigator.clipboard.writeText) navigator.clipboard.writeText(t).catch(function () {});
    }, text);
}

// window.llmsim's request calls: the engine's JSON API on the session catalog; the answer lives in g.ret until the
// next call
const char* api_answer(std::string (*call)(const llmsim::Catalog&, const std::string&), const char* request_json) {
    g.ret = call(g.app.catalog, request_json ? request_json : "");
    return g.ret.c_str();
}

}  // namespace

extern "C" {

EMSCRIPTEN_KEEPALIVE const char* llmsim_version() { return llmsim::version(); }

EMSCRIPTEN_KEEPALIVE const char* llmsim_get_state() {
    g.ret = scenario_to_json(g.app.scenario);
    return g.ret.c_str();
}

// apply a JSON object of scenario keys; returns "" or an error message (state unchanged on error)
EMSCRIPTEN_KEEPALIVE const char* llmsim_set_state(const char* json) {
    std::string err;
    const std::string model_before = g.app.scenario.model;
    std::vector<std::string> keys;
    if (!scenario_from_json(json ? json : "", g.app.scenario, err, &keys)) { g.ret = err; return g.ret.c_str(); }
    apply_model_defaults_for_keys(g.app, model_before, keys);
    apply_theme(g.app, g.app.ui_scale);
    mark_changed(g.app);
    request_frames(g.app);
    g.ret.clear();
    return g.ret.c_str();
}

// apply a URL hash ("#model=...&quant=..."); returns "" or an error message
EMSCRIPTEN_KEEPALIVE const char* llmsim_set_hash(const char* hash) {
    std::string err;
    Scenario s;   // a hash describes the whole view: keys it omits take their defaults
    std::vector<std::string> keys;
    if (!decode_url_state(hash ? hash : "", s, err, &keys)) {
        g.app.status_line = "This link could not be applied: " + err;
        request_frames(g.app);
        g.ret = err;
        return g.ret.c_str();
    }
    g.app.scenario = s;
    apply_model_defaults_for_keys(g.app, Scenario().model, keys);
    apply_theme(g.app, g.app.ui_scale);
    mark_changed(g.app);
    request_frames(g.app);
    g.ret.clear();
    return g.ret.c_str();
}

EMSCRIPTEN_KEEPALIVE const char* llmsim_get_hash() {
    g.ret = encode_url_state(g.app.scenario);
    return g.ret.c_str();
}

EMSCRIPTEN_KEEPALIVE const char* llmsim_stats() {
    g.ret = "{\"frames\":" + std::to_string(g.app.frames_drawn) + ",\"last_frame_ms\":" +
            std::to_string(g.app.last_frame_ms) + ",\"state_version\":" + std::to_string(g.app.state_version) +
            ",\"derive_ms\":" + std::to_string(g.app.derived.compute_ms) + "}";
    return g.ret.c_str();
}

// rectangle of a named widget in CSS pixels as JSON [x0,y0,x1,y1], or "null" (used by the e2e tests)
EMSCRIPTEN_KEEPALIVE const char* llmsim_widget_rect(const char* name) {
    auto it = g.app.widget_rects.find(name ? name : "");
    if (it == g.app.widget_rects.end()) { g.ret = "null"; return g.ret.c_str(); }
    const auto& r = it->second;
    g.ret = "[" + std::to_string(r[0]) + "," + std::to_string(r[1]) + "," + std::to_string(r[2]) + "," + std::to_string(r[3]) + "]";
    return g.ret.c_str();
}

// window.llmsim.results(): what the page currently shows for the scenario (memory, speed, leaderboard rows)
EMSCRIPTEN_KEEPALIVE const char* llmsim_results() {
    load_deferred_evidence(g.app);   // the evidence, if every file arrived (results().evidence_loading says so)
    update_derived(g.app);
    finish_derived(g.app);   // the rows the first frame leaves for later (leaderboard, context, recommend, FAQ)
    update_serving(g.app);   // results().serving (panel_serving.h), computed here if the section was never drawn
    update_spec(g.app);      // results().spec / lora / train and the command's -md / --lora flags, likewise
    update_lora(g.app);
    update_vision(g.app);    // results().vision / embed and the command's --mmproj
    update_audio(g.app);     // results().audio (and --mmproj for audio)
    update_embed(g.app);
    update_best_models(g.app);   // results().best_models
    update_train(g.app);
    update_accuracy_serving(g.app);   // results().accuracy.serving (the embedded held-out report)
    g.ret = derived_to_json(g.app);
    return g.ret.c_str();
}

// window.llmsim.predict(scenario): the `llmsim-cli predict` contract, one scenario in, one result out
EMSCRIPTEN_KEEPALIVE const char* llmsim_predict(const char* scenario_json) {
    g.ret = llmsim::predict_line(g.app.catalog, llmsim::default_speed_params(), scenario_json ? scenario_json : "");
    return g.ret.c_str();
}

// window.llmsim.memory(request): same keys as `llmsim-cli memory --json`
EMSCRIPTEN_KEEPALIVE const char* llmsim_memory(const char* request_json) { return api_answer(llmsim::api_memory, request_json); }

// window.llmsim.serve(request) / serveSearch(request): serving many users (engine/serving/serving.h)
EMSCRIPTEN_KEEPALIVE const char* llmsim_serve(const char* request_json) { return api_answer(llmsim::api_serve, request_json); }
EMSCRIPTEN_KEEPALIVE const char* llmsim_serve_search(const char* request_json) { return api_answer(llmsim::api_serve_search, request_json); }
// window.llmsim.serveDeploy(request): an NVIDIA Dynamo DynamoGraphDeployment for the request (serve_deploy.cpp)
EMSCRIPTEN_KEEPALIVE const char* llmsim_serve_deploy(const char* request_json) { return api_answer(llmsim::api_serve_deploy, request_json); }
// window.llmsim.spec / lora / train(request): same keys as `llmsim-cli spec|lora|train --json` (api_extras.h)
EMSCRIPTEN_KEEPALIVE const char* llmsim_spec(const char* request_json) { return api_answer(llmsim::api_spec, request_json); }
EMSCRIPTEN_KEEPALIVE const char* llmsim_lora(const char* request_json) { return api_answer(llmsim::api_lora, request_json); }
EMSCRIPTEN_KEEPALIVE const char* llmsim_train(const char* request_json) { return api_answer(llmsim::api_train, request_json); }
// window.llmsim.embed(request): same keys as `llmsim-cli embed --json` (api_extras.h)
EMSCRIPTEN_KEEPALIVE const char* llmsim_embed(const char* request_json) { return api_answer(llmsim::api_embed, request_json); }
// window.llmsim.audio(request): same keys as `llmsim-cli audio --json` (api_extras.h)
EMSCRIPTEN_KEEPALIVE const char* llmsim_audio(const char* request_json) { return api_answer(llmsim::api_audio, request_json); }
// window.llmsim.bestModels(request): same keys as `llmsim-cli recommend-model --format json` (api/best_models.h)
EMSCRIPTEN_KEEPALIVE const char* llmsim_best_models(const char* request_json) { return api_answer(llmsim::api_best_models, request_json); }
// window.llmsim.vision(request): same keys as `llmsim-cli vision --json` (api_extras.h)
EMSCRIPTEN_KEEPALIVE const char* llmsim_vision(const char* request_json) { return api_answer(llmsim::api_vision, request_json); }

EMSCRIPTEN_KEEPALIVE void llmsim_request_redraw() { request_frames(g.app); }

// [SECTION] the deferred evidence: the files the wasm does not carry (core/assets.h), fetched by llmsim-page.js
// after the first frame. The names the engine still lacks, as a JSON array of paths relative to the page
EMSCRIPTEN_KEEPALIVE const char* llmsim_missing_assets() {
    g.ret = nlohmann::json(missing_evidence_assets()).dump();
    return g.ret.c_str();
}

// one fetched file (its bytes, as served); returns "" or why it was not taken
EMSCRIPTEN_KEEPALIVE const char* llmsim_add_asset(const char* name, const unsigned char* data, int size) {
    const std::string n = name ? name : "";
    g.ret = llmsim::add_runtime_asset(n, data && size > 0 ? std::string((const char*)data, (size_t)size) : std::string())
                ? "" : n + " was given twice or is compiled in";
    return g.ret.c_str();
}

// every file has arrived: parse them now (not in a frame) and redraw; returns "" or what is still missing
EMSCRIPTEN_KEEPALIVE const char* llmsim_evidence_arrived() {
    load_deferred_evidence(g.app);
    const std::vector<std::string> missing = missing_evidence_assets();
    g.ret = missing.empty() ? "" : "still missing: " + missing.front();
    request_frames(g.app);
    return g.ret.c_str();
}

// a file could not be fetched: the sections that show the evidence say why instead of "loading..."
EMSCRIPTEN_KEEPALIVE void llmsim_evidence_failed(const char* message) {
    g.app.evidence_error = std::string("not loaded (") + (message ? message : "") + "); the estimates do not need it";
    request_frames(g.app);
}

// the sections' scroll position in CSS px as JSON {"y", "max"} (the e2e wheel test)
EMSCRIPTEN_KEEPALIVE const char* llmsim_scroll() {
    g.ret = "{\"y\":" + std::to_string(g.app.sections_scroll_y) + ",\"max\":" + std::to_string(g.app.sections_scroll_max_y) + "}";
    return g.ret.c_str();
}

// what the page read about this machine's GPU (web/llmsim-page.js: WebGPU adapter info, WebGL unmasked renderer,
// navigator.deviceMemory / hardwareConcurrency) -> the "Is this your machine?" offer; "" or an error message
EMSCRIPTEN_KEEPALIVE const char* llmsim_set_machine_info(const char* json) {
    llmsim::BrowserGpuInfo info;
    std::string err;
    if (!llmsim::parse_browser_gpu_info(json ? json : "", info, err)) { g.ret = err; return g.ret.c_str(); }
    offer_machine(g.app, info, !info.webgpu_description.empty() || !info.webgpu_device.empty() ? "WebGPU" : "WebGL");
    g.ret.clear();
    return g.ret.c_str();
}

// import a file the user opened or dropped: the first `size` bytes of a file of `file_size` bytes (a GGUF
// header or a whole config.json). Returns 1 imported, 0 error (message in the Import section and via
// llmsim_import_message), -1 more bytes needed (llmsim_import_need_bytes() says how many).
EMSCRIPTEN_KEEPALIVE int llmsim_import_file(const unsigned char* data, int size, double file_size, const char* name) {
    std::string n = name ? name : "file";
    request_frames(g.app);
    if (size >= 4 && data[0] == 'G' && data[1] == 'G' && data[2] == 'U' && data[3] == 'F') {
        uint64_t need = 0;
        int rc = import_gguf_prefix(g.app, data, (size_t)size, (uint64_t)file_size, n, &need);
        g.import_need_bytes = need;
        return rc;
    }
    if (import_not_gguf_for_vision(g.app, n)) return 0;
    if (n.size() > 6 && n.compare(n.size() - 6, 6, ".jsonl") == 0) {   // a contributed-runs file (panel_contributed.cpp)
        const bool ok = (double)size >= file_size &&
                        load_contributed_runs(g.app, std::string((const char*)data, (size_t)size), n);
        g.app.import.message = (double)size < file_size ? n + " is larger than 4 MiB: not a contributed-runs file"
                                                        : g.app.contributed.message;
        g.app.import.ok = ok;
        return ok ? 1 : 0;
    }
    if ((double)size < file_size) {
        g.app.import.message = n + " is not a GGUF file (no GGUF magic) and too large for a config.json (over 4 MiB)";
        g.app.import.ok = false;
        return 0;
    }
    return import_hf_config(g.app, std::string((const char*)data, (size_t)size), "imported/" + n) ? 1 : 0;
}

EMSCRIPTEN_KEEPALIVE double llmsim_import_need_bytes() { return (double)g.import_need_bytes; }

// import pasted config.json text under `id` ("" = default); returns "" or the error message
EMSCRIPTEN_KEEPALIVE const char* llmsim_import_config(const char* text, const char* id) {
    request_frames(g.app);
    bool ok = import_hf_config(g.app, text ? text : "", id ? id : "");
    g.ret = ok ? "" : g.app.import.message;
    return g.ret.c_str();
}

EMSCRIPTEN_KEEPALIVE const char* llmsim_import_message() { return g.app.import.message.c_str(); }

// read contributed runs (JSON Lines text, panel_contributed.cpp); returns "" or the error message naming the line
EMSCRIPTEN_KEEPALIVE const char* llmsim_load_contributed(const char* text) {
    request_frames(g.app);
    const bool ok = load_contributed_runs(g.app, text ? text : "", "llmsim.loadContributedRuns");
    g.ret = ok ? "" : g.app.contributed.message;
    return g.ret.c_str();
}

// [SECTION] Hugging Face lookups: the engine's plan (engine/hub/hub_lookup.h), the page's fetch (llmsim-page.js)
// Each call returns JSON: {"request": {path, range_begin, range_bytes, max_body_bytes}} for the next fetch,
// {"done": true, "message"} when the model joined the session catalog, or {"error", "kind", "retry_after_s"}.
namespace {
const char* hub_step_json() {
    nlohmann::json j;
    llmsim::HubRequest rq;
    if (g.hub && g.hub->next(rq)) {
        j["request"] = {{"path", rq.path}, {"range_begin", rq.range_begin}, {"range_bytes", rq.range_bytes},
                        {"max_body_bytes", rq.max_body_bytes}};
        g.app.hub_status = g.hub->progress();
    } else if (g.hub && g.hub->done()) {
        import_hub_result(g.app, g.hub->result());
        j["done"] = true;
        j["message"] = g.app.hub_status;
        g.app.hub_busy = false;
        g.hub.reset();
    } else {
        std::string e = g.hub ? g.hub->error() : g.app.hub_status;
        // huggingface.co does not list Retry-After in Access-Control-Expose-Headers: a page never sees the wait
        if (g.hub && g.hub->error_kind() == llmsim::HubErrorKind::RateLimited && g.hub->retry_after_s() < 0)
            e += " (the Hub does not let a web page read how long to wait)";
        j["error"] = e;
        j["kind"] = g.hub ? (int)g.hub->error_kind() : 0;
        j["retry_after_s"] = g.hub ? g.hub->retry_after_s() : -1;
        if (g.hub) g.app.hub_status = e;
        g.app.hub_busy = false;
        g.app.hub_ok = false;
        g.hub.reset();
    }
    request_frames(g.app);
    g.ret = j.dump();
    return g.ret.c_str();
}
}  // namespace

// start looking `ref` up (an id, a huggingface.co URL, org/name:QUANT, a .gguf URL); the page then fetches
EMSCRIPTEN_KEEPALIVE const char* llmsim_hub_start(const char* ref, const char* endpoint) {
    llmsim::HubRef r;
    std::string err;
    g.hub.reset();
    g.app.hub_ok = false;
    if (!llmsim::parse_hub_ref(ref ? ref : "", r, err)) { g.app.hub_status = err; return hub_step_json(); }
    llmsim::HubLookupOptions opt;
    opt.all_headers = true;   // the quant table shows every GGUF file of the repo, each sized from its own header
    opt.prefer_quant = g.app.scenario.quant;
    if (endpoint && *endpoint) opt.endpoint = endpoint;   // the page's <meta name="llmsim-hf-endpoint">
    g.hub.reset(new llmsim::HubLookup(r, opt));
    g.app.hub_busy = true;
    return hub_step_json();
}

// the answer to the last request: status (0 = no answer), the body (at most max_body_bytes; truncated = cut
// there), the headers the plan reads, and the network error text for status 0
EMSCRIPTEN_KEEPALIVE const char* llmsim_hub_feed(int status, const unsigned char* body, int size, int truncated,
                                                 const char* content_range, const char* retry_after,
                                                 const char* error_code, const char* network_error, const char* link) {
    if (!g.hub) return hub_step_json();
    llmsim::HubResponse r;
    r.status = status;
    if (body && size > 0) r.body.assign((const char*)body, (size_t)size);
    r.truncated = truncated != 0;
    r.content_range = content_range ? content_range : "";
    r.retry_after = retry_after ? retry_after : "";
    r.error_code = error_code ? error_code : "";
    r.network_error = network_error ? network_error : "";
    r.link = link ? link : "";
    g.hub->feed(r);
    return hub_step_json();
}

// the user cancelled (llmsim-page.js aborted the fetch in flight): the lookup ends with that message
EMSCRIPTEN_KEEPALIVE const char* llmsim_hub_cancel() {
    if (g.hub) {
        g.app.hub_status = "lookup of " + llmsim::hub_ref_text(g.hub->result().ref) + " cancelled";
        g.hub.reset();
    }
    g.app.hub_busy = false;
    g.app.hub_ok = false;
    return hub_step_json();
}

EMSCRIPTEN_KEEPALIVE void llmsim_set_clipboard_cache(const char* text) { g.clipboard = text ? text : ""; }
// the page's paste event (llmsim-page.js): its text goes into the focused ImGui text box as typed characters
// (the browser clipboard is readable only inside that event). ImGui's own Ctrl+V then finds an empty cache, so
// the text is inserted once.
EMSCRIPTEN_KEEPALIVE void llmsim_paste_text(const char* text) {
    g.clipboard.clear();
    if (text && *text && ImGui::GetIO().WantTextInput) ImGui::GetIO().AddInputCharactersUTF8(text);
    request_frames(g.app);
}

}  // extern "C"

int main() {
    mark("main");
    setlocale(LC_NUMERIC, "C");
    init_app(g.app);
    mark("catalog");
    // the measured rows and the serving report: fetched after the first frame (llmsim-page.js), when not compiled in
    g.app.evidence_deferred = !missing_evidence_assets().empty();
    g.app.first_view_light = true;    // the first frame: only what the viewport shows (draw_app); the rest on the next
    char* hash = (char*)EM_ASM_INT({ return allocateUTF8(window.location.hash || ''); });
    if (hash) {
        std::string err;
        std::vector<std::string> keys;
        if (!decode_url_state(hash, g.app.scenario, err, &keys)) g.app.status_line = "This link could not be applied: " + err;
        else apply_model_defaults_for_keys(g.app, Scenario().model, keys);
        g.app.scroll_to_section = !g.app.scenario.section.empty();
        free(hash);
        llmsim::HubRef ref;
        std::string herr;
        if (!g.app.catalog.find_model(g.app.scenario.model) && llmsim::parse_hub_ref(g.app.scenario.model, ref, herr))
            g.hub_at_start = g.app.scenario.model;
    }
    if (SDL_Init(SDL_INIT_VIDEO) != 0) {
        EM_ASM({ if (Module.llmsimFatal) Module.llmsimFatal('SDL could not start: ' + UTF8ToString($0)); }, SDL_GetError());
        return 1;
    }
    SDL_GL_SetAttribute(SDL_GL_CONTEXT_PROFILE_MASK, SDL_GL_CONTEXT_PROFILE_ES);
    SDL_GL_SetAttribute(SDL_GL_CONTEXT_MAJOR_VERSION, 3);
    SDL_GL_SetAttribute(SDL_GL_CONTEXT_MINOR_VERSION, 0);
    SDL_GL_SetAttribute(SDL_GL_DOUBLEBUFFER, 1);
    g.window = SDL_CreateWindow("llmsim", SDL_WINDOWPOS_UNDEFINED, SDL_WINDOWPOS_UNDEFINED, 1280, 800,
                                SDL_WINDOW_OPENGL | SDL_WINDOW_RESIZABLE);
    SDL_GLContext gl = g.window ? SDL_GL_CreateContext(g.window) : nullptr;
    if (!gl) {
        EM_ASM({ if (Module.llmsimFatal) Module.llmsimFatal('WebGL2 is not available: ' + UTF8ToString($0)); }, SDL_GetError());
        return 1;
    }
    SDL_GL_MakeCurrent(g.window, gl);
    mark("sdl-webgl");
    IMGUI_CHECKVERSION();
    ImGui::CreateContext();
    ImGuiIO& io = ImGui::GetIO();
    io.IniFilename = nullptr;   // nothing persists through the filesystem on the web
    io.ConfigFlags |= ImGuiConfigFlags_NavEnableKeyboard;   // Space/Enter activate the focused control, Esc closes popups
    io.GetClipboardTextFn = get_clipboard;
    io.SetClipboardTextFn = set_clipboard;
    ImGui_ImplSDL2_InitForOpenGL(g.window, gl);
    emscripten_set_wheel_callback("#canvas", nullptr, EM_TRUE, nullptr);   // drop SDL's notch handler
    emscripten_set_wheel_callback("#canvas", nullptr, EM_TRUE, on_wheel);
    g.app.open_model_page = [](const std::string& path) {
        EM_ASM({ window.open(UTF8ToString($0), '_blank', 'noopener'); }, path.c_str());
    };
    ImGui_ImplOpenGL3_Init("#version 300 es");
    g.app.copy_to_clipboard = [](const std::string& t) { set_clipboard(nullptr, t.c_str()); };
    g.app.share_link = [](const std::string& hash) {
        char* base = (char*)EM_ASM_INT({ return allocateUTF8(window.location.origin + window.location.pathname); });
        std::string url = std::string(base ? base : "") + "#" + hash;
        free(base);
        return url;
    };
    g.app.open_file_dialog = [] { EM_ASM({ if (Module.llmsimOpenFile) Module.llmsimOpenFile(); }); };
    // the export for contributing: a Blob download the user asked for; nothing is sent anywhere
    g.app.save_text_file = [](const std::string& name, const std::string& text) -> std::string {
        EM_ASM({
            try {
                var a = document.createElement('a');
                a.href = URL.createObjectURL(new Blob([UTF8ToString($1)], {type: 'application/x-ndjson'}));
                a.download = UTF8ToString($0);
                document.body.appendChild(a);
                a.click();
                a.remove();
                setTimeout(function () { URL.revokeObjectURL(a.href); }, 1000);
            } catch (e) { console.error(e); }
        }, name.c_str(), text.c_str());
        return "downloaded " + name;
    };
    // the page's fetch makes the lookup's requests; the token goes along for that lookup only, never stored
    g.app.hub_cancel = []() { EM_ASM({ if (Module.llmsimHubCancel) Module.llmsimHubCancel(); }); };
    g.app.hub_lookup = [](const std::string& id) {
        EM_ASM({ if (Module.llmsimHubLookup) Module.llmsimHubLookup(UTF8ToString($0), UTF8ToString($1)); }, id.c_str(),
               g.app.hub_token.c_str());
    };
    // "Your own runs": the fitted profile (never the pasted text) kept in localStorage only when asked
    g.app.keep_device_profile = [](const std::string& json) {
        EM_ASM({
            try {
                var j = UTF8ToString($0);
                if (j) window.localStorage.setItem('llmsim-device-profile', j);
                else window.localStorage.removeItem('llmsim-device-profile');
            } catch (e) {}
        }, json.c_str());
    };
    {
        char* kept = (char*)EM_ASM_INT({
            try { var j = window.localStorage.getItem('llmsim-device-profile'); return j ? allocateUTF8(j) : 0; } catch (e) { return 0; }
        });
        std::string err;
        if (kept && !my_runs_restore(g.app, kept, err)) {
            EM_ASM({ try { window.localStorage.removeItem('llmsim-device-profile'); } catch (e) {} });   // a stale or bad file: forget it
            g.app.status_line = "kept device profile ignored: " + err;
        }
        free(kept);
    }
    g.app.open_full_page = [] {
        std::string h = encode_url_state(g.app.scenario);
        EM_ASM({
            var h = UTF8ToString($0).split('&').filter(function (kv) { return kv.indexOf('embed=') !== 0; }).join('&');
            window.open(window.location.pathname + '#' + h, '_blank', 'noopener');
        }, h.c_str());
    };
    g.dpr = 0;
    g.app.ui_scale = 1;
    apply_theme(g.app, 1);
    mark("imgui-init");
    sync_canvas_size();   // the fonts, rasterised at the device pixel ratio
    mark("fonts");
    g.app.frame_state_version = g.app.state_version;
    emscripten_set_main_loop_arg(frame, nullptr, 0, 1);
    return 0;
}
