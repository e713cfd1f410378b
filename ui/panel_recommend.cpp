// Recommend: the hardware (catalog devices and 2/4/8-GPU combinations of single cards) that runs the scenario's
// model, quant and context at >= X tok/s within a budget, cheapest first — and why the others fail.
#include <imgui.h>

#include <algorithm>
#include <cstdlib>

#include "format.h"
#include "panels.h"
#include "widgets.h"

void draw_recommend(AppState& app) {
    Scenario& s = app.scenario;
    bool changed = false;
    ImGui::PushItemWidth(ImGui::GetFontSize() * 7);
    float tps = (float)s.rec_min_tps, price = (float)s.rec_max_price;
    if (ImGui::DragFloat("min decode (tok/s)", &tps, 0.5f, 0.0f, 10000.0f, "%.0f")) { s.rec_min_tps = tps; changed = true; }
    same_line_if_fits(ImGui::GetFontSize() * 7 + ImGui::CalcTextSize("max price (USD, 0 = any)").x + ImGui::GetStyle().ItemInnerSpacing.x);
    if (ImGui::DragFloat("max price (USD, 0 = any)", &price, 50.0f, 0.0f, 1e7f, "%.0f")) { s.rec_max_price = price; changed = true; }
    ImGui::PopItemWidth();
    if (changed) mark_changed(app);
    const llmsim::RecommendResult& r = app.derived.recommend;
    if (!r.error.empty()) { ImGui::TextDisabled("%s", r.error.c_str()); return; }
    ImGui::TextWrapped("%zu options run %s %s at %s context with at least %s tok/s%s, cheapest first:", r.accepted.size(),
                app.derived.model ? app.derived.model->name.c_str() : "", s.quant.c_str(), llmsim::format_tokens(s.ctx_tokens).c_str(),
                llmsim::format_sig(s.rec_min_tps).c_str(), s.rec_max_price > 0 ? (" for at most $" + llmsim::format_sig(s.rec_max_price, 4)).c_str() : "");
    ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_SizingStretchProp;
    ImVec2 outer(0, 0);
    const bool narrow = ImGui::GetContentRegionAvail().x < ImGui::GetFontSize() * 44;
    if (narrow) {   // phone: whole columns sized to their content, sideways scroll (as the other tables)
        flags = (flags & ~ImGuiTableFlags_SizingStretchProp) | ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_ScrollX;
        outer = ImVec2(0, ImGui::GetFrameHeight() * (std::min<size_t>(r.accepted.size(), 12) + 2.5f));
    }
    if (ImGui::BeginTable("rec", 6, flags, outer)) {
        if (narrow) ImGui::TableSetupScrollFreeze(1, 0);
        ImGui::TableSetupColumn("Hardware", narrow ? ImGuiTableColumnFlags_WidthFixed : 0, narrow ? ImGui::GetFontSize() * 10 : 3.0f);
        ImGui::TableSetupColumn("Price");
        ImGui::TableSetupColumn("Rent");
        ImGui::TableSetupColumn("Decode", 0, narrow ? 0.0f : 1.4f);
        ImGui::TableSetupColumn("TTFT");
        ImGui::TableSetupColumn("Status", 0, narrow ? 0.0f : 1.2f);
        table_header_row(app, "rec", "lrrrrl");
        int shown = 0;
        for (const llmsim::Candidate& c : r.accepted) {
            if (++shown > 12) break;
            ImGui::TableNextRow();
            ImGui::TableNextColumn();
            ImGui::PushID(c.hardware.id.c_str());
            if (ImGui::Selectable(c.hardware.name.c_str(), false, ImGuiSelectableFlags_SpanAllColumns)) {
                // simulate it: a catalog device, or N of a catalog card
                std::string base = c.hardware.id;
                int gpus = 0;
                if (c.synthetic) {
                    size_t x = base.find("x-");
                    gpus = std::atoi(base.substr(0, x).c_str());
                    base = base.substr(x + 2);
                }
                s.hardware = base;
                s.gpus = gpus;
                s.section = "simulator";
                app.scroll_to_section = true;
                mark_changed(app);
            }
            ImGui::PopID();
            const int row = shown - 1;
            ImGui::TableNextColumn(); text_right(c.price_usd > 0 ? ("$" + llmsim::format_fixed(c.price_usd, 0)).c_str() : "—"); note_cell(app, "rec", row, 1);
            ImGui::TableNextColumn(); text_right(c.cloud_usd_per_hour > 0 ? ("$" + llmsim::format_fixed(c.cloud_usd_per_hour, 2) + "/h").c_str() : "—");
            note_cell(app, "rec", row, 2);
            ImGui::TableNextColumn();
            text_right(c.eval.speed.ok ? (llmsim::format_sig(c.eval.speed.decode_tps) + " (" + llmsim::format_sig(c.eval.speed.decode_low) + "–" +
                                          llmsim::format_sig(c.eval.speed.decode_high) + ") tok/s").c_str() : "—");
            note_cell(app, "rec", row, 3);
            ImGui::TableNextColumn(); text_right(c.eval.speed.ok ? (llmsim::format_sig(c.eval.speed.ttft_s) + " s").c_str() : "—"); note_cell(app, "rec", row, 4);
            ImGui::TableNextColumn(); status_badge(c.eval.memory.status);
        }
        ImGui::EndTable();
    }
    if (ImGui::TreeNode("rejected", "Why the other %zu options fail", r.rejected.size())) {
        for (const llmsim::Candidate& c : r.rejected) ImGui::BulletText("%s: %s", c.hardware.name.c_str(), c.reason.c_str());
        ImGui::TreePop();
    }
}
