// The inference-engine table (engines.h) and its lookups. Each row's hooks are defined in the serving files that
// hold the engine's rules: the KV-pool rule in serve_memory.cpp, the command line in serve.cpp.
#include "serving/engines.h"

#include "serving/serving_internal.h"

namespace llmsim {

namespace {

using serving::PoolInputs;

// block sizes: vLLM CacheConfig.block_size 16 (config/cache.py); SGLang's token-granular pool (page_size 1,
// server_args.py); TensorRT-LLM tokens_per_block 32 (KvCacheConfig); LMDeploy block 64 (cache_block_seq_len);
// llama.cpp cells.
// batch defaults: vLLM V1 (engine/arg_utils.py EngineArgs._set_default_args_v1): max_num_seqs 1024 and 8192 batched
// tokens for `vllm serve` on GPUs with >= 70 GiB except A100s, else 256 and 2048. SGLang: --max-running-requests
// from the pool, chunked prefill 8192 on large GPUs (server_args.py). TensorRT-LLM trtllm-bench: max_batch_size
// 2048, max_num_tokens 8192 by default for its throughput runs. LMDeploy TurbomindEngineConfig max_batch_size 256,
// chunked 8192. llama-server: -np 4 slots (the scenario's default), -b 2048.
// expert parallel: vLLM --enable-expert-parallel (EP size = tp), SGLang --ep-size, TensorRT-LLM --ep_size.
// TP rule: vLLM refuses to start unless tp divides the attention heads (config ModelConfig.verify_with_parallel_config:
// "Total number of attention heads (...) must be divisible by tensor parallel size"); SGLang asserts the same in
// its attention layers.
// FP8 KV: TensorRT-LLM's FP8 checkpoints quantize the KV cache to FP8 too (serving-README: "FP8 quantization sets
// the KV cache to FP8").
// admission: TensorRT-LLM's default capacity scheduler is GUARANTEED_NO_EVICT (cpp/include/tensorrt_llm/executor/
// executor.h SchedulerConfig: capacitySchedulerPolicy = kGUARANTEED_NO_EVICT): a request is admitted only when the
// blocks for its whole prompt + max output fit, so it never preempts (without this, 20k-token prompts thrashed in
// recompute preemption and TensorRT-LLM's 20000/2000 rows came out 0.1-0.4x); the others hold back the blocks
// running prompts still need (vLLM's watermark).
// speeds: fitted by `llmsim-cli accuracy --serving --fit` on assets/calibration/serving.jsonl on all 1107 rows
// (llama.cpp has no serving rows: its values come from the llama.cpp speed model's HBM/GDDR shares and per-layer
// launch cost, speed_params.json, and are not validated under load); bands (measured / predicted - 1): output
// tok/s, TPOT, TTFT, each the engine's held-out errors' 7.5th / 92.5th percentiles (serve_fit.cpp kBandQuantile);
// an engine with fewer than 20 rows of a metric takes every engine's
// MLX: mlx_lm.generate runs one sequence (batch 1); its KV cache grows by 256 cells (mlx_lm/models/cache.py
// KVCache.step). Not in serve(): the batched serving model has no mlx_lm.server measurements, so its EngineSpeed is
// the unfitted default and unused; the scenario's own speed model and its fitted numbers are runtime/mlx.cpp's.
constexpr EngineSpeed kMlxSpeed = {};

constexpr Engine kEngines[] = {
    {EngineId::Vllm, "vllm", "vLLM", ScenarioModel::Serving, WeightFormat::Checkpoint, 16,
     {256, 2048, 1024, 8192, LargeGpuRule::Memory70GiBNotA100}, MemoryShareKnob::GpuMemoryUtilization,
     "--enable-expert-parallel", false, /*multi_lora*/ true, /*tp_divides_heads*/ true, /*fp8_checkpoint_kv*/ false,
     /*reserve_output*/ false, nullptr, /*apple_only*/ false, {0.840, 0.525, 3.81, -0.78, 0.54, -0.22, 5.23, -0.83, 9.71},
     serving::vllm::kv_pool, serving::vllm::command_line},
    {EngineId::Sglang, "sglang", "SGLang", ScenarioModel::Serving, WeightFormat::Checkpoint, 1,
     {256, 2048, 1024, 8192, LargeGpuRule::Memory70GiB}, MemoryShareKnob::MemFractionStatic,
     "--ep-size", true, false, true, false, false, nullptr, false, {0.742, 0.464, 4.31, -0.23, 0.21, -0.22, 5.40, 0.00, 2.56},
     serving::sglang::kv_pool, serving::sglang::command_line},
    {EngineId::LlamaCpp, "llamacpp", "llama-server", ScenarioModel::LlamaCpp, WeightFormat::GgufFileType, 1,
     {4, 2048, 4, 2048, LargeGpuRule::None}, MemoryShareKnob::GpuMemoryUtilization,
     nullptr, false, false, false, false, false,
     "llama-server's step time uses the llama.cpp speed model's shares; no serving measurements validate it", false,
     {0.56, 0.35, 6.6, -0.36, 0.48, -0.22, 5.40, -0.70, 5.39}, serving::llamacpp::kv_pool, serving::llamacpp::command_line},
    {EngineId::TrtLlm, "trtllm", "TensorRT-LLM", ScenarioModel::Serving, WeightFormat::Checkpoint, 32,
     {2048, 8192, 2048, 8192, LargeGpuRule::None}, MemoryShareKnob::GpuMemoryUtilization,
     "--ep_size", true, false, false, true, true, nullptr, false, {0.766, 0.479, 4.18, -0.36, 0.52, -0.22, 5.40, -0.24, 0.50},
     serving::trtllm::kv_pool, serving::trtllm::command_line},
    {EngineId::Lmdeploy, "lmdeploy", "LMDeploy", ScenarioModel::Serving, WeightFormat::Checkpoint, 64,
     {256, 8192, 256, 8192, LargeGpuRule::None}, MemoryShareKnob::GpuMemoryUtilization,
     nullptr, false, false, false, false, false, nullptr, false, {0.842, 0.526, 3.80, -0.20, 0.28, -0.22, 5.40, -0.45, 1.22},
     serving::lmdeploy::kv_pool, serving::lmdeploy::command_line},
    {EngineId::Mlx, "mlx", "MLX (mlx-lm)", ScenarioModel::Mlx, WeightFormat::MlxQuant, 256,
     {1, 2048, 1, 2048, LargeGpuRule::None}, MemoryShareKnob::GpuMemoryUtilization,
     nullptr, false, false, false, false, false, nullptr, /*apple_only*/ true, kMlxSpeed,
     serving::mlx::kv_pool, serving::mlx::command_line},
};

static_assert(sizeof(kEngines) / sizeof(kEngines[0]) == (size_t)kEngineCount, "one row in kEngines per EngineId enumerator");
// row i is EngineId i, with an id and a display name (the hooks are checked at run time by test_serving: a function
// address compared with null is not a constant expression under GCC's -fsanitize=undefined)
constexpr bool engine_rows_valid() {
    for (int i = 0; i < kEngineCount; ++i)
        if ((int)kEngines[i].id != i || !kEngines[i].name || !kEngines[i].display_name || kEngines[i].default_block_size < 1)
            return false;
    return true;
}
static_assert(engine_rows_valid(), "every kEngines row is in EngineId order, named, with a block size");

}  // namespace

const Engine& engine_row(EngineId id) { return kEngines[(int)id]; }

const Engine* find_engine(const std::string& name) {
    for (const Engine& e : kEngines)
        if (name == e.name) return &e;
    return nullptr;
}

std::string engine_names(const char* sep) {
    std::string s;
    for (const Engine& e : kEngines) s += std::string(s.empty() ? "" : sep) + e.name;
    return s;
}

std::string expert_parallel_flag(const Engine& e, int ep) {
    if (!e.ep_flag) return "";
    return e.ep_flag_takes_size ? std::string(e.ep_flag) + " " + std::to_string(ep) : std::string(e.ep_flag);
}

EngineRange engines() { return {kEngines, kEngines + kEngineCount}; }

}  // namespace llmsim
