// Device profiles (device_profile.h): the factor is the user's mean log ratio shrunk by the prior's weight
// n tau^2 / (n tau^2 + sigma^2), it applies to every estimate for that device and no other, the band narrows to the
// posterior's predictive spread, and a profile or prior that is wrong is refused with a message.
#include <catch2/catch.hpp>

#include "speed/device_profile.h"
#include "sim/simulate.h"
#include "runtime/speed_glue.h"
#include "sim/speed_labels.h"
#include "test_support.h"

using namespace llmsim;

namespace {
Evaluation eval_on(const char* model, const char* hw, const DeviceProfile* prof, int64_t ctx = 32768) {
    const Model* m = cat().find_model(model);
    REQUIRE(m);
    SimRequest req;
    req.memory.file_type = "Q4_K_M";
    req.memory.n_ctx = ctx;
    req.memory.hardware = cat().find_hardware(hw);
    REQUIRE(req.memory.hardware);
    req.device_profile = prof;
    Evaluation ev;
    std::string err;
    REQUIRE(evaluate(cat(), *m, req, ev, err));
    REQUIRE(ev.speed.ok);
    return ev;
}
// rows of one model on a device, "measured" at the given multiples of the plain prediction
std::vector<ProfileSample> rows_at(const Evaluation& ev, const Model& m, const Hardware& hw, const std::vector<double>& dec,
                                   const std::vector<double>& pre) {
    SimRequest req;
    req.memory.file_type = "Q4_K_M";
    req.memory.hardware = &hw;
    SpeedScenario s;
    std::string err;
    REQUIRE(build_speed_scenario(m, req, ev, s, err));
    std::vector<ProfileSample> out;
    for (size_t i = 0; i < dec.size() + pre.size(); ++i) {
        SpeedScenario t = s;
        const bool d = i < dec.size();
        t.test = d ? SpeedTest::Decode : SpeedTest::Prefill;
        t.tokens = d ? 128 : 512;
        t.depth = (int64_t)(i % 4) * 4096;
        const double plain = estimate_speed(t, default_speed_params()).tokens_per_s;
        out.push_back({t, plain * (d ? dec[i] : pre[i - dec.size()]), m.id, d ? "tg128" : "pp512"});
    }
    return out;
}
}  // namespace

namespace {
// a hand-set prior (not the fitted one) so that the expected numbers follow from the formula alone
ProfilePrior hand_prior() {
    ProfilePrior hp;
    hp.fitted = true;
    for (ProfilePriorKind* k : {&hp.unseen[0], &hp.unseen[1], &hp.seen[0], &hp.seen[1]}) k->tau2[kHardwareKindCount] = 0.04;
    hp.unseen[0].sigma2 = 0.01;   // decode: w = 0.04 / (0.04 + 0.01) = 0.8 for one model
    hp.unseen[1].sigma2 = 0.04;   // prefill: w = 0.5
    hp.seen[0].tau2[kHardwareKindCount] = hp.seen[1].tau2[kHardwareKindCount] = 1e-4;   // a device the fit saw
    hp.seen[0].sigma2 = hp.seen[1].sigma2 = 0.01;
    return hp;
}
}  // namespace

