#include "frame.h"

#include <imgui.h>
#include <imgui_impl_opengl3.h>
#include <imgui_impl_sdl.h>

#include <chrono>

#ifdef __EMSCRIPTEN__
#include <GLES3/gl3.h>
#else
#include <SDL_opengl.h>
#endif

bool run_frame(AppState& app, const FrameSize& size) {
    auto t0 = std::chrono::steady_clock::now();
    ImGui_ImplOpenGL3_NewFrame();
    ImGui_ImplSDL2_NewFrame();
    if (size.display_w > 0 && size.display_h > 0) {
        ImGuiIO& io = ImGui::GetIO();
        io.DisplaySize = ImVec2(size.display_w, size.display_h);
        io.DisplayFramebufferScale = ImVec2(size.framebuffer_scale, size.framebuffer_scale);
    }
    ImGui::NewFrame();
    draw_app(app);
    ImGui::Render();
    glViewport(0, 0, size.drawable_w, size.drawable_h);
    ImVec4 bg = ImGui::GetStyle().Colors[ImGuiCol_WindowBg];
    glClearColor(bg.x, bg.y, bg.z, 1);
    glClear(GL_COLOR_BUFFER_BIT);
    ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
    ++app.frames_drawn;
    app.last_frame_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    --app.frames_pending;
    if (app.state_version == app.frame_state_version) return false;
    app.frame_state_version = app.state_version;
    request_frames(app);
    return true;
}
