// Speculative decoding: target + draft memory and the expected decode speed (spec.h has the rules and sources).
#include "spec/spec.h"

#include <algorithm>
#include <cctype>
#include <cmath>

#include "memory/memory.h"
#include "runtime/command.h"
#include "speed/speed.h"
#include "runtime/speed_glue.h"
#include "core/text.h"

namespace llmsim {

namespace {

// Typical per-token acceptance. Leviathan et al. 2023 (Table 3) report alpha of roughly 0.6 to 0.9 for small
// transformer drafts of their T5-XXL, LaMDA and GPT-like targets (n-gram drafts far lower); the per-task split
// below is our estimate, not a measurement of llama.cpp.
const AcceptanceRange kAcceptanceRanges[] = {
    {"code (completion, edits of existing code)", 0.70, 0.90, "estimate, upper half of Leviathan et al. 2023 Table 3"},
    {"summarisation / extraction (copies the input)", 0.60, 0.80, "estimate, Leviathan et al. 2023 Table 3 range"},
    {"chat, temperature <= 0.7", 0.50, 0.75, "estimate, Leviathan et al. 2023 Table 3 (dialog rows)"},
    {"creative writing, temperature >= 1", 0.30, 0.55, "estimate (sampling lowers agreement)"},
};

constexpr double kNoBreakEven = 2.0;   // break_even_acceptance(): even a = 1 does not pay off

bool check_spec_request(const SpecRequest& r, std::string& err) {
    if (r.draft_max < 1 || r.draft_max > 256) { err = "draft-max: " + std::to_string(r.draft_max) + " is out of range (1 to 256 tokens)"; return false; }
    if (r.draft_min < 0 || r.draft_min > r.draft_max) { err = "draft-min: must be from 0 to draft-max (" + std::to_string(r.draft_max) + ")"; return false; }
    if (!(r.acceptance >= 0 && r.acceptance <= 1)) { err = "accept: the acceptance rate must be from 0 to 1"; return false; }
    if (r.draft_ctx < 0) { err = "draft context (-cd): must be 0 (the target's per-sequence context) or more"; return false; }
    if (r.depth < 0) { err = "depth: must be 0 or more tokens"; return false; }
    return true;
}

}  // namespace

const AcceptanceRange* acceptance_ranges(int& count) {
    count = (int)(sizeof kAcceptanceRanges / sizeof kAcceptanceRanges[0]);
    return kAcceptanceRanges;
}

double expected_accepted_tokens(double a, int k) {
    if (!(a >= 0 && a <= 1) || k < 0) return std::nan("");
    if (a >= 1) return k + 1.0;
    return (1.0 - std::pow(a, k + 1)) / (1.0 - a);
}

double break_even_acceptance(double ratio, int k) {
    if (!(ratio > 1)) return 0;                       // E >= 1 always: a = 0 already breaks even
    if (k < 1 || ratio > k + 1.0) return kNoBreakEven;
    double lo = 0, hi = 1;                            // E is increasing in a
    for (int i = 0; i < 60; ++i) {
        double mid = 0.5 * (lo + hi);
        (expected_accepted_tokens(mid, k) < ratio ? lo : hi) = mid;
    }
    return 0.5 * (lo + hi);
}

MemoryRequest draft_memory_request(const SpecRequest& req) {
    MemoryRequest d = req.target.memory;
    const int np = std::max(1, d.n_parallel);
    // server_context::load_model: n_ctx = -cd, or llama_n_ctx_seq(ctx) = the target's cells per sequence
    // (n_ctx / n_parallel unless --kv-unified, where a sequence may use the whole context)
    d.n_ctx = req.draft_ctx > 0 ? req.draft_ctx : (d.kv_unified ? d.n_ctx : std::max<int64_t>(1, d.n_ctx / np));
    d.n_parallel = 1;
    d.kv_unified = false;
    d.n_batch = (int)std::min<int64_t>(d.n_ctx, 1 << 30);   // cparams_dft.n_batch = n_ctx_dft
    d.file_type = req.draft_file_type;
    d.kv_type_k = req.draft_kv_type_k;
    d.kv_type_v = req.draft_kv_type_v;
    d.n_gpu_layers = req.draft_gpu_layers;
    d.n_cpu_moe = 0;
    d.cpu_moe = false;
    d.file_bytes_override = 0;
    d.compute_max_context = false;
    return d;
}

bool estimate_spec_memory(const Catalog& cat, const Model& target, const Model& draft, const SpecRequest& req,
                          SpecMemory& out, std::string& err) {
    out = SpecMemory();
    if (!check_spec_request(req, err)) return false;
    std::string e;
    if (!estimate_memory(cat, target, req.target.memory, out.target, e)) { err = "target: " + e; return false; }
    const MemoryRequest dreq = draft_memory_request(req);
    if (!estimate_memory(cat, draft, dreq, out.draft, e)) { err = "draft: " + e; return false; }
    out.draft_ctx = dreq.n_ctx;
    out.slots = std::max(1, req.target.memory.n_parallel);
    for (const DeviceMemory& t : out.target.devices) {
        SpecDevice d;
        d.name = t.name;
        d.target_bytes = t.total_bytes;
        d.usable_bytes = t.usable_bytes;
        out.devices.push_back(d);
    }
    for (const DeviceMemory& dm : out.draft.devices) {
        auto it = std::find_if(out.devices.begin(), out.devices.end(), [&](const SpecDevice& s) { return s.name == dm.name; });
        if (it == out.devices.end()) { out.devices.push_back(SpecDevice{dm.name}); it = out.devices.end() - 1; }
        // weights once; KV cache and compute buffer once per slot (slot.ctx_dft); the runtime overhead
        // (dm.overhead_bytes) is the process's and already in the target's breakdown
        it->draft_weights_bytes += dm.weights_bytes;
        it->draft_kv_bytes += dm.kv_cache_bytes * (uint64_t)out.slots;
        it->draft_compute_bytes += dm.compute_bytes * (uint64_t)out.slots;
    }
    for (SpecDevice& d : out.devices) {
        uint64_t extra = d.draft_weights_bytes + d.draft_kv_bytes + d.draft_compute_bytes;
        d.total_bytes = d.target_bytes + extra;
        out.draft_extra_bytes += extra;
        out.total_bytes += d.total_bytes;
    }
    out.fits = true;
    for (const SpecDevice& d : out.devices)
        if (d.usable_bytes > 0) {
            out.known_limit = true;
            if (d.total_bytes > d.usable_bytes) out.fits = false;
        }
    if (!out.known_limit) out.fits = false;
    return true;
}

std::string spec_server_flags(const Model& draft, const SpecRequest& req) {
    std::string f = " -md " + gguf_file_name(draft, req.draft_file_type);
    f += " --draft-max " + std::to_string(req.draft_max) + " --draft-min " + std::to_string(req.draft_min);
    if (req.draft_ctx > 0) f += " -cd " + std::to_string(req.draft_ctx);
    f += " -ngld " + std::string(req.draft_gpu_layers < 0 ? "99" : std::to_string(req.draft_gpu_layers));
    if (req.draft_kv_type_k != TensorType::F16) f += " -ctkd " + lower_ascii(to_string(req.draft_kv_type_k));
    if (req.draft_kv_type_v != TensorType::F16) f += " -ctvd " + lower_ascii(to_string(req.draft_kv_type_v));
    return f;
}

namespace {

struct StepModel {
    SpeedScenario target, draft;
    int slots = 1;
    int64_t depth = 0;
    TensorType target_base = TensorType::Q4_K;   // the target file type's main tensor type (the matmul kernel)
};

bool build_steps(const Catalog& cat, const Model& target, const Model& draft, const SpecRequest& req, StepModel& sm,
                 std::string& err) {
    if (!req.target.memory.hardware) { err = "pick a device (--hardware) to see speeds"; return false; }
    SimRequest t = req.target;
    t.with_speed = false;
    t.memory.compute_max_context = false;
    Evaluation ev;
    std::string e;
    if (!evaluate(cat, target, t, ev, e)) { err = "target: " + e; return false; }
    if (!build_speed_scenario(target, t, ev, sm.target, e)) { err = "target: " + e; return false; }
    SimRequest d = t;
    d.memory = draft_memory_request(req);
    Evaluation evd;
    if (!evaluate(cat, draft, d, evd, e)) { err = "draft: " + e; return false; }
    if (!build_speed_scenario(draft, d, evd, sm.draft, e)) { err = "draft: " + e; return false; }
    sm.slots = std::max(1, req.target.memory.n_parallel);
    sm.depth = req.depth > 0 ? req.depth : std::max<int64_t>(0, req.target.prompt_tokens);
    const LlamaFtypeInfo* ft = find_llama_ftype(req.target.memory.file_type);
    sm.target_base = ft ? ft->base : TensorType::Count;   // not a llama.cpp file type: no small-batch kernel rule
    return true;
}

// one batched decode step of n tokens (estimate_concurrency: weights read once, the MoE union of experts, matmul
// FLOPs of n tokens); the KV of a slot is read once for all of its tokens, so its per-token KV bytes are divided
// by tokens_per_slot
bool concurrency_step(const Model& m, const StepModel& sm, int tokens_per_slot, double& step_s, std::string& err) {
    SpeedScenario s = sm.target;
    s.kv_bytes_per_token_full /= tokens_per_slot;
    s.kv_bytes_per_token_swa /= tokens_per_slot;
    ConcurrencyResult c = estimate_concurrency(s, default_speed_params(), sm.slots * tokens_per_slot, sm.depth,
                                               m.is_moe() ? m.moe->n_experts : 0,
                                               m.is_moe() ? m.moe->n_experts_active : 0, s.moe_expert_bytes);
    if (!c.ok) { err = "target: " + c.error; return false; }
    step_s = c.step_time_s;
    return true;
}

// How llama.cpp multiplies the weights by a batch of n activation columns when n is small (n = the B (k + 1) tokens
// of a verify step): which kernel, how many times it streams the weights and how much of the per-weight ALU work it
// repeats per column. Read from the dispatch code:
//  - CUDA/ROCm, quantized weights: ggml_cuda_should_use_mmvq (ggml/src/ggml-cuda/mmvq.cu) takes the mat-vec kernel
//    for ne11 <= MMVQ_MAX_BATCH_SIZE = 8 (mmvq.cuh; newer builds keep other limits per type on Ada/Blackwell/CDNA),
//    above it MMQ. mul_mat_vec_q reads each weight block once for all ncols_dst columns but calls vec_dot_q_cuda per
//    (column, row): the unpacking and dot work repeats for every column.
//  - Metal: ggml_metal_op_mul_mat (ggml/src/ggml-metal/ggml-metal-ops.cpp), ne11_mm_min = 8: the small-batch
//    kernel_mul_mv_ext for ne11 in [2, 8] (F32, F16, Q4_0, Q4_1, Q5_0, Q5_1, Q8_0, MXFP4, IQ4_NL) or [4, 8] (Q4_K,
//    Q5_K, Q6_K), r1ptg = 2, 3, 4, 5, 3, 4, 4 columns per threadgroup for ne11 = 2..8, so the weights stream
//    ceil(ne11 / r1ptg) times; it dequantizes a block once (deq_t4 / deq_t4x4) and does one dot per column.
//    Other types and ne11 below those ranges take kernel_mul_mv, one column per threadgroup row (the weights stream
//    ne11 times); mul_mm above 8.
// MoE targets: the routed experts go through MUL_MAT_ID, which at these sizes also runs mat-vec kernels, one per
// (token, expert slot) pair, so each token reads its own k experts and repeats their ALU work (no sharing of an
// expert two tokens picked; small_batch_step):
//  - CUDA/ROCm: ggml_cuda_mul_mat_id (ggml/src/ggml-cuda/ggml-cuda.cu) calls ggml_cuda_mul_mat_vec_q with the ids
//    for quantized experts when ne2 <= MMVQ_MAX_BATCH_SIZE and ne2 <= get_mmvq_mmid_max_batch(type, cc) (mmvq.cu,
//    tables from ggml-org/llama.cpp#20905: 8 on Volta/Ada/Blackwell and for Q4_K/Q5_K/Q6_K/Q8_0 on Turing/Ampere;
//    per-type limits of 4-7 on Pascal, AMD and some low-bit types on Turing+, not modelled: above them MMQ reads
//    each distinct expert once; older builds took MMVQ for ne2 == 1 only).
//    mul_mat_vec_q_switch_ncols_dst's "Multi-token MUL_MAT_ID path" (ggml-org/llama.cpp@000f4625) launches
//    c_ncols_dst = 1 with the token as blockIdx.z, each block reading ids[slot + token * ids_stride]'s rows. Tokens are the grid's slowest axis, and
//    one expert matmul's k slots (GLM-4.5-Air Q4_K: 8 x 3.2 MB) outgrow a consumer L2 between two tokens' turns.
//  - Metal: ggml_metal_op_mul_mat_id (ggml-metal-ops.cpp) runs kernel_mul_mv_id below ne21_mm_id_min = 32 tokens:
//    one mat-vec per (token, expert slot).
// Other backends (Vulkan, SYCL, CPU) and F16/BF16 on CUDA keep the prefill/batched rule below.
struct SmallBatchKernel {
    bool applies = false;
    double weight_passes = 1;   // times the weights are streamed
    double alu_repeats = 1;     // times the decode step's whole per-weight ALU work (dequant + dot) is done
    double dot_columns = 0;     // extra columns that cost only the dot (2 FLOPs per weight)
};

SmallBatchKernel small_batch_kernel(Backend backend, TensorType base, int n) {
    SmallBatchKernel k;
    if (n < 2 || n > 8 || base == TensorType::Count) return k;
    const bool quantized = tensor_type_info(base).quantized;
    if (backend == Backend::Cuda || backend == Backend::Rocm) {
        if (!quantized) return k;
        k.applies = true;
        k.alu_repeats = n;                                   // vec_dot_q_cuda per column
        return k;
    }
    if (backend != Backend::Metal) return k;
    using T = TensorType;
    const bool ext_2 = base == T::F32 || base == T::F16 || base == T::Q4_0 || base == T::Q4_1 || base == T::Q5_0 ||
                       base == T::Q5_1 || base == T::Q8_0 || base == T::MXFP4 || base == T::IQ4_NL;
    const bool ext_4 = base == T::Q4_K || base == T::Q5_K || base == T::Q6_K;
    k.applies = true;
    if (ext_2 || (ext_4 && n >= 4)) {
        static const int kR1ptg[9] = {0, 0, 2, 3, 4, 5, 3, 4, 4};   // the switch (ne11) in ggml_metal_op_mul_mat
        const int passes = (n + kR1ptg[n] - 1) / kR1ptg[n];
        k.weight_passes = passes;
        k.alu_repeats = passes;                              // one dequant per weight per pass
        k.dot_columns = n - passes;                          // the other columns reuse the dequantized block
        return k;
    }
    k.weight_passes = n;                                     // kernel_mul_mv: one column per threadgroup row
    k.alu_repeats = n;
    return k;
}

// one step over n = B tokens_per_slot columns on a small-batch kernel (small_batch_kernel): the decode step's
// weight read and ALU work scaled as the kernel does them (matmul time = hypot(read, ALU), as in the decode model),
// each slot's KV read once, launches once. MoE: that scaling for the dense part (attention, shared experts, dense
// layers, output) only; the routed experts' read and ALU n times (MUL_MAT_ID mat-vec per token and slot, above),
// split off the decode step by their bytes (k / E of the routed-expert bytes, read at moe_bw as the decode model
// does). Host-offloaded weights: the CPU's mul_mat_id groups the rows by expert (ggml-cpu.c
// ggml_compute_forward_mul_mat_id, matrix_row_counts), so each distinct expert is read once
// (expected_distinct_experts), the dense part once.
bool small_batch_step(const StepModel& sm, const SmallBatchKernel& k, int n, double& step_s, std::string& err) {
    const SpeedScenario& s = sm.target;
    const SpeedParams p = default_speed_params();
    const SpeedResult one = estimate_decode(s, p, sm.depth, 1);
    if (!one.ok) { err = "target: " + one.error; return false; }
    const bool moe = s.moe_experts > 0 && s.moe_experts_active > 0 && s.moe_expert_bytes > 0;
    const double e_bytes =
        moe ? std::min(s.weight_bytes_per_token, s.moe_expert_bytes * s.moe_experts_active / s.moe_experts) : 0;
    const double f = e_bytes / s.weight_bytes_per_token;   // the routed experts' share of the bytes and matmul params
    const double e_read = e_bytes / p.moe_bw;
    const double w = one.weight_time_s;
    const double w_exp = moe ? w * e_read / (s.weight_bytes_per_token - e_bytes + e_read) : 0;
    const double alu = std::sqrt(std::max(0.0, (w + one.alu_time_s) * (w + one.alu_time_s) - w * w));
    const double tf = (s.fp16_tflops > 0 ? s.fp16_tflops : estimate_fp16_tflops(s.kind, s.bandwidth_gbs)) * 1e12;
    const double dot = k.dot_columns * 2.0 * s.active_params * (1.0 - f) * (1.0 - s.offload_fraction) / tf;
    const double matmul =
        std::hypot(k.weight_passes * (w - w_exp) + n * w_exp, k.alu_repeats * (alu - alu * f) + n * (alu * f) + dot);
    const double distinct = moe ? expected_distinct_experts(s.moe_experts, s.moe_experts_active, n) : 0;
    const double off = moe ? one.offload_time_s * ((1.0 - f) + f * distinct / s.moe_experts_active) : one.offload_time_s;
    step_s = matmul + sm.slots * one.kv_time_s + one.fixed_time_s + one.sync_time_s + off;
    return true;
}

// one target step over tokens_per_slot tokens of each slot. Up to 8 columns on a small-batch kernel
// (small_batch_kernel; MoE targets with their MUL_MAT_ID mat-vecs): small_batch_step. Otherwise the larger of the batched-decode step (weights
// read once, the slots' KV) and the prefill model's whole time for the B n tokens (matmuls over n tokens at its
// small-matmul efficiency n / (n + 16), never below one weight read; MoE: the union of the experts they route to).
// The earlier rule (the decode step + prefill(B n) - prefill(B)) dropped most of the matmul cost of n tokens: a
// 17-token verify on an M4 Pro came out at 2.3 plain steps where llama.cpp#10455's log shows 4.9 (README).
bool target_step(const Model& m, const StepModel& sm, int tokens_per_slot, double& step_s, std::string& err) {
    const int n = sm.slots * tokens_per_slot;
    const SmallBatchKernel k = small_batch_kernel(sm.target.backend, sm.target_base, n);
    if (k.applies) return small_batch_step(sm, k, n, step_s, err);
    double batched = 0;
    if (!concurrency_step(m, sm, tokens_per_slot, batched, err)) return false;
    step_s = batched;
    if (tokens_per_slot <= 1) return true;
    const SpeedResult pn = estimate_prefill(sm.target, default_speed_params(), (int64_t)sm.slots * tokens_per_slot, sm.depth);
    if (!pn.ok) { err = "target: " + pn.error; return false; }
    step_s = std::max(batched, pn.time_s);
    return true;
}

}  // namespace

double expected_distinct_experts(int n_experts, int k_used, int n_tokens) {
    if (n_experts <= 0 || k_used <= 0 || n_tokens <= 0) return 0;
    const double k = std::min(k_used, n_experts);
    return n_experts * (1.0 - std::pow(1.0 - k / n_experts, n_tokens));
}

double sampling_s_per_position(int64_t vocab_size) {
    return (double)std::max<int64_t>(vocab_size, 0) * kSamplingSecondsPerVocabEntry;
}

namespace {

}  // namespace

bool estimate_spec_speed(const Catalog& cat, const Model& target, const Model& draft, const SpecRequest& req,
                         SpecSpeed& out, std::string& err) {
    out = SpecSpeed();
    if (!check_spec_request(req, err)) return false;
    StepModel sm;
    if (!build_steps(cat, target, draft, req, sm, err)) return false;
    SpeedResult dd = estimate_decode(sm.draft, default_speed_params(), sm.depth, 1);
    if (!dd.ok) { err = "draft: " + dd.error; return false; }
    // every drafted token and every verified position is sampled on the host over the whole vocabulary
    // (common_sampler_sample per position), and so is each plain decode step: see kSamplingSecondsPerVocabEntry
    const double t_sample = sampling_s_per_position(target.vocab_size);
    const double t_draft = dd.time_s + sampling_s_per_position(draft.vocab_size);
    double plain = 0;
    if (!target_step(target, sm, 1, plain, err)) return false;
    plain += sm.slots * t_sample;
    auto round_time = [&](int k, double& verify, double& round) -> bool {
        if (!target_step(target, sm, k + 1, verify, err)) return false;
        verify += (double)sm.slots * (k + 1) * t_sample;
        round = sm.slots * k * t_draft + verify;   // each slot drafts on its own context, then one verify batch
        return true;
    };
    const int k = req.draft_max;
    double verify = 0, round = 0;
    if (!round_time(k, verify, round)) return false;
    out.k = k;
    out.acceptance = req.acceptance;
    out.expected_tokens = expected_accepted_tokens(req.acceptance, k);
    out.target_step_s = plain;
    out.draft_step_s = t_draft;
    out.sample_s = t_sample;
    out.verify_step_s = verify;
    out.round_s = round;
    out.plain_tokens_per_s = 1.0 / plain;
    out.spec_tokens_per_s = out.expected_tokens / round;
    out.speedup = out.spec_tokens_per_s / out.plain_tokens_per_s;
    out.break_even_acceptance = break_even_acceptance(round / plain, k);
    for (int kk = 1; kk <= req.draft_max; ++kk) {
        double v = 0, r = 0;
        if (!round_time(kk, v, r)) return false;
        double sp = expected_accepted_tokens(req.acceptance, kk) / r * plain;
        if (sp > out.best_k_speedup) { out.best_k_speedup = sp; out.best_k = kk; }
    }
    out.ok = std::isfinite(out.speedup) && out.speedup > 0;
    if (!out.ok) err = "speed out of the model's range for these inputs";
    return out.ok;
}

}  // namespace llmsim
