// MLX (mlx-lm) as an engine: its quant names and per-tensor sizes (quant/mlx_quant.h) against published mlx-community
// sizes, its KV cache and wired-limit memory plan (memory/mlx_memory.h). The expected values are hand-copied from
// assets/calibration/mlx_sizes.jsonl (each row names its source), never computed by the code under test.
#include <catch2/catch.hpp>

#include <cmath>
#include <string>

#include "memory/mlx_memory.h"
#include "runtime/runtime.h"
#include "serving/serving.h"
#include "sim/side_by_side.h"
#include "sim/simulate.h"
#include "memory/prepared_weights.h"
#include "quant/mlx_quant.h"
#include "test_support.h"

using namespace llmsim;

namespace {

const Model& model(const char* id) {
    const Model* m = cat().find_model(id);
    REQUIRE(m);
    return *m;
}

MlxWeightSize mlx_size(const char* id, const char* quant) {
    const std::optional<MlxQuant> q = parse_mlx_quant(quant);
    REQUIRE(q);
    MlxWeightSize ws;
    std::string err;
    REQUIRE(compute_mlx_weight_size(model(id), *q, ws, err));
    return ws;
}

double rel_err(double predicted, double published) { return std::fabs(predicted / published - 1.0); }

}  // namespace

TEST_CASE("mlx quant names: the forms mlx supports parse, the rest say why", "[mlx]") {
    const std::optional<MlxQuant> q = parse_mlx_quant("mlx-4bit-g64");
    REQUIRE(q);
    CHECK(q->mode == MlxQuantMode::Affine);
    CHECK(q->bits == 4);
    CHECK(q->group_size == 64);
    CHECK(parse_mlx_quant("MLX-4bit")->group_size == 64);   // mlx_lm.convert's default group
    CHECK(parse_mlx_quant("mlx-mxfp4")->group_size == 32);
    CHECK(parse_mlx_quant("mlx-nvfp4")->group_size == 16);
    CHECK(parse_mlx_quant("mlx-mxfp8")->bits == 8);
    CHECK(parse_mlx_quant("mlx-bf16")->mode == MlxQuantMode::None);
    CHECK(mlx_quant_name(*parse_mlx_quant("mlx-3bit-g128")) == "mlx-3bit-g128");
    CHECK_FALSE(parse_mlx_quant("mlx-7bit-g64"));   // affine bits are 2, 3, 4, 5, 6, 8
    CHECK_FALSE(parse_mlx_quant("mlx-4bit-g48"));   // groups are 32, 64, 128
    CHECK_FALSE(parse_mlx_quant("Q4_K_M"));
    CHECK_FALSE(parse_mlx_quant("MLX_4BIT"));       // the catalog's flat-bpw row, not an mlx-lm name
    CHECK(mlx_quant_error("mlx-7bit-g64").find("bits 2, 3, 4, 5, 6, 8") != std::string::npos);
    for (const std::string& n : mlx_quant_picker_names()) CHECK(parse_mlx_quant(n));
}

TEST_CASE("mlx bits per weight: bits + scale and bias per group", "[mlx]") {
    CHECK(mlx_bits_per_weight(*parse_mlx_quant("mlx-4bit-g64")) == Approx(4.5));
    CHECK(mlx_bits_per_weight(*parse_mlx_quant("mlx-4bit-g32")) == Approx(5.0));
    CHECK(mlx_bits_per_weight(*parse_mlx_quant("mlx-8bit-g64")) == Approx(8.5));
    CHECK(mlx_bits_per_weight(*parse_mlx_quant("mlx-mxfp4")) == Approx(4.25));
    // inference-atlas PR #70: granite-4.2-3b MLX 4-bit, 2,059,005,430 bytes / 3,659,737,600 params = 4.501 bits
    CHECK(rel_err(mlx_bits_per_weight(*parse_mlx_quant("mlx-4bit-g64")), 4.501) < 0.02);
}

