// llmsim catalog: the models, hardware devices and quantization types every prediction is made from.
//
// The catalog is JSON (assets/catalog/*.json, schema in assets/catalog/SCHEMA.md), embedded in every build.
// The engine never throws across its API: loaders return false and fill `err` with a message a user can act on.
//
//   llmsim::Catalog cat;
//   std::string err;
//   if (!llmsim::load_embedded_catalog(cat, err)) { fprintf(stderr, "%s\n", err.c_str()); return 2; }
//   const llmsim::Model* m = cat.find_model("Qwen/Qwen2.5-7B-Instruct");
//
// [SECTION] Model architecture
// [SECTION] Hardware
// [SECTION] Quantization types
// [SECTION] Catalog
#pragma once
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "catalog/chip_family.h"
#include "core/units.h"

namespace llmsim {

// [SECTION] Model architecture ---------------------------------------------------------------------------
// Field names follow Hugging Face config.json where one exists; sizes are element counts, not bytes.

struct MoeConfig {
    int n_experts = 0;             // routed experts per MoE layer (HF num_local_experts / num_experts / n_routed_experts)
    int n_experts_active = 0;      // routed experts per token (num_experts_per_tok)
    int n_shared_experts = 0;      // always-on experts (DeepSeek n_shared_experts; Qwen2-MoE shared expert = 1)
    int64_t expert_ffn = 0;        // FFN width of one routed expert (moe_intermediate_size)
    int64_t shared_ffn = 0;        // FFN width of one shared expert (0 = same as expert_ffn)
    int first_dense_layers = 0;    // leading layers with a dense FFN (DeepSeek first_k_dense_replace)
    int layer_step = 1;            // every layer_step-th layer is MoE, others dense (Llama-4 Maverick interleave 2)
    bool router_bias = false;      // expert-score correction bias per expert (DeepSeek-V3, gpt-oss router bias)
};

struct MlaConfig {                 // DeepSeek multi-head latent attention
    int q_lora_rank = 0;           // 0 = no low-rank query projection (DeepSeek-V2-Lite)
    int kv_lora_rank = 0;
    int qk_rope_head_dim = 0;
    int qk_nope_head_dim = 0;
    int v_head_dim = 0;
};

struct SlidingWindow {
    int64_t window = 0;            // tokens a sliding-window layer attends to
    int pattern = 0;               // every pattern-th layer is full attention, the others sliding (Gemma 2: 2, Gemma 3: 6);
                                   // 1 = all layers sliding (Mistral-7B v0.1); 0 = use `sliding_layers`
    std::vector<int> sliding_layers; // explicit list of sliding layers when pattern == 0
    bool is_sliding(int layer, int n_layers) const;
};

struct HybridConfig {              // recurrent / state-space layers mixed with attention (Jamba, Qwen3-Next, ...)
    std::string recurrent_type;    // "mamba", "mamba2", "gated_deltanet", ...
    std::vector<int> attention_layers;  // layers that have a KV cache; all others are recurrent
    int64_t ssm_state_bytes_per_layer = 0; // recurrent state per sequence per layer, f32, as llama.cpp sizes it
    int64_t recurrent_layer_params = 0;    // parameters of one recurrent mixer (replaces the attention block)
};

struct OllamaTag {                 // an Ollama library tag that pulls this model (models.json "ollama_tags")
    std::string tag;               // "qwen2.5:7b", "llama3.1" (no size: the library's :latest)
    std::string file_type;         // the file type the tag pulls: "Q4_K_M", "MXFP4_MOE"
    std::vector<std::string> variants;  // middle words a cited longer spelling carries: "instruct" (8b-instruct-q8_0)
    std::string source;            // the pages that name the tag and its quant
    bool only_file_type = false;   // the library has no other quant of it (gpt-oss: "currently no other quantization")
};

struct QualityScore {               // a published benchmark result (models.json "quality"; scripts/catalog/quality_scores.json)
    std::string benchmark;         // a quality_benchmarks id: "open-llm-leaderboard-v2", "aider-polyglot"
    std::vector<std::pair<std::string, double>> scores;   // metric -> score on that benchmark's 0-100 scale
    std::string date;              // when the score was read or run: "2025-05-09"
    std::string source;            // the row it was read from (URL, or the benchmark file's row)
    std::string note;              // why this row (duplicates, API vs weights), "" when none
    // the score for a metric, or nullptr when this row has none
    const double* score(const std::string& metric) const;
};

struct Model {
    std::string id;                // Hugging Face id, the key users type: "Qwen/Qwen2.5-7B-Instruct"
    std::string name;              // display name: "Qwen2.5 7B Instruct"
    std::string family;            // "Qwen2.5"
    std::string license;           // SPDX-like short form: "Apache-2.0", "Llama-3.1 Community", ...
    std::string arch;              // llama.cpp architecture name: llama, qwen2, qwen3moe, gemma2, deepseek2, gpt-oss, ...
    int n_layers = 0;              // num_hidden_layers
    int64_t hidden_size = 0;
    int64_t intermediate_size = 0; // dense FFN width (0 when every layer is MoE)
    int n_heads = 0;               // num_attention_heads
    int n_kv_heads = 0;            // num_key_value_heads
    int head_dim = 0;              // per-head size for Q and K (and V unless head_dim_v is set)
    int head_dim_v = 0;            // 0 = head_dim
    int64_t vocab_size = 0;
    bool tie_embeddings = false;
    bool qkv_bias = false;
    bool qk_norm = false;
    bool gated_ffn = true;         // SwiGLU/GeGLU gate+up+down (3 matrices); false = up+down (2 matrices)
    int64_t native_context = 0;    // tokens the model was trained for without user-added RoPE scaling
    int64_t extended_context = 0;  // tokens with the model card's RoPE extension (YaRN ...); 0 = none
    std::string rope_scaling;      // "yarn", "llama3", "longrope", "" ...
    std::optional<MoeConfig> moe;
    std::optional<MlaConfig> mla;
    std::optional<SlidingWindow> swa;
    std::optional<HybridConfig> hybrid;
    int nextn_layers = 0;          // NextN / MTP layers beside n_layers (num_nextn_predict_layers); not in the params
    double published_params_b = 0; // total parameters in billions as the model card states (0 = none published)
    double published_active_params_b = 0;
    double api_price_in_usd_per_mtok = -1;  // serverless API, cheapest listed provider; -1 = none
    double api_price_out_usd_per_mtok = -1;
    std::string api_price_source;
    std::string api_price_provider;         // "DeepInfra" ...
    std::string api_price_date;             // "2025-11-16"
    // the format the authors publish the weights in, and the catalog file type that matches it (the page opens
    // at that one); all empty when the catalog does not record it (models.json "release_format")
    std::string release_weights;            // "MXFP4", "FP8", "BF16" ...
    std::string release_file_type;          // "MXFP4_MOE", "Q8_0" ... (a quants.json file type)
    std::string release_source;
    std::vector<std::string> sources;
    std::vector<std::string> notes;
    std::vector<OllamaTag> ollama_tags;     // the names resolve_model_name (catalog/model_names.h) accepts for it
    std::vector<QualityScore> quality;      // published benchmark scores (none: "no published score")

