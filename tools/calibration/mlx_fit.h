// The MLX speed model's fit and its held-out report: published mlx_lm rows (assets/calibration/mlx_speed.jsonl, one
// JSON object per line: model, quant, hardware, test {kind, tokens, depth}, measured_tokens_per_s, source ...) scored
// with speed/mlx_speed.h. Three parameters: the decode bandwidth share and per-token cost (decode rows), the prefill
// compute share (prefill rows). Accuracy is leave-one-source-out: each source's rows are predicted with parameters
// fitted on the other sources only. `llmsim-cli accuracy --mlx [FILE]` prints it (and the peak-memory check of the
// rows that publish one).
//
//   std::vector<llmsim::MlxRow> rows; std::string err;
//   if (!llmsim::parse_mlx_rows(text, rows, err)) { ... }
//   llmsim::MlxReport rep = llmsim::mlx_report(cat, rows);
//   printf("%s", llmsim::format_mlx_report(rep).c_str());
#pragma once
#include <string>
#include <vector>

#include "catalog/catalog.h"
#include "speed/mlx_speed.h"

namespace llmsim {

struct MlxRow {
    std::string id, model, quant, hardware, source, date, engine;
    bool decode = true;                  // test.kind "decode" (else "prefill")
    int64_t tokens = 0, depth = 0;
    double measured_tps = 0;
    double peak_memory_gb = 0;           // 0 = not published
    // filled by mlx_report: the formula inputs of the row's scenario (speed_inputs); ok = false when it failed
    bool ok = false;
    std::string error;
    MlxSpeedInputs in;
    double predicted_total_gb = 0;       // the MLX memory plan's total at tokens + depth (peak-memory rows)
};

// the rows of a JSONL text; false + err (with the line number) on a malformed row
bool parse_mlx_rows(const std::string& text, std::vector<MlxRow>& out, std::string& err);

struct MlxHeldOut {
    std::string id, source, model, hardware, quant;
    bool decode = true;
    bool moe = false;
    double measured = 0, predicted = 0;  // tok/s; predicted with parameters fitted without the row's source
    double predicted_shipped = 0;        // with the shipped parameters (fitted on every row)
    bool in_band = false;                // measured inside the band built from the other sources' held-out errors
};

struct MlxReport {
    size_t rows = 0, decode_rows = 0, prefill_rows = 0, sources = 0, skipped = 0;
    MlxSpeedParams fitted;               // on every row (what the engine row should ship)
    double band_decode_low = 0, band_decode_high = 0;    // held-out errors' 7.5th / 92.5th percentiles
    double band_prefill_low = 0, band_prefill_high = 0;
    double mdape_decode = 0, mdape_prefill = 0;          // held out, source out, %
    double mdape_decode_shipped = 0, mdape_prefill_shipped = 0;   // in sample (shipped params), %
    // held out per class: dense models and MoE models (never pooled easy with hard), %; rows of each
    double mdape_decode_dense = 0, mdape_decode_moe = 0, mdape_prefill_dense = 0, mdape_prefill_moe = 0;
    size_t decode_moe_rows = 0, prefill_moe_rows = 0;
    double coverage_decode = 0, coverage_prefill = 0;    // rows inside a band from the other sources' errors, %
    size_t memory_rows = 0;
    double memory_mdape = 0, memory_median_signed = 0;   // predicted total vs published peak memory, %
    std::vector<MlxHeldOut> held_out;
    std::vector<std::string> errors;     // rows that could not be scored, with the reason
};

// fit on every row, then leave each source out; rows that cannot be evaluated are listed in errors
MlxReport mlx_report(const Catalog& cat, std::vector<MlxRow>& rows);
// the report as text: parameters, per-row held-out predictions, MdAPE and coverage per test kind
std::string format_mlx_report(const MlxReport& r);

}  // namespace llmsim
