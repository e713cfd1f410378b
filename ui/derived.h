// Numbers derived from the scenario, recomputed only when the scenario changes (state_version), never per frame.
// Panels read these, so a frame costs drawing only. Two panels call the engine on a user action, never per
// frame: the leaderboard re-evaluates one device with explanations while a number is hovered, and "Your own
// runs" (panel_my_runs.cpp) parses and fits pasted llama-bench rows when they change.
#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "memory/memory.h"
#include "model/model_tensors.h"
#include "report/sections.h"
#include "evidence/evidence.h"
#include "sim/explain.h"
#include "sim/recommend.h"
#include "sim/simulate.h"

struct AppState;

// the section rows are built in the engine (report/sections.h), the same for the app and the static pages
using QuantRow = llmsim::QuantRow;
using DeviceRow = llmsim::DeviceRow;
using ContextPoint = llmsim::ContextPoint;

struct CompareColumn {
    std::string model_id, hardware_id, quant;   // resolved setup
    const llmsim::Model* model = nullptr;
    const llmsim::Hardware* hardware = nullptr;
    llmsim::Evaluation eval;
    std::string error;
    double monthly_own_usd = -1;
};

// the setups of scenario.compare ("model~hardware~quant,..."; an empty part means the current one), at most 4
std::vector<std::array<std::string, 3>> parse_compare(const std::string& compare);
std::string format_compare(const std::vector<std::array<std::string, 3>>& setups);

struct Derived {
    uint64_t version = UINT64_MAX;
    const llmsim::Model* model = nullptr;
    const llmsim::Hardware* hardware = nullptr;
    std::string error;                 // why the current scenario cannot be evaluated
    llmsim::ParamCounts params;
    llmsim::Evaluation eval;           // the current scenario on the current hardware
    bool eval_ok = false;
    std::vector<llmsim::Explanation> explanations;   // how each number of `eval` is made (explain.h)
    std::vector<QuantRow> quants;      // every file type
    std::vector<DeviceRow> devices;    // every catalog device, catalog order
    std::vector<ContextPoint> context; // 1k .. max context
    std::vector<CompareColumn> compare; // scenario.compare, resolved
    llmsim::RecommendResult recommend;  // hardware meeting the scenario's rec_* constraints, cheapest first
    // the same at the usable floor (recommend.h kUsable*: decode at the full context, TTFT of a 4k prompt), no
    // price limit: the FAQ's "cheapest hardware that runs it"
    llmsim::RecommendResult cheapest_usable;
    std::vector<llmsim::FaqEntry> faq;           // the FAQ's questions and answers (report/sections.h faq_entries)
    std::vector<llmsim::EvidenceRow> evidence;   // measured rows on this device (best matches first)
    double compute_ms = 0;             // how long the last recompute took
    bool rest_pending = false;         // explanations, devices, context, recommend, cheapest_usable, faq, compare to come
};

// recompute app.derived if the scenario changed since the last call; on the web page's first frame
// (app.first_view_light) only what the verdict, model and simulator sections show
void update_derived(AppState& app);
// the rest of app.derived (the explanations, every device, context points, recommendations, FAQ, compare) if
// update_derived left it for later: before a section that shows it is drawn, and before results()
void finish_derived(AppState& app);
// the web page's deferred evidence (app.evidence_deferred): once every file of missing_evidence_assets() has arrived
// (core/assets.h), parse them and find this device's measured rows; no-op before that, or when nothing is deferred
void load_deferred_evidence(AppState& app);
// the assets the evidence needs that this build does not hold yet (the web page fetches them: ui/platform_web.cpp;
// their files are copied next to llmsim.wasm by CMakeLists.txt); empty natively
std::vector<std::string> missing_evidence_assets();
// what a section that shows the measured rows or the serving accuracy says while they are not there: "" once loaded
std::string evidence_wait_text(const AppState& app);
// what the page shows, as JSON (the JS API's results(): memory, speed, leaderboard, quant rows, import message)
std::string derived_to_json(const AppState& app);
// the cost model's inputs for the scenario (tokens split 3:1 in:out, speeds of the current evaluation, catalog
// prices unless the scenario overrides them); shared by the cost section, the FAQ and the JS API
llmsim::CostInputs cost_inputs_from_scenario(const AppState& app);
// open the scenario's model at its defaults: quant = the release format's file type (catalog.h default_file_type),
// ctx = its default context on the scenario's device (memory.h default_context_tokens); unknown model: no change
void apply_model_defaults(AppState& app, bool quant = true, bool ctx = true);
// after a link, setState() or the command line set `keys`: when the model changed from model_before, the model opens
// at its defaults for quant and ctx unless keys name them
void apply_model_defaults_for_keys(AppState& app, const std::string& model_before, const std::vector<std::string>& keys);
// the request the llama-server command is built from: the scenario's, with auto GPU layers (-1) replaced by the
// partial placement the estimate chose (so the command runs what the page shows)
llmsim::SimRequest command_request(const AppState& app);
// the simulation request the scenario describes (shared by the UI, the command builder and the JS API)
llmsim::SimRequest request_from_scenario(const AppState& app);
// the exact tensor bytes of `model`'s Hub file of `file_type` (a header read by Range), 0 when none was read
uint64_t hub_exact_bytes(const AppState& app, const std::string& model, const std::string& file_type);
