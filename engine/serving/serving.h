// llmsim serving: how many users a GPU box serves under vLLM, SGLang or llama-server, at what latency and cost.
//
// Three layers, each usable alone:
//   1. memory plan  (serve_memory): weights per GPU for the checkpoint's format under TP/PP, the engine's own
//      profiling rules (activation peak of the profile batch, CUDA graphs, runtime buffers) and the KV pool that
//      follows from --gpu-memory-utilization / --mem-fraction-static, in blocks and tokens; hence the largest
//      concurrency at a context and the largest --max-model-len that fits. Each rule cites the engine's source.
//   2. step time    (serve_step_time): one continuous-batching step for a batch of decodes at their depths plus
//      prefill chunk tokens: max(bytes / bandwidth, FLOPs / compute) + per-step overhead + TP all-reduce.
//   3. load         (serve): a discrete-event simulation of continuous batching (admission, KV-block limit,
//      preemption) driven by (2), closed loop (concurrency), open loop (Poisson rate, seeded) or burst.
//
//   llmsim::ServeRequest req;
//   req.engine = "vllm"; req.model = "meta-llama/Llama-3.1-8B-Instruct"; req.precision = "bf16";
//   req.hardware = "h100-sxm"; req.gpus = 1; req.tp = 1;
//   req.workload.input_len = 1024; req.workload.output_len = 128; req.workload.concurrency = 32;
//   llmsim::ServeResult r = llmsim::serve(*llmsim::embedded_catalog(), req);
//   if (!r.ok) fprintf(stderr, "%s\n", r.error.c_str());
//   printf("%.0f tok/s, TTFT p90 %.0f ms\n", r.load.output_tok_s, r.load.ttft_ms.p90);
//
// The engine never throws: bad input gives ok = false and an error naming the field.
//
// [SECTION] Request
// [SECTION] Result
// [SECTION] Functions
// [SECTION] SLA search
#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "model/model_tensors.h"
#include "serving/engines.h"

