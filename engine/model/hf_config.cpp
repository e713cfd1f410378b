// Hugging Face config.json -> Model (hf_config.h).
//
// Key spellings and defaults follow the transformers configuration classes (configuration_<model>.py); the
// architecture names and which features llama.cpp honours (sliding windows, MoE layout) follow llama.cpp's
// convert_hf_to_gguf.py and src/llama-model.cpp. Never throws: nlohmann::json is parsed with
// allow_exceptions=false and every access is type-checked.
//
// [SECTION] Architecture rows
// [SECTION] Config view and field reader
// [SECTION] Recurrent state sizes
// [SECTION] model_from_hf_config
#include "model/hf_config.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <nlohmann/json.hpp>

#include "core/json_diag.h"
#include "model/arch_table.h"

namespace llmsim {
namespace {

using json = nlohmann::json;

// [SECTION] Architecture rows ----------------------------------------------------------------------------
// Which model_type is which llama.cpp architecture, and what each architecture's config classes default to,
// live in model/arch_table.h; this file only reads them.

// the row of the architecture an import settled on; a row of defaults for one the table does not know
const ArchInfo& arch_row_or_default(const std::string& arch) {
    static constexpr ArchInfo kNoRow = {.arch = Arch::Count, .name = ""};
    const ArchInfo* a = find_llama_arch(arch);
    return a ? *a : kNoRow;
}

// transformers defaults for keys real config.json files omit (the architecture row's hf_defaults)
json defaults_for(const ArchInfo& arch) {
    if (arch.hf_defaults == nullptr) return json::object();
    json d = json::parse(arch.hf_defaults, nullptr, false);
    return d.is_object() ? d : json::object();  // a broken row fails test_arch_table
}

// [SECTION] Config view and field reader -----------------------------------------------------------------
// Looks a key up in text_config (multimodal wrappers), then the top level, then the transformers defaults.

const char* json_type_name(const json& v) {
    switch (v.type()) {
        case json::value_t::object: return "an object";
        case json::value_t::array: return "an array";
        case json::value_t::string: return "a string";
        case json::value_t::boolean: return "a boolean";
        case json::value_t::number_integer:
        case json::value_t::number_unsigned:
        case json::value_t::number_float: return "a number";
        default: return "null";
    }
}

std::string num(double v) {
    if (std::isfinite(v) && v == std::floor(v) && std::fabs(v) < 9e15) return std::to_string((long long)v);
    return json(v).dump();
}

class Cfg {
public:
    Cfg(const json& root, const json* text, json defaults, std::string& err)
        : root_(root), text_(text), defaults_(std::move(defaults)), err_(err) {}

    bool ok() const { return ok_; }
    bool fail(const std::string& msg) {
        if (ok_) err_ = "config.json: " + msg;
        ok_ = false;
        return false;
    }

    const json* find(const char* key) const {
        for (const json* o : {text_, &root_, (const json*)&defaults_}) {
            if (!o || !o->is_object()) continue;
            auto it = o->find(key);
            if (it != o->end() && !it->is_null()) return &*it;
        }
        return nullptr;
    }
    bool has(const char* key) const { return find(key) != nullptr; }

    // the first of `keys` that is present, as a whole number in [lo, hi]; nullopt when none is (or on error)
    std::optional<int64_t> integer(std::initializer_list<const char*> keys, int64_t lo, int64_t hi,
                                   const char** used = nullptr) {
        if (!ok_) return std::nullopt;
        for (const char* k : keys) {
            const json* v = find(k);
            if (!v) continue;
            if (used) *used = k;
            // a per-layer list with one value throughout (Hunyuan-A13B's moe_topk, num_shared_expert,
            // moe_intermediate_size) reads as that value; a list that varies has no single answer
            if (v->is_array() && !v->empty()) {
                const json& first = (*v)[0];
                for (const json& e : *v)
                    if (!e.is_number() || e != first) {
                        fail(std::string(k) + " is a per-layer list with different values; llmsim needs one value for all layers");
                        return std::nullopt;
                    }
                v = &first;
            }
            double d = 0;
            if (v->is_number_unsigned()) {
                d = (double)v->get<uint64_t>();
            } else if (v->is_number_integer()) {
                d = (double)v->get<int64_t>();
            } else if (v->is_number_float()) {
                d = v->get<double>();
                if (!std::isfinite(d) || d != std::floor(d)) {
                    fail(std::string(k) + " must be a whole number (got " + num(d) + ")");
                    return std::nullopt;
                }
            } else {
                fail(std::string(k) + " must be a whole number, got " + json_type_name(*v));
                return std::nullopt;
            }
            if (d < (double)lo || d > (double)hi) {
                fail(std::string(k) + " must be in [" + num((double)lo) + ", " + num((double)hi) + "] (got " + num(d) +
                     ")");
                return std::nullopt;
            }
            return (int64_t)d;
        }
        return std::nullopt;
    }

    std::optional<double> number(std::initializer_list<const char*> keys, const json* obj = nullptr) {
        if (!ok_) return std::nullopt;
        for (const char* k : keys) {
            const json* v = nullptr;
            if (obj) {
                auto it = obj->find(k);
                if (it != obj->end() && !it->is_null()) v = &*it;
            } else {
                v = find(k);
            }
            if (!v) continue;
            if (!v->is_number() || !std::isfinite(v->get<double>())) {
                fail(std::string(k) + " must be a number, got " + json_type_name(*v));
                return std::nullopt;
            }
            return v->get<double>();
        }
        return std::nullopt;
    }

