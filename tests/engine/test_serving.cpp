// engine/serving: each memory rule against the engine's own startup log (sources named per case), the weights
// per format and TP by hand, the continuous-batching simulation on hand-computable cases, and the predict
// serving lines.
#include <catch2/catch.hpp>

#include <cmath>
#include <string>

#include <nlohmann/json.hpp>

#include "api/predict.h"
#include "catalog/catalog.h"
#include "memory/prepared_weights.h"
#include "runtime/runtime.h"
#include "serving/serving.h"
#include "serving/serving_internal.h"
#include "sim/simulate.h"
#include "speed/speed.h"
#include "test_support.h"

using namespace llmsim;

namespace {
// tolerance for the engines' own logged KV pools (issue 14: within 5 %)
constexpr double kLogTolerance = 0.05;

ServeRequest base(const std::string& engine, const std::string& model, const std::string& hw) {
    ServeRequest r;
    r.engine = engine; r.model = model; r.hardware = hw;
    r.workload.concurrency = 1; r.workload.num_prompts = 1;
    return r;
}
}  // namespace

// vLLM v1/worker/gpu_worker.py Worker.determine_available_memory (and v0 worker.determine_num_available_blocks):
// KV = total x utilization - weights - profile_run peak - non-torch; blocks = KV // (16 x bytes per token)
TEST_CASE("vLLM KV pool matches vLLM's startup log (vllm-project/vllm#10517, RTX 3090, Llama-3.1-8B)", "[serving]") {
    // log: "# GPU blocks: 1952 ... Maximum concurrency for 20000 tokens per request: 1.56x" (v0: the profile run
    // uses max_num_batched_tokens = max_model_len, max_num_seqs 256)
    ServeRequest r = base("vllm", "meta-llama/Llama-3.1-8B-Instruct", "rtx-3090");
    r.max_model_len = 20000; r.max_num_batched_tokens = 20000; r.max_num_seqs = 256; r.gpu_memory_utilization = 0.90;
    ServeMemoryPlan m; std::string err;
    REQUIRE(serve_memory(cat(), r, m, err));
    CHECK(std::fabs((double)m.kv_pool_blocks / 1952 - 1) < kLogTolerance);
    CHECK(std::fabs(m.max_concurrency / 1.56 - 1) < kLogTolerance);
    // same log at 29000: "# GPU blocks: 1478 ... 0.82x"
    r.max_model_len = 29000; r.max_num_batched_tokens = 29000;
    REQUIRE(serve_memory(cat(), r, m, err));
    CHECK(std::fabs((double)m.kv_pool_blocks / 1478 - 1) < kLogTolerance);
    CHECK(std::fabs(m.max_concurrency / 0.82 - 1) < kLogTolerance);
    CHECK_FALSE(m.fits);   // vLLM refused this one: "max seq len (29000) is larger than ... KV cache (23648)"
}

TEST_CASE("vLLM KV pool matches vLLM's log for Llama-2-7B on A100-80GB (vllm-project/vllm#2031: 7351 blocks)", "[serving]") {
    ServeRequest r = base("vllm", "meta-llama/Llama-2-7b-hf", "a100-sxm-80gb");
    r.max_model_len = 4096; r.max_num_batched_tokens = 4096; r.max_num_seqs = 256;
    ServeMemoryPlan m; std::string err;
    REQUIRE(serve_memory(cat(), r, m, err));
    CHECK(std::fabs((double)m.kv_pool_blocks / 7351 - 1) < kLogTolerance);
}

// SGLang model_runner.py ModelRunner.profile_max_num_token: rest = free after weights - total x (1 - frac)
TEST_CASE("SGLang KV pool matches its log (vllm-project/vllm#21348: Qwen3-235B-A22B-FP8, 4x H100, 367404 tokens)", "[serving]") {
    ServeRequest r = base("sglang", "Qwen/Qwen3-235B-A22B", "h100-sxm");
    r.precision = "fp8"; r.tp = 4; r.gpus = 4; r.mem_fraction_static = 0.93; r.max_model_len = 40960;
    ServeMemoryPlan m; std::string err;
    REQUIRE(serve_memory(cat(), r, m, err));
    CHECK(std::fabs((double)m.kv_pool_tokens / 367404 - 1) < kLogTolerance);
    CHECK(m.block_size == 1);
}

