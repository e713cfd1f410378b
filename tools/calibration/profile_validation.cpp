// Held-out check of device profiles (profile_validation.h).
#include "calibration/profile_validation.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <map>
#include <set>

#include <nlohmann/json.hpp>

#include "speed/device_profile.h"
#include "core/format.h"
#include "core/text.h"
#include "api/predict.h"
#include "core/stats.h"

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
        const size_t n = err.size();
        s.mdape = median(err);
        s.within25 = (double)std::count_if(err.begin(), err.end(), [](double e) { return e <= 0.25; }) / (double)n;
        s.coverage = (double)inside / (double)n;
        return s;
    }
};

constexpr int kMinClassGroups = 4;   // fewer setups of a class than this: its tau2 is the all-class one
constexpr int kMinMixedGroups = 3;   // fewer setups with dense and MoE models: rho = 0 (a profile stays with its kind)

struct Resid {
    std::string setup, model;
    int t = 0;                       // 0 dense, 1 MoE
    int cls = 0;                     // HardwareKind index
    double lr = 0;                   // log(measured / predicted)
};

double mean_of(const std::vector<double>& v) {
    double s = 0;
    for (double x : v) s += x;
    return v.empty() ? 0 : s / (double)v.size();
}

// moments on one kind's residuals, prior mean 0 (the shared fit is the prior), from setups with >= 2 models (one-way
// random effects): tau2 = the covariance of two different models' mean residuals on one setup (mean cross product:
// what one model's error says about another's on that device; in-sample a fit that absorbed a device leaves its
// models' errors anti-correlated, and tau2 comes out near 0), sigma2 = their mean square minus tau2 and the row
// noise, eps2 = rows around their model's mean. Model means are clipped at 3 robust sd first (a few setups off by
// 3x: MoE prefill, one publication's odd build) so that they do not set the spread of all the others.
ProfilePriorKind prior_kind(const std::vector<Resid>& v) {
    ProfilePriorKind k;
    // setup -> model -> residuals, and each model's kind
    std::map<std::string, std::map<std::string, std::vector<double>>> setups;
    std::map<std::string, int> setup_cls, model_t;
    for (const Resid& r : v) {
        setups[r.setup][r.model].push_back(r.lr);
        setup_cls[r.setup] = r.cls;
        model_t[r.setup + "|" + r.model] = r.t;
    }
    k.groups = (int)setups.size();
    double ss_e = 0, df_e = 0, inv_n_sum = 0, inv_n_cnt = 0;
    std::vector<double> abs_means;
    for (const auto& [u, models] : setups)
        for (const auto& [m, lr] : models) {
            if (models.size() < 2) continue;   // the setups below only (calibrate's folds and --fit-prior agree)
            const double ym = mean_of(lr);
            abs_means.push_back(std::fabs(ym));
            for (double x : lr) ss_e += (x - ym) * (x - ym);
            df_e += (double)lr.size() - 1;
        }
    k.eps2 = df_e > 0 ? ss_e / df_e : 0;
    std::sort(abs_means.begin(), abs_means.end());
    const double clip = abs_means.empty() ? 0 : 3 * 1.4826 * abs_means[abs_means.size() / 2];
    // per setup: sums of cross products of different models (dense-dense [0], MoE-MoE [1], dense-MoE [2]) and squares
    double cross_sum[kHardwareKindCount + 3] = {}, cross_n[kHardwareKindCount + 3] = {};   // [cls], [all], [moe], [mixed]
    const int kAll = kHardwareKindCount, kMoe = kHardwareKindCount + 1, kMixed = kHardwareKindCount + 2;
    double sq_sum = 0, sq_n = 0;
    for (const auto& [u, models] : setups) {
        if (models.size() < 2) continue;
        ++k.multi_model_groups;
        std::vector<std::pair<double, int>> ym;   // clipped mean, kind
        for (const auto& [m, lr] : models) {
            ym.push_back({std::clamp(mean_of(lr), -clip, clip), model_t[u + "|" + m]});
            inv_n_sum += 1.0 / (double)lr.size();
            inv_n_cnt += 1;
        }
        double c[3] = {0, 0, 0}, n[3] = {0, 0, 0}, sq = 0;
        for (size_t i = 0; i < ym.size(); ++i) {
            sq += ym[i].first * ym[i].first;
            for (size_t j = i + 1; j < ym.size(); ++j) {
                const int slot = ym[i].second == ym[j].second ? ym[i].second : 2;
                c[slot] += ym[i].first * ym[j].first;
                n[slot] += 1;
            }
        }
        sq_sum += sq / (double)ym.size();   // each setup weighs the same, however many models it has
        sq_n += 1;
        if (n[0] > 0) for (int s : {setup_cls[u], kAll}) { cross_sum[s] += c[0] / n[0]; cross_n[s] += 1; }
        if (n[1] > 0) { cross_sum[kMoe] += c[1] / n[1]; cross_n[kMoe] += 1; }
        if (n[2] > 0) { cross_sum[kMixed] += c[2] / n[2]; cross_n[kMixed] += 1; ++k.mixed_groups; }
    }
    auto cov = [&](int s, int min_n) { return cross_n[s] >= min_n ? std::max(1e-4, cross_sum[s] / cross_n[s]) : 0.0; };
    for (int c = 0; c <= kAll; ++c) k.tau2[c] = cov(c, c < kAll ? kMinClassGroups : 1);
    k.tau2_moe = cov(kMoe, kMinClassGroups);
    const double inv_n = inv_n_cnt > 0 ? inv_n_sum / inv_n_cnt : 1;
    k.sigma2 = sq_n > 0 ? std::max(0.0, sq_sum / sq_n - k.tau2[kAll] - k.eps2 * inv_n) : 0;
    const double tau_m = k.tau2_moe > 0 ? k.tau2_moe : k.tau2[kAll];
    if (cross_n[kMixed] >= kMinMixedGroups && k.tau2[kAll] > 0)
        k.rho = std::clamp(cross_sum[kMixed] / cross_n[kMixed] / std::sqrt(k.tau2[kAll] * tau_m), 0.0, 1.0);
    return k;
}

