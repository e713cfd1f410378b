// libFuzzer target: the catalog loader (engine/catalog/catalog.h parse_catalog). The input holds the three documents
// (models.json, hardware.json, quants.json) separated by "\n\0---\0\n"; missing parts are empty.
#include <cstdint>
#include <string>

#include "catalog/catalog.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    static const std::string sep("\n\0---\0\n", 7);
    std::string parts[3];
    size_t start = 0;
    for (int i = 0; i < 3; ++i) {
        const size_t end = i < 2 ? text.find(sep, start) : std::string::npos;
        if (start <= text.size()) parts[i] = text.substr(start, end == std::string::npos ? std::string::npos : end - start);
        if (end == std::string::npos) break;
        start = end + sep.size();
    }
    llmsim::Catalog cat;
    std::string err;
    if (llmsim::parse_catalog(parts[0], parts[1], parts[2], cat, err)) {
        for (const auto& m : cat.models) (void)cat.find_model(m.id);
        for (const auto& h : cat.hardware) (void)cat.find_hardware(h.id);
    } else if (err.empty()) {
        __builtin_trap();
    }
    return 0;
}
