// llama-bench's placement and runtime knobs on a predict line (predict.h): -ngl, --n-cpu-moe, -ot, -ctk/-ctv, -t, -sm,
// -ts, under the names llama-bench prints in its table and JSON (ngl, n_cpu_moe, type_k / type_v, threads, split_mode,
// tensor_split; override_tensors for -ot, kv_type for both cache types at once). A line that sets none of them predicts
// exactly as before: its weights are all on the GPU(s) and nothing here runs.
//
//   llmsim::BenchKnobs k;
//   std::string err;
//   if (!llmsim::parse_bench_knobs(line_json, model, /*gpus*/ 1, /*flash_attn*/ true, k, err)) return err;
//   if (k.places_weights()) { MemoryRequest mr; k.apply(model, mr); ... }   // the memory model decides the host part
//   std::string flags = llmsim::llama_bench_flags(k);                       // " -ngl 20 -ctk q8_0 -ctv q8_0"
#pragma once
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "catalog/catalog.h"
#include "memory/memory.h"

namespace llmsim {

struct BenchKnobs {
    std::optional<int> ngl;                  // -ngl as given; negative = every layer (llama-bench prints -1)
    int n_cpu_moe = 0;                       // --n-cpu-moe as given
    std::string override_tensors;            // -ot as given ("" = none)
    std::vector<int> ot_layers;              // the MoE layers whose experts -ot keeps in host RAM
    std::optional<TensorType> type_k, type_v;    // -ctk / -ctv
    std::optional<int> threads;              // -t: the CPU backend's cores at work (SpeedScenario::cpu_threads)
    std::optional<SplitMode> split_mode;     // -sm
    std::vector<double> tensor_split;        // -ts, one proportion per GPU
    // true when a knob asks for weights in host RAM (-ngl below the layer count, --n-cpu-moe, -ot): the row belongs
    // to the offload group of the accuracy report
    bool offload = false;
    // true when the memory model must place the weights (any of -ngl, --n-cpu-moe, -ot, -ts given)
    bool places_weights() const { return ngl.has_value() || n_cpu_moe > 0 || !ot_layers.empty() || !tensor_split.empty(); }
    // the placement request: -ngl (llama-bench's 99 when absent, never the --fit search), the union of --n-cpu-moe's
    // leading layers and -ot's layers as a count of leading layers (MoE layers are alike in size), cache types, split
    void apply(const Model& m, MemoryRequest& mr) const;
};

// the KV cache types llama.cpp accepts for -ctk / -ctv, lower case ("f16", "q8_0", ...): kv_type's values
std::vector<std::string> kv_cache_types();
// read the knobs of one line; false + err naming the field and what is valid. `gpus` is the line's GPU count,
// `flash_attn` its -fa (llama.cpp refuses a quantized V cache without flash attention)
bool parse_bench_knobs(const nlohmann::json& line, const Model& m, int gpus, bool flash_attn, BenchKnobs& out,
                       std::string& err);
// the llama-bench flags the knobs stand for (after "-ngl"; "" when only -ngl is set): " -ncmoe 20 -ot \"...\" -ctk q8_0
// -ctv q8_0 -t 8 -sm row -ts 3/1"
std::string llama_bench_flags(const BenchKnobs& k);

}  // namespace llmsim
