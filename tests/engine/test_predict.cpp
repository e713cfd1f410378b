// The `llmsim-cli predict` contract (predict.h): one output line per input line, errors as {"id", "error"}.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include "predict.h"
#include "speed_glue.h"

using namespace llmsim;
using nlohmann::json;

namespace {
json run(const std::string& line) {
    const Catalog* cat = embedded_catalog();
    REQUIRE(cat);
    return json::parse(predict_line(*cat, default_speed_params(), line));
}
}  // namespace

TEST_CASE("predict: catalog ids, inline hardware, null fp16_tflops, extra fields", "[predict]") {
    json a = run(R"({"id":"a","model":"Qwen/Qwen2.5-7B-Instruct","quant":"Q4_K_M","hardware":"rtx-4090","test":{"kind":"decode","tokens":128,"depth":0}})");
    REQUIRE(a.contains("tokens_per_s"));
    CHECK(a["id"] == "a");
    CHECK(a["low"].get<double>() <= a["tokens_per_s"].get<double>());
    CHECK(a["high"].get<double>() >= a["tokens_per_s"].get<double>());
    // a device the catalog does not know, FP16 unknown, an extra measured field that must be ignored
    json b = run(R"({"id":"b","model":"meta-llama/Llama-3.1-8B-Instruct","quant":"Q8_0","model_size_gib":7.95,
        "hardware":{"name":"Imaginary GPU","vendor":"nvidia","kind":"consumer","memory_gib":16,"bandwidth_gbs":500,"fp16_tflops":null},
        "gpus":1,"backend":"cuda","flash_attn":true,"test":{"kind":"prefill","tokens":512,"depth":0},"measured_tokens_per_s":1})");
    REQUIRE(b.contains("tokens_per_s"));
    CHECK(b["tokens_per_s"].get<double>() > 10);
    // decode slows with depth; bandwidth halves -> decode roughly halves (memory-bound)
    json deep = run(R"({"id":"c","model":"Qwen/Qwen2.5-7B-Instruct","quant":"Q4_K_M","hardware":"rtx-4090","flash_attn":true,"test":{"kind":"decode","tokens":128,"depth":32768}})");
    CHECK(deep["tokens_per_s"].get<double>() < a["tokens_per_s"].get<double>());
    // config wins over model: a config.json of another size
    json cfg = run(R"({"id":"d","model":"Qwen/Qwen2.5-7B-Instruct","config":{"model_type":"llama","num_hidden_layers":16,"hidden_size":2048,
        "intermediate_size":8192,"num_attention_heads":32,"num_key_value_heads":8,"vocab_size":128256,"max_position_embeddings":8192},
        "quant":"Q4_K_M","hardware":"rtx-4090","test":{"kind":"decode","tokens":128,"depth":0}})");
    CHECK(cfg["tokens_per_s"].get<double>() > 2 * a["tokens_per_s"].get<double>());
}

TEST_CASE("predict: malformed lines give {id, error} with a reason", "[predict]") {
    CHECK(run("not json")["error"] == "not valid JSON");
    json e = run(R"({"id":"x","model":"nobody/nothing","hardware":"rtx-4090","test":{"kind":"decode","tokens":1}})");
    CHECK(e["id"] == "x");
    CHECK(e["error"].get<std::string>().find("unknown model 'nobody/nothing'") != std::string::npos);
    CHECK(run(R"({"id":"y","model":"Qwen/Qwen2.5-7B-Instruct","hardware":"rtx-4090","test":{"kind":"train","tokens":1}})")["error"] ==
          "test.kind must be \"prefill\" or \"decode\"");
    CHECK(run(R"({"id":"z","model":"Qwen/Qwen2.5-7B-Instruct","hardware":{"kind":"gpu","bandwidth_gbs":1},"test":{"kind":"decode","tokens":1}})")["error"] ==
          "hardware.kind 'gpu' is not consumer|workstation|datacenter|apple|apu|cpu");
    CHECK(run(R"({"id":"w","model":"Qwen/Qwen2.5-7B-Instruct","hardware":"rtx-4090","test":{"kind":"decode","tokens":0}})")["error"].get<std::string>().find("test.tokens") == 0);
}
