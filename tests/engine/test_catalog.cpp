// engine/catalog/catalog.cpp: parse_catalog conversions and validation messages, lookups, SlidingWindow, the real catalog.
#include <catch2/catch.hpp>

#include <clocale>
#include <fstream>
#include <set>
#include <sstream>
#include <nlohmann/json.hpp>

#include "catalog/catalog.h"

using nlohmann::json;
using namespace llmsim;

namespace {

json base_model() {
    return json::parse(R"J({
        "id": "Qwen/Qwen2.5-7B-Instruct", "name": "Qwen2.5 7B Instruct", "family": "Qwen2.5", "license": "Apache-2.0",
        "arch": "qwen2", "n_layers": 28, "hidden_size": 3584, "intermediate_size": 18944,
        "n_heads": 28, "n_kv_heads": 4, "head_dim": 128, "head_dim_v": null,
        "vocab_size": 152064, "tie_embeddings": false, "qkv_bias": true, "qk_norm": false, "gated_ffn": true,
        "native_context": 32768, "extended_context": 131072, "rope_scaling": "yarn",
        "moe": null, "mla": null, "swa": null, "hybrid": null,
        "published_params_b": 7.61, "published_active_params_b": null,
        "api_price": { "input_usd_per_mtok": 0.04, "output_usd_per_mtok": 0.1, "provider": "DeepInfra",
                       "date": "2025-11-16", "source": "https://deepinfra.com/pricing" },
        "sources": ["Qwen/Qwen2.5-7B-Instruct@a09a354:config.json"], "notes": ["n"] })J");
}

json base_device() {
    return json::parse(R"J({
        "id": "rtx-4090", "name": "NVIDIA GeForce RTX 4090", "vendor": "nvidia", "kind": "consumer",
        "chip_family": "nvidia-ada-geforce", "backends": ["cuda", "vulkan"], "gpu_count": 1, "link": null, "link_gbs": null,
        "memory_mib": 24564, "memory_basis": "nvidia-smi total", "bandwidth_gbs": 1008,
        "fp16_tflops": 330.3, "fp16_tflops_basis": "dense", "fp16_tflops_estimated": false,
        "int8_tops": 660.6, "tdp_w": 450, "price_usd": 1599, "price_used_usd": null, "price_source": "msrp",
        "cloud_usd_per_hour": 0.34, "cloud_source": "runpod",
        "gpu_limit_default_mib": null, "gpu_limit_max_mib": null, "system_ram_gib": null,
        "system_ram_bandwidth_gbs": null, "seed_aliases": ["NVIDIA RTX 4090 (24 GB)"],
        "calibration_names": ["RTX 4090"], "sources": ["https://nvidia.com"], "notes": [] })J");
}

json base_quants() {
    return json::parse(R"J({ "schema": "llmsim-quants/1",
        "ggml_types": [ { "name": "F16", "id": 1, "block_size": 1, "type_size": 2, "sources": ["ggml"] },
                        { "name": "Q4_K", "id": 12, "block_size": 256, "type_size": 144, "sources": ["ggml"] } ],
        "file_types": [ { "name": "Q4_K_M", "ftype_id": 15, "gguf": true, "base_type": "Q4_K", "flat_bpw": null,
                          "quality_label": "Recommended 4-bit", "kld": 0.0335, "ppl_delta_pct": 1.7,
                          "quality_source": "x", "common": true, "sources": ["llama.cpp"] },
                        { "name": "MLX_4BIT", "ftype_id": -1, "gguf": false, "base_type": null, "flat_bpw": 4.5,
                          "sources": ["mlx"] } ] })J");
}

std::string models_doc(const std::vector<json>& ms) {
    return json{{"schema", "llmsim-models/1"}, {"models", ms}}.dump();
}
std::string hardware_doc(const std::vector<json>& ds) {
    return json{{"schema", "llmsim-hardware/1"}, {"devices", ds}}.dump();
}

// parse with one document replaced; returns the error ("" on success)
std::string parse_err(const std::string& models, const std::string& hw, const std::string& quants,
                      Catalog* out = nullptr) {
    Catalog c;
    std::string err;
    const bool ok = parse_catalog(models, hw, quants, c, err);
    if (ok && out) *out = c;
    return ok ? std::string() : err;
}
std::string model_err(const json& m) {
    return parse_err(models_doc({m}), hardware_doc({base_device()}), base_quants().dump());
}
std::string device_err(const json& d) {
    return parse_err(models_doc({base_model()}), hardware_doc({d}), base_quants().dump());
}
std::string quants_err(const json& q) {
    return parse_err(models_doc({base_model()}), hardware_doc({base_device()}), q.dump());
}

