// Speculative decoding with a draft model, as llama-server runs it (-md DRAFT --draft-max K -cd N -ngld N).
//
// Memory (llama.cpp tools/server/server.cpp, server_context::load_model and server_context::init):
//   the draft is a second model loaded with params_dft = params_base, except
//     n_ctx        = -cd, or llama_n_ctx_seq(ctx) of the target (its context per sequence) when -cd is 0
//     n_parallel   = 1, cache_type_k/v = -ctkd/-ctvd (default f16), n_gpu_layers = -ngld, tensor split as the target
//   its context is then freed and ONE DRAFT CONTEXT PER SLOT is created (slot.ctx_dft = llama_init_from_model with
//   cparams_dft, n_batch = n_ctx_dft): -np slots hold -np draft KV caches and -np draft compute buffers. The draft
//   shares the process, so the CUDA/Metal context and host runtime are counted once (the target's).
// Speed (Leviathan, Kalman, Matias 2023, "Fast Inference from Transformers via Speculative Decoding", ICML, eq. 1):
//   with per-token acceptance a and k drafted tokens, a round yields E = (1 - a^(k+1)) / (1 - a) tokens
//   (k + 1 at a = 1). A round costs k draft decode steps + one target step over k + 1 tokens. Up to 8 columns on
//   llama.cpp's small-batch kernels (CUDA/ROCm MMVQ for quantized weights, Metal mul_mv_ext / mul_mv) the verify
//   step is the decode step with the weight passes and per-column ALU work those kernels do (spec.cpp
//   small_batch_kernel, with the dispatch code it follows); on MoE targets that holds for the dense part and the
//   routed experts are read once per token (MUL_MAT_ID's small-batch mat-vecs, one per token and expert slot;
//   host-offloaded experts once per distinct expert, expected_distinct_experts); otherwise it is the larger of the prefill
//   model's time for the k + 1 tokens (its small-matmul efficiency n / (n + 16), the MoE union of the experts they
//   route to) and the batched-decode step (estimate_concurrency: weights read once, matmul FLOPs of k + 1 tokens,
//   the one sequence's KV read once). Every sampled position (each drafted token, each
//   of the k + 1 verified positions, each plain decode token) costs host sampling over the vocabulary
//   (sampling_s_per_position). tokens/s = E / (k t_draft + t_verify(k+1)); plain decode = 1 / t_target;
//   break-even a: E(a) = round / t_target.
//   With -np B slots decoding together llama-server drafts each slot on its own draft context (B x k draft steps in
//   turn) and verifies all slots in one batch of B (k + 1) tokens.
// What is not modelled: llama.cpp stops a draft early when the draft's top probability is below --draft-p-min
// (0.75 by default), so real drafts are often shorter than --draft-max; the draft re-reading the accepted tokens as
// a small batch at the start of each round (counted as one of the k steps).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "catalog/catalog.h"
#include "sim/simulate.h"

