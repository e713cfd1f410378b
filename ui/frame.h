// The one frame body both platforms run (raylib's UpdateDrawFrame, imgui's emscripten main-loop stub):
// the SDL + OpenGL3 backends' NewFrame, draw_app, Render, a clear to the theme's background and the draw.
// platform_native.cpp loops on it; platform_web.cpp calls it from its requestAnimationFrame callback.
// The idle policy (when to call it) is request_frames / frame_wanted in app_state.h.
#pragma once
#include "app_state.h"

struct FrameSize {
    int drawable_w = 0, drawable_h = 0;   // framebuffer in device pixels (glViewport)
    // web: ImGui's display in CSS pixels and the device pixel ratio (SDL reports CSS pixels, the drawable is
    // the backing store); 0 = keep what the SDL backend set (desktop)
    float display_w = 0, display_h = 0, framebuffer_scale = 0;
};

// Draw one frame and do the frame bookkeeping: frames_drawn, last_frame_ms, and the idle countdown (one pending
// frame used; a scenario change since the last frame requests more). Returns true when the scenario changed
// since the previous frame (the web page then syncs its URL and listeners). Does not swap buffers.
bool run_frame(AppState& app, const FrameSize& size);
