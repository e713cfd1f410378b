// engine/serving SLA search: one request-count rule for every path (serve(), the sweep, the SLA bisection, the
// search), the cost floor that pruning relies on, pruning and slicing giving the exhaustive search's answer, and
// the serveSearch JSON's errors.
#include <catch2/catch.hpp>

#include <string>

#include <nlohmann/json.hpp>

#include "catalog/catalog.h"
#include "serving/serving.h"
#include "test_support.h"

using namespace llmsim;

namespace {
ServeRequest point(const std::string& model, int concurrency) {
    ServeRequest r;
    r.engine = "vllm"; r.model = model; r.hardware = "h100-sxm"; r.precision = "bf16";
    r.max_model_len = 4096;
    r.workload.input_len = 1024; r.workload.output_len = 128; r.workload.concurrency = concurrency;
    r.sla.ttft_p90_ms = 1000; r.sla.tpot_p90_ms = 50;
    return r;
}
void same_load(const ServeLoad& a, const ServeLoad& b) {
    CHECK(a.completed == b.completed);
    CHECK(a.output_tok_s == b.output_tok_s);
    CHECK(a.ttft_ms.p90 == b.ttft_ms.p90);
    CHECK(a.tpot_ms.p90 == b.tpot_ms.p90);
}
}  // namespace

TEST_CASE("one request-count rule: closed loop 8 x C (at least 32), open loop 200", "[serving][search]") {
    ServeWorkload w;
    w.concurrency = 1; CHECK(default_num_prompts(w) == 32);
    w.concurrency = 4; CHECK(default_num_prompts(w) == 32);
    w.concurrency = 32; CHECK(default_num_prompts(w) == 256);
    w.concurrency = 0; w.request_rate = 3; CHECK(default_num_prompts(w) == 200);
    ServeRequest r = point("meta-llama/Llama-3.1-8B-Instruct", 32);
    ServeResult dflt = serve(cat(), r);          // num_prompts 0: the rule
    r.workload.num_prompts = 256;
    ServeResult explicit_n = serve(cat(), r);
    REQUIRE(dflt.ok);
    CHECK(dflt.load.completed == 256);
    same_load(dflt.load, explicit_n.load);
    // closed_loop_at: the point of a sweep / bisection is serve() at that concurrency with the rule
    ServeRequest q = r; q.workload.concurrency = 0; q.workload.request_rate = 5; q.workload.num_prompts = 77;
    ServeRequest at = closed_loop_at(q, 32);
    CHECK(at.workload.concurrency == 32);
    CHECK(at.workload.request_rate == 0);
    CHECK(at.workload.num_prompts == 0);
    same_load(serve(cat(), at).load, dflt.load);
}

TEST_CASE("serve(), the SLA bisection and the search give the same numbers for the same point", "[serving][search]") {
    ServeRequest r = point("meta-llama/Llama-3.1-8B-Instruct", 16);
    ServeResult direct = serve(cat(), r);
    REQUIRE(direct.ok);
    SlaSearch space;
    space.engines = {"vllm"}; space.precisions = {"bf16"}; space.gpu_counts = {1}; space.exact_top = 0;
    std::vector<SlaPoint> pts = sla_search(cat(), r, space);
    const SlaPoint* h100 = nullptr;
    for (const SlaPoint& p : pts) if (p.hardware == "h100-sxm") h100 = &p;
    REQUIRE(h100);
    CHECK(h100->max_concurrency == 16);
    CHECK(h100->output_tok_s == direct.load.output_tok_s);
    CHECK(h100->ttft_p90_ms == direct.load.ttft_ms.p90);
    CHECK(h100->tpot_p90_ms == direct.load.tpot_ms.p90);
    CHECK(h100->usd_per_mtok_own == direct.cost.usd_per_mtok_own_batched);
    CHECK(h100->wh_per_mtok == direct.cost.wh_per_mtok_batched);
    ServeResult at;
    int c = sla_max_concurrency(cat(), r, 256, &at);
    REQUIRE(c > 1);
    same_load(at.load, serve(cat(), closed_loop_at(r, c)).load);
    // a request-rate target: each point is serve() of the open-loop request as given (200 requests by the rule)
    ServeRequest rate = r;
    rate.workload.concurrency = 0; rate.workload.request_rate = 4;
    std::vector<SlaPoint> rpts = sla_search(cat(), rate, space);
    const SlaPoint* rh = nullptr;
    for (const SlaPoint& p : rpts) if (p.hardware == "h100-sxm") rh = &p;
    REQUIRE(rh);
    ServeResult open = serve(cat(), rate);
    REQUIRE(open.ok);
    CHECK(open.load.completed == 200);
    CHECK(rh->max_concurrency == 0);
    CHECK(rh->output_tok_s == open.load.output_tok_s);
    CHECK(rh->ttft_p90_ms == open.load.ttft_ms.p90);
    // the answer is the largest within the SLA at the bisection's 1/8 resolution: c meets, c + c/8 + 1 does not
    ServeResult above = serve(cat(), closed_loop_at(r, c + c / 8 + 1));
    CHECK((above.load.ttft_ms.p90 > r.sla.ttft_p90_ms || above.load.tpot_ms.p90 > r.sla.tpot_p90_ms));
}