TEST_CASE("kv_cache_utils rules: concurrency = blocks / cdiv(max_model_len, block), tokens = blocks x block", "[serving]") {
    ServeRequest r = base("vllm", "meta-llama/Llama-3.1-8B-Instruct", "h100-sxm");
    r.max_model_len = 10000;
    ServeMemoryPlan m; std::string err;
    REQUIRE(serve_memory(cat(), r, m, err));
    CHECK(m.block_size == 16);
    CHECK(m.kv_pool_tokens == m.kv_pool_blocks * 16);
    CHECK(m.max_concurrency == Approx((double)m.kv_pool_blocks / 625));   // cdiv(10000, 16) = 625
    // Llama-3.1-8B: 32 layers x 8 KV heads x (128 + 128) x 2 B = 131072 bytes per token
    CHECK(m.kv_bytes_per_token == 131072);
    CHECK(m.kv_pool_blocks == (int64_t)(m.kv_pool_bytes / (16 * 131072)));
}

// ModelConfig.get_num_kv_heads: max(1, n_kv / tp) — KV heads are replicated when tp exceeds them
TEST_CASE("KV heads per GPU under TP: split, then replicated past the KV head count", "[serving]") {
    ServeRequest r = base("vllm", "meta-llama/Llama-3.1-70B-Instruct", "h100-sxm");
    ServeMemoryPlan m2, m8, m16; std::string err;
    r.tp = 2; r.gpus = 2; REQUIRE(serve_memory(cat(), r, m2, err));
    r.tp = 8; r.gpus = 8; REQUIRE(serve_memory(cat(), r, m8, err));
    r.tp = 16; r.gpus = 16; REQUIRE(serve_memory(cat(), r, m16, err));
    CHECK(m2.kv_bytes_per_token == 80ull * 4 * 256 * 2);   // 8 KV heads / 2
    CHECK(m8.kv_bytes_per_token == 80ull * 1 * 256 * 2);
    CHECK(m16.kv_bytes_per_token == m8.kv_bytes_per_token);
}

TEST_CASE("weights per GPU by format and TP (Llama-3.1-8B: 8,030,261,248 parameters, 2 x 525,336,576 embedding/head)", "[serving]") {
    ServeRequest r = base("vllm", "meta-llama/Llama-3.1-8B-Instruct", "h100-sxm");
    ServeMemoryPlan m; std::string err;
    const double emb = 2.0 * 525336576.0, total = 8030261248.0, lin = total - emb;
    REQUIRE(serve_memory(cat(), r, m, err));
    CHECK((double)m.weights_bytes == Approx(2 * total).epsilon(1e-6));
    r.precision = "fp8"; REQUIRE(serve_memory(cat(), r, m, err));
    CHECK((double)m.weights_bytes == Approx(lin * 1.0 + emb * 2).epsilon(1e-6));      // embedding and head stay BF16
    r.precision = "nvfp4"; REQUIRE(serve_memory(cat(), r, m, err));
    CHECK((double)m.weights_bytes == Approx(lin * 0.5625 + emb * 2).epsilon(1e-6));   // E2M1 + FP8 scale per 16
    r.precision = "int4-awq"; REQUIRE(serve_memory(cat(), r, m, err));
    CHECK((double)m.weights_bytes == Approx(lin * (0.5 + 2.5 / 128) + emb * 2).epsilon(1e-6));
    r.precision = "fp8"; r.tp = 2; r.gpus = 2; REQUIRE(serve_memory(cat(), r, m, err));
    CHECK((double)m.weights_bytes == Approx((lin + emb * 2) / 2).epsilon(1e-6));
    r.precision = "fp7"; CHECK_FALSE(serve_memory(cat(), r, m, err));
    CHECK(err.find("precision: unknown 'fp7'") == 0);
}

TEST_CASE("simulation, one request with fixed lengths: TTFT = the prefill step, E2E = TTFT + decode steps", "[serving]") {
    ServeRequest r = base("vllm", "meta-llama/Llama-3.1-8B-Instruct", "h100-sxm");
    r.max_model_len = 4096;
    r.workload.input_len = 512; r.workload.output_len = 64;
    ServeResult s = serve(cat(), r);
    REQUIRE(s.ok);
    std::string err;
    double prefill = serve_step_time(cat(), r, {}, 512, 0, nullptr, err);
    CHECK(s.load.ttft_ms.mean == Approx(prefill * 1e3).epsilon(1e-9));
    // decodes at depths 512 .. 574 (63 steps): the TPOT lies between the first and the last step
    double first = serve_step_time(cat(), r, {512}, 0, 0, nullptr, err), last = serve_step_time(cat(), r, {574}, 0, 0, nullptr, err);
    CHECK(s.load.tpot_ms.mean >= first * 1e3 - 1e-9);
    CHECK(s.load.tpot_ms.mean <= last * 1e3 + 1e-9);
    CHECK(s.load.e2e_ms.mean == Approx(s.load.ttft_ms.mean + 63 * s.load.tpot_ms.mean).epsilon(1e-9));
    CHECK(s.load.output_tok_s == Approx(64 / (s.load.e2e_ms.mean / 1e3)).epsilon(1e-9));
    CHECK(s.load.queueing_share == 0);
}

