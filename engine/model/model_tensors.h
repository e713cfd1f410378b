// llmsim model tensors: the GGUF tensors llama.cpp creates for a Model, with their shapes, and the parameter
// counts that follow from them (total, and active per token for MoE).
//
// Names and shapes follow llama.cpp's create_tensors (src/llama-model.cpp) and gguf-py's tensor map
// (gguf-py/gguf/constants.py); shapes are ggml order: ne[0] is the row length (the input dimension of a
// matrix), ne[1] the rows, ne[2] the experts of a merged expert tensor. Tensor order is llama.cpp's loader
// order (non-block tensors first, then by block number, then by name), which the quantizer's layer counters
// depend on.
//
//   std::vector<llmsim::TensorDesc> ts;
//   std::string err;
//   if (!llmsim::enumerate_tensors(model, ts, err)) { ... }
//   llmsim::ParamCounts pc;
//   llmsim::count_params(model, pc, err);     // pc.total, pc.active
//
// [SECTION] Tensor description
// [SECTION] Enumeration and parameter counts
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "catalog/catalog.h"

namespace llmsim {

// [SECTION] Tensor description ---------------------------------------------------------------------------

enum class TensorKind {
    Weight,        // 2D/3D matrix llama-quantize may convert (name ends in ".weight")
    Norm,          // 1D norm / scale vector, kept F32
    Bias,          // bias vector (or per-expert bias matrix), kept F32
    Router,        // ffn_gate_inp: MoE router, kept F32 by the converter and never quantized
    Other1D,       // other small vectors kept F32: rope_freqs, attn_sinks, exp_probs_b, ...
};

struct TensorDesc {
    std::string name;              // GGUF name: "blk.3.attn_q.weight"
    int layer = -1;                // block index, -1 for token_embd / output / output_norm / rope_freqs
    int64_t ne[4] = {1, 1, 1, 1};  // ggml shape; ne[0] = row length
    TensorKind kind = TensorKind::Weight;
    bool routed_expert = false;    // merged routed-expert tensor (ffn_*_exps): ne[2] = n_experts
    bool shared_expert = false;    // ffn_*_shexp
    int n_dims = 2;                // ggml_n_dims: 1 for vectors, 2 for matrices, 3 for merged experts

    // number of elements (parameters) of this tensor
    uint64_t n_elements() const { return (uint64_t)ne[0] * (uint64_t)ne[1] * (uint64_t)ne[2] * (uint64_t)ne[3]; }
    // rows of this tensor (all dimensions but the first)
    uint64_t n_rows() const { return (uint64_t)ne[1] * (uint64_t)ne[2] * (uint64_t)ne[3]; }
};

struct ParamCounts {
    uint64_t total = 0;            // every tensor in the GGUF file (tied embeddings counted once)
    uint64_t active = 0;           // per token: total minus the routed experts not selected (MoE); == total if dense
    uint64_t embedding = 0;        // token_embd
    uint64_t output = 0;           // output.weight (0 when tied)
    uint64_t routed_expert = 0;    // all routed-expert tensors
    uint64_t per_layer_max = 0;    // the largest block (for offload granularity)
};

// [SECTION] Enumeration and parameter counts -------------------------------------------------------------

// true when layer il has a MoE FFN (after first_dense_layers, every layer_step-th layer)
bool layer_is_moe(const Model& m, int il);
// true when layer il has an attention KV cache (false for recurrent layers of hybrid models)
bool layer_has_attention(const Model& m, int il);
// true when layer il uses sliding-window attention
bool layer_is_swa(const Model& m, int il);

// list the tensors llama.cpp's GGUF for this model holds, in loader order; false + err if the model is incomplete
bool enumerate_tensors(const Model& m, std::vector<TensorDesc>& out, std::string& err);
// count total and active parameters from the tensor list; false + err if the model is incomplete
bool count_params(const Model& m, ParamCounts& out, std::string& err);
// the same from a tensor list enumerate_tensors() returned for `m` (no second enumeration)
void count_params(const Model& m, const std::vector<TensorDesc>& tensors, ParamCounts& out);

}  // namespace llmsim
