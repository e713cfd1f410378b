// The architecture table (engine/model/arch_table.cpp): every row consistent, every architecture the catalog
// and the config.json importer name resolves, and the readers (config.json, GGUF, tensors) take its facts.
#include <catch2/catch.hpp>

#include <cstdio>
#include <set>
#include <string>
#include <nlohmann/json.hpp>

#include "catalog/catalog.h"
#include "model/arch_table.h"
#include "model/hf_config.h"
#include "model/model_tensors.h"

using namespace llmsim;

TEST_CASE("arch table: every architecture row is consistent", "[arch_table]") {
    std::set<std::string> names;
    for (int i = 0; i < kArchCount; ++i) {
        const ArchInfo& a = arch_info((Arch)i);
        INFO("row " << i << " " << a.name);
        CHECK((int)a.arch == i);
        REQUIRE(a.name != nullptr);
        CHECK(std::string(a.name) != "");
        CHECK(names.insert(a.name).second);               // names unique
        CHECK(find_llama_arch(a.name) == &a);              // lookup round trip
        // a sliding rule comes with its pattern; the pattern only with a rule
        CHECK((a.swa == SwaRule::None) == (a.swa_pattern == 0));
        CHECK((a.swa == SwaRule::Chunked) == (a.chunk_window > 0));
        if (a.recurrent_only) CHECK(a.mixer != RecurrentMixer::None);
        if (a.gpt_oss_layout) CHECK(a.router_bias);
        if (a.hf_defaults != nullptr) {
            const nlohmann::json d = nlohmann::json::parse(a.hf_defaults, nullptr, false);
            CHECK(d.is_object());
            CHECK(d.contains("num_hidden_layers"));
        }
    }
    CHECK(find_llama_arch("Llama") == nullptr);  // GGUF names are exact
    CHECK(find_llama_arch("cohere") == nullptr);
}

TEST_CASE("arch table: every model_type row is consistent", "[arch_table]") {
    int n = 0;
    const HfModelType* rows = hf_model_types(n);
    REQUIRE(n > 40);
    std::set<std::string> seen;
    for (int i = 0; i < n; ++i) {
        const HfModelType& t = rows[i];
        INFO(t.model_type);
        REQUIRE((int)t.arch >= 0);
        REQUIRE((int)t.arch < kArchCount);
        CHECK(seen.insert(normalize_model_type(t.model_type)).second);  // no two rows compare equal
        CHECK(find_hf_model_type(t.model_type) == &t);
        // a model type that slides needs an architecture llama.cpp runs with a window
        if (t.swa) CHECK(arch_info(t.arch).swa != SwaRule::None);
        CHECK(llama_arch_for_hf_model_type(t.model_type) == arch_info(t.arch).name);
    }
    CHECK(find_hf_model_type("Qwen3-MoE") == find_hf_model_type("qwen3_moe"));
    CHECK(llama_arch_for_hf_model_type("qwen3_moe") == "qwen3moe");
    CHECK(llama_arch_for_hf_model_type("gemma3_text") == "gemma3");
    CHECK(llama_arch_for_hf_model_type("no_such_model") == "");
    CHECK(find_hf_model_type("") == nullptr);
}

TEST_CASE("arch table: every catalog architecture has a row", "[arch_table]") {
    const Catalog* cat = embedded_catalog();
    REQUIRE(cat != nullptr);
    REQUIRE(!cat->models.empty());
    for (const Model& m : cat->models) {
        INFO(m.id << " arch " << m.arch);
        const ArchInfo* a = find_llama_arch(m.arch);
        REQUIRE(a != nullptr);
        // the catalog's hand-entered facts agree with the table's
        if (m.swa && a->swa == SwaRule::Chunked) CHECK(m.swa->pattern == a->swa_pattern);
        if (m.hybrid) CHECK(a->mixer != RecurrentMixer::None);
    }
}

TEST_CASE("arch table: readers take the row's facts", "[arch_table]") {
    // config.json: Falcon's 4 x hidden FFN and multi-query default, Llama 4's chunked attention and shared expert
    Model m;
    std::string err;
    REQUIRE(model_from_hf_config(R"({"model_type": "falcon", "hidden_size": 64, "num_attention_heads": 4,
        "num_hidden_layers": 2, "vocab_size": 100, "max_position_embeddings": 2048})", "t/falcon", m, err));
    CHECK(m.arch == "falcon");
    CHECK(m.intermediate_size == 256);
    CHECK(m.n_kv_heads == 1);
    CHECK_FALSE(m.gated_ffn);
    REQUIRE(model_from_hf_config(R"({"model_type": "llama4_text"})", "t/l4", m, err));
    REQUIRE(m.swa.has_value());
    CHECK(m.swa->window == 8192);
    CHECK(m.swa->pattern == arch_info(Arch::Llama4).swa_pattern);
    REQUIRE(m.moe.has_value());
    CHECK(m.moe->n_shared_experts == 1);
    // olmo2 and olmo3 share the architecture; only olmo3's config class slides
    const char* olmo = R"({"model_type": "%s", "hidden_size": 64, "num_attention_heads": 4, "intermediate_size": 128,
        "num_hidden_layers": 4, "vocab_size": 100, "max_position_embeddings": 65536, "sliding_window": 4096})";
    char buf[512];
    std::snprintf(buf, sizeof buf, olmo, "olmo3");
    REQUIRE(model_from_hf_config(buf, "t/o3", m, err));
    REQUIRE(m.swa.has_value());
    CHECK(m.swa->pattern == 4);
    std::snprintf(buf, sizeof buf, olmo, "olmo2");
    REQUIRE(model_from_hf_config(buf, "t/o2", m, err));
    CHECK_FALSE(m.swa.has_value());
    // tensors: OLMo 2's full-width q/k norms and no pre-norms
    std::vector<TensorDesc> ts;
    REQUIRE(enumerate_tensors(m, ts, err));
    bool q_norm_full = false, attn_norm = false;
    for (const TensorDesc& t : ts) {
        if (t.name == "blk.0.attn_q_norm.weight") q_norm_full = t.ne[0] == 64;
        if (t.name == "blk.0.attn_norm.weight") attn_norm = true;
    }
    CHECK(q_norm_full);
    CHECK_FALSE(attn_norm);
}
