// Device resolution: see resolve_device.h.
//
// [SECTION] Ids and rig ids
// [SECTION] Names
// [SECTION] Lines tools print
// [SECTION] Inline devices
#include "rig/resolve_device.h"

#include <algorithm>
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

namespace {

// the catalog device a device name names (id, name, seed alias, calibration name or tool name; single GPUs only),
// nullptr when none or when the name fits several devices that memory_gib cannot tell apart
const Hardware* match_name(const Catalog& cat, const std::string& name, double memory_gib) {
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
            for (const auto* list : {&h.seed_aliases, &h.calibration_names, &h.tool_names})
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
            // no size fits: a Mac or APU with other RAM is the same GPU; a card with other memory is another board
            // (an 8 GB "RTX 3060" has 2/3 of the 12 GB card's bandwidth), which the catalog does not have
            else
                for (const Hardware* h : hits)
                    if (!h->unified_memory()) return nullptr;
        }
        // several sizes of one chip share its speed specs; different chips under one name are ambiguous
        for (const Hardware* h : hits)
            if (h->bandwidth_gbs != hits[0]->bandwidth_gbs || h->fp16_tflops != hits[0]->fp16_tflops) return nullptr;
        return hits[0];
    }
    return nullptr;
}

}  // namespace

const Hardware* match_device_name(const Catalog& cat, const std::string& name, double memory_gib) {
    if (const Hardware* h = match_name(cat, name, memory_gib)) return h;
    // a line pasted from a tool ("Device 0: NVIDIA GB10, compute capability 12.1, VMM: yes"): the name inside it,
    // with the memory the line states when the caller gives none
    const std::string printed = tool_device_name(name);
    if (printed.empty() || printed == name) return nullptr;
    return match_name(cat, printed, memory_gib > 0 ? memory_gib : tool_line_memory_gib(name));
}

// [SECTION] Lines tools print ---------------------------------------------------------------------------

namespace {

const char* const kWhite = " \t\r\n";

// s from the first character that is not white space or `extra`, to the last such
std::string trim_chars(const std::string& s, const char* extra) {
    const std::string set = std::string(kWhite) + extra;
    const size_t a = s.find_first_not_of(set);
    if (a == std::string::npos) return "";
    return s.substr(a, s.find_last_not_of(set) - a + 1);
}

bool has_letter(const std::string& s) {
    for (char c : s)
        if (std::isalpha((unsigned char)c)) return true;
    return false;
}

// a PCI bus address as amd-smi and nvidia-smi print it ("0000:63:00.0", "00000000:01:00.0")
bool is_pci_address(const std::string& w) {
    const size_t c1 = w.find(':'), dot = w.rfind('.');
    if (c1 == std::string::npos || dot == std::string::npos || dot < c1) return false;
    for (char c : w)
        if (!std::isxdigit((unsigned char)c) && c != ':' && c != '.') return false;
    return true;
}

// the first cell of a table row that names something: nvidia-smi "|   0  NVIDIA GB10    On  | 0000000F:01:00.0 Off |",
// amd-smi "| 0000:63:00.0 AMD Radeon RX 7900 XTX | 0 % ...", llama.cpp's SYCL list "| 0|[level_zero:gpu:0]|  NAME|  1.3|";
// a Vulkan line's "| uma: 0 | fp16: 1" fields follow its name. The GPU index, a PCI address and nvidia-smi's
// persistence "On"/"Off" around the name are dropped
std::string first_name_cell(const std::string& row) {
    for (std::string cell : split_on(row, '|')) {
        cell = trim_space(cell);
        if (cell.empty() || !has_letter(cell) || (cell.front() == '[' && cell.back() == ']')) continue;
        std::vector<std::string> words;
        std::string w;
        for (char c : cell + " ") {
            if (c == ' ' || c == '\t') { if (!w.empty()) words.push_back(w); w.clear(); }
            else w += c;
        }
        if (words.empty()) continue;
        size_t a = 0, b = words.size();
        if (words[0].find_first_not_of("0123456789") == std::string::npos || is_pci_address(words[0])) ++a;
        if (b > a + 1 && (words[b - 1] == "On" || words[b - 1] == "Off")) --b;
        if (a >= b) continue;
        const size_t from = cell.find(words[a]);
        const size_t to = cell.rfind(words[b - 1]) + words[b - 1].size();
        return cell.substr(from, to - from);
    }
    return "";
}

// s up to its first ", " outside parentheses: llama.cpp's ", compute capability 8.9, VMM: yes" and ", gfx1100
// (0x1100)", nvidia-smi's CSV ", 24564 MiB"; a name's own "(..., 64GB)" details and a label's "GPU 0,1,2,3:" stay
std::string cut_at_comma(const std::string& s) {
    int depth = 0;
    for (size_t i = 0; i + 1 < s.size(); ++i) {
        if (s[i] == '(') ++depth;
        else if (s[i] == ')') depth = std::max(0, depth - 1);
        else if (s[i] == ',' && depth == 0 && (s[i + 1] == ' ' || s[i + 1] == '\t')) return s.substr(0, i);
    }
    return s;
}

// s after its last label: vulkaninfo's and ggml_vulkan's " = ", and a "Label:" followed by white space outside
// parentheses ("Device 0: ", "ggml_metal_init: GPU name: ", "GPU[0]\t\t: Card series: \t\t", "Marketing Name: ",
// "Product Name : ", "GPU 0: ")
std::string after_label(const std::string& s) {
    std::string out = s;
    const size_t eq = out.rfind(" = ");
    if (eq != std::string::npos) out = out.substr(eq + 3);
    int depth = 0;
    size_t cut = std::string::npos;
    for (size_t i = 0; i + 1 < out.size(); ++i) {
        if (out[i] == '(') ++depth;
        else if (out[i] == ')') depth = std::max(0, depth - 1);
        else if (out[i] == ':' && depth == 0 && (out[i + 1] == ' ' || out[i + 1] == '\t')) cut = i + 1;
    }
    if (cut != std::string::npos) out = out.substr(cut);
    else if (!out.empty() && out.back() == ':') out.clear();   // "Device 0:" and nothing after it
    return out;
}

}  // namespace

