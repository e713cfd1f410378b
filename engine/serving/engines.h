// llmsim inference engines: one row per engine (vLLM, SGLang, llama.cpp's llama-server, TensorRT-LLM, LMDeploy, MLX),
// the one table every part reads (ggml's type_traits[] for engines). A row holds what differs per engine as data
// (ids and names, KV block size, fitted speed, batch defaults, expert-parallel flag, precisions) and as two hooks
// the serving layer implements (the KV-pool rule of its memory plan, its command line). The scenario side
// (runtime/runtime.h) picks its plans by the row's `scenario` field; serving (serving.h), the UI and the CLI take
// their engine lists, names and switches from here.
//
//   const llmsim::Engine* e = llmsim::find_engine("sglang");     // nullptr for an unknown id
//   printf("%s, KV block %d tokens\n", e->display_name, e->default_block_size);
//   for (const llmsim::Engine& r : llmsim::engines()) puts(r.name);   // EngineId order
//   std::string ids = llmsim::engine_names(", ");                // "vllm, sglang, llamacpp, trtllm, lmdeploy, mlx"
//
// Adding an engine: an enumerator in [SECTION] Ids, a row in kEngines (engines.cpp) and its two hooks (its KV-pool
// rule in serve_memory.cpp, its command line in serve.cpp); the static_asserts in engines.cpp fail until the row is
// there and in order, test_serving checks every hook is set.
//
// [SECTION] Ids
// [SECTION] Row
// [SECTION] Lookup
#pragma once
#include <cstddef>
#include <string>

