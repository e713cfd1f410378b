// MTP heads as the draft (engine/spec/mtp.h): the catalog's NextN layer counts, llama.cpp's support per
// architecture, the NextN weights against the published GGUF's parameter count, the MTP context's KV cache
// against a published llama-server log and llama.cpp#28630's layer-filter table, and the speed / command / JSON.
#include <catch2/catch.hpp>

#include <cmath>

#include <nlohmann/json.hpp>

#include "api/api_extras.h"
#include "catalog/catalog.h"
#include "core/units.h"
#include "memory/memory.h"
#include "model/hf_config.h"
#include "quant/quant_rules.h"
#include "spec/mtp.h"
#include "test_support.h"

using namespace llmsim;

namespace {
SpecRequest request(const char* hw, const char* quant, int64_t ctx) {
    SpecRequest r;
    r.target.memory.hardware = cat().find_hardware(hw);
    REQUIRE(r.target.memory.hardware);
    r.target.memory.file_type = quant;
    r.target.memory.n_ctx = ctx;
    r.draft_max = 3;
    r.acceptance = 0.75;
    r.depth = 2048;
    return r;
}
}  // namespace

TEST_CASE("mtp: the catalog carries num_nextn_predict_layers of the models that ship MTP heads", "[mtp][catalog]") {
    // config.json num_nextn_predict_layers 1 (DeepSeek-V3/R1, GLM-4.5/Air, GLM-4.7-Flash), Qwen3-Next's one MTP layer
    for (const char* id : {"deepseek-ai/DeepSeek-V3", "deepseek-ai/DeepSeek-R1", "zai-org/GLM-4.5-Air", "zai-org/GLM-4.5",
                           "zai-org/GLM-4.7-Flash", "Qwen/Qwen3-Next-80B-A3B-Instruct"}) {
        INFO(id);
        const Model* m = cat().find_model(id);
        REQUIRE(m);
        CHECK(m->nextn_layers == 1);
        CHECK(mtp_support(*m).runs);   // glm4moe llama.cpp#26534, deepseek2 (b10820), qwen3next #25589
    }
    const Model* q = cat().find_model("Qwen/Qwen2.5-7B-Instruct");
    REQUIRE(q);
    CHECK(q->nextn_layers == 0);
    CHECK_FALSE(mtp_support(*q).runs);
    // the importer reads the same key: GLM-4.7-Flash's shipped config.json (test_catalog_sizes.cpp uses the same text)
    Model imported;
    std::string err;
    std::vector<std::string> warn;
    REQUIRE(model_from_hf_config(R"({
      "architectures": ["Glm4MoeLiteForCausalLM"], "model_type": "glm4_moe_lite", "first_k_dense_replace": 1,
      "hidden_size": 2048, "intermediate_size": 10240, "kv_lora_rank": 512, "max_position_embeddings": 202752,
      "moe_intermediate_size": 1536, "n_routed_experts": 64, "n_shared_experts": 1, "num_attention_heads": 20,
      "num_experts_per_tok": 4, "num_hidden_layers": 47, "num_key_value_heads": 20, "num_nextn_predict_layers": 1,
      "q_lora_rank": 768, "qk_nope_head_dim": 192, "qk_rope_head_dim": 64, "v_head_dim": 256,
      "tie_word_embeddings": false, "topk_method": "noaux_tc", "vocab_size": 154880 })",
                                "zai-org/GLM-4.7-Flash", imported, err, &warn));
    CHECK(imported.nextn_layers == 1);
    CHECK(imported.n_layers == 47);   // the NextN layer stays out of n_layers
}

