// The tools `llmsim-cli mcp` serves (mcp_server.h): one row per tool, with the JSON Schema of its arguments and the
// engine JSON entry point that answers it. The argument keys are the request keys of those entry points (the JS API's:
// docs/api.md), so a schema here documents what the engine reads; enums come from the catalog and the engine's tables.
#include "mcp_server.h"

#include "api/api.h"
#include "api/api_recommend.h"
#include "api/bench_knobs.h"
#include "api/best_models.h"
#include "api/predict.h"
#include "core/input_limits.h"
#include "serving/serving.h"
#include "speed/speed_inputs.h"

namespace llmsim::mcp {

namespace {
using json = nlohmann::json;

// [SECTION] schema pieces

json str(const char* description) { return {{"type", "string"}, {"description", description}}; }
json integer(const char* description, int64_t lo, int64_t hi) {
    return {{"type", "integer"}, {"description", description}, {"minimum", lo}, {"maximum", hi}};
}
json number(const char* description, double lo, double hi) {
    return {{"type", "number"}, {"description", description}, {"minimum", lo}, {"maximum", hi}};
}
json boolean(const char* description) { return {{"type", "boolean"}, {"description", description}}; }
json one_of(const char* description, const std::vector<std::string>& values) {
    return {{"type", "string"}, {"description", description}, {"enum", values}};
}
json object(json properties, const std::vector<std::string>& required) {
    json o{{"type", "object"}, {"properties", std::move(properties)}};
    if (!required.empty()) o["required"] = required;
    return o;
}
std::vector<std::string> quant_names(const Catalog& cat) {
    std::vector<std::string> names;
    for (const FileType& f : cat.file_types) names.push_back(f.name);
    return names;
}
json model_field() {
    return str("the model: a catalog id (\"Qwen/Qwen2.5-7B-Instruct\"), an Ollama tag (\"qwen2.5:7b\", with the tag's "
               "default quant), hf.co/org/repo:QUANT or a GGUF repo name (\"lmstudio-community/Qwen2.5-7B-Instruct-GGUF\")");
}
json hardware_field() {
    return str("a catalog device or rig id: \"rtx-4090\", \"m4-max-128\", \"2x-rtx-3090\", \"rtx-5080+rtx-5060-ti-16gb\"");
}
json quant_field(const Catalog& cat) {
    return one_of("llama.cpp file type of the weights (default: the one the model name implies, else Q4_K_M)", quant_names(cat));
}
json ctx_field() { return integer("context length, tokens", 1, kMaxContextTokens); }

// [SECTION] one schema per tool

json memory_schema(const Catalog& cat) {
    return object({{"model", model_field()},
                   {"config", {{"type", "object"}, {"description", "a Hugging Face config.json for a model the catalog lacks"}}},
                   {"quant", quant_field(cat)},
                   {"ctx", ctx_field()},
                   {"hardware", hardware_field()},
                   {"kv_type", one_of("KV cache type (-ctk / -ctv)", kv_cache_types())},
                   {"ngl", integer("layers on the GPU (-ngl; -1 = all)", -1, kMaxGpuLayers)},
                   {"parallel", integer("parallel sequences (-np)", 1, kMaxParallelSequences)},
                   {"ubatch", integer("physical batch, tokens (-ub)", 1, kMaxUbatch)},
                   {"flash_attn", boolean("flash attention (-fa)")},
                   {"n_cpu_moe", integer("MoE layers whose experts stay in host RAM (--n-cpu-moe)", 0, kMaxGpuLayers)},
                   {"tensor_split", {{"type", "array"}, {"items", {{"type", "number"}, {"minimum", 0}}},
                                     {"description", "proportions per GPU of a rig (-ts), e.g. [3, 1]"}}},
                   {"split_mode", one_of("how a rig splits the model (-sm)", {"layer", "row", "none"})},
                   {"host_ram_gib", number("host RAM, GiB", 1, 65536)}},
                  {"model"});
}

json predict_schema(const Catalog& cat) {
    json test = object({{"kind", one_of("what llama-bench measures: pp (prefill) or tg (decode)", {"prefill", "decode"})},
                        {"tokens", integer("tokens processed (llama-bench -p / -n)", 1, 100000000)},
                        {"depth", integer("tokens already in the context (llama-bench -d)", 0, 100000000)}},
                       {"kind", "tokens"});
    return object({{"id", str("echoed in the answer")},
                   {"model", model_field()},
                   {"quant", quant_field(cat)},
                   {"hardware", hardware_field()},
                   {"gpus", integer("GPUs of the device used", 1, kMaxGpus)},
                   {"backend", one_of("llama.cpp backend (default: the device's)", {"cuda", "rocm", "metal", "vulkan", "cpu"})},
                   {"flash_attn", boolean("flash attention (-fa)")},
                   {"ubatch", integer("physical batch, tokens (-ub)", 1, 1 << 20)},
                   {"ngl", integer("layers on the GPU (-ngl; 99 or -1 = all)", -1, kMaxGpuLayers)},
                   {"n_cpu_moe", integer("MoE layers whose experts stay in host RAM (--n-cpu-moe)", 0, kMaxGpuLayers)},
                   {"kv_type", one_of("KV cache type (-ctk / -ctv)", kv_cache_types())},
                   {"test", test}},
                  {"model", "hardware", "test"});
}

json recommend_hardware_schema(const Catalog& cat) {
    return object({{"model", model_field()},
                   {"quant", quant_field(cat)},
                   {"ctx", ctx_field()},
                   {"min_decode_tps", number("decode speed floor at the full context (or decode_depth), tokens/s", 0, 1e7)},
                   {"decode_depth", integer("context depth the decode floor holds at (default: ctx)", 0, 100000000)},
                   {"max_ttft_s", number("time to first token ceiling for a prompt of prompt_tokens, seconds", 0, 1e7)},
                   {"prompt_tokens", integer("prompt length for max_ttft_s", 1, 100000000)},
                   {"max_price_usd", number("purchase price ceiling, USD", 0, 1e9)},
                   {"max_watts", number("power ceiling, W", 0, 1e7)},
                   {"max_rent_usd_per_hour", number("cloud rent ceiling, USD per hour (ranks by rent)", 0, 1e6)},
                   {"tokens_per_month", number("monthly load, tokens: each option becomes as many devices as it needs", 0, 1e15)},
                   {"input_share", number("share of the monthly tokens that are prompt", 0, 1)},
                   {"usable", boolean("apply the usable floor (>= 10 tok/s decode, first token under 10 s for 4k) where not given")},
                   {"all", boolean("also list the rejected options with the reason")}},
                  {"model"});
}

json recommend_models_schema(const Catalog&) {
    return object({{"hardware", hardware_field()},
                   {"ctx", ctx_field()},
                   {"min_decode_tps", number("decode speed floor at the full context, tokens/s", 0, 1e7)}},
                  {"hardware"});
}

json best_models_schema(const Catalog&) {
    return object({{"hardware", hardware_field()},
                   {"task", one_of("what the model is for: which published benchmark ranks (docs/quality-scores.md)",
                                   {"general", "chat", "reasoning", "coding"})},
                   {"ctx", ctx_field()},
                   {"min_decode_tps", number("decode speed floor at the full context, tokens/s", 0, 1e7)},
                   {"extreme", boolean("also consider the quants labelled Extreme Compression (IQ1, IQ2)")}},
                  {"hardware"});
}

json serve_schema(const Catalog&) {
    json workload = object({{"input_len", integer("prompt tokens per request", 1, 10000000)},
                            {"output_len", integer("generated tokens per request", 1, 1000000)},
                            {"concurrency", integer("requests in flight (closed loop)", 1, 100000)},
                            {"num_prompts", integer("requests in the run", 1, 10000000)},
                            {"dist", one_of("request length distribution", {"fixed", "uniform", "sharegpt"})},
                            // prefix sharing and multi-turn sessions (serving.h ServeWorkload; serve() refuses a
                            // shared_prefix_len that is not below input_len with a message naming it)
                            {"shared_prefix_len", integer("tokens every prompt shares (a system prompt), below input_len", 0, 10000000)},
                            {"turns", integer("turns per multi-turn session: turn k's prompt is the earlier turns plus new input", 1, 1000)},
                            {"think_time_s", number("seconds between an answer and the session's next turn", 0, 86400)},
                            {"session_prefix_len", integer("tokens only a session's first turn carries after the shared prefix (a document)", 0, 10000000)},
                            // prefix groups (ServeWorkload::prefix_groups / prompts_per_group; turns must stay 1 with a pool)
                            {"prefix_groups", integer("distinct shared prefixes of shared_prefix_len tokens (SGLang generated-shared-prefix groups)", 1, 100000)},
                            {"prompts_per_group", integer("0: every prompt new; Q: a fixed pool of groups x Q prompts sent in turn, so prompts recur", 0, 1000000)}},
                           {});
    json sla = object({{"ttft_p90_ms", number("p90 time to first token target, ms", 0, 1e9)},
                       {"tpot_p90_ms", number("p90 time per output token target, ms", 0, 1e9)}},
                      {});
    // prefill/decode disaggregation (serving.h ServeDisaggregation; vllm and sglang)
    json disaggregation = object({{"prefill_gpus", integer("GPUs of the prefill pool", 1, 1024)},
                                  {"decode_gpus", integer("GPUs of the decode pool", 1, 1024)},
                                  {"prefill_tp", integer("tensor parallel size of each prefill instance", 1, 64)},
                                  {"decode_tp", integer("tensor parallel size of each decode instance", 1, 64)},
                                  {"link", str("the KV path: nvlink, or a fabric (ib-ndr, roce-400, ethernet-100, ...)")}},
                                 {"prefill_gpus", "decode_gpus"});
    // the KV offload tiers behind the prefix cache (serving.h ServeRequest::kv_offload; vllm LMCache, sglang HiCache)
    json kv_offload = object({{"cpu_gib", number("host-RAM tier per replica, GiB", 0, 65536)},
                              {"nvme_gib", number("NVMe tier per replica, GiB", 0, 1048576)}},
                             {});
    kv_offload["additionalProperties"] = false;
    disaggregation["additionalProperties"] = false;
    json o = object({{"engine", one_of("serving engine", serve_engines())},
                     {"model", model_field()},
                     {"hardware", hardware_field()},
                     {"precision", str("weights: bf16, fp16, fp8, nvfp4, mxfp4, int4-awq, int4-gptq, int8; llamacpp: a GGUF "
                                       "file type (default: the model's release precision)")},
                     {"kv_dtype", str("KV cache dtype: auto, fp16, bf16, fp8 (llamacpp: f16, q8_0, q4_0)")},
                     {"gpus", integer("GPUs used", 1, kMaxGpus)},
                     {"tp", integer("tensor parallel size", 1, 64)},
                     {"pp", integer("pipeline parallel size", 1, 64)},
                     {"max_model_len", integer("--max-model-len, tokens (default: the model's native context)", 1, 10000000)},
                     {"max_num_seqs", integer("--max-num-seqs / --max-running-requests / -np", 1, 65536)},
                     {"interconnect", str("nvlink, pcie, or a fabric between nodes (ib-ndr, roce-400, ethernet-100, ...)")},
                     {"workload", workload},
                     {"sla", sla},
                     {"prefix_caching", {{"type", {"boolean", "null"}},
                                         {"description", "the engine's prefix cache on / off (null: the engine's default; "
                                                         "tensorrt-llm, lmdeploy and mlx have none modelled)"}}},
                     {"kv_offload", kv_offload},
                     {"disaggregation", disaggregation}},
                    {"model", "hardware"});
    o["description"] = "the JS API's serve() request (docs/api.md); further keys of that request are read too";
    return o;
}

json cost_schema(const Catalog& cat) {
    return object({{"model", model_field()},
                   {"hardware", hardware_field()},
                   {"quant", quant_field(cat)},
                   {"ctx", integer("context length, tokens", 1, 100000000)},
                   {"tokens_per_month", number("tokens a month, prompt + generated", 0, 1e15)},
                   {"input_share", number("share of the tokens that are prompt", 0, 1)},
                   {"hours_per_month", number("device hours the load needs (default: from the speed model)", 0, 744)},
                   {"kwh_price_usd", number("electricity, USD per kWh", 0, 10)},
                   {"months", number("amortisation period, months", 1, 240)},
                   {"price_usd", number("purchase price, USD (default: the catalog's)", 0, 1e9)},
                   {"rent_usd_per_hour", number("cloud rent, USD per hour (default: the catalog's)", 0, 1e5)},
                   {"api_in_usd_per_mtok", number("serverless API price, USD per 1M prompt tokens", 0, 1e4)},
                   {"api_out_usd_per_mtok", number("serverless API price, USD per 1M generated tokens", 0, 1e4)},
                   {"explain", boolean("add \"explanation\": how each figure is made")}},
                  {"model", "hardware"});
}

// [SECTION] handlers: the engine's JSON entry points

std::string predict(const Catalog& cat, const std::string& args) {
    return predict_line(cat, default_speed_params(), args);
}
}  // namespace

const std::vector<Tool>& tools() {
    static const std::vector<Tool> table = {
        {"memory", "Memory and fit",
         "Memory breakdown of a model at a quant and context (weights_bytes, kv_cache_bytes, compute_bytes, "
         "overhead_bytes, total_bytes); with hardware also usable_bytes, status (COMFORTABLE, TIGHT, TUNABLE_UMA, PARTIAL_OFFLOAD, OOM) and "
         "max_context. The keys of `llmsim-cli memory --json`.",
         memory_schema, api_memory},
        {"predict", "Predict llama.cpp speed",
         "Tokens per second llama.cpp (llama-bench) reaches for a prefill or decode test of a model on a device: "
         "{id, tokens_per_s, low, high, llama_bench}. The contract of `llmsim-cli predict`.",
         predict_schema, predict},
        {"recommend_hardware", "Devices for a model",
         "Catalog devices and multi-GPU combinations that fit a model at a context and meet speed / price / power / "
         "rent constraints, cheapest first, with decode and time-to-first-token figures. `llmsim-cli recommend --model`.",
         recommend_hardware_schema, api_recommend},
        {"recommend_models", "Models for a device",
         "The largest catalog models a device runs at a decode speed floor at the full context, each at its best "
         "quant that meets it. `llmsim-cli recommend --hardware`.",
         recommend_models_schema, api_recommend_models},
        {"best_models", "Best models for a device and task",
         "The catalog models a device runs at a context and decode floor, ranked by a published benchmark score for "
         "the task (Open LLM Leaderboard v2 for general/chat/reasoning, Aider polyglot for coding), each at its least "
         "lossy quant that fits, with the quant's measured loss beside the score. `llmsim-cli recommend-model --format json`.",
         best_models_schema, api_best_models},
        {"serve", "Serving many users",
         "Serving engine (vLLM, SGLang, llama-server, ...) memory plan, load simulation (throughput, TTFT, TPOT "
         "percentiles), cost and command line; with workload.shared_prefix_len / turns or kv_offload also `prefix` "
         "(prefix-cache hit rate, KV pool tokens per tier, TTFT without the cache), with disaggregation each pool and "
         "the KV transfer. `llmsim-cli serve --json`.",
         serve_schema, api_serve},
        {"cost", "Own vs rent vs API",
         "Monthly cost of owning a device, renting it and a serverless API for a token load, with the device hours "
         "the load needs and the payback of buying. `llmsim-cli cost --json`.",
         cost_schema, api_cost},
    };
    return table;
}

}  // namespace llmsim::mcp