TEST_CASE("device profile: shrunk mean ratio, applied to other models on that device only", "[device_profile]") {
    const Model* m = cat().find_model("Qwen/Qwen2.5-7B-Instruct");
    const Hardware* hw = cat().find_hardware("rtx-4090");
    REQUIRE(m);
    REQUIRE(hw);
    Evaluation base = eval_on("Qwen/Qwen2.5-7B-Instruct", "rtx-4090", nullptr);
    // decode measured at 0.80, 0.82, 0.78 of the prediction; prefill 1.2 x; one model
    auto rows = rows_at(base, *m, *hw, {0.80, 0.82, 0.78}, {1.2});
    const ProfilePrior hp = hand_prior();
    DeviceProfile prof;
    std::string err;
    REQUIRE(fit_device_profile(rows, default_speed_params(), *hw, hp, prof, err));
    CHECK(prof.hardware_id == "rtx-4090");
    CHECK_FALSE(prof.seen_by_fit);   // the hand prior lists no device
    CHECK(prof.decode.rows == 3);
    CHECK(prof.decode.models == 1);
    CHECK(prof.prefill.rows == 1);
    // w = n tau^2 / (n tau^2 + sigma^2) on the mean log ratio (eps2 = 0: the rows of one model add nothing)
    const double y = (std::log(0.80) + std::log(0.82) + std::log(0.78)) / 3;
    CHECK(prof.decode.raw == Approx(std::exp(y)).epsilon(1e-9));
    CHECK(prof.decode.weight == Approx(0.8).epsilon(1e-9));
    CHECK(prof.decode.factor == Approx(std::exp(0.8 * y)).epsilon(1e-9));
    CHECK(prof.prefill.weight == Approx(0.5).epsilon(1e-9));
    CHECK(prof.prefill.factor == Approx(std::sqrt(1.2)).epsilon(1e-9));
    // band: predictive variance with the posterior (tau^2 (1 - w) + sigma^2) over without (tau^2 + sigma^2)
    CHECK(prof.decode.band_scale == Approx(std::sqrt((0.04 * 0.2 + 0.01) / 0.05)).epsilon(1e-9));
    // no dense/MoE correlation in the prior: a dense-only profile leaves MoE models alone
    CHECK(prof.decode.factor_moe == 1.0);
    CHECK(prof.decode.band_scale_moe == 1.0);
    CHECK(calibrated_label(prof) ==
          "calibrated on your 4 rows (decode x0.84, weight 0.80 from 1 model; prefill x1.10, weight 0.50 from 1 model)");

    // another model on the same device: every decode number x factor, prefill too, marked
    Evaluation plain = eval_on("meta-llama/Llama-3.1-8B-Instruct", "rtx-4090", nullptr);
    Evaluation cal = eval_on("meta-llama/Llama-3.1-8B-Instruct", "rtx-4090", &prof);
    const double fd = prof.decode.factor, fp = prof.prefill.factor;
    CHECK(cal.speed.decode_tps == Approx(plain.speed.decode_tps * fd));
    CHECK(cal.speed.decode_empty_tps == Approx(plain.speed.decode_empty_tps * fd));
    CHECK(cal.speed.decode_full_tps == Approx(plain.speed.decode_full_tps * fd));
    CHECK(cal.speed.prefill_tps == Approx(plain.speed.prefill_tps * fp));
    CHECK(cal.speed.ttft_s == Approx(plain.speed.ttft_s / fp));
    CHECK(cal.speed.calibrated == calibrated_label(prof));
    CHECK(plain.speed.calibrated.empty());
    // ... and nothing on another device
    Evaluation other = eval_on("meta-llama/Llama-3.1-8B-Instruct", "rtx-3090", &prof);
    Evaluation other_plain = eval_on("meta-llama/Llama-3.1-8B-Instruct", "rtx-3090", nullptr);
    CHECK(other.speed.decode_tps == other_plain.speed.decode_tps);
    CHECK(other.speed.calibrated.empty());

    // a device the speed fit saw (its name in the prior's list): its small in-sample tau^2 keeps the factor near 1
    ProfilePrior seen = hp;
    seen.seen_devices = {"nvidia geforce rtx 4090"};
    DeviceProfile ps;
    REQUIRE(fit_device_profile(rows, default_speed_params(), *hw, seen, ps, err));
    CHECK(ps.seen_by_fit);
    CHECK(ps.decode.weight == Approx(1e-4 / (1e-4 + 0.01)).epsilon(1e-9));
    // no prior at all (unfitted): the rows at full weight, the class band kept
    DeviceProfile pf;
    REQUIRE(fit_device_profile(rows, default_speed_params(), *hw, ProfilePrior(), pf, err));
    CHECK(pf.decode.factor == Approx(std::exp(y)).epsilon(1e-9));
    CHECK(pf.decode.band_scale == 1.0);
}

