// One continuous-batching step: the decodes of the running sequences and the prefill chunk tokens scheduled with
// them (vLLM V1 / SGLang chunked prefill) run as one forward pass per pipeline stage.
//
//   memory time  = (dense weights + routed experts the step's tokens touch + Σ KV at each sequence's depth)
//                  / (spec bandwidth x bw_eff)
//   compute time = (2 x active params x tokens / tensor TFLOPS + attention FLOPs / attention TFLOPS)
//                  / (compute_eff x n/(n+16))   (attention at the KV dtype's rate, the matmuls at the weights')
//   step         = max(memory, compute) + step_overhead + 35 us per MoE layer (its kernel chain, kMoeLayerFixedUs)
//                  + an early build's fixed latency per layer (kEarlyMlaMoeLayerUs: SGLang < v0.4.6, DeepSeek-V3/R1)
//                  + TP all-reduce (2 per layer, ring over the link; a TP group wider than a node: NCCL over the
//                  fabric between nodes, serve_network.h)
// MoE: expert_step() below (TP-sharded experts, or whole experts per GPU under expert parallel); MLA decodes attend
// the latent (absorbed), prefill chunks the expanded heads (serve_memory.cpp build_shape).
// PP: the stages run one after another for one batch (micro-batches keep them busy, so the step is one stage's
// time x pp for latency, with pp batches in flight); the hand-off is one activation copy per boundary.
// The matmul efficiency n / (n + 16) at n tokens is the llama.cpp speed model's (speed/speed.h
// matmul_half_tokens), for the dense matmuls; the MoE coverage E x (1 - (1 - k/E)^n) is the expected number of
// distinct experts n tokens route to. The routed experts' grouped GEMM has its own law (moe_gemm_efficiency,
// serving_internal.h): rows padded per expert to block_m, at an efficiency set by one expert's size on the GPU,
// fitted on fused-MoE kernel benchmarks (assets/calibration/moe_kernels.jsonl, scripts/calibration/fit_moe_gemm.py).
#include <algorithm>
#include <cmath>

#include "serving/serving_internal.h"

