// Hardware leaderboard: every catalog device. Click a row to simulate it.
#include <imgui.h>

#include "format.h"
#include "panels.h"
#include "widgets.h"

void draw_leaderboard(AppState& app) {
    ImGui::Text("%zu devices in the catalog", app.catalog.hardware.size());
    ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_SizingStretchProp |
                            ImGuiTableFlags_ScrollY;
    if (!ImGui::BeginTable("leaderboard", 4, flags, ImVec2(0, ImGui::GetTextLineHeightWithSpacing() * 16))) return;
    ImGui::TableSetupScrollFreeze(0, 1);
    ImGui::TableSetupColumn("Hardware");
    ImGui::TableSetupColumn("Memory");
    ImGui::TableSetupColumn("Bandwidth");
    ImGui::TableSetupColumn("FP16 tensor");
    ImGui::TableHeadersRow();
    for (const llmsim::Hardware& h : app.catalog.hardware) {
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        ImGui::PushID(h.id.c_str());
        if (ImGui::Selectable(h.name.c_str(), h.id == app.scenario.hardware, ImGuiSelectableFlags_SpanAllColumns)) {
            app.scenario.hardware = h.id;
            mark_changed(app);
        }
        ImGui::PopID();
        ImGui::TableNextColumn();
        text_right(llmsim::format_gib((double)h.memory_bytes * h.gpu_count).c_str());
        ImGui::TableNextColumn();
        text_right((llmsim::format_sig(h.bandwidth_gbs, 3) + " GB/s").c_str());
        ImGui::TableNextColumn();
        text_right(h.fp16_tflops > 0 ? (llmsim::format_sig(h.fp16_tflops, 3) + " TFLOPS").c_str() : "—");
    }
    ImGui::EndTable();
}
