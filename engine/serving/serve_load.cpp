// The load: a discrete-event simulation of continuous batching on one replica, step by step (each step is one
// forward pass whose duration is step_time()). The scheduler follows vLLM V1's (v1/core/sched/scheduler.py
// Scheduler.schedule): running requests first — every decoding sequence gets its one token, then running
// prefills continue in chunks within the token budget (max_num_batched_tokens) — then waiting requests are
// admitted FIFO while max_num_seqs and the KV blocks allow. When a decode needs a block and the pool is empty,
// the most recently admitted request is preempted (its blocks freed, it recomputes later: vLLM's RECOMPUTE
// preemption). The first token is sampled in the step that finishes the prompt.
//
// A warm first prompt (ServeWorkload::warm_first_prompt) starts with its cached full blocks computed: its prefill
// allocates all its blocks but computes only the uncached tail, attending over the cached part.
//
// Arrivals: closed loop (C clients, each sends its next request when one completes), Poisson (exponential gaps,
// a seeded splitmix64 so every platform draws the same numbers) or a burst (all at t = 0).
#include <algorithm>
#include <cmath>
#include <deque>
#include <vector>

#include "serving/serving_internal.h"

namespace llmsim::serving {

namespace {

struct Rng {   // splitmix64: the same sequence on every platform (std distributions are implementation-defined)
    uint64_t x;
    uint64_t next() { uint64_t z = (x += 0x9E3779B97F4A7C15ull); z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
                      z = (z ^ (z >> 27)) * 0x94D049BB133111EBull; return z ^ (z >> 31); }
    double uniform() { return ((next() >> 11) + 0.5) * (1.0 / 9007199254740992.0); }   // (0, 1)
    double normal() { double u = uniform(), v = uniform(); return std::sqrt(-2 * std::log(u)) * std::cos(6.283185307179586 * v); }
};

struct Req {
    int drawn = 0;             // index in drawing order (arrival delays may reorder the queue)
    double delay = 0;          // LoadSetup::arrival_delay_s added to the drawn arrival
    double arrival = 0, admitted = -1, first = -1, finish = -1;
    int64_t in = 0, out = 0;
    int64_t need = 0;          // tokens to (re)compute before decoding: in, or in + generated after a preemption
    int64_t done = 0;          // of `need` computed
    int64_t gen = 0;           // tokens generated
    int64_t blocks = 0;
};

int64_t draw_len(Rng& r, int64_t len, LengthDist d, double ratio, bool output) {
    if (d == LengthDist::Fixed || len <= 1) return std::max<int64_t>(1, len);
    if (d == LengthDist::Uniform) {
        double lo = std::max(1.0, len * (1.0 - ratio));
        return std::max<int64_t>(1, (int64_t)std::floor(lo + r.uniform() * (len - lo + 1)));
    }
    // ShareGPT-like: log-normal around the nominal length (sigma 0.9 inputs, 0.8 outputs: ShareGPT V3's spread
    // of conversation turns), mean = len, clipped to [4, 8 len]
    double sigma = output ? 0.8 : 0.9;
    double mu = std::log((double)len) - 0.5 * sigma * sigma;
    double v = std::exp(mu + sigma * r.normal());
    return (int64_t)std::clamp(v, 4.0, 8.0 * len);
}

double quantile(std::vector<double>& v, double q) {
    if (v.empty()) return 0;
    size_t k = (size_t)std::min<double>((double)v.size() - 1, std::floor(q * (v.size() - 1) + 0.5));
    std::nth_element(v.begin(), v.begin() + (long)k, v.end());
    return v[k];
}
LatencyStats stats_ms(std::vector<double> v) {
    LatencyStats s;
    if (v.empty()) return s;
    double sum = 0; for (double x : v) sum += x;
    s.mean = sum / v.size() * 1e3;
    s.median = quantile(v, 0.5) * 1e3; s.p90 = quantile(v, 0.9) * 1e3; s.p99 = quantile(v, 0.99) * 1e3;
    return s;
}

// the requests of a run: lengths drawn from the workload's distribution (clipped to max_model_len), Poisson
// arrival times for an open loop; a warm first prompt starts with its cached full blocks computed
std::vector<Req> draw_requests(const LoadSetup& st, const ServeWorkload& w, bool closed) {
    Rng rng{w.seed * 0x2545F4914F6CDD1Dull + 1};
    int n = w.num_prompts;
    std::vector<Req> reqs((size_t)n);
    double t_arr = 0;
    for (int i = 0; i < n; ++i) {
        Req& r = reqs[(size_t)i];
        r.in = std::min<int64_t>(draw_len(rng, w.input_len, w.dist, w.range_ratio, false), std::max<int64_t>(1, st.max_model_len - 1));
        r.out = std::min<int64_t>(draw_len(rng, w.output_len, w.dist, w.range_ratio, true), std::max<int64_t>(1, st.max_model_len - r.in));
        r.need = r.in;
        if (i == 0 && w.warm_first_prompt) r.done = (r.in - 1) / st.block_size * st.block_size;   // cached full blocks
        if (st.prefill_only) r.out = 1;            // drawn first, so both pools see the same lengths in the same order
        if (st.kv_arrives) r.done = r.in - 1;      // the prompt's KV came over the link; its last token is recomputed
        if (!closed && !w.burst && w.request_rate > 0) { t_arr += -std::log(rng.uniform()) / w.request_rate; r.arrival = t_arr; }
        r.drawn = i;
    }
    if (st.arrival_delay_s && !st.arrival_delay_s->empty() && !closed) {
        const std::vector<double>& d = *st.arrival_delay_s;
        for (Req& r : reqs) { r.delay = d[(size_t)r.drawn % d.size()]; r.arrival += r.delay; }
        std::stable_sort(reqs.begin(), reqs.end(), [](const Req& a, const Req& b) { return a.arrival < b.arrival; });
    }
    return reqs;
}

// ITL: every inter-token gap is one step's duration; each step weighted by its decoders
LatencyStats weighted_itl_ms(const std::vector<double>& step_dt, const std::vector<double>& step_w) {
    LatencyStats itl;
    if (step_dt.empty()) return itl;
    std::vector<size_t> idx(step_dt.size());
    for (size_t i = 0; i < idx.size(); ++i) idx[i] = i;
    std::sort(idx.begin(), idx.end(), [&](size_t a, size_t b) { return step_dt[a] < step_dt[b]; });
    double wsum = 0, mean = 0; for (size_t i : idx) { wsum += step_w[i]; mean += step_w[i] * step_dt[i]; }
    auto wq = [&](double q) { double acc = 0; for (size_t i : idx) { acc += step_w[i]; if (acc >= q * wsum) return step_dt[i]; } return step_dt[idx.back()]; };
    itl.mean = mean / wsum * 1e3; itl.median = wq(0.5) * 1e3; itl.p90 = wq(0.9) * 1e3; itl.p99 = wq(0.99) * 1e3;
    return itl;
}

// One replica's scheduler between steps (vLLM V1 Scheduler: the running and waiting queues, the free KV
// blocks) and what the run has measured so far. One method per rule of Scheduler.schedule.
struct LoadSim {
    const LoadSetup& st;
    const bool closed;
    std::vector<Req> reqs;
    const int n;
    std::deque<int> waiting;
    std::vector<int> running;
    int next = 0;                       // next request not yet arrived
    int issued_closed = 0;
    int64_t free_blocks;
    double now = 0, kv_time = 0, batch_time = 0;
    std::vector<double> step_dt, step_w;           // ITL: each step's duration, weighted by its decoders
    double prefill_steps = 0, prefill_step_tokens = 0;   // steps that computed prompt tokens, and those tokens
    int completed = 0;
    int64_t total_out = 0, total_in = 0;
    int64_t preemptions = 0;
    // this step's decodes and prefill chunks, what they sum to and the token budget left
    std::vector<int> dec, pre; std::vector<int64_t> chunk;
    int n_dec = 0; double sum_depth = 0; int64_t budget = 0;
    int64_t pre_tokens = 0; double pre_depth = 0;

