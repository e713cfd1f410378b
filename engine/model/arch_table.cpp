// llmsim architecture table: see arch_table.h.
//
// [SECTION] Architecture rows
// [SECTION] Hugging Face model_type rows
// [SECTION] Lookups
#include "model/arch_table.h"
#include "core/text.h"

#include <cstddef>
#include <cstring>

namespace llmsim {

// [SECTION] Architecture rows ----------------------------------------------------------------------------
// Layouts from llama.cpp src/llama-model.cpp create_tensors; sliding windows from load_hparams (set_swa_pattern);
// transformers defaults from configuration_gemma3.py, configuration_gemma2.py, configuration_llama4.py,
// configuration_falcon.py (Gemma 3's text_config lists only what differs from Gemma3TextConfig).

namespace {
using A = Arch;
// clang-format off
constexpr ArchInfo kArchs[] = {
    {.arch = A::Llama, .name = "llama", .type_70b = Type70b::IfGqa},
    {.arch = A::Mistral3, .name = "mistral3"},
    {.arch = A::Qwen2, .name = "qwen2", .type_70b = Type70b::Always},
    {.arch = A::Qwen2Moe, .name = "qwen2moe", .shexp_gate = true},
    {.arch = A::Qwen3, .name = "qwen3", .qk_norm = QkNorm::PerHead},
    {.arch = A::Qwen3Moe, .name = "qwen3moe", .qk_norm = QkNorm::PerHead},
    {.arch = A::Qwen3Next, .name = "qwen3next", .mixer = RecurrentMixer::GatedDeltaNet,
     // MTP block = one full-attention trunk block + eh_proj, embeddings/head shared (llama.cpp#25589); a hybrid
     // model's memory has the per-context KV layer filter (llama.cpp#24125: "the filter that Qwen3.5 already has")
     .mtp_draft_since = "ggml-org/llama.cpp#25589 (merged 2026-08)"},
    {.arch = A::Gemma, .name = "gemma"},
    {.arch = A::Gemma2, .name = "gemma2", .post_norms = true, .swa = SwaRule::Window, .swa_pattern = 2,
     .hf_defaults = R"({"vocab_size": 256000, "hidden_size": 2304, "intermediate_size": 9216,
        "num_hidden_layers": 26, "num_attention_heads": 8, "num_key_value_heads": 4, "head_dim": 256,
        "max_position_embeddings": 8192, "sliding_window": 4096})"},
    {.arch = A::Gemma3, .name = "gemma3", .post_norms = true, .qk_norm = QkNorm::PerHead, .swa = SwaRule::Window,
     .swa_pattern = 6,
     .hf_defaults = R"({"vocab_size": 262208, "hidden_size": 2304, "intermediate_size": 9216,
        "num_hidden_layers": 26, "num_attention_heads": 8, "num_key_value_heads": 4, "head_dim": 256,
        "max_position_embeddings": 131072, "sliding_window": 4096, "sliding_window_pattern": 6})"},
    {.arch = A::Phi3, .name = "phi3", .fused_qkv = true, .fused_up_gate = true},
    {.arch = A::PhiMoe, .name = "phimoe"},
    {.arch = A::Phi2, .name = "phi2"},
    {.arch = A::Deepseek2, .name = "deepseek2",
     // src/models/deepseek2.cpp builds the MTP graph (n_layer_nextn == 1) at b10820 (llama.cpp#28626, commit 74a7c89)
     .mtp_draft_since = "ggml-org/llama.cpp b10820 (src/models/deepseek2.cpp MTP graph, cited in #28626)",
     .mtp_kv_filter_since = "ggml-org/llama.cpp#28630 (merged 2026-09-09)", .nextn_own_embed_head = true},
    {.arch = A::GptOss, .name = "gpt-oss", .gpt_oss_layout = true, .swa = SwaRule::Window, .swa_pattern = 2,
     .router_bias = true},
    {.arch = A::Llama4, .name = "llama4", .swa = SwaRule::Chunked, .swa_pattern = 4, .chunk_window = 8192,
     .shared_expert_always = true,
     .hf_defaults = R"({"vocab_size": 202048, "hidden_size": 5120, "intermediate_size": 8192,
        "intermediate_size_mlp": 16384, "num_hidden_layers": 48, "num_attention_heads": 40,
        "num_key_value_heads": 8, "head_dim": 128, "max_position_embeddings": 131072, "num_local_experts": 16,
        "num_experts_per_tok": 1, "interleave_moe_layer_step": 1, "attention_chunk_size": 8192})"},
    {.arch = A::CommandR, .name = "command-r", .ffn_norm = false, .qk_norm_flagged = QkNorm::PerHeadTimesHeads},
    {.arch = A::Cohere2, .name = "cohere2", .ffn_norm = false, .swa = SwaRule::Window, .swa_pattern = 4},
    {.arch = A::Granite, .name = "granite"},
    {.arch = A::GraniteMoe, .name = "granitemoe"},
    {.arch = A::GraniteHybrid, .name = "granitehybrid", .mixer = RecurrentMixer::Mamba2},
    {.arch = A::Olmo2, .name = "olmo2", .attn_norm = false, .ffn_norm = false, .post_norms = true,
     .qk_norm = QkNorm::FullWidth, .swa = SwaRule::Window, .swa_pattern = 4},
    {.arch = A::Olmoe, .name = "olmoe", .type_70b = Type70b::Always},
    {.arch = A::Falcon, .name = "falcon", .ffn_4x_hidden = true, .mqa_default = true,
     .hf_defaults = R"({"vocab_size": 65024, "hidden_size": 4544, "num_hidden_layers": 32,
        "num_attention_heads": 71, "max_position_embeddings": 2048})",
     .falcon_rules = true},
    {.arch = A::Glm4, .name = "glm4", .post_norms = true, .fused_qkv = true, .fused_up_gate = true},
    {.arch = A::Glm4Moe, .name = "glm4moe", .router_bias = true, .nextn_kept = true,  // Glm4MoeModel: block_count += nextn
     .mtp_draft_since = "ggml-org/llama.cpp#26534 (merged 2026-08-03)",
     .mtp_kv_filter_since = "ggml-org/llama.cpp#28630 (merged 2026-09-09)", .nextn_own_embed_head = true},
    {.arch = A::ChatGlm, .name = "chatglm", .fused_qkv = true, .fused_up_gate = true},
    {.arch = A::Jamba, .name = "jamba", .mixer = RecurrentMixer::Mamba},
    {.arch = A::Starcoder2, .name = "starcoder2"},
    {.arch = A::Internlm2, .name = "internlm2"},
    {.arch = A::Exaone, .name = "exaone"},
    {.arch = A::Exaone4, .name = "exaone4", .swa = SwaRule::Window, .swa_pattern = 4},
    {.arch = A::Smollm3, .name = "smollm3"},
    {.arch = A::Ernie4_5, .name = "ernie4_5"},
    {.arch = A::Ernie4_5Moe, .name = "ernie4_5-moe"},
    {.arch = A::HunyuanDense, .name = "hunyuan-dense"},
    {.arch = A::HunyuanMoe, .name = "hunyuan-moe"},
    {.arch = A::MinimaxM2, .name = "minimax-m2"},
    {.arch = A::SeedOss, .name = "seed_oss"},
    {.arch = A::Apertus, .name = "apertus"},
    {.arch = A::StableLm, .name = "stablelm"},
    {.arch = A::Gpt2, .name = "gpt2", .ffn_4x_hidden = true},
    {.arch = A::GptNeox, .name = "gptneox", .ffn_4x_hidden = true},
    {.arch = A::Bloom, .name = "bloom", .ffn_4x_hidden = true},
    {.arch = A::Deci, .name = "deci", .type_70b = Type70b::Always},
    {.arch = A::Mamba, .name = "mamba", .mixer = RecurrentMixer::Mamba, .recurrent_only = true},
    {.arch = A::Mamba2, .name = "mamba2", .mixer = RecurrentMixer::Mamba2, .recurrent_only = true},
};
// clang-format on