std::string model_key(const CalibrationRow& r) { return r.model + " " + r.quant; }   // what a user benchmarks

}  // namespace

// [SECTION] Prior ----------------------------------------------------------------------------------------

std::string profile_setup_key(const CalibrationRow& r) {
    return r.device + " x" + std::to_string(std::max(1, r.scenario.gpus)) + " | " + source_key(r.source);
}

ProfilePrior estimate_profile_prior(const std::vector<CalibrationRow>& rows, const std::vector<double>& heldout_tps,
                                    const std::vector<double>& insample_tps, const std::string& exclude_device) {
    ProfilePrior p;
    std::vector<Resid> un[2], in[2];
    std::set<std::string> seen;
    for (size_t i = 0; i < rows.size(); ++i) {
        const CalibrationRow& r = rows[i];
        if (r.device == exclude_device) continue;
        const std::string d = lower_ascii(r.hardware_name);
        seen.insert(d);
        const int k = r.scenario.test == SpeedTest::Decode ? 0 : 1;
        const Resid base{profile_setup_key(r), model_key(r), r.scenario.moe_experts > 0 ? 1 : 0, (int)r.kind, 0};
        if (i < heldout_tps.size() && heldout_tps[i] > 0) {
            un[k].push_back(base);
            un[k].back().lr = std::log(r.measured_tokens_per_s / heldout_tps[i]);
        }
        if (i < insample_tps.size() && insample_tps[i] > 0) {
            in[k].push_back(base);
            in[k].back().lr = std::log(r.measured_tokens_per_s / insample_tps[i]);
        }
    }
    for (int k = 0; k < 2; ++k) { p.unseen[k] = prior_kind(un[k]); p.seen[k] = prior_kind(in[k]); }
    p.seen_devices.assign(seen.begin(), seen.end());
    p.fitted = true;
    return p;
}