TEST_CASE("mtp: GLM-4.5-Air's NextN block = the published GGUF's params minus the catalog's", "[mtp][memory]") {
    // llama-bench prints 110.47 B params for a published GLM-4.5-Air GGUF that carries the NextN block (public code
    // file id 59459646521); the catalog's 46 layers give ws.params. The block is the difference. At Q8_0 every 2-D
    // tensor is 34 bytes per 32 weights (ggml block_q8_0); norms and the router's bias are f32 (a few MB).
    const Model* m = cat().find_model("zai-org/GLM-4.5-Air");
    REQUIRE(m);
    WeightSize trunk;
    std::string err;
    REQUIRE(compute_weight_size(*m, "Q8_0", trunk, err, &cat()));
    const double block_params = 110.47e9 - (double)trunk.params;   // +- 0.005e9 (llama-bench's two decimals)
    SpecRequest r = request("h200-sxm", "Q8_0", 8192);
    MtpMemory mem;
    REQUIRE(estimate_mtp_memory(cat(), *m, r, mem, err));
    const double expect_bytes = block_params * 34.0 / 32.0;
    INFO("NextN weights " << mem.nextn_weights_bytes / 1e9 << " GB vs " << expect_bytes / 1e9 << " GB");
    constexpr double kTolBlock = 0.01;   // 1 %: the +-0.005 B rounding of 110.47 is 0.14 %, f32 norms/biases < 0.1 %
    CHECK(std::fabs((double)mem.nextn_weights_bytes - expect_bytes) <= kTolBlock * expect_bytes);
    // the plain target estimate does not count it (llama.cpp#26296: loaded only with --spec-type draft-mtp)
    MemoryBreakdown plain;
    REQUIRE(estimate_memory(cat(), *m, r.target.memory, plain, err));
    CHECK(mem.target.weights_bytes == plain.weights_bytes);
}

TEST_CASE("mtp: the MTP context caches the NextN layer only, over the target's cells (llama.cpp#22673 log)", "[mtp][memory]") {
    // ggml-org/llama.cpp#22673, a user's llama-server log (Qwen3.5 MTP GGUF, -c 8192, one slot):
    //   "llama_kv_cache: size = 32.00 MiB (8192 cells, 1 layers, 1/1 seqs), K (f16): 16.00 MiB, V (f16): 16.00 MiB"
    //   "set_mtp: MTP draft head registered (... n_embd=2560)", "n_embd_head_k_all = 256"
    // A model with those shapes: 4 KV heads x 256 (16 MiB = 8192 cells x 1024 x 2 bytes), n_embd 2560. qwen35 is not
    // in llmsim's architecture table, so it stands in as a qwen3 with one NextN layer (memory only: no MTP graph).
    Model m;
    m.id = "test/qwen3.5-4b-like";
    m.arch = "qwen3";
    m.n_layers = 32;
    m.hidden_size = 2560;
    m.intermediate_size = 9216;
    m.n_heads = 16;
    m.n_kv_heads = 4;
    m.head_dim = 256;
    m.vocab_size = 248320;
    m.native_context = 262144;
    m.nextn_layers = 1;
    SpecRequest r = request("rtx-4090", "Q8_0", 8192);
    MtpMemory mem;
    std::string err;
    REQUIRE(estimate_mtp_memory(cat(), m, r, mem, err));
    CHECK(mem.mtp_cells == 8192);
    CHECK(mem.mtp_kv_bytes == 32 * kMiB);
    CHECK_FALSE(mem.support.runs);
    CHECK(mem.support.message.find("no draft-mtp graph for architecture 'qwen3'") != std::string::npos);
    SpecSpeed sp;
    CHECK_FALSE(estimate_mtp_speed(cat(), m, r, sp, err));
    CHECK(err == mem.support.message);
    // the same log prints "ROCm0 compute buffer size = 490.00 MiB" for the MTP context at n_ubatch 512: the
    // logits of a whole ubatch (512 x 248320 x 4 bytes = 485 MiB) dominate; a comparison, the rule was not fitted to it
    INFO("MTP compute " << (double)mem.mtp_compute_bytes / kMiB << " MiB vs 490.00 MiB");
    constexpr double kTolMtpCompute = 0.05;   // 5 %: llmsim's compute buffers are fitted allocator high-water marks
    CHECK(std::fabs((double)mem.mtp_compute_bytes / kMiB - 490.0) <= kTolMtpCompute * 490.0);
}