namespace llmsim {

struct SpecRequest {
    SimRequest target;                   // the target's full request (hardware, quant, context, -np, ...)
    std::string draft_file_type = "Q8_0";   // the draft GGUF's file type
    int64_t draft_ctx = 0;               // -cd: 0 = the target's context per sequence (llama_n_ctx_seq)
    int draft_gpu_layers = -1;           // -ngld: -1 = all
    TensorType draft_kv_type_k = TensorType::F16;   // -ctkd
    TensorType draft_kv_type_v = TensorType::F16;   // -ctvd
    int draft_max = 16;                  // --draft-max (llama.cpp common_params_speculative n_max default 16)
    int draft_min = 0;                   // --draft-min (default 0); only echoed into the command
    double acceptance = 0.7;             // per-token acceptance a in [0, 1)
    int64_t depth = 0;                   // context tokens already cached when decoding (0 = the request's prompt)
};

struct SpecDevice {                      // one device of the pair
    std::string name;
    uint64_t target_bytes = 0;           // the target's whole breakdown on this device
    uint64_t draft_weights_bytes = 0;
    uint64_t draft_kv_bytes = 0;         // all slots' draft caches
    uint64_t draft_compute_bytes = 0;    // all slots' draft compute buffers
    uint64_t total_bytes = 0;
    uint64_t usable_bytes = 0;           // 0 = unknown
};

struct SpecMemory {
    MemoryBreakdown target;              // estimate_memory of the target alone
    MemoryBreakdown draft;               // estimate_memory of the draft with its own context (one slot)
    int64_t draft_ctx = 0;               // the draft context it got
    int slots = 1;                       // draft contexts (-np)
    std::vector<SpecDevice> devices;
    uint64_t total_bytes = 0;
    uint64_t draft_extra_bytes = 0;      // what the draft adds to the target alone
    bool fits = false;                   // every GPU (or the CPU device) within its usable limit
    bool known_limit = false;            // a device with a limit was given
};

struct SpecSpeed {
    bool ok = false;
    std::string error;
    int k = 0;                           // draft tokens per round
    double acceptance = 0;
    double expected_tokens = 0;          // E per round
    double target_step_s = 0;            // plain decode step (one token, each of B slots), sampling included
    double draft_step_s = 0;             // one draft decode step (one slot), sampling its token included
    double verify_step_s = 0;            // one target step over B (k + 1) tokens, sampling every position included
    double sample_s = 0;                 // host sampling of one target position (sampling_s_per_position)
    double round_s = 0;                  // B k draft steps + the verify step
    double plain_tokens_per_s = 0;       // per slot, without a draft
    double spec_tokens_per_s = 0;        // per slot, with the draft
    double speedup = 0;                  // spec / plain
    double break_even_acceptance = 0;    // a where speedup = 1; > 1 means it never pays off at this k
    int best_k = 0;                      // k in 1..draft_max with the highest speed at this acceptance
    double best_k_speedup = 0;
};

// a typical per-token acceptance range of a kind of task (estimates, see spec.cpp)
struct AcceptanceRange {
    const char* task;
    double low, high;
    const char* source;
};
const AcceptanceRange* acceptance_ranges(int& count);

// host time to sample one position over the whole vocabulary: llama-cli's own sampler timing on the RTX 3060 host
// of ggml-org/llama.cpp#5877 (comment of 2024-11-19): "sampling time = 601.84 ms / 913 runs (0.66 ms per token)"
// with Llama 3.1's 128256-token vocabulary = 5.14 ns per vocabulary entry. An estimate for other hosts.
constexpr double kSamplingSecondsPerVocabEntry = 601.84e-3 / 913.0 / 128256.0;
double sampling_s_per_position(int64_t vocab_size);

// expected distinct experts per MoE layer that n tokens route to when each picks k_used of n_experts uniformly at
// random (uniform routing is an assumption: real routers favour some experts, which lowers the count):
// E (1 - (1 - k/E)^n); 0 when any input is <= 0
double expected_distinct_experts(int n_experts, int k_used, int n_tokens);
// E = (1 - a^(k+1)) / (1 - a), k + 1 at a = 1 (Leviathan et al. 2023, eq. 1); NaN for a outside [0, 1] or k < 0
double expected_accepted_tokens(double a, int k);
// the acceptance at which E(a, k) equals `ratio` (= round time / plain step time); > 1 (returned as 2) when even
// a = 1 does not reach it, 0 when a = 0 already does (ratio <= 1)
double break_even_acceptance(double ratio, int k);

// memory of target + draft on req.target.memory.hardware; false + err on bad input (either model's messages)
bool estimate_spec_memory(const Catalog& cat, const Model& target, const Model& draft, const SpecRequest& req,
                          SpecMemory& out, std::string& err);
// expected decode speed at req.acceptance and req.draft_max; false + err when either model has no speed
bool estimate_spec_speed(const Catalog& cat, const Model& target, const Model& draft, const SpecRequest& req,
                         SpecSpeed& out, std::string& err);
// the memory request the draft gets (draft context, one slot, -ctkd/-ctvd, -ngld), from the target's
MemoryRequest draft_memory_request(const SpecRequest& req);
// the llama-server flags that add the draft: " -md <draft>-<Q>.gguf --draft-max K --draft-min N [-cd N] [-ngld N]
// [-ctkd T -ctvd T]" (appended to llama_server_command's line)
std::string spec_server_flags(const Model& draft, const SpecRequest& req);

}  // namespace llmsim
