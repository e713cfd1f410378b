// The frame function and app-wide pieces: catalog loading, theme, fonts, page layout.
// [SECTION] init
// [SECTION] theme and fonts
// [SECTION] layout
#include <imgui.h>

#include <cstring>
#include <string_view>

#include "a11y.h"
#include "app_state.h"
#include "core/format.h"
#include "panels.h"
#include "widgets.h"

namespace llmsim { std::string_view embedded_font(const char* name); }

// [SECTION] init ------------------------------------------------------------------------------------------

void init_app(AppState& app) {
    std::string err;
    if (!llmsim::load_embedded_catalog(app.catalog, err)) app.catalog_error = err;
    app.scroll_to_section = !app.scenario.section.empty();
}

void mark_changed(AppState& app) { ++app.state_version; }

const std::vector<SectionInfo>& sections() {
    static const std::vector<SectionInfo> list = {
        {"verdict", "Fit & speed", draw_verdict, true},
        {"model", "Model", draw_model_header, true},
        {"simulator", "Simulator", draw_simulator, true},
        {"quants", "Quantizations", draw_quants},
        {"leaderboard", "Hardware leaderboard", draw_leaderboard},
        {"recommend", "Recommended hardware", draw_recommend},
        {"best", "Best models for this device", draw_best_models},
        {"compare", "Compare setups", draw_compare},
        {"context", "Context scaling", draw_context},
        {"command", "Run it with llama.cpp (and MLX on a Mac)", draw_command},
        {"serving", "Serving many users (vLLM, SGLang, llama-server)", draw_serving},
        {"spec", "Speculative decoding (draft model)", draw_spec},
        {"lora", "LoRA adapters at inference", draw_lora},
        {"train", "Fine-tuning memory (full, LoRA, QLoRA)", draw_train},
        {"vision", "Vision & audio: images and audio through the projector (--mmproj)", draw_vision},
        {"embeddings", "Embeddings and rerankers", draw_embed},
        {"cost", "Buy vs cloud vs API", draw_cost},
        {"faq", "FAQ", draw_faq},
        {"accuracy", "Accuracy: predictions vs measurements", draw_accuracy},
        {"myruns", "Your own runs", draw_my_runs},
        {"contributed", "Contributed runs", draw_contributed},
        {"import", "Import a model", draw_import},
    };
    return list;
}

// [SECTION] theme and fonts -------------------------------------------------------------------------------

void load_fonts(AppState& app, float scale) {
    ImGuiIO& io = ImGui::GetIO();
    io.Fonts->Clear();
    ImFontConfig cfg;
    cfg.FontDataOwnedByAtlas = false;   // the bytes are static arrays in the binary
    cfg.OversampleH = 2;
    // Latin-1, general punctuation (— – … ‰), arrows, math (≤ ≥ × ≈), geometric shapes (● ▸)
    static const ImWchar ranges[] = {0x0020, 0x00FF, 0x2000, 0x206F, 0x2190, 0x21FF, 0x2200, 0x22FF, 0x25A0, 0x25FF, 0};
    auto add = [&](const char* name, float px) -> ImFont* {
        std::string_view data = llmsim::embedded_font(name);
        if (data.empty()) return io.Fonts->AddFontDefault();
        return io.Fonts->AddFontFromMemoryTTF((void*)data.data(), (int)data.size(), px * scale, &cfg, ranges);
    };
    app.font_ui = add("ui", 15.0f);
    app.font_bold = add("ui-bold", 15.0f);
    app.font_mono = add("mono", 14.0f);
    io.FontGlobalScale = 1.0f / scale;  // fonts are rasterised at device pixels, laid out in logical pixels
    io.Fonts->Build();
    app.ui_scale = scale;
}

void apply_theme(AppState& app, float scale) {
    ImGuiStyle& style = ImGui::GetStyle();
    style = ImGuiStyle();
    theme_style(style, app.scenario.theme == "light" ? Theme::Light : Theme::Dark);   // the palette: theme.cpp
    style.WindowRounding = 0.0f;
    style.FrameRounding = 4.0f;
    style.GrabRounding = 4.0f;
    style.FramePadding = ImVec2(8, 5);
    style.ItemSpacing = ImVec2(8, 6);
    style.CellPadding = ImVec2(6, 4);
    style.WindowPadding = ImVec2(14, 12);
    (void)scale;
}

