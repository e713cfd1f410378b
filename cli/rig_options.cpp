// The rig options shared by memory and fit (commands.h RIG_OPTIONS): --hardware as a catalog id, a rig id
// ("rtx-5080+rtx-5060-ti-16gb") or "auto", --rpc-hosts, --tensor-split, --split-mode, --main-gpu and host RAM.
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <sstream>

#include "commands.h"
#include "core/input_limits.h"
#include "rig/resolve_device.h"
#include "rig/rig.h"

namespace llmsim::cli {

namespace {

bool number(const std::string& s, double lo, double hi, double& out) {
    if (s.empty()) return false;
    char* end = nullptr;
    errno = 0;
    const double d = std::strtod(s.c_str(), &end);   // main() runs in the "C" locale
    if (errno != 0 || *end != '\0' || !(d >= lo && d <= hi)) return false;
    out = d;
    return true;
}

}  // namespace

bool resolve_hardware_option(const Args& a, const char* cmd, const Catalog& cat, const Hardware*& hw, MemoryRequest& r,
                             std::string& err) {
    const std::string* given = a.get("hardware");
    const std::string* rpc = a.get("rpc-hosts");
    if (!given) { err = std::string(cmd) + ": --rpc-hosts needs --hardware (the machine llama-server runs on)"; return false; }
    std::string id = *given;
    if (id == "auto") {
        std::string summary;
        uint64_t ram = 0;
        if (!detect_this_machine(cat, id, ram, summary, err)) { err = std::string(cmd) + ": --hardware auto: " + err; return false; }
        if (ram > 0 && !r.host_ram_bytes) r.host_ram_bytes = ram;   // --host-ram-gib, read later, still wins
        fprintf(stderr, "llmsim-cli: --hardware auto: %s\n", summary.c_str());
    }
    if (rpc) id = rig_id_with_rpc_hosts(id, *rpc);
    std::string rig_err;
    hw = resolve_device(cat, id, rig_err);
    if (!rig_err.empty()) { err = std::string(cmd) + ": --hardware: " + rig_err; return false; }
    if (!hw) { err = std::string(cmd) + ": unknown --hardware '" + id + "' (llmsim-cli catalog --hardware lists them)"; return false; }
    return true;
}

bool apply_rig_options(const Args& a, const char* cmd, MemoryRequest& r, std::string& err) {
    const std::string c = cmd;
    if (const std::string* s = a.get("tensor-split")) {
        r.tensor_split.clear();
        std::stringstream ss(*s);
        std::string item;
        while (std::getline(ss, item, ',')) {
            double v;
            if (!number(item, 0, 1e9, v)) { err = c + ": --tensor-split wants proportions >= 0 separated by commas, e.g. 3,1 (got '" + *s + "')"; return false; }
            r.tensor_split.push_back(v);
        }
        if (r.tensor_split.empty() || (int)r.tensor_split.size() > kMaxRigDevices) {
            err = c + ": --tensor-split wants 1 to " + std::to_string(kMaxRigDevices) + " proportions (got '" + *s + "')";
            return false;
        }
    }
    if (const std::string* s = a.get("split-mode")) {
        const auto m = parse_split_mode(*s);
        if (!m) { err = c + ": --split-mode must be layer, row or none (got '" + *s + "')"; return false; }
        r.split_mode = *m;
    }
    if (const std::string* s = a.get("main-gpu")) {
        double v;
        if (!number(*s, 0, kMaxRigDevices - 1, v) || v != (double)(int)v) {
            err = c + ": --main-gpu must be a device index from 0 to " + std::to_string(kMaxRigDevices - 1) + " (got '" + *s + "')";
            return false;
        }
        r.main_gpu = (int)v;
    }
    if (const std::string* s = a.get("host-ram-gib")) {
        double v;
        if (!number(*s, 1, 65536, v)) { err = c + ": --host-ram-gib wants the system RAM in GiB, 1 to 65536 (got '" + *s + "')"; return false; }
        r.host_ram_bytes = (uint64_t)(v * (double)kGiB);
    }
    if (a.has("host-mem") && a.has("host-bw-gbs")) { err = c + ": give --host-mem or --host-bw-gbs, not both"; return false; }
    if (const std::string* s = a.get("host-mem")) {
        double gbs = 0;
        if (!parse_host_memory(*s, gbs, err)) { err = c + ": --host-mem: " + err; return false; }
        r.host_ram_bandwidth_gbs = gbs;
    }
    if (const std::string* s = a.get("host-bw-gbs")) {
        double v;
        if (!number(*s, kMinBandwidthGbs, 10000, v)) { err = c + ": --host-bw-gbs wants the host RAM bandwidth in GB/s, 0.1 to 10000 (got '" + *s + "')"; return false; }
        r.host_ram_bandwidth_gbs = v;
    }
    return true;
}

}  // namespace llmsim::cli