TEST_CASE("simulation, closed loop C = 1: requests run back to back", "[serving]") {
    ServeRequest r = base("vllm", "meta-llama/Llama-3.1-8B-Instruct", "h100-sxm");
    r.max_model_len = 4096; r.workload.input_len = 256; r.workload.output_len = 32; r.workload.num_prompts = 5;
    ServeResult s = serve(cat(), r);
    REQUIRE(s.ok);
    CHECK(s.load.completed == 5);
    CHECK(s.load.duration_s == Approx(5 * s.load.e2e_ms.mean / 1e3).epsilon(1e-9));
    CHECK(s.load.req_s == Approx(1.0 / (s.load.e2e_ms.mean / 1e3)).epsilon(1e-9));
    CHECK(s.load.mean_batch == Approx(1.0).epsilon(1e-9));
}

TEST_CASE("simulation: batching raises throughput and TPOT; Poisson is deterministic per seed; a full pool preempts", "[serving]") {
    ServeRequest r = base("vllm", "meta-llama/Llama-3.1-8B-Instruct", "h100-sxm");
    r.max_model_len = 4096; r.workload.input_len = 512; r.workload.output_len = 128; r.workload.num_prompts = 64;
    ServeResult one = serve(cat(), r);
    r.workload.concurrency = 32;
    ServeResult many = serve(cat(), r);
    REQUIRE(one.ok); REQUIRE(many.ok);
    CHECK(many.load.output_tok_s > 5 * one.load.output_tok_s);
    CHECK(many.load.tpot_ms.mean > one.load.tpot_ms.mean);
    r.workload.concurrency = 0; r.workload.request_rate = 4; r.workload.seed = 7;
    ServeResult p1 = serve(cat(), r), p2 = serve(cat(), r);
    r.workload.seed = 8;
    ServeResult p3 = serve(cat(), r);
    CHECK(p1.load.ttft_ms.p99 == p2.load.ttft_ms.p99);
    CHECK(p1.load.duration_s != p3.load.duration_s);
    // a pool of ~4 requests' worth (gpu_memory_utilization just above the weights) and a burst of 64: preemptions,
    // and every request still completes
    ServeRequest t = base("vllm", "meta-llama/Llama-3.1-8B-Instruct", "rtx-4090");
    t.max_model_len = 2048; t.max_num_batched_tokens = 2048; t.workload.concurrency = 0; t.workload.burst = true;
    t.workload.num_prompts = 64; t.workload.input_len = 1000; t.workload.output_len = 1000;
    t.gpu_memory_utilization = 0.76;
    ServeResult b = serve(cat(), t);
    REQUIRE(b.ok);
    CHECK(b.memory.kv_pool_tokens < 64 * 2000);
    CHECK(b.load.completed == 64);
    CHECK(b.load.preemptions > 0);
    CHECK(b.load.kv_use_peak <= 1.0);
}

TEST_CASE("serve: bad input gives an error naming the field", "[serving]") {
    ServeRequest r = base("vllm", "meta-llama/Llama-3.1-8B-Instruct", "h100-sxm");
    r.engine = "tgi2";
    CHECK(serve(cat(), r).error == "engine: unknown engine 'tgi2' (vllm, sglang, llamacpp, trtllm, lmdeploy)");
    r.engine = "vllm"; r.tp = 2; r.gpus = 1;
    CHECK(serve(cat(), r).error.find("gpus: 1 cannot hold tp x pp = 2") == 0);
    r.tp = 1; r.workload.request_rate = 3;   // concurrency 1 and a rate
    CHECK(serve(cat(), r).error.find("workload: give exactly one of") == 0);
    r.workload.request_rate = 0; r.model = "meta-llama/Llama-3.1-405B-Instruct"; r.max_model_len = 8192;
    ServeResult big = serve(cat(), r);
    CHECK_FALSE(big.ok);
    CHECK(big.error.find("does not fit") == 0);
}

