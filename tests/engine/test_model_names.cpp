// Names people type for a model (issue 38 part 2): Ollama library tags, Ollama's hf.co/ syntax and GGUF repos as
// LM Studio and the quantizers name them. The expected ids and quants below are written by hand from the pages
// scripts/catalog/ollama_tags.json cites (each case names its page), not computed by the resolver:
//   qwen docs   https://qwen.readthedocs.io/en/v2.5/_sources/run_locally/ollama.md.txt (qwen2.5:0.5b ... :72b, all instruct)
//   README      ollama/ollama@e5335ef93606dd4d681cc9b1233ba87a9bfdd8d9:README.md model table
//   README 2024 the mid-2024 README table (llama3.1:70b, gemma2)
//   theepic/devtoolkit  llama3.1:8b-instruct-q4_K_M, -q8_0, -fp16, llama3.1:8b-text-q4_0
//   cookbook    https://cookbook.openai.com/articles/gpt-oss/run-locally-ollama (gpt-oss:20b / :120b, MXFP4 only)
//   r1 table    https://www.cnblogs.com/zafu/p/18699353 + ollama.com/library/deepseek-r1:32b-qwen-distill-q4_K_M
//   #1543       https://github.com/ollama/ollama/issues/1543 (library default q4_K_M since 2024-12-29)
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include "api/api.h"
#include "catalog/model_names.h"
#include "predict_support.h"
#include "runtime/command.h"
#include "test_support.h"

using namespace llmsim;
using nlohmann::json;

