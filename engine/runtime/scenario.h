// The request and the answer of one scenario: what a runtime's memory and speed plans take (SimRequest) and fill
// (Evaluation, with its SpeedView). They sit with the runtimes (runtime.h) because every plan is written against
// them; evaluate() (sim/simulate.h), one layer up, runs the plans of the request's runtime.
//
//   llmsim::SimRequest req;
//   req.memory.file_type = "Q4_K_M"; req.memory.n_ctx = 32768; req.memory.hardware = cat.find_hardware("rtx-4090");
//   req.engine = llmsim::EngineId::LlamaCpp;
//   llmsim::Evaluation ev;   // filled by evaluate(): ev.memory per device, ev.speed.decode_tps ...
#pragma once
#include <cstdint>
#include <string>

#include "catalog/catalog.h"
#include "memory/memory.h"
#include "model/model_tensors.h"
#include "quant/quant_types.h"
#include "runtime/runtime.h"
#include "speed/speed.h"   // Bound

namespace llmsim {

struct DeviceProfile;              // device_profile.h

struct SimRequest {
    MemoryRequest memory;          // file type, context, KV type, placement, hardware
    int64_t prompt_tokens = 4096;  // prompt for TTFT and prefill speed
    int64_t gen_tokens = 512;      // generated tokens for the reply time
    bool with_speed = true;        // false: memory only (cheaper)
    bool with_explain = false;     // true: SpeedView::explain and memory notes in words (costs string building)
    const DeviceProfile* device_profile = nullptr;   // the user's own measurements; applied when fitted on this device
    EngineId engine = EngineId::LlamaCpp;            // the engine whose plans evaluate() uses (runtime.h)
};

struct SpeedView {
    bool ok = false;
    std::string error;             // why there is no speed (does not fit, no hardware, ...)
    double decode_tps = 0, decode_low = 0, decode_high = 0;     // tok/s at depth = prompt_tokens, batch 1
    // the range a user lives through (speed_labels.h decode_range_text): tg128 at an empty context and at the
    // full chosen context (n_ctx per sequence), batch 1
    double decode_empty_tps = 0, decode_empty_low = 0, decode_empty_high = 0;
    double decode_full_tps = 0, decode_full_low = 0, decode_full_high = 0;
    int64_t decode_depth = 0;      // depth of decode_tps (= the prompt)
    int64_t decode_full_depth = 0; // depth of decode_full_tps
    int64_t prompt_tokens = 0;     // the prompt prefill_tps / ttft_s are for
    bool flash_attn = true;
    std::string calibrated;        // "calibrated on your 12 rows (...)" when a device profile applied, else ""
    double prefill_tps = 0, prefill_low = 0, prefill_high = 0;  // tok/s for the prompt
    double ttft_s = 0, ttft_low = 0, ttft_high = 0;             // seconds to the first token of a prompt
    double reply_s = 0;            // prompt + gen_tokens generated
    double aggregate_tps = 0;      // all parallel sequences together (np > 1)
    double per_user_tps = 0;       // each of np sequences
    Bound decode_bound = Bound::None;    // which term dominates the decode (speed.h; to_string: "memory" / "compute")
    Bound prefill_bound = Bound::None;
    // roofline points (arithmetic intensity FLOP/byte, attained FLOP/s)
    double decode_intensity = 0, decode_flops = 0;
    double prefill_intensity = 0, prefill_flops = 0;
    double peak_flops = 0, peak_bytes_per_s = 0;   // the device's roof
    std::string explain;           // the formula with the numbers in it, one line per term
};

struct Evaluation {
    MemoryBreakdown memory;
    SpeedView speed;
    ParamCounts params;
    uint64_t active_weight_bytes = 0;   // bytes read per decoded token (MoE: shared + active experts)
    uint64_t weight_bytes = 0;          // all tensor data (the GGUF's weights)
    uint64_t embedding_bytes = 0;       // token_embd (kept in host memory by llama.cpp)
    uint64_t routed_expert_bytes = 0;   // all routed-expert tensors (MoE)
    // attention layout (constants of the model, from the prepared weights)
    int full_attn_layers = -1;          // layers with a full-context KV cache (-1 = not filled: count per layer)
    int swa_layers = 0;                 // sliding-window layers
    uint64_t kv_k_row = 0, kv_v_row = 0;  // K / V elements per cached token per layer (MLA: latent + rope, V = 0)
    WeightClass weight_class = WeightClass::Count;  // kernel class of the file type (Count = not filled: ask the table)
};

}  // namespace llmsim