TEST_CASE("mlx weights within 2 % of published mlx-community sizes", "[mlx]") {
    // LM Studio docs: mlx-community/Qwen2.5-7B-Instruct-4bit 4.30 GB (with ~11 MB of tokenizer files)
    const MlxWeightSize q7 = mlx_size("Qwen/Qwen2.5-7B-Instruct", "mlx-4bit-g64");
    CHECK(rel_err((double)q7.total_bytes, 4.30e9) < 0.02);
    // exo: mlx-community/Qwen2.5-Coder-7B-Instruct-4bit 4.28 GB
    CHECK(rel_err((double)mlx_size("Qwen/Qwen2.5-Coder-7B-Instruct", "mlx-4bit-g64").total_bytes, 4.28e9) < 0.02);
    // LM Studio docs: mlx-community/Meta-Llama-3.1-8B-Instruct-8bit 8.54 GB
    CHECK(rel_err((double)mlx_size("meta-llama/Llama-3.1-8B-Instruct", "mlx-8bit-g64").total_bytes, 8.54e9) < 0.02);
    // the embedding and lm_head are quantized too (mlx-lm quantizes every module with to_quantized)
    CHECK(q7.bits_per_weight == Approx(4.5).margin(0.01));
}

TEST_CASE("mlx MoE: one routed expert and the rest of Qwen3-30B-A3B-4bit as published", "[mlx]") {
    const MlxWeightSize ws = mlx_size("Qwen/Qwen3-30B-A3B", "mlx-4bit-g64");
    uint64_t experts = 0, rest = 0;
    for (size_t i = 0; i < ws.tensors.size(); ++i) (ws.tensors[i].routed_expert ? experts : rest) += ws.bytes[i];
    // moe-stream: byte-exact repack, one expert blob = 2,654,208 bytes; 48 layers x 128 experts
    CHECK(experts == 48ull * 128ull * 2654208ull);
    // moe-stream: nonexpert.safetensors 0.81 GiB (attention, norms, embeddings, 48 routers at 8 bits)
    CHECK(rel_err((double)rest / 1073741824.0, 0.81) < 0.02);
}

TEST_CASE("mlx KV cache: 256-cell steps, K and V in fp16, rotating layers stop at the window", "[mlx]") {
    const Model& q = model("Qwen/Qwen2.5-7B-Instruct");   // 28 layers, 4 KV heads x 128
    // 1000 tokens -> 1024 cells x 28 layers x (512 K + 512 V) x 2 bytes
    CHECK(mlx_kv_cache_bytes(q, 1000, 0) == 1024ull * 28 * 1024 * 2);
    CHECK(mlx_kv_cache_bytes(q, 1024, 0) == mlx_kv_cache_bytes(q, 1000, 0));
    CHECK(mlx_kv_cache_bytes(q, 1025, 0) == 1280ull * 28 * 1024 * 2);
    // --kv-bits 8: 1 byte + (2 + 2 bytes) / 64 per element
    CHECK(mlx_kv_cache_bytes(q, 1024, 8) == (uint64_t)(1024.0 * 28 * 1024 * (1.0 + 4.0 / 64) + 0.5));
    const Model& g = model("google/gemma-3-12b-it");   // sliding window 1024 on 5 of every 6 layers
    REQUIRE(g.swa);
    CHECK(mlx_layer_rotates(g, 0));
    CHECK_FALSE(mlx_layer_rotates(g, 5));
    // gemma-3-12b config: 48 layers, 8 KV heads x 256, window 1024, every 6th layer global -> 8 full + 40 rotating;
    // per cell and layer (2048 K + 2048 V) x 2 bytes = 8192 bytes
    CHECK(mlx_kv_cache_bytes(g, 32768, 0) == 8ull * 32768 * 8192 + 40ull * 1024 * 8192);
    CHECK_FALSE(mlx_layer_rotates(model("google/gemma-2-9b-it"), 0));   // gemma2.py keeps a full KVCache
}

