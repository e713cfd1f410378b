#include "sim/bench.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>

#include "memory/prepared_weights.h"
#include "sim/simulate.h"
#include "speed/speed.h"

namespace llmsim {

namespace {
void fnv1a(uint64_t& h, const void* p, size_t n) {
    const unsigned char* b = static_cast<const unsigned char*>(p);
    for (size_t i = 0; i < n; ++i) { h ^= b[i]; h *= 1099511628211ull; }
}
void hash_evaluation(uint64_t& h, bool ok, const Evaluation& ev) {
    fnv1a(h, &ok, sizeof ok);
    if (!ok) return;
    const int status = (int)ev.memory.status;
    fnv1a(h, &ev.memory.total_bytes, sizeof ev.memory.total_bytes);
    fnv1a(h, &status, sizeof status);
    const double speeds[] = {ev.speed.decode_tps, ev.speed.prefill_tps, ev.speed.decode_full_tps, ev.speed.ttft_s};
    fnv1a(h, speeds, sizeof speeds);
}
}  // namespace

BenchResult bench_sweep(const Catalog& cat, bool with_speed, int repeat, bool lookup_per_call) {
    BenchResult r;
    std::vector<std::string> quants;
    for (const FileType& f : cat.file_types) if (f.common) quants.push_back(f.name);
    const int64_t contexts[] = {4096, 8192, 32768, 131072};
    r.models = cat.models.size();
    r.devices = cat.hardware.size();
    r.quants = quants.size();
    r.lookup_per_call = lookup_per_call;
    r.best_ms = 1e30;
    SimRequest req;
    req.memory.compute_max_context = false;
    req.memory.with_notes = false;
    req.with_speed = with_speed;
    // the sweep's contexts of one device share the prompt's prefill (it does not depend on the context): a
    // one-entry memo reuses it when the next scenario is bit-identical
    PrefillMemo memo;
    if (!lookup_per_call) req.prefill_memo = &memo;
    Evaluation ev;
    std::string err;
    for (int rep = 0; rep < std::max(1, repeat); ++rep) {
        size_t evaluations = 0, errors = 0;
        uint64_t hash = 14695981039346656037ull;
        auto t0 = std::chrono::steady_clock::now();
        for (const Model& m : cat.models)
            for (const std::string& q : quants) {
                req.memory.file_type = q;
                // a sweep prepares the weights of a model and quant once (prepare_weights' cache builds them on
                // the first sweep); lookup_per_call measures evaluate()'s own cache lookup on every call instead
                std::shared_ptr<const PreparedWeights> w;
                if (!lookup_per_call) w = prepare_weights(cat, m, q, err, 0);
                for (const Hardware& h : cat.hardware)
                    for (int64_t c : contexts) {
                        req.memory.n_ctx = c;
                        req.memory.hardware = &h;
                        const bool ok = lookup_per_call ? evaluate(cat, m, req, ev, err)
                                                        : w && evaluate(cat, *w, m, req, ev, err);
                        if (!ok) ++errors;
                        hash_evaluation(hash, ok, ev);
                        ++evaluations;
                    }
            }
        double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
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
