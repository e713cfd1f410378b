// Per-device efficiency correction from the user's own measurements (device_profile.h).
#include "speed/device_profile.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include <nlohmann/json.hpp>

#include "core/format.h"

namespace llmsim {

namespace {

constexpr double kMinFactor = 0.05, kMaxFactor = 20;   // outside this the rows are not of this device / model
constexpr double kMinBandScale = 0.5;   // the user's rows come from few models: never claim more than half the width
constexpr int kMinRowsToNarrow = 5;     // fewer rows than this: correct the centre, keep the class band

double quantile(std::vector<double> v, double q) {
    std::sort(v.begin(), v.end());
    const double pos = q * (double)(v.size() - 1);
    const size_t i = (size_t)pos;
    const double f = pos - (double)i;
    return i + 1 < v.size() ? v[i] * (1 - f) + v[i + 1] * f : v[i];
}

// the class band's half-width in log space (speed.cpp apply_band: measured = predicted / (1 + e))
double class_log_half_width(const SpeedParams& p, int k, HardwareKind kind) {
    const SpeedBand& b = p.band[k][(int)kind];
    if (b.rows == 0) return std::log(1.25);
    return 0.5 * (std::log(1 + b.high) - std::log(1 + std::max(b.low, -0.9)));
}

// the factor is the median ratio of the user's rows (no shrinkage: a m/(m+1) shrink by model count was tried
// and made held-out prefill worse, see profile_validation.h)
bool fit_factor(const std::vector<double>& log_ratio, double prior_half_width, ProfileFactor& f) {
    f = ProfileFactor();
    f.rows = (int)log_ratio.size();
    if (log_ratio.empty()) return true;
    const double centre = quantile(log_ratio, 0.5);
    f.factor = std::exp(centre);
    std::vector<double> before, after, resid;
    for (double e : log_ratio) {
        before.push_back(std::fabs(std::exp(-e) - 1));           // predicted/measured - 1
        after.push_back(std::fabs(std::exp(centre - e) - 1));
        resid.push_back(e - centre);
    }
    f.mdape_before = quantile(before, 0.5);
    f.mdape_after = quantile(after, 0.5);
    if (f.rows >= kMinRowsToNarrow && prior_half_width > 0) {
        // the residuals' 10-90 % half-width, widened for the few rows it rests on (in-sample spread understates
        // the error on the next model), plus the centre's own standard error
        const double half = 0.5 * (quantile(resid, 0.9) - quantile(resid, 0.1));
        double ss = 0;
        for (double r : resid) ss += r * r;
        const double se = std::sqrt(ss / (double)std::max(1, f.rows - 1) / (double)f.rows);
        const double w = half * std::sqrt(1.0 + 1.0 / (double)f.rows) + se;
        f.band_scale = std::clamp(w / prior_half_width, kMinBandScale, 1.0);
    }
    return true;
}

}  // namespace

// [SECTION] Fit ------------------------------------------------------------------------------------------

bool fit_device_profile(const std::vector<ProfileSample>& samples, const SpeedParams& params, const Hardware& hw,
                        DeviceProfile& out, std::string& err) {
    DeviceProfile p;
    p.hardware_id = hw.id;
    p.hardware_name = hw.name;
    std::vector<double> lr[2];   // [0] decode, [1] prefill: log(measured / predicted)
    for (const ProfileSample& s : samples) {
        if (!(s.measured_tps > 0) || !std::isfinite(s.measured_tps)) continue;
        SpeedResult r = estimate_speed(s.scenario, params);
        if (!r.ok || !(r.tokens_per_s > 0) || !std::isfinite(r.tokens_per_s)) {
            err = "no prediction for row " + s.label + " of " + s.model + ": " + (r.error.empty() ? "out of range" : r.error);
            return false;
        }
        const int k = s.scenario.test == SpeedTest::Decode ? 0 : 1;
        lr[k].push_back(std::log(s.measured_tps / r.tokens_per_s));
        if (std::find(p.models.begin(), p.models.end(), s.model) == p.models.end()) p.models.push_back(s.model);
    }
    if (lr[0].empty() && lr[1].empty()) { err = "no measured row to calibrate on"; return false; }
    fit_factor(lr[0], class_log_half_width(params, 0, hw.kind), p.decode);
    fit_factor(lr[1], class_log_half_width(params, 1, hw.kind), p.prefill);
    for (const ProfileFactor* f : {&p.decode, &p.prefill})
        if (f->factor < kMinFactor || f->factor > kMaxFactor) {
            err = "the rows are " + format_sig(f->factor) + "x the prediction: not this device or not this model "
                  "(check --hardware and the model the rows name)";
            return false;
        }
    out = std::move(p);
    return true;
}

// [SECTION] Apply ----------------------------------------------------------------------------------------

bool profile_applies(const DeviceProfile& p, const Hardware& hw) {
    auto lower = [](std::string s) { for (char& c : s) c = (char)std::tolower((unsigned char)c); return s; };
    if (!p.hardware_id.empty() && hw.id != "custom" && lower(p.hardware_id) == lower(hw.id)) return true;
    return hw.id == "custom" && !p.hardware_name.empty() && lower(p.hardware_name) == lower(hw.name);
}

SpeedResult estimate_with_profile(const DeviceProfile& p, const SpeedScenario& s, const SpeedParams& params) {
    SpeedResult r = estimate_speed(s, params);
    apply_device_profile(p, s.test, r);
    return r;
}

void apply_device_profile(const DeviceProfile& p, SpeedTest kind, SpeedResult& r) {
    const ProfileFactor& f = kind == SpeedTest::Decode ? p.decode : p.prefill;
    if (f.rows == 0 || !r.ok || !(r.tokens_per_s > 0)) return;
    const double centre = r.tokens_per_s * f.factor;
    // narrow in log space around the corrected centre
    const double lo = r.low > 0 ? centre * std::pow(r.low / r.tokens_per_s, f.band_scale) : r.low;
    const double hi = r.high > 0 ? centre * std::pow(r.high / r.tokens_per_s, f.band_scale) : r.high;
    r.tokens_per_s = centre;
    r.low = lo;
    r.high = hi;
    if (r.time_s > 0) r.time_s /= f.factor;
}

std::string calibrated_label(const DeviceProfile& p) {
    std::string s = "calibrated on your " + std::to_string(p.rows()) + (p.rows() == 1 ? " row" : " rows");
    std::string parts;
    if (p.decode.rows) parts += "decode x" + format_fixed(p.decode.factor, 2);
    if (p.prefill.rows) parts += std::string(parts.empty() ? "" : ", ") + "prefill x" + format_fixed(p.prefill.factor, 2);
    return s + " (" + parts + ")";
}

// [SECTION] JSON -----------------------------------------------------------------------------------------

namespace {
nlohmann::json factor_json(const ProfileFactor& f) {
    return {{"rows", f.rows}, {"factor", f.factor}, {"band_scale", f.band_scale},
            {"mdape_before", f.mdape_before}, {"mdape_after", f.mdape_after}};
}

bool factor_from(const nlohmann::json& j, const char* key, ProfileFactor& f, std::string& err) {
    f = ProfileFactor();
    auto it = j.find(key);
    if (it == j.end()) return true;   // no rows of that kind
    const std::string where = std::string("device profile: \"") + key + "\"";
    if (!it->is_object()) { err = where + " must be an object"; return false; }
    auto num = [&](const char* k, double lo, double hi, double& out) {
        auto v = it->find(k);
        if (v == it->end()) { err = where + "." + k + " is missing"; return false; }
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
    out = std::move(p);
    return true;
}

}  // namespace llmsim
