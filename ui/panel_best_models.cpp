// Best models for this device: the scenario's device, context and decode floor; a task picks the published score
// (models.json quality_tasks); each model at its least lossy quant that fits, the quant's measured loss beside the
// score; models without a score listed apart. A row opens that model and quant in the simulator.
#include <imgui.h>

#include <algorithm>
#include <cstdint>

#include "api/best_models.h"
#include "core/format.h"
#include "panels.h"
#include "sim/speed_labels.h"
#include "widgets.h"

void update_best_models(AppState& app) {
    BestModelsState& st = app.best_models;
    if (!st.memo.inputs_moved(app.state_version, app.derived.version)) return;
    const Scenario& s = app.scenario;
    const std::string key = (app.scenario_hardware_ok ? app.scenario_hardware.id : std::string("-")) + "|" + s.bm_task + "|" +
                            std::to_string(s.ctx_tokens) + "|" + llmsim::format_sig(s.rec_min_tps, 6) + "|" +
                            // the result points into the catalog's models: a Hub lookup or an import that grows the
                            // vector moves them, so the ranking is redone (it held dangling pointers before)
                            std::to_string(app.catalog.models.size()) + "@" +
                            std::to_string((uintptr_t)app.catalog.models.data());
    if (!st.memo.key_changed(key)) return;
    reset_section(st);
    if (!app.scenario_hardware_ok) { st.error = "pick a device first"; return; }
    st.query.task = s.bm_task;
    st.query.ctx_tokens = s.ctx_tokens;
    st.query.min_decode_tps = s.rec_min_tps;
    st.result = llmsim::recommend_models_by_quality(app.catalog, app.scenario_hardware, st.query);
    st.error = st.result.error;
}

std::string best_models_json(const AppState& app) {
    const BestModelsState& st = app.best_models;
    if (!st.error.empty() || !st.result.benchmark)   // an error, or update_best_models() not called yet
        return nlohmann::json{{"error", st.error.empty() ? std::string("not computed yet") : st.error}}.dump();
    return llmsim::quality_result_to_json(app.scenario_hardware, st.query, st.result).dump();
}

namespace {

// the task picker and the decode floor (the Recommended hardware section's: one floor for both questions)
bool draw_best_models_inputs(AppState& app) {
    Scenario& s = app.scenario;
    bool changed = false;
    const float w = ImGui::GetFontSize() * 8;
    ImGui::SetNextItemWidth(w);
    if (ImGui::BeginCombo("task", s.bm_task.c_str())) {
        for (const llmsim::QualityTask& t : app.catalog.quality_tasks) {
            if (ImGui::Selectable(t.task.c_str(), t.task == s.bm_task)) { s.bm_task = t.task; changed = true; }
            if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", t.why.c_str());
        }
        ImGui::EndCombo();
    }
    note_widget(app, "bm-task");
    const std::string dec_label = "min decode at " + llmsim::context_words(s.ctx_tokens) + " (tok/s)";
    same_line_if_fits(ImGui::GetFontSize() * 6 + ImGui::CalcTextSize(dec_label.c_str()).x);
    float tps = (float)s.rec_min_tps;
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 6);
    if (ImGui::DragFloat(dec_label.c_str(), &tps, 0.5f, 0.0f, 10000.0f, "%.0f")) { s.rec_min_tps = tps; changed = true; }
    return changed;
}

std::string loss_text(const llmsim::QualityChoice& c) {
    const llmsim::FileType& ft = *c.file_type;
    if (c.release_format && ft.kld < 0) return "as released";
    return ft.kld >= 0 ? "KLD " + llmsim::format_sig(ft.kld) : "—";
}

void open_in_simulator(AppState& app, const llmsim::QualityChoice& c) {
    app.scenario.model = c.model->id;
    app.scenario.quant = c.quant;
    app.scenario.section = "simulator";
    app.scroll_to_section = true;
    mark_changed(app);
}

