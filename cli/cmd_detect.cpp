// llmsim-cli detect (and --hardware auto): this machine's GPUs and RAM read from the vendor tools, matched to the
// catalog by the engine's pure parsers and matcher (engine/rig/detect.h). The tools are optional: a machine without
// nvidia-smi or rocm-smi simply has no such GPUs. LLMSIM_DETECT_DIR=DIR (or detect --from DIR) reads recorded
// outputs instead: DIR/nvidia-smi.csv, DIR/rocm-smi.json, DIR/meminfo, DIR/sysctl.txt (the tests use this).
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "commands.h"
#include "core/format.h"
#include "rig/detect.h"

namespace llmsim::cli {

namespace {

// a tool's standard output (stderr dropped), at most 1 MiB; "" when it is not installed or fails
std::string run_tool(const char* command) {
    std::string out;
#if defined(_WIN32)
    (void)command;
#else
    FILE* p = popen(command, "r");
    if (!p) return out;
    char buf[4096];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, p)) > 0 && out.size() < (1u << 20)) out.append(buf, n);
    if (pclose(p) != 0) out.clear();
#endif
    return out;
}

std::string read_file(const std::string& path) {
    std::ifstream f(path, std::ios::binary);
    if (!f) return "";
    std::ostringstream ss;
    ss << f.rdbuf();
    return ss.str().substr(0, 1u << 20);
}

struct Probe {
    std::string nvidia, rocm, meminfo, sysctl;
    bool apple = false;
};

Probe probe(const char* from_dir) {
    Probe p;
    if (from_dir && *from_dir) {
        const std::string d = from_dir;
        p.nvidia = read_file(d + "/nvidia-smi.csv");
        p.rocm = read_file(d + "/rocm-smi.json");
        p.meminfo = read_file(d + "/meminfo");
        p.sysctl = read_file(d + "/sysctl.txt");
        p.apple = !p.sysctl.empty();
        return p;
    }
#if defined(__APPLE__)
    p.apple = true;
    p.sysctl = run_tool("sysctl -n hw.memsize machdep.cpu.brand_string iogpu.wired_limit_mb 2>/dev/null");
#else
    p.nvidia = run_tool("nvidia-smi --query-gpu=name,memory.total,memory.free --format=csv,noheader,nounits 2>/dev/null");
    p.rocm = run_tool("rocm-smi --showproductname --showmeminfo vram --json 2>/dev/null");
    p.meminfo = read_file("/proc/meminfo");
#endif
    return p;
}

struct Found {
    std::vector<DetectedGpu> gpus;
    std::vector<HardwareMatch> matches;
    uint64_t ram_bytes = 0;
    uint64_t wired_limit_bytes = 0;
    std::string chip;
    std::string id;
    std::vector<std::string> notes;
};

bool detect(const Catalog& cat, const char* from_dir, Found& f, std::string& err) {
    const Probe p = probe(from_dir);
    std::string e;
    std::vector<DetectedGpu> g;
    if (!p.nvidia.empty()) {
        if (parse_nvidia_smi_csv(p.nvidia, g, e)) f.gpus.insert(f.gpus.end(), g.begin(), g.end());
        else f.notes.push_back(e);
    }
    if (!p.rocm.empty()) {
        if (parse_rocm_smi_json(p.rocm, g, e)) f.gpus.insert(f.gpus.end(), g.begin(), g.end());
        else f.notes.push_back(e);
    }
    if (!p.meminfo.empty() && !parse_proc_meminfo(p.meminfo, f.ram_bytes, e)) f.notes.push_back(e);
    if (p.apple) {
        if (!parse_macos_sysctl(p.sysctl, f.ram_bytes, f.chip, f.wired_limit_bytes, e)) { err = e; return false; }
        // Apple silicon: the chip is the GPU and its memory is the RAM
        DetectedGpu chip;
        chip.name = f.chip;
        chip.memory_bytes = f.ram_bytes;
        chip.tool = "sysctl";
        f.gpus.push_back(chip);
        if (f.wired_limit_bytes > 0)
            f.notes.push_back("iogpu.wired_limit_mb is raised to " + format_gib((double)f.wired_limit_bytes) +
                              ": Metal may use more than the default working set");
    }
    if (f.gpus.empty()) {
        err = "no GPU found (nvidia-smi and rocm-smi printed nothing" + std::string(p.apple ? ", sysctl neither" : "") +
              "); give --hardware ID, and --host-ram-gib for a CPU-only machine";
        return false;
    }
    f.id = rig_id_for(cat, f.gpus, f.matches, err);
    return !f.id.empty();
}

}  // namespace