    bool is_moe() const { return moe.has_value() && moe->n_experts > 0; }
    int kv_head_dim_v() const { return head_dim_v > 0 ? head_dim_v : head_dim; }
};

// [SECTION] Hardware -------------------------------------------------------------------------------------

enum class HardwareKind { Consumer, Workstation, Datacenter, Apple, Apu, Cpu };
enum class Backend { Cuda, Rocm, Metal, Vulkan, Sycl, Cpu };

struct RigDevice;                      // one device of a mixed rig or an RPC host (defined below Hardware; rig/rig.h)

struct Hardware {
    std::string id;                    // stable key, lower-case: "rtx-4090", "m4-max-128", "2x-rtx-3090"
    std::string name;                  // "NVIDIA GeForce RTX 4090"
    std::string vendor;                // "nvidia", "amd", "apple", "intel"
    HardwareKind kind = HardwareKind::Consumer;
    // the silicon generation (hardware.json chip_family, catalog/chip_family.h); Count = not stated: the speed
    // model takes the class row (class_chip_family). Catalog devices always state it; other builders set it.
    ChipFamily chip_family = ChipFamily::Count;
    std::vector<Backend> backends;     // first = the default llama.cpp backend for this device
    int gpu_count = 1;                 // devices in a rig; memory and bandwidth below are per GPU
    std::string link;                  // rigs: "pcie4-x16", "nvlink" ...
    double link_gbs = 0;               // per-direction GPU-to-GPU bandwidth, GB/s (rigs)
    bool link_assumed = false;         // link / link_gbs are a default (gpu_combos.h: PCIe 4.0 x16), not stated
    int64_t memory_bytes = 0;          // per GPU, as the driver/OS reports it (H200: 143,771 MiB)
    double bandwidth_gbs = 0;          // per GPU, vendor spec, decimal GB/s
    std::string memory_kind;           // "gddr", "hbm" or "unified" (LPDDR/DDR shared with the CPU); "" = guessed
    double fp16_tflops = 0;            // dense FP16 tensor TFLOPS (GeForce: FP16 accumulate; see fp16_tflops_basis)
    std::string fp16_tflops_basis;
    bool fp16_tflops_estimated = false;
    double int8_tops = 0;              // dense INT8 tensor TOPS, 0 = unknown
    double tdp_w = 0;
    int sm_count = 0;                  // NVIDIA streaming multiprocessors per GPU, 0 = not stated (speed: decode's per-SM read limit)
    int cpu_cores = 0;                 // a CPU: physical cores, 0 = not stated (speed: the CPU backend's FLOP/s)
    double boost_clock_mhz = 0;        // vendor boost clock, MHz, 0 = not stated (a CPU: the clock its cores run at)
    int cpu_core_flops_per_clk = 0;    // a CPU: FP32 FLOP per clock of one core = SIMD lanes x 2 (FMA) x FMA pipes
                                       // (hardware.json cpu_simd_bits / 32 x 2 x cpu_fma_pipes); 0 = not stated
    double price_usd = 0;              // new, 0 = not sold new
    double price_used_usd = 0;         // used market, 0 = not tracked
    double cloud_usd_per_hour = 0;     // cheapest sourced on-demand price per GPU, 0 = not rentable
    // Usable-memory rules (see memory.h usable_memory):
    int64_t gpu_limit_default_bytes = 0;  // Apple: recommendedMaxWorkingSetSize default; AMD APU: default GTT/carve-out limit
    int64_t gpu_limit_max_bytes = 0;      // Apple: with iogpu.wired_limit_mb raised; APU: max allocatable
    int64_t system_ram_bytes = 0;      // host RAM for offload (unified devices: the same pool)
    double system_ram_bandwidth_gbs = 0;
    std::vector<std::string> seed_aliases;  // names the seed pages use
    std::vector<std::string> calibration_names;  // names benchmark/calibration rows use for this device
    std::vector<std::string> tool_names;   // names nvidia-smi / rocm-smi / llama.cpp print that the name rule misses ("NVIDIA GB10")
    std::string memory_basis;          // how memory_bytes was measured ("nvidia-smi total")
    std::string price_source;
    std::string cloud_source;
    std::vector<std::string> sources;
    std::vector<std::string> notes;
    // mixed rigs and llama.cpp RPC (rig/rig.h): every device in llama.cpp's device order (RPC servers first, then
    // the local GPUs); empty = gpu_count identical GPUs described by the fields above
    std::vector<RigDevice> rig;

