// llmsim architecture table: the one place that says, per llama.cpp architecture, how its GGUF tensors are laid
// out, how llama.cpp runs its attention (sliding window, chunked), what recurrent mixer a hybrid uses and which
// quantizer rules single it out; and, per Hugging Face model_type, which llama.cpp architecture it converts to
// and the transformers defaults of its config class. The config.json importer (model/hf_config.cpp), the GGUF
// reader (io/gguf.cpp), the tensor enumeration (model/model_tensors.cpp) and the quant rules read it; none of
// them compares architecture names itself.
//
//   const llmsim::ArchInfo* a = llmsim::find_llama_arch("gemma3");          // swa Window, pattern 6, post norms
//   const llmsim::HfModelType* t = llmsim::find_hf_model_type("Qwen3_MoE");  // arch Qwen3Moe ("qwen3moe")
//
// Adding an architecture: one enumerator in Arch, one row in kArchs and its model_type row(s) in kHfModelTypes
// (both in arch_table.cpp); the static_asserts there fail until the enumerator and its row agree. Names follow
// llama.cpp src/llama-arch.cpp (LLM_ARCH_NAMES) and convert_hf_to_gguf.py (which model class becomes which arch).
//
// [SECTION] Per-architecture facts
// [SECTION] Hugging Face model types
#pragma once
#include <string>

