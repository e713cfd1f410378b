// A measured llama.cpp row (assets/calibration/llamacpp_speed*.jsonl) as the product reads it: the evidence view
// shows each row next to the prediction for exactly that row. The fit and the held-out reports that use the same
// rows live in the calibration lab (tools/calibration/calibrate.h), which the app and the page do not link.
//
//   std::vector<llmsim::CalibrationRow> rows;
//   std::string err;
//   if (!llmsim::parse_calibration_jsonl(text, rows, err)) { fprintf(stderr, "%s\n", err.c_str()); return 2; }
//   for (const auto& r : rows) printf("%s %s %.1f tok/s\n", r.device.c_str(), r.model.c_str(), r.measured_tokens_per_s);
//
// Row fields: model + inline HF config, quant, model_size_gib, hardware, gpus, backend, flash_attn, test {kind,
// tokens, depth}, measured_tokens_per_s, source. Each row is parsed by predict.h's parser (parse_predict_input), so
// its bytes and FLOPs come from the memory model's tensor walk of the inline config (prepare_weights, scaled to
// model_size_gib when given) exactly as `llmsim-cli predict` sees them.
#pragma once
#include <string>
#include <vector>

#include "speed/speed.h"

namespace llmsim {

struct CalibrationRow {
    std::string id, model, quant, source;
    std::string device;            // hardware name without the "(...)" details: the LODO group
    std::string vendor;            // hardware vendor
    std::string hardware_name;     // the row's hardware name as given (catalog calibration_names match it)
    HardwareKind kind = HardwareKind::Consumer;
    ChipFamily chip_family = ChipFamily::Count;   // the device's (for the fp16 fallback's family estimate)
    SpeedScenario scenario;        // test kind/tokens/depth as measured; flash_attn null -> false (llama-bench default)
    double total_params = 0;       // for the seed formula
    double measured_tokens_per_s = 0;
    // when it was measured: the row's "date" ("2025-09"; "" when absent) and llama.cpp build number (the "(6413)"
    // of "233d773d0 (6413)" or "b7600"; 0 when absent)
    std::string date;
    int build_number = 0;
    // -ngl below the layer count, --n-cpu-moe or -ot left weights in host RAM (assets/calibration/llamacpp_offload.jsonl):
    // the accuracy report scores such rows as their own group and the fit never sees them
    bool offload = false;
    // a contributed run (evidence/contributed.h): read from a contributed-runs file, shown and fitted as such; the
    // catalog device it was measured on and the device string as the tool printed it
    bool contributed = false;
    std::string hardware_id, device_printed;
};

// a 2025-26 build (dated 2025 or later, or build >= b4418, the oldest build of llamacpp_speed_2025.jsonl): flash
// attention on by default,
// the kernels a user meets today; the subset the held-out report prints on its own
bool recent_build(const CalibrationRow& r);

// parse JSON Lines; false + err naming the line and field on bad input (blank lines are skipped)
bool parse_calibration_jsonl(const std::string& text, std::vector<CalibrationRow>& rows, std::string& err);
// build one row from a parsed JSON object (exposed for tests); false + err when a field is missing
bool parse_calibration_row(const std::string& json_line, CalibrationRow& row, std::string& err);

}  // namespace llmsim
