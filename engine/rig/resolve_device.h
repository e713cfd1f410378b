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
// the catalog device a free-form device name names (id, name, seed alias or calibration name; single GPUs only),
// nullptr when none or when the name fits several devices that memory_gib (0 = the size the name states) cannot
// tell apart: "NVIDIA GeForce RTX 4090" -> rtx-4090, "Tesla T4" -> t4
const Hardware* match_device_name(const Catalog& cat, const std::string& name, double memory_gib);
// a device name without its "(...)" details and " Generation" ("RTX 4090 (24 GB)" -> "RTX 4090")
std::string device_name_key(const std::string& name);
// the default llama.cpp backend of a device by vendor and kind (a line's "backend" overrides it)
std::vector<Backend> default_backends(const Hardware& h);
// the "hardware" field of a predict or serve line: a device id (resolve_device) or an inline object {name, vendor,
// kind, memory_gib, bandwidth_gbs, fp16_tflops}, filled from the catalog device its name matches (note says
// which and what was filled); false + err naming the field
bool device_from_json(const Catalog& cat, const nlohmann::json& h, Hardware& out, std::string& note, std::string& err);

}  // namespace llmsim
