// Helpers shared by the engine tests: the embedded catalog, and a file of the source tree read as text.
#pragma once

#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>
#include <string>

#include "catalog/catalog.h"

// the catalog compiled into the engine (the one every front end uses)
inline const llmsim::Catalog& cat() {
    const llmsim::Catalog* c = llmsim::embedded_catalog();
    REQUIRE(c);
    return *c;
}

// a file of the source tree (path relative to the repository root) as text; "" when it cannot be read
inline std::string read_source_file(const std::string& rel) {
#ifdef LLMSIM_SOURCE_DIR
    std::ifstream f(std::string(LLMSIM_SOURCE_DIR) + "/" + rel);
#else
    std::ifstream f(rel);
#endif
    std::stringstream ss;
    ss << f.rdbuf();
    return ss.str();
}
