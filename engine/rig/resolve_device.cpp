// Device resolution: see resolve_device.h.
//
// [SECTION] Ids and rig ids
// [SECTION] Names
// [SECTION] Inline devices
#include "rig/resolve_device.h"

#include <cctype>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <optional>

#include "core/json_diag.h"
#include "core/text.h"
#include "core/units.h"
#include "rig/rig.h"

namespace llmsim {

using nlohmann::json;

// [SECTION] Ids and rig ids ------------------------------------------------------------------------------

const Hardware* resolve_device(const Catalog& cat, const std::string& id, std::string& err) {
    err.clear();
    // catalog rows first: a seed alias may itself contain '+' ("Ryzen AI Max+ 395 ...")
    if (const Hardware* h = cat.find_hardware(id)) return h;
    if (!looks_like_rig(id)) return nullptr;
    if (const Hardware* r = find_rig(cat, id)) return r;
    Hardware probe;   // not a valid rig: build it once more for the message naming the wrong part
    if (build_rig(cat, id, probe, err)) err = "too many distinct rigs in one session";
    return nullptr;
}

const Hardware* resolve_device(const Catalog& cat, const std::string& id) {
    std::string ignored;
    return resolve_device(cat, id, ignored);
}

// [SECTION] Names ----------------------------------------------------------------------------------------

std::string device_name_key(const std::string& name) {
    std::string n = name;
    size_t p = n.find(" (");
    if (p != std::string::npos) n = n.substr(0, p);
    size_t g = n.find(" Generation");
    if (g != std::string::npos) n = n.substr(0, g);
    return n;
}

namespace {

// a device name reduced for matching: lower-case letters and digits only, without the vendor/brand words and
// "(...)" details ("NVIDIA GeForce RTX 4090" == "RTX 4090"; "Tesla T4" == "T4"); keep_memory = false also drops
// "16GB"-style sizes, which then only break ties between catalog entries
// drop_sxm = true also drops the SXM form factor, the one nvidia-smi leaves out of its names ("NVIDIA H100 80GB
// HBM3", "NVIDIA H200" are the SXM parts; PCIe and NVL parts say so), tried only when nothing else matched
std::string match_key(const std::string& name, bool keep_memory, bool drop_sxm = false) {
    std::string n = device_name_key(name), w, out;
    w = lower_ascii(n);
    for (const char* machine : {"macbook pro ", "macbook air ", "mac studio ", "mac mini "})   // Apple: the chip names it
        for (size_t at; (at = w.find(machine)) != std::string::npos;) w.erase(at, strlen(machine));
    // "(R)", "(TM)" and "Graphics" come with driver strings ("Intel(R) Arc(TM) A750 Graphics" from Level Zero / Windows)
    static const char* const kDrop[] = {"nvidia", "geforce", "tesla", "amd", "intel", "apple", "workstation", "edition",
                                        "r", "tm", "graphics", "hbm2", "hbm2e", "hbm3", "hbm3e"};
    std::string word;
    auto flush = [&]() {
        bool drop = false;
        for (const char* d : kDrop) drop = drop || word == d;
        size_t nd = 0;
        while (nd < word.size() && word[nd] >= '0' && word[nd] <= '9') ++nd;
        if (!keep_memory && nd > 0 && word.compare(nd, std::string::npos, "gb") == 0) drop = true;
        if (word.size() == 4 && word.compare(0, 3, "sxm") == 0 && word[3] >= '0' && word[3] <= '9') word = "sxm";   // SXM2/4/5
        if (drop_sxm && word == "sxm") drop = true;
        if (!drop) out += word;
        word.clear();
    };
    for (char c : w) {
        if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')) word += c;
        else flush();
    }
    flush();
    return out;
}

// the memory size a device name states outside its "(...)" details ("A100-SXM4-80GB" -> 80), 0 when none
double name_memory_gib(const std::string& name) {
    const std::string n = device_name_key(name);
    double gib = 0;
    for (size_t i = 0; i + 1 < n.size(); ++i) {
        if ((n[i] != 'G' && n[i] != 'g') || (n[i + 1] != 'B' && n[i + 1] != 'b')) continue;
        if (i + 2 < n.size() && std::isalnum((unsigned char)n[i + 2])) continue;   // "GBps" and the like
        size_t b = i;
        while (b > 0 && n[b - 1] >= '0' && n[b - 1] <= '9') --b;
        if (b == i || (b > 0 && std::isalpha((unsigned char)n[b - 1]))) continue;   // a digit run of its own
        gib = std::atof(n.substr(b, i - b).c_str());
    }
    return gib;
}

}  // namespace

// the catalog device an inline hardware object names (id, name, seed alias or calibration name; single GPUs only),
// nullptr when none or when the name fits several devices that memory_gib cannot tell apart
const Hardware* match_device_name(const Catalog& cat, const std::string& name, double memory_gib) {
    if (name.empty()) return nullptr;
    if (memory_gib <= 0) memory_gib = name_memory_gib(name);   // "NVIDIA A100-SXM4-80GB": the size the name states
    for (int pass = 0; pass < 3; ++pass) {
        const bool keep_memory = pass == 0, drop_sxm = pass == 2;
        const std::string key = match_key(name, keep_memory, drop_sxm);
        if (key.empty()) continue;
        std::vector<const Hardware*> hits;
        for (const Hardware& h : cat.hardware) {
            if (h.gpu_count != 1) continue;
            bool hit = match_key(h.id, keep_memory, drop_sxm) == key || match_key(h.name, keep_memory, drop_sxm) == key;
            for (const auto* list : {&h.seed_aliases, &h.calibration_names})
                for (const auto& a : *list) hit = hit || match_key(a, keep_memory, drop_sxm) == key;
            if (hit) hits.push_back(&h);
        }
        if (hits.empty()) continue;
        if (memory_gib > 0) {   // same chip in several sizes: the one with this memory
            std::vector<const Hardware*> sized;
            for (const Hardware* h : hits)
                if (std::fabs((double)h->memory_bytes / (double)kGiB - memory_gib) <= 0.1 * memory_gib) sized.push_back(h);
            if (!sized.empty()) hits = sized;
            else if (keep_memory) continue;   // the exact name has another size: look among the sizes of the chip
        }
        // several sizes of one chip share its speed specs; different chips under one name are ambiguous
        for (const Hardware* h : hits)
            if (h->bandwidth_gbs != hits[0]->bandwidth_gbs || h->fp16_tflops != hits[0]->fp16_tflops) return nullptr;
        return hits[0];
    }
    return nullptr;
}

// [SECTION] Inline devices -------------------------------------------------------------------------------

// the default backend by vendor (the row's "backend" overrides it)
std::vector<Backend> default_backends(const Hardware& h) {
    if (h.kind == HardwareKind::Cpu) return {Backend::Cpu};
    if (h.vendor == "nvidia") return {Backend::Cuda};
    if (h.vendor == "amd") return {Backend::Rocm};
    if (h.vendor == "apple" || h.kind == HardwareKind::Apple) return {Backend::Metal};
    if (h.vendor == "intel") return {Backend::Sycl};
    return {Backend::Vulkan};
}

bool device_from_json(const Catalog& cat, const json& h, Hardware& out, std::string& note, std::string& err) {
    if (h.is_string()) {
        std::string rig_err;
        const Hardware* hw = resolve_device(cat, h.get<std::string>(), rig_err);
        if (!hw) { err = "unknown hardware '" + h.get<std::string>() + "' (a catalog id such as \"rtx-4090\", or an object)"; return false; }
        out = *hw;
        return true;
    }
    if (!h.is_object()) { err = "hardware must be a catalog id or an object {name, vendor, kind, memory_gib, bandwidth_gbs, fp16_tflops}"; return false; }
    out = Hardware();
    out.name = h.contains("name") && h["name"].is_string() ? h["name"].get<std::string>() : "custom";
    out.id = "custom";
    out.vendor = h.contains("vendor") && h["vendor"].is_string() ? h["vendor"].get<std::string>() : "";
    std::string kind = h.contains("kind") && h["kind"].is_string() ? h["kind"].get<std::string>() : "";
    double mem = 0, bw = 0, tf = 0;
    if (!json_number_field(h, "memory_gib", mem, false, err, 0, 1e6)) { err = "hardware." + err; return false; }
    const Hardware* known = match_device_name(cat, out.name, mem);
    if (known && kind.empty()) kind = to_string(known->kind);
    if (kind == "consumer") out.kind = HardwareKind::Consumer;
    else if (kind == "workstation") out.kind = HardwareKind::Workstation;
    else if (kind == "datacenter") out.kind = HardwareKind::Datacenter;
    else if (kind == "apple") out.kind = HardwareKind::Apple;
    else if (kind == "apu") out.kind = HardwareKind::Apu;
    else if (kind == "cpu") out.kind = HardwareKind::Cpu;
    else { err = "hardware.kind '" + kind + "' is not consumer|workstation|datacenter|apple|apu|cpu"; return false; }
    if (!json_number_field(h, "bandwidth_gbs", bw, !known, err, 0.01, 1e6)) { err = "hardware." + err; return false; }
    if (!json_number_field(h, "fp16_tflops", tf, false, err, 0, 1e6)) { err = "hardware." + err; return false; }
    std::optional<ChipFamily> family;   // the line's chip_family, when it names one
    if (h.contains("chip_family")) {
        if (h["chip_family"].is_string()) family = parse_chip_family(h["chip_family"].get<std::string>());
        if (!family) {
            err = "hardware.chip_family " + h["chip_family"].dump() + " is unknown (valid: " + chip_family_names() + ")";
            return false;
        }
    }
    if (known) {
        // the catalog entry, with every field the line gives winning (a device the catalog knows gets its figures)
        const Hardware inline_hw = out;
        out = *known;
        out.gpu_count = 1;
        out.name = inline_hw.name;
        if (!inline_hw.vendor.empty() && inline_hw.vendor != known->vendor) {
            out.vendor = inline_hw.vendor;
            out.backends = default_backends(out);
        }
        out.kind = inline_hw.kind;
        if (family) out.chip_family = *family;   // else the catalog device's
        std::string filled;
        if (mem > 0) out.memory_bytes = (int64_t)(mem * (double)kGiB);
        else filled += ", memory";
        if (bw > 0) out.bandwidth_gbs = bw;
        else filled += ", bandwidth_gbs";
        if (tf > 0) { out.fp16_tflops = tf; out.fp16_tflops_estimated = false; }
        else if (known->fp16_tflops > 0) filled += ", fp16_tflops";
        if (!known->memory_kind.empty()) filled += ", memory_kind";
        if (known->system_ram_bandwidth_gbs > 0) filled += ", host RAM";
        note = "hardware '" + inline_hw.name + "' matched catalog device '" + known->id + "'" +
               (filled.empty() ? std::string(" (the line's fields kept)") : "; filled from it: " + filled.substr(2));
        return true;
    }
    out.memory_bytes = (int64_t)(mem * (double)kGiB);
    out.bandwidth_gbs = bw;
    out.fp16_tflops = tf;   // 0 = unknown: the speed model estimates it from the chip family and says so
    out.backends = default_backends(out);
    // a device the catalog does not know: the family the line names, else the one its name implies (chip_family.h)
    out.chip_family = family ? *family : guess_chip_family(out.vendor, out.kind, out.name);
    return true;
}

}  // namespace llmsim
