// How much a device profile helps on models it was not fitted on: for every device with rows of >= 2 models,
// fit the profile on one model's rows and score the other models' rows on that device, with and without it
// (every model takes its turn as the calibration model). Backs `llmsim-cli calibrate-device --holdout FILE`
// and the test that keeps the claim honest. No UI, no exceptions.
//
//   llmsim::HoldoutReport rep;
//   std::string err;
//   if (llmsim::profile_holdout(cat, jsonl_text, llmsim::default_speed_params(), rep, err)) puts(llmsim::format_holdout(rep).c_str());
#pragma once
#include <string>

#include "catalog/catalog.h"
#include "speed/speed.h"

namespace llmsim {

struct HoldoutStats {
    int rows = 0;
    double mdape = 0, within25 = 0, coverage = 0;   // median |pred/meas - 1|, share within ±25 %, share inside low…high
};

struct HoldoutReport {
    HoldoutStats before[2], after[2];   // [0] decode, [1] prefill: the same held-out rows without / with the profile
    HoldoutStats same_kind_before[2], same_kind_after[2];   // only rows of the calibration model's kind (dense / MoE)
    int devices = 0, splits = 0;        // devices with >= 2 models; (device, calibration model) pairs scored
    int input_rows = 0, unusable_rows = 0;
};

// rows: predict's input shape + measured_tokens_per_s (assets/calibration/llamacpp_speed.jsonl); false + err
// when no device has rows of two models
bool profile_holdout(const Catalog& cat, const std::string& jsonl, const SpeedParams& params, HoldoutReport& out, std::string& err);
std::string format_holdout(const HoldoutReport& r);

}  // namespace llmsim
