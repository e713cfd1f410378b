// The Serving section's prefill/decode disaggregation (engine/serving/serve_disagg.cpp): a switch with the prefill
// and decode GPUs, each pool's TP and the link the KV crosses; the result's explanation lines (the pools, the
// transfer, what TTFT and TPOT are made of, the same GPUs aggregated); and Deploy: an NVIDIA Dynamo
// DynamoGraphDeployment for the section's request (serve_deploy.cpp), built when asked, to copy or download.
// [SECTION] inputs
// [SECTION] results and Deploy
#include <imgui.h>

#include <algorithm>

#include "core/format.h"
#include "panels.h"
#include "widgets.h"

namespace {

// the KV paths the switch offers: the device's own link in one node, or a fabric between nodes (serve_network.h)
const char* const kKvLinks[] = {"", "nvlink", "ib-ndr", "ib-xdr", "roce-400", "roce-200", "ethernet-100"};
const char* kv_link_words(const std::string& id) { return id.empty() ? "auto" : id.c_str(); }

// powers of two up to n
int pow2_floor(int n) { int p = 1; while (p * 2 <= n) p *= 2; return p; }

}  // namespace

// [SECTION] inputs ------------------------------------------------------------------------------------------

bool draw_disagg_inputs(AppState& app) {
    Scenario& s = app.scenario;
    const bool engine_ok = s.sv_engine == "vllm" || s.sv_engine == "sglang";
    bool on = s.sv_pd_p > 0, changed = false;
    if (!engine_ok) {
        if (on) { s.sv_pd_p = 0; changed = true; }
        return changed;
    }
    if (ImGui::Checkbox("Prefill/decode disaggregation", &on)) {
        if (on) {   // start from the section's GPUs split 1 : 3 (at least one each)
            const int gpus = std::max(2, s.sv_gpus > 0 ? s.sv_gpus : std::max(2, app.scenario_hardware.gpu_count));
            s.sv_pd_p = std::max(1, gpus / 4); s.sv_pd_d = std::max(1, gpus - s.sv_pd_p);
            s.sv_pd_ptp = 1; s.sv_pd_dtp = 1;
        } else {
            s.sv_pd_p = 0;
        }
        changed = true;
    }
    note_widget(app, "serving-disagg");
    if (!on) return changed;
    ImGui::PushItemWidth(ImGui::GetFontSize() * 9);
    changed |= ImGui::SliderInt("Prefill GPUs", &s.sv_pd_p, 1, 32);
    changed |= ImGui::SliderInt("Decode GPUs", &s.sv_pd_d, 1, 64);
    s.sv_pd_p = std::clamp(s.sv_pd_p, 1, 1024); s.sv_pd_d = std::clamp(s.sv_pd_d, 1, 1024);
    // each pool's TP: a power of two that divides its GPUs (the engine refuses the rest with the field named)
    changed |= ImGui::SliderInt("Prefill TP", &s.sv_pd_ptp, 1, pow2_floor(s.sv_pd_p));
    changed |= ImGui::SliderInt("Decode TP", &s.sv_pd_dtp, 1, pow2_floor(s.sv_pd_d));
    if (ImGui::BeginCombo("KV link", kv_link_words(s.sv_pd_link))) {
        for (const char* id : kKvLinks)
            if (ImGui::Selectable(kv_link_words(id), s.sv_pd_link == id)) { s.sv_pd_link = id; changed = true; }
        ImGui::EndCombo();
    }
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("auto: NVLink when both pools fit one node (8 GPUs), else InfiniBand NDR");
    ImGui::PopItemWidth();
    note_widget(app, "serving-disagg-inputs");
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextDisabled("%d prefill instance(s) of TP %d and %d decode instance(s) of TP %d: %d GPUs in all. vLLM NixlConnector / "
                        "SGLang --disaggregation-mode; the first token streams from the decode instance.", s.sv_pd_p / std::max(1, s.sv_pd_ptp),
                        s.sv_pd_ptp, s.sv_pd_d / std::max(1, s.sv_pd_dtp), s.sv_pd_dtp, s.sv_pd_p + s.sv_pd_d);
    ImGui::PopTextWrapPos();
    return changed;
}

