// The scenario bar: model, hardware, quant and context are always visible; every section reacts to them.
#include <imgui.h>

#include <algorithm>

#include "a11y.h"
#include "core/format.h"
#include "panels.h"
#include "url_state.h"
#include "widgets.h"

void draw_top_bar(AppState& app) {
    ImGui::PushFont(app.font_bold);
    ImGui::TextUnformatted("llmsim");
    ImGui::PopFont();
    ImGui::SameLine();
    float w = ImGui::GetContentRegionAvail().x;
    const float em = ImGui::GetFontSize();
    bool narrow = w < em * 46;   // phone width: model on its own row, the rest below
    if (app.open_model_search) { open_popup_of_combo("##model"); app.open_model_search = false; }   // Ctrl/Cmd-K
    model_picker(app, "##model", narrow ? -1 : w * 0.34f);
    top_bar_tab_stop(app, "##model");
    note_widget(app, "model-picker");
    if (!narrow) ImGui::SameLine();
    float full = ImGui::GetContentRegionAvail().x;
    // wide enough for the quant's name and the combo arrow ("MXFP4_MOE" would be cut at 6.5 em)
    const float qw = std::max(em * 6.5f, ImGui::CalcTextSize(app.scenario.quant.c_str()).x +
                                             ImGui::GetStyle().FramePadding.x * 2 + ImGui::GetFrameHeight());
    hardware_picker(app, "##hardware", narrow ? full - qw - ImGui::GetStyle().ItemSpacing.x : w * 0.26f);
    note_widget(app, "hardware-picker");
    top_bar_tab_stop(app, "##hardware");
    ImGui::SameLine();
    quant_picker(app, "##quant", qw);
    top_bar_tab_stop(app, "##quant");
    if (!narrow) ImGui::SameLine();
    ImGui::SetNextItemWidth(em * 7);
    if (ImGui::BeginCombo("##ctx", (llmsim::format_tokens(app.scenario.ctx_tokens) + " ctx").c_str())) {
        for (int64_t c = 1024; c <= 1048576; c *= 2) {
            if (ImGui::Selectable(llmsim::format_tokens(c).c_str(), c == app.scenario.ctx_tokens)) {
                app.scenario.ctx_tokens = c;
                mark_changed(app);
            }
        }
        ImGui::EndCombo();
    }
    top_bar_tab_stop(app, "##ctx");
    ImGui::SameLine();
    {
        const std::string hash = encode_url_state(app.scenario);
        std::string link = app.share_link ? app.share_link(hash) : "llmsim " + hash;
        copy_button(app, "Copy link", link);
        top_bar_tab_stop(app, "Copy link");
        note_widget(app, "copy-link");
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", link.c_str());
    }
    ImGui::SameLine();
    if (ImGui::SmallButton(app.scenario.theme == "light" ? "Dark###theme" : "Light###theme")) {   // one id: keyboard focus stays
        app.scenario.theme = app.scenario.theme == "light" ? "dark" : "light";
        apply_theme(app, app.ui_scale);
        mark_changed(app);
    }
    note_widget(app, "theme-toggle");
    top_bar_tab_stop(app, "###theme");
    handle_top_bar_keys(app);
    ImGui::Separator();
}
