// JSON in, JSON out for the two recommend questions and the cost of a deployment: the layouts `llmsim-cli recommend
// --format json` and `llmsim-cli cost --json` print, and the entry points the MCP server's tools call (cli/mcp_tools.cpp),
// so the command line and an agent get the same answers with the same keys.
//   llmsim::api_recommend(cat, R"({"model":"qwen2.5:7b","ctx":32768,"min_decode_tps":40})");
//   llmsim::api_recommend_models(cat, R"({"hardware":"rtx-4090","ctx":8192,"min_decode_tps":20})");
//   llmsim::api_cost(cat, R"({"model":"Qwen/Qwen2.5-7B-Instruct","hardware":"rtx-4090","quant":"Q4_K_M"})");
// Requests (every key but model / hardware optional; the CLI's defaults, the CLI option's name with '_' and a unit):
//   recommend        {model, quant, ctx, min_decode_tps, max_ttft_s, max_price_usd, max_watts, max_rent_usd_per_hour,
//                     prompt_tokens, decode_depth, usable, tokens_per_month, input_share, all}
//   recommend_models {hardware, ctx, min_decode_tps}
//   cost             {model, hardware, quant, ctx, tokens_per_month, input_share, hours_per_month, kwh_price_usd,
//                     months, price_usd, rent_usd_per_hour, api_in_usd_per_mtok, api_out_usd_per_mtok, explain}
// Bad input: {"error": "..."} naming the key (the words the CLI prints for the same mistake).
#pragma once
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "catalog/catalog.h"
#include "serving/cost.h"
#include "sim/recommend.h"

namespace llmsim {

// the quants the inverse question tries, best quality first (recommend --hardware)
const std::vector<std::string>& recommend_model_quants();
// recommend's answer: the query, the accepted options (and the rejected ones with their reason when `all`); with
// `with_load` each option carries "load" (the devices its monthly tokens need and their rent)
nlohmann::json recommend_to_json(const RecommendQuery& q, const RecommendResult& r, bool all, bool with_load);
// the inverse question's rows: model, quant, status, total_bytes, params, decode speeds (an array, largest first)
nlohmann::json models_for_hardware_to_json(const std::vector<ModelChoice>& list);
// recommend's limits as its request and `llmsim-cli recommend` read them (ctx, prompt in tokens; min_decode tok/s;
// max_ttft s; max_price USD; max_watts W; max_rent USD/h; tokens a month and their input share; depth -1 = not given)
struct RecommendLimits {
    double ctx = 8192, min_decode = 0, max_ttft = 0, max_price = 0, max_watts = 0, max_rent = 0, prompt = 4096;
    double tokens = 0, share = 0.75, depth = -1;
};
// the query those limits ask for the model at the quant (the one conversion both front doors use)
RecommendQuery recommend_query(const Model* model, const std::string& quant, const RecommendLimits& l);
std::string api_recommend(const Catalog& cat, const std::string& request_json);
// {"hardware", "ctx", "min_decode_tps", "models": models_for_hardware_to_json}
std::string api_recommend_models(const Catalog& cat, const std::string& request_json);

// what a cost question fixes beyond model, device and quant; a negative price / rent / API price = the catalog's
struct CostOptions {
    double ctx = 8192, tokens_per_month = 50e6, input_share = 0.75;
    double hours_per_month = -1;   // -1: from the speed model
    double kwh_price_usd = 0.17, months = 36;
    double price_usd = -1, rent_usd_per_hour = -1, api_in_usd_per_mtok = -1, api_out_usd_per_mtok = -1;
};
// the cost of running `quant` of m on hw for the options' load: inputs (prices resolved) and result; false + err
// when the model does not run there ("cost: ..." is the caller's prefix). r.error is set for a load it cannot price.
bool compute_cost(const Catalog& cat, const Model& m, const Hardware& hw, const std::string& quant, const CostOptions& o,
                  CostInputs& in, CostResult& r, std::string& err);
std::string api_cost(const Catalog& cat, const std::string& request_json);

}  // namespace llmsim