    bool unified_memory() const { return kind == HardwareKind::Apple || kind == HardwareKind::Apu; }
};

struct RigDevice {
    Hardware hw;                       // the catalog device (gpu_count 1)
    std::string llama_name;            // the device name llama.cpp prints: "CUDA0", "Vulkan1", "RPC0", "Metal"
    int host = 0;                      // 0 = the machine llama-server runs on; k >= 1 = RPC server k
    std::string host_label;            // RPC: the spec part that named the host ("m2-ultra-192@10gbe")
    std::string net_link;              // RPC: the network link id to the local host ("10gbe"), "" locally
    double net_gbs = 0;                // RPC: payload GB/s per direction of that link
    double net_latency_us = 0;         // RPC: one request-response round trip over that link, microseconds
};

// [SECTION] Quantization types ---------------------------------------------------------------------------

struct GgmlType {                  // one row of ggml's type_traits[]
    std::string name;              // "Q4_K"
    int id = -1;                   // enum ggml_type value (GGUF tensor type id)
    int block_size = 1;            // weights per block
    int type_size = 0;             // bytes per block
    double bits_per_weight() const { return 8.0 * type_size / block_size; }
    // bytes of a row of n weights: llama.cpp's ggml_row_size (n must be a multiple of block_size)
    uint64_t row_bytes(uint64_t n) const { return (uint64_t)type_size * (n / (uint64_t)block_size); }
};

struct FileType {                  // a llama.cpp file type (llama_ftype) or a non-GGUF format
    std::string name;              // "Q4_K_M", "MLX_4BIT", "FP8"
    std::vector<std::string> aliases;  // other names users type ("FP16" for F16)
    int ftype_id = -1;             // LLAMA_FTYPE_* value, -1 for non-GGUF formats
    bool gguf = true;
    std::string base_type;         // default tensor type (ggml type name) for the bulk of weights
    double flat_bpw = 0;           // non-GGUF formats: effective bits per weight incl. scales
    std::string quality_label;     // "Lossless Reference" ... "Aggressive Compression"
    double kld = -1;               // mean KL divergence vs FP16 (published table), -1 = unknown
    double ppl_delta_pct = -1;     // perplexity increase vs FP16 in %, -1 = unknown
    std::string quality_source;
    bool common = false;           // in the seed's eight-row table
    std::vector<std::string> sources;
};

// [SECTION] Quality benchmarks --------------------------------------------------------------------------

struct QualityBenchmark {              // models.json "quality_benchmarks": one leaderboard, its version and where it was read
    std::string id;                    // "open-llm-leaderboard-v2"
    std::string name;                  // "Open LLM Leaderboard v2"
    std::string version;               // the tasks, harness and scale the scores come from
    std::string url;                   // the leaderboard's page
    std::string date;                  // the snapshot's date
    std::string source;                // the file the scores were read from (repo@commit:path or URL)
    std::string caveat;                // what the scores do not say ("" when none)
    std::vector<std::pair<std::string, std::string>> metrics;   // metric id -> what it measures
};

struct QualityTask {                   // models.json "quality_tasks": the one benchmark metric a task ranks by
    std::string task;                  // "coding", "chat", "reasoning", "general"
    std::string benchmark;             // a QualityBenchmark id
    std::string metric;                // one of its metrics
    std::string why;
};

// [SECTION] Catalog --------------------------------------------------------------------------------------

struct RigCache {                      // rigs resolve_device built from a rig id (rig/resolve_device.h); a deque keeps their addresses
    std::mutex mu;
    std::deque<Hardware> rigs;
    std::vector<std::pair<std::string, const Hardware*>> spellings;   // "2x rtx-3090 + rtx-3060-12gb" -> its rig
};

struct Catalog {
    std::vector<Model> models;
    std::vector<Hardware> hardware;
    std::vector<Hardware> combinations;   // 2x/4x/8x of single cards (gpu_combos.h); find_hardware accepts their ids
    std::vector<GgmlType> ggml_types;
    std::vector<FileType> file_types;
    std::vector<QualityBenchmark> quality_benchmarks;
    std::vector<QualityTask> quality_tasks;
    // rigs built from ids such as "rtx-5080+rtx-5060-ti-16gb" (rig/rig.h), kept so the pointers resolve_device returns
    // stay valid as long as the catalog (or a copy of it: copies share the cache)
    std::shared_ptr<RigCache> rig_cache = std::make_shared<RigCache>();

