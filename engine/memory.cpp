// llmsim memory model: see memory.h and docs/memory-model.md.
//
// [SECTION] Helpers
// [SECTION] KV cache
// [SECTION] Compute buffers
// [SECTION] Usable memory
// [SECTION] Placement and totals
// [SECTION] Fit search (status, max context, layers, quant)
#include "memory.h"

#include <algorithm>
#include <cmath>

#include "model_tensors.h"

namespace llmsim {

// [SECTION] Helpers --------------------------------------------------------------------------------------

namespace {

uint64_t pad_up(uint64_t x, uint64_t a) { return (x + a - 1) / a * a; }

int effective_ubatch(const MemoryRequest& r, int64_t n_ctx_pad) {
    // llama.cpp: n_batch = min(n_ctx, n_batch) for causal models; n_ubatch = min(n_batch, n_ubatch)
    int64_t b = std::min<int64_t>(std::max(1, r.n_batch), n_ctx_pad);
    return (int)std::max<int64_t>(1, std::min<int64_t>(std::max(1, r.n_ubatch), b));
}

struct CellPlan {
    int64_t n_ctx_pad = 0;      // n_ctx rounded up to 256
    int64_t streams = 1;        // KV streams (n_parallel unless --kv-unified)
    int64_t per_stream = 0;     // full-attention cells per stream = n_kv a sequence attends to
    int64_t swa_per_stream = 0; // SWA cells per stream
    int ubatch = 512;
};

CellPlan plan_cells(const Model& m, const MemoryRequest& r) {
    CellPlan p;
    p.n_ctx_pad = (int64_t)pad_up((uint64_t)r.n_ctx, kKvCellPad);
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

// recurrent state of one layer for one sequence when the catalog has none: Mamba-1 conv + ssm state, f32
// (llama.cpp n_embd_r = (d_conv-1) d_inner, n_embd_s = d_state d_inner), d_inner = 2 n_embd, d_conv 4, d_state 16
uint64_t default_state_bytes(const Model& m) {
    const uint64_t d_inner = 2 * (uint64_t)m.hidden_size;
    return 4 * (3 * d_inner + 16 * d_inner);
}

}  // namespace

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

// [SECTION] KV cache -------------------------------------------------------------------------------------

bool estimate_kv_cache(const Model& m, const MemoryRequest& r, KvCacheSize& out, std::string& err) {
    out = KvCacheSize{};
    if (r.n_ctx < 1) { err = "context must be at least 1 token (got " + std::to_string(r.n_ctx) + ")"; return false; }
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
    const CellPlan p = plan_cells(m, r);
    out.cells_full = p.per_stream * p.streams;
    out.cells_swa = p.swa_per_stream * p.streams;
    const int64_t n_kv_heads = m.n_kv_heads > 0 ? m.n_kv_heads : m.n_heads;
    const uint64_t k_row = m.mla ? (uint64_t)(m.mla->kv_lora_rank + m.mla->qk_rope_head_dim)
                                 : (uint64_t)(n_kv_heads * m.head_dim);
    const uint64_t v_row = m.mla ? 0 : (uint64_t)(n_kv_heads * m.kv_head_dim_v());
    if (k_row % (uint64_t)tk.block_size != 0 || v_row % (uint64_t)tv.block_size != 0) {
        err = std::string("KV cache type ") + tk.name + "/" + tv.name + " needs K/V rows that are a multiple of " +
              std::to_string(std::max(tk.block_size, tv.block_size)) + " (this model has " + std::to_string(k_row) +
              "); use f16 or q8_0";
        return false;
    }
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

ComputeSize estimate_compute_buffer(const Model& m, const MemoryRequest& r, bool with_layers, bool with_output) {
    ComputeSize c;
    const CellPlan p = plan_cells(m, r);
    const uint64_t T = (uint64_t)p.ubatch;
    const uint64_t n_embd = (uint64_t)m.hidden_size;
    const uint64_t n_vocab = (uint64_t)m.vocab_size;
    const uint64_t n_head = (uint64_t)std::max(1, m.n_heads);
    const uint64_t n_kv_heads = (uint64_t)(m.n_kv_heads > 0 ? m.n_kv_heads : m.n_heads);
    const uint64_t n_q = n_head * (uint64_t)m.head_dim;
    const uint64_t n_v_gqa = n_kv_heads * (uint64_t)m.kv_head_dim_v();
    const bool moe = m.is_moe();
    const uint64_t n_used = moe ? (uint64_t)m.moe->n_experts_active : 0;
    const uint64_t n_ff_exp = moe ? (uint64_t)m.moe->expert_ffn : 0;

    // output phase: logits f32 [n_vocab, T] + the two f32 [n_embd, T] activations below them (+4 B/token of
    // output ids). MoE: the allocator leaves the last layer's expert gate/up buffers [n_ff_exp, n_used, T] f32 below
    // the logits (DeepSeek-V2-Lite: +67584 B/token predicted vs +66072 measured).
    c.output_phase = T * (4 * n_vocab + 8 * n_embd + 4) + (moe ? T * 8 * n_used * n_ff_exp : 0);

    // attention phase
    bool has_full = false, has_swa = false;
    for (int il = 0; il < m.n_layers; ++il) {
        if (!layer_has_attention(m, il)) continue;
        (layer_is_swa(m, il) ? has_swa : has_full) = true;
    }
    const uint64_t kv_full = has_full ? (uint64_t)p.per_stream : 0;
    const uint64_t kv_swa = has_swa ? (uint64_t)p.swa_per_stream : 0;
    const uint64_t n_kv_max = std::max(kv_full, kv_swa);
    const uint64_t n_caches = (has_full ? 1 : 0) + (has_swa ? 1 : 0);
    if (m.mla) {
        const uint64_t kv_lora = (uint64_t)m.mla->kv_lora_rank, rope = (uint64_t)m.mla->qk_rope_head_dim;
        // absorbed-MLA intermediates per token: q_nope x wk_b, concat(q, q_pe), the attention output, one residual
        const uint64_t per_tok = 4 * n_head * (3 * kv_lora + rope) + 4 * n_embd + 20;
        if (r.flash_attn) {
            c.attention_phase = T * per_tok + T * 2 * n_kv_max;  // + f16 mask
        } else {
            // KQ scores f32 [n_kv, T, n_head] + f32 mask [n_kv, T] + a contiguous copy of V [n_kv, kv_lora]
            c.attention_phase = T * per_tok + T * 4 * (n_head + 1) * n_kv_max + n_kv_max * row_bytes(r.kv_type_k, kv_lora);
        }
    } else {
        // per token: 3 n_embd + 2 n_q f32 activations (residual, norm, Q, attention output, ...) + 20 B of inputs
        const uint64_t per_tok = 12 * n_embd + 8 * n_q + 20;
        if (r.flash_attn) {
            c.attention_phase = T * per_tok + T * 2 * (kv_full + kv_swa);  // f16 masks; FA keeps no scores
        } else {
            // KQ scores f32 [n_kv, T, n_head] (softmax in place) + f32 masks [n_kv, T] per cache + the i64 row
            // indices for the transposed V store [n_v_gqa, T] per cache
            c.attention_phase = T * per_tok + T * 4 * n_head * n_kv_max + T * 4 * (kv_full + kv_swa) +
                                T * 8 * n_v_gqa * n_caches;
        }
    }

    // FFN phase (never the maximum in the calibration runs; physical estimate)
    uint64_t ffn = 0;
    for (int il = 0; il < m.n_layers; ++il) {
        uint64_t f;
        if (layer_is_moe(m, il)) {
            const uint64_t n_exp = (uint64_t)m.moe->n_experts;
            const uint64_t n_sh = (uint64_t)m.moe->n_shared_experts *
                                  (uint64_t)(m.moe->shared_ffn > 0 ? m.moe->shared_ffn : m.moe->expert_ffn);
            f = T * 4 * (3 * n_embd + 3 * n_exp + 3 * n_used * n_ff_exp + 2 * n_used * n_embd + 3 * n_sh);
        } else {
            f = T * 4 * (3 * n_embd + 3 * (uint64_t)std::max<int64_t>(0, m.intermediate_size));
        }
        ffn = std::max(ffn, f);
    }
    c.ffn_phase = ffn;

    uint64_t total = 0;
    if (with_output) total = std::max(total, c.output_phase);
    if (with_layers) total = std::max(total, std::max(c.attention_phase, c.ffn_phase));
    if (!with_output && !with_layers) total = T * 8 * n_embd;  // input embeddings staged for the GPUs
    c.total = total;
    return c;
}

// [SECTION] Usable memory --------------------------------------------------------------------------------

namespace {
uint64_t ram_of(const Hardware& hw) {
    return hw.system_ram_bytes > 0 ? (uint64_t)hw.system_ram_bytes : (uint64_t)hw.memory_bytes;
}
}  // namespace

uint64_t usable_gpu_bytes(const Hardware& hw, const MemoryRequest& r) {
    if (hw.kind == HardwareKind::Apple) {
        if (hw.gpu_limit_default_bytes > 0) return (uint64_t)hw.gpu_limit_default_bytes;
        const uint64_t ram = ram_of(hw);
        const double f = ram <= 36 * kGiB ? kAppleDefaultFractionSmall : kAppleDefaultFraction;
        return (uint64_t)((double)ram * f);
    }
    if (hw.kind == HardwareKind::Apu) {
        if (hw.gpu_limit_default_bytes > 0) return (uint64_t)hw.gpu_limit_default_bytes;
        return (uint64_t)((double)ram_of(hw) * kApuDefaultFraction);
    }
    if (hw.kind == HardwareKind::Cpu) {
        const uint64_t ram = ram_of(hw);
        return ram > kHostRamReserveBytes ? ram - kHostRamReserveBytes : 0;
    }
    const uint64_t reserve = r.gpu_reserve_bytes >= 0 ? (uint64_t)r.gpu_reserve_bytes
                             : hw.kind == HardwareKind::Datacenter ? kGpuReserveDatacenterBytes
                                                                   : kGpuReserveDesktopBytes;
    const uint64_t total = (uint64_t)std::max<int64_t>(0, hw.memory_bytes);
    return total > reserve ? total - reserve : 0;
}

uint64_t usable_gpu_bytes_raised(const Hardware& hw, const MemoryRequest& r) {
    if (!hw.unified_memory()) return usable_gpu_bytes(hw, r);
    if (hw.gpu_limit_max_bytes > 0) return (uint64_t)hw.gpu_limit_max_bytes;
    const uint64_t ram = ram_of(hw);
    return std::max(usable_gpu_bytes(hw, r), ram > kUmaOsReserveBytes ? ram - kUmaOsReserveBytes : 0);
}

// [SECTION] Placement and totals -------------------------------------------------------------------------

namespace {

struct Prepared {
    std::vector<TensorDesc> tensors;
    std::vector<uint64_t> bytes;       // per tensor, after file-size scaling
    WeightSize ws;
    Backend backend = Backend::Cpu;
    int n_gpus = 0;
};

bool prepare(const Catalog& cat, const Model& m, const MemoryRequest& r, Prepared& p, std::string& err) {
    if (!compute_weight_size(m, r.file_type, p.ws, err, &cat)) return false;
    if (p.ws.gguf) {
        p.tensors = p.ws.tensors;
        p.bytes = p.ws.bytes;
    } else {
        // flat-bpw formats: spread the bytes over the tensors in proportion to their parameters (for placement)
        if (!enumerate_tensors(m, p.tensors, err)) return false;
        const double bpw = p.ws.bits_per_weight;
        for (const TensorDesc& t : p.tensors) p.bytes.push_back((uint64_t)((double)t.n_elements() * bpw / 8.0 + 0.5));
    }
    if (r.file_bytes_override > 0 && p.ws.file_bytes_estimate > 0) {
        const double s = (double)r.file_bytes_override / (double)p.ws.file_bytes_estimate;
        for (uint64_t& b : p.bytes) b = (uint64_t)((double)b * s + 0.5);
    }
    if (r.hardware) {
        p.backend = r.backend ? *r.backend : (r.hardware->backends.empty() ? Backend::Cpu : r.hardware->backends[0]);
        if (r.hardware->kind == HardwareKind::Cpu) p.backend = Backend::Cpu;
        p.n_gpus = p.backend == Backend::Cpu ? 0 : std::max(1, r.hardware->gpu_count);
    } else if (r.backend && *r.backend != Backend::Cpu) {
        p.backend = *r.backend;
        p.n_gpus = 1;
    }
    if (!r.tensor_split.empty() && p.n_gpus > 0 && (int)r.tensor_split.size() != p.n_gpus) {
        err = "--tensor-split has " + std::to_string(r.tensor_split.size()) + " values but the hardware has " +
              std::to_string(p.n_gpus) + " GPUs";
        return false;
    }
    return true;
}

// place weights, KV and compute for a given -ngl and context; fills devices and totals, not status
bool place(const Model& m, const MemoryRequest& r, const Prepared& p, int ngl, MemoryBreakdown& out, std::string& err) {
    KvCacheSize kv;
    if (!estimate_kv_cache(m, r, kv, err)) return false;
    const int L = m.n_layers;
    const int G = p.n_gpus;
    ngl = G == 0 ? 0 : std::clamp(ngl, 0, L + 1);

    // llama.cpp llama_model::load_tensors: i_gpu_start = max(n_layer - ngl, 0); the output "layer" (index
    // n_layer) is on GPU only when ngl > n_layer; layers are split over GPUs by cumulative proportions
    const int i_gpu_start = std::max(L - ngl, 0);
    const int act = std::min(ngl, L + 1);
    std::vector<double> split((size_t)std::max(G, 1), 1.0);
    if (!r.tensor_split.empty()) split = r.tensor_split;
    double sum = 0;
    for (double& s : split) { s = std::max(0.0, s); sum += s; }
    if (sum <= 0) { err = "--tensor-split proportions must not all be zero"; return false; }
    std::vector<double> cum(split.size());
    double acc = 0;
    for (size_t i = 0; i < split.size(); ++i) { cum[i] = acc / sum; acc += split[i]; }
    // device index: 0..G-1 = GPUs, G = host
    auto device_of_layer = [&](int il) -> int {
        if (G == 0 || il < i_gpu_start || il - i_gpu_start >= act) return G;
        const double x = (double)(il - i_gpu_start) / (double)act;
        int d = (int)(std::upper_bound(cum.begin(), cum.end(), x) - cum.begin()) - 1;
        return std::clamp(d, 0, G - 1);
    };

    out.devices.clear();
    for (int g = 0; g < G; ++g) {
        DeviceMemory d;
        d.name = p.backend == Backend::Metal && G == 1 ? "Metal" : backend_device_prefix(p.backend) + std::to_string(g);
        out.devices.push_back(d);
    }
    DeviceMemory host;
    host.name = "host";
    out.devices.push_back(host);
    std::vector<DeviceMemory>& dev = out.devices;

    const int out_dev = device_of_layer(L);
    uint64_t max_host_layer_tensor = 0;
    uint64_t embd_bytes = 0;
    for (size_t i = 0; i < p.tensors.size(); ++i) {
        const TensorDesc& t = p.tensors[i];
        const uint64_t b = p.bytes[i];
        int d;
        if (t.name == "token_embd.weight") { d = G; embd_bytes = b; }   // input embeddings stay on the CPU
        else if (t.layer < 0) d = out_dev;                               // output, output_norm, rope factors
        else {
            d = device_of_layer(t.layer);
            if (t.routed_expert && (r.cpu_moe || t.layer < r.n_cpu_moe)) d = G;  // --cpu-moe / --n-cpu-moe
        }
        dev[(size_t)d].weights_bytes += b;
        if (d == G && t.layer >= 0) max_host_layer_tensor = std::max(max_host_layer_tensor, b);
    }
    // tied embeddings: llama.cpp creates output as a duplicate of token_embd on the output device
    if (m.tie_embeddings && out_dev != G) dev[(size_t)out_dev].weights_bytes += embd_bytes;

    for (int il = 0; il < L; ++il) {
        const int d = device_of_layer(il);
        dev[(size_t)d].kv_cache_bytes += kv.per_layer[(size_t)il];
        dev[(size_t)d].n_layers += 1;
    }

    // compute buffers
    for (int d = 0; d <= G; ++d) {
        const bool has_layers = dev[(size_t)d].n_layers > 0;
        const bool has_out = out_dev == d;
        if (d == G && G > 0 && !has_layers && !has_out) {
            dev[(size_t)d].compute_bytes = estimate_compute_buffer(m, r, false, false).total;
            continue;
        }
        if (d < G && !has_layers && !has_out) continue;
        dev[(size_t)d].compute_bytes = estimate_compute_buffer(m, r, has_layers, has_out).total;
    }
    // partial offload: with a batch >= 32 llama.cpp copies CPU-resident weights to the GPU for the matmul
    // (op offload), so GPU0's buffer must hold the largest such tensor (estimate)
    const CellPlan cp = plan_cells(m, r);
    if (G > 0 && max_host_layer_tensor > 0 && cp.ubatch >= 32) dev[0].compute_bytes += max_host_layer_tensor;

    // overhead: GPU runtime per device; host: process + logits output buffer (n_vocab f32 per sequence)
    for (int g = 0; g < G; ++g) dev[(size_t)g].overhead_bytes = backend_runtime_bytes(p.backend);
    dev[(size_t)G].overhead_bytes = kHostRuntimeBytes + 4 * (uint64_t)m.vocab_size * (uint64_t)std::max(1, r.n_parallel);

    out.weights_bytes = out.kv_cache_bytes = out.compute_bytes = out.overhead_bytes = out.total_bytes = 0;
    for (DeviceMemory& d : dev) {
        d.total_bytes = d.weights_bytes + d.kv_cache_bytes + d.compute_bytes + d.overhead_bytes;
        out.weights_bytes += d.weights_bytes;
        out.kv_cache_bytes += d.kv_cache_bytes;
        out.compute_bytes += d.compute_bytes;
        out.overhead_bytes += d.overhead_bytes;
        out.total_bytes += d.total_bytes;
    }
    out.kv_k_bytes = kv.k_bytes;
    out.kv_v_bytes = kv.v_bytes;
    out.recurrent_state_bytes = kv.state_bytes;
    out.kv_cells_full = kv.cells_full;
    out.kv_cells_swa = kv.cells_swa;
    out.gpu_layers = ngl;
    out.n_layers = L;
    out.params = p.ws.params;
    out.bits_per_weight = p.ws.bits_per_weight;
    out.file_bytes = r.file_bytes_override > 0 ? r.file_bytes_override : p.ws.file_bytes_estimate;
    return true;
}

// status of a placed configuration against the hardware (no search)
FitStatus judge(const MemoryRequest& r, const Prepared& p, MemoryBreakdown& mb) {
    const Hardware* hw = r.hardware;
    if (!hw) return FitStatus::Unknown;
    const int G = p.n_gpus;
    DeviceMemory& host = mb.devices.back();
    const uint64_t ram = r.host_ram_bytes > 0 ? r.host_ram_bytes : (uint64_t)std::max<int64_t>(0, hw->system_ram_bytes);
    if (G == 0) {
        // CPU-only: everything lives in RAM
        const uint64_t usable = hw->kind == HardwareKind::Cpu || ram == 0 ? usable_gpu_bytes(*hw, r)
                                                                          : (ram > kHostRamReserveBytes ? ram - kHostRamReserveBytes : 0);
        host.usable_bytes = usable;
        mb.usable_bytes = usable;
        mb.usable_raised_bytes = usable;
        if (usable == 0 || host.total_bytes > usable) return FitStatus::Oom;
        return (double)host.total_bytes <= kComfortableFraction * (double)usable ? FitStatus::Comfortable : FitStatus::Tight;
    }
    const uint64_t lim = usable_gpu_bytes(*hw, r);
    const uint64_t lim_raised = usable_gpu_bytes_raised(*hw, r);
    mb.usable_bytes = lim * (uint64_t)G;
    mb.usable_raised_bytes = lim_raised * (uint64_t)G;
    double worst = 0;
    bool over_raised = false;
    for (int g = 0; g < G; ++g) {
        DeviceMemory& d = mb.devices[(size_t)g];
        d.usable_bytes = lim;
        worst = std::max(worst, lim ? (double)d.total_bytes / (double)lim : 1e9);
        over_raised |= d.total_bytes > lim_raised;
    }
    if (hw->unified_memory()) {
        // one pool: GPU buffers count against the working-set / GTT limit, everything against RAM
        const uint64_t pool = ram_of(*hw);
        if (over_raised || mb.total_bytes > pool) return FitStatus::Oom;
        if (worst > 1.0) return FitStatus::TunableUma;
    } else if (worst > 1.0) {
        return FitStatus::Oom;
    }
    const bool host_layers = host.n_layers > 0;
    if (host_layers) {
        if (ram > 0 && host.total_bytes > (ram > kHostRamReserveBytes ? ram - kHostRamReserveBytes : 0)) return FitStatus::Oom;
        return FitStatus::PartialOffload;
    }
    return worst <= kComfortableFraction ? FitStatus::Comfortable : FitStatus::Tight;
}

bool fits(FitStatus s) {
    return s == FitStatus::Comfortable || s == FitStatus::Tight || s == FitStatus::TunableUma ||
           s == FitStatus::PartialOffload;
}

}  // namespace

// [SECTION] Fit search -----------------------------------------------------------------------------------

bool estimate_memory(const Catalog& cat, const Model& m, const MemoryRequest& req, MemoryBreakdown& out,
                     std::string& err) {
    out = MemoryBreakdown{};
    Prepared p;
    if (!prepare(cat, m, req, p, err)) return false;
    const int L = m.n_layers;
    const int want_ngl = req.n_gpu_layers < 0 ? L + 1 : req.n_gpu_layers;
    if (!place(m, req, p, want_ngl, out, err)) return false;
    out.status = judge(req, p, out);

    if (!p.ws.gguf) out.notes.push_back("weights from the catalog's flat bits-per-weight (no per-tensor rules for this format)");
    if (p.n_gpus > 0) out.notes.push_back("GPU runtime overhead and GPU compute buffers are estimates (fitted on llama.cpp's CPU backend)");

    if (req.hardware && p.n_gpus > 0 && out.status == FitStatus::Oom) {
        // fewest layers to offload: the most -ngl whose GPU part fits (binary search; GPU use grows with ngl)
        int lo = 0, hi = std::min(want_ngl, L + 1) - 1, best = -1;
        MemoryBreakdown probe;
        std::string e2;
        while (lo <= hi) {
            const int mid = (lo + hi) / 2;
            if (!place(m, req, p, mid, probe, e2)) break;
            bool gpu_ok = true;
            const uint64_t lim = usable_gpu_bytes(*req.hardware, req);
            for (int g = 0; g < p.n_gpus; ++g) gpu_ok &= probe.devices[(size_t)g].total_bytes <= lim;
            if (gpu_ok) { best = mid; lo = mid + 1; } else hi = mid - 1;
        }
        out.fit_gpu_layers = best;
        const uint64_t ram = req.host_ram_bytes > 0 ? req.host_ram_bytes : (uint64_t)std::max<int64_t>(0, req.hardware->system_ram_bytes);
        if (req.n_gpu_layers < 0 && best >= 1 && ram > 0 && !req.hardware->unified_memory()) {
            // auto placement (like llama.cpp --fit): use the partial offload when host RAM holds the rest
            MemoryBreakdown partial;
            if (place(m, req, p, best, partial, e2)) {
                partial.status = judge(req, p, partial);
                if (partial.status == FitStatus::PartialOffload) {
                    partial.fit_gpu_layers = best;
                    partial.notes = out.notes;
                    out = partial;
                }
            }
        }
    } else if (req.hardware) {
        out.fit_gpu_layers = out.gpu_layers;
    }

    if (req.hardware && req.compute_max_context) {
        // largest multiple of 256 (up to the native context, or the extended one when allowed) that still fits
        // with the same placement; memory grows monotonically with n_ctx, so bisect
        int64_t limit = m.native_context > 0 ? m.native_context : 131072;
        if (req.allow_extended_context && m.extended_context > limit) limit = m.extended_context;
        const int ngl = out.gpu_layers;
        int64_t lo = 1, hi = limit / kKvCellPad, best = 0;
        MemoryRequest r2 = req;
        MemoryBreakdown probe;
        std::string e2;
        while (lo <= hi) {
            const int64_t mid = (lo + hi) / 2;
            r2.n_ctx = mid * kKvCellPad;
            if (!place(m, r2, p, ngl, probe, e2)) break;
            if (fits(judge(r2, p, probe))) { best = mid; lo = mid + 1; } else hi = mid - 1;
        }
        out.max_context = best * kKvCellPad;
        out.max_context_extended = m.native_context > 0 && out.max_context > m.native_context;
    }
    return true;
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

}  // namespace llmsim
