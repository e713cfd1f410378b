// Measured evidence next to an estimate: the calibration rows (assets/calibration/llamacpp_speed.jsonl, each with
// its source) measured on the same device, preferring the same model and quant, with what the model predicts
// for exactly that row, and the contributed runs the user loaded (contributed.h). Also the whole data set for the
// accuracy view.
//
//   for (const llmsim::EvidenceRow& e : llmsim::find_evidence(cat, *model, *hw, "Q4_K_M", 8, &contributed_rows))
//       printf("%s%s %.1f measured, %.1f predicted\n", e.row->contributed ? "[contributed] " : "", e.test.c_str(),
//              e.row->measured_tokens_per_s, e.predicted);
#pragma once
#include <string>
#include <vector>

#include "evidence/calibration_row.h"
#include "catalog/catalog.h"

namespace llmsim {

struct EvidenceRow {
    const CalibrationRow* row = nullptr;
    std::string test;               // "tg128 @ depth 0", "pp512 @ depth 4096"
    double predicted = 0, low = 0, high = 0;   // our estimate for that exact row (fitted parameters)
    double seed = 0;                // the seed formula on the same row
    int match = 0;                  // 3 = same model and quant, 2 = same model, 1 = same family, 0 = same device only
};

// the measured rows (core/assets.h: compiled in, or on the web page handed over after its first frame), parsed once
// they are all there; empty + err while one is missing (a later call then tries again) or broken
const std::vector<CalibrationRow>& measured_rows(std::string* err = nullptr);
// rows measured on `hw` (matched by catalog calibration_names / id), best matches first, at most `max_rows`; then,
// when given, the contributed runs on `hw` (evidence/contributed.h; row->contributed), best first, at most `max_rows`
std::vector<EvidenceRow> find_evidence(const Catalog& cat, const Model& model, const Hardware& hw, const std::string& quant,
                                       size_t max_rows = 8, const std::vector<CalibrationRow>* contributed = nullptr);
// whether a row was measured on `hw`: a contributed row by the catalog id it resolved to, a project row by its
// hardware name (catalog calibration_names / id)
bool row_on_device(const Catalog& cat, const CalibrationRow& r, const Hardware& hw);
// every measured row with its in-sample prediction and the seed formula's (the accuracy view)
std::vector<EvidenceRow> all_evidence();

}  // namespace llmsim
