// The Serving panel's own state (Tracy keeps each view's state with its view): the serving engine's results for
// the scenario's serving inputs (Scenario::sv_*), recomputed only when the request they make changes, never every
// frame. The cost section and the JS API's results().serving read the same numbers.
//   update_serving(app);                          // cheap when nothing changed (one string compare)
//   if (app.serving.result.ok) show(app.serving.result.load.output_tok_s);
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "serving/serving.h"
#include "serving/cost.h"
#include "sim/explain.h"
#include "section_memo.h"
#include "serving_stages.h"

struct AppState;

struct ServingPoint {                  // one closed-loop concurrency of the sweep
    int concurrency = 0;
    double output_tok_s = 0, ttft_p90_ms = 0, tpot_p90_ms = 0;
    bool meets = false;                // within both SLA targets
};

struct ServingState {
    SectionMemo memo;                  // the inputs and request JSON the results below were computed from
    std::string sweep_key, sla_key;    // what `sweep` and `sla_max_concurrency` were computed from (update_serving)
    llmsim::ServeRequest request;      // the chosen point's request
    llmsim::ServeResult result;        // serve(request)
    llmsim::ServeResult ep_off;        // request with expert_parallel off (only when it is on at TP > 1): the EP explanation
    std::vector<ServingPoint> sweep;   // closed loop at kServingSweep concurrencies
    int sla_max_concurrency = 0;       // sla_max_concurrency(): largest closed-loop C meeting the SLA (0 = none)
    llmsim::ServeResult sla_at;        // its load
    // the cost section's load: the same engine and load at the cost section's 3:1 input:output mix (input = 3 x
    // output tokens), so its tokens per month divide by a throughput measured at that mix
    llmsim::ServeRequest cost_request;
    llmsim::ServeResult cost_result;
    std::vector<llmsim::Explanation> explanations;   // "serve_*" keys, shown by explain_item
    std::string error;                 // why nothing could be computed (no model/device, bad input)
    double compute_ms = 0;             // the last recompute, wall clock
    std::string deploy_yaml, deploy_error, deploy_key;   // the Deploy button's Dynamo graph, built on click for deploy_key
    std::string stages_edit, stages_error;   // the staged-rates text box while it is edited, and why a typed ladder was refused
    bool stages_editing = false;             // the box holds the user's text (not the scenario's) until it is applied
};


// the concurrencies of the sweep (1 .. 256, powers of two)
extern const int kServingSweep[9];
// requests a closed-loop run at concurrency c simulates: llmsim::default_num_prompts (serving.h), the rule serve(),
// the SLA search and the CLI's --sweep share, so the curves, the chosen point and the SLA answer are the same kind of run
int serving_num_prompts(int concurrency);
// the request the scenario's serving inputs describe (model and device from the scenario); false + err when the
// scenario has no usable model or device
bool serving_request_from_scenario(const AppState& app, llmsim::ServeRequest& out, std::string& err);
// the request as the JS API's serve() takes it (parse_serve_request's JSON): window.llmsim.serve(this) gives the
// numbers the panel shows
std::string serving_request_json(const llmsim::ServeRequest& r);
// recompute app.serving when the request changed (sweep, chosen point, SLA answer, explanations)
void update_serving(AppState& app);
// what the panel shows, as JSON (results().serving): the request, the chosen point's result, the sweep, the SLA answer
std::string serving_to_json(const AppState& app);
// the cost section's inputs at the served load: the scenario's prices (cost_inputs_from_scenario) for the serving
// GPUs, prefill and decode at cost_result's total (in + out) tok/s; false when that load has no result
bool cost_inputs_at_served_load(const AppState& app, llmsim::CostInputs& in);
// prefill/decode disaggregation (panel_serving_disagg.cpp): the switch, P / D GPUs, each pool's TP and the KV link;
// true when an input changed
bool draw_disagg_inputs(AppState& app);
// the disaggregated result's explanation lines (pools, transfer, TTFT / TPOT parts, the aggregated comparison) and
// the Deploy block: an NVIDIA Dynamo DynamoGraphDeployment for the section's request (serve_deploy_yaml)
void draw_disagg_results(AppState& app);
// the engine as people write it, its row's display name (serving/engines.h): "vllm" -> "vLLM", "llamacpp" ->
// "llama-server"; an unknown id as it is
const char* serving_engine_name(const std::string& engine);
// "vLLM · bf16 · 1 GPU · 32 in flight · 1024 in / 128 out": the load the numbers are for
std::string serving_load_words(const AppState& app);