Catalog good_catalog() {
    Catalog c;
    REQUIRE(parse_err(models_doc({base_model()}), hardware_doc({base_device()}), base_quants().dump(), &c) == "");
    return c;
}

}  // namespace

TEST_CASE("catalog: a valid entry converts units and nested objects", "[catalog]") {
    Catalog c = good_catalog();
    REQUIRE(c.models.size() == 1);
    const Model& m = c.models[0];
    CHECK(m.id == "Qwen/Qwen2.5-7B-Instruct");
    CHECK(m.arch == "qwen2");
    CHECK(m.n_layers == 28);
    CHECK(m.hidden_size == 3584);
    CHECK(m.head_dim == 128);
    CHECK(m.head_dim_v == 0);
    CHECK(m.kv_head_dim_v() == 128);
    CHECK(m.qkv_bias);
    CHECK(!m.tie_embeddings);
    CHECK(m.native_context == 32768);
    CHECK(m.extended_context == 131072);
    CHECK(m.published_params_b == Approx(7.61));
    CHECK(m.published_active_params_b == 0);
    CHECK(m.api_price_in_usd_per_mtok == Approx(0.04));
    CHECK(m.api_price_out_usd_per_mtok == Approx(0.1));
    CHECK(m.api_price_provider == "DeepInfra");
    CHECK(m.api_price_date == "2025-11-16");
    CHECK(m.api_price_source == "https://deepinfra.com/pricing");
    CHECK(!m.moe);
    CHECK(!m.is_moe());

    const Hardware& h = c.hardware[0];
    CHECK(h.memory_bytes == 24564LL * 1024 * 1024);
    CHECK(h.bandwidth_gbs == 1008);
    CHECK(h.kind == HardwareKind::Consumer);
    REQUIRE(h.backends.size() == 2);
    CHECK(h.backends[0] == Backend::Cuda);
    CHECK(h.backends[1] == Backend::Vulkan);
    CHECK(h.price_used_usd == 0);
    CHECK(h.system_ram_bytes == 0);
    CHECK(h.memory_basis == "nvidia-smi total");
    CHECK(!h.unified_memory());

    REQUIRE(c.ggml_types.size() == 2);
    CHECK(c.ggml_types[1].bits_per_weight() == Approx(4.5));
    CHECK(c.ggml_types[1].row_bytes(4096) == 16 * 144);
    REQUIRE(c.file_types.size() == 2);
    CHECK(c.file_types[0].kld == Approx(0.0335));
    CHECK(c.file_types[1].flat_bpw == Approx(4.5));
    CHECK(!c.file_types[1].gguf);
}

TEST_CASE("catalog: MoE, MLA, SWA, hybrid and Apple memory fields", "[catalog]") {
    json m = base_model();
    m["id"] = "deepseek-ai/DeepSeek-V3";
    m["intermediate_size"] = 18432;
    m["moe"] = {{"n_experts", 256}, {"n_experts_active", 8}, {"n_shared_experts", 1}, {"expert_ffn", 2048},
                {"shared_ffn", 0}, {"first_dense_layers", 3}, {"layer_step", 1}, {"router_bias", true}};
    m["mla"] = {{"q_lora_rank", 1536}, {"kv_lora_rank", 512}, {"qk_rope_head_dim", 64}, {"qk_nope_head_dim", 128},
                {"v_head_dim", 128}};
    m["swa"] = {{"window", 4096}, {"pattern", 2}, {"sliding_layers", json::array()}};
    m["hybrid"] = {{"recurrent_type", "mamba"}, {"attention_layers", {4, 12, 20}},
                   {"ssm_state_bytes_per_layer", 622592}, {"recurrent_layer_params", 1000}};
    json d = base_device();
    d["id"] = "m4-max-128";
    d["kind"] = "apple";
    d["backends"] = {"metal"};
    d["memory_mib"] = 131072;
    d["gpu_limit_default_mib"] = 98304;
    d["gpu_limit_max_mib"] = 122880;
    d["system_ram_gib"] = 128;
    Catalog c;
    REQUIRE(parse_err(models_doc({m}), hardware_doc({d}), base_quants().dump(), &c) == "");
    const Model& x = c.models[0];
    REQUIRE(x.is_moe());
    CHECK(x.moe->n_experts == 256);
    CHECK(x.moe->first_dense_layers == 3);
    CHECK(x.moe->router_bias);
    REQUIRE(x.mla);
    CHECK(x.mla->kv_lora_rank == 512);
    REQUIRE(x.swa);
    CHECK(x.swa->pattern == 2);
    REQUIRE(x.hybrid);
    CHECK(x.hybrid->attention_layers == std::vector<int>{4, 12, 20});
    const Hardware& h = c.hardware[0];
    CHECK(h.unified_memory());
    CHECK(h.gpu_limit_default_bytes == 96LL << 30);
    CHECK(h.gpu_limit_max_bytes == 120LL << 30);
    CHECK(h.system_ram_bytes == 128LL << 30);
}