namespace {

struct Case {
    const char* typed;
    const char* model;      // expected catalog id
    const char* quant;      // expected file type ("" = none implied)
    bool named;             // the name spells the quant
    const char* page;       // where the expectation comes from
};

const Case kCases[] = {
    {"qwen2.5:7b", "Qwen/Qwen2.5-7B-Instruct", "Q4_K_M", false, "qwen docs + #1543"},
    {"qwen2.5:0.5b", "Qwen/Qwen2.5-0.5B-Instruct", "Q4_K_M", false, "qwen docs + #1543"},
    {"qwen2.5:72b", "Qwen/Qwen2.5-72B-Instruct", "Q4_K_M", false, "qwen docs + #1543"},
    {"QWEN2.5:14B", "Qwen/Qwen2.5-14B-Instruct", "Q4_K_M", false, "qwen docs (case does not matter)"},
    {"library/qwen2.5:32b", "Qwen/Qwen2.5-32B-Instruct", "Q4_K_M", false, "qwen docs, namespaced"},
    {"registry.ollama.ai/library/qwen2.5:3b", "Qwen/Qwen2.5-3B-Instruct", "Q4_K_M", false, "qwen docs, full registry name"},
    {"llama3.1", "meta-llama/Llama-3.1-8B-Instruct", "Q4_K_M", false, "README: Llama 3.1 8B = ollama run llama3.1"},
    {"llama3.1:latest", "meta-llama/Llama-3.1-8B-Instruct", "Q4_K_M", false, "README (:latest is the bare name)"},
    {"llama3.1:8b", "meta-llama/Llama-3.1-8B-Instruct", "Q4_K_M", false, "devtoolkit: 'llama3.1:8b # default Q4_K_M'"},
    {"llama3.1:8b-instruct-q8_0", "meta-llama/Llama-3.1-8B-Instruct", "Q8_0", true, "devtoolkit"},
    {"llama3.1:8b-instruct-fp16", "meta-llama/Llama-3.1-8B-Instruct", "F16", true, "devtoolkit"},
    {"llama3.1:8b-instruct-q4_0", "meta-llama/Llama-3.1-8B-Instruct", "Q4_0", true, "theepic"},
    {"llama3.1:70b", "meta-llama/Llama-3.1-70B-Instruct", "Q4_K_M", false, "README 2024"},
    {"llama3.1:70b-instruct-q4_K_M", "meta-llama/Llama-3.1-70B-Instruct", "Q4_K_M", true, "README 2024 + the issue's example"},
    {"llama3.1:405b", "meta-llama/Llama-3.1-405B-Instruct", "Q4_K_M", false, "README"},
    {"llama3.2:1b", "meta-llama/Llama-3.2-1B-Instruct", "Q4_K_M", false, "README"},
    {"llama3.3", "meta-llama/Llama-3.3-70B-Instruct", "Q4_K_M", false, "README"},
    {"gpt-oss:20b", "openai/gpt-oss-20b", "MXFP4_MOE", false, "cookbook: MXFP4, no other quantization"},
    {"gpt-oss:120b", "openai/gpt-oss-120b", "MXFP4_MOE", false, "cookbook"},
    {"deepseek-r1:32b", "deepseek-ai/DeepSeek-R1-Distill-Qwen-32B", "Q4_K_M", false, "r1 table"},
    {"deepseek-r1:32b-qwen-distill-q4_K_M", "deepseek-ai/DeepSeek-R1-Distill-Qwen-32B", "Q4_K_M", true, "ollama.com tag page"},
    {"deepseek-r1:70b", "deepseek-ai/DeepSeek-R1-Distill-Llama-70B", "Q4_K_M", false, "r1 table"},
    {"deepseek-r1:671b", "deepseek-ai/DeepSeek-R1", "Q4_K_M", false, "README"},
    {"gemma3", "google/gemma-3-4b-it", "Q4_K_M", false, "README: Gemma 3 4B = ollama run gemma3"},
    {"gemma3:27b", "google/gemma-3-27b-it", "Q4_K_M", false, "README"},
    {"gemma2", "google/gemma-2-9b-it", "Q4_K_M", false, "README 2024: Gemma 2 9B = ollama run gemma2"},
    {"qwq", "Qwen/QwQ-32B", "Q4_K_M", false, "README"},
    {"phi4", "microsoft/phi-4", "Q4_K_M", false, "README"},
    // Ollama's Hub syntax and GGUF repos: the base model by the repo's name, the quant from ":QUANT"
    {"hf.co/bartowski/Qwen2.5-7B-Instruct-GGUF:Q4_K_M", "Qwen/Qwen2.5-7B-Instruct", "Q4_K_M", true, "hf.co syntax"},
    {"hf.co/bartowski/Meta-Llama-3.1-8B-Instruct-GGUF:Q6_K", "meta-llama/Llama-3.1-8B-Instruct", "Q6_K", true, "Meta's former repo name"},
    {"hf.co/Qwen/Qwen2.5-7B-Instruct-GGUF:q8_0", "Qwen/Qwen2.5-7B-Instruct", "Q8_0", true, "quant case as typed"},
    {"https://huggingface.co/unsloth/gpt-oss-20b-GGUF", "openai/gpt-oss-20b", "MXFP4_MOE", false, "URL, no quant: the release format"},
    {"lmstudio-community/Qwen2.5-7B-Instruct-GGUF", "Qwen/Qwen2.5-7B-Instruct", "Q4_K_M", false, "LM Studio community repo"},
    {"lmstudio-community/Meta-Llama-3.1-8B-Instruct-GGUF", "meta-llama/Llama-3.1-8B-Instruct", "Q4_K_M", false, "LM Studio"},
    // catalog ids keep working and imply no quant
    {"Qwen/Qwen2.5-7B-Instruct", "Qwen/Qwen2.5-7B-Instruct", "", false, "catalog id"},
    {"Qwen2.5-7B-Instruct", "Qwen/Qwen2.5-7B-Instruct", "", false, "catalog id without its org"},
};

}  // namespace

TEST_CASE("model names: cited Ollama tags, hf.co/ and GGUF repos resolve to the model and quant", "[model_names]") {
    for (const Case& c : kCases) {
        INFO(c.typed << " (" << c.page << ")");
        std::string err;
        const auto r = resolve_model_name(cat(), c.typed, err);
        INFO(err);
        REQUIRE(r);
        CHECK(r->model->id == c.model);
        CHECK(r->file_type == c.quant);
        CHECK(r->file_type_named == c.named);
    }
}