    std::optional<bool> boolean(std::initializer_list<const char*> keys) {
        if (!ok_) return std::nullopt;
        for (const char* k : keys) {
            const json* v = find(k);
            if (!v) continue;
            if (!v->is_boolean()) {
                fail(std::string(k) + " must be true or false, got " + json_type_name(*v));
                return std::nullopt;
            }
            return v->get<bool>();
        }
        return std::nullopt;
    }

    std::string string(const char* key) const {
        const json* v = find(key);
        return v && v->is_string() ? v->get<std::string>() : std::string();
    }

private:
    const json& root_;
    const json* text_;
    json defaults_;
    std::string& err_;
    bool ok_ = true;
};

// [SECTION] Recurrent state sizes ------------------------------------------------------------------------
// Per-sequence recurrent state as llama.cpp allocates it (f32 conv state + f32 SSM state per layer,
// llama-memory-recurrent.cpp via hparams.n_embd_r() / n_embd_s()), and the mixer's parameter count.

struct Recurrent {
    int64_t state_bytes = 0;
    int64_t params = 0;
};

// Mamba-1 (Jamba): conv (d_conv-1) x d_inner, ssm d_state x d_inner
Recurrent mamba1(int64_t hidden, int64_t d_inner, int64_t d_state, int64_t d_conv, int64_t dt_rank, bool dt_norms) {
    Recurrent r;
    r.state_bytes = 4 * ((d_conv - 1) * d_inner + d_state * d_inner);
    r.params = hidden * 2 * d_inner              // in_proj (x and z)
               + d_inner * d_conv + d_inner      // conv1d weight + bias
               + d_inner * (dt_rank + 2 * d_state)  // x_proj
               + dt_rank * d_inner + d_inner     // dt_proj + bias
               + d_inner * d_state + d_inner     // A_log, D
               + d_inner * hidden                // out_proj
               + (dt_norms ? dt_rank + 2 * d_state : 0);
    return r;
}

// Mamba-2 (Granite 4 hybrid): conv (d_conv-1) x (d_inner + 2 n_groups d_state), ssm d_state x d_inner
Recurrent mamba2(int64_t hidden, int64_t d_inner, int64_t n_heads, int64_t n_groups, int64_t d_state,
                 int64_t d_conv) {
    Recurrent r;
    const int64_t conv_dim = d_inner + 2 * n_groups * d_state;
    r.state_bytes = 4 * ((d_conv - 1) * conv_dim + d_state * d_inner);
    r.params = hidden * (2 * d_inner + 2 * n_groups * d_state + n_heads)  // in_proj (z, xBC, dt)
               + conv_dim * d_conv + conv_dim                              // conv1d + bias
               + 3 * n_heads                                               // dt_bias, A_log, D
               + d_inner                                                   // gated norm
               + d_inner * hidden;                                         // out_proj
    return r;
}

// Gated DeltaNet (Qwen3-Next): conv (k-1) x (2 key_dim + value_dim), state k_head x v_head per value head
Recurrent gated_deltanet(int64_t hidden, int64_t n_k_heads, int64_t n_v_heads, int64_t k_dim, int64_t v_dim,
                         int64_t conv_k) {
    Recurrent r;
    const int64_t key_dim = n_k_heads * k_dim, value_dim = n_v_heads * v_dim;
    const int64_t conv_dim = 2 * key_dim + value_dim;
    r.state_bytes = 4 * ((conv_k - 1) * conv_dim + k_dim * v_dim * n_v_heads);
    r.params = hidden * (2 * key_dim + 2 * value_dim)  // in_proj_qkvz
               + hidden * 2 * n_v_heads                // in_proj_ba
               + conv_dim * conv_k                     // conv1d
               + 2 * n_v_heads                         // dt_bias, A_log
               + v_dim                                 // norm
               + value_dim * hidden;                   // out_proj
    return r;
}

// "sliding_attention", "full_attention", "attention", "chunked_attention" -> attention with a KV cache
bool is_attention_type(const std::string& t) {
    return t.find("attention") != std::string::npos && t.find("linear") == std::string::npos;
}

// smallest p with: layer i sliding <=> i % p < p - 1 (llama.cpp's pattern); 1 = all sliding; 0 = irregular
int infer_swa_pattern(const std::vector<bool>& sliding) {
    const int n = (int)sliding.size();
    if (std::all_of(sliding.begin(), sliding.end(), [](bool b) { return b; })) return 1;
    for (int p = 2; p <= n; ++p) {
        bool match = true;
        for (int i = 0; i < n && match; ++i) match = sliding[i] == (i % p < p - 1);
        if (match) return p;
    }
    return 0;
}

}  // namespace

std::string llama_arch_for_hf_model_type(const std::string& model_type) {
    const HfModelType* t = find_hf_model_type(model_type);
    return t ? arch_info(t->arch).name : "";
}

std::vector<std::string> supported_llama_archs() {
    std::vector<std::string> out;
    int n = 0;
    const HfModelType* types = hf_model_types(n);   // the architectures a config.json can be imported as
    for (int i = 0; i < n; ++i) {
        const std::string name = arch_info(types[i].arch).name;
        if (std::find(out.begin(), out.end(), name) == out.end()) out.push_back(name);
    }
    std::sort(out.begin(), out.end());
    return out;
}

// [SECTION] model_from_hf_config -------------------------------------------------------------------------
// One function per part of a config: core dimensions, flags, MoE, MLA, layer kinds, SWA, hybrid recurrent layers,
// RoPE context, what is not modelled. Each returns false with err set, in the order the checks always ran.

namespace {

// what the parts of one import share
struct Import {
    Cfg& c;
    const HfModelType& info;             // the model_type row (defaults for an unknown one)
    const ArchInfo& row;                 // the architecture row (defaults for an architecture without one)
    bool known;                          // model_type is in the architecture table
    const std::string& model_type;
    const std::string& arch;
    Model& m;
    std::vector<std::string>& warn;
    std::string& err;
    std::optional<int64_t> ctx;          // max_position_embeddings (set by import_core)
    int64_t dense_ffn = 0;               // the dense FFN width (import_core, adjusted by import_moe)
    std::vector<std::string> layer_types;  // transformers >= 4.53 "layer_types" (import_layer_types)
};

// the JSON object of a config.json text; false + err when it is empty, too large, too deep or not an object
bool parse_config_root(const std::string& json_text, json& root, std::string& err) {
    if (json_text.empty()) {
        err = "config.json: the file is empty (pick the model's config.json from its Hugging Face page)";
        return false;
    }
    if (json_text.size() > kHfConfigMaxBytes) {
        err = "config.json: the file is " + std::to_string(json_text.size() >> 10) +
              " KiB; a config.json is a few KiB (limit 4096 KiB) - was tokenizer.json or a weights file picked?";
        return false;
    }
    const int depth = json_nesting_depth(json_text);
    if (depth > kHfConfigMaxDepth) {
        err = "config.json: JSON nested " + std::to_string(depth) + " levels deep (limit " +
              std::to_string(kHfConfigMaxDepth) + "); this is not a model config";
        return false;
    }
    root = json::parse(json_text, nullptr, false);
    if (root.is_discarded()) {
        err = "config.json: " + describe_json_error(json_text);
        return false;
    }
    if (!root.is_object()) {
        err = std::string("config.json: must be a JSON object, got ") + json_type_name(root);
        return false;
    }
    return true;
}

// the text model of a multimodal wrapper (text_config / llm_config / language_config), or null
const json* text_model_of(const json& root) {
    for (const char* k : {"text_config", "llm_config", "language_config"}) {
        auto it = root.find(k);
        if (it != root.end() && it->is_object()) return &*it;
    }
    return nullptr;
}

// files people pick by mistake from the same Hugging Face folder: why this is not a config.json, or ""
std::string misfiled_config_reason(const json& root) {
    auto has = [&](const char* k) { return root.find(k) != root.end(); };
    if (has("added_tokens") || (has("model") && has("normalizer")) || has("pre_tokenizer"))
        return "config.json: this is a tokenizer.json, not a config.json; import the config.json next to it";
    if (has("tokenizer_class") || has("chat_template") || has("bos_token"))
        return "config.json: this is a tokenizer_config.json, not a config.json; import the config.json next to it";
    if (has("weight_map"))
        return "config.json: this is a model.safetensors.index.json, not a config.json; import the config.json "
               "next to it";
    if (has("bos_token_id") && has("eos_token_id") && !has("hidden_size") && !has("num_hidden_layers"))
        return "config.json: this looks like a generation_config.json, not a config.json; import the config.json "
               "next to it";
    if (has("__metadata__"))
        return "config.json: this is a safetensors header, not a config.json; import the model's config.json";
    return "";
}

// model_type: top level, then the text model's, then the class name in "architectures"; info = its table row
// (null when unknown); false + err when there is none
bool resolve_model_type(const json& root, const json* text, std::string& model_type, const HfModelType*& info,
                        std::string& err) {
    auto str_at = [](const json* o, const char* k) -> std::string {
        if (!o) return "";
        auto it = o->find(k);
        return it != o->end() && it->is_string() ? it->get<std::string>() : "";
    };
    model_type = str_at(&root, "model_type");
    info = find_hf_model_type(model_type);
    if (!info && text) {
        const std::string t = str_at(text, "model_type");
        if (find_hf_model_type(t)) model_type = t, info = find_hf_model_type(t);
        else if (model_type.empty()) model_type = t;
    }
    if (!info) {
        auto it = root.find("architectures");
        if (it != root.end() && it->is_array() && !it->empty() && (*it)[0].is_string()) {
            std::string cls = (*it)[0].get<std::string>();
            for (const char* suffix : {"ForCausalLM", "ForConditionalGeneration", "LMHeadModel", "Model"}) {
                const size_t n = std::string(suffix).size();
                if (cls.size() > n && cls.compare(cls.size() - n, n, suffix) == 0) {
                    cls.resize(cls.size() - n);
                    break;
                }
            }
            if (const HfModelType* a = find_hf_model_type(cls)) info = a, model_type = a->model_type;
            else if (model_type.empty()) model_type = cls;
        }
    }
    if (model_type.empty()) {
        err = misfiled_config_reason(root);
        if (!err.empty()) return false;
        err = "config.json: model_type is missing (and no \"architectures\" entry names the model class); "
              "is this a Hugging Face config.json?";
        return false;
    }
    return true;
}

// num_hidden_layers, hidden_size, heads, KV heads, vocabulary, head_dim, context, dense FFN width
bool import_core(Import& x) {
    Cfg& c = x.c;
    Model& m = x.m;
    const std::string& model_type = x.model_type;
    std::string& err = x.err;
    const char *k_layers = "num_hidden_layers", *k_hidden = "hidden_size", *k_heads = "num_attention_heads",
               *k_kv = "num_key_value_heads", *k_vocab = "vocab_size", *k_ffn = "intermediate_size",
               *k_ctx = "max_position_embeddings", *k_hd = "head_dim";
    auto layers = c.integer({"num_hidden_layers", "n_layer", "n_layers", "num_layers"}, 1, 10000, &k_layers);
    auto hidden = c.integer({"hidden_size", "n_embd", "d_model", "model_dim"}, 1, 1 << 20, &k_hidden);
    auto heads = c.integer({"num_attention_heads", "n_head", "n_heads", "num_heads"}, 1, 1 << 16, &k_heads);
    auto kv = c.integer({"num_key_value_heads", "num_kv_heads", "n_head_kv", "multi_query_group_num"}, 1, 1 << 16, &k_kv);
    auto vocab = c.integer({"vocab_size", "padded_vocab_size", "n_vocab"}, 1, 1 << 24, &k_vocab);
    auto ffn = c.integer({"intermediate_size", "ffn_hidden_size", "n_inner", "d_ff"}, 0, 1 << 22, &k_ffn);
    auto ctx = c.integer({"max_position_embeddings", "n_positions", "max_seq_len", "seq_length",
                          "max_sequence_length"}, 1, int64_t(1) << 34, &k_ctx);
    auto head_dim = c.integer({"head_dim", "kv_channels"}, 1, 1 << 16, &k_hd);
    if (!c.ok()) return false;

    std::vector<std::string> missing;
    if (!layers) missing.push_back("num_hidden_layers");
    if (!hidden) missing.push_back("hidden_size");
    if (!heads) missing.push_back("num_attention_heads");
    if (!vocab) missing.push_back("vocab_size");
    if (!ctx) missing.push_back("max_position_embeddings");
    if (!missing.empty()) {
        std::string list;
        for (const auto& s : missing) list += (list.empty() ? "" : ", ") + s;
        err = "config.json: cannot import model_type '" + model_type + "': " + list +
              (missing.size() == 1 ? " is" : " are") + " missing (a model needs its layer count, hidden size, "
              "attention heads, vocabulary size and context length)";
        return false;
    }
    m.n_layers = (int)*layers;
    m.hidden_size = *hidden;
    m.n_heads = (int)*heads;
    m.vocab_size = *vocab;

    if (kv) {
        m.n_kv_heads = (int)*kv;
    } else if (x.row.mqa_default && !c.boolean({"new_decoder_architecture"}).value_or(false) &&
               c.boolean({"multi_query"}).value_or(true)) {
        m.n_kv_heads = 1;  // Falcon-7B: multi-query attention (configuration_falcon.py default multi_query=True)
    } else {
        m.n_kv_heads = m.n_heads;
    }
    if (!c.ok()) return false;
    if (m.n_heads % m.n_kv_heads != 0) {
        err = "config.json: " + std::string(k_kv) + " must divide " + k_heads + " (got " + std::to_string(m.n_heads) +
              " / " + std::to_string(m.n_kv_heads) + ")";
        return false;
    }
    // MLA configs (kv_lora_rank set) size their heads from qk_nope/qk_rope/v_head_dim below, not hidden / heads
    const bool mla_heads = c.integer({"kv_lora_rank"}, 0, 1 << 20).value_or(0) > 0;
    if (head_dim) {
        m.head_dim = (int)*head_dim;
    } else if (mla_heads) {
        m.head_dim = 0;   // set by the MLA section
    } else {
        if (m.hidden_size % m.n_heads != 0) {
            err = "config.json: head_dim is missing and " + std::string(k_hidden) + " " + std::to_string(m.hidden_size) +
                  " is not a multiple of " + k_heads + " " + std::to_string(m.n_heads) + " (add \"head_dim\")";
            return false;
        }
        m.head_dim = (int)(m.hidden_size / m.n_heads);
    }
    x.ctx = ctx;
    int64_t& dense_ffn = x.dense_ffn;
    dense_ffn = ffn ? *ffn : 0;
    if (!ffn && x.row.ffn_4x_hidden)
        dense_ffn = 4 * m.hidden_size;  // these config classes default the MLP to 4 x hidden
    return true;
}

// tied embeddings, QKV bias, QK norm, gated FFN
bool import_flags(Import& x) {
    Cfg& c = x.c;
    Model& m = x.m;
    const HfModelType* info = &x.info;
    m.tie_embeddings = c.boolean({"tie_word_embeddings", "tie_embeddings"}).value_or(info->tie);
    m.qkv_bias = c.boolean({"attention_bias", "qkv_bias", "add_qkv_bias", "use_bias", "bias"}).value_or(info->qkv_bias);
    m.qk_norm = c.boolean({"use_qk_norm", "qk_layernorm", "qk_norm"}).value_or(info->qk_norm);
    m.gated_ffn = info->gated;
    if (!c.ok()) return false;
    return true;
}

// mixture of experts: experts, active per token, widths, shared experts, dense-layer layout, router bias
bool import_moe(Import& x) {
    Cfg& c = x.c;
    Model& m = x.m;
    std::vector<std::string>& warn = x.warn;
    std::string& err = x.err;
    int64_t& dense_ffn = x.dense_ffn;
    const char* k_nexp = "num_experts";
    const char* k_act = "num_experts_per_tok";
    auto n_exp = c.integer({"num_local_experts", "num_experts", "n_routed_experts", "moe_num_experts"}, 0, 1 << 16, &k_nexp);
    auto n_act = c.integer({"num_experts_per_tok", "experts_per_token", "moe_k", "moe_topk", "num_selected_experts"},
                           0, 1 << 16, &k_act);
    auto moe_ffn = c.integer({"moe_intermediate_size", "expert_intermediate_size"}, 1, 1 << 22);
    auto n_shared = c.integer({"n_shared_experts", "num_shared_experts", "moe_num_shared_experts", "num_shared_expert"}, 0, 1 << 16);
    auto shared_ffn = c.integer({"shared_expert_intermediate_size", "shared_intermediate_size"}, 0, 1 << 22);
    auto first_dense = c.integer({"first_k_dense_replace", "moe_layer_start_index"}, 0, 10000);
    const char* k_step = "decoder_sparse_step";
    auto step = c.integer({"decoder_sparse_step", "interleave_moe_layer_step", "moe_layer_interval",
                           "expert_layer_period", "moe_layer_freq"}, 0, 10000, &k_step);
    if (!c.ok()) return false;
    if (n_exp && *n_exp > 0) {
        MoeConfig moe;
        moe.n_experts = (int)*n_exp;
        if (!n_act || *n_act < 1) {
            err = "config.json: num_experts_per_tok is missing or 0 (this is a mixture-of-experts config with " +
                  std::to_string(moe.n_experts) + " experts; give how many are active per token)";
            return false;
        }
        moe.n_experts_active = (int)*n_act;
        if (moe.n_experts_active > moe.n_experts) {
            err = "config.json: " + std::string(k_act) + " must be <= " + k_nexp + " (got " +
                  std::to_string(moe.n_experts_active) + " > " + std::to_string(moe.n_experts) + ")";
            return false;
        }
        // without moe_intermediate_size, intermediate_size is the expert width (Mixtral, gpt-oss, Llama 4, Jamba)
        moe.expert_ffn = moe_ffn ? *moe_ffn : dense_ffn;
        if (moe.expert_ffn <= 0) {
            err = "config.json: moe_intermediate_size (or intermediate_size) is missing; an expert's FFN width is needed";
            return false;
        }
        moe.n_shared_experts = n_shared ? (int)*n_shared : 0;
        moe.shared_ffn = shared_ffn ? *shared_ffn : 0;
        if (moe.shared_ffn > 0 && moe.n_shared_experts == 0) moe.n_shared_experts = 1;  // Qwen2-MoE, Granite 4
        if (x.row.shared_expert_always) moe.n_shared_experts = 1;  // one shared expert as wide as a routed one
        moe.first_dense_layers = first_dense ? (int)*first_dense : 0;
        moe.layer_step = step && *step > 0 ? (int)*step : 1;
        if (std::string(k_step) == "moe_layer_freq" && moe.layer_step > 1)
            warn.push_back("moe_layer_freq " + std::to_string(moe.layer_step) +
                           " read as every Nth layer MoE; DeepSeek counts from the first MoE layer, check the layout");
        if (x.row.mixer == RecurrentMixer::Mamba) {  // Jamba's expert_layer_offset
            auto offset = c.integer({"expert_layer_offset"}, 0, 10000);
            if (offset && *offset != moe.layer_step - 1)
                warn.push_back("expert_layer_offset " + std::to_string(*offset) + " differs from period - 1; "
                               "MoE layers are taken as every " + std::to_string(moe.layer_step) + "th layer");
        }
        // Qwen MoE: mlp_only_layers lists dense layers; a leading run maps onto first_dense_layers
        if (const json* mlp_only = c.find("mlp_only_layers"); mlp_only && mlp_only->is_array() && !mlp_only->empty()) {
            bool prefix = true;
            for (size_t i = 0; i < mlp_only->size(); ++i)
                prefix = prefix && (*mlp_only)[i].is_number_integer() && (*mlp_only)[i].get<int64_t>() == (int64_t)i;
            if (prefix) moe.first_dense_layers = std::max(moe.first_dense_layers, (int)mlp_only->size());
            else warn.push_back("mlp_only_layers is not a leading run of layers; those dense layers are treated as MoE");
        }
        if (moe.first_dense_layers >= m.n_layers) {
            err = "config.json: first_k_dense_replace must be < num_hidden_layers (got " +
                  std::to_string(moe.first_dense_layers) + " >= " + std::to_string(m.n_layers) + ")";
            return false;
        }
        const std::string topk = c.string("topk_method");
        moe.router_bias = topk == "noaux_tc" || x.row.router_bias ||
                          c.boolean({"moe_router_enable_expert_bias", "router_bias"}).value_or(false);
        if (!c.ok()) return false;
        const bool has_dense = moe.first_dense_layers > 0 || moe.layer_step > 1;
        if (!has_dense) {
            dense_ffn = 0;
        } else if (!moe_ffn) {
            // intermediate_size was the expert width; Llama 4 Maverick's dense layers use intermediate_size_mlp
            dense_ffn = c.integer({"intermediate_size_mlp"}, 1, 1 << 22).value_or(dense_ffn);
        }
        m.moe = moe;
    } else if (n_exp && n_act && *n_act > 0 && *n_exp == 0) {
        warn.push_back(std::string(k_nexp) + " is 0: imported as a dense model");
    }
    if (!c.ok()) return false;
    m.intermediate_size = dense_ffn;
    if (!m.moe && m.intermediate_size <= 0) {
        err = "config.json: intermediate_size is missing or 0 (the FFN width of this dense model is needed)";
        return false;
    }
    return true;
}

// multi-head latent attention (DeepSeek-V2/V3, Kimi K2)
bool import_mla(Import& x) {
    Cfg& c = x.c;
    Model& m = x.m;
    std::string& err = x.err;
    if (auto kv_lora = c.integer({"kv_lora_rank"}, 0, 1 << 20); kv_lora && *kv_lora > 0) {
        MlaConfig mla;
        mla.kv_lora_rank = (int)*kv_lora;
        mla.q_lora_rank = (int)c.integer({"q_lora_rank"}, 0, 1 << 20).value_or(0);
        auto rope = c.integer({"qk_rope_head_dim"}, 1, 1 << 16);
        auto nope = c.integer({"qk_nope_head_dim"}, 1, 1 << 16);
        auto v = c.integer({"v_head_dim"}, 1, 1 << 16);
        if (!c.ok()) return false;
        if (!rope || !nope || !v) {
            err = "config.json: kv_lora_rank is set (multi-head latent attention) but qk_rope_head_dim, "
                  "qk_nope_head_dim and v_head_dim are not all given";
            return false;
        }
        mla.qk_rope_head_dim = (int)*rope;
        mla.qk_nope_head_dim = (int)*nope;
        mla.v_head_dim = (int)*v;
        m.head_dim = mla.qk_nope_head_dim + mla.qk_rope_head_dim;
        m.head_dim_v = mla.v_head_dim == m.head_dim ? 0 : mla.v_head_dim;
        m.n_kv_heads = m.n_heads;  // llama.cpp expands the latent to one K/V head per query head
        m.mla = mla;
    }
    if (!c.ok()) return false;
    return true;
}

// layer kinds (transformers >= 4.53 "layer_types")
bool import_layer_types(Import& x) {
    Cfg& c = x.c;
    Model& m = x.m;
    std::vector<std::string>& warn = x.warn;
    std::vector<std::string>& layer_types = x.layer_types;
    if (const json* lt = c.find("layer_types"); lt && lt->is_array()) {
        for (const auto& t : *lt) layer_types.push_back(t.is_string() ? t.get<std::string>() : std::string());
        if ((int)layer_types.size() != m.n_layers) {
            warn.push_back("layer_types lists " + std::to_string(layer_types.size()) + " layers but num_hidden_layers is " +
                           std::to_string(m.n_layers) + "; layer_types ignored");
            layer_types.clear();
        }
    }
    return true;
}

// sliding-window attention: window, pattern or explicit sliding layers
bool import_swa(Import& x) {
    Cfg& c = x.c;
    Model& m = x.m;
    const bool known = x.known;
    // a known model_type follows its architecture's rule; an unknown one slides where layer_types says
    const SwaRule rule = !known ? SwaRule::Window : x.info.swa ? x.row.swa : SwaRule::None;
    const int pattern = known ? x.row.swa_pattern : 0;
    const std::optional<int64_t>& ctx = x.ctx;
    const std::vector<std::string>& layer_types = x.layer_types;
    std::vector<std::string>& warn = x.warn;
    auto window = c.integer({"sliding_window"}, 0, int64_t(1) << 34);
    if (!c.ok()) return false;
    const bool lt_sliding = std::any_of(layer_types.begin(), layer_types.end(),
                                        [](const std::string& t) { return t == "sliding_attention"; });
    const bool use_sw = c.boolean({"use_sliding_window"}).value_or(true);
    if (!c.ok()) return false;
    if (rule == SwaRule::Chunked) {
        if (auto chunk = c.integer({"attention_chunk_size"}, 1, int64_t(1) << 34); chunk) {
            SlidingWindow swa;
            swa.window = *chunk;
            swa.pattern = pattern;
            m.swa = swa;
        }
    } else if (rule == SwaRule::Window && window && *window > 0 && use_sw && (known || lt_sliding)) {
        SlidingWindow swa;
        swa.window = *window;
        if (!layer_types.empty()) {
            std::vector<bool> sliding;
            for (const auto& t : layer_types) sliding.push_back(t == "sliding_attention");
            if (std::none_of(sliding.begin(), sliding.end(), [](bool b) { return b; })) {
                swa.window = 0;  // every layer is full attention
            } else {
                swa.pattern = infer_swa_pattern(sliding);
                if (swa.pattern == 0)
                    for (int i = 0; i < m.n_layers; ++i)
                        if (sliding[i]) swa.sliding_layers.push_back(i);
            }
        } else {
            swa.pattern = (int)c.integer({"sliding_window_pattern", "_sliding_window_pattern"}, 1, 10000)
                              .value_or(pattern > 0 ? pattern : 1);
        }
        if (swa.window > 0) m.swa = swa;
    } else if (window && *window > 0 && use_sw && *window < *ctx) {
        warn.push_back("sliding_window " + std::to_string(*window) +
                       (known ? " ignored: llama.cpp runs this architecture with full attention, so the KV cache is "
                                "full size"
                              : " ignored: without layer_types llmsim cannot tell which layers slide; the KV cache "
                                "is counted at full size"));
    }
    if (!c.ok()) return false;
    return true;
}

// the hybrid layout h with the state and parameters of its recurrent mixer r
void set_recurrent(Model& m, HybridConfig h, const Recurrent& r) {
    h.ssm_state_bytes_per_layer = r.state_bytes;
    h.recurrent_layer_params = r.params;
    m.hybrid = std::move(h);
}

// attention layers named by layer_types
std::vector<int> attention_layers_from_types(const std::vector<std::string>& layer_types) {
    std::vector<int> a;
    for (int i = 0; i < (int)layer_types.size(); ++i)
        if (is_attention_type(layer_types[i])) a.push_back(i);
    return a;
}

// Jamba: Mamba-1 layers, attention every attn_layer_period-th layer
bool import_hybrid_jamba(Import& x) {
    Cfg& c = x.c;
    Model& m = x.m;
    HybridConfig h;
    h.recurrent_type = "mamba";
    const int64_t period = c.integer({"attn_layer_period"}, 1, 10000).value_or(8);
    const int64_t offset = c.integer({"attn_layer_offset"}, 0, 10000).value_or(4);
    for (int i = 0; i < m.n_layers; ++i)
        if (i % period == offset) h.attention_layers.push_back(i);
    const int64_t expand = c.integer({"mamba_expand"}, 1, 64).value_or(2);
    const int64_t d_state = c.integer({"mamba_d_state"}, 1, 1 << 16).value_or(16);
    const int64_t d_conv = c.integer({"mamba_d_conv"}, 1, 1 << 10).value_or(4);
    int64_t dt_rank = (m.hidden_size + 15) / 16;  // "auto" = ceil(hidden / 16)
    if (const json* v = c.find("mamba_dt_rank"); v && v->is_number())
        dt_rank = c.integer({"mamba_dt_rank"}, 1, 1 << 20).value_or(dt_rank);
    if (!c.ok()) return false;
    Recurrent r = mamba1(m.hidden_size, expand * m.hidden_size, d_state, d_conv, dt_rank, true);
    set_recurrent(m, h, r);
    return true;
}

// Qwen3-Next: Gated DeltaNet layers, full attention every full_attention_interval-th layer
bool import_hybrid_qwen3next(Import& x) {
    Cfg& c = x.c;
    Model& m = x.m;
    const std::vector<std::string>& layer_types = x.layer_types;
    HybridConfig h;
    h.recurrent_type = "gated_deltanet";
    if (!layer_types.empty()) {
        h.attention_layers = attention_layers_from_types(layer_types);
    } else {
        const int64_t interval = c.integer({"full_attention_interval"}, 1, 10000).value_or(4);
        for (int i = 0; i < m.n_layers; ++i)
            if ((i + 1) % interval == 0) h.attention_layers.push_back(i);
    }
    const int64_t nk = c.integer({"linear_num_key_heads"}, 1, 1 << 12).value_or(16);
    const int64_t nv = c.integer({"linear_num_value_heads"}, 1, 1 << 12).value_or(32);
    const int64_t dk = c.integer({"linear_key_head_dim"}, 1, 1 << 12).value_or(128);
    const int64_t dv = c.integer({"linear_value_head_dim"}, 1, 1 << 12).value_or(128);
    const int64_t kconv = c.integer({"linear_conv_kernel_dim"}, 1, 1 << 10).value_or(4);
    if (!c.ok()) return false;
    Recurrent r = gated_deltanet(m.hidden_size, nk, nv, dk, dv, kconv);
    set_recurrent(m, h, r);
    return true;
}

// Granite 4 hybrid: Mamba-2 layers, attention where layer_types says
bool import_hybrid_granite(Import& x) {
    Cfg& c = x.c;
    Model& m = x.m;
    const std::vector<std::string>& layer_types = x.layer_types;
    HybridConfig h;
    h.recurrent_type = "mamba2";
    h.attention_layers = attention_layers_from_types(layer_types);
    const int64_t expand = c.integer({"mamba_expand"}, 1, 64).value_or(2);
    const int64_t n_h = c.integer({"mamba_n_heads"}, 1, 1 << 12).value_or(128);
    const int64_t d_head = c.integer({"mamba_d_head"}, 1, 1 << 12).value_or(expand * m.hidden_size / n_h);
    const int64_t groups = c.integer({"mamba_n_groups"}, 1, 1 << 12).value_or(1);
    const int64_t d_state = c.integer({"mamba_d_state"}, 1, 1 << 16).value_or(128);
    const int64_t d_conv = c.integer({"mamba_d_conv"}, 1, 1 << 10).value_or(4);
    if (!c.ok()) return false;
    Recurrent r = mamba2(m.hidden_size, n_h * d_head, n_h, groups, d_state, d_conv);
    set_recurrent(m, h, r);
    return true;
}

// hybrid recurrent layers (Jamba, Qwen3-Next, Granite 4; others from layer_types with unknown state)
bool import_hybrid(Import& x) {
    Model& m = x.m;
    const std::vector<std::string>& layer_types = x.layer_types;
    std::vector<std::string>& warn = x.warn;
    if (!x.row.recurrent_only) {  // each mixer's keys as its one hybrid in the table spells them
        if (x.row.mixer == RecurrentMixer::Mamba) return import_hybrid_jamba(x);
        if (x.row.mixer == RecurrentMixer::GatedDeltaNet) return import_hybrid_qwen3next(x);
        if (x.row.mixer == RecurrentMixer::Mamba2) return import_hybrid_granite(x);
    }
    if (!layer_types.empty()) {
        std::vector<int> attn = attention_layers_from_types(layer_types);
        if ((int)attn.size() < m.n_layers) {
            HybridConfig h;
            for (const auto& t : layer_types)
                if (!is_attention_type(t)) { h.recurrent_type = t; break; }
            h.attention_layers = attn;
            m.hybrid = h;
            warn.push_back("layer_types has recurrent '" + h.recurrent_type +
                           "' layers; their state size and parameters are unknown to llmsim and counted as 0");
        }
    }
    return true;
}

// context and RoPE extension: native and extended context
bool import_rope(Import& x) {
    Cfg& c = x.c;
    Model& m = x.m;
    const std::optional<int64_t>& ctx = x.ctx;
    std::string& err = x.err;
    const json* rope = nullptr;
    for (const char* k : {"rope_scaling", "rope_parameters"})
        if (const json* v = c.find(k); v && v->is_object()) { rope = v; break; }
    double factor = 1;
    int64_t orig = c.integer({"original_max_position_embeddings"}, 1, int64_t(1) << 34).value_or(0);
    std::string rope_type;
    if (rope) {
        for (const char* k : {"rope_type", "type"}) {
            auto it = rope->find(k);
            if (it != rope->end() && it->is_string()) { rope_type = it->get<std::string>(); break; }
        }
        if (rope_type == "default") rope_type.clear();
        factor = c.number({"factor"}, rope).value_or(1.0);
        if (auto o = c.number({"original_max_position_embeddings"}, rope); o && *o >= 1 && *o < 1.8e10)
            orig = (int64_t)*o;
        if (!c.ok()) return false;
        if (factor <= 0 || factor > 1024) {
            err = "config.json: rope_scaling.factor must be in (0, 1024] (got " + num(factor) + ")";
            return false;
        }
    }
    m.rope_scaling = rope_type;
    m.native_context = *ctx;
    if (orig > 0 && *ctx > orig) {
        // the config already runs at the extended length (Llama 3.1, DeepSeek-V3, gpt-oss, Phi-3 128k)
        m.native_context = *ctx;
    } else if (factor > 1 && (rope_type == "yarn" || rope_type == "dynamic" || (orig > 0 && rope_type != "linear"))) {
        // a user-added extension on top of the native window (Qwen2.5 / Qwen3 model cards)
        m.native_context = orig > 0 ? orig : *ctx;
        m.extended_context = (int64_t)std::llround((double)m.native_context * factor);
    }
    // linear scaling without original_max_position_embeddings is already inside max_position_embeddings (Gemma 3)
    return true;
}

// what llmsim does not model: warnings
bool import_unmodelled(Import& x) {
    Cfg& c = x.c;
    Model& m = x.m;
    std::vector<std::string>& warn = x.warn;
    const bool known = x.known;
    const std::string& model_type = x.model_type;
    const std::string& arch = x.arch;
    // DeepSeek / GLM: num_nextn_predict_layers; Qwen3-Next / Qwen3.5: mtp_num_hidden_layers
    if (auto nextn = c.integer({"num_nextn_predict_layers", "mtp_num_hidden_layers"}, 0, 16); nextn && *nextn > 0) {
        m.nextn_layers = (int)*nextn;
        warn.push_back(std::to_string(*nextn) + " multi-token-prediction layer(s) not counted in the weights: llama.cpp "
                       "loads them only with --spec-type draft-mtp (ggml-org/llama.cpp#26296); llmsim-cli spec --mtp "
                       "sizes them" +
                       (x.row.nextn_kept ? std::string("; llama.cpp's GGUF keeps them as extra block(s) (each with its own "
                                                       "embedding and head copy): real files are larger")
                                         : std::string()));
    }
    if (!c.ok()) return false;
    if (!known)
        warn.push_back("model_type '" + model_type + "' is not one llmsim knows; imported as a llama-like "
                       "transformer (gated FFN" + std::string(m.moe ? ", MoE" : "") +
                       ") with architecture name '" + arch + "' - check the numbers against the model card");
    return true;
}

}  // namespace

bool model_from_hf_config(const std::string& json_text, const std::string& id, Model& out, std::string& err,
                          std::vector<std::string>* warnings) {
    std::vector<std::string> warn_sink;
    std::vector<std::string>& warn = warnings ? *warnings : warn_sink;

    json root;
    if (!parse_config_root(json_text, root, err)) return false;
    const json* text = text_model_of(root);
    std::string model_type;
    const HfModelType* info = nullptr;
    if (!resolve_model_type(root, text, model_type, info, err)) return false;
    if (!info) {
        // model types llama.cpp runs whose layout llmsim does not model: refused, since the llama-like fallback below
        // would give wrong sizes
        static const char* const kNotModelled[][2] = {
            {"gemma3n", "Gemma 3n's per-layer embeddings (PLE), AltUp and LAuReL blocks"},
            {"gemma3n_text", "Gemma 3n's per-layer embeddings (PLE), AltUp and LAuReL blocks"},
            {"deepseek_v32", "DeepSeek-V3.2's sparse-attention indexer (DSA)"},
        };
        for (const auto& row : kNotModelled)
            if (normalize_model_type(model_type) == normalize_model_type(row[0])) {
                std::string archs;
                for (const std::string& a : supported_llama_archs()) archs += (archs.empty() ? "" : ", ") + a;
                err = "config.json: model_type '" + model_type + "' is not supported yet: " + row[1] +
                      " are not modelled, so its sizes would be wrong (supported llama.cpp architectures: " + archs + ")";
                return false;
            }
    }
    static constexpr HfModelType kUnknown = {.model_type = "", .arch = Arch::Count};
    const bool known = info != nullptr;
    if (!info) info = &kUnknown;

    std::string arch = known ? arch_info(info->arch).name : normalize_model_type(model_type);
    const ArchInfo& row = arch_row_or_default(arch);
    Cfg c(root, text, defaults_for(row), err);

    Model m;
    m.id = id;
    {
        const size_t slash = id.rfind('/');
        m.name = slash == std::string::npos ? id : id.substr(slash + 1);
    }
    m.arch = arch;
    if (!id.empty()) m.sources.push_back("https://huggingface.co/" + id + "/blob/main/config.json");

    Import x{c, *info, row, known, model_type, arch, m, warn, err, std::nullopt, 0, {}};
    for (bool (*part)(Import&) : {import_core, import_flags, import_moe, import_mla, import_layer_types, import_swa,
                                  import_hybrid, import_rope, import_unmodelled})
        if (!part(x)) return false;

    out = std::move(m);
    return true;
}

}  // namespace llmsim