TEST_CASE("llama-server -np: the KV pool and status come from the llama.cpp memory model", "[serving]") {
    ServeRequest r = base("llamacpp", "Qwen/Qwen2.5-7B-Instruct", "rtx-4090");
    r.precision = "Q4_K_M"; r.max_model_len = 32768; r.max_num_seqs = 4;
    ServeResult s = serve(cat(), r);
    REQUIRE(s.ok);
    // Qwen2.5-7B at -c 32768, f16 KV: 28 layers x 4 KV heads x 128 x 2 x 2 B x 32768 = 1.75 GiB (cli_memory_json)
    CHECK(s.memory.kv_pool_bytes == 1879048192ull);
    CHECK(s.command.find("llama-server -hf Qwen/Qwen2.5-7B-Instruct:Q4_K_M -np 4 -c 32768 --kv-unified --cont-batching") == 0);
}

TEST_CASE("predict: test.kind serving lines", "[serving]") {
    SpeedParams p = builtin_speed_params();
    std::string line = R"({"id": "s1", "engine": "vllm", "model": "meta-llama/Llama-3.1-8B-Instruct", "precision": "bf16",
        "hardware": "h100-sxm", "gpus": 1, "tp": 1, "pp": 1,
        "test": {"kind": "serving", "input_len": 1024, "output_len": 128, "concurrency": 16, "request_rate": "inf", "num_prompts": 64}})";
    nlohmann::json o = nlohmann::json::parse(predict_line(cat(), p, line));
    CHECK(o["id"] == "s1");
    REQUIRE(o.contains("output_tok_s"));
    CHECK(o["output_tok_s"].get<double>() > 0);
    CHECK(o["low"].get<double>() < o["output_tok_s"].get<double>());
    CHECK(o["high"].get<double>() > o["output_tok_s"].get<double>());
    for (const char* k : {"total_tok_s", "req_s", "ttft_ms", "tpot_ms", "itl_ms", "max_concurrency_fit", "kv_pool_tokens"}) CHECK(o.contains(k));
    CHECK(o["ttft_ms"].contains("p99"));
    // the same request through serve() gives the same numbers
    ServeRequest r;
    std::string err;
    REQUIRE(parse_serve_request(line, cat(), r, err));
    r.max_model_len = 2048;
    ServeResult s = serve(cat(), r);
    CHECK(o["output_tok_s"].get<double>() == Approx(s.load.output_tok_s).epsilon(1e-12));
    // a burst: request_rate "inf" without concurrency
    std::string burst = R"({"id": "b", "engine": "sglang", "model": "meta-llama/Llama-3.1-8B-Instruct", "hardware": "h100-sxm",
        "test": {"kind": "serving", "input_len": 128, "output_len": 128, "concurrency": null, "request_rate": "inf", "num_prompts": 100}})";
    CHECK(nlohmann::json::parse(predict_line(cat(), p, burst)).contains("output_tok_s"));
    // a static batch (concurrency C, request_rate null, no num_prompts: LMDeploy profile_generation) is one burst
    // of C requests: the same numbers as the explicit burst, and its TTFT covers the whole batch's prefill
    std::string stat = R"({"id": "st", "engine": "lmdeploy", "model": "meta-llama/Llama-2-7b-hf", "precision": "fp16", "hardware": "a100-sxm-80gb",
        "test": {"kind": "serving", "input_len": 2048, "output_len": 128, "concurrency": 16, "request_rate": null}})";
    std::string as_burst = R"({"id": "st", "engine": "lmdeploy", "model": "meta-llama/Llama-2-7b-hf", "precision": "fp16", "hardware": "a100-sxm-80gb",
        "test": {"kind": "serving", "input_len": 2048, "output_len": 128, "request_rate": "inf", "num_prompts": 16}})";
    std::string closed = R"({"id": "st", "engine": "lmdeploy", "model": "meta-llama/Llama-2-7b-hf", "precision": "fp16", "hardware": "a100-sxm-80gb",
        "test": {"kind": "serving", "input_len": 2048, "output_len": 128, "concurrency": 16, "request_rate": "inf", "num_prompts": 160}})";
    nlohmann::json so = nlohmann::json::parse(predict_line(cat(), p, stat)), bo = nlohmann::json::parse(predict_line(cat(), p, as_burst)),
                   co = nlohmann::json::parse(predict_line(cat(), p, closed));
    REQUIRE(so.contains("ttft_ms")); REQUIRE(co.contains("ttft_ms"));
    CHECK(so.dump() == bo.dump());
    CHECK(so["ttft_ms"]["median"].get<double>() > 1.5 * co["ttft_ms"]["median"].get<double>());   // staggered closed loop
    std::string bad = R"({"id": "x", "engine": "vllm", "model": "meta-llama/Llama-3.1-8B-Instruct", "hardware": "h100-sxm",
        "test": {"kind": "serving", "input_len": -3, "output_len": 128}})";
    nlohmann::json e = nlohmann::json::parse(predict_line(cat(), p, bad));
    CHECK(e["id"] == "x");
    CHECK(e["error"].get<std::string>().find("test.input_len: -3 is out of range") == 0);
}