TEST_CASE("model names: unknown tags and missing quants get a clear error that names close matches", "[model_names]") {
    std::string err;
    CHECK_FALSE(resolve_model_name(cat(), "qwen2.5:9b", err));   // a size the library does not have
    CHECK(err.find("unknown Ollama tag 'qwen2.5:9b'") != std::string::npos);
    CHECK(err.find("qwen2.5:7b") != std::string::npos);

    CHECK_FALSE(resolve_model_name(cat(), "qwen2.6:7b", err));   // a typo: the close matches are named
    CHECK(err.find("unknown model 'qwen2.6:7b'") != std::string::npos);
    CHECK(err.find("qwen2.5:7b") != std::string::npos);

    CHECK_FALSE(resolve_model_name(cat(), "llama3.1:8b-instruct-q4_k_xl", err));   // a quant the catalog lacks
    CHECK(err.find("q4_k_xl") != std::string::npos);
    CHECK(err.find("does not model") != std::string::npos);

    CHECK_FALSE(resolve_model_name(cat(), "llama3.1:8b-text-q4_0", err));   // theepic: the base build
    CHECK(err.find("base (text) build") != std::string::npos);

    CHECK_FALSE(resolve_model_name(cat(), "hf.co/bartowski/Not-A-Model-7B-GGUF:Q4_K_M", err));
    CHECK(err.find("Not-A-Model-7B") != std::string::npos);
    CHECK(err.find("not in the catalog") != std::string::npos);

    CHECK_FALSE(resolve_model_name(cat(), "gpt-oss:20b-q4_K_M", err));   // cookbook: no other quantization
    CHECK(err.find("only as MXFP4_MOE") != std::string::npos);
    CHECK_FALSE(resolve_model_name(cat(), "qwen2.5:7b-", err));          // a dangling dash

    CHECK_FALSE(resolve_model_name(cat(), "   ", err));
    CHECK(err.find("empty") != std::string::npos);
    // deepseek-r1:8b is left out on purpose (the library re-pointed it to a model the catalog lacks): no silent guess
    CHECK_FALSE(resolve_model_name(cat(), "deepseek-r1:8b", err));
}

TEST_CASE("model names: the quant a name spells wins over nothing and conflicts with another", "[model_names]") {
    std::string err;
    const auto tag = resolve_model_name(cat(), "qwen2.5:7b", err);
    REQUIRE(tag);
    const std::string q8 = "Q8_0";
    CHECK(pick_file_type(*tag, nullptr, err) == std::optional<std::string>("Q4_K_M"));
    CHECK(pick_file_type(*tag, &q8, err) == std::optional<std::string>("Q8_0"));   // a default tag: --quant overrides
    const auto named = resolve_model_name(cat(), "llama3.1:8b-instruct-q8_0", err);
    REQUIRE(named);
    const std::string q4 = "Q4_K_M";
    CHECK_FALSE(pick_file_type(*named, &q4, err));
    CHECK(err.find("Q8_0") != std::string::npos);
    CHECK(pick_file_type(*named, &q8, err) == std::optional<std::string>("Q8_0"));
    // find_model takes names at the model's default quant only: a spelled quant must not be dropped silently
    REQUIRE(cat().find_model("qwen2.5:7b"));
    CHECK(cat().find_model("qwen2.5:7b")->id == "Qwen/Qwen2.5-7B-Instruct");
    CHECK(cat().find_model("llama3.1:8b-instruct-q8_0") == nullptr);
}

