// One continuous-batching step: the decodes of the running sequences and the prefill chunk tokens scheduled with
// them (vLLM V1 / SGLang chunked prefill) run as one forward pass per pipeline stage.
//
//   memory time  = (dense weights + routed experts the step's tokens touch + Σ KV at each sequence's depth)
//                  / (spec bandwidth x bw_eff)
//   compute time = (2 x active params x tokens / tensor TFLOPS + attention FLOPs / attention TFLOPS)
//                  / (compute_eff x n/(n+16))   (attention at the KV dtype's rate, the matmuls at the weights')
//   step         = max(memory, compute) + step_overhead + TP all-reduce (2 per layer, ring over the link; a TP
//                  group wider than a node: NCCL over the fabric between nodes, serve_network.h)
// PP: the stages run one after another for one batch (micro-batches keep them busy, so the step is one stage's
// time x pp for latency, with pp batches in flight); the hand-off is one activation copy per boundary.
// The matmul efficiency n / (n + 16) at n tokens is the llama.cpp speed model's (speed/speed.h
// matmul_half_tokens), applied to the routed experts at the tokens each touched expert gets; the MoE coverage E x (1 - (1 - k/E)^n) is the expected number of distinct experts n
// tokens route to.
#include <algorithm>
#include <cmath>

#include "serving/serving_internal.h"

namespace llmsim::serving {

double step_time(const ReplicaShape& s, const EngineSpeed& p, int n_decode, double sum_depth, int64_t prefill_tokens,
                 double prefill_depth, StepBreakdown* out) {
    double n = (double)n_decode + (double)prefill_tokens;
    if (n <= 0) { if (out) *out = StepBreakdown{}; return 0; }
    // per pipeline stage: the batch is split into pp micro-batches (one per stage in flight)
    double mb = s.pp > 1 ? std::max(1.0, n / s.pp) : n;
    double expert_read = 0;
    if (s.n_experts > 0 && s.k_experts > 0) {
        double cover = 1.0 - std::pow(1.0 - (double)s.k_experts / s.n_experts, mb);
        expert_read = s.expert_bytes_gpu * cover;
    }
    // KV read: each decode reads its whole context once; a prefill chunk reads its cached prefix once
    double kv_read = (sum_depth + (prefill_tokens > 0 ? prefill_depth : 0.0)) * s.kv_bytes_token_gpu / (s.pp > 1 ? (double)s.pp : 1.0);
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
    double compute_s = (flops / s.tflops + attn / attn_rate) / (1e12 * std::max(1e-3, eff));
    // routed experts: each touched expert's GEMM sees only its own tokens (mb x k / touched experts), so the
    // grouped GEMM runs at the efficiency of that smaller M, not of the whole batch
    if (s.expert_active_params_gpu > 0) {
        double touched = std::max(1.0, s.n_experts * (1.0 - std::pow(1.0 - (double)s.k_experts / s.n_experts, mb)));
        double per_expert = mb * s.k_experts / touched;
        double eff_e = p.compute_eff * per_expert / (per_expert + 16.0);
        compute_s += 2.0 * s.expert_active_params_gpu * mb / (s.tflops * 1e12 * std::max(1e-3, eff_e));
    }
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
    double stage = core + ar;
    // PP hand-off per stage boundary: in a node over the link; across nodes each TP rank sends its 1/tp share
    int in_node_hops = s.pp > 1 ? s.pp - 1 - s.pp_net_hops : 0;
    double net_hop = s.pp_net_hops > 0 ? s.pp_net_hops * hop_seconds(s.pp_link, mb * s.hidden * 2.0 / s.tp) : 0;
    double hop = in_node_hops * (mb * s.hidden * 2.0 / (s.link_gbs * 1e9) + s.link_latency_us * 1e-6) + net_hop;
    double step = stage * s.pp + hop + p.step_overhead_ms * 1e-3;
    if (out) {
        out->batch = n_decode;
        out->prefill_tokens = prefill_tokens;
        double k = (double)s.pp;
        out->weights_s = weights_s * k;
        out->kv_s = kv_s * k;
        out->compute_s = compute_s * k;
        out->overhead_s = p.step_overhead_ms * 1e-3;
        out->allreduce_s = ar * k + hop;
        out->network_s = (s.tp_net ? ar * k : 0) + net_hop;
        out->step_s = step;
        out->network_share = step > 0 ? out->network_s / step : 0;
        out->bound = compute_s > mem_s ? "compute" : "memory";
    }
    return step;
}

}  // namespace llmsim::serving
