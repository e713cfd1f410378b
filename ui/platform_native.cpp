// Desktop entry point: SDL2 window + OpenGL3 renderer. Waits on events; draws only when something changed.
//   llmsim [model=ID] [quant=Q4_K_M] [--model ID] ...     same keys as the web page's URL hash
//   llmsim --screenshot out.png --frames 5                 headless smoke test (SDL_VIDEODRIVER=offscreen)
//   llmsim --section leaderboard ...                       every key of url_state.h also works as --key value
//   llmsim --contributed runs.jsonl hardware=rtx-4080      contributed runs beside the estimate (as a dropped .jsonl)
//   HF_ENDPOINT=... llmsim model=org/new-model:Q4_K_M      an id not in the catalog is looked up on the Hub at start
//                                                          (as a shared web link re-fetches; libcurl builds only)
#include <SDL.h>
#include <SDL_opengl.h>
#include <imgui.h>
#include <imgui_impl_opengl3.h>
#include <imgui_impl_sdl.h>

#include <clocale>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#define STB_IMAGE_WRITE_IMPLEMENTATION
#include <stb/stb_image_write.h>

#include "app_state.h"
#include "core/assets.h"
#include "core/input_limits.h"
#include "frame.h"
#include "import.h"
#include "url_state.h"
#include "panels.h"
#ifdef LLMSIM_HUB_NET
#include "hub/hub_ref.h"
#include "hub_curl.h"
#include "hub_worker.h"
#endif

