// llmsim quant rules: see quant_rules.h.
//
// The per-tensor choices re-implement the logic of llama.cpp's src/llama-quant.cpp at
// ggml-org/llama.cpp@007dbbf3fd17eefe9b47fee45f48f7ba5e62b714 (llama_tensor_get_type, llama_tensor_get_type_impl,
// tensor_type_fallback, tensor_allows_quantization, llama_ftype_get_default_type); the reference data's quants.json
// (common_rules, llama_quantize_ftypes[].tensor_overrides) summarises them, citing that commit. Verified against
// llama-quantize's histograms in assets/calibration/llamacpp_quant_sizes.csv (llama.cpp de3ff815ea7d).
//
// [SECTION] Row sizes
// [SECTION] Tensor categories
// [SECTION] Type selection
// [SECTION] Sizes
#include "quant/quant_rules.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstring>

#include "model/arch_table.h"
#include "quant/mlx_quant.h"

namespace llmsim {

// [SECTION] Row sizes -----------------------------------------------------------------------------------
// from the ggml type table (quant_types.cpp)

uint64_t row_bytes(TensorType t, uint64_t n) {
    const TensorTypeInfo& i = tensor_type_info(t);
    return (uint64_t)i.type_size * (n / (uint64_t)i.block_size);
}

uint64_t tensor_bytes(TensorType t, const TensorDesc& d) { return row_bytes(t, (uint64_t)d.ne[0]) * d.n_rows(); }

// [SECTION] Tensor categories ----------------------------------------------------------------------------

namespace {

// broad categories as llama-quant.cpp's tensor_get_category (order of tests matters: attn_qkv before attn_v)
enum class Cat { TokenEmbd, Output, AttnQkv, AttnKvB, AttnV, AttnK, AttnQ, AttnOutput, FfnUp, FfnGate, FfnDown, Other };

bool contains(const std::string& s, const char* sub) { return s.find(sub) != std::string::npos; }

Cat category(const std::string& n) {
    if (n == "output.weight") return Cat::Output;
    if (n == "token_embd.weight" || n == "per_layer_token_embd.weight") return Cat::TokenEmbd;
    if (contains(n, "attn_qkv.weight")) return Cat::AttnQkv;
    if (contains(n, "attn_kv_b.weight")) return Cat::AttnKvB;
    if (contains(n, "attn_v.weight")) return Cat::AttnV;
    if (contains(n, "attn_k.weight")) return Cat::AttnK;
    if (contains(n, "attn_q.weight")) return Cat::AttnQ;
    if (contains(n, "attn_output.weight")) return Cat::AttnOutput;
    if (contains(n, "ffn_up")) return Cat::FfnUp;
    if (contains(n, "ffn_gate")) return Cat::FfnGate;
    if (contains(n, "ffn_down")) return Cat::FfnDown;
    return Cat::Other;
}

// fused QKV and MLA kv_b count as attn_v (category_is_attn_v); this also makes the separate ATTENTION_QKV
// branch of llama_tensor_get_type_impl unreachable at this commit, which we mirror
bool is_attn_v_like(Cat c) { return c == Cat::AttnV || c == Cat::AttnQkv || c == Cat::AttnKvB; }

// tensor_allows_quantization: only 2D/3D ".weight" tensors that are not norms, routers, conv1d, ...
bool allows_quantization(const TensorDesc& d) {
    if (d.n_dims < 2) return false;
    const std::string& n = d.name;
    if (n.size() < 6 || n.compare(n.size() - 6, 6, "weight") != 0) return false;
    if (contains(n, "_norm.weight")) return false;
    if (contains(n, "ffn_gate_inp.weight")) return false;
    if (contains(n, "ssm_conv1d")) return false;
    if (d.kind != TensorKind::Weight) return false;
    return true;
}

}  // namespace

TensorType source_type(const TensorDesc& d) {
    // the HF->GGUF converter writes vectors, norms, biases and MoE routers as F32 (gguf-py keeps FFN_GATE_INP,
    // SSM_CONV1D, ... in F32); everything else in the model's 16-bit dtype
    if (d.n_dims < 2 || d.kind != TensorKind::Weight) return TensorType::F32;
    return TensorType::F16;
}

// [SECTION] Type selection -------------------------------------------------------------------------------

namespace {

struct QState {
    const Model& m;
    LlamaFtype ftype;
    bool imatrix;
    bool tied;          // no output.weight: token_embd gets the output rules
    int n_attention_wv = 0, i_attention_wv = 0;
    int n_ffn_down = 0, i_ffn_down = 0, i_ffn_gate = 0, i_ffn_up = 0;
    int n_expert = 0;   // hparams.n_expert
    int n_gqa = 1;      // hparams.n_gqa() (layer 0)
    bool is_70b = false;
    bool falcon = false;
};

bool use_more_bits(int i, int n) { return i < n / 8 || i >= 7 * n / 8 || (i - n / 8) % 3 == 2; }

bool any_of(LlamaFtype f, std::initializer_list<LlamaFtype> l) {
    return std::find(l.begin(), l.end(), f) != l.end();
}

// llama_tensor_get_type_impl, for tensors that allow quantization and a quantized default type
TensorType choose_type(QState& qs, TensorType t, const TensorDesc& d, Cat cat) {
    using F = LlamaFtype;
    using T = TensorType;
    const F ft = qs.ftype;
    // MoE models: the layer of an ffn tensor comes from its name; dense models use the running counter
    auto layer_of = [&](int counter) { return qs.n_expert > 1 ? d.layer : counter; };

    if (cat == Cat::Output || (qs.tied && cat == Cat::TokenEmbd)) {
        const int64_t nx = d.ne[0];
        if (ft == F::MXFP4_MOE) t = T::Q8_0;
        else if (qs.falcon || nx % tensor_type_info(t).block_size != 0) t = T::Q8_0;
        else if (any_of(ft, {F::IQ2_XXS, F::IQ2_XS, F::IQ3_XXS, F::IQ1_S, F::IQ2_S, F::IQ2_M, F::IQ1_M})) t = T::Q5_K;
        else if (t != T::Q8_0) t = T::Q6_K;
    } else if (ft == F::MXFP4_MOE) {
        // 3D tensors -> MXFP4, everything else Q8_0 (at this commit only bailingmoe3 restricts this to expert
        // roles, so MLA's 3D attn_k_b / attn_v_b also become MXFP4)
        t = d.ne[2] > 1 ? T::MXFP4 : T::Q8_0;
    } else if (cat == Cat::TokenEmbd) {
        if (any_of(ft, {F::IQ2_XXS, F::IQ2_XS, F::IQ1_S, F::IQ1_M})) t = T::Q2_K;
        else if (any_of(ft, {F::IQ2_S, F::IQ2_M, F::IQ3_XXS})) t = T::IQ3_S;
        else if (any_of(ft, {F::TQ1_0, F::TQ2_0})) t = T::Q4_K;
    } else if (any_of(ft, {F::IQ2_XXS, F::IQ2_XS, F::IQ1_S, F::IQ2_S, F::IQ2_M, F::IQ1_M})) {
        const bool iq2sm = ft == F::IQ2_S || ft == F::IQ2_M;
        if (is_attn_v_like(cat)) {
            if (qs.n_gqa >= 4 || qs.n_expert >= 4) t = T::Q4_K;
            else t = iq2sm ? T::IQ3_S : T::Q2_K;
            ++qs.i_attention_wv;
        } else if (qs.n_expert == 8 && cat == Cat::AttnK) {
            t = T::Q4_K;
        } else if (cat == Cat::FfnDown) {
            if (qs.i_ffn_down < qs.n_ffn_down / 8) t = iq2sm ? T::IQ3_S : T::Q2_K;
            ++qs.i_ffn_down;
        } else if (cat == Cat::AttnOutput) {
            if (qs.n_expert == 8) t = T::Q5_K;
            else if (ft == F::IQ1_S || ft == F::IQ1_M) t = T::IQ2_XXS;
            else if (iq2sm) t = T::IQ3_S;
        }
    } else if (is_attn_v_like(cat)) {
        if (ft == F::Q2_K) t = qs.n_gqa >= 4 ? T::Q4_K : T::Q3_K;
        else if (ft == F::Q2_K_S && qs.n_gqa >= 4) t = T::Q4_K;
        else if (ft == F::IQ3_XXS) t = qs.n_gqa >= 4 ? T::Q4_K : (!qs.imatrix ? T::IQ3_S : T::IQ3_XXS);
        else if ((ft == F::IQ3_XS || ft == F::IQ3_S) && qs.n_gqa >= 4) t = T::Q4_K;
        else if (ft == F::IQ3_M) t = T::Q4_K;
        else if (ft == F::Q3_K_M) t = qs.i_attention_wv < 2 ? T::Q5_K : T::Q4_K;
        else if (ft == F::Q3_K_L) t = T::Q5_K;
        else if ((ft == F::IQ4_NL || ft == F::IQ4_XS) && qs.n_gqa >= 4) t = T::Q5_K;
        else if ((ft == F::Q4_K_M || ft == F::Q5_K_M) && use_more_bits(qs.i_attention_wv, qs.n_attention_wv)) t = T::Q6_K;
        else if (ft == F::Q4_K_S && qs.i_attention_wv < 4) t = T::Q5_K;
        // 70B-class: attn_v is n_gqa times smaller than attn_q, so more bits are nearly free
        if (qs.is_70b && (t == T::Q3_K || t == T::Q4_K)) t = T::Q5_K;
        if (qs.n_expert == 8) t = T::Q8_0;  // 8-expert (Mixtral): ~128 MB for a better attn_v
        ++qs.i_attention_wv;
    } else if (cat == Cat::AttnK) {
        if (qs.n_expert == 8) t = T::Q8_0;
        else if (ft == F::IQ3_XS) t = T::IQ3_XXS;
        else if (ft == F::IQ3_XXS) t = T::IQ2_S;
    } else if (cat == Cat::AttnQ) {
        if (ft == F::IQ3_XS) t = T::IQ3_XXS;
        else if (ft == F::IQ3_XXS) t = T::IQ2_S;
    } else if (cat == Cat::FfnDown) {
        const int i = layer_of(qs.i_ffn_down), n = qs.n_ffn_down;
        if (ft == F::Q2_K) t = T::Q3_K;
        else if (ft == F::Q2_K_S) { if (i < n / 8) t = T::Q4_K; }
        else if (ft == F::IQ3_XXS && !qs.imatrix) t = i < n / 8 ? T::Q4_K : T::Q3_K;
        else if (ft == F::Q3_K_M) t = i < n / 16 ? T::Q5_K : (!qs.falcon || use_more_bits(i, n)) ? T::Q4_K : T::Q3_K;
        else if (ft == F::IQ3_M && (i < n / 8 || (qs.n_expert == 8 && use_more_bits(i, n)))) t = T::Q4_K;
        else if (ft == F::Q3_K_L) t = qs.falcon ? T::Q4_K : T::Q5_K;
        else if (ft == F::Q4_K_M) {
            if (qs.falcon) t = i < n / 16 ? T::Q6_K : use_more_bits(i, n) ? T::Q5_K : T::Q4_K;
            else if (use_more_bits(i, n)) t = T::Q6_K;
        }
        else if (i < n / 8 && (ft == F::IQ4_NL || ft == F::IQ4_XS) && !qs.imatrix) t = T::Q5_K;
        else if (ft == F::Q5_K_M && use_more_bits(i, n)) t = T::Q6_K;
        else if (ft == F::Q4_K_S && !qs.falcon && i < n / 8) t = T::Q5_K;
        else if ((ft == F::Q4_0 || ft == F::Q5_0) && qs.imatrix && i < n / 8) t = ft == F::Q4_0 ? T::Q4_1 : T::Q5_1;
        ++qs.i_ffn_down;
    } else if (cat == Cat::AttnOutput) {
        if (!qs.falcon) {
            if (qs.n_expert == 8) {
                if (any_of(ft, {F::Q2_K, F::IQ3_XS, F::IQ3_XXS, F::Q3_K_S, F::Q3_K_M, F::IQ4_NL, F::Q4_K_S, F::Q4_K_M,
                                F::IQ3_S, F::IQ3_M, F::IQ4_XS}))
                    t = T::Q5_K;
            } else {
                if (ft == F::Q2_K) t = T::Q3_K;
                else if (ft == F::IQ3_XXS) t = T::IQ3_S;
                else if (ft == F::Q3_K_M) t = T::Q4_K;
                else if (ft == F::Q3_K_L) t = T::Q5_K;
                else if (ft == F::IQ3_M) t = T::Q4_K;
            }
        } else if (ft == F::Q3_K_L) {
            t = T::Q4_K;
        }
    } else if (cat == Cat::FfnGate || cat == Cat::FfnUp) {
        int& counter = cat == Cat::FfnGate ? qs.i_ffn_gate : qs.i_ffn_up;
        const int i = layer_of(counter), n = qs.n_ffn_down;
        if (ft == F::IQ3_XS && i >= n / 8 && i < 7 * n / 8) t = T::IQ3_XXS;
        ++counter;
    }
    return t;
}

// tensor_type_fallback: a row length that is not a multiple of the block size gets a compatible type
TensorType shape_fallback(TensorType t, int64_t ncols) {
    using T = TensorType;
    if (ncols % tensor_type_info(t).block_size == 0) return t;
    T r;
    switch (t) {
        case T::IQ1_S: case T::IQ1_M: case T::IQ2_XXS: case T::IQ2_XS: case T::IQ2_S: case T::IQ3_XXS:
        case T::IQ3_S: case T::IQ4_XS: r = T::IQ4_NL; break;
        case T::Q2_K: case T::Q3_K: case T::TQ1_0: case T::TQ2_0: r = T::Q4_0; break;
        case T::Q4_K: r = T::Q5_0; break;
        case T::Q5_K: r = T::Q5_1; break;
        case T::Q6_K: r = T::Q8_0; break;
        default: r = T::F16; break;  // llama.cpp throws here; F16 is the only type that always fits
    }
    if (ncols % tensor_type_info(r).block_size != 0) r = T::F16;
    return r;
}

}  // namespace

bool assign_tensor_types(const Model& m, LlamaFtype ftype, const std::vector<TensorDesc>& tensors,
                         std::vector<TensorType>& types, std::string& err, const QuantOptions& opt) {
    types.assign(tensors.size(), TensorType::F32);
    QState qs{m, ftype, opt.imatrix, true};
    for (const TensorDesc& d : tensors) {
        const Cat c = category(d.name);
        if (is_attn_v_like(c)) ++qs.n_attention_wv;
        if (c == Cat::Output) qs.tied = false;
    }
    qs.n_ffn_down = m.n_layers;
    qs.n_expert = m.is_moe() ? m.moe->n_experts : 0;
    // deepseek2 GGUFs store head_count_kv = 1 for the absorbed MLA cache
    const int n_kv = m.mla ? 1 : (m.n_kv_heads > 0 ? m.n_kv_heads : m.n_heads);
    qs.n_gqa = n_kv > 0 ? m.n_heads / n_kv : 1;
    // LLM_TYPE_70B: llama (GQA), qwen2, deci, olmoe with 80 layers (llama-model.cpp load_hparams)
    const ArchInfo* arch = find_llama_arch(m.arch);
    const Type70b t70 = arch ? arch->type_70b : Type70b::Never;
    qs.is_70b = m.n_layers == 80 && (t70 == Type70b::Always || (t70 == Type70b::IfGqa && m.n_kv_heads != m.n_heads));
    qs.falcon = arch && arch->falcon_rules;

    const TensorType def = ftype_default_type(ftype);
    const bool quantized = tensor_type_info(def).quantized;
    for (size_t i = 0; i < tensors.size(); ++i) {
        const TensorDesc& d = tensors[i];
        if (!allows_quantization(d)) {
            types[i] = source_type(d);
            continue;
        }
        TensorType t = def;
        if (quantized) {
            t = choose_type(qs, t, d, category(d.name));
            t = shape_fallback(t, d.ne[0]);
        } else if (ftype == LlamaFtype::ALL_F32) {
            t = TensorType::F32;
        }
        types[i] = t;
    }
    (void)err;
    return true;
}

// [SECTION] Sizes ----------------------------------------------------------------------------------------

namespace {
uint64_t pad(uint64_t x, uint64_t a) { return (x + a - 1) / a * a; }

// GGUF header: metadata (mostly the tokenizer: ~25 bytes per vocab entry for tokens, scores, types, merges)
// plus one tensor-info record per tensor (~65 bytes). Fitted to the four measured headers in
// assets/calibration/llamacpp_quant_sizes.csv (header_bytes column), within 1.5 % of each.
uint64_t estimate_header_bytes(const Model& m, size_t n_tensors) {
    return (uint64_t)(25.2 * (double)m.vocab_size) + 65u * (uint64_t)n_tensors;
}
// MLX formats (mlx-4bit-g64 ...): mlx-lm's own per-tensor rule (mlx_quant.h); bytes per tensor, no ggml types
bool mlx_weight_size(const Model& m, const std::string& file_type, WeightSize& out, std::string& err) {
    const std::optional<MlxQuant> q = parse_mlx_quant(file_type);
    if (!q) {
        err = mlx_quant_error(file_type);
        return false;
    }
    MlxWeightSize ms;
    if (!compute_mlx_weight_size(m, *q, ms, err)) return false;
    out.gguf = false;
    out.params = ms.params;
    out.tensor_data_bytes = out.file_bytes_estimate = ms.total_bytes;
    out.bits_per_weight = ms.bits_per_weight;
    out.tensors = std::move(ms.tensors);
    out.bytes = std::move(ms.bytes);
    return true;
}

}  // namespace

bool compute_weight_size(const Model& m, const std::string& file_type, WeightSize& out, std::string& err,
                         const Catalog* cat, const QuantOptions& opt) {
    out = WeightSize{};
    out.file_type = file_type;
    const std::optional<LlamaFtype> ft = parse_llama_ftype(file_type);
    std::vector<TensorDesc> ts;
    if (!enumerate_tensors(m, ts, err)) return false;
    uint64_t params = 0;
    for (const TensorDesc& d : ts) params += d.n_elements();
    out.params = params;
    if (!ft && looks_like_mlx_quant(file_type)) return mlx_weight_size(m, file_type, out, err);
    if (!ft) {
        const FileType* f = cat ? cat->find_file_type(file_type) : nullptr;
        if (!f) {
            err = "unknown quantization '" + file_type + "' (try Q4_K_M, Q8_0, F16, or a format from the catalog)";
            return false;
        }
        if (f->gguf || f->flat_bpw <= 0) {
            err = "quantization '" + file_type + "' has no per-tensor rules and no flat_bpw in the catalog";
            return false;
        }
        // non-GGUF formats (MLX, AWQ, FP8, ...): effective bits per weight incl. scales, over all parameters
        out.gguf = false;
        out.tensor_data_bytes = (uint64_t)((double)params * f->flat_bpw / 8.0 + 0.5);
        out.file_bytes_estimate = out.tensor_data_bytes;
        out.bits_per_weight = f->flat_bpw;
        return true;
    }
    std::vector<TensorType> types;
    if (!assign_tensor_types(m, *ft, ts, types, err, opt)) return false;
    out.bytes.resize(ts.size());
    for (size_t i = 0; i < ts.size(); ++i) {
        const uint64_t b = pad(tensor_bytes(types[i], ts[i]), kGgufAlignment);
        out.bytes[i] = b;
        out.tensor_data_bytes += b;
        auto it = std::find_if(out.histogram.begin(), out.histogram.end(),
                               [&](const TypeHistogramEntry& e) { return e.type == types[i]; });
        if (it == out.histogram.end()) {
            out.histogram.push_back({types[i], 0, 0});
            it = out.histogram.end() - 1;
        }
        it->count += 1;
        it->bytes += b;
    }
    std::sort(out.histogram.begin(), out.histogram.end(),
              [](const TypeHistogramEntry& a, const TypeHistogramEntry& b) { return a.bytes > b.bytes; });
    out.file_bytes_estimate = out.tensor_data_bytes + estimate_header_bytes(m, ts.size());
    out.bits_per_weight = params ? 8.0 * (double)out.tensor_data_bytes / (double)params : 0;
    out.tensors = std::move(ts);
    out.types = std::move(types);
    return true;
}

}  // namespace llmsim