    // look up by exact id, then case-insensitively; nullptr when unknown
    // (find_model also accepts the part after the '/' when exactly one model has it;
    //  find_hardware also matches seed_aliases, calibration_names and tool_names, then combination ids such as "2x-arc-b580";
    //  it looks up catalog rows only: what a user types, rig ids such as "rtx-5080+rtx-5060-ti-16gb" included,
    //  goes through resolve_device (rig/resolve_device.h), which sits above the catalog)
    const Model* find_model(const std::string& id) const;
    // the catalog rows only (exact id, case-insensitive id, unique part after the '/'); find_model also accepts the
    // names catalog/model_names.h resolves whose file type is the model's default (a cited tag such as "qwen2.5:7b"):
    // a name that spells another quant ("llama3.1:8b-q8_0") goes through resolve_model_name, so it is never dropped
    const Model* find_model_id(const std::string& id) const;
    const Hardware* find_hardware(const std::string& id) const;
    const GgmlType* find_ggml_type(const std::string& name) const;
    const FileType* find_file_type(const std::string& name) const;
    // a quant name parsed at an input boundary: the file type row (the handle passed inward) or nullptr with err =
    // "<what>: unknown quant 'X' (valid: F32, F16, ...)"
    const FileType* resolve_file_type(const std::string& name, const std::string& what, std::string& err) const;
    // every file type name, comma-separated (error messages)
    std::string file_type_names() const;
    // look up by the numeric ids GGUF files carry (ggml_type, general.file_type); nullptr when unknown
    const GgmlType* find_ggml_type_id(int id) const;
    const FileType* find_file_type_id(int ftype_id) const;
    // the task's row ("coding") and its benchmark; nullptr when the task or benchmark is unknown
    const QualityTask* find_quality_task(const std::string& task) const;
    const QualityBenchmark* find_quality_benchmark(const std::string& id) const;
    // the task names, comma-separated ("general, chat, reasoning, coding": error messages)
    std::string quality_task_names() const;
};

// parse the three catalog JSON documents; returns false and fills err (naming file, entry and field) on bad input
bool parse_catalog(const std::string& models_json, const std::string& hardware_json, const std::string& quants_json,
                   Catalog& out, std::string& err);
// the file type a model opens at: its release format's file type when the catalog records one, else Q4_K_M
// (llama.cpp's `-hf` default: "quant is optional ... default to Q4_K_M", common/arg.cpp)
std::string default_file_type(const Model& m);
// load the catalog compiled into this binary
bool load_embedded_catalog(Catalog& out, std::string& err);
// the embedded catalog, parsed once (nullptr + err when it does not parse)
const Catalog* embedded_catalog(std::string* err = nullptr);

const char* to_string(HardwareKind k);  // "consumer", ... (the hardware.json spelling)
const char* to_string(Backend b);       // "cuda", ...
// parse the hardware.json spelling; nullopt when unknown
std::optional<HardwareKind> parse_hardware_kind(const std::string& s);
std::optional<Backend> parse_backend(const std::string& s);

}  // namespace llmsim