TEST_CASE("catalog: head_dim defaults to hidden_size / n_heads", "[catalog]") {
    json m = base_model();
    m.erase("head_dim");
    Catalog c;
    REQUIRE(parse_err(models_doc({m}), hardware_doc({base_device()}), base_quants().dump(), &c) == "");
    CHECK(c.models[0].head_dim == 128);
}

TEST_CASE("catalog: model validation messages", "[catalog]") {
    const std::string p = "models.json: model 'Qwen/Qwen2.5-7B-Instruct': ";
    json m = base_model();
    m["n_kv_heads"] = 5;
    CHECK(model_err(m) == p + "n_kv_heads must divide n_heads (got 28 / 5)");

    m = base_model();
    m["n_layers"] = 0;
    CHECK(model_err(m) == p + "n_layers must be >= 1 (got 0)");

    m = base_model();
    m["n_layers"] = 3000000000LL;
    CHECK(model_err(m) == p + "n_layers must be <= 2147483647 (got 3000000000)");

    m = base_model();
    m["hidden_size"] = "3584";
    CHECK(model_err(m) == p + "hidden_size must be a whole number, got a string");

    m = base_model();
    m["n_heads"] = 28.5;
    CHECK(model_err(m) == p + "n_heads must be a whole number, got 28.5");

    m = base_model();
    m["native_context"] = 0;
    CHECK(model_err(m) == p + "native_context must be >= 1 (got 0)");

    m = base_model();
    m.erase("vocab_size");
    CHECK(model_err(m) == p + "vocab_size is missing (a whole number >= 1)");

    m = base_model();
    m["extended_context"] = 16384;
    CHECK(model_err(m) == p + "extended_context must be 0 or larger than native_context (got 16384 <= 32768)");

    m = base_model();
    m["intermediate_size"] = 0;
    CHECK(model_err(m) == p + "intermediate_size must be > 0 (got 0); only models whose every layer is MoE may give 0");

    m = base_model();
    m["moe"] = {{"n_experts", 8}, {"n_experts_active", 9}, {"expert_ffn", 14336}};
    CHECK(model_err(m) == p + "moe.n_experts_active must be <= moe.n_experts (got 9 > 8)");

    m = base_model();
    m["moe"] = {{"n_experts", 8}, {"n_experts_active", 2}};
    CHECK(model_err(m) == p + "moe.expert_ffn is missing (a whole number >= 1)");

    m = base_model();
    m["moe"] = {{"n_experts", 8}, {"n_experts_active", 2}, {"expert_ffn", 1}, {"first_dense_layers", 28}};
    CHECK(model_err(m) == p + "moe.first_dense_layers must be < n_layers (got 28 >= 28)");

    m = base_model();
    m["moe"] = 7;
    CHECK(model_err(m) == p + "moe must be an object or null, got an integer");

    m = base_model();
    m["mla"] = {{"kv_lora_rank", 512}, {"qk_rope_head_dim", 64}, {"qk_nope_head_dim", 128}};
    CHECK(model_err(m) == p + "mla.v_head_dim is missing (a whole number >= 1)");

    m = base_model();
    m["swa"] = {{"window", 4096}, {"pattern", 0}};
    CHECK(model_err(m) == p + "swa.pattern is 0, so swa.sliding_layers must list the sliding layers (or give pattern "
                              ">= 1: 1 = every layer sliding, N = every Nth layer full attention)");

    m = base_model();
    m["swa"] = {{"window", 4096}, {"pattern", 0}, {"sliding_layers", {0, 28}}};
    CHECK(model_err(m) == p + "swa.sliding_layers[1] must be in [0, 27] (got 28)");

    m = base_model();
    m["swa"] = {{"window", 0}, {"pattern", 2}};
    CHECK(model_err(m) == p + "swa.window must be >= 1 (got 0)");

    m = base_model();
    m["hybrid"] = {{"recurrent_type", "mamba"}, {"attention_layers", {4, 4}}};
    CHECK(model_err(m) == p + "hybrid.attention_layers must be strictly increasing (got 4 then 4)");

    m = base_model();
    m["api_price"] = {{"input_usd_per_mtok", -1}, {"output_usd_per_mtok", 1}};
    CHECK(model_err(m) == p + "api_price.input_usd_per_mtok must be >= 0 (got -1)");

    m = base_model();
    m["sources"] = json::array();
    CHECK(model_err(m) == p + "sources must list at least one entry");

    m = base_model();
    m["sources"] = {"ok", 3};
    CHECK(model_err(m) == p + "sources[1] must be a string, got an integer");

    m = base_model();
    m["published_active_params_b"] = 9.0;
    CHECK(model_err(m) == p + "published_active_params_b must not exceed published_params_b (got 9 > 7.61)");

    m = base_model();
    m["qkv_bias"] = "yes";
    CHECK(model_err(m) == p + "qkv_bias must be true or false, got a string");

    m = base_model();
    m.erase("id");
    CHECK(model_err(m) == "models.json: models[0]: id is missing (e.g. \"Qwen/Qwen2.5-7B-Instruct\")");

    // ids are unique ignoring case
    json m2 = base_model();
    m2["id"] = "qwen/qwen2.5-7b-instruct";
    CHECK(parse_err(models_doc({base_model(), m2}), hardware_doc({base_device()}), base_quants().dump()) ==
          "models.json: model 'qwen/qwen2.5-7b-instruct': id is used by an earlier model (ids must be unique, "
          "ignoring case)");
}

