// The speed model's inputs that come from the catalog alone: the fitted parameters embedded in this build and a
// catalog device's own figures. Below the rigs (rig_speed.h fills each device of a rig with them) and the
// simulator glue (runtime/speed_glue.h builds a whole scenario on top).
//
//   llmsim::SpeedScenario s;   // the model's part filled by build_speed_scenario (runtime/speed_glue.h)
//   llmsim::set_device_speed_inputs(s, *cat.find_hardware("rtx-4090"));   // bandwidth, FP16, class, family rates
//   llmsim::SpeedResult r = llmsim::estimate_speed(s, llmsim::default_speed_params());
#pragma once
#include "catalog/catalog.h"
#include "speed/speed.h"

namespace llmsim {
// the fitted parameters embedded in this build (assets/calibration/speed_params.json), parsed once
const SpeedParams& default_speed_params();
// a catalog device's own inputs to the speed model: bandwidth, FP16 (the family estimate, flagged, when none is
// published), class, Intel-GPU flag, family rates, memory type, SMs and clock; the one mapping rigs use too
void set_device_speed_inputs(SpeedScenario& s, const Hardware& h);
}  // namespace llmsim
