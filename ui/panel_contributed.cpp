// Contributed runs: read a contributed-runs file (JSON Lines written by "Your own runs" -> Export, by
// `llmsim-cli calibrate-device --export`, or the files under assets/calibration/contributed/). Rows measured on the
// scenario's device show beside the estimate (the Simulator's "Measured on this device", marked contributed) and here,
// and "Use as device profile" fits the same per-device correction as your own runs, marked "calibrated on N contributed
// rows". A bad file gets a message naming the line and changes nothing. Nothing leaves the page.
#include <imgui.h>
#include <imgui_stdlib.h>

#include <nlohmann/json.hpp>

#include "core/format.h"
#include "evidence/contributed.h"
#include "evidence/evidence.h"
#include "panels.h"
#include "runtime/speed_glue.h"
#include "widgets.h"

bool load_contributed_runs(AppState& app, const std::string& text, const std::string& name) {
    ContributedState& st = app.contributed;
    std::vector<llmsim::CalibrationRow> rows;
    std::string err;
    if (!llmsim::parse_contributed_runs(text, rows, err)) {   // the rows read before stay
        st.ok = false;
        st.message = "Not read (" + name + "): " + err;
        request_frames(app);
        return false;
    }
    app.derived.evidence.clear();   // it points into the rows about to be replaced; mark_changed recomputes it
    if (app.device_profile_on && app.device_profile.contributed) app.device_profile_on = false;
    st.rows = std::move(rows);
    st.file_name = name;
    st.fitted_ok = false;
    st.ok = true;
    st.message = std::to_string(st.rows.size()) + " contributed rows read from " + name + ".";
    mark_changed(app);
    return true;
}

namespace {

void contributed_rows_table(AppState& app, const ContributedState& st, const llmsim::Hardware& hw) {
    ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_SizingStretchProp;
    if (!ImGui::BeginTable("contributed", 5, flags)) return;
    const char* names[] = {"Model", "Test", "Measured t/s", "Predicted (band)", "Source"};
    const float weights[] = {2.4f, 1.3f, 1.1f, 1.7f, 2.5f};
    for (int i = 0; i < 5; ++i) ImGui::TableSetupColumn(names[i], 0, weights[i]);
    const char* tips[] = {"the model and quant the row measured", "ppN = prefill of N prompt tokens, tgN = decode of N tokens, at a depth",
                          "what the contributor measured", "our prediction for exactly that row, with the band of its hardware class",
                          "who contributed it, when, and their note"};
    table_header_row(app, "contributed", "llrrl", tips);
    for (const llmsim::CalibrationRow& r : st.rows) {
        if (!llmsim::row_on_device(app.catalog, r, hw)) continue;
        const llmsim::SpeedResult p = llmsim::estimate_speed(r.scenario, llmsim::default_speed_params());
        ImGui::TableNextRow();
        ImGui::TableNextColumn(); ImGui::TextUnformatted((r.model + " " + r.quant).c_str());
        ImGui::TableNextColumn();
        ImGui::Text("%s%lld @ d%lld%s", r.scenario.test == llmsim::SpeedTest::Prefill ? "pp" : "tg", (long long)r.scenario.tokens,
                    (long long)r.scenario.depth, r.offload ? " (offload)" : "");
        ImGui::TableNextColumn(); text_right(llmsim::format_sig(r.measured_tokens_per_s).c_str());
        ImGui::TableNextColumn();
        text_right(p.ok ? (llmsim::format_sig(p.tokens_per_s) + " (" + llmsim::format_sig(p.low) + "–" + llmsim::format_sig(p.high) + ")").c_str() : "—");
        ImGui::TableNextColumn(); ImGui::TextUnformatted(r.source.c_str());
        if (ImGui::IsItemHovered())   // the cell cuts a long note short
            ImGui::SetTooltip("%s\n%s%s%s%s", r.source.c_str(), r.device_printed.empty() ? "" : "device as printed: ",
                              r.device_printed.c_str(), r.date.empty() ? "" : "; measured ", r.date.c_str());
    }
    ImGui::EndTable();
}

// "Use as device profile": fitted on click for the device shown, the same way as your own runs
void profile_toggle(AppState& app, ContributedState& st, const llmsim::Hardware& hw) {
    bool use = app.device_profile_on && app.device_profile.contributed && llmsim::profile_applies(app.device_profile, hw);
    const bool clicked = ImGui::Checkbox(("Use as device profile for " + hw.name + " (contributed)").c_str(), &use);
    note_widget(app, "contributed-use");
    if (!clicked) return;
    if (!use) { app.device_profile_on = false; mark_changed(app); return; }
    std::string err;
    st.fitted_ok = llmsim::fit_contributed_profile(app.catalog, st.rows, hw, st.fitted, err);
    if (!st.fitted_ok) { st.ok = false; st.message = "No profile: " + err; return; }
    st.fitted.source += " from " + st.file_name;
    app.device_profile = st.fitted;
    app.device_profile_on = true;
    st.message = llmsim::calibrated_label(st.fitted) + ".";
    mark_changed(app);
}

}  // namespace

void draw_contributed(AppState& app) {
    ContributedState& st = app.contributed;
    ImGui::TextWrapped("Load runs others measured (a .jsonl file exported from \"Your own runs\", or from the project's "
                       "assets/calibration/contributed/). Rows on %s show beside the estimate, marked contributed; nothing "
                       "leaves this %s.", app.scenario_hardware_ok ? app.scenario_hardware.name.c_str() : "the device you pick",
                       app.open_file_dialog ? "page" : "app");
    ImGui::InputTextMultiline("##contributed", &st.text, ImVec2(-1, ImGui::GetTextLineHeight() * 5), ImGuiInputTextFlags_AllowTabInput);
    note_widget(app, "contributed-text");
    if (ImGui::Button("Read contributed runs")) load_contributed_runs(app, st.text, "pasted text");
    note_widget(app, "contributed-read");
    if (app.open_file_dialog) {
        same_line_if_fits(button_width("Open .jsonl file…"));
        if (ImGui::Button("Open .jsonl file…")) { app.vision_file.expect_mmproj = false; app.open_file_dialog(); }
    }
    ImGui::PushTextWrapPos(0.0f);
    if (!st.message.empty()) ImGui::TextColored(ink_vec4(st.ok ? Ink::Good : Ink::Bad), "%s", st.message.c_str());
    ImGui::PopTextWrapPos();
    if (st.rows.empty() || !app.scenario_hardware_ok) return;
    const llmsim::Hardware& hw = app.scenario_hardware;
    int on_device = 0;
    for (const llmsim::CalibrationRow& r : st.rows) on_device += llmsim::row_on_device(app.catalog, r, hw) ? 1 : 0;
    ImGui::Text("%d of %zu rows were measured on %s", on_device, st.rows.size(), hw.name.c_str());
    if (on_device == 0) return;
    contributed_rows_table(app, st, hw);
    profile_toggle(app, st, hw);
}

std::string contributed_json(const AppState& app) {
    using nlohmann::json;
    const ContributedState& st = app.contributed;
    int on_device = 0;
    if (app.scenario_hardware_ok)
        for (const llmsim::CalibrationRow& r : st.rows) on_device += llmsim::row_on_device(app.catalog, r, app.scenario_hardware) ? 1 : 0;
    json j = {{"rows", st.rows.size()}, {"on_device", on_device}, {"file", st.file_name}, {"message", st.message}, {"ok", st.ok},
              {"profile_on", app.device_profile_on && app.device_profile.contributed}};
    return j.dump(-1, ' ', false, json::error_handler_t::replace);
}
