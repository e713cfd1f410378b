// llmsim_bench: the engine sweep (engine/sim/bench.h) as a program that links only the engine, so the same
// benchmark runs natively and as wasm under node. Prints numbers; asserts nothing. `llmsim_bench serving`: the SLA
// search's time only.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#ifdef __EMSCRIPTEN__
#include <emscripten.h>
#endif

#include "serving/serving.h"
#include "sim/bench.h"

// CPU time of this process, ms: wall time on a loaded machine says more about the other processes than about the
// search (node: process.cpuUsage(); natively: clock())
static double cpu_ms() {
#ifdef __EMSCRIPTEN__
    return EM_ASM_DOUBLE({ const u = process.cpuUsage(); return (u.user + u.system) / 1000; });
#else
    return std::clock() * 1000.0 / CLOCKS_PER_SEC;
#endif
}

int main(int argc, char** argv) {
    // `llmsim_bench serving`: the SLA search alone (serving.h sla_bench), the "< 1 s in the browser" check
    bool serving_only = argc > 1 && strcmp(argv[1], "serving") == 0;
    int repeat = argc > 1 && !serving_only ? std::max(1, atoi(argv[1])) : 3;
    llmsim::Catalog cat;
    std::string err;
    if (!llmsim::load_embedded_catalog(cat, err)) { fprintf(stderr, "llmsim_bench: %s\n", err.c_str()); return 1; }
#ifdef __EMSCRIPTEN__
    const char* where = "wasm (node)";
#else
    const char* where = "native";
#endif
    if (serving_only) {
        double c0 = cpu_ms();
        std::string lines = llmsim::sla_bench(cat);
        printf("%s %s%s: both searches %.0f ms CPU\n", where, lines.c_str(), where, cpu_ms() - c0);
        return 0;
    }
    // `llmsim_bench N memory|speed|lookup`: one of the three sweeps (a profiler's run)
    const char* only = argc > 2 ? argv[2] : "";
    auto run = [&](const char* name, bool with_speed, bool lookup) {
        if (*only && strcmp(only, name) != 0) return;
        printf("%s %s\n", where,
               llmsim::format_bench(llmsim::bench_sweep(cat, with_speed, repeat, lookup), with_speed).c_str());
    };
    run("memory", false, false);
    run("speed", true, false);
    run("lookup", true, true);
    return 0;
}
