// "What should I buy": the hardware (catalog devices and multi-GPU combinations of them) that runs a model
// at a context with at least X tok/s decode (and/or TTFT under T) within a budget, cheapest first — with the
// reason every rejected option fails. And the inverse: the best model a machine runs at >= X tok/s.
//
//   llmsim::RecommendQuery q;
//   q.model = cat.find_model("Qwen/Qwen2.5-72B-Instruct"); q.ctx_tokens = 32768; q.min_decode_tps = 20;
//   q.max_price_usd = 10000;
//   llmsim::RecommendResult r = llmsim::recommend_hardware(cat, q);
//   for (auto& c : r.accepted) printf("%s $%.0f %.1f tok/s\n", c.hardware.name.c_str(), c.price_usd, c.eval.speed.decode_tps);
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "catalog/catalog.h"
#include "serving/cost.h"
#include "sim/simulate.h"

namespace llmsim {

struct RecommendQuery {
    const Model* model = nullptr;
    std::string quant = "Q4_K_M";
    int64_t ctx_tokens = 8192;
    int64_t prompt_tokens = 4096;      // for TTFT and the decode depth
    double min_decode_tps = 0;         // 0 = no constraint; holds at decode_depth
    std::optional<int64_t> decode_depth;  // context depth min_decode_tps must hold at (unset: the full chosen context)
                                       // (ctx_tokens: the worst case a user lives through)
    double max_ttft_s = 0;             // 0 = no constraint
    double max_price_usd = 0;          // purchase (new, else used); 0 = no constraint
    double max_power_w = 0;            // 0 = no constraint
    double max_cloud_usd_per_hour = 0; // > 0: only rentable options at most this price, ranked by $/hour
    // a monthly load (0 = none): with max_cloud_usd_per_hour, each option is the N devices the cost model's
    // capacity rule needs for it (estimate_cost), limited by N × $/hour and ranked by monthly rent
    double load_mtok_per_month = 0;
    double load_input_share = 0.75;    // share of the load that is prompt (prefill) tokens
    bool allow_tunable_uma = true;     // count "fits after raising the unified-memory limit" as fitting
    int max_gpus = 8;                  // multi-GPU combinations of single discrete cards up to this many
    bool include_multi_gpu = true;
    const DeviceProfile* device_profile = nullptr;   // the user's measurements (applied to the device it was fitted on)
};

// the usable floor the FAQ's "cheapest hardware that runs X" answers with (editable in the recommender)
constexpr double kUsableMinDecodeTps = 10;   // tok/s at the full chosen context
constexpr double kUsableMaxTtftS = 10;       // first token of a 4k prompt
constexpr int64_t kUsablePromptTokens = 4096;

struct Candidate {
    Hardware hardware;                 // a catalog device, or a synthetic N x combination of one
    bool synthetic = false;
    double price_usd = 0;              // 0 = no price known
    double power_w = 0;
    double cloud_usd_per_hour = 0;
    Evaluation eval;
    CostResult load_cost;              // the query's load on this option (devices needed, hours, rent); if given
    double decode_checked_tps = 0;     // decode at the query's depth: what --min-decode was checked against
    int64_t decode_checked_depth = 0;
    std::string reason;                // why it was rejected ("" when accepted)
};

struct RecommendResult {
    std::vector<Candidate> accepted;   // cheapest first (by $/hour when renting)
    std::vector<Candidate> rejected;   // with reasons
    std::string error;
};

// rank hardware for a model; fills error on bad input (no model, impossible constraint values)
RecommendResult recommend_hardware(const Catalog& cat, const RecommendQuery& q);

struct ModelChoice {
    const Model* model = nullptr;
    std::string quant;
    Evaluation eval;
};
// the models (catalog, each at its best-quality quant from `quants` that meets the constraint) a device runs at
// >= min_decode_tps at a full ctx_tokens context, largest models first
std::vector<ModelChoice> best_models_for(const Catalog& cat, const Hardware& hw, int64_t ctx_tokens, double min_decode_tps,
                                         const std::vector<std::string>& quants);

}  // namespace llmsim