TEST_CASE("catalog: release_format is checked against quants.json", "[catalog]") {
    const std::string p = "models.json: model 'Qwen/Qwen2.5-7B-Instruct': ";
    json m = base_model();
    m["release_format"] = json::parse(R"J({"weights": "BF16", "file_type": "Q4_K_X", "source": "card"})J");
    CHECK(model_err(m) == p + "release_format.file_type \"Q4_K_X\" is not a file type in quants.json "
                              "(e.g. \"MXFP4_MOE\", \"Q8_0\", \"Q4_K_M\")");
    m["release_format"] = json::parse(R"J({"weights": "BF16", "file_type": "Q4_K_M"})J");
    CHECK(model_err(m) == p + "release_format.source is missing");
    m["release_format"] = json::parse(R"J({"weights": "BF16", "file_type": "MLX_4BIT", "source": "card"})J");
    Catalog c;
    REQUIRE(parse_err(models_doc({m}), hardware_doc({base_device()}), base_quants().dump(), &c) == "");
    CHECK(c.models[0].release_weights == "BF16");
    CHECK(default_file_type(c.models[0]) == "MLX_4BIT");
    // not recorded: llama.cpp's -hf default
    CHECK(default_file_type(good_catalog().models[0]) == "Q4_K_M");
}

TEST_CASE("catalog: document-level errors", "[catalog]") {
    const std::string hw = hardware_doc({base_device()}), q = base_quants().dump();
    CHECK(parse_err("{", hw, q) == "models.json: not valid JSON: line 1, column 2: syntax error while parsing object key - unexpected end of input; expected string literal (the text is cut short)");
    CHECK(parse_err("", hw, q) == "models.json: the file is empty (0 bytes), no JSON");
    CHECK(parse_err("[]", hw, q) ==
          "models.json: the document must be a JSON object with \"schema\" and \"models\", got an array");
    CHECK(parse_err(R"({"schema":"llmsim-models/2","models":[]})", hw, q) ==
          "models.json: \"schema\" must be \"llmsim-models/1\" (got \"llmsim-models/2\")");
    CHECK(parse_err(R"({"schema":"llmsim-models/1"})", hw, q) == "models.json: \"models\" must be a list (it is missing)");
    CHECK(parse_err(R"({"schema":"llmsim-models/1","models":[3]})", hw, q) ==
          "models.json: models[0]: must be an object, got an integer");
    CHECK(parse_err(models_doc({base_model()}), R"({"schema":"llmsim-hardware/1","devices":{}})", q) ==
          "hardware.json: \"devices\" must be a list, got an object");
    json bad = base_quants();
    bad.erase("file_types");
    CHECK(quants_err(bad) == "quants.json: \"file_types\" must be a list (it is missing)");
    // a failed parse leaves the output untouched
    Catalog c = good_catalog();
    std::string err;
    CHECK(!parse_catalog("{", hw, q, c, err));
    CHECK(c.models.size() == 1);
}

