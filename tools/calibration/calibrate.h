// llmsim speed-model calibration (the lab, llmsim_lab: the CLI links it, the app and the page do not): measured
// llama.cpp rows in, fitted SpeedParams and a leave-one-device-out (LODO) accuracy report out. Backs
// `llmsim-cli calibrate` / `llmsim-cli accuracy`; no UI, no exceptions.
//
//   std::vector<llmsim::CalibrationRow> rows;
//   std::string err;
//   if (!llmsim::parse_calibration_jsonl(text, rows, err)) { fprintf(stderr, "%s\n", err.c_str()); return 2; }
//   llmsim::SpeedParams p = llmsim::fit_speed_params(rows, llmsim::builtin_speed_params());
//   llmsim::AccuracyReport rep = llmsim::leave_one_device_out(rows, p);
//   p = llmsim::with_measured_bands(p, rep);              // low/high = LODO error quantiles per class
//   puts(llmsim::format_accuracy_report(rep).c_str());
//
// Rows are assets/calibration/llamacpp_speed*.jsonl, parsed by the product's evidence/calibration_row.h (the same
// parser as `llmsim-cli predict`).
//
// [SECTION] Fit
// [SECTION] Accuracy
#pragma once
#include <string>
#include <vector>

#include "evidence/calibration_row.h"
#include "speed/speed.h"

