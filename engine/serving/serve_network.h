// The network between nodes for serving across nodes: which fabric (InfiniBand, RoCE, plain Ethernet), how many
// NICs each node has, and what one NCCL collective or pipeline hand-off costs over it. Only links that cross a
// node boundary come here; NVLink / PCIe inside a node keep their rule in serve_memory.cpp.
//
//   std::string err;
//   auto f = llmsim::serving::resolve_fabric("ib-ndr-x8", 0, 8, err);   // InfiniBand NDR, 8 NICs per node
//   NetLink l = cross_node_link(*f, /*ranks=*/16, /*gpus_per_node=*/8, /*intra_busbw_gbs=*/450);
//   double s = allreduce_seconds(l, 16, 7168 * 2 * 32);                 // one all-reduce of 32 tokens' hidden states
//
// The rules and their sources:
//   - bus bandwidth of a ring all-reduce that crosses nodes = what the node's NICs carry together (NCCL runs one
//     ring per NIC; each ring's two cross-node hops carry 2 (n-1)/n of its share; nccl-tests
//     doc/PERFORMANCE.md defines busbw = algbw x 2 (n-1)/n for all-reduce); capped by the NVLink bus bandwidth;
//   - time of one all-reduce of S bytes = latency + S x 2 (n-1)/n / busbw (nccl-tests' algbw = S / time);
//   - latency of a small cross-node all-reduce: measured with nccl-tests, not NCCL's own model, which is ~2x
//     lower (see kFabrics); it grows with log2(nodes) as NCCL's tree does (src/graph/tuning.cc: 2 x log2(nNodes)
//     x the network hop latency);
//   - a pipeline hand-off sends each TP rank's 1/tp of the hidden states over its NIC share (vLLM
//     distributed/parallel_state.py send_tensor_dict with all_gather_group).
#pragma once
#include <optional>
#include <string>
#include <vector>

namespace llmsim::serving {

struct Fabric {
    const char* id;                // "ib-ndr": the `interconnect` value
    const char* name;              // "InfiniBand NDR 400 Gb/s"
    double nic_gbit_s;             // line rate of one NIC port, Gb/s (decimal gigabits)
    bool rdma;                     // GPUDirect RDMA (IB, RoCE) vs TCP sockets (NCCL's socket transport)
    double busbw_eff;              // share of the NICs' line rate an all-reduce's busbw reaches (large messages)
    double allreduce_lat_us;       // small all-reduce across 2 nodes, measured (nccl-tests), microseconds
    double hop_lat_us;             // one point-to-point send across nodes (PP hand-off), microseconds
    double per_doubling_us;        // added latency per doubling of the node count beyond 2 (tree depth)
    bool one_nic_per_gpu;          // the usual build: a NIC per GPU (HGX / DGX rails) vs one per node
    const char* source;
};

// the fabrics `interconnect` accepts, in a fixed order
const std::vector<Fabric>& fabrics();
// the fabric for an `interconnect` value ("ib-ndr", "roce-200-x1", "network" = the default InfiniBand NDR, one
// NIC per GPU); nics_per_node 0 = the "-xN" suffix or the fabric's default (a NIC per GPU, or 1). nullopt +
// err naming the value when it is not a fabric (the caller then tries nvlink / pcie). `is_fabric_name` tells
// whether the value names a fabric at all (no error text needed)
struct FabricChoice { Fabric fabric; int nics_per_node = 1; bool stated = true; };
std::optional<FabricChoice> resolve_fabric(const std::string& interconnect, int nics_per_node, int gpus_per_node,
                                           std::string& err);
bool is_fabric_name(const std::string& interconnect);

// one cross-node group of ranks over a fabric
struct NetLink {
    int nodes = 1;                 // nodes the group spans
    double busbw_gbs = 0;          // all-reduce bus bandwidth, GB/s (decimal)
    double allreduce_lat_us = 0;   // latency of one small all-reduce over the whole group
    double hop_gbs = 0;            // one GPU's share of the NICs for a point-to-point send, GB/s
    double hop_lat_us = 0;
};
NetLink cross_node_link(const FabricChoice& f, int ranks, int gpus_per_node, double intra_busbw_gbs);
// seconds of one all-reduce of `bytes` (per rank) over `ranks` ranks on the link
double allreduce_seconds(const NetLink& l, int ranks, double bytes);
// seconds of one cross-node hand-off of `bytes` from each sending GPU
double hop_seconds(const NetLink& l, double bytes);
// one line that explains the link: fabric, NICs, busbw, latency (serve --explain and the notes)
std::string describe_link(const FabricChoice& f, const NetLink& l);

}  // namespace llmsim::serving
