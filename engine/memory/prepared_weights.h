// llmsim prepared weights: everything the memory model and evaluate() need from a model's tensors under one file
// type, computed once (tensor enumeration + llama-quantize rules, ~0.1-1 ms) and then reused for every device,
// context, -ngl and KV setting (each estimate is then O(devices) arithmetic on these numbers).
//
// Holds aggregated numbers, not tensors: per repeating layer the bytes of its non-expert and routed-expert tensors
// (as prefix sums, so -ngl placement and --n-cpu-moe are differences), token_embd, output and the other non-layer
// tensors, parameter counts, bits per weight, the bytes a decoded token reads, and the model's per-layer KV
// structure (full / SWA / recurrent layer counts, K/V row sizes). Immutable once built; shared via shared_ptr.
//
// prepare_weights() keeps up to kPreparedWeightsCacheSize results in a process-wide LRU cache keyed by a hash
// over every Model field the weights and memory arithmetic read, the file type string, the quant options and the
// file-size override; a hit is confirmed by comparing those fields byte for byte (a hash collision cannot serve
// another model's weights), so an imported model that reuses an id with other fields is prepared again.
//
//   std::string err;
//   std::shared_ptr<const llmsim::PreparedWeights> w = llmsim::prepare_weights(cat, model, "Q4_K_M", err);
//   if (!w) { fprintf(stderr, "%s\n", err.c_str()); return; }
//   llmsim::MemoryRequest req; req.hardware = cat.find_hardware("rtx-4090");
//   for (int64_t ctx : {4096, 32768}) { req.n_ctx = ctx; llmsim::estimate_memory(*w, model, req, mb, err); }
//
// [SECTION] Prepared weights
// [SECTION] Functions
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "catalog/catalog.h"
#include "model/model_tensors.h"
#include "quant/quant_rules.h"

namespace llmsim {

// [SECTION] Prepared weights -----------------------------------------------------------------------------

// prepared results kept by prepare_weights(); 78 catalog models x 8 common quants (the bench sweep, the
// leaderboard) must fit, or a cyclic sweep evicts every entry before it is reused
constexpr size_t kPreparedWeightsCacheSize = 1024;

struct PreparedWeights {
    // identity
    uint64_t model_hash = 0;            // model_hash() of the model this was built from
    std::string file_type;              // as requested
    uint64_t file_bytes_override = 0;   // 0 = bytes from the rules
    bool imatrix = false;               // QuantOptions::imatrix
    uint64_t exact_tensor_data_bytes = 0;  // QuantOptions::exact_tensor_data_bytes
    double flat_bpw = 0;                // non-GGUF formats: the catalog's flat_bpw this was built with

    // weights (bytes after the file-size override, each tensor rounded as llama.cpp-sized bytes x scale)
    bool gguf = true;                   // false: catalog flat_bpw format (bytes spread over tensors by parameters)
    uint64_t tensor_data_bytes = 0;     // compute_weight_size(): sum of padded tensor bytes, before any override
    uint64_t file_bytes_estimate = 0;   // compute_weight_size(): tensor data + estimated GGUF header
    double bits_per_weight = 0;         // compute_weight_size()
    uint64_t weights_bytes = 0;         // all tensors (override applied); a tied output is counted once
    uint64_t token_embd_bytes = 0;      // token_embd.weight (stays in host memory)
    uint64_t output_bytes = 0;          // output.weight (0 when tied: the output reads token_embd)
    uint64_t output_other_bytes = 0;    // other non-layer tensors: output_norm, rope factors (with the output)
    bool tied_output = false;           // Model::tie_embeddings: a GPU output holds a copy of token_embd
    int n_layers = 0;
    // prefix sums over repeating layers, n_layers + 1 entries: [i] = over layers 0..i-1
    std::vector<uint64_t> layer_bytes_prefix;       // all tensors of the layer (non-expert + routed experts)
    std::vector<uint64_t> expert_bytes_prefix;      // routed-expert tensors (ffn_*_exps)
    std::vector<uint64_t> layer_max_tensor_prefix;  // largest single tensor in layers 0..i-1
    std::vector<uint64_t> expert_max_tensor_prefix; // largest routed-expert tensor in layers 0..i-1

    // what evaluate() reports
    ParamCounts params;                 // count_params()
    uint64_t gguf_token_embd_bytes = 0;     // token_embd as the rules size it, before any override (0: flat format)
    uint64_t gguf_routed_expert_bytes = 0;  // all routed-expert tensors, the same way
    uint64_t active_weight_bytes = 0;   // bytes a decoded token reads: all but token_embd, routed experts x
                                        // n_active / n_experts, a tied output reads the embedding once; override applied

    // model structure the KV cache and compute buffers need (a constant of the model)
    std::vector<int> full_layers_prefix;   // n_layers + 1: full-attention layers among 0..i-1
    std::vector<int> swa_layers_prefix;    // sliding-window layers
    std::vector<int> recurrent_layers_prefix;  // recurrent (no KV) layers of hybrid models
    uint64_t kv_k_row = 0;              // K elements per cell per layer (MLA: kv_lora_rank + qk_rope_head_dim)
    uint64_t kv_v_row = 0;              // V elements per cell per layer (MLA: 0, V is a view of K)
    uint64_t state_bytes_per_seq = 0;   // recurrent state of one recurrent layer for one sequence
    bool has_full_attention = false;    // some layer has a full-attention cache
    bool has_swa = false;               // some layer has a sliding-window cache
    uint64_t ffn_bytes_per_token_max = 0;  // max over layers of the FFN-phase term (x 4 x ubatch = bytes)
    WeightClass weight_class = WeightClass::KQuant;  // the speed model's kernel class of file_type (weight_class_of)

    // bytes of all tensors of layers [a, b)
    uint64_t layer_bytes(int a, int b) const { return layer_bytes_prefix[(size_t)b] - layer_bytes_prefix[(size_t)a]; }
    // bytes of the routed-expert tensors of layers [a, b)
    uint64_t expert_bytes(int a, int b) const { return expert_bytes_prefix[(size_t)b] - expert_bytes_prefix[(size_t)a]; }
};

// [SECTION] Functions ------------------------------------------------------------------------------------

// hash over every Model field the weights, KV cache and memory arithmetic read (not names, prices, sources)
uint64_t model_hash(const Model& m);

// the prepared weights of `model` as `file_type` from the cache, built on a miss; nullptr + err on bad input
// (incomplete model, unknown quant — compute_weight_size's messages). `cat` resolves non-GGUF formats.
std::shared_ptr<const PreparedWeights> prepare_weights(const Catalog& cat, const Model& model, const std::string& file_type,
                                                       std::string& err, uint64_t file_bytes_override = 0,
                                                       const QuantOptions& opt = {});
// the same without the cache (always builds)
std::shared_ptr<const PreparedWeights> build_prepared_weights(const Catalog& cat, const Model& model,
                                                              const std::string& file_type, std::string& err,
                                                              uint64_t file_bytes_override = 0,
                                                              const QuantOptions& opt = {});

struct PreparedWeightsCacheStats {
    uint64_t hits = 0, misses = 0;
    size_t entries = 0;
};
// counters of the prepare_weights() cache since the last clear
PreparedWeightsCacheStats prepared_weights_cache_stats();
// drop every cached entry (entries still held by callers stay valid)
void clear_prepared_weights_cache();

}  // namespace llmsim
