// Speculative decoding (engine/spec/spec.h): the pair's memory against the two single-model breakdowns composed
// here by llama-server's rules (tools/server/server.cpp load_model / init), the expected-tokens formula of
// Leviathan et al. 2023 at hand-computed points, and the break-even behaviour.
#include <catch2/catch.hpp>

#include <cmath>

#include "catalog/catalog.h"
#include "memory/memory.h"
#include "model/hf_config.h"
#include "spec/spec.h"
#include "test_support.h"

using namespace llmsim;

namespace {
}  // namespace

TEST_CASE("spec: E = (1 - a^(k+1)) / (1 - a) at hand-computed points", "[spec]") {
    CHECK(expected_accepted_tokens(0.5, 3) == Approx(1.875));       // (1 - 1/16) / 0.5
    CHECK(expected_accepted_tokens(0.8, 4) == Approx(3.3616));      // (1 - 0.32768) / 0.2
    CHECK(expected_accepted_tokens(0.0, 8) == Approx(1.0));         // the target's own token only
    CHECK(expected_accepted_tokens(1.0, 5) == Approx(6.0));         // every draft token + the bonus token
    CHECK(std::isnan(expected_accepted_tokens(1.5, 4)));
    CHECK(break_even_acceptance(1.875, 3) == Approx(0.5).margin(1e-9));
    CHECK(break_even_acceptance(0.9, 3) == 0.0);                    // a round cheaper than a step: always pays
    CHECK(break_even_acceptance(4.5, 3) > 1.0);                     // needs more than k + 1 tokens: never pays
}

TEST_CASE("spec: pair memory = target + draft weights + one draft KV and compute buffer per slot", "[spec]") {
    const Model* t = cat().find_model("Qwen/Qwen2.5-72B-Instruct");
    const Model* d = cat().find_model("Qwen/Qwen2.5-0.5B-Instruct");
    REQUIRE(t); REQUIRE(d);
    SpecRequest r;
    r.target.memory.hardware = cat().find_hardware("2x-rtx-4090");
    REQUIRE(r.target.memory.hardware);
    r.target.memory.file_type = "Q3_K_M";
    r.target.memory.n_ctx = 8192;
    r.target.memory.n_parallel = 2;
    r.draft_file_type = "Q8_0";
    SpecMemory m;
    std::string err;
    REQUIRE(estimate_spec_memory(cat(), *t, *d, r, m, err));
    // the two single-model breakdowns, requested independently as llama-server builds them
    MemoryBreakdown tb, db;
    REQUIRE(estimate_memory(cat(), *t, r.target.memory, tb, err));
    MemoryRequest dr = r.target.memory;
    dr.file_type = "Q8_0";
    dr.n_ctx = 4096;                  // llama_n_ctx_seq(ctx) = 8192 / 2
    dr.n_parallel = 1;
    dr.n_batch = 4096;                // cparams_dft.n_batch = n_ctx_dft
    dr.compute_max_context = false;
    REQUIRE(estimate_memory(cat(), *d, dr, db, err));
    CHECK(m.draft_ctx == 4096);
    CHECK(m.slots == 2);
    // no second CUDA context: the draft's overhead is not added
    CHECK(m.total_bytes == tb.total_bytes + db.weights_bytes + 2 * (db.kv_cache_bytes + db.compute_bytes));
    // draft KV by hand: 24 layers x 2 KV heads x 64 dims x (K + V) x f16 x 4096 cells x 2 slots
    REQUIRE(d->n_layers == 24); REQUIRE(d->n_kv_heads == 2); REQUIRE(d->head_dim == 64);
    uint64_t kv = 0;
    for (const SpecDevice& x : m.devices) kv += x.draft_kv_bytes;
    CHECK(kv == 24ull * 2 * 64 * 2 * 2 * 4096 * 2);
    // -cd overrides the per-sequence context
    r.draft_ctx = 2048;
    REQUIRE(estimate_spec_memory(cat(), *t, *d, r, m, err));
    CHECK(m.draft_ctx == 2048);
}

