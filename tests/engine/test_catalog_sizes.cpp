// Catalog models added in issue 13 against the weight sizes llama-bench printed for their published GGUF files.
// llama-bench's "size" column is the model's tensor bytes in GiB with 2 decimals (llama_model_size), so each case
// compares WeightSize::tensor_data_bytes. Where no file of the model itself was measured, the case names the
// measured model with the same tensor shapes (the catalog note says which shapes are shared).
#include <catch2/catch.hpp>

#include <cmath>
#include <string>
#include <vector>

#include "catalog/catalog.h"
#include "model/hf_config.h"
#include "core/units.h"
#include "quant/quant_rules.h"

using namespace llmsim;

namespace {
constexpr double kTolBenchSizeGiB = 0.005;  // llama-bench prints model size with 2 decimals (GiB)
constexpr double kTolBenchSize = 0.005;     // + 0.5 % relative, as tests/engine/test_memory.cpp
}  // namespace

TEST_CASE("catalog: new models' weights match llama-bench file sizes", "[catalog][memory]") {
    Catalog cat;
    std::string err;
    if (!load_embedded_catalog(cat, err)) {
        WARN("catalog not available, skipping: " << err);
        return;
    }
    struct Case { const char* id; const char* quant; double gib; double tol; const char* source; };
    const std::vector<Case> cases = {
        // row f0192 of assets/calibration/llamacpp_speed_2025.jsonl: Qwen3-30B-A3B-Instruct-2507 (same shapes)
        {"Qwen/Qwen3-30B-A3B-Thinking-2507", "Q4_K_M", 17.28, kTolBenchSize,
         "github.com/ggml-org/llama.cpp/issues/20893 (b7548 table, Qwen3-30B-A3B-Instruct-2507 Q4_K_M)"},
        // row f0094: microsoft/phi-4 Q4_K_M (Phi-4-reasoning keeps phi-4's shapes)
        {"microsoft/Phi-4-reasoning", "Q4_K_M", 8.43, kTolBenchSize,
         "Arc Pro B70 llama.cpp Vulkan benchmark notes (public code file id 55913994130), phi-4 Q4_K_M"},
        // Llama-3-70B Q4_K_M (XiongjieDai, same shapes as the Llama-3.1 70B fine-tune)
        {"nvidia/Llama-3.1-Nemotron-70B-Instruct-HF", "Q4_K_M", 39.59, kTolBenchSize,
         "XiongjieDai/GPU-Benchmarks-on-LLM-Inference@aa72e0ec86 Llama-3-70B Q4_K_M"},
        // rows f0098 / f0090 (the model itself)
        {"mistralai/Mistral-Small-3.2-24B-Instruct-2506", "Q4_K_M", 13.34, kTolBenchSize,
         "Arc Pro B70 llama.cpp Vulkan benchmark notes (public code file id 55913994130), Mistral-Small-3.2-24B Q4_K_M"},
        {"deepseek-ai/DeepSeek-R1-Distill-Qwen-14B", "Q4_K_M", 8.37, kTolBenchSize,
         "Arc Pro B70 llama.cpp Vulkan benchmark notes (public code file id 55913994130), DeepSeek-R1-Distill-Qwen-14B Q4_K_M"},
        // the model itself (llama-bench on ROCm; public code file id 4647524032): 45.43 GiB, 80.39 B params
        {"tencent/Hunyuan-A13B-Instruct", "Q4_K_M", 45.43, kTolBenchSize,
         "llama-bench 'hunyuan-moe A13B Q4_K - Medium' (public code file id 4647524032)"},
        // GLM-4.5-Air (row f0121) is not a size case: that file is Unsloth's UD-Q3_K_XL (llama-bench labels it
        // "Q3_K - Medium", its ftype), whose per-tensor types are not llama.cpp's Q3_K_M rules, and it carries the
        // NextN block; the params test below checks its shapes instead
    };
    for (const Case& c : cases) {
        INFO(c.id << " " << c.quant << " vs " << c.source);
        const Model* m = cat.find_model(c.id);
        REQUIRE(m != nullptr);
        WeightSize ws;
        REQUIRE(compute_weight_size(*m, c.quant, ws, err));
        const double gib = (double)ws.tensor_data_bytes / (double)kGiB;
        INFO("ours " << gib << " GiB vs " << c.gib << " GiB");
        CHECK(std::fabs(gib - c.gib) <= kTolBenchSizeGiB + c.tol * c.gib);
    }
}

