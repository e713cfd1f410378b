// Fabrics between nodes and the cost of NCCL collectives over them (serve_network.h says which rule comes from where).
#include "serving/serve_network.h"

#include "serving/serving_internal.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace llmsim::serving {

namespace {

// Latency sources. InfiniBand: nccl-tests#182 (an InfiniBand cluster, all_reduce_perf out-of-place 40.6-49.7 us from
// 8 B to 1 KB): 45 us; NCCL's own tuning model prints 25.2 us for 64 B on 2 x 8 H100 (nccl#1453, "64 Bytes -> Algo 0
// proto 0 time 25.207382"), so the model alone is ~2x optimistic and the measurement is used. Hand-off: NCCL's ring
// Simple base 8.4 us + one network hop 9.6 us (src/graph/tuning.cc baseLat / hwLat[NET], NVIDIA/nccl@01afd20a) = 18.
// Per doubling of nodes: the tree's 2 x hwLat[NET][Tree][LL] = 2 x 5.0 us. busbw_eff 0.92: the 120/128 payload of
// NCCL's LL128 lines (tuning.cc). RoCE: RDMA verbs like IB; no small-message measurement found, the IB latency is
// assumed; 0.71 of line rate is measured: nccl-tests all_reduce_perf between two GH200 nodes over 4 x 200 Gb/s
// Ethernet RDMA gave busbw 70.83 GB/s of 100 (vllm-project/vllm#6610, 512 KB - 1 GB). Ethernet without RDMA goes
// through NCCL's socket transport (host copies, a proxy thread); no measurement found: 4x the IB latency and 0.7 of
// line rate are assumptions, flagged in the source field.
const char* kIbSrc = "latency: nccl-tests#182 (small all-reduce on InfiniBand 40.6-49.7 us); busbw 0.92 of line rate: NCCL tuning.cc LL128 120/128";
const char* kRoceSrc = "RDMA like InfiniBand; latency assumed equal to IB's (no measurement found); busbw 0.71 of line rate: vllm#6610 nccl-tests (4 x 200 GbE, 70.83 GB/s)";
const char* kEthSrc = "NCCL socket transport, no RDMA ('NET/Socket ... perform poorly for cross-node tensor parallelism', vLLM docs/serving/distributed_serving.md); latency 4x IB's and 0.7 of line rate are assumptions (no measurement found)";

const std::vector<Fabric> kFabrics = {
    {"ib-xdr", "InfiniBand XDR 800 Gb/s", 800, true, 0.92, 45, 18, 10, true, kIbSrc},
    {"ib-ndr", "InfiniBand NDR 400 Gb/s", 400, true, 0.92, 45, 18, 10, true, kIbSrc},
    {"ib-hdr", "InfiniBand HDR 200 Gb/s", 200, true, 0.92, 45, 18, 10, true, kIbSrc},
    {"roce-400", "RoCE 400 GbE", 400, true, 0.71, 45, 18, 10, true, kRoceSrc},
    {"roce-200", "RoCE 200 GbE", 200, true, 0.71, 45, 18, 10, true, kRoceSrc},
    {"roce-100", "RoCE 100 GbE", 100, true, 0.71, 45, 18, 10, false, kRoceSrc},
    {"ethernet-100", "Ethernet 100 GbE (TCP, no RDMA)", 100, false, 0.70, 180, 72, 40, false, kEthSrc},
    {"ethernet-25", "Ethernet 25 GbE (TCP, no RDMA)", 25, false, 0.70, 180, 72, 40, false, kEthSrc},
    {"ethernet-10", "Ethernet 10 GbE (TCP, no RDMA)", 10, false, 0.70, 180, 72, 40, false, kEthSrc},
};

std::string fabric_list() {
    std::string s;
    for (const Fabric& f : kFabrics) s += (s.empty() ? "" : ", ") + std::string(f.id);
    return s + ", network (= ib-ndr, a NIC per GPU); optional -xN: N NICs per node";
}

}  // namespace

const std::vector<Fabric>& fabrics() { return kFabrics; }

bool is_fabric_name(const std::string& ic) {
    if (ic == "network") return true;
    for (const Fabric& f : kFabrics)
        if (ic.compare(0, std::string(f.id).size(), f.id) == 0) return true;
    return false;
}

std::optional<FabricChoice> resolve_fabric(const std::string& ic, int nics_per_node, int gpus_per_node, std::string& err) {
    FabricChoice c;
    std::string base = ic;
    int nics = 0;
    // "-xN": N NICs per node ("ib-xdr" has an "-x" too: a suffix only when a digit follows)
    if (size_t x = ic.rfind("-x"); x != std::string::npos && x + 2 < ic.size() && std::isdigit((unsigned char)ic[x + 2])) {
        char* end = nullptr;
        long n = std::strtol(ic.c_str() + x + 2, &end, 10);
        if (*end != '\0' || n < 1 || n > 64) { err = "interconnect: '" + ic + "' has a bad NIC count (-x1 .. -x64)"; return std::nullopt; }
        base = ic.substr(0, x); nics = (int)n;
    }
    if (base == "network") { base = "ib-ndr"; c.stated = false; }
    const Fabric* f = nullptr;
    for (const Fabric& k : kFabrics) if (base == k.id) f = &k;
    if (!f) { err = "interconnect: unknown '" + ic + "' (nvlink, pcie, " + fabric_list() + ")"; return std::nullopt; }
    if (nics_per_node < 0 || nics_per_node > 64) { err = "nics_per_node: " + std::to_string(nics_per_node) + " (1 to 64; 0 = the fabric's default)"; return std::nullopt; }
    if (nics_per_node > 0) nics = nics_per_node;
    if (nics == 0) nics = f->one_nic_per_gpu ? std::max(1, gpus_per_node) : 1;
    c.fabric = *f;
    c.nics_per_node = nics;
    return c;
}

