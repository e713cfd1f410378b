// llmsim-cli bench: how long the engine takes for a full sweep — every catalog model x every device x the 8
// common quants x 4 contexts, memory + speed — and for one UI scenario change. Prints numbers; asserts nothing.
#include <chrono>
#include <algorithm>
#include <cstdio>
#include <cstdlib>

#include "commands.h"
#include "sim/bench.h"

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
    const bool with_speed = !a.has("no-speed");
    printf("%s\n", format_bench(bench_sweep(cat, with_speed, repeat), with_speed).c_str());
    return 0;
}

}  // namespace llmsim::cli
