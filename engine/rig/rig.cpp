// Mixed rigs, RPC hosts, links and host memory (rig.h).
#include "rig/rig.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>

#include "memory/memory.h"
#include "core/text.h"

namespace llmsim {

namespace {

// a whole unsigned decimal number in [lo, hi]
bool parse_uint(const std::string& s, long lo, long hi, long& out) {
    if (s.empty() || s.size() > 9) return false;
    for (char c : s)
        if (!std::isdigit((unsigned char)c)) return false;
    out = std::strtol(s.c_str(), nullptr, 10);
    return out >= lo && out <= hi;
}

// Ethernet payload share with a 1500-byte MTU: 1448 B of TCP payload (20 IP + 20 TCP + 12 timestamp option) per
// 1538 B on the wire (+ 14 header, 4 FCS, 8 preamble, 12 gap) = 94.1 % (IEEE 802.3 framing arithmetic)
constexpr double kTcpOverEthernetShare = 1448.0 / 1538.0;

struct NetRow {
    const char* id;
    const char* name;
    double line_gbit;        // signalling rate, Gbit/s
    double payload_share;    // TCP payload / line rate
    double rtt_us;           // round trip, microseconds
    const char* source;
};

const NetRow kNetLinks[] = {
    {"1gbe", "1 Gigabit Ethernet", 1, kTcpOverEthernetShare, 150,
     "line rate IEEE 802.3ab (1000BASE-T); payload = TCP over 1500-byte MTU frames; round trip 150 us: estimate (kernel TCP through a switch)"},
    {"2.5gbe", "2.5 Gigabit Ethernet", 2.5, kTcpOverEthernetShare, 120,
     "line rate IEEE 802.3bz (2.5GBASE-T); payload = TCP over 1500-byte MTU frames; round trip 120 us: estimate"},
    {"5gbe", "5 Gigabit Ethernet", 5, kTcpOverEthernetShare, 100,
     "line rate IEEE 802.3bz (5GBASE-T); payload = TCP over 1500-byte MTU frames; round trip 100 us: estimate"},
    {"10gbe", "10 Gigabit Ethernet", 10, kTcpOverEthernetShare, 60,
     "line rate IEEE 802.3ae/an (10GBASE-SR/-T); payload = TCP over 1500-byte MTU frames; round trip 60 us: estimate"},
    {"25gbe", "25 Gigabit Ethernet", 25, kTcpOverEthernetShare, 40,
     "line rate IEEE 802.3by (25GBASE-SR); payload = TCP over 1500-byte MTU frames; round trip 40 us: estimate"},
    {"40gbe", "40 Gigabit Ethernet", 40, kTcpOverEthernetShare, 35,
     "line rate IEEE 802.3ba (40GBASE-SR4); payload = TCP over 1500-byte MTU frames; round trip 35 us: estimate"},
    {"100gbe", "100 Gigabit Ethernet", 100, kTcpOverEthernetShare, 30,
     "line rate IEEE 802.3ba/bm (100GBASE-SR4); payload = TCP over 1500-byte MTU frames (one TCP stream rarely fills it); round trip 30 us: estimate"},
    // Thunderbolt networking (macOS Thunderbolt Bridge, Linux thunderbolt-net) carries IP far below the link rate
    {"tb3", "Thunderbolt 3 networking", 40, 0.25, 80,
     "link 40 Gbit/s (Intel Thunderbolt 3); IP throughput ~10 Gbit/s: estimate (users report 10-20 Gbit/s iperf3 over Thunderbolt Bridge); round trip 80 us: estimate"},
    {"tb4", "Thunderbolt 4 / USB4 networking", 40, 0.375, 70,
     "link 40 Gbit/s (Intel Thunderbolt 4 / USB4 40G); IP throughput ~15 Gbit/s: estimate (users report 10-20 Gbit/s iperf3 over Thunderbolt Bridge); round trip 70 us: estimate"},
    {"tb5", "Thunderbolt 5 networking", 80, 0.5, 60,
     "link 80 Gbit/s symmetric (Intel Thunderbolt 5); IP throughput ~40 Gbit/s: estimate; round trip 60 us: estimate"},
};

// PCIe per-lane rate per direction after line encoding (PCI-SIG: 3.0 = 8 GT/s 128b/130b, 4.0 = 16 GT/s,
// 5.0 = 32 GT/s): 0.985, 1.969, 3.938 GB/s
double pcie_lane_gbs(int gen) { return gen == 3 ? 0.985 : gen == 4 ? 1.969 : gen == 5 ? 3.938 : 0; }

}  // namespace

// [SECTION] Links ----------------------------------------------------------------------------------------

std::optional<LinkSpec> find_link(const std::string& raw) {
    const std::string id = lower_ascii(trim_space(raw));
    for (const NetRow& r : kNetLinks)
        if (id == r.id) {
            LinkSpec l;
            l.id = r.id;
            l.name = r.name;
            l.gbs = r.line_gbit / 8.0 * r.payload_share;
            l.latency_us = r.rtt_us;
            l.network = true;
            l.source = r.source;
            return l;
        }
    if (id == "nvlink" || id == "nvlink3") {
        LinkSpec l;
        l.id = "nvlink";
        l.name = "NVLink bridge (RTX 3090 / A-series, 4 links)";
        l.gbs = 56.25;
        l.source = "NVIDIA: NVLink bridge for GeForce RTX 3090, 112.5 GB/s total = 56.25 GB/s per direction";
        return l;
    }
    // pcieG-xN
    if (id.size() >= 8 && id.compare(0, 4, "pcie") == 0 && id[5] == '-' && id[6] == 'x') {
        const int gen = id[4] - '0';
        long lanes = 0;
        if (pcie_lane_gbs(gen) > 0 && parse_uint(id.substr(7), 1, 16, lanes) &&
            (lanes == 1 || lanes == 4 || lanes == 8 || lanes == 16)) {
            LinkSpec l;
            l.id = id;
            l.name = "PCIe " + std::to_string(gen) + ".0 x" + std::to_string(lanes);
            l.gbs = pcie_lane_gbs(gen) * (double)lanes;
            l.source = "PCI-SIG line rate after 128b/130b encoding, per direction (" + std::to_string(gen) + ".0: " +
                       (gen == 3 ? "8" : gen == 4 ? "16" : "32") + " GT/s per lane)";
            return l;
        }
    }
    return std::nullopt;
}

std::vector<std::string> known_link_ids(bool network) {
    std::vector<std::string> out;
    if (network) {
        for (const NetRow& r : kNetLinks) out.push_back(r.id);
    } else {
        for (const char* g : {"pcie3", "pcie4", "pcie5"})
            for (const char* x : {"x4", "x8", "x16"}) out.push_back(std::string(g) + "-" + x);
        out.push_back("nvlink");
    }
    return out;
}

// [SECTION] Host memory ----------------------------------------------------------------------------------

bool parse_host_memory(const std::string& raw, double& gbs, std::string& err) {
    const std::string s = lower_ascii(trim_space(raw));
    const std::string want = "host memory '" + raw + "': write TYPE-MTSxCHANNELS, e.g. ddr5-6000x2 (two 64-bit channels of DDR5-6000) or ddr4-3200x8";
    const size_t dash = s.find('-'), x = s.rfind('x');
    if (dash == std::string::npos || x == std::string::npos || x < dash) { err = want; return false; }
    const std::string type = s.substr(0, dash);
    long mts = 0, ch = 0;
    if (!parse_uint(s.substr(dash + 1, x - dash - 1), 1, 100000, mts) || !parse_uint(s.substr(x + 1), 1, 100000, ch)) {
        err = want;
        return false;
    }
    // JEDEC speed grades (DDR4: JESD79-4 1600-3200, overclocked kits to ~5333; DDR5: JESD79-5 3200-8800, kits to ~9600)
    long lo = 0, hi = 0;
    if (type == "ddr4") { lo = 1600; hi = 5333; }
    else if (type == "ddr5") { lo = 3200; hi = 9600; }
    else { err = "host memory '" + raw + "': type must be ddr4 or ddr5 (got '" + type + "')"; return false; }
    if (mts < lo || mts > hi) {
        err = "host memory '" + raw + "': " + type + " runs at " + std::to_string(lo) + " to " + std::to_string(hi) + " MT/s (got " + std::to_string(mts) + ")";
        return false;
    }
    if (ch > 24) { err = "host memory '" + raw + "': 1 to 24 channels (got " + std::to_string(ch) + ")"; return false; }
    gbs = (double)mts * 8.0 * (double)ch / 1000.0;   // a 64-bit channel moves 8 bytes per transfer
    return true;
}

// [SECTION] Rigs -----------------------------------------------------------------------------------------

bool looks_like_rig(const std::string& id) {
    return id.find('+') != std::string::npos || id.find('@') != std::string::npos;
}

namespace {

struct RigPart {
    int count = 1;
    const Hardware* hw = nullptr;
    std::optional<LinkSpec> net;   // set = one RPC server
    std::string text;
};

// "2x rtx-3090", "2x-rtx-3090", "rtx-4090@10gbe", "m2-ultra-192 @ tb5"
bool parse_part(const Catalog& cat, const std::string& raw, RigPart& p, std::string& err) {
    std::string s = trim_space(raw);
    p.text = s;
    if (s.empty()) { err = "an empty part (two '+' in a row, or a '+' at an end)"; return false; }
    const size_t at = s.find('@');
    if (at != std::string::npos) {
        const std::string net = trim_space(s.substr(at + 1));
        p.net = find_link(net);
        if (!p.net || !p.net->network) {
            std::string ids;
            for (const std::string& l : known_link_ids(true)) ids += (ids.empty() ? "" : ", ") + l;
            err = "'" + s + "': unknown network link '" + net + "' (one of " + ids + ")";
            return false;
        }
        s = trim_space(s.substr(0, at));
    }
    // "Nx" count prefix
    size_t i = 0;
    while (i < s.size() && std::isdigit((unsigned char)s[i])) ++i;
    if (i > 0 && i < s.size() && (s[i] == 'x' || s[i] == 'X') && i + 1 < s.size() && (s[i + 1] == ' ' || s[i + 1] == '-')) {
        long n = 0;
        if (!parse_uint(s.substr(0, i), 1, kMaxRigDevices, n)) {
            err = "'" + p.text + "': the count must be 1 to " + std::to_string(kMaxRigDevices);
            return false;
        }
        p.count = (int)n;
        s = trim_space(s.substr(i + 2));
    }
    p.hw = cat.find_hardware(s);
    if (!p.hw) { err = "'" + p.text + "': unknown device '" + s + "' (llmsim-cli catalog --hardware lists them)"; return false; }
    if (!p.hw->rig.empty()) { err = "'" + p.text + "': a rig inside a rig"; return false; }
    if (p.hw->kind == HardwareKind::Cpu) {
        err = "'" + p.text + "' is a CPU; a rig lists GPUs (set the host RAM with --host-ram-gib / --host-mem instead)";
        return false;
    }
    p.count *= std::max(1, p.hw->gpu_count);   // "2x-rtx-3090" from the catalog: two cards
    return true;
}

// the first backend of the first local device that every local device lists (llama.cpp runs one backend per
// device type; different vendors in one process meet in Vulkan)
bool common_backend(const std::vector<const Hardware*>& local, Backend& out, std::string& err) {
    for (Backend b : local.front()->backends) {
        bool all = true;
        for (const Hardware* h : local) all &= std::find(h->backends.begin(), h->backends.end(), b) != h->backends.end();
        if (all) { out = b; return true; }
    }
    err = "no llama.cpp backend drives all of the local devices in one process (put some behind an rpc-server: DEVICE@10gbe)";
    return false;
}

Hardware single_card(const Hardware& h) {
    Hardware c = h;
    c.gpu_count = 1;
    c.rig.clear();
    return c;
}

}  // namespace

bool build_rig(const Catalog& cat, const std::string& raw_id, Hardware& out, std::string& err) {
    std::string id = trim_space(raw_id), local_link_id;
    const std::string what = "rig '" + raw_id + "': ";
    const size_t colon = id.rfind(':');
    if (colon != std::string::npos) { local_link_id = trim_space(id.substr(colon + 1)); id = trim_space(id.substr(0, colon)); }
    std::vector<RigPart> parts;
    for (const std::string& t : split_on(id, '+')) {
        RigPart p;
        if (!parse_part(cat, t, p, err)) { err = what + err; return false; }
        parts.push_back(p);
    }
    int total = 0, n_local = 0;
    std::vector<const Hardware*> local;
    for (const RigPart& p : parts) {
        total += p.count;
        if (!p.net) { n_local += p.count; for (int k = 0; k < p.count; ++k) local.push_back(p.hw); }
    }
    if (n_local == 0) { err = what + "no local device: the first machine runs llama-server (write its GPU without '@')"; return false; }
    if (total > kMaxRigDevices) { err = what + std::to_string(total) + " devices; llama.cpp takes at most " + std::to_string(kMaxRigDevices); return false; }
    for (const Hardware* h : local)
        if (h->unified_memory() && n_local > 1) {
            err = what + "'" + h->id + "' has unified memory and is the whole machine; join another machine with '@' (RPC)";
            return false;
        }
    Backend backend = Backend::Cuda;
    if (!common_backend(local, backend, err)) { err = what + err; return false; }
    LinkSpec link;
    if (!local_link_id.empty()) {
        std::optional<LinkSpec> l = find_link(local_link_id);
        if (!l || l->network) { err = what + "unknown GPU link '" + local_link_id + "' (pcie4-x16, pcie4-x8, pcie3-x4, nvlink, ...)"; return false; }
        link = *l;
    } else {
        link = *find_link("pcie4-x16");   // assumed, as for the 2x/4x/8x combinations (gpu_combos.cpp)
    }

    Hardware r = single_card(*local.front());
    r.rig.clear();
    // llama.cpp's order: RPC servers first (in --rpc order), then the local GPUs
    int rpc_index = 0, host = 0, local_index = 0;
    std::string canon_rpc, canon_local, name_rpc, name_local;
    for (int pass = 0; pass < 2; ++pass)
        for (const RigPart& p : parts) {
            if ((pass == 0) != p.net.has_value()) continue;
            const std::string cid = (p.count > 1 ? std::to_string(p.count) + "x-" : "") + (p.count > 1 && p.hw->gpu_count > 1 ? single_card(*p.hw).id : p.hw->id);
            const std::string cname = (p.count > 1 ? std::to_string(p.count) + "x " : "") + p.hw->name;
            if (p.net) {
                ++host;
                canon_rpc += "+" + cid + "@" + p.net->id;
                name_rpc += " + " + cname + " (RPC over " + p.net->name + ")";
            } else {
                canon_local += (canon_local.empty() ? "" : "+") + cid;
                name_local += (name_local.empty() ? "" : " + ") + cname;
            }
            for (int k = 0; k < p.count; ++k) {
                RigDevice d;
                d.hw = single_card(*p.hw);
                if (p.net) {
                    d.host = host;
                    d.host_label = p.text;
                    d.net_link = p.net->id;
                    d.net_gbs = p.net->gbs;
                    d.net_latency_us = p.net->latency_us;
                    d.llama_name = "RPC" + std::to_string(rpc_index++);
                } else {
                    d.hw.backends = {backend};
                    d.llama_name = n_local == 1 && backend == Backend::Metal ? std::string("Metal")
                                   : std::string(backend_device_prefix(backend)) + std::to_string(local_index);
                    ++local_index;
                }
                r.rig.push_back(d);
            }
        }
    r.id = canon_local + canon_rpc + (local_link_id.empty() ? "" : ":" + link.id);
    r.name = name_local + name_rpc;
    r.gpu_count = total;
    r.backends = {backend};
    r.link = link.id;
    r.link_gbs = link.gbs;
    uint64_t mem = 0;
    double price = 0;
    bool priced = true;
    for (const RigDevice& d : r.rig) {
        mem += (uint64_t)std::max<int64_t>(0, d.hw.memory_bytes);
        r.bandwidth_gbs = std::min(r.bandwidth_gbs, d.hw.bandwidth_gbs);
        if (d.hw.fp16_tflops > 0) r.fp16_tflops = std::min(r.fp16_tflops > 0 ? r.fp16_tflops : d.hw.fp16_tflops, d.hw.fp16_tflops);
        if (d.hw.vendor != r.vendor) r.vendor = "mixed";
        price += d.hw.price_usd;
        priced &= d.hw.price_usd > 0;
    }
    // the rig's own family (its scenario's; each device keeps its own): the first local GPU's, the class row when
    // the vendors differ
    if (r.vendor == "mixed") r.chip_family = class_chip_family(r.kind);
    r.memory_bytes = (int64_t)(mem / (uint64_t)total);   // the mean: memory_bytes x gpu_count stays the rig's total
    r.price_usd = priced ? price : 0;
    r.price_used_usd = 0;
    r.cloud_usd_per_hour = 0;
    r.seed_aliases.clear();
    r.calibration_names.clear();
    r.tool_names.clear();
    r.sources.clear();
    r.notes = {"user rig: per-device memory and speed from each catalog device; llama.cpp layer split (-sm layer) by "
               "free memory unless -ts is given; GPU link " + link.name + (local_link_id.empty() ? " (assumed)" : "")};
    out = std::move(r);
    return true;
}

const Hardware* find_rig(const Catalog& cat, const std::string& id) {
    if (!looks_like_rig(id) || id.size() > 1000 || !cat.rig_cache) return nullptr;
    RigCache& cache = *cat.rig_cache;
    {
        std::lock_guard<std::mutex> lock(cache.mu);
        for (const Hardware& h : cache.rigs)
            if (h.id == id) return &h;
        for (const auto& s : cache.spellings)
            if (s.first == id) return s.second;
    }
    Hardware h;
    std::string err;
    if (!build_rig(cat, id, h, err)) return nullptr;
    std::lock_guard<std::mutex> lock(cache.mu);
    const Hardware* found = nullptr;
    for (const Hardware& c : cache.rigs)
        if (c.id == h.id) found = &c;   // another spelling of a rig built before
    if (!found) {
        if (cache.rigs.size() >= kMaxCachedRigs) return nullptr;   // bounded: a stream of distinct ids cannot grow it
        cache.rigs.push_back(std::move(h));
        found = &cache.rigs.back();
    }
    if (id != found->id && cache.spellings.size() < 4096) cache.spellings.emplace_back(id, found);
    return found;
}

std::string rig_id_with_rpc_hosts(const std::string& local, const std::string& rpc_hosts) {
    std::string id = trim_space(local);
    for (const std::string& h : split_on(rpc_hosts, ',')) {
        const std::string t = trim_space(h);
        if (!t.empty()) id += "+" + t;
    }
    return id;
}

std::string rpc_endpoints(const Hardware& rig) {
    std::string out;
    int last = 0;
    for (const RigDevice& d : rig.rig)
        if (d.host > last) {
            last = d.host;
            // rpc-server's default port is 50052 (tools/rpc/rpc-server.cpp); the addresses are placeholders
            out += (out.empty() ? "" : ",") + std::string("192.168.1.") + std::to_string(10 + d.host) + ":50052";
        }
    return out;
}

int rig_host_count(const Hardware& rig) {
    int hosts = 0;
    for (const RigDevice& d : rig.rig) hosts = std::max(hosts, d.host);
    return hosts + 1;
}

}  // namespace llmsim
