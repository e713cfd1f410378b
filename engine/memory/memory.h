// llmsim memory model: does a model fit, and where does every byte go — weights, KV cache, compute buffers and
// runtime overhead per device, with llama.cpp's placement rules (-ngl, --n-cpu-moe, tensor split, -np).
//
// Exact where llama.cpp's arithmetic is exact (weights: per-tensor quant rules; KV cache: cells x row bytes),
// fitted where it is an allocator's high-water mark (compute buffers, within 10 % of llama.cpp's CPU numbers in
// assets/calibration/), named estimates where nothing was measured (CUDA/Metal/ROCm runtime overhead).
// Formulas, sources and deliberate differences from the seed pages: docs/memory-model.md.
//
//   llmsim::MemoryRequest req;
//   req.file_type = "Q4_K_M"; req.n_ctx = 32768; req.hardware = cat.find_hardware("rtx-4090");
//   llmsim::MemoryBreakdown mb;
//   std::string err;
//   if (!llmsim::estimate_memory(cat, *model, req, mb, err)) { fprintf(stderr, "%s\n", err.c_str()); }
//   // mb.total_bytes, mb.status, mb.max_context, mb.devices[i].{name, weights_bytes, ...}
//
// [SECTION] Constants (thresholds, reserves, runtime overheads)
// [SECTION] Request
// [SECTION] Result
// [SECTION] Functions
// [SECTION] Building blocks (formulas shared with the speed glue, the explanations and the test oracle)
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "catalog/catalog.h"
#include "quant/quant_rules.h"

