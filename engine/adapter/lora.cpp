// LoRA adapter tensors, memory and decode cost (lora.h has the rules and sources).
#include "adapter/lora.h"

#include <algorithm>
#include <sstream>

#include "model/model_tensors.h"
#include "quant/quant_rules.h"
#include "speed/speed.h"
#include "runtime/speed_glue.h"

namespace llmsim {

namespace {
const char* const kTargetNames[kLoraTargetCount] = {"q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj", "down_proj"};
static_assert(sizeof kTargetNames / sizeof kTargetNames[0] == kLoraTargetCount, "one name per LoraTarget");

struct Linear { int64_t in, out; };

// kernel nodes build_lora_mm adds per adapted base tensor: ggml_mul_mat(A), ggml_mul_mat(B), ggml_scale, ggml_add
// (src/llama-graph.cpp llm_graph_context::build_lora_mm; llama_adapter_lora::get_n_nodes counts 6 with the two leaf
// tensors A and B, which dispatch nothing)
constexpr uint64_t kLoraNodesPerTensor = 4;
// kernel nodes of one decoder layer of llama.cpp's llama graph in a decode step with flash attention
// (src/models/llama.cpp llm_build_llama): rms_norm + mul, Q/K/V mul_mat, 2 rope, 2 set_rows (K and V cache writes),
// flash_attn_ext, Wo mul_mat, residual add, rms_norm + mul, up/gate mul_mat, swiglu, down mul_mat, residual add = 19
// (views, reshapes and permutes dispatch nothing). The speed model's fixed_ms_per_layer is the launch/sync cost of
// those nodes, so one node costs fixed_ms_per_layer / 19.
constexpr double kDecodeNodesPerLayer = 19;

// in x out of each targeted linear of one attention block (standard GQA attention)
Linear attn_linear(const Model& m, LoraTarget t) {
    const int64_t h = m.hidden_size, q = (int64_t)m.n_heads * m.head_dim;
    const int64_t kv = (int64_t)(m.n_kv_heads > 0 ? m.n_kv_heads : m.n_heads) * m.head_dim;
    const int64_t vv = (int64_t)(m.n_kv_heads > 0 ? m.n_kv_heads : m.n_heads) * m.kv_head_dim_v();
    switch (t) {
        case LoraTarget::Q: return {h, q};
        case LoraTarget::K: return {h, kv};
        case LoraTarget::V: return {h, vv};
        case LoraTarget::O: return {(int64_t)m.n_heads * m.kv_head_dim_v(), h};
        default: return {0, 0};
    }
}

Linear ffn_linear(int64_t hidden, int64_t ffn, LoraTarget t) {
    if (t == LoraTarget::Down) return {ffn, hidden};
    return {hidden, ffn};
}
}  // namespace

const char* to_string(LoraTarget t) { return (int)t >= 0 && (int)t < kLoraTargetCount ? kTargetNames[(int)t] : "?"; }

bool parse_lora_targets(const std::string& list, LoraSpec& spec, std::string& err) {
    bool t[kLoraTargetCount] = {};
    std::stringstream ss(list);
    std::string item;
    bool any = false;
    while (std::getline(ss, item, ',')) {
        if (item.empty()) continue;
        any = true;
        if (item == "all") { for (bool& b : t) b = true; continue; }
        if (item == "attn") { for (int i = 0; i < 4; ++i) t[i] = true; continue; }
        if (item == "mlp") { for (int i = 4; i < 7; ++i) t[i] = true; continue; }
        bool found = false;
        for (int i = 0; i < kLoraTargetCount; ++i) {
            std::string shortn = std::string(kTargetNames[i]).substr(0, std::string(kTargetNames[i]).find('_'));
            if (item == kTargetNames[i] || item == shortn) { t[i] = true; found = true; }
        }
        if (!found) {
            err = "lora targets: unknown module '" + item + "' (q, k, v, o, gate, up, down, attn, mlp or all)";
            return false;
        }
    }
    if (!any) { err = "lora targets: the list is empty (q, k, v, o, gate, up, down, attn, mlp or all)"; return false; }
    std::copy(t, t + kLoraTargetCount, spec.targets);
    return true;
}

bool lora_size(const Model& m, const LoraSpec& spec, LoraSize& out, std::string& err) {
    out = LoraSize();
    if (spec.rank < 1 || spec.rank > 4096) { err = "lora rank: " + std::to_string(spec.rank) + " is out of range (1 to 4096)"; return false; }
    if (spec.type != TensorType::F32 && spec.type != TensorType::F16 && spec.type != TensorType::BF16 && spec.type != TensorType::Q8_0) {
        err = "lora type: convert_lora_to_gguf writes f32, f16, bf16 or q8_0";
        return false;
    }
    if (spec.type == TensorType::Q8_0 && spec.rank % 32 != 0) {
        err = "lora type: q8_0 stores blocks of 32, so the rank must be a multiple of 32 (got " + std::to_string(spec.rank) + ")";
        return false;
    }
    if (m.mla || m.hybrid) { err = "lora: adapters of MLA or hybrid (recurrent) models are not sized yet"; return false; }
    if (m.n_layers < 1 || m.hidden_size < 1 || m.n_heads < 1 || m.head_dim < 1) { err = "lora: the model has no layer shapes"; return false; }
    const uint64_t r = (uint64_t)spec.rank;
    // bytes of one A (r x in) + B (out x r) pair, rows quantized along the inner dimension as ggml stores them
    auto pair_bytes = [&](Linear l) { return row_bytes(spec.type, (uint64_t)l.in) * r + row_bytes(spec.type, r) * (uint64_t)l.out; };
    for (int il = 0; il < m.n_layers; ++il) {
        for (int ti = 0; ti < kLoraTargetCount; ++ti) {
            if (!spec.targets[ti]) continue;
            const LoraTarget t = (LoraTarget)ti;
            std::vector<std::pair<Linear, std::pair<uint64_t, uint64_t>>> mats;   // linear, (count, active count)
            if (ti < 4) {
                if (layer_has_attention(m, il)) mats.push_back({attn_linear(m, t), {1, 1}});
            } else if (m.is_moe() && layer_is_moe(m, il)) {
                const MoeConfig& e = *m.moe;
                mats.push_back({ffn_linear(m.hidden_size, e.expert_ffn, t), {(uint64_t)e.n_experts, (uint64_t)e.n_experts_active}});
                if (e.n_shared_experts > 0) {
                    const int64_t sf = e.shared_ffn > 0 ? e.shared_ffn : e.expert_ffn;
                    mats.push_back({ffn_linear(m.hidden_size, sf, t), {(uint64_t)e.n_shared_experts, (uint64_t)e.n_shared_experts}});
                }
            } else if (m.intermediate_size > 0) {
                if (t == LoraTarget::Gate && !m.gated_ffn) continue;
                mats.push_back({ffn_linear(m.hidden_size, m.intermediate_size, t), {1, 1}});
            }
            out.adapted_tensors += mats.size();
            for (const auto& x : mats) {
                const Linear l = x.first;
                const uint64_t b = pair_bytes(l);
                out.params += x.second.first * r * (uint64_t)(l.in + l.out);
                out.bytes += x.second.first * b;
                out.per_target_bytes[ti] += x.second.first * b;
                out.bytes_per_token += x.second.second * b;
                out.flops_per_token += x.second.second * 2 * r * (uint64_t)(l.in + l.out);
            }
        }
    }
    out.extra_graph_nodes = out.adapted_tensors * kLoraNodesPerTensor;
    return true;
}

bool lora_cost(const Catalog& cat, const Model& m, const SimRequest& req, const LoraSpec& spec, int n_adapters,
               int64_t depth, LoraCost& out, std::string& err) {
    out = LoraCost();
    if (n_adapters < 1 || n_adapters > 1024) { err = "lora: the number of adapters must be from 1 to 1024"; return false; }
    if (depth < 0) { err = "lora: depth must be 0 or more tokens"; return false; }
    LoraSize sz;
    if (!lora_size(m, spec, sz, err)) return false;
    out.adapters_bytes = sz.bytes * (uint64_t)n_adapters;
    if (!req.memory.hardware) return true;   // memory only
    SimRequest r = req;
    r.with_speed = false;
    r.memory.compute_max_context = false;
    Evaluation ev;
    if (!evaluate(cat, m, r, ev, err)) return false;
    SpeedScenario s;
    if (!build_speed_scenario(m, r, ev, s, err)) return false;
    SpeedResult base = estimate_decode(s, default_speed_params(), depth, 128);
    // the adapter's tensors are read and multiplied at the base weights' rates (one more weight stream), and its
    // extra graph nodes each cost one node's share of the per-layer launch cost (kDecodeNodesPerLayer)
    s.weight_bytes += (double)sz.bytes;
    s.weight_bytes_per_token += (double)sz.bytes_per_token;
    s.active_params += (double)sz.flops_per_token / 2.0;
    SpeedResult with = estimate_decode(s, default_speed_params(), depth, 128);
    if (!base.ok || !with.ok) { err = !base.ok ? base.error : with.error; return false; }
    out.dispatch_s_per_token = (double)sz.extra_graph_nodes * default_speed_params().fixed_ms_per_layer * 1e-3 / kDecodeNodesPerLayer;
    out.base_tokens_per_s = base.tokens_per_s;
    out.lora_tokens_per_s = 1.0 / (1.0 / with.tokens_per_s + out.dispatch_s_per_token);
    out.slowdown = 1.0 - out.lora_tokens_per_s / base.tokens_per_s;
    return true;
}

std::string lora_server_flags(const std::vector<std::string>& files) {
    std::string f;
    for (const std::string& x : files) f += " --lora " + x;
    return f;
}

}  // namespace llmsim
