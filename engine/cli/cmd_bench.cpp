// llmsim-cli bench: how long the engine takes for a full sweep — every catalog model x every device x the 8
// common quants x 4 contexts, memory + speed — and for one UI scenario change. Prints numbers; asserts nothing.
#include <chrono>
#include <algorithm>
#include <cstdio>
#include <cstdlib>

#include "commands.h"
#include "simulate.h"

namespace llmsim::cli {

int cmd_bench(int argc, char** argv) {
    Args a = parse_args(argc, argv, {"help", "no-speed", "notes"});
    if (a.has("help")) {
        printf("usage: llmsim-cli bench [--no-speed] [--notes] [--repeat N]\n"
               "Times the sweep models x devices x 8 common quants x 4 contexts (4k, 8k, 32k, 128k).\n");
        return 0;
    }
    int repeat = 1;
    if (const std::string* r = a.get("repeat")) repeat = std::max(1, atoi(r->c_str()));
    Catalog cat;
    if (!load_catalog(cat)) return 1;
    std::vector<std::string> quants;
    for (const FileType& f : cat.file_types) if (f.common) quants.push_back(f.name);
    const int64_t contexts[] = {4096, 8192, 32768, 131072};
    const bool with_speed = !a.has("no-speed");
    const bool with_notes = a.has("notes");   // the sweep never shows notes; --notes builds them anyway
    size_t evaluations = 0, failures = 0;
    double best_ms = 1e30;
    for (int rep = 0; rep < repeat; ++rep) {
        auto t0 = std::chrono::steady_clock::now();
        for (const Model& m : cat.models)
            for (const Hardware& h : cat.hardware)
                for (const std::string& q : quants)
                    for (int64_t c : contexts) {
                        SimRequest req;
                        req.memory.file_type = q;
                        req.memory.n_ctx = c;
                        req.memory.hardware = &h;
                        req.memory.compute_max_context = false;
                        req.memory.with_notes = with_notes;
                        req.with_speed = with_speed;
                        Evaluation ev;
                        std::string err;
                        if (!evaluate(cat, m, req, ev, err)) ++failures;
                        ++evaluations;
                    }
        double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
        best_ms = std::min(best_ms, ms);
    }
    evaluations /= (size_t)repeat;
    failures /= (size_t)repeat;
    printf("sweep: %zu models x %zu devices x %zu quants x 4 contexts = %zu evaluations (%zu errors) in %.1f ms "
           "(%.2f us each, best of %d)\n",
           cat.models.size(), cat.hardware.size(), quants.size(), evaluations, failures, best_ms,
           1000.0 * best_ms / (double)evaluations, repeat);
    return 0;
}

}  // namespace llmsim::cli
