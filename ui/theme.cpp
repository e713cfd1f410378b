// The palette of both themes and the WCAG contrast arithmetic (see theme.h).
#include "theme.h"

#include <cmath>

namespace {
// Dark: the hues the panels had, lightened where one fell under 4.5:1 on the plot or frame background.
// Light: the same hues darkened to >= 4.5:1 on the light window (the old yellow limit label was 1.5:1, green 2.0:1).
constexpr Palette kDark = {
    /*window_bg*/ {23, 26, 31, 255}, /*text*/ {230, 232, 237, 255}, /*text_disabled*/ {160, 160, 165, 255},
    /*frame_bg*/ {41, 74, 122, 138}, /*popup_bg*/ {20, 20, 20, 240}, /*border*/ {118, 118, 136, 255},
    // ImGui's dark hover/active blues under light text were 2.5-3.4:1: darker blues of the same hue
    /*button_hovered*/ {38, 98, 178, 255}, /*button_active*/ {30, 84, 160, 255}, /*header_hovered*/ {38, 98, 178, 204},
    /*slider_grab*/ {61, 133, 224, 255},
    {
        /*Good*/ {76, 199, 115, 255}, /*Warn*/ {242, 179, 51, 255}, /*Bad*/ {248, 120, 120, 255},
        /*Uma*/ {105, 165, 255, 255}, /*Offload*/ {140, 160, 250, 255}, /*Unknown*/ {165, 165, 165, 255},
        /*Weights*/ {100, 158, 250, 255}, /*KvCache*/ {178, 134, 245, 255}, /*Compute*/ {240, 160, 60, 255},
        /*Overhead*/ {162, 162, 172, 255}, /*Limit*/ {240, 200, 80, 255}, /*Hard*/ {240, 120, 110, 255},
        /*Reference*/ {200, 200, 210, 255},
    }};
constexpr Palette kLight = {
    /*window_bg*/ {247, 247, 245, 255}, /*text*/ {26, 28, 33, 255}, /*text_disabled*/ {108, 108, 112, 255},
    /*frame_bg*/ {255, 255, 255, 255}, /*popup_bg*/ {255, 255, 255, 250}, /*border*/ {0, 0, 0, 118},
    // ImGui's light defaults, but the slider grab opaque (at 78 % it was 2.3:1 on the white frame); this blue is 3:1 on
    // the frame and still 5.7:1 under the slider's dark text, which ImGui draws over the grab
    /*button_hovered*/ {66, 150, 250, 255}, /*button_active*/ {15, 135, 250, 255}, /*header_hovered*/ {66, 150, 250, 204},
    /*slider_grab*/ {66, 150, 250, 255},
    {
        /*Good*/ {22, 122, 58, 255}, /*Warn*/ {150, 90, 0, 255}, /*Bad*/ {196, 30, 30, 255},
        /*Uma*/ {20, 95, 200, 255}, /*Offload*/ {70, 80, 190, 255}, /*Unknown*/ {105, 105, 105, 255},
        /*Weights*/ {28, 94, 200, 255}, /*KvCache*/ {120, 60, 200, 255}, /*Compute*/ {170, 85, 0, 255},
        /*Overhead*/ {100, 100, 110, 255}, /*Limit*/ {128, 96, 0, 255}, /*Hard*/ {186, 28, 48, 255},
        /*Reference*/ {100, 100, 115, 255},
    }};
static_assert(sizeof(kDark.ink) / sizeof(kDark.ink[0]) == (size_t)Ink::Count, "one colour per Ink");

// sRGB channel to linear light (WCAG 2.x relative luminance)
double linear(uint8_t c) {
    const double s = c / 255.0;
    return s <= 0.04045 ? s / 12.92 : std::pow((s + 0.055) / 1.055, 2.4);
}
double luminance(Rgba8 c) { return 0.2126 * linear(c.r) + 0.7152 * linear(c.g) + 0.0722 * linear(c.b); }
}  // namespace

const Palette& palette(Theme t) { return t == Theme::Light ? kLight : kDark; }

Rgba8 blend_over(Rgba8 fg, Rgba8 bg) {
    const double a = fg.a / 255.0;
    auto mix = [a](uint8_t f, uint8_t b) { return (uint8_t)std::lround(f * a + b * (1 - a)); };
    return {mix(fg.r, bg.r), mix(fg.g, bg.g), mix(fg.b, bg.b), 255};
}

double contrast_ratio(Rgba8 fg, Rgba8 bg) {
    const double l1 = luminance(blend_over(fg, bg)), l2 = luminance(bg);
    return (std::fmax(l1, l2) + 0.05) / (std::fmin(l1, l2) + 0.05);
}

Rgba8 plot_background(const Palette& p) {
    Rgba8 f = p.frame_bg;
    f.a = (uint8_t)std::lround(f.a * 0.6);
    return blend_over(f, p.window_bg);
}

Rgba8 text_on(Rgba8 bg) {
    const Rgba8 black{0, 0, 0, 255}, white{255, 255, 255, 255};
    return contrast_ratio(black, bg) >= contrast_ratio(white, bg) ? black : white;
}

ImU32 to_u32(Rgba8 c) { return IM_COL32(c.r, c.g, c.b, c.a); }
ImVec4 to_vec4(Rgba8 c) { return ImVec4(c.r / 255.0f, c.g / 255.0f, c.b / 255.0f, c.a / 255.0f); }

void theme_style(ImGuiStyle& style, Theme t) {
    const Palette& p = palette(t);
    if (t == Theme::Light) ImGui::StyleColorsLight(&style);
    else ImGui::StyleColorsDark(&style);
    style.Colors[ImGuiCol_WindowBg] = to_vec4(p.window_bg);
    style.Colors[ImGuiCol_Text] = to_vec4(p.text);
    style.Colors[ImGuiCol_TextDisabled] = to_vec4(p.text_disabled);
    style.Colors[ImGuiCol_FrameBg] = to_vec4(p.frame_bg);
    style.Colors[ImGuiCol_PopupBg] = to_vec4(p.popup_bg);
    style.Colors[ImGuiCol_Border] = to_vec4(p.border);
    // frames (check boxes, inputs, combos) get a 1 px edge: neither theme's frame stands out from its window by
    // itself (light: white on 247 grey, 1.07:1; dark: 1.39:1), so an unticked check box was all but invisible; the
    // border is >= 3:1 against the window (WCAG 1.4.11, non-text contrast)
    style.FrameBorderSize = 1.0f;
    style.Colors[ImGuiCol_ButtonHovered] = to_vec4(p.button_hovered);
    style.Colors[ImGuiCol_ButtonActive] = to_vec4(p.button_active);
    style.Colors[ImGuiCol_HeaderHovered] = to_vec4(p.header_hovered);
    style.Colors[ImGuiCol_SliderGrab] = to_vec4(p.slider_grab);
}

Theme theme_of(const ImGuiStyle& style) {
    const ImVec4 bg = style.Colors[ImGuiCol_WindowBg];
    return bg.x + bg.y + bg.z > 1.5f ? Theme::Light : Theme::Dark;
}

ImU32 ink_u32(Ink ink, uint8_t alpha) {
    Rgba8 c = palette(theme_of(ImGui::GetStyle())).ink[(int)ink];
    c.a = alpha;
    return to_u32(c);
}
ImVec4 ink_vec4(Ink ink) { return to_vec4(palette(theme_of(ImGui::GetStyle())).ink[(int)ink]); }
ImU32 ink_label_u32(Ink ink) { return to_u32(text_on(palette(theme_of(ImGui::GetStyle())).ink[(int)ink])); }