void draw_ranked_table(AppState& app, const llmsim::QualityResult& r) {
    const bool phone = phone_width(ImGui::GetContentRegionAvail().x);
    ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_SizingStretchProp;
    if (!ImGui::BeginTable("bm", 6, flags)) return;
    const ImGuiTableColumnFlags stacked = phone ? ImGuiTableColumnFlags_Disabled : 0;   // in the Model cell
    ImGui::TableSetupColumn("Model", 0, 3.0f);
    ImGui::TableSetupColumn("Score", phone ? ImGuiTableColumnFlags_WidthFixed : 0,   // phone: sized to its label
                            phone ? ImGui::CalcTextSize("Score").x + ImGui::GetFontSize() : 0.0f);
    ImGui::TableSetupColumn("Quant", stacked);
    ImGui::TableSetupColumn("Quant loss", stacked);
    ImGui::TableSetupColumn("Decode tok/s", stacked);
    ImGui::TableSetupColumn("Status", stacked, 1.2f);
    table_header_row(app, "bm", "lrlrrl");
    int row = 0;
    for (const llmsim::QualityChoice& c : r.ranked) {
        if (row >= 15) break;
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        ImGui::PushID(c.model->id.c_str());
        const std::string dec = c.eval.speed.ok ? llmsim::format_sig(c.eval.speed.decode_full_tps) : "—";
        const std::string name = std::to_string(row + 1) + ". " + c.model->name;
        const bool clicked = phone ? stacked_row_cell(app, "bm-row-" + std::to_string(row), name, &c.eval.memory.status,
                                                      c.quant + " · " + loss_text(c) + " · " + dec + " tok/s", false)
                                   : ImGui::Selectable(name.c_str(), false, ImGuiSelectableFlags_SpanAllColumns);
        if (ImGui::IsItemHovered())
            ImGui::SetTooltip("%s\nscore %s (%s), %s\nclick: open it in the simulator", c.model->id.c_str(),
                              llmsim::format_fixed(c.score, 2).c_str(), c.row->date.c_str(), c.row->source.c_str());
        if (clicked) open_in_simulator(app, c);
        ImGui::PopID();
        ImGui::TableNextColumn(); text_right(llmsim::format_fixed(c.score, 1).c_str()); note_cell(app, "bm", row, 1);
        ImGui::TableNextColumn(); ImGui::TextUnformatted(c.quant.c_str());
        ImGui::TableNextColumn(); text_right(loss_text(c).c_str());
        ImGui::TableNextColumn(); text_right(dec.c_str());
        ImGui::TableNextColumn(); status_badge(c.eval.memory.status);
        ++row;
    }
    ImGui::EndTable();
}

}  // namespace

void draw_best_models(AppState& app) {
    if (draw_best_models_inputs(app)) mark_changed(app);
    // the web page's first frame leaves the ranking (every catalog model evaluated) to the next
    // (app.first_view_light): the verdict is on screen first
    if (app.first_view_light) { ImGui::TextDisabled("Ranking the models..."); return; }
    update_best_models(app);
    const BestModelsState& st = app.best_models;
    if (!st.error.empty()) { ImGui::TextDisabled("%s", st.error.c_str()); return; }
    const llmsim::QualityResult& r = st.result;
    const llmsim::QualityBenchmark& b = *r.benchmark;
    text_wrapped_words("%zu models with a published %s score run on %s at %s context with at least %s tok/s there, "
                       "best score first (%s %s; higher is better). Each at the least lossy quant that fits; the quant's "
                       "loss is its KL divergence from FP16 (llama.cpp, LLaMA 3 8B), shown beside the score, not folded in.",
                       r.ranked.size(), b.name.c_str(), app.scenario_hardware.name.c_str(),
                       llmsim::format_tokens(st.query.ctx_tokens).c_str(), llmsim::format_sig(st.query.min_decode_tps).c_str(),
                       b.name.c_str(), r.task->metric.c_str());
    draw_ranked_table(app, r);
    const std::string trade = llmsim::quality_trade_off(r);
    if (!trade.empty()) text_wrapped_words("Trade-off: %s.", trade.c_str());
    if (!r.scored_not_fitting.empty() &&
        ImGui::TreeNode("bm-nofit", "Scored, but too big or too slow here (%zu)", r.scored_not_fitting.size())) {
        for (const llmsim::Model* m : r.scored_not_fitting) ImGui::BulletText("%s", m->name.c_str());
        ImGui::TreePop();
    }
    if (!r.unscored.empty() && ImGui::TreeNode("bm-unscored", "No published score (%zu fit; not ranked)", r.unscored.size())) {
        for (const llmsim::QualityChoice& c : r.unscored) ImGui::BulletText("%s at %s", c.model->name.c_str(), c.quant.c_str());
        ImGui::TreePop();
    }
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextDisabled("Scores: %s (%s), snapshot %s; %s. Caveat: %s.", b.name.c_str(), b.url.c_str(), b.date.c_str(),
                        b.source.c_str(), b.caveat.c_str());
    ImGui::PopTextWrapPos();
}
