// The llama-server command matches the simulated setup; the recommender's every accepted entry meets the query.
#include <catch2/catch.hpp>

#include <cmath>

#include "runtime/command.h"
#include "memory/llama_server_args.h"
#include "quant/quant_rules.h"
#include "sim/recommend.h"
#include "api/predict.h"
#include "runtime/speed_glue.h"
#include "test_support.h"

#include <nlohmann/json.hpp>

using namespace llmsim;


TEST_CASE("llama-server command carries every simulated flag", "[command]") {
    const Model* m = cat().find_model("Qwen/Qwen3-30B-A3B");
    REQUIRE(m);
    SimRequest req;
    req.memory.file_type = "Q4_K_M";
    req.memory.n_ctx = 32768;
    req.memory.kv_type_k = req.memory.kv_type_v = TensorType::Q8_0;
    req.memory.n_cpu_moe = 12;
    req.memory.n_parallel = 4;
    req.memory.n_gpu_layers = 30;
    req.memory.flash_attn = true;
    req.memory.hardware = cat().find_hardware("2x-rtx-3090");
    REQUIRE(req.memory.hardware);
    const std::string cmd = llama_server_command(cat(), *m, req, 9000);
    CHECK(cmd == "llama-server -m Qwen3-30B-A3B-Q4_K_M.gguf -c 32768 -ngl 30 -fa on -ctk q8_0 -ctv q8_0 --n-cpu-moe 12 -np 4 -ts 1,1 --port 9000");
    req.memory.n_gpu_layers = -1;
    req.memory.n_cpu_moe = 0;
    req.memory.flash_attn = false;
    req.memory.kv_type_k = req.memory.kv_type_v = TensorType::F16;
    req.memory.n_parallel = 1;
    req.memory.hardware = cat().find_hardware("rtx-4090");
    CHECK(llama_server_command(cat(), *m, req, 8080) == "llama-server -m Qwen3-30B-A3B-Q4_K_M.gguf -c 32768 -ngl 99 -fa off --port 8080");
    req.memory.file_type = "MLX_4BIT";
    CHECK(llama_server_command(cat(), *m, req, 8080).find("mlx_lm.server --model Qwen/Qwen3-30B-A3B") != std::string::npos);
}

TEST_CASE("llama-server flags are spelled in one place, in the order the caller adds them", "[command]") {
    CHECK(LlamaServerArgs::file("m-Q4_K_M.gguf").ctx(8192).gpu_layers(-1).flash_attn(false).port(8080).str() ==
          "llama-server -m m-Q4_K_M.gguf -c 8192 -ngl 99 -fa off --port 8080");
    CHECK(LlamaServerArgs::hub("org/m", "Q8_0").parallel(4).kv_types(TensorType::Q8_0, TensorType::F16).gpu_layers(20).str() ==
          "llama-server -hf org/m:Q8_0 -np 4 -ctk q8_0 -ngl 20");
    CHECK(LlamaServerArgs::file("e.gguf").flag("--embedding").option("--pooling", "mean").batch(2048).ubatch(512).str() ==
          "llama-server -m e.gguf --embedding --pooling mean -b 2048 -ub 512");
}

TEST_CASE("recommend: every accepted option meets the constraints; rejections say why", "[recommend]") {
    RecommendQuery q;
    q.model = cat().find_model("Qwen/Qwen2.5-72B-Instruct");
    REQUIRE(q.model);
    q.ctx_tokens = 32768;
    q.min_decode_tps = 15;
    q.max_price_usd = 12000;
    RecommendResult r = recommend_hardware(cat(), q);
    REQUIRE(r.error.empty());
    REQUIRE_FALSE(r.accepted.empty());
    double last_price = 0;
    for (const Candidate& c : r.accepted) {
        INFO(c.hardware.name);
        // re-check each with an independent evaluation
        SimRequest req;
        req.memory.file_type = q.quant;
        req.memory.n_ctx = q.ctx_tokens;
        req.memory.hardware = &c.hardware;
        req.prompt_tokens = q.prompt_tokens;
        Evaluation ev;
        std::string err;
        REQUIRE(evaluate(cat(), *q.model, req, ev, err));
        CHECK((ev.memory.status == FitStatus::Comfortable || ev.memory.status == FitStatus::Tight ||
               ev.memory.status == FitStatus::TunableUma));
        REQUIRE(ev.speed.ok);
        CHECK(ev.speed.decode_tps >= q.min_decode_tps);
        CHECK(c.price_usd > 0);
        CHECK(c.price_usd <= q.max_price_usd);
        CHECK(c.price_usd >= last_price);   // cheapest first
        last_price = c.price_usd;
    }
    for (const Candidate& c : r.rejected) CHECK_FALSE(c.reason.empty());
    // an impossible query
    q.min_decode_tps = -1;
    CHECK_FALSE(recommend_hardware(cat(), q).error.empty());
}