namespace llmsim {

struct Catalog;            // catalog.h
struct ServeRequest;       // serving.h
struct ServeMemoryPlan;    // serving.h
namespace serving { struct ReplicaShape; struct PoolInputs; }   // serving_internal.h

// [SECTION] Ids ------------------------------------------------------------------------------------------

// values index kEngines; Count = the number of engines. The order is the UI's and the CLI's list order
enum class EngineId : int { Vllm = 0, Sglang, LlamaCpp, TrtLlm, Lmdeploy, Mlx, Count };
constexpr int kEngineCount = (int)EngineId::Count;

// how a llama.cpp-page scenario (SimRequest, runtime.h) runs on the engine: llama.cpp's own memory and speed models
// (per-layer offload, GGUF buffers), the serving model with the scenario mapped to a ServeRequest, or mlx-lm's own
// models (memory/mlx_memory.h, runtime/mlx.cpp: one Apple Silicon GPU)
enum class ScenarioModel : int { LlamaCpp = 0, Serving, Mlx, Count };

// what the engine's precision names: a checkpoint format (bf16, fp8, int4-awq, ...), a GGUF file type (Q4_K_M ...) or an
// MLX quantization (mlx-4bit-g64 ...: quant/mlx_quant.h). serve() (the batched serving model) takes the first two.
enum class WeightFormat : int { Checkpoint = 0, GgufFileType, MlxQuant };

// which request field sets the engine's memory share: vLLM's --gpu-memory-utilization, SGLang's
// --mem-fraction-static (TensorRT-LLM, LMDeploy and llama-server read neither)
enum class MemoryShareKnob : int { GpuMemoryUtilization = 0, MemFractionStatic };

// [SECTION] Row ------------------------------------------------------------------------------------------

// the few speed parameters of one engine (fitted on serving.jsonl by `llmsim-cli accuracy --serving --fit`)
struct EngineSpeed {
    double bw_eff = 0.80;          // share of spec memory bandwidth a decode step's reads reach
    double compute_eff = 0.55;     // share of the precision's dense tensor rate large matmuls reach
    double step_overhead_ms = 4.0; // per step: scheduler, sampling, launches (CUDA graphs hide most per-layer cost)
    // bands: measured / predicted - 1 at the held-out errors' 7.5th / 92.5th percentiles (nominal 85 %), per metric
    double band_low = -0.3, band_high = 0.3;             // output tok/s
    double tpot_band_low = -0.3, tpot_band_high = 0.3;   // TPOT (median, or mean where only a mean is published)
    double ttft_band_low = -0.5, ttft_band_high = 0.5;   // TTFT (the same statistic)
};

// which GPUs get the larger batch defaults
enum class LargeGpuRule : int {
    None = 0,             // the same defaults everywhere
    Memory70GiB,          // >= 70 GiB (SGLang)
    Memory70GiBNotA100,   // >= 70 GiB except A100s (vLLM V1 arg_utils.py _set_default_args_v1)
};
// default max_num_seqs / max_num_batched_tokens when the request leaves them 0
struct BatchDefaults {
    int max_num_seqs, max_batched_tokens;               // small GPUs (every GPU when large == None)
    int large_max_num_seqs, large_max_batched_tokens;   // GPUs that `large` picks
    LargeGpuRule large;
};

// the KV-pool rule of the engine's memory plan: fills `out` (pool, blocks, rules) from the shape and the budget
// inputs plan_memory worked out; false + err on bad input (serve_memory.cpp)
using KvPoolPlan = bool(const Catalog& cat, const ServeRequest& req, const serving::ReplicaShape& s,
                        const serving::PoolInputs& in, ServeMemoryPlan& out, std::string& err);
// the engine's command line for the request at `seqs` sequences and `tokens` batched tokens (serve.cpp)
using ServeCommand = std::string(const ServeRequest& req, const serving::ReplicaShape& s, const ServeMemoryPlan& m,
                                 int seqs, int tokens);

struct Engine {
    EngineId id;                   // its index in kEngines
    const char* name;              // "vllm": stable, for URLs, JSON and the CLI's --engine
    const char* display_name;      // "vLLM": what the UI and the reports show ("llama-server" for llama.cpp)
    ScenarioModel scenario;        // the plans a SimRequest on this engine runs (runtime.h)
    WeightFormat weights;          // what ServeRequest::precision names
    int default_block_size;        // KV page size in tokens
    BatchDefaults batch;
    MemoryShareKnob memory_share;
    const char* ep_flag;           // its expert-parallel flag; nullptr: expert parallel is not modelled
    bool ep_flag_takes_size;       // the flag is followed by the EP size ("--ep-size 8")
    bool multi_lora;               // max_loras slots are modelled
    bool tp_divides_heads;         // refuses to start unless tp divides the attention heads
    bool fp8_checkpoint_kv;        // an FP8 / NVFP4 checkpoint's "auto" KV cache is FP8 too
    bool reserve_output;           // admission reserves a request's whole output (no preemption)
    const char* serve_note;        // a note every serve() result on it carries; nullptr: none
    bool apple_only;               // runs on Apple Silicon (Metal) only: offered for Apple devices alone
    EngineSpeed speed;             // shipped (fitted) step-time parameters
    KvPoolPlan* kv_pool;
    ServeCommand* command_line;
};

// [SECTION] Lookup ---------------------------------------------------------------------------------------

// the row of an engine; `id` must be a valid enumerator (not Count)
const Engine& engine_row(EngineId id);
// the row with this id ("vllm"; exact, case-sensitive); nullptr if there is none
const Engine* find_engine(const std::string& name);
// every row's id joined by `sep` in EngineId order ("vllm|sglang|..."): usage and error texts
std::string engine_names(const char* sep);
// the expert-parallel flag of the engine as its command line writes it ("--enable-expert-parallel", "--ep-size 8");
// "" where expert parallel is not modelled
std::string expert_parallel_flag(const Engine& e, int ep);

// every row, in EngineId order: for (const Engine& e : engines())
struct EngineRange {
    const Engine* first;
    const Engine* last;
    const Engine* begin() const { return first; }
    const Engine* end() const { return last; }
    size_t size() const { return (size_t)(last - first); }
};
EngineRange engines();

}  // namespace llmsim