    LoadSim(const LoadSetup& setup, const ServeWorkload& w)
        : st(setup), closed(w.concurrency > 0), reqs(draw_requests(setup, w, w.concurrency > 0)), n(w.num_prompts),
          free_blocks(setup.pool_blocks) {
        if (closed) issued_closed = std::min(n, w.concurrency);
    }

    int64_t blocks_for(int64_t tokens) const { return (tokens + st.block_size - 1) / st.block_size; }

    void arrive_until(double t) {
        while (next < n && (closed ? next < issued_closed : reqs[(size_t)next].arrival <= t)) waiting.push_back(next++);
    }

    // vLLM's RECOMPUTE preemption: the newest running request frees its blocks and recomputes later
    void preempt_newest() {
        int victim = running.back(); running.pop_back();
        Req& v = reqs[(size_t)victim];
        free_blocks += v.blocks; v.blocks = 0; v.need = v.in + v.gen; v.done = 0;
        waiting.push_front(victim); ++preemptions;
    }

    // 1. decodes of running requests (each needs a block when it crosses a block boundary)
    void schedule_decodes() {
        n_dec = 0; sum_depth = 0; budget = st.max_batched_tokens;
        dec.clear(); pre.clear(); chunk.clear();
        for (size_t i = 0; i < running.size(); ++i) {
            Req& r = reqs[(size_t)running[i]];
            if (r.done < r.need) continue;
            int64_t ctx = r.in + r.gen;
            int64_t extra = blocks_for(ctx + 1) - r.blocks;
            while (extra > free_blocks && running.size() > i + 1) preempt_newest();
            if (extra > free_blocks) continue;                        // cannot grow: waits a step
            free_blocks -= extra; r.blocks += extra;
            dec.push_back(running[i]); ++n_dec; sum_depth += (double)ctx; --budget;
        }
        pre_tokens = 0; pre_depth = 0;
    }

