// The engine sweep benchmark shared by `llmsim-cli bench` (native) and the llmsim_bench program (native and
// wasm under node): every catalog model x every device x the 8 common quants x 4 contexts, memory + speed.
#pragma once
#include <cstddef>
#include <string>

#include "catalog/catalog.h"

namespace llmsim {
struct BenchResult {
    size_t models = 0, devices = 0, quants = 0, evaluations = 0, errors = 0;
    double cold_ms = 0;   // first sweep (builds the prepared-weights cache)
    double best_ms = 0;   // best of the repeats (warm cache)
    bool lookup_per_call = false;
    // FNV-1a over every evaluation's total bytes, fit status and decode / prefill tok/s (bit patterns) of the last
    // sweep: two builds print the same hash only if every number of the sweep is identical
    uint64_t hash = 0;
};
// the sweep, timed `repeat` times. Weights are prepared once per model and quant (as a sweep over devices and
// contexts should) and every device's four contexts are one evaluate_grid() call (simulate.h: the layouts and each
// context's placement made once per backend and GPU count; per device its speed scenario and prefill once);
// lookup_per_call: one evaluate() per context instead, which looks the weights up in prepare_weights()' cache on every
// call. The hash runs between the timed blocks of one model and quant
BenchResult bench_sweep(const Catalog& cat, bool with_speed, int repeat, bool lookup_per_call = false);
std::string format_bench(const BenchResult& r, bool with_speed);
}  // namespace llmsim
