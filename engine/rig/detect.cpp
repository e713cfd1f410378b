// Detection parsers and the GPU-name matcher (detect.h).
#include "rig/detect.h"
#include "core/text.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <set>

#include <nlohmann/json.hpp>

namespace llmsim {

namespace {

std::vector<std::string> lines_of(const std::string& text) {
    std::vector<std::string> out;
    size_t start = 0;
    for (size_t i = 0; i <= text.size(); ++i)
        if (i == text.size() || text[i] == '\n') {
            std::string l = trim_space(text.substr(start, i - start));
            if (!l.empty()) out.push_back(l);
            start = i + 1;
        }
    return out;
}

// a whole decimal number (digits only, at most 19 of them)
bool whole_number(const std::string& s, uint64_t& out) {
    if (s.empty() || s.size() > 19) return false;
    for (char c : s)
        if (!std::isdigit((unsigned char)c)) return false;
    out = std::strtoull(s.c_str(), nullptr, 10);
    return true;
}

}  // namespace

// [SECTION] Parsers --------------------------------------------------------------------------------------

bool parse_nvidia_smi_csv(const std::string& text, std::vector<DetectedGpu>& out, std::string& err) {
    out.clear();
    int n = 0;
    for (const std::string& line : lines_of(text)) {
        ++n;
        if (out.size() >= 64) { err = "nvidia-smi: more than 64 GPUs"; return false; }
        // the name may not contain a comma (NVIDIA names do not); split at the last two commas
        std::vector<std::string> f;
        size_t start = 0;
        for (size_t i = 0; i <= line.size(); ++i)
            if (i == line.size() || line[i] == ',') { f.push_back(trim_space(line.substr(start, i - start))); start = i + 1; }
        DetectedGpu g;
        g.tool = "nvidia-smi";
        uint64_t total = 0, free_mib = 0;
        if (f.size() < 2 || f.size() > 3 || f[0].empty() || !whole_number(f[1], total) || total == 0 ||
            (f.size() == 3 && !whole_number(f[2], free_mib))) {
            err = "nvidia-smi line " + std::to_string(n) + ": expected 'NAME, TOTAL_MIB[, FREE_MIB]' (got '" + line.substr(0, 120) + "')";
            return false;
        }
        g.name = f[0];
        g.memory_bytes = total * kMiB;
        g.free_bytes = free_mib * kMiB;
        out.push_back(g);
    }
    if (out.empty()) { err = "nvidia-smi printed no GPU"; return false; }
    return true;
}

bool parse_rocm_smi_json(const std::string& text, std::vector<DetectedGpu>& out, std::string& err) {
    out.clear();
    // rocm-smi may print warnings before the JSON: start at the first '{'
    const size_t brace = text.find('{');
    if (brace == std::string::npos) { err = "rocm-smi: no JSON object in the output"; return false; }
    const nlohmann::json j = nlohmann::json::parse(text.begin() + (long)brace, text.end(), nullptr, false);
    if (j.is_discarded() || !j.is_object()) { err = "rocm-smi: the output is not a JSON object"; return false; }
    for (auto it = j.begin(); it != j.end(); ++it) {
        if (it.key().rfind("card", 0) != 0 || !it.value().is_object()) continue;   // "system" holds the driver
        const nlohmann::json& c = it.value();
        auto str = [&](const char* k) -> std::string {
            return c.contains(k) && c[k].is_string() ? c[k].get<std::string>() : std::string();
        };
        DetectedGpu g;
        g.tool = "rocm-smi";
        for (const char* k : {"Card Series", "Card series", "Device Name", "Card model", "Card Model"}) {
            const std::string v = str(k);
            if (!v.empty() && v.rfind("0x", 0) != 0) { g.name = v; break; }   // "Card model" may be a PCI id
        }
        uint64_t total = 0, used = 0;
        if (!whole_number(str("VRAM Total Memory (B)"), total)) {
            err = "rocm-smi " + it.key() + ": no \"VRAM Total Memory (B)\" (run it with --showmeminfo vram)";
            return false;
        }
        whole_number(str("VRAM Total Used Memory (B)"), used);
        if (g.name.empty()) g.name = "AMD GPU";
        g.memory_bytes = total;
        g.free_bytes = total > used ? total - used : 0;
        out.push_back(g);
        if (out.size() > 64) { err = "rocm-smi: more than 64 GPUs"; return false; }
    }
    if (out.empty()) { err = "rocm-smi listed no card"; return false; }
    return true;
}

bool parse_proc_meminfo(const std::string& text, uint64_t& ram_bytes, std::string& err) {
    for (const std::string& line : lines_of(text)) {
        if (line.rfind("MemTotal:", 0) != 0) continue;
        std::string v = trim_space(line.substr(9));
        if (v.size() > 3 && v.compare(v.size() - 3, 3, " kB") == 0) v = trim_space(v.substr(0, v.size() - 3));
        uint64_t kib = 0;
        if (!whole_number(v, kib) || kib == 0) { err = "/proc/meminfo: MemTotal is not a number of kB ('" + line + "')"; return false; }
        ram_bytes = kib * 1024;   // the kernel's "kB" are KiB
        return true;
    }
    err = "/proc/meminfo: no MemTotal line";
    return false;
}

bool parse_macos_sysctl(const std::string& text, uint64_t& ram_bytes, std::string& chip, uint64_t& wired_limit_bytes,
                        std::string& err) {
    const std::vector<std::string> l = lines_of(text);
    wired_limit_bytes = 0;
    if (l.size() < 2 || !whole_number(l[0], ram_bytes) || ram_bytes == 0) {
        err = "sysctl: expected hw.memsize (bytes) then machdep.cpu.brand_string on the next line";
        return false;
    }
    chip = l[1];
    uint64_t mb = 0;
    if (l.size() >= 3 && whole_number(l[2], mb) && mb > 0) wired_limit_bytes = mb * kMiB;   // 0 = macOS default
    return true;
}

// [SECTION] Matching -------------------------------------------------------------------------------------

namespace {

// words that name a vendor, a brand or a form factor: they do not tell two catalog devices apart
const std::set<std::string> kNoise = {"nvidia", "geforce", "amd", "ati", "radeon", "intel", "apple", "corporation", "inc",
                                      "technologies", "graphics", "gpu", "tm", "r", "mac", "studio", "mini", "macbook",
                                      "air", "generation", "series", "or", "similar", "angle", "metal", "renderer",
                                      "unspecified", "version", "opengl", "engine", "advanced", "micro", "devices",
                                      "the", "card", "core", "with", "mobile", "chip"};
// words that tell models of one number apart (RTX 4080 vs 4080 SUPER, M2 vs M2 Max): they must agree
const std::set<std::string> kModifiers = {"ti", "super", "xt", "xtx", "gre", "max", "pro", "ultra", "laptop", "ada",
                                          "nvl", "m", "plus"};

struct NameKey {
    std::set<std::string> numbers;     // words with a digit: "4090", "m2", "a100", "b580"
    std::set<std::string> modifiers;
    std::set<std::string> others;      // "rtx", "sxm", "arc" (agreement raises the score, disagreement does not block)
    uint64_t memory_bytes = 0;         // a size in the name ("16GB", "(… 96 GB)")
};

// drop what browsers and drivers wrap a GPU name in: "ANGLE (Vendor, NAME Direct3D11 vs_5_0 ps_5_0, D3D11)",
// "ANGLE (Apple, ANGLE Metal Renderer: Apple M2, Unspecified Version)", "NAME/PCIe/SSE2", "NAME OpenGL Engine"
std::string unwrap_renderer(const std::string& raw) {
    std::string s = trim_space(raw);
    if (lower_ascii(s.substr(0, 7)) == "angle (" && s.back() == ')') {
        std::string inner = s.substr(7, s.size() - 8);
        std::vector<std::string> parts;
        size_t start = 0;
        for (size_t i = 0; i <= inner.size(); ++i)
            if (i == inner.size() || inner[i] == ',') { parts.push_back(trim_space(inner.substr(start, i - start))); start = i + 1; }
        // new format: vendor, renderer, api; old: "NAME Direct3D11 vs_5_0 ps_5_0"
        s = parts.size() >= 2 ? parts[1] : parts[0];
        const size_t colon = s.find(':');
        if (colon != std::string::npos) s = trim_space(s.substr(colon + 1));   // "ANGLE Metal Renderer: Apple M2"
    }
    const std::string ls = lower_ascii(s);
    for (const char* cut : {" direct3d", "/pcie", " opengl engine", ", or similar", " (0x"}) {
        const size_t p = ls.find(cut);
        if (p != std::string::npos) { s = trim_space(s.substr(0, p)); break; }
    }
    return s;
}

NameKey key_of(const std::string& name) {
    NameKey k;
    std::string s = lower_ascii(name);
    // a size: "16gb", "16 gb", "96 GB)"
    for (size_t i = 0; i < s.size(); ++i) {
        if (!std::isdigit((unsigned char)s[i]) || (i > 0 && std::isalnum((unsigned char)s[i - 1]))) continue;
        size_t j = i;
        while (j < s.size() && std::isdigit((unsigned char)s[j])) ++j;
        size_t g = j;
        while (g < s.size() && s[g] == ' ') ++g;
        if (g + 1 < s.size() && s[g] == 'g' && s[g + 1] == 'b' && (g + 2 == s.size() || !std::isalnum((unsigned char)s[g + 2]))) {
            k.memory_bytes = std::strtoull(s.substr(i, j - i).c_str(), nullptr, 10) * kGiB;
            s.replace(i, g + 2 - i, " ");
        }
    }
    // parenthesised detail in catalog names ("(38-core GPU, 96 GB)") and driver strings ("(TM)") is dropped
    std::string flat;
    int depth = 0;
    for (char c : s) {
        if (c == '(') ++depth;
        else if (c == ')') depth = std::max(0, depth - 1);
        else if (depth == 0) flat += std::isalnum((unsigned char)c) ? c : ' ';
    }
    std::string w;
    auto take = [&]() {
        if (w.empty()) return;
        // form factors carry a generation digit that is not the model: sxm4 -> sxm, hbm3 -> hbm
        for (const char* ff : {"sxm", "hbm", "pcie"})
            if (w.rfind(ff, 0) == 0 && w.size() <= std::string(ff).size() + 1) w = ff;
        if (kNoise.count(w)) {}
        else if (kModifiers.count(w)) k.modifiers.insert(w);
        else if (std::any_of(w.begin(), w.end(), [](char c) { return std::isdigit((unsigned char)c); })) k.numbers.insert(w);
        else k.others.insert(w);
        w.clear();
    };
    for (char c : flat) {
        if (c == ' ') take(); else w += c;
    }
    take();
    // "7900m" (a mobile part) stays one word; "4060 laptop" keeps laptop as a modifier
    return k;
}

bool same_model(const NameKey& a, const NameKey& b) {
    return !a.numbers.empty() && a.numbers == b.numbers && a.modifiers == b.modifiers;
}

// the catalog devices (single GPUs) whose id, name or alias has the same model key
std::vector<const Hardware*> candidates(const Catalog& cat, const NameKey& k) {
    std::vector<const Hardware*> out;
    for (const Hardware& h : cat.hardware) {
        if (h.gpu_count != 1 || h.id.find("-used") != std::string::npos) continue;
        bool hit = same_model(key_of(h.name), k);
        for (const auto* list : {&h.seed_aliases, &h.calibration_names, &h.tool_names})
            for (const std::string& a : *list) hit = hit || same_model(key_of(a), k);
        if (hit) out.push_back(&h);
    }
    return out;
}

uint64_t device_memory_bytes(const Hardware& h) {
    return h.unified_memory() && h.system_ram_bytes > 0 ? (uint64_t)h.system_ram_bytes : (uint64_t)h.memory_bytes;
}

// one alternative ("NVIDIA GeForce RTX 3090, Radeon RX 7900 XT/7900 XTX" -> several): rocm-smi names a family
// with its members in brackets ("Navi 31 [Radeon RX 7900 XT/7900 XTX/7900 GRE/7900M]")
std::vector<std::string> name_alternatives(const std::string& name) {
    std::string s = name;
    const size_t lb = s.find('['), rb = s.rfind(']');
    if (lb != std::string::npos && rb != std::string::npos && rb > lb) s = s.substr(lb + 1, rb - lb - 1);
    std::vector<std::string> alts;
    std::string prefix;   // "Radeon RX " carried to "7900 XTX"
    size_t start = 0;
    for (size_t i = 0; i <= s.size(); ++i)
        if (i == s.size() || s[i] == '/') {
            std::string a = trim_space(s.substr(start, i - start));
            start = i + 1;
            if (a.empty()) continue;
            if (alts.empty()) {
                const size_t d = a.find_first_of("0123456789");
                prefix = d == std::string::npos ? "" : a.substr(0, d);
            } else if (!prefix.empty() && std::isdigit((unsigned char)a[0])) {
                a = prefix + a;
            }
            alts.push_back(a);
        }
    return alts;
}

}  // namespace

HardwareMatch match_gpu_name(const Catalog& cat, const std::string& raw, uint64_t memory_bytes) {
    HardwareMatch m;
    m.detected = unwrap_renderer(raw);
    std::vector<const Hardware*> hits;
    uint64_t named_memory = 0;
    for (const std::string& alt : name_alternatives(m.detected)) {
        const NameKey k = key_of(alt);
        named_memory = std::max(named_memory, k.memory_bytes);
        for (const Hardware* h : candidates(cat, k))
            if (std::find(hits.begin(), hits.end(), h) == hits.end()) hits.push_back(h);
    }
    if (memory_bytes == 0) memory_bytes = named_memory;
    if (hits.empty()) {
        m.reason = "'" + m.detected + "' is not a catalog device; pick the closest one, or enter its memory and bandwidth";
        return m;
    }
    if (memory_bytes > 0) {   // the size decides between sizes of one chip (and checks a single hit)
        std::vector<const Hardware*> sized;
        for (const Hardware* h : hits)
            if (std::fabs((double)device_memory_bytes(*h) - (double)memory_bytes) <= 0.1 * (double)memory_bytes) sized.push_back(h);
        if (sized.empty()) {
            m.alternatives = hits;
            m.confidence = 0.3;
            m.reason = "'" + m.detected + "' is in the catalog, but not with " +
                       std::to_string((memory_bytes + kGiB / 2) / kGiB) + " GiB; pick the closest size";
            return m;
        }
        hits = sized;
    }
    m.hardware = hits.front();
    m.alternatives.assign(hits.begin() + 1, hits.end());
    if (hits.size() == 1) {
        m.confidence = memory_bytes > 0 ? 0.95 : 0.8;
        m.reason = memory_bytes > 0 ? "name and memory match " + m.hardware->name : "the name matches " + m.hardware->name;
    } else {
        bool same_speed = true;
        for (const Hardware* h : hits) same_speed &= h->bandwidth_gbs == hits[0]->bandwidth_gbs;
        m.confidence = same_speed ? 0.5 : 0.3;
        m.ask_memory = true;
        m.reason = "'" + m.detected + "' comes in " + std::to_string(hits.size()) + " catalog versions; how much memory does it have?";
    }
    return m;
}

HardwareMatch match_browser_gpu(const Catalog& cat, const BrowserGpuInfo& info) {
    HardwareMatch m;
    std::string name;
    for (const std::string* s : {&info.webgpu_description, &info.webgpu_device, &info.webgl_renderer})
        if (!trim_space(*s).empty()) { name = *s; break; }
    const std::string ln = lower_ascii(name);
    const bool software = ln.find("swiftshader") != std::string::npos || ln.find("llvmpipe") != std::string::npos ||
                          ln.find("software") != std::string::npos || ln.find("basic render") != std::string::npos;
    if (software) {
        m.gpu_hidden = true;
        m.detected = unwrap_renderer(name);
        m.reason = "the browser draws with a software renderer (" + m.detected + "), so it shows no GPU; pick your device";
        return m;
    }
    const bool masked = name.empty() || ln == "apple gpu" || ln == "webkit webgl" || ln == "mozilla" ||
                        ln.find("generic renderer") != std::string::npos;
    if (masked) {
        m.gpu_hidden = true;
        m.ask_memory = true;
        const std::string vendor = lower_ascii(info.webgpu_vendor.empty() ? info.webgl_vendor : info.webgpu_vendor);
        m.detected = trim_space(name.empty() ? info.webgpu_vendor : name);
        const bool apple = ln == "apple gpu" || vendor.find("apple") != std::string::npos;
        m.reason = std::string("this browser hides the GPU model") + (m.detected.empty() ? "" : " (it says '" + m.detected + "')") +
                   (apple ? "; it is an Apple chip: pick it and its memory size" : "; pick your device and its memory size");
        return m;
    }
    m = match_gpu_name(cat, name, info.memory_bytes);
    if (info.memory_bytes == 0 && info.system_ram_bytes > 0 && m.hardware && m.hardware->unified_memory()) {
        m = match_gpu_name(cat, name, info.system_ram_bytes);   // desktop: a Mac's RAM is its GPU memory
        return m;
    }
    if (ln.find("or similar") != std::string::npos) {   // Firefox reports a representative model of the class
        m.confidence = std::min(m.confidence, 0.4);
        m.reason = "Firefox reports a representative GPU ('" + m.detected + "'), not necessarily yours; " +
                   (m.hardware ? "check the model" : "pick your device");
    }
    if (m.hardware && m.hardware->unified_memory() && info.memory_bytes == 0 && !m.ask_memory) {
        // browsers never say how much unified memory a Mac has (navigator.deviceMemory stops at 8 GiB)
        m.ask_memory = true;
        m.confidence = std::min(m.confidence, 0.6);
        m.reason += "; the browser does not tell the memory size: check it";
    }
    return m;
}

bool parse_browser_gpu_info(const std::string& text, BrowserGpuInfo& out, std::string& err) {
    out = BrowserGpuInfo();
    if (text.size() > 16384) { err = "machine info: larger than 16 KiB"; return false; }
    const nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
    if (j.is_discarded() || !j.is_object()) { err = "machine info: not a JSON object"; return false; }
    auto str = [](const nlohmann::json& o, const char* k) -> std::string {
        if (!o.is_object() || !o.contains(k) || !o[k].is_string()) return "";
        std::string v = o[k].get<std::string>();
        if (v.size() > 256) {   // cut at a UTF-8 character boundary: the string is dumped as JSON again later
            size_t n = 256;
            while (n > 0 && ((unsigned char)v[n] & 0xC0) == 0x80) --n;
            v.resize(n);
        }
        return v;
    };
    if (j.contains("webgpu")) {
        const nlohmann::json& g = j["webgpu"];
        out.webgpu_vendor = str(g, "vendor");
        out.webgpu_architecture = str(g, "architecture");
        out.webgpu_device = str(g, "device");
        out.webgpu_description = str(g, "description");
    }
    if (j.contains("webgl")) {
        out.webgl_vendor = str(j["webgl"], "vendor");
        out.webgl_renderer = str(j["webgl"], "renderer");
    }
    if (j.contains("deviceMemory") && j["deviceMemory"].is_number()) {
        const double v = j["deviceMemory"].get<double>();
        if (v > 0 && v <= 1024) out.device_memory_gib = v;
    }
    if (j.contains("hardwareConcurrency") && j["hardwareConcurrency"].is_number_integer()) {
        const int64_t v = j["hardwareConcurrency"].get<int64_t>();
        if (v > 0 && v <= 4096) out.hardware_concurrency = (int)v;
    }
    return true;
}

std::string rig_id_for(const Catalog& cat, const std::vector<DetectedGpu>& gpus, std::vector<HardwareMatch>& matches,
                       std::string& err) {
    matches.clear();
    std::vector<std::pair<const Hardware*, int>> groups;   // in detection order, identical cards grouped
    for (const DetectedGpu& g : gpus) {
        HardwareMatch m = match_gpu_name(cat, g.name, g.memory_bytes);
        matches.push_back(m);
        if (!m.hardware) { err = g.tool + " GPU '" + g.name + "': " + m.reason; return ""; }
        bool added = false;
        for (auto& grp : groups)
            if (grp.first == m.hardware) { ++grp.second; added = true; }
        if (!added) groups.emplace_back(m.hardware, 1);
    }
    if (groups.empty()) { err = "no GPU detected"; return ""; }
    std::string id;
    for (const auto& grp : groups)
        id += (id.empty() ? "" : "+") + (grp.second > 1 ? std::to_string(grp.second) + "x-" : std::string()) + grp.first->id;
    return id;
}

}  // namespace llmsim