TEST_CASE("mtp: before the layer filter the MTP KV grows with the trunk (llama.cpp#28630's table)", "[mtp][memory]") {
    // #28630: glm4moe MTP KV of a 2-layer trunk 786432 B, 8-layer 2359296 B (x3.00 = (8+1)/(2+1)), after the fix
    // 262144 B at both depths = one layer. So unfiltered = (n_layers + nextn) x the filtered one-layer cache.
    const Model* m = cat().find_model("zai-org/GLM-4.5-Air");
    REQUIRE(m);
    SpecRequest r = request("h200-sxm", "Q4_K_M", 8192);
    MtpMemory mem;
    std::string err;
    REQUIRE(estimate_mtp_memory(cat(), *m, r, mem, err));
    // by hand: 8 KV heads x 128 x (K + V) x f16 = 4096 bytes per cell and layer, 8192 cells
    CHECK(mem.mtp_kv_bytes == 8192ull * 4096ull);
    CHECK(mem.mtp_kv_unfiltered_bytes == 47ull * 8192ull * 4096ull);
    CHECK(mem.target.kv_cache_bytes == 46ull * mem.mtp_kv_bytes);   // the trunk's 46 layers, same cells and types
    CHECK(mem.support.kv_filter_since.find("#28630") != std::string::npos);
    // the extras add up on the devices
    uint64_t extra = 0;
    for (const SpecDevice& d : mem.devices) extra += d.draft_weights_bytes + d.draft_kv_bytes + d.draft_compute_bytes;
    CHECK(extra == mem.mtp_extra_bytes);
    CHECK(mem.total_bytes == mem.target.total_bytes + mem.mtp_extra_bytes);
    CHECK(mem.mtp_extra_bytes == mem.nextn_weights_bytes + mem.mtp_kv_bytes + mem.mtp_compute_bytes);
    // DeepSeek-V3 (MLA): the MTP layer caches what one trunk layer caches
    const Model* ds = cat().find_model("deepseek-ai/DeepSeek-V3");
    REQUIRE(ds);
    SpecRequest rd = request("h200-sxm", "Q2_K", 8192);
    MtpMemory dm;
    REQUIRE(estimate_mtp_memory(cat(), *ds, rd, dm, err));
    CHECK(dm.mtp_kv_bytes * 61 == dm.target.kv_cache_bytes);
}

TEST_CASE("mtp: speed through the draft step-time model, the command and the JS API", "[mtp][speed]") {
    const Model* m = cat().find_model("zai-org/GLM-4.5-Air");
    REQUIRE(m);
    SpecRequest r = request("h200-sxm", "Q4_K_M", 16384);
    SpecSpeed sp;
    std::string err;
    REQUIRE(estimate_mtp_speed(cat(), *m, r, sp, err));
    CHECK(sp.k == 3);
    CHECK(sp.expected_tokens == Approx((1 - std::pow(0.75, 4)) / 0.25));
    // one NextN block + head against 46 blocks + head: the draft step is a small fraction of the target step
    CHECK(sp.draft_step_s < 0.25 * sp.target_step_s);
    CHECK(sp.speedup == Approx(sp.spec_tokens_per_s / sp.plain_tokens_per_s));
    // break-even: E(a*, k) = round / plain step (GLM-4.5-Air on an H200 needs a* ~ 0.9: the MoE verify reads more experts)
    REQUIRE(sp.break_even_acceptance <= 1);
    CHECK(expected_accepted_tokens(sp.break_even_acceptance, 3) == Approx(sp.round_s / sp.target_step_s).epsilon(1e-6));
    r.acceptance = 0;                 // nothing accepted: the round costs more than a plain step
    SpecSpeed none;
    REQUIRE(estimate_mtp_speed(cat(), *m, r, none, err));
    CHECK(none.speedup < 1.0);
    r.acceptance = 0.75;
    CHECK(mtp_server_flags(r) == " --spec-type draft-mtp --spec-draft-n-max 3");
    r.draft_kv_type_k = TensorType::Q8_0;
    CHECK(mtp_server_flags(r) == " --spec-type draft-mtp --spec-draft-n-max 3 -ctkd q8_0");
    // window.llmsim.spec with "mtp": true gives the engine's numbers
    const nlohmann::json j = nlohmann::json::parse(api_spec(cat(),
        R"({"model":"zai-org/GLM-4.5-Air","hardware":"h200-sxm","quant":"Q4_K_M","ctx":16384,"depth":2048,"mtp":true})"));
    REQUIRE_FALSE(j.contains("error"));
    CHECK(j["speed"]["k"] == 3);
    CHECK(j["speed"]["acceptance"] == 0.75);
    CHECK(j["speed"]["speedup"].get<double>() == Approx(sp.speedup).epsilon(1e-12));
    CHECK(j["command"].get<std::string>().find("--spec-type draft-mtp --spec-draft-n-max 3") != std::string::npos);
    SpecRequest r2 = request("h200-sxm", "Q4_K_M", 16384);
    MtpMemory mem;
    REQUIRE(estimate_mtp_memory(cat(), *m, r2, mem, err));
    CHECK(j["draft_extra_bytes"].get<uint64_t>() == mem.mtp_extra_bytes);
}