TEST_CASE("recommend --max-rent with a monthly load: N devices by the 730-hour rule, limit on their $/hour", "[recommend][capacity]") {
    RecommendQuery q;
    q.model = cat().find_model("Qwen/Qwen2.5-7B-Instruct");
    REQUIRE(q.model);
    q.ctx_tokens = 8192;
    q.max_cloud_usd_per_hour = 1e5;            // every rentable option
    q.load_mtok_per_month = 2000;              // 2e9 tokens, 75 % input: more than one device's month on most
    RecommendResult r = recommend_hardware(cat(), q);
    REQUIRE(r.error.empty());
    REQUIRE_FALSE(r.accepted.empty());
    const Candidate* multi = nullptr;
    double last_rent = 0;
    for (const Candidate& c : r.accepted) {
        INFO(c.hardware.name);
        REQUIRE(c.eval.speed.ok);
        const double hours = (1500e6 / c.eval.speed.prefill_tps + 500e6 / c.eval.speed.decode_tps) / 3600;
        const int64_t n = hours > 730 ? (int64_t)std::ceil(hours / 730) : 1;
        CHECK(c.load_cost.devices_needed == n);
        CHECK(c.load_cost.active_hours_per_month <= 730 + 1e-9);
        CHECK(c.load_cost.rent_usd_per_month == Approx(c.cloud_usd_per_hour * hours));
        CHECK(c.load_cost.rent_usd_per_month >= last_rent);   // ranked by monthly rent
        last_rent = c.load_cost.rent_usd_per_month;
        if (n > 1 && !multi) multi = &c;
    }
    REQUIRE(multi);
    // a limit between one device's $/hour and the N it takes rejects it, and says how many
    const std::string id = multi->hardware.id;
    const int64_t n_multi = multi->load_cost.devices_needed;
    const double one = multi->cloud_usd_per_hour, all = one * (double)n_multi;
    q.max_cloud_usd_per_hour = (one + all) / 2;
    r = recommend_hardware(cat(), q);
    bool rejected = false;
    for (const Candidate& c : r.rejected)
        if (c.hardware.id == id) {
            rejected = true;
            CHECK(c.reason.find("/h > $") != std::string::npos);
            CHECK(c.reason.find(std::to_string(n_multi) + " devices") != std::string::npos);
        }
    CHECK(rejected);
    // without a load the same limit is on one device's $/hour, and it passes
    q.load_mtok_per_month = 0;
    r = recommend_hardware(cat(), q);
    bool accepted = false;
    for (const Candidate& c : r.accepted) accepted |= c.hardware.id == id;
    CHECK(accepted);
}

TEST_CASE("recommend: --min-decode holds at the full chosen context, re-checked with predict", "[recommend]") {
    RecommendQuery q;
    q.model = cat().find_model("Qwen/Qwen2.5-72B-Instruct");
    REQUIRE(q.model);
    q.ctx_tokens = 32768;
    q.min_decode_tps = 15;
    RecommendResult r = recommend_hardware(cat(), q);
    REQUIRE(r.error.empty());
    REQUIRE_FALSE(r.accepted.empty());
    int checked = 0;
    for (const Candidate& c : r.accepted) {
        INFO(c.hardware.id);
        // predict (the JSON Lines contract) with the recommender's id: combinations are ids like any other
        REQUIRE(cat().find_hardware(c.hardware.id));
        const nlohmann::json in = {{"model", q.model->id}, {"quant", q.quant}, {"hardware", c.hardware.id},
                                   {"flash_attn", true}, {"test", {{"kind", "decode"}, {"tokens", 128}, {"depth", q.ctx_tokens}}}};
        const nlohmann::json out = nlohmann::json::parse(predict_line(cat(), default_speed_params(), in.dump()));
        REQUIRE(out.contains("tokens_per_s"));
        CHECK(out["tokens_per_s"].get<double>() >= q.min_decode_tps);
        CHECK(c.decode_checked_depth == q.ctx_tokens);
        ++checked;
    }
    CHECK(checked == (int)r.accepted.size());
    // something that is fast enough after a 4k prompt but not at the full 32k context is now rejected, and says so
    bool full_context_reason = false;
    for (const Candidate& c : r.rejected)
        if (c.reason.find("too slow: decode at 32k context") != std::string::npos && c.eval.speed.decode_tps >= q.min_decode_tps)
            full_context_reason = true;
    CHECK(full_context_reason);
    // a chosen depth instead of the worst case
    q.decode_depth = 0;
    RecommendResult r0 = recommend_hardware(cat(), q);
    REQUIRE(r0.error.empty());
    CHECK(r0.accepted.size() > r.accepted.size());
    for (const Candidate& c : r0.accepted) CHECK(c.decode_checked_tps >= q.min_decode_tps);
    q.decode_depth = q.ctx_tokens + 1;
    CHECK(recommend_hardware(cat(), q).error.find("decode depth") != std::string::npos);
}

TEST_CASE("combination ids work wherever a hardware id is accepted", "[recommend]") {
    const Hardware* b580 = cat().find_hardware("arc-b580");
    REQUIRE(b580);
    const Hardware* two = cat().find_hardware("2x-arc-b580");
    REQUIRE(two);
    CHECK(two->gpu_count == 2);
    CHECK(two->bandwidth_gbs == b580->bandwidth_gbs);
    CHECK(two->memory_bytes == b580->memory_bytes);
    CHECK(cat().find_hardware("2X-ARC-B580") == two);
    CHECK(cat().find_hardware("3x-arc-b580") == nullptr);   // only 2x, 4x, 8x
    // evaluate (memory, fit) and predict with it
    SimRequest req;
    req.memory.file_type = "Q4_K_M";
    req.memory.n_ctx = 8192;
    req.memory.hardware = two;
    Evaluation ev;
    std::string err;
    REQUIRE(evaluate(cat(), *cat().find_model("Qwen/Qwen2.5-7B-Instruct"), req, ev, err));
    CHECK(ev.memory.devices.size() == 3);   // two GPUs + host
    const nlohmann::json out = nlohmann::json::parse(predict_line(cat(), default_speed_params(),
        R"({"model":"Qwen/Qwen2.5-7B-Instruct","hardware":"2x-arc-b580","test":{"kind":"decode","tokens":128,"depth":0}})"));
    CHECK(out.contains("tokens_per_s"));
}
