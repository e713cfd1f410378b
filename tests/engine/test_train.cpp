// Fine-tuning memory (engine/train/train.h): each rule against its source, computed here by hand.
//   ZeRO sharding: Rajbhandari et al. 2020, fig. 1 formulas (2 + 2 + K) psi with K = 12
//   activations: Korthikanti et al. 2022 eq. (1) per layer s b h (34 + 5 a s / h) for their GPT block
//   QLoRA base footprint: measured 5.44 GB (model.get_memory_footprint()) for Qwen2.5-7B loaded in NF4 with double
//     quantisation, dev.to/sumanpro "QLoRA: Fine-Tuning a 7B Model on a 16GB GPU" (2026); get_memory_footprint counts
//     parameters and buffers, i.e. the 4-bit payload and the bf16 non-linear tensors, not the quant-state absmax
//   training FLOPs: Chowdhery et al. 2022 (PaLM) appendix B, 6 N + 12 L H Q T
#include <catch2/catch.hpp>

#include "catalog/catalog.h"
#include "model/model_tensors.h"
#include "train/train.h"
#include "test_support.h"

using namespace llmsim;

namespace {
uint64_t states(const TrainMemory& t) { return t.weights_bytes + t.grads_bytes + t.optimizer_bytes; }
}  // namespace

TEST_CASE("train: ZeRO stages shard optimizer state, then gradients, then weights (16 B/param AdamW)", "[train]") {
    const Model* m = cat().find_model("meta-llama/Llama-3.1-8B-Instruct");
    REQUIRE(m);
    ParamCounts pc;
    std::string err;
    REQUIRE(count_params(*m, pc, err));
    const double psi = (double)pc.total, N = 8;
    const double expect[4] = {16 * psi, 4 * psi + 12 * psi / N, 2 * psi + 14 * psi / N, 16 * psi / N};
    for (int z = 0; z <= 3; ++z) {
        TrainRequest r;
        r.gpus = 8;
        r.zero = z;
        TrainMemory t;
        REQUIRE(estimate_training(*m, r, t, err));
        CHECK((double)states(t) == Approx(expect[z]).epsilon(1e-6));
    }
    TrainRequest r;
    r.gpus = 8;
    TrainMemory t;
    REQUIRE(estimate_training(*m, r, t, err));
    CHECK(t.ddp_bucket_bytes == t.grads_bytes);   // DDP buckets copy the gradients unless gradient_as_bucket_view
}

TEST_CASE("train: Korthikanti's 34 s b h + 5 a s^2 b for their GPT block", "[train]") {
    Model g;                                       // GPT-3 175B block shapes (Korthikanti table 3: h 12288, a 96)
    g.id = "test/gpt";
    g.arch = "gpt2";
    g.n_layers = 1;
    g.hidden_size = 12288;
    g.n_heads = 96;
    g.n_kv_heads = 96;
    g.head_dim = 128;
    g.intermediate_size = 4 * 12288;
    g.gated_ffn = false;
    g.vocab_size = 50257;
    const uint64_t h = 12288, a = 96, s = 2048;
    CHECK(activation_bytes_per_token(g, 0, s, /*flash*/ false, /*dropout*/ true) == 34 * h + 5 * a * s);
    // no dropout: the two 1-byte masks of h (attention output, MLP output) and the attention-dropout mask and output
    // (3 a s) go, the softmax output (2 a s) stays; flash attention: no s x s term, 4 a bytes of fp32 LSE
    CHECK(activation_bytes_per_token(g, 0, s, false, false) == 32 * h + 2 * a * s);
    CHECK(activation_bytes_per_token(g, 0, s, true, false) == 32 * h + 4 * a);
}

TEST_CASE("train: gradient checkpointing keeps 2 h per layer per token plus one layer", "[train]") {
    const Model* m = cat().find_model("Qwen/Qwen2.5-7B-Instruct");
    REQUIRE(m);
    TrainRequest r;
    r.method = TrainMethod::Lora;
    r.seq = 4096;
    r.micro_batch = 2;
    r.grad_ckpt = true;
    TrainMemory t;
    std::string err;
    REQUIRE(estimate_training(*m, r, t, err));
    const uint64_t per_layer = activation_bytes_per_token(*m, 0, 4096, true, false);
    CHECK(t.activations_bytes == 8192ull * (2ull * 3584 * 28 + per_layer));
    r.grad_ckpt = false;
    TrainMemory u;
    REQUIRE(estimate_training(*m, r, u, err));
    CHECK(u.activations_bytes == 8192ull * per_layer * 28);
}

TEST_CASE("train: QLoRA base of Qwen2.5-7B against the measured 5.44 GB footprint", "[train]") {
    const Model* m = cat().find_model("Qwen/Qwen2.5-7B-Instruct");
    REQUIRE(m);
    TrainRequest r;
    r.method = TrainMethod::Qlora;
    TrainMemory t;
    std::string err;
    REQUIRE(estimate_training(*m, r, t, err));
    const double payload_gb = (double)(t.weights_bytes - t.quant_constant_bytes - t.adapter_bytes) / 1e9;
    CHECK(payload_gb == Approx(5.44).margin(0.005));          // what get_memory_footprint() counts (printed to 0.01 GB)
    CHECK((double)t.weights_bytes / 1e9 > 5.44);               // + the absmax constants the GPU also holds
}

TEST_CASE("train: FLOPs per token and bad input", "[train]") {
    const Model* m = cat().find_model("meta-llama/Llama-3.1-8B-Instruct");
    ParamCounts pc;
    std::string err;
    REQUIRE(count_params(*m, pc, err));
    TrainRequest r;
    r.seq = 2048;
    r.hardware = cat().find_hardware("h100-sxm");
    REQUIRE(r.hardware);
    TrainMemory t;
    REQUIRE(estimate_training(*m, r, t, err));
    const double N = (double)(pc.active - pc.embedding);       // untied: the embedding is a lookup
    CHECK(t.flops_per_token == Approx(6 * N + 12.0 * 32 * 32 * 128 * 2048));
    CHECK(t.tokens_per_s == Approx(r.hardware->fp16_tflops * 1e12 * 0.40 / t.flops_per_token));
    r.zero = 4;
    CHECK_FALSE(estimate_training(*m, r, t, err));
    CHECK(err == "train: --zero must be 0, 1, 2 or 3 (got 4)");
}
