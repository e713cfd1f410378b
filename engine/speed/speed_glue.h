// Turns a catalog model + quant + device (a SimRequest) into the speed model's inputs, and its outputs into
// the SpeedView the UI/CLI show. Internal to evaluate() (simulate.cpp) and `llmsim-cli predict`.
#pragma once
#include "sim/simulate.h"
#include "speed/speed.h"

namespace llmsim {
// fill out.speed from the memory breakdown already in `out`; sets out.speed.error when there is no speed
// the fitted parameters embedded in this build (assets/calibration/speed_params.json), parsed once
const SpeedParams& default_speed_params();
// a catalog device's own inputs to the speed model: bandwidth, FP16 (the family estimate, flagged, when none is
// published), class, Intel-GPU flag, family rates, memory type, SMs and clock; the one mapping rigs use too
void set_device_speed_inputs(SpeedScenario& s, const Hardware& h);
// the speed model's inputs for a catalog model on req.memory.hardware, from an evaluation's memory part
bool build_speed_scenario(const Model& m, const SimRequest& req, const Evaluation& ev, SpeedScenario& s, std::string& err);
// tg128 at `depth` for an evaluated configuration (the device profile in req applied), e.g. recommend --decode-depth
SpeedResult decode_at_depth(const Model& m, const SimRequest& req, const Evaluation& ev, int64_t depth);
void estimate_speed_view(const Catalog& cat, const Model& model, const SimRequest& req, Evaluation& out);
}  // namespace llmsim
