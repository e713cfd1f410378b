// The offload group (tools/calibration/offload_accuracy.h): held out by publication against fits on full-GPU rows only;
// a publication that also has full-GPU rows gets a fit without them.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "calibration/offload_accuracy.h"
#include "test_support.h"

using namespace llmsim;

TEST_CASE("offload rows: one fit per distinct training set, every row predicted, bands counted", "[calibrate][offload]") {
    std::vector<CalibrationRow> all, fit_rows, offload_rows;
    std::string err;
    REQUIRE(parse_calibration_jsonl(read_source_file("assets/calibration/llamacpp_speed_2025.jsonl"), all, err));
    for (const CalibrationRow& r : all)
        if (r.device == "rtx-5090" || r.device == "rtx-3090") fit_rows.push_back(r);
    REQUIRE(fit_rows.size() >= 10);
    REQUIRE(parse_calibration_jsonl(read_source_file("assets/calibration/llamacpp_offload.jsonl"), offload_rows, err));
    // a copy of one offload row credited to a publication the full-GPU rows also have: it needs a fit without them
    CalibrationRow shared = offload_rows.front();
    shared.source = fit_rows.front().source;
    offload_rows.push_back(shared);
    FitOptions opt;
    opt.max_evals = 200;
    OffloadReport rep = score_offload_rows(fit_rows, offload_rows, builtin_speed_params(), opt);
    CHECK(rep.fits == 2);                          // every-row fit + the one without the shared publication
    CHECK(rep.per_source.size() == 6);
    CHECK(rep.predictions.size() == offload_rows.size());
    CHECK(rep.stats[0].rows + rep.stats[1].rows == (int)offload_rows.size());
    for (const RowPrediction& p : rep.predictions) CHECK(p.predicted > 0);
    CHECK(rep.coverage[0] >= 0);
    CHECK(rep.coverage[0] <= 1);
    const std::string text = format_offload_report(rep);
    CHECK(text.find("offload group") != std::string::npos);
    CHECK(text.find("github.com/ggml-org/llama.cpp/pull/12922") != std::string::npos);
}