// [SECTION] Held-out report (refit) ----------------------------------------------------------------------

namespace {

struct Split {   // accumulators of one case
    Acc without[2], full[2], shrunk[2], o_without[2], o_full[2], o_shrunk[2];
    double weight_sum[2] = {0, 0};
    int weight_n[2] = {0, 0};
    std::set<std::string> setups;
    int splits = 0;
};

// calibrate on each model of each multi-model setup of `device`, score the setup's other rows (pred: the case's
// predictions), with the shrunk profile (prior) and at full weight
void score_device(const std::vector<CalibrationRow>& rows, const std::vector<double>& pred, const std::string& device,
                  const ProfilePriorKind prior[2], const SpeedParams& band_params, Split& acc) {
    std::map<std::string, std::map<std::string, std::vector<size_t>>> setups;   // setup -> model -> row indices
    for (size_t i = 0; i < rows.size(); ++i)
        if (rows[i].device == device && pred[i] > 0) setups[profile_setup_key(rows[i])][model_key(rows[i])].push_back(i);
    for (const auto& [setup, models] : setups) {
        if (models.size() < 2) continue;
        acc.setups.insert(setup);
        for (const auto& [cal_model, cal_rows] : models) {
            std::vector<ModelResiduals> mr[2];
            for (size_t i : cal_rows) {
                const int k = rows[i].scenario.test == SpeedTest::Decode ? 0 : 1;
                if (mr[k].empty()) mr[k].push_back({cal_model, rows[i].scenario.moe_experts > 0, {}});
                mr[k][0].log_ratio.push_back(std::log(rows[i].measured_tokens_per_s / pred[i]));
            }
            const bool cal_moe = rows[cal_rows.front()].scenario.moe_experts > 0;
            DeviceProfile shr, full;
            for (int k = 0; k < 2; ++k) {
                ProfileFactor& fs = k == 0 ? shr.decode : shr.prefill;
                fit_profile_factor(mr[k], &prior[k], rows[cal_rows.front()].kind, fs);
                fit_profile_factor(mr[k], nullptr, rows[cal_rows.front()].kind, k == 0 ? full.decode : full.prefill);
                if (fs.rows) { acc.weight_sum[k] += cal_moe ? fs.weight_moe : fs.weight; ++acc.weight_n[k]; }
            }
            ++acc.splits;
            for (const auto& [model, test_rows] : models) {
                if (model == cal_model) continue;
                for (size_t i : test_rows) {
                    const CalibrationRow& r = rows[i];
                    const int k = r.scenario.test == SpeedTest::Decode ? 0 : 1;
                    const bool moe = r.scenario.moe_experts > 0;
                    SpeedResult base;
                    base.ok = true;
                    base.tokens_per_s = pred[i];
                    base.fp16_tflops_estimated = r.scenario.fp16_tflops_estimated || !(r.scenario.fp16_tflops > 0);
                    apply_speed_band(base, band_params, r.scenario.test, r.scenario.kind);
                    SpeedResult a = base, b = base;
                    apply_device_profile(full, r.scenario.test, a, moe);
                    apply_device_profile(shr, r.scenario.test, b, moe);
                    const bool same = moe == cal_moe;
                    (same ? acc.without : acc.o_without)[k].add(base, r.measured_tokens_per_s);
                    (same ? acc.full : acc.o_full)[k].add(a, r.measured_tokens_per_s);
                    (same ? acc.shrunk : acc.o_shrunk)[k].add(b, r.measured_tokens_per_s);
                }
            }
        }
    }
}

ProfileHoldoutCase case_of(const Split& s) {
    ProfileHoldoutCase c;
    for (int k = 0; k < 2; ++k) {
        c.without[k] = s.without[k].stats();
        c.full_weight[k] = s.full[k].stats();
        c.shrunk[k] = s.shrunk[k].stats();
        c.other_kind_without[k] = s.o_without[k].stats();
        c.other_kind_full[k] = s.o_full[k].stats();
        c.other_kind_shrunk[k] = s.o_shrunk[k].stats();
        c.mean_weight[k] = s.weight_n[k] ? s.weight_sum[k] / s.weight_n[k] : 0;
    }
    c.setups = (int)s.setups.size();
    c.splits = s.splits;
    return c;
}

}  // namespace

