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

// a fresh copy of the embedded catalog that a test may edit; false (with a warning) when it cannot be loaded
inline bool load_catalog_or_skip(llmsim::Catalog& cat) {
    std::string err;
    if (llmsim::load_embedded_catalog(cat, err)) return true;
    WARN("catalog not available, skipping: " << err);
    return false;
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
