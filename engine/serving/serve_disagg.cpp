// Prefill/decode disaggregation (xPyD): prompts run on prefill instances, their KV moves over a link, decodes run on
// decode instances. See serving.h ServeDisaggregation. How the engines do it, and what this file follows:
//   - vLLM (docs/features/disagg_prefill.md; kv_connector/v1/nixl_connector.py): every instance starts with
//     --kv-transfer-config '{"kv_connector":"NixlConnector","kv_role":"kv_both"}'; a proxy sends the request to a
//     prefill instance with max_tokens = 1 (kv_transfer_params do_remote_decode), then to a decode instance
//     (do_remote_prefill). The decode scheduler allocates the prompt's blocks, NixlConnector.get_num_new_matched_tokens
//     claims every prompt token (len(prompt) - num_computed) as loaded remotely, and once the transfer lands
//     Scheduler._update_waiting_for_remote_kv sets num_computed_tokens = the prompt less one: the decode instance
//     recomputes the last prompt token in its next step and samples the first token from it. The client's stream
//     comes from the decode instance, so a benchmark's TTFT = prefill queue + prefill + transfer + that step.
//   - SGLang (--disaggregation-mode prefill|decode, --disaggregation-transfer-backend mooncake|nixl; sglang_router
//     --pd-disaggregation): the prefill server runs prompts only, sends the KV by RDMA, and the decode server streams.
//   - NVIDIA Dynamo: prefill and decode workers (DynamoGraphDeployment type: prefill / decode), NIXL transfer, the
//     frontend streams from the decode worker (docs.nvidia.com/dynamo, "Disaggregated Serving").
// The model: each pool is the aggregated simulation of one instance (serve_load.cpp) with the other phase removed:
// the prefill instance stops every request at its first token (LoadSetup::prefill_only), the decode instance admits
// each request with its prompt's KV present and computes only the last prompt token (LoadSetup::kv_arrives). The
// transfer: latency + bytes / bandwidth per TP rank (the sending and receiving ranks move their shards at once) over
// NVLink inside a node or a fabric of serve_network.h. Not modelled: contention of several transfers on one NIC
// beyond the utilisation figure, layer-wise overlap of the transfer with the prefill, and the proxy's own latency.
//
// [SECTION] Validation and the pools
// [SECTION] The link
// [SECTION] The load
// [SECTION] serve_disaggregated
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>

#include "catalog/catalog.h"
#include "serving/serve_network.h"
#include "serving/serving_internal.h"

