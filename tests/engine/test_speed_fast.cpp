// The sweep's shortcuts in the speed model against the plain calls they replace, bit for bit, on a spread of the
// catalog: estimate_decode_depths() (position-independent decode terms computed once) vs one estimate_decode() per
// depth. A device's contexts sharing the scenario and prefill: test_evaluate_contexts.cpp.
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
    if (a.bound != b.bound) return "bound";
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
