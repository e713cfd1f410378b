// LoRA adapters at inference, as llama.cpp loads them (--lora FILE, --lora-scaled FILE S).
//
// Tensors (PEFT tuners/lora/layer.py, LoraLayer.update_layer): a targeted nn.Linear(in, out) gets
//   lora_A = nn.Linear(in, r, bias=False) -> weight r x in, lora_B = nn.Linear(r, out, bias=False) -> weight out x r.
// llama.cpp's convert_lora_to_gguf.py writes each pair as "<base tensor>.lora_a" / ".lora_b" in --outtype
// (f32, f16, bf16, q8_0; default f16), stacking MoE experts' pairs into 3-D tensors (n_expert x ...); only linears
// of the repeating blocks are counted here (PEFT's usual target_modules; embed_tokens / lm_head adapters are rare).
// llama.cpp (src/llama-adapter.cpp, llama_adapter_lora_init_impl) puts each adapter tensor in the buffer type of
// the base tensor it modifies, and build_lora_mm (src/llama-graph.cpp) computes y = W x + scale * B (A x): every
// decoded token reads every adapter tensor of a dense model (MoE: the active experts' ones) and does
// 2 r (in + out) extra FLOPs per targeted linear. The graph gains 4 nodes per adapted base tensor and adapter
// (mul_mat A, mul_mat B, scale, add; build_lora_mm / build_lora_mm_id), each a kernel dispatch of its own; they are
// priced at the speed model's per-layer launch cost (SpeedParams::fixed_ms_per_layer) over the kernel nodes of one
// decoder layer of llama.cpp's llama graph (kDecodeNodesPerLayer, lora.cpp).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "catalog/catalog.h"
#include "quant/quant_types.h"
#include "sim/simulate.h"

namespace llmsim {

enum class LoraTarget { Q, K, V, O, Gate, Up, Down, Count };
constexpr int kLoraTargetCount = (int)LoraTarget::Count;
const char* to_string(LoraTarget t);        // PEFT module names: "q_proj", ..., "down_proj"

struct LoraSpec {
    int rank = 16;                          // r
    bool targets[kLoraTargetCount] = {true, true, true, true, false, false, false};   // PEFT attention default
    TensorType type = TensorType::F16;      // convert_lora_to_gguf --outtype
};

struct LoraSize {
    uint64_t params = 0;                    // all A and B elements
    uint64_t bytes = 0;                     // in the adapter's type (the GGUF's tensor data)
    uint64_t bytes_per_token = 0;           // read per decoded token (MoE: active experts only)
    uint64_t flops_per_token = 0;           // 2 r (in + out) per targeted linear (MoE: active experts)
    uint64_t per_target_bytes[kLoraTargetCount] = {};
    uint64_t adapted_tensors = 0;           // base tensors with an A/B pair (MoE: one per stacked expert tensor)
    uint64_t extra_graph_nodes = 0;         // 4 per adapted tensor: the kernel nodes one adapter adds per step
};

// "q,k,v,o" / "all" / "attn" / "mlp" or PEFT names ("q_proj,v_proj") into spec.targets; false + err on an unknown name
bool parse_lora_targets(const std::string& list, LoraSpec& spec, std::string& err);
// the adapter's tensors for model m; false + err for MLA / hybrid models (not sized) or a bad rank/type
bool lora_size(const Model& m, const LoraSpec& spec, LoraSize& out, std::string& err);

struct LoraCost {
    uint64_t adapters_bytes = 0;            // n adapters x LoraSize::bytes (all loaded, as llama.cpp keeps them)
    double base_tokens_per_s = 0;           // decode without adapters
    double lora_tokens_per_s = 0;           // decode with one adapter applied (the active one)
    double dispatch_s_per_token = 0;        // the adapter's extra graph nodes x the per-node launch cost
    double slowdown = 0;                    // 1 - lora / base
};
// memory of n_adapters and the decode cost of applying one, on req.memory.hardware at depth tokens
bool lora_cost(const Catalog& cat, const Model& m, const SimRequest& req, const LoraSpec& spec, int n_adapters,
               int64_t depth, LoraCost& out, std::string& err);
// " --lora <name>" once per adapter, appended to the llama-server command
std::string lora_server_flags(const std::vector<std::string>& files);

}  // namespace llmsim
