// MLX beside llama.cpp on the scenario's Mac (panel_mlx.h): one table, two rows, and mlx-lm's command with Copy.
#include <imgui.h>

#include "core/format.h"
#include "panels.h"
#include "widgets.h"

void update_mlx(AppState& app) {
    MlxState& st = app.mlx;
    if (!st.memo.inputs_moved(app.state_version, app.derived.version)) return;
    const Derived& d = app.derived;
    const llmsim::SimRequest req = command_request(app);
    const bool apple = d.model && req.memory.hardware && req.memory.hardware->kind == llmsim::HardwareKind::Apple;
    const std::string key = apple ? d.model->id + "|" + req.memory.hardware->id + "|" + req.memory.file_type + "|" +
                                         std::to_string(req.memory.n_ctx) + "|" + std::to_string(req.prompt_tokens)
                                   : std::string();
    if (!st.memo.key_changed(key)) return;
    reset_section(st);
    if (!apple) return;
    st.shown = llmsim::mlx_side_by_side(app.catalog, *d.model, req, st.result);
}

namespace {

void column_row(AppState& app, const llmsim::EngineColumn& c, int row, bool phone) {
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(llmsim::engine_row(c.engine).display_name);
    if (phone) ImGui::TextDisabled("%s", c.quant.c_str());
    note_cell(app, "mlx", row, 0);
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(c.quant.c_str());
    if (!c.ok) {
        ImGui::TableNextColumn();
        ImGui::TextDisabled("%s", c.error.c_str());
        return;
    }
    const llmsim::MemoryBreakdown& m = c.ev.memory;
    ImGui::TableNextColumn();
    text_right(gib_text(m.total_bytes).c_str());
    if (phone) ImGui::TextDisabled("%s", llmsim::to_string(m.status));   // the Fit column is folded in here
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(llmsim::to_string(m.status));
    const llmsim::SpeedView& v = c.ev.speed;
    ImGui::TableNextColumn();
    text_right(v.ok ? (llmsim::format_sig(v.decode_tps) + " tok/s").c_str() : "—");
    if (v.ok && ImGui::IsItemHovered())
        ImGui::SetTooltip("%s to %s tok/s (held-out band)", llmsim::format_sig(v.decode_low).c_str(),
                          llmsim::format_sig(v.decode_high).c_str());
    ImGui::TableNextColumn();
    text_right(v.ok ? (llmsim::format_sig(v.prefill_tps) + " tok/s").c_str() : "—");
}

}  // namespace

void draw_mlx(AppState& app) {
    update_mlx(app);
    const MlxState& st = app.mlx;
    if (!st.shown) return;
    ImGui::Spacing();
    ImGui::PushFont(app.font_bold);
    ImGui::TextUnformatted("On this Mac: MLX (mlx-lm) beside llama.cpp");
    ImGui::PopFont();
    const bool phone = phone_width(ImGui::GetContentRegionAvail().x);
    ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_SizingStretchProp;
    if (ImGui::BeginTable("mlx", 6, flags)) {
        ImGui::TableSetupColumn("Engine", 0, phone ? 1.6f : 0.0f);
        ImGui::TableSetupColumn("Quant", phone ? ImGuiTableColumnFlags_Disabled : 0);
        ImGui::TableSetupColumn("Memory");
        ImGui::TableSetupColumn("Fit", phone ? ImGuiTableColumnFlags_Disabled : 0);
        ImGui::TableSetupColumn("Decode");
        ImGui::TableSetupColumn("Prefill");
        const char* tips[] = {"the inference engine", "each engine's own format at the same bit width",
                              "weights + KV cache + working set + runtime, in GiB (2^30 bytes)",
                              "against macOS's GPU wired limit (recommendedMaxWorkingSetSize; sudo sysctl iogpu.wired_limit_mb raises it)",
                              "tokens per second at the prompt's depth, batch 1 (hover: the held-out band)",
                              "prompt tokens per second"};
        table_header_row(app, "mlx", "llrlrr", tips);
        column_row(app, st.result.mlx, 0, phone);
        column_row(app, st.result.llamacpp, 1, phone);
        ImGui::EndTable();
    }
    text_disabled_after("MLX speed: fitted on 46 published mlx_lm rows, 4.8 % decode / 5.5 % prefill median error with "
                        "each source held out (MoE decode less sure: 33 %). Memory: weights as mlx_lm.convert writes them.");
    if (st.result.mlx.ok) {
        ImGui::PushFont(app.font_mono);
        ImGui::PushTextWrapPos(0);
        ImGui::TextUnformatted(st.result.mlx.command.c_str());
        ImGui::PopTextWrapPos();
        ImGui::PopFont();
        copy_button(app, "Copy MLX command", st.result.mlx.command);
        note_widget(app, "copy-mlx-command");
    }
}
