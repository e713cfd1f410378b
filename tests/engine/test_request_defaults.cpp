// The one rule for "default / none" in the request structs (engine/core/README.md): unset is std::nullopt, a value
// with its own meaning a named constant, and the front ends translate what users type at the boundary.
#include <catch2/catch.hpp>

#include <string>

#include "api/api.h"
#include "catalog/catalog.h"
#include "memory/memory.h"
#include "serving/cost.h"

using namespace llmsim;

TEST_CASE("request defaults: unset fields and named constants", "[defaults]") {
    const MemoryRequest r;
    CHECK(r.n_gpu_layers == kAllGpuLayers);
    CHECK_FALSE(r.file_bytes_override.has_value());
    CHECK_FALSE(r.gpu_reserve_bytes.has_value());
    CHECK_FALSE(r.host_ram_bytes.has_value());
    const CostInputs c;
    CHECK_FALSE(c.hours_per_month_override.has_value());
    CHECK_FALSE(c.api_in_usd_per_mtok.has_value());
}

TEST_CASE("request defaults: the JSON API keeps its spellings (ngl -1, file_bytes 0)", "[defaults]") {
    const Catalog* cat = embedded_catalog();
    REQUIRE(cat != nullptr);
    const std::string base = R"({"model": "Qwen/Qwen2.5-7B-Instruct", "quant": "Q4_K_M", "ctx": 32768, "hardware": "rtx-4090")";
    const std::string plain = api_memory(*cat, base + "}");
    REQUIRE(plain.find("\"error\"") == std::string::npos);
    CHECK(api_memory(*cat, base + R"(, "ngl": -1})") == plain);        // -1 = every layer, the default
    CHECK(api_memory(*cat, base + R"(, "file_bytes": 0})") == plain);  // 0 = from the rules, as before
    CHECK(api_memory(*cat, base + R"(, "file_bytes": 5000000000})") != plain);
    CHECK(api_memory(*cat, base + R"(, "ngl": 10})") != plain);
}

TEST_CASE("request defaults: an explicit reserve of 0 is zero, not the default", "[defaults]") {
    Hardware hw;
    hw.kind = HardwareKind::Consumer;
    hw.memory_bytes = (int64_t)(24 * kGiB);
    MemoryRequest r;
    CHECK(usable_gpu_bytes(hw, r) == 24 * kGiB - kGpuReserveDesktopBytes);
    r.gpu_reserve_bytes = 0;
    CHECK(usable_gpu_bytes(hw, r) == 24 * kGiB);
}

TEST_CASE("request defaults: given hours replace tokens / speed; bad hours are refused", "[defaults][cost]") {
    CostInputs in;
    in.input_mtok_per_month = 36;
    in.output_mtok_per_month = 3.6;
    in.prefill_tokens_per_s = 2000;   // 5 h
    in.decode_tokens_per_s = 50;      // 20 h
    CHECK(estimate_cost(in).hours_needed_per_month == Approx(25.0));
    in.hours_per_month_override = 0;  // a given 0 is 0 hours, not "unset"
    CHECK(estimate_cost(in).hours_needed_per_month == 0);
    in.hours_per_month_override = -1;
    CHECK(estimate_cost(in).error == "hours per month must be 0 or more");
}