TEST_CASE("runtime registry: vLLM and SGLang entries give the serving engine's memory plan", "[serving][runtime]") {
    const Runtime* v = runtime(EngineId::Vllm);
    REQUIRE(v);
    CHECK(runtime(EngineId::Sglang) == v);   // one serving plan set for every serving engine row
    CHECK(std::string(engine_row(EngineId::Vllm).display_name) == "vLLM");
    const Model* m = cat().find_model("meta-llama/Llama-3.1-8B-Instruct");
    REQUIRE(m);
    SimRequest req;
    req.engine = EngineId::Vllm;
    req.memory.file_type = "BF16"; req.memory.n_ctx = 8192; req.memory.n_parallel = 16;
    req.memory.hardware = cat().find_hardware("h100-sxm");
    Evaluation ev; std::string err;
    REQUIRE(evaluate(cat(), *m, req, ev, err));
    ServeRequest r = base("vllm", m->id, "h100-sxm");
    r.precision = "fp16"; r.max_model_len = 8192; r.max_num_seqs = 16;
    ServeMemoryPlan p;
    REQUIRE(serve_memory(cat(), r, p, err));
    CHECK(ev.memory.kv_cache_bytes == p.kv_pool_bytes);
    CHECK(ev.memory.max_context == p.largest_max_model_len);
    CHECK(ev.speed.ok);
    CHECK(ev.speed.aggregate_tps > ev.speed.decode_tps);   // 16 sequences decode together
    CHECK(v->command_line(cat(), *m, req, 8000).find("vllm serve meta-llama/Llama-3.1-8B-Instruct --tensor-parallel-size 1 --max-model-len 8192") == 0);
}

TEST_CASE("runtime registry: a file type no serving checkpoint stands for is an error, not a silent BF16", "[serving][runtime]") {
    const Runtime* v = runtime(EngineId::Vllm);
    REQUIRE(v);
    const Model* m = cat().find_model("meta-llama/Llama-3.1-8B-Instruct");
    REQUIRE(m);
    MemoryRequest mr;
    mr.n_ctx = 8192; mr.n_parallel = 16;
    mr.hardware = cat().find_hardware("h100-sxm");
    PreparedWeights unused;
    MemoryBreakdown out;
    std::string err;
    mr.file_type = "Q6_K";   // before: served as BF16 without a word
    CHECK_FALSE(v->memory_plan(EngineId::Vllm, unused, *m, mr, out, err));
    CHECK(err == "vllm: no checkpoint format it loads stands for quant 'Q6_K' (pick F16, BF16, F32, Q8_0, FP8, "
                 "MXFP4_MOE, NVFP4, AWQ_INT4_G128, GPTQ_INT4_G128, or a 4-, 3- or 2-bit GGUF type, served as AWQ int4)");
    mr.file_type = "Q9_X";   // not a quant at all: the valid names
    CHECK_FALSE(v->memory_plan(EngineId::Vllm, unused, *m, mr, out, err));
    CHECK(err.rfind("vllm: unknown quant 'Q9_X' (valid: F32, F16, BF16, Q8_0, Q6_K, ", 0) == 0);
    // the AWQ checkpoint is served as AWQ int4 (before: BF16): the serving engine's own int4-awq plan
    mr.file_type = "AWQ_INT4_G128";
    REQUIRE(v->memory_plan(EngineId::Vllm, unused, *m, mr, out, err));
    ServeRequest r = base("vllm", m->id, "h100-sxm");
    r.precision = "int4-awq"; r.max_model_len = 8192; r.max_num_seqs = 16;
    ServeMemoryPlan p;
    REQUIRE(serve_memory(cat(), r, p, err));
    CHECK(out.weights_bytes == p.weights_bytes);
    // the alias and the case a user types resolve to the same row: "fp16" is F16
    mr.file_type = "fp16";
    REQUIRE(v->memory_plan(EngineId::Vllm, unused, *m, mr, out, err));
}