TEST_CASE("mlx memory plan: one Metal device against mlx-lm's wired limit", "[mlx]") {
    const Model& q = model("Qwen/Qwen2.5-7B-Instruct");
    std::string err;
    auto w = prepare_weights(cat(), q, "mlx-4bit-g64", err);
    REQUIRE(w);
    CHECK(w->weights_bytes == mlx_size("Qwen/Qwen2.5-7B-Instruct", "mlx-4bit-g64").total_bytes);
    MemoryRequest req;
    req.file_type = "mlx-4bit-g64";
    req.n_ctx = 8192;
    req.hardware = cat().find_hardware("m4-pro-24");
    REQUIRE(req.hardware);
    MemoryBreakdown mb;
    REQUIRE(estimate_mlx_memory(*w, q, req, mb, err));
    REQUIRE(mb.devices.size() == 1);
    CHECK(mb.devices[0].name == "Metal");
    CHECK(mb.kv_cache_bytes == 8192ull * 28 * 1024 * 2);
    CHECK(mb.total_bytes == mb.weights_bytes + mb.kv_cache_bytes + mb.compute_bytes + mb.overhead_bytes);
    CHECK(mb.status == FitStatus::Comfortable);   // ~5 GB of a 16 GB limit (24 GB x 0.67)
    CHECK(mb.max_context >= 32768);               // the native context fits too
    CHECK(mb.max_context % 256 == 0);

    // 72B at 4 bits (~41 GB) on a 24 GB Mac: out of memory; on a 64 GB Mac: within the raised limit at most
    auto w72 = prepare_weights(cat(), model("Qwen/Qwen2.5-72B-Instruct"), "mlx-4bit-g64", err);
    REQUIRE(w72);
    REQUIRE(estimate_mlx_memory(*w72, model("Qwen/Qwen2.5-72B-Instruct"), req, mb, err));
    CHECK(mb.status == FitStatus::Oom);
}

TEST_CASE("mlx memory plan rejects what mlx-lm cannot run, with a reason", "[mlx]") {
    const Model& q = model("Qwen/Qwen2.5-7B-Instruct");
    std::string err;
    MemoryRequest req;
    req.hardware = cat().find_hardware("rtx-4090");
    MemoryBreakdown mb;
    auto w = prepare_weights(cat(), q, "mlx-4bit-g64", err);
    REQUIRE(w);
    CHECK_FALSE(estimate_mlx_memory(*w, q, req, mb, err));
    CHECK(err.find("Apple Silicon") != std::string::npos);
    req.hardware = cat().find_hardware("m4-max-128");
    req.kv_type_k = req.kv_type_v = TensorType::Q5_1;
    CHECK_FALSE(estimate_mlx_memory(*w, q, req, mb, err));
    CHECK(err.find("no MLX match") != std::string::npos);
    auto gguf = prepare_weights(cat(), q, "Q4_K_M", err);
    REQUIRE(gguf);
    req.kv_type_k = req.kv_type_v = TensorType::F16;
    CHECK_FALSE(estimate_mlx_memory(*gguf, q, req, mb, err));
    CHECK(err.find("no MLX format") != std::string::npos);
    CHECK_FALSE(prepare_weights(cat(), q, "mlx-7bit-g64", err));
    CHECK(err.find("MLX does not support") != std::string::npos);
}

TEST_CASE("mlx engine row: its own plans, Apple only, not a serve() engine", "[mlx][runtime]") {
    const Engine* e = find_engine("mlx");
    REQUIRE(e);
    CHECK(e->id == EngineId::Mlx);
    CHECK(e->scenario == ScenarioModel::Mlx);
    CHECK(e->weights == WeightFormat::MlxQuant);
    CHECK(e->apple_only);
    CHECK(runtime(EngineId::Mlx) == runtime_of(ScenarioModel::Mlx));
    for (const std::string& n : serve_engines()) CHECK(n != "mlx");
    ServeRequest r;
    r.engine = "mlx";
    r.model = "Qwen/Qwen2.5-7B-Instruct";
    r.hardware = "m4-max-128";
    CHECK(serve(cat(), r).error.find("mlx_lm.server") != std::string::npos);
}

