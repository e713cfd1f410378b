// The serving model's held-out accuracy as a file the page can show: assets/calibration/serving_accuracy.json,
// generated from `llmsim-cli accuracy --serving --json` (scripts/calibration/make_serving_accuracy.sh), never
// hand-edited. Leave-one-source-out takes about a minute natively (and the shipped fit on every row ~17 s of
// CPU), far too slow for a browser, so the page reads the numbers the CLI printed instead of recomputing them.
// The file carries what it was made from, so a fast test can tell when it is stale: the FNV-1a hash of
// serving.jsonl and the shipped parameters' predictions on every 10th row (any change of the model, the catalog
// or the shipped fit moves some of them).
//
//   llmsim::ServingAccuracy a;
//   if (!llmsim::load_builtin_serving_accuracy(a, err)) { ... }          // the embedded file
//   for (const auto& g : a.groups) printf("%s %.1f %%\n", g.display.c_str(), g.out_mdape * 100);
//   std::string why = llmsim::serving_accuracy_stale(a, jsonl_text, serving_fingerprint(cat, rows));
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "calibration/serve_fit.h"
#include "evidence/serving_accuracy.h"

namespace llmsim {

// FNV-1a 64 of a text, as 16 lower-case hex digits
std::string fnv1a64_hex(const std::string& text);
// the shipped parameters' predictions on every kFingerprintStride-th row (fast: ~110 of ~1100 rows)
constexpr size_t kFingerprintStride = 10;
std::vector<ServingFingerprintRow> serving_fingerprint(const Catalog& cat, const std::vector<ServingRow>& rows);
// the file's content from a validation of `rows` (read from `jsonl_text`)
ServingAccuracy serving_accuracy_from(const Catalog& cat, const ServingValidation& v, const std::vector<ServingRow>& rows,
                                      const std::string& jsonl_text, int skipped);
// serialise (locale-independent numbers, one row per line)
std::string serving_accuracy_to_json(const ServingAccuracy& a);
// "" when `a` was made from this serving.jsonl and the model still predicts its fingerprint rows (relative 1e-4:
// far below any change that shows, above the last-bit differences of another libm, e.g. wasm's);
// else what differs and the command that regenerates it
std::string serving_accuracy_stale(const ServingAccuracy& a, const std::string& jsonl_text,
                                   const std::vector<ServingFingerprintRow>& now);
// the load of a row in words: "burst of 100", "closed loop, concurrency 16", "Poisson 4 req/s"
std::string serving_load_label(const ServeWorkload& w);

}  // namespace llmsim