// vLLM multi-LoRA (vllm/lora/layers/base_linear.py BaseLinearLayerWithLoRA.create_lora_weights): max_loras slots of
// A [max_lora_rank x input] and B [output x max_lora_rank] per wrapped linear, 16-bit, allocated with the model
TEST_CASE("vLLM --max-loras: LoRA slots per GPU come off the KV pool; the punica step reads the active slots", "[serving]") {
    ServeRequest r = base("vllm", "meta-llama/Llama-3.1-8B-Instruct", "h100-sxm");
    r.max_model_len = 8192;
    ServeMemoryPlan plain, lora;
    std::string err;
    REQUIRE(serve_memory(cat(), r, plain, err));
    r.max_loras = 4;
    r.max_lora_rank = 16;
    REQUIRE(serve_memory(cat(), r, lora, err));
    // per layer at r = 16, TP 1: qkv 3 x 16 x 4096 + (4096 + 2 x 1024) x 16, o 16 x 4096 + 4096 x 16, gate_up
    // 2 x (16 x 4096 + 14336 x 16), down 16 x 14336 + 4096 x 16 = 1,310,720 elements; x 32 layers = 41,943,040 (the
    // all-linear r = 16 adapter PEFT prints for Llama-3-8B), x 2 bytes x 4 slots
    CHECK(lora.lora_bytes == 4ull * 41943040ull * 2ull);
    CHECK(plain.lora_bytes == 0);
    CHECK(plain.kv_pool_bytes - lora.kv_pool_bytes == Approx((double)lora.lora_bytes).epsilon(1e-6));
    // TP 2 shards B of qkv/gate_up and A of o/down: less per GPU, more than half
    r.tp = 2; r.gpus = 2;
    ServeMemoryPlan tp2;
    REQUIRE(serve_memory(cat(), r, tp2, err));
    CHECK(tp2.lora_bytes < lora.lora_bytes);
    CHECK(tp2.lora_bytes > lora.lora_bytes / 2);
    r.tp = 1; r.gpus = 1;
    // a decode step of 8 sequences reads the 4 active slots on top of the weights
    const std::vector<int64_t> depths(8, 1024);
    StepBreakdown with, without;
    REQUIRE(serve_step_time(cat(), r, depths, 0, 0, &with, err) > 0);
    r.max_loras = 0;
    REQUIRE(serve_step_time(cat(), r, depths, 0, 0, &without, err) > 0);
    CHECK(with.step_s > without.step_s);
    CHECK(with.weights_s - without.weights_s > 0);
    // the command gains the flags; other engines and ranks vLLM refuses are errors
    r.max_loras = 4;
    ServeResult s = serve(cat(), r);
    REQUIRE(s.ok);
    CHECK(s.command.find("--enable-lora --max-loras 4 --max-lora-rank 16") != std::string::npos);
    r.max_lora_rank = 24;
    CHECK_FALSE(serve_memory(cat(), r, lora, err));
    CHECK(err.find("max_lora_rank") != std::string::npos);
    r.max_lora_rank = 16;
    r.engine = "sglang";
    CHECK_FALSE(serve_memory(cat(), r, lora, err));
    CHECK(err.find("vLLM only") != std::string::npos);
}

TEST_CASE("TensorRT-LLM admits only what its pool can finish (GUARANTEED_NO_EVICT): a burst never preempts", "[serving]") {
    // 64 requests of 20,000 + 2,000 tokens on one A100-80GB: the pool holds ~20 whole requests. vLLM's scheduler
    // admits on the prompt and preempts as the outputs grow; TensorRT-LLM's default capacity policy reserves
    // prompt + max output at admission (executor.h SchedulerConfig: kGUARANTEED_NO_EVICT), so it never evicts and
    // runs at most pool / (in + out) sequences at once
    ServeRequest t = base("trtllm", "meta-llama/Llama-3.1-8B-Instruct", "a100-sxm-80gb");
    t.precision = "fp16"; t.max_model_len = 22000;
    t.workload.concurrency = 0; t.workload.burst = true; t.workload.num_prompts = 64;
    t.workload.input_len = 20000; t.workload.output_len = 2000;
    ServeResult b = serve(cat(), t);
    REQUIRE(b.ok);
    CHECK(b.load.completed == 64);
    CHECK(b.load.preemptions == 0);
    CHECK(b.load.mean_batch <= (double)b.memory.kv_pool_tokens / 22000.0 + 1e-9);
    ServeRequest v = t; v.engine = "vllm";
    ServeResult vb = serve(cat(), v);
    REQUIRE(vb.ok);
    CHECK(vb.load.preemptions > 0);
}