// [SECTION] results and Deploy ------------------------------------------------------------------------------

void draw_disagg_results(AppState& app) {
    ServingState& st = app.serving;
    const llmsim::ServeDisaggResult& g = st.result.disagg;
    if (g.enabled) {
        ImGui::PushFont(app.font_bold); ImGui::TextUnformatted("Prefill/decode disaggregation"); ImGui::PopFont();
        ImGui::PushTextWrapPos(0.0f);
        for (const std::string& l : g.lines) { ImGui::Bullet(); ImGui::SameLine(); ImGui::TextUnformatted(l.c_str()); }   // BulletText does not wrap
        ImGui::TextDisabled("The memory plan above is a decode instance's; a prefill instance keeps %s tokens of KV.",
                            std::to_string((long long)g.prefill_memory.kv_pool_tokens).c_str());
        if (g.have_aggregated) {
            const bool tpot_better = st.result.load.tpot_ms.p90 < g.agg_tpot_p90_ms, ttft_better = st.result.load.ttft_ms.p90 < g.agg_ttft_p90_ms;
            const bool faster = st.result.load.output_tok_s > g.agg_output_tok_s;
            ImGui::TextColored(ink_vec4(tpot_better && faster ? Ink::Good : Ink::Warn), "Against the same GPUs aggregated: TPOT p90 %s, TTFT p90 %s, "
                               "throughput %s.", tpot_better ? "lower" : "higher", ttft_better ? "lower" : "higher", faster ? "higher" : "lower");
        }
        ImGui::PopTextWrapPos();
        note_widget(app, "serving-disagg-lines");
    }
    // Deploy: the Dynamo graph of the section's request, built on click (a serve() run), kept until the request changes
    ImGui::PushFont(app.font_bold); ImGui::TextUnformatted("Deploy"); ImGui::PopFont();
    const std::string key = serving_request_json(st.request);
    if (!st.deploy_key.empty() && st.deploy_key != key) { st.deploy_yaml.clear(); st.deploy_error.clear(); st.deploy_key.clear(); }
    if (ImGui::Button("NVIDIA Dynamo graph (YAML)")) {
        st.deploy_yaml.clear(); st.deploy_error.clear();
        if (!llmsim::serve_deploy_yaml(app.catalog, st.request, st.deploy_yaml, st.deploy_error)) st.deploy_yaml.clear();
        st.deploy_key = key;
    }
    note_widget(app, "serving-deploy");
    ImGui::SameLine();
    ImGui::TextDisabled("kubectl apply -f");
    if (!st.deploy_error.empty()) {
        ImGui::PushTextWrapPos(0.0f);
        ImGui::TextColored(ink_vec4(Ink::Bad), "%s", st.deploy_error.c_str());
        ImGui::PopTextWrapPos();
    }
    if (st.deploy_yaml.empty()) return;
    copy_button(app, "Copy YAML##serving-deploy", st.deploy_yaml);
    if (app.save_text_file) {
        ImGui::SameLine();
        if (ImGui::Button("Download .yaml")) st.deploy_error = app.save_text_file("llmsim-dynamo.yaml", st.deploy_yaml);
    }
    ImGui::PushFont(app.font_mono);
    const float h = std::min(ImGui::GetTextLineHeight() * 18, ImGui::GetTextLineHeight() * (float)(1 + std::count(st.deploy_yaml.begin(), st.deploy_yaml.end(), '\n')));
    ImGui::InputTextMultiline("##serving-deploy-yaml", st.deploy_yaml.data(), st.deploy_yaml.size() + 1, ImVec2(-1, h), ImGuiInputTextFlags_ReadOnly);
    ImGui::PopFont();
    note_widget(app, "serving-deploy-yaml");
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextDisabled("Format: docs.nvidia.com/dynamo (Disaggregated Serving; DynamoGraphDeployment v1beta1), read 2026-12-07.");
    ImGui::PopTextWrapPos();
}
