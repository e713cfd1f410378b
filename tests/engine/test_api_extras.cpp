// JSON front doors of spec / lora / train (engine/api/api_extras.h): the numbers equal the engine's, bad input names
// the key.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include "api/api_extras.h"
#include "catalog/catalog.h"

using namespace llmsim;
using nlohmann::json;

namespace {
const Catalog& cat() {
    static Catalog c = [] { Catalog x; std::string e; REQUIRE(load_embedded_catalog(x, e)); return x; }();
    return c;
}
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