namespace llmsim {

struct PreparedWeights;  // prepared_weights.h

// [SECTION] Constants ------------------------------------------------------------------------------------

// (kMiB, kGiB: units.h)

// Fit thresholds, as a fraction of usable memory on the fullest device:
//   total <= 0.90 x usable -> COMFORTABLE; total <= usable -> TIGHT (runs, little headroom for other apps,
//   fragmentation or a longer prompt); above -> TUNABLE_UMA / PARTIAL_OFFLOAD / OOM.
constexpr double kComfortableFraction = 0.90;

// KV cells are allocated in multiples of 256 (llama.cpp pads n_ctx and the SWA cache size to 256).
constexpr int64_t kKvCellPad = 256;

// Usable memory on a discrete GPU = reported total minus this reserve (user-editable via
// MemoryRequest::gpu_reserve_bytes). Estimate: display compositor, driver-internal allocations and allocator
// slack; desktop cards drive a display, datacenter cards do not.
constexpr uint64_t kGpuReserveDesktopBytes = 1 * kGiB;       // estimate (consumer / workstation)
constexpr uint64_t kGpuReserveDatacenterBytes = 512 * kMiB;  // estimate (datacenter)
// Host RAM kept for the OS and other programs when layers are offloaded to the CPU (estimate).
constexpr uint64_t kHostRamReserveBytes = 4 * kGiB;

// Runtime overhead per GPU, outside llama.cpp's own buffers.
// CUDA: context + cuBLAS workspace + kernel images; users report 300-500 MiB per GPU in nvidia-smi
// beyond llama.cpp's printed buffers (estimate, midpoint).
constexpr uint64_t kCudaRuntimeBytes = 400 * kMiB;
// ROCm/HIP: context + rocBLAS/hipBLASLt workspace; similar order as CUDA (estimate).
constexpr uint64_t kRocmRuntimeBytes = 400 * kMiB;
// Vulkan: device + pipeline objects, smaller than CUDA's context (estimate).
constexpr uint64_t kVulkanRuntimeBytes = 250 * kMiB;
// SYCL / Level Zero (estimate).
constexpr uint64_t kSyclRuntimeBytes = 400 * kMiB;
// Metal: command queues, pipeline library and residency sets inside the working set (estimate).
constexpr uint64_t kMetalRuntimeBytes = 150 * kMiB;
// Host process: llama.cpp binary, threads, tokenizer, ggml contexts for tensor metadata (estimate).
constexpr uint64_t kHostRuntimeBytes = 100 * kMiB;

// Apple / AMD APU limits when the catalog has none (estimates; the catalog's gpu_limit_* take precedence):
// macOS recommendedMaxWorkingSetSize is ~75 % of RAM (~67 % at <= 36 GiB); iogpu.wired_limit_mb can be
// raised to leave ~8 GiB for the OS. AMD APU: default GTT = 50 % of RAM; max ~ RAM - 8 GiB.
constexpr double kAppleDefaultFraction = 0.75;
constexpr double kAppleDefaultFractionSmall = 0.67;
constexpr uint64_t kUmaOsReserveBytes = 8 * kGiB;
constexpr double kApuDefaultFraction = 0.5;

// [SECTION] Request --------------------------------------------------------------------------------------
// "Not set" is std::nullopt (the engine picks the default the comment names); a value with a meaning of its
// own is a named constant (kAllGpuLayers). No field uses 0 or -1 to mean "default" (engine/core/README.md).

// n_gpu_layers: every layer and the output on the GPU (what users type as -ngl -1; llama.cpp's -ngl 999);
// readers treat any negative count as this
constexpr int kAllGpuLayers = -1;

// -sm: how llama.cpp spreads a model over several GPUs (llama_split_mode, include/llama.h)
enum class SplitMode { None, Layer, Row };
const char* to_string(SplitMode m);     // "none", "layer", "row"
std::optional<SplitMode> parse_split_mode(const std::string& s);

struct MemoryRequest {
    std::string file_type = "Q4_K_M";   // llama.cpp file type or catalog format (MLX_4BIT, ...)
    int64_t n_ctx = 4096;               // -c: total context over all sequences
    TensorType kv_type_k = TensorType::F16;  // -ctk: f16, bf16, f32, q8_0, q4_0, q4_1, q5_0, q5_1, iq4_nl
    TensorType kv_type_v = TensorType::F16;  // -ctv (quantized V needs flash attention, as in llama.cpp)
    int n_ubatch = 512;                 // -ub
    int n_batch = 2048;                 // -b
    bool flash_attn = true;             // -fa (llama.cpp's default "auto" enables it where supported)
    int n_parallel = 1;                 // -np: sequences; each gets n_ctx / n_parallel cells
    bool kv_unified = false;            // --kv-unified: one KV buffer shared by all sequences
    bool swa_full = false;              // --swa-full: SWA layers cache the full context
    int n_gpu_layers = kAllGpuLayers;   // -ngl; n_layers+1 also puts the output on the GPU
    int n_cpu_moe = 0;                  // --n-cpu-moe N: routed experts of the first N layers stay in host RAM
    bool cpu_moe = false;               // --cpu-moe: all routed experts in host RAM
    std::vector<double> tensor_split;   // -ts: proportions per GPU; empty = even over gpu_count (identical GPUs) or,
                                        // on a mixed rig (Hardware::rig), by each device's free memory as llama.cpp does
    SplitMode split_mode = SplitMode::Layer;  // -sm
    int main_gpu = 0;                   // -mg: the one GPU used with -sm none
    const Hardware* hardware = nullptr; // optional: without it there is no usable limit, status or max_context
    std::optional<Backend> backend;     // default: the hardware's first backend (CPU when no hardware)
    std::optional<uint64_t> file_bytes_override;  // actual GGUF file size: weights scaled to match it (unset: rules)
    std::optional<uint64_t> gpu_reserve_bytes;    // per-GPU reserve (unset: kGpuReserve* by hardware kind)
    std::optional<uint64_t> host_ram_bytes;       // host RAM for partial offload (unset: hardware.system_ram_bytes)
    std::optional<double> host_ram_bandwidth_gbs; // host RAM bandwidth for offloaded layers / --n-cpu-moe experts
                                                  // (unset: hardware.system_ram_bandwidth_gbs, else kDefaultHostRamGbs)
    std::optional<uint64_t> tensor_data_bytes_exact;  // tensor bytes of the actual file from its header (a Hub
                                                      // lookup): weights sum to exactly this; wins over file_bytes_override
    bool allow_extended_context = false;  // max_context may go past native_context up to extended_context
    bool compute_max_context = true;    // search max_context (~10-16 extra placements, each O(devices))
    bool with_notes = true;             // fill MemoryBreakdown::notes (sweeps that never show them can skip the strings)
};

// [SECTION] Result ---------------------------------------------------------------------------------------

enum class FitStatus { Unknown, Comfortable, Tight, TunableUma, PartialOffload, Oom };

struct DeviceMemory {
    std::string name;                   // "CUDA0", "Metal", "ROCm1", ..., or "host" (system RAM)
    uint64_t weights_bytes = 0;
    uint64_t kv_cache_bytes = 0;
    uint64_t compute_bytes = 0;
    uint64_t overhead_bytes = 0;
    uint64_t total_bytes = 0;
    uint64_t usable_bytes = 0;          // 0 = unknown / not checked
    int n_layers = 0;                   // repeating layers placed here
    std::string hardware_id;            // mixed rigs / RPC: the catalog device ("rtx-5080"); "" otherwise
    int host = 0;                       // mixed rigs / RPC: 0 = local, k = RPC server k
};

struct MemoryBreakdown {               // a new field also needs a line in memory.cpp reset_breakdown()
    std::vector<DeviceMemory> devices;  // GPUs first, then "host"
    uint64_t weights_bytes = 0;         // sums over devices (a tied output duplicated onto a GPU counts twice)
    uint64_t kv_cache_bytes = 0;
    uint64_t compute_bytes = 0;
    uint64_t overhead_bytes = 0;
    uint64_t total_bytes = 0;
    uint64_t usable_bytes = 0;          // GPU limit summed over GPUs (unified: working-set limit); 0 = no hardware
    uint64_t usable_raised_bytes = 0;   // unified memory: limit with iogpu.wired_limit_mb / max GTT
    FitStatus status = FitStatus::Unknown;
    int64_t max_context = -1;           // largest multiple of 256 that fits (same placement); 0 = none; -1 = unknown
    bool max_context_extended = false;  // max_context is beyond native_context (RoPE extension)
    int gpu_layers = 0;                 // layers on GPU in this estimate (n_layers + 1 = output too)
    int fit_gpu_layers = -1;            // most -ngl that fit (when the request does not fit); -1 = unknown
    int n_layers = 0;

