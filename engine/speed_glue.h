// Turns a catalog model + quant + device (a SimRequest) into the speed model's inputs, and its outputs into
// the SpeedView the UI/CLI show. Internal to evaluate() (simulate.cpp) and `llmsim-cli predict`.
#pragma once
#include "simulate.h"

namespace llmsim {
// fill out.speed from the memory breakdown already in `out`; sets out.speed.error when there is no speed
void estimate_speed_view(const Catalog& cat, const Model& model, const SimRequest& req, Evaluation& out);
}  // namespace llmsim
