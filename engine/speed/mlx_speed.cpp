// The MLX speed formulas (mlx_speed.h).
#include "speed/mlx_speed.h"

#include <algorithm>

namespace llmsim {

namespace {

// mlx_lm.generate prefills in chunks of 2048 tokens (generate.py generate_step prefill_step_size); each chunk
// reads the weights once
constexpr double kPrefillChunk = 2048;

// K+V bytes a token reads at `depth`: full layers read every cached token, rotating layers at most the window
double kv_read_bytes(const MlxSpeedInputs& in, double depth) {
    const double swa = in.kv_bytes_per_token * in.kv_swa_fraction;
    const double full = in.kv_bytes_per_token - swa;
    const double swa_depth = in.window > 0 ? std::min(depth, (double)in.window) : depth;
    return full * depth + swa * swa_depth;
}

}  // namespace

double mlx_decode_tps(const MlxSpeedInputs& in, const MlxSpeedParams& p, int64_t depth) {
    if (in.bandwidth_gbs <= 0 || in.active_weight_bytes <= 0 || p.bw_share <= 0) return 0;
    const double bw = in.bandwidth_gbs * 1e9 * p.bw_share;
    const double s = (in.active_weight_bytes + kv_read_bytes(in, (double)std::max<int64_t>(0, depth))) / bw +
                     (p.per_token_ms + p.moe_layer_ms * in.moe_layers) / 1000.0;
    return s > 0 ? 1.0 / s : 0;
}

double mlx_prefill_tps(const MlxSpeedInputs& in, const MlxSpeedParams& p, int64_t tokens, int64_t depth) {
    if (in.fp16_tflops <= 0 || in.bandwidth_gbs <= 0 || in.active_params <= 0 || p.compute_share <= 0 || tokens < 1)
        return 0;
    const double flops = in.fp16_tflops * 1e12 * p.compute_share;
    const double n = (double)tokens;
    const double chunk = std::min(n, kPrefillChunk);
    const double matmul = std::max(2.0 * in.active_params / flops, in.weight_bytes / chunk / (in.bandwidth_gbs * 1e9));
    // causal attention: token i of the prompt attends to depth + i cached tokens (mean depth + n/2)
    const double attn = in.attn_flops_per_token_per_ctx * ((double)std::max<int64_t>(0, depth) + n / 2.0) / flops;
    const double s = matmul + attn + p.per_token_ms / 1000.0 / chunk;
    return s > 0 ? 1.0 / s : 0;
}

}  // namespace llmsim