TEST_CASE("spec: speed-up is 1 at the break-even acceptance and grows with it", "[spec]") {
    const Model* t = cat().find_model("Qwen/Qwen2.5-72B-Instruct");
    const Model* d = cat().find_model("Qwen/Qwen2.5-0.5B-Instruct");
    SpecRequest r;
    r.target.memory.hardware = cat().find_hardware("m2-ultra-192");
    REQUIRE(r.target.memory.hardware);
    r.target.memory.n_ctx = 8192;
    r.draft_max = 8;
    r.depth = 1024;
    SpecSpeed lo, hi, be;
    std::string err;
    r.acceptance = 0.3;
    REQUIRE(estimate_spec_speed(cat(), *t, *d, r, lo, err));
    r.acceptance = 0.8;
    REQUIRE(estimate_spec_speed(cat(), *t, *d, r, hi, err));
    CHECK(hi.speedup > lo.speedup);
    CHECK(hi.round_s == Approx(lo.round_s));                      // acceptance changes tokens, not the work
    CHECK(hi.round_s == Approx(8 * hi.draft_step_s + hi.verify_step_s));
    CHECK(hi.spec_tokens_per_s == Approx(expected_accepted_tokens(0.8, 8) / hi.round_s));
    REQUIRE(hi.break_even_acceptance < 1);
    r.acceptance = hi.break_even_acceptance;
    REQUIRE(estimate_spec_speed(cat(), *t, *d, r, be, err));
    CHECK(be.speedup == Approx(1.0).epsilon(1e-6));
}

TEST_CASE("spec: many parallel sequences raise the break-even acceptance", "[spec]") {
    const Model* t = cat().find_model("Qwen/Qwen2.5-72B-Instruct");
    const Model* d = cat().find_model("Qwen/Qwen2.5-0.5B-Instruct");
    SpecRequest r;
    r.target.memory.hardware = cat().find_hardware("h100-sxm");
    REQUIRE(r.target.memory.hardware);
    r.target.memory.n_ctx = 65536;
    r.draft_max = 4;
    r.depth = 512;
    SpecSpeed one, many;
    std::string err;
    REQUIRE(estimate_spec_speed(cat(), *t, *d, r, one, err));
    r.target.memory.n_parallel = 32;
    REQUIRE(estimate_spec_speed(cat(), *t, *d, r, many, err));
    CHECK(many.break_even_acceptance > one.break_even_acceptance);
}

TEST_CASE("spec: bad input is refused with a message", "[spec]") {
    const Model* t = cat().find_model("Qwen/Qwen2.5-7B-Instruct");
    const Model* d = cat().find_model("Qwen/Qwen2.5-0.5B-Instruct");
    SpecRequest r;
    r.target.memory.hardware = cat().find_hardware("rtx-4090");
    SpecSpeed s;
    SpecMemory m;
    std::string err;
    r.acceptance = 1.5;
    CHECK_FALSE(estimate_spec_speed(cat(), *t, *d, r, s, err));
    CHECK(err == "accept: the acceptance rate must be from 0 to 1");
    r.acceptance = 0.7;
    r.draft_max = 0;
    CHECK_FALSE(estimate_spec_memory(cat(), *t, *d, r, m, err));
    CHECK(err == "draft-max: 0 is out of range (1 to 256 tokens)");
}

// Two llama-speculative logs with the acceptance counts printed (acceptance set so E matches the measured tokens
// per round: n_predict / (n_predict - n_accept)). The verify-step and sampling rules were chosen while looking at
// these two logs, so they are a regression guard, not an independent validation (README "Speculative decoding").
TEST_CASE("spec: speed-up against two llama.cpp speculative logs", "[spec]") {
    struct Case {
        const char *target, *draft, *hw, *tq, *dq;
        int k;
        double tokens_per_round, measured_speedup;
    };
    const Case cases[] = {
        // ggml-org/llama.cpp#5877 (comment of 2024-11-19), RTX 3060 12 GB: llama-cli 32.49 t/s, llama-speculative
        // 55.473 t/s, n_draft 5, n_predict 673, n_accept 526
        {"meta-llama/Llama-3.1-8B-Instruct", "meta-llama/Llama-3.2-1B-Instruct", "rtx-3060-12gb", "Q8_0", "Q8_0", 5,
         673.0 / (673 - 526), 55.473 / 32.49},
        // ggml-org/llama.cpp#10455 (comment of 2024-11-26), M4 Pro 64 GB: "usually about 11" t/s, 10.781 t/s with
        // Qwen2.5-Coder-3B Q4_0 as draft, n_draft 16, n_predict 371, n_accept 313 (Q4_K_L target: Q4_K_M here)
        {"Qwen/Qwen2.5-Coder-32B-Instruct", "Qwen/Qwen2.5-3B-Instruct", "m4-pro-64", "Q4_K_M", "Q4_0", 16,
         371.0 / (371 - 313), 10.781 / 11.0},
    };
    for (const Case& c : cases) {
        SpecRequest r;
        r.target.memory.hardware = cat().find_hardware(c.hw);
        REQUIRE(r.target.memory.hardware);
        r.target.memory.file_type = c.tq;
        r.draft_file_type = c.dq;
        r.target.memory.n_ctx = 4096;
        r.draft_max = c.k;
        r.depth = 300;
        double lo = 0, hi = 0.999999;                 // a with E(a, k) = measured tokens per round
        for (int i = 0; i < 80; ++i) (expected_accepted_tokens(0.5 * (lo + hi), c.k) < c.tokens_per_round ? lo : hi) = 0.5 * (lo + hi);
        r.acceptance = lo;
        SpecSpeed sp;
        std::string err;
        REQUIRE(estimate_spec_speed(cat(), *cat().find_model(c.target), *cat().find_model(c.draft), r, sp, err));
        INFO(c.hw << ": predicted x" << sp.speedup << ", measured x" << c.measured_speedup);
        CHECK(sp.speedup / c.measured_speedup - 1 < 0.20);   // was +38 % and +63 % before the verify/sampling rules
        CHECK(sp.speedup / c.measured_speedup - 1 > -0.10);
    }
}

