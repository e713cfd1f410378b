// Catch2 v2 (Debian's single header) main for the unit tests. Under emscripten (node, -sNODERAWFS) it first hands the
// engine the assets the web build does not compile in (core/assets.h: the page fetches them after its first frame),
// read from assets/ the way the page receives them, so the wasm tests see the same data as the native ones.
#ifndef __EMSCRIPTEN__
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
#else
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

#include "core/assets.h"

int main(int argc, char* argv[]) {
    std::stringstream names(LLMSIM_DEFERRED_ASSETS);   // "calibration/a.jsonl,calibration/b.json"
    for (std::string name; std::getline(names, name, ',');) {
        if (name.empty()) continue;
        std::ifstream f(std::string(LLMSIM_ASSETS_DIR) + "/" + name, std::ios::binary);
        std::stringstream text;
        text << f.rdbuf();
        if (!f || text.str().empty()) {
            std::fprintf(stderr, "catch_main: cannot read %s/%s (a deferred asset of the web build)\n", LLMSIM_ASSETS_DIR, name.c_str());
            return 1;
        }
        llmsim::add_runtime_asset(name, text.str());
    }
    return Catch::Session().run(argc, argv);
}
#endif