namespace llmsim {

struct Catalog;    // catalog.h
struct Model;      // catalog.h
struct Hardware;   // catalog.h

// [SECTION] Request --------------------------------------------------------------------------------------

// how the input and output lengths of the requests are drawn
enum class LengthDist {
    Fixed,      // every request has input_len / output_len exactly
    Uniform,    // uniform in [len * (1 - range_ratio), len] (vLLM benchmark_serving --random-range-ratio)
    ShareGpt,   // ShareGPT-like: log-normal input (median ~ input_len) and output (median ~ output_len), clipped
};
// A line that names only ShareGPT (no lengths): ShareGPT V3 as vLLM's benchmark_serving samples it. 1000 prompts
// (seed 0) hold 215,196 prompt tokens (dstackai/benchmarks' runs, serving.jsonl v0218's notes). Each request's
// max_tokens is its completion's length; the 137 vLLM ShareGPT rows of serving.jsonl that print output and request
// throughput average 208 output tokens per request at the median (IOG's 125 runs of 12 models 118-218, dstack's
// Llama-3.1-405B FP8 122 and 180); the 120 used before left dataset-only lines ~43 % low
constexpr int64_t kShareGptMeanInputTokens = 215;
constexpr int64_t kShareGptMeanOutputTokens = 208;

struct ServeWorkload {
    int64_t input_len = 1024;            // prompt tokens (nominal; see dist)
    int64_t output_len = 128;            // generated tokens (nominal; ignore_eos: every request generates them)
    LengthDist dist = LengthDist::Fixed;
    double range_ratio = 0.0;            // Uniform: lower bound = len * (1 - range_ratio)... 0 = fixed
    // exactly one of these three drives the load (validated): closed loop, open loop, or all at once
    int concurrency = 0;                 // > 0: closed loop, C requests in flight (--max-concurrency C)
    double request_rate = 0;             // > 0: Poisson arrivals at R requests/s (--request-rate R)
    bool burst = false;                  // request_rate "inf" without concurrency: all num_prompts sent at t = 0
    int num_prompts = 0;                 // requests simulated; 0 = default_num_prompts() below
    uint64_t seed = 1;                   // arrivals and lengths: deterministic for a seed
    // the first request's prompt is already in the prefix cache: vLLM's benchmark_serving.py sends
    // input_requests[0] as its "initial single prompt test run" before the measured run, so with prefix caching on
    // (vLLM V1's default) the measured run's request 0 finds every full KV block of its prompt cached and computes
    // only the rest (v1/core/kv_cache_manager.py get_computed_blocks: full blocks, the last token recomputed)
    bool warm_first_prompt = false;
    // shared prefixes and multi-turn sessions (docs/serving-model.md "Prefix caching"). shared_prefix_len: the first N
    // tokens of every prompt are the same (a system prompt), N <= input_len - 1; the rest of input_len is each request's
    // own. turns > 1: each session runs `turns` requests, turn k's prompt = turn k-1's prompt + its output + new input
    // (input_len - shared_prefix_len tokens, drawn like input_len), sent think_time_s after turn k-1's answer. A closed
    // loop at C keeps C clients, each running sessions back to back (a client thinking has no request in flight); an
    // open loop starts sessions at request_rate / turns per second, so turns arrive at about request_rate in all.
    // 0 / 1 / 0 = plain requests (every number as before)
    int64_t shared_prefix_len = 0;
    int turns = 1;
    double think_time_s = 0;
    // tokens of a session's own context at the start of its first turn, after the shared prefix (the document a
    // conversation is about; vLLM benchmarks/multi_turn's prefix_num_tokens): only turn 0 carries them, later turns
    // extend them. Not an issue 36 key: added so published multi-turn runs can be stated. 0 = none
    int64_t session_prefix_len = 0;
    // prefix groups: prefix_groups distinct shared prefixes of shared_prefix_len tokens each (SGLang bench_serving
    // --dataset-name generated-shared-prefix --gsp-num-groups; inference-perf data.shared_prefix.num_groups). With
    // prompts_per_group = 0 each request draws its group at random and its own input is new. With prompts_per_group
    // = Q the prompts are a fixed pool of G x Q (a group's prefix + one of its Q questions), shuffled once; request i
    // sends pool prompt i mod (G x Q), so a prompt recurs whole (inference-perf SharedPrefixDataGenerator: prompts
    // shuffled in _generate_prompts, load_lazy_data takes data_index % len(prompts); SGLang's generator sends each
    // of its G x Q prompts once, shuffled: num_prompts = G x Q). Needs turns = 1
    int prefix_groups = 1;
    int prompts_per_group = 0;
    // a staged arrival ladder (inference-perf load.stages): stage k sends int(rate x duration_s) requests at Poisson
    // times from its start and waits for all of them to finish before the next stage starts (load_generator.py
    // run_stage); the request index, and so the pool prompt, restarts at 0 in each stage. Replaces request_rate /
    // concurrency; num_prompts is ignored. ServeLoad::stages reports each stage. Empty = one rate as before
    struct RateStage { double rate = 0, duration_s = 0; };
    std::vector<RateStage> rate_stages;
    // true when requests share prompt tokens (a shared prefix, sessions, a session document, a prompt pool): the one
    // test of whether a prefix cache can hit at all
    bool shares_prefix() const { return shared_prefix_len > 0 || turns > 1 || session_prefix_len > 0 || prompts_per_group > 0; }
};

// requests a run simulates when workload.num_prompts is 0: the one rule serve(), the SLA search, `serve --sweep` and
// the Serving section share, so the same point gives the same numbers everywhere. Closed loop at concurrency C:
// kPromptsPerSlot x C requests (at least kMinPrompts). The first C requests arrive together (a warm-up burst) and
// the last C finish with a shrinking batch (the drain): with 8 x C the two together are at most 2/8 of the
// requests and the warm-up burst alone 1/8, so p90 latencies are mostly steady-state requests (3 x C put a third
// of the requests in the warm-up burst and roughly doubled TTFT p90). Open loop and burst: kOpenLoopPrompts.
constexpr int kPromptsPerSlot = 8, kMinPrompts = 32, kOpenLoopPrompts = 200;
int default_num_prompts(const ServeWorkload& w);

struct ServeSla {                        // targets; <= 0 = no target
    double ttft_p90_ms = 0;
    double tpot_p90_ms = 0;
    double min_output_tok_s = 0;         // total output throughput the box must deliver
};

// prefill/decode disaggregation (xPyD): separate prefill and decode instances, the KV of each prompt moved between
// them (vLLM --kv-transfer-config NixlConnector, SGLang --disaggregation-mode prefill|decode, NVIDIA Dynamo's prefill /
// decode workers). Off while prefill_gpus is 0; serve_disagg.cpp models it
struct ServeDisaggregation {
    int prefill_gpus = 0, decode_gpus = 0;   // GPUs of each pool (each a whole number of tp-GPU instances)
    int prefill_tp = 1, decode_tp = 1;       // --tensor-parallel-size of each instance
    std::string link;                        // the KV path: "nvlink" (one node) or a fabric of serve_network.h
                                             // (ib-ndr, roce-400, ethernet-100 ...; "-xN" NICs); "" = nvlink when both
                                             // pools fit one node (gpus_per_node), else ib-ndr
    bool enabled() const { return prefill_gpus > 0; }
};

struct ServeRequest {
    std::string engine = "vllm";         // an engine row's name (engines.h): "vllm", "sglang", "llamacpp", "trtllm", "lmdeploy"
    std::string engine_version;          // vLLM: "0.6.3" ...; below 0.8 runs the V0 engine (V1 is the default from v0.8.0);
                                         // "" or text that does not start with a version number = current (V1)
    std::string model;                   // catalog id (or the model below)
    std::shared_ptr<const Model> model_override;        // an imported config.json model (wins over `model`)
    std::string precision = "bf16";      // bf16|fp16|fp8|nvfp4|mxfp4|int4-awq|int4-gptq|int8; llamacpp: a GGUF file type
    std::string kv_dtype = "auto";       // auto (= model dtype) | fp16 | bf16 | fp8 (llamacpp: f16 | q8_0 | q4_0)
    std::string hardware;                // catalog id (combination ids "2x-h100-sxm" give gpus too)
    std::shared_ptr<const Hardware> hardware_override;  // an inline device (wins over `hardware`)
    int gpus = 1;                        // GPUs used; gpus / (tp * pp) data-parallel replicas share the load
    int tp = 1;                          // --tensor-parallel-size / --tp
    int pp = 1;                          // --pipeline-parallel-size
    std::string interconnect;            // "nvlink" | "pcie" | "" (= the device's own: NVLink on SXM) inside a node, or the
                                         // fabric between nodes: ib-xdr | ib-ndr | ib-hdr | roce-400 | roce-200 | roce-100 |
                                         // ethernet-100 | ethernet-25 | ethernet-10, "-xN" = N NICs per node (serve_network.h);
                                         // "network" = every GPU on its own node over ib-ndr (the calibration rows' meaning)
    int gpus_per_node = 8;               // TP/PP beyond this crosses the network (default fabric: ib-ndr, a NIC per GPU)
    int nics_per_node = 0;               // NICs per node on the fabric; 0 = "-xN" or the fabric's default
    int64_t max_model_len = 0;           // --max-model-len / --context-length; 0 = the model's native context
    bool max_model_len_assumed = false;  // max_model_len is apply_predict_defaults' room for the workload, not the server's flag
    double gpu_memory_utilization = 0;   // vLLM; 0 = 0.9 (vLLM's default)
    double mem_fraction_static = 0;      // SGLang; 0 = SGLang's default for the GPU size and TP (server_args.py)
    int max_num_seqs = 0;                // vLLM --max-num-seqs / SGLang --max-running-requests / llama-server -np; 0 = default
    int max_num_batched_tokens = 0;      // chunked-prefill budget per step; 0 = the engine default
    int block_size = 0;                  // KV block (page) size in tokens; 0 = engine default (vLLM 16, SGLang 1)
    bool cuda_graphs = true;             // false = --enforce-eager / --disable-cuda-graph
    bool no_p2p = false;                 // the GPUs lack peer-to-peer access (vLLM logs "platform lacks GPU P2P capability":
                                         // containers, some virtualised hosts); GeForce parts never have it
    bool expert_parallel = false;        // MoE experts whole on EP = tp ranks (vLLM --enable-expert-parallel, SGLang
                                         // --ep-size tp, TensorRT-LLM --ep_size tp) instead of each expert sharded over TP;
                                         // attention stays TP (no DP attention). Physics only: no serving row uses it
    int max_loras = 0;                   // vLLM --enable-lora --max-loras (0 = no LoRA): adapter slots on the GPU
    int max_lora_rank = 16;              // vLLM --max-lora-rank (vLLM's default 16); every slot is allocated at this rank
    bool with_single_stream = true;      // false: skip the single-stream run behind cost.*_single (searches)
    // the engine's prefix cache: -1 = its default (vLLM V1 on, vLLM V0 off, SGLang RadixAttention on, llama-server slot
    // reuse on; the others off), 0 = off (--no-enable-prefix-caching / --disable-radix-cache / --cache-reuse off), 1 = on.
    // It only matters when the workload shares prefixes (shared_prefix_len, turns): plain prompts never hit
    int prefix_caching = -1;
    // KV offload tiers behind the GPU's prefix cache, GiB per replica (vLLM's OffloadingConnector / LMCache; SGLang
    // HiCache's host and storage tiers): evicted prefix blocks are found there and loaded instead of recomputed
    struct KvOffload { double cpu_gib = 0, nvme_gib = 0; } kv_offload;
    ServeWorkload workload;
    ServeSla sla;
    ServeDisaggregation disaggregation;  // off by default: one pool does both prefill and decode
};

// [SECTION] Result ---------------------------------------------------------------------------------------

struct ServeMemoryPlan {                 // per GPU unless the name says otherwise
    uint64_t gpu_total_bytes = 0;        // what the engine sees as the GPU's total memory
    uint64_t budget_bytes = 0;           // total x gpu_memory_utilization (vLLM) / mem_fraction_static (SGLang)
    uint64_t weights_bytes = 0;          // the largest GPU's share of the weights (TP shard, PP stage)
    uint64_t activation_peak_bytes = 0;  // profile run at max_num_batched_tokens (+ sampler logits)
    uint64_t cuda_graph_bytes = 0;       // captured graphs' private pools
    uint64_t runtime_bytes = 0;          // non-torch memory: CUDA context, NCCL / cuBLAS buffers
    uint64_t kv_pool_bytes = 0;          // KV cache per GPU
    uint64_t lora_bytes = 0;             // vLLM LoRA slots: max_loras x (A + B at max_lora_rank) per wrapped linear
    uint64_t kv_bytes_per_token = 0;     // per GPU, all layers of its stage, K + V
    int64_t kv_pool_blocks = 0;          // "# GPU blocks" (vLLM: num_gpu_blocks)
    int64_t kv_pool_tokens = 0;          // blocks x block_size: "GPU KV cache size: N tokens"
    int block_size = 0;
    int64_t max_model_len = 0;           // the context the plan was made for
    double max_concurrency = 0;          // "Maximum concurrency for max_model_len tokens per request: Nx"
    int64_t largest_max_model_len = 0;   // largest --max-model-len whose one sequence fits the pool
    bool fits = false;                   // weights + overheads leave a KV pool that holds one max_model_len sequence
    std::vector<std::string> rules;      // one line per figure: the rule and the engine source it follows
};

struct LatencyStats { double mean = 0, median = 0, p90 = 0, p99 = 0; };   // milliseconds

struct ServeLoad {
    double output_tok_s = 0;             // generated tokens / makespan (all replicas)
    double total_tok_s = 0;              // (input + output) / makespan
    double req_s = 0;
    double duration_s = 0;               // first arrival to last completion
    LatencyStats ttft_ms, tpot_ms, itl_ms, e2e_ms;
    double queueing_share = 0;           // mean share of TTFT spent waiting for admission
    double kv_use_mean = 0, kv_use_peak = 0;   // share of the KV pool in use over the run
    double mean_batch = 0;               // mean running sequences per step
    int64_t preemptions = 0;             // sequences evicted when the pool ran out (recomputed later)
    int completed = 0;
    // the prefix cache over the run (all 0 when the workload shares no prefix or caching is off)
    int64_t prompt_tokens = 0;           // prompt tokens of every admitted request (first admission)
    int64_t prefix_hit_tokens = 0;       // of which found cached (any tier) and not prefilled
    int64_t prefix_hit_cpu_tokens = 0, prefix_hit_nvme_tokens = 0;   // of the hits, loaded from the offload tiers
    int64_t prefill_tokens_computed = 0; // prompt tokens actually computed (recomputes after preemption included)
    int64_t prefix_evicted_tokens = 0;   // cached tokens evicted from the GPU pool to make room
    double prefix_hit_rate = 0;          // prefix_hit_tokens / prompt_tokens
    // mean TTFT of the requests by where their longest cached part came from: [0] GPU, [1] CPU tier, [2] NVMe tier,
    // [3] no hit; 0 = no such request
    double ttft_mean_ms_by_tier[4] = {0, 0, 0, 0};
    int requests_by_tier[4] = {0, 0, 0, 0};
    // a staged ladder (ServeWorkload::rate_stages): one entry per stage, the deployment's: requests = int(rate x
    // duration), output_tok_s = their tokens / (the stage's start to its last completion), TTFT / TPOT of its requests.
    // Empty for a one-rate run
    struct Stage { double rate = 0; int requests = 0; double output_tok_s = 0, duration_s = 0, prefix_hit_rate = 0; LatencyStats ttft_ms, tpot_ms; };
    std::vector<Stage> stages;
};

// what the prefix cache and the offload tiers are and what they bought (ServeResult::prefix)
struct ServePrefixReport {
    bool active = false;                 // the workload shares prefixes and the engine caches them
    std::string mechanism;               // "vLLM automatic prefix caching (16-token block hashes)" ...
    int64_t gpu_pool_tokens = 0;         // the KV pool per replica (shared with running requests)
    int64_t cpu_tier_tokens = 0, nvme_tier_tokens = 0;   // offload tiers per replica
    double host_link_gbs = 0;            // GPU <- host per direction (PCIe gen of the device, NVLink-C2C on GH200/GB200)
    std::string host_link;               // "PCIe 5.0 x16" ...
    double nvme_gbs = 0;                 // NVMe read per replica
    double cpu_load_ms_per_1k = 0, nvme_load_ms_per_1k = 0;   // transfer of 1,000 tokens of KV from each tier
    double prefill_ms_per_1k = 0;        // recomputing them instead (one prefill chunk of 1,000 tokens)
    double sessions_held = 0;            // sessions whose whole last-turn context fits in GPU pool + tiers at once
    double host_memory_usd = -1;         // the CPU tier's DRAM at the reference price; -1 = no price (left out)
    std::string host_memory_price_source;
    // filled by serve_prefix_comparison: the same request with the cache off
    bool compared = false;
    double ttft_p90_ms_off = 0, ttft_mean_ms_off = 0, output_tok_s_off = 0;
    int sla_concurrency_on = -1, sla_concurrency_off = -1;   // sla_max_concurrency with / without (-1 = no SLA given)
    std::vector<std::string> lines;      // the explanation, number by number
};

struct StepBreakdown {                   // one representative decode step at the mean batch, seconds
    int batch = 0;                       // sequences decoding in it
    int64_t prefill_tokens = 0;          // chunked-prefill tokens sharing the step
    double weights_s = 0;                // weight bytes read / effective bandwidth
    double kv_s = 0;                     // Σ KV bytes at each sequence's depth / effective bandwidth
    double compute_s = 0;                // FLOPs / effective compute (when it, not memory, bounds the step)
    double overhead_s = 0;               // per-step scheduling / launch overhead (with moe_fixed_s)
    double moe_fixed_s = 0;              // of which the MoE layers' fixed kernel-chain latency (35 us per MoE layer)
    double allreduce_s = 0;              // TP all-reduce (and PP hand-off) over the links, in-node and across nodes
    double network_s = 0;                // of which across nodes (the fabric between nodes); 0 in one node
    double network_share = 0;            // network_s / step_s
    double step_s = 0;
    std::string bound;                   // "memory" | "compute"
};

struct ServeCost {                       // at the served load (batched) next to a single stream
    double usd_per_mtok_own_batched = -1, usd_per_mtok_own_single = -1;    // amortised price + power, 24/7
    double usd_per_mtok_rent_batched = -1, usd_per_mtok_rent_single = -1;  // cloud rent; -1 = not rentable
    double wh_per_mtok_batched = 0, wh_per_mtok_single = 0;
    double single_stream_tok_s = 0;
};

struct ServeDisaggResult {               // a disaggregated run's parts (serve_disagg.cpp); enabled = false otherwise
    bool enabled = false;
    int prefill_instances = 0, decode_instances = 0, prefill_tp = 1, decode_tp = 1;
    std::string link;                    // the link the KV crossed, in words
    double link_gbs = 0;                 // GB/s one prompt's KV moves at (all its TP ranks together)
    double link_latency_us = 0;
    double kv_bytes_per_token = 0;       // the whole model's K + V per token (all layers, all heads)
    double kv_bytes_mean = 0;            // per prompt at the mean input length
    double transfer_ms_mean = 0;         // latency + bytes / link_gbs at the mean input length
    double link_utilisation = 0;         // KV bytes per second / the link's capacity over all prefill instances
    LatencyStats prefill_ttft_ms;        // prefill pool: arrival to the prompt's KV written (queue + prefill)
    LatencyStats decode_first_ms;        // decode pool: KV arrived to the first token (admission + its first step)
    double prefill_mean_batch_tokens = 0;// mean prompt tokens a prefill step computes
    double decode_mean_batch = 0;        // mean sequences in a decode-pool step
    ServeMemoryPlan prefill_memory;      // the prefill instance's plan (memory above is the decode instance's)
    std::string prefill_command, decode_command;
    // the same GPUs serving aggregated (every GPU in decode_tp instances doing both), the same load: serve() only
    bool have_aggregated = false;
    double agg_output_tok_s = 0, agg_ttft_p90_ms = 0, agg_tpot_p90_ms = 0;
    std::vector<std::string> lines;      // the explanation, one line per figure
};

struct ServeResult {
    bool ok = false;
    std::string error;                   // why not (bad input, does not fit)
    ServeMemoryPlan memory;
    ServeLoad load;
    StepBreakdown step;
    ServeCost cost;
    double low = 0, high = 0;            // band on load.output_tok_s (held-out errors of the engine's fit)
    LatencyStats tpot_band_low_ms, tpot_band_high_ms;   // bands on load.tpot_ms / ttft_ms (each statistic scaled by
    LatencyStats ttft_band_low_ms, ttft_band_high_ms;   // the engine's held-out TPOT / TTFT error quantiles)
    std::vector<std::string> network;    // the network term of `step` explained (explain_network's lines)
    ServePrefixReport prefix;            // prefix cache and offload tiers (active only for a sharing workload)
    std::string command;                 // "vllm serve ... --tensor-parallel-size 4 --max-model-len ..."
    std::vector<std::string> notes;
    ServeDisaggResult disagg;            // request.disaggregation on: the pools, the transfer, the comparison
};

// [SECTION] Functions ------------------------------------------------------------------------------------

// the engines serve() knows: every engine row's name, in EngineId order (engines.h)
const std::vector<std::string>& serve_engines();
// true for the engines whose expert parallel is modelled (a row with an ep_flag: vLLM, SGLang, TensorRT-LLM);
// serve() refuses expert_parallel on the others (the Serving section shows the switch only here)
bool serve_engine_has_expert_parallel(const std::string& engine);
// the checkpoint precision a model is published in, as serve() names it: models.json release_format (DeepSeek-V3/R1
// "FP8" -> "fp8", gpt-oss "MXFP4" -> "mxfp4"), "bf16" where the catalog records none. The precision a request gets
// when it names none (CLI serve, serve() JSON, the Serving section): DeepSeek-R1 at BF16 (1.25 TiB) fits no 8-GPU
// node, while its FP8 release is what every published deployment ran
std::string release_precision(const Model& m);
// a request that names no precision: r.precision = release_precision of its model where its engine takes checkpoints
// (llama-server keeps its GGUF file type); unchanged for an unknown engine or model (serve() reports those)
void default_to_release_precision(const Catalog& cat, ServeRequest& r);
// the memory plan alone (no load); ok = false + error on bad input
bool serve_memory(const Catalog& cat, const ServeRequest& req, ServeMemoryPlan& out, std::string& err);
// seconds of one step: `depths` = context depth of each decoding sequence, `prefill_tokens` chunk tokens
// (prefill_depth = tokens of that prompt already cached); fills `out` when non-null
double serve_step_time(const Catalog& cat, const ServeRequest& req, const std::vector<int64_t>& depths,
                       int64_t prefill_tokens, int64_t prefill_depth, StepBreakdown* out, std::string& err);
// the closed-loop run of `req` at concurrency c (no rate, no burst, default_num_prompts): the request behind every
// point of a concurrency sweep (CLI --sweep, the Serving section's curves), the SLA bisection and the search's
// target load
ServeRequest closed_loop_at(const ServeRequest& req, int c);
// memory plan + load simulation + step breakdown + cost + command line
ServeResult serve(const Catalog& cat, const ServeRequest& req);
// true when the request's engine caches prefixes by default or by request.prefix_caching, and the workload shares some
bool serve_prefix_cache_active(const ServeRequest& req);
// the same request with the prefix cache off next to `r` (TTFT, throughput) and, when req.sla has a target, the largest
// concurrency within it with and without the cache (up to max_concurrency); fills r.prefix.compared and its lines
void serve_prefix_comparison(const Catalog& cat, const ServeRequest& req, ServeResult& r, int max_concurrency = 256);
// the network term of a result's step, one line per part: which links cross nodes, the fabric, NICs, bus bandwidth
// and latency, and each collective's seconds with its formula (`serve --explain`); one line saying it stays in one
// node otherwise. false + err on a request that does not resolve
bool explain_network(const Catalog& cat, const ServeRequest& req, const StepBreakdown& step, std::vector<std::string>& out,
                     std::string& err);
// parse / write a request as JSON (the JS API's and CLI's form; keys as the fields above, workload and sla
// nested; "request_rate": "inf" = burst); false + err naming the key on bad input
bool parse_serve_request(const std::string& json, const Catalog& cat, ServeRequest& out, std::string& err);
// the full result as JSON (the CLI's --json and the JS API's serve())
std::string serve_result_json(const ServeRequest& req, const ServeResult& r);
// the JS API's serve(request) / serveSearch(request): a request in (parse_serve_request's JSON), the result JSON
// out (serve_result_json; an SLA search: {"points": [...], "ms"}); a request that does not parse gives
// {"error": "..."} without "ok" (the page throws it)
std::string api_serve(const Catalog& cat, const std::string& request_json);
std::string api_serve_search(const Catalog& cat, const std::string& request_json);
// the JS API's serveDeploy(request): {"ok": true, "format", "yaml"} (serve_deploy_yaml), {"ok": false, "error"} when
// the request cannot be deployed, {"error"} without "ok" when it does not parse
std::string api_serve_deploy(const Catalog& cat, const std::string& request_json);
// one `predict` line of test.kind "serving" (the contract in README): {"id", "output_tok_s", ...} or {"id", "error"}
std::string serve_predict_line(const Catalog& cat, const std::string& line);
// seconds to move one prompt's KV (input_tokens of it) from a prefill instance to a decode instance of
// req.disaggregation over its link (serve_disagg.cpp): latency + the busiest rank's bytes / its share of the link (the
// TP ranks move their shards at once). -1 + err on an impossible disaggregation block or an unknown link
double kv_transfer_seconds(const Catalog& cat, const ServeRequest& req, int64_t input_tokens, std::string* link_words, std::string& err);
// a deployment file for a request (and its result's command lines): an NVIDIA Dynamo DynamoGraphDeployment
// (nvidia.com/v1beta1) with a Frontend and, disaggregated, prefill and decode workers, else one worker kind
// (serve_deploy.cpp cites the documentation). false + err for an engine Dynamo does not run (vllm, sglang only)
bool serve_deploy_yaml(const Catalog& cat, const ServeRequest& req, std::string& yaml, std::string& err);

// [SECTION] SLA search -----------------------------------------------------------------------------------

struct SlaPoint {                        // one configuration that meets the SLA
    std::string engine, hardware, precision;
    int gpus = 1, tp = 1, pp = 1;
    int max_concurrency = 0;             // largest closed-loop concurrency that meets the SLA (the first
                                         // `exact_top` points; the others: the target concurrency they meet;
                                         // a request-rate target: 0)
    double output_tok_s = 0;             // at that concurrency (or the target rate)
    double ttft_p90_ms = 0, tpot_p90_ms = 0;
    double price_usd = 0;                // purchase price of the GPUs (0 = unknown)
    double rent_usd_per_hour = 0;        // 0 = not rentable
    double usd_per_mtok = -1;            // rent if rentable else own, at that load (the ranking key)
    double usd_per_mtok_own = -1, usd_per_mtok_rent = -1;   // each alone; -1 = no price / not rentable
    double wh_per_mtok = 0;              // energy per 1M output tokens at that load (GPU TDP)
    std::string command;
    ServeDisaggregation disagg;          // prefill_gpus > 0: a disaggregated configuration (gpus = P + D)
};

struct SlaSearch {
    std::vector<std::string> engines;    // empty = vllm, sglang
    std::vector<std::string> precisions; // empty = bf16, fp8
    std::vector<int> gpu_counts;         // empty = 1, 2, 4, 8
    bool datacenter_and_workstation_only = true;   // false: every NVIDIA / AMD device of the catalog
    int max_concurrency = 256;           // the concurrency search range is 1 .. this
    int exact_top = 5;                   // with a target concurrency: bisect the largest one for the cheapest N only
    int limit = 0;                       // > 0 with a target load: the cheapest `limit` points only, and candidates
                                         // whose cost floor cannot beat the limit-th are never simulated (pruned)
    bool disaggregated = false;          // also every P:D split of each GPU count (and each pool's TP), next to the
                                         // aggregated configurations with data-parallel replicas of the same GPUs
    std::string only_hardware;           // non-empty: this device id only (a disaggregated search of one cluster)
};

struct SlaCandidate {                    // a configuration of the space whose memory plan fits
    std::string engine, hardware, precision;
    int gpus = 1, tp = 1, pp = 1;
    double usd_per_mtok_floor = -1;      // no load can make it cheaper: its cost at an upper bound on output tok/s
                                         // (every step yields at most one token per decoding sequence and takes at
                                         // least the step time of that batch at depth 0); -1 = no price
    double tpot_floor_ms = 0;            // no request's TPOT can be shorter: one decode step of a batch of one
    ServeDisaggregation disagg;          // prefill_gpus > 0: a P:D split of `gpus`
};

struct SlaSearchStats {                  // what one search did (the bench and the UI print it)
    int candidates = 0;                  // configurations whose memory plan fits
    int simulated = 0;                   // of those, run at the target load
    int pruned = 0;                      // skipped: their floor could not beat the limit-th cheapest point
    int infeasible = 0;                  // skipped: their TPOT floor is above the SLA already
    int serve_runs = 0;                  // serve() calls in all (bisections included)
};
// one line of a search's answer and what it says about it: the mechanism (disaggregation, the prefix cache, a KV
// tier) is why the answer qualifies or wins (Because), the answer would stand without it (Aside), or it loses or
// found nothing (Against). The UI colours by it; the CLI and JSON print the text
enum class SearchNoteKind { Because, Aside, Against };
struct SearchNote {
    std::string text;
    SearchNoteKind kind = SearchNoteKind::Aside;
};

// the largest closed-loop concurrency of `req` that meets req.sla (0 = none); fills `at` with its load
int sla_max_concurrency(const Catalog& cat, const ServeRequest& req, int max_concurrency, ServeResult* at);
// the space's configurations that fit req's model and max_model_len, cheapest floor first (no simulation)
std::vector<SlaCandidate> sla_candidates(const Catalog& cat, const ServeRequest& req, const SlaSearch& space);
// one candidate at req's target load (workload.concurrency, or workload.request_rate; neither: its largest
// concurrency within the SLA); true + `out` when it meets req.sla; `runs` counts serve() calls when non-null
bool sla_evaluate(const Catalog& cat, const ServeRequest& req, const SlaSearch& space, const SlaCandidate& c,
                  SlaPoint& out, int* runs = nullptr);
// cheapest first (usd_per_mtok; unknown last); the sort sla_search applies
void sort_sla_points(std::vector<SlaPoint>& pts);
// every device x count x engine x precision that serves req's model and workload within req.sla (the
// workload's concurrency or request rate is the target load; neither = any), cheapest first (price per 1M output
// tokens); with space.limit, the cheapest `limit` only. Fills `stats` when non-null
std::vector<SlaPoint> sla_search(const Catalog& cat, const ServeRequest& req, const SlaSearch& space,
                                 SlaSearchStats* stats = nullptr, std::vector<std::string>* notes = nullptr);
// one search point as JSON (an element of serveSearch's "points")
std::string sla_point_json(const SlaPoint& p);
// the request a search point runs as (req's model, workload and SLA at the point's device, engine, precision, GPUs,
// TP and disaggregation): what serve --deploy and the Serving section's Deploy emit for the search's answer
ServeRequest sla_point_request(const ServeRequest& req, const SlaPoint& p);
// the search in slices, so a UI frame never waits for all of it (sla_search is begin + step until done): begin
// lists the candidates (no simulation); each step simulates at most `max_candidates` of them (or bisects one of the
// exact_top points at the end) and returns true once the search is finished, with job.points cheapest first
struct SlaSearchJob {
    ServeRequest req;
    SlaSearch space;
    std::vector<SlaCandidate> candidates;
    size_t next = 0;                     // next candidate to simulate
    size_t next_exact = 0;               // next of the exact_top points to bisect (after the candidates)
    bool sorted = false, done = false;
    std::vector<SlaPoint> points;
    std::vector<double> best;            // the cheapest `limit` ranking keys so far, ascending
    SlaSearchStats stats;
    ParamCounts counts;                  // the model's, counted once for every run of the search
    bool have_counts = false;
    std::vector<SearchNote> notes;       // why the answer is what it is: where disaggregation wins or loses
                                         // (disagg_verdicts), what the prefix cache and the KV tiers did for it
                                         // (search_prefix_reasons)
};
// with space.disaggregated: for each device x GPU count that has both, the cheapest disaggregated and the cheapest
// aggregated point side by side and which one wins (the two $/1M and each one's TTFT / TPOT p90)
std::vector<SearchNote> disagg_verdicts(const std::vector<SlaPoint>& pts);
// a search whose request shares prefixes or names KV offload tiers: one line per mechanism, what it did for the
// cheapest point (prefix hit rate; sessions held and tokens loaded from each tier) and whether that point still meets
// the SLA without it (one serve() run each at the point's load), so the answer says why the cache or the tier changed
// it. Empty for a plain workload (no runs)
std::vector<SearchNote> search_prefix_reasons(const Catalog& cat, const ServeRequest& req, const std::vector<SlaPoint>& pts);
void sla_search_begin(const Catalog& cat, const ServeRequest& req, const SlaSearch& space, SlaSearchJob& job);
bool sla_search_step(const Catalog& cat, SlaSearchJob& job, int max_candidates);
// the search `llmsim-cli serve --bench` and `llmsim_bench serving` (native and wasm) time: Llama-3.1-70B, 1024 in /
// 256 out at 32 in flight, TTFT p90 <= 1 s, TPOT p90 <= 50 ms; the whole space, then the cheapest 20 (pruned, as
// the Serving section runs it). One line each: points, candidates, simulated, pruned, serve() runs, ms
std::string sla_bench(const Catalog& cat);

}  // namespace llmsim
