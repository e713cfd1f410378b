// The "offload" group of `llmsim-cli accuracy`: rows whose weights are partly in host RAM (CalibrationRow::offload:
// -ngl below the layer count, --n-cpu-moe, -ot; assets/calibration/llamacpp_offload.jsonl), scored leave-one-source-out
// against fits on the full-GPU rows only. They never join a fit and are never pooled into the full-GPU figures: the
// host-RAM part of the physics (offload time at host RAM bandwidth in decode, one PCIe copy per ubatch in prefill) has
// no fitted term, so these rows check it as it stands.
//
//   std::vector<llmsim::CalibrationRow> main_rows, offload_rows;   // split on CalibrationRow::offload
//   llmsim::OffloadReport r = llmsim::score_offload_rows(main_rows, offload_rows, llmsim::default_speed_params());
//   puts(llmsim::format_offload_report(r).c_str());
#pragma once
#include <string>
#include <vector>

#include "calibration/calibrate.h"

namespace llmsim {

struct OffloadSourceStats {
    std::string source;            // source_key() of the publication
    int rows[2] = {0, 0};          // [0 decode, 1 prefill]
    double signed_median[2] = {0, 0};   // median of predicted / measured - 1
    double mdape[2] = {0, 0};
};

struct OffloadReport {
    ErrorStats stats[2];           // [0 decode, 1 prefill], held out by source
    double coverage[2] = {0, 0};   // share of rows inside the shipped low..high band around the held-out prediction
    double signed_median[2] = {0, 0};
    std::vector<OffloadSourceStats> per_source;
    std::vector<RowPrediction> predictions;    // one per offload row, in their order
    int fit_rows = 0;              // full-GPU rows the fits drew on
    int fits = 0;                  // distinct fits (one per source that also has full-GPU rows, plus one)
};

// for each publication of `offload_rows`: fit on `fit_rows` without that publication (from the physical priors, as
// the held-out folds do; `start` supplies the unfitted parameters), predict its offload rows; bands from `start`
// (the shipped ones). fit_rows must hold no offload row (they are asserted out).
OffloadReport score_offload_rows(const std::vector<CalibrationRow>& fit_rows, const std::vector<CalibrationRow>& offload_rows,
                                 const SpeedParams& start, const FitOptions& opt = FitOptions());
// the group's table: rows, MdAPE, within +-25 %, band coverage and signed median per kind, then per publication
std::string format_offload_report(const OffloadReport& r);

}  // namespace llmsim
