// The offload group's leave-one-source-out score. See offload_accuracy.h.
#include "calibration/offload_accuracy.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <cstdio>
#include <map>

#include "calibration/parallel.h"
#include "core/stats.h"

namespace llmsim {

namespace {

// the held-out prediction's band (the shipped one) contains the measurement?
bool inside_band(const CalibrationRow& r, double predicted, const SpeedParams& bands) {
    SpeedResult res;
    res.tokens_per_s = predicted;
    res.fp16_tflops_estimated = r.scenario.fp16_tflops_estimated || !(r.scenario.fp16_tflops > 0);
    apply_speed_band(res, bands, r.scenario.test, r.scenario.kind);
    return r.measured_tokens_per_s >= res.low && r.measured_tokens_per_s <= res.high;
}

}  // namespace

OffloadReport score_offload_rows(const std::vector<CalibrationRow>& fit_rows, const std::vector<CalibrationRow>& offload_rows,
                                 const SpeedParams& start, const FitOptions& opt) {
    OffloadReport rep;
    rep.fit_rows = (int)fit_rows.size();
    // each publication's training set: the full-GPU rows of the other publications; publications without full-GPU
    // rows of their own share one fit (the same training set)
    std::vector<std::string> sources;
    for (const CalibrationRow& r : offload_rows)
        if (std::find(sources.begin(), sources.end(), source_key(r.source)) == sources.end()) sources.push_back(source_key(r.source));
    std::vector<std::string> fit_keys;   // "" = every full-GPU row
    std::vector<size_t> fit_of(sources.size());
    for (size_t s = 0; s < sources.size(); ++s) {
        const bool own = std::any_of(fit_rows.begin(), fit_rows.end(), [&](const CalibrationRow& r) { return source_key(r.source) == sources[s]; });
        const std::string key = own ? sources[s] : "";
        auto it = std::find(fit_keys.begin(), fit_keys.end(), key);
        fit_of[s] = (size_t)(it - fit_keys.begin());
        if (it == fit_keys.end()) fit_keys.push_back(key);
    }
    FitOptions held_out = opt;
    held_out.from_priors = true;
    std::vector<SpeedParams> fits(fit_keys.size());
    parallel_folds(fit_keys.size(), [&](size_t f) {
        std::vector<CalibrationRow> train;
        for (const CalibrationRow& r : fit_rows) {
            assert(!r.offload);
            if (fit_keys[f].empty() || source_key(r.source) != fit_keys[f]) train.push_back(r);
        }
        fits[f] = fit_speed_params(train, start, held_out);
    });
    rep.fits = (int)fits.size();
    std::vector<double> err[2];
    int in[2] = {0, 0};
    std::map<std::string, size_t> index;
    for (size_t s = 0; s < sources.size(); ++s) index[sources[s]] = s;
    rep.per_source.resize(sources.size());
    std::vector<std::vector<double>> src_err[2];
    src_err[0].resize(sources.size());
    src_err[1].resize(sources.size());
    for (const CalibrationRow& r : offload_rows) {
        const size_t s = index[source_key(r.source)];
        SpeedResult res = estimate_speed(r.scenario, fits[fit_of[s]]);
        const double pred = res.ok ? res.tokens_per_s : 0.0;
        rep.predictions.push_back({&r, pred, seed_tokens_per_s(r.scenario, r.total_params)});
        const int k = r.scenario.test == SpeedTest::Decode ? 0 : 1;
        const double e = pred / r.measured_tokens_per_s - 1;
        err[k].push_back(e);
        src_err[k][s].push_back(e);
        in[k] += pred > 0 && inside_band(r, pred, start) ? 1 : 0;
    }
    for (int k = 0; k < 2; ++k) {
        rep.stats[k] = error_stats(err[k]);
        rep.coverage[k] = err[k].empty() ? 0 : (double)in[k] / (double)err[k].size();
        rep.signed_median[k] = median(err[k]);
        for (size_t s = 0; s < sources.size(); ++s) {
            OffloadSourceStats& ps = rep.per_source[s];
            ps.source = sources[s];
            ps.rows[k] = (int)src_err[k][s].size();
            ps.signed_median[k] = median(src_err[k][s]);
            ps.mdape[k] = error_stats(src_err[k][s]).mdape;
        }
    }
    return rep;
}

std::string format_offload_report(const OffloadReport& r) {
    std::string out;
    char buf[512];
    snprintf(buf, sizeof buf,
             "\noffload group: weights partly in host RAM (-ngl below the layer count, --n-cpu-moe, -ot); %d rows from %zu "
             "publications, each held out by publication (%d fit%s on %d full-GPU rows, never on these); not pooled with "
             "the full-GPU figures\n",
             r.stats[0].rows + r.stats[1].rows, r.per_source.size(), r.fits, r.fits == 1 ? "" : "s", r.fit_rows);
    out += buf;
    out += "          rows   MdAPE  within 25 %  band coverage  signed median\n";
    for (int k = 0; k < 2; ++k) {
        snprintf(buf, sizeof buf, "%-8s %5d %6.1f %%  %8.0f %%  %10.0f %%  %+12.0f %%\n", k == 0 ? "decode" : "prefill",
                 r.stats[k].rows, r.stats[k].mdape * 100, r.stats[k].within25 * 100, r.coverage[k] * 100, r.signed_median[k] * 100);
        out += buf;
    }
    out += "per publication (signed median of predicted/measured - 1; MdAPE; rows):\n";
    for (const OffloadSourceStats& s : r.per_source) {
        std::string line = "  " + s.source + "\n   ";
        for (int k = 0; k < 2; ++k) {
            if (s.rows[k] == 0) continue;
            snprintf(buf, sizeof buf, " %s %+.0f %% (MdAPE %.0f %%, %d rows)", k == 0 ? "decode" : "prefill", s.signed_median[k] * 100,
                     s.mdape[k] * 100, s.rows[k]);
            line += buf;
        }
        out += line + "\n";
    }
    return out;
}

}  // namespace llmsim
