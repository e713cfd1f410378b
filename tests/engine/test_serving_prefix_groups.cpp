// engine/serving: prefix groups, the prompt pool and the staged arrival ladder (issue 36, helper frontier3), and the
// CPU tier's DRAM price. Expected values are worked out by hand from the engines' rules: vLLM caches full 16-token
// blocks and recomputes the last prompt token; SGLang's radix tree is token-granular; a finished request's full
// blocks stay cached; a stage sends int(rate x duration) requests (inference-perf run_stage).
#include <catch2/catch.hpp>

#include <string>

#include <nlohmann/json.hpp>

#include "catalog/catalog.h"
#include "serving/serving.h"
#include "test_support.h"

using namespace llmsim;

namespace {
// Llama-3.1-8B BF16 on one H100 SXM, one client at a time: 2048-token prompts of which 1843 are a group's prefix
ServeRequest grouped_8b(const std::string& engine, int groups, int per_group) {
    ServeRequest r;
    r.engine = engine; r.model = "meta-llama/Llama-3.1-8B-Instruct"; r.precision = "bf16"; r.hardware = "h100-sxm";
    r.gpus = 1; r.tp = 1; r.max_model_len = 8192;
    r.workload.input_len = 2048; r.workload.output_len = 16; r.workload.concurrency = 1; r.workload.num_prompts = 32;
    r.workload.shared_prefix_len = 1843; r.workload.prefix_groups = groups; r.workload.prompts_per_group = per_group;
    return r;
}
}  // namespace

TEST_CASE("prefix groups: each group's first request misses, the rest find their group's prefix", "[serving][prefix]") {
    // 2 groups drawn at random for 32 requests, one at a time, a pool far larger than 2 prefixes: the first request of
    // each group computes all 2048 tokens, every later one finds its group's 1840 (115 full blocks of 1843)
    ServeResult a = serve(cat(), grouped_8b("vllm", 2, 0));
    REQUIRE(a.ok);
    CHECK(a.load.prompt_tokens == 32 * 2048);
    CHECK(a.load.prefix_hit_tokens == 30 * 1840);
    CHECK(a.load.prefill_tokens_computed == 2 * 2048 + 30 * 208);
    // one group is the workload as before: 31 hits
    ServeResult one = serve(cat(), grouped_8b("vllm", 1, 0));
    REQUIRE(one.ok);
    CHECK(one.load.prefix_hit_tokens == 31 * 1840);
}

TEST_CASE("prefix groups: a prompt pool sends each prompt again, and a repeat finds its whole prompt", "[serving][prefix]") {
    // 2 groups x 2 prompts = 4 pool prompts, 32 requests cycle through them. vLLM: a group's first prompt misses (2),
    // the group's other prompt finds the prefix's 1840 (2), and the 28 repeats find the prompt's full blocks up to
    // the last token: floor(2047 / 16) x 16 = 2032 (the finished request left 2048 + 15 tokens, 128 full blocks)
    ServeResult v = serve(cat(), grouped_8b("vllm", 2, 2));
    REQUIRE(v.ok);
    CHECK(v.load.prefix_hit_tokens == 2 * 1840 + 28 * 2032);
    // SGLang's radix tree: the prefix's 1843 tokens, and a repeat finds all but the last token (2047)
    ServeResult s = serve(cat(), grouped_8b("sglang", 2, 2));
    REQUIRE(s.ok);
    CHECK(s.load.prefix_hit_tokens == 2 * 1843 + 28 * 2047);
    // 1000 groups for 400 requests: most groups come once and miss; with 2 groups all but the first two hit
    ServeRequest many = grouped_8b("vllm", 1000, 0);
    many.workload.concurrency = 0; many.workload.request_rate = 5; many.workload.num_prompts = 400;
    ServeRequest few = many; few.workload.prefix_groups = 2;
    ServeResult m = serve(cat(), many), f = serve(cat(), few);
    REQUIRE(m.ok); REQUIRE(f.ok);
    CHECK(m.load.prefix_hit_rate < f.load.prefix_hit_rate / 2);
}

