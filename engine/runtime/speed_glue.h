// Turns a catalog model + quant + device (a SimRequest) into the speed model's inputs, and its outputs into
// the SpeedView the UI/CLI show: llama.cpp's speed plan (runtime.h), also used by `llmsim-cli predict`.
#pragma once
#include "runtime/scenario.h"
#include "speed/speed.h"
#include "speed/speed_inputs.h"   // default_speed_params, set_device_speed_inputs

namespace llmsim {
// the speed model's inputs for a catalog model on req.memory.hardware, from an evaluation's memory part
bool build_speed_scenario(const Model& m, const SimRequest& req, const Evaluation& ev, SpeedScenario& s, std::string& err);
// build_speed_scenario in two parts: the inputs of the model, the quant and the request (s reset first; ev's weight
// figures), then those of req.memory.hardware (not null) and of the host's share of the weights in ev.memory. A grid
// makes the first once for its devices
void speed_model_inputs(const Model& m, const SimRequest& req, const Evaluation& ev, SpeedScenario& s);
void speed_device_inputs(const Model& m, const SimRequest& req, const Evaluation& ev, SpeedScenario& s);
// tg128 at `depth` for an evaluated configuration (the device profile in req applied), e.g. recommend --decode-depth
SpeedResult decode_at_depth(const Model& m, const SimRequest& req, const Evaluation& ev, int64_t depth);
// fill out.speed from the memory breakdown already in `out`; sets out.speed.error when there is no speed
// v = SpeedView(), field by field, keeping its strings' buffers (a sweep's reused evaluations allocate nothing)
void reset_speed_view(SpeedView& v);
void estimate_speed_view(const Catalog& cat, const Model& model, const SimRequest& req, Evaluation& out);
// the parts of a speed view that do not depend on the context, for one device (no rig) and one request: the
// scenario, the prompt's prefill and the decodes at the prompt and at an empty context. A sweep over a device's
// contexts keeps one: the scenario's only input a context can move is the host's weight bytes (the fit search's
// partial offload), the integer key they are rebuilt on
// the figures of a speed view that come from its scenario, its prefill and its decodes at the prompt and at an empty
// context, none from its context: a device's contexts share them (SharedSpeed)
struct ViewFigures {
    bool finite = false;                  // those speeds and the TTFT are finite and positive
    double ttft_low_s = 0, ttft_high_s = 0, reply_s = 0;   // estimate_reply's (the prompt over the prefill's band)
    double peak_flops = 0, peak_bytes_per_s = 0;           // roofline: the per-GPU peaks
    double decode_intensity = 0, decode_flops = 0, prefill_intensity = 0, prefill_flops = 0;   // the attained points
};
struct SharedSpeed {
    bool valid = false;
    uint64_t host_key = 0;      // host weights_bytes of the breakdown they were made from
    bool built = false;         // build_speed_scenario succeeded (else `error`)
    const SpeedScenario* model_part = nullptr;   // speed_model_inputs made by a grid for its devices (nullptr: here)
    // with model_part: the decodes' model terms made once for the grid's devices (the prompt's, depth 0's and each
    // context's full depth); a decode at a depth not among them computes its own
    const DecodeDepth* depths = nullptr;
    int n_depths = 0;
    int next_depth = 0;         // where the next look-up in depths starts: after the last one found
    // with model_part: the prompt's prefill terms made once for the grid's devices (plan_prefill at the prompt, depth 0)
    const PrefillPlan* prefill = nullptr;
    std::string error;
    const SpeedParams* params = nullptr;   // default_speed_params(), looked up when the parts are made (not per view)
    SpeedScenario s;
    SpeedResult pre;
    DecodePlan decode;          // the decode terms that do not depend on the depth
    SpeedResult dec[2];         // at the prompt (gen_tokens), at depth 0 (tg128)
    SpeedResult decn;           // at the full context of the view being filled (kept: no SpeedResult per view)
    ViewFigures figures;        // of pre, dec[0] and dec[1]
};
// estimate_speed_view at context n_ctx (req.memory.n_ctx is not read); shared: the context-independent parts, reused
// while they hold for out.memory (nullptr: computed here; a rig computes them per context)
void estimate_speed_view_at(const Model& model, const SimRequest& req, int64_t n_ctx, Evaluation& out,
                            SharedSpeed* shared);
}  // namespace llmsim