bool detect_this_machine(const Catalog& cat, std::string& id, uint64_t& ram_bytes, std::string& summary, std::string& err) {
    Found f;
    if (!detect(cat, std::getenv("LLMSIM_DETECT_DIR"), f, err)) return false;
    id = f.id;
    ram_bytes = f.ram_bytes;
    summary = id;
    for (size_t i = 0; i < f.matches.size(); ++i)
        summary += (i ? "; " : " (") + f.gpus[i].name + " -> " + (f.matches[i].hardware ? f.matches[i].hardware->id : "?") +
                   ", confidence " + format_fixed(f.matches[i].confidence, 2);
    summary += ")";
    if (ram_bytes) summary += ", RAM " + format_gib((double)ram_bytes);
    return true;
}

int cmd_detect(int argc, char** argv) {
    Args a = parse_args(argc, argv, {"help", "json"});
    if (a.has("help")) {
        printf("usage: llmsim-cli detect [--from DIR] [--json]\n"
               "Reads nvidia-smi, rocm-smi and /proc/meminfo (Linux) or sysctl (macOS), matches each GPU to the catalog\n"
               "with a confidence and prints the rig id to pass as --hardware (memory, fit; or --hardware auto there).\n"
               "--from DIR reads recorded outputs: DIR/nvidia-smi.csv, rocm-smi.json, meminfo, sysctl.txt.\n");
        return 0;
    }
    for (const auto& kv : a.options)
        if (kv.first != "from" && kv.first != "json") return fail("detect: unknown option --" + kv.first + " (try llmsim-cli detect --help)");
    if (!a.positional.empty()) return fail("detect: unexpected argument '" + a.positional[0] + "'");
    Catalog cat;
    if (!load_catalog(cat)) return 1;
    const std::string* from = a.get("from");
    Found f;
    std::string err;
    const bool ok = detect(cat, from ? from->c_str() : std::getenv("LLMSIM_DETECT_DIR"), f, err);
    if (!ok && f.gpus.empty()) return fail("detect: " + err);
    if (a.has("json")) {
        nlohmann::json j;
        j["hardware"] = ok ? nlohmann::json(f.id) : nlohmann::json(nullptr);
        if (!ok) j["error"] = err;
        j["ram_bytes"] = f.ram_bytes;
        j["gpus"] = nlohmann::json::array();
        for (size_t i = 0; i < f.gpus.size(); ++i) {
            const HardwareMatch* m = i < f.matches.size() ? &f.matches[i] : nullptr;
            j["gpus"].push_back({{"name", f.gpus[i].name}, {"memory_bytes", f.gpus[i].memory_bytes}, {"tool", f.gpus[i].tool},
                                 {"match", m && m->hardware ? nlohmann::json(m->hardware->id) : nlohmann::json(nullptr)},
                                 {"confidence", m ? m->confidence : 0.0}, {"reason", m ? m->reason : ""}});
        }
        j["notes"] = f.notes;
        printf("%s\n", j.dump(1).c_str());
        return ok ? 0 : 2;
    }
    for (size_t i = 0; i < f.gpus.size(); ++i) {
        const HardwareMatch* m = i < f.matches.size() ? &f.matches[i] : nullptr;
        printf("GPU %zu: %s, %s (%s) -> %s, confidence %s: %s\n", i, f.gpus[i].name.c_str(),
               format_gib((double)f.gpus[i].memory_bytes).c_str(), f.gpus[i].tool.c_str(),
               m && m->hardware ? m->hardware->id.c_str() : "no catalog device", m ? format_fixed(m->confidence, 2).c_str() : "0",
               m ? m->reason.c_str() : "");
    }
    if (f.ram_bytes) printf("RAM: %s\n", format_gib((double)f.ram_bytes).c_str());
    for (const std::string& n : f.notes) printf("note: %s\n", n.c_str());
    if (!ok) return fail("detect: " + err);
    printf("hardware: %s\n", f.id.c_str());
    return 0;
}

}  // namespace llmsim::cli