    // a prefill chunk within the token budget and the free blocks; false when none fits
    bool schedule_prefill(int id) {
        Req& r = reqs[(size_t)id];
        int64_t c = std::min<int64_t>(r.need - r.done, budget);
        if (c <= 0) return false;
        int64_t extra = blocks_for(r.done + c) - r.blocks;
        if (extra > free_blocks) { c = std::max<int64_t>(0, (r.blocks + free_blocks) * st.block_size - r.done); extra = free_blocks; }
        if (c <= 0) return false;
        free_blocks -= extra; r.blocks += extra;
        pre.push_back(id); chunk.push_back(c); budget -= c;
        pre_depth += (double)r.done * (double)c; pre_tokens += c;
        return true;
    }

    // 2. running prefills continue
    void continue_prefills() {
        for (int id : running) if (budget > 0 && reqs[(size_t)id].done < reqs[(size_t)id].need) schedule_prefill(id);
    }

    // 3. admit waiting requests FIFO. Admission holds back the blocks running requests will still claim: the
    // rest of their prompts (and, with reserve_output, of their outputs: TensorRT-LLM's GUARANTEED_NO_EVICT
    // capacity scheduler), plus a 1 % watermark (vLLM BlockSpaceManager watermark=0.01), so admitted prefills do
    // not evict each other
    void admit_waiting() {
        int64_t committed = st.pool_blocks / 100;
        for (int id : running) {
            const Req& q = reqs[(size_t)id];
            int64_t end = st.reserve_output ? q.in + q.out : q.need;
            committed += std::max<int64_t>(0, blocks_for(std::max(end, q.in + q.gen)) - q.blocks);
        }
        while (budget > 0 && !waiting.empty() && (int)running.size() < st.max_num_seqs) {
            int id = waiting.front();
            const Req& q = reqs[(size_t)id];
            int64_t want = blocks_for(st.reserve_output ? q.in + q.out : q.need) - q.blocks;
            if (st.admission_holdback && want > free_blocks - committed && !running.empty()) break;
            committed += std::max<int64_t>(0, want - std::min<int64_t>(want, budget / st.block_size));
            if (!schedule_prefill(id)) break;
            waiting.pop_front(); running.push_back(id);
            if (reqs[(size_t)id].admitted < 0) reqs[(size_t)id].admitted = now;
        }
    }

    void finish(int id) {
        Req& r = reqs[(size_t)id];
        r.finish = now; free_blocks += r.blocks; r.blocks = 0; ++completed;
        total_out += r.gen; total_in += r.in;
        running.erase(std::find(running.begin(), running.end(), id));
        if (closed && issued_closed < n) { reqs[(size_t)issued_closed].arrival = now; ++issued_closed; }
    }

    // the step of duration dt ran: KV use and batch size integrate over it, each decode gains a token, each
    // prefill its chunk (the first token is sampled in the step that finishes the prompt)
    void complete_step(double dt, double& kv_use_peak) {
        double used = (double)(st.pool_blocks - free_blocks) / std::max<int64_t>(1, st.pool_blocks);
        kv_time += used * dt; kv_use_peak = std::max(kv_use_peak, used);
        batch_time += (double)running.size() * dt;
        now += dt;
        if (n_dec > 0) { step_dt.push_back(dt); step_w.push_back(n_dec); }
        if (pre_tokens > 0) { prefill_steps += 1; prefill_step_tokens += (double)pre_tokens; }
        for (int id : dec) { Req& r = reqs[(size_t)id]; ++r.gen; if (r.gen >= r.out) finish(id); }
        for (size_t j = 0; j < pre.size(); ++j) {
            Req& r = reqs[(size_t)pre[j]];
            r.done += chunk[j];
            if (r.done >= r.need && r.gen == 0) { r.gen = 1; r.first = now; if (r.gen >= r.out) finish(pre[j]); }
        }
    }