namespace {

struct Options {
    std::string url_state;        // "key=value&..." assembled from the arguments
    std::string screenshot_path;  // save a PNG after `frames` frames and exit
    std::string contributed_path; // a contributed-runs file to read at start (panel_contributed.cpp)
    int frames = 0;
    int width = 1280, height = 800;
    bool size_given = false;
};

int parse_args(int argc, char** argv, Options& o) {
    for (int i = 1; i < argc; ++i) {
        std::string a = argv[i];
        auto next = [&](const char* what) -> std::string {
            if (i + 1 >= argc) { fprintf(stderr, "llmsim: %s needs a value\n", what); exit(2); }
            return argv[++i];
        };
        if (a == "--help" || a == "-h") {
            printf("usage: llmsim [key=value ...] [--key value ...] [--contributed RUNS.jsonl] [--screenshot PNG --frames N] [--size WxH]\n"
                   "keys: model hardware quant ctx kv fa ngl cpu_moe np prompt gen ctx_b hours mtok kwh months section embed theme\n");
            exit(0);
        } else if (a == "--version") {
            printf("llmsim %s\n", llmsim::version());
            exit(0);
        } else if (a == "--screenshot") {
            o.screenshot_path = next("--screenshot");
        } else if (a == "--contributed") {
            o.contributed_path = next("--contributed");
        } else if (a == "--frames") {
            o.frames = atoi(next("--frames").c_str());
        } else if (a == "--size") {
            std::string v = next("--size");
            o.size_given = true;
            if (sscanf(v.c_str(), "%dx%d", &o.width, &o.height) != 2 || o.width < 200 || o.height < 200) {
                fprintf(stderr, "llmsim: --size wants WxH, e.g. 1280x800 (got '%s')\n", v.c_str());
                return 2;
            }
        } else if (a.rfind("--", 0) == 0) {
            std::string key = a.substr(2);
            o.url_state += (o.url_state.empty() ? "" : "&") + key + "=" + next(a.c_str());
        } else if (a.find('=') != std::string::npos) {
            o.url_state += (o.url_state.empty() ? "" : "&") + a;
        } else {
            fprintf(stderr, "llmsim: unexpected argument '%s' (use key=value or --key value; --help lists keys)\n", a.c_str());
            return 2;
        }
    }
    return 0;
}

bool save_screenshot(const std::string& path, int w, int h) {
    std::vector<unsigned char> pixels((size_t)w * h * 4);
    glReadPixels(0, 0, w, h, GL_RGBA, GL_UNSIGNED_BYTE, pixels.data());
    stbi_flip_vertically_on_write(1);
    return stbi_write_png(path.c_str(), w, h, 4, pixels.data(), w * 4) != 0;
}

std::string window_path() {
    const char* xdg = getenv("XDG_CONFIG_HOME");
    const char* home = getenv("HOME");
    std::string dir = xdg && *xdg ? std::string(xdg) : home ? std::string(home) + "/.config" : ".";
    return dir + "/llmsim-window.txt";
}

std::string settings_path() {
    const char* xdg = getenv("XDG_CONFIG_HOME");
    const char* home = getenv("HOME");
    std::string dir = xdg && *xdg ? std::string(xdg) : home ? std::string(home) + "/.config" : ".";
    return dir + "/llmsim-imgui.ini";
}

// the desktop remembers its window size and position (not in screenshot runs)
void restore_window_geometry(Options& opt, int& win_x, int& win_y) {
    if (FILE* f = fopen(window_path().c_str(), "r")) {
        int w = 0, h = 0, x = 0, y = 0;
        if (fscanf(f, "%d %d %d %d", &w, &h, &x, &y) == 4 && w >= 200 && h >= 200 && w < 20000 && h < 20000) {
            opt.width = w; opt.height = h; win_x = x; win_y = y;
        }
        fclose(f);
    }
}

void save_window_geometry(SDL_Window* window) {
    int w = 0, h = 0, x = 0, y = 0;
    SDL_GetWindowSize(window, &w, &h);
    SDL_GetWindowPosition(window, &x, &y);
    if (FILE* f = fopen(window_path().c_str(), "w")) { fprintf(f, "%d %d %d %d\n", w, h, x, y); fclose(f); }
}

#ifdef LLMSIM_HUB_NET
// [SECTION] Hugging Face lookups on a worker thread (net/hub_worker.h): the frame loop polls, never waits
void start_hub_lookup(AppState& app, llmsim::net::HubWorker& worker, const std::string& id) {
    llmsim::HubRef ref;
    std::string err;
    app.hub_ok = false;
    if (!llmsim::parse_hub_ref(id, ref, err)) { app.hub_status = err; request_frames(app); return; }
    llmsim::HubLookupOptions opt;
    opt.all_headers = true;   // the quant table shows every GGUF file of the repo, each sized from its own header
    opt.prefer_quant = app.scenario.quant;
    opt.endpoint = llmsim::net::hub_endpoint_from_env();
    // the token field (memory only), else HF_TOKEN like the Hub's own libraries
    const std::string token = app.hub_token.empty() ? llmsim::net::hub_token_from_env() : app.hub_token;
    if (!worker.start(ref, opt, token)) { app.hub_status = "a lookup is still running"; return; }
    app.hub_busy = true;
    app.hub_status = worker.progress();
    request_frames(app);
}

// each loop turn: the running lookup's progress, or its end (the model joins the session catalog)
void poll_hub_lookup(AppState& app, llmsim::net::HubWorker& worker) {
    if (!app.hub_busy) return;
    if (!worker.finished()) {
        const std::string p = worker.progress();
        if (p != app.hub_status) { app.hub_status = p; request_frames(app); }
        return;
    }
    llmsim::net::HubWorker::Outcome o = worker.take();
    app.hub_busy = false;
    if (o.state == llmsim::net::HubWorker::State::Done) {
        import_hub_result(app, o.result);
        if (app.catalog.find_model(o.result.model.id)) app.scenario.model = o.result.model.id;
        for (const std::string& w : o.result.warnings) app.hub_status += "; note: " + w;
    } else {
        app.hub_ok = false;
        app.hub_status = o.error;
    }
    request_frames(app);
}
#endif

// the arguments' key=value state (the web page's URL hash) onto the app; 0, or the exit status after a message
int apply_url_state(AppState& app, const Options& opt) {
    if (opt.url_state.empty()) return 0;
    std::string err;
    std::vector<std::string> keys;
    if (!decode_url_state(opt.url_state, app.scenario, err, &keys)) {
        fprintf(stderr, "llmsim: %s\n", err.c_str());
        return 2;
    }
    apply_model_defaults_for_keys(app, Scenario().model, keys);
    app.scroll_to_section = !app.scenario.section.empty();
    return 0;
}

// SDL with an OpenGL 3.2 core window (at the remembered geometry unless a size is given or a screenshot is
// taken); 0, or the exit status after a message
int open_window(Options& opt, bool remember, SDL_Window*& window, SDL_GLContext& gl) {
    if (SDL_Init(SDL_INIT_VIDEO | SDL_INIT_TIMER) != 0) {
        fprintf(stderr, "llmsim: SDL_Init failed: %s\n", SDL_GetError());
        return 1;
    }
    SDL_GL_SetAttribute(SDL_GL_CONTEXT_FLAGS, 0);
    SDL_GL_SetAttribute(SDL_GL_CONTEXT_PROFILE_MASK, SDL_GL_CONTEXT_PROFILE_CORE);
    SDL_GL_SetAttribute(SDL_GL_CONTEXT_MAJOR_VERSION, 3);
    SDL_GL_SetAttribute(SDL_GL_CONTEXT_MINOR_VERSION, 2);
    SDL_GL_SetAttribute(SDL_GL_DOUBLEBUFFER, 1);
    int win_x = SDL_WINDOWPOS_CENTERED, win_y = SDL_WINDOWPOS_CENTERED;
    if (remember && !opt.size_given) restore_window_geometry(opt, win_x, win_y);
    window = SDL_CreateWindow("llmsim", win_x, win_y, opt.width, opt.height,
                              SDL_WINDOW_OPENGL | SDL_WINDOW_RESIZABLE | SDL_WINDOW_ALLOW_HIGHDPI);
    if (!window) {
        fprintf(stderr, "llmsim: cannot create a window: %s\n", SDL_GetError());
        return 1;
    }
    gl = SDL_GL_CreateContext(window);
    if (!gl) {
        fprintf(stderr, "llmsim: cannot create an OpenGL 3.2 context: %s\n", SDL_GetError());
        return 1;
    }
    SDL_GL_MakeCurrent(window, gl);
    SDL_GL_SetSwapInterval(1);
    return 0;
}

// "Is this your machine?": the GL renderer names the GPU; SDL_GetSystemRAM is a Mac's unified memory
void offer_this_machine(AppState& app) {
    llmsim::BrowserGpuInfo info;
    const GLubyte* renderer = glGetString(GL_RENDERER);
    const GLubyte* vendor = glGetString(GL_VENDOR);
    if (renderer) info.webgl_renderer = (const char*)renderer;
    if (vendor) info.webgl_vendor = (const char*)vendor;
    const int ram_mib = SDL_GetSystemRAM();
    if (ram_mib > 0) info.system_ram_bytes = (uint64_t)ram_mib * llmsim::kMiB;
    info.hardware_concurrency = SDL_GetCPUCount();
    offer_machine(app, info, "OpenGL");
}

// ImGui on SDL2 + OpenGL3, fonts at the display's pixel scale, the theme; settings persist except in screenshot runs
void init_imgui(AppState& app, const Options& opt, SDL_Window* window, SDL_GLContext gl) {
    IMGUI_CHECKVERSION();
    ImGui::CreateContext();
    static std::string ini = settings_path();   // ImGui keeps the pointer; lives for the whole run
    ImGui::GetIO().IniFilename = opt.screenshot_path.empty() ? ini.c_str() : nullptr;
    ImGui_ImplSDL2_InitForOpenGL(window, gl);
    ImGui_ImplOpenGL3_Init("#version 150");
    int dw = 0, dh = 0;
    SDL_GL_GetDrawableSize(window, &dw, &dh);
    float scale = (float)dw / (float)opt.width;
    load_fonts(app, scale < 1 ? 1 : scale);
    apply_theme(app, app.ui_scale);
}

// a dropped .jsonl: contributed runs (panel_contributed.cpp), read up to the reader's own bound plus one byte
void load_contributed_file(AppState& app, const std::string& path) {
    std::ifstream f(path, std::ios::binary);
    std::string text(llmsim::kContributedMaxBytes + 1, '\0');
    if (f) f.read(&text[0], (std::streamsize)text.size());
    text.resize(f || f.eof() ? (size_t)f.gcount() : 0);
    const size_t slash = path.find_last_of("/\\");
    if (text.empty()) { app.contributed.ok = false; app.contributed.message = "cannot read " + path; return; }
    load_contributed_runs(app, text, slash == std::string::npos ? path : path.substr(slash + 1));
}

// copy goes to SDL's clipboard; a shared link is the same state as desktop arguments; a saved file goes to the
// working directory
void install_desktop_hooks(AppState& app) {
    app.copy_to_clipboard = [](const std::string& text) { SDL_SetClipboardText(text.c_str()); };
    app.save_text_file = [](const std::string& name, const std::string& text) -> std::string {
        std::ofstream f(name, std::ios::binary);
        if (!f || !(f << text)) return "could not write " + name + " in the working directory";
        return "saved " + name + " in the working directory";
    };
    app.share_link = [](const std::string& hash) {
        std::string cmd = "llmsim";
        size_t start = 0;
        while (start < hash.size()) {
            size_t end = hash.find('&', start);
            if (end == std::string::npos) end = hash.size();
            cmd += " '" + hash.substr(start, end - start) + "'";
            start = end + 1;
        }
        return cmd;
    };
}

// wait for input (or poll while frames are wanted), hand it to ImGui; false once the window is closed
bool pump_events(AppState& app) {
    bool running = true;
    SDL_Event ev;
    bool got = frame_wanted(app) ? SDL_PollEvent(&ev) : SDL_WaitEventTimeout(&ev, app.hub_busy ? 50 : 500);
    while (got) {
        ImGui_ImplSDL2_ProcessEvent(&ev);
        if (ev.type == SDL_QUIT) running = false;
        if (ev.type == SDL_DROPFILE && ev.drop.file) {   // a dropped .gguf / config.json is imported
            const std::string path = ev.drop.file;
            if (path.size() > 6 && path.compare(path.size() - 6, 6, ".jsonl") == 0) load_contributed_file(app, path);
            else import_path(app, ev.drop.file);
            SDL_free(ev.drop.file);
        }
        request_frames(app);
        got = SDL_PollEvent(&ev);
    }
    return running;
}

void shutdown(SDL_Window* window, SDL_GLContext gl, bool remember) {
    if (remember) save_window_geometry(window);
    ImGui_ImplOpenGL3_Shutdown();
    ImGui_ImplSDL2_Shutdown();
    ImGui::DestroyContext();
    SDL_GL_DeleteContext(gl);
    SDL_DestroyWindow(window);
    SDL_Quit();
}

}  // namespace