namespace llmsim::serving {

namespace {

std::string f(const char* fmt, double v) { char b[96]; snprintf(b, sizeof b, fmt, v); return b; }

// [SECTION] Validation and the pools ---------------------------------------------------------------------

bool pool_counts_ok(const char* name, int gpus, int tp, std::string& err) {
    if (gpus < 1 || gpus > 1024) { err = std::string("disaggregation.") + name + "_gpus: " + std::to_string(gpus) + " (1 to 1024)"; return false; }
    if (tp < 1 || tp > 64) { err = std::string("disaggregation.") + name + "_tp: " + std::to_string(tp) + " (1 to 64)"; return false; }
    if (gpus % tp != 0) {
        err = std::string("disaggregation.") + name + "_gpus: " + std::to_string(gpus) + " is not a whole number of " + name + "_tp " +
              std::to_string(tp) + " instances";
        return false;
    }
    return true;
}

}  // namespace

bool validate_disaggregation(const ServeRequest& req, std::string& err) {
    const ServeDisaggregation& d = req.disaggregation;
    if (!pool_counts_ok("prefill", d.prefill_gpus, d.prefill_tp, err) || !pool_counts_ok("decode", d.decode_gpus, d.decode_tp, err)) return false;
    if (req.engine != "vllm" && req.engine != "sglang") {
        err = "disaggregation: modelled for vllm (NixlConnector) and sglang (--disaggregation-mode), not '" + req.engine + "'";
        return false;
    }
    if (req.pp != 1) { err = "disaggregation: pp must be 1 (each pool's instances are tp only)"; return false; }
    return true;
}

namespace {
// one pool of a disaggregated request as an aggregated request of its own: its GPUs at its TP, no pp
ServeRequest disagg_pool_request(const ServeRequest& req, int gpus, int tp) {
    ServeRequest q = req;
    q.disaggregation = ServeDisaggregation();
    q.gpus = gpus; q.tp = tp; q.pp = 1;
    q.with_single_stream = false;
    return q;
}
}  // namespace

ServeRequest prefill_pool_request(const ServeRequest& req) {
    return disagg_pool_request(req, req.disaggregation.prefill_gpus, req.disaggregation.prefill_tp);
}

ServeRequest decode_pool_request(const ServeRequest& req) {
    return disagg_pool_request(req, req.disaggregation.decode_gpus, req.disaggregation.decode_tp);
}

// [SECTION] The link -------------------------------------------------------------------------------------

namespace {

struct KvLink {
    double rank_gbs = 0;        // one sending / receiving GPU's share of the path, GB/s
    double latency_us = 0;
    double bytes_per_token = 0; // bytes the busiest rank moves per prompt token
    int paths = 1;              // ranks that move their shards at once
    std::string words;
};

// The KV path of one prompt. Inside a node: the device's GPU-to-GPU link (NVLink, else PCIe), per direction. Across
// nodes: a fabric of serve_network.h, each GPU at its NIC share (line rate x the fabric's efficiency x NICs / GPUs)
// plus the fabric's point-to-point hop latency. The decode ranks each need their own heads' KV (MLA: the whole latent,
// replicated per rank): bytes per decode rank = its KV bytes per token x prompt; when the prefill has fewer ranks
// than the decode, each sender serves decode_tp / prefill_tp receivers
bool resolve_kv_link(const ServeRequest& req, const ReplicaShape& ds, KvLink& out, std::string& err) {
    const ServeDisaggregation& d = req.disaggregation;
    std::string link = d.link;
    const int gpn = std::max(1, req.gpus_per_node);
    if (link.empty()) link = d.prefill_gpus + d.decode_gpus <= gpn ? "nvlink" : "ib-ndr";
    out.paths = std::min(d.prefill_tp, d.decode_tp);
    out.bytes_per_token = ds.kv_bytes_token_gpu * std::max(1.0, (double)d.decode_tp / d.prefill_tp);
    if (link == "nvlink" || link == "pcie") {
        if (d.prefill_gpus + d.decode_gpus > gpn) {
            err = "disaggregation.link: '" + link + "' needs both pools in one node (" + std::to_string(d.prefill_gpus + d.decode_gpus) +
                  " GPUs > gpus_per_node " + std::to_string(gpn) + "); name a fabric (ib-ndr, roce-400, ethernet-100 ...)";
            return false;
        }
        out.rank_gbs = ds.link_gbs; out.latency_us = ds.link_latency_us;
        out.words = "in-node GPU link " + f("%.0f GB/s", ds.link_gbs) + " per direction per GPU";
        return true;
    }
    auto fc = resolve_fabric(link, req.nics_per_node, gpn, err);
    if (!fc) { err = "disaggregation.link: " + err; return false; }
    const double nic_gbs = fc->fabric.nic_gbit_s / 8.0 * fc->fabric.busbw_eff;
    out.rank_gbs = nic_gbs * std::min(1.0, (double)fc->nics_per_node / gpn);
    out.latency_us = fc->fabric.hop_lat_us;
    out.words = std::string(fc->fabric.name) + " x " + std::to_string(fc->nics_per_node) + " NICs per node: " + f("%.1f GB/s", out.rank_gbs) +
                " per GPU (" + f("%.0f %% of line rate", fc->fabric.busbw_eff * 100) + ")";
    return true;
}

double transfer_s(const KvLink& l, double tokens) {
    return l.latency_us * 1e-6 + tokens * l.bytes_per_token / (l.rank_gbs * 1e9);
}

}  // namespace

}  // namespace llmsim::serving

namespace llmsim {

double kv_transfer_seconds(const Catalog& cat, const ServeRequest& req, int64_t input_tokens, std::string* words, std::string& err) {
    if (!serving::validate_disaggregation(req, err)) return -1;
    serving::ReplicaShape ds;
    if (!serving::build_shape(cat, serving::decode_pool_request(req), ds, err)) return -1;
    serving::KvLink l;
    if (!serving::resolve_kv_link(req, ds, l, err)) return -1;
    if (words) *words = l.words;
    return serving::transfer_s(l, (double)std::max<int64_t>(0, input_tokens));
}

}  // namespace llmsim