// [SECTION] layout ----------------------------------------------------------------------------------------

void draw_app(AppState& app) {
    ImGuiIO& io = ImGui::GetIO();
    ImGui::SetNextWindowPos(ImVec2(0, 0));
    ImGui::SetNextWindowSize(io.DisplaySize);
    ImGuiWindowFlags flags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove |
                             ImGuiWindowFlags_NoBringToFrontOnFocus | ImGuiWindowFlags_NoSavedSettings;
    ImGui::Begin("llmsim", nullptr, flags);
    if (!app.catalog_error.empty()) {
        ImGui::TextColored(ink_vec4(Ink::Bad), "The catalog could not be loaded: %s", app.catalog_error.c_str());
        ImGui::End();
        return;
    }
    update_derived(app);
    if (!app.first_view_light) finish_derived(app);
    const bool embed = !app.scenario.embed.empty();
    // the web page's first frame draws the sections the viewport shows and only the headers of those below it (the
    // next frame draws everything); a link's section= scroll needs the whole layout, so it draws everything at once
    const bool light = app.first_view_light && !app.scroll_to_section;
    if (!embed) draw_top_bar(app);
    if (!app.status_line.empty()) {
        ImGui::TextColored(ink_vec4(Ink::Warn), "%s", app.status_line.c_str());
        ImGui::SameLine();
        if (ImGui::SmallButton("dismiss")) app.status_line.clear();
    }
    if (embed) {
        // one-line scenario summary and a way out to the full page
        const Derived& d = app.derived;
        ImGui::PushTextWrapPos(0.0f);   // phone width: wrap, do not cut
        ImGui::TextDisabled("%s · %s · %s · %s context", d.model ? d.model->name.c_str() : app.scenario.model.c_str(),
                            d.hardware ? d.hardware->name.c_str() : app.scenario.hardware.c_str(), app.scenario.quant.c_str(),
                            llmsim::format_tokens(app.scenario.ctx_tokens).c_str());
        ImGui::PopTextWrapPos();
        if (app.open_full_page) {
            same_line_if_fits(button_width("open in llmsim"));
            if (ImGui::SmallButton("open in llmsim")) app.open_full_page();
        }
    }
    // no ImGui nav inside the sections: Page Up/Down, Home/End and Space scroll them like a page (a11y.h)
    ImGui::BeginChild("sections", ImVec2(0, 0), false, ImGuiWindowFlags_NoNavInputs);
    scroll_sections_with_keys(app);
    const float content_top = ImGui::GetCursorPosY();
    bool embed_found = false;
    for (const SectionInfo& s : sections()) {
        if (embed && app.scenario.embed != s.key) continue;
        ImGui::PushID(s.key);
        if (embed) {
            embed_found = true;
            if (!s.first_view) finish_derived(app);   // a no-op unless this frame left those rows for later
            s.draw(app);
        } else {
            ImGui::PushFont(app.font_bold);
            bool open = ImGui::CollapsingHeader(s.title, ImGuiTreeNodeFlags_DefaultOpen);
            ImGui::PopFont();
            if (app.scroll_to_section && app.scenario.section == s.key) {
                ImGui::SetScrollHereY(0.0f);
                app.scroll_to_section = false;
            }
            note_widget(app, (std::string("section-") + s.key).c_str());
            if (open && light && !ImGui::IsRectVisible(ImVec2(1, 1))) open = false;   // below the viewport: next frame
            if (open) {
                if (!s.first_view) finish_derived(app);
                ImGui::Indent(6);
                s.draw(app);
                ImGui::Unindent(6);
                ImGui::Spacing();
            }
        }
        ImGui::PopID();
    }
    if (embed && !embed_found) {
        std::string known;
        for (const SectionInfo& s : sections()) known += std::string(known.empty() ? "" : ", ") + s.key;
        ImGui::TextWrapped("Unknown section '%s' for embed= (known: %s)", app.scenario.embed.c_str(), known.c_str());
    }
    // embed mode: the page sizes its iframe to the content (web platform posts it to the host page)
    app.embed_content_height = ImGui::GetCursorPosY() - content_top + ImGui::GetCursorStartPos().y +
                               ImGui::GetStyle().WindowPadding.y * 2 + ImGui::GetFrameHeightWithSpacing() * (embed ? 1.5f : 0);
    ImGui::EndChild();
    ImGui::End();
    draw_pinned_explanation(app);
}
