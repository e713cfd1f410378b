// The load: a discrete-event simulation of continuous batching on one replica, step by step (each step is one
// forward pass whose duration is step_time()). The scheduler follows vLLM V1's (v1/core/sched/scheduler.py
// Scheduler.schedule): running requests first — every decoding sequence gets its one token, then running
// prefills continue in chunks within the token budget (max_num_batched_tokens) — then waiting requests are
// admitted FIFO while max_num_seqs and the KV blocks allow. When a decode needs a block and the pool is empty,
// the most recently admitted request is preempted (its blocks freed, it recomputes later: vLLM's RECOMPUTE
// preemption). The first token is sampled in the step that finishes the prompt. SGLang's overlap scheduler
// (LoadSetup::overlap_schedule) forms a step while the one before it runs: a request that arrives during a busy step
// waits one more step before it can be scheduled.
//
// A warm first prompt (ServeWorkload::warm_first_prompt) starts with its cached full blocks computed: its prefill
// allocates all its blocks but computes only the uncached tail, attending over the cached part.
//
// Arrivals: closed loop (C clients, each sends its next request when one completes), Poisson (exponential gaps,
// a seeded splitmix64 so every platform draws the same numbers) or a burst (all at t = 0). Multi-turn sessions
// (ServeWorkload::turns > 1): a session's next turn arrives think_time_s after its previous answer; a closed-loop
// client starts its next session when one ends; an open loop starts sessions at request_rate / turns.
//
// Prefix caching (serve_prefix_cache.h), only for a workload that shares prefixes: at admission a request finds its
// cached prefix, pins it (those blocks are shared, not allocated) and computes only the rest; blocks loaded from an
// offload tier are allocated and the request waits for the transfer before its prefill (vLLM's connector keeps it
// WAITING_FOR_REMOTE_KVS while the others run). Cached blocks no request references count as free and are evicted
// LRU when an allocation needs them (vLLM's free block queue holds them; SGLang evicts the radix tree's leaves).
#include <algorithm>
#include <cmath>
#include <deque>
#include <functional>
#include <memory>
#include <queue>
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
    double visible = 0;        // when the scheduler sees it: arrival + the front end's queue and service (LoadSetup::frontend_*)
    int64_t in = 0, out = 0;
    int64_t need = 0;          // tokens to (re)compute before decoding: in, or in + generated after a preemption
    int64_t done = 0;          // of `need` computed
    int64_t gen = 0;           // tokens generated
    int64_t blocks = 0;
    // sessions and the prefix cache
    int session = 0, turn = 0;             // the session (plain requests: their own; a pool prompt's id) and the turn in it
    int group = 0;                         // its prefix group (ServeWorkload::prefix_groups)
    int stage = -1;                        // its stage of a staged ladder (ServeWorkload::rate_stages)
    double stage_start = 0;                // when that stage started (the deployment's first send is after it)
    PrefixHit hit;                         // what the cache gave it (pins, slot) while admitted
    bool attached = false, counted = false;
    double ready_at = -1;                  // tier blocks loading until then (no prefill before)
    int tier = 3;                          // slowest source of its first hit: 0 GPU, 1 CPU, 2 NVMe, 3 none
    int64_t cached = 0;                    // prompt tokens its first admission found cached
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

// the prompt pool of a prefix-group workload (ServeWorkload::prompts_per_group): G x Q prompts in the generator's
// group-major order, each with its own question and output length, and the order they are sent in (shuffled once)
struct PromptPool {
    int per_group = 0;
    std::vector<int> order;
    std::vector<int64_t> own, out;
    bool on() const { return per_group > 0; }
};
PromptPool make_pool(const ServeWorkload& w, int64_t own_len, Rng& g) {
    PromptPool p;
    if (w.prompts_per_group <= 0) return p;
    p.per_group = w.prompts_per_group;
    const int n = std::max(1, w.prefix_groups) * w.prompts_per_group;
    for (int i = 0; i < n; ++i) {
        p.own.push_back(draw_len(g, own_len, w.dist, w.range_ratio, false));
        p.out.push_back(draw_len(g, w.output_len, w.dist, w.range_ratio, true));
        p.order.push_back(i);
    }
    for (int i = n - 1; i > 0; --i) std::swap(p.order[(size_t)i], p.order[(size_t)std::min<double>(i, std::floor(g.uniform() * (i + 1)))]);
    return p;
}