TEST_CASE("SLA search: the cost floor never exceeds a point's cost; pruning and slicing keep the cheapest answer", "[serving][search]") {
    ServeRequest r = point("meta-llama/Llama-3.1-70B-Instruct", 32);
    r.workload.output_len = 256;
    SlaSearch all; all.exact_top = 0;
    SlaSearchStats st_all;
    std::vector<SlaPoint> every = sla_search(cat(), r, all, &st_all);
    REQUIRE(every.size() >= 5);
    CHECK(st_all.pruned == 0);
    CHECK(st_all.simulated + st_all.infeasible == st_all.candidates);
    CHECK(st_all.infeasible > 0);   // e.g. 70B on one slow card: one sequence's step is already over 50 ms
    std::vector<SlaCandidate> cands = sla_candidates(cat(), r, all);
    for (const SlaPoint& p : every)
        for (const SlaCandidate& c : cands)
            if (c.hardware == p.hardware && c.engine == p.engine && c.precision == p.precision && c.gpus == p.gpus) {
                if (p.usd_per_mtok >= 0) { CHECK(c.usd_per_mtok_floor >= 0); CHECK(c.usd_per_mtok_floor <= p.usd_per_mtok); }
                CHECK(c.tpot_floor_ms <= p.tpot_p90_ms);
            }
    // the skipped ones: simulated anyway, none meets the SLA and each TPOT p90 is above its floor
    int skipped_checked = 0;
    for (const SlaCandidate& c : cands) {
        if (c.tpot_floor_ms <= r.sla.tpot_p90_ms || skipped_checked >= 6) continue;
        SlaPoint pt;
        CHECK_FALSE(sla_evaluate(cat(), r, all, c, pt));
        ServeRequest q = closed_loop_at(r, 32);
        q.engine = c.engine; q.precision = c.precision; q.hardware = c.hardware; q.gpus = c.gpus; q.tp = c.tp;
        ServeResult s = serve(cat(), q);
        REQUIRE(s.ok);
        CHECK(s.load.tpot_ms.p90 >= c.tpot_floor_ms);
        ++skipped_checked;
    }
    CHECK(skipped_checked > 0);
    SlaSearch top = all; top.limit = 5;
    SlaSearchStats st_top;
    std::vector<SlaPoint> five = sla_search(cat(), r, top, &st_top);
    REQUIRE(five.size() == 5);
    CHECK(st_top.simulated < st_all.simulated);
    CHECK(st_top.pruned > 0);
    for (size_t i = 0; i < 5; ++i) {
        CHECK(five[i].hardware == every[i].hardware);
        CHECK(five[i].gpus == every[i].gpus);
        CHECK(five[i].usd_per_mtok == every[i].usd_per_mtok);
    }
    // in slices of one candidate: the same points
    SlaSearchJob job;
    sla_search_begin(cat(), r, top, job);
    int steps = 0;
    while (!sla_search_step(cat(), job, 1)) ++steps;
    CHECK(steps >= st_top.simulated - 1);
    REQUIRE(job.points.size() == five.size());
    for (size_t i = 0; i < five.size(); ++i) CHECK(job.points[i].usd_per_mtok == five[i].usd_per_mtok);
}

TEST_CASE("serveSearch JSON: the search space keys, and errors naming them", "[serving][search]") {
    std::string base = R"({"model": "meta-llama/Llama-3.1-8B-Instruct", "engine": "vllm", "hardware": "h100-sxm", "max_model_len": 4096,
        "workload": {"input_len": 1024, "output_len": 128, "concurrency": 16}, "sla": {"ttft_p90_ms": 1000, "tpot_p90_ms": 50})";
    auto j = nlohmann::json::parse(api_serve_search(cat(), base + R"(, "search": {"engines": ["sglang"], "precisions": ["fp8"], "gpu_counts": [1], "limit": 3}})"));
    REQUIRE(j.contains("points"));
    CHECK(j["points"].size() <= 3);
    CHECK(j["points"].size() >= 1);
    for (const auto& p : j["points"]) { CHECK(p["engine"] == "sglang"); CHECK(p["precision"] == "fp8"); CHECK(p["gpus"] == 1); }
    CHECK(j["candidates"].get<int>() >= j["simulated"].get<int>());
    auto bad = [&](const std::string& search) { return nlohmann::json::parse(api_serve_search(cat(), base + ", \"search\": " + search + "}"))["error"]; };
    CHECK(bad(R"({"engines": ["tgi2"]})") == "search.engines: unknown engine 'tgi2'");
    CHECK(bad(R"({"gpu_counts": [0]})") == "search.gpu_counts: must be an array of counts 1 to 64");
    CHECK(bad(R"({"devices": "phones"})") == "search.devices: \"datacenter\" (datacenter and workstation) or \"all\"");
    CHECK(bad(R"({"limit": -1})") == "search.limit: 0 to 10000");
    CHECK(bad(R"([1])") == "search: must be an object");
}
