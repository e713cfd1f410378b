// JSON front doors of spec / lora / train (engine/api/api_extras.h): the numbers equal the engine's, bad input names
// the key.
#include <catch2/catch.hpp>

#include <cmath>
#include <functional>

#include <nlohmann/json.hpp>

#include "api/api_extras.h"
#include "catalog/catalog.h"
#include "test_support.h"

using namespace llmsim;
using nlohmann::json;

namespace {
}  // namespace

TEST_CASE("api_train: same bytes as estimate_training, errors name the key", "[api_extras]") {
    json out = json::parse(api_train(cat(), R"({"model":"Qwen/Qwen2.5-7B-Instruct","method":"qlora","seq":4096,"grad_ckpt":true,"hardware":"rtx-4090"})"));
    TrainRequest r;
    r.method = TrainMethod::Qlora;
    r.seq = 4096;
    r.grad_ckpt = true;
    std::string err;
    REQUIRE(parse_lora_targets("all", r.lora, err));
    r.hardware = cat().find_hardware("rtx-4090");
    TrainMemory t;
    REQUIRE(estimate_training(*cat().find_model("Qwen/Qwen2.5-7B-Instruct"), r, t, err));
    CHECK(out["total_bytes_per_gpu"].get<uint64_t>() == t.total_bytes);
    CHECK(out["fits"].get<bool>() == t.fits);
    CHECK(json::parse(api_train(cat(), R"({"model":"Qwen/Qwen2.5-7B-Instruct","zero":7})"))["error"] ==
          "zero must be a whole number from 0 to 3");
    CHECK(json::parse(api_train(cat(), R"({"model":"nope/none"})"))["error"] == "unknown model 'nope/none' (not in the catalog)");
    CHECK(json::parse(api_train(cat(), "[1]"))["error"] == "request must be a JSON object such as {\"model\": \"Qwen/Qwen2.5-7B-Instruct\"}");
}

TEST_CASE("api_spec and api_lora answer with the CLI's keys", "[api_extras]") {
    json s = json::parse(api_spec(cat(), R"({"model":"Qwen/Qwen2.5-72B-Instruct","draft":"Qwen/Qwen2.5-0.5B-Instruct","hardware":"m2-ultra-192","draft_max":8,"accept":0.8})"));
    REQUIRE(s.contains("speed"));
    CHECK(s["speed"]["k"] == 8);
    CHECK(s["speed"]["acceptance"].get<double>() == Approx(0.8));
    CHECK(s["command"].get<std::string>().find(" -md Qwen2.5-0.5B-Instruct-Q8_0.gguf --draft-max 8") != std::string::npos);
    CHECK(json::parse(api_spec(cat(), R"({"model":"Qwen/Qwen2.5-72B-Instruct","draft":"Qwen/Qwen2.5-0.5B-Instruct","hardware":"m2-ultra-192","accept":2})"))["error"] ==
          "accept must be a number from 0 to 1");
    json l = json::parse(api_lora(cat(), R"({"model":"meta-llama/Meta-Llama-3-8B","rank":8,"targets":"q,v"})"));
    CHECK(l["params"] == 3407872);
    CHECK(l["decode"].is_null());
}

TEST_CASE("api extras: the input limits give finite numbers or an error", "[api_extras]") {
    auto finite_or_error = [](const std::string& out) {
        json j = json::parse(out);
        if (j.contains("error")) return true;
        bool ok = true;
        std::function<void(const json&)> walk = [&](const json& v) {
            if (v.is_number_float() && !std::isfinite(v.get<double>())) ok = false;
            if (v.is_structured()) for (const auto& e : v) walk(e);
        };
        walk(j);
        return ok;
    };
    for (const char* req : {R"({"model":"Qwen/Qwen2.5-7B-Instruct","seq":10000000,"micro_batch":4096})",
                            R"({"model":"Qwen/Qwen2.5-7B-Instruct","seq":1,"gpus":4096,"zero":3,"hardware":"h100-sxm"})",
                            R"({"model":"Qwen/Qwen3-30B-A3B","method":"qlora","rank":4096,"seq":1})"})
        CHECK(finite_or_error(api_train(cat(), req)));
    // without flash attention the s x s scores of 10 M tokens x 4096 sequences pass 2^64 bytes: refused, not wrapped
    CHECK(json::parse(api_train(cat(), R"({"model":"Qwen/Qwen2.5-7B-Instruct","seq":10000000,"micro_batch":4096,"flash_attn":false})"))["error"] ==
          "train: seq x micro-batch needs more than 2^60 bytes of activations per GPU; out of range");
    for (const char* req : {R"({"model":"Qwen/Qwen2.5-7B-Instruct","draft":"Qwen/Qwen2.5-0.5B-Instruct","hardware":"rtx-4090","ctx":1,"draft_max":256})",
                            R"({"model":"Qwen/Qwen2.5-7B-Instruct","draft":"Qwen/Qwen2.5-0.5B-Instruct","hardware":"rtx-4090","ctx":10000000,"parallel":1024})",
                            R"({"model":"Qwen/Qwen2.5-7B-Instruct","draft":"Qwen/Qwen2.5-0.5B-Instruct","hardware":"rtx-4090","accept":1,"draft_ctx":10000000})"})
        CHECK(finite_or_error(api_spec(cat(), req)));
    for (const char* req : {R"({"model":"Qwen/Qwen2.5-7B-Instruct","rank":4096,"targets":"all","adapters":1024,"hardware":"rtx-4090"})",
                            R"({"model":"deepseek-ai/DeepSeek-V3","rank":8})"})
        CHECK(finite_or_error(api_lora(cat(), req)));
}
