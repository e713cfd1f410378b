// One way from what a user typed to a device: a catalog id, seed alias or calibration name ("rtx-4090"), a
// combination id ("2x-rtx-3090"), a rig id ("rtx-5080+rtx-5060-ti-16gb", "m2-ultra-192+m2-ultra-192@10gbe",
// rig.h), or an inline device object of a predict/serve line matched to the catalog device it names. Every front
// end (the UI's scenario, the CLI's --hardware, the JS API, predict and serve lines) resolves through here;
// Catalog::find_hardware only looks up catalog rows (and the 2x/4x/8x combinations the catalog builds).
//
//   std::string err;
//   const llmsim::Hardware* hw = llmsim::resolve_device(cat, "2x rtx-3090 + rtx-3060-12gb", err);
//   if (!hw && !err.empty()) puts(err.c_str());   // a rig id with a wrong part: says which part
//   const llmsim::Hardware* a100 = llmsim::match_device_name(cat, "NVIDIA A100-SXM4-80GB", 0);   // "a100-sxm-80gb"
//   const llmsim::Hardware* spark =                                     // a line llama.cpp printed: "dgx-spark"
//       llmsim::match_device_name(cat, "  Device 0: NVIDIA GB10, compute capability 12.1, VMM: yes", 0);
#pragma once
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "catalog/catalog.h"

namespace llmsim {

// the device `id` names: a catalog row (Catalog::find_hardware), else a rig built from a rig id and kept in the
// catalog's rig cache (rig.h find_rig); nullptr when none, with err saying which part of a rig id is wrong
// (err stays "" for an id that is neither, so each front end says "unknown" in its own words)
const Hardware* resolve_device(const Catalog& cat, const std::string& id, std::string& err);
// the same for a caller that reports any miss as an unknown device
const Hardware* resolve_device(const Catalog& cat, const std::string& id);
// the catalog device a free-form device name names (id, name, seed alias, calibration name or tool name; single GPUs
// only), nullptr when none or when the name fits several devices that memory_gib (0 = the size the name states)
// cannot tell apart: "NVIDIA GeForce RTX 4090" -> rtx-4090, "Tesla T4" -> t4; a line a tool printed is read for its
// name (tool_device_name) when the whole line matches nothing: "Device 0: NVIDIA GB10, compute capability 12.1, VMM:
// yes" -> dgx-spark. A generic name ("AMD Radeon Graphics"), one that fits chips of different speeds, and a card
// whose memory_gib fits none of the catalog's sizes of it (an 8 GB "RTX 3060": another board) stay unmatched
const Hardware* match_device_name(const Catalog& cat, const std::string& name, double memory_gib);
// the device name in a line a tool printed: llama.cpp's device lines (CUDA / ROCm "Device 0: NAME, compute
// capability 8.9, VMM: yes", Vulkan "ggml_vulkan: 0 = NAME (RADV NAVI31) | uma: 0 | ...", Metal "ggml_metal_init: GPU
// name: NAME", the SYCL device table row), nvidia-smi (-L "GPU 0: NAME (UUID: ...)", CSV "NAME, 24564 MiB", -q
// "Product Name : NAME", the table row "|   0  NAME   On  | ..."), rocm-smi / rocminfo / amd-smi / xpu-smi "Label: NAME"
// lines, the amd-smi table row and vulkaninfo "deviceName = NAME"; "" when the line names nothing ("Device 0: , ...");
// a bare name comes back trimmed. It does not judge the name: match_device_name does
std::string tool_device_name(const std::string& line);
// the memory a tool line states, GiB: its largest "<N> MiB" (nvidia-smi's "1MiB / 8192MiB" is used / total,
// llama.cpp's "VRAM: 124610 MiB"), 0 when none
double tool_line_memory_gib(const std::string& line);
// a device name without its "(...)" details and " Generation" ("RTX 4090 (24 GB)" -> "RTX 4090")
std::string device_name_key(const std::string& name);
// the default llama.cpp backend of a device by vendor and kind (a line's "backend" overrides it)
std::vector<Backend> default_backends(const Hardware& h);
// the "hardware" field of a predict or serve line: a device id (resolve_device) or an inline object {name, vendor,
// kind, memory_gib, bandwidth_gbs, fp16_tflops}, filled from the catalog device its name matches (note says
// which and what was filled); false + err naming the field
bool device_from_json(const Catalog& cat, const nlohmann::json& h, Hardware& out, std::string& note, std::string& err);

}  // namespace llmsim
