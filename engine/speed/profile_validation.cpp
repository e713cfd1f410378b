// Held-out check of device profiles (profile_validation.h).
#include "speed/profile_validation.h"

#include <algorithm>
#include <cmath>
#include <map>

#include <nlohmann/json.hpp>

#include "speed/device_profile.h"
#include "core/format.h"
#include "api/predict.h"

namespace llmsim {

namespace {

struct Row {
    std::string device, model;
    Hardware hw;
    SpeedScenario scenario;
    double measured = 0;
    bool moe = false;
};

struct Acc {
    std::vector<double> err;   // |pred/meas - 1|
    int inside = 0;
    void add(const SpeedResult& r, double measured) {
        err.push_back(std::fabs(r.tokens_per_s / measured - 1));
        inside += measured >= r.low && measured <= r.high;
    }
    HoldoutStats stats() const {
        HoldoutStats s;
        s.rows = (int)err.size();
        if (err.empty()) return s;
        std::vector<double> v = err;
        std::sort(v.begin(), v.end());
        const size_t n = v.size();
        s.mdape = n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
        s.within25 = (double)std::count_if(v.begin(), v.end(), [](double e) { return e <= 0.25; }) / (double)n;
        s.coverage = (double)inside / (double)n;
        return s;
    }
};

}  // namespace

bool profile_holdout(const Catalog& cat, const std::string& jsonl, const SpeedParams& params, HoldoutReport& out, std::string& err) {
    out = HoldoutReport();
    std::vector<Row> rows;
    size_t pos = 0;
    while (pos < jsonl.size()) {
        size_t nl = jsonl.find('\n', pos);
        if (nl == std::string::npos) nl = jsonl.size();
        const std::string line = jsonl.substr(pos, nl - pos);
        pos = nl + 1;
        if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
        ++out.input_rows;
        const nlohmann::json j = nlohmann::json::parse(line, nullptr, false);
        PredictInput p;
        std::string e;
        if (j.is_discarded() || !j.is_object() || !j.contains("measured_tokens_per_s") || !j["measured_tokens_per_s"].is_number() ||
            !parse_predict_input(cat, j, p, e)) { ++out.unusable_rows; continue; }
        Row r;
        r.device = p.device + " x" + std::to_string(std::max(1, p.hardware.gpu_count));   // a 2x rig is another device
        r.model = j.value("model", p.model.id) + " " + p.quant;   // a model at one quant: what a user benchmarks
        r.hw = p.hardware;
        r.scenario = p.scenario;
        r.measured = j["measured_tokens_per_s"].get<double>();
        r.moe = p.model.is_moe();
        if (!(r.measured > 0)) { ++out.unusable_rows; continue; }
        rows.push_back(std::move(r));
    }
    std::map<std::string, std::map<std::string, std::vector<const Row*>>> by_device;   // device -> model -> rows
    for (const Row& r : rows) by_device[r.device][r.model].push_back(&r);
    Acc before[2], after[2], same_before[2], same_after[2];
    for (const auto& [device, models] : by_device) {
        if (models.size() < 2) continue;
        ++out.devices;
        for (const auto& [cal_model, cal_rows] : models) {
            std::vector<ProfileSample> samples;
            for (const Row* r : cal_rows) samples.push_back({r->scenario, r->measured, cal_model, ""});
            DeviceProfile prof;
            std::string e;
            if (!fit_device_profile(samples, params, cal_rows.front()->hw, prof, e)) continue;
            ++out.splits;
            for (const auto& [model, test_rows] : models) {
                if (model == cal_model) continue;
                for (const Row* r : test_rows) {
                    SpeedResult pr = estimate_speed(r->scenario, params);
                    if (!pr.ok || !(pr.tokens_per_s > 0)) continue;
                    const int k = r->scenario.test == SpeedTest::Decode ? 0 : 1;
                    const SpeedResult cal = estimate_with_profile(prof, r->scenario, params);
                    before[k].add(pr, r->measured);
                    after[k].add(cal, r->measured);
                    if (r->moe == cal_rows.front()->moe) { same_before[k].add(pr, r->measured); same_after[k].add(cal, r->measured); }
                }
            }
        }
    }
    if (out.splits == 0) { err = "no device has measured rows of two models: nothing to hold out"; return false; }
    for (int k = 0; k < 2; ++k) {
        out.before[k] = before[k].stats(); out.after[k] = after[k].stats();
        out.same_kind_before[k] = same_before[k].stats(); out.same_kind_after[k] = same_after[k].stats();
    }
    return true;
}

std::string format_holdout(const HoldoutReport& r) {
    auto pct = [](double x) { return format_fixed(100 * x, 1) + " %"; };
    std::string s = "Device profile, held out by model: calibrate on one model's rows of a device, score the other models'\n"
                    "rows on that device (" + std::to_string(r.devices) + " devices with >= 2 models, " + std::to_string(r.splits) +
                    " calibration splits; " + std::to_string(r.input_rows) + " input rows, " + std::to_string(r.unusable_rows) +
                    " unusable)\n\n| Kind | Scored rows | MdAPE without | MdAPE with | ±25 % without | ±25 % with | Band coverage without | with |\n"
                    "|---|---|---|---|---|---|---|---|\n";
    const char* names[2] = {"decode", "prefill"};
    auto line = [&](const std::string& name, const HoldoutStats& b, const HoldoutStats& a) {
        return "| " + name + " | " + std::to_string(b.rows) + " | " + pct(b.mdape) + " | " + pct(a.mdape) + " | " + pct(b.within25) +
               " | " + pct(a.within25) + " | " + pct(b.coverage) + " | " + pct(a.coverage) + " |\n";
    };
    for (int k = 0; k < 2; ++k) s += line(names[k], r.before[k], r.after[k]);
    for (int k = 0; k < 2; ++k)
        s += line(std::string(names[k]) + ", same model kind (dense/MoE) as the calibration model", r.same_kind_before[k], r.same_kind_after[k]);
    return s;
}

}  // namespace llmsim