namespace llmsim::serving {

// [SECTION] The load -------------------------------------------------------------------------------------

namespace {

struct Pools {
    const ReplicaShape& ps; const ReplicaShape& ds;
    const EngineSpeed& pp; const EngineSpeed& dp;
    LoadSetup pst, dst;
    int prep = 1, drep = 1;
};

struct PoolRuns {
    ServeLoad p, d;
    LoadTrace pt, dt;
    StepBreakdown dstep;
};

// one closed-loop (or open-loop) run of each pool with its share of the load
void run_pools(const Pools& P, const ServeWorkload& pw, const ServeWorkload& dw, PoolRuns& out) {
    StepBreakdown ignored;
    out.p = simulate_load(P.ps, P.pp, P.pst, pw, &ignored, &out.pt);
    out.d = simulate_load(P.ds, P.dp, P.dst, dw, &out.dstep, &out.dt);
}

ServeWorkload pool_share(const ServeWorkload& w, int replicas, int concurrency) {
    ServeWorkload q = w;
    const int rep = std::max(1, replicas);
    q.num_prompts = std::max(1, (w.num_prompts + rep - 1) / rep);
    if (concurrency > 0) { q.concurrency = std::max(1, (concurrency + rep - 1) / rep); q.num_prompts = std::max(q.num_prompts, 2 * q.concurrency); }
    if (w.request_rate > 0) q.request_rate = w.request_rate / rep;
    return q;
}

// Closed loop at C clients: each request is in the prefill pool, on the link or in the decode pool. In the steady
// state both pools pass the same requests per second, so C splits as C_p + C_d with X_p(C_p) = X_d(C_d) (each pool a
// closed loop of its share); the smallest C_p whose prefill throughput reaches the decode pool's at C - C_p
void run_closed(const Pools& P, const ServeWorkload& w, PoolRuns& out) {
    const int C = std::max(1, w.concurrency);
    if (C < 2) { run_pools(P, pool_share(w, P.prep, 1), pool_share(w, P.drep, 1), out); return; }
    std::map<int, PoolRuns> cache;
    auto at = [&](int cp) -> const PoolRuns& {
        auto it = cache.find(cp);
        if (it != cache.end()) return it->second;
        PoolRuns r;
        run_pools(P, pool_share(w, P.prep, cp), pool_share(w, P.drep, C - cp), r);
        return cache.emplace(cp, std::move(r)).first->second;
    };
    // each pool's requests/s: one instance's run x the instances its share keeps busy (C_p clients over prep instances
    // run ceil(C_p / prep) per instance: C_p / that many instances' worth)
    auto busy = [](int c, int rep) { const int per = (c + rep - 1) / rep; return (double)c / std::max(1, per); };
    auto prefill_ahead = [&](int cp) {
        const PoolRuns& r = at(cp);
        return r.p.req_s * busy(cp, P.prep) >= r.d.req_s * busy(C - cp, P.drep);
    };
    int lo = 1, hi = C - 1;
    if (prefill_ahead(lo)) hi = lo;
    while (lo < hi) { int mid = (lo + hi) / 2; if (prefill_ahead(mid)) hi = mid; else lo = mid + 1; }
    out = at(hi);
}

// Open loop or burst: each pool gets its share of the arrivals; a decode instance's requests arrive when their
// prompts have been prefilled and moved (the prefill run's latency of the request with the same index + its transfer)
void run_open(Pools& P, const KvLink& link, const ServeWorkload& w, PoolRuns& out) {
    const ServeWorkload pw = pool_share(w, P.prep, 0), dw = pool_share(w, P.drep, 0);
    StepBreakdown ignored;
    out.p = simulate_load(P.ps, P.pp, P.pst, pw, &ignored, &out.pt);
    std::vector<double> delay;
    for (size_t i = 0; i < out.pt.ttft_s.size(); ++i) delay.push_back(out.pt.ttft_s[i] + transfer_s(link, (double)out.pt.input_tokens[i]));
    LoadSetup dst = P.dst;
    dst.arrival_delay_s = &delay;
    out.d = simulate_load(P.ds, P.dp, dst, dw, &out.dstep, &out.dt);
}

// TTFT and E2E per request: prefill pool (queue + prefill) + the transfer of that prompt + the decode pool's wait and
// first step; request i of each pool's run (the same seed draws the same lengths in the same order)
void pair_latencies(const PoolRuns& r, const KvLink& link, std::vector<double>& ttft, std::vector<double>& e2e, double& xfer_mean) {
    const size_t np = r.pt.ttft_s.size(), nd = r.dt.ttft_s.size();
    ttft.clear(); e2e.clear(); xfer_mean = 0;
    if (np == 0 || nd == 0) return;
    const size_t n = std::max(np, nd);
    for (size_t i = 0; i < n; ++i) {
        const double x = transfer_s(link, (double)r.pt.input_tokens[i % np]);
        const double head = r.pt.ttft_s[i % np] + x;
        ttft.push_back(head + r.dt.ttft_s[i % nd]);
        e2e.push_back(head + r.dt.e2e_s[i % nd]);
        xfer_mean += x;
    }
    xfer_mean /= (double)n;
}

LatencyStats stats_of(std::vector<double> v) {
    LatencyStats s;
    if (v.empty()) return s;
    std::sort(v.begin(), v.end());
    auto q = [&](double p) { return v[(size_t)std::min<double>((double)v.size() - 1, std::floor(p * (v.size() - 1) + 0.5))] * 1e3; };
    double sum = 0; for (double x : v) sum += x;
    s.mean = sum / v.size() * 1e3; s.median = q(0.5); s.p90 = q(0.9); s.p99 = q(0.99);
    return s;
}

// the explanation, one line per figure
void disagg_lines(const ServeRequest& req, const PoolRuns& r, const KvLink& link, ServeResult& out) {
    ServeDisaggResult& g = out.disagg;
    const ServeDisaggregation& d = req.disaggregation;
    char b[640];
    snprintf(b, sizeof b, "prefill pool: %d GPU(s) = %d instance(s) x tp %d, prompts only (each stops at its first token), %.0f prompt tokens a "
             "step on average; decode pool: %d GPU(s) = %d instance(s) x tp %d, decodes only, mean batch %.1f", d.prefill_gpus,
             g.prefill_instances, d.prefill_tp, g.prefill_mean_batch_tokens, d.decode_gpus, g.decode_instances, d.decode_tp, g.decode_mean_batch);
    g.lines.push_back(b);
    const double tokens = g.kv_bytes_per_token > 0 ? g.kv_bytes_mean / g.kv_bytes_per_token : 0.0;
    snprintf(b, sizeof b, "KV transfer: %.0f KB per token for the whole model (all layers, K + V), a mean prompt of %.0f tokens %.1f MB; the %d "
             "rank path(s) move at once, the busiest %.0f KB per token = %.1f MB, over %s: %.0f us + %.1f MB / %.1f GB/s = %.2f ms",
             g.kv_bytes_per_token / 1e3, tokens, g.kv_bytes_mean / 1e6, link.paths, link.bytes_per_token / 1e3, link.bytes_per_token * tokens / 1e6,
             link.words.c_str(), link.latency_us, link.bytes_per_token * tokens / 1e6, link.rank_gbs, g.transfer_ms_mean);
    g.lines.push_back(b);
    // which step gives the client its first token, as each engine does it
    const char* first = req.engine == "vllm"
        ? "vLLM streams it from the decode instance, which recomputes the last prompt token (Scheduler._update_waiting_for_remote_kv)"
        : "SGLang's router streams it from the decode server once the KV has landed, in that server's next step";
    snprintf(b, sizeof b, "TTFT p90 %.0f ms = prefill pool queue + prefill (p90 %.0f ms, median %.0f) + transfer (mean %.2f ms) + the decode "
             "instance's wait and first step (p90 %.1f ms): %s", out.load.ttft_ms.p90, g.prefill_ttft_ms.p90, g.prefill_ttft_ms.median,
             g.transfer_ms_mean, g.decode_first_ms.p90, first);
    g.lines.push_back(b);
    snprintf(b, sizeof b, "TPOT p90 %.1f ms from the decode pool alone: its steps carry no prefill chunk (a step at batch %d: %.2f ms)",
             out.load.tpot_ms.p90, r.dstep.batch, r.dstep.step_s * 1e3);
    g.lines.push_back(b);
    snprintf(b, sizeof b, "link use: %.0f %% of each prefill instance's KV path at %.2f req/s%s", g.link_utilisation * 100, out.load.req_s,
             g.link_utilisation > 1 ? " (over 100 %: the link cannot keep up; transfers would queue, which is not simulated)" : "");
    g.lines.push_back(b);
}

}  // namespace

// [SECTION] serve_disaggregated --------------------------------------------------------------------------

ServeResult serve_disaggregated(const Catalog& cat, const ServeRequest& req, const SpeedTable& table, const ParamCounts* counts) {
    ServeResult r;
    if (!validate_disaggregation(req, r.error)) return r;
    const ServeRequest pq = prefill_pool_request(req), dq = decode_pool_request(req);
    ReplicaShape ps, ds;
    ServeMemoryPlan pm;
    for (int k = 0; k < 2; ++k) {
        const ServeRequest& q = k == 0 ? pq : dq;
        ReplicaShape& s = k == 0 ? ps : ds;
        ServeMemoryPlan& m = k == 0 ? pm : r.memory;
        const char* name = k == 0 ? "prefill pool: " : "decode pool: ";
        std::string e;
        if (!build_shape(cat, q, s, e, counts) || !plan_memory(cat, q, s, m, e)) { r.error = name + e; return r; }
        if (!m.fits) { r.error = std::string(name) + "does not fit: the KV pool cannot hold one " + std::to_string(m.max_model_len) + "-token sequence"; return r; }
    }
    KvLink link;
    if (!resolve_kv_link(req, ds, link, r.error)) return r;
    const ServeWorkload& w0 = req.workload;
    int modes = (w0.concurrency > 0) + (w0.request_rate > 0) + (w0.burst ? 1 : 0);
    if (modes != 1) { r.error = "workload: give exactly one of concurrency, request_rate or request_rate \"inf\" (burst)"; return r; }
    Pools P{ps, ds, engine_speed(pq, ps, table), engine_speed(dq, ds, table), load_setup(pq, ps, pm), load_setup(dq, ds, r.memory),
            std::max(1, ps.replicas), std::max(1, ds.replicas)};
    P.pst.prefill_only = true;
    P.dst.kv_arrives = true;
    ServeWorkload w = w0;
    if (w.num_prompts <= 0) w.num_prompts = default_num_prompts(w);
    PoolRuns runs;
    if (w.concurrency > 0) run_closed(P, w, runs);
    else run_open(P, link, w, runs);
    std::vector<double> ttft, e2e;
    double xfer_mean = 0;
    pair_latencies(runs, link, ttft, e2e, xfer_mean);
    // the load as the client sees it: the decode pool's token pace, the paired latencies. Throughput: an open loop
    // gets what the decode instances deliver; a closed loop of C clients each spending a whole cycle (prefill pool,
    // link, decode pool) per request makes C / mean cycle requests a second (Little's law), which also holds at C = 1
    r.load = runs.d;
    const double per_req_out = runs.d.req_s > 0 ? runs.d.output_tok_s / runs.d.req_s : 0, per_req_total = runs.d.req_s > 0 ? runs.d.total_tok_s / runs.d.req_s : 0;
    // an open loop's clock starts at the first request's arrival at the prefill pool, before the decode run's
    double req_s = runs.d.req_s * P.drep;
    if (w.concurrency <= 0 && runs.d.duration_s > 0) {
        const double client_s = runs.d.duration_s + runs.dt.lead_s;
        req_s *= runs.d.duration_s / client_s;
        r.load.duration_s = client_s;
    }
    if (w.concurrency > 0 && !e2e.empty()) {
        double cycle = 0;
        for (double x : e2e) cycle += x;
        cycle /= (double)e2e.size();
        if (cycle > 0) req_s = w.concurrency / cycle;
    }
    r.load.req_s = req_s; r.load.output_tok_s = req_s * per_req_out; r.load.total_tok_s = req_s * per_req_total;
    r.load.completed *= P.drep;
    r.load.ttft_ms = stats_of(ttft); r.load.e2e_ms = stats_of(e2e);
    r.load.preemptions += runs.p.preemptions;
    r.step = runs.dstep;
    const EngineSpeed& dp = P.dp;
    r.low = r.load.output_tok_s * (1 + dp.band_low); r.high = r.load.output_tok_s * (1 + dp.band_high);
    auto scaled = [](const LatencyStats& v, double k) { LatencyStats o = v; o.mean *= k; o.median *= k; o.p90 *= k; o.p99 *= k; return o; };
    r.tpot_band_low_ms = scaled(r.load.tpot_ms, 1 + dp.tpot_band_low); r.tpot_band_high_ms = scaled(r.load.tpot_ms, 1 + dp.tpot_band_high);
    r.ttft_band_low_ms = scaled(r.load.ttft_ms, 1 + dp.ttft_band_low); r.ttft_band_high_ms = scaled(r.load.ttft_ms, 1 + dp.ttft_band_high);
    fill_cost(ds, req.disaggregation.prefill_gpus + req.disaggregation.decode_gpus, r.load.output_tok_s, 0, r.cost);
    ServeDisaggResult& g = r.disagg;
    g.enabled = true;
    g.prefill_instances = P.prep; g.decode_instances = P.drep;
    g.prefill_tp = req.disaggregation.prefill_tp; g.decode_tp = req.disaggregation.decode_tp;
    g.link = link.words; g.link_gbs = link.rank_gbs * link.paths; g.link_latency_us = link.latency_us;
    g.kv_bytes_per_token = ps.kv_bytes_token_gpu * ps.tp;   // whole model: every rank's shard (MLA: the replicated latent)
    if (ps.model->mla) g.kv_bytes_per_token = ps.kv_bytes_token_gpu;
    double mean_in = 0;
    for (int64_t t : runs.pt.input_tokens) mean_in += (double)t;
    mean_in = runs.pt.input_tokens.empty() ? (double)w.input_len : mean_in / runs.pt.input_tokens.size();
    g.kv_bytes_mean = g.kv_bytes_per_token * mean_in;
    g.transfer_ms_mean = xfer_mean * 1e3;
    g.link_utilisation = (r.load.req_s / P.prep) * std::max(0.0, xfer_mean - link.latency_us * 1e-6);
    g.prefill_ttft_ms = stats_of(runs.pt.ttft_s);
    g.decode_first_ms = stats_of(runs.dt.ttft_s);
    g.prefill_mean_batch_tokens = runs.pt.prefill_tokens_per_step;
    g.decode_mean_batch = runs.d.mean_batch;
    g.prefill_memory = pm;
    const Engine& eng = engine_row(ps.engine);
    const LoadSetup& pst = P.pst; const LoadSetup& dst = P.dst;
    const bool vllm = req.engine == "vllm";
    const std::string kvx = vllm ? " --kv-transfer-config '{\"kv_connector\":\"NixlConnector\",\"kv_role\":\"kv_both\"}'"
                                 : " --disaggregation-transfer-backend nixl";
    g.prefill_command = eng.command_line(pq, ps, pm, pst.max_num_seqs, pst.max_batched_tokens) + (vllm ? kvx : " --disaggregation-mode prefill" + kvx);
    g.decode_command = eng.command_line(dq, ds, r.memory, dst.max_num_seqs, dst.max_batched_tokens) + (vllm ? kvx : " --disaggregation-mode decode" + kvx);
    r.command = g.prefill_command + "   # x" + std::to_string(P.prep) + " prefill instance(s)\n" + g.decode_command + "   # x" +
                std::to_string(P.drep) + " decode instance(s)" + (vllm ? "; a P/D proxy in front (serve --deploy: NVIDIA Dynamo's frontend)"
                                                                      : "\npython -m sglang_router.launch_router --pd-disaggregation --prefill http://PREFILL:30000 --decode http://DECODE:30000");
    disagg_lines(req, runs, link, r);
    if (r.load.preemptions > 0) r.notes.push_back(std::to_string(r.load.preemptions) + " preemptions: a pool's KV ran full");
    r.ok = r.load.completed > 0 && !ttft.empty();
    if (!r.ok) r.error = "no request completed (a request larger than a pool's KV?)";
    return r;
}

void compare_aggregated(const Catalog& cat, const ServeRequest& req, ServeResult& r) {
    ServeRequest q = req;
    q.disaggregation = ServeDisaggregation();
    q.gpus = req.disaggregation.prefill_gpus + req.disaggregation.decode_gpus;
    q.tp = req.disaggregation.decode_tp; q.pp = 1;
    q.with_single_stream = false;
    if (q.gpus % q.tp != 0) return;
    ServeResult a = serve_with(cat, q, shipped_speed_table());
    if (!a.ok) return;
    ServeDisaggResult& g = r.disagg;
    g.have_aggregated = true;
    g.agg_output_tok_s = a.load.output_tok_s; g.agg_ttft_p90_ms = a.load.ttft_ms.p90; g.agg_tpot_p90_ms = a.load.tpot_ms.p90;
    char b[512];
    snprintf(b, sizeof b, "the same %d GPUs aggregated (%d instance(s) x tp %d, prefill and decode together), same load: %.0f output tok/s, "
             "TTFT p90 %.0f ms, TPOT p90 %.1f ms; disaggregated: %.0f tok/s, TTFT p90 %.0f ms, TPOT p90 %.1f ms", q.gpus, q.gpus / q.tp, q.tp,
             a.load.output_tok_s, a.load.ttft_ms.p90, a.load.tpot_ms.p90, r.load.output_tok_s, r.load.ttft_ms.p90, r.load.tpot_ms.p90);
    g.lines.push_back(b);
}

}  // namespace llmsim::serving