TEST_CASE("model names: a tag predicts and sizes like its catalog id at the tag's quant", "[model_names]") {
    const json tag = predict_json(R"({"model":"qwen2.5:7b","hardware":"rtx-4090","test":{"kind":"decode","tokens":128,"depth":0}})");
    const json id = predict_json(R"({"model":"Qwen/Qwen2.5-7B-Instruct","quant":"Q4_K_M","hardware":"rtx-4090","test":{"kind":"decode","tokens":128,"depth":0}})");
    REQUIRE(tag.contains("tokens_per_s"));
    CHECK(tag["tokens_per_s"] == id["tokens_per_s"]);
    const json oss = predict_json(R"({"model":"gpt-oss:20b","hardware":"rtx-4090","test":{"kind":"decode","tokens":128,"depth":0}})");
    const json oss_id = predict_json(R"({"model":"openai/gpt-oss-20b","quant":"MXFP4_MOE","hardware":"rtx-4090","test":{"kind":"decode","tokens":128,"depth":0}})");
    REQUIRE(oss.contains("tokens_per_s"));
    CHECK(oss["tokens_per_s"] == oss_id["tokens_per_s"]);
    const json q8 = predict_json(R"({"model":"llama3.1:8b-instruct-q8_0","hardware":"rtx-4090","test":{"kind":"decode","tokens":128,"depth":0}})");
    const json q8_id = predict_json(R"({"model":"meta-llama/Llama-3.1-8B-Instruct","quant":"Q8_0","hardware":"rtx-4090","test":{"kind":"decode","tokens":128,"depth":0}})");
    REQUIRE(q8.contains("tokens_per_s"));
    CHECK(q8["tokens_per_s"] == q8_id["tokens_per_s"]);
    const json bad = predict_json(R"({"model":"qwen2.5:9b","hardware":"rtx-4090"})");
    REQUIRE(bad.contains("error"));
    CHECK(bad["error"].get<std::string>().find("unknown Ollama tag") != std::string::npos);
    const json clash = predict_json(R"({"model":"llama3.1:8b-instruct-q8_0","quant":"Q4_K_M","hardware":"rtx-4090"})");
    REQUIRE(clash.contains("error"));

    const json mt = json::parse(api_memory(cat(), R"({"model":"qwen2.5:7b","ctx":8192})"));
    const json mi = json::parse(api_memory(cat(), R"({"model":"Qwen/Qwen2.5-7B-Instruct","quant":"Q4_K_M","ctx":8192})"));
    REQUIRE_FALSE(mt.contains("error"));
    CHECK(mt["total_bytes"] == mi["total_bytes"]);
    CHECK(mt["quant"] == "Q4_K_M");
}

TEST_CASE("model names: the command line gets `ollama run <tag>` where a cited tag pulls the model and quant", "[model_names]") {
    const Model* q = cat().find_model_id("Qwen/Qwen2.5-7B-Instruct");
    const Model* l = cat().find_model_id("meta-llama/Llama-3.1-8B-Instruct");
    const Model* o = cat().find_model_id("openai/gpt-oss-20b");
    const Model* t = cat().find_model_id("TinyLlama/TinyLlama-1.1B");
    REQUIRE((q && l && o && t));
    CHECK(ollama_command(*q, "Q4_K_M") == "ollama run qwen2.5:7b");
    CHECK(ollama_command(*q, "Q8_0").empty());                      // no cited Q8_0 tag: no guessed name
    CHECK(ollama_command(*l, "Q4_K_M") == "ollama run llama3.1:8b");   // the sized tag before the bare one
    CHECK(ollama_command(*o, "MXFP4_MOE") == "ollama run gpt-oss:20b");
    CHECK(ollama_command(*t, "Q4_K_M").empty());
}

TEST_CASE("model names: every tag in the catalog carries its source and resolves to its own model", "[model_names]") {
    int n = 0;
    for (const Model& m : cat().models)
        for (const OllamaTag& t : m.ollama_tags) {
            INFO(t.tag);
            CHECK((t.source.find("http") != std::string::npos || t.source.find('@') != std::string::npos));
            std::string err;
            const auto r = resolve_model_name(cat(), t.tag, err);
            REQUIRE(r);
            CHECK(r->model == &m);
            ++n;
        }
    CHECK(n >= 30);
}
