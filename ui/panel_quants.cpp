// Quantization footprint table: bpw, weights, total at two contexts, quality (KLD / perplexity on hover).
// Click a row to select that quant. The seed's eight rows first; the rest behind "Show all file types".
#include <imgui.h>

#include "core/format.h"
#include "panels.h"
#include "widgets.h"

std::string quants_table_text(const AppState& app, bool csv) {
    const Scenario& s = app.scenario;
    std::string ca = llmsim::format_tokens(s.ctx_tokens), cb = llmsim::format_tokens(s.ctx_b_tokens);
    std::string out = csv ? "quant,bpw,weights_gib,total_" + ca + "_gib,total_" + cb + "_gib,quality\n"
                          : "| Quantization | BPW | Weights | Total @ " + ca + " | Total @ " + cb + " | Quality |\n|---|---|---|---|---|---|\n";
    for (const QuantRow& q : app.derived.quants) {
        if (!q.error.empty() || (!q.file_type->common && !app.quants.show_all)) continue;
        auto gib = [&](uint64_t b) { return llmsim::format_fixed(b / (double)llmsim::kGiB, 2) + (csv ? "" : " GiB"); };
        if (csv) out += q.file_type->name + "," + llmsim::format_fixed(q.bits_per_weight, 2) + "," + gib(q.weights_bytes) + "," +
                        gib(q.total_a_bytes) + "," + gib(q.total_b_bytes) + "," + q.file_type->quality_label + "\n";
        else out += "| " + q.file_type->name + " | " + llmsim::format_fixed(q.bits_per_weight, 2) + " | " + gib(q.weights_bytes) + " | " +
                    gib(q.total_a_bytes) + " | " + gib(q.total_b_bytes) + " | " + q.file_type->quality_label + " |\n";
    }
    return out;
}