NetLink cross_node_link(const FabricChoice& f, int ranks, int gpus_per_node, double intra_busbw_gbs) {
    NetLink l;
    int gpn = std::max(1, gpus_per_node);
    l.nodes = std::max(2, (ranks + gpn - 1) / gpn);
    double nic_gbs = f.fabric.nic_gbit_s / 8.0;
    // every ring that NCCL builds crosses the node boundary through one NIC; the node's NICs carry the rings
    // together, so the bus bandwidth is the node's NIC total (capped by the NVLink bus bandwidth inside it)
    l.busbw_gbs = nic_gbs * f.nics_per_node * f.fabric.busbw_eff;
    if (intra_busbw_gbs > 0) l.busbw_gbs = std::min(l.busbw_gbs, intra_busbw_gbs);
    l.allreduce_lat_us = f.fabric.allreduce_lat_us + f.fabric.per_doubling_us * std::max(0.0, std::log2((double)l.nodes) - 1.0);
    // a hand-off: the node's GPUs send at once and share its NICs
    int ranks_node = std::min(gpn, std::max(1, ranks / l.nodes));
    l.hop_gbs = nic_gbs * f.fabric.busbw_eff * std::min(1.0, (double)f.nics_per_node / ranks_node);
    l.hop_lat_us = f.fabric.hop_lat_us;
    return l;
}

double allreduce_seconds(const NetLink& l, int ranks, double bytes) {
    if (ranks <= 1) return 0;
    return l.allreduce_lat_us * 1e-6 + bytes * 2.0 * (ranks - 1) / ranks / (l.busbw_gbs * 1e9);
}

double hop_seconds(const NetLink& l, double bytes) { return l.hop_lat_us * 1e-6 + bytes / (l.hop_gbs * 1e9); }

std::string describe_link(const FabricChoice& f, const NetLink& l) {
    char b[320];
    snprintf(b, sizeof b, "%s x %d NICs per node%s, %d nodes: all-reduce bus bandwidth %.0f GB/s, %.0f us per small all-reduce, "
             "hand-off %.1f GB/s per GPU + %.0f us", f.fabric.name, f.nics_per_node, f.stated ? "" : " (assumed: no fabric given)",
             l.nodes, l.busbw_gbs, l.allreduce_lat_us, l.hop_gbs, l.hop_lat_us);
    return b;
}

}  // namespace llmsim::serving

namespace llmsim {

namespace serving {

std::vector<std::string> network_lines(const ReplicaShape& s, int gpus_per_node, const StepBreakdown& st) {
    std::vector<std::string> out;
    char b[400];
    if (!s.crosses_network) {
        snprintf(b, sizeof b, "network: none; tp %d x pp %d fits one node of %d GPUs (all-reduce over the in-node link, %.0f GB/s per "
                 "direction, %.0f us)", s.tp, s.pp, gpus_per_node, s.link_gbs, s.link_latency_us);
        out.push_back(b);
        return out;
    }
    out.push_back("network: " + s.net_explain);
    double mb = s.pp > 1 ? std::max(1.0, (double)st.batch / s.pp) : std::max(1, st.batch);
    double bytes = mb * s.hidden * 2.0;
    if (s.tp_net) {
        double one = allreduce_seconds(s.tp_link, s.tp, bytes);
        snprintf(b, sizeof b, "  TP all-reduce across %d nodes: 2 per layer x %d layers x pp %d x (%.0f us + %.0f KB x 2 x %d/%d / %.0f GB/s) "
                 "= %.2f ms per decode step at batch %d (NCCL ring busbw rule, nccl-tests PERFORMANCE.md)", s.tp_link.nodes,
                 s.layers_stage, s.pp, s.tp_link.allreduce_lat_us, bytes / 1e3, s.tp - 1, s.tp, s.tp_link.busbw_gbs,
                 2.0 * s.layers_stage * s.pp * one * 1e3, st.batch);
        out.push_back(b);
    }
    if (s.pp_net_hops > 0) {
        double one = hop_seconds(s.pp_link, bytes / s.tp);
        snprintf(b, sizeof b, "  PP hand-off across nodes: %d boundary(ies) x (%.0f us + %.0f KB per GPU / %.1f GB/s) = %.3f ms per step "
                 "(each TP rank sends 1/tp of the hidden states, vLLM send_tensor_dict)", s.pp_net_hops, s.pp_link.hop_lat_us,
                 bytes / s.tp / 1e3, s.pp_link.hop_gbs, s.pp_net_hops * one * 1e3);
        out.push_back(b);
    }
    snprintf(b, sizeof b, "  network %.2f ms of a %.2f ms step (%.0f %%); in-node communication %.2f ms", st.network_s * 1e3, st.step_s * 1e3,
             st.network_share * 100, (st.allreduce_s - st.network_s) * 1e3);
    out.push_back(b);
    return out;
}

}  // namespace serving

bool explain_network(const Catalog& cat, const ServeRequest& req, const StepBreakdown& st, std::vector<std::string>& out,
                     std::string& err) {
    serving::ReplicaShape s;
    if (!serving::build_shape(cat, req, s, err)) return false;
    out = serving::network_lines(s, req.gpus_per_node, st);
    return true;
}

}  // namespace llmsim
