// llmsim input limits: the one set of input ranges every front end accepts (CLI options, the JSON memory API, the URL
// state), and the defaults the engine assumes when an input is absent. A value outside a range gets a message
// naming the range; the engine never clamps silently.
//
//   if (n_ctx < 1 || n_ctx > llmsim::kMaxContextTokens) { err = "ctx must be ..."; }
#pragma once
#include <cstddef>
#include <cstdint>

namespace llmsim {

// context tokens: 1 .. 10 M (the largest native contexts in the catalog are 10 M; memory grows linearly past that)
constexpr int64_t kMaxContextTokens = 10000000;
// -ngl: -1 (all layers) .. 10000 layers; --n-cpu-moe: 0 .. 10000 (the config importer's own layer limit is 10000)
constexpr int kMaxGpuLayers = 10000;
// GPUs in one rig: 1 .. 1024
constexpr int kMaxGpus = 1024;
// memory bandwidth per device, GB/s (1e9 bytes/s): 0.1 .. 100000 (100 TB/s)
constexpr double kMinBandwidthGbs = 0.1;
constexpr double kMaxBandwidthGbs = 100000;
// parallel sequences (-np): 1 .. 1024
constexpr int kMaxParallelSequences = 1024;
// physical batch (--ubatch): 1 .. 65536 tokens
constexpr int kMaxUbatch = 65536;
// host<->GPU and GPU<->GPU bandwidth when the catalog names no link: PCIe 4.0 x16, ~25 GB/s (1e9 bytes/s) per
// direction in practice (32 GB/s nominal)
constexpr double kDefaultPcieGbs = 25.0;

// a contributed-runs file (evidence/contributed.h): at most 4 MiB and 5000 records (a llama-bench sweep is a few
// hundred; the project's own calibration files are under 1000 rows each), and a contributor's note of 500 bytes
constexpr size_t kContributedMaxBytes = 4u << 20;
constexpr int kContributedMaxRows = 5000;
constexpr size_t kContributionNoteMaxBytes = 500;

// one MCP message (`llmsim-cli mcp`: newline-delimited JSON-RPC on stdin): at most 1 MiB and 64 levels of nesting. A
// tools/call is a few hundred bytes; one carrying an inline config.json a few KiB
constexpr size_t kMcpMaxMessageBytes = 1u << 20;
constexpr int kMcpMaxJsonDepth = 64;

}  // namespace llmsim