void draw_quants(AppState& app) {
    const Derived& d = app.derived;
    if (!d.model) return;
    const Scenario& s = app.scenario;
    // the smaller context first, as the seed's table does
    const bool swap = s.ctx_b_tokens < s.ctx_tokens;
    const std::string& released = d.model->release_file_type;   // "" when the catalog does not record it
    std::string ca = "Total @ " + llmsim::format_tokens(swap ? s.ctx_b_tokens : s.ctx_tokens);
    std::string cb = "Total @ " + llmsim::format_tokens(swap ? s.ctx_tokens : s.ctx_b_tokens);
    ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_SizingStretchProp;
    ImVec2 outer(0, 0);
    // phone: name (BPW, the second context and quality stacked under it), weights and the first context's total;
    // tablet: keep columns whole, scroll sideways
    const bool phone = phone_width(ImGui::GetContentRegionAvail().x);
    if (!phone && ImGui::GetContentRegionAvail().x < ImGui::GetFontSize() * 40) {
        flags = (flags & ~ImGuiTableFlags_SizingStretchProp) | ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_ScrollX;
        int rows = 1;
        for (const QuantRow& q : d.quants)
            rows += (q.file_type->common || app.quants.show_all || q.file_type->name == s.quant || q.file_type->name == released) ? 1 : 0;
        outer = ImVec2(0, ImGui::GetFrameHeight() * (rows + 1.5f));
    }
    if (ImGui::BeginTable("quants", 6, flags, outer)) {
        const ImGuiTableColumnFlags stacked = phone ? ImGuiTableColumnFlags_Disabled : 0;   // in the name cell
        ImGui::TableSetupColumn("Quantization", 0, phone ? 2.0f : 0.0f);
        ImGui::TableSetupColumn("BPW", stacked);
        ImGui::TableSetupColumn("Weights");
        ImGui::TableSetupColumn(ca.c_str());
        ImGui::TableSetupColumn(cb.c_str(), stacked);
        ImGui::TableSetupColumn("Quality", stacked);
        const char* tips[] = {"llama.cpp file type (per-tensor rules, as llama-quantize applies them) or another format",
                              "bits per weight over all tensors, from the per-tensor types (not a flat figure)",
                              "weights in GiB (2^30 bytes): the GGUF tensor data",
                              "weights + KV cache + compute buffers + runtime overhead, in GiB, at this context (first device and host)",
                              "the same at the second context",
                              "quality vs FP16: mean KL divergence and perplexity increase from llama.cpp's published tables (hover)"};
        table_header_row(app, "quants", "lrrrrl", tips);
        int row = 0;
        for (const QuantRow& q : d.quants) {
            const llmsim::FileType& f = *q.file_type;
            if (!f.common && !app.quants.show_all && f.name != s.quant && f.name != released) continue;
            ImGui::TableNextRow();
            ImGui::TableNextColumn();
            ImGui::PushID(f.name.c_str());
            std::string label = f.name == "F16" ? "FP16" : f.name;
            bool clicked = false;
            if (phone) {
                std::string details = q.error.empty() ? llmsim::format_fixed(q.bits_per_weight, 2) + " bpw · " + cb + ": " +
                                                            llmsim::format_gib((double)(swap ? q.total_a_bytes : q.total_b_bytes)) + " · " + f.quality_label
                                                      : q.error;
                clicked = stacked_row_cell(app, "quant-row-" + f.name, f.name == released ? label + " (as released)" : label, nullptr,
                                           details, f.name == s.quant);
            } else {
                clicked = ImGui::Selectable(label.c_str(), f.name == s.quant, ImGuiSelectableFlags_SpanAllColumns);
                note_widget(app, ("quant-row-" + f.name).c_str());
            }
            if (clicked) {
                app.scenario.quant = f.name;
                mark_changed(app);
            }
            ImGui::PopID();
            if (f.name == released && !phone) {
                ImGui::SameLine();
                ImGui::TextDisabled("as released");
                if (ImGui::IsItemHovered())
                    ImGui::SetTooltip("%s publishes %s weights; %s is the matching file type\nsource: %s", d.model->name.c_str(),
                                      d.model->release_weights.c_str(), f.name.c_str(), d.model->release_source.c_str());
            }
            if (!q.error.empty()) {
                ImGui::TableNextColumn();
                ImGui::TextDisabled("—");
                if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", q.error.c_str());
                continue;
            }
            ImGui::TableNextColumn(); text_right(llmsim::format_fixed(q.bits_per_weight, 2).c_str()); note_cell(app, "quants", row, 1);
            ImGui::TableNextColumn(); text_right(llmsim::format_gib((double)q.weights_bytes).c_str()); note_cell(app, "quants", row, 2);
            ImGui::TableNextColumn(); text_right(llmsim::format_gib((double)(swap ? q.total_b_bytes : q.total_a_bytes)).c_str()); note_cell(app, "quants", row, 3);
            ImGui::TableNextColumn(); text_right(llmsim::format_gib((double)(swap ? q.total_a_bytes : q.total_b_bytes)).c_str()); note_cell(app, "quants", row, 4);
            ++row;
            ImGui::TableNextColumn();
            ImGui::TextUnformatted(f.quality_label.c_str());
            if (ImGui::IsItemHovered()) {
                ImGui::BeginTooltip();
                if (f.kld >= 0) ImGui::Text("mean KLD vs FP16: %s", llmsim::format_sig(f.kld, 3).c_str());
                if (f.ppl_delta_pct >= 0) ImGui::Text("perplexity +%s %%", llmsim::format_sig(f.ppl_delta_pct, 3).c_str());
                if (f.kld < 0 && f.ppl_delta_pct < 0) ImGui::TextUnformatted("no published KLD/perplexity for this type");
                if (!f.quality_source.empty()) ImGui::TextDisabled("source: %s", f.quality_source.c_str());
                ImGui::EndTooltip();
            }
        }
        ImGui::EndTable();
    }
    ImGui::Checkbox("Show all file types", &app.quants.show_all);
    same_line_if_fits(button_width("Copy as Markdown"));
    copy_button(app, "Copy as Markdown##quants", [&] { return quants_table_text(app, false); });
    same_line_if_fits(button_width("Copy as CSV"));
    copy_button(app, "Copy as CSV##quants", [&] { return quants_table_text(app, true); });
}