namespace llmsim {

// [SECTION] Per-architecture facts -----------------------------------------------------------------------

// llama.cpp architectures llmsim knows (LLM_ARCH_*); the table row of each sits at its enumerator's index
enum class Arch : int {
    Llama, Mistral3, Qwen2, Qwen2Moe, Qwen3, Qwen3Moe, Qwen3Next, Gemma, Gemma2, Gemma3, Phi3, PhiMoe, Phi2,
    Deepseek2, GptOss, Llama4, CommandR, Cohere2, Granite, GraniteMoe, GraniteHybrid, Olmo2, Olmoe, Falcon, Glm4,
    Glm4Moe, ChatGlm, Jamba, Starcoder2, Internlm2, Exaone, Exaone4, Smollm3, Ernie4_5, Ernie4_5Moe, HunyuanDense,
    HunyuanMoe, MinimaxM2, SeedOss, Apertus, StableLm, Gpt2, GptNeox, Bloom, Deci, Mamba, Mamba2,
    Count
};
constexpr int kArchCount = (int)Arch::Count;

// the q/k norm tensors of an attention block (llama.cpp create_tensors)
enum class QkNorm {
    None,
    PerHead,            // attn_q_norm / attn_k_norm {head_dim}
    FullWidth,          // {head_dim x n_head} and {head_dim x n_head_kv} (OLMo 2)
    PerHeadTimesHeads,  // {head_dim, n_head} and {head_dim, n_head_kv} (Command R)
};

// how llama.cpp runs attention for an architecture (src/llama-model.cpp load_hparams)
enum class SwaRule {
    None,     // full attention on every layer, whatever the config names
    Window,   // sliding_window on the layers of a pattern (swa_pattern: the default when the file gives none)
    Chunked,  // Llama 4: chunked attention of chunk_window tokens, every swa_pattern-th layer global
};

// the recurrent mixer of a hybrid or pure state-space model (its state size formula)
enum class RecurrentMixer { None, Mamba, Mamba2, GatedDeltaNet };

// the quantizer's LLM_TYPE_70B test (llama-model.cpp load_hparams: 80 layers of these architectures)
enum class Type70b { Never, Always, IfGqa };

struct ArchInfo {
    Arch arch;
    const char* name;                      // GGUF general.architecture ("qwen3moe"), LLM_ARCH_NAMES
    // tensor layout (model_tensors.cpp)
    bool attn_norm = true;                 // blk.N.attn_norm before attention
    bool ffn_norm = true;                  // blk.N.ffn_norm before the FFN
    bool post_norms = false;               // post_attention_norm + post_ffw_norm
    QkNorm qk_norm = QkNorm::None;         // q/k norms every model of the architecture has
    QkNorm qk_norm_flagged = QkNorm::PerHead;  // their shape when only the model's qk_norm flag asks for them
    bool fused_qkv = false;                // attn_qkv instead of attn_q/k/v
    bool fused_up_gate = false;            // ffn_up holds gate and up
    bool gpt_oss_layout = false;           // biases everywhere, attention sinks, router bias
    bool shexp_gate = false;               // ffn_gate_inp_shexp {n_embd} (Qwen2-MoE)
    // attention and recurrent layers (gguf.cpp, hf_config.cpp)
    SwaRule swa = SwaRule::None;
    int swa_pattern = 0;                   // Window: default pattern; Chunked: every n-th layer global
    int chunk_window = 0;                  // Chunked: tokens per chunk when the file does not say
    RecurrentMixer mixer = RecurrentMixer::None;
    bool recurrent_only = false;           // every layer recurrent, no FFN (Mamba)
    // config.json facts of the architecture's config classes (hf_config.cpp)
    bool ffn_4x_hidden = false;            // no intermediate_size means 4 x hidden_size
    bool mqa_default = false;              // no KV-head count: multi_query (default true) gives 1 KV head
    bool shared_expert_always = false;     // one shared expert as wide as a routed one, not in the config
    bool router_bias = false;              // the MoE router has a bias (exp_probs_b) whatever the config says
    bool nextn_kept = false;               // convert_hf_to_gguf keeps the NextN/MTP layers as extra blocks (loaded)
    // multi-token prediction (engine/spec/mtp.h): the llama.cpp change that runs the NextN block(s) as the draft
    // (llama-server --spec-type draft-mtp), nullptr = llama.cpp has no MTP graph for this architecture; the change
    // from which the MTP context's KV cache holds only the NextN layer(s) (before it: every layer), nullptr = the
    // filter was always there; whether the NextN block carries its own embedding and head copies
    // (blk.N.nextn.embed_tokens / shared_head_head) or reuses the trunk's
    const char* mtp_draft_since = nullptr;
    const char* mtp_kv_filter_since = nullptr;
    bool nextn_own_embed_head = false;
    const char* hf_defaults = nullptr;     // transformers defaults for keys configs omit (JSON object text)
    // quantizer rules (quant_rules.cpp)
    Type70b type_70b = Type70b::Never;
    bool falcon_rules = false;             // llama_tensor_get_type's LLM_ARCH_FALCON branches
};

// table row of an architecture; never null for an Arch value below Count
const ArchInfo& arch_info(Arch a);
// table row by llama.cpp architecture name (exact, as GGUF files and the catalog spell it); nullptr if unknown
const ArchInfo* find_llama_arch(const std::string& name);

// [SECTION] Hugging Face model types ---------------------------------------------------------------------

// a config.json model_type and the defaults of its transformers configuration class (configuration_<model>.py)
struct HfModelType {
    const char* model_type;    // compared without '_' / '-' and case
    Arch arch;                 // what convert_hf_to_gguf.py converts it to
    bool tie = false;          // default tie_word_embeddings
    bool qkv_bias = false;     // default when no attention_bias / qkv_bias key is given
    bool qk_norm = false;      // default when no use_qk_norm key is given
    bool gated = true;         // gate+up+down FFN
    bool swa = false;          // llama.cpp honours its sliding window (the arch's SwaRule); false: full attention
};

// model_type row, compared without '_' / '-' and case ("Qwen3_MoE" finds qwen3_moe); nullptr if unknown
const HfModelType* find_hf_model_type(const std::string& model_type);
// every model_type row, for tests and listings
const HfModelType* hf_model_types(int& count);
// model_type without '_' / '-', lower case: how model types are compared
std::string normalize_model_type(const std::string& s);

}  // namespace llmsim
