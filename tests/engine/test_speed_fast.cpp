// The sweep's shortcuts in the speed model against the plain calls they replace, bit for bit, on a spread of the
// catalog: estimate_decode_depths() (position-independent decode terms computed once) vs one estimate_decode() per
// depth; PrefillMemo (a caller-owned one-entry memo) vs estimate_prefill(); evaluate() with SimRequest::prefill_memo
// vs without, over the bench sweep's four contexts per device (the memo's reuse case).
//
// Tolerance: none — doubles are compared by their bits.
#include <catch2/catch.hpp>

#include <cstring>
#include <string>
#include <vector>

#include "catalog/catalog.h"
#include "memory/prepared_weights.h"
#include "sim/simulate.h"
#include "speed/speed.h"
#include "runtime/speed_glue.h"

using namespace llmsim;

namespace {

bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

// every field of two speed results, doubles by their bits
std::string result_diff(const SpeedResult& a, const SpeedResult& b) {
    const double SpeedResult::*fields[] = {
        &SpeedResult::tokens_per_s, &SpeedResult::low, &SpeedResult::high, &SpeedResult::time_s,
        &SpeedResult::weight_time_s, &SpeedResult::kv_time_s, &SpeedResult::alu_time_s, &SpeedResult::fixed_time_s,
        &SpeedResult::sync_time_s, &SpeedResult::offload_time_s, &SpeedResult::compute_time_s,
        &SpeedResult::attention_time_s, &SpeedResult::overhead_time_s, &SpeedResult::flops_per_token,
        &SpeedResult::bytes_per_token};
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; ++i)
        if (!same_bits(a.*fields[i], b.*fields[i])) return "double field " + std::to_string(i);
    if (a.ok != b.ok) return "ok";
    if (a.error != b.error) return "error: '" + a.error + "' vs '" + b.error + "'";
    if (a.fp16_tflops_estimated != b.fp16_tflops_estimated) return "fp16_tflops_estimated";
    if (std::string(a.bound) != b.bound) return "bound";
    return "";
}

std::string view_diff(const SpeedView& a, const SpeedView& b) {
    const double SpeedView::*fields[] = {
        &SpeedView::decode_tps, &SpeedView::decode_low, &SpeedView::decode_high, &SpeedView::decode_empty_tps,
        &SpeedView::decode_empty_low, &SpeedView::decode_empty_high, &SpeedView::decode_full_tps,
        &SpeedView::decode_full_low, &SpeedView::decode_full_high, &SpeedView::prefill_tps, &SpeedView::prefill_low,
        &SpeedView::prefill_high, &SpeedView::ttft_s, &SpeedView::ttft_low, &SpeedView::ttft_high, &SpeedView::reply_s,
        &SpeedView::aggregate_tps, &SpeedView::per_user_tps, &SpeedView::decode_intensity, &SpeedView::decode_flops,
        &SpeedView::prefill_intensity, &SpeedView::prefill_flops, &SpeedView::peak_flops, &SpeedView::peak_bytes_per_s};
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; ++i)
        if (!same_bits(a.*fields[i], b.*fields[i])) return "double field " + std::to_string(i);
    if (a.ok != b.ok || a.error != b.error) return "ok/error: '" + a.error + "' vs '" + b.error + "'";
    if (a.decode_bound != b.decode_bound || a.prefill_bound != b.prefill_bound) return "bound";
    if (a.decode_depth != b.decode_depth || a.decode_full_depth != b.decode_full_depth) return "depths";
    return "";
}

const Catalog& catalog() {
    static Catalog cat;
    static bool loaded = false;
    if (!loaded) {
        std::string err;
        REQUIRE(load_embedded_catalog(cat, err));
        loaded = true;
    }
    return cat;
}

// the speed scenarios of a spread of the catalog: every 5th model x every 4th device x two quants, each with the
// offload, flash-attention and parallel settings varied
std::vector<SpeedScenario> sample_scenarios() {
    const Catalog& cat = catalog();
    std::vector<SpeedScenario> out;
    const char* quants[] = {"Q4_K_M", "Q8_0"};
    for (size_t mi = 0; mi < cat.models.size(); mi += 5)
        for (size_t hi = 0; hi < cat.hardware.size(); hi += 4)
            for (int qi = 0; qi < 2; ++qi) {
                SimRequest req;
                req.memory.file_type = quants[qi];
                req.memory.hardware = &cat.hardware[hi];
                req.memory.flash_attn = (mi + hi) % 3 != 0;
                req.memory.n_parallel = (int)(1 + hi % 3);
                req.memory.n_gpu_layers = hi % 5 == 0 ? 10 : -1;
                req.with_speed = false;
                Evaluation ev;
                std::string err;
                if (!evaluate(cat, cat.models[mi], req, ev, err)) continue;
                SpeedScenario s;
                if (build_speed_scenario(cat.models[mi], req, ev, s, err)) out.push_back(s);
            }
    return out;
}

}  // namespace

