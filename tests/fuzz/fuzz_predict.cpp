// libFuzzer target: the predict-line parser (engine/api/predict.h, `llmsim-cli predict` and window.llmsim.predict):
// one JSON line in, one JSON line out. The answer must be a JSON object with "error" or finite numbers.
#include <cmath>
#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "catalog/catalog.h"
#include "api/predict.h"
#include "speed/speed.h"

namespace {
// the embedded catalog, parsed once by the engine (a broken embedded catalog is a build bug: trap)
const llmsim::Catalog& catalog() {
    const llmsim::Catalog* cat = llmsim::embedded_catalog();
    if (!cat) __builtin_trap();
    return *cat;
}

void check_finite(const nlohmann::json& j) {
    if (j.is_number_float() && !std::isfinite(j.get<double>())) __builtin_trap();
    if (j.is_structured())
        for (const auto& e : j) check_finite(e);
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size > 1 << 16) return 0;
    static const llmsim::SpeedParams params = llmsim::builtin_speed_params();
    const std::string line(reinterpret_cast<const char*>(data), size);
    const std::string out = llmsim::predict_line(catalog(), params, line);
    const nlohmann::json j = nlohmann::json::parse(out, nullptr, false);
    if (j.is_discarded() || !j.is_object()) __builtin_trap();
    if (!j.contains("error")) check_finite(j);
    return 0;
}
