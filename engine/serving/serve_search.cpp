// The SLA search: the largest concurrency within an SLA (bisection) and the cheapest configuration (device x
// count x engine x precision) that serves a target load within it. See serving.h [SECTION] SLA search.
//
// Cost of a search is the simulations it runs. sla_candidates() costs no simulation (memory plans and one O(1)
// step time each); with SlaSearch::limit the candidates run cheapest floor first and stop once no remaining floor
// can beat the limit-th cheapest point found, so the dominated configurations (too many GPUs for the load, a
// slow device at a high price) are never simulated.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>

#include "catalog/catalog.h"
#include "serving/serving_internal.h"
#include "rig/resolve_device.h"

namespace llmsim {

namespace {

bool meets(const ServeSla& sla, const ServeResult& r) {
    if (!r.ok) return false;
    if (sla.ttft_p90_ms > 0 && r.load.ttft_ms.p90 > sla.ttft_p90_ms) return false;
    if (sla.tpot_p90_ms > 0 && r.load.tpot_ms.p90 > sla.tpot_p90_ms) return false;
    return true;
}

double rank_key(double usd) { return usd < 0 ? 1e18 : usd; }

// the model's parameter counts, once per search (nullptr: build_shape counts them itself, and reports the error)
const ParamCounts* model_counts(const Catalog& cat, const ServeRequest& req, ParamCounts& pc) {
    const Model* m = req.model_override ? req.model_override.get() : cat.find_model(req.model);
    std::string err;
    return m && count_params(*m, pc, err) ? &pc : nullptr;
}

ServeResult run(const Catalog& cat, const ServeRequest& q, const ParamCounts* pc) {
    return serving::serve_with(cat, q, serving::shipped_speed_table(), pc);
}

ServeRequest candidate_request(const ServeRequest& req, const SlaCandidate& c) {
    ServeRequest q = req;
    q.engine = c.engine; q.precision = c.precision; q.hardware = c.hardware; q.hardware_override = nullptr;
    q.gpus = c.gpus; q.tp = c.tp; q.pp = c.pp;
    q.disaggregation = c.disagg;
    q.with_single_stream = false;
    return q;
}

SlaCandidate point_candidate(const SlaPoint& p) {
    SlaCandidate c;
    c.engine = p.engine; c.precision = p.precision; c.hardware = p.hardware;
    c.gpus = p.gpus; c.tp = p.tp; c.pp = p.pp; c.disagg = p.disagg;
    return c;
}

// $/1M output tokens no load can beat: the cost at an upper bound on output tok/s. A step yields at most one token
// per decoding sequence and lasts at least step_time(that batch at the shortest prompt's depth, no prefill);
// step_time / batch falls with the batch (fixed weights + overhead, per-sequence terms linear), so the bound is the
// largest batch the load can keep running: the target concurrency per replica, else the engine's max_num_seqs
double cost_floor(const serving::ReplicaShape& s, const ServeRequest& q) {
    const serving::SpeedTable t = serving::shipped_speed_table();
    int rep = std::max(1, s.replicas);
    int seqs = serving::effective_max_num_seqs(q, s);
    int n = q.workload.concurrency > 0 ? std::min(seqs, (q.workload.concurrency + rep - 1) / rep) : seqs;
    n = std::max(1, n);
    // a decoding sequence holds at least its prompt: fixed lengths exactly input_len, uniform ones at least
    // input_len x (1 - range_ratio) (serve_load.cpp draw_len), ShareGPT-like ones no known minimum
    const ServeWorkload& w = q.workload;
    double depth = w.dist == LengthDist::Fixed ? (double)w.input_len
                 : w.dist == LengthDist::Uniform ? std::floor((double)w.input_len * (1 - w.range_ratio)) : 0.0;
    const int64_t max_len = q.max_model_len > 0 ? q.max_model_len : s.model->native_context;   // prompts are cut to it
    if (max_len > 0) depth = std::min(depth, (double)max_len - 1);
    double step_s = serving::step_time(s, t.e[(int)s.engine], n, n * std::max(0.0, depth), 0, 0.0, nullptr);
    if (!(step_s > 0)) return -1;
    ServeCost c;
    serving::fill_cost(s, rep * s.tp * s.pp, rep * n / step_s, 0, c);
    return c.usd_per_mtok_rent_batched >= 0 ? c.usd_per_mtok_rent_batched : c.usd_per_mtok_own_batched;
}

// the TPOT no load can beat: every step between a request's first and last token holds at least that request, and
// a step lasts at least step_time(one sequence at depth 0) (step_time grows with the batch and the depth). (No TTFT
// floor: a prompt's chunks may be cut small, and the sum of small chunks' steps is not bounded by one big one's)
void latency_floors(const serving::ReplicaShape& s, const ServeRequest&, SlaCandidate& c) {
    const serving::SpeedTable t = serving::shipped_speed_table();
    c.tpot_floor_ms = serving::step_time(s, t.e[(int)s.engine], 1, 0.0, 0, 0.0, nullptr) * 1e3;
}

}  // namespace

void sort_sla_points(std::vector<SlaPoint>& pts) {
    std::stable_sort(pts.begin(), pts.end(), [](const SlaPoint& a, const SlaPoint& b) {
        return rank_key(a.usd_per_mtok) < rank_key(b.usd_per_mtok);
    });
}

namespace {
// TTFT and TPOT grow with concurrency (more sequences per step, longer queues): bisection over C; counts serve() runs
int bisect_concurrency(const Catalog& cat, const ServeRequest& req, int max_concurrency, ServeResult* at, int* runs,
                       const ParamCounts* pc) {
    ServeRequest q = req;
    q.with_single_stream = false;
    auto run_at = [&](int c) { if (runs) ++*runs; return run(cat, closed_loop_at(q, c), pc); };
    ServeResult lo_r = run_at(1);
    if (!meets(req.sla, lo_r)) return 0;
    int lo = 1, hi = std::max(1, max_concurrency);
    ServeResult hi_r = run_at(hi);
    if (meets(req.sla, hi_r)) { if (at) *at = hi_r; return hi; }
    while (hi - lo > std::max(1, lo / 8)) {       // 1/8 resolution: enough for capacity planning, few runs
        int mid = (lo + hi) / 2;
        ServeResult m = run_at(mid);
        if (meets(req.sla, m)) { lo = mid; lo_r = m; } else hi = mid;
    }
    if (at) *at = lo_r;
    return lo;
}
}  // namespace

int sla_max_concurrency(const Catalog& cat, const ServeRequest& req, int max_concurrency, ServeResult* at) {
    ParamCounts pc;
    return bisect_concurrency(cat, req, max_concurrency, at, nullptr, model_counts(cat, req, pc));
}

namespace {
// the candidate when its memory plan fits (both pools' when disaggregated), with its cost and TPOT floors: the decode
// instances bound both (every output token is a decode step there; the prefill pool only adds GPUs to pay for)
void add_candidate(const Catalog& cat, const ServeRequest& req, SlaCandidate c, const ParamCounts* pc, std::vector<SlaCandidate>& out) {
    ServeRequest q = candidate_request(req, c);
    std::string err;
    serving::ReplicaShape s; ServeMemoryPlan mp;
    if (c.disagg.enabled()) {
        serving::ReplicaShape ps; ServeMemoryPlan pm;
        const ServeRequest pq = serving::prefill_pool_request(q);
        if (!serving::validate_disaggregation(q, err) || !serving::build_shape(cat, pq, ps, err, pc) || !serving::plan_memory(cat, pq, ps, pm, err) || !pm.fits)
            return;
        q = serving::decode_pool_request(q);
    }
    if (!serving::build_shape(cat, q, s, err, pc) || !serving::plan_memory(cat, q, s, mp, err) || !mp.fits) return;
    c.usd_per_mtok_floor = cost_floor(s, q);
    if (c.disagg.enabled() && c.usd_per_mtok_floor > 0) c.usd_per_mtok_floor *= (double)c.gpus / c.disagg.decode_gpus;
    latency_floors(s, q, c);
    out.push_back(c);
}

// a GPU count's configurations in a disaggregated search: aggregated at every power-of-two TP that divides it (the
// rest data-parallel instances, so the comparison holds the GPUs equal), and every P:D split with each pool's TP a
// power of two that divides its GPUs and fits a node
std::vector<SlaCandidate> disaggregated_space(const SlaCandidate& base, int gpus_per_node) {
    std::vector<SlaCandidate> v;
    const int g = base.gpus;
    auto tps = [&](int n) { std::vector<int> t; for (int k = 1; k <= n && k <= std::max(1, gpus_per_node); k *= 2) if (n % k == 0) t.push_back(k); return t; };
    for (int t : tps(g)) { SlaCandidate c = base; c.tp = t; v.push_back(c); }
    for (int p = 1; p < g; ++p)
        for (int pt : tps(p)) for (int dt : tps(g - p)) {
            SlaCandidate c = base;
            c.tp = dt;
            c.disagg.prefill_gpus = p; c.disagg.decode_gpus = g - p; c.disagg.prefill_tp = pt; c.disagg.decode_tp = dt;
            v.push_back(c);
        }
    return v;
}
}  // namespace

std::vector<SlaCandidate> sla_candidates(const Catalog& cat, const ServeRequest& req, const SlaSearch& space) {
    std::vector<SlaCandidate> out;
    std::vector<std::string> engines = space.engines.empty() ? std::vector<std::string>{"vllm", "sglang"} : space.engines;
    std::vector<std::string> precs = space.precisions.empty() ? std::vector<std::string>{"bf16", "fp8"} : space.precisions;
    std::vector<int> counts = space.gpu_counts.empty() ? std::vector<int>{1, 2, 4, 8} : space.gpu_counts;
    ParamCounts pcs;
    const ParamCounts* pc = model_counts(cat, req, pcs);
    for (const Hardware& h : cat.hardware) {
        if (!space.only_hardware.empty() && h.id != space.only_hardware) continue;
        if (space.datacenter_and_workstation_only && h.kind != HardwareKind::Datacenter && h.kind != HardwareKind::Workstation) continue;
        if (h.vendor != "nvidia" && h.vendor != "amd") continue;
        for (int g : counts) for (const std::string& e : engines) for (const std::string& pr : precs) {
            SlaCandidate c;
            c.engine = e; c.precision = pr; c.hardware = h.id; c.gpus = g; c.tp = g; c.pp = 1;
            if (!space.disaggregated) { add_candidate(cat, req, c, pc, out); continue; }
            for (const SlaCandidate& k : disaggregated_space(c, req.gpus_per_node)) add_candidate(cat, req, k, pc, out);
        }
    }
    std::stable_sort(out.begin(), out.end(), [](const SlaCandidate& a, const SlaCandidate& b) {
        return rank_key(a.usd_per_mtok_floor) < rank_key(b.usd_per_mtok_floor);
    });
    return out;
}

namespace {
bool evaluate(const Catalog& cat, const ServeRequest& req, const SlaSearch& space, const SlaCandidate& c, SlaPoint& pt,
              int* runs, const ParamCounts* pc) {
    ServeRequest q = candidate_request(req, c);
    ServeResult at;
    int conc = 0;
    const ServeWorkload& w = req.workload;
    if (w.concurrency > 0) {          // one run at the target load decides; the largest concurrency comes later
        at = run(cat, closed_loop_at(q, w.concurrency), pc);
        if (runs) ++*runs;
        if (!meets(req.sla, at)) return false;
        conc = w.concurrency;
    } else if (w.request_rate > 0 || w.burst) {   // an open-loop target: the request as given (default_num_prompts)
        at = run(cat, q, pc);
        if (runs) ++*runs;
        if (!meets(req.sla, at)) return false;
    } else {
        conc = bisect_concurrency(cat, q, space.max_concurrency, &at, runs, pc);
        if (conc <= 0) return false;
    }
    if (req.sla.min_output_tok_s > 0 && at.load.output_tok_s < req.sla.min_output_tok_s) return false;
    const Hardware* h = resolve_device(cat, c.hardware);
    pt = SlaPoint();
    pt.engine = c.engine; pt.hardware = c.hardware; pt.precision = c.precision; pt.gpus = c.gpus; pt.tp = c.tp; pt.pp = c.pp;
    pt.disagg = c.disagg;
    pt.max_concurrency = conc; pt.output_tok_s = at.load.output_tok_s;
    pt.ttft_p90_ms = at.load.ttft_ms.p90; pt.tpot_p90_ms = at.load.tpot_ms.p90;
    pt.price_usd = h ? h->price_usd * c.gpus : 0; pt.rent_usd_per_hour = h ? h->cloud_usd_per_hour * c.gpus : 0;
    pt.usd_per_mtok_own = at.cost.usd_per_mtok_own_batched;
    pt.usd_per_mtok_rent = at.cost.usd_per_mtok_rent_batched;
    pt.usd_per_mtok = pt.usd_per_mtok_rent >= 0 ? pt.usd_per_mtok_rent : pt.usd_per_mtok_own;
    pt.wh_per_mtok = at.cost.wh_per_mtok_batched;
    pt.command = at.command;
    return true;
}
}  // namespace

bool sla_evaluate(const Catalog& cat, const ServeRequest& req, const SlaSearch& space, const SlaCandidate& c, SlaPoint& pt,
                  int* runs) {
    ParamCounts pc;
    return evaluate(cat, req, space, c, pt, runs, model_counts(cat, req, pc));
}

void sla_search_begin(const Catalog& cat, const ServeRequest& req, const SlaSearch& space, SlaSearchJob& job) {
    job = SlaSearchJob();
    job.req = req; job.space = space;
    job.candidates = sla_candidates(cat, req, space);
    job.have_counts = model_counts(cat, req, job.counts) != nullptr;
    job.stats.candidates = (int)job.candidates.size();
}

bool sla_search_step(const Catalog& cat, SlaSearchJob& job, int max_candidates) {
    if (job.done) return true;
    const ServeRequest& req = job.req;
    const SlaSearch& space = job.space;
    const bool target = req.workload.concurrency > 0 || req.workload.request_rate > 0 || req.workload.burst;
    const bool prune = target && space.limit > 0;
    for (int n = 0; job.next < job.candidates.size() && n < std::max(1, max_candidates); ++n, ++job.next) {
        const SlaCandidate& c = job.candidates[job.next];
        // candidates come cheapest floor first: once the limit-th point is cheaper than this floor, it is
        // cheaper than every remaining floor too
        if (prune && (int)job.best.size() >= space.limit && rank_key(c.usd_per_mtok_floor) >= job.best[space.limit - 1]) {
            job.stats.pruned = (int)(job.candidates.size() - job.next);
            job.next = job.candidates.size();
            break;
        }
        if (req.sla.tpot_p90_ms > 0 && c.tpot_floor_ms > req.sla.tpot_p90_ms) { ++job.stats.infeasible; continue; }
        SlaPoint pt;
        ++job.stats.simulated;
        if (!evaluate(cat, req, space, c, pt, &job.stats.serve_runs, job.have_counts ? &job.counts : nullptr)) continue;
        job.points.push_back(pt);
        double k = rank_key(pt.usd_per_mtok);
        job.best.insert(std::upper_bound(job.best.begin(), job.best.end(), k), k);
    }
    if (job.next < job.candidates.size()) return false;
    if (!job.sorted) {
        sort_sla_points(job.points);
        if (space.limit > 0 && (int)job.points.size() > space.limit) job.points.resize(space.limit);
        job.sorted = true;
        if (req.workload.concurrency > 0 && space.exact_top > 0 && !job.points.empty()) return false;
    }
    // the largest concurrency of the cheapest exact_top points, one bisection per step
    if (req.workload.concurrency > 0 && job.next_exact < job.points.size() && (int)job.next_exact < space.exact_top) {
        SlaPoint& p = job.points[job.next_exact++];
        const SlaCandidate c = point_candidate(p);
        p.max_concurrency = bisect_concurrency(cat, candidate_request(req, c), space.max_concurrency, nullptr, &job.stats.serve_runs,
                                               job.have_counts ? &job.counts : nullptr);
        if (job.next_exact < job.points.size() && (int)job.next_exact < space.exact_top) return false;
    }
    if (space.disaggregated) job.notes = disagg_verdicts(job.points);
    for (SearchNote& n : search_prefix_reasons(cat, req, job.points)) job.notes.push_back(std::move(n));
    job.done = true;
    return true;
}

ServeRequest sla_point_request(const ServeRequest& req, const SlaPoint& p) {
    ServeRequest q = candidate_request(req, point_candidate(p));
    q.with_single_stream = req.with_single_stream;
    return q;
}

std::vector<SearchNote> disagg_verdicts(const std::vector<SlaPoint>& pts) {
    // the cheapest of each kind per device x GPU count x engine x precision (pts come cheapest first)
    struct Pair { const SlaPoint* agg = nullptr; const SlaPoint* dis = nullptr; };
    std::vector<std::pair<std::string, Pair>> groups;
    for (const SlaPoint& p : pts) {
        const std::string key = p.hardware + " x" + std::to_string(p.gpus) + " " + p.engine + " " + p.precision;
        auto it = std::find_if(groups.begin(), groups.end(), [&](const auto& g) { return g.first == key; });
        if (it == groups.end()) { groups.push_back({key, Pair()}); it = groups.end() - 1; }
        const SlaPoint*& slot = p.disagg.enabled() ? it->second.dis : it->second.agg;
        if (!slot) slot = &p;
    }
    std::vector<SearchNote> out;
    char b[512];
    for (const auto& [key, g] : groups) {
        if (!g.dis && !g.agg) continue;
        if (!g.dis) { out.push_back({key + ": aggregated only; no P:D split meets the SLA", SearchNoteKind::Against}); continue; }
        const SlaPoint& d = *g.dis;
        char split[64];
        snprintf(split, sizeof split, "%dP (tp %d) : %dD (tp %d)", d.disagg.prefill_gpus, d.disagg.prefill_tp, d.disagg.decode_gpus, d.disagg.decode_tp);
        if (!g.agg) { out.push_back({key + ": disaggregated " + split + " meets the SLA and no aggregated configuration does", SearchNoteKind::Because}); continue; }
        const SlaPoint& a = *g.agg;
        const bool wins = rank_key(d.usd_per_mtok) < rank_key(a.usd_per_mtok);
        snprintf(b, sizeof b, "%s: disaggregated %s $%.3f/1M out (%.0f tok/s, TTFT p90 %.0f ms, TPOT p90 %.1f ms) vs aggregated tp %d $%.3f/1M "
                 "(%.0f tok/s, TTFT p90 %.0f ms, TPOT p90 %.1f ms): disaggregation %s", key.c_str(), split, d.usd_per_mtok, d.output_tok_s,
                 d.ttft_p90_ms, d.tpot_p90_ms, a.tp, a.usd_per_mtok, a.output_tok_s, a.ttft_p90_ms, a.tpot_p90_ms, wins ? "wins" : "does not win");
        out.push_back({b, wins ? SearchNoteKind::Because : SearchNoteKind::Against});
    }
    return out;
}

std::vector<SlaPoint> sla_search(const Catalog& cat, const ServeRequest& req, const SlaSearch& space, SlaSearchStats* stats,
                                 std::vector<std::string>* notes) {
    SlaSearchJob job;
    sla_search_begin(cat, req, space, job);
    while (!sla_search_step(cat, job, 1 << 30)) {}
    if (stats) *stats = job.stats;
    if (notes)
        for (const SearchNote& n : job.notes) notes->push_back(n.text);
    return job.points;
}

std::string sla_bench(const Catalog& cat) {
    ServeRequest req;
    req.model = "meta-llama/Llama-3.1-70B-Instruct";
    if (!cat.find_model(req.model)) return "sla_bench: meta-llama/Llama-3.1-70B-Instruct is not in the catalog\n";
    req.workload.input_len = 1024; req.workload.output_len = 256; req.workload.concurrency = 32;
    req.max_model_len = 4096;
    req.sla.ttft_p90_ms = 1000; req.sla.tpot_p90_ms = 50;
    std::string out;
    for (int limit : {0, 20}) {
        SlaSearch space;
        space.limit = limit;
        if (limit) space.exact_top = 0;   // as the Serving section runs it: no bisection of the largest concurrency
        SlaSearchStats st;
        auto t0 = std::chrono::steady_clock::now();
        std::vector<SlaPoint> pts = sla_search(cat, req, space, &st);
        double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
        char b[400];
        snprintf(b, sizeof b, "SLA search (%s, %s): %zu points, %d candidates fit, %d simulated, %d pruned, %d over the TPOT floor, %d serve() runs, "
                 "cheapest %s x%d %s %s $%.3f/1M out, %.0f ms\n", req.model.c_str(), limit ? "cheapest 20, pruned, no max-concurrency bisection" : "whole space",
                 pts.size(), st.candidates, st.simulated, st.pruned, st.infeasible, st.serve_runs, pts.empty() ? "-" : pts[0].hardware.c_str(),
                 pts.empty() ? 0 : pts[0].gpus, pts.empty() ? "-" : pts[0].engine.c_str(), pts.empty() ? "-" : pts[0].precision.c_str(),
                 pts.empty() ? 0.0 : pts[0].usd_per_mtok, ms);
        out += b;
    }
    return out;
}

}  // namespace llmsim
