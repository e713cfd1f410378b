// How much a device profile helps on models it was not fitted on: for every setup (device x GPUs x publication)
// with rows of >= 2 models, fit the profile on one model's rows and score the other models' rows there, with and
// without it (every model takes its turn as the calibration model). The honest version refits the speed model
// with the device left out (the accuracy command's device-out folds: fit_speed_params from the priors) so that
// neither the model nor the profile saw the device, and takes the shrinkage prior from the other devices only; the
// in-sample version scores the shipped fit (a user whose device is in the calibration data). Also fits the prior
// itself (estimate_profile_prior, stored by `llmsim-cli calibrate --write`). Backs `llmsim-cli calibrate-device
// --holdout FILE...` and the tests that keep the claim honest. No UI, no exceptions.
//
//   llmsim::ProfileHoldoutReport rep;
//   std::string err;
//   if (llmsim::profile_holdout_refit(rows, llmsim::default_speed_params(), {}, rep, err))
//       puts(llmsim::format_profile_holdout(rep).c_str());
//
// [SECTION] Prior
// [SECTION] Held-out report (refit)
// [SECTION] Held-out report (given fit, rows at full weight)
#pragma once
#include <string>
#include <vector>

#include "catalog/catalog.h"
#include "calibration/calibrate.h"
#include "speed/device_profile.h"
#include "speed/speed.h"

namespace llmsim {

// [SECTION] Prior ----------------------------------------------------------------------------------------

// the shrinkage prior from calibration rows: "unseen" from held-out predictions (heldout_tps[i] of rows[i] by a
// fit that never saw its device; <= 0 = none), "seen" from the shipped fit's in-sample predictions; rows of the
// device `exclude_device` are left out (the held-out report's prior for that device)
ProfilePrior estimate_profile_prior(const std::vector<CalibrationRow>& rows, const std::vector<double>& heldout_tps,
                                    const std::vector<double>& insample_tps, const std::string& exclude_device = "");
// a setup: the user's own runs are one device, one GPU count, one build and habit (the publication)
std::string profile_setup_key(const CalibrationRow& r);

struct HoldoutStats {
    int rows = 0;
    double mdape = 0, within25 = 0, coverage = 0;   // median |pred/meas - 1|, share within ±25 %, share inside low…high
};

// [SECTION] Held-out report (refit) ----------------------------------------------------------------------

struct ProfileHoldoutOptions {
    int max_devices = 0;       // refit at most this many devices (those with the most multi-model setups first; 0 = all)
    FitOptions fit;            // the device-out refits (from_priors is forced on, as the accuracy command's folds)
};

struct ProfileHoldoutCase {
    // [0] decode [1] prefill; scored rows: other models of a setup, calibrated on one model of it
    HoldoutStats without[2], full_weight[2], shrunk[2];
    HoldoutStats other_kind_without[2], other_kind_full[2], other_kind_shrunk[2];   // dense profile -> MoE model and back
    double mean_weight[2] = {0, 0};   // mean shrinkage weight of the profiles (same-kind targets)
    int setups = 0, splits = 0;
};

struct ProfileHoldoutReport {
    ProfileHoldoutCase unseen;   // device refit out of the speed fit, prior from the other devices
    ProfileHoldoutCase seen;     // the given (shipped) fit in-sample, prior from the other devices
    ProfilePrior prior;          // from every refit device's held-out rows and the shipped fit's (what the report's
                                 // per-device priors are drawn from, shown with it)
    int rows = 0, devices_refit = 0;
    double wall_s = 0;
};

// the prior as `calibrate-device --fit-prior` stores it: held-out residuals from refits of the devices with a
// multi-model setup (the only setups the prior's moments use), seen ones from `shipped`; false + err as below
bool fit_profile_prior(const std::vector<CalibrationRow>& rows, const SpeedParams& shipped, const ProfileHoldoutOptions& opt,
                       ProfilePrior& out, std::string& err);
// the two cases above on calibration rows; false + err when no setup has rows of two models
bool profile_holdout_refit(const std::vector<CalibrationRow>& rows, const SpeedParams& shipped,
                           const ProfileHoldoutOptions& opt, ProfileHoldoutReport& out, std::string& err);
std::string format_profile_holdout(const ProfileHoldoutReport& r);

// [SECTION] Held-out report (given fit, rows at full weight) ---------------------------------------------

struct HoldoutReport {
    HoldoutStats before[2], after[2];   // [0] decode, [1] prefill: the same held-out rows without / with the profile
    HoldoutStats same_kind_before[2], same_kind_after[2];   // only rows of the calibration model's kind (dense / MoE)
    int devices = 0, splits = 0;        // devices with >= 2 models; (device, calibration model) pairs scored
    int input_rows = 0, unusable_rows = 0;
};

// rows: predict's input shape + measured_tokens_per_s (assets/calibration/llamacpp_speed.jsonl), grouped by device x
// GPUs; profiles take the rows at full weight (no prior: `params` may be any fit); false + err when no device has
// rows of two models
bool profile_holdout(const Catalog& cat, const std::string& jsonl, const SpeedParams& params, HoldoutReport& out, std::string& err);
std::string format_holdout(const HoldoutReport& r);

}  // namespace llmsim