TEST_CASE("MoE step: the routed experts' GEMMs run at the tokens each expert gets, not the whole batch", "[serving]") {
    // compute time of n tokens ~ n / eff(n), eff(n) = n / (n + 16) for a dense matmul: 8 decodes vs 1 cost
    // (8 + 16) / (1 + 16) = 1.41x. Mixtral's routed experts (top-2 of 8, ~85 % of its active parameters) see
    // 2 tokens on 2 experts at n = 1 (eff 1/17) and 16 tokens on 8 (1 - (6/8)^8) = 7.2 experts at n = 8 (eff
    // 2.22/18.2): their share costs 3.9x, so the whole step's compute grows well past the dense 1.41x
    std::string err;
    ServeRequest r = base("vllm", "mistralai/Mixtral-8x7B-Instruct-v0.1", "h100-sxm");
    r.tp = 2; r.gpus = 2;
    StepBreakdown m1, m8;
    serve_step_time(cat(), r, {512}, 0, 0, &m1, err);
    serve_step_time(cat(), r, std::vector<int64_t>(8, 512), 0, 0, &m8, err);
    REQUIRE(m1.compute_s > 0);
    CHECK(m8.compute_s / m1.compute_s > 2.5);
    CHECK(m8.compute_s / m1.compute_s < 3.9);
    ServeRequest d = base("vllm", "meta-llama/Llama-3.1-8B-Instruct", "h100-sxm");
    StepBreakdown d1, d8;
    serve_step_time(cat(), d, {512}, 0, 0, &d1, err);
    serve_step_time(cat(), d, std::vector<int64_t>(8, 512), 0, 0, &d8, err);
    CHECK(d8.compute_s / d1.compute_s == Approx(24.0 / 17.0).epsilon(0.03));   // dense: attention adds < 3 %
}

TEST_CASE("runtime registry: the TensorRT-LLM entry gives its serving plan and trtllm-serve", "[serving][runtime]") {
    const Runtime* rt = runtime(EngineId::TrtLlm);
    REQUIRE(rt);
    CHECK(std::string(engine_row(EngineId::TrtLlm).display_name) == "TensorRT-LLM");
    const Model* m = cat().find_model("meta-llama/Llama-3.1-8B-Instruct");
    REQUIRE(m);
    SimRequest req;
    req.engine = EngineId::TrtLlm;
    req.memory.file_type = "BF16"; req.memory.n_ctx = 8192; req.memory.n_parallel = 16;
    req.memory.hardware = cat().find_hardware("h100-sxm");
    Evaluation ev; std::string err;
    REQUIRE(evaluate(cat(), *m, req, ev, err));
    ServeRequest r = base("trtllm", m->id, "h100-sxm");
    r.precision = "bf16"; r.max_model_len = 8192; r.max_num_seqs = 16;
    ServeMemoryPlan p;
    REQUIRE(serve_memory(cat(), r, p, err));
    CHECK(ev.memory.kv_cache_bytes == p.kv_pool_bytes);
    // KvCacheConfig.free_gpu_memory_fraction 0.9 of what is free after weights and activations (llm_args.py)
    const double free_bytes = (double)p.gpu_total_bytes - (double)p.weights_bytes - (double)p.activation_peak_bytes;
    CHECK((double)p.kv_pool_bytes < 0.9 * free_bytes);
    CHECK((double)p.kv_pool_bytes > 0.85 * free_bytes);
    CHECK(ev.speed.ok);
    CHECK(ev.speed.aggregate_tps > ev.speed.decode_tps);
    CHECK(rt->command_line(cat(), *m, req, 8000).find("trtllm-serve meta-llama/Llama-3.1-8B-Instruct --tp_size 1 --pp_size 1 --max_batch_size 16") == 0);
}

TEST_CASE("engine table: LMDeploy runs scenarios through the serving plans too", "[serving][runtime]") {
    // LMDeploy had a serving row but no runtime entry before the two engine tables became one
    const Model* m = cat().find_model("meta-llama/Llama-3.1-8B-Instruct");
    REQUIRE(m);
    SimRequest req;
    req.engine = EngineId::Lmdeploy;
    req.memory.file_type = "BF16"; req.memory.n_ctx = 8192; req.memory.n_parallel = 16;
    req.memory.hardware = cat().find_hardware("h100-sxm");
    Evaluation ev; std::string err;
    REQUIRE(evaluate(cat(), *m, req, ev, err));
    ServeRequest r = base("lmdeploy", m->id, "h100-sxm");
    r.precision = "bf16"; r.max_model_len = 8192; r.max_num_seqs = 16;
    ServeMemoryPlan p;
    REQUIRE(serve_memory(cat(), r, p, err));
    CHECK(ev.memory.kv_cache_bytes == p.kv_pool_bytes);
    CHECK(ev.speed.ok);
    CHECK(runtime(EngineId::Lmdeploy)->command_line(cat(), *m, req, 8000) ==
          "lmdeploy serve api_server meta-llama/Llama-3.1-8B-Instruct --tp 1 --session-len 8192 --max-batch-size 16 --port 8000");
}

