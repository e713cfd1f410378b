// Quantization footprint table: one row per file type. Click a row to select that quant.
#include <imgui.h>

#include "format.h"
#include "panels.h"
#include "widgets.h"

void draw_quants(AppState& app) {
    ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_SizingStretchProp;
    if (!ImGui::BeginTable("quants", 3, flags)) return;
    ImGui::TableSetupColumn("Quantization");
    ImGui::TableSetupColumn("BPW");
    ImGui::TableSetupColumn("Quality");
    ImGui::TableHeadersRow();
    for (const llmsim::FileType& f : app.catalog.file_types) {
        if (!f.common && !app.show_all_quants) continue;
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        if (ImGui::Selectable(f.name.c_str(), f.name == app.scenario.quant, ImGuiSelectableFlags_SpanAllColumns)) {
            app.scenario.quant = f.name;
            mark_changed(app);
        }
        ImGui::TableNextColumn();
        const llmsim::GgmlType* t = app.catalog.find_ggml_type(f.base_type);
        text_right(llmsim::format_fixed(t ? t->bits_per_weight() : f.flat_bpw, 2).c_str());
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(f.quality_label.c_str());
    }
    ImGui::EndTable();
    ImGui::Checkbox("Show all file types", &app.show_all_quants);
}
