// The fitted speed parameters (assets/calibration/speed_params.json: SpeedParams and the device-profile prior) in a
// compact binary form, for the web page: its first frame evaluates a scenario, and parsing the JSON there made V8
// compile ~120 functions of the JSON parser before the page was ready (docs/validation/2026-12-08-page-ready3.md).
// The web build writes it at build time with `llmsim-cli catalog --speed-binary OUT --from speed_params.json`, through
// the same JSON parsers, which stay the one source of truth; native programs parse the JSON. Layout: core/binary_fields.h.
//
//   llmsim::SpeedCalibration c;
//   if (!llmsim::parse_speed_calibration(json_text, c, err)) ...;
//   const std::string bin = llmsim::speed_calibration_to_binary(c);
//   if (!llmsim::speed_calibration_from_binary(bin, c, err)) fprintf(stderr, "%s\n", err.c_str());
#pragma once
#include <string>
#include <string_view>

#include "speed/device_profile.h"
#include "speed/speed.h"

namespace llmsim {

// everything the engine reads from speed_params.json
struct SpeedCalibration {
    SpeedParams params;
    ProfilePrior prior;
};

// speed_params.json text through parse_speed_params and parse_profile_prior; false + err naming the field
bool parse_speed_calibration(const std::string& json_text, SpeedCalibration& out, std::string& err);
// every field as bytes ("speed_params.bin")
std::string speed_calibration_to_binary(const SpeedCalibration& c);
// read what speed_calibration_to_binary wrote; false + err ("speed_params.bin: ...": truncated, corrupt, written by
// another field list) and `out` untouched on any other input
bool speed_calibration_from_binary(std::string_view bytes, SpeedCalibration& out, std::string& err);
// every field, one "path = value" line each (doubles to 17 digits): tests compare two calibrations with it
std::string speed_calibration_fields_text(const SpeedCalibration& c);

}  // namespace llmsim
