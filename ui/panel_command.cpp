// The llama-server command that runs exactly the simulated setup, with a Copy button.
#include <imgui.h>

#include <algorithm>

#include "runtime/command.h"
#include "panels.h"
#include "widgets.h"

std::string page_command(const AppState& app) {
    if (!app.derived.model) return "";
    const llmsim::SimRequest req = command_request(app);
    std::string cmd = llmsim::runtime(req.engine)->command_line(app.catalog, *app.derived.model, req, 8080);
    if (llmsim::engine_row(req.engine).scenario == llmsim::ScenarioModel::LlamaCpp) cmd += spec_command_flags(app) + lora_command_flags(app) + vision_command_flags(app);   // llama-server flags
    return cmd;
}

void draw_command(AppState& app) {
    const Derived& d = app.derived;
    if (!d.model) return;
    update_spec(app);   // the draft's and the adapters' flags, when the scenario sets them
    update_lora(app);
    update_vision(app);
    update_audio(app);
    const llmsim::SimRequest req = command_request(app);
    const std::string cmd = page_command(app);
    ImGui::PushFont(app.font_mono);
    ImGui::PushStyleColor(ImGuiCol_ChildBg, ImGui::GetStyleColorVec4(ImGuiCol_FrameBg));
    // tall enough for the wrapped line (the draft's and adapters' flags make it longer), 3.2 to 8 lines
    const float wrap_w = ImGui::GetContentRegionAvail().x - ImGui::GetStyle().WindowPadding.x * 2;
    const float text_h = ImGui::CalcTextSize(cmd.c_str(), nullptr, false, wrap_w).y + ImGui::GetStyle().WindowPadding.y * 2 + 2;
    const float line_h = ImGui::GetTextLineHeightWithSpacing();
    const float h = std::min(line_h * 8.0f, std::max(line_h * 3.2f, text_h));
    ImGui::BeginChild("cmd", ImVec2(0, h), true);
    ImGui::PushTextWrapPos(0);
    ImGui::TextUnformatted(cmd.c_str());
    ImGui::PopTextWrapPos();
    ImGui::EndChild();
    ImGui::PopStyleColor();
    ImGui::PopFont();
    copy_button(app, "Copy command", cmd);
    note_widget(app, "copy-command");
    // the same GGUF weights through Ollama, when a cited library tag pulls this model at this quant (models.json)
    const std::string ollama = llmsim::engine_row(req.engine).scenario == llmsim::ScenarioModel::LlamaCpp
                                   ? llmsim::ollama_command(*d.model, req.memory.file_type) : std::string();
    if (!ollama.empty()) {
        ImGui::PushFont(app.font_mono);
        ImGui::TextUnformatted(ollama.c_str());
        ImGui::PopFont();
        ImGui::SameLine();
        copy_button(app, "Copy ollama command", ollama);
        text_disabled_after("Ollama's library tag for this model and quant (its default context and offload differ from the line above)");
    }
    const std::string hint = req.memory.n_gpu_layers >= 0 && app.scenario.gpu_layers < 0
        ? "-ngl " + std::to_string(req.memory.n_gpu_layers) + " = the automatic placement: " + std::to_string(req.memory.n_gpu_layers) +
          " of " + std::to_string(d.eval.memory.n_layers) + " layers on the GPU, the rest in system RAM; the file name follows the usual <model>-<QUANT>.gguf naming"
        : std::string("-ngl 99 = every layer on the GPU; the file name follows the usual <model>-<QUANT>.gguf naming");
    text_disabled_after(hint.c_str());
    draw_mlx(app);   // on a Mac: MLX beside llama.cpp, with mlx-lm's command (panel_mlx.h)
}
