// llmsim_bench: the engine sweep (engine/sim/bench.h) as a program that links only the engine, so the same
// benchmark runs natively and as wasm under node. Prints numbers; asserts nothing. `llmsim_bench serving`: the SLA
// search's time only.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "serving/serving.h"
#include "sim/bench.h"

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
    if (serving_only) { printf("%s %s", where, llmsim::sla_bench(cat).c_str()); return 0; }
    printf("%s %s\n", where, llmsim::format_bench(llmsim::bench_sweep(cat, false, repeat), false).c_str());
    printf("%s %s\n", where, llmsim::format_bench(llmsim::bench_sweep(cat, true, repeat), true).c_str());
    printf("%s %s\n", where, llmsim::format_bench(llmsim::bench_sweep(cat, true, repeat, true), true).c_str());
    return 0;
}
