// The accuracy gate and the README's headline table. See accuracy_gate.h.
#include "calibration/accuracy_gate.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>

#include <nlohmann/json.hpp>

#include "serving/serving_internal.h"

namespace llmsim {

using ojson = nlohmann::ordered_json;

// [SECTION] Figures --------------------------------------------------------------------------------------

namespace {
const char* const kKindName[2] = {"decode", "prefill"};

void add_stats(std::vector<GateFigure>& out, const std::string& prefix, int rows, double mdape, double within25,
               double coverage) {
    out.push_back({prefix + ".rows", (double)rows});
    out.push_back({prefix + ".mdape", 100 * mdape});
    out.push_back({prefix + ".within25", 100 * within25});
    out.push_back({prefix + ".coverage", 100 * coverage});
}
}  // namespace

std::vector<GateFigure> speed_gate_figures(const ValidationReport& v) {
    std::vector<GateFigure> out;
    const std::pair<HoldOut, const char*> schemes[] = {{HoldOut::Source, "source_out"}, {HoldOut::Device, "device_out"}};
    for (int k = 0; k < 2; ++k)
        for (const auto& [h, hname] : schemes) {
            const AccuracyReport& r = v.by[(int)h];
            const std::string p = std::string("speed.") + kKindName[k] + "." + hname;
            const ErrorStats& all = r.ours[k][kHardwareKindCount];
            add_stats(out, p + ".all", all.rows, all.mdape, all.within25, r.coverage[k][kHardwareKindCount]);
            add_stats(out, p + ".recent", r.recent[k].rows, r.recent[k].mdape, r.recent[k].within25, r.recent_coverage[k]);
        }
    // the forecast split: a publication and every device it measured held out, by build era; coverage cross-validated
    // (each publication's rows against bands fitted without it)
    for (int k = 0; k < 2; ++k)
        for (const auto& [era, ename] : {std::pair<int, const char*>{kEraBoth, "all"}, {kEraOlder, "older"}, {kEraFresh, "fresh"}}) {
            const ErrorStats& e = v.era[k][era];
            add_stats(out, std::string("speed.") + kKindName[k] + ".source_devices_out." + ename, e.rows, e.mdape, e.within25,
                      v.band_cv_coverage(k, kHardwareKindCount, era));
        }
    return out;
}

std::vector<GateFigure> shipped_speed_gate_figures(const std::vector<CalibrationRow>& rows, const SpeedParams& shipped) {
    std::vector<GateFigure> out;
    for (int k = 0; k < 2; ++k) {
        std::vector<double> errors;
        int inside = 0;
        for (const CalibrationRow& r : rows) {
            if ((r.scenario.test == SpeedTest::Decode) != (k == 0)) continue;
            const SpeedResult res = estimate_speed(r.scenario, shipped);
            const double pred = res.ok ? res.tokens_per_s : 0.0;   // no prediction: -100 %, outside the band
            errors.push_back(pred / r.measured_tokens_per_s - 1);
            inside += res.ok && r.measured_tokens_per_s >= res.low && r.measured_tokens_per_s <= res.high;
        }
        const ErrorStats e = error_stats(errors);
        add_stats(out, std::string("speed.") + kKindName[k] + ".shipped.all", e.rows, e.mdape, e.within25,
                  e.rows ? (double)inside / e.rows : 0);
    }
    return out;
}

std::vector<GateFigure> serving_gate_figures(const ServingValidation& v) {
    std::vector<GateFigure> out;
    std::vector<const ServingGroupErrors*> groups;
    for (const ServingGroupErrors& g : v.by_engine) groups.push_back(&g);
    groups.push_back(&v.all);
    for (const ServingGroupErrors* g : groups) {
        const std::string p = "serving." + g->name;
        out.push_back({p + ".rows", (double)g->rows});
        out.push_back({p + ".out_mdape", 100 * g->out_mdape});
        out.push_back({p + ".within25", 100 * g->within25});
        out.push_back({p + ".coverage", 100 * g->coverage});
        out.push_back({p + ".tpot_rows", (double)g->tpot_rows});
        out.push_back({p + ".tpot_mdape", 100 * g->tpot_mdape});
        out.push_back({p + ".ttft_rows", (double)g->ttft_rows});
        out.push_back({p + ".ttft_mdape", 100 * g->ttft_mdape});
    }
    return out;
}

// [SECTION] The committed file ---------------------------------------------------------------------------

namespace {
const char* kGateAbout =
    "The accuracy gate (ctest accuracy_gate: llmsim-cli accuracy --gate tests/accuracy_gate.json): every figure is "
    "recomputed from the inputs with the held-out folds of `llmsim-cli accuracy` (speed: each device / publication "
    "left out in turn, bands from the harder scheme) and `llmsim-cli accuracy --serving` (each source left out) and "
    "compared with the value here; speed.*.shipped.* score the shipped speed_params.json in-sample (the folds start "
    "from the physical priors, so only these see a hand-edited fitted value). Percent; *.rows are row counts. A figure worse than its tolerance fails the test; "
    "a better one asks for this file to be rewritten (llmsim-cli accuracy --gate tests/accuracy_gate.json --write). "
    "Never hand-edited.";
const char* kWhy =
    "The figures are deterministic for a build (the folds run on threads but each writes its own slot), so the "
    "tolerance is not for noise: it allows another compiler's or libm's last bits to steer a Nelder-Mead fold to a "
    "slightly different optimum. A model change that matters moves a headline MdAPE by more than 0.3 points; a "
    "share falls by 1 point when about 4 of the ~430 decode rows leave the +-25 % window or the band.";

enum class Direction { Exact, LowerBetter, HigherBetter };
Direction direction_of(const std::string& name) {
    auto ends = [&](const char* s) {
        const std::string t = s;
        return name.size() >= t.size() && name.compare(name.size() - t.size(), t.size(), t) == 0;
    };
    if (ends("rows")) return Direction::Exact;
    if (ends("mdape")) return Direction::LowerBetter;
    return Direction::HigherBetter;   // within25, coverage
}

std::string fixed4(double v) {
    char b[48];
    snprintf(b, sizeof b, "%.4f", v);
    return b;
}
}  // namespace

bool parse_gate_file(const std::string& text, GateFile& out, std::string& err) {
    const std::string w = "accuracy gate file";
    ojson j = ojson::parse(text, nullptr, false);
    if (j.is_discarded() || !j.is_object()) { err = w + ": not a JSON object"; return false; }
    GateFile g;
    const ojson* in = j.contains("inputs") && j["inputs"].is_object() ? &j["inputs"] : nullptr;
    if (!in || !in->contains("speed") || !(*in)["speed"].is_array() || !in->contains("serving") || !(*in)["serving"].is_string()) {
        err = w + ": 'inputs' must hold 'speed' (an array of file names) and 'serving' (a file name)";
        return false;
    }
    for (const ojson& f : (*in)["speed"]) {
        if (!f.is_string()) { err = w + ": inputs.speed: every entry must be a file name"; return false; }
        g.speed_files.push_back(f.get<std::string>());
    }
    g.serving_file = (*in)["serving"].get<std::string>();
    const ojson* tol = j.contains("tolerance") && j["tolerance"].is_object() ? &j["tolerance"] : nullptr;
    if (!tol) { err = w + ": missing 'tolerance'"; return false; }
    for (auto [key, dst] : {std::pair<const char*, double*>{"mdape_rise_points", &g.tolerance.mdape_rise_points},
                            {"share_fall_points", &g.tolerance.share_fall_points}}) {
        if (!tol->contains(key) || !(*tol)[key].is_number() || !((*tol)[key].get<double>() >= 0)) {
            err = w + ": tolerance." + key + " must be a number >= 0";
            return false;
        }
        *dst = (*tol)[key].get<double>();
    }
    if (!j.contains("figures") || !j["figures"].is_object()) { err = w + ": missing 'figures'"; return false; }
    for (auto it = j["figures"].begin(); it != j["figures"].end(); ++it) {
        if (!it.value().is_number()) { err = w + ": figures." + it.key() + " is not a number"; return false; }
        g.figures.push_back({it.key(), it.value().get<double>()});
    }
    if (g.speed_files.empty() || g.figures.empty()) { err = w + ": no speed inputs or no figures"; return false; }
    out = std::move(g);
    return true;
}

std::string gate_file_to_json(const GateFile& g) {
    ojson head;
    head["about"] = kGateAbout;
    head["inputs"] = {{"speed", g.speed_files}, {"serving", g.serving_file}};
    head["tolerance"] = {{"mdape_rise_points", g.tolerance.mdape_rise_points},
                         {"share_fall_points", g.tolerance.share_fall_points}, {"why", kWhy}};
    std::string s = head.dump(1);
    s.erase(s.rfind('}'));   // reopen the object: the figures go one per line, fixed decimals (a diff shows which moved)
    while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.pop_back();
    s += ",\n \"figures\": {\n";
    for (size_t i = 0; i < g.figures.size(); ++i) {
        const GateFigure& f = g.figures[i];
        const std::string v = direction_of(f.name) == Direction::Exact ? std::to_string((long long)std::llround(f.value)) : fixed4(f.value);
        s += "  " + ojson(f.name).dump() + ": " + v + (i + 1 < g.figures.size() ? ",\n" : "\n");
    }
    s += " }\n}\n";
    return s;
}

// [SECTION] Comparison -----------------------------------------------------------------------------------

GateVerdict compare_gate(const GateFile& committed, const std::vector<GateFigure>& now) {
    // the committed file keeps 4 decimals: a change below that is the rounding, not the model
    constexpr double kRounding = 1e-4;
    GateVerdict v;
    std::map<std::string, double> cur;
    for (const GateFigure& f : now) cur[f.name] = f.value;
    std::map<std::string, bool> seen;
    char b[400];
    for (const GateFigure& c : committed.figures) {
        seen[c.name] = true;
        auto it = cur.find(c.name);
        if (it == cur.end()) {
            v.failures.push_back(c.name + ": committed " + fixed4(c.value) + ", not computed any more (rewrite the file)");
            continue;
        }
        const double n = it->second;
        switch (direction_of(c.name)) {
            case Direction::Exact:
                if (std::llround(n) != std::llround(c.value)) {
                    snprintf(b, sizeof b, "%s: committed %lld, now %lld (the data changed: check it, then rewrite the file)",
                             c.name.c_str(), std::llround(c.value), std::llround(n));
                    v.failures.push_back(b);
                }
                break;
            case Direction::LowerBetter:
            case Direction::HigherBetter: {
                const bool lower = direction_of(c.name) == Direction::LowerBetter;
                const double worse_by = lower ? n - c.value : c.value - n;   // points
                const double tol = lower ? committed.tolerance.mdape_rise_points : committed.tolerance.share_fall_points;
                snprintf(b, sizeof b, "%s: committed %.4f %%, now %.4f %% (%s by %.4f points; tolerance %.2f points %s)",
                         c.name.c_str(), c.value, n, worse_by > 0 ? "worse" : "better", std::fabs(worse_by), tol,
                         lower ? "rise" : "fall");
                if (worse_by > tol + kRounding) v.failures.push_back(b);
                else if (worse_by > kRounding) v.within.push_back(b);
                else if (worse_by < -kRounding) v.improvements.push_back(b);
                break;
            }
        }
    }
    for (const GateFigure& f : now)
        if (!seen.count(f.name)) v.failures.push_back(f.name + ": now " + fixed4(f.value) + ", not in the committed file (rewrite it)");
    return v;
}

std::string format_gate_verdict(const GateVerdict& v, const std::string& path) {
    std::string s;
    for (const std::string& f : v.failures) s += "FAIL  " + f + "\n";
    for (const std::string& f : v.within) s += "note  " + f + "\n";
    for (const std::string& f : v.improvements) s += "better " + f + "\n";
    if (v.failed())
        s += "accuracy gate FAILED: " + std::to_string(v.failures.size()) + " figure(s) worse than tolerance. If the change is "
             "intended and the README explains it, rewrite the committed figures: llmsim-cli accuracy --gate " + path + " --write\n";
    else
        s += "accuracy gate passed";
    if (!v.failed() && !v.improvements.empty())
        s += "; " + std::to_string(v.improvements.size()) + " figure(s) improved: record them with llmsim-cli accuracy --gate " +
             path + " --write (and regenerate the README table: llmsim-cli accuracy --headline)";
    if (!v.failed()) s += "\n";
    return s;
}

// [SECTION] Headline table -------------------------------------------------------------------------------

namespace {
double figure(const GateFile& g, const std::string& name, bool& ok) {
    for (const GateFigure& f : g.figures) if (f.name == name) return f.value;
    ok = false;
    return 0;
}
std::string pct(double v, int decimals) {
    char b[32];
    snprintf(b, sizeof b, "%.*f %%", decimals, v);
    return b;
}
}  // namespace

std::string format_headline_md(const GateFile& g) {
    std::string s;
    bool ok = true;
    s += "| speed model | held out | test | builds | rows | MdAPE | within ±25 % | band coverage |\n";
    s += "|---|---|---|---|---|---|---|---|\n";
    // the forecast first: a publication and every device it measured held out, per build era (coverage cross-validated)
    for (int k = 0; k < 2; ++k)
        for (const auto& [era, era_label] : {std::pair<const char*, const char*>{"older", "before 2025-10"}, {"fresh", "2025-10+"},
                                             {"all", "all"}}) {
            const std::string p = std::string("speed.") + kKindName[k] + ".source_devices_out." + era;
            s += std::string("| llama.cpp | source + its devices out | ") + kKindName[k] + " | " + era_label + " | " +
                 std::to_string((long long)std::llround(figure(g, p + ".rows", ok))) + " | " +
                 pct(figure(g, p + ".mdape", ok), 1) + " | " + pct(figure(g, p + ".within25", ok), 0) + " | " +
                 pct(figure(g, p + ".coverage", ok), 0) + " |\n";
        }
    for (const auto& [scheme, label] : {std::pair<const char*, const char*>{"source_out", "source out"}, {"device_out", "device out"}})
        for (int k = 0; k < 2; ++k)
            for (const auto& [era, era_label] : {std::pair<const char*, const char*>{"all", "all"}, {"recent", "2025–26"}}) {
                const std::string p = std::string("speed.") + kKindName[k] + "." + scheme + "." + era;
                s += std::string("| llama.cpp | ") + label + " | " + kKindName[k] + " | " + era_label + " | " +
                     std::to_string((long long)std::llround(figure(g, p + ".rows", ok))) + " | " +
                     pct(figure(g, p + ".mdape", ok), 1) + " | " + pct(figure(g, p + ".within25", ok), 0) + " | " +
                     pct(figure(g, p + ".coverage", ok), 0) + " |\n";
            }
    s += "\n| serving engine | held out | rows | output tok/s MdAPE | within ±25 % | band coverage | TPOT MdAPE | TTFT MdAPE |\n";
    s += "|---|---|---|---|---|---|---|---|\n";
    // one row per engine, in the file's order. The pooled "all" figures stay in the gate but not in the headline: three
    // quarters of the rows are TensorRT-LLM's own tables, so a pooled line forecasts what no vLLM or SGLang user sees
    std::vector<std::string> engines;
    for (const GateFigure& f : g.figures) {
        if (f.name.compare(0, 8, "serving.") != 0) continue;
        const std::string e = f.name.substr(8, f.name.find('.', 8) - 8);
        if (e == "all") continue;
        if (std::find(engines.begin(), engines.end(), e) == engines.end()) engines.push_back(e);
    }
    // TPOT / TTFT MdAPE over the rows that published the metric ("–" where none did)
    auto metric = [&](const std::string& p, const char* m) {
        return figure(g, p + "." + m + "_rows", ok) > 0 ? pct(figure(g, p + "." + m + "_mdape", ok), 1) : std::string("–");
    };
    for (const std::string& e : engines) {
        const llmsim::Engine* r = serving::find_engine(e);
        const std::string p = "serving." + e;
        const std::string name = r ? r->display_name : e;
        s += "| " + name + " | source out | " + std::to_string((long long)std::llround(figure(g, p + ".rows", ok))) + " | " +
             pct(figure(g, p + ".out_mdape", ok), 1) + " | " + pct(figure(g, p + ".within25", ok), 0) + " | " +
             pct(figure(g, p + ".coverage", ok), 0) + " | " + metric(p, "tpot") + " | " + metric(p, "ttft") + " |\n";
    }
    if (!ok) s += "\n(some figures are missing from the gate file: rewrite it with llmsim-cli accuracy --gate FILE --write)\n";
    return s;
}

bool text_between_markers(const std::string& doc, const std::string& begin, const std::string& end, std::string& out) {
    const size_t b = doc.find(begin);
    if (b == std::string::npos) return false;
    const size_t body = doc.find('\n', b);
    if (body == std::string::npos) return false;
    const size_t e = doc.find(end, body);
    if (e == std::string::npos) return false;
    const size_t line_start = doc.rfind('\n', e);   // the end marker's line starts after this newline
    out = line_start == std::string::npos || line_start < body ? std::string() : doc.substr(body + 1, line_start + 1 - (body + 1));
    return true;
}

}  // namespace llmsim
