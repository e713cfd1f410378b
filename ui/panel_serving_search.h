// The cheapest-configuration search of the Serving section (engine/serving/serving.h sla_search, sliced): the
// Serving section's load and SLA (Scenario::sv_c / sv_rate, sv_ttft / sv_tpot) over a device x count x engine x
// precision space (Scenario::sv_s_*). Runs only when asked (a button) and at most ~kServingSearchSliceMs of each
// frame, so the page never freezes; a picked row becomes the Serving section's configuration.
//   start_serving_search(app);      // the button
//   step_serving_search(app);       // once per frame (cheap when idle)
#pragma once
#include <string>
#include <vector>

#include "serving/serving.h"

struct AppState;

// the longest a frame spends simulating search candidates, ms
constexpr double kServingSearchSliceMs = 30;
// rows the search keeps (the cheapest; candidates whose cost floor cannot beat the last are not simulated)
constexpr int kServingSearchRows = 20;

struct ServingSearchState {
    llmsim::SlaSearchJob job;
    bool running = false;
    bool has_result = false;           // a finished search's rows are in job.points
    std::string key;                   // the request + space the job was started for ("" = never)
    std::string error;                 // why the search could not start (bad space, no model)
    double ms = 0;                     // compute time so far (summed over its slices)
    int frames = 0;                    // frames it was sliced over
};

// the search space the scenario's sv_s_* keys describe; false + err naming the key on a bad value
bool serving_search_space(const AppState& app, llmsim::SlaSearch& space, std::string& err);
// begin a search for the scenario's serving load and SLA (the button)
void start_serving_search(AppState& app);
// run the running search for up to kServingSearchSliceMs (called every frame; nothing when idle)
void step_serving_search(AppState& app);
// make search row i the Serving section's configuration (device, GPUs, TP/PP, engine, precision)
void use_serving_search_row(AppState& app, size_t i);
// the search's state as JSON (results().serving_search)
std::string serving_search_to_json(const AppState& app);
