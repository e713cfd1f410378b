// llmsim memory model: see memory.h and docs/memory-model.md.
//
// [SECTION] Helpers
// [SECTION] KV cache
// [SECTION] Compute buffers
// [SECTION] Usable memory
// [SECTION] Placement and totals
// [SECTION] Fit search (status, max context, layers, quant)
#include "memory/memory.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <memory>
#include <optional>

#include "memory/memory_grid.h"
#include "model/model_tensors.h"
#include "memory/prepared_weights.h"

namespace llmsim {

// [SECTION] Helpers --------------------------------------------------------------------------------------

namespace {

uint64_t pad_up(uint64_t x, uint64_t a) { return (x + a - 1) / a * a; }

int effective_ubatch(const MemoryRequest& r, int64_t n_ctx_pad) {
    // llama.cpp: n_batch = min(n_ctx, n_batch) for causal models; n_ubatch = min(n_batch, n_ubatch)
    int64_t b = std::min<int64_t>(std::max(1, r.n_batch), n_ctx_pad);
    return (int)std::max<int64_t>(1, std::min<int64_t>(std::max(1, r.n_ubatch), b));
}

}  // namespace

CellPlan plan_cells(const Model& m, const MemoryRequest& r, int64_t n_ctx) {
    CellPlan p;
    p.n_ctx_pad = (int64_t)pad_up((uint64_t)n_ctx, kKvCellPad);
    const int64_t np = std::max(1, r.n_parallel);
    p.ubatch = effective_ubatch(r, p.n_ctx_pad);
    if (r.kv_unified) {
        p.streams = 1;
        p.per_stream = p.n_ctx_pad;
    } else {
        // llama.cpp splits the context: n_ctx_seq = n_ctx / n_seq_max cells per sequence (calibration: -c 32768
        // -np 4 -> 4 streams of 8192 cells); we keep each stream a multiple of 256
        p.streams = np;
        p.per_stream = (int64_t)pad_up((uint64_t)(p.n_ctx_pad / np), kKvCellPad);
    }
    if (m.swa && m.swa->window > 0) {
        // llama-kv-cache-iswa: SWA cache = min(size, pad(n_swa x (unified ? n_seq : 1) + n_ubatch, 256));
        // calibration: gemma-2-9b window 4096, ub 512 -> 4608 cells
        const int64_t want = m.swa->window * (r.kv_unified ? np : 1) + p.ubatch;
        p.swa_per_stream = r.swa_full ? p.per_stream
                                      : std::min(p.per_stream, (int64_t)pad_up((uint64_t)want, kKvCellPad));
    }
    return p;
}

const char* backend_device_prefix(Backend b) {
    switch (b) {
        case Backend::Cuda: return "CUDA";
        case Backend::Rocm: return "ROCm";
        case Backend::Metal: return "Metal";
        case Backend::Vulkan: return "Vulkan";
        case Backend::Sycl: return "SYCL";
        case Backend::Cpu: return "CPU";
    }
    return "GPU";
}

uint64_t backend_runtime_bytes(Backend b) {
    switch (b) {
        case Backend::Cuda: return kCudaRuntimeBytes;
        case Backend::Rocm: return kRocmRuntimeBytes;
        case Backend::Metal: return kMetalRuntimeBytes;
        case Backend::Vulkan: return kVulkanRuntimeBytes;
        case Backend::Sycl: return kSyclRuntimeBytes;
        case Backend::Cpu: return 0;
    }
    return 0;
}

uint64_t default_state_bytes(const Model& m) {
    const uint64_t d_inner = 2 * (uint64_t)m.hidden_size;
    return 4 * (3 * d_inner + 16 * d_inner);
}

const char* to_string(FitStatus s) {
    switch (s) {
        case FitStatus::Comfortable: return "COMFORTABLE";
        case FitStatus::Tight: return "TIGHT";
        case FitStatus::TunableUma: return "TUNABLE_UMA";
        case FitStatus::PartialOffload: return "PARTIAL_OFFLOAD";
        case FitStatus::Oom: return "OOM";
        case FitStatus::Unknown: return "UNKNOWN";
    }
    return "UNKNOWN";
}

const char* to_string(SplitMode m) {
    switch (m) {
        case SplitMode::None: return "none";
        case SplitMode::Layer: return "layer";
        case SplitMode::Row: return "row";
    }
    return "layer";
}

std::optional<SplitMode> parse_split_mode(const std::string& s) {
    if (s == "none") return SplitMode::None;
    if (s == "layer") return SplitMode::Layer;
    if (s == "row") return SplitMode::Row;
    return std::nullopt;
}

// [SECTION] KV cache -------------------------------------------------------------------------------------

uint64_t kv_k_row(const Model& m) {
    const int64_t n_kv_heads = m.n_kv_heads > 0 ? m.n_kv_heads : m.n_heads;
    return m.mla ? (uint64_t)(m.mla->kv_lora_rank + m.mla->qk_rope_head_dim) : (uint64_t)(n_kv_heads * m.head_dim);
}
uint64_t kv_v_row(const Model& m) {
    const int64_t n_kv_heads = m.n_kv_heads > 0 ? m.n_kv_heads : m.n_heads;
    return m.mla ? 0 : (uint64_t)(n_kv_heads * m.kv_head_dim_v());
}

namespace {

// the request checks of the KV cache (shared by estimate_kv_cache and the fast estimate_memory)
bool check_context(int64_t n_ctx, std::string& err) {
    if (n_ctx < 1) { err = "context must be at least 1 token (got " + std::to_string(n_ctx) + ")"; return false; }
    return true;
}

// n_ctx: the context checked (r.n_ctx, or each of estimate_memory_contexts' contexts)
bool check_kv_request(const Model& m, const MemoryRequest& r, int64_t n_ctx, uint64_t k_row, uint64_t v_row,
                      std::string& err) {
    if (!check_context(n_ctx, err)) return false;
    if (r.n_parallel < 1) { err = "--parallel must be at least 1"; return false; }
    if (r.n_ubatch < 1 || r.n_batch < 1) { err = "--ubatch and --batch must be at least 1"; return false; }
    if (m.n_layers <= 0) { err = "model '" + m.id + "' has no layers"; return false; }
    const TensorTypeInfo& tk = tensor_type_info(r.kv_type_k);
    const TensorTypeInfo& tv = tensor_type_info(r.kv_type_v);
    if (tv.quantized && !r.flash_attn) {
        // llama.cpp refuses a quantized V cache without flash attention (llama_init_from_model)
        err = std::string("a quantized V cache (") + tv.name + ") needs flash attention on (--flash-attn on)";
        return false;
    }
    if (k_row % (uint64_t)tk.block_size != 0 || v_row % (uint64_t)tv.block_size != 0) {
        err = std::string("KV cache type ") + tk.name + "/" + tv.name + " needs K/V rows that are a multiple of " +
              std::to_string(std::max(tk.block_size, tv.block_size)) + " (this model has " + std::to_string(k_row) +
              "); use f16 or q8_0";
        return false;
    }
    return true;
}
}  // namespace

bool estimate_kv_cache(const Model& m, const MemoryRequest& r, KvCacheSize& out, std::string& err) {
    out = KvCacheSize{};
    const uint64_t k_row = kv_k_row(m);
    const uint64_t v_row = kv_v_row(m);
    if (!check_kv_request(m, r, r.n_ctx, k_row, v_row, err)) return false;
    const CellPlan p = plan_cells(m, r, r.n_ctx);
    out.cells_full = p.per_stream * p.streams;
    out.cells_swa = p.swa_per_stream * p.streams;
    out.per_layer.assign((size_t)m.n_layers, 0);
    for (int il = 0; il < m.n_layers; ++il) {
        if (!layer_has_attention(m, il)) {
            // recurrent layers hold a fixed state per sequence instead of a growing cache
            const uint64_t s = m.hybrid->ssm_state_bytes_per_layer > 0 ? (uint64_t)m.hybrid->ssm_state_bytes_per_layer
                                                                       : default_state_bytes(m);
            const uint64_t b = s * (uint64_t)std::max(1, r.n_parallel);
            out.state_bytes += b;
            out.per_layer[(size_t)il] = b;
            continue;
        }
        const uint64_t cells = (uint64_t)(layer_is_swa(m, il) ? out.cells_swa : out.cells_full);
        const uint64_t k = cells * row_bytes(r.kv_type_k, k_row);
        const uint64_t v = cells * row_bytes(r.kv_type_v, v_row);  // MLA: V is a view of K, nothing stored
        out.k_bytes += k;
        out.v_bytes += v;
        out.per_layer[(size_t)il] = k + v;
    }
    return true;
}

// [SECTION] Compute buffers ------------------------------------------------------------------------------
// The compute buffer is ggml-alloc's high-water mark over the graph of one ubatch. Three phases dominate;
// each term below was matched to llama.cpp's own no-alloc plan (assets/calibration/llamacpp_memory_projection.csv,
// CPU backend, llama.cpp de3ff815ea7d) — see docs/memory-model.md for the derivation and residuals.

namespace {
// the phases of one ubatch's graph, for a cell plan; has_full / has_swa: the model has attention layers of that
// kind; ffn_max: the max over layers of ffn_phase_floats_per_token
struct ComputePhases {
    uint64_t out = 0, attn = 0, ffn = 0, none = 0;
};

ComputePhases compute_phases(const Model& m, const MemoryRequest& r, const CellPlan& p, bool has_full, bool has_swa,
                             uint64_t ffn_max) {
    ComputePhases c;
    const uint64_t T = (uint64_t)p.ubatch;
    const uint64_t n_embd = (uint64_t)m.hidden_size;
    const uint64_t n_vocab = (uint64_t)m.vocab_size;
    const uint64_t n_head = (uint64_t)std::max(1, m.n_heads);
    const uint64_t n_q = n_head * (uint64_t)m.head_dim;
    const uint64_t n_v_gqa = kv_v_row(m);
    const bool moe = m.is_moe();
    const uint64_t n_used = moe ? (uint64_t)m.moe->n_experts_active : 0;
    const uint64_t n_ff_exp = moe ? (uint64_t)m.moe->expert_ffn : 0;

    // output phase: logits f32 [n_vocab, T] + the two f32 [n_embd, T] activations below them (+4 B/token of
    // output ids). MoE: the allocator leaves the last layer's expert gate/up buffers [n_ff_exp, n_used, T] f32 below
    // the logits (DeepSeek-V2-Lite: +67584 B/token predicted vs +66072 measured).
    c.out = T * (4 * n_vocab + 8 * n_embd + 4) + (moe ? T * 8 * n_used * n_ff_exp : 0);

    // attention phase
    const uint64_t kv_full = has_full ? (uint64_t)p.per_stream : 0;
    const uint64_t kv_swa = has_swa ? (uint64_t)p.swa_per_stream : 0;
    const uint64_t n_kv_max = std::max(kv_full, kv_swa);
    const uint64_t n_caches = (has_full ? 1 : 0) + (has_swa ? 1 : 0);
    if (m.mla) {
        const uint64_t kv_lora = (uint64_t)m.mla->kv_lora_rank, rope = (uint64_t)m.mla->qk_rope_head_dim;
        // absorbed-MLA intermediates per token: q_nope x wk_b, concat(q, q_pe), the attention output, one residual
        const uint64_t per_tok = 4 * n_head * (3 * kv_lora + rope) + 4 * n_embd + 20;
        if (r.flash_attn) {
            c.attn = T * per_tok + T * 2 * n_kv_max;  // + f16 mask
        } else {
            // KQ scores f32 [n_kv, T, n_head] + f32 mask [n_kv, T] + a contiguous copy of V [n_kv, kv_lora]
            c.attn = T * per_tok + T * 4 * (n_head + 1) * n_kv_max + n_kv_max * row_bytes(r.kv_type_k, kv_lora);
        }
    } else {
        // per token: 3 n_embd + 2 n_q f32 activations (residual, norm, Q, attention output, ...) + 20 B of inputs
        const uint64_t per_tok = 12 * n_embd + 8 * n_q + 20;
        if (r.flash_attn) {
            c.attn = T * per_tok + T * 2 * (kv_full + kv_swa);  // f16 masks; FA keeps no scores
        } else {
            // KQ scores f32 [n_kv, T, n_head] (softmax in place) + f32 masks [n_kv, T] per cache + the i64 row
            // indices for the transposed V store [n_v_gqa, T] per cache
            c.attn = T * per_tok + T * 4 * n_head * n_kv_max + T * 4 * (kv_full + kv_swa) + T * 8 * n_v_gqa * n_caches;
        }
    }

    // FFN phase (never the maximum in the calibration runs; physical estimate)
    c.ffn = T * 4 * ffn_max;
    c.none = T * 8 * n_embd;  // input embeddings staged for the GPUs
    return c;
}

// the buffer of a device that runs layers and/or the output: the largest of the phases it runs
uint64_t compute_total(const ComputePhases& c, bool with_layers, bool with_output) {
    uint64_t total = 0;
    if (with_output) total = std::max(total, c.out);
    if (with_layers) total = std::max(total, std::max(c.attn, c.ffn));
    if (!with_output && !with_layers) total = c.none;
    return total;
}
}  // namespace

uint64_t ffn_phase_floats_per_token(const Model& m, int il) {
    const uint64_t n_embd = (uint64_t)m.hidden_size;
    if (layer_is_moe(m, il)) {
        const uint64_t n_used = (uint64_t)m.moe->n_experts_active, n_ff_exp = (uint64_t)m.moe->expert_ffn;
        const uint64_t n_exp = (uint64_t)m.moe->n_experts;
        const uint64_t n_sh = (uint64_t)m.moe->n_shared_experts *
                              (uint64_t)(m.moe->shared_ffn > 0 ? m.moe->shared_ffn : m.moe->expert_ffn);
        return 3 * n_embd + 3 * n_exp + 3 * n_used * n_ff_exp + 2 * n_used * n_embd + 3 * n_sh;
    }
    return 3 * n_embd + 3 * (uint64_t)std::max<int64_t>(0, m.intermediate_size);
}

ComputeSize estimate_compute_buffer(const Model& m, const MemoryRequest& r, bool with_layers, bool with_output) {
    bool has_full = false, has_swa = false;
    uint64_t ffn_max = 0;
    for (int il = 0; il < m.n_layers; ++il) {
        ffn_max = std::max(ffn_max, ffn_phase_floats_per_token(m, il));
        if (!layer_has_attention(m, il)) continue;
        (layer_is_swa(m, il) ? has_swa : has_full) = true;
    }
    const ComputePhases p = compute_phases(m, r, plan_cells(m, r, r.n_ctx), has_full, has_swa, ffn_max);
    ComputeSize c;
    c.output_phase = p.out;
    c.attention_phase = p.attn;
    c.ffn_phase = p.ffn;
    c.total = compute_total(p, with_layers, with_output);
    return c;
}

// [SECTION] Usable memory --------------------------------------------------------------------------------

uint64_t ram_bytes_of(const Hardware& hw) {
    return hw.system_ram_bytes > 0 ? (uint64_t)hw.system_ram_bytes : (uint64_t)hw.memory_bytes;
}

uint64_t usable_gpu_bytes(const Hardware& hw, const MemoryRequest& r) {
    if (hw.kind == HardwareKind::Apple) {
        if (hw.gpu_limit_default_bytes > 0) return (uint64_t)hw.gpu_limit_default_bytes;
        const uint64_t ram = ram_bytes_of(hw);
        const double f = ram <= 36 * kGiB ? kAppleDefaultFractionSmall : kAppleDefaultFraction;
        return (uint64_t)((double)ram * f);
    }
    if (hw.kind == HardwareKind::Apu) {
        if (hw.gpu_limit_default_bytes > 0) return (uint64_t)hw.gpu_limit_default_bytes;
        return (uint64_t)((double)ram_bytes_of(hw) * kApuDefaultFraction);
    }
    if (hw.kind == HardwareKind::Cpu) {
        const uint64_t ram = ram_bytes_of(hw);
        return ram > kHostRamReserveBytes ? ram - kHostRamReserveBytes : 0;
    }
    const uint64_t reserve = r.gpu_reserve_bytes ? *r.gpu_reserve_bytes
                             : hw.kind == HardwareKind::Datacenter ? kGpuReserveDatacenterBytes
                                                                   : kGpuReserveDesktopBytes;
    const uint64_t total = (uint64_t)std::max<int64_t>(0, hw.memory_bytes);
    return total > reserve ? total - reserve : 0;
}

uint64_t usable_gpu_bytes_raised(const Hardware& hw, const MemoryRequest& r) {
    if (!hw.unified_memory()) return usable_gpu_bytes(hw, r);
    if (hw.gpu_limit_max_bytes > 0) return (uint64_t)hw.gpu_limit_max_bytes;
    const uint64_t ram = ram_bytes_of(hw);
    return std::max(usable_gpu_bytes(hw, r), ram > kUmaOsReserveBytes ? ram - kUmaOsReserveBytes : 0);
}

// [SECTION] Placement and totals -------------------------------------------------------------------------
// Arithmetic on PreparedWeights: llama.cpp assigns whole layers to devices, so every per-device sum is a
// difference of the prepared prefix sums over a layer range, and the KV cache of a range is (layer counts of each
// kind) x (bytes per layer of that kind). The test oracle tests/engine/memory_reference.cpp does the same tensor by
// tensor; the results are identical (tests/engine/test_memory_fast.cpp).

namespace {

// a few values inline (not initialised), more on the heap (rigs beyond 8 GPUs)
template <class T, size_t N>
struct SmallBuf {
    T local[N];
    std::vector<T> heap;
    T* p = local;
    void resize(size_t n) {
        if (n > N) {
            heap.assign(n, T{});
            p = heap.data();
        }
    }
    T& operator[](size_t i) { return p[i]; }
    const T& operator[](size_t i) const { return p[i]; }
};

// a device name of a few bytes (not NUL-terminated)
struct DeviceName {
    char text[16];
    uint8_t n;
};

// llama.cpp's name of GPU g of G of backend b: the backend's prefix and the GPU's index ("CUDA0", "Vulkan1"; one
// Metal GPU is "Metal")
void make_device_name(Backend b, int G, int g, DeviceName& out) {
    if (b == Backend::Metal && G == 1) {
        std::memcpy(out.text, "Metal", 5);
        out.n = 5;
        return;
    }
    const char* prefix = backend_device_prefix(b);
    size_t n = std::strlen(prefix);
    std::memcpy(out.text, prefix, n);
    char digits[12];
    int k = 0;
    unsigned v = (unsigned)g;
    do { digits[k++] = (char)('0' + v % 10); v /= 10; } while (v);
    while (k) out.text[n++] = digits[--k];
    out.n = (uint8_t)n;
}

// everything of one request that the fit and max-context searches do not change
struct Placer {
    const PreparedWeights& w;
    const Model& m;
    const MemoryRequest& r;
    Backend backend = Backend::Cpu;
    int G = 0;                      // GPUs
    int L = 0;                      // repeating layers
    int n_moe_host = 0;             // leading layers whose routed experts stay in host RAM (--n-cpu-moe / --cpu-moe)
    SmallBuf<double, 9> cum;       // cumulative tensor-split proportions (G entries)
    uint64_t k_cell = 0, v_cell = 0;  // bytes per cell of one attention layer
    uint64_t state_layer = 0;       // recurrent state of one recurrent layer, all sequences
    uint64_t host_overhead = 0;
    uint64_t gpu_overhead = 0;
    // hardware limits (judge)
    uint64_t lim = 0, lim_raised = 0, ram = 0, pool = 0, cpu_usable = 0;
    // per GPU (equal on a rig of identical GPUs; each device's own on a mixed rig)
    SmallBuf<uint64_t, 9> lim_g, lim_raised_g, overhead_g;
    const std::vector<RigDevice>* rig = nullptr;   // mixed rig / RPC devices; nullptr = G identical GPUs
    int first_gpu = 0;              // -sm none: the one GPU used (-mg)
    bool float_split = false;       // split points in float, exactly as llama.cpp computes them (rigs)
    SmallBuf<float, 9> cumf;        // exclusive cumulative split proportions (float_split)
    bool row_split = false;         // -sm row on a backend with a split buffer type
    SmallBuf<double, 9> row_frac;   // each GPU's share of every row-split matrix
    SmallBuf<DeviceName, 8> gpu_names;   // identical GPUs: llama.cpp's names of the GPUs ("CUDA0", "Metal"), G entries
    Placer(const PreparedWeights& w_, const Model& m_, const MemoryRequest& r_) : w(w_), m(m_), r(r_) {}
};

// device ranges for one -ngl: GPU g holds layers [start[g], start[g+1]), the host [0, i_gpu_start)
struct Layout {
    int ngl = 0;
    int i_gpu_start = 0;
    int act = 0;
    int out_dev = 0;
    SmallBuf<int, 10> start;        // G + 1 entries
    uint64_t max_host_tensor = 0;   // largest layer tensor in host RAM (op offload copies it to GPU0)
};

// per-context quantities: cells, KV bytes per layer of each kind, compute-buffer phases
struct CtxPlan {
    CellPlan cells;
    uint64_t k_full = 0, v_full = 0, k_swa = 0, v_swa = 0;
    ComputePhases phases;
};

// plain data without initialisers: place_devices() writes every field, and the per-call buffer of them must
// not be zero-filled on each estimate (that memset was the largest single cost of the fast path)
struct DevTotals {
    uint64_t weights, kv, compute, overhead, total;
    int n_layers;
};

// backends whose registry offers ggml_backend_split_buffer_type (-sm row): ggml-cuda (also built for HIP/ROCm) and
// ggml-sycl; elsewhere llama.cpp's make_gpu_buft_list finds none and -sm row places like -sm layer
bool backend_has_split_buffer(Backend b) { return b == Backend::Cuda || b == Backend::Rocm || b == Backend::Sycl; }

// a mixed rig: each device's own limits and runtime overhead, and llama.cpp's split points in float —
// llama_model::load_tensors: "default split, by free memory" (ggml_backend_dev_memory's free of each device) unless
// -ts is given, then splits[i] = running sum / total. Free memory at load = usable limit minus the backend runtime
// already created (cudaMemGetInfo counts this process's context; Metal: working set minus current allocations).
bool init_rig_split(Placer& P, std::string& err) {
    const MemoryRequest& r = P.r;
    const int G = P.G;
    SmallBuf<float, 9> splits;
    splits.resize((size_t)G);
    for (int g = 0; g < G; ++g) {
        const Hardware& h = (*P.rig)[(size_t)(P.first_gpu + g)].hw;
        P.lim_g[(size_t)g] = usable_gpu_bytes(h, r);
        P.lim_raised_g[(size_t)g] = usable_gpu_bytes_raised(h, r);
        P.overhead_g[(size_t)g] = backend_runtime_bytes(h.backends.empty() ? Backend::Vulkan : h.backends.front());
        const uint64_t lim = P.lim_g[(size_t)g], ovh = P.overhead_g[(size_t)g];
        splits[(size_t)g] = r.tensor_split.empty() || G == 1 ? (float)(lim > ovh ? lim - ovh : 0)
                                                             : (float)std::max(0.0, r.tensor_split[(size_t)g]);
    }
    float split_sum = 0.0f;   // llama.cpp: splits[i] = split_sum += splits[i]; then splits[i] /= split_sum
    for (int g = 0; g < G; ++g) { split_sum += splits[(size_t)g]; splits[(size_t)g] = split_sum; }
    if (!(split_sum > 0.0f)) { err = "--tensor-split proportions must not all be zero"; return false; }
    P.float_split = true;
    P.cumf.resize((size_t)G);
    for (int g = 0; g < G; ++g) P.cumf[(size_t)g] = g == 0 ? 0.0f : splits[(size_t)g - 1] / split_sum;
    bool any_rpc = false;
    for (const RigDevice& d : *P.rig) any_rpc |= d.host != 0;
    if (r.split_mode == SplitMode::Row && G > 1 && !any_rpc && backend_has_split_buffer(P.backend)) {
        // ggml_backend_cuda_split_buffer_type: all-zero -ts = ggml_cuda_info().default_tensor_split, proportional
        // to each device's total memory (cudaDeviceProp::totalGlobalMem); else the -ts proportions
        P.row_split = true;
        P.row_frac.resize((size_t)G);
        double sum = 0;
        for (int g = 0; g < G; ++g) {
            const Hardware& h = (*P.rig)[(size_t)g].hw;
            P.row_frac[(size_t)g] = r.tensor_split.empty() ? (double)h.memory_bytes : std::max(0.0, r.tensor_split[(size_t)g]);
            sum += P.row_frac[(size_t)g];
        }
        for (int g = 0; g < G; ++g) P.row_frac[(size_t)g] /= sum;
    }
    return true;
}

// what the placement of a request's hardware depends on besides its limits: the backend, the GPU count and the rig.
// A grid's devices of one shape (no rig) share the placer's split, layouts and placements (estimate_memory_grid)
struct Shape {
    Backend backend = Backend::Cpu;
    int G = 0;
    const std::vector<RigDevice>* rig = nullptr;
    bool has_hardware = false;
    bool operator==(const Shape& o) const {
        return backend == o.backend && G == o.G && rig == o.rig && has_hardware == o.has_hardware;
    }
};

Shape shape_of(const MemoryRequest& r) {
    Shape s;
    s.has_hardware = r.hardware != nullptr;
    if (r.hardware) {
        s.backend = r.backend ? *r.backend : (r.hardware->backends.empty() ? Backend::Cpu : r.hardware->backends[0]);
        if (r.hardware->kind == HardwareKind::Cpu) s.backend = Backend::Cpu;
        s.G = s.backend == Backend::Cpu ? 0 : std::max(1, r.hardware->gpu_count);
        if (s.G > 0 && !r.hardware->rig.empty()) {
            s.rig = &r.hardware->rig;
            s.G = (int)s.rig->size();
        }
    } else if (r.backend && *r.backend != Backend::Cpu) {
        s.backend = *r.backend;
        s.G = 1;
    }
    return s;
}

// the limits of the request's hardware (none without one); the placer's shape is set
void set_limits(Placer& P) {
    const MemoryRequest& r = P.r;
    P.ram = P.lim = P.lim_raised = P.pool = P.cpu_usable = 0;
    if (const Hardware* hw = r.hardware) {
        P.ram = r.host_ram_bytes ? *r.host_ram_bytes : (uint64_t)std::max<int64_t>(0, hw->system_ram_bytes);
        P.lim = usable_gpu_bytes(*hw, r);
        P.lim_raised = usable_gpu_bytes_raised(*hw, r);
        P.pool = ram_bytes_of(*hw);
        P.cpu_usable = hw->kind == HardwareKind::Cpu || P.ram == 0
                           ? P.lim
                           : (P.ram > kHostRamReserveBytes ? P.ram - kHostRamReserveBytes : 0);
    }
    P.lim_g.resize((size_t)std::max(P.G, 1));
    P.lim_raised_g.resize((size_t)std::max(P.G, 1));
    P.overhead_g.resize((size_t)std::max(P.G, 1));
    for (int g = 0; g < P.G; ++g) {
        P.lim_g[(size_t)g] = P.lim;
        P.lim_raised_g[(size_t)g] = P.lim_raised;
        P.overhead_g[(size_t)g] = P.gpu_overhead;
    }
}

// n_ctx: the (first) context the request is checked with
bool init_placer(Placer& P, int64_t n_ctx, std::string& err) {
    const MemoryRequest& r = P.r;
    const Shape shape = shape_of(r);
    P.backend = shape.backend;
    P.G = shape.G;
    P.rig = shape.rig;
    if (!r.tensor_split.empty() && P.G > 0 && (int)r.tensor_split.size() != P.G) {
        err = "--tensor-split has " + std::to_string(r.tensor_split.size()) + " values but the hardware has " +
              std::to_string(P.G) + " GPUs";
        return false;
    }
    if (P.G > 0 && (r.main_gpu < 0 || r.main_gpu >= P.G)) {
        err = "--main-gpu " + std::to_string(r.main_gpu) + " is out of range: the hardware has " + std::to_string(P.G) +
              " GPU" + (P.G > 1 ? "s (0 to " + std::to_string(P.G - 1) + ")" : " (0)");
        return false;
    }
    if (r.split_mode == SplitMode::None && P.G > 1) {   // llama_model_load_from_file_impl keeps only devices[main_gpu]
        P.first_gpu = r.main_gpu;
        P.G = 1;
    }
    P.L = P.m.n_layers;
    if (!check_kv_request(P.m, r, n_ctx, P.w.kv_k_row, P.w.kv_v_row, err)) return false;
    // tensor split: the same double arithmetic as llama.cpp's cumulative proportions (the test oracle's too)
    const size_t n_split = r.tensor_split.empty() || P.first_gpu > 0 || r.split_mode == SplitMode::None
                               ? (size_t)std::max(P.G, 1) : r.tensor_split.size();
    SmallBuf<double, 9> split;
    split.resize(n_split);
    double sum = 0;
    for (size_t i = 0; i < n_split; ++i) {
        double s = r.tensor_split.empty() || n_split != r.tensor_split.size() ? 1.0 : r.tensor_split[i];
        s = std::max(0.0, s);
        split[i] = s;
        sum += s;
    }
    if (sum <= 0) { err = "--tensor-split proportions must not all be zero"; return false; }
    P.cum.resize(n_split);
    double acc = 0;
    for (size_t i = 0; i < n_split; ++i) { P.cum[i] = acc / sum; acc += split[i]; }

    P.n_moe_host = r.cpu_moe ? P.L : std::clamp(r.n_cpu_moe, 0, P.L);
    P.k_cell = row_bytes(r.kv_type_k, P.w.kv_k_row);
    P.v_cell = row_bytes(r.kv_type_v, P.w.kv_v_row);
    P.state_layer = P.w.state_bytes_per_seq * (uint64_t)std::max(1, r.n_parallel);
    P.gpu_overhead = backend_runtime_bytes(P.backend);
    P.host_overhead = kHostRuntimeBytes + 4 * (uint64_t)P.m.vocab_size * (uint64_t)std::max(1, r.n_parallel);
    set_limits(P);
    if (P.rig) return init_rig_split(P, err);
    P.gpu_names.resize((size_t)P.G);
    for (int g = 0; g < P.G; ++g)
        make_device_name(P.backend, P.first_gpu > 0 ? P.first_gpu + 1 : P.G, P.first_gpu + g, P.gpu_names[(size_t)g]);
    if (r.split_mode == SplitMode::Row && P.G > 1 && backend_has_split_buffer(P.backend)) {
        P.row_split = true;   // identical GPUs: the split buffer's default (total memory) is an even split
        P.row_frac.resize((size_t)P.G);
        for (int g = 0; g < P.G; ++g)
            P.row_frac[(size_t)g] = (g + 1 < P.G ? P.cum[(size_t)g + 1] : 1.0) - P.cum[(size_t)g];
    }
    return true;
}

int device_of_layer(const Placer& P, const Layout& lo, int il) {
    const int G = P.G;
    if (G == 0 || il < lo.i_gpu_start || il - lo.i_gpu_start >= lo.act) return G;
    if (P.float_split) {   // llama_model::load_tensors: float(il - i_gpu_start)/act_gpu_layers against float splits
        const float xf = float(il - lo.i_gpu_start) / lo.act;
        const float* cf = P.cumf.p;
        return std::clamp((int)(std::upper_bound(cf, cf + G, xf) - cf) - 1, 0, G - 1);
    }
    const double x = (double)(il - lo.i_gpu_start) / (double)lo.act;
    const double* c = P.cum.p;
    const int d = (int)(std::upper_bound(c, c + G, x) - c) - 1;
    return std::clamp(d, 0, G - 1);
}

// the first layer in [from, L) whose device is >= g, or L: the device of a layer never decreases with its index,
// so this is the one layer a bisection would find; found from the proportions' guess (i_gpu_start + cum[g] x act)
// and moved to the exact boundary with device_of_layer itself (1-2 probes instead of log2(L))
int first_layer_of_gpu(const Placer& P, const Layout& lo, int g, int from) {
    const int L = P.L;
    const double guess = std::ceil(P.cum[(size_t)g] * (double)lo.act);
    int il = guess >= (double)(L - lo.i_gpu_start) ? L : lo.i_gpu_start + (int)guess;
    il = std::clamp(il, from, L);
    while (il > from && device_of_layer(P, lo, il - 1) >= g) --il;
    while (il < L && device_of_layer(P, lo, il) < g) ++il;
    return il;
}

// llama.cpp llama_model::load_tensors: i_gpu_start = max(n_layer - ngl, 0); the output "layer" (index n_layer) is
// on GPU only when ngl > n_layer; layers are split over GPUs by cumulative proportions
void make_layout(const Placer& P, int ngl, Layout& lo) {
    const int G = P.G, L = P.L;
    lo.ngl = G == 0 ? 0 : std::clamp(ngl, 0, L + 1);
    lo.i_gpu_start = std::max(L - lo.ngl, 0);
    lo.act = std::min(lo.ngl, L + 1);
    lo.out_dev = device_of_layer(P, lo, L);
    lo.start.resize((size_t)G + 1);
    if (G > 0) {
        lo.start[0] = lo.i_gpu_start;
        lo.start[(size_t)G] = L;
        for (int g = 1; g < G; ++g) lo.start[(size_t)g] = first_layer_of_gpu(P, lo, g, lo.start[(size_t)g - 1]);
        lo.max_host_tensor = std::max(P.w.layer_max_tensor_prefix[(size_t)lo.i_gpu_start],
                                      P.w.expert_max_tensor_prefix[(size_t)P.n_moe_host]);
    } else {
        lo.start[0] = L;
        lo.max_host_tensor = 0;
    }
}

void make_ctx_plan(const Placer& P, int64_t n_ctx, CtxPlan& c) {
    const Model& m = P.m;
    const MemoryRequest& r = P.r;
    c.cells = plan_cells(m, r, n_ctx);
    const CellPlan& p = c.cells;
    const uint64_t cells_full = (uint64_t)(p.per_stream * p.streams);
    const uint64_t cells_swa = (uint64_t)(p.swa_per_stream * p.streams);
    c.k_full = cells_full * P.k_cell;
    c.v_full = cells_full * P.v_cell;
    c.k_swa = cells_swa * P.k_cell;
    c.v_swa = cells_swa * P.v_cell;

    // estimate_compute_buffer() with the per-layer loops precomputed in PreparedWeights
    c.phases = compute_phases(m, r, p, P.w.has_full_attention, P.w.has_swa, P.w.ffn_bytes_per_token_max);
}

uint64_t kv_of_range(const Placer& P, const CtxPlan& c, int a, int b) {
    const PreparedWeights& w = P.w;
    const uint64_t nf = (uint64_t)(w.full_layers_prefix[(size_t)b] - w.full_layers_prefix[(size_t)a]);
    const uint64_t ns = (uint64_t)(w.swa_layers_prefix[(size_t)b] - w.swa_layers_prefix[(size_t)a]);
    const uint64_t nr = (uint64_t)(w.recurrent_layers_prefix[(size_t)b] - w.recurrent_layers_prefix[(size_t)a]);
    return nf * (c.k_full + c.v_full) + ns * (c.k_swa + c.v_swa) + nr * P.state_layer;
}

// -sm row: llama.cpp's make_gpu_buft_list puts the backend's split buffer type first, so every matrix of a GPU layer
// (and the output matrix) is cut by rows over all GPUs in row_frac proportions; 3-D expert tensors cannot live in a
// split buffer (MUL_MAT_ID) and stay with their layer's device, as do norms (counted with the split: < 0.1 %)
uint64_t row_split_weights(const Placer& P, const Layout& lo, int g) {
    const PreparedWeights& w = P.w;
    const int a = lo.start[(size_t)g], b = lo.start[(size_t)g + 1];
    const int s0 = lo.start[0], sG = lo.start[(size_t)P.G];
    uint64_t split = w.layer_bytes(s0, sG) - w.expert_bytes(s0, sG);
    if (lo.out_dev < P.G) split += w.output_bytes + (w.tied_output ? w.token_embd_bytes : 0);
    uint64_t own = w.expert_bytes(std::clamp(P.n_moe_host, a, b), b);
    if (lo.out_dev == g) own += w.output_other_bytes;
    return (uint64_t)((double)split * P.row_frac[(size_t)g]) + own;
}

// weights, KV, compute and overhead of GPU g
void place_gpu(const Placer& P, const Layout& lo, const CtxPlan& c, int g, DevTotals& d) {
    const PreparedWeights& w = P.w;
    const int a = lo.start[(size_t)g], b = lo.start[(size_t)g + 1];
    if (P.row_split) {
        d.weights = row_split_weights(P, lo, g);
    } else {
        d.weights = w.layer_bytes(a, b) - w.expert_bytes(a, std::clamp(P.n_moe_host, a, b));
        // tied embeddings: llama.cpp creates output as a duplicate of token_embd on the output device
        if (lo.out_dev == g) d.weights += w.output_bytes + w.output_other_bytes + (w.tied_output ? w.token_embd_bytes : 0);
    }
    d.kv = kv_of_range(P, c, a, b);
    d.n_layers = b - a;
    const bool has_layers = d.n_layers > 0, has_out = lo.out_dev == g;
    d.compute = has_layers || has_out ? compute_total(c.phases, has_layers, has_out) : 0;
    // partial offload: with a batch >= 32 llama.cpp copies CPU-resident weights to the GPU for the matmul
    // (op offload), so GPU0's buffer must hold the largest such tensor (estimate)
    if (g == 0 && lo.max_host_tensor > 0 && c.cells.ubatch >= 32) d.compute += lo.max_host_tensor;
    d.overhead = P.overhead_g[(size_t)g];
    d.total = d.weights + d.kv + d.compute + d.overhead;
}

// weights, KV, compute and overhead of every device (0..G-1 GPUs, G host); returns the sum of the totals
uint64_t place_devices(const Placer& P, const Layout& lo, const CtxPlan& c, DevTotals* dev) {
    const PreparedWeights& w = P.w;
    const int G = P.G;
    uint64_t sum = 0;
    for (int g = 0; g < G; ++g) {
        place_gpu(P, lo, c, g, dev[g]);
        sum += dev[g].total;
    }
    // host: token_embd, the layers below i_gpu_start, routed experts moved by --n-cpu-moe, maybe the output
    DevTotals& h = dev[G];
    const int hb = lo.i_gpu_start;
    h.weights = w.token_embd_bytes + w.layer_bytes(0, hb) + w.expert_bytes(hb, std::max(hb, P.n_moe_host)) +
                (lo.out_dev == G ? w.output_bytes + w.output_other_bytes : 0);
    h.kv = kv_of_range(P, c, 0, hb);
    h.n_layers = hb;
    const bool host_layers = hb > 0, host_out = lo.out_dev == G;
    h.compute = G > 0 && !host_layers && !host_out ? c.phases.none : compute_total(c.phases, host_layers, host_out);
    h.overhead = P.host_overhead;
    h.total = h.weights + h.kv + h.compute + h.overhead;
    return sum + h.total;
}

// the fit search's question: does every GPU's part stay within its usable limit?
bool gpus_fit(const Placer& P, const Layout& lo, const CtxPlan& c) {
    DevTotals d;
    for (int g = 0; g < P.G; ++g) {
        place_gpu(P, lo, c, g, d);
        if (d.total > P.lim_g[(size_t)g]) return false;
    }
    return true;
}

struct Judged {
    FitStatus status = FitStatus::Unknown;
    uint64_t usable = 0, usable_raised = 0;  // breakdown-level limits
};

// the status once no GPU is over its limit: partial offload (the host's share against RAM) or comfortable / tight
FitStatus status_within_limits(const Placer& P, const DevTotals& host, double worst) {
    if (host.n_layers > 0) {
        const uint64_t ram = P.ram;
        return ram > 0 && host.total > (ram > kHostRamReserveBytes ? ram - kHostRamReserveBytes : 0) ? FitStatus::Oom
                                                                                                   : FitStatus::PartialOffload;
    }
    return worst <= kComfortableFraction ? FitStatus::Comfortable : FitStatus::Tight;
}

// a mixed rig / RPC: each device against its own limit; a unified-memory device over its default working set but
// under the raised one is TUNABLE_UMA; the local machine's GPU parts and host buffers share its RAM when it is unified
Judged judge_rig(const Placer& P, const DevTotals* dev) {
    Judged j;
    const int G = P.G;
    const DevTotals& host = dev[G];
    double worst = 0;
    bool over_raised = false, over_discrete = false;
    uint64_t local_total = host.total;
    for (int g = 0; g < G; ++g) {
        const RigDevice& rd = (*P.rig)[(size_t)(P.first_gpu + g)];
        const uint64_t lim = P.lim_g[(size_t)g];
        j.usable += lim;
        j.usable_raised += P.lim_raised_g[(size_t)g];
        const double ratio = lim ? (double)dev[g].total / (double)lim : 1e9;
        worst = std::max(worst, ratio);
        over_raised |= dev[g].total > P.lim_raised_g[(size_t)g];
        over_discrete |= ratio > 1.0 && !rd.hw.unified_memory();
        if (rd.host == 0) local_total += dev[g].total;
    }
    const Hardware* hw = P.r.hardware;
    if (over_raised || over_discrete || (hw->unified_memory() && local_total > P.pool)) { j.status = FitStatus::Oom; return j; }
    if (worst > 1.0) { j.status = FitStatus::TunableUma; return j; }
    j.status = status_within_limits(P, host, worst);
    return j;
}

// status of a placed configuration against the hardware (no search); memory_reference.cpp's judge()
Judged judge_devices(const Placer& P, const DevTotals* dev, uint64_t total) {
    Judged j;
    const Hardware* hw = P.r.hardware;
    if (!hw) return j;
    const int G = P.G;
    const DevTotals& host = dev[G];
    if (G == 0) {
        // CPU-only: everything lives in RAM
        const uint64_t usable = P.cpu_usable;
        j.usable = j.usable_raised = usable;
        if (usable == 0 || host.total > usable) j.status = FitStatus::Oom;
        else j.status = (double)host.total <= kComfortableFraction * (double)usable ? FitStatus::Comfortable : FitStatus::Tight;
        return j;
    }
    if (P.rig) return judge_rig(P, dev);
    j.usable = P.lim * (uint64_t)G;
    j.usable_raised = P.lim_raised * (uint64_t)G;
    // identical GPUs, one limit: the worst ratio is the largest part's (the conversion and the division by a positive
    // limit round monotonically, so max(x_g / lim) is max(x_g) / lim to the bit), one division instead of G
    uint64_t most = 0;
    for (int g = 0; g < G; ++g) most = std::max(most, dev[g].total);
    const double worst = P.lim ? (double)most / (double)P.lim : 1e9;
    const bool over_raised = most > P.lim_raised;
    if (hw->unified_memory()) {
        // one pool: GPU buffers count against the working-set / GTT limit, everything against RAM
        if (over_raised || total > P.pool) { j.status = FitStatus::Oom; return j; }
        if (worst > 1.0) { j.status = FitStatus::TunableUma; return j; }
    } else if (worst > 1.0) {
        j.status = FitStatus::Oom;
        return j;
    }
    j.status = status_within_limits(P, host, worst);
    return j;
}

bool fits(FitStatus s) {
    return s == FitStatus::Comfortable || s == FitStatus::Tight || s == FitStatus::TunableUma ||
           s == FitStatus::PartialOffload;
}

// a == b over n bytes; the few lengths of device names with constant-length compares, which the compiler makes
// inline (libc's memcmp for a run-time length cost more than the compare; so did a byte loop)
bool same_bytes(const char* a, const char* b, size_t n) {
    switch (n) {
        case 4: return std::memcmp(a, b, 4) == 0;
        case 5: return std::memcmp(a, b, 5) == 0;
        case 6: return std::memcmp(a, b, 6) == 0;
        case 7: return std::memcmp(a, b, 7) == 0;
        case 8: return std::memcmp(a, b, 8) == 0;
        default: return std::memcmp(a, b, n) == 0;
    }
}

// name = text (n bytes), without rewriting a name that already holds it: a reused breakdown keeps its names
inline void set_name(std::string& name, const char* text, size_t n) {
    if (name.size() != n || !same_bytes(name.data(), text, n)) name.assign(text, n);
}

// one full placement written into a breakdown (devices with names, totals, details), plus its status (j: its
// judge_devices)
void write_breakdown(const Placer& P, const Layout& lo, const CtxPlan& c, const DevTotals* dev, uint64_t total,
                     const Judged& j, MemoryBreakdown& out) {
    const int G = P.G;
    // reuse the devices (and their name buffers) of a breakdown written before; reset_breakdown() leaves them in place
    out.devices.resize((size_t)G + 1);
    out.weights_bytes = out.kv_cache_bytes = out.compute_bytes = out.overhead_bytes = 0;
    for (int d = 0; d <= G; ++d) {
        DeviceMemory& x = out.devices[(size_t)d];
        if (d < G && P.rig) {
            const RigDevice& rd = (*P.rig)[(size_t)(P.first_gpu + d)];
            x.name = rd.llama_name;
            x.hardware_id = rd.hw.id;
            x.host = rd.host;
        } else {
            if (d < G) set_name(x.name, P.gpu_names[(size_t)d].text, P.gpu_names[(size_t)d].n);
            else set_name(x.name, "host", 4);
            if (!x.hardware_id.empty()) x.hardware_id.clear();
            x.host = 0;
        }
        // each GPU's own limit; a CPU-only device's host row the whole device's (no hardware: none)
        x.usable_bytes = !P.r.hardware ? 0 : d < G ? P.lim_g[(size_t)d] : G == 0 ? j.usable : 0;
        x.weights_bytes = dev[d].weights;
        x.kv_cache_bytes = dev[d].kv;
        x.compute_bytes = dev[d].compute;
        x.overhead_bytes = dev[d].overhead;
        x.total_bytes = dev[d].total;
        x.n_layers = dev[d].n_layers;
        out.weights_bytes += x.weights_bytes;
        out.kv_cache_bytes += x.kv_cache_bytes;
        out.compute_bytes += x.compute_bytes;
        out.overhead_bytes += x.overhead_bytes;
    }
    out.total_bytes = total;
    const PreparedWeights& w = P.w;
    const uint64_t nf = (uint64_t)w.full_layers_prefix[(size_t)P.L];
    const uint64_t ns = (uint64_t)w.swa_layers_prefix[(size_t)P.L];
    const uint64_t nr = (uint64_t)w.recurrent_layers_prefix[(size_t)P.L];
    out.kv_k_bytes = nf * c.k_full + ns * c.k_swa;
    out.kv_v_bytes = nf * c.v_full + ns * c.v_swa;
    out.recurrent_state_bytes = nr * P.state_layer;
    out.kv_cells_full = c.cells.per_stream * c.cells.streams;
    out.kv_cells_swa = c.cells.swa_per_stream * c.cells.streams;
    out.gpu_layers = lo.ngl;
    out.n_layers = P.L;
    out.params = w.params.total;
    out.bits_per_weight = w.bits_per_weight;
    out.file_bytes = P.r.file_bytes_override ? *P.r.file_bytes_override : w.file_bytes_estimate;

    out.status = j.status;
    if (P.r.hardware) {
        out.usable_bytes = j.usable;
        out.usable_raised_bytes = j.usable_raised;
    }
}

// a default breakdown, keeping the vectors' capacity (no zero-filled temporary, no reallocation when reused);
// the devices stay for write_breakdown() to overwrite: a caller that returns without writing them clears them
void reset_breakdown(MemoryBreakdown& b) {
    b.weights_bytes = b.kv_cache_bytes = b.compute_bytes = b.overhead_bytes = b.total_bytes = 0;
    b.usable_bytes = b.usable_raised_bytes = 0;
    b.status = FitStatus::Unknown;
    b.max_context = -1;
    b.max_context_extended = false;
    b.gpu_layers = 0;
    b.fit_gpu_layers = -1;
    b.n_layers = 0;
    b.kv_k_bytes = b.kv_v_bytes = b.recurrent_state_bytes = 0;
    b.kv_cells_full = b.kv_cells_swa = 0;
    b.file_bytes = 0;
    b.bits_per_weight = 0;
    b.params = 0;
    b.notes.clear();
}

}  // namespace

// [SECTION] Fit search -----------------------------------------------------------------------------------

namespace {

// the fit search's layouts by -ngl: a layout does not depend on the context, and a device's contexts probe mostly the
// same ones (the bisection starts from the same range). Direct-mapped, one slot per ngl mod kSlots
struct LayoutCache {
    static constexpr int kSlots = 16;
    const Placer& P;
    int tag[kSlots];
    Layout slot[kSlots];
    explicit LayoutCache(const Placer& P_) : P(P_) { std::fill(tag, tag + kSlots, -1); }
    // make_layout(P, ngl) (ngl >= 0); valid until the next get of the same slot
    const Layout& get(int ngl) {
        const int i = ngl & (kSlots - 1);
        if (tag[i] != ngl) {
            make_layout(P, ngl, slot[i]);
            tag[i] = ngl;
        }
        return slot[i];
    }
};

// the fit search's answers for one device: does the GPU part of -ngl k fit, and the layout of -ngl k (made on the first
// search: most placements need none). A grid's devices of one shape share theirs (GridFit)
struct DeviceFit {
    const Placer& P;
    const CtxPlan& plan;
    std::optional<LayoutCache>& layouts;
    const Layout& layout_of(int ngl) {
        if (!layouts) layouts.emplace(P);
        return layouts->get(ngl);
    }
    bool fits_at(int ngl) { return gpus_fit(P, layout_of(ngl), plan); }
};

// one context's breakdown on a ready placer, written once: the requested layer layout `want` (want_ngl) placed (dev,
// total), llama.cpp's fit search when that is OOM on the GPUs (fit: DeviceFit or GridFit) and the partial offload it
// may pick (placed in `scratch`), then the notes. Returns the layout written
template <class Fit>
const Layout& decide_placement(const Placer& P, const Layout& want, int want_ngl, const CtxPlan& plan,
                               const DevTotals* dev, uint64_t total, Fit& fit, DevTotals* scratch, MemoryBreakdown& out) {
    const MemoryRequest& req = P.r;
    const int L = P.L, G = P.G;
    reset_breakdown(out);
    const Layout* lo = &want;   // the layout written (the fit search may pick a partial offload)
    Judged j = judge_devices(P, dev, total);
    int fit_layers = -1;
    if (req.hardware && G > 0 && j.status == FitStatus::Oom) {
        // fewest layers to offload: the most -ngl whose GPU part fits (binary search; GPU use grows with ngl)
        int lo_ngl = 0, hi_ngl = std::min(want_ngl, L + 1) - 1, best = -1;
        while (lo_ngl <= hi_ngl) {
            const int mid = (lo_ngl + hi_ngl) / 2;
            if (fit.fits_at(mid)) { best = mid; lo_ngl = mid + 1; } else hi_ngl = mid - 1;
        }
        fit_layers = best;
        if (req.n_gpu_layers < 0 && best >= 1 && P.ram > 0 && !req.hardware->unified_memory()) {
            // auto placement (like llama.cpp --fit): use the partial offload when host RAM holds the rest
            const Layout& probe = fit.layout_of(best);
            const uint64_t probe_total = place_devices(P, probe, plan, scratch);
            const Judged jp = judge_devices(P, scratch, probe_total);
            if (jp.status == FitStatus::PartialOffload) {
                lo = &probe;
                dev = scratch;
                total = probe_total;
                j = jp;
            }
        }
    } else if (req.hardware) {
        fit_layers = want.ngl;   // the layers written
    }
    write_breakdown(P, *lo, plan, dev, total, j, out);
    out.fit_gpu_layers = fit_layers;
    if (req.with_notes) {
        if (!P.w.gguf) out.notes.push_back("weights from the catalog's flat bits-per-weight (no per-tensor rules for this format)");
        if (G > 0) out.notes.push_back("GPU runtime overhead and GPU compute buffers are estimates (fitted on llama.cpp's CPU backend)");
    }
    return *lo;
}

// the largest multiple of 256 (up to the native context, or the extended one when allowed) that still fits with the
// layout `lo`; memory grows monotonically with n_ctx, so bisect (each probe is O(devices)). dev: G + 1 of scratch
void search_max_context(const Placer& P, const Layout& lo, DevTotals* dev, MemoryBreakdown& out) {
    const Model& m = P.m;
    int64_t limit = m.native_context > 0 ? m.native_context : 131072;
    if (P.r.allow_extended_context && m.extended_context > limit) limit = m.extended_context;
    int64_t lo_c = 1, hi_c = limit / kKvCellPad, best = 0;
    CtxPlan c;
    while (lo_c <= hi_c) {
        const int64_t mid = (lo_c + hi_c) / 2;
        make_ctx_plan(P, mid * kKvCellPad, c);
        const uint64_t total = place_devices(P, lo, c, dev);
        if (fits(judge_devices(P, dev, total).status)) { best = mid; lo_c = mid + 1; } else hi_c = mid - 1;
    }
    out.max_context = best * kKvCellPad;
    out.max_context_extended = m.native_context > 0 && out.max_context > m.native_context;
}

// one context's breakdown on a ready placer: the requested layer layout `want` (want_ngl), then llama.cpp's fit search
// when it does not fit, then the max-context search. dev, scratch: G + 1 entries each
void estimate_placed(const Placer& P, const Layout& want, int want_ngl, int64_t n_ctx, DevTotals* dev,
                     DevTotals* scratch, std::optional<LayoutCache>& layouts, MemoryBreakdown& out) {
    CtxPlan plan;
    make_ctx_plan(P, n_ctx, plan);
    const uint64_t total = place_devices(P, want, plan, dev);
    DeviceFit fit{P, plan, layouts};
    const Layout& lo = decide_placement(P, want, want_ngl, plan, dev, total, fit, scratch, out);
    if (P.r.hardware && P.r.compute_max_context) search_max_context(P, lo, dev, out);
}

// the layer layout the request asks for (-ngl; all layers and the output by default)
int wanted_gpu_layers(const Placer& P) { return P.r.n_gpu_layers < 0 ? P.L + 1 : P.r.n_gpu_layers; }

// a request's breakdowns all reset, for a failed estimate
void reset_all(MemoryBreakdown* const* out, int count) {
    for (int i = 0; i < count; ++i) {
        reset_breakdown(*out[i]);
        out[i]->devices.clear();
    }
}

// what a grid's devices of one shape (backend, GPU count; no rig) share: the placer (checks, split; its limits are each
// device's in turn), the requested layout, each context's cells and placement of it, and the fit search's layouts and
// GPU parts by -ngl. Never moved once made (the layouts' buffers point into themselves)
struct GridShape {
    static constexpr uint64_t kUnknown = ~(uint64_t)0;
    Shape shape;
    Placer P;
    bool ok = false;
    std::string err;
    int want_ngl = 0;
    Layout want;
    std::vector<CtxPlan> plans;      // per context
    std::vector<DevTotals> dev;      // per context, G + 1 devices: the requested layout placed
    std::vector<uint64_t> total;     // per context: the sum of its devices
    std::vector<uint64_t> need;      // per context, -ngl 0..L+1: the largest GPU part (kUnknown until the search asks)
    std::unique_ptr<Layout[]> layouts;
    std::vector<char> made;          // layouts[ngl] is made
    GridShape(const PreparedWeights& w, const Model& m, const MemoryRequest& r) : P(w, m, r) {}
    const Layout& layout_of(int ngl) {
        if (!made[(size_t)ngl]) {
            make_layout(P, ngl, layouts[(size_t)ngl]);
            made[(size_t)ngl] = 1;
        }
        return layouts[(size_t)ngl];
    }
    // init_placer and every context's placement of the requested layout (P.r.hardware: the shape's first device)
    void init(const int64_t* contexts, int count) {
        ok = init_placer(P, contexts[0], err);
        for (int i = 1; ok && i < count; ++i) ok = check_context(contexts[i], err);
        if (!ok) return;
        const int G = P.G, L = P.L;
        want_ngl = wanted_gpu_layers(P);
        make_layout(P, want_ngl, want);
        plans.resize((size_t)count);
        dev.resize((size_t)count * (size_t)(G + 1));
        total.resize((size_t)count);
        for (int i = 0; i < count; ++i) {
            make_ctx_plan(P, contexts[i], plans[(size_t)i]);
            total[(size_t)i] = place_devices(P, want, plans[(size_t)i], &dev[(size_t)i * (size_t)(G + 1)]);
        }
        need.assign((size_t)count * (size_t)(L + 2), kUnknown);
        layouts.reset(new Layout[(size_t)L + 2]);
        made.assign((size_t)L + 2, 0);
    }
};

// the fit search of one context on a grid shape: gpus_fit's answer from the shape's GPU parts (identical GPUs: every
// GPU within the device's one limit is the largest part within it)
struct GridFit {
    GridShape& s;
    int ctx;
    const Layout& layout_of(int ngl) { return s.layout_of(ngl); }
    bool fits_at(int ngl) {
        uint64_t& need = s.need[(size_t)ctx * (size_t)(s.P.L + 2) + (size_t)ngl];
        if (need == GridShape::kUnknown) {
            const Layout& lo = s.layout_of(ngl);
            DevTotals d;
            need = 0;
            for (int g = 0; g < s.P.G; ++g) {
                place_gpu(s.P, lo, s.plans[(size_t)ctx], g, d);
                need = std::max(need, d.total);
            }
        }
        return need <= s.P.lim;
    }
};

}  // namespace

bool estimate_memory(const PreparedWeights& w, const Model& m, const MemoryRequest& req, MemoryBreakdown& out,
                     std::string& err) {
    MemoryBreakdown* one = &out;
    return estimate_memory_contexts(w, m, req, &req.n_ctx, 1, &one, err);
}

bool estimate_memory_contexts(const PreparedWeights& w, const Model& m, const MemoryRequest& req,
                              const int64_t* contexts, int count, MemoryBreakdown* const* out, std::string& err) {
    if (count <= 0) return true;
    Placer P(w, m, req);
    bool ok = init_placer(P, contexts[0], err);
    for (int i = 1; ok && i < count; ++i) ok = check_context(contexts[i], err);
    if (!ok) {
        reset_all(out, count);
        return false;
    }
    // the placer (checks, split, limits) and the requested layout do not depend on the context: made once
    SmallBuf<DevTotals, 9> dev, scratch;
    dev.resize((size_t)P.G + 1);
    scratch.resize((size_t)P.G + 1);
    const int want_ngl = wanted_gpu_layers(P);
    Layout want;
    make_layout(P, want_ngl, want);
    std::optional<LayoutCache> layouts;
    for (int i = 0; i < count; ++i) estimate_placed(P, want, want_ngl, contexts[i], dev.p, scratch.p, layouts, *out[i]);
    return true;
}

struct MemoryGrid::Impl {
    const PreparedWeights& w;
    const Model& m;
    MemoryRequest rd;   // its hardware is each device's in turn: the shapes' placers read it
    const int64_t* contexts;
    int count;
    std::vector<std::unique_ptr<GridShape>> shapes;
    SmallBuf<DevTotals, 9> scratch, search;
    Impl(const PreparedWeights& w_, const Model& m_, const MemoryRequest& r, const int64_t* c, int n)
        : w(w_), m(m_), rd(r), contexts(c), count(n) {}
    bool device(const Hardware* hw, MemoryBreakdown* const* o, std::string& err);
};

bool MemoryGrid::Impl::device(const Hardware* hw, MemoryBreakdown* const* o, std::string& err) {
    rd.hardware = hw;
    const Shape sh = shape_of(rd);
    if (count <= 0 || sh.rig)   // a rig: each device its own limits and float split, nothing to share
        return estimate_memory_contexts(w, m, rd, contexts, count, o, err);
    GridShape* s = nullptr;
    for (const std::unique_ptr<GridShape>& x : shapes)
        if (x->shape == sh) s = x.get();
    if (!s) {
        shapes.push_back(std::make_unique<GridShape>(w, m, rd));
        s = shapes.back().get();
        s->shape = sh;
        s->init(contexts, count);
    }
    if (!s->ok) {
        err = s->err;
        reset_all(o, count);
        return false;
    }
    Placer& P = s->P;
    set_limits(P);
    scratch.resize((size_t)P.G + 1);
    search.resize((size_t)P.G + 1);
    for (int i = 0; i < count; ++i) {
        GridFit fit{*s, i};
        const Layout& lo = decide_placement(P, s->want, s->want_ngl, s->plans[(size_t)i],
                                            &s->dev[(size_t)i * (size_t)(P.G + 1)], s->total[(size_t)i], fit,
                                            scratch.p, *o[i]);
        if (hw && rd.compute_max_context) search_max_context(P, lo, search.p, *o[i]);
    }
    return true;
}

MemoryGrid::MemoryGrid(const PreparedWeights& w, const Model& m, const MemoryRequest& req, const int64_t* contexts,
                       int count)
    : impl_(std::make_unique<Impl>(w, m, req, contexts, count)) {}
MemoryGrid::~MemoryGrid() = default;
bool MemoryGrid::device(const Hardware* hw, MemoryBreakdown* const* out, std::string& err) {
    return impl_->device(hw, out, err);
}

void estimate_memory_grid(const PreparedWeights& w, const Model& m, const MemoryRequest& req,
                          const Hardware* const* devices, int n_devices, const int64_t* contexts, int count,
                          MemoryBreakdown* const* out, bool* ok, std::string* errs) {
    MemoryGrid grid(w, m, req, contexts, count);
    for (int d = 0; d < n_devices; ++d)
        ok[d] = grid.device(devices[d], out + (size_t)d * (size_t)std::max(count, 0), errs[d]);
}

bool estimate_memory(const Catalog& cat, const Model& m, const MemoryRequest& req, MemoryBreakdown& out,
                     std::string& err) {
    QuantOptions qo;
    qo.exact_tensor_data_bytes = req.tensor_data_bytes_exact.value_or(0);
    const std::shared_ptr<const PreparedWeights> w = prepare_weights(
        cat, m, req.file_type, err, req.tensor_data_bytes_exact ? 0 : req.file_bytes_override.value_or(0), qo);
    if (!w) {
        reset_breakdown(out);
        out.devices.clear();
        return false;
    }
    return estimate_memory(*w, m, req, out, err);
}

std::string best_fitting_file_type(const Catalog& cat, const Model& model, const MemoryRequest& req,
                                   const std::vector<std::string>& candidates, bool allow_tunable) {
    if (!req.hardware) return "";
    std::string best;
    double best_bpw = -1;
    for (const std::string& c : candidates) {
        MemoryRequest r = req;
        r.file_type = c;
        r.compute_max_context = false;
        MemoryBreakdown mb;
        std::string err;
        if (!estimate_memory(cat, model, r, mb, err)) continue;
        const bool ok = mb.status == FitStatus::Comfortable || mb.status == FitStatus::Tight ||
                        (allow_tunable && mb.status == FitStatus::TunableUma);
        if (ok && mb.bits_per_weight > best_bpw) { best_bpw = mb.bits_per_weight; best = c; }
    }
    return best;
}

int64_t default_context_tokens(const Catalog& cat, const Model& model, const MemoryRequest& req) {
    const int64_t native = model.native_context > 0 ? model.native_context : 131072;
    const int64_t floor_tokens = std::min<int64_t>(native, 4096);
    if (!req.hardware) return native;
    auto fits_at = [&](int64_t n_ctx) {
        MemoryRequest r = req;
        r.n_ctx = n_ctx;
        r.compute_max_context = false;
        r.with_notes = false;
        MemoryBreakdown mb;
        std::string err;
        if (!estimate_memory(cat, model, r, mb, err)) return false;
        return mb.status == FitStatus::Comfortable || mb.status == FitStatus::Tight || mb.status == FitStatus::TunableUma;
    };
    if (fits_at(native)) return native;
    int64_t c = 1;
    while (c * 2 < native) c *= 2;   // the largest power of two below the native context
    for (; c > floor_tokens; c /= 2)
        if (fits_at(c)) return c;
    return floor_tokens;
}

}  // namespace llmsim