TEST_CASE("catalog: hardware validation messages", "[catalog]") {
    const std::string p = "hardware.json: device 'rtx-4090': ";
    json d = base_device();
    d["bandwidth_gbs"] = 0;
    CHECK(device_err(d) == p + "bandwidth_gbs must be > 0 (got 0)");

    d = base_device();
    d["memory_mib"] = -1;
    CHECK(device_err(d) == p + "memory_mib must be >= 0 (got -1)");

    d = base_device();
    d["memory_mib"] = 0;
    CHECK(device_err(d) == p + "memory_mib must be > 0 (got 0)");

    d = base_device();
    d["kind"] = "gaming";
    CHECK(device_err(d) == p + "kind \"gaming\" is unknown (valid: consumer, workstation, datacenter, apple, apu, cpu)");

    // the chip family is required and must be one the engine knows (the speed model's rates key on it)
    d = base_device();
    d.erase("chip_family");
    CHECK(device_err(d) == p + "chip_family is missing (e.g. \"nvidia-ada-geforce\", \"apple\", \"cpu\")");
    d["chip_family"] = "nvidia-kepler";
    const std::string unknown = device_err(d);
    CHECK(unknown.rfind(p + "chip_family \"nvidia-kepler\" is unknown (valid: nvidia-blackwell-geforce, ", 0) == 0);
    CHECK(unknown.find(", amd-rdna3, ") != std::string::npos);
    CHECK(unknown.find(", cpu)") != std::string::npos);
    d["chip_family"] = "amd-rdna3";
    Catalog fam;
    REQUIRE(parse_err(models_doc({base_model()}), hardware_doc({d}), base_quants().dump(), &fam).empty());
    CHECK(fam.hardware.at(0).chip_family == ChipFamily::AmdRdna3);

    d = base_device();
    d["backends"] = {"cuda", "opencl"};
    CHECK(device_err(d) == p + "backends[1] \"opencl\" is unknown (valid: cuda, rocm, metal, vulkan, sycl, cpu)");

    d = base_device();
    d["backends"] = json::array();
    CHECK(device_err(d) == p + "backends must list at least one entry");

    d = base_device();
    d["gpu_count"] = 0;
    CHECK(device_err(d) == p + "gpu_count must be >= 1 (got 0)");

    d = base_device();
    d["gpu_count"] = 2;
    CHECK(device_err(d) == p + "gpu_count is 2, so link (e.g. \"pcie4-x16\", \"nvlink\") or link_gbs must say how the "
                               "GPUs connect");

    d = base_device();
    d["id"] = "RTX-4090";
    CHECK(device_err(d) == "hardware.json: device 'RTX-4090': id must be lower-case (got \"RTX-4090\", use \"rtx-4090\")");

    d = base_device();
    d["gpu_limit_default_mib"] = 2000;
    d["gpu_limit_max_mib"] = 1000;
    CHECK(device_err(d) == p + "gpu_limit_default_mib must be <= gpu_limit_max_mib (got 2000 > 1000)");

    d = base_device();
    d["memory_mib"] = 1e15;
    CHECK(device_err(d) == p + "memory sizes must be below 1 EiB (a unit mistake? memory_mib is in MiB, system_ram_gib "
                               "in GiB)");

    // ids, aliases and calibration names must each name one device
    json d2 = base_device();
    d2["id"] = "rtx-4090-d";
    d2["seed_aliases"] = json::array();
    d2["calibration_names"] = {"rtx 4090"};
    CHECK(parse_err(models_doc({base_model()}), hardware_doc({base_device(), d2}), base_quants().dump()) ==
          "hardware.json: device 'rtx-4090-d': the name \"rtx 4090\" (id, seed alias, calibration name or tool name) is "
          "also used by device 'rtx-4090' (each must name one device, ignoring case)");
    d2["calibration_names"] = json::array();
    d2["tool_names"] = {"RTX 4090"};   // a tool name is one of those names too
    CHECK(parse_err(models_doc({base_model()}), hardware_doc({base_device(), d2}), base_quants().dump()) ==
          "hardware.json: device 'rtx-4090-d': the name \"rtx 4090\" (id, seed alias, calibration name or tool name) is "
          "also used by device 'rtx-4090' (each must name one device, ignoring case)");
}