TEST_CASE("catalog: GLM-4.5-Air params + its NextN block = the published GGUF's params", "[catalog][memory]") {
    // the benchmarking doc (public code file id 59459646521) runs Unsloth's GLM-4.5-Air UD-Q3_K_XL GGUF: llama-bench
    // prints 110.47 B params, 51.01 GiB. The catalog counts 46 layers (the NextN/MTP layer, num_nextn_predict_layers
    // 1, is left out); llama.cpp's GGUF keeps it as block 46 with its own embedding and head copies
    // (convert_hf_to_gguf Glm4MoeModel; llama-model.cpp loads blk.%d.nextn.* for the last nextn_predict_layers).
    // So the catalog's params plus one NextN block, counted here from the catalog's own shapes, must give 110.47 B.
    Catalog cat;
    std::string err;
    if (!load_embedded_catalog(cat, err)) {
        WARN("catalog not available, skipping: " << err);
        return;
    }
    const Model* m = cat.find_model("zai-org/GLM-4.5-Air");
    REQUIRE(m != nullptr);
    REQUIRE(m->moe);
    WeightSize ws;
    REQUIRE(compute_weight_size(*m, "Q8_0", ws, err));
    const double h = m->hidden_size, q = (double)m->n_heads * m->head_dim, kv = (double)m->n_kv_heads * m->head_dim;
    const double E = m->moe->n_experts, eff = m->moe->expert_ffn, sffn = m->moe->shared_ffn, V = m->vocab_size;
    const double attn = h * q + q + 2 * (h * kv + kv) + q * h;              // q/k/v with bias (GLM-4.5), output
    const double moe = E * 3 * h * eff + 3 * h * sffn + E * h + E;          // experts, shared expert, router + bias
    const double nextn = 2 * h * h + 2 * h + 2 * V * h + h;                 // eh_proj, enorm/hnorm, embed + head, norm
    const double block = attn + 2 * h + moe + nextn;                        // + attn_norm, post_attention_norm
    const double total_b = ((double)ws.params + block) / 1e9;
    INFO("catalog " << ws.params / 1e9 << " B + NextN block " << block / 1e9 << " B = " << total_b << " B vs 110.47 B");
    CHECK(std::fabs(total_b - 110.47) <= 0.005);   // llama-bench prints params with 2 decimals
}

TEST_CASE("catalog: GLM-4.7-Flash has the published GGUF's tensors and sizes like its imported config.json", "[catalog][memory]") {
    Catalog cat;
    std::string err;
    if (!load_embedded_catalog(cat, err)) {
        WARN("catalog not available, skipping: " << err);
        return;
    }
    const Model* m = cat.find_model("zai-org/GLM-4.7-Flash");
    REQUIRE(m != nullptr);
    WeightSize q8;
    REQUIRE(compute_weight_size(*m, "Q8_0", q8, err));
    // unsloth/GLM-4.7-Flash-GGUF@46cbdf73 GLM-4.7-Flash-Q4_K_M.gguf inspected (public code file id 69048239204):
    // architecture deepseek2, 844 tensors, 47 blocks (llama.cpp's DeepSeek-V2 converter drops the NextN layer)
    CHECK(q8.tensors.size() == 844);
    // bartowski/zai-org_GLM-4.7-Flash-GGUF lists GLM-4.7-Flash-Q8_0.gguf at 31.84 GB (https://mygguf.com/models/bartowski_zai-org_GLM-4.7-Flash-GGUF);
    // Q8_0 leaves no per-tensor choice, so it checks the shapes (the K-quant files differ between uploaders and
    // llama.cpp builds: unsloth's Q4_K_M is 18.31 GB, bartowski's 18.47 GB)
    INFO("ours " << q8.file_bytes_estimate / 1e9 << " GB vs 31.84 GB");
    CHECK(std::fabs(q8.file_bytes_estimate / 1e9 - 31.84) <= 0.005 + 0.005 * 31.84);
    // the catalog entry and the shipped config.json (the fields tests/engine/test_hf_config.cpp imports) agree
    Model imported;
    REQUIRE(model_from_hf_config(R"({
      "architectures": ["Glm4MoeLiteForCausalLM"], "model_type": "glm4_moe_lite", "first_k_dense_replace": 1,
      "hidden_size": 2048, "intermediate_size": 10240, "kv_lora_rank": 512, "max_position_embeddings": 202752,
      "moe_intermediate_size": 1536, "n_routed_experts": 64, "n_shared_experts": 1, "num_attention_heads": 20,
      "num_experts_per_tok": 4, "num_hidden_layers": 47, "num_key_value_heads": 20, "num_nextn_predict_layers": 1,
      "q_lora_rank": 768, "qk_nope_head_dim": 192, "qk_rope_head_dim": 64, "v_head_dim": 256,
      "tie_word_embeddings": false, "topk_method": "noaux_tc", "vocab_size": 154880 })",
                                 "zai-org/GLM-4.7-Flash", imported, err));
    for (const char* q : {"Q4_K_M", "Q8_0"}) {
        WeightSize a, b;
        REQUIRE(compute_weight_size(*m, q, a, err));
        REQUIRE(compute_weight_size(imported, q, b, err));
        INFO(q);
        CHECK(a.tensor_data_bytes == b.tensor_data_bytes);
    }
}
