// JSON for "the best models for this device by published quality" (sim/recommend_quality.h): the one shape
// `llmsim-cli recommend-model --format json`, the JS API's llmsim.bestModels(request) and the UI share.
//   std::string out = llmsim::api_best_models(cat, R"({"hardware":"rtx-4090","task":"coding","ctx":16384,"min_decode_tps":10})");
#pragma once
#include <string>

#include <nlohmann/json.hpp>

#include "catalog/catalog.h"
#include "sim/recommend_quality.h"

namespace llmsim {

// the result with its benchmark (name, version, date, source, caveat) and, per entry, the score with its date and
// source beside the quant's measured loss (kld, ppl_delta_pct, quality_label, quality_source); unknown values are null
nlohmann::json quality_result_to_json(const Hardware& hw, const QualityQuery& q, const QualityResult& r);
// a request {"hardware", "task"?, "ctx"?, "min_decode_tps"?, "extreme"?} -> quality_result_to_json, or {"error": "..."} (unknown
// hardware or task, a context below 1, a negative speed, malformed JSON)
std::string api_best_models(const Catalog& cat, const std::string& request_json);
// the one-line trade-off the ranking shows: the first higher-ranked entry that runs at a lossier quant than one
// ranked below it ("" when no such pair)
std::string quality_trade_off(const QualityResult& r);

}  // namespace llmsim
