// Recommend: the hardware (catalog devices and 2/4/8-GPU combinations of single cards) that runs the scenario's
// model, quant and context at >= X tok/s within a budget, cheapest first — and why the others fail.
#include <imgui.h>

#include <algorithm>

#include "core/format.h"
#include "panels.h"
#include "sim/speed_labels.h"
#include "widgets.h"

void draw_recommend(AppState& app) {
    Scenario& s = app.scenario;
    bool changed = false;
    // the floor: decode at the full chosen context and the first token of the scenario's prompt, defaulting to
    // the usable floor (recommend.h kUsable*) the FAQ's "cheapest hardware" answer uses
    const std::string full = llmsim::context_words(s.ctx_tokens);
    const std::string dec_label = "min decode at " + full + " (tok/s)";
    const std::string ttft_label = "max TTFT, " + llmsim::format_tokens(s.prompt_tokens) + " prompt (s, 0 = any)";
    const std::string price_label = "max price (USD, 0 = any)";
    const float w = ImGui::GetFontSize() * 6, gap = ImGui::GetStyle().ItemInnerSpacing.x;
    ImGui::PushItemWidth(w);
    float tps = (float)s.rec_min_tps, ttft = (float)s.rec_max_ttft_s, price = (float)s.rec_max_price;
    if (ImGui::DragFloat(dec_label.c_str(), &tps, 0.5f, 0.0f, 10000.0f, "%.0f")) { s.rec_min_tps = tps; changed = true; }
    note_widget(app, "rec-min-decode");
    same_line_if_fits(w + ImGui::CalcTextSize(ttft_label.c_str()).x + gap);
    if (ImGui::DragFloat(ttft_label.c_str(), &ttft, 0.1f, 0.0f, 1e6f, "%.1f")) { s.rec_max_ttft_s = ttft; changed = true; }
    note_widget(app, "rec-max-ttft");
    same_line_if_fits(w + ImGui::CalcTextSize(price_label.c_str()).x + gap);
    if (ImGui::DragFloat(price_label.c_str(), &price, 50.0f, 0.0f, 1e7f, "%.0f")) { s.rec_max_price = price; changed = true; }
    ImGui::PopItemWidth();
    const bool at_floor = s.rec_min_tps == llmsim::kUsableMinDecodeTps && s.rec_max_ttft_s == llmsim::kUsableMaxTtftS;
    if (!at_floor) {
        same_line_if_fits(button_width("Usable floor"));
        if (ImGui::Button("Usable floor")) { s.rec_min_tps = llmsim::kUsableMinDecodeTps; s.rec_max_ttft_s = llmsim::kUsableMaxTtftS; changed = true; }
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("back to the usable floor: %s tok/s decode at the full context, first token within %s s",
                                                      llmsim::format_sig(llmsim::kUsableMinDecodeTps).c_str(),
                                                      llmsim::format_sig(llmsim::kUsableMaxTtftS).c_str());
    }
    if (changed) mark_changed(app);
    const llmsim::RecommendResult& r = app.derived.recommend;
    if (!r.error.empty()) { ImGui::TextDisabled("%s", r.error.c_str()); return; }
    std::string ttft_words = s.rec_max_ttft_s > 0 ? " and the first token of a " + llmsim::format_tokens(s.prompt_tokens) + " prompt within " +
                                                        llmsim::format_sig(s.rec_max_ttft_s) + " s" : "";
    ImGui::TextWrapped("%zu options run %s %s at %s context with at least %s tok/s %s%s%s, cheapest first:", r.accepted.size(),
                app.derived.model ? app.derived.model->name.c_str() : "", s.quant.c_str(), llmsim::format_tokens(s.ctx_tokens).c_str(),
                llmsim::format_sig(s.rec_min_tps).c_str(), llmsim::decode_label(s.ctx_tokens).c_str(), ttft_words.c_str(),
                s.rec_max_price > 0 ? (" for at most $" + llmsim::format_sig(s.rec_max_price, 4)).c_str() : "");
    ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_SizingStretchProp;
    ImVec2 outer(0, 0);
    // phone: Hardware (price, rent, TTFT and fit stacked under the name) and decode; tablet: sideways scroll
    const bool phone = phone_width(ImGui::GetContentRegionAvail().x);
    const bool narrow = !phone && ImGui::GetContentRegionAvail().x < ImGui::GetFontSize() * 44;
    if (narrow) {   // phone: whole columns sized to their content, sideways scroll (as the other tables)
        flags = (flags & ~ImGuiTableFlags_SizingStretchProp) | ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_ScrollX;
        outer = ImVec2(0, ImGui::GetFrameHeight() * (std::min<size_t>(r.accepted.size(), 12) + 2.5f));
    }
    if (ImGui::BeginTable("rec", 6, flags, outer)) {
        if (narrow) ImGui::TableSetupScrollFreeze(1, 0);
        ImGui::TableSetupColumn("Hardware", narrow ? ImGuiTableColumnFlags_WidthFixed : 0, narrow ? ImGui::GetFontSize() * 10 : 3.0f);
        const ImGuiTableColumnFlags stacked = phone ? ImGuiTableColumnFlags_Disabled : 0;   // in the Hardware cell
        ImGui::TableSetupColumn("Price", stacked);
        ImGui::TableSetupColumn("Rent", stacked);
        const std::string dec_head = phone ? std::string("Decode tok/s") : "Decode tok/s, empty \u2192 " + full;
        const std::string ttft_head = "TTFT, " + llmsim::format_tokens(s.prompt_tokens) + " prompt";
        ImGui::TableSetupColumn(dec_head.c_str(), phone ? ImGuiTableColumnFlags_WidthFixed : 0,
                                phone ? ImGui::CalcTextSize(dec_head.c_str()).x + ImGui::GetFontSize() : narrow ? 0.0f : 2.0f);
        ImGui::TableSetupColumn(ttft_head.c_str(), stacked);
        ImGui::TableSetupColumn("Status", stacked, narrow ? 0.0f : 1.2f);
        table_header_row(app, "rec", "lrrrrl");
        int shown = 0;
        for (const llmsim::Candidate& c : r.accepted) {
            if (++shown > 12) break;
            ImGui::TableNextRow();
            ImGui::TableNextColumn();
            ImGui::PushID(c.hardware.id.c_str());
            const std::string price = c.price_usd > 0 ? "$" + llmsim::format_fixed(c.price_usd, 0) : "—";
            const std::string rent = c.cloud_usd_per_hour > 0 ? "$" + llmsim::format_fixed(c.cloud_usd_per_hour, 2) + "/h" : "—";
            const std::string ttft = c.eval.speed.ok ? llmsim::format_sig(c.eval.speed.ttft_s) + " s" : "—";
            const bool clicked = phone ? stacked_row_cell(app, "rec-row-" + c.hardware.id, c.hardware.name, &c.eval.memory.status,
                                                          "price " + price + " · rent " + rent + " · TTFT " + ttft, false)
                                       : ImGui::Selectable(c.hardware.name.c_str(), false, ImGuiSelectableFlags_SpanAllColumns);
            if (clicked) {
                // simulate it: a catalog device or a combination id ("2x-arc-b580"), which find_hardware resolves
                s.hardware = c.hardware.id;
                s.gpus = 0;
                s.section = "simulator";
                app.scroll_to_section = true;
                mark_changed(app);
            }
            ImGui::PopID();
            const int row = shown - 1;
            ImGui::TableNextColumn(); text_right(price.c_str()); note_cell(app, "rec", row, 1);
            ImGui::TableNextColumn(); text_right(rent.c_str());
            note_cell(app, "rec", row, 2);
            ImGui::TableNextColumn();
            text_right(c.eval.speed.ok ? (llmsim::format_sig(c.eval.speed.decode_empty_tps) + " \u2192 " +
                                          llmsim::format_sig(c.eval.speed.decode_full_tps)).c_str() : "—");
            note_cell(app, "rec", row, 3);
            ImGui::TableNextColumn(); text_right(ttft.c_str()); note_cell(app, "rec", row, 4);
            ImGui::TableNextColumn(); status_badge(c.eval.memory.status);
        }
        ImGui::EndTable();
    }
    if (ImGui::TreeNode("rejected", "Why the other %zu options fail", r.rejected.size())) {
        for (const llmsim::Candidate& c : r.rejected) ImGui::BulletText("%s: %s", c.hardware.name.c_str(), c.reason.c_str());
        ImGui::TreePop();
    }
}
