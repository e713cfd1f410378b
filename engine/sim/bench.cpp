#include "sim/bench.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <memory>
#include <vector>

#include "memory/prepared_weights.h"
#include "sim/simulate.h"
#include "speed/speed.h"

namespace llmsim {

namespace {
void fnv1a(uint64_t& h, const void* p, size_t n) {
    const unsigned char* b = static_cast<const unsigned char*>(p);
    for (size_t i = 0; i < n; ++i) { h ^= b[i]; h *= 1099511628211ull; }
}

// what the hash takes of one evaluation, kept while the clock runs (the byte-serial FNV-1a over it cost ~0.06 us an
// evaluation, more than a sixth of the sweep: it runs between the timed blocks)
struct HashRow {
    bool ok;
    int status;
    uint64_t total_bytes;
    double speeds[4];
};
HashRow hash_row(bool ok, const Evaluation& ev) {
    HashRow r{ok, 0, 0, {0, 0, 0, 0}};
    if (!ok) return r;
    r.status = (int)ev.memory.status;
    r.total_bytes = ev.memory.total_bytes;
    r.speeds[0] = ev.speed.decode_tps;
    r.speeds[1] = ev.speed.prefill_tps;
    r.speeds[2] = ev.speed.decode_full_tps;
    r.speeds[3] = ev.speed.ttft_s;
    return r;
}
// the bytes, in the order, the hash has always taken: ok; then total bytes, status, the four speeds
void hash_evaluation(uint64_t& h, const HashRow& r) {
    fnv1a(h, &r.ok, sizeof r.ok);
    if (!r.ok) return;
    fnv1a(h, &r.total_bytes, sizeof r.total_bytes);
    fnv1a(h, &r.status, sizeof r.status);
    fnv1a(h, r.speeds, sizeof r.speeds);
}

constexpr int kContexts = 4;
constexpr int64_t kContextTokens[kContexts] = {4096, 8192, 32768, 131072};

// the buffers of a sweep over every device: the devices, each device's four evaluations, its success and error
struct GridBuffers {
    std::vector<const Hardware*> devices;
    std::vector<Evaluation> ev;
    std::unique_ptr<bool[]> ok;
    std::vector<std::string> errs;
    explicit GridBuffers(const Catalog& cat) : ev(cat.hardware.size() * kContexts), ok(new bool[cat.hardware.size()]),
                                              errs(cat.hardware.size()) {
        for (const Hardware& h : cat.hardware) devices.push_back(&h);
    }
};

// one model and quant over every device: the rows of its evaluations, in sweep order; the evaluations' count
size_t sweep_block(const Catalog& cat, const Model& m, const std::string& q, SimRequest& req, bool lookup_per_call,
                   GridBuffers& g, std::vector<HashRow>& rows, std::string& err) {
    rows.clear();
    req.memory.file_type = q;
    if (lookup_per_call) {   // evaluate() looks the weights up in prepare_weights' cache on every call
        Evaluation& ev = g.ev[0];
        for (const Hardware& h : cat.hardware)
            for (int64_t c : kContextTokens) {
                req.memory.n_ctx = c;
                req.memory.hardware = &h;
                const bool ok = evaluate(cat, m, req, ev, err);
                rows.push_back(hash_row(ok, ev));
            }
        return rows.size();
    }
    // a sweep prepares the weights of a model and quant once (prepare_weights' cache builds them on the first
    // sweep) and evaluates every device's contexts in one grid call (the layouts and placements of a shape shared)
    const std::shared_ptr<const PreparedWeights> w = prepare_weights(cat, m, q, err, 0);
    const int n = (int)g.devices.size();
    if (w) evaluate_grid(cat, *w, m, req, g.devices.data(), n, kContextTokens, kContexts, g.ev.data(), g.ok.get(), g.errs.data());
    for (int d = 0; d < n; ++d)
        for (int i = 0; i < kContexts; ++i) rows.push_back(hash_row(w && g.ok[d], g.ev[(size_t)(d * kContexts + i)]));
    return rows.size();
}
}  // namespace

BenchResult bench_sweep(const Catalog& cat, bool with_speed, int repeat, bool lookup_per_call) {
    BenchResult r;
    std::vector<std::string> quants;
    for (const FileType& f : cat.file_types) if (f.common) quants.push_back(f.name);
    r.models = cat.models.size();
    r.devices = cat.hardware.size();
    r.quants = quants.size();
    r.lookup_per_call = lookup_per_call;
    r.best_ms = 1e30;
    SimRequest req;
    req.memory.compute_max_context = false;
    req.memory.with_notes = false;
    req.with_speed = with_speed;
    GridBuffers grid(cat);
    std::vector<HashRow> rows;
    rows.reserve(cat.hardware.size() * kContexts);
    std::string err;
    for (int rep = 0; rep < std::max(1, repeat); ++rep) {
        size_t evaluations = 0, errors = 0;
        uint64_t hash = 14695981039346656037ull;
        std::chrono::steady_clock::duration timed{};
        for (const Model& m : cat.models)
            for (const std::string& q : quants) {
                const auto t0 = std::chrono::steady_clock::now();
                evaluations += sweep_block(cat, m, q, req, lookup_per_call, grid, rows, err);
                timed += std::chrono::steady_clock::now() - t0;
                for (const HashRow& row : rows) {
                    errors += row.ok ? 0 : 1;
                    hash_evaluation(hash, row);
                }
            }
        double ms = std::chrono::duration<double, std::milli>(timed).count();
        if (rep == 0) r.cold_ms = ms;
        r.best_ms = std::min(r.best_ms, ms);
        r.evaluations = evaluations;
        r.errors = errors;
        r.hash = hash;
    }
    return r;
}

std::string format_bench(const BenchResult& r, bool with_speed) {
    char buf[512];
    snprintf(buf, sizeof buf,
             "sweep (%s%s): %zu models x %zu devices x %zu quants x 4 contexts = %zu evaluations (%zu errors): "
             "cold %.1f ms, warm best %.1f ms (%.2f us each), hash %016llx",
             with_speed ? "memory + speed" : "memory only", r.lookup_per_call ? ", cache lookup per call" : "", r.models, r.devices, r.quants, r.evaluations, r.errors, r.cold_ms,
             r.best_ms, r.evaluations ? 1000.0 * r.best_ms / (double)r.evaluations : 0.0,
             (unsigned long long)r.hash);
    return buf;
}

}  // namespace llmsim
