// Published measurements of the beyond-chat models, scored held out: fine-tuning memory and tokens/s
// (engine/train), vision encode time (engine/vision), LoRA decode cost (engine/adapter), draft-model speculative
// decoding (engine/spec) and embedding throughput (engine/embed). One JSON object per line; each row names its
// source, device, build and framework (assets/calibration/extras_measured.README.md describes the fields).
//
// A row is held out unless "guided" is true: a guided row was looked at while a rule was chosen, so it is printed
// as a regression guard and kept out of the held-out medians.
//
//   std::vector<llmsim::ExtraRow> rows; std::string err;
//   if (!llmsim::parse_extra_rows(text, rows, err)) { ... }
//   llmsim::ExtrasReport rep = llmsim::score_extra_rows(cat, rows);
//   printf("%s", llmsim::format_extras_report(rep).c_str());
//
// [SECTION] Rows
// [SECTION] Scores
#pragma once
#include <string>
#include <vector>

#include "catalog/catalog.h"

namespace llmsim {

// [SECTION] Rows -------------------------------------------------------------------------------------------

enum class ExtraKind { TrainMemory, TrainTokensPerS, VisionEncode, LoraDecode, SpecDecode, EmbedThroughput, Count };
// "train_memory", "train_tokens_per_s", "vision_encode", "lora_decode", "spec_decode", "embed_throughput"
const char* to_string(ExtraKind k);
bool parse_extra_kind(const std::string& s, ExtraKind& out);

struct ExtraRow {
    std::string id;
    ExtraKind kind = ExtraKind::TrainMemory;
    std::string model;              // catalog id, or the id recorded for `config_json`
    std::string config_json;        // a Hugging Face config.json (models the catalog lacks); "" = catalog
    std::string hardware;           // catalog hardware id
    std::string source, date, build, framework, notes;
    bool guided = false;            // looked at while a rule was chosen (regression guard, not validation)
    std::string line;               // the row's JSON text (the kind-specific "setup" / "measured" fields)
};

// parse JSON Lines; false + err naming the line and field on bad input (blank lines skipped, ids unique)
bool parse_extra_rows(const std::string& text, std::vector<ExtraRow>& rows, std::string& err);

// [SECTION] Scores -----------------------------------------------------------------------------------------

struct ExtraScore {
    const ExtraRow* row = nullptr;
    bool ok = false;
    std::string error;              // why there is no prediction (the owning module's message)
    std::string quantity;           // what is compared, with its unit ("peak GPU memory GiB", "encode ms", ...)
    double measured = 0, predicted = 0;
    double rel_error = 0;           // predicted / measured - 1
};

struct ExtraKindSummary {
    ExtraKind kind = ExtraKind::TrainMemory;
    int held_out = 0, guided = 0, failed = 0;
    double median_abs_error = 0;    // over held-out rows that scored (0 when none)
    double median_error = 0;        // signed
};

struct ExtrasReport {
    std::vector<ExtraScore> scores;          // one per row, in file order
    std::vector<ExtraKindSummary> kinds;     // one per ExtraKind
};

// predict one row; fills s.error (and ok = false) when the owning module refuses the setup
ExtraScore score_extra_row(const Catalog& cat, const ExtraRow& row);
// every row, then medians per kind
ExtrasReport score_extra_rows(const Catalog& cat, const std::vector<ExtraRow>& rows);
// a Markdown table of rows (measured / predicted / error / held out or guided / source) and the medians per kind
std::string format_extras_report(const ExtrasReport& rep);

}  // namespace llmsim