TEST_CASE("device profile: more models, more weight; dense and MoE through their correlation", "[device_profile]") {
    ProfilePriorKind k;
    k.tau2[kHardwareKindCount] = 0.04;
    k.sigma2 = 0.01;
    k.tau2_moe = 0.09;
    k.rho = 0.5;
    ProfileFactor one, two, moe_only;
    fit_profile_factor({{"a", false, {-0.2}}}, &k, HardwareKind::Consumer, one);
    fit_profile_factor({{"a", false, {-0.2}}, {"b", false, {-0.1}}}, &k, HardwareKind::Consumer, two);
    CHECK(one.weight == Approx(0.04 / 0.05));
    CHECK(two.weight == Approx(2 * 0.04 / (2 * 0.04 + 0.01)));   // n tau^2 / (n tau^2 + sigma^2), n = 2 models
    CHECK(two.factor == Approx(std::exp(two.weight * -0.15)));
    CHECK(two.band_scale < one.band_scale);
    // a MoE model from a dense profile: cov(b_moe, b_dense) / var(observed dense mean) = rho sqrt(0.04 x 0.09) / 0.05
    CHECK(one.weight_moe == Approx(0.5 * 0.06 / 0.05));
    CHECK(one.factor_moe == Approx(std::exp(0.5 * 0.06 / 0.05 * -0.2)));
    // a MoE-only profile: its own tau^2 for MoE models
    fit_profile_factor({{"m", true, {0.3}}}, &k, HardwareKind::Consumer, moe_only);
    CHECK(moe_only.moe_models == 1);
    CHECK(moe_only.weight_moe == Approx(0.09 / 0.10));
    CHECK(moe_only.weight == Approx(0.5 * 0.06 / 0.10));
    SpeedResult r;
    r.ok = true; r.tokens_per_s = 100; r.low = 80; r.high = 125;
    DeviceProfile p;
    p.decode = one;
    apply_device_profile(p, SpeedTest::Decode, r);
    CHECK(r.tokens_per_s == Approx(100 * one.factor));
    CHECK(r.low == Approx(100 * one.factor * std::pow(0.8, one.band_scale)));
    CHECK(r.high == Approx(100 * one.factor * std::pow(1.25, one.band_scale)));
    SpeedResult rm;
    rm.ok = true; rm.tokens_per_s = 100; rm.low = 80; rm.high = 125;
    apply_device_profile(p, SpeedTest::Decode, rm, true);   // a MoE model: the MoE factor
    CHECK(rm.tokens_per_s == Approx(100 * one.factor_moe));
    SpeedResult pre;
    pre.ok = true; pre.tokens_per_s = 1000; pre.low = 800; pre.high = 1200;
    apply_device_profile(p, SpeedTest::Prefill, pre);   // no prefill rows: untouched
    CHECK(pre.tokens_per_s == 1000);
    CHECK(pre.low == 800);
}

TEST_CASE("device profile prior: the embedded one is fitted, round trips, bad values refused", "[device_profile]") {
    const ProfilePrior& d = default_profile_prior();
    REQUIRE(d.fitted);
    CHECK(d.unseen[0].multi_model_groups >= 10);
    CHECK(d.unseen[0].tau2[kHardwareKindCount] > 0);
    CHECK(d.unseen[1].sigma2 > 0);
    CHECK(device_seen_by_fit(d, *cat().find_hardware("rtx-4090")));
    Hardware inline_hw;
    inline_hw.id = "custom";
    inline_hw.name = "My lab GPU";
    CHECK_FALSE(device_seen_by_fit(d, inline_hw));
    std::string merged, err;
    REQUIRE(merge_profile_prior(R"({"decode": {"kv_factor": 1.3}})", d, merged, err));
    ProfilePrior q;
    REQUIRE(parse_profile_prior(merged, q, err));
    CHECK(q.fitted);
    CHECK(q.unseen[1].sigma2 == Approx(d.unseen[1].sigma2));
    CHECK(q.seen[0].tau2[kHardwareKindCount] == Approx(d.seen[0].tau2[kHardwareKindCount]));
    CHECK(q.seen_devices == d.seen_devices);
    CHECK(merged.find("\"kv_factor\": 1.3") != std::string::npos);   // the rest of the file kept
    REQUIRE(parse_profile_prior("{}", q, err));
    CHECK_FALSE(q.fitted);   // no prior: profiles at full weight
    std::string bad = merged;
    bad.replace(bad.find("\"sigma2\": "), 10, "\"sigma2\": -");
    CHECK_FALSE(parse_profile_prior(bad, q, err));
    CHECK(err.find("sigma2 must be a number from 0 to 10") != std::string::npos);
    CHECK_FALSE(merge_profile_prior("[1]", d, merged, err));
}