namespace llmsim {

// [SECTION] Fit ------------------------------------------------------------------------------------------

struct FitOptions {
    int max_evals = 6000;          // per Nelder-Mead run
    double ridge = 0.05;           // pull of class/backend factors towards 1 (log space)
    // the weight-type factors are relative to F16, and F16 rows come almost all from one publication: with weak
    // pulls, holding it out let the shares and the factors trade places (decode GDDR share 0.89 -> 0.74, every
    // quant factor up 10 %, held-out F16 rows -16 %). Decode reads every type at the memory's rate (the dequant
    // work is the ALU term), so its factors are held near 1; prefill's differ by kernel (cuBLAS vs MMQ) and get a
    // moderate pull
    double weight_ridge = 5.0;           // decode weight_bw.* towards 1
    double compute_weight_ridge = 0.5;   // prefill compute_weight.* towards 1
    double prior = 0.02;           // pull of the other parameters towards their physical priors (log space)
    bool decode = true, prefill = true;
    // start every fitted parameter at its physical prior instead of the start value (the held-out fits: the start
    // value is the shipped fit, which saw the held-out rows, and a fold started there stays near it)
    bool from_priors = false;
};

// fit the free parameters (docs/speed-model.md lists them) by Nelder-Mead on the weighted mean |log error|;
// each (device, source) group weighs sqrt(rows) so one big source does not drown the rest
SpeedParams fit_speed_params(const std::vector<CalibrationRow>& rows, const SpeedParams& start,
                             const FitOptions& opt = FitOptions());
// weighted mean |log(predicted / measured)| of rows of one kind (the fit's objective without the ridge)
double mean_abs_log_error(const std::vector<CalibrationRow>& rows, const SpeedParams& p, SpeedTest kind);

// [SECTION] Accuracy -------------------------------------------------------------------------------------

struct ErrorStats {
    int rows = 0;
    double mdape = 0;              // median |predicted/measured - 1|
    double within25 = 0;           // share of rows with |error| <= 25 %
    double p10 = 0, p90 = 0;       // 10th / 90th percentile of the signed error
    double p05 = 0, p95 = 0;       // 5th / 95th: the prefill band's tails (kBandTail in calibrate.cpp)
};

struct RowPrediction {
    const CalibrationRow* row = nullptr;
    double predicted = 0, seed = 0;    // tokens/s
};

// what a held-out validation leaves out at a time. SourceDevices: a whole publication and, from the training rows,
// every row of each device it measured (any publication's): a new publication on hardware new to the data, the
// case an independent check's fresh set measures (its devices are new to our data), harder than Source, whose
// folds still train on other publications' rows of the same device
enum class HoldOut { Device, Source, Class, SourceDevices };
constexpr int kHoldOutCount = 4;
// "leave-one-device-out", "leave-one-source-out", "leave-one-class-out", "leave-one-source-and-its-devices-out"
const char* to_string(HoldOut h);
// the publication a row comes from: "github.com/owner/repo" for a repository file, the PR/issue/discussion
// thread, "public code file id N"; rows of one publication share its build, settings and habits
std::string source_key(const std::string& source);

struct AccuracyReport {
    HoldOut scheme = HoldOut::Device;
    // [kind: 0 decode, 1 prefill][class: HardwareKind index, kHardwareKindCount = all]
    ErrorStats ours[2][kHardwareKindCount + 1];
    ErrorStats seed[2][kHardwareKindCount + 1];
    std::vector<std::pair<std::string, ErrorStats>> per_device[2];
    std::vector<RowPrediction> predictions;       // LODO predictions, one per row
    double source_spread[2] = {0, 0};             // median |log ratio| between rows of the same device+scenario
    int spread_pairs[2] = {0, 0};                 // from different sources
    // rows with a published fp16_tflops re-predicted (same held-out fit) with it replaced by estimate_fp16_tflops
    ErrorStats fp16_estimated[2];
    std::vector<double> fp16_estimated_errors[2];
    // share of held-out rows inside the low..high band of SpeedParams `coverage_of` (band_coverage fills it)
    double coverage[2][kHardwareKindCount + 1] = {};
    // the recent_build() rows alone, every class together, and their band coverage
    ErrorStats recent[2];
    double recent_coverage[2] = {0, 0};
};

// the bands' build eras: 0 older, 1 current (llama.cpp b6700+, or dated 2025-10+ without a build number: what an
// independent check's fresh set measures), 2 both
constexpr int kEraOlder = 0, kEraFresh = 1, kEraBoth = 2;
bool fresh_build(const CalibrationRow& r);   // era 1: build >= kFreshBandFirstBuild, or no build and dated 2025-10+

// the held-out validations together and the bands taken from them
struct ValidationReport {
    AccuracyReport by[kHoldOutCount];             // indexed by (int)HoldOut
    // HoldOut::SourceDevices by build era: [kind][era] (kEraOlder, kEraFresh, kEraBoth)
    ErrorStats era[2][3];
    // the bands' coverage, cross-validated: each publication's HoldOut::SourceDevices rows against bands fitted on
    // the other publications' rows alone; [kind][class, kHardwareKindCount = every class][era]
    int band_in[2][kHardwareKindCount + 1][3] = {}, band_n[2][kHardwareKindCount + 1][3] = {};
    double band_cv_coverage(int k, int c, int era) const {
        return band_n[k][c][era] ? (double)band_in[k][c][era] / band_n[k][c][era] : 0;
    }
};

// for each device: fit without it (starting from `start`), predict its rows
AccuracyReport leave_one_device_out(const std::vector<CalibrationRow>& rows, const SpeedParams& start,
                                    const FitOptions& opt = FitOptions());
// the same with the hold-out unit chosen: a device, a whole publication (source_key), a hardware class
AccuracyReport leave_one_out(const std::vector<CalibrationRow>& rows, const SpeedParams& start, HoldOut scheme,
                             const FitOptions& opt = FitOptions());
// all four schemes and the HoldOut::SourceDevices errors by build era
ValidationReport validate(const std::vector<CalibrationRow>& rows, const SpeedParams& start,
                          const FitOptions& opt = FitOptions());
// p with bands from the validation and every report's coverage of them filled in. Per test kind, hardware class and
// build era (band: current builds, band_older: older): quantiles of the HoldOut::SourceDevices errors, each row
// weighted 1 / sqrt(its publication's rows in the set) so one large publication does not set a band alone; the
// 10th..90th percentile for older builds, 5th..95th for current ones (band_tails); a class x era with fewer than
// 20 rows takes the wider of its class's rows of both eras and the era's rows of every class. Their cross-validated
// coverage goes to v.band_in / band_n and each band's coverage. The fp16-estimated band: the device-out
// re-predictions' 10th..90th (decode) / 5th..95th (prefill)
SpeedParams with_validated_bands(const SpeedParams& p, ValidationReport& v);
// share of each report row's measured value inside the band p gives its held-out prediction (the row's era's band)
void band_coverage(AccuracyReport& rep, const SpeedParams& p);
// How much of the held-out error is one level per setup: the leave-one-source-out predictions grouped by setup
// (publication x device x backend, groups of >= 3 rows of one test kind), each group's median log error taken
// out, and what is left. The level is what a user's own llama-bench rows fit (calibrate-device); the rest is
// the model's shape across models, prompt lengths and depths.
// held-out errors before and after a level is taken out of them
struct LevelCorrection {
    int rows = 0;
    double mdape_before = 0;      // the rows' held-out MdAPE
    double mdape_after = 0;       // ... with the level removed
    double within25_after = 0;
};
struct SetupLevelSplit {
    LevelCorrection errors;       // rows in groups of >= 3, before / after their group's own level
    int groups = 0;
    double level_spread = 0;      // median |group level| (as a relative error)
};
// k: 0 decode, 1 prefill; recent_only: the 2025-26 builds
SetupLevelSplit setup_level_split(const AccuracyReport& source_out, int k, bool recent_only);
// Does a device's error carry from one publication to the next? On the setups (device x backend x GPU count)
// that two or more publications measured, each publication's leave-one-source-out rows are corrected by the
// median level the other publications of that setup show (what a per-device factor learned from them would
// do) and compared with the model alone on the same rows. Worse with the correction means the residual is the
// publication's (driver, build flags, power limit), not the device's: no device fact can remove it.
struct LevelTransfer {
    LevelCorrection errors;        // the model alone on those rows / times the other publications' level
    int setups = 0;
};
LevelTransfer device_level_transfer(const AccuracyReport& source_out, int k, bool recent_only);
// Model-free: the same measurement (device, backend, GPUs, model, quant, test, tokens, depth) printed by two
// publications; median |ratio - 1| of their medians over the pairs. And the floor it sets for any model scored
// against a publication it never saw: each such row predicted by the other publications' number for the same
// test (the geometric median of their medians), next to rep's own prediction of the same rows
struct PublicationAgreement {
    int pairs = 0;
    double median_gap = 0;
    LevelCorrection other_publications;   // rows: those with another publication's number for their test (and a
                                          // prediction in rep);
                                          // mdape_before: rep's predictions; mdape_after / within25_after: the
                                          // other publications' number as the prediction
};
PublicationAgreement publication_agreement(const AccuracyReport& rep, int k, bool recent_only);   // rep's rows
// the three tables, the bands and their coverage, as text
std::string format_validation_report(const ValidationReport& v);
// error statistics of a set of signed relative errors
ErrorStats error_stats(std::vector<double> errors);
// copy the report's per-class LODO error quantiles into p.band (classes without rows keep none)
SpeedParams with_measured_bands(const SpeedParams& p, const AccuracyReport& rep);
// the LODO table as text: per class, ours vs seed, decode and prefill
std::string format_accuracy_report(const AccuracyReport& rep);

}  // namespace llmsim
