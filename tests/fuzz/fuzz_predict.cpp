// libFuzzer target: the predict-line parser (engine/api/predict.h, `llmsim-cli predict` and window.llmsim.predict):
// one JSON line in, one JSON line out. The answer must be a JSON object with "error" or finite numbers.
#include <cmath>
#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "catalog/catalog.h"
#include "fuzz_support.h"
#include "api/predict.h"
#include "speed/speed.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size > 1 << 16) return 0;
    static const llmsim::SpeedParams params = llmsim::builtin_speed_params();
    const std::string line(reinterpret_cast<const char*>(data), size);
    const std::string out = llmsim::predict_line(fuzz_catalog(), params, line);
    const nlohmann::json j = nlohmann::json::parse(out, nullptr, false);
    if (j.is_discarded() || !j.is_object()) __builtin_trap();
    if (!j.contains("error")) check_finite(j);
    return 0;
}