// a sharing workload's requests: turn 0 = shared prefix + own input, turn k = turn k-1's prompt + output + new
// input (each own input drawn around input_len - shared_prefix_len), clipped to max_model_len; sessions are numbered
// in order, request i = session i / turns, turn i % turns. Open loop: sessions start at Poisson times (rate / turns).
// Prefix groups and the prompt pool draw from a stream of their own, so a one-group workload draws as before; a
// staged ladder is draw_staged_requests
std::vector<Req> draw_session_requests(const LoadSetup& st, const ServeWorkload& w, bool closed) {
    Rng rng{w.seed * 0x2545F4914F6CDD1Dull + 1};
    Rng grp{w.seed * 0x9E3779B97F4A7C15ull + 7};
    const int n = w.num_prompts, turns = std::max(1, w.turns), groups = std::max(1, w.prefix_groups);
    const int64_t own_len = std::max<int64_t>(1, w.input_len - w.shared_prefix_len);
    const PromptPool pool = make_pool(w, own_len, grp);
    std::vector<Req> reqs((size_t)n);
    double t_arr = 0;
    for (int i = 0; i < n; ++i) {
        Req& r = reqs[(size_t)i];
        r.session = i / turns; r.turn = i % turns;
        if (pool.on()) {
            const int id = pool.order[(size_t)i % pool.order.size()];
            r.session = id; r.group = id / pool.per_group;
            r.in = std::min<int64_t>(w.shared_prefix_len + w.session_prefix_len + pool.own[(size_t)id], std::max<int64_t>(1, st.max_model_len - 1));
            r.out = std::min<int64_t>(pool.out[(size_t)id], std::max<int64_t>(1, st.max_model_len - r.in));
        } else {
            const int64_t own = draw_len(rng, own_len, w.dist, w.range_ratio, false);
            const int64_t before = r.turn == 0 ? w.shared_prefix_len + w.session_prefix_len : reqs[(size_t)i - 1].in + reqs[(size_t)i - 1].out;
            r.in = std::min<int64_t>(before + own, std::max<int64_t>(1, st.max_model_len - 1));
            r.out = std::min<int64_t>(draw_len(rng, w.output_len, w.dist, w.range_ratio, true), std::max<int64_t>(1, st.max_model_len - r.in));
            if (groups > 1) r.group = r.turn == 0 ? std::min(groups - 1, (int)(grp.uniform() * groups)) : reqs[(size_t)i - 1].group;
        }
        r.need = r.in;
        if (r.turn == 0 && !closed && !w.burst && w.request_rate > 0) {
            t_arr += -std::log(rng.uniform()) / (w.request_rate / turns); r.arrival = t_arr;
        }
    }
    return reqs;
}

// a stage's requests all finish before the next stage starts (inference-perf run_stage waits for them); the draw
// leaves this much idle time after each stage's last arrival so the simulation drains it first (idle time changes
// nothing in the cache: its order is by last use)
constexpr double kStageGapS = 1e6;

