// Evidence that grows: the user's pasted llama-bench runs (api/bench_import.h) written as records in the calibration
// format (assets/calibration/llamacpp_speed*.jsonl, calibration_row.h), one JSON line per test, ready to contribute to
// the project's data (docs/contributing-runs.md); and a file of such records read back as contributed runs, which show
// beside the estimate (find_evidence, row->contributed) and can calibrate the device (a DeviceProfile marked
// contributed). Pure text in, text out: no clock (the caller gives the date), no file or network access.
//
//   llmsim::ContributionInfo info;
//   info.note = "stock clocks, Linux 6.8, driver 550";
//   info.date = "2026-12-07";
//   llmsim::ContributedExport ex;
//   std::string err;
//   if (!llmsim::export_contributed_runs(cat, imp, *hw, "", info, ex, err)) return err;   // ex.jsonl: one line per test
//   std::vector<llmsim::CalibrationRow> rows;
//   if (!llmsim::parse_contributed_runs(ex.jsonl, rows, err)) return err;   // "contributed line 3: ..."; rows untouched
//   llmsim::DeviceProfile prof;
//   llmsim::fit_contributed_profile(cat, rows, *hw, prof, err);          // "calibrated on 4 contributed rows (...)"
//
// [SECTION] Export
// [SECTION] Contributed runs
#pragma once
#include <string>
#include <vector>

#include "api/bench_import.h"
#include "evidence/calibration_row.h"
#include "speed/device_profile.h"

namespace llmsim {

// [SECTION] Export ---------------------------------------------------------------------------------------

struct ContributionInfo {
    std::string note;              // the contributor's words: setup, clocks, driver (at most 500 bytes, one line)
    std::string date;              // the day of the export, "YYYY-MM-DD" (a row's own llama-bench test_time wins)
};

struct ContributedExport {
    std::string jsonl;             // one calibration record per exported row, each line ending in '\n'
    int rows = 0;
    std::vector<std::string> skipped;   // "line 9: no catalog model of arch 'foo' ..." (rows not exported, and why)
};

// the pasted rows as calibration records measured on the catalog device `hw` (model_id, when given, names the model
// of every row, as for bench_samples). Each record is the row's predict line (bench_row_predict_json) plus what was
// measured (measured_tokens_per_s, stddev), how (device_printed, backend_printed, build, flags as llama-bench prints
// them, llama_bench_model, params) and "source": "contributed YYYY-MM-DD: <note>". Partial-offload rows are exported
// too (with ngl). false + err when the note or date is malformed, hw is not a catalog device, or no row is exportable
bool export_contributed_runs(const Catalog& cat, const BenchImport& imp, const Hardware& hw, const std::string& model_id,
                             const ContributionInfo& info, ContributedExport& out, std::string& err);
// the llama-bench flags a row printed ("-ngl 99 -fa 1 -ub 512 -b 2048 -ctk q8_0 -ctv q8_0 -t 8"; "" when none)
std::string printed_bench_flags(const BenchRow& r);

// [SECTION] Contributed runs -----------------------------------------------------------------------------

// read a contributed-runs file: JSON Lines of calibration records whose "source" starts with "contributed" (blank lines
// skipped), at most kContributedMaxBytes / kContributedMaxRows (core/input_limits.h). Every row comes back marked
// contributed. false + err naming the line ("contributed line 7: measured_tokens_per_s is missing ...") on any bad
// line; `rows` is then left as it was
bool parse_contributed_runs(const std::string& text, std::vector<CalibrationRow>& rows, std::string& err);
// the contributed rows measured on `hw` as profile samples (the rows bench_samples would have made of the paste):
// offload rows are left out, as bench_samples leaves them out; `skipped` (optional) says which and why
std::vector<ProfileSample> contributed_samples(const Catalog& cat, const std::vector<CalibrationRow>& rows, const Hardware& hw,
                                               std::vector<std::string>* skipped = nullptr);
// the device profile fitted on those samples (fit_device_profile, default parameters), marked contributed; false + err
// when no contributed row on `hw` is usable
bool fit_contributed_profile(const Catalog& cat, const std::vector<CalibrationRow>& rows, const Hardware& hw,
                             DeviceProfile& out, std::string& err);

}  // namespace llmsim
