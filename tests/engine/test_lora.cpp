// LoRA adapters (engine/adapter/lora.h): parameter counts against PEFT's print_trainable_parameters() for
// Llama-3-8B (r = 8, q_proj + v_proj: "trainable params: 3,407,872", widely reproduced in PEFT tutorials) and
// a hand count; bytes in the adapter's type; the speed cost = the bytes + 4 graph nodes per adapted tensor (build_lora_mm).
#include <catch2/catch.hpp>

#include "adapter/lora.h"
#include "catalog/catalog.h"
#include "speed/speed.h"
#include "test_support.h"

using namespace llmsim;

namespace {
}  // namespace

TEST_CASE("lora: Llama-3-8B r=8 q,v has PEFT's 3,407,872 trainable parameters", "[lora]") {
    const Model* m = cat().find_model("meta-llama/Meta-Llama-3-8B");
    REQUIRE(m);
    LoraSpec s;
    std::string err;
    s.rank = 8;
    REQUIRE(parse_lora_targets("q_proj,v_proj", s, err));
    LoraSize z;
    REQUIRE(lora_size(*m, s, z, err));
    CHECK(z.params == 3407872u);
    CHECK(z.bytes == 3407872u * 2);                 // f16
    CHECK(z.bytes_per_token == z.bytes);            // dense: every adapter tensor per token
}

TEST_CASE("lora: Qwen2.5-7B r=16 all linears by hand", "[lora]") {
    const Model* m = cat().find_model("Qwen/Qwen2.5-7B-Instruct");
    REQUIRE(m);
    REQUIRE(m->hidden_size == 3584); REQUIRE(m->n_heads == 28); REQUIRE(m->n_kv_heads == 4); REQUIRE(m->head_dim == 128);
    REQUIRE(m->intermediate_size == 18944); REQUIRE(m->n_layers == 28);
    LoraSpec s;
    std::string err;
    REQUIRE(parse_lora_targets("all", s, err));
    LoraSize z;
    REQUIRE(lora_size(*m, s, z, err));
    // per layer: q 3584->3584, k,v 3584->512, o 3584->3584, gate,up 3584->18944, down 18944->3584; r (in + out) each
    const uint64_t per_layer = 16ull * ((3584 + 3584) * 2 + (3584 + 512) * 2 + (3584 + 18944) * 3);
    CHECK(z.params == per_layer * 28);
    s.type = TensorType::F32;
    REQUIRE(lora_size(*m, s, z, err));
    CHECK(z.bytes == per_layer * 28 * 4);
}

TEST_CASE("lora: MoE adapters count every expert but a token reads the active ones", "[lora]") {
    const Model* m = cat().find_model("Qwen/Qwen3-30B-A3B");
    REQUIRE(m);
    REQUIRE(m->is_moe());
    LoraSpec s;
    std::string err;
    REQUIRE(parse_lora_targets("mlp", s, err));
    LoraSize z;
    REQUIRE(lora_size(*m, s, z, err));
    const uint64_t per_expert = 16ull * ((uint64_t)(m->hidden_size + m->moe->expert_ffn) * 3);
    CHECK(z.params == per_expert * m->moe->n_experts * m->n_layers);
    CHECK(z.bytes_per_token * m->moe->n_experts == z.bytes * m->moe->n_experts_active);
}

TEST_CASE("lora: decode cost = adapter bytes + 4 graph nodes per adapted tensor; bad input is refused", "[lora]") {
    const Model* m = cat().find_model("meta-llama/Meta-Llama-3-8B");
    SimRequest req;
    req.memory.hardware = cat().find_hardware("rtx-4090");
    LoraSpec s;
    LoraCost c;
    std::string err;
    REQUIRE(lora_cost(cat(), *m, req, s, 4, 1024, c, err));
    CHECK(c.adapters_bytes == 4u * 2 * 16 * 32 * ((4096 + 4096) * 2 + (4096 + 1024) * 2));
    // build_lora_mm adds mul_mat A, mul_mat B, scale, add per adapted tensor: q, k, v, o of 32 layers = 128 tensors
    LoraSize q;
    REQUIRE(lora_size(*m, s, q, err));
    CHECK(q.adapted_tensors == 32u * 4);
    CHECK(q.extra_graph_nodes == 32u * 4 * 4);
    // each node at one of the 19 kernel nodes' share of the per-layer launch cost (lora.cpp kDecodeNodesPerLayer)
    CHECK(c.dispatch_s_per_token == Approx(512 * builtin_speed_params().fixed_ms_per_layer * 1e-3 / 19));
    // the bytes (~14 MiB more per token against ~4.6 GB of Q4_K_M weights) add little on top of the dispatches
    const double extra_s = 1 / c.lora_tokens_per_s - 1 / c.base_tokens_per_s;
    CHECK(extra_s > c.dispatch_s_per_token);
    CHECK(extra_s < 1.1 * c.dispatch_s_per_token);
    CHECK(c.slowdown == Approx(1 - c.lora_tokens_per_s / c.base_tokens_per_s));
    CHECK_FALSE(parse_lora_targets("qkv", s, err));
    CHECK(err == "lora targets: unknown module 'qkv' (q, k, v, o, gate, up, down, attn, mlp or all)");
    s.rank = 8;
    s.type = TensorType::Q8_0;
    LoraSize z;
    CHECK_FALSE(lora_size(*m, s, z, err));
    CHECK(err == "lora type: q8_0 stores blocks of 32, so the rank must be a multiple of 32 (got 8)");
}