// Held-out check of the verify step alone: llama-bench pp1..pp11 of CodeLlama-34B Q8_0 on an A100 (ggml-org/llama.cpp
// #5625, ggerganov's comment, Feb 2024 build): pp1..pp11 34.67, 64.67, 92.92, 108.26, 135.18, 134.88, 150.72, 160.81,
// 80.38, 89.21, 97.64 t/s, so a step over n tokens costs n / t_n seconds. The small-batch rule (spec.cpp small_batch_kernel:
// CUDA's MMVQ up to 8 columns repeats the dequant + dot work per column) was read from mmvq.cu, not fitted on these.
TEST_CASE("spec: verify step over n tokens against llama-bench pp1..pp11 on an A100 (held out)", "[spec]") {
    const char* cfg = R"({"model_type": "llama", "num_hidden_layers": 48, "hidden_size": 8192, "intermediate_size": 22016,
        "num_attention_heads": 64, "num_key_value_heads": 8, "vocab_size": 32000, "max_position_embeddings": 16384,
        "rope_theta": 1000000, "tie_word_embeddings": false})";
    Model t;
    std::string err;
    REQUIRE(model_from_hf_config(cfg, "codellama/CodeLlama-34b-hf", t, err));
    const Model* d = cat().find_model("meta-llama/Llama-3.2-1B-Instruct");   // the draft does not enter the verify step
    REQUIRE(d);
    const double tps[] = {34.67, 64.67, 92.92, 108.26, 135.18, 134.88, 150.72, 160.81};   // pp1..pp8
    SpecRequest r;
    r.target.memory.hardware = cat().find_hardware("a100-sxm-80gb");
    REQUIRE(r.target.memory.hardware);
    r.target.memory.file_type = "Q8_0";
    r.target.memory.n_ctx = 4096;
    r.depth = 1;
    r.acceptance = 0.5;
    // n = 2..8 only: at n = 9 that build switched to MMQ and the step jumped to 3.9 plain steps (a full MMQ tile for
    // 9 columns); the prefill model gives 1.18 there (README, "Speculative decoding"), not asserted here
    double last = 1;
    for (int n = 2; n <= 8; ++n) {
        r.draft_max = n - 1;
        SpecSpeed sp;
        REQUIRE(estimate_spec_speed(cat(), t, *d, r, sp, err));
        const double predicted = (sp.verify_step_s - n * sp.sample_s) / (sp.target_step_s - sp.sample_s);
        const double measured = (n / tps[n - 1]) / (1 / tps[0]);
        INFO("n " << n << ": step(n)/step(1) predicted " << predicted << ", measured " << measured);
        CHECK(predicted > last);                           // every column repeats the dequant + dot work
        // under-priced: -6 % (n = 2) to -28 % (n = 8) until 2026-12-07, -32 % at n = 8 since (the refit that took
        // F16 weights out of the per-SM read limit lowered the quantised HBM read share, so a plain step got dearer
        // and the repeated dequant + dot work counts for less of it)
        CHECK(predicted / measured - 1 < 0.05);
        CHECK(predicted / measured - 1 > -0.35);
        last = predicted;
    }
}

