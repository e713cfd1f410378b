// Hardware detection, the pure part: parsers of what vendor tools print (nvidia-smi CSV, rocm-smi JSON,
// /proc/meminfo, macOS sysctl) and the matcher from a GPU name string — nvidia-smi's, a WebGL unmasked renderer,
// WebGPU adapter info, a desktop GL_RENDERER — to catalog devices, with a confidence. Running the tools and
// reading the browser is the caller's job (cli/cmd_detect.cpp, web/llmsim-page.js, ui/platform_*.cpp); this only
// reads their text, so every format is tested with recorded outputs (tests/corpus/detect/).
//
//   std::vector<llmsim::DetectedGpu> gpus;
//   std::string err;
//   llmsim::parse_nvidia_smi_csv("NVIDIA GeForce RTX 5080, 16303, 15841\n", gpus, err);
//   llmsim::HardwareMatch m = llmsim::match_gpu_name(cat, gpus[0].name, gpus[0].memory_bytes);
//   // m.hardware->id == "rtx-5080", m.confidence 0.95
//
// [SECTION] Parsers
// [SECTION] Matching
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "catalog/catalog.h"

namespace llmsim {

// [SECTION] Parsers --------------------------------------------------------------------------------------

struct DetectedGpu {
    std::string name;             // as the tool prints it: "NVIDIA GeForce RTX 3090", "Radeon RX 7900 XT"
    uint64_t memory_bytes = 0;    // total (nvidia-smi memory.total MiB x 2^20; rocm-smi "VRAM Total Memory (B)")
    uint64_t free_bytes = 0;      // free at detection time, 0 = not reported
    std::string tool;             // "nvidia-smi", "rocm-smi"
};

// `nvidia-smi --query-gpu=name,memory.total,memory.free --format=csv,noheader,nounits`: one GPU per line,
// "NAME, TOTAL_MIB, FREE_MIB" (FREE optional); false + err naming the line on a malformed one
bool parse_nvidia_smi_csv(const std::string& text, std::vector<DetectedGpu>& out, std::string& err);
// `rocm-smi --showproductname --showmeminfo vram --json`: {"card0": {"Card Series" | "Card series" | "Device Name":
// ..., "VRAM Total Memory (B)": "...", "VRAM Total Used Memory (B)": "..."}, ...}; false + err when not that shape
bool parse_rocm_smi_json(const std::string& text, std::vector<DetectedGpu>& out, std::string& err);
// /proc/meminfo's "MemTotal:  65798276 kB" (kB = KiB there); false + err when the line is missing
bool parse_proc_meminfo(const std::string& text, uint64_t& ram_bytes, std::string& err);
// `sysctl -n hw.memsize machdep.cpu.brand_string iogpu.wired_limit_mb`: RAM bytes, the chip ("Apple M2 Max") and,
// when the third line is there and not 0, the raised Metal wired limit in bytes (else 0); false + err on a bad RAM line
bool parse_macos_sysctl(const std::string& text, uint64_t& ram_bytes, std::string& chip, uint64_t& wired_limit_bytes,
                        std::string& err);

// [SECTION] Matching -------------------------------------------------------------------------------------

struct HardwareMatch {
    const Hardware* hardware = nullptr;          // best catalog device, nullptr = none
    double confidence = 0;                       // 0..1: 0.95 name + memory agree; 0.8 name only; 0.5 one of several sizes
    std::vector<const Hardware*> alternatives;   // the other devices the string fits (sizes of one chip)
    std::string detected;                        // the name the match was made from, cleaned ("NVIDIA GeForce RTX 4090")
    std::string reason;                          // one sentence for the user
    bool gpu_hidden = false;                     // the source hides the GPU ("Apple GPU", "WebKit WebGL", software)
    bool ask_memory = false;                     // the memory size is unknown and decides the device: ask for it
};

// the catalog device a GPU name denotes; memory_bytes = 0 when unknown (a catalog device's memory must be within
// 10 % of a given one)
HardwareMatch match_gpu_name(const Catalog& cat, const std::string& name, uint64_t memory_bytes = 0);

struct BrowserGpuInfo {            // what a page can read (web/llmsim-page.js collects it)
    std::string webgpu_vendor, webgpu_architecture, webgpu_device, webgpu_description;   // GPUAdapter.info
    std::string webgl_vendor, webgl_renderer;    // WEBGL_debug_renderer_info UNMASKED_VENDOR/RENDERER_WEBGL
    double device_memory_gib = 0;                // navigator.deviceMemory (the spec caps it at 8), 0 = absent
    int hardware_concurrency = 0;                // navigator.hardwareConcurrency, 0 = absent
    uint64_t memory_bytes = 0;                   // what the user typed when asked, 0 = not given
    uint64_t system_ram_bytes = 0;               // desktop: SDL_GetSystemRAM (a Mac's unified memory), 0 = unknown
};
// the page's report {"webgpu": {"vendor", "architecture", "device", "description"}, "webgl": {"vendor", "renderer"},
// "deviceMemory", "hardwareConcurrency"} (web/llmsim-page.js); every part optional, strings cut at 256 bytes;
// false + err when it is not a JSON object
bool parse_browser_gpu_info(const std::string& json, BrowserGpuInfo& out, std::string& err);
// the device a browser reveals: WebGPU description/device first, then the WebGL renderer (ANGLE's wrapper and
// Direct3D/OpenGL suffixes removed); says plainly when the browser hides the GPU or reports a representative one
HardwareMatch match_browser_gpu(const Catalog& cat, const BrowserGpuInfo& info);

// the rig id for detected GPUs: "rtx-3090" or "2x-rtx-3090+rtx-3060-12gb" (identical matches grouped); "" with
// err naming the GPU that matched no catalog device
std::string rig_id_for(const Catalog& cat, const std::vector<DetectedGpu>& gpus, std::vector<HardwareMatch>& matches,
                       std::string& err);

}  // namespace llmsim
