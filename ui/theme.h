// The app's palette, the one place a colour is chosen: the ImGui base colours of each theme (background, text,
// frames, popups) and the named inks the panels draw with (fit status, memory parts, plot series, limits).
// Every ink is used both as text (line labels, read-outs, status words) and as a graphic (lines, bars, dots), so
// each must reach WCAG AA for text, 4.5:1, on the theme's window, plot and popup backgrounds (tests/ui checks it).
//   ImGui::TextColored(ink_vec4(Ink::Good), "fits");          // the current theme's ink
//   const Palette& p = palette(Theme::Light); contrast_ratio(p.text, p.window_bg);
#pragma once
#include <imgui.h>

#include <cstdint>

enum class Theme { Dark, Light };

// what an ink means; the panels name the role, the palette picks a colour per theme
enum class Ink : int {
    Good,        // fits comfortably, success messages, meets the SLA, decode series
    Warn,        // fits with little headroom, notices
    Bad,         // does not fit, error messages
    Uma,         // fits after raising the unified-memory GPU limit
    Offload,     // runs with layers in system RAM
    Unknown,     // status unknown
    Weights,     // weights part, the main curve of a plot ("total")
    KvCache,     // KV cache part and series
    Compute,     // compute buffers, prefill
    Overhead,    // runtime overhead, neutral class
    Limit,       // a soft limit line (usable memory, the chosen point)
    Hard,        // a hard limit line (physical memory, the SLA, all-reduce)
    Reference,   // reference lines (predicted = measured, the roofline)
    Count
};

struct Rgba8 {
    uint8_t r = 0, g = 0, b = 0, a = 255;
};

// the alpha of a reference band (the accuracy plot's +-25 % lines): still 3:1 on the plot, fainter than a line
constexpr uint8_t kReferenceBandAlpha = 180;

struct Palette {
    Rgba8 window_bg, text, text_disabled, frame_bg, popup_bg, border;
    Rgba8 button_hovered, button_active, header_hovered, slider_grab;   // where ImGui's defaults miss AA
    Rgba8 ink[(int)Ink::Count];
};

// the palette of a theme
const Palette& palette(Theme t);
// a theme's ImGui style: ImGui's light or dark defaults with the palette's base colours on top
void theme_style(ImGuiStyle& style, Theme t);
// the theme a style was made with (by its window background's lightness)
Theme theme_of(const ImGuiStyle& style);
// WCAG 2.x contrast ratio (1..21) of fg drawn over bg; fg's alpha is blended onto bg first, bg must be opaque
double contrast_ratio(Rgba8 fg, Rgba8 bg);
// fg's alpha blended onto an opaque bg
Rgba8 blend_over(Rgba8 fg, Rgba8 bg);
// the background plots draw on (plot.cpp: FrameBg at 60 % over the window)
Rgba8 plot_background(const Palette& p);
// black or white, whichever reads better on bg (labels inside coloured bars)
Rgba8 text_on(Rgba8 bg);
ImU32 to_u32(Rgba8 c);
ImVec4 to_vec4(Rgba8 c);
// the current ImGui style's ink (its theme by theme_of), optionally more transparent (reference bands)
ImU32 ink_u32(Ink ink, uint8_t alpha = 255);
ImVec4 ink_vec4(Ink ink);
// black or white text for a label drawn inside a bar of the current theme's ink
ImU32 ink_label_u32(Ink ink);
