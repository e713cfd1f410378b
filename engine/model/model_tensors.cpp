// llmsim model tensors: see model_tensors.h.
//
// Tensor layouts per architecture mirror llama.cpp's create_tensors (src/llama-model.cpp, read at
// ggml-org/llama.cpp@007dbbf3fd17eefe9b47fee45f48f7ba5e62b714) and the converter's choices (gguf-py). Checked
// tensor-for-tensor against the calibration files (assets/calibration/llamacpp_quant_sizes.csv: F16 tensor
// counts and bytes of Llama-3.1-8B, Qwen2.5-0.5B, gemma-2-9b, DeepSeek-V2-Lite).
//
// [SECTION] Layer predicates
// [SECTION] Architecture layout
// [SECTION] Enumeration
// [SECTION] Parameter counts
#include "model/model_tensors.h"

#include "model/arch_table.h"

#include <algorithm>
#include <cstdio>

namespace llmsim {

// [SECTION] Layer predicates -----------------------------------------------------------------------------

bool layer_is_moe(const Model& m, int il) {
    if (!m.is_moe()) return false;
    if (il < m.moe->first_dense_layers) return false;
    const int step = std::max(1, m.moe->layer_step);
    // llama.cpp (llama4 interleave_moe_layer_step, jamba expert_layer_period/offset 2/1): MoE when (il+1) % step == 0
    return step == 1 || (il + 1) % step == 0;
}

bool layer_has_attention(const Model& m, int il) {
    if (!m.hybrid) return true;
    const auto& a = m.hybrid->attention_layers;
    return std::find(a.begin(), a.end(), il) != a.end();
}

bool layer_is_swa(const Model& m, int il) {
    // llama.cpp hparams.is_swa: with pattern p, layer il slides unless il % p == p - 1 (p == 1: all slide)
    return m.swa.has_value() && m.swa->is_sliding(il, m.n_layers);
}

// [SECTION] Architecture layout ----------------------------------------------------------------------------

namespace {

// the tensor layout of the model's architecture row (model/arch_table.h; defaults for an architecture without
// one), with the q/k norm shape resolved from the model's qk_norm flag
ArchInfo arch_traits(const Model& m) {
    const ArchInfo* a = find_llama_arch(m.arch);
    ArchInfo t = a ? *a : ArchInfo{.arch = Arch::Count, .name = ""};
    if (m.qk_norm && t.qk_norm == QkNorm::None) t.qk_norm = t.qk_norm_flagged;
    return t;
}

struct Builder {
    std::vector<TensorDesc>& out;
    void add(const std::string& name, int layer, std::initializer_list<int64_t> shape, TensorKind kind,
             bool routed = false, bool shared = false) {
        TensorDesc t;
        t.name = name;
        t.layer = layer;
        int i = 0;
        for (int64_t d : shape) t.ne[i++] = d;
        t.n_dims = i;
        t.kind = kind;
        t.routed_expert = routed;
        t.shared_expert = shared;
        out.push_back(t);
    }
};

std::string blk(int il, const char* suffix) {
    char buf[96];
    std::snprintf(buf, sizeof buf, "blk.%d.%s", il, suffix);
    return buf;
}

// weight-name order inside a block does not matter for sizes, but the quantizer visits tensors sorted by
// (layer, name) (llama_model_loader::weight_name_comparer); enumerate_tensors sorts at the end.
bool tensor_less(const TensorDesc& a, const TensorDesc& b) {
    if (a.layer != b.layer) return a.layer < b.layer;
    return a.name < b.name;
}

}  // namespace

// [SECTION] Enumeration ----------------------------------------------------------------------------------
// One function per part of the graph (llama.cpp llama_model::load_tensors): global tensors, then per layer the
// mixer (recurrent, MLA or standard attention) and the FFN (MoE or dense).

namespace {

// token embedding, output norm and matrix, RoPE factor tensors
void add_global_tensors(Builder& b, const Model& m) {
    const int64_t n_embd = m.hidden_size;
    const int64_t n_vocab = m.vocab_size;
    const int64_t hd_k = m.head_dim;
    // non-block tensors
    b.add("token_embd.weight", -1, {n_embd, n_vocab}, TensorKind::Weight);
    b.add("output_norm.weight", -1, {n_embd}, TensorKind::Norm);
    if (!m.tie_embeddings) b.add("output.weight", -1, {n_embd, n_vocab}, TensorKind::Weight);
    // llama3-style RoPE scaling stores its frequency factors (llama.cpp LLM_TENSOR_ROPE_FREQS, head_dim/2 F32)
    if (m.rope_scaling == "llama3") b.add("rope_freqs.weight", -1, {hd_k / 2}, TensorKind::Other1D);
    if (m.rope_scaling == "longrope") {
        b.add("rope_factors_long.weight", -1, {hd_k / 2}, TensorKind::Other1D);
        b.add("rope_factors_short.weight", -1, {hd_k / 2}, TensorKind::Other1D);
    }
}

// the recurrent mixer of a hybrid layer (catalog parameter count, or Mamba-1 defaults)
void add_recurrent_mixer(Builder& b, const Model& m, int il) {
    const int64_t n_embd = m.hidden_size;
    const HybridConfig& h = *m.hybrid;
    if (h.recurrent_layer_params > 0) {
        // catalog gives only the parameter count of one recurrent mixer: model it as one matrix with
        // rows of n_embd (its quantized size then follows the same rules as a real ssm_in/ssm_out)
        const int64_t rows = h.recurrent_layer_params / n_embd;
        const int64_t rest = h.recurrent_layer_params - rows * n_embd;
        b.add(blk(il, "ssm_in.weight"), il, {n_embd, rows}, TensorKind::Weight);
        if (rest > 0) b.add(blk(il, "ssm_d"), il, {rest}, TensorKind::Other1D);
    } else {
        // Mamba-1 defaults (d_inner = 2 n_embd, d_state 16, d_conv 4, dt_rank = ceil(n_embd/16)), as Jamba
        const int64_t d_inner = 2 * n_embd, d_state = 16, d_conv = 4, dt_rank = (n_embd + 15) / 16;
        b.add(blk(il, "ssm_in.weight"), il, {n_embd, 2 * d_inner}, TensorKind::Weight);
        b.add(blk(il, "ssm_conv1d.weight"), il, {d_conv, d_inner}, TensorKind::Other1D);
        b.add(blk(il, "ssm_conv1d.bias"), il, {d_inner}, TensorKind::Bias);
        b.add(blk(il, "ssm_x.weight"), il, {d_inner, dt_rank + 2 * d_state}, TensorKind::Weight);
        b.add(blk(il, "ssm_dt.weight"), il, {dt_rank, d_inner}, TensorKind::Weight);
        b.add(blk(il, "ssm_dt.bias"), il, {d_inner}, TensorKind::Bias);
        b.add(blk(il, "ssm_a"), il, {d_state, d_inner}, TensorKind::Other1D);
        b.add(blk(il, "ssm_d"), il, {d_inner}, TensorKind::Other1D);
        b.add(blk(il, "ssm_out.weight"), il, {d_inner, n_embd}, TensorKind::Weight);
    }
}

// multi-head latent attention (DeepSeek-V2/V3)
void add_mla_attention(Builder& b, const Model& m, int il) {
    const int64_t n_embd = m.hidden_size;
    const int64_t n_head = m.n_heads;
    // DeepSeek-V2/V3 multi-head latent attention; newer llama.cpp (since the MLA rework, 2025) splits
    // attn_kv_b into attn_k_b {qk_nope, kv_lora, n_head} and attn_v_b {kv_lora, v_head, n_head}
    const MlaConfig& a = *m.mla;
    const int64_t qk_head = a.qk_nope_head_dim + a.qk_rope_head_dim;
    if (a.q_lora_rank > 0) {
        b.add(blk(il, "attn_q_a.weight"), il, {n_embd, a.q_lora_rank}, TensorKind::Weight);
        b.add(blk(il, "attn_q_a_norm.weight"), il, {a.q_lora_rank}, TensorKind::Norm);
        b.add(blk(il, "attn_q_b.weight"), il, {a.q_lora_rank, n_head * qk_head}, TensorKind::Weight);
    } else {
        b.add(blk(il, "attn_q.weight"), il, {n_embd, n_head * qk_head}, TensorKind::Weight);
    }
    b.add(blk(il, "attn_kv_a_mqa.weight"), il, {n_embd, a.kv_lora_rank + a.qk_rope_head_dim}, TensorKind::Weight);
    b.add(blk(il, "attn_kv_a_norm.weight"), il, {a.kv_lora_rank}, TensorKind::Norm);
    b.add(blk(il, "attn_k_b.weight"), il, {a.qk_nope_head_dim, a.kv_lora_rank, n_head}, TensorKind::Weight);
    b.add(blk(il, "attn_v_b.weight"), il, {a.kv_lora_rank, a.v_head_dim, n_head}, TensorKind::Weight);
    b.add(blk(il, "attn_output.weight"), il, {n_head * a.v_head_dim, n_embd}, TensorKind::Weight);
}

// standard (GQA) attention: Q/K/V (fused or not), biases, QK norms, output, gpt-oss sinks
void add_attention(Builder& b, const Model& m, const ArchInfo& tr, int il) {
    const int64_t n_embd = m.hidden_size;
    const int64_t n_head = m.n_heads;
    const int64_t n_kv = m.n_kv_heads > 0 ? m.n_kv_heads : m.n_heads;
    const int64_t hd_k = m.head_dim;
    const int64_t hd_v = m.kv_head_dim_v();
    const int64_t n_q = n_head * hd_k;
    const int64_t n_k_gqa = n_kv * hd_k;
    const int64_t n_v_gqa = n_kv * hd_v;
    const int64_t n_attn_out = n_head * hd_v;
    if (tr.fused_qkv) {
        b.add(blk(il, "attn_qkv.weight"), il, {n_embd, n_q + n_k_gqa + n_v_gqa}, TensorKind::Weight);
        if (m.qkv_bias) b.add(blk(il, "attn_qkv.bias"), il, {n_q + n_k_gqa + n_v_gqa}, TensorKind::Bias);
    } else {
        b.add(blk(il, "attn_q.weight"), il, {n_embd, n_q}, TensorKind::Weight);
        b.add(blk(il, "attn_k.weight"), il, {n_embd, n_k_gqa}, TensorKind::Weight);
        b.add(blk(il, "attn_v.weight"), il, {n_embd, n_v_gqa}, TensorKind::Weight);
        if (m.qkv_bias || tr.gpt_oss_layout) {
            b.add(blk(il, "attn_q.bias"), il, {n_q}, TensorKind::Bias);
            b.add(blk(il, "attn_k.bias"), il, {n_k_gqa}, TensorKind::Bias);
            b.add(blk(il, "attn_v.bias"), il, {n_v_gqa}, TensorKind::Bias);
        }
    }
    if (tr.qk_norm == QkNorm::PerHead) {
        b.add(blk(il, "attn_q_norm.weight"), il, {hd_k}, TensorKind::Norm);
        b.add(blk(il, "attn_k_norm.weight"), il, {hd_k}, TensorKind::Norm);
    } else if (tr.qk_norm == QkNorm::FullWidth) {
        b.add(blk(il, "attn_q_norm.weight"), il, {n_q}, TensorKind::Norm);
        b.add(blk(il, "attn_k_norm.weight"), il, {n_k_gqa}, TensorKind::Norm);
    } else if (tr.qk_norm == QkNorm::PerHeadTimesHeads) {
        b.add(blk(il, "attn_q_norm.weight"), il, {hd_k, n_head}, TensorKind::Norm);
        b.add(blk(il, "attn_k_norm.weight"), il, {hd_k, n_kv}, TensorKind::Norm);
    }
    b.add(blk(il, "attn_output.weight"), il, {n_attn_out, n_embd}, TensorKind::Weight);
    if (tr.gpt_oss_layout) {
        b.add(blk(il, "attn_output.bias"), il, {n_embd}, TensorKind::Bias);
        b.add(blk(il, "attn_sinks.weight"), il, {n_head}, TensorKind::Other1D);
    }
}

// routed experts, router, shared experts
void add_moe_ffn(Builder& b, const Model& m, const ArchInfo& tr, int il) {
    const int64_t n_embd = m.hidden_size;
    const MoeConfig& e = *m.moe;
    const int64_t n_exp = e.n_experts;
    const int64_t n_ff_exp = e.expert_ffn;
    b.add(blk(il, "ffn_gate_inp.weight"), il, {n_embd, n_exp}, TensorKind::Router);
    if (tr.gpt_oss_layout) b.add(blk(il, "ffn_gate_inp.bias"), il, {n_exp}, TensorKind::Bias);
    else if (e.router_bias) b.add(blk(il, "exp_probs_b.bias"), il, {n_exp}, TensorKind::Other1D);
    if (m.gated_ffn) b.add(blk(il, "ffn_gate_exps.weight"), il, {n_embd, n_ff_exp, n_exp}, TensorKind::Weight, true);
    b.add(blk(il, "ffn_up_exps.weight"), il, {n_embd, n_ff_exp, n_exp}, TensorKind::Weight, true);
    b.add(blk(il, "ffn_down_exps.weight"), il, {n_ff_exp, n_embd, n_exp}, TensorKind::Weight, true);
    if (tr.gpt_oss_layout) {
        b.add(blk(il, "ffn_gate_exps.bias"), il, {n_ff_exp, n_exp}, TensorKind::Bias, true);
        b.add(blk(il, "ffn_up_exps.bias"), il, {n_ff_exp, n_exp}, TensorKind::Bias, true);
        b.add(blk(il, "ffn_down_exps.bias"), il, {n_embd, n_exp}, TensorKind::Bias, true);
    }
    if (e.n_shared_experts > 0) {
        const int64_t n_ff_sh = (e.shared_ffn > 0 ? e.shared_ffn : n_ff_exp) * e.n_shared_experts;
        if (tr.shexp_gate) b.add(blk(il, "ffn_gate_inp_shexp.weight"), il, {n_embd}, TensorKind::Router);
        if (m.gated_ffn) b.add(blk(il, "ffn_gate_shexp.weight"), il, {n_embd, n_ff_sh}, TensorKind::Weight, false, true);
        b.add(blk(il, "ffn_up_shexp.weight"), il, {n_embd, n_ff_sh}, TensorKind::Weight, false, true);
        b.add(blk(il, "ffn_down_shexp.weight"), il, {n_ff_sh, n_embd}, TensorKind::Weight, false, true);
    }
}

// dense FFN; false + err when the model has no FFN width for it
bool add_dense_ffn(Builder& b, const Model& m, const ArchInfo& tr, int il, std::string& err) {
    const int64_t n_embd = m.hidden_size;
    const int64_t n_ff = m.intermediate_size > 0 ? m.intermediate_size : (m.is_moe() ? m.moe->expert_ffn : 0);
    if (n_ff <= 0) {
        err = "model '" + m.id + "' has a dense layer " + std::to_string(il) + " but no intermediate_size";
        return false;
    }
    if (tr.fused_up_gate) {
        b.add(blk(il, "ffn_up.weight"), il, {n_embd, 2 * n_ff}, TensorKind::Weight);
    } else {
        if (m.gated_ffn) b.add(blk(il, "ffn_gate.weight"), il, {n_embd, n_ff}, TensorKind::Weight);
        b.add(blk(il, "ffn_up.weight"), il, {n_embd, n_ff}, TensorKind::Weight);
    }
    b.add(blk(il, "ffn_down.weight"), il, {n_ff, n_embd}, TensorKind::Weight);
    return true;
}

}  // namespace

bool enumerate_tensors(const Model& m, std::vector<TensorDesc>& out, std::string& err) {
    out.clear();
    if (m.n_layers <= 0 || m.hidden_size <= 0 || m.vocab_size <= 0) {
        err = "model '" + m.id + "' needs n_layers, hidden_size and vocab_size > 0";
        return false;
    }
    if (!m.mla && (m.n_heads <= 0 || m.head_dim <= 0)) {
        err = "model '" + m.id + "' needs n_heads and head_dim > 0";
        return false;
    }
    if (m.is_moe() && (m.moe->expert_ffn <= 0 || m.moe->n_experts_active <= 0)) {
        err = "model '" + m.id + "' is MoE but moe.expert_ffn / moe.n_experts_active are missing";
        return false;
    }
    const ArchInfo tr = arch_traits(m);
    Builder b{out};
    const int64_t n_embd = m.hidden_size;
    add_global_tensors(b, m);
    for (int il = 0; il < m.n_layers; ++il) {
        const bool attn = layer_has_attention(m, il);
        // ---- mixer: attention or recurrent
        if (tr.attn_norm || !attn) b.add(blk(il, "attn_norm.weight"), il, {n_embd}, TensorKind::Norm);
        if (!attn) add_recurrent_mixer(b, m, il);
        else if (m.mla) add_mla_attention(b, m, il);
        else add_attention(b, m, tr, il);
        if (tr.post_norms) b.add(blk(il, "post_attention_norm.weight"), il, {n_embd}, TensorKind::Norm);

        // ---- FFN
        // gpt-oss names its pre-FFN norm post_attention_norm (llama.cpp LLM_TENSOR_ATTN_POST_NORM); same size
        if (tr.gpt_oss_layout) b.add(blk(il, "post_attention_norm.weight"), il, {n_embd}, TensorKind::Norm);
        else if (tr.ffn_norm || (!attn && m.hybrid)) b.add(blk(il, "ffn_norm.weight"), il, {n_embd}, TensorKind::Norm);
        if (layer_is_moe(m, il)) add_moe_ffn(b, m, tr, il);
        else if (!add_dense_ffn(b, m, tr, il, err)) return false;
        if (tr.post_norms) b.add(blk(il, "post_ffw_norm.weight"), il, {n_embd}, TensorKind::Norm);
    }
    std::stable_sort(out.begin(), out.end(), tensor_less);
    return true;
}

// [SECTION] Parameter counts -----------------------------------------------------------------------------

bool count_params(const Model& m, ParamCounts& pc, std::string& err) {
    pc = ParamCounts{};
    std::vector<TensorDesc> ts;
    if (!enumerate_tensors(m, ts, err)) return false;
    count_params(m, ts, pc);
    return true;
}

void count_params(const Model& m, const std::vector<TensorDesc>& ts, ParamCounts& pc) {
    pc = ParamCounts{};
    std::vector<uint64_t> per_layer((size_t)m.n_layers, 0);
    for (const TensorDesc& t : ts) {
        const uint64_t n = t.n_elements();
        pc.total += n;
        if (t.routed_expert) pc.routed_expert += n;
        if (t.name == "token_embd.weight") pc.embedding += n;
        if (t.name == "output.weight") pc.output += n;
        if (t.layer >= 0) per_layer[(size_t)t.layer] += n;
    }
    pc.active = pc.total;
    if (m.is_moe() && m.moe->n_experts > 0) {
        // routed experts: only n_experts_active of n_experts run per token
        const double frac = (double)m.moe->n_experts_active / (double)m.moe->n_experts;
        pc.active = pc.total - pc.routed_expert + (uint64_t)((double)pc.routed_expert * frac + 0.5);
    }
    for (uint64_t v : per_layer) pc.per_layer_max = std::max(pc.per_layer_max, v);
}

}  // namespace llmsim
