// Speed of a mixed rig or an RPC setup: llama.cpp's layer split runs the devices one after another for every token,
// so a decoded token costs the sum of each device's own time for its layers (its bandwidth, its compute), plus the
// hand-offs between devices (PCIe/NVLink: the calibrated per-hop cost plus the activations over the link) and, for
// RPC servers, the network: per server and token the hidden state in and out (n_embd x 4 B each way), the attention
// mask (f16, one row of n_kv cells per token per device) and a request-response round trip (ggml-rpc's
// RPC_CMD_SET_TENSOR / RPC_CMD_GRAPH_RECOMPUTE / RPC_CMD_GET_TENSOR, ggml/src/ggml-rpc/ggml-rpc.cpp).
//
//   llmsim::RigSpeedTerms t;
//   SpeedResult r = llmsim::estimate_rig_decode(s, params, *hw, ev.memory, model.hidden_size, 512, 128, &t);
//   // r.tokens_per_s; t.devices_s, t.handoff_s, t.network_s, t.host_s (seconds per token)
#pragma once
#include <string>

#include "catalog/catalog.h"
#include "memory/memory.h"
#include "speed/speed.h"

namespace llmsim {

struct RigSpeedTerms {
    double devices_s = 0;     // per token: the devices' own times, summed
    double handoff_s = 0;     // per token: GPU-to-GPU hand-offs inside one host
    double network_s = 0;     // per token: RPC traffic and round trips
    double host_s = 0;        // per token: weights left in host RAM (-ngl / --n-cpu-moe)
    std::string slowest;      // the device that takes the most time ("CUDA1 (rtx-5060-ti-16gb)")
    double slowest_share = 0; // its share of devices_s
};
// decode of n_tokens from depth on rig (hw.rig non-empty); s = build_speed_scenario()'s scenario, mb = the placement
SpeedResult estimate_rig_decode(const SpeedScenario& s, const SpeedParams& p, const Hardware& rig, const MemoryBreakdown& mb,
                                int64_t n_embd, int64_t depth, int64_t n_tokens, RigSpeedTerms* terms = nullptr);
// prefill of n_tokens at depth: the devices' times pipelined over the ubatches of a batch when llama.cpp can
// (local devices only; RPC backends are synchronous), plus the network per ubatch
SpeedResult estimate_rig_prefill(const SpeedScenario& s, const SpeedParams& p, const Hardware& rig, const MemoryBreakdown& mb,
                                 int64_t n_embd, int64_t n_tokens, int64_t depth, RigSpeedTerms* terms = nullptr);
// one line for the explanation: "rig: 9.1 ms devices (slowest CUDA1 ...) + 0.6 ms hand-offs + 1.2 ms network"
std::string explain_rig_terms(const RigSpeedTerms& t);
}  // namespace llmsim
