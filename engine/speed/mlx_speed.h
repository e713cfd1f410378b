// llmsim MLX speed: decode and prefill tok/s of mlx-lm on one Apple Silicon GPU, with the llama.cpp speed model's
// structure (speed.h) and MLX's own three efficiency numbers. Pure arithmetic.
//
//   decode  s/token = (active weight bytes + KV bytes at the depth) / (bandwidth x bw_share) + per_token_ms
//                     + moe_layer_ms x MoE layers (routing, the expert gather and its extra kernel launches)
//   prefill s/token = max(2 x active params / (FP16 FLOP/s x compute_share), weight bytes / chunk / bandwidth)
//                     + causal attention FLOPs at the mean depth / (FP16 FLOP/s x compute_share)
//                     + per_token_ms / prefill chunk
// The four numbers are fitted on published mlx_lm rows (assets/calibration/mlx_speed.jsonl, `llmsim-cli accuracy
// --mlx`, which also reports them leave-one-source-out); the shipped values are runtime/mlx.cpp's kShippedMlxSpeed.
//
//   llmsim::MlxSpeedInputs in;
//   in.active_weight_bytes = 4.28e9; in.weight_bytes = 4.28e9; in.active_params = 7.6e9; in.n_layers = 28;
//   in.attn_flops_per_token_per_ctx = 4.0 * 28 * 28 * 128;   // 4 x layers x heads x head dim
//   in.kv_bytes_per_token = 28 * 1024 * 2; in.bandwidth_gbs = 546; in.fp16_tflops = 18.4;
//   llmsim::MlxSpeedParams p;                                 // bw_share 0.75, compute_share 0.6 ...
//   double tg = llmsim::mlx_decode_tps(in, p, 512), pp = llmsim::mlx_prefill_tps(in, p, 512, 0);
#pragma once
#include <cstdint>

namespace llmsim {

struct MlxSpeedInputs {
    double weight_bytes = 0;          // all weights (read once per prefill chunk)
    double active_weight_bytes = 0;   // read per decoded token: all but the embedding; MoE: the active experts
    double active_params = 0;         // parameters a token multiplies with (2 FLOPs each)
    double kv_bytes_per_token = 0;    // K + V bytes one cached token adds over the layers that attend to it
    double attn_flops_per_token_per_ctx = 0;   // attention FLOPs of one new token per cached token (4 x heads x dims)
    int64_t window = 0;               // sliding-window layers: cells they stop at (0 = none); kv_swa_fraction of KV
    double kv_swa_fraction = 0;       // share of kv_bytes_per_token that sits in rotating (windowed) layers
    int moe_layers = 0;               // layers with a routed-expert FFN
    double bandwidth_gbs = 0;         // spec memory bandwidth, decimal GB/s
    double fp16_tflops = 0;           // GPU FP16 peak, TFLOPS
};

struct MlxSpeedParams {
    double bw_share = 0.75;           // share of spec bandwidth a decode step's reads reach
    double compute_share = 0.6;       // share of FP16 peak that prefill matmuls reach
    double per_token_ms = 1.5;        // per decoded token: graph build, kernel launches, sampling, Python
    double moe_layer_ms = 0.0;        // per decoded token and MoE layer: routing, top-k, the expert gather
    // bands: measured / predicted - 1 at the held-out errors' 7.5th / 92.5th percentiles (nominal 85 %)
    double decode_band_low = -0.3, decode_band_high = 0.3;
    double prefill_band_low = -0.3, prefill_band_high = 0.3;
};

// decode tok/s of one sequence with `depth` tokens already cached; 0 on missing inputs
double mlx_decode_tps(const MlxSpeedInputs& in, const MlxSpeedParams& p, int64_t depth);
// prefill tok/s of a `tokens`-token prompt over `depth` cached tokens (2048-token chunks); 0 on missing inputs
double mlx_prefill_tps(const MlxSpeedInputs& in, const MlxSpeedParams& p, int64_t tokens, int64_t depth);

}  // namespace llmsim
