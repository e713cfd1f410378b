// The llama-server command that runs exactly the simulated setup, with a Copy button.
#include <imgui.h>

#include "command.h"
#include "panels.h"
#include "widgets.h"

void draw_command(AppState& app) {
    const Derived& d = app.derived;
    if (!d.model) return;
    std::string cmd = llmsim::llama_server_command(app.catalog, *d.model, request_from_scenario(app), 8080);
    ImGui::PushFont(app.font_mono);
    ImGui::PushStyleColor(ImGuiCol_ChildBg, ImGui::GetStyleColorVec4(ImGuiCol_FrameBg));
    float h = ImGui::GetTextLineHeightWithSpacing() * 3.2f;
    ImGui::BeginChild("cmd", ImVec2(0, h), true);
    ImGui::PushTextWrapPos(0);
    ImGui::TextUnformatted(cmd.c_str());
    ImGui::PopTextWrapPos();
    ImGui::EndChild();
    ImGui::PopStyleColor();
    ImGui::PopFont();
    copy_button(app, "Copy command", cmd);
    note_widget(app, "copy-command");
    ImGui::SameLine();
    ImGui::TextDisabled("-ngl 99 = every layer on the GPU; the file name follows the usual <model>-<QUANT>.gguf naming");
}
