// libFuzzer target: the JSON memory API (engine/api/api.h, window.llmsim.memory and `llmsim-cli memory --json`),
// standing in for the predict-line parser: one JSON request in, one JSON answer out. The answer must be a JSON
// object with either "error" or finite numbers (no NaN/inf reaches a table).
#include <cmath>
#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "api/api.h"
#include "catalog/catalog.h"
#include "fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size > 1 << 16) return 0;
    const std::string req(reinterpret_cast<const char*>(data), size);
    const std::string out = llmsim::api_memory(fuzz_catalog(), req);
    const nlohmann::json j = nlohmann::json::parse(out, nullptr, false);
    if (j.is_discarded() || !j.is_object()) __builtin_trap();
    if (!j.contains("error")) check_finite(j);
    return 0;
}