constexpr bool archs_at_their_ids() {
    for (size_t i = 0; i < sizeof kArchs / sizeof kArchs[0]; ++i)
        if ((size_t)kArchs[i].arch != i || kArchs[i].name == nullptr) return false;
    return true;
}
static_assert(sizeof kArchs / sizeof kArchs[0] == (size_t)Arch::Count, "one kArchs row per Arch enumerator");
static_assert(archs_at_their_ids(), "kArchs rows must be in enumerator order, each named");
}  // namespace

// [SECTION] Hugging Face model_type rows -----------------------------------------------------------------
// convert_hf_to_gguf.py (model class -> arch) and the transformers configuration classes (defaults).

namespace {
// clang-format off
constexpr HfModelType kHfModelTypes[] = {
    {.model_type = "llama", .arch = A::Llama},
    {.model_type = "mistral", .arch = A::Llama},  // convert_hf_to_gguf: MistralForCausalLM -> llama
    {.model_type = "mixtral", .arch = A::Llama},
    {.model_type = "mistral3", .arch = A::Mistral3},
    {.model_type = "ministral3", .arch = A::Mistral3},
    {.model_type = "qwen2", .arch = A::Qwen2, .qkv_bias = true},
    {.model_type = "qwen2_moe", .arch = A::Qwen2Moe, .qkv_bias = true},
    // Qwen2-VL / Qwen2.5-VL: the text GGUF is llama.cpp's "qwen2vl" (qwen2's tensors, M-RoPE sections: same sizes);
    // the vision tower goes to a separate mmproj file
    {.model_type = "qwen2_vl", .arch = A::Qwen2, .qkv_bias = true},
    {.model_type = "qwen2_5_vl", .arch = A::Qwen2, .qkv_bias = true},
    {.model_type = "qwen3", .arch = A::Qwen3, .qk_norm = true},
    {.model_type = "qwen3_moe", .arch = A::Qwen3Moe, .qk_norm = true},
    {.model_type = "qwen3_next", .arch = A::Qwen3Next, .qk_norm = true},
    // Qwen3.5 / Qwen3.6 MoE (Qwen3_5MoeForConditionalGeneration; llama.cpp's qwen35moe): Qwen3-Next's layout, Gated
    // DeltaNet layers with full attention every full_attention_interval-th (35B-A3B: 30 + 10 of 40), the linear_*
    // head keys, routed + shared experts. Before this row the type was unknown and every layer counted as attention
    // (4x the KV cache of the 35B-A3B, no recurrent state)
    {.model_type = "qwen3_5_moe", .arch = A::Qwen3Next, .qk_norm = true},
    {.model_type = "qwen3_5_moe_text", .arch = A::Qwen3Next, .qk_norm = true},
    // the dense Qwen3.5 / 3.6 (Qwen3_5ForConditionalGeneration; llama.cpp's qwen35): the same hybrid layers with a
    // dense FFN (no num_experts: the MoE import leaves it dense)
    {.model_type = "qwen3_5", .arch = A::Qwen3Next, .qk_norm = true},
    {.model_type = "qwen3_5_text", .arch = A::Qwen3Next, .qk_norm = true},
    {.model_type = "gemma", .arch = A::Gemma, .tie = true},
    {.model_type = "gemma2", .arch = A::Gemma2, .tie = true, .swa = true},
    {.model_type = "gemma3", .arch = A::Gemma3, .tie = true, .qk_norm = true, .swa = true},
    {.model_type = "gemma3_text", .arch = A::Gemma3, .tie = true, .qk_norm = true, .swa = true},
    {.model_type = "phi3", .arch = A::Phi3},  // llama-model.cpp: "Phi SWA is currently disabled"
    {.model_type = "phimoe", .arch = A::PhiMoe, .qkv_bias = true},
    {.model_type = "phi", .arch = A::Phi2, .qkv_bias = true, .gated = false},
    {.model_type = "deepseek_v2", .arch = A::Deepseek2},
    {.model_type = "deepseek_v3", .arch = A::Deepseek2},
    {.model_type = "kimi_k2", .arch = A::Deepseek2},
    {.model_type = "gpt_oss", .arch = A::GptOss, .qkv_bias = true, .swa = true},
    {.model_type = "llama4", .arch = A::Llama4, .qk_norm = true, .swa = true},
    {.model_type = "llama4_text", .arch = A::Llama4, .qk_norm = true, .swa = true},
    {.model_type = "cohere", .arch = A::CommandR, .tie = true},
    {.model_type = "cohere2", .arch = A::Cohere2, .tie = true, .swa = true},
    {.model_type = "granite", .arch = A::Granite},
    {.model_type = "granitemoe", .arch = A::GraniteMoe},
    {.model_type = "granitemoeshared", .arch = A::GraniteMoe},
    {.model_type = "granitemoehybrid", .arch = A::GraniteHybrid},
    {.model_type = "olmo2", .arch = A::Olmo2, .qk_norm = true},
    {.model_type = "olmo3", .arch = A::Olmo2, .qk_norm = true, .swa = true},
    {.model_type = "olmoe", .arch = A::Olmoe, .qk_norm = true},
    {.model_type = "falcon", .arch = A::Falcon, .tie = true, .gated = false},
    {.model_type = "RefinedWeb", .arch = A::Falcon, .tie = true, .gated = false},
    {.model_type = "RefinedWebModel", .arch = A::Falcon, .tie = true, .gated = false},
    {.model_type = "glm4", .arch = A::Glm4, .qkv_bias = true},
    {.model_type = "glm4_moe", .arch = A::Glm4Moe, .qkv_bias = true},
    {.model_type = "glm4_moe_lite", .arch = A::Deepseek2},  // GLM-4.7-Flash: MLA + MoE, converted as deepseek2
    {.model_type = "jamba", .arch = A::Jamba},
    {.model_type = "starcoder2", .arch = A::Starcoder2, .tie = true, .qkv_bias = true, .gated = false},
    {.model_type = "internlm2", .arch = A::Internlm2},
    {.model_type = "exaone", .arch = A::Exaone},
    {.model_type = "exaone4", .arch = A::Exaone4, .qk_norm = true, .swa = true},
    {.model_type = "smollm3", .arch = A::Smollm3, .tie = true},
    {.model_type = "ernie4_5", .arch = A::Ernie4_5, .tie = true},
    {.model_type = "ernie4_5_moe", .arch = A::Ernie4_5Moe, .tie = true},
    {.model_type = "hunyuan_v1_dense", .arch = A::HunyuanDense, .tie = true, .qk_norm = true},
    {.model_type = "hunyuan_v1_moe", .arch = A::HunyuanMoe, .tie = true, .qk_norm = true},
    {.model_type = "minimax_m2", .arch = A::MinimaxM2, .qk_norm = true},
    {.model_type = "seed_oss", .arch = A::SeedOss, .qkv_bias = true},
    {.model_type = "apertus", .arch = A::Apertus, .qk_norm = true, .gated = false},
    {.model_type = "stablelm", .arch = A::StableLm},
    {.model_type = "gpt2", .arch = A::Gpt2, .tie = true, .qkv_bias = true, .gated = false},
    {.model_type = "gpt_neox", .arch = A::GptNeox, .qkv_bias = true, .gated = false},
    {.model_type = "bloom", .arch = A::Bloom, .tie = true, .qkv_bias = true, .gated = false},
};
// clang-format on
constexpr int kHfModelTypeCount = (int)(sizeof kHfModelTypes / sizeof kHfModelTypes[0]);
}  // namespace

// [SECTION] Lookups --------------------------------------------------------------------------------------

const ArchInfo& arch_info(Arch a) { return kArchs[(size_t)a]; }

const ArchInfo* find_llama_arch(const std::string& name) {
    for (const ArchInfo& a : kArchs)
        if (name == a.name) return &a;
    return nullptr;
}

std::string normalize_model_type(const std::string& s) {
    std::string r;
    for (char c : s) {
        if (c == '_' || c == '-') continue;
        r += lower_ascii(c);
    }
    return r;
}

const HfModelType* find_hf_model_type(const std::string& model_type) {
    const std::string n = normalize_model_type(model_type);
    if (n.empty()) return nullptr;
    for (const HfModelType& t : kHfModelTypes)
        if (normalize_model_type(t.model_type) == n) return &t;
    return nullptr;
}

const HfModelType* hf_model_types(int& count) {
    count = kHfModelTypeCount;
    return kHfModelTypes;
}

}  // namespace llmsim
