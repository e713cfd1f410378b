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
    if (!(s.fp16_tflops > 0)) {   // no published figure: the chip family's TFLOPS per GB/s (speed.h)
        const Fp16Family* family = fp16_family_of(h.vendor, h.kind, h.name);   // no family string built
        s.fp16_tflops = family ? family->tflops_per_gbs * h.bandwidth_gbs : 0.0;
        s.fp16_tflops_estimated = true;
    }
    s.kind = h.kind;
    // string_view compares: the length first, no strlen per call; an Intel CPU is no Arc
    s.intel_gpu = std::string_view(h.vendor) == "intel" && h.kind != HardwareKind::Cpu;
    set_family_rates(s, h.vendor, h.kind, h.name);
    const std::string_view mk = h.memory_kind;
    s.memory = mk == "hbm" ? MemoryKind::Hbm : mk == "gddr" ? MemoryKind::Gddr
             : mk == "unified" ? MemoryKind::Unified : guess_memory_kind(h.kind, h.bandwidth_gbs);
    s.sm_count = h.sm_count;
    s.sm_clock_mhz = h.boost_clock_mhz;
}

}  // namespace llmsim
