// WCAG AA contrast of every colour the app draws text and plots with, in both themes (ui/theme.cpp's palette and
// the ImGui style theme_style() builds from it). AA: 4.5:1 for text, 3:1 for graphics (WCAG 2.1, 1.4.3 / 1.4.11).
// The expected ratios of the formula itself are the W3C's worked values (black/white 21:1, #767676 on white 4.54:1).
#include <catch2/catch.hpp>

#include "theme.h"

#include <string>

namespace {
const char* kInkNames[] = {"Good", "Warn", "Bad", "Uma", "Offload", "Unknown", "Weights", "KvCache", "Compute",
                           "Overhead", "Limit", "Hard", "Reference"};
static_assert(sizeof(kInkNames) / sizeof(kInkNames[0]) == (size_t)Ink::Count, "a name per Ink");

Rgba8 from_vec4(const ImVec4& v) {
    auto c = [](float f) { return (uint8_t)(f <= 0 ? 0 : f >= 1 ? 255 : (int)(f * 255.0f + 0.5f)); };
    return {c(v.x), c(v.y), c(v.z), c(v.w)};
}
struct Background { const char* name; Rgba8 rgb; };
// the opaque backgrounds text lands on: the window, a plot, a tooltip, an input frame
std::vector<Background> backgrounds(const Palette& p) {
    return {{"window", p.window_bg}, {"plot", plot_background(p)}, {"popup", blend_over(p.popup_bg, p.window_bg)},
            {"frame", blend_over(p.frame_bg, p.window_bg)}};
}
}  // namespace

TEST_CASE("contrast_ratio follows WCAG 2.x relative luminance") {
    const Rgba8 black{0, 0, 0, 255}, white{255, 255, 255, 255}, grey76{0x76, 0x76, 0x76, 255};
    CHECK(contrast_ratio(black, white) == Approx(21.0));
    CHECK(contrast_ratio(white, white) == Approx(1.0));
    CHECK(contrast_ratio(grey76, white) == Approx(4.54).margin(0.005));   // the W3C's smallest AA grey on white
    CHECK(contrast_ratio(white, grey76) == Approx(contrast_ratio(grey76, white)));   // symmetric
    const Rgba8 half_black{0, 0, 0, 128};
    CHECK(blend_over(half_black, white).r == 127);
}

TEST_CASE("every ink reads as text (4.5:1) on each background of both themes") {
    for (Theme t : {Theme::Dark, Theme::Light}) {
        const Palette& p = palette(t);
        for (const Background& bg : backgrounds(p)) {
            for (int i = 0; i < (int)Ink::Count; ++i) {
                INFO((t == Theme::Light ? "light " : "dark ") << kInkNames[i] << " on " << bg.name);
                CHECK(contrast_ratio(p.ink[i], bg.rgb) >= 4.5);
            }
            INFO((t == Theme::Light ? "light" : "dark") << " text / disabled text on " << bg.name);
            CHECK(contrast_ratio(p.text, bg.rgb) >= 7.0);   // body text: AAA
            CHECK(contrast_ratio(p.text_disabled, bg.rgb) >= 4.5);
        }
        // the reference band of the accuracy plot is a graphic: 3:1 on the plot
        Rgba8 band = p.ink[(int)Ink::Reference];
        band.a = kReferenceBandAlpha;
        INFO("reference band");
        CHECK(contrast_ratio(band, plot_background(p)) >= 3.0);
    }
}

TEST_CASE("labels inside coloured bars read on every ink") {
    for (Theme t : {Theme::Dark, Theme::Light})
        for (int i = 0; i < (int)Ink::Count; ++i) {
            const Rgba8 ink = palette(t).ink[i];
            INFO(kInkNames[i]);
            CHECK(contrast_ratio(text_on(ink), ink) >= 4.5);
        }
}

TEST_CASE("the ImGui style of each theme: text on its buttons, headers and frames, marks on frames") {
    for (Theme t : {Theme::Dark, Theme::Light}) {
        ImGuiStyle style;
        theme_style(style, t);
        CHECK(theme_of(style) == t);
        const Rgba8 win = from_vec4(style.Colors[ImGuiCol_WindowBg]);
        const Rgba8 text = from_vec4(style.Colors[ImGuiCol_Text]);
        const Rgba8 frame = blend_over(from_vec4(style.Colors[ImGuiCol_FrameBg]), win);
        const ImGuiCol text_bgs[] = {ImGuiCol_WindowBg, ImGuiCol_FrameBg, ImGuiCol_FrameBgHovered, ImGuiCol_Button,
                                     ImGuiCol_ButtonHovered, ImGuiCol_ButtonActive, ImGuiCol_Header, ImGuiCol_HeaderHovered,
                                     ImGuiCol_TableHeaderBg, ImGuiCol_PopupBg};
        for (ImGuiCol c : text_bgs) {
            const Rgba8 bg = blend_over(from_vec4(style.Colors[c]), win);
            INFO((t == Theme::Light ? "light" : "dark") << " text on " << ImGui::GetStyleColorName(c));
            CHECK(contrast_ratio(text, bg) >= 4.5);
        }
        for (ImGuiCol c : {ImGuiCol_CheckMark, ImGuiCol_SliderGrab}) {
            INFO((t == Theme::Light ? "light " : "dark ") << ImGui::GetStyleColorName(c) << " on the frame");
            CHECK(contrast_ratio(from_vec4(style.Colors[c]), frame) >= 3.0);
        }
        // a frame's edge (an unticked check box, an empty input) is visible: its border is 3:1 on the window around
        // it (WCAG 1.4.11)
        {
            INFO((t == Theme::Light ? "light" : "dark") << " frame border");
            CHECK(style.FrameBorderSize >= 1.0f);
            const Rgba8 border = blend_over(from_vec4(style.Colors[ImGuiCol_Border]), win);
            CHECK(contrast_ratio(border, win) >= 3.0);
        }
        // ImGui draws a slider's value over its grab. Light: the grab is dark enough for 3:1 on the frame and light
        // enough for the dark text. Dark: both cannot hold (3:1 on the dark frame is too light under light text);
        // there the grab is ImGui's own, 10 px wide, and the text stays readable on the frame around it.
        if (t == Theme::Light) {
            INFO("light text over the slider grab");
            CHECK(contrast_ratio(text, from_vec4(style.Colors[ImGuiCol_SliderGrab])) >= 4.5);
        }
        CHECK(from_vec4(style.Colors[ImGuiCol_Text]).r == palette(t).text.r);   // the palette is what is applied
    }
}