TEST_CASE("rate stages: each stage sends int(rate x duration) requests and is reported on its own", "[serving][prefix]") {
    ServeRequest r = grouped_8b("vllm", 1, 0);
    r.workload.concurrency = 0; r.workload.num_prompts = 0; r.workload.shared_prefix_len = 0;
    r.workload.rate_stages = {{2.5, 3.0}, {4.0, 5.0}};   // int(7.5) = 7 and int(20) = 20 requests
    ServeResult a = serve(cat(), r);
    REQUIRE(a.ok);
    REQUIRE(a.load.stages.size() == 2);
    CHECK(a.load.stages[0].requests == 7);
    CHECK(a.load.stages[1].requests == 20);
    CHECK(a.load.completed == 27);
    CHECK(a.load.stages[0].rate == 2.5);
    CHECK(a.load.stages[1].rate == 4.0);
    // a stage's output rate: its 16-token outputs over its first arrival to its last completion
    CHECK(a.load.stages[1].output_tok_s == Approx(20 * 16 / a.load.stages[1].duration_s));
    // the run's rate counts the stages' busy time, not the idle time between them
    CHECK(a.load.output_tok_s == Approx(27 * 16 / (a.load.stages[0].duration_s + a.load.stages[1].duration_s)));
    // serve()'s JSON (the JS API's, the Serving section's results) carries the stages without a shared prefix too
    nlohmann::json sj = nlohmann::json::parse(serve_result_json(r, a));
    REQUIRE(sj["load"].contains("stages"));
    CHECK(sj["load"]["stages"].size() == 2);
    CHECK(sj["load"]["stages"][0]["requests"].get<int>() == 7);
    CHECK_FALSE(sj.contains("prefix"));   // no cache at work: no prefix block
    // a predict line reads the stages and answers per stage
    nlohmann::json out = nlohmann::json::parse(serve_predict_line(cat(),
        R"({"id": "s", "engine": "vllm", "model": "meta-llama/Llama-3.1-8B-Instruct", "precision": "bf16", "hardware": "h100-sxm",)"
        R"( "test": {"kind": "serving", "input_len": 2048, "output_len": 16, "rate_stages": [{"rate": 2.5, "duration_s": 3},)"
        R"( {"rate": 4, "duration_s": 5}]}})"));
    REQUIRE(out.contains("stages"));
    CHECK(out["stages"].size() == 2);
    CHECK(out["stages"][1]["requests"].get<int>() == 20);
}

TEST_CASE("prefix groups and stages: bad values are refused and name the key", "[serving][prefix]") {
    const std::string head = R"({"engine": "vllm", "model": "meta-llama/Llama-3.1-8B-Instruct", "precision": "bf16", "hardware": "h100-sxm",)";
    ServeRequest r;
    std::string err;
    CHECK_FALSE(parse_serve_request(head + R"( "workload": {"rate_stages": [{"rate": 2, "secs": 3}]}})", cat(), r, err));
    CHECK(err == "workload.rate_stages.secs: unknown key (rate, duration_s)");
    CHECK_FALSE(parse_serve_request(head + R"( "workload": {"rate_stages": []}})", cat(), r, err));
    CHECK(err.find("workload.rate_stages") == 0);
    CHECK_FALSE(parse_serve_request(head + R"( "workload": {"concurrency": 1, "prefix_groups": 0}})", cat(), r, err));
    CHECK(err == "workload.prefix_groups: 0 is out of range (1 to 100000)");
    ServeRequest g = grouped_8b("vllm", 2, 0); g.workload.shared_prefix_len = 0;
    ServeResult gr = serve(cat(), g);
    CHECK_FALSE(gr.ok);
    CHECK(gr.error == "workload.prefix_groups: needs shared_prefix_len (each group's prefix)");
    ServeRequest t = grouped_8b("vllm", 2, 2); t.workload.turns = 2;
    CHECK(serve(cat(), t).error == "workload.turns: multi-turn sessions do not combine with prompts_per_group or rate_stages");
    ServeRequest two = grouped_8b("vllm", 1, 0); two.workload.rate_stages = {{1, 1}};   // and concurrency 1
    CHECK(serve(cat(), two).error.find("give exactly one of") != std::string::npos);
    ServeRequest d = grouped_8b("vllm", 1, 0);
    d.workload.concurrency = 0; d.workload.shared_prefix_len = 0; d.workload.rate_stages = {{1, 1}};
    d.gpus = 2; d.disaggregation.prefill_gpus = 1; d.disaggregation.decode_gpus = 1;
    CHECK(serve(cat(), d).error.find("rate_stages") != std::string::npos);
}

TEST_CASE("KV offload: the CPU tier's DRAM is priced from the catalog and enters the owner's cost", "[serving][prefix]") {
    ServeRequest r = grouped_8b("vllm", 1, 0);
    ServeResult a = serve(cat(), r);
    r.kv_offload.cpu_gib = 100;
    ServeResult b = serve(cat(), r);
    REQUIRE(a.ok); REQUIRE(b.ok);
    // assets/catalog/host_memory.json: $76,999 for 16 x 256 GiB of DDR5 RDIMM = $18.80 a GiB
    CHECK(b.prefix.host_memory_usd == Approx(100 * 18.80));
    CHECK(b.prefix.host_memory_price_source.find("$18.80 per GiB") == 0);
    CHECK(a.prefix.host_memory_usd == 0);
    // the owner pays for the DRAM; the rent (an instance's price includes its host RAM) does not change
    CHECK(b.cost.usd_per_mtok_own_batched > a.cost.usd_per_mtok_own_batched);
    CHECK(b.cost.usd_per_mtok_rent_batched == Approx(a.cost.usd_per_mtok_rent_batched));
}