std::string tool_device_name(const std::string& line) {
    std::string s = trim_space(line);
    if (s.find('|') != std::string::npos) s = first_name_cell(s);
    s = trim_space(after_label(cut_at_comma(s)));
    // llama.cpp's "using device CUDA0 (NVIDIA GeForce RTX 4090) - 23000 MiB free", "registered device ROCm0 (NAME)"
    for (const char* lead : {"using device ", "registered device "}) {
        const size_t open = s.find('('), close = s.rfind(')');
        if (s.rfind(lead, 0) == 0 && open != std::string::npos && close != std::string::npos && close > open)
            s = s.substr(open + 1, close - open - 1);
    }
    return trim_chars(s, "\"',");
}

double tool_line_memory_gib(const std::string& line) {
    // the largest "<N> MiB" (nvidia-smi's "1MiB /  8192MiB" is used / total; llama.cpp's "VRAM: 124610 MiB")
    double mib = 0;
    for (size_t at = line.find("MiB"); at != std::string::npos; at = line.find("MiB", at + 3)) {
        size_t b = at;
        while (b > 0 && line[b - 1] == ' ') --b;
        size_t e = b;
        while (b > 0 && (std::isdigit((unsigned char)line[b - 1]) || line[b - 1] == '.')) --b;
        if (b < e) mib = std::max(mib, std::atof(line.substr(b, e - b).c_str()));
    }
    return mib / 1024.0;
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

// a CPU's core facts on an inline device (the speed model's CPU FLOP/s: cores x SIMD lanes x 2 x FMA pipes x clock):
// cpu_cores, and cpu_simd_bits (128 NEON / SSE, 256 AVX2, 512 AVX-512) + cpu_fma_pipes + boost_clock_mhz together
static bool parse_cpu_facts(const json& h, Hardware& out, std::string& err) {
    double cores = 0, bits = 0, pipes = 0, mhz = 0;
    if (!json_number_field(h, "cpu_cores", cores, false, err, 1, 4096) ||
        !json_number_field(h, "cpu_simd_bits", bits, false, err, 64, 2048) ||
        !json_number_field(h, "cpu_fma_pipes", pipes, false, err, 1, 16) ||
        !json_number_field(h, "boost_clock_mhz", mhz, false, err, 1, 1e5)) { err = "hardware." + err; return false; }
    if (cores != std::floor(cores) || pipes != std::floor(pipes) || (bits > 0 && std::fmod(bits, 64) != 0)) {
        err = "hardware.cpu_cores and cpu_fma_pipes must be whole numbers and cpu_simd_bits a multiple of 64 (128, 256, 512)";
        return false;
    }
    if ((bits > 0) != (pipes > 0) || (bits > 0 && !(mhz > 0))) {
        err = "hardware.cpu_simd_bits, cpu_fma_pipes and boost_clock_mhz go together (a core's FP32 FMA peak = "
              "cpu_simd_bits / 32 x 2 x cpu_fma_pipes x clock)";
        return false;
    }
    if (cores > 0) out.cpu_cores = (int)cores;
    if (mhz > 0) out.boost_clock_mhz = mhz;
    if (bits > 0) out.cpu_core_flops_per_clk = (int)bits / 32 * 2 * (int)pipes;
    return true;
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
        if (!parse_cpu_facts(h, out, err)) return false;
        if (!known->memory_kind.empty()) filled += ", memory_kind";
        if (known->system_ram_bandwidth_gbs > 0) filled += ", host RAM";
        note = "hardware '" + inline_hw.name + "' matched catalog device '" + known->id + "'" +
               (filled.empty() ? std::string(" (the line's fields kept)") : "; filled from it: " + filled.substr(2));
        return true;
    }
    out.memory_bytes = (int64_t)(mem * (double)kGiB);
    out.bandwidth_gbs = bw;
    out.fp16_tflops = tf;   // 0 = unknown: the speed model estimates it from the chip family and says so
    if (!parse_cpu_facts(h, out, err)) return false;
    out.backends = default_backends(out);
    // a device the catalog does not know: the family the line names, else the one its name implies (chip_family.h)
    out.chip_family = family ? *family : guess_chip_family(out.vendor, out.kind, out.name);
    return true;
}

}  // namespace llmsim