// The Metal kernel choice of ggml_metal_op_mul_mat (ggml/src/ggml-metal/ggml-metal-ops.cpp) by hand: Q4_K weights take
// kernel_mul_mv for 2-3 columns (one column per threadgroup row: the weights stream once per column) and
// kernel_mul_mv_ext for 4-8 (r1ptg = 4, 5, 3, 4, 4 columns per pass for n = 4..8: 1, 1, 2, 2, 2 passes); Q8_0 takes
// mul_mv_ext from 2 columns (r1ptg 2: one pass). So the verify step over 3 tokens costs more than over 4.
TEST_CASE("spec: Metal verify steps follow ggml_metal_op_mul_mat's small-batch kernels", "[spec]") {
    const Model* t = cat().find_model("Qwen/Qwen2.5-72B-Instruct");
    const Model* d = cat().find_model("Qwen/Qwen2.5-0.5B-Instruct");
    REQUIRE(t); REQUIRE(d);
    auto ratio = [&](const char* quant, int n) {          // verify step over n tokens / plain step, sampling removed
        SpecRequest r;
        r.target.memory.hardware = cat().find_hardware("m2-ultra-192");
        r.target.memory.file_type = quant;
        r.target.memory.n_ctx = 8192;
        r.depth = 1024;
        r.draft_max = n - 1;
        SpecSpeed sp;
        std::string err;
        REQUIRE(estimate_spec_speed(cat(), *t, *d, r, sp, err));
        return (sp.verify_step_s - n * sp.sample_s) / (sp.target_step_s - sp.sample_s);
    };
    CHECK(ratio("Q4_K_M", 3) > 2.5);                     // mul_mv: three weight passes
    CHECK(ratio("Q4_K_M", 4) < 1.3);                     // mul_mv_ext: one pass, dequant once, four dots
    CHECK(ratio("Q4_K_M", 5) < 1.3);
    CHECK(ratio("Q4_K_M", 6) > 1.7);                     // r1ptg 3: two passes
    CHECK(ratio("Q4_K_M", 6) < 2.4);
    CHECK(ratio("Q8_0", 2) < 1.2);                       // legacy types use mul_mv_ext from 2 columns
}

// Distinct experts per layer that n tokens touch, each routing to k of E uniformly: E (1 - (1 - k/E)^n), by hand.
TEST_CASE("spec: expected distinct experts under uniform routing", "[spec]") {
    CHECK(expected_distinct_experts(128, 8, 1) == Approx(8.0));                   // one token: its own k
    CHECK(expected_distinct_experts(128, 8, 2) == Approx(15.5));                  // 128 (1 - (120/128)^2)
    CHECK(expected_distinct_experts(8, 2, 3) == Approx(4.625));                   // 8 (1 - 0.75^3)
    CHECK(expected_distinct_experts(4, 4, 5) == Approx(4.0));                     // every expert, whatever n
    CHECK(expected_distinct_experts(0, 8, 2) == 0.0);
    CHECK(expected_distinct_experts(128, 0, 2) == 0.0);
    CHECK(expected_distinct_experts(128, 8, 0) == 0.0);
}

// MoE verify steps of up to 8 tokens on CUDA and Metal: the dense part as for dense targets, the routed experts once
// per token (MUL_MAT_ID's mat-vec per token and expert slot: spec.cpp small_batch_kernel), so a step over n tokens
// costs more than one plain step and less than n, and grows with n. The earlier rule (the prefill model) priced the
// 2-token verify of GLM-4.5-Air on 4x RTX 3090 at ~2 plain steps.
TEST_CASE("spec: MoE verify steps read the dense part once and the routed experts per token", "[spec]") {
    const Model* t = cat().find_model("zai-org/GLM-4.5-Air");
    const Model* d = cat().find_model("Qwen/Qwen2.5-0.5B-Instruct");
    REQUIRE(t); REQUIRE(d);
    auto ratio = [&](const char* hw, int n) {            // verify step over n tokens / plain step, sampling removed
        SpecRequest r;
        r.target.memory.hardware = cat().find_hardware(hw);
        REQUIRE(r.target.memory.hardware);
        r.target.memory.file_type = "Q4_K_M";
        r.target.memory.n_ctx = 8192;
        r.depth = 512;
        r.draft_max = n - 1;
        SpecSpeed sp;
        std::string err;
        REQUIRE(estimate_spec_speed(cat(), *t, *d, r, sp, err));
        return (sp.verify_step_s - n * sp.sample_s) / (sp.target_step_s - sp.sample_s);
    };
    double last = 1;
    for (int n = 2; n <= 8; ++n) {                       // CUDA: MMVQ, one weight pass for the dense part
        const double q = ratio("4x-rtx-3090", n);
        INFO("4x RTX 3090 n " << n << ": step(n)/step(1) " << q);
        CHECK(q > last);
        CHECK(q < n);
        last = q;
    }
    CHECK(ratio("4x-rtx-3090", 2) < 1.75);               // the routed experts are about half of the bytes per token
    // Metal (Q4_K): the dense part on mul_mv_ext from 4 columns (one pass for 4-5, two for 6-8), experts per token
    CHECK(ratio("m2-ultra-192", 4) < ratio("m2-ultra-192", 5));
    CHECK(ratio("m2-ultra-192", 5) < ratio("m2-ultra-192", 6));
    CHECK(ratio("m2-ultra-192", 4) < 4);
}
