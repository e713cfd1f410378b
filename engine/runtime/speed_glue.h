// Turns a catalog model + quant + device (a SimRequest) into the speed model's inputs, and its outputs into
// the SpeedView the UI/CLI show: llama.cpp's speed plan (runtime.h), also used by `llmsim-cli predict`.
#pragma once
#include "runtime/scenario.h"
#include "speed/speed.h"
#include "speed/speed_inputs.h"   // default_speed_params, set_device_speed_inputs

namespace llmsim {
// the speed model's inputs for a catalog model on req.memory.hardware, from an evaluation's memory part
bool build_speed_scenario(const Model& m, const SimRequest& req, const Evaluation& ev, SpeedScenario& s, std::string& err);
// tg128 at `depth` for an evaluated configuration (the device profile in req applied), e.g. recommend --decode-depth
SpeedResult decode_at_depth(const Model& m, const SimRequest& req, const Evaluation& ev, int64_t depth);
// fill out.speed from the memory breakdown already in `out`; sets out.speed.error when there is no speed
void estimate_speed_view(const Catalog& cat, const Model& model, const SimRequest& req, Evaluation& out);
}  // namespace llmsim
