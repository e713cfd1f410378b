// The MLX runtime (mlx-lm on Apple Silicon): the registry entry's three functions. Memory is memory/mlx_memory.h;
// speed is speed/mlx_speed.h's formulas with the MLX engine row's fitted shares; the command line is mlx_lm.generate / mlx_lm.server with the weights
// named the way mlx-community publishes them, or an mlx_lm.convert line for a quantization it does not publish.
#include "runtime/runtime.h"

#include "memory/mlx_memory.h"
#include "quant/mlx_quant.h"
#include "runtime/scenario.h"
#include "speed/mlx_speed.h"
#include "speed/speed.h"

namespace llmsim::mlx {

namespace {

// "Qwen/Qwen2.5-7B-Instruct" -> "Qwen2.5-7B-Instruct"
std::string base_name(const std::string& id) {
    const size_t slash = id.rfind('/');
    return slash == std::string::npos ? id : id.substr(slash + 1);
}

// the suffix mlx-community gives a quantization in its repo names ("-4bit", "-8bit", "-bf16", "-mxfp4"); "" when
// it publishes no such repos (affine groups other than 64: convert locally)
std::string community_suffix(const MlxQuant& q) {
    if (q.mode == MlxQuantMode::None) return "-bf16";
    if (q.mode == MlxQuantMode::Mxfp4) return "-mxfp4";
    if (q.mode == MlxQuantMode::Affine && q.group_size == 64) return "-" + std::to_string(q.bits) + "bit";
    return "";
}


// mlx_lm.convert's line for `q` (mlx_lm/convert.py: -q, --q-bits, --q-group-size, --q-mode); `path` "" = its default
std::string convert_line(const Model& model, const MlxQuant& q, const std::string& path) {
    std::string line = "mlx_lm.convert --hf-path " + model.id;
    if (q.mode == MlxQuantMode::Affine)
        line += " -q --q-bits " + std::to_string(q.bits) + " --q-group-size " + std::to_string(q.group_size);
    else if (q.mode != MlxQuantMode::None)
        line += std::string(" -q --q-mode ") + mlx_mode_info(q.mode).name;
    return path.empty() ? line : line + " --mlx-path " + path;
}

}  // namespace

// fitted by `llmsim-cli accuracy --mlx` on every row of assets/calibration/mlx_speed.jsonl; bands are the
// leave-one-source-out errors' 7.5th / 92.5th percentiles (docs/mlx.md has the held-out report)
// (46 rows, 7 sources: decode MdAPE 4.8 % held out, prefill 5.5 %; the MoE decode rows' two sources disagree, which
// is what stretches the decode band upward)
constexpr MlxSpeedParams kShippedMlxSpeed = {0.815, 0.665, 1.60, 0.062, -0.07, 0.49, -0.12, 0.09};

MlxSpeedParams shipped_speed_params() { return kShippedMlxSpeed; }

bool speed_inputs(const Model& m, const SimRequest& req, const Evaluation& ev, MlxSpeedInputs& in, std::string& err) {
    const Hardware* hw = req.memory.hardware;
    if (!hw) { err = "no hardware: MLX speed needs an Apple Silicon device"; return false; }
    in = MlxSpeedInputs{};
    in.weight_bytes = (double)ev.weight_bytes;
    in.active_weight_bytes = (double)ev.active_weight_bytes;
    // the lm_head stays in: generate_step never evaluates a prefill chunk's logits (mlx_lm/generate.py), yet leaving
    // its FLOPs out fits the published rows worse (held-out prefill MdAPE 5.5 % -> 8.4 %, large-vocabulary models
    // overpredicted): a proxy for a cost the formula does not name
    in.active_params = (double)(ev.params.active - ev.params.embedding);
    in.bandwidth_gbs = hw->bandwidth_gbs;
    in.fp16_tflops = hw->fp16_tflops > 0 ? hw->fp16_tflops : estimate_fp16_tflops(hw->chip_family, hw->bandwidth_gbs).tflops;
    const int kv_bits = mlx_kv_bits(req.memory.kv_type_k);
    const double elem = kv_bits <= 0 ? 2.0 : (double)kv_bits / 8.0 + 4.0 / (double)kMlxKvGroupSize;
    const double row = (double)(kv_k_row(m) + kv_v_row(m)) * elem;
    int attn = 0, rotating = 0;
    for (int il = 0; il < m.n_layers; ++il) {
        if (!layer_has_attention(m, il)) continue;
        ++attn;
        if (mlx_layer_rotates(m, il)) ++rotating;
    }
    in.kv_bytes_per_token = row * attn;
    in.kv_swa_fraction = attn ? (double)rotating / attn : 0.0;
    for (int il = 0; il < m.n_layers; ++il) in.moe_layers += m.is_moe() && layer_is_moe(m, il) ? 1 : 0;
    in.window = rotating && m.swa ? m.swa->window : 0;
    const int heads = m.n_heads > 0 ? m.n_heads : 1;
    in.attn_flops_per_token_per_ctx = 2.0 * heads * (double)(m.head_dim + m.kv_head_dim_v()) * attn;
    if (in.bandwidth_gbs <= 0 || in.active_weight_bytes <= 0) { err = "MLX speed: the device has no bandwidth"; return false; }
    return true;
}

static void estimate_mlx_speed_view(const Catalog&, const Model& m, const SimRequest& req, Evaluation& out) {
    SpeedView& v = out.speed;
    v = SpeedView();
    if (out.memory.status == FitStatus::Oom) { v.error = "does not fit: MLX keeps the whole model in GPU memory"; return; }
    MlxSpeedInputs in;
    if (!speed_inputs(m, req, out, in, v.error)) return;
    const MlxSpeedParams p = shipped_speed_params();
    const auto decode = [&](int64_t depth, double& tps, double& lo, double& hi) {
        tps = mlx_decode_tps(in, p, depth);
        lo = tps * (1.0 + p.decode_band_low);
        hi = tps * (1.0 + p.decode_band_high);
    };
    v.prompt_tokens = req.prompt_tokens;
    v.decode_depth = req.prompt_tokens;
    v.decode_full_depth = req.memory.n_ctx;
    decode(req.prompt_tokens, v.decode_tps, v.decode_low, v.decode_high);
    decode(0, v.decode_empty_tps, v.decode_empty_low, v.decode_empty_high);
    decode(req.memory.n_ctx, v.decode_full_tps, v.decode_full_low, v.decode_full_high);
    v.prefill_tps = mlx_prefill_tps(in, p, req.prompt_tokens, 0);
    v.prefill_low = v.prefill_tps * (1.0 + p.prefill_band_low);
    v.prefill_high = v.prefill_tps * (1.0 + p.prefill_band_high);
    if (v.decode_tps <= 0 || v.prefill_tps <= 0) { v.error = "MLX speed: missing device figures"; return; }
    v.ttft_s = (double)req.prompt_tokens / v.prefill_tps;
    v.ttft_low = (double)req.prompt_tokens / v.prefill_high;
    v.ttft_high = (double)req.prompt_tokens / v.prefill_low;
    v.reply_s = v.ttft_s + (double)req.gen_tokens / v.decode_tps;
    v.aggregate_tps = v.per_user_tps = v.decode_tps;
    v.decode_bound = Bound::Memory;
    v.prefill_bound = 2.0 * in.active_params / (in.fp16_tflops * 1e12 * p.compute_share) >=
                              in.weight_bytes / 2048.0 / (in.bandwidth_gbs * 1e9)
                          ? Bound::Compute : Bound::Memory;
    v.peak_bytes_per_s = in.bandwidth_gbs * 1e9;
    v.peak_flops = in.fp16_tflops * 1e12;
    v.ok = true;
}

bool memory_plan(EngineId, const PreparedWeights& weights, const Model& model, const MemoryRequest& req,
                 MemoryBreakdown& out, std::string& err) {
    return estimate_mlx_memory(weights, model, req, out, err);
}

void speed_plan(const Catalog& cat, const Model& model, const SimRequest& req, Evaluation& out) {
    estimate_mlx_speed_view(cat, model, req, out);
}

std::string command_line(const Catalog&, const Model& model, const SimRequest& req, int port) {
    const std::optional<MlxQuant> q = parse_mlx_quant(req.memory.file_type);
    if (!q) return "# " + mlx_quant_error(req.memory.file_type);
    const std::string suffix = community_suffix(*q);
    std::string lines, path;
    if (!suffix.empty()) {
        path = "mlx-community/" + base_name(model.id) + suffix;
        lines = "# mlx-community's name for this quantization; if that repo is missing: " + convert_line(model, *q, "") + "\n";
    } else {
        path = base_name(model.id) + "-" + mlx_quant_name(*q);
        lines = convert_line(model, *q, path) + "\n";
    }
    std::string gen = "mlx_lm.generate --model " + path + " --max-tokens " + std::to_string(req.gen_tokens);
    const int kv_bits = mlx_kv_bits(req.memory.kv_type_k);
    if (kv_bits > 0) gen += " --kv-bits " + std::to_string(kv_bits);
    return lines + gen + " --prompt \"...\"\nmlx_lm.server --model " + path + " --port " + std::to_string(port);
}

}  // namespace llmsim::mlx