int main(int argc, char** argv) {
    setlocale(LC_NUMERIC, "C");
    Options opt;
    if (int rc = parse_args(argc, argv, opt)) return rc;

    AppState app;
    init_app(app);
    if (int rc = apply_url_state(app, opt)) return rc;
    if (!opt.contributed_path.empty()) {
        load_contributed_file(app, opt.contributed_path);
        if (!app.contributed.ok) { fprintf(stderr, "llmsim: %s\n", app.contributed.message.c_str()); return 2; }
    }
    // the desktop remembers its window size and position (not in screenshot runs)
    const bool remember = opt.screenshot_path.empty();
    SDL_Window* window = nullptr;
    SDL_GLContext gl = nullptr;
    if (int rc = open_window(opt, remember, window, gl)) return rc;
    offer_this_machine(app);
    init_imgui(app, opt, window, gl);
    install_desktop_hooks(app);

#ifdef LLMSIM_HUB_NET
    llmsim::net::HubWorker hub_worker;   // outlives the loop; its destructor cancels and joins
    app.hub_lookup = [&](const std::string& id) { start_hub_lookup(app, hub_worker, id); };
    app.hub_cancel = [&]() { hub_worker.cancel(); };
    {   // an id not in the catalog (model=org/name) is looked up now, as a shared web link re-fetches
        llmsim::HubRef ref;
        std::string herr;
        if (!app.catalog.find_model(app.scenario.model) && llmsim::parse_hub_ref(app.scenario.model, ref, herr))
            app.hub_lookup(app.scenario.model);
    }
    const Uint32 hub_deadline_ms = SDL_GetTicks() + 120000;   // screenshot runs wait this long for a lookup
#endif
    bool running = true;
    int frame_index = 0;
    app.frame_state_version = app.state_version;
    while (running) {
        running = pump_events(app);
#ifdef LLMSIM_HUB_NET
        poll_hub_lookup(app, hub_worker);
        // a screenshot run shows the looked-up model: frames count once the lookup has ended (or timed out)
        if (!opt.screenshot_path.empty() && app.hub_busy && SDL_TICKS_PASSED(SDL_GetTicks(), hub_deadline_ms)) hub_worker.cancel();
        const bool hub_wait = !opt.screenshot_path.empty() && app.hub_busy;
        if (hub_wait) SDL_Delay(20);
#else
        const bool hub_wait = false;
#endif
        if (!frame_wanted(app) && opt.frames == 0) continue;
        FrameSize size;
        SDL_GL_GetDrawableSize(window, &size.drawable_w, &size.drawable_h);
        run_frame(app, size);
        if (!hub_wait) ++frame_index;
        if (!opt.screenshot_path.empty() && frame_index >= (opt.frames > 0 ? opt.frames : 3)) {
            if (!app.hub_status.empty()) printf("llmsim: hub: %s\n", app.hub_status.c_str());
            bool ok = save_screenshot(opt.screenshot_path, size.drawable_w, size.drawable_h);
            printf("llmsim: %s %s (%dx%d, %d frames, last frame %.2f ms)\n", ok ? "saved" : "FAILED to save",
                   opt.screenshot_path.c_str(), size.drawable_w, size.drawable_h, frame_index, app.last_frame_ms);
            running = false;
            if (!ok) return 1;
        }
        SDL_GL_SwapWindow(window);
    }
    shutdown(window, gl, remember);
    return 0;
}