namespace llmsim::serving {

double expected_max_normal(int n) {
    // E[max of n iid N(0,1)] (tabulated order statistics; linear in ln n between entries, sqrt(2 ln n) beyond 64)
    static const double kN[] = {1, 2, 3, 4, 5, 6, 7, 8, 16, 32, 64};
    static const double kE[] = {0, 0.5642, 0.8463, 1.0294, 1.1630, 1.2672, 1.3522, 1.4236, 1.7660, 2.0697, 2.3302};
    if (n <= 1) return 0;
    if (n >= 64) return std::max(kE[10], std::sqrt(2.0 * std::log((double)n)) - 0.49);   // 64: 2.884 - 0.49 = 2.39
    for (int i = 1; i < 11; ++i)
        if (n <= kN[i]) {
            double t = (std::log((double)n) - std::log(kN[i - 1])) / (std::log(kN[i]) - std::log(kN[i - 1]));
            return kE[i - 1] + t * (kE[i] - kE[i - 1]);
        }
    return kE[10];
}

// Routed experts of one step of mb tokens. Each token picks k of E experts: a given expert is touched with
// p = 1 - (1 - k/E)^mb, and a touched expert's weights are read once.
//   TP (each expert sharded 1/tp on every rank): every rank reads p x all its shards; each touched expert's GEMM sees
//   its own tokens (mb k / touched), so the grouped GEMM runs at the efficiency of that smaller M.
//   EP (whole experts, ceil(E/ep) per rank): the step waits for the busiest rank. Its touched experts ~ Binomial(L, p)
//   and its token-expert pairs ~ Binomial(mb k, 1/ep); the busiest of ep ranks is mean + E[max of ep normals] x sigma
//   (capped by L and mb k). At a small batch EP reads more per step than TP (batch 1, k 8 of 256 on 8 ranks: the
//   busiest rank holds ~2.7 of the 8 experts whole, TP reads 8 x 1/8), at a large one the two converge.
ExpertStep expert_step(const ReplicaShape& s, const EngineSpeed& p, double mb) {
    ExpertStep e;
    if (s.n_experts <= 0 || s.k_experts <= 0) return e;
    (void)p;   // the grouped GEMM's efficiency is the kernel benchmarks' (moe_gemm_efficiency), not the engine's dense one
    const double cover = 1.0 - std::pow(1.0 - (double)s.k_experts / s.n_experts, mb);
    // one expert's parameters on one GPU in one layer (EP ranks hold whole experts, TP ranks 1/tp of each)
    const double per_layer = s.moe_layers_stage > 0 ? (double)s.moe_layers_stage : 1.0;
    const double p_expert = s.expert_params_one / per_layer / (s.ep > 1 ? 1.0 : (double)s.tp);
    const double eff = moe_gemm_efficiency(p_expert);
    const int block_m = moe_block_m(mb, s.ep > 1 ? s.local_experts : s.n_experts);
    if (s.ep <= 1) {
        e.read_bytes = s.expert_bytes_gpu * cover;
        e.touched = std::max(1.0, s.n_experts * cover);
        e.tokens_per_expert = mb * s.k_experts / e.touched;
        // padded rows / real rows: each touched expert's rows are padded up to block_m (moe_align_block_size)
        const double pad = moe_padded_rows(e.tokens_per_expert, block_m) / e.tokens_per_expert;
        if (s.expert_active_params_gpu > 0)
            e.compute_s = 2.0 * s.expert_active_params_gpu * mb * pad / (s.tflops * 1e12 * eff);
        return e;
    }
    const double L = s.local_experts, z = expected_max_normal(s.ep);
    const double touched = std::min(L, L * cover + z * std::sqrt(L * cover * (1.0 - cover)));
    const double pairs_mean = mb * s.k_experts / s.ep;
    const double pairs = std::min(mb * s.k_experts, pairs_mean + z * std::sqrt(pairs_mean * (1.0 - 1.0 / s.ep)));
    e.touched = std::max(1.0, touched);
    e.read_bytes = s.expert_bytes_gpu / L * touched;
    e.tokens_per_expert = std::max(1.0, pairs / e.touched);
    const double rows = e.touched * moe_padded_rows(e.tokens_per_expert, block_m);
    e.compute_s = 2.0 * s.expert_params_one * rows / (s.tflops * 1e12 * eff);
    return e;
}

double moe_gemm_efficiency(double params_per_expert_gpu) {
    const double P = std::max(0.0, params_per_expert_gpu);
    return std::max(1e-3, kMoeGemmEff * P / (P + kMoeGemmHalfParams));
}

int moe_block_m(double tokens, int experts) { return tokens <= experts ? 16 : 64; }

double moe_padded_rows(double tokens_per_expert, int block_m) {
    return std::max((double)block_m, tokens_per_expert + 0.5 * block_m);
}

double block_fp8_extra_s(const ReplicaShape& s, const EngineSpeed& p, double mb) {
    double extra = 0;
    const double bw = s.bw_gbs * 1e9 * p.bw_eff;
    for (const BlockLinear& l : s.block_fp8) {
        const double ctas = std::ceil(l.n / 128.0) * std::ceil(std::max(1.0, mb) / 64.0);
        const double t = kBlockFp8LaunchUs * 1e-6 + l.bytes / std::min(bw, ctas * kBlockFp8CtaGbs * 1e9);
        extra += l.layers * std::max(0.0, t - l.bytes / bw);
    }
    return extra;
}

double step_time(const ReplicaShape& s, const EngineSpeed& p, int n_decode, double sum_depth, int64_t prefill_tokens,
                 double prefill_depth, StepBreakdown* out) {
    double n = (double)n_decode + (double)prefill_tokens;
    if (n <= 0) { if (out) *out = StepBreakdown{}; return 0; }
    // per pipeline stage: the batch is split into pp micro-batches (one per stage in flight)
    double mb = s.pp > 1 ? std::max(1.0, n / s.pp) : n;
    const ExpertStep ex = expert_step(s, p, mb);
    const double expert_read = ex.read_bytes;
    // KV read: each decode reads its whole context (s.decode_kv_reads times: vLLM V0's per-query-head paged kernel,
    // decode_kv_reads() in serve.cpp); a prefill chunk reads its cached prefix once
    double kv_read = (sum_depth * s.decode_kv_reads + (prefill_tokens > 0 ? prefill_depth : 0.0)) * s.kv_bytes_token_gpu /
                     (s.pp > 1 ? (double)s.pp : 1.0);
    double bw = s.bw_gbs * 1e9 * p.bw_eff;
    // multi-LoRA (vLLM punica shrink/expand kernels, vllm/lora/ops/triton_ops): each adapter active in the step
    // reads its slot once; every token does 2 FLOPs per slot element of its adapter (at most one adapter per
    // sequence; the worst case, all slots busy, once the batch has as many sequences)
    double lora_read = 0, lora_flops = 0;
    if (s.lora_slots > 0) {
        const double active = std::min<double>(s.lora_slots, std::max(1.0, (double)n_decode + (prefill_tokens > 0 ? 1 : 0)));
        lora_read = active * s.lora_slot_bytes_gpu;
        lora_flops = 2.0 * mb * s.lora_slot_bytes_gpu / 2.0;
    }
    double weights_s = (s.dense_read_bytes_gpu + expert_read + lora_read) / bw;
    double kv_s = kv_read / bw;
    double mem_s = weights_s + kv_s;
    double eff = p.compute_eff * mb / (mb + 16.0);
    double flops = 2.0 * (s.active_params_gpu - s.expert_active_params_gpu) * mb + lora_flops;
    // attention: decodes attend their depth; a prefill chunk attends what is cached plus half of itself (causal)
    double attn = (s.attn_flops_decode_ctx * sum_depth +
                   s.attn_flops_token_ctx * (double)prefill_tokens * (prefill_depth + 0.5 * prefill_tokens)) / (s.pp > 1 ? s.pp : 1);
    double attn_rate = s.attn_tflops > 0 ? s.attn_tflops : s.tflops;
    // block-FP8 checkpoints: their dense matmuls top out at kBlockFp8ComputeShare of the FP8 rate
    const double lin_eff = s.block_fp8.empty() ? eff : std::min(eff, kBlockFp8ComputeShare);
    double compute_s = flops / (s.tflops * 1e12 * std::max(1e-3, lin_eff)) + attn / (attn_rate * 1e12 * std::max(1e-3, eff));
    compute_s += ex.compute_s;
    double core = std::max(mem_s, compute_s);
    // TP all-reduce: 2 per layer of mb x hidden BF16 values, ring: 2 (tp-1)/tp of the bytes over the link
    // (a TP group that spans nodes: NCCL over the fabric, latency + bytes x 2 (n-1)/n / bus bandwidth, serve_network.h)
    double ar = 0;
    if (s.tp > 1) {
        double bytes = mb * s.hidden * 2.0;
        double per = s.tp_net ? allreduce_seconds(s.tp_link, s.tp, bytes)
                              : 2.0 * (s.tp - 1) / s.tp * bytes / (s.link_gbs * 1e9) + s.link_latency_us * 1e-6;
        ar = 2.0 * s.layers_stage * per;
    }
    // each MoE layer's kernel chain (router top-k, moe_align_block_size, two grouped GEMMs, activation, moe_sum)
    // costs a fixed latency on top of its weight reads (kMoeLayerFixedUs, serving_internal.h)
    const double moe_fixed = s.moe_layers_stage * kMoeLayerFixedUs * 1e-6;
    // block-FP8 linears (DeepSeek's FP8 checkpoints) beyond their weight reads: few CTAs per narrow linear
    const double block_fp8 = block_fp8_extra_s(s, p, mb);
    // an early build's fixed latency per layer (kEarlyMlaMoeLayerUs: SGLang before v0.4.6 with DeepSeek-V3/R1)
    const double build_floor = s.layers_stage * s.layer_floor_us * 1e-6;
    double stage = core + ar + moe_fixed + block_fp8 + build_floor;
    // PP hand-off per stage boundary: in a node over the link; across nodes each TP rank sends its 1/tp share
    int in_node_hops = s.pp > 1 ? s.pp - 1 - s.pp_net_hops : 0;
    double net_hop = s.pp_net_hops > 0 ? s.pp_net_hops * hop_seconds(s.pp_link, mb * s.hidden * 2.0 / s.tp) : 0;
    double hop = in_node_hops * (mb * s.hidden * 2.0 / (s.link_gbs * 1e9) + s.link_latency_us * 1e-6) + net_hop;
    double step = stage * s.pp + hop + p.step_overhead_ms * 1e-3;   // moe_fixed is in stage (once per stage)
    if (out) {
        out->batch = n_decode;
        out->prefill_tokens = prefill_tokens;
        double k = (double)s.pp;
        out->weights_s = weights_s * k;
        out->kv_s = kv_s * k;
        out->compute_s = compute_s * k;
        out->overhead_s = p.step_overhead_ms * 1e-3 + (moe_fixed + block_fp8 + build_floor) * k;
        out->moe_fixed_s = moe_fixed * k;
        out->allreduce_s = ar * k + hop;
        out->network_s = (s.tp_net ? ar * k : 0) + net_hop;
        out->step_s = step;
        out->network_share = step > 0 ? out->network_s / step : 0;
        out->bound = compute_s > mem_s ? "compute" : "memory";
    }
    return step;
}

}  // namespace llmsim::serving
