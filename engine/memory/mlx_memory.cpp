// The MLX memory plan (mlx_memory.h): weights as mlx_lm.convert stores them, mlx-lm's KV cache, a prefill working
// set and the Metal runtime, on one Apple Silicon GPU against mlx-lm's wired limit.
#include "memory/mlx_memory.h"

#include <algorithm>

#include "core/format.h"
#include "memory/prepared_weights.h"
#include "quant/mlx_quant.h"

namespace llmsim {

namespace {

int64_t round_up(int64_t n, int64_t step) { return (n + step - 1) / step * step; }

// bytes of one cached element: fp16/bf16, or QuantizedKVCache's packed bits + fp16 scale and bias per group of 64
double kv_element_bytes(int kv_bits) {
    return kv_bits == 0 ? 2.0 : (double)kv_bits / 8.0 + 4.0 / (double)kMlxKvGroupSize;
}

// the prefill chunk's live activations (estimate): kMlxPrefillStep tokens x (residual, norm, attention output and
// projections ~4 x hidden + gate, up and their product 3 x FFN width) in fp16. mx.fast.scaled_dot_product_attention
// is fused, so no n_ctx-sized score matrix; the logits of a chunk are never evaluated (only the cache is).
uint64_t prefill_working_bytes(const Model& m, int64_t n_ctx) {
    int64_t ffn = m.intermediate_size;
    if (m.is_moe()) {
        const MoeConfig& e = *m.moe;
        const int64_t shared = e.n_shared_experts * (e.shared_ffn > 0 ? e.shared_ffn : e.expert_ffn);
        ffn = std::max(ffn, (int64_t)e.n_experts_active * e.expert_ffn + shared);
    }
    const int64_t tokens = std::min<int64_t>(kMlxPrefillStep, std::max<int64_t>(1, n_ctx));
    return (uint64_t)tokens * (uint64_t)(4 * m.hidden_size + 3 * ffn) * 2;
}

// the status of `total` against the wired limit (mlx-lm warns above 0.9 of it) and the raised limit
FitStatus mlx_status(uint64_t total, uint64_t usable, uint64_t raised) {
    if ((double)total <= kMlxWiredWarnFraction * (double)usable) return FitStatus::Comfortable;
    if (total <= usable) return FitStatus::Tight;
    if (total <= raised) return FitStatus::TunableUma;
    return FitStatus::Oom;
}

bool check_request(const PreparedWeights& w, const MemoryRequest& req, int& kv_bits, std::string& err) {
    if (!looks_like_mlx_quant(w.file_type) || !parse_mlx_quant(w.file_type)) {
        err = "mlx: quant '" + w.file_type + "' is no MLX format; " + mlx_quant_error(w.file_type);
        return false;
    }
    if (req.n_ctx < 1) {
        err = "mlx: context must be at least 1 token (got " + std::to_string(req.n_ctx) + ")";
        return false;
    }
    if (req.hardware && req.hardware->kind != HardwareKind::Apple) {
        err = "mlx: MLX runs on Apple Silicon (Metal) only; '" + req.hardware->id + "' is not an Apple device";
        return false;
    }
    kv_bits = mlx_kv_bits(req.kv_type_k);
    if (kv_bits < 0 || mlx_kv_bits(req.kv_type_v) != kv_bits) {
        err = "mlx: KV cache type " + std::string(tensor_type_info(req.kv_type_k).name) + "/" +
              tensor_type_info(req.kv_type_v).name + " has no MLX match (f16, or q8_0 / q4_0 for --kv-bits 8 / 4, "
              "the same for K and V)";
        return false;
    }
    return true;
}

}  // namespace

bool mlx_layer_rotates(const Model& m, int il) {
    // gemma2.py and llama.py without layer_types keep a full KVCache on every layer (Mistral-7B v0.1's window too)
    if (!m.swa || m.arch == "gemma2" || m.swa->pattern == 1) return false;
    return layer_has_attention(m, il) && layer_is_swa(m, il);
}

int mlx_kv_bits(TensorType t) {
    switch (t) {
        case TensorType::F16:
        case TensorType::BF16: return 0;
        case TensorType::Q8_0: return 8;
        case TensorType::Q4_0: return 4;
        default: return -1;
    }
}

uint64_t mlx_kv_cache_bytes(const Model& m, int64_t n_tokens, int kv_bits) {
    const int64_t cells = round_up(std::max<int64_t>(1, n_tokens), kMlxKvStep);
    const double per_cell = (double)(kv_k_row(m) + kv_v_row(m)) * kv_element_bytes(kv_bits);
    double total = 0;
    for (int il = 0; il < m.n_layers; ++il) {
        if (!layer_has_attention(m, il)) continue;
        const int64_t c = mlx_layer_rotates(m, il) ? std::min<int64_t>(cells, std::max<int64_t>(1, m.swa->window)) : cells;
        total += (double)c * per_cell;
    }
    return (uint64_t)(total + 0.5);
}

bool estimate_mlx_memory(const PreparedWeights& w, const Model& m, const MemoryRequest& req, MemoryBreakdown& out,
                         std::string& err) {
    out = MemoryBreakdown();
    int kv_bits = 0;
    if (!check_request(w, req, kv_bits, err)) return false;
    DeviceMemory d;
    d.name = "Metal";
    d.weights_bytes = w.weights_bytes;   // a tied embedding is one array, used as the lm_head too (as_linear)
    d.kv_cache_bytes = mlx_kv_cache_bytes(m, req.n_ctx, kv_bits);
    // recurrent layers (hybrid models) hold a state per sequence; llama.cpp's f32 sizing stands in for mlx's
    const uint64_t state = (uint64_t)(w.recurrent_layers_prefix.empty() ? 0 : w.recurrent_layers_prefix.back()) *
                           w.state_bytes_per_seq;
    d.kv_cache_bytes += state;
    d.compute_bytes = prefill_working_bytes(m, req.n_ctx);
    d.overhead_bytes = kMetalRuntimeBytes;
    d.total_bytes = d.weights_bytes + d.kv_cache_bytes + d.compute_bytes + d.overhead_bytes;
    d.n_layers = m.n_layers;
    out.weights_bytes = d.weights_bytes;
    out.kv_cache_bytes = d.kv_cache_bytes;
    out.recurrent_state_bytes = state;
    out.compute_bytes = d.compute_bytes;
    out.overhead_bytes = d.overhead_bytes;
    out.total_bytes = d.total_bytes;
    out.n_layers = m.n_layers;
    out.gpu_layers = m.n_layers + 1;
    out.file_bytes = w.file_bytes_estimate;
    out.bits_per_weight = w.bits_per_weight;
    out.params = w.params.total;
    out.kv_cells_full = round_up(req.n_ctx, kMlxKvStep);
    if (req.hardware) {
        d.usable_bytes = usable_gpu_bytes(*req.hardware, req);
        out.usable_bytes = d.usable_bytes;
        out.usable_raised_bytes = usable_gpu_bytes_raised(*req.hardware, req);
        out.status = mlx_status(out.total_bytes, out.usable_bytes, out.usable_raised_bytes);
        if (req.compute_max_context) {
            // the largest multiple of 256 cells that stays under the wired limit (KV is monotonic in the context)
            const uint64_t fixed = d.weights_bytes + state + d.overhead_bytes + prefill_working_bytes(m, kMlxPrefillStep);
            int64_t lo = 0, hi = std::max<int64_t>(m.native_context, kMlxKvStep) / kMlxKvStep;
            if (req.allow_extended_context && m.extended_context > 0) hi = m.extended_context / kMlxKvStep;
            while (lo < hi) {
                const int64_t mid = (lo + hi + 1) / 2;
                if (fixed + mlx_kv_cache_bytes(m, mid * kMlxKvStep, kv_bits) <= out.usable_bytes) lo = mid;
                else hi = mid - 1;
            }
            out.max_context = lo * kMlxKvStep;
            out.max_context_extended = m.native_context > 0 && out.max_context > m.native_context;
        }
    }
    out.devices.push_back(d);
    if (req.with_notes) {
        out.notes.push_back("MLX: weights as mlx_lm.convert stores them (" + w.file_type + ", " +
                            format_fixed(w.bits_per_weight, 2) + " bits per weight incl. scales and biases)");
        out.notes.push_back("MLX: KV cache grows in 256-token steps (mlx-lm KVCache); prefill working set and Metal "
                            "runtime are estimates");
        if (req.hardware && out.status == FitStatus::TunableUma)
            out.notes.push_back("MLX: above the wired limit; raise it with sudo sysctl iogpu.wired_limit_mb=N (mlx-lm README, Large Models)");
    }
    return true;
}

}  // namespace llmsim
