// The MLX speed fit and its leave-one-source-out report (mlx_fit.h).
#include "calibration/mlx_fit.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>

#include <nlohmann/json.hpp>

#include "core/lines.h"
#include "core/stats.h"
#include "runtime/runtime.h"
#include "runtime/scenario.h"
#include "sim/simulate.h"

namespace llmsim {

namespace {

using json = nlohmann::json;

// the held-out errors' quantiles that make a nominal 85 % band (as the serving fit's kBandQuantile)
constexpr double kBandLow = 0.075, kBandHigh = 0.925;

double predict(const MlxRow& r, const MlxSpeedParams& p) {
    return r.decode ? mlx_decode_tps(r.in, p, r.depth + r.tokens / 2) : mlx_prefill_tps(r.in, p, r.tokens, r.depth);
}

// sum of |log(predicted / measured)| over the rows of one kind (L1 in log space: robust to one odd row)
double loss(const std::vector<const MlxRow*>& rows, const MlxSpeedParams& p) {
    double s = 0;
    for (const MlxRow* r : rows) {
        const double v = predict(*r, p);
        s += v > 0 ? std::fabs(std::log(v / r->measured_tps)) : 10.0;
    }
    return s;
}

// grid search: decode rows fit bw_share and per_token_ms, then moe_layer_ms; prefill rows compute_share (the
// per-chunk share of per_token_ms is negligible against a 2048-token chunk)
MlxSpeedParams fit(const std::vector<const MlxRow*>& rows) {
    std::vector<const MlxRow*> dec, pre;
    for (const MlxRow* r : rows) (r->decode ? dec : pre).push_back(r);
    MlxSpeedParams best;
    double best_loss = 1e300;
    for (int b = 0; b <= 120 && !dec.empty(); ++b)
        for (int t = 0; t <= 60; ++t) {
            MlxSpeedParams p = best;
            p.bw_share = 0.40 + 0.005 * b;
            p.per_token_ms = 0.05 * t;
            const double l = loss(dec, p);
            if (l < best_loss) { best_loss = l; best.bw_share = p.bw_share; best.per_token_ms = p.per_token_ms; }
        }
    // MoE rows: the per-layer cost on top of the dense fit (dense rows have no MoE layers, so it moves only these)
    best_loss = 1e300;
    for (int k = 0; k <= 100 && !dec.empty(); ++k) {
        MlxSpeedParams p = best;
        p.moe_layer_ms = 0.002 * k;
        const double l = loss(dec, p);
        if (l < best_loss) { best_loss = l; best.moe_layer_ms = p.moe_layer_ms; }
    }
    best_loss = 1e300;
    for (int c = 0; c <= 260 && !pre.empty(); ++c) {
        MlxSpeedParams p = best;
        p.compute_share = 0.20 + 0.005 * c;
        const double l = loss(pre, p);
        if (l < best_loss) { best_loss = l; best.compute_share = p.compute_share; }
    }
    return best;
}

// fill the row's formula inputs from an MLX scenario of its model, quant and device
bool prepare_row(const Catalog& cat, MlxRow& r) {
    const Model* m = cat.find_model(r.model);
    const Hardware* hw = cat.find_hardware(r.hardware);
    if (!m || !hw) { r.error = !m ? "unknown model " + r.model : "unknown hardware " + r.hardware; return false; }
    SimRequest req;
    req.engine = EngineId::Mlx;
    req.memory.file_type = r.quant;
    req.memory.hardware = hw;
    req.memory.n_ctx = std::max<int64_t>(256, r.depth + r.tokens);
    req.memory.allow_extended_context = true;
    req.prompt_tokens = r.decode ? r.depth : r.tokens;
    req.with_speed = false;
    Evaluation ev;
    if (!evaluate(cat, *m, req, ev, r.error)) return false;
    r.predicted_total_gb = (double)ev.memory.total_bytes / 1e9;
    return mlx::speed_inputs(*m, req, ev, r.in, r.error);
}

double pct(double predicted, double measured) { return 100.0 * std::fabs(predicted / measured - 1.0); }

void summarize(MlxReport& rep) {
    std::vector<double> ad, ap, sd, sp, ed, ep, cls[2][2];   // cls[decode][moe]
    for (const MlxHeldOut& h : rep.held_out) {
        cls[h.decode][h.moe].push_back(pct(h.predicted, h.measured));
        (h.decode ? ad : ap).push_back(pct(h.predicted, h.measured));
        (h.decode ? sd : sp).push_back(pct(h.predicted_shipped, h.measured));
        (h.decode ? ed : ep).push_back(h.measured / h.predicted - 1.0);
    }
    rep.mdape_decode_dense = median(cls[1][0]);
    rep.mdape_decode_moe = median(cls[1][1]);
    rep.mdape_prefill_dense = median(cls[0][0]);
    rep.mdape_prefill_moe = median(cls[0][1]);
    rep.decode_moe_rows = cls[1][1].size();
    rep.prefill_moe_rows = cls[0][1].size();
    rep.mdape_decode = median(ad);
    rep.mdape_prefill = median(ap);
    rep.mdape_decode_shipped = median(sd);
    rep.mdape_prefill_shipped = median(sp);
    rep.band_decode_low = quantile(ed, kBandLow);
    rep.band_decode_high = quantile(ed, kBandHigh);
    rep.band_prefill_low = quantile(ep, kBandLow);
    rep.band_prefill_high = quantile(ep, kBandHigh);
    // coverage without looking at the row's own source: its band comes from the other sources' held-out errors
    size_t in_d = 0, in_p = 0;
    for (MlxHeldOut& h : rep.held_out) {
        std::vector<double> others;
        for (const MlxHeldOut& o : rep.held_out)
            if (o.source != h.source && o.decode == h.decode) others.push_back(o.measured / o.predicted - 1.0);
        const double lo = h.predicted * (1.0 + quantile(others, kBandLow));
        const double hi = h.predicted * (1.0 + quantile(others, kBandHigh));
        h.in_band = !others.empty() && h.measured >= lo && h.measured <= hi;
        (h.decode ? in_d : in_p) += h.in_band ? 1 : 0;
    }
    rep.coverage_decode = ad.empty() ? 0 : 100.0 * (double)in_d / (double)ad.size();
    rep.coverage_prefill = ap.empty() ? 0 : 100.0 * (double)in_p / (double)ap.size();
}

}  // namespace

// one row of the JSONL; false + err (without the line number) when a field is missing or out of range
static bool parse_mlx_row(const std::string& line, MlxRow& r, std::string& err) {
    const json j = json::parse(line, nullptr, false);
    if (j.is_discarded() || !j.is_object() || !j.contains("test") || !j["test"].is_object()) {
        err = "not a JSON row with a test object";
        return false;
    }
    r = MlxRow{};
    r.id = j.value("id", "");
    r.model = j.value("model", "");
    r.quant = j.value("quant", "");
    r.hardware = j.value("hardware", "");
    r.source = j.value("source", "");
    r.date = j.value("date", "");
    r.engine = j.value("engine", "");
    const std::string kind = j["test"].value("kind", "");
    r.decode = kind == "decode";
    r.tokens = j["test"].value("tokens", (int64_t)0);
    r.depth = j["test"].value("depth", (int64_t)0);
    r.measured_tps = j.value("measured_tokens_per_s", 0.0);
    r.peak_memory_gb = j.value("peak_memory_gb", 0.0);
    if ((kind != "decode" && kind != "prefill") || r.tokens < 1 || r.depth < 0 || !(r.measured_tps > 0) ||
        r.model.empty() || r.source.empty()) {
        err = "needs model, source, test.kind decode|prefill, test.tokens >= 1 and measured_tokens_per_s > 0";
        return false;
    }
    return true;
}

bool parse_mlx_rows(const std::string& text, std::vector<MlxRow>& out, std::string& err) {
    out.clear();
    return for_each_line(text, [&](const std::string& line, int line_no) {
        if (blank_line(line)) return true;
        MlxRow r;
        if (!parse_mlx_row(line, r, err)) {
            err = "line " + std::to_string(line_no) + ": " + err;
            return false;
        }
        out.push_back(r);
        return true;
    });
}

MlxReport mlx_report(const Catalog& cat, std::vector<MlxRow>& rows) {
    MlxReport rep;
    std::vector<const MlxRow*> ok;
    std::set<std::string> sources;
    std::vector<double> mem_abs, mem_signed;
    for (MlxRow& r : rows) {
        r.ok = prepare_row(cat, r);
        if (!r.ok) { rep.errors.push_back(r.id + ": " + r.error); ++rep.skipped; continue; }
        ok.push_back(&r);
        sources.insert(r.source);
        (r.decode ? rep.decode_rows : rep.prefill_rows)++;
        if (r.peak_memory_gb > 0 && !r.decode) {   // one memory check per run (its prefill row)
            mem_abs.push_back(pct(r.predicted_total_gb, r.peak_memory_gb));
            mem_signed.push_back(100.0 * (r.predicted_total_gb / r.peak_memory_gb - 1.0));
        }
    }
    rep.rows = ok.size();
    rep.sources = sources.size();
    rep.memory_rows = mem_abs.size();
    rep.memory_mdape = median(mem_abs);
    rep.memory_median_signed = median(mem_signed);
    rep.fitted = fit(ok);
    for (const std::string& s : sources) {
        std::vector<const MlxRow*> train;
        for (const MlxRow* r : ok) if (r->source != s) train.push_back(r);
        const MlxSpeedParams p = fit(train);
        for (const MlxRow* r : ok) {
            if (r->source != s) continue;
            // a source with only one kind of row trains the other kind on every other source anyway
            MlxHeldOut h{r->id, r->source, r->model, r->hardware, r->quant, r->decode, r->in.moe_layers > 0,
                         r->measured_tps, predict(*r, p), predict(*r, rep.fitted), false};
            rep.held_out.push_back(h);
        }
    }
    summarize(rep);
    return rep;
}

std::string format_mlx_report(const MlxReport& r) {
    std::string s;
    char b[512];
    snprintf(b, sizeof b, "MLX speed: %zu rows (%zu decode, %zu prefill) from %zu sources, %zu skipped\n", r.rows,
             r.decode_rows, r.prefill_rows, r.sources, r.skipped);
    s += b;
    snprintf(b, sizeof b, "fitted on every row: bw_share %.3f, compute_share %.3f, per_token_ms %.2f, moe_layer_ms %.3f\n",
             r.fitted.bw_share, r.fitted.compute_share, r.fitted.per_token_ms, r.fitted.moe_layer_ms);
    s += b;
    s += "held out (source out): row, model, device, quant, test, measured, predicted, shipped, in band\n";
    for (const MlxHeldOut& h : r.held_out) {
        snprintf(b, sizeof b, "  %-5s %-36s %-12s %-13s %-7s %9.1f %9.1f %9.1f %s\n", h.id.c_str(), h.model.c_str(),
                 h.hardware.c_str(), h.quant.c_str(), h.decode ? "decode" : "prefill", h.measured, h.predicted,
                 h.predicted_shipped, h.in_band ? "yes" : "no");
        s += b;
    }
    snprintf(b, sizeof b,
             "decode:  MdAPE %.1f %% held out (%.1f %% in sample), band %+.2f / %+.2f, coverage %.0f %% of %zu rows\n"
             "prefill: MdAPE %.1f %% held out (%.1f %% in sample), band %+.2f / %+.2f, coverage %.0f %% of %zu rows\n",
             r.mdape_decode, r.mdape_decode_shipped, r.band_decode_low, r.band_decode_high, r.coverage_decode,
             r.decode_rows, r.mdape_prefill, r.mdape_prefill_shipped, r.band_prefill_low, r.band_prefill_high,
             r.coverage_prefill, r.prefill_rows);
    s += b;
    snprintf(b, sizeof b, "per class, held out: decode dense %.1f %% (%zu rows), MoE %.1f %% (%zu rows); prefill dense %.1f %% "
             "(%zu rows), MoE %.1f %% (%zu rows)\n", r.mdape_decode_dense, r.decode_rows - r.decode_moe_rows,
             r.mdape_decode_moe, r.decode_moe_rows, r.mdape_prefill_dense, r.prefill_rows - r.prefill_moe_rows,
             r.mdape_prefill_moe, r.prefill_moe_rows);
    s += b;
    snprintf(b, sizeof b, "memory: predicted total vs published peak memory on %zu runs: MdAPE %.1f %%, median %+.1f %%\n",
             r.memory_rows, r.memory_mdape, r.memory_median_signed);
    s += b;
    for (const std::string& e : r.errors) s += "skipped " + e + "\n";
    return s;
}

}  // namespace llmsim