TEST_CASE("device profile: file round trip and refused files", "[device_profile]") {
    DeviceProfile p;
    p.hardware_id = "rtx-4090";
    p.hardware_name = "NVIDIA GeForce RTX 4090";
    p.decode.rows = 6; p.decode.factor = 0.93; p.decode.band_scale = 0.7;
    p.decode.factor_moe = 0.97; p.decode.weight = 0.6; p.decode.weight_moe = 0.3; p.decode.models = 2;
    p.models = {"Qwen/Qwen2.5-7B-Instruct"};
    DeviceProfile q;
    std::string err;
    REQUIRE(parse_device_profile(device_profile_to_json(p), q, err));
    CHECK(q.hardware_id == "rtx-4090");
    CHECK(q.decode.factor == 0.93);
    CHECK(q.decode.band_scale == 0.7);
    CHECK(q.decode.factor_moe == 0.97);
    CHECK(q.decode.weight == 0.6);
    CHECK(q.decode.models == 2);
    CHECK(q.prefill.rows == 0);
    CHECK(q.models == p.models);
    auto refused = [](const std::string& text) {
        DeviceProfile x;
        std::string e;
        CHECK_FALSE(parse_device_profile(text, x, e));
        return e;
    };
    CHECK(refused("not json").find("not a JSON object") != std::string::npos);
    CHECK(refused("{}").find("llmsim-device-profile/1") != std::string::npos);
    CHECK(refused(R"({"format":"llmsim-device-profile/1"})").find("\"hardware\"") != std::string::npos);
    CHECK(refused(R"({"format":"llmsim-device-profile/1","hardware":"rtx-4090","decode":{"rows":3,"factor":500,"band_scale":1}})")
              .find("decode\".factor must be a number from 0.05 to 20") != std::string::npos);
    CHECK(refused(R"({"format":"llmsim-device-profile/1","hardware":"rtx-4090","decode":{"rows":3,"factor":1,"band_scale":0.01}})")
              .find("band_scale") != std::string::npos);
    CHECK(refused(R"({"format":"llmsim-device-profile/1","hardware":"rtx-4090"})").find("no rows") != std::string::npos);
}

TEST_CASE("decode labels: one set of words for every place a decode number appears", "[labels]") {
    Evaluation ev = eval_on("Qwen/Qwen2.5-7B-Instruct", "rtx-4090", nullptr);
    CHECK(ev.speed.decode_full_depth == 32768);
    CHECK(ev.speed.decode_depth == 4096);
    // the range a user lives through: empty context faster than 4k, faster than the full 32k
    CHECK(ev.speed.decode_empty_tps > ev.speed.decode_tps);
    CHECK(ev.speed.decode_tps > ev.speed.decode_full_tps);
    CHECK(decode_label(0) == "decode at empty context");
    CHECK(decode_label(32768) == "decode at 32k context");
    CHECK(prefill_label(4096, true) == "prefill of a 4k prompt, flash attention on");
    const std::string range = decode_range_text(ev.speed);
    CHECK(range.find(" tok/s (empty → 32k context)") != std::string::npos);
    SimRequest req;
    req.memory.file_type = "Q4_K_M";
    req.memory.n_ctx = 32768;
    req.prompt_tokens = 4096;
    CHECK(llama_bench_command(*cat().find_model("Qwen/Qwen2.5-7B-Instruct"), req) ==
          "llama-bench -m Qwen2.5-7B-Instruct-Q4_K_M.gguf -p 4096 -n 128 -d 0,32768 -fa 1 -ngl 99");
}
