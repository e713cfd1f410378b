// The Speculative decoding panel's own state (next to its panel, as panel_serving.h): the draft model's memory and
// the expected decode speed-up for the scenario's model and device, from engine/spec through the JS API's own
// request parser (api_extras.h parse_spec_request), so window.llmsim.spec(request_json) returns what it shows.
// Recomputed only when the request changes.
//   update_spec(app);
//   if (app.spec.error.empty()) show(app.spec.speed.speedup);
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "sim/explain.h"
#include "section_memo.h"
#include "spec/mtp.h"
#include "spec/spec.h"

struct AppState;

struct SpecCurvePoint { double acceptance = 0, speedup = 0; };   // the speed-up at one acceptance, same k

struct SpecState {
    SectionMemo memo;                      // the inputs and request the results below are from
    std::string request_json;              // what window.llmsim.spec() takes for the same numbers
    std::string draft_id;                  // the draft computed: the scenario's sp_draft, or the suggested one
    bool draft_suggested = false;          // sp_draft is empty: a suggestion, not in the command
    const llmsim::Model* target = nullptr;
    const llmsim::Model* draft = nullptr;
    llmsim::SpecRequest request;
    llmsim::SpecMemory memory;
    llmsim::SpecSpeed speed;
    bool mtp = false;                      // the model's MTP heads are the draft (scenario sp_mtp)
    llmsim::MtpMemory mtp_memory;          // mtp: the engine's MTP breakdown (memory above holds the same per device)
    bool has_speed = true;                 // false: llama.cpp cannot run these MTP heads (memory only)
    std::string command;                   // llama-server command with the draft's flags
    std::vector<SpecCurvePoint> curve;     // speed-up against acceptance at speed.k (round time does not depend on a)
    std::vector<llmsim::Explanation> explanations;   // "spec_*" keys
    std::string error;                     // why nothing could be computed
};

// drafts llama.cpp accepts for `target`: catalog models smaller than it whose vocabulary differs by at most 128
// tokens (common/speculative.cpp SPEC_VOCAB_MAX_SIZE_DIFFERENCE), smallest first
std::vector<const llmsim::Model*> spec_draft_candidates(const AppState& app, const llmsim::Model& target);
// recompute app.spec when its request changed
void update_spec(AppState& app);
// the flags the command section appends: " -md ... --draft-max K ..." when the scenario names a draft and it computes
std::string spec_command_flags(const AppState& app);
// what the panel shows, as JSON (results().spec): request, result (the `llmsim-cli spec --json` layout), curve
std::string spec_state_json(const AppState& app);
// the scenario's device as a catalog id, which the spec / lora / train requests (and the CLI) take; false + err for a
// custom device, N of a card or a mixed rig
bool scenario_catalog_hardware(const AppState& app, std::string& id, std::string& err);
// the scenario's model and catalog device, as the lora / train / vision / audio requests need them: false + err
// ("no model: ..." first, then what scenario_catalog_hardware says)
bool scenario_model_and_hardware(const AppState& app, std::string& id, std::string& err);