TEST_CASE("catalog: quants validation messages", "[catalog]") {
    json q = base_quants();
    q["file_types"][0]["base_type"] = "Q4_X";
    CHECK(quants_err(q) == "quants.json: file type 'Q4_K_M': base_type \"Q4_X\" is not a ggml type in this file (valid: "
                           "F16, Q4_K)");
    q = base_quants();
    q["ggml_types"][1]["id"] = 1;
    CHECK(quants_err(q) == "quants.json: ggml type 'Q4_K': id 1 is used by an earlier ggml type (ids must be unique)");
    q = base_quants();
    q["ggml_types"][1]["block_size"] = 0;
    CHECK(quants_err(q) == "quants.json: ggml type 'Q4_K': block_size must be >= 1 (got 0)");
    q = base_quants();
    q["file_types"][1]["flat_bpw"] = nullptr;
    CHECK(quants_err(q) == "quants.json: file type 'MLX_4BIT': flat_bpw must be > 0 for a non-GGUF format (effective "
                           "bits per weight incl. scales)");
    q = base_quants();
    q["file_types"][0].erase("base_type");
    CHECK(quants_err(q) == "quants.json: file type 'Q4_K_M': base_type is missing (e.g. \"Q4_K\")");
    q = base_quants();
    q["file_types"][0].erase("ftype_id");
    CHECK(quants_err(q) == "quants.json: file type 'Q4_K_M': ftype_id is missing (GGUF file types carry their "
                           "llama_ftype number; use \"gguf\": false for other formats)");
}

TEST_CASE("catalog: numbers parse the same under a comma-decimal locale", "[catalog]") {
    // nlohmann's lexer is locale-independent; setlocale is process-wide, so restore it
    const char* prev = std::setlocale(LC_NUMERIC, nullptr);
    const std::string saved = prev ? prev : "C";
    std::setlocale(LC_NUMERIC, "de_DE.UTF-8");  // may not exist; the check holds either way
    Catalog c = good_catalog();
    std::setlocale(LC_NUMERIC, saved.c_str());
    CHECK(c.models[0].published_params_b == Approx(7.61));
    CHECK(c.hardware[0].fp16_tflops == Approx(330.3));
}

TEST_CASE("catalog: lookups", "[catalog]") {
    json m2 = base_model();
    m2["id"] = "Other/Qwen2.5-7B-Instruct";
    json m3 = base_model();
    m3["id"] = "meta-llama/Llama-3.1-8B-Instruct";
    json d2 = base_device();
    d2["id"] = "h100-sxm";
    d2["seed_aliases"] = {"NVIDIA H100 SXM (80 GB)"};
    d2["calibration_names"] = {"H100 SXM5"};
    Catalog c;
    REQUIRE(parse_err(models_doc({base_model(), m2, m3}), hardware_doc({base_device(), d2}), base_quants().dump(), &c) ==
            "");
    CHECK(c.find_model("Qwen/Qwen2.5-7B-Instruct") == &c.models[0]);
    CHECK(c.find_model("qwen/qwen2.5-7b-instruct") == &c.models[0]);
    CHECK(c.find_model("Llama-3.1-8B-Instruct") == &c.models[2]);   // unique repo name
    CHECK(c.find_model("Qwen2.5-7B-Instruct") == nullptr);          // two repos have it
    CHECK(c.find_model("nope") == nullptr);
    CHECK(c.find_model("") == nullptr);
    CHECK(c.find_hardware("rtx-4090") == &c.hardware[0]);
    CHECK(c.find_hardware("RTX-4090") == &c.hardware[0]);
    CHECK(c.find_hardware("NVIDIA RTX 4090 (24 GB)") == &c.hardware[0]);
    CHECK(c.find_hardware("nvidia h100 sxm (80 gb)") == &c.hardware[1]);
    CHECK(c.find_hardware("H100 SXM5") == &c.hardware[1]);
    CHECK(c.find_hardware("rtx 4090") == &c.hardware[0]);  // calibration name, any case
    CHECK(c.find_hardware("rtx-5090") == nullptr);
    CHECK(c.find_ggml_type("q4_k") == &c.ggml_types[1]);
    CHECK(c.find_ggml_type_id(12) == &c.ggml_types[1]);
    CHECK(c.find_ggml_type_id(99) == nullptr);
    CHECK(c.find_file_type("Q4_K_M") == &c.file_types[0]);
    CHECK(c.find_file_type("q4_k_m") == &c.file_types[0]);
    CHECK(c.find_file_type_id(15) == &c.file_types[0]);
    CHECK(c.find_file_type_id(-1) == nullptr);
}