// a staged ladder (ServeWorkload::rate_stages) as inference-perf runs it: stage k sends int(rate x duration) requests
// at Poisson times from its start (PoissonLoadTimer), request j of a stage sending pool prompt j mod pool size (the
// index restarts each stage), each landing on this replica with probability 1 / replicas (LoadSetup::replicas)
std::vector<Req> draw_staged_requests(const LoadSetup& st, const ServeWorkload& w) {
    Rng rng{w.seed * 0x2545F4914F6CDD1Dull + 1};
    Rng grp{w.seed * 0x9E3779B97F4A7C15ull + 7};
    Rng arr{w.seed * 0xD1B54A32D192ED03ull + 3};
    const int groups = std::max(1, w.prefix_groups);
    const int64_t own_len = std::max<int64_t>(1, w.input_len - w.shared_prefix_len);
    const int64_t max_in = std::max<int64_t>(1, st.max_model_len - 1);
    const PromptPool pool = make_pool(w, own_len, grp);
    std::vector<Req> reqs;
    double start = 0;
    for (size_t k = 0; k < w.rate_stages.size(); ++k) {
        const ServeWorkload::RateStage& sg = w.rate_stages[k];
        const int total = (int)(sg.rate * sg.duration_s);   // load_generator.py run_stage: int(rate * duration)
        double t = start;
        for (int j = 0; j < total; ++j) {
            t += -std::log(arr.uniform()) / sg.rate;
            if (st.replicas > 1 && arr.uniform() * st.replicas >= 1.0) continue;   // another replica's request
            Req r;
            r.arrival = t; r.stage = (int)k; r.stage_start = start; r.drawn = (int)reqs.size(); r.session = (int)reqs.size();
            if (pool.on()) {
                const int id = pool.order[(size_t)j % pool.order.size()];
                r.session = id; r.group = id / pool.per_group;
                r.in = std::min<int64_t>(w.shared_prefix_len + w.session_prefix_len + pool.own[(size_t)id], max_in);
                r.out = pool.out[(size_t)id];
            } else {
                r.in = std::min<int64_t>(w.shared_prefix_len + w.session_prefix_len + draw_len(rng, own_len, w.dist, w.range_ratio, false), max_in);
                r.out = draw_len(rng, w.output_len, w.dist, w.range_ratio, true);
                if (groups > 1) r.group = std::min(groups - 1, (int)(grp.uniform() * groups));
            }
            r.out = std::min<int64_t>(r.out, std::max<int64_t>(1, st.max_model_len - r.in));
            r.need = r.in;
            reqs.push_back(r);
        }
        start = std::max(t, start + sg.duration_s) + kStageGapS;
    }
    return reqs;
}