TEST_CASE("estimate_decode_depths equals estimate_decode per depth, bit for bit") {
    const SpeedParams& p = default_speed_params();
    std::vector<SpeedScenario> scenarios = sample_scenarios();
    REQUIRE(scenarios.size() > 200);
    SpeedScenario broken = scenarios.front();
    broken.bandwidth_gbs = 0;   // check() fails: every result carries its message
    scenarios.push_back(broken);
    const int64_t depths[] = {4096, 0, 131072, -1, 512};
    const int64_t tokens[] = {512, 128, 128, 128, 0};   // the last two are bad input: the same error as one call
    size_t compared = 0;
    for (const SpeedScenario& s : scenarios) {
        SpeedResult batch[5];
        estimate_decode_depths(s, p, 5, depths, tokens, batch);
        for (int i = 0; i < 5; ++i) {
            const std::string d = result_diff(estimate_decode(s, p, depths[i], tokens[i]), batch[i]);
            INFO("scenario " << compared << " depth " << depths[i] << ": " << d);
            CHECK(d.empty());
        }
        ++compared;
    }
    CHECK_FALSE(estimate_decode(broken, p, 0, 128).error.empty());
}

TEST_CASE("PrefillMemo returns estimate_prefill's result and recomputes on any changed input") {
    const SpeedParams& p = default_speed_params();
    SpeedParams other = p;   // equal values, another object: a miss (the memo keys on the object)
    const std::vector<SpeedScenario> scenarios = sample_scenarios();
    PrefillMemo memo;
    uint64_t expected_hits = 0, calls = 0;
    for (const SpeedScenario& s0 : scenarios) {
        SpeedScenario s = s0;
        for (int round = 0; round < 3; ++round) {   // round 1 repeats round 0: a hit
            if (round == 2) s.offload_fraction = s.offload_fraction > 0 ? 0.0 : 0.25;
            if (round == 2 && !(s.host_bandwidth_gbs > 0)) s.host_bandwidth_gbs = 60;
            const SpeedResult direct = estimate_prefill(s, p, 4096, 0);
            const SpeedResult& memoised = estimate_prefill(s, p, 4096, 0, memo);
            ++calls;
            if (round == 1) ++expected_hits;
            CHECK(result_diff(direct, memoised).empty());
        }
        CHECK(result_diff(estimate_prefill(s, other, 4096, 0), estimate_prefill(s, other, 4096, 0, memo)).empty());
        CHECK(result_diff(estimate_prefill(s, p, 3000, 0), estimate_prefill(s, p, 3000, 0, memo)).empty());
        CHECK(result_diff(estimate_prefill(s, p, 3000, 7), estimate_prefill(s, p, 3000, 7, memo)).empty());
        calls += 3;
    }
    CHECK(memo.hits == expected_hits);
    CHECK(memo.hits + memo.misses == calls);
}

TEST_CASE("same_scenario notices a change in any field it compares") {
    const SpeedScenario base = sample_scenarios().front();
    CHECK(same_scenario(base, base));
    std::vector<SpeedScenario> changed(8, base);
    changed[0].weight_bytes += 1;
    changed[1].offload_fraction = 0.5;
    changed[2].flash_attn = !base.flash_attn;
    changed[3].ubatch += 1;
    changed[4].gpus += 1;
    changed[5].parallel += 1;
    changed[6].fp16_tflops *= 2;
    changed[7].memory = base.memory == MemoryKind::Hbm ? MemoryKind::Gddr : MemoryKind::Hbm;
    for (const SpeedScenario& c : changed) CHECK_FALSE(same_scenario(base, c));
}

TEST_CASE("evaluate with a prefill memo equals evaluate without, over the sweep's contexts") {
    const Catalog& cat = catalog();
    const int64_t contexts[] = {4096, 8192, 32768, 131072};
    PrefillMemo memo;
    size_t compared = 0;
    for (size_t mi = 0; mi < cat.models.size(); mi += 3)
        for (size_t hi = 0; hi < cat.hardware.size(); hi += 3)
            for (int64_t c : contexts) {
                SimRequest req;
                req.memory.file_type = "Q4_K_M";
                req.memory.hardware = &cat.hardware[hi];
                req.memory.n_ctx = c;
                Evaluation plain, memoised;
                std::string e1, e2;
                const bool ok1 = evaluate(cat, cat.models[mi], req, plain, e1);
                req.prefill_memo = &memo;
                const bool ok2 = evaluate(cat, cat.models[mi], req, memoised, e2);
                REQUIRE(ok1 == ok2);
                const std::string d = view_diff(plain.speed, memoised.speed);
                INFO(cat.models[mi].id << " on " << cat.hardware[hi].id << " ctx " << c << ": " << d);
                CHECK(d.empty());
                ++compared;
            }
    CHECK(compared > 3000);
    CHECK(memo.hits > 0);   // the contexts of one device share the prompt's prefill
}
