// The section data of a model's report: which evaluations each seed section makes and the rows it shows, built
// once for the app (ui/derived.cpp, ui/panel_faq.cpp) and the static pages (cli/cmd_page.cpp). Plain structs; the
// front ends only lay them out. Text (the FAQ, the cost summary) is formatted with core/format.
//
//   llmsim::SimRequest base = ...;                     // the scenario's request (hardware, quant, ctx, prompt)
//   auto quants = llmsim::quant_rows(cat, model, base, 8192);
//   auto lb = llmsim::device_rows(cat, model, base);
//   auto ctx = llmsim::context_rows(cat, model, base);
//   llmsim::RecommendResult rr = llmsim::cheapest_usable(cat, model, "Q4_K_M", 32768);
//   llmsim::FaqInputs fi{...};  for (auto& e : llmsim::faq_entries(fi)) puts(e.question.c_str());
#pragma once
#include <map>
#include <cstdint>
#include <string>
#include <vector>

#include "catalog/catalog.h"
#include "serving/cost.h"
#include "sim/recommend.h"
#include "sim/simulate.h"

namespace llmsim {

// [SECTION] rows ------------------------------------------------------------------------------------------------

struct QuantRow {
    const FileType* file_type = nullptr;
    double bits_per_weight = 0;
    uint64_t weights_bytes = 0;
    uint64_t total_a_bytes = 0;     // at the scenario's context (base.memory.n_ctx)
    uint64_t total_b_bytes = 0;     // at the second context (ctx_b_tokens)
    std::string error;
};

struct DeviceRow {
    const Hardware* hardware = nullptr;
    Evaluation eval;                // memory + speed on this device for the scenario
    std::string error;
    double usd_per_decode_tps = 0;  // price / decode tok/s (0 = unknown)
};

struct ContextPoint {
    int64_t ctx_tokens = 0;
    uint64_t kv_bytes = 0;
    uint64_t total_bytes = 0;
    FitStatus status = FitStatus::Unknown;
    double decode_tokens_per_s = 0;   // at a full context (depth = ctx), 0 = does not run
};

// quantization footprint: every catalog file type, weights and totals at base's context and at ctx_b_tokens, no
// device, no speed (a row that cannot be evaluated carries its error). exact_tensor_bytes (a looked-up Hub repo's
// files: file type -> the header's tensor bytes), when given, lists only those file types, each at its exact bytes
std::vector<QuantRow> quant_rows(const Catalog& cat, const Model& model, const SimRequest& base, int64_t ctx_b_tokens,
                                 const std::map<std::string, uint64_t>* exact_tensor_bytes = nullptr);
// the rows the page's table shows: no error, common file types only, largest bits per weight first
std::vector<QuantRow> common_quant_rows(const std::vector<QuantRow>& rows);
// hardware leaderboard: every catalog device, all layers asked for on the GPU (the estimate picks a partial placement)
std::vector<DeviceRow> device_rows(const Catalog& cat, const Model& model, const SimRequest& base);
// the seed's leaderboard order: comfortable, tight, tunable UMA, partial offload, OOM, unknown
int fit_status_rank(FitStatus s);
// rows without an error, best status first, then decode at the full context, then usable memory
std::vector<DeviceRow> seed_ordered_device_rows(const std::vector<DeviceRow>& rows);
// context scaling on base's device: powers of two from 1k and the midpoints between them, up to the model's largest
// context (extended, else native, else 128k); decode read out at a full context; contexts that fail are left out
std::vector<ContextPoint> context_rows(const Catalog& cat, const Model& model, const SimRequest& base);
// true for the powers of two of context_rows (the page's table shows only those)
bool is_power_of_two_context(int64_t ctx_tokens);

// [SECTION] recommendation and cost -----------------------------------------------------------------------------

// the FAQ's "cheapest hardware that runs it": the recommender at the usable floor (recommend.h kUsable*), no price
// limit, catalog devices and multi-GPU combinations
RecommendResult cheapest_usable(const Catalog& cat, const Model& model, const std::string& quant, int64_t ctx_tokens,
                                const DeviceProfile* profile = nullptr);
// its answer: the first accepted option with a known price (nullptr = none)
const Candidate* first_priced(const RecommendResult& r);

// the cost section's scenario inputs; -1 = the catalog's price
struct CostScenario {
    double mtok_per_month = 60.0;     // million tokens a month, in + out
    double kwh_price_usd = 0.17;
    int amortize_months = 36;
    double price_usd = -1;            // purchase price override, USD
    double rent_usd_per_hour = -1;    // cloud price override, USD/hour for the whole device
    double api_in_usd = -1, api_out_usd = -1;   // serverless API overrides, USD per 1M tokens
};
// the cost model's inputs: tokens split 3:1 input:output (the usual chat/RAG ratio), the speeds of the scenario's
// evaluation, catalog prices unless overridden; hardware may be null (no device costs)
CostInputs cost_inputs(const Model* model, const Hardware* hardware, const SpeedView& speed, const CostScenario& s);
// "Cheapest: owning the hardware. Buying pays back in 7.09 months." (and the capacity note of a multi-device load)
std::string cost_summary(const CostResult& r);

// [SECTION] FAQ -------------------------------------------------------------------------------------------------

struct FaqEntry { std::string question, answer; };

struct FaqInputs {
    const Model* model = nullptr;
    std::string quant, kv_type = "f16";
    int64_t ctx_tokens = 0;
    const MemoryBreakdown* memory = nullptr;         // the scenario on its device
    const Candidate* cheapest = nullptr;             // first_priced(cheapest_usable(...)); nullptr = none
    const std::vector<ContextPoint>* context = nullptr;
    const Hardware* hardware = nullptr;              // the cost question's device; nullptr = no cost question
    const CostResult* cost = nullptr;
    double mtok_per_month = 0;
    int amortize_months = 0;
    bool app_hints = false;   // true: answers point at the app's Recommended hardware section (it has no page twin)
};
// the seed's questions answered from the inputs' numbers: VRAM, cheapest hardware, cost (with a device), KV scaling
std::vector<FaqEntry> faq_entries(const FaqInputs& in);

}  // namespace llmsim
