// The floor the page is measured against (scripts/page_ready_bench.mjs): Dear ImGui + SDL2 + WebGL2 built with the
// same toolchain and flags as llmsim.wasm, drawing one window, with none of llmsim's engine, data or fonts. It
// calls Module.bareReady after its first frame, as llmsim's page calls llmsimReady. Built only by the bench:
//   cmake --build build/web --target llmsim_bare_page    # build/web/bare/{index.html,bare.js,bare.wasm}
#include <GLES3/gl3.h>
#include <SDL.h>
#include <emscripten.h>
#include <imgui.h>
#include <imgui_impl_opengl3.h>
#include <imgui_impl_sdl.h>

namespace {
SDL_Window* window = nullptr;
bool ready = false;

void frame(void*) {
    SDL_Event ev;
    while (SDL_PollEvent(&ev)) ImGui_ImplSDL2_ProcessEvent(&ev);
    ImGui_ImplOpenGL3_NewFrame();
    ImGui_ImplSDL2_NewFrame();
    ImGui::NewFrame();
    ImGui::Begin("bare");
    ImGui::Text("Dear ImGui %s on SDL2 + WebGL2", IMGUI_VERSION);
    ImGui::End();
    ImGui::Render();
    const ImGuiIO& io = ImGui::GetIO();
    glViewport(0, 0, (int)io.DisplaySize.x, (int)io.DisplaySize.y);
    glClearColor(0.1f, 0.1f, 0.1f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
    SDL_GL_SwapWindow(window);
    if (!ready) {
        ready = true;
        EM_ASM({ if (Module.bareReady) Module.bareReady(); });
    }
}
}  // namespace

int main() {
    if (SDL_Init(SDL_INIT_VIDEO) != 0) return 1;
    SDL_GL_SetAttribute(SDL_GL_CONTEXT_PROFILE_MASK, SDL_GL_CONTEXT_PROFILE_ES);
    SDL_GL_SetAttribute(SDL_GL_CONTEXT_MAJOR_VERSION, 3);
    SDL_GL_SetAttribute(SDL_GL_CONTEXT_MINOR_VERSION, 0);
    window = SDL_CreateWindow("bare", SDL_WINDOWPOS_UNDEFINED, SDL_WINDOWPOS_UNDEFINED, 1280, 800, SDL_WINDOW_OPENGL);
    SDL_GLContext gl = window ? SDL_GL_CreateContext(window) : nullptr;
    if (!gl) return 1;
    SDL_GL_MakeCurrent(window, gl);
    ImGui::CreateContext();
    ImGui::GetIO().IniFilename = nullptr;
    ImGui_ImplSDL2_InitForOpenGL(window, gl);
    ImGui_ImplOpenGL3_Init("#version 300 es");
    emscripten_set_main_loop_arg(frame, nullptr, 0, 1);
    return 0;
}
