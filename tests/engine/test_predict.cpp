// The `llmsim-cli predict` contract (predict.h): one output line per input line, errors as {"id", "error"}.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include "api/predict.h"
#include "predict_support.h"
#include "runtime/speed_glue.h"

using namespace llmsim;
using nlohmann::json;

TEST_CASE("predict: catalog ids, inline hardware, null fp16_tflops, extra fields", "[predict]") {
    json a = predict_json(R"({"id":"a","model":"Qwen/Qwen2.5-7B-Instruct","quant":"Q4_K_M","hardware":"rtx-4090","test":{"kind":"decode","tokens":128,"depth":0}})");
    REQUIRE(a.contains("tokens_per_s"));
    CHECK(a["id"] == "a");
    CHECK(a["low"].get<double>() <= a["tokens_per_s"].get<double>());
    CHECK(a["high"].get<double>() >= a["tokens_per_s"].get<double>());
    // a device the catalog does not know, FP16 unknown, an extra measured field that must be ignored
    json b = predict_json(R"({"id":"b","model":"meta-llama/Llama-3.1-8B-Instruct","quant":"Q8_0","model_size_gib":7.95,
        "hardware":{"name":"Imaginary GPU","vendor":"nvidia","kind":"consumer","memory_gib":16,"bandwidth_gbs":500,"fp16_tflops":null},
        "gpus":1,"backend":"cuda","flash_attn":true,"test":{"kind":"prefill","tokens":512,"depth":0},"measured_tokens_per_s":1})");
    REQUIRE(b.contains("tokens_per_s"));
    CHECK(b["tokens_per_s"].get<double>() > 10);
    // decode slows with depth; bandwidth halves -> decode roughly halves (memory-bound)
    json deep = predict_json(R"({"id":"c","model":"Qwen/Qwen2.5-7B-Instruct","quant":"Q4_K_M","hardware":"rtx-4090","flash_attn":true,"test":{"kind":"decode","tokens":128,"depth":32768}})");
    CHECK(deep["tokens_per_s"].get<double>() < a["tokens_per_s"].get<double>());
    // config wins over model: a config.json of another size
    json cfg = predict_json(R"({"id":"d","model":"Qwen/Qwen2.5-7B-Instruct","config":{"model_type":"llama","num_hidden_layers":16,"hidden_size":2048,
        "intermediate_size":8192,"num_attention_heads":32,"num_key_value_heads":8,"vocab_size":128256,"max_position_embeddings":8192},
        "quant":"Q4_K_M","hardware":"rtx-4090","test":{"kind":"decode","tokens":128,"depth":0}})");
    CHECK(cfg["tokens_per_s"].get<double>() > 2 * a["tokens_per_s"].get<double>());
}