TEST_CASE("catalog: enum spellings round-trip", "[catalog]") {
    for (HardwareKind k : {HardwareKind::Consumer, HardwareKind::Workstation, HardwareKind::Datacenter,
                           HardwareKind::Apple, HardwareKind::Apu, HardwareKind::Cpu})
        CHECK(parse_hardware_kind(to_string(k)) == k);
    for (Backend b : {Backend::Cuda, Backend::Rocm, Backend::Metal, Backend::Vulkan, Backend::Sycl, Backend::Cpu})
        CHECK(parse_backend(to_string(b)) == b);
    CHECK(std::string(to_string(Backend::Rocm)) == "rocm");
    CHECK(!parse_backend("opencl"));
    CHECK(parse_hardware_kind("APPLE") == HardwareKind::Apple);
}

TEST_CASE("SlidingWindow::is_sliding follows llama.cpp's set_swa_pattern", "[catalog]") {
    SlidingWindow gemma2{4096, 2, {}};
    CHECK(gemma2.is_sliding(0, 42));
    CHECK(!gemma2.is_sliding(1, 42));
    CHECK(gemma2.is_sliding(40, 42));
    CHECK(!gemma2.is_sliding(41, 42));
    SlidingWindow gemma3{1024, 6, {}};
    int sliding = 0;
    for (int i = 0; i < 62; ++i) sliding += gemma3.is_sliding(i, 62);
    CHECK(sliding == 52);  // Gemma 3 27B: 10 global layers (5, 11, ..., 59) out of 62
    CHECK(!gemma3.is_sliding(5, 62));
    CHECK(gemma3.is_sliding(60, 62));
    SlidingWindow all{4096, 1, {}};
    CHECK(all.is_sliding(0, 32));
    CHECK(all.is_sliding(31, 32));
    CHECK(!all.is_sliding(32, 32));  // out of range
    CHECK(!all.is_sliding(-1, 32));
    SlidingWindow list{128, 0, {0, 2}};
    CHECK(list.is_sliding(0, 4));
    CHECK(!list.is_sliding(1, 4));
    CHECK(list.is_sliding(2, 4));
    SlidingWindow none{0, 1, {}};
    CHECK(!none.is_sliding(0, 4));
}

// [SECTION] the real catalog ---------------------------------------------------------------------------

#ifdef LLMSIM_SOURCE_DIR
namespace {
std::string read_text(const std::string& path) {
    std::ifstream f(path, std::ios::binary);
    std::stringstream s;
    s << f.rdbuf();
    return s.str();
}
}  // namespace

TEST_CASE("catalog: assets/catalog/*.json parse and are complete", "[catalog][assets]") {
    const std::string dir = std::string(LLMSIM_SOURCE_DIR) + "/assets/catalog/";
    Catalog c;
    std::string err;
    const bool ok = parse_catalog(read_text(dir + "models.json"), read_text(dir + "hardware.json"),
                                  read_text(dir + "quants.json"), c, err);
    INFO(err);
    REQUIRE(ok);
    CHECK(c.models.size() >= 70);
    CHECK(c.hardware.size() >= 75);
    for (const FileType& f : c.file_types) {
        INFO("file type " << f.name << " base_type " << f.base_type);
        if (f.gguf) CHECK(c.find_ggml_type(f.base_type) != nullptr);
        else CHECK((f.base_type.empty() || c.find_ggml_type(f.base_type) != nullptr));
    }
    for (const Model& m : c.models) {
        INFO(m.id);
        CHECK(c.find_model(m.id) == &m);
        CHECK(!m.sources.empty());
    }
    for (const Hardware& h : c.hardware) {
        INFO(h.id);
        CHECK(c.find_hardware(h.id) == &h);
        for (const auto& a : h.seed_aliases) CHECK(c.find_hardware(a) == &h);
    }
}
#endif
