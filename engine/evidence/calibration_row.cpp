// Calibration rows: JSON Lines -> CalibrationRow through predict's parser. See calibration_row.h.
#include "evidence/calibration_row.h"

#include "api/predict.h"
#include "core/lines.h"
#include "core/text.h"

#include <cctype>
#include <cstdlib>

#include <nlohmann/json.hpp>

namespace llmsim {

using json = nlohmann::json;

bool parse_calibration_row(const std::string& line, CalibrationRow& row, std::string& err) {
    // the same parser as `llmsim-cli predict` (predict.h), so the fit sees exactly the scenarios it will predict
    json r = json::parse(line, nullptr, false);
    if (r.is_discarded() || !r.is_object()) { err = "not a JSON object"; return false; }
    auto str = [&](const char* k) { return r.contains(k) && r[k].is_string() ? r[k].get<std::string>() : std::string(); };
    row = CalibrationRow();
    row.id = str("id");
    row.model = str("model");
    row.quant = str("quant");
    row.source = str("source");
    row.date = str("date");
    row.build_number = llama_build_number(str("build"));
    if (!r.contains("measured_tokens_per_s") || !r["measured_tokens_per_s"].is_number() ||
        !(r["measured_tokens_per_s"].get<double>() > 0)) {
        err = "row " + row.id + ": measured_tokens_per_s is missing or not a positive number";
        return false;
    }
    row.measured_tokens_per_s = r["measured_tokens_per_s"].get<double>();
    std::string cat_err;
    const Catalog* cat = embedded_catalog(&cat_err);
    if (!cat) { err = cat_err; return false; }
    PredictInput in;
    if (!parse_predict_input(*cat, r, in, err)) { err = "row " + row.id + ": " + err; return false; }
    row.scenario = in.scenario;
    // a row without a build number is placed by its date: a build-dependent rule (SpeedScenario::llama_build) holds for
    // rows dated 2026 or later and not for older or undated ones (the 2023-24 collections)
    if (row.build_number == 0) row.scenario.llama_build = row.date.compare(0, 4, "2026") >= 0 && row.date.size() >= 4 ? 0 : 1;
    row.total_params = in.total_params;
    row.device = in.device;
    row.hardware_name = in.hardware.name;
    row.vendor = in.hardware.vendor;
    row.kind = in.hardware.kind;
    row.chip_family = in.hardware.chip_family;
    row.offload = in.knobs.offload;
    row.hardware_id = in.hardware.id;
    row.device_printed = str("device_printed");
    return true;
}

bool parse_calibration_jsonl(const std::string& text, std::vector<CalibrationRow>& rows, std::string& err) {
    rows.clear();
    const bool ok = for_each_line(text, [&](const std::string& line, int line_no) {
        if (blank_line(line)) return true;
        CalibrationRow row;
        std::string e;
        if (!parse_calibration_row(line, row, e)) {
            err = "calibration line " + std::to_string(line_no) + ": " + e;
            return false;
        }
        rows.push_back(std::move(row));
        return true;
    });
    if (!ok) return false;
    if (rows.empty()) { err = "calibration data has no rows"; return false; }
    return true;
}

// the oldest build of llamacpp_speed_2025.jsonl (its README: "Builds from b4418 to b10252"), early January 2025
constexpr int kFirstRecentBuild = 4418;

bool recent_build(const CalibrationRow& r) {
    return r.build_number >= kFirstRecentBuild || (r.date.size() >= 4 && r.date.compare(0, 4, "2025") >= 0);
}

}  // namespace llmsim