TEST_CASE("predict: an inline device the catalog knows gets the catalog device's prediction", "[predict]") {
    // issue 12 done-when: name (and the bandwidth the caller knows) only -> within 1 % of the catalog id's answer
    const char* tail = R"(,"quant":"Q4_K_M","test":{"kind":"prefill","tokens":512,"depth":0}})";
    struct Case { const char* id; const char* inline_hw; };
    const Case cases[] = {
        {"rtx-4090", R"({"name":"NVIDIA GeForce RTX 4090","vendor":"nvidia","kind":"consumer","bandwidth_gbs":1008,"fp16_tflops":null})"},
        {"rtx-6000-ada", R"({"name":"RTX 6000 Ada Generation","memory_gib":48})"},          // no kind, no bandwidth
        {"m3-max-128", R"({"name":"Apple M3 Max","kind":"apple","memory_gib":128,"bandwidth_gbs":400})"},   // size picks it
        {"m4-pro-48", R"({"name":"Mac mini M4 Pro","kind":"apple","memory_gib":48})"},
        {"arc-pro-b70", R"({"name":"Intel Arc Pro B70 32GB","vendor":"intel","kind":"workstation","bandwidth_gbs":608})"},
    };
    for (const Case& c : cases) {
        for (const char* kind : {"prefill", "decode"}) {
            std::string t = std::string(tail);
            t.replace(t.find("prefill"), 7, kind);
            json cat = predict_json(std::string(R"({"id":"c","model":"Qwen/Qwen2.5-7B-Instruct","hardware":")") + c.id + "\"" + t);
            json inl = predict_json(std::string(R"({"id":"i","model":"Qwen/Qwen2.5-7B-Instruct","hardware":)") + c.inline_hw + t);
            INFO(c.id << " " << kind << ": " << inl.dump());
            REQUIRE(cat.contains("tokens_per_s"));
            REQUIRE(inl.contains("tokens_per_s"));
            CHECK(inl["tokens_per_s"].get<double>() == Approx(cat["tokens_per_s"].get<double>()).epsilon(0.01));
            CHECK(inl["note"].get<std::string>().find(std::string("matched catalog device '") + c.id + "'") != std::string::npos);
        }
    }
    // the line's fields win: half the bandwidth -> decode about half
    json fast = predict_json(R"({"id":"f","model":"Qwen/Qwen2.5-7B-Instruct","hardware":{"name":"RTX 4090","bandwidth_gbs":1008},"test":{"kind":"decode","tokens":128}})");
    json slow = predict_json(R"({"id":"s","model":"Qwen/Qwen2.5-7B-Instruct","hardware":{"name":"RTX 4090","bandwidth_gbs":504},"test":{"kind":"decode","tokens":128}})");
    CHECK(slow["tokens_per_s"].get<double>() < 0.6 * fast["tokens_per_s"].get<double>());
    // an unknown device with no FP16 figure: estimated from its family, and the note says so
    json unk = predict_json(R"({"id":"u","model":"Qwen/Qwen2.5-7B-Instruct","hardware":{"name":"NVIDIA GeForce RTX 4060 Laptop GPU","vendor":"nvidia","kind":"consumer","bandwidth_gbs":256},"test":{"kind":"prefill","tokens":512}})");
    CHECK(unk["note"].get<std::string>().find("nvidia-ada-geforce") != std::string::npos);
    // the line may name the family; then the name is not read for it (Ampere GeForce: 0.157 TFLOPS per GB/s x 256)
    json named = predict_json(R"({"id":"u","model":"Qwen/Qwen2.5-7B-Instruct","hardware":{"name":"NVIDIA GeForce RTX 4060 Laptop GPU","vendor":"nvidia","kind":"consumer","bandwidth_gbs":256,"chip_family":"nvidia-ampere-geforce"},"test":{"kind":"prefill","tokens":512}})");
    CHECK(named["note"].get<std::string>().find("estimated 40 from the nvidia-ampere-geforce family (0.157 TFLOPS per GB/s)") !=
          std::string::npos);
    const std::string bad = predict_json(R"({"id":"u","model":"Qwen/Qwen2.5-7B-Instruct","hardware":{"name":"X","vendor":"nvidia","kind":"consumer","bandwidth_gbs":256,"chip_family":"kepler"},"test":{"kind":"prefill","tokens":512}})")["error"];
    CHECK(bad.rfind("hardware.chip_family \"kepler\" is unknown (valid: nvidia-blackwell-geforce, ", 0) == 0);
    // a name the catalog does not know still needs its kind and bandwidth
    CHECK(predict_json(R"({"id":"n","model":"Qwen/Qwen2.5-7B-Instruct","hardware":{"name":"Imaginary"},"test":{"kind":"decode","tokens":1}})")["error"] ==
          "hardware.kind '' is not consumer|workstation|datacenter|apple|apu|cpu");
}