    // the run's throughput and latency figures
    void fill_statistics(ServeLoad& L) const {
        std::vector<double> ttft, tpot, e2e; double queue_share = 0; int qn = 0;
        for (const Req& r : reqs) {
            if (r.finish < 0) continue;
            ttft.push_back(r.first - r.arrival);
            e2e.push_back(r.finish - r.arrival);
            if (r.out > 1) tpot.push_back((r.finish - r.first) / (double)(r.out - 1));
            double t = r.first - r.arrival;
            if (t > 0) { queue_share += std::max(0.0, r.admitted - r.arrival) / t; ++qn; }
        }
        L.completed = completed;
        double t0 = reqs.empty() ? 0 : reqs[0].arrival;
        L.duration_s = now - t0;
        if (L.duration_s > 0) {
            L.output_tok_s = (double)total_out / L.duration_s;
            L.total_tok_s = (double)(total_out + total_in) / L.duration_s;
            L.req_s = completed / L.duration_s;
            L.kv_use_mean = kv_time / L.duration_s;
            L.mean_batch = batch_time / L.duration_s;
        }
        L.ttft_ms = stats_ms(ttft); L.tpot_ms = stats_ms(tpot); L.e2e_ms = stats_ms(e2e);
        if (!step_dt.empty()) L.itl_ms = weighted_itl_ms(step_dt, step_w);
        L.queueing_share = qn ? queue_share / qn : 0;
    }
};

}  // namespace

ServeLoad simulate_load(const ReplicaShape& s, const EngineSpeed& p, const LoadSetup& st, const ServeWorkload& w,
                        StepBreakdown* typical, LoadTrace* trace) {
    ServeLoad L;
    LoadSim sim(st, w);
    bool have_typical = false;
    StepBreakdown typical_step;
    int64_t guard = 0;
    while (sim.completed < sim.n && guard++ < 50000000) {
        sim.arrive_until(sim.now);
        if (sim.running.empty() && sim.waiting.empty()) {
            if (sim.next >= sim.n) break;
            sim.now = std::max(sim.now, sim.reqs[(size_t)sim.next].arrival);
            continue;
        }
        sim.schedule_decodes();
        sim.continue_prefills();
        sim.admit_waiting();
        if (sim.n_dec == 0 && sim.pre_tokens == 0) {   // nothing fits: the pool is held by requests that cannot grow
            if (sim.running.empty()) break;
            sim.preempt_newest();
            if (sim.running.empty()) break;             // one request larger than the pool: it can never run
            continue;
        }
        StepBreakdown sb;
        double dt = step_time(s, p, sim.n_dec, sim.sum_depth, sim.pre_tokens,
                              sim.pre_tokens > 0 ? sim.pre_depth / sim.pre_tokens : 0, &sb);
        // the typical step shown: the largest pure-decode step (the steady state of a loaded server)
        if (!have_typical || (sim.n_dec > 0 && sim.pre_tokens == 0 && sim.n_dec >= typical_step.batch)) {
            typical_step = sb;
            have_typical = sim.n_dec > 0 && sim.pre_tokens == 0;
        }
        sim.complete_step(dt, L.kv_use_peak);
    }
    L.preemptions = sim.preemptions;
    sim.fill_statistics(L);
    if (typical) *typical = typical_step;
    if (trace) {
        *trace = LoadTrace();
        std::vector<const Req*> order;
        for (const Req& r : sim.reqs) if (r.finish >= 0) order.push_back(&r);
        std::sort(order.begin(), order.end(), [](const Req* a, const Req* b) { return a->drawn < b->drawn; });
        for (const Req* r : order) {
            trace->ttft_s.push_back(r->first - r->arrival); trace->input_tokens.push_back(r->in); trace->e2e_s.push_back(r->finish - r->arrival);
        }
        trace->prefill_tokens_per_step = sim.prefill_steps > 0 ? sim.prefill_step_tokens / sim.prefill_steps : 0;
        double first = 1e300, first_drawn = 1e300;
        for (const Req& r : sim.reqs) { first = std::min(first, r.arrival); first_drawn = std::min(first_drawn, r.arrival - r.delay); }
        trace->lead_s = sim.reqs.empty() ? 0 : first - first_drawn;
    }
    return L;
}

}  // namespace llmsim::serving
