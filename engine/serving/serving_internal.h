// Internals of engine/serving shared by its files (not part of the public API; serving.h is).
//
// [SECTION] Engine rules and fitted parameters
// [SECTION] Shape of one replica
// [SECTION] Functions
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "catalog/catalog.h"
#include "model/model_tensors.h"
#include "serving/engines.h"
#include "serving/serving.h"
#include "serving/serve_network.h"
#include "serving/serve_prefix_cache.h"

namespace llmsim::serving {

// [SECTION] Engine rules and fitted parameters -----------------------------------------------------------

// the engine table (engines.h: one row per inference engine) in serving's namespace
using llmsim::EngineId;
using llmsim::kEngineCount;
using llmsim::EngineSpeed;
using llmsim::find_engine;

// the engines' speed parameters as a mutable table (the fit writes a copy; serve() reads the shipped one)
// vllm_v0: vLLM before v0.8.0 (the V0 engine: scheduling, input preparation and output processing run in the
// GPU worker's loop between steps; V1 moved them off the critical path) has its own speed, fitted on its rows
struct SpeedTable { EngineSpeed e[kEngineCount]; EngineSpeed vllm_v0; };
// true for a vLLM request whose engine_version is below 0.8 (a leading "major.minor"; anything else = current)
bool runs_vllm_v0(const ServeRequest& r);
// an engine version as a number: "0.7.4.dev138+g21f6" -> 704 (major x 10000 + minor x 100 + patch), -1 when the
// string does not start with "major.minor" (a docker tag, "not stated": such a row is scored as an older build)
int engine_version_number(const std::string& v);
// SGLang on Hopper (H100/H200/H800/H20) from v0.4.6 (or no version named: the current release) runs block-FP8
// linears on DeepGEMM (sgl-project/sglang#5628, "Turn on DeepGemm By Default", 2025-04-22; v0.4.6 is the first
// release after it). DeepGEMM's JIT kernels are not grid-starved like the Triton w8a8_block_fp8_matmul whose law
// kBlockFp8LaunchUs describes (sgl-project/sglang#3893: "The FP8 block-wise GEMM of DeepGemm consistently
// outperforms the SGLang/VLLM implementation" at every TP8 DeepSeek-V3 shape on H200), so those linears run as plain
// FP8 matmuls. vLLM keeps the law: its CUTLASS block-FP8 kernel is as slow at decode batches (vllm#23280, 2025-09)
bool runs_deepgemm(const ServeRequest& r, const Hardware& hw);
// SGLang's overlap scheduler is on (v0.4.0 and later, or no version stated): LoadSetup::overlap_schedule
bool sglang_overlap_schedule(const ServeRequest& r);
// How many times a decode step reads each cached KV byte: 1 for a kernel that serves a KV head's whole query group
// from one read, the query heads per KV head on one GPU for vLLM V0's PagedAttention.forward_decode kernel
// (csrc/attention/attention_kernels.cuh paged_attention_v1/v2: grid (num_heads, num_seqs[, partitions]), one thread
// block per query head, `kv_head_idx = head_idx / num_queries_per_kv`, each block streams its KV head's whole
// context). V0 decodes through that kernel only where its backend selector falls back to it:
//   NVIDIA (vllm/attention/selector.py, later platforms/cuda.py): FLASH_ATTN (vllm-flash-attn's
//     flash_attn_with_kvcache, which packs a KV head's query group into one tile, `seqlenq_ngroups_swapped`) unless
//     the KV cache is FP8 ("Cannot use FlashAttention-2 backend for FP8 KV cache") or the GPU is older than
//     sm_80 ("... for Volta and Turing GPUs"): then XFORMERS, whose decode is PagedAttention.forward_decode;
//   AMD (rocm_flash_attn.py): the custom ROCm kernel (vllm#8310, one block per KV head and its query group) unless
//     `_use_rocm_custom_paged_attention` refuses the shape (GQA ratio > 16, head size not 64 / 128); its
//     max_seq_len <= 32768 bound is a per-step condition not modelled here.
// MLA models decode through their own backends (1). V1 (v0.8 and later), other engines: 1.
double decode_kv_reads(const ServeRequest& r, const Model& m, const Hardware& hw, int tp);
SpeedTable shipped_speed_table();
// SGLang releases before v0.4.6 (a stated version; a row that names none is the current release) serving an MLA +
// routed-MoE model (DeepSeek-V3/R1): the build-era per-layer latency kEarlyMlaMoeLayerUs applies (0 otherwise)
double early_mla_moe_layer_us(const ServeRequest& r, const Model& m);

// Fixed latency of one MoE layer's kernel chain beyond its weight reads, measured, not fitted on serving rows:
// vLLM's benchmarks/kernels/benchmark_moe.py on H100 for Qwen3-30B-A3B FP8 TP1 (vllm-project/vllm#24700, "main"
// column) takes 44.5 / 59.9 / 90.5 / 129.8 / 185.4 / 238.4 / 262.7 / 273.7 us at batch 1 / 2 / 4 / 8 / 16 / 32 / 64 /
// 128, while reading the experts those tokens touch at this model's bandwidth rule takes 14.4 / 27.8 / 52.3 / 92.7 /
// 148.1 / 200.8 / 226.3 / 229.9 us: 30 to 44 us more at every batch (35 us at the median). Mixtral BF16 TP2 in the
// same PR runs within 10 % of the bandwidth rule from batch 2 up, so this is a floor rather than an efficiency
constexpr double kMoeLayerFixedUs = 35.0;

// Early SGLang builds of DeepSeek-V3/R1 (before v0.4.6, the release that switched Hopper to DeepGEMM and the FA3 MLA
// backend: sgl-project/sglang#5628) decode far slower than their kernels' weight reads and the terms above: a fixed
// latency per layer of the model (MLA attention + routed MoE) on every step, whatever the batch. Not fitted on
// serving.jsonl (it has no such build: its DeepSeek-V3 rows name no version) nor on the held-out files; set from the
// one published measurement of that era found, SGLang's own v0.4.1.post2 release note (sgl-project/sglang#2643,
// 2024-12-29: DeepSeek-V3, --tp 8, "batch 1 / 8 / 32, input 128, output 256: 30.29 / 206.32 / 760.52 token/s" =
// 33.0 / 38.8 / 42.1 ms a step; its GPU is not stated there, H200 assumed: sgl-project/sglang#2591, the same week,
// tunes the fused MoE for NVIDIA_H200). This model without the term says 14.6 / 19.1 / 28.9 ms on 8x H200: 18.4 /
// 19.7 / 13.2 ms missing, 17.1 ms on average over 61 layers = 280 us a layer. What the time is (unfused MLA decode
// kernels, untuned block-FP8 fused MoE, the scheduler) is not broken down by the source; held out: dstack's SGLang
// v0.4.2 (MI300X) and v0.4.3 (H200) DeepSeek-R1 runs (assets/calibration/serving_large_heldout.jsonl)
constexpr double kEarlyMlaMoeLayerUs = 280.0;

// SGLang's front end: the HTTP server and the TokenizerManager share one process and one asyncio loop
// (python/sglang/srt/managers/tokenizer_manager.py: TokenizerManager.generate_request -> _tokenize_one_request ->
// _send_one_request, one request after another; the scheduler only sees a request once it has been sent over ZMQ),
// so requests that arrive together reach the scheduler one at a time. Its service time per request, measured, not
// fitted: sgl-project/sglang#9382 (2025-08-20, "[Performance] Dynamic Batch Tokenizer") saturates that one process at
// 500 requests/s of 500-token prompts (Qwen3-Embedding-0.6B: P99 latency 4,583 ms before the PR's batching), i.e.
// 2.0 ms a request at 500 tokens; of that the tokenizer's encode is 0.59 us a token (sgl-project/sglang#25265,
// 2026-05-14: an 80k-token text in 47 ms with a native encode), the rest (1.7 ms) per request. Used for every SGLang
// release (the TokenizerManager has been one process since v0.1); not for multi-turn / prefix-pool workloads
constexpr double kSglangFrontendRequestS = 2.0e-3 - 500 * 0.59e-6;
constexpr double kSglangFrontendTokenS = 0.59e-6;

// The routed experts' grouped GEMM (fused_moe Triton kernel, CUTLASS grouped GEMM) runs far below the dense matmul
// rate when the experts are small: each (expert, tile) does only K / BLOCK_K steps and re-reads its gathered token
// rows once per N tile, so a small expert's tiles are latency- and operand-bound rather than tensor-bound. Law:
// efficiency = kMoeGemmEff x P / (P + kMoeGemmHalfParams), P = one expert's gate+up+down parameters on one GPU in
// one layer, applied to the rows after padding each expert to block_m. Fitted (scripts/calibration/fit_moe_gemm.py)
// on benchmark_moe.py kernel times from vllm-project/vllm#24700 on H100: Qwen3-30B-A3B FP8 TP1 (P = 4.7 M, factor
// 0.17; 912 us measured at batch 2048, 907 us by this law, 248 us by the old n/(n+16) rule) and Mixtral-8x7B BF16
// TP2 (P = 88 M, factor 0.79). Held out: SGLang#6825 A100 BF16 and SGLang#11730 H200 FP8 (small batches, weight-read
// bound) 3.3 % / 16 % MdAPE; vllm#53710 L40S FP8 fits to batch 512 but is 1.3-2.6x too slow at 1024-8192 (Ada's
// small-expert GEMM reaches 33 % of its FP8 peak, Hopper's 11 %: the law is Hopper-fitted). Why small experts are
// slow is this law's reading, not measured per tile: the fit only says how far below the tensor rate they run
constexpr double kMoeGemmEff = 0.67;
constexpr double kMoeGemmHalfParams = 23.5e6;

// Block-FP8 linears (DeepSeek-V3/R1's FP8 checkpoints: weight_block_size [128, 128], run by vLLM's Triton
// w8a8_block_fp8_matmul and its kin) are grid-starved at decode batches: one CTA per 128 output columns (per 64 rows
// of M), so a narrow linear streams its weights from a few SMs, plus a fixed kernel latency. Law per linear:
// t = kBlockFp8LaunchUs + bytes / min(bandwidth, CTAs x kBlockFp8CtaGbs), CTAs = ceil(N / 128) x ceil(M / 64), N its
// output width on one GPU. Fitted on two measured kernel times: vllm-project/vllm#23280 (H100, DeepSeek-V3 N=2112
// K=7168, Triton block FP8 1.298 TFLOP/s at batch 1 = 23.3 us for 15.1 MB on 17 CTAs) and sgl-project/sglang#5820
// ("vllm" column, DeepSeek-V3 N=3072 K=1536, 14.5 us at batch 1 for 4.7 MB on 24 CTAs; its GPU is not stated in the
// excerpt read); the third shape there (N=512 K=7168, 20.6 us) comes out 23.6 us (+15 %). The roofline already
// charges bytes / bandwidth, so a step adds the difference (step_time)
constexpr double kBlockFp8LaunchUs = 12.0;
constexpr double kBlockFp8CtaGbs = 79.0;
// ... and at prefill sizes they stay far below the FP8 tensor rate: the same PR's table (H100, N=2112 K=7168) has
// the Triton block-FP8 GEMM at 403-407 TFLOP/s for batch 4096-16384, 0.205 of the 1979 TFLOPS FP8 peak (CUTLASS's
// block FP8 457-490, torch BF16 648-716). The dense (non-expert) matmuls of a block-FP8 model run at most at this
// share of the FP8 rate
constexpr double kBlockFp8ComputeShare = 0.205;

// [SECTION] Shape of one replica -------------------------------------------------------------------------

// one block-FP8 linear of the model on one GPU: output width, weight bytes, and on how many layers of the stage
struct BlockLinear { double n = 0, bytes = 0; int layers = 0; };

// every per-GPU quantity the memory plan and the step time need, for one request (one TP x PP replica)
struct ReplicaShape {
    const Model* model = nullptr;
    const Hardware* hw = nullptr;
    EngineId engine = EngineId::Vllm;
    int tp = 1, pp = 1, replicas = 1;
    int layers_stage = 0;                 // layers on the busiest PP stage
    double weight_bytes_gpu = 0;          // busiest GPU
    double dense_read_bytes_gpu = 0;      // weights read every step except routed experts (per GPU, one stage)
    double expert_bytes_gpu = 0;          // routed-expert bytes per GPU (one stage)
    int n_experts = 0, k_experts = 0;
    int moe_layers_stage = 0;             // layers with a routed-expert FFN on the busiest stage
    int ep = 1;                           // expert-parallel ranks (1 = experts sharded over TP); = tp when on
    int local_experts = 0;                // experts on the busiest EP rank: ceil(E / ep) (vLLM determine_expert_map)
    double active_params_gpu = 0;         // matmul parameters per token per GPU (one stage)
    double expert_active_params_gpu = 0;  // of which routed-expert parameters (k experts per token), TP-sharded
    double expert_params_one = 0;         // one whole routed expert's parameters (one stage; EP ranks hold whole experts)
    double kv_bytes_token_gpu = 0;        // K + V per cached token, per GPU (its stage's attention layers)
    double attn_flops_token_ctx = 0;      // attention FLOPs per (token x context token) per GPU (one stage): prefill
    double attn_flops_decode_ctx = 0;     // the same for a decode: MLA decodes run absorbed over the latent (> prefill's)
    double hidden = 0, vocab = 0, inter_gpu = 0, expert_inter_gpu = 0;
    double bw_gbs = 0;                    // per GPU
    double tflops = 0;                    // dense tensor TFLOPS at the compute precision
    double attn_tflops = 0;               // attention's rate: FP16, or FP8 with an FP8 KV cache where the cores have it
    double link_gbs = 0;                  // per-direction GPU-to-GPU
    double link_latency_us = 0;
    bool crosses_network = false;         // some collective or hand-off crosses a node boundary (serve_network.h)
    bool tp_net = false;                  // the TP group spans nodes: every all-reduce goes over tp_link
    NetLink tp_link;
    int pp_net_hops = 0;                  // PP stage boundaries that cross nodes (over pp_link; the rest in-node)
    NetLink pp_link;
    std::string net_explain;              // the fabric and what it gives (describe_link), empty in one node
    int kv_elem_bytes = 2;
    double weight_bytes_per_param = 2;    // linear layers
    int lora_slots = 0;                   // vLLM max_loras (0 = LoRA off)
    double lora_slot_bytes_gpu = 0;       // one slot's A + B buffers per GPU (one stage), lora_dtype = 2 bytes
    std::vector<BlockLinear> block_fp8;   // block-FP8 linears (MLA models at fp8: DeepSeek's checkpoints), empty otherwise
    double layer_floor_us = 0;            // build-era fixed latency per layer (kEarlyMlaMoeLayerUs), 0 for current builds
    double decode_kv_reads = 1;           // reads of each cached KV byte per decode step (decode_kv_reads())
};

// what plan_memory hands an engine's KV-pool rule (engines.h KvPoolPlan)
struct PoolInputs {
    double total_bytes = 0;    // the GPU's memory as the engine sees it (cudaMemGetInfo total)
    double act_bytes = 0;      // the profile run's activation peak at `tokens` / `seqs`
    int seqs = 0, tokens = 0;  // max_num_seqs / max_num_batched_tokens (the request's, else the engine's defaults)
    int block = 1;             // KV block size in tokens
};

// each engine's hooks (engines.h): its KV-pool rule (serve_memory.cpp) and its command line (serve.cpp)
namespace vllm { KvPoolPlan kv_pool; ServeCommand command_line; }
namespace sglang { KvPoolPlan kv_pool; ServeCommand command_line; }
namespace llamacpp { KvPoolPlan kv_pool; ServeCommand command_line; }
namespace trtllm { KvPoolPlan kv_pool; ServeCommand command_line; }
namespace lmdeploy { KvPoolPlan kv_pool; ServeCommand command_line; }
namespace mlx { KvPoolPlan kv_pool; ServeCommand command_line; }      // refuses: serve() does not model mlx_lm.server
// why serve() refuses the MLX row (serve_mlx.cpp)
const char* mlx_no_serving_model();

// [SECTION] Functions ------------------------------------------------------------------------------------

// resolves model, hardware, precision and parallelism; false + err naming the field. `counts`: the model's
// parameter counts when the caller has them (a search asks for one model hundreds of times; counting enumerates
// every tensor)
bool build_shape(const Catalog& cat, const ServeRequest& req, ReplicaShape& out, std::string& err,
                 const ParamCounts* counts = nullptr);
// the engine's memory plan for the shape (rules cite the engine's source)
bool plan_memory(const Catalog& cat, const ServeRequest& req, const ReplicaShape& s, ServeMemoryPlan& out,
                 std::string& err);
// default max_num_seqs / max_num_batched_tokens of the engine for this GPU (its row's BatchDefaults)
// SGLang v0.5.3+ (or none named): chunked_prefill_size, cuda_graph_max_bs and mem_fraction_static from the GPU's
// memory (serve_memory.cpp, server_args.py _handle_gpu_memory_settings, sgl-project/sglang#10975)
struct SglangMemoryDefaults { int chunked_prefill_size = 8192; int cuda_graph_max_bs = 256; double mem_fraction_static = 0.88; };
bool sglang_memory_heuristics(const ServeRequest& req, const ReplicaShape& s);
SglangMemoryDefaults sglang_memory_defaults(const ReplicaShape& s);
int default_max_num_seqs(EngineId e, const ReplicaShape& s);
int default_max_batched_tokens(EngineId e, const ReplicaShape& s);
// what the server runs with: the request's flag, else vLLM V0's rules (MLA: vllm_v0_mla_batched_tokens; other
// models: vllm_v0_dense_chunked; 256 sequences), else the engine's default
int effective_max_num_seqs(const ServeRequest& req, const ReplicaShape& s);
int effective_max_batched_tokens(const ServeRequest& req, const ReplicaShape& s);
// vLLM before v0.8 with an MLA model: chunked prefill forced off, max_num_batched_tokens = max(max_model_len, 2048)
// (serve_memory.cpp cites it); 0 when the rule does not apply
bool vllm_v0_mla(const ServeRequest& req, const ReplicaShape& s);
int vllm_v0_mla_batched_tokens(const ServeRequest& req, const ReplicaShape& s);
// vLLM before v0.8 with a model without MLA: chunked prefill on (1) only when max_model_len > 32768 (no sliding window,
// LoRA or prefix caching), off (0) otherwise; -1 when the rule does not apply (serve_memory.cpp cites it)
int vllm_v0_dense_chunked(const ServeRequest& req, const ReplicaShape& s);
// the pool in blocks and tokens from `kv_pool` bytes, the memory plan's first and last rules: the tail of every
// block-pooled engine's KV-pool rule
bool finish_pool(const ServeRequest& req, const ReplicaShape& s, double kv_pool, int block, ServeMemoryPlan& out);

// what the routed experts of one MoE step cost on the busiest GPU (serve_step.cpp): bytes read and FLOPs at the
// grouped GEMM's efficiency, for `mb` tokens per stage
struct ExpertStep { double read_bytes = 0, compute_s = 0, touched = 0, tokens_per_expert = 0; };
ExpertStep expert_step(const ReplicaShape& s, const EngineSpeed& p, double mb);
// share of the tensor rate a grouped GEMM of experts with `params_per_expert_gpu` parameters each reaches
double moe_gemm_efficiency(double params_per_expert_gpu);
// fused_moe's BLOCK_SIZE_M without a tuned config: 16 while the tokens do not outnumber the experts (M <= E), else 64
// (vllm-project/vllm@13cb3e44:vllm/model_executor/layers/fused_moe/fused_moe.py get_default_config; block-FP8
// checkpoints always 64; the config SGLang#6825 logs: 'BLOCK_SIZE_M': 16 up to batch 96 of E = 128)
int moe_block_m(double tokens, int experts);
// rows one touched expert occupies after moe_align_block_size pads it to block_m: at least one block, else its
// tokens plus half a block on average
double moe_padded_rows(double tokens_per_expert, int block_m);
// E[max of n iid standard normals] (n >= 1): the busiest of n EP ranks sits this many sigmas above the mean
double expected_max_normal(int n);

// the block-FP8 linears' grid-starved time beyond their weight reads, for mb tokens per stage (kBlockFp8LaunchUs)
double block_fp8_extra_s(const ReplicaShape& s, const EngineSpeed& p, double mb);

// one step of `n_decode` sequences whose depths sum to `sum_depth`, plus `prefill_tokens` chunk tokens at
// `prefill_depth` cached tokens; O(1)
double step_time(const ReplicaShape& s, const EngineSpeed& p, int n_decode, double sum_depth, int64_t prefill_tokens,
                 double prefill_depth, StepBreakdown* out);

// llama-server's --slot-prompt-similarity: a request goes to the idle slot whose cached prompt covers more than this
// share of it, else to the least recently used idle slot (tools/server get_available_slot; 0.1 in current builds,
// 0.5 before)
constexpr double kLlamaSlotPromptSimilarity = 0.1;

struct LoadSetup {                       // what the simulation needs besides the shape
    int max_num_seqs = 256;
    int max_batched_tokens = 8192;
    int64_t pool_blocks = 0;
    int block_size = 16;
    int64_t max_model_len = 0;
    bool reserve_output = false;         // admission reserves the whole output too (TensorRT-LLM GUARANTEED_NO_EVICT)
    bool admission_holdback = true;      // admission keeps the blocks running prompts still need + a 1 % watermark
    // a step with prompt work runs prompts only; decodes wait for a step without any (SGLang's get_next_batch_to_run
    // "Run prefill first if possible"; vLLM V0 _schedule_default "Don't schedule decodes if prefills are scheduled").
    // false: vLLM V1's order, decodes first and prompt chunks in the same step (load_setup says which engine runs which)
    bool prefill_first = false;
    // SGLang's overlap scheduler (Scheduler.event_loop_overlap, on by default from v0.4.0; --disable-overlap-schedule):
    // the CPU forms batch k+1 while the GPU runs batch k, so a request that arrives during step k first runs in step
    // k+2 when the server is busy (at once when it is idle)
    bool overlap_schedule = false;
    // the engine's front end (kSglangFrontendRequestS): one server, first come first served, between the client and the
    // scheduler; each request takes frontend_request_s + frontend_token_s x its prompt tokens there. TTFT counts from
    // the client's send. 0 = the scheduler sees a request when it is sent
    double frontend_request_s = 0, frontend_token_s = 0;
    // prefix caching (serve_prefix_cache.h): the engine's cache, when the workload shares prefixes; offload tiers in
    // tokens per replica and the seconds one token of KV takes to load from each
    PrefixCacheKind prefix_cache = PrefixCacheKind::None;
    int64_t cpu_tier_tokens = 0, nvme_tier_tokens = 0;
    double cpu_load_s_per_token = 0, nvme_load_s_per_token = 0;
    // disaggregation (serve_disagg.cpp): a prefill instance stops each request at its first token (the proxy sends it
    // max_tokens = 1); a decode instance receives each prompt's KV and recomputes only its last token (vLLM
    // Scheduler._update_waiting_for_remote_kv: num_computed_tokens == num_tokens -> one less)
    bool prefill_only = false;
    bool kv_arrives = false;
    // open loop / burst: request i reaches this instance arrival_delay_s[i % size] later than drawn (a decode instance:
    // its prompt's prefill pool latency + transfer); null = none. Requests then run in arrival order
    const std::vector<double>* arrival_delay_s = nullptr;
    // the replicas the load divides over (serve_with). A staged ladder (ServeWorkload::rate_stages) is drawn for the
    // whole deployment and each request lands on the simulated replica with probability 1 / replicas: a Kubernetes
    // Service in kube-proxy's default iptables mode picks a ready endpoint at random for each connection
    int replicas = 1;
};
// what one simulated replica did per request (index = request order), for the disaggregated pools' pairing
struct LoadTrace {
    std::vector<double> ttft_s;          // arrival to first token, completed requests in drawing order
    std::vector<int64_t> input_tokens;   // their prompt lengths
    std::vector<double> e2e_s;           // arrival to last token
    double prefill_tokens_per_step = 0;  // mean prompt tokens in the steps that computed any
    double lead_s = 0;                   // with arrival delays: the first arrival here less the first drawn arrival
};
// prefix caching (serve_prefix.cpp): the new request keys checked (false + err naming the key); the load setup's
// cache and tiers with the report's static figures; the report's lines after the run; the command line's flags
bool validate_prefix_request(const ServeRequest& req, std::string& err);
void setup_prefix(const ServeRequest& req, const ReplicaShape& s, const EngineSpeed& p, const ServeMemoryPlan& m, LoadSetup& st,
                  ServePrefixReport& rep);
void explain_prefix(const ServeRequest& req, const ServeLoad& l, ServePrefixReport& rep);
void prefix_command(const ServeRequest& req, EngineId e, std::string& env, std::string& flags);

// continuous batching for one replica: the workload's share of the load (concurrency / rate / prompts divided
// over replicas by the caller)
ServeLoad simulate_load(const ReplicaShape& s, const EngineSpeed& p, const LoadSetup& setup, const ServeWorkload& w,
                        StepBreakdown* typical, LoadTrace* trace = nullptr);
// what serve_with sets up for a shape: the engine's speed row, the simulation's limits from the memory plan
const EngineSpeed& engine_speed(const ServeRequest& req, const ReplicaShape& s, const SpeedTable& table);
LoadSetup load_setup(const ServeRequest& req, const ReplicaShape& s, const ServeMemoryPlan& m);
// serve() of a disaggregated request (serve_disagg.cpp): both pools' memory plans and simulations, the transfer
ServeResult serve_disaggregated(const Catalog& cat, const ServeRequest& req, const SpeedTable& table, const ParamCounts* counts);
// the same GPUs aggregated (decode_tp instances doing both phases) at the same load: r.disagg's comparison (serve())
void compare_aggregated(const Catalog& cat, const ServeRequest& req, ServeResult& r);
// the two requests a disaggregated request runs as: each pool alone, aggregated, at its GPUs and TP
ServeRequest prefill_pool_request(const ServeRequest& req);
ServeRequest decode_pool_request(const ServeRequest& req);
// false + err naming the field when the disaggregation block is impossible (counts, TP, link)
bool validate_disaggregation(const ServeRequest& req, std::string& err);

// what a predict serving line (and a calibration row) leaves unset: a cap on the simulated requests (the
// steady state comes earlier) and max_model_len from the workload
void apply_predict_defaults(ServeRequest& r);

// $ and Wh per 1M output tokens at `tok_s` (batched) and `single_tok_s` for `gpus` GPUs of the shape's device
// extra_hardware_usd: bought with the GPUs (a CPU tier's DRAM), in the owner's price only
void fill_cost(const ReplicaShape& s, int gpus, double tok_s, double single_tok_s, ServeCost& c, double extra_hardware_usd = 0);

// the network term of a step, one line per part (explain_network, ServeResult::network)
std::vector<std::string> network_lines(const ReplicaShape& s, int gpus_per_node, const StepBreakdown& st);

// serve() with an explicit speed table (the fit and the leave-one-source-out report use it)
ServeResult serve_with(const Catalog& cat, const ServeRequest& req, const SpeedTable& table, const ParamCounts* counts = nullptr);

}  // namespace llmsim::serving