namespace {

// the shipped fit's in-sample predictions of every row, and held-out ones (a fit without the row's device) for the
// rows of the devices with a multi-model setup (at most opt.max_devices, the most multi-model setups first)
bool heldout_predictions(const std::vector<CalibrationRow>& rows, const SpeedParams& shipped, const ProfileHoldoutOptions& opt,
                         std::vector<std::string>& devices, std::vector<double>& insample, std::vector<double>& heldout,
                         std::string& err) {
    insample.assign(rows.size(), 0.0);
    heldout.assign(rows.size(), 0.0);
    std::map<std::string, std::set<std::string>> setup_models;
    std::map<std::string, std::string> setup_device;
    for (size_t i = 0; i < rows.size(); ++i) {
        const SpeedResult r = estimate_speed(rows[i].scenario, shipped);
        insample[i] = r.ok ? r.tokens_per_s : 0;
        setup_models[profile_setup_key(rows[i])].insert(model_key(rows[i]));
        setup_device[profile_setup_key(rows[i])] = rows[i].device;
    }
    std::map<std::string, int> multi;   // device -> multi-model setups
    for (const auto& [setup, models] : setup_models)
        if (models.size() >= 2) ++multi[setup_device[setup]];
    std::vector<std::pair<int, std::string>> order;
    for (const auto& [d, n] : multi) order.push_back({-n, d});
    std::sort(order.begin(), order.end());
    if (opt.max_devices > 0 && (int)order.size() > opt.max_devices) order.resize((size_t)opt.max_devices);
    if (order.empty()) { err = "no setup (device x GPUs x publication) has measured rows of two models: nothing to hold out"; return false; }
    FitOptions fo = opt.fit;
    fo.from_priors = true;   // the accuracy command's held-out folds (calibrate.cpp validate)
    devices.clear();
    for (const auto& [neg, device] : order) {
        devices.push_back(device);
        std::vector<CalibrationRow> train;
        for (const CalibrationRow& r : rows) if (r.device != device) train.push_back(r);
        const SpeedParams p = fit_speed_params(train, shipped, fo);
        for (size_t i = 0; i < rows.size(); ++i)
            if (rows[i].device == device) {
                const SpeedResult r = estimate_speed(rows[i].scenario, p);
                heldout[i] = r.ok ? r.tokens_per_s : 0;
            }
    }
    return true;
}

}  // namespace

bool fit_profile_prior(const std::vector<CalibrationRow>& rows, const SpeedParams& shipped, const ProfileHoldoutOptions& opt,
                       ProfilePrior& out, std::string& err) {
    std::vector<std::string> devices;
    std::vector<double> insample, heldout;
    if (!heldout_predictions(rows, shipped, opt, devices, insample, heldout, err)) return false;
    out = estimate_profile_prior(rows, heldout, insample);
    out.source = std::to_string(rows.size()) + " calibration rows; held out: " + std::to_string(devices.size()) +
                 " devices with a multi-model setup refit without their rows (fit_speed_params from the priors); seen: "
                 "the given fit in-sample (engine/speed/profile_validation.cpp estimate_profile_prior)";
    return true;
}

bool profile_holdout_refit(const std::vector<CalibrationRow>& rows, const SpeedParams& shipped,
                           const ProfileHoldoutOptions& opt, ProfileHoldoutReport& out, std::string& err) {
    const auto t0 = std::chrono::steady_clock::now();
    out = ProfileHoldoutReport();
    out.rows = (int)rows.size();
    std::vector<std::string> order;
    std::vector<double> insample, heldout;
    if (!heldout_predictions(rows, shipped, opt, order, insample, heldout, err)) return false;
    out.devices_refit = (int)order.size();
    Split unseen, seen;
    for (const std::string& device : order) {
        // the prior for this device from the other devices only (its own rows would tell it its answer)
        const ProfilePrior prior = estimate_profile_prior(rows, heldout, insample, device);
        score_device(rows, heldout, device, prior.unseen, shipped, unseen);
        score_device(rows, insample, device, prior.seen, shipped, seen);
    }
    out.unseen = case_of(unseen);
    out.seen = case_of(seen);
    out.prior = estimate_profile_prior(rows, heldout, insample);
    out.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return true;
}

