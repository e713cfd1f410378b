#include "sim/recommend.h"

#include <algorithm>
#include <cmath>
#include <memory>

#include "core/format.h"
#include "memory/prepared_weights.h"
#include "runtime/speed_glue.h"
#include "sim/speed_labels.h"

namespace llmsim {

namespace {

double price_of(const Hardware& h) { return h.price_usd > 0 ? h.price_usd : h.price_used_usd; }

bool fits(FitStatus s, bool allow_tunable) {
    return s == FitStatus::Comfortable || s == FitStatus::Tight || (allow_tunable && s == FitStatus::TunableUma);
}

// the query's monthly load on this option, by the cost model's capacity rule (730 h per device per month)
CostResult monthly_load_cost(const RecommendQuery& q, const Candidate& c) {
    CostInputs in;
    in.input_mtok_per_month = q.load_mtok_per_month * q.load_input_share;
    in.output_mtok_per_month = q.load_mtok_per_month * (1 - q.load_input_share);
    if (c.eval.speed.ok) { in.prefill_tokens_per_s = c.eval.speed.prefill_tps; in.decode_tokens_per_s = c.eval.speed.decode_tps; }
    in.hardware_price_usd = c.price_usd;
    in.device_power_w = c.power_w;
    in.cloud_usd_per_hour = c.cloud_usd_per_hour;
    return estimate_cost(in);
}

}  // namespace

RecommendResult recommend_hardware(const Catalog& cat, const RecommendQuery& q) {
    RecommendResult r;
    if (!q.model) { r.error = "no model given"; return r; }
    if (q.ctx_tokens < 1) { r.error = "context must be at least 1 token"; return r; }
    if (q.decode_depth && (*q.decode_depth < 0 || *q.decode_depth > q.ctx_tokens)) { r.error = "the decode depth must be from 0 to the context (" + std::to_string(q.ctx_tokens) + ")"; return r; }
    for (double v : {q.min_decode_tps, q.max_ttft_s, q.max_price_usd, q.max_power_w, q.max_cloud_usd_per_hour})
        if (!std::isfinite(v) || v < 0) { r.error = "constraints must be ≥ 0 (0 = no constraint)"; return r; }
    if (!std::isfinite(q.load_mtok_per_month) || q.load_mtok_per_month < 0) { r.error = "tokens per month must be ≥ 0"; return r; }
    if (!(q.load_input_share >= 0 && q.load_input_share <= 1)) { r.error = "input share must be between 0 and 1"; return r; }
    const bool with_load = q.load_mtok_per_month > 0;

    std::vector<std::pair<Hardware, bool>> pool;
    for (const Hardware& h : cat.hardware) pool.push_back({h, false});
    if (q.include_multi_gpu)   // the catalog's combinations (gpu_combos.h), the same ids predict/memory/fit accept
        for (const Hardware& h : cat.combinations)
            if (h.gpu_count <= q.max_gpus) pool.push_back({h, true});

    SimRequest req;
    req.memory.file_type = q.quant;
    req.memory.n_ctx = q.ctx_tokens;
    req.memory.compute_max_context = false;
    req.prompt_tokens = q.prompt_tokens;
    req.device_profile = q.device_profile;
    // every option in one grid (simulate.h evaluate_grid: the layouts and placements shared by the devices of one
    // backend and GPU count), the weights prepared once as evaluate() prepares them
    const size_t n = pool.size();
    std::vector<const Hardware*> devices;
    for (const auto& p : pool) devices.push_back(&p.first);
    std::vector<Evaluation> evals(n);
    std::unique_ptr<bool[]> ok(new bool[n]);
    std::vector<std::string> errs(n);
    std::string werr;
    const std::shared_ptr<const PreparedWeights> w = prepare_weights(cat, *q.model, q.quant, werr, 0);
    if (w) evaluate_grid(cat, *w, *q.model, req, devices.data(), (int)n, &q.ctx_tokens, 1, evals.data(), ok.get(), errs.data());
    for (size_t i = 0; i < n; ++i) {
        const auto& [hw, synthetic] = pool[i];
        Candidate c;
        c.hardware = hw;
        c.synthetic = synthetic;
        c.price_usd = price_of(hw);   // rigs: the catalog prices all GPUs together
        c.power_w = hw.tdp_w * std::max(1, hw.gpu_count);
        c.cloud_usd_per_hour = hw.cloud_usd_per_hour * std::max(1, hw.gpu_count);
        req.memory.hardware = &c.hardware;
        c.eval = std::move(evals[i]);
        if (!w || !ok[i]) { c.reason = w ? errs[i] : werr; r.rejected.push_back(c); continue; }
        const MemoryBreakdown& mb = c.eval.memory;
        const SpeedView& sp = c.eval.speed;
        if (with_load) c.load_cost = monthly_load_cost(q, c);
        // with a load, the rent limit applies to the N devices that serve it, all rented at once
        const double setup_usd_per_hour = c.cloud_usd_per_hour * (with_load ? (double)c.load_cost.devices_needed : 1.0);
        // decode where the constraint holds: the full context (worst case) unless the user picked a depth
        c.decode_checked_depth = q.decode_depth.value_or(sp.decode_full_depth);
        c.decode_checked_tps = sp.decode_full_tps;
        if (sp.ok && q.decode_depth) {
            SpeedResult d = decode_at_depth(*q.model, req, c.eval, *q.decode_depth);
            c.decode_checked_tps = d.ok ? d.tokens_per_s : 0;
        }
        if (!fits(mb.status, q.allow_tunable_uma)) {
            c.reason = std::string("does not fit: ") + to_string(mb.status) + ", needs " + format_gib((double)mb.total_bytes) +
                       " of " + format_gib((double)mb.usable_bytes) + " usable";
        } else if ((q.min_decode_tps > 0 || q.max_ttft_s > 0) && !sp.ok) {
            c.reason = "no speed estimate: " + sp.error;
        } else if (q.min_decode_tps > 0 && c.decode_checked_tps < q.min_decode_tps) {
            c.reason = "too slow: " + decode_label(c.decode_checked_depth) + " " + format_sig(c.decode_checked_tps) + " tok/s < " +
                       format_sig(q.min_decode_tps);
        } else if (q.max_ttft_s > 0 && sp.ttft_s > q.max_ttft_s) {
            c.reason = "TTFT " + format_sig(sp.ttft_s) + " s > " + format_sig(q.max_ttft_s) + " s";
        } else if (q.max_cloud_usd_per_hour > 0 && c.cloud_usd_per_hour <= 0) {
            c.reason = "not rentable (no sourced cloud price)";
        } else if (q.max_cloud_usd_per_hour > 0 && with_load && !c.load_cost.error.empty()) {
            c.reason = "monthly load: " + c.load_cost.error;
        } else if (q.max_cloud_usd_per_hour > 0 && setup_usd_per_hour > q.max_cloud_usd_per_hour) {
            c.reason = "rent $" + format_fixed(setup_usd_per_hour, 2) + "/h > $" + format_fixed(q.max_cloud_usd_per_hour, 2) + "/h" +
                       (with_load && c.load_cost.devices_needed > 1 ? " (" + capacity_note(c.load_cost) + ")" : "");
        } else if (q.max_price_usd > 0 && c.price_usd <= 0 && q.max_cloud_usd_per_hour <= 0) {
            c.reason = "no purchase price known";
        } else if (q.max_price_usd > 0 && q.max_cloud_usd_per_hour <= 0 && c.price_usd > q.max_price_usd) {
            c.reason = "price $" + format_sig(c.price_usd, 4) + " > $" + format_sig(q.max_price_usd, 4);
        } else if (q.max_power_w > 0 && c.power_w > q.max_power_w) {
            c.reason = "power " + format_sig(c.power_w) + " W > " + format_sig(q.max_power_w) + " W";
        }
        (c.reason.empty() ? r.accepted : r.rejected).push_back(c);
    }
    const bool renting = q.max_cloud_usd_per_hour > 0;
    std::stable_sort(r.accepted.begin(), r.accepted.end(), [&](const Candidate& a, const Candidate& b) {
        double ka = renting ? (with_load ? a.load_cost.rent_usd_per_month : a.cloud_usd_per_hour) : (a.price_usd > 0 ? a.price_usd : 1e30);
        double kb = renting ? (with_load ? b.load_cost.rent_usd_per_month : b.cloud_usd_per_hour) : (b.price_usd > 0 ? b.price_usd : 1e30);
        if (ka != kb) return ka < kb;
        return a.decode_checked_tps > b.decode_checked_tps;
    });
    return r;
}

std::vector<ModelChoice> best_models_for(const Catalog& cat, const Hardware& hw, int64_t ctx_tokens, double min_decode_tps,
                                         const std::vector<std::string>& quants) {
    std::vector<ModelChoice> out;
    for (const Model& m : cat.models) {
        for (const std::string& q : quants) {   // quants ordered best quality first
            SimRequest req;
            req.memory.file_type = q;
            req.memory.n_ctx = ctx_tokens;
            req.memory.hardware = &hw;
            req.memory.compute_max_context = false;
            ModelChoice c;
            c.model = &m;
            c.quant = q;
            std::string err;
            if (!evaluate(cat, m, req, c.eval, err)) continue;
            if (!fits(c.eval.memory.status, true)) continue;
            if (min_decode_tps > 0 && (!c.eval.speed.ok || c.eval.speed.decode_full_tps < min_decode_tps)) continue;
            out.push_back(c);
            break;
        }
    }
    std::stable_sort(out.begin(), out.end(), [](const ModelChoice& a, const ModelChoice& b) {
        return a.eval.params.total > b.eval.params.total;
    });
    return out;
}

}  // namespace llmsim
