// Device profiles (device_profile.h): the factor is the median measured/predicted ratio of the user's rows, it
// applies to every estimate for that device and no other, the band narrows only with enough rows, and a
// profile file that is wrong is refused with a message.
#include <catch2/catch.hpp>

#include "speed/device_profile.h"
#include "sim/simulate.h"
#include "speed/speed_glue.h"
#include "speed/speed_labels.h"
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

TEST_CASE("device profile: median ratio, applied to other models on that device only", "[device_profile]") {
    const Model* m = cat().find_model("Qwen/Qwen2.5-7B-Instruct");
    const Hardware* hw = cat().find_hardware("rtx-4090");
    REQUIRE(m);
    REQUIRE(hw);
    Evaluation base = eval_on("Qwen/Qwen2.5-7B-Instruct", "rtx-4090", nullptr);
    // decode measured at 0.80, 0.82, 0.78 of the prediction -> median 0.80; prefill 1.2 x
    auto rows = rows_at(base, *m, *hw, {0.80, 0.82, 0.78}, {1.2});
    DeviceProfile prof;
    std::string err;
    REQUIRE(fit_device_profile(rows, default_speed_params(), *hw, prof, err));
    CHECK(prof.hardware_id == "rtx-4090");
    CHECK(prof.decode.rows == 3);
    CHECK(prof.prefill.rows == 1);
    CHECK(prof.decode.factor == Approx(0.80).epsilon(1e-6));
    CHECK(prof.prefill.factor == Approx(1.2).epsilon(1e-6));
    CHECK(prof.decode.band_scale == 1.0);   // fewer than 5 rows: the class band stays
    CHECK(calibrated_label(prof) == "calibrated on your 4 rows (decode x0.80, prefill x1.20)");

    // another model on the same device: every decode number x0.80, prefill x1.2, marked
    Evaluation plain = eval_on("meta-llama/Llama-3.1-8B-Instruct", "rtx-4090", nullptr);
    Evaluation cal = eval_on("meta-llama/Llama-3.1-8B-Instruct", "rtx-4090", &prof);
    CHECK(cal.speed.decode_tps == Approx(plain.speed.decode_tps * 0.80));
    CHECK(cal.speed.decode_empty_tps == Approx(plain.speed.decode_empty_tps * 0.80));
    CHECK(cal.speed.decode_full_tps == Approx(plain.speed.decode_full_tps * 0.80));
    CHECK(cal.speed.prefill_tps == Approx(plain.speed.prefill_tps * 1.2));
    CHECK(cal.speed.ttft_s == Approx(plain.speed.ttft_s / 1.2));
    CHECK(cal.speed.calibrated == calibrated_label(prof));
    CHECK(plain.speed.calibrated.empty());
    // ... and nothing on another device
    Evaluation other = eval_on("meta-llama/Llama-3.1-8B-Instruct", "rtx-3090", &prof);
    Evaluation other_plain = eval_on("meta-llama/Llama-3.1-8B-Instruct", "rtx-3090", nullptr);
    CHECK(other.speed.decode_tps == other_plain.speed.decode_tps);
    CHECK(other.speed.calibrated.empty());
}

TEST_CASE("device profile: the band narrows only as far as the residuals allow", "[device_profile]") {
    const Model* m = cat().find_model("Qwen/Qwen2.5-7B-Instruct");
    const Hardware* hw = cat().find_hardware("rtx-4090");
    Evaluation base = eval_on("Qwen/Qwen2.5-7B-Instruct", "rtx-4090", nullptr);
    DeviceProfile tight, loose;
    std::string err;
    REQUIRE(fit_device_profile(rows_at(base, *m, *hw, {0.90, 0.90, 0.90, 0.90, 0.90, 0.90}, {}), default_speed_params(), *hw, tight, err));
    REQUIRE(fit_device_profile(rows_at(base, *m, *hw, {0.5, 0.9, 1.4, 0.7, 1.2, 0.9}, {}), default_speed_params(), *hw, loose, err));
    CHECK(tight.decode.band_scale == 0.5);   // perfectly consistent rows: narrowed to the floor, never below
    CHECK(loose.decode.band_scale == 1.0);   // scattered rows: the class band stays
    CHECK(tight.prefill.rows == 0);
    SpeedResult r;
    r.ok = true; r.tokens_per_s = 100; r.low = 80; r.high = 125;
    apply_device_profile(tight, SpeedTest::Decode, r);
    CHECK(r.tokens_per_s == Approx(90));
    CHECK(r.low == Approx(90 * std::sqrt(0.8)));
    CHECK(r.high == Approx(90 * std::sqrt(1.25)));
    SpeedResult p;
    p.ok = true; p.tokens_per_s = 1000; p.low = 800; p.high = 1200;
    apply_device_profile(tight, SpeedTest::Prefill, p);   // no prefill rows: untouched
    CHECK(p.tokens_per_s == 1000);
    CHECK(p.low == 800);
}

TEST_CASE("device profile: file round trip and refused files", "[device_profile]") {
    DeviceProfile p;
    p.hardware_id = "rtx-4090";
    p.hardware_name = "NVIDIA GeForce RTX 4090";
    p.decode.rows = 6; p.decode.factor = 0.93; p.decode.band_scale = 0.7;
    p.models = {"Qwen/Qwen2.5-7B-Instruct"};
    DeviceProfile q;
    std::string err;
    REQUIRE(parse_device_profile(device_profile_to_json(p), q, err));
    CHECK(q.hardware_id == "rtx-4090");
    CHECK(q.decode.factor == 0.93);
    CHECK(q.decode.band_scale == 0.7);
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
