// What the JSON-answering fuzz targets share: the embedded catalog, parsed once, and the check that an answer holds
// no NaN or infinity (a JSON number must be finite; a non-finite one is a silently wrong figure).
//   const llmsim::Catalog& cat = fuzz_catalog();   check_finite(nlohmann::json::parse(answer));
#pragma once
#include <cmath>

#include <nlohmann/json.hpp>

#include "catalog/catalog.h"

namespace {
// the embedded catalog, parsed once by the engine (a broken embedded catalog is a build bug: trap)
inline const llmsim::Catalog& fuzz_catalog() {
    const llmsim::Catalog* cat = llmsim::embedded_catalog();
    if (!cat) __builtin_trap();
    return *cat;
}

inline void check_finite(const nlohmann::json& j) {
    if (j.is_number_float() && !std::isfinite(j.get<double>())) __builtin_trap();
    if (j.is_structured())
        for (const auto& e : j) check_finite(e);
}
}  // namespace