TEST_CASE("TP over PCIe on GeForce (no GPU P2P): each all-reduce pays NCCL's host-staged latency", "[serving]") {
    // Llama-3.1-8B: 32 layers, hidden 4096; one decode at depth 0 on 2 GPUs: 2 all-reduces per layer of
    // 1 x 4096 BF16 values, ring 2 (tp - 1) / tp of the 8192 bytes over the 25 GB/s PCIe link, plus the latency:
    // 40 us without P2P (NVIDIA/nccl#1530: all_reduce_perf, 8 x RTX 4090, 8 bytes: 40-43 us), 15 us with it.
    // Without P2P NCCL's SHM transport stages every chunk through host memory at a quarter of the link
    // (NVIDIA/nccl#384: all_reduce_perf with NCCL_P2P_DISABLE=1, 2 GPUs on PCIe 3.0 x16, 3.9 GB/s): 6.25 GB/s
    std::string err;
    const double bytes_s = 2.0 * (2 - 1) / 2 * 8192 / 25e9;
    ServeRequest r = base("vllm", "meta-llama/Llama-3.1-8B-Instruct", "rtx-4090");
    r.gpus = 2; r.tp = 2; r.max_model_len = 4096;
    StepBreakdown geforce, ada, ada_no_p2p;
    REQUIRE(serve_step_time(cat(), r, {0}, 0, 0, &geforce, err) > 0);
    CHECK(geforce.allreduce_s == Approx(2 * 32 * (4 * bytes_s + 40e-6)).epsilon(1e-9));
    r.hardware = "rtx-6000-ada";   // a workstation part: P2P over PCIe, vLLM's custom all-reduce
    REQUIRE(serve_step_time(cat(), r, {0}, 0, 0, &ada, err) > 0);
    CHECK(ada.allreduce_s == Approx(2 * 32 * (bytes_s + 15e-6)).epsilon(1e-9));
    // the same part in a container that denies P2P (vLLM logs "platform lacks GPU P2P capability"): host-staged
    r.no_p2p = true;
    REQUIRE(serve_step_time(cat(), r, {0}, 0, 0, &ada_no_p2p, err) > 0);
    CHECK(ada_no_p2p.allreduce_s == Approx(geforce.allreduce_s).epsilon(1e-9));
}

TEST_CASE("no_p2p and engine_version in a request: parsed, a wrong type is an error naming the key", "[serving]") {
    ServeRequest r;
    std::string err;
    const std::string head = R"({"engine": "vllm", "model": "meta-llama/Llama-3.1-8B-Instruct", "hardware": "a100-pcie-80gb", )";
    REQUIRE(parse_serve_request(head + R"("no_p2p": true, "engine_version": "0.6.3.post1"})", cat(), r, err));
    CHECK(r.no_p2p);
    CHECK(r.engine_version == "0.6.3.post1");
    CHECK_FALSE(parse_serve_request(head + R"("no_p2p": "yes"})", cat(), r, err));
    CHECK(err == "no_p2p: must be true or false");
    CHECK_FALSE(parse_serve_request(head + R"("engine_version": 6})", cat(), r, err));
    CHECK(err == "engine_version: must be a string");
}

TEST_CASE("vLLM before v0.8 runs the V0 engine's speed; unparsed version text is the current engine", "[serving]") {
    ServeRequest r;
    r.engine = "vllm";
    for (const char* v0 : {"0.6.3.post2.dev308+gb489fc3c (nightly wheel)", "0.6.0 (--num-scheduler-steps 10)", "0.7.3"}) {
        r.engine_version = v0;
        CHECK(serving::runs_vllm_v0(r));
    }
    // v0.8.0 made V1 the default (VLLM_USE_V1=1); text that starts with no version number is "not stated"
    for (const char* v1 : {"0.8.5 (vllm/vllm-openai:v0.8.5)", "0.10.1.1 (from startup logs)", "1.0", "",
                           "not stated for 4x run", "AMD MLPerf v4.1 vLLM-based SUT", "0.", "0.x"}) {
        r.engine_version = v1;
        CHECK_FALSE(serving::runs_vllm_v0(r));
    }
    r.engine = "sglang"; r.engine_version = "0.3.0";   // only vLLM has the V0/V1 split
    CHECK_FALSE(serving::runs_vllm_v0(r));
}
