// LoRA adapters at inference (llama-server --lora FILE): adapter size by rank and target modules, memory of the
// loaded adapters and the decode cost of applying one, for the scenario's model and device (engine/adapter).
// [SECTION] request and compute
// [SECTION] explanations
// [SECTION] panel
// [SECTION] JSON
#include <imgui.h>

#include <algorithm>

#include <nlohmann/json.hpp>

#include "api/api_extras.h"
#include "core/format.h"
#include "panels.h"
#include "runtime/command.h"
#include "theme.h"
#include "widgets.h"

namespace {
void build_lora_explanations(LoraState& st);
}  // namespace

// [SECTION] request and compute -------------------------------------------------------------------------------

void update_lora(AppState& app) {
    LoraState& st = app.lora;
    if (!st.memo.inputs_moved(app.state_version, app.derived.version)) return;
    const Scenario& s = app.scenario;
    std::string hw, err;
    const bool ok = scenario_model_and_hardware(app, hw, err);
    std::string req;
    if (ok)   // the panel sizes one adapter while none is loaded (lora_n = 0: no --lora in the command)
        req = nlohmann::json({{"model", s.model}, {"rank", s.lora_rank}, {"targets", s.lora_targets}, {"lora_type", s.lora_type},
                              {"adapters", std::max(1, s.lora_n)}, {"hardware", hw}, {"quant", s.quant}, {"ctx", s.ctx_tokens}}).dump();
    const std::string key = ok ? req : "error:" + err;
    if (!st.memo.key_changed(key)) return;
    reset_section(st);
    st.request_json = req;
    if (!ok) { st.error = err; return; }
    llmsim::LoraCall c;
    if (!llmsim::parse_lora_request(app.catalog, req, c, err) || !llmsim::lora_size(*c.model, c.spec, st.size, err) ||
        !llmsim::lora_cost(app.catalog, *c.model, c.req, c.spec, c.adapters, c.depth, st.cost, err)) { st.error = err; return; }
    st.model = c.model; st.spec = c.spec; st.request = c.req; st.adapters = c.adapters;
    st.with_speed = c.req.memory.hardware != nullptr;
    st.command = llmsim::llama_server_command(app.catalog, *c.model, c.req) + llmsim::lora_server_flags(llmsim::lora_adapter_files(c.spec, c.adapters));
    build_lora_explanations(st);
}

std::string lora_command_flags(const AppState& app) {
    const LoraState& st = app.lora;
    if (app.scenario.lora_n <= 0 || !st.error.empty() || !st.model) return "";
    return llmsim::lora_server_flags(llmsim::lora_adapter_files(st.spec, app.scenario.lora_n));
}

// [SECTION] explanations --------------------------------------------------------------------------------------

namespace {

void build_lora_explanations(LoraState& st) {
    const llmsim::LoraSize& z = st.size;
    auto add = [&](const char* key, std::string value, std::string text, std::vector<std::string> inputs) {
        st.explanations.push_back({key, std::move(value), std::move(text), std::move(inputs)});
    };
    std::vector<std::string> per;
    for (int i = 0; i < llmsim::kLoraTargetCount; ++i)
        if (st.spec.targets[i]) per.push_back(std::string(llmsim::to_string((llmsim::LoraTarget)i)) + ": " + mib_text(z.per_target_bytes[i]));
    add("lora_size", mib_text(z.bytes),
        "adapter = r x (in + out) per targeted linear per layer (PEFT: A is r x in, B is out x r) = " + std::to_string(z.params) +
            " parameters in " + llmsim::to_string(st.spec.type) + " (convert_lora_to_gguf --outtype); MoE experts' pairs stacked",
        per);
    add("lora_memory", mib_text(st.cost.adapters_bytes),
        std::to_string(st.adapters) + " adapter(s) x " + mib_text(z.bytes) + ": llama.cpp keeps every --lora file loaded, each tensor in the "
        "buffer type of the base tensor it modifies (llama-adapter.cpp)",
        {"adapters compete with the KV cache for the same GPU memory"});
    if (st.with_speed)
        add("lora_speed", llmsim::format_sig(st.cost.lora_tokens_per_s) + " tok/s",
            "decode with an adapter applied = the speed model with " + mib_text(z.bytes_per_token) + " more bytes and " +
                llmsim::format_sig(z.flops_per_token / 1e6) + " MFLOP more per token (y = W x + s B (A x), build_lora_mm), plus " +
                std::to_string(z.extra_graph_nodes) + " extra graph nodes (mul_mat A, mul_mat B, scale, add per adapted tensor) at the "
                "speed model's launch cost per node = " + llmsim::format_sig(st.cost.dispatch_s_per_token * 1e3) + " ms per token; without: " +
                llmsim::format_sig(st.cost.base_tokens_per_s) + " tok/s, " + llmsim::format_sig(st.cost.slowdown * 100) + " % slower",
            {"checked against the one published timing (llama.cpp#8056, M2): still 6-21 % too optimistic on the speed ratio"});
}

// [SECTION] panel ---------------------------------------------------------------------------------------------

bool draw_lora_section_inputs(AppState& app) {
    Scenario& s = app.scenario;
    bool changed = false;
    ImGui::PushItemWidth(std::min(ImGui::GetContentRegionAvail().x * 0.55f, ImGui::GetFontSize() * 16));
    changed |= ImGui::SliderInt("Adapters loaded (--lora)", &s.lora_n, 0, 16, s.lora_n == 0 ? "none" : "%d");
    note_widget(app, "lora-n");
    changed |= ImGui::SliderInt("Rank r", &s.lora_rank, 1, 256, "%d", ImGuiSliderFlags_Logarithmic);
    note_widget(app, "lora-rank");
    static const char* const kTargets[] = {"q,v", "q,k,v,o", "all", "mlp"};
    if (ImGui::BeginCombo("Target modules", s.lora_targets.c_str())) {
        for (const char* t : kTargets) if (ImGui::Selectable(t, s.lora_targets == t)) { s.lora_targets = t; changed = true; }
        ImGui::EndCombo();
    }
    static const char* const kTypes[] = {"f32", "f16", "bf16", "q8_0"};
    if (ImGui::BeginCombo("Adapter type (--outtype)", s.lora_type.c_str())) {
        for (const char* t : kTypes) if (ImGui::Selectable(t, s.lora_type == t)) { s.lora_type = t; changed = true; }
        ImGui::EndCombo();
    }
    ImGui::PopItemWidth();
    return changed;
}

}  // namespace

