// Per-device efficiency correction from the user's own measurements (device_profile.h).
#include "speed/device_profile.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include <nlohmann/json.hpp>

#include "core/assets.h"
#include "core/format.h"
#include "core/text.h"
#include "speed/speed_binary.h"

namespace llmsim {

namespace {

constexpr double kMinFactor = 0.05, kMaxFactor = 20;   // outside this the rows are not of this device / model
constexpr double kMinBandScale = 0.1;   // the profile file's lower bound for band_scale

double quantile(std::vector<double> v, double q) {
    std::sort(v.begin(), v.end());
    const double pos = q * (double)(v.size() - 1);
    const size_t i = (size_t)pos;
    const double f = pos - (double)i;
    return i + 1 < v.size() ? v[i] * (1 - f) + v[i + 1] * f : v[i];
}

double mean(const std::vector<double>& v) {
    double s = 0;
    for (double x : v) s += x;
    return v.empty() ? 0 : s / (double)v.size();
}

struct Posterior {
    double mean = 0, var = 0, weight = 0;   // of the target kind's device effect; weight: on the observed means
};

// the device effect b_t of target kind t (0 dense, 1 MoE) given the observed per-kind means y[i] (dense, MoE) of
// n[i] models: b_dense ~ N(0, tau2[0]), b_moe ~ N(0, tau2[1]) with correlation rho; each observed mean = b_i + noise
// of variance obs[i] = sum over its models (sigma2 + eps2 / rows) / n^2. Gaussian conditioning on 1 or 2 means.
Posterior posterior(int t, const double y[2], const double obs[2], const int n[2], const double tau2[2], double rho) {
    Posterior p;
    p.var = tau2[t];
    if (tau2[0] <= 0 || tau2[1] <= 0) return p;
    std::vector<int> seen;
    for (int i = 0; i < 2; ++i) if (n[i] > 0) seen.push_back(i);
    const double cross = rho * std::sqrt(tau2[0] * tau2[1]);
    auto cov = [&](int i, int j) { return i == j ? tau2[i] : cross; };
    if (seen.size() == 1) {
        const int i = seen[0];
        const double w = cov(t, i) / (tau2[i] + obs[i]);
        p.mean = w * y[i];
        p.var = tau2[t] - w * cov(t, i);
        p.weight = w;
        return p;
    }
    // 2x2: S = [[tau2_0 + obs0, cross], [cross, tau2_1 + obs1]], weights = S^-1 c
    const double a = tau2[0] + obs[0], d = tau2[1] + obs[1], b = cross, det = a * d - b * b;
    if (!(det > 0)) return p;
    const double c0 = cov(t, 0), c1 = cov(t, 1);
    const double w0 = (d * c0 - b * c1) / det, w1 = (a * c1 - b * c0) / det;
    p.mean = w0 * y[0] + w1 * y[1];
    p.var = tau2[t] - (w0 * c0 + w1 * c1);
    p.weight = w0 + w1;
    return p;
}

}  // namespace

// [SECTION] Prior ----------------------------------------------------------------------------------------

namespace {

const char* const kPriorKindNames[2] = {"decode", "prefill"};

nlohmann::json prior_kind_json(const ProfilePriorKind& k) {
    nlohmann::json tau = nlohmann::json::object();
    for (int c = 0; c < kHardwareKindCount; ++c)
        if (k.tau2[c] > 0) tau[to_string((HardwareKind)c)] = k.tau2[c];
    tau["all"] = k.tau2[kHardwareKindCount];
    return {{"tau2", tau}, {"tau2_moe", k.tau2_moe}, {"sigma2", k.sigma2}, {"eps2", k.eps2}, {"rho", k.rho}, {"groups", k.groups},
            {"multi_model_groups", k.multi_model_groups}, {"mixed_groups", k.mixed_groups}};
}

bool prior_kind_from(const nlohmann::json& j, const std::string& where, ProfilePriorKind& k, std::string& err) {
    if (!j.is_object()) { err = where + " must be an object"; return false; }
    auto var = [&](const nlohmann::json& o, const std::string& key, double hi, double& out) {
        auto v = o.find(key);
        if (v == o.end() || !v->is_number() || !std::isfinite(v->get<double>()) || v->get<double>() < 0 || v->get<double>() > hi) {
            err = where + "." + key + " must be a number from 0 to " + format_sig(hi);
            return false;
        }
        out = v->get<double>();
        return true;
    };
    auto tau = j.find("tau2");
    if (tau == j.end() || !tau->is_object()) { err = where + ".tau2 must be an object of classes"; return false; }
    if (!var(*tau, "all", 10, k.tau2[kHardwareKindCount])) return false;
    for (int c = 0; c < kHardwareKindCount; ++c)
        if (tau->contains(to_string((HardwareKind)c)) && !var(*tau, to_string((HardwareKind)c), 10, k.tau2[c])) return false;
    double n[3] = {0, 0, 0};
    if ((j.contains("tau2_moe") && !var(j, "tau2_moe", 10, k.tau2_moe)) || !var(j, "sigma2", 10, k.sigma2) || !var(j, "eps2", 10, k.eps2) || !var(j, "rho", 1, k.rho)) return false;
    const char* counts[3] = {"groups", "multi_model_groups", "mixed_groups"};
    for (int i = 0; i < 3; ++i)
        if (j.contains(counts[i]) && !var(j, counts[i], 1e6, n[i])) return false;
    k.groups = (int)n[0];
    k.multi_model_groups = (int)n[1];
    k.mixed_groups = (int)n[2];
    return true;
}
}  // namespace

const ProfilePrior& default_profile_prior() {
    static const ProfilePrior prior = [] {   // immutable after first use, like default_speed_params()
        ProfilePrior p;
        std::string err;
#ifdef LLMSIM_SPEED_BINARY   // the web page: speed_params.bin (speed_binary.h), written at build time from the JSON
        SpeedCalibration c;
        if (speed_calibration_from_binary(embedded_asset("calibration/speed_params.bin"), c, err)) p = c.prior;
#else
        const std::string_view text = embedded_asset("calibration/speed_params.json");
        if (!text.empty() && !parse_profile_prior(std::string(text), p, err)) p = ProfilePrior();
#endif
        return p;
    }();
    return prior;
}

bool device_seen_by_fit(const ProfilePrior& prior, const Hardware& hw) {
    std::vector<std::string> names = {hw.name, hw.id};
    names.insert(names.end(), hw.calibration_names.begin(), hw.calibration_names.end());
    for (const std::string& n : names)
        if (!n.empty() && std::find(prior.seen_devices.begin(), prior.seen_devices.end(), lower_ascii(n)) != prior.seen_devices.end())
            return true;
    return false;
}

std::string profile_prior_to_json(const ProfilePrior& p) {
    nlohmann::json j = nlohmann::json::object();
    j["about"] = "device profiles (engine/speed/device_profile.h): variances of log(measured/predicted) per setup "
                 "(device x GPUs x publication). tau2: between setups (per class, 'all' for classes with few setups), "
                 "sigma2: model to model on one setup, eps2: row to row within one model, rho: dense vs MoE "
                 "correlation of the device effect. unseen: device-out folds; seen: the shipped fit in-sample.";
    j["source"] = p.source;
    for (const char* which : {"unseen", "seen"}) {
        const ProfilePriorKind* k = which[0] == 'u' ? p.unseen : p.seen;
        j[which] = {{kPriorKindNames[0], prior_kind_json(k[0])}, {kPriorKindNames[1], prior_kind_json(k[1])}};
    }
    j["seen_devices"] = p.seen_devices;
    return j.dump(1);
}

bool merge_profile_prior(const std::string& text, const ProfilePrior& p, std::string& out, std::string& err) {
    nlohmann::json root = nlohmann::json::parse(text, nullptr, false);
    if (root.is_discarded() || !root.is_object()) { err = "speed_params.json: not a JSON object"; return false; }
    root["device_profile_prior"] = nlohmann::json::parse(profile_prior_to_json(p));
    out = root.dump(1);
    return true;
}

bool parse_profile_prior(const std::string& text, ProfilePrior& out, std::string& err) {
    out = ProfilePrior();
    const nlohmann::json root = nlohmann::json::parse(text, nullptr, false);
    if (root.is_discarded() || !root.is_object()) { err = "speed_params.json: not a JSON object"; return false; }
    auto it = root.find("device_profile_prior");
    if (it == root.end()) return true;   // no prior fitted: profiles take the rows at full weight
    const std::string where = "speed_params.json: device_profile_prior";
    if (!it->is_object()) { err = where + " must be an object"; return false; }
    ProfilePrior p;
    for (const char* which : {"unseen", "seen"}) {
        ProfilePriorKind* k = which[0] == 'u' ? p.unseen : p.seen;
        auto w = it->find(which);
        if (w == it->end() || !w->is_object()) { err = where + "." + which + " must be an object"; return false; }
        for (int i = 0; i < 2; ++i) {
            auto kk = w->find(kPriorKindNames[i]);
            const std::string wk = where + "." + which + "." + kPriorKindNames[i];
            if (kk == w->end()) { err = wk + " is missing"; return false; }
            if (!prior_kind_from(*kk, wk, k[i], err)) return false;
        }
    }
    if (it->contains("seen_devices") && (*it)["seen_devices"].is_array())
        for (const auto& d : (*it)["seen_devices"])
            if (d.is_string()) p.seen_devices.push_back(lower_ascii(d.get<std::string>()));
    if (it->contains("source") && (*it)["source"].is_string()) p.source = (*it)["source"].get<std::string>();
    p.fitted = true;
    out = std::move(p);
    return true;
}

// [SECTION] Fit ------------------------------------------------------------------------------------------

void fit_profile_factor(const std::vector<ModelResiduals>& models, const ProfilePriorKind* prior, HardwareKind cls,
                        ProfileFactor& f) {
    f = ProfileFactor();
    double y[2] = {0, 0}, obs[2] = {0, 0}, all = 0;
    int n[2] = {0, 0};
    for (const ModelResiduals& m : models) {
        if (m.log_ratio.empty()) continue;
        f.rows += (int)m.log_ratio.size();
        const int t = m.moe ? 1 : 0;
        const double ym = mean(m.log_ratio);
        y[t] += ym;
        all += ym;
        ++n[t];
        if (prior) obs[t] += prior->sigma2 + prior->eps2 / (double)m.log_ratio.size();
    }
    f.models = n[0] + n[1];
    f.moe_models = n[1];
    if (f.models == 0) return;
    for (int t = 0; t < 2; ++t)
        if (n[t]) { y[t] /= n[t]; obs[t] /= (double)n[t] * n[t]; }
    f.raw = std::exp(all / f.models);
    double* factor[2] = {&f.factor, &f.factor_moe};
    double* weight[2] = {&f.weight, &f.weight_moe};
    double* scale[2] = {&f.band_scale, &f.band_scale_moe};
    for (int t = 0; t < 2; ++t) {
        if (!prior) {   // no prior: the rows at full weight (the other kind's mean when this kind has no rows)
            *factor[t] = std::exp(n[t] ? y[t] : y[1 - t]);
            continue;
        }
        const double taus[2] = {prior->tau2_for(cls), prior->tau2_moe > 0 ? prior->tau2_moe : prior->tau2_for(cls)};
        const double tau2 = taus[t];
        const Posterior post = posterior(t, y, obs, n, taus, std::clamp(prior->rho, 0.0, 1.0));
        *factor[t] = std::exp(post.mean);
        *weight[t] = post.weight;
        // the band: predictive variance of a new model's row, with the profile (posterior) over without (prior)
        const double v0 = tau2 + prior->sigma2 + prior->eps2, v1 = post.var + prior->sigma2 + prior->eps2;
        *scale[t] = v0 > 0 ? std::clamp(std::sqrt(v1 / v0), kMinBandScale, 1.0) : 1.0;
    }
    std::vector<double> before, after;
    for (const ModelResiduals& m : models)
        for (double e : m.log_ratio) {
            before.push_back(std::fabs(std::exp(-e) - 1));           // predicted/measured - 1
            after.push_back(std::fabs(*factor[m.moe ? 1 : 0] * std::exp(-e) - 1));
        }
    f.mdape_before = quantile(before, 0.5);
    f.mdape_after = quantile(after, 0.5);
}

bool fit_device_profile(const std::vector<ProfileSample>& samples, const SpeedParams& params, const Hardware& hw,
                        DeviceProfile& out, std::string& err) {
    return fit_device_profile(samples, params, hw, default_profile_prior(), out, err);
}

bool fit_device_profile(const std::vector<ProfileSample>& samples, const SpeedParams& params, const Hardware& hw,
                        const ProfilePrior& prior, DeviceProfile& out, std::string& err) {
    DeviceProfile p;
    p.hardware_id = hw.id;
    p.hardware_name = hw.name;
    std::vector<ModelResiduals> lr[2];   // [0] decode, [1] prefill: per model, log(measured / predicted)
    for (const ProfileSample& s : samples) {
        if (!(s.measured_tps > 0) || !std::isfinite(s.measured_tps)) continue;
        SpeedResult r = estimate_speed(s.scenario, params);
        if (!r.ok || !(r.tokens_per_s > 0) || !std::isfinite(r.tokens_per_s)) {
            err = "no prediction for row " + s.label + " of " + s.model + ": " + (r.error.empty() ? "out of range" : r.error);
            return false;
        }
        const int k = s.scenario.test == SpeedTest::Decode ? 0 : 1;
        auto it = std::find_if(lr[k].begin(), lr[k].end(), [&](const ModelResiduals& m) { return m.model == s.model; });
        if (it == lr[k].end()) it = lr[k].insert(lr[k].end(), {s.model, s.scenario.moe_experts > 0, {}});
        it->log_ratio.push_back(std::log(s.measured_tps / r.tokens_per_s));
        if (std::find(p.models.begin(), p.models.end(), s.model) == p.models.end()) p.models.push_back(s.model);
    }
    if (lr[0].empty() && lr[1].empty()) { err = "no measured row to calibrate on"; return false; }
    p.seen_by_fit = device_seen_by_fit(prior, hw);
    for (int k = 0; k < 2; ++k) {
        const ProfilePriorKind* pk = !prior.fitted ? nullptr : p.seen_by_fit ? &prior.seen[k] : &prior.unseen[k];
        fit_profile_factor(lr[k], pk, hw.kind, k == 0 ? p.decode : p.prefill);
    }
    for (const ProfileFactor* f : {&p.decode, &p.prefill})
        if (f->raw < kMinFactor || f->raw > kMaxFactor) {
            err = "the rows are " + format_sig(f->raw) + "x the prediction: not this device or not this model "
                  "(check --hardware and the model the rows name)";
            return false;
        }
    out = std::move(p);
    return true;
}

// [SECTION] Apply ----------------------------------------------------------------------------------------

bool profile_applies(const DeviceProfile& p, const Hardware& hw) {
    if (!p.hardware_id.empty() && hw.id != "custom" && lower_ascii(p.hardware_id) == lower_ascii(hw.id)) return true;
    return hw.id == "custom" && !p.hardware_name.empty() && lower_ascii(p.hardware_name) == lower_ascii(hw.name);
}

SpeedResult estimate_with_profile(const DeviceProfile& p, const SpeedScenario& s, const SpeedParams& params) {
    SpeedResult r = estimate_speed(s, params);
    apply_device_profile(p, s.test, r, s.moe_experts > 0);
    return r;
}

void apply_device_profile(const DeviceProfile& p, SpeedTest kind, SpeedResult& r, bool moe_model) {
    const ProfileFactor& f = kind == SpeedTest::Decode ? p.decode : p.prefill;
    if (f.rows == 0 || !r.ok || !(r.tokens_per_s > 0)) return;
    const double factor = moe_model ? f.factor_moe : f.factor, scale = moe_model ? f.band_scale_moe : f.band_scale;
    const double centre = r.tokens_per_s * factor;
    // narrow in log space around the corrected centre
    const double lo = r.low > 0 ? centre * std::pow(r.low / r.tokens_per_s, scale) : r.low;
    const double hi = r.high > 0 ? centre * std::pow(r.high / r.tokens_per_s, scale) : r.high;
    r.tokens_per_s = centre;
    r.low = lo;
    r.high = hi;
    if (r.time_s > 0) r.time_s /= factor;
}

std::string calibrated_label(const DeviceProfile& p) {
    std::string s = std::string("calibrated on ") + (p.contributed ? "" : "your ") + std::to_string(p.rows()) +
                    (p.contributed ? " contributed" : "") + (p.rows() == 1 ? " row" : " rows");
    std::string parts;
    auto part = [&](const char* name, const ProfileFactor& f) {
        if (!f.rows) return;
        // the factor dense models get, unless every model behind it is MoE
        const bool moe = f.moe_models == f.models;
        parts += std::string(parts.empty() ? "" : "; ") + name + " x" + format_fixed(moe ? f.factor_moe : f.factor, 2) +
                 ", weight " + format_fixed(moe ? f.weight_moe : f.weight, 2) + " from " + std::to_string(f.models) +
                 (f.models == 1 ? " model" : " models");
    };
    part("decode", p.decode);
    part("prefill", p.prefill);
    return s + " (" + parts + ")";
}

// [SECTION] JSON -----------------------------------------------------------------------------------------

namespace {
nlohmann::json factor_json(const ProfileFactor& f) {
    return {{"rows", f.rows}, {"models", f.models}, {"moe_models", f.moe_models}, {"raw", f.raw},
            {"factor", f.factor}, {"weight", f.weight}, {"band_scale", f.band_scale},
            {"factor_moe", f.factor_moe}, {"weight_moe", f.weight_moe}, {"band_scale_moe", f.band_scale_moe},
            {"mdape_before", f.mdape_before}, {"mdape_after", f.mdape_after}};
}

bool factor_from(const nlohmann::json& j, const char* key, ProfileFactor& f, std::string& err) {
    f = ProfileFactor();
    auto it = j.find(key);
    if (it == j.end()) return true;   // no rows of that kind
    const std::string where = std::string("device profile: \"") + key + "\"";
    if (!it->is_object()) { err = where + " must be an object"; return false; }
    auto num = [&](const char* k, double lo, double hi, double& out, bool required = true) {
        auto v = it->find(k);
        if (v == it->end()) {
            if (!required) return true;
            err = where + "." + k + " is missing";
            return false;
        }
        if (!v->is_number() || !std::isfinite(v->get<double>()) || v->get<double>() < lo || v->get<double>() > hi) {
            char range[64];
            snprintf(range, sizeof range, "%g to %g", lo, hi);   // "C" numeric locale (main / the page)
            err = where + "." + k + " must be a number from " + range;
            return false;
        }
        out = v->get<double>();
        return true;
    };
    double rows = 0;
    if (!num("rows", 0, 1e6, rows) || !num("factor", kMinFactor, kMaxFactor, f.factor) ||
        !num("band_scale", 0.1, 1, f.band_scale))
        return false;
    if (rows != std::floor(rows)) { err = where + ".rows must be a whole number"; return false; }
    f.rows = (int)rows;
    // shrinkage fields (profiles written before them: the dense values for MoE models, full weight)
    f.factor_moe = f.factor;
    f.band_scale_moe = f.band_scale;
    f.raw = f.factor;
    double models = 0, moe_models = 0;
    if (!num("factor_moe", kMinFactor, kMaxFactor, f.factor_moe, false) || !num("band_scale_moe", 0.1, 1, f.band_scale_moe, false) ||
        !num("weight", 0, 2, f.weight, false) || !num("weight_moe", 0, 2, f.weight_moe, false) ||
        !num("raw", kMinFactor, kMaxFactor, f.raw, false) || !num("models", 0, 1e6, models, false) ||
        !num("moe_models", 0, models, moe_models, false))
        return false;
    f.models = (int)models;
    f.moe_models = (int)moe_models;
    auto opt = [&](const char* k, double& out) {
        auto v = it->find(k);
        if (v != it->end() && v->is_number() && std::isfinite(v->get<double>())) out = v->get<double>();
    };
    opt("mdape_before", f.mdape_before);
    opt("mdape_after", f.mdape_after);
    return true;
}
}  // namespace

std::string device_profile_to_json(const DeviceProfile& p) {
    nlohmann::json j = {{"format", "llmsim-device-profile/1"}, {"hardware", p.hardware_id}, {"hardware_name", p.hardware_name},
                        {"decode", factor_json(p.decode)}, {"prefill", factor_json(p.prefill)},
                        {"models", p.models}, {"source", p.source}};
    if (p.contributed) j["contributed"] = true;   // only then: the user's own profile files stay as they were
    return j.dump(1, ' ', false, nlohmann::json::error_handler_t::replace);
}

bool parse_device_profile(const std::string& text, DeviceProfile& out, std::string& err) {
    if (text.size() > (1u << 20)) { err = "device profile: larger than 1 MiB (not a profile file)"; return false; }
    const nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
    if (j.is_discarded() || !j.is_object()) { err = "device profile: not a JSON object"; return false; }
    auto fmt = j.find("format");
    if (fmt == j.end() || !fmt->is_string() || fmt->get<std::string>() != "llmsim-device-profile/1") {
        err = "device profile: \"format\" must be \"llmsim-device-profile/1\" (write one with llmsim-cli calibrate-device)";
        return false;
    }
    DeviceProfile p;
    auto hw = j.find("hardware");
    if (hw == j.end() || !hw->is_string() || hw->get<std::string>().empty()) {
        err = "device profile: \"hardware\" must name the device it was fitted on";
        return false;
    }
    p.hardware_id = hw->get<std::string>();
    if (j.contains("hardware_name") && j["hardware_name"].is_string()) p.hardware_name = j["hardware_name"].get<std::string>();
    if (!factor_from(j, "decode", p.decode, err) || !factor_from(j, "prefill", p.prefill, err)) return false;
    if (p.rows() == 0) { err = "device profile: no rows behind it (decode.rows and prefill.rows are 0)"; return false; }
    if (j.contains("models") && j["models"].is_array())
        for (const auto& m : j["models"])
            if (m.is_string()) p.models.push_back(m.get<std::string>());
    if (j.contains("source") && j["source"].is_string()) p.source = j["source"].get<std::string>();
    p.contributed = j.contains("contributed") && j["contributed"].is_boolean() && j["contributed"].get<bool>();
    out = std::move(p);
    return true;
}

}  // namespace llmsim
