// A per-device correction fitted on the user's own llama-bench rows: one decode and one prefill efficiency
// factor (measured / predicted) that then apply to every estimate for that device, with the band narrowed only
// as far as the fit's residuals allow. Pure arithmetic, no UI, no exceptions.
//
//   std::vector<llmsim::ProfileSample> samples = ...;          // bench_import.h builds them from llama-bench output
//   llmsim::DeviceProfile prof;
//   std::string err;
//   if (!llmsim::fit_device_profile(samples, llmsim::default_speed_params(), hw, prof, err)) { ... }
//   req.device_profile = &prof;                                 // SimRequest: evaluate() applies it
//   puts(llmsim::device_profile_to_json(prof).c_str());        // `llmsim-cli calibrate-device -o profile.json`
//
// [SECTION] Fit
// [SECTION] Apply
// [SECTION] JSON
#pragma once
#include <string>
#include <vector>

#include "catalog/catalog.h"
#include "speed/speed.h"

namespace llmsim {

// [SECTION] Fit ------------------------------------------------------------------------------------------

struct ProfileSample {             // one measured row, ready for the speed model
    SpeedScenario scenario;
    double measured_tps = 0;
    std::string model;             // which model the row measured (the profile lists them)
    std::string label;             // "pp512 @ d4096" for the row-by-row table
};

struct ProfileFactor {             // one of decode / prefill
    int rows = 0;
    double factor = 1;             // measured / predicted, median in log space; 1 = no rows
    double band_scale = 1;         // <= 1: the class band's log-width is multiplied by this (1 = not narrowed)
    double mdape_before = 0;       // on the user's rows: median |predicted/measured - 1| without the profile
    double mdape_after = 0;        // ... and with it (in-sample: the rows the factor was fitted on)
};

struct DeviceProfile {
    std::string hardware_id;       // catalog id the profile applies to ("rtx-4090"); inline devices: their name
    std::string hardware_name;
    ProfileFactor decode, prefill;
    std::vector<std::string> models;   // models the rows measured
    std::string source;            // where the rows came from ("llama-bench markdown, 12 rows")
    int rows() const { return decode.rows + prefill.rows; }
};

// fit the two factors; false + err when there is no usable row or a prediction fails
bool fit_device_profile(const std::vector<ProfileSample>& samples, const SpeedParams& params, const Hardware& hw,
                        DeviceProfile& out, std::string& err);

// [SECTION] Apply ----------------------------------------------------------------------------------------

// whether the profile was fitted on this device (same catalog id; inline devices: same name, ignoring case)
bool profile_applies(const DeviceProfile& p, const Hardware& hw);
// estimate_speed(s) with the profile applied (apply_device_profile)
SpeedResult estimate_with_profile(const DeviceProfile& p, const SpeedScenario& s, const SpeedParams& params);
// scale one estimate (tokens/s, its band and time) by the decode or prefill factor, narrowing the band
void apply_device_profile(const DeviceProfile& p, SpeedTest kind, SpeedResult& r);
// "calibrated on your 12 rows (decode x0.93, prefill x1.12)"
std::string calibrated_label(const DeviceProfile& p);

// [SECTION] JSON -----------------------------------------------------------------------------------------

// the profile file ({"format": "llmsim-device-profile/1", ...}; locale-independent numbers)
std::string device_profile_to_json(const DeviceProfile& p);
// parse a profile file; false + err naming the field on bad input (factors must be 0.05..20, scales 0.1..1)
bool parse_device_profile(const std::string& text, DeviceProfile& out, std::string& err);

}  // namespace llmsim