TEST_CASE("mtp: bad input is refused with a message", "[mtp]") {
    const Model* q = cat().find_model("Qwen/Qwen2.5-7B-Instruct");
    REQUIRE(q);
    SpecRequest r = request("rtx-4090", "Q4_K_M", 8192);
    MtpMemory mem;
    std::string err;
    CHECK_FALSE(estimate_mtp_memory(cat(), *q, r, mem, err));
    CHECK(err.find("has no MTP heads") != std::string::npos);
    const Model* m = cat().find_model("zai-org/GLM-4.5-Air");
    REQUIRE(m);
    r.draft_max = 0;
    CHECK_FALSE(estimate_mtp_memory(cat(), *m, r, mem, err));
    CHECK(err.find("spec-draft-n-max") != std::string::npos);
    CHECK(nlohmann::json::parse(api_spec(cat(), R"({"model":"zai-org/GLM-4.5-Air","hardware":"rtx-4090","mtp":"yes"})"))["error"] ==
          "mtp must be true or false");
    CHECK(nlohmann::json::parse(api_spec(cat(), R"({"model":"Qwen/Qwen2.5-7B-Instruct","hardware":"rtx-4090","mtp":true})"))["error"]
              .get<std::string>().find("has no MTP heads") != std::string::npos);
}

TEST_CASE("mtp: speed check, GLM-4.5-Air on 4x RTX 3090 (llama.cpp#26534), guided", "[mtp][speed]") {
    // #26534 (jacekpoplawski, 2026-08-03): GLM-4.5-Air trunk Q4_K_M + its MTP block Q4_K_M, 4x RTX 3090, full
    // offload, --spec-draft-n-max 1: "~1.17-1.20x speedup". The post gives no acceptance, so the model is run at
    // a = 1, its most favourable point, which must not fall below the measurement. GUIDED, not held out: the MoE
    // small-batch verify rule (spec.cpp small_batch_step: dense part once, routed experts per token, read from
    // ggml_cuda_mul_mat_id / mul_mat_vec_q) was written knowing this row and its old miss (x0.91 at a = 1, when
    // the 2-token verify cost ~2 plain steps; ~1.47 then, ~1.39 since the per-layer MoE routing cost).
    // `llmsim-cli spec --mtp` (depth = its prompt) meets
    // x1.17-1.20 at a ~0.82-0.87.
    // If this starts failing the verify model changed: re-check the comparison and update kMtpSpeedCaveat + README.
    const Model* m = cat().find_model("zai-org/GLM-4.5-Air");
    REQUIRE(m);
    SpecRequest r = request("4x-rtx-3090", "Q4_K_M", 16384);
    r.draft_max = 1;
    r.acceptance = 1.0;
    SpecSpeed sp;
    std::string err;
    REQUIRE(estimate_mtp_speed(cat(), *m, r, sp, err));
    INFO("model x" << sp.speedup << " at a = 1 vs measured x1.17-1.20");
    CHECK(sp.speedup >= 1.17);                          // a = 1 is an upper bound on the measured run
    // x1.222 when this rule was written; x1.276 since decode pays a fixed routing cost per MoE layer and step
    // (SpeedParams::moe_layer_us, thirteenth session), which the 2-token verify pays once
    CHECK(sp.speedup == Approx(1.276).epsilon(0.03));
    r.acceptance = 0.75;                                // the draft-mtp default acceptance (mtp.h): below the measurement
    REQUIRE(estimate_mtp_speed(cat(), *m, r, sp, err));
    CHECK(sp.speedup > 1.0);
    CHECK(sp.speedup < 1.17);
}
