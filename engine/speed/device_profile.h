// A per-device correction fitted on the user's own llama-bench rows: one decode and one prefill efficiency
// factor (measured / predicted) that then apply to every estimate for that device. The factor is shrunk towards 1
// by how much a few models can say about a device (empirical Bayes: factor = exp(w x mean log residual),
// w = n tau^2 / (n tau^2 + sigma^2), tau^2 = between-device variance, sigma^2 = model-to-model variance on one
// device, n = distinct models; both fitted from the calibration data and stored in speed_params.json under
// "device_profile_prior"), and the band narrows only to the posterior's predictive spread. No UI, no exceptions.
//
//   std::vector<llmsim::ProfileSample> samples = ...;          // bench_import.h builds them from llama-bench output
//   llmsim::DeviceProfile prof;
//   std::string err;
//   if (!llmsim::fit_device_profile(samples, llmsim::default_speed_params(), hw, prof, err)) { ... }
//   req.device_profile = &prof;                                 // SimRequest: evaluate() applies it
//   puts(llmsim::device_profile_to_json(prof).c_str());        // `llmsim-cli calibrate-device -o profile.json`
//
// [SECTION] Prior
// [SECTION] Fit
// [SECTION] Apply
// [SECTION] JSON
#pragma once
#include <string>
#include <vector>

#include "catalog/catalog.h"
#include "speed/speed.h"

