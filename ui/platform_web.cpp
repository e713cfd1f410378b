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

#include <cmath>
#include <clocale>
#include <string>

#include "app_state.h"
#include "core/assets.h"
#include "frame.h"
#include "api/api.h"
#include "api/predict.h"
#include "serving/serving.h"
#include "speed/speed_glue.h"
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
};
WebPlatform g;   // the page has one app; the exported C functions reach it here

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
        ImGui_ImplOpenGL3_DestroyFontsTexture();
        ImGui_ImplOpenGL3_CreateFontsTexture();
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

void frame(void*) {
    sync_canvas_size();
    SDL_Event ev;
    while (SDL_PollEvent(&ev)) {
        ImGui_ImplSDL2_ProcessEvent(&ev);
        request_frames(g.app);
    }
    if (!frame_wanted(g.app)) return;   // idle: nothing changed, draw nothing
    FrameSize size;
    size.drawable_w = (int)(g.css_w * g.dpr);
    size.drawable_h = (int)(g.css_h * g.dpr);
    size.display_w = (float)g.css_w;
    size.display_h = (float)g.css_h;
    size.framebuffer_scale = (float)g.dpr;
    if (run_frame(g.app, size)) push_state_to_page();
    if (!g.app.scenario.embed.empty() && std::abs(g.app.embed_content_height - g.posted_height) > 1) {
        g.posted_height = g.app.embed_content_height;
        EM_ASM({ if (window.parent !== window) window.parent.postMessage({llmsim: 'height', height: Math.ceil($0)}, '*'); },
               g.posted_height);
    }
    if (!g.ready) {
        g.ready = true;
        EM_ASM({ if (Module.llmsimReady) Module.llmsimReady(); });
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
    update_derived(g.app);
    update_serving(g.app);   // results().serving (panel_serving.h), computed here if the section was never drawn
    g.ret = derived_to_json(g.app);
    return g.ret.c_str();
}

// window.llmsim.predict(scenario): the `llmsim-cli predict` contract, one scenario in, one result out
EMSCRIPTEN_KEEPALIVE const char* llmsim_predict(const char* scenario_json) {
    g.ret = llmsim::predict_line(g.app.catalog, llmsim::default_speed_params(), scenario_json ? scenario_json : "");
    return g.ret.c_str();
}

// window.llmsim.memory(request): same keys as `llmsim-cli memory --json`
EMSCRIPTEN_KEEPALIVE const char* llmsim_memory(const char* request_json) {
    g.ret = llmsim::api_memory(g.app.catalog, request_json ? request_json : "");
    return g.ret.c_str();
}

// window.llmsim.serve(request) / serveSearch(request): serving many users (engine/serving/serving.h)
EMSCRIPTEN_KEEPALIVE const char* llmsim_serve(const char* request_json) {
    g.ret = llmsim::api_serve(g.app.catalog, request_json ? request_json : "");
    return g.ret.c_str();
}
EMSCRIPTEN_KEEPALIVE const char* llmsim_serve_search(const char* request_json) {
    g.ret = llmsim::api_serve_search(g.app.catalog, request_json ? request_json : "");
    return g.ret.c_str();
}

EMSCRIPTEN_KEEPALIVE void llmsim_request_redraw() { request_frames(g.app); }

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
    if ((double)size < file_size) {
        g.app.import_message = n + " is not a GGUF file (no GGUF magic) and too large for a config.json (over 4 MiB)";
        g.app.import_ok = false;
        return 0;
    }
    return import_hf_config(g.app, std::string((const char*)data, (size_t)size), "imported/" + n) ? 1 : 0;
}

EMSCRIPTEN_KEEPALIVE double llmsim_import_need_bytes() { return (double)g.import_need_bytes; }

// import pasted config.json text under `id` ("" = default); returns "" or the error message
EMSCRIPTEN_KEEPALIVE const char* llmsim_import_config(const char* text, const char* id) {
    request_frames(g.app);
    bool ok = import_hf_config(g.app, text ? text : "", id ? id : "");
    g.ret = ok ? "" : g.app.import_message;
    return g.ret.c_str();
}

EMSCRIPTEN_KEEPALIVE const char* llmsim_import_message() { return g.app.import_message.c_str(); }

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
    setlocale(LC_NUMERIC, "C");
    init_app(g.app);
    char* hash = (char*)EM_ASM_INT({ return allocateUTF8(window.location.hash || ''); });
    if (hash) {
        std::string err;
        std::vector<std::string> keys;
        if (!decode_url_state(hash, g.app.scenario, err, &keys)) g.app.status_line = "This link could not be applied: " + err;
        else apply_model_defaults_for_keys(g.app, Scenario().model, keys);
        g.app.scroll_to_section = !g.app.scenario.section.empty();
        free(hash);
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
    IMGUI_CHECKVERSION();
    ImGui::CreateContext();
    ImGuiIO& io = ImGui::GetIO();
    io.IniFilename = nullptr;   // nothing persists through the filesystem on the web
    io.GetClipboardTextFn = get_clipboard;
    io.SetClipboardTextFn = set_clipboard;
    ImGui_ImplSDL2_InitForOpenGL(g.window, gl);
    ImGui_ImplOpenGL3_Init("#version 300 es");
    g.app.copy_to_clipboard = [](const std::string& t) { set_clipboard(nullptr, t.c_str()); };
    g.app.share_link = [](const std::string& hash) {
        char* base = (char*)EM_ASM_INT({ return allocateUTF8(window.location.origin + window.location.pathname); });
        std::string url = std::string(base ? base : "") + "#" + hash;
        free(base);
        return url;
    };
    g.app.open_file_dialog = [] { EM_ASM({ if (Module.llmsimOpenFile) Module.llmsimOpenFile(); }); };
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
    sync_canvas_size();
    g.app.frame_state_version = g.app.state_version;
    emscripten_set_main_loop_arg(frame, nullptr, 0, 1);
    return 0;
}
