// Reading the serving accuracy file (assets/calibration/serving_accuracy.json). See serving_accuracy.h.
#include "evidence/serving_accuracy.h"

#include <cstdio>

#include <nlohmann/json.hpp>

#include "core/assets.h"
#include "serving/engines.h"

namespace llmsim {

using nlohmann::json;

namespace {
bool num(const json& j, const char* k, double& out, std::string& err, const std::string& where, bool required = true) {
    auto it = j.find(k);
    if (it == j.end()) { if (required) err = where + ": missing '" + k + "'"; return !required; }
    if (!it->is_number()) { err = where + ": '" + k + "' is not a number"; return false; }
    out = it->get<double>();
    return true;
}
bool str(const json& j, const char* k, std::string& out, std::string& err, const std::string& where) {
    auto it = j.find(k);
    if (it == j.end() || !it->is_string()) { err = where + ": '" + k + "' missing or not a string"; return false; }
    out = it->get<std::string>();
    return true;
}
bool parse_group(const json& j, ServingAccuracyGroup& g, std::string& err, const std::string& w) {
    double rows = 0, tr = 0, fr = 0;
    if (!j.is_object()) { err = w + ": not an object"; return false; }
    if (!str(j, "name", g.name, err, w) || !str(j, "display", g.display, err, w) || !num(j, "rows", rows, err, w) ||
        !num(j, "tpot_rows", tr, err, w) || !num(j, "ttft_rows", fr, err, w) || !num(j, "out_mdape", g.out_mdape, err, w) ||
        !num(j, "tpot_mdape", g.tpot_mdape, err, w) || !num(j, "ttft_mdape", g.ttft_mdape, err, w) ||
        !num(j, "within25", g.within25, err, w) || !num(j, "coverage", g.coverage, err, w))
        return false;
    g.rows = (int)rows; g.tpot_rows = (int)tr; g.ttft_rows = (int)fr;
    g.has_band = j.contains("band_low");
    return !g.has_band || (num(j, "band_low", g.band_low, err, w) && num(j, "band_high", g.band_high, err, w));
}
bool parse_row(const json& j, ServingAccuracyRow& r, std::string& err, const std::string& w) {
    if (!j.is_object()) { err = w + ": not an object"; return false; }
    if (!str(j, "id", r.id, err, w) || !str(j, "source", r.source, err, w) || !str(j, "model", r.model, err, w) ||
        !str(j, "device", r.device, err, w) || !str(j, "engine", r.engine, err, w) || !str(j, "load", r.load, err, w) ||
        !num(j, "out_measured", r.out_measured, err, w) || !num(j, "tpot_measured_ms", r.tpot_measured_ms, err, w) ||
        !num(j, "ttft_measured_ms", r.ttft_measured_ms, err, w))
        return false;
    r.ok = j.contains("out_predicted");
    return !r.ok || (num(j, "out_predicted", r.out_predicted, err, w) && num(j, "low", r.low, err, w) &&
                     num(j, "high", r.high, err, w) && num(j, "tpot_predicted_ms", r.tpot_predicted_ms, err, w) &&
                     num(j, "ttft_predicted_ms", r.ttft_predicted_ms, err, w));
}
}  // namespace

bool parse_serving_accuracy(const std::string& text, ServingAccuracy& out, std::string& err) {
    const std::string w = "serving_accuracy.json";
    json j = json::parse(text, nullptr, false);
    if (j.is_discarded() || !j.is_object()) { err = w + ": not a JSON object"; return false; }
    ServingAccuracy a;
    double skipped = 0;
    if (!str(j, "fold", a.fold, err, w) || !num(j, "skipped", skipped, err, w)) return false;
    a.skipped = (int)skipped;
    const json* in = j.contains("inputs") && j["inputs"].is_object() ? &j["inputs"] : nullptr;
    if (!in || !str(*in, "serving_jsonl_fnv1a", a.jsonl_fnv1a, err, w + " inputs")) { if (!in) err = w + ": missing 'inputs'"; return false; }
    for (const char* k : {"groups", "rows"})
        if (!j.contains(k) || !j[k].is_array()) { err = w + ": '" + k + "' missing or not an array"; return false; }
    for (size_t i = 0; i < j["groups"].size(); ++i) {
        ServingAccuracyGroup g;
        if (!parse_group(j["groups"][i], g, err, w + " groups[" + std::to_string(i) + "]")) return false;
        a.groups.push_back(g);
    }
    for (size_t i = 0; i < j["rows"].size(); ++i) {
        ServingAccuracyRow r;
        if (!parse_row(j["rows"][i], r, err, w + " rows[" + std::to_string(i) + "]")) return false;
        a.rows.push_back(r);
    }
    const json fp = in->value("shipped_every_10th_row", json::array());
    for (size_t i = 0; i < fp.size(); ++i) {
        const json& f = fp[i];
        if (!f.is_array() || f.size() != 4 || !f[0].is_string() || !f[1].is_number() || !f[2].is_number() || !f[3].is_number()) {
            err = w + " inputs.shipped_every_10th_row[" + std::to_string(i) + "]: expected [id, out_tok_s, tpot_ms, ttft_ms]";
            return false;
        }
        a.fingerprint.push_back({f[0].get<std::string>(), f[1].get<double>(), f[2].get<double>(), f[3].get<double>()});
    }
    out = std::move(a);
    return true;
}

bool load_builtin_serving_accuracy(ServingAccuracy& out, std::string& err) {
    const std::string_view text = embedded_asset("calibration/serving_accuracy.json");
    if (text.empty()) { err = "the embedded calibration/serving_accuracy.json is missing (the build did not embed assets/)"; return false; }
    return parse_serving_accuracy(std::string(text), out, err);
}

std::string serving_validation_line(const ServingAccuracy& a, const std::string& engine) {
    const ServingAccuracyGroup* g = nullptr;
    for (const ServingAccuracyGroup& x : a.groups)
        if (x.name == engine) g = &x;
    if (!g || g->rows == 0) {
        const Engine* e = find_engine(engine);
        return (e ? std::string(e->display_name) : engine) + ": not validated (no published serving runs of this engine in the data)";
    }
    char b[512];
    std::snprintf(b, sizeof b, "%s, each publication held out in turn, on %d published runs: output tok/s MdAPE %.1f %% (%.0f %% within "
                  "+-25 %%, band coverage %.0f %%)", g->display.c_str(), g->rows, g->out_mdape * 100, g->within25 * 100, g->coverage * 100);
    std::string s = b;
    auto metric = [&](const char* name, int rows, double mdape) {
        if (rows > 0) { std::snprintf(b, sizeof b, ", %s %.1f %% (%d runs)", name, mdape * 100, rows); s += b; }
        else s += std::string(", ") + name + " not published";
    };
    metric("TPOT", g->tpot_rows, g->tpot_mdape);
    metric("TTFT", g->ttft_rows, g->ttft_mdape);
    return s;
}

}  // namespace llmsim