namespace llmsim {

// [SECTION] Prior ----------------------------------------------------------------------------------------

// variances of the log residual log(measured / predicted) of one test kind on one setup (device x GPUs x
// publication), from the calibration data
struct ProfilePriorKind {
    double tau2[kHardwareKindCount + 1] = {};  // between-setup variance of the device effect on dense models, per
                                               // class ([kHardwareKindCount] = all classes; a class with few setups uses it)
    double tau2_moe = 0;       // the same on MoE models (all classes; their prefill is off by more)
    double sigma2 = 0;         // model-to-model variance of a model's mean residual on one setup
    double eps2 = 0;           // row-to-row variance within one model on one setup (depths, prompt lengths)
    double rho = 0;            // correlation of a setup's dense and MoE device effects (0..1): how much a dense-only
                               // profile says about MoE models and back
    int groups = 0, multi_model_groups = 0, mixed_groups = 0;   // setups behind tau2 / sigma2 / rho
    double tau2_for(HardwareKind k) const { return tau2[(int)k] > 0 ? tau2[(int)k] : tau2[kHardwareKindCount]; }
};

struct ProfilePrior {
    // [0] decode, [1] prefill; unseen: residuals of device-out folds (the fit never saw the device), seen: of the
    // shipped fit, in-sample (a device in the calibration data)
    ProfilePriorKind unseen[2], seen[2];
    std::vector<std::string> seen_devices;  // device names of the fit rows (lower case)
    std::string source;                     // how it was made
    bool fitted = false;                    // false: no prior (the profile takes the user's rows at full weight)
};

// the prior in the embedded speed_params.json ("device_profile_prior"; the web page: speed_params.bin, speed_binary.h);
// an unfitted prior when it has none
const ProfilePrior& default_profile_prior();
// whether the speed fit saw rows of this device (its name, id or calibration names among prior.seen_devices)
bool device_seen_by_fit(const ProfilePrior& prior, const Hardware& hw);
// "device_profile_prior" object as JSON text / parsed from a speed_params.json text (missing key: fitted = false)
std::string profile_prior_to_json(const ProfilePrior& p);
bool parse_profile_prior(const std::string& speed_params_text, ProfilePrior& out, std::string& err);
// speed_params.json text with its "device_profile_prior" set to p (every other key as it was); false + err when the
// text is not a JSON object
bool merge_profile_prior(const std::string& speed_params_text, const ProfilePrior& p, std::string& out, std::string& err);

// [SECTION] Fit ------------------------------------------------------------------------------------------

struct ProfileSample {             // one measured row, ready for the speed model
    SpeedScenario scenario;
    double measured_tps = 0;
    std::string model;             // which model the row measured (the profile lists them)
    std::string label;             // "pp512 @ d4096" for the row-by-row table
};

struct ProfileFactor {             // one of decode / prefill
    int rows = 0;
    int models = 0, moe_models = 0;   // distinct models behind it (rows of one model are not independent), MoE ones
    double raw = 1;                // exp(mean over models of the mean log residual): the rows at full weight
    double factor = 1;             // applied to dense models: exp(w x mean log residual); 1 = no rows
    double weight = 1;             // w for dense models (1 = no prior, the rows at full weight)
    double band_scale = 1;         // <= 1: the class band's log-width is multiplied by this (1 = not narrowed)
    double factor_moe = 1, weight_moe = 1, band_scale_moe = 1;   // the same for MoE models
    double mdape_before = 0;       // on the user's rows: median |predicted/measured - 1| without the profile
    double mdape_after = 0;        // ... and with it (in-sample: the rows the factor was fitted on)
};

struct DeviceProfile {
    std::string hardware_id;       // catalog id the profile applies to ("rtx-4090"); inline devices: their name
    std::string hardware_name;
    ProfileFactor decode, prefill;
    std::vector<std::string> models;   // models the rows measured
    bool seen_by_fit = false;      // the speed fit saw this device: the in-sample prior (smaller tau2) was used
    std::string source;            // where the rows came from ("llama-bench markdown, 12 rows")
    bool contributed = false;      // fitted on contributed runs (others' rows: evidence/contributed.h), not the user's own
    int rows() const { return decode.rows + prefill.rows; }
};

// one model's log residuals log(measured / predicted) of one kind (the fit's unit)
struct ModelResiduals {
    std::string model;
    bool moe = false;
    std::vector<double> log_ratio;
};

// fit the two factors with default_profile_prior(); false + err when there is no usable row or a prediction fails
bool fit_device_profile(const std::vector<ProfileSample>& samples, const SpeedParams& params, const Hardware& hw,
                        DeviceProfile& out, std::string& err);
// the same with a given prior (an unfitted prior: the rows at full weight)
bool fit_device_profile(const std::vector<ProfileSample>& samples, const SpeedParams& params, const Hardware& hw,
                        const ProfilePrior& prior, DeviceProfile& out, std::string& err);
// one factor from per-model residuals: the posterior mean of the device effect (dense and MoE targets) and the band
// scale from its posterior variance (prior: the seen or unseen one for this device; nullptr = rows at full weight)
void fit_profile_factor(const std::vector<ModelResiduals>& models, const ProfilePriorKind* prior, HardwareKind cls,
                        ProfileFactor& out);

// [SECTION] Apply ----------------------------------------------------------------------------------------

// whether the profile was fitted on this device (same catalog id; inline devices: same name, ignoring case)
bool profile_applies(const DeviceProfile& p, const Hardware& hw);
// estimate_speed(s) with the profile applied (apply_device_profile; MoE from s.moe_experts)
SpeedResult estimate_with_profile(const DeviceProfile& p, const SpeedScenario& s, const SpeedParams& params);
// scale one estimate (tokens/s, its band and time) by the decode or prefill factor (the MoE one for a MoE model),
// narrowing the band
void apply_device_profile(const DeviceProfile& p, SpeedTest kind, SpeedResult& r, bool moe_model = false);
// "calibrated on your 12 rows (decode x0.93, weight 0.60 from 2 models; prefill x1.12, weight 0.45 from 2 models)";
// a contributed profile: "calibrated on 12 contributed rows (...)"
std::string calibrated_label(const DeviceProfile& p);

// [SECTION] JSON -----------------------------------------------------------------------------------------

// the profile file ({"format": "llmsim-device-profile/1", ...}; locale-independent numbers)
std::string device_profile_to_json(const DeviceProfile& p);
// parse a profile file; false + err naming the field on bad input (factors must be 0.05..20, scales 0.1..1)
bool parse_device_profile(const std::string& text, DeviceProfile& out, std::string& err);

}  // namespace llmsim
