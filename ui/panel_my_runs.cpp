// Your own runs: paste llama-bench output (its Markdown table, -o json / jsonl) or llama-server timings, measured
// on the scenario's device; each row appears next to our prediction for exactly that row, and "use as device
// profile" applies the engine's per-device correction (engine/speed/device_profile.h) to every estimate for that
// device, marked "calibrated on your N rows". "Export for contributing" writes the rows as calibration records
// (engine/evidence/contributed.h) to download or copy, for a pull request (docs/contributing-runs.md). Nothing leaves
// the page unless the user does it: the pasted text and the rows stay in this panel, the profile in the session
// (localStorage only when "keep" is ticked), never in the URL.
#include <imgui.h>
#include <imgui_stdlib.h>

#include <nlohmann/json.hpp>

#include <ctime>

#include "api/bench_import.h"
#include "evidence/contributed.h"
#include "speed/device_profile.h"
#include "core/format.h"
#include "panels.h"
#include "runtime/speed_glue.h"
#include "widgets.h"

namespace {

// the profile in use changed: every estimate for its device is redone; kept in localStorage only when asked
void profile_changed(AppState& app, const MyRunsState& st) {
    if (app.keep_device_profile)
        app.keep_device_profile(st.keep && app.device_profile_on ? llmsim::device_profile_to_json(app.device_profile) : "");
    mark_changed(app);
}

// parse the pasted text, match each row, fit the profile; bad input: a message, and the previous rows stay
void read_rows(AppState& app, MyRunsState& st) {
    if (!app.scenario_hardware_ok) { st.ok = false; st.message = "Pick the device the rows were measured on first."; return; }
    const llmsim::Hardware& hw = app.scenario_hardware;
    llmsim::BenchImport imp;
    std::string err;
    if (!llmsim::parse_bench_output(st.text, imp, err)) { st.ok = false; st.message = "Not read: " + err; return; }
    st.imp = std::move(imp);
    std::vector<llmsim::ProfileSample> samples;
    std::vector<llmsim::BenchMatch> matches;
    llmsim::bench_samples(app.catalog, st.imp, hw, "", samples, matches);
    st.matches.clear();
    for (const llmsim::BenchMatch& m : matches)
        st.matches.push_back({m.row, m.model ? m.model->id : "", m.why, m.predicted_tps, m.low, m.high, m.model && m.model->is_moe()});
    st.hardware_name = hw.name;
    llmsim::DeviceProfile prof;
    st.fitted_ok = llmsim::fit_device_profile(samples, llmsim::default_speed_params(), hw, prof, err);
    if (st.fitted_ok) {
        prof.source = st.imp.format + " output pasted in the page, " + std::to_string(samples.size()) + " rows";
        st.fitted = prof;
    }
    st.ok = st.fitted_ok;
    st.message = std::to_string(st.imp.rows.size()) + " rows read (" + st.imp.format + ") for " + hw.name + "; " +
                 std::to_string(samples.size()) + " matched a catalog model" + (st.fitted_ok ? "." : ": no profile (" + err + ").");
    if (app.device_profile_on) {   // the profile in use follows the rows now shown
        app.device_profile_on = st.fitted_ok;
        if (st.fitted_ok) app.device_profile = st.fitted;
        profile_changed(app, st);
    }
}

// our prediction for the row with the fitted profile applied (the same scaling evaluate() applies)
double with_profile(const llmsim::DeviceProfile& p, const MyRunsRow& m) {
    llmsim::SpeedResult r;
    r.ok = true;
    r.tokens_per_s = m.predicted_tps;
    r.low = m.low;
    r.high = m.high;
    r.time_s = m.predicted_tps > 0 ? m.row->tokens / m.predicted_tps : 0;
    llmsim::apply_device_profile(p, m.row->kind, r, m.moe);
    return r.tokens_per_s;
}

void my_runs_table(AppState& app, const MyRunsState& st) {
    ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_SizingStretchProp;
    const bool narrow = ImGui::GetContentRegionAvail().x < ImGui::GetFontSize() * 44;
    ImVec2 outer(0, 0);
    if (narrow) {
        flags = (flags & ~ImGuiTableFlags_SizingStretchProp) | ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_ScrollX;
        outer = ImVec2(0, ImGui::GetFrameHeight() * (std::min<size_t>(st.matches.size(), 12) + 2.5f));
    }
    if (!ImGui::BeginTable("myruns", 6, flags, outer)) return;
    if (narrow) ImGui::TableSetupScrollFreeze(1, 0);
    const char* names[] = {"Test", "Model", "Measured t/s", "Predicted (band)", "With profile", "Used"};
    const float weights[] = {1.3f, 2.2f, 1.2f, 1.8f, 1.1f, 1.6f};   // desktop: shares; phone: each column fits its content
    for (int i = 0; i < 6; ++i) ImGui::TableSetupColumn(names[i], 0, narrow ? 0.0f : weights[i]);
    const char* tips[] = {"llama-bench test: ppN = prefill of N prompt tokens, tgN = decode of N tokens, @ dN = at a context depth of N",
                          "the catalog model the row was matched to (llama.cpp arch + parameter count)",
                          "what you measured (± the run-to-run spread llama-bench printed)",
                          "our prediction for exactly that test on this device, with the band of its hardware class",
                          "the prediction with the profile fitted on these rows (in-sample: the rows it was fitted on)",
                          "whether the row feeds the profile, or why not"};
    table_header_row(app, "myruns", "llrrrl", tips);
    int row = 0;
    for (const MyRunsRow& m : st.matches) {
        const bool used = !m.model_id.empty();
        ImGui::TableNextRow();
        ImGui::TableNextColumn(); ImGui::TextUnformatted(m.row->test_label().c_str());
        ImGui::TableNextColumn(); ImGui::TextUnformatted(used ? m.model_id.c_str() : (m.row->model_label.empty() ? "?" : m.row->model_label.c_str()));
        ImGui::TableNextColumn();
        text_right((llmsim::format_sig(m.row->tps) + (m.row->tps_sd > 0 ? " ± " + llmsim::format_sig(m.row->tps_sd) : "")).c_str());
        note_cell(app, "myruns", row, 2);
        ImGui::TableNextColumn();
        text_right(used ? (llmsim::format_sig(m.predicted_tps) + " (" + llmsim::format_sig(m.low) + "–" + llmsim::format_sig(m.high) + ")").c_str() : "—");
        note_cell(app, "myruns", row, 3);
        ImGui::TableNextColumn();
        text_right(used && st.fitted_ok ? llmsim::format_sig(with_profile(st.fitted, m)).c_str() : "—");
        ImGui::TableNextColumn();
        if (used) ImGui::TextUnformatted("yes");
        else { ImGui::TextDisabled("no"); if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", m.why.c_str()); }
        ++row;
    }
    ImGui::EndTable();
}

// the profile's fit on the rows, and the toggle that applies it
void profile_controls(AppState& app, MyRunsState& st) {
    ImGui::TextWrapped("%s", llmsim::calibrated_label(st.fitted).c_str());
    for (const auto& [name, f] : {std::pair<const char*, const llmsim::ProfileFactor*>{"decode", &st.fitted.decode}, {"prefill", &st.fitted.prefill}}) {
        if (!f->rows) continue;
        ImGui::Bullet();   // wrapped at phone width
        ImGui::TextWrapped("%s: %d rows, median error %s %% -> %s %% on these rows (in-sample)", name, f->rows,
                           llmsim::format_fixed(f->mdape_before * 100, 1).c_str(), llmsim::format_fixed(f->mdape_after * 100, 1).c_str());
    }
    bool on = app.device_profile_on && llmsim::profile_applies(app.device_profile, app.scenario_hardware_ok ? app.scenario_hardware : llmsim::Hardware());
    const bool was = app.device_profile_on;
    bool use = app.device_profile_on;
    if (ImGui::Checkbox(("Use as device profile for " + st.fitted.hardware_name).c_str(), &use)) {
        app.device_profile_on = use;
        if (use) app.device_profile = st.fitted;
        profile_changed(app, st);
    }
    note_widget(app, "myruns-use");
    if (was && !on) text_disabled_after("(on, for its own device only: not the one shown now)");
    if (app.keep_device_profile) {
        same_line_if_fits(ImGui::GetFrameHeight() + ImGui::CalcTextSize("Keep it in this browser").x + 8);
        if (ImGui::Checkbox("Keep it in this browser", &st.keep)) profile_changed(app, st);
        note_widget(app, "myruns-keep");
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("stores the fitted factors (not your pasted text) in this browser's localStorage; never in the URL");
    }
}

// today (UTC) as YYYY-MM-DD: the export's date
std::string today_utc() {
    const std::time_t t = std::time(nullptr);
    const std::tm* tm = std::gmtime(&t);
    char buf[16] = "1970-01-01";
    if (tm) std::strftime(buf, sizeof buf, "%Y-%m-%d", tm);
    return buf;
}

// the rows as contributed calibration records: a note, then download / copy of the JSON Lines built on click
void export_controls(AppState& app, MyRunsState& st) {
    ImGui::Separator();
    ImGui::TextUnformatted("Contribute these runs");
    ImGui::TextWrapped("Export the rows as calibration records (device as printed, build, flags, model, quant, t/s) to send to "
                       "the project as a pull request: docs/contributing-runs.md says how. Nothing is sent from here.");
    ImGui::SetNextItemWidth(-1);
    ImGui::InputTextWithHint("##myruns-note", "note: setup, clocks, driver (one line)", &st.note);
    note_widget(app, "myruns-note");
    if (ImGui::Button("Export for contributing")) {
        llmsim::ContributionInfo info;
        info.note = st.note;
        info.date = today_utc();
        llmsim::ContributedExport ex;
        std::string err;
        st.export_ok = app.scenario_hardware_ok &&
                       llmsim::export_contributed_runs(app.catalog, st.imp, app.scenario_hardware, "", info, ex, err);
        st.export_text = st.export_ok ? ex.jsonl : "";
        st.export_message = st.export_ok ? std::to_string(ex.rows) + " records for " + app.scenario_hardware.name +
                                               (ex.skipped.empty() ? "" : " (" + std::to_string(ex.skipped.size()) + " rows not matched)")
                                         : "Not exported: " + (app.scenario_hardware_ok ? err : std::string("pick the device first"));
    }
    note_widget(app, "myruns-export");
    if (st.export_ok && !st.export_text.empty()) {
        const std::string name = "llmsim-runs-" + app.scenario_hardware.id + "-" + today_utc() + ".jsonl";
        if (app.save_text_file) {
            ImGui::SameLine();
            if (ImGui::Button("Download .jsonl")) st.export_message = app.save_text_file(name, st.export_text);
            note_widget(app, "myruns-download");
        }
        ImGui::SameLine();
        copy_button(app, "Copy##myruns-export", st.export_text);
    }
    if (!st.export_message.empty())
        ImGui::TextColored(ink_vec4(st.export_ok ? Ink::Good : Ink::Bad), "%s", st.export_message.c_str());
}

}  // namespace

void draw_my_runs(AppState& app) {
    MyRunsState& st = app.my_runs;
    ImGui::TextWrapped("Paste your llama-bench output (the Markdown table, -o json or -o jsonl) or llama-server timings, "
                       "measured on %s. Each row appears next to our prediction for it; nothing leaves this %s.",
                       app.scenario_hardware_ok ? app.scenario_hardware.name.c_str() : "the device you pick",
                       app.open_file_dialog ? "page" : "app");
    ImGui::InputTextMultiline("##myruns", &st.text, ImVec2(-1, ImGui::GetTextLineHeight() * 7), ImGuiInputTextFlags_AllowTabInput);
    note_widget(app, "myruns-text");
    if (ImGui::Button("Read rows")) read_rows(app, st);
    note_widget(app, "myruns-read");
    if (!st.text.empty()) {
        ImGui::SameLine();
        if (ImGui::Button("Clear")) st.text.clear();   // the rows read stay until the next read
        note_widget(app, "myruns-clear");
    }
    ImGui::PushTextWrapPos(0.0f);
    if (!st.message.empty())
        ImGui::TextColored(ink_vec4(st.ok ? Ink::Good : Ink::Bad), "%s", st.message.c_str());
    for (const std::string& s : st.imp.skipped) ImGui::TextDisabled("skipped %s", s.c_str());
    ImGui::PopTextWrapPos();
    if (!st.matches.empty()) my_runs_table(app, st);
    if (st.fitted_ok) profile_controls(app, st);
    if (!st.imp.rows.empty()) export_controls(app, st);
}

std::string my_runs_json(const AppState& app) {
    using nlohmann::json;
    const MyRunsState& st = app.my_runs;
    json rows = json::array();
    for (const MyRunsRow& m : st.matches) {
        const bool used = !m.model_id.empty();
        rows.push_back({{"line", m.row->line}, {"test", m.row->test_label()}, {"measured_tps", m.row->tps},
                        {"model", used ? json(m.model_id) : json(nullptr)}, {"predicted_tps", used ? json(m.predicted_tps) : json(nullptr)},
                        {"low", m.low}, {"high", m.high},
                        {"with_profile_tps", used && st.fitted_ok ? json(with_profile(st.fitted, m)) : json(nullptr)}, {"why", m.why}});
    }
    json j = {{"rows", rows}, {"message", st.message}, {"hardware", st.hardware_name}, {"profile_on", app.device_profile_on},
              {"keep", st.keep}, {"export_ok", st.export_ok}, {"export", st.export_text}, {"export_message", st.export_message}};
    if (st.fitted_ok) j["fitted"] = json::parse(llmsim::device_profile_to_json(st.fitted));
    if (app.device_profile_on) j["calibrated"] = llmsim::calibrated_label(app.device_profile);
    return j.dump(-1, ' ', false, json::error_handler_t::replace);   // pasted labels may hold any bytes
}

bool my_runs_restore(AppState& app, const std::string& profile_json, std::string& err) {
    llmsim::DeviceProfile p;
    if (!llmsim::parse_device_profile(profile_json, p, err)) return false;
    app.device_profile = p;
    app.device_profile_on = true;
    MyRunsState& st = app.my_runs;
    st.keep = true;
    st.fitted = p;
    st.fitted_ok = true;
    st.ok = true;
    st.message = "Kept profile from this browser: " + llmsim::calibrated_label(p) + ".";
    mark_changed(app);
    return true;
}