TEST_CASE("predict: the names callers pass for the devices added in issue 12 match them", "[predict][catalog]") {
    // driver/marketing strings (nvidia-smi, rocm-smi, WebGPU) with only the memory the caller knows; sizes of one
    // chip (RTX 4060 Ti 8/16 GB, RTX 3080 10/12 GB, M2 Max 32/64/96 GB) are told apart by memory_gib
    struct Case { const char* id; const char* inline_hw; };
    const Case cases[] = {
        {"rtx-4070", R"({"name":"NVIDIA GeForce RTX 4070"})"},
        {"rtx-4070", R"({"name":"RTX 4070","memory_gib":12})"},
        {"rtx-4060", R"({"name":"NVIDIA GeForce RTX 4060"})"},
        {"rtx-4060-ti-8gb", R"({"name":"NVIDIA GeForce RTX 4060 Ti","memory_gib":8})"},
        {"rtx-4060-ti-16gb", R"({"name":"NVIDIA GeForce RTX 4060 Ti","memory_gib":16})"},
        {"rtx-5060", R"({"name":"NVIDIA GeForce RTX 5060"})"},
        {"rtx-3080-12gb", R"({"name":"NVIDIA GeForce RTX 3080","memory_gib":12})"},
        {"rtx-3080", R"({"name":"NVIDIA GeForce RTX 3080","memory_gib":10})"},
        {"rtx-4070-laptop", R"({"name":"NVIDIA GeForce RTX 4070 Laptop GPU"})"},
        {"a100-pcie-40gb", R"({"name":"NVIDIA A100-PCIE-40GB"})"},
        {"mi100", R"({"name":"AMD Instinct MI100"})"},
        {"rx-6800-xt", R"({"name":"AMD Radeon RX 6800 XT"})"},
        {"rx-6800", R"({"name":"Radeon RX 6800"})"},
        {"arc-a750", R"({"name":"Intel(R) Arc(TM) A750 Graphics"})"},
        {"m2-max-32", R"({"name":"Apple M2 Max","kind":"apple","memory_gib":32})"},
        {"m4-max-48", R"({"name":"Apple M4 Max","kind":"apple","memory_gib":48})"},
    };
    const char* tail = R"(,"quant":"Q4_K_M","test":{"kind":"decode","tokens":128,"depth":0}})";
    for (const Case& c : cases) {
        json cat = predict_json(std::string(R"({"id":"c","model":"Qwen/Qwen2.5-7B-Instruct","hardware":")") + c.id + "\"" + tail);
        json inl = predict_json(std::string(R"({"id":"i","model":"Qwen/Qwen2.5-7B-Instruct","hardware":)") + c.inline_hw + tail);
        INFO(c.id << " <- " << c.inline_hw << ": " << inl.dump());
        REQUIRE(cat.contains("tokens_per_s"));
        REQUIRE(inl.contains("tokens_per_s"));
        CHECK(inl["note"].get<std::string>().find(std::string("matched catalog device '") + c.id + "'") != std::string::npos);
        CHECK(inl["tokens_per_s"].get<double>() == Approx(cat["tokens_per_s"].get<double>()).epsilon(0.01));
    }
}

TEST_CASE("predict: malformed lines give {id, error} with a reason", "[predict]") {
    CHECK(predict_json("not json")["error"] == "not valid JSON");
    json e = predict_json(R"({"id":"x","model":"nobody/nothing","hardware":"rtx-4090","test":{"kind":"decode","tokens":1}})");
    CHECK(e["id"] == "x");
    CHECK(e["error"].get<std::string>().find("unknown model 'nobody/nothing'") != std::string::npos);
    CHECK(predict_json(R"({"id":"y","model":"Qwen/Qwen2.5-7B-Instruct","hardware":"rtx-4090","test":{"kind":"train","tokens":1}})")["error"] ==
          "test.kind must be \"prefill\" or \"decode\"");
    CHECK(predict_json(R"({"id":"z","model":"Qwen/Qwen2.5-7B-Instruct","hardware":{"kind":"gpu","bandwidth_gbs":1},"test":{"kind":"decode","tokens":1}})")["error"] ==
          "hardware.kind 'gpu' is not consumer|workstation|datacenter|apple|apu|cpu");
    // a CPU's FMA datapath without its pipe count or clock is half a fact: refused, not guessed
    CHECK(predict_json(R"({"id":"v","model":"Qwen/Qwen2.5-7B-Instruct","hardware":{"name":"Some CPU","kind":"cpu","bandwidth_gbs":80,
        "cpu_cores":8,"cpu_simd_bits":256},"backend":"cpu","test":{"kind":"decode","tokens":1}})")["error"].get<std::string>()
              .find("hardware.cpu_simd_bits, cpu_fma_pipes and boost_clock_mhz go together") == 0);
    CHECK(predict_json(R"({"id":"w","model":"Qwen/Qwen2.5-7B-Instruct","hardware":"rtx-4090","test":{"kind":"decode","tokens":0}})")["error"].get<std::string>().find("test.tokens") == 0);
}