// the requests of a run: lengths drawn from the workload's distribution (clipped to max_model_len), Poisson
// arrival times for an open loop; a warm first prompt starts with its cached full blocks computed
std::vector<Req> draw_requests(const LoadSetup& st, const ServeWorkload& w, bool closed) {
    if (!w.rate_stages.empty()) return draw_staged_requests(st, w);
    if (w.shares_prefix()) return draw_session_requests(st, w, closed);
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
    // multi-turn sessions: turns waiting for their think time (arrival, id), earliest first; the next session a
    // closed-loop client starts
    const bool sessions;
    const int turns;
    const double think_s;
    std::priority_queue<std::pair<double, int>, std::vector<std::pair<double, int>>, std::greater<>> pending;
    int next_session = 0;
    // the prefix cache (null when the workload shares nothing or the engine does not cache)
    std::unique_ptr<PrefixCache> cache;
    const bool reuse_own;                  // a request's own blocks serve a later request: sessions, or a prompt pool
    int64_t prompt_tokens = 0, hit_tokens = 0, hit_cpu = 0, hit_nvme = 0, computed = 0;
    int n_stages = 0;
    std::vector<double> stage_rate, stage_dur;   // each stage's requests/s (the whole deployment's) and seconds

    LoadSim(const LoadSetup& setup, const ServeWorkload& w)
        : st(setup), closed(w.concurrency > 0), reqs(draw_requests(setup, w, w.concurrency > 0)), n((int)reqs.size()),
          free_blocks(setup.pool_blocks), sessions(w.turns > 1), turns(std::max(1, w.turns)), think_s(w.think_time_s),
          reuse_own(w.turns > 1 || w.prompts_per_group > 0), n_stages((int)w.rate_stages.size()) {
        for (const ServeWorkload::RateStage& sg : w.rate_stages) { stage_rate.push_back(sg.rate); stage_dur.push_back(sg.duration_s); }
        if (sessions) start_sessions(w);
        else if (closed) issued_closed = std::min(n, w.concurrency);
        // the front end takes the requests already sent in their order (open loop and burst: all; closed loop: the
        // first C), the rest as the closed loop sends them (finish)
        if (!sessions)
            for (int i = 0; i < (closed ? issued_closed : n); ++i) front_end(reqs[(size_t)i]);
        if (setup.prefix_cache != PrefixCacheKind::None && w.shares_prefix()) {
            int chains = n;
            std::vector<int> group;   // per session; empty = one group (every workload before prefix groups)
            if (w.prompts_per_group > 0) chains = std::max(n, std::max(1, w.prefix_groups) * w.prompts_per_group);
            if (w.prefix_groups > 1) {
                group.assign((size_t)std::max(1, chains), 0);
                for (const Req& r : reqs) group[(size_t)r.session] = r.group;
            }
            cache = std::make_unique<PrefixCache>(setup, chains, w.shared_prefix_len, std::move(group));
        }
    }

    // the front end (LoadSetup::frontend_*): one server, FIFO; called in send order
    double frontend_free = 0;
    void front_end(Req& r) {
        r.visible = r.arrival;
        if (st.frontend_request_s <= 0 && st.frontend_token_s <= 0) return;
        frontend_free = std::max(frontend_free, r.arrival) + st.frontend_request_s + st.frontend_token_s * (double)r.in;
        r.visible = frontend_free;
    }

    int64_t blocks_for(int64_t tokens) const { return (tokens + st.block_size - 1) / st.block_size; }
    int sessions_total() const { return (n + turns - 1) / turns; }

    // first turns: C clients' sessions (closed loop), every session at its Poisson time (open loop) or at t = 0 (burst)
    void start_sessions(const ServeWorkload& w) {
        int first = closed ? std::min(sessions_total(), w.concurrency) : sessions_total();
        for (int s = 0; s < first; ++s) pending.push({reqs[(size_t)s * turns].arrival, s * turns});
        next_session = first;
    }

    void arrive_until(double t) {
        if (sessions) {
            while (!pending.empty() && pending.top().first <= t) { waiting.push_back(pending.top().second); pending.pop(); }
            return;
        }
        while (next < n && (!closed || next < issued_closed) && reqs[(size_t)next].visible <= t) waiting.push_back(next++);
    }

    // when the next request arrives or a tier load ends; < 0 = never (the run is over)
    double next_event() const {
        double t = -1;
        auto earliest = [&](double v) { if (v >= 0 && (t < 0 || v < t)) t = v; };
        if (sessions) { if (!pending.empty()) earliest(pending.top().first); }
        else if (next < n && (!closed || next < issued_closed)) earliest(reqs[(size_t)next].visible);
        for (int id : running) if (reqs[(size_t)id].ready_at > now) earliest(reqs[(size_t)id].ready_at);
        return t;
    }

    // free blocks, counting the cached ones no running request references (they are evicted on demand)
    int64_t avail() const { return free_blocks + (cache ? cache->evictable() : 0); }
    void take(int64_t k) {
        if (k > free_blocks && cache) free_blocks += cache->evict(k - free_blocks);
        free_blocks -= k;
    }

    // a request leaves the pool (finished or preempted): its own blocks free, its computed session blocks to the cache
    void release_blocks(Req& r, int64_t computed_tokens) {
        int64_t own = r.blocks - r.hit.ref_blocks, freed = 0, taken = 0;
        if (cache && r.attached) {
            if (cache->kind() == PrefixCacheKind::Slot) cache->free_slot(r.hit, r.session, computed_tokens, now);
            else taken = cache->release(r.hit, r.session, computed_tokens, reuse_own, now, freed);
        }
        free_blocks += own - taken + freed; r.blocks = 0; r.attached = false; r.hit = PrefixHit{};
    }

    // vLLM's RECOMPUTE preemption: the newest running request frees its blocks and recomputes later
    void preempt_newest() {
        int victim = running.back(); running.pop_back();
        Req& v = reqs[(size_t)victim];
        release_blocks(v, v.done);
        v.need = v.in + v.gen; v.done = 0; v.ready_at = -1;
        waiting.push_front(victim); ++preemptions;
    }

    // admission looks the prompt up: the GPU hit is pinned and skipped, tier hits are allocated and loaded first.
    // false (nothing changed) when the tier blocks do not fit
    bool attach(int id) {
        Req& r = reqs[(size_t)id];
        if (!cache || r.attached) return true;
        PrefixHit h = cache->kind() == PrefixCacheKind::Slot ? cache->take_slot(r.session, r.need, now) : cache->lookup(r.session, r.need);
        if (cache->kind() != PrefixCacheKind::Slot) cache->pin(h, r.session, now);
        int64_t tier_blocks = blocks_for(h.hit()) - h.ref_blocks;
        if (h.cpu + h.nvme > 0 && tier_blocks > avail()) {
            int64_t freed = 0;
            cache->release(h, r.session, 0, false, now, freed);
            return false;
        }
        r.hit = h; r.attached = true;
        r.blocks = h.ref_blocks; r.done = h.hit();
        if (h.cpu + h.nvme > 0) {
            take(tier_blocks); r.blocks += tier_blocks;
            r.ready_at = now + (double)h.cpu * st.cpu_load_s_per_token + (double)h.nvme * st.nvme_load_s_per_token;
        }
        return true;
    }
    // admission did not go through: the pins drop, the slot keeps what it held
    void detach(int id) {
        Req& r = reqs[(size_t)id];
        if (!cache || !r.attached) return;
        if (cache->kind() == PrefixCacheKind::Slot) { cache->cancel_slot(r.hit); r.attached = false; r.hit = PrefixHit{}; }
        else release_blocks(r, 0);
        r.done = 0; r.ready_at = -1;
    }
    // the hit statistics of a request's first admission (a preempted request's recompute is not a new prompt)
    void count_hit(Req& r) {
        if (r.counted) return;
        r.counted = true;
        prompt_tokens += r.in;
        if (!cache) return;
        const PrefixHit& h = r.hit;
        hit_tokens += h.hit(); hit_cpu += h.cpu; hit_nvme += h.nvme; r.cached = h.hit();
        r.tier = h.nvme > 0 ? 2 : h.cpu > 0 ? 1 : h.gpu > 0 ? 0 : 3;
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
            while (extra > avail() && running.size() > i + 1) preempt_newest();
            if (extra > avail()) continue;                            // cannot grow: waits a step
            take(extra); r.blocks += extra;
            dec.push_back(running[i]); ++n_dec; sum_depth += (double)ctx; --budget;
        }
        pre_tokens = 0; pre_depth = 0;
    }

    // the step's batch: vLLM V1 puts every decode first and fills the token budget with prompt chunks; a prefill-first
    // engine (LoadSetup::prefill_first) runs a step of prompt chunks alone while any prompt work can be scheduled, and
    // its decodes only in a step without any
    void schedule_step() {
        if (st.prefill_first) {
            n_dec = 0; sum_depth = 0; budget = st.max_batched_tokens;
            dec.clear(); pre.clear(); chunk.clear(); pre_tokens = 0; pre_depth = 0;
            continue_prefills();
            admit_waiting();
            if (pre_tokens > 0) return;
        }
        schedule_decodes();
        continue_prefills();
        admit_waiting();
    }

    // a prefill chunk within the token budget and the free blocks; false when none fits
    bool schedule_prefill(int id) {
        Req& r = reqs[(size_t)id];
        if (r.ready_at > now) return false;                           // its cached KV is still loading from a tier
        int64_t c = std::min<int64_t>(r.need - r.done, budget);
        if (c <= 0) return false;
        int64_t extra = blocks_for(r.done + c) - r.blocks;
        const int64_t free_now = avail();
        if (extra > free_now) { c = std::max<int64_t>(0, (r.blocks + free_now) * st.block_size - r.done); extra = free_now; }
        if (c <= 0) return false;
        take(extra); r.blocks += extra;
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
            if (!attach(id)) break;
            const Req& q = reqs[(size_t)id];
            int64_t want = blocks_for(st.reserve_output ? q.in + q.out : q.need) - q.blocks;
            if (st.admission_holdback && want > avail() - committed && !running.empty()) { detach(id); break; }
            committed += std::max<int64_t>(0, want - std::min<int64_t>(want, budget / st.block_size));
            const bool loading = q.ready_at > now;
            if (!schedule_prefill(id) && !loading) { detach(id); break; }
            waiting.pop_front(); running.push_back(id);
            count_hit(reqs[(size_t)id]);
            if (reqs[(size_t)id].admitted < 0) reqs[(size_t)id].admitted = now;
        }
    }

    void finish(int id) {
        Req& r = reqs[(size_t)id];
        r.finish = now; ++completed;
        if (cache) release_blocks(r, r.in + r.gen - 1);   // the last token sampled, never fed back
        else { free_blocks += r.blocks; r.blocks = 0; }
        total_out += r.gen; total_in += r.in;
        running.erase(std::find(running.begin(), running.end(), id));
        if (sessions) next_turn(id);
        else if (closed && issued_closed < n) { reqs[(size_t)issued_closed].arrival = now; front_end(reqs[(size_t)issued_closed]); ++issued_closed; }
    }

    // the session's next turn after its think time; a closed-loop client whose session ended starts the next one
    void next_turn(int id) {
        const Req& r = reqs[(size_t)id];
        if (r.turn + 1 < turns && id + 1 < n) {
            reqs[(size_t)id + 1].arrival = now + think_s;
            pending.push({now + think_s, id + 1});
        } else if (closed && next_session < sessions_total()) {
            int first = next_session++ * turns;
            reqs[(size_t)first].arrival = now;
            pending.push({now, first});
        }
    }

    // the step of duration dt ran: KV use and batch size integrate over it, each decode gains a token, each
    // prefill its chunk (the first token is sampled in the step that finishes the prompt)
    void complete_step(double dt, double& kv_use_peak) {
        double used = (double)(st.pool_blocks - avail()) / std::max<int64_t>(1, st.pool_blocks);
        kv_time += used * dt; kv_use_peak = std::max(kv_use_peak, used);
        batch_time += (double)running.size() * dt;
        now += dt;
        if (n_dec > 0) { step_dt.push_back(dt); step_w.push_back(n_dec); }
        if (pre_tokens > 0) { prefill_steps += 1; prefill_step_tokens += (double)pre_tokens; }
        for (int id : dec) { Req& r = reqs[(size_t)id]; ++r.gen; if (r.gen >= r.out) finish(id); }
        for (size_t j = 0; j < pre.size(); ++j) {
            Req& r = reqs[(size_t)pre[j]];
            r.done += chunk[j];
            computed += chunk[j];
            if (cache && r.attached && r.done >= r.need && cache->kind() != PrefixCacheKind::Slot)
                cache->donate_shared(r.hit, r.session, now);   // its own blocks of the shared prefix are now the cache's
            if (r.done >= r.need && r.gen == 0) { r.gen = 1; r.first = now; if (r.gen >= r.out) finish(pre[j]); }
        }
    }

    // what the prefix cache did: hit rate in tokens, prefill computed, TTFT by the tier a request's hit came from
    void fill_prefix_statistics(ServeLoad& L) const {
        L.prefill_tokens_computed = computed;
        L.prompt_tokens = prompt_tokens;
        if (!cache) return;
        L.prefix_hit_tokens = hit_tokens;
        L.prefix_hit_cpu_tokens = hit_cpu; L.prefix_hit_nvme_tokens = hit_nvme;
        L.prefix_evicted_tokens = cache->evicted_tokens();
        L.prefix_hit_rate = prompt_tokens > 0 ? (double)hit_tokens / (double)prompt_tokens : 0;
        double sum[4] = {0, 0, 0, 0};
        for (const Req& r : reqs)
            if (r.finish >= 0 && r.counted) { sum[r.tier] += r.first - r.arrival; ++L.requests_by_tier[r.tier]; }
        for (int t = 0; t < 4; ++t) L.ttft_mean_ms_by_tier[t] = L.requests_by_tier[t] ? sum[t] / L.requests_by_tier[t] * 1e3 : 0;
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
        fill_prefix_statistics(L);
        if (!step_dt.empty()) L.itl_ms = weighted_itl_ms(step_dt, step_w);
        L.queueing_share = qn ? queue_share / qn : 0;
        fill_stage_statistics(L);
    }

    // a staged ladder: each stage's own figures, and the run's rates over the stages' busy spans, not the idle time the
    // draw leaves between them (kStageGapS). A stage's figures are the deployment's: it sent int(rate x duration)
    // requests (this replica ran about 1 / replicas of them), and its output rate is those requests' tokens at this
    // replica's mean over the stage's start to this replica's last completion (inference-perf's stage runs from its
    // start until every request has finished)
    void fill_stage_statistics(ServeLoad& L) const {
        if (n_stages == 0) return;
        std::vector<std::vector<double>> ttft((size_t)n_stages), tpot((size_t)n_stages);
        std::vector<double> t0((size_t)n_stages, -1), t1((size_t)n_stages, -1);   // stage start, last completion
        std::vector<int64_t> out((size_t)n_stages, 0), in((size_t)n_stages, 0), hit((size_t)n_stages, 0);
        std::vector<int> count((size_t)n_stages, 0);
        for (const Req& r : reqs) {
            if (r.stage < 0 || r.finish < 0) continue;
            const size_t k = (size_t)r.stage;
            t0[k] = r.stage_start;
            t1[k] = std::max(t1[k], r.finish);
            ++count[k]; out[k] += r.gen; in[k] += r.in; hit[k] += r.cached;
            ttft[k].push_back(r.first - r.arrival);
            if (r.out > 1) tpot[k].push_back((r.finish - r.first) / (double)(r.out - 1));
        }
        double busy = 0;
        for (size_t k = 0; k < (size_t)n_stages; ++k) {
            ServeLoad::Stage sg;
            sg.rate = stage_rate[k]; sg.requests = (int)(stage_rate[k] * stage_dur[k]);
            sg.duration_s = t0[k] >= 0 ? t1[k] - t0[k] : 0;
            if (sg.duration_s > 0 && count[k] > 0) sg.output_tok_s = (double)out[k] / count[k] * sg.requests / sg.duration_s;
            sg.prefix_hit_rate = in[k] > 0 ? (double)hit[k] / (double)in[k] : 0;
            sg.ttft_ms = stats_ms(ttft[k]); sg.tpot_ms = stats_ms(tpot[k]);
            busy += sg.duration_s;
            L.stages.push_back(sg);
        }
        if (busy <= 0) return;
        L.duration_s = busy;
        L.output_tok_s = (double)total_out / busy; L.total_tok_s = (double)(total_out + total_in) / busy;
        L.req_s = completed / busy; L.kv_use_mean = kv_time / busy; L.mean_batch = batch_time / busy;
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
    // the overlap scheduler (LoadSetup::overlap_schedule): while the GPU runs a step the CPU has already formed the
    // next, so a step that follows another back to back takes only the requests that arrived before that one began
    double last_start = -1, last_end = -1;
    while (sim.completed < sim.n && guard++ < 50000000) {
        const bool back_to_back = st.overlap_schedule && last_end >= 0 && last_end == sim.now;
        sim.arrive_until(back_to_back ? last_start : sim.now);
        if (sim.running.empty() && sim.waiting.empty()) sim.arrive_until(sim.now);   // idle: the loop takes it at once
        if (sim.running.empty() && sim.waiting.empty()) {
            if (sim.sessions || sim.cache) {            // the next turn after a think time, or a tier load
                double t = sim.next_event();
                if (t < 0) break;
                sim.now = std::max(sim.now, t);
                continue;
            }
            if (sim.next >= sim.n) break;
            sim.now = std::max(sim.now, sim.reqs[(size_t)sim.next].visible);
            continue;
        }
        sim.schedule_step();
        if (sim.n_dec == 0 && sim.pre_tokens == 0 && sim.cache) {   // only tier loads in flight: wait for the first
            double t = sim.next_event();
            bool loading = false;
            for (int id : sim.running) loading |= sim.reqs[(size_t)id].ready_at > sim.now;
            if (loading && t > sim.now) { sim.now = t; continue; }
        }
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
        last_start = sim.now;
        sim.complete_step(dt, L.kv_use_peak);
        last_end = sim.now;
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
