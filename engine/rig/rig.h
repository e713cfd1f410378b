// The user's own machine as llama.cpp sees it: mixed-GPU rigs ("rtx-5080+rtx-5060-ti-16gb"), llama.cpp RPC hosts
// joined by a network link ("m2-ultra-192+m2-ultra-192@10gbe"), the links themselves (PCIe, NVLink, Ethernet,
// Thunderbolt) and the host RAM used for offload ("ddr5-6000x2").
//
//   const llmsim::Hardware* rig = llmsim::resolve_device(cat, "2x rtx-3090 + rtx-3060-12gb");   // resolve_device.h -> find_rig
//   // rig->rig[i].hw is each device, rig->rig[i].llama_name "CUDA0" ...; estimate_memory() splits by free memory
//   std::string err;
//   double gbs = 0;
//   llmsim::parse_host_memory("ddr5-6000x2", gbs, err);   // 96 GB/s
//
// Rig id grammar (spaces around '+' and after "Nx" are allowed):
//   rig    := part ('+' part)* [':' link]      link = the local GPU-to-GPU link, default PCIe 4.0 x16 (assumed)
//   part   := [N 'x' ['-'|' ']] device ['@' netlink]
//   device := a catalog hardware id (or alias); a part with '@' is one llama.cpp RPC server (rpc-server) with N devices
// llama.cpp's device order, which -ts indexes: RPC servers first in --rpc order, then the local GPUs
// (src/llama.cpp llama_model_load_from_file_impl: "add RPC servers at the front of the list to minimize network
// transfers").
//
// [SECTION] Links
// [SECTION] Host memory
// [SECTION] Rigs
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "catalog/catalog.h"

namespace llmsim {

// [SECTION] Links ----------------------------------------------------------------------------------------

struct LinkSpec {
    std::string id;           // "pcie4-x16", "nvlink", "10gbe", "tb5"
    std::string name;         // "PCIe 4.0 x16"
    double gbs = 0;           // payload bandwidth per direction, GB/s (1e9 bytes/s)
    double latency_us = 0;    // one request-response round trip, microseconds (network links; 0 for PCIe/NVLink,
                              // whose hand-off cost is the speed model's calibrated gpu_hop_ms)
    bool network = false;     // joins two hosts (llama.cpp RPC) rather than two GPUs of one host
    std::string source;       // where the figures come from, or "estimate: ..."
};
// the link named by id: pcie3|pcie4|pcie5 -x1|x4|x8|x16, nvlink, 1gbe, 2.5gbe, 5gbe, 10gbe, 25gbe, 40gbe, 100gbe,
// tb3, tb4, tb5 (case-insensitive); nullopt when unknown
std::optional<LinkSpec> find_link(const std::string& id);
// the ids find_link knows, for messages and pickers
std::vector<std::string> known_link_ids(bool network);

// [SECTION] Host memory ----------------------------------------------------------------------------------

// host RAM bandwidth when neither the request (--host-bw-gbs / --host-mem / the URL's host_bw) nor the catalog device
// gives one: dual-channel DDR5-4800 is 76.8 GB/s peak, DDR4-3200 51.2 GB/s; 60 GB/s sits between (estimate)
constexpr double kDefaultHostRamGbs = 60.0;

// peak bandwidth of "ddr4-3200x2" / "ddr5-6000x2" / "ddr5-4800x12" (type, MT/s, 64-bit channels):
// MT/s x 8 bytes x channels; false + err naming the format on bad input
bool parse_host_memory(const std::string& spec, double& gbs, std::string& err);

// [SECTION] Rigs -----------------------------------------------------------------------------------------

constexpr int kMaxRigDevices = 16;   // llama.cpp's LLAMA_MAX_DEVICES (include/llama.h)
constexpr size_t kMaxCachedRigs = 4096;   // distinct rigs one catalog keeps (find_rig returns nullptr past that)

// is `id` written in the rig grammar ('+' or '@' in it)? (a plain catalog id is not)
bool looks_like_rig(const std::string& id);
// build the rig an id describes; false + err naming the part that is wrong (unknown device, CPU in a rig, more
// than kMaxRigDevices devices, no common llama.cpp backend for the local GPUs, unknown link)
bool build_rig(const Catalog& cat, const std::string& id, Hardware& out, std::string& err);
// the rig for `id` from the catalog's rig cache, built on first use; nullptr when id is not a valid rig
const Hardware* find_rig(const Catalog& cat, const std::string& id);
// `local` plus RPC hosts "m2-ultra-192@10gbe,rtx-4090@2.5gbe" (the CLI's --rpc-hosts): the rig id of both
std::string rig_id_with_rpc_hosts(const std::string& local, const std::string& rpc_hosts);
// the llama-server --rpc value: one placeholder endpoint per RPC host ("192.168.1.11:50052,192.168.1.12:50052")
std::string rpc_endpoints(const Hardware& rig);
// hosts of a rig: 1 + the number of RPC servers
int rig_host_count(const Hardware& rig);

}  // namespace llmsim