TEST_CASE("mlx scenario: memory, speed and the mlx_lm command through evaluate()", "[mlx][runtime]") {
    const Model& q = model("Qwen/Qwen2.5-7B-Instruct");
    SimRequest req;
    req.engine = EngineId::Mlx;
    req.memory.file_type = "mlx-4bit-g64";
    req.memory.n_ctx = 8192;
    req.memory.hardware = cat().find_hardware("m4-max-128");
    req.prompt_tokens = 512;
    Evaluation ev;
    std::string err;
    REQUIRE(evaluate(cat(), q, req, ev, err));
    CHECK(ev.memory.devices.size() == 1);
    REQUIRE(ev.speed.ok);
    // decode is bandwidth-bound: below the roofline of 546 GB/s over the 4.28 GB of weights (~128 tok/s)
    CHECK(ev.speed.decode_tps < 546e9 / 4.28e9);
    CHECK(ev.speed.decode_tps > 0.5 * 546e9 / 4.28e9);
    CHECK(ev.speed.decode_low < ev.speed.decode_tps);
    CHECK(ev.speed.decode_full_tps < ev.speed.decode_empty_tps);   // KV reads grow with the context
    // apple-silicon-llm-bench measured Qwen3-8B-4bit at 90 tok/s on an M4 Max; a 7B dense model sits near it
    CHECK(ev.speed.decode_tps == Approx(90.0).epsilon(0.25));
    const std::string cmd = runtime(EngineId::Mlx)->command_line(cat(), q, req, 8080);
    CHECK(cmd.find("mlx_lm.generate --model mlx-community/Qwen2.5-7B-Instruct-4bit --max-tokens 512") != std::string::npos);
    CHECK(cmd.find("mlx_lm.server --model mlx-community/Qwen2.5-7B-Instruct-4bit --port 8080") != std::string::npos);
    req.memory.file_type = "mlx-4bit-g32";   // no mlx-community repo: convert first
    CHECK(runtime(EngineId::Mlx)->command_line(cat(), q, req, 8080).find("mlx_lm.convert --hf-path Qwen/Qwen2.5-7B-Instruct -q "
                                                                        "--q-bits 4 --q-group-size 32") != std::string::npos);
    req.memory.hardware = cat().find_hardware("rtx-4090");
    CHECK_FALSE(evaluate(cat(), q, req, ev, err));
    CHECK(err.find("Apple Silicon") != std::string::npos);
}

TEST_CASE("side by side: MLX and llama.cpp at the same bit width on one Mac", "[mlx]") {
    const Model& q = model("Qwen/Qwen2.5-7B-Instruct");
    SimRequest req;
    req.memory.file_type = "mlx-4bit-g64";
    req.memory.hardware = cat().find_hardware("m4-pro-24");
    SideBySide s;
    REQUIRE(mlx_side_by_side(cat(), q, req, s));
    CHECK(s.mlx.quant == "mlx-4bit-g64");
    CHECK(s.llamacpp.quant == "Q4_K_M");
    REQUIRE(s.mlx.ok);
    REQUIRE(s.llamacpp.ok);
    CHECK(s.mlx.command.find("mlx_lm.server") != std::string::npos);
    CHECK(s.llamacpp.command.find("llama-server") != std::string::npos);
    CHECK(mlx_quant_beside("Q8_0") == "mlx-8bit-g64");
    CHECK(mlx_quant_beside("bf16") == "mlx-bf16");
    CHECK(mlx_quant_beside("IQ3_XXS") == "mlx-3bit-g64");
    req.memory.hardware = cat().find_hardware("rtx-4090");
    CHECK_FALSE(mlx_side_by_side(cat(), q, req, s));
}

TEST_CASE("llama.cpp refuses an MLX quant instead of sizing weights it cannot load", "[mlx][runtime]") {
    SimRequest req;
    req.memory.file_type = "mlx-4bit-g64";
    req.memory.hardware = cat().find_hardware("m4-max-128");
    Evaluation ev;
    std::string err;
    CHECK_FALSE(evaluate(cat(), model("Qwen/Qwen2.5-7B-Instruct"), req, ev, err));
    CHECK(err.find("MLX format") != std::string::npos);
}