void draw_lora(AppState& app) {
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextDisabled("LoRA adapters on top of the top bar's model and quant (llama-server --lora). MiB = 2^20 bytes.");
    ImGui::PopTextWrapPos();
    update_lora(app);
    if (draw_lora_section_inputs(app)) { mark_changed(app); update_lora(app); }
    const LoraState& st = app.lora;
    if (section_error(app, st.error, "lora-error")) return;
    if (ImGui::BeginTable("lora-size", 2, ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_SizingFixedFit)) {
        explained_row(app, "parameters per adapter", std::to_string(st.size.params), "lora_size");
        explained_row(app, "one adapter", mib_text(st.size.bytes), "lora_size");
        note_widget(app, "lora-size");
        for (int i = 0; i < llmsim::kLoraTargetCount; ++i)
            if (st.spec.targets[i]) explained_row(app, (std::string("  ") + llmsim::to_string((llmsim::LoraTarget)i)).c_str(), mib_text(st.size.per_target_bytes[i]), "lora_size");
        explained_row(app, (std::to_string(st.adapters) + " adapter(s) loaded").c_str(), mib_text(st.cost.adapters_bytes), "lora_memory");
        if (st.with_speed) {
            explained_row(app, "decode without / with", llmsim::format_sig(st.cost.base_tokens_per_s) + " / " + llmsim::format_sig(st.cost.lora_tokens_per_s) + " tok/s", "lora_speed");
            note_widget(app, "lora-speed");
            explained_row(app, "slower by", llmsim::format_sig(st.cost.slowdown * 100) + " %", "lora_speed");
        }
        ImGui::EndTable();
    }
    ImGui::PushTextWrapPos(0.0f);
    if (app.scenario.lora_n == 0) ImGui::TextDisabled("Sizes are for one adapter; none is in the command until Adapters loaded is 1 or more.");
    else ImGui::TextDisabled("The command section adds --lora once per adapter (file names are placeholders: adapter<i>-r<rank>.gguf).");
    ImGui::PopTextWrapPos();
}

// [SECTION] JSON ----------------------------------------------------------------------------------------------

std::string lora_state_json(const AppState& app) {
    const LoraState& st = app.lora;
    nlohmann::json j;
    j["request"] = st.request_json.empty() ? nlohmann::json() : nlohmann::json::parse(st.request_json);
    j["error"] = st.error;
    if (st.error.empty() && st.model) {
        j["result"] = llmsim::lora_to_json(*st.model, st.spec, st.size, st.cost, st.adapters, st.with_speed, st.command);
        nlohmann::json ex = nlohmann::json::array();
        for (const llmsim::Explanation& e : st.explanations) ex.push_back({{"key", e.key}, {"value", e.value}, {"text", e.text}, {"inputs", e.inputs}});
        j["explanations"] = ex;
        j["shown"] = {{"one_adapter", mib_text(st.size.bytes)}, {"loaded", mib_text(st.cost.adapters_bytes)}};
    }
    return j.dump();
}