    // details
    uint64_t kv_k_bytes = 0, kv_v_bytes = 0, recurrent_state_bytes = 0;
    int64_t kv_cells_full = 0;          // cells of a full-attention layer (all sequences)
    int64_t kv_cells_swa = 0;           // cells of a SWA layer (all sequences), 0 = none
    uint64_t file_bytes = 0;            // estimated (or given) GGUF file size
    double bits_per_weight = 0;
    uint64_t params = 0;
    std::vector<std::string> notes;     // estimates and caveats that apply to this result
};

// [SECTION] Functions ------------------------------------------------------------------------------------

const char* to_string(FitStatus s);     // "COMFORTABLE", "TIGHT", "TUNABLE_UMA", "PARTIAL_OFFLOAD", "OOM", "UNKNOWN"

// memory per device for one configuration; false + err on bad input (unknown quant, quantized V without
// flash attention, n_ctx < 1, ...). Weights come from prepare_weights()'s cache (prepared_weights.h), so repeated
// calls for the same model and quant cost O(devices) arithmetic (plus ~10-16 probes for the searches).
bool estimate_memory(const Catalog& cat, const Model& model, const MemoryRequest& req, MemoryBreakdown& out,
                     std::string& err);
// the same with weights the caller prepared (prepare_weights(cat, model, req.file_type, err,
// req.file_bytes_override.value_or(0))); skips the cache lookup — for sweeps over devices, contexts and KV settings
bool estimate_memory(const PreparedWeights& weights, const Model& model, const MemoryRequest& req, MemoryBreakdown& out,
                     std::string& err);
// the same for `count` contexts of one request (req.n_ctx is not read: *out[i] is contexts[i]'s breakdown, the numbers
// `count` estimate_memory calls give); the request's checks, split, limits and layer layout are made once. false +
// err (every out reset) when the request or any context is bad
bool estimate_memory_contexts(const PreparedWeights& weights, const Model& model, const MemoryRequest& req,
                              const int64_t* contexts, int count, MemoryBreakdown* const* out, std::string& err);
// estimate_memory_contexts over `n_devices` devices (req.hardware is not read): *out[d * count + i] is devices[d] at
// contexts[i], the numbers of one estimate_memory_contexts call per device. The devices of one shape (backend and GPU
// count; a rig is its own) share the request's checks, the split, the layer layouts, each context's cells and
// placement and the fit search's GPU parts by -ngl; what is left per device is its limits, the judging, the search's
// comparisons and one write of each breakdown — a leaderboard's or a sweep's devices. ok[d] false + errs[d] (its
// breakdowns reset) when devices[d]'s request is bad
void estimate_memory_grid(const PreparedWeights& weights, const Model& model, const MemoryRequest& req,
                          const Hardware* const* devices, int n_devices, const int64_t* contexts, int count,
                          MemoryBreakdown* const* out, bool* ok, std::string* errs);

struct KvCacheSize {
    uint64_t k_bytes = 0, v_bytes = 0, state_bytes = 0;
    int64_t cells_full = 0, cells_swa = 0;
    std::vector<uint64_t> per_layer;    // KV (+ recurrent state) bytes of each layer
};
// K elements per cell of one attention layer: n_kv_heads x head_dim (n_heads when the model gives no KV heads);
// MLA: kv_lora_rank + qk_rope_head_dim (the compressed latent and the RoPE part). The one KV-row formula.
uint64_t kv_k_row(const Model& m);
// V elements per cell of one attention layer: n_kv_heads x V head dim; MLA: 0 (V is a view of K)
uint64_t kv_v_row(const Model& m);
// KV cache (and recurrent state) bytes exactly as llama.cpp allocates them; false + err on bad input
bool estimate_kv_cache(const Model& m, const MemoryRequest& req, KvCacheSize& out, std::string& err);

struct ComputeSize {
    uint64_t output_phase = 0;          // logits + what sits below them
    uint64_t attention_phase = 0;       // attention scores / FA intermediates (largest layer type)
    uint64_t ffn_phase = 0;             // FFN / MoE intermediates
    uint64_t total = 0;                 // max of the phases that run on the device
};
// the compute buffer's FFN-phase f32 values per token of layer il (x 4 B x ubatch = bytes): the one FFN term,
// also precomputed per model by prepare_weights()
uint64_t ffn_phase_floats_per_token(const Model& m, int il);
// compute buffer of one device holding `with_output` (logits) and/or layers (fitted to llama.cpp's CPU backend)
ComputeSize estimate_compute_buffer(const Model& m, const MemoryRequest& req, bool with_layers, bool with_output);

// GPU memory a device may use: total minus reserve (discrete), working-set / GTT limit (unified, default)
uint64_t usable_gpu_bytes(const Hardware& hw, const MemoryRequest& req);
// unified memory: the raised limit (iogpu.wired_limit_mb / max GTT); discrete: same as usable_gpu_bytes
uint64_t usable_gpu_bytes_raised(const Hardware& hw, const MemoryRequest& req);

// the file type from `candidates` with the most bits per weight that still fits (COMFORTABLE or TIGHT, or
// TUNABLE_UMA when allow_tunable); empty when none fits or no hardware is set
std::string best_fitting_file_type(const Catalog& cat, const Model& model, const MemoryRequest& req,
                                   const std::vector<std::string>& candidates, bool allow_tunable = true);
// the context a model opens at on req.hardware: its native context when that fits (comfortable, tight or under a
// raised unified-memory limit), else the largest power of two below it that fits, not below 4096 tokens (nor above
// the native context); the native context when req has no hardware. req.n_ctx is ignored.
int64_t default_context_tokens(const Catalog& cat, const Model& model, const MemoryRequest& req);

// [SECTION] Building blocks ------------------------------------------------------------------------------
// Formulas the fast path, the explanations, the speed glue and the test oracle (tests/engine/memory_reference.cpp)
// share: each is written once, here.

// KV cells of one context: llama.cpp pads n_ctx to 256 (kKvCellPad) and splits it into one stream per sequence
struct CellPlan {
    int64_t n_ctx_pad = 0;      // n_ctx rounded up to 256
    int64_t streams = 1;        // KV streams (n_parallel unless --kv-unified)
    int64_t per_stream = 0;     // full-attention cells per stream = n_kv a sequence attends to
    int64_t swa_per_stream = 0; // SWA cells per stream
    int ubatch = 512;           // effective ubatch: min(n_ubatch, n_batch, n_ctx)
};
// the cells of `m` at context n_ctx under the request's parallel / unified / SWA settings
CellPlan plan_cells(const Model& m, const MemoryRequest& req, int64_t n_ctx);
// llama.cpp's device name prefix of a backend ("CUDA", "Metal" ...)
const char* backend_device_prefix(Backend b);
// runtime overhead of one GPU of a backend (the k*RuntimeBytes constants above; CPU 0)
uint64_t backend_runtime_bytes(Backend b);
// the RAM pool of a device: system RAM when the catalog gives it, else its memory
uint64_t ram_bytes_of(const Hardware& hw);
// recurrent state of one layer for one sequence when the catalog has none: Mamba-1 conv + ssm state, f32
// (llama.cpp n_embd_r = (d_conv-1) d_inner, n_embd_s = d_state d_inner), d_inner = 2 n_embd, d_conv 4, d_state 16
uint64_t default_state_bytes(const Model& m);

}  // namespace llmsim
