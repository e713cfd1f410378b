// engine/speed/speed_binary.cpp: the web page's speed_params.bin read back equals assets/calibration/speed_params.json
// read by parse_speed_params and parse_profile_prior, field for field (in the web build, the very bytes the page
// embeds), doubles bit for bit, and a truncated, corrupt or stale file is refused with a message and changes nothing.
// The file is ~3 KB: every case here runs in milliseconds.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstring>
#include <sstream>
#include <string>

#include "speed/speed_binary.h"
#include "binary_damage.h"
#include "test_support.h"

using namespace llmsim;

namespace {

SpeedCalibration parse_asset() {
    const std::string text = read_source_file("assets/calibration/speed_params.json");
    REQUIRE(!text.empty());
    SpeedCalibration c;
    std::string err;
    INFO(err);
    REQUIRE(parse_speed_calibration(text, c, err));
    return c;
}

// the first line where two field dumps differ ("" when equal), so a failure names the field
std::string first_difference(const std::string& a, const std::string& b) {
    std::istringstream sa(a), sb(b);
    std::string la, lb;
    while (true) {
        const bool ga = (bool)std::getline(sa, la), gb = (bool)std::getline(sb, lb);
        if (!ga && !gb) return "";
        if (ga != gb || la != lb) return "JSON: " + (ga ? la : "(end)") + "\nbinary: " + (gb ? lb : "(end)");
    }
}

SpeedCalibration sentinel() {
    SpeedCalibration c;
    c.params.fit_source = "sentinel";
    c.prior.source = "sentinel";
    return c;
}

}  // namespace

TEST_CASE("speed binary: speed_params.json reads back field for field", "[speed][speed_binary]") {
    const SpeedCalibration json = parse_asset();
    REQUIRE(json.prior.fitted);                     // the asset carries a device-profile prior: it is in the file too
    REQUIRE(json.params.fit_rows_decode > 0);       // and the fit's provenance (struct default 0)
    const std::string bin = speed_calibration_to_binary(json);
    SpeedCalibration back;
    std::string err;
    INFO(err);
    REQUIRE(speed_calibration_from_binary(bin, back, err));
    const std::string a = speed_calibration_fields_text(json), b = speed_calibration_fields_text(back);
    // 380 lines on 2026-12-07: 78 numbers of the fit and its provenance, 28 bands of 7 fields, the prior's 4 x 14
    // variances and counts, its 47 device names
    CHECK(std::count(a.begin(), a.end(), '\n') > 330);
    CHECK(a.find("params.band[0][1].from = \"leave-one-source") != std::string::npos);   // the path names the field
    CHECK(first_difference(a, b) == "");
    CHECK(speed_calibration_to_binary(back) == bin);
}

// what this program's engine evaluates with: in the web build speed_params.bin (LLMSIM_SPEED_BINARY), natively the JSON
TEST_CASE("speed binary: the embedded parameters equal speed_params.json", "[speed][speed_binary]") {
    SpeedCalibration embedded;
    std::string err;
    INFO(err);
    REQUIRE(load_builtin_speed_params(embedded.params, err));
    embedded.prior = default_profile_prior();
    CHECK(first_difference(speed_calibration_fields_text(parse_asset()), speed_calibration_fields_text(embedded)) == "");
}

TEST_CASE("speed binary: doubles come back bit for bit", "[speed_binary]") {
    const double values[] = {0.0, -0.0, 0.1, 82.58, -1, 1.0 / 3.0, 1e-300, 1e300, 4.9e-324, 9007199254740993.0,
                             123456.789012345, 0.30000000000000004, 2.5e-7};
    // 13 scalar parameters, one value each
    double SpeedParams::*places[] = {&SpeedParams::kv_factor, &SpeedParams::fixed_ms_per_layer, &SpeedParams::gpu_hop_ms,
                                     &SpeedParams::alu_flops_per_param, &SpeedParams::alu_unified,
                                     &SpeedParams::compute_share, &SpeedParams::tflops_exponent,
                                     &SpeedParams::fa_attn_factor, &SpeedParams::no_fa_score_bytes,
                                     &SpeedParams::pipeline_hop_ms, &SpeedParams::host_share,
                                     &SpeedParams::intel_compute, &SpeedParams::moe_compute};
    static_assert(sizeof places / sizeof places[0] == sizeof values / sizeof values[0], "one place per value");
    SpeedCalibration c;
    for (size_t i = 0; i < sizeof values / sizeof values[0]; ++i) c.params.*places[i] = values[i];
    SpeedCalibration back;
    std::string err;
    REQUIRE(speed_calibration_from_binary(speed_calibration_to_binary(c), back, err));
    for (size_t i = 0; i < sizeof values / sizeof values[0]; ++i) {
        INFO(values[i]);
        CHECK(std::memcmp(&(back.params.*places[i]), &values[i], sizeof(double)) == 0);
    }
}

TEST_CASE("speed binary: truncated, corrupt or stale files are refused and change nothing", "[speed_binary]") {
    const std::string bin = speed_calibration_to_binary(parse_asset());
    auto refused = [](const std::string& file, const char* says) {
        SpeedCalibration out = sentinel();
        std::string err;
        const bool ok = speed_calibration_from_binary(file, out, err);
        INFO(err);
        CHECK(!ok);
        CHECK(err.rfind("speed_params.bin: ", 0) == 0);
        CHECK(err.find(says) != std::string::npos);
        CHECK(out.params.fit_source == "sentinel");
        CHECK(out.prior.source == "sentinel");
        CHECK(!out.prior.fitted);
    };
    refused("", "not a binary speed parameter file");
    refused("{\"decode\": {}}", "not a binary speed parameter file");
    std::string catalog_magic = bin;   // another binary asset's file
    std::memcpy(&catalog_magic[0], "LLMCATB1", 8);
    refused(catalog_magic, "not a binary speed parameter file");
    // the first number's form tag: 10 bytes of 0xff make it longer than 64 bits
    binary_damage::check_damage_refused(bin, {"another version of the speed parameter file's field list", 97, 10}, refused);
}

TEST_CASE("speed binary: forged payloads never crash the reader", "[speed_binary]") {
    const std::string bin = speed_calibration_to_binary(parse_asset());
    uint32_t seed = 12345;
    int refused = 0;
    for (int i = 0; i < 300; ++i) {
        std::string f = bin;
        for (int k = 0; k < 4; ++k) {
            seed = seed * 1664525u + 1013904223u;
            f[32 + seed % (f.size() - 32)] = (char)(seed >> 24);
        }
        binary_damage::set_checksum(f);
        SpeedCalibration out;
        std::string err;
        if (!speed_calibration_from_binary(f, out, err)) {
            ++refused;
            CHECK(err.rfind("speed_params.bin: corrupt: it ", 0) == 0);
        }
    }
    CHECK(refused > 0);   // most random bytes land in numbers and strings (still a valid file); some break the layout
}