std::string format_profile_holdout(const ProfileHoldoutReport& r) {
    auto pct = [](double x) { return format_fixed(100 * x, 1) + " %"; };
    std::string s = "Device profile held out by model: calibrate on one model's rows of a setup (device x GPUs x publication),\n"
                    "score the setup's other models (" + std::to_string(r.rows) + " rows, " + std::to_string(r.devices_refit) +
                    " devices refit without their rows, " + format_fixed(r.wall_s, 1) + " s)\n"
                    "without = no profile; full weight = the calibration model's mean residual as is; shrunk = x exp(w x mean),\n"
                    "w = n tau^2 / (n tau^2 + sigma^2) with tau^2, sigma^2 from the other devices\n\n";
    const char* names[2] = {"decode", "prefill"};
    for (int which = 0; which < 2; ++which) {
        const ProfileHoldoutCase& c = which == 0 ? r.unseen : r.seen;
        s += which == 0 ? "Device unseen by the speed fit (device-out refit): "
                        : "Device in the calibration data (the shipped fit, in-sample): ";
        s += std::to_string(c.setups) + " setups, " + std::to_string(c.splits) + " calibration splits\n\n"
             "| Kind | Scored rows | MdAPE without / full weight / shrunk | ±25 % without / full / shrunk | Band coverage without / full / shrunk | mean w |\n"
             "|---|---|---|---|---|---|\n";
        auto line = [&](const std::string& name, const HoldoutStats& a, const HoldoutStats& b, const HoldoutStats& c2, double w) {
            return "| " + name + " | " + std::to_string(a.rows) + " | " + pct(a.mdape) + " / " + pct(b.mdape) + " / " + pct(c2.mdape) +
                   " | " + pct(a.within25) + " / " + pct(b.within25) + " / " + pct(c2.within25) + " | " + pct(a.coverage) + " / " +
                   pct(b.coverage) + " / " + pct(c2.coverage) + " | " + (w > 0 ? format_fixed(w, 2) : std::string("—")) + " |\n";
        };
        for (int k = 0; k < 2; ++k) s += line(names[k], c.without[k], c.full_weight[k], c.shrunk[k], c.mean_weight[k]);
        for (int k = 0; k < 2; ++k)
            if (c.other_kind_without[k].rows)
                s += line(std::string(names[k]) + ", other kind (dense profile on MoE and back)", c.other_kind_without[k],
                          c.other_kind_full[k], c.other_kind_shrunk[k], 0);
        for (int k = 0; k < 2; ++k) {
            const ProfilePriorKind& pk = which == 0 ? r.prior.unseen[k] : r.prior.seen[k];
            s += std::string("\n") + names[k] + " prior (all these devices): tau " + pct(std::sqrt(pk.tau2[kHardwareKindCount])) +
                 " (" + std::to_string(pk.groups) + " setups), MoE tau " + pct(std::sqrt(pk.tau2_moe)) + ", sigma " + pct(std::sqrt(pk.sigma2)) + " (" +
                 std::to_string(pk.multi_model_groups) + " with >= 2 models), eps " + pct(std::sqrt(pk.eps2)) + ", rho " +
                 format_fixed(pk.rho, 2) + " (" + std::to_string(pk.mixed_groups) + " dense+MoE setups)";
        }
        s += "\n\n";
    }
    return s;
}

// [SECTION] Held-out report (given fit, rows at full weight) ---------------------------------------------

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
            if (!fit_device_profile(samples, params, cal_rows.front()->hw, ProfilePrior(), prof, e)) continue;
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
