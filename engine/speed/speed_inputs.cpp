// The speed model's inputs that come from the catalog alone: see speed_inputs.h.
#include "speed/speed_inputs.h"

#include <string_view>

namespace llmsim {

const SpeedParams& default_speed_params() {
    static const SpeedParams params = builtin_speed_params();   // immutable after first use
    return params;
}

void set_device_speed_inputs(SpeedScenario& s, const Hardware& h) {
    s.bandwidth_gbs = h.bandwidth_gbs;
    s.fp16_tflops = h.fp16_tflops;
    s.fp16_tflops_estimated = false;
    // the catalog's chip family; a device built without one (Count) takes its class row
    const ChipFamily family = h.chip_family != ChipFamily::Count ? h.chip_family : class_chip_family(h.kind);
    if (!(s.fp16_tflops > 0)) {   // no published figure: the chip family's TFLOPS per GB/s (speed.h)
        s.fp16_tflops = chip_family_rates(family).tflops_per_gbs * h.bandwidth_gbs;
        s.fp16_tflops_estimated = true;
    }
    s.kind = h.kind;
    s.intel_gpu = is_intel_gpu(family);   // an Intel CPU is family Cpu: no Arc
    set_family_rates(s, family);
    const std::string_view mk = h.memory_kind;
    s.memory = mk == "hbm" ? MemoryKind::Hbm : mk == "gddr" ? MemoryKind::Gddr
             : mk == "unified" ? MemoryKind::Unified : guess_memory_kind(h.kind, h.bandwidth_gbs);
    s.sm_count = h.sm_count;
    s.sm_clock_mhz = h.boost_clock_mhz;
    s.cpu_cores = h.cpu_cores;
    s.cpu_core_flops_per_clk = h.cpu_core_flops_per_clk;
}

}  // namespace llmsim
