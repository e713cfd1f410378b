// `llmsim-cli predict` and window.llmsim.predict(): one JSON scenario in, one JSON line out. The same parser
// builds the calibration rows the speed model is fitted on (calibrate.h), so fit and prediction agree.
//
//   in:  {"id": "...", "model": "<catalog or HF id>", "config": {<HF config.json fields>}|absent,
//         "quant": "Q4_K_M"|null, "model_size_gib": 4.58|null,
//         "hardware": "<catalog id>" | {"name", "vendor": "nvidia|amd|apple|intel", "kind":
//                     "consumer|workstation|datacenter|apple|apu", "memory_gib", "bandwidth_gbs", "fp16_tflops"|null,
//                     "chip_family": "nvidia-ada-geforce"|absent},   (absent: the catalog device the name matches,
//                     else guess_chip_family() from vendor, kind and name; catalog/chip_family.h)
//         "gpus": 1, "ubatch": 512, "batch": 2048, "backend": "cuda|rocm|metal|vulkan|cpu"|null, "flash_attn": true|false|null,
//         "test": {"kind": "prefill"|"decode", "tokens": 512, "depth": 0},
//         llama-bench's knobs, each optional (bench_knobs.h; absent = llama-bench's default, every weight on the GPUs):
//         "ngl": 20 (-ngl; 99 or -1 = all), "n_cpu_moe": 16 (--n-cpu-moe), "override_tensors": "exps=CPU" (-ot; only
//         routed-expert patterns "=CPU", else an error), "kv_type": "q8_0" or "type_k" / "type_v" (-ctk / -ctv),
//         "threads": 8 (-t; in the command only), "split_mode": "layer|row|none" (-sm), "tensor_split": [3, 1] (-ts),
//         and in an inline hardware object "host": {"cpu", "ram", "ram_gib", "ram_bandwidth_gbs", "source"}.
//         With -ngl / --n-cpu-moe / -ot / -ts the memory model places the weights (as llama-bench would, no --fit
//         search) and the host part runs at host RAM bandwidth (decode) or crosses PCIe once per ubatch (prefill).}
//   out: {"id": "...", "tokens_per_s": 123.4, "low": 100.0, "high": 140.0}   or   {"id": "...", "error": "..."}
#pragma once
#include <string>

#include <nlohmann/json.hpp>

#include "api/bench_knobs.h"
#include "catalog/catalog.h"
#include "speed/device_profile.h"
#include "speed/speed.h"

namespace llmsim {

struct PredictInput {
    std::string id;
    Model model;
    Hardware hardware;
    std::string quant;             // file type used for the weights and the kernel class
    SpeedScenario scenario;        // ready for estimate_speed()
    double total_params = 0;       // for the seed formula
    std::string device;            // hardware name without "(...)" details: the leave-one-device-out group
    std::string note;              // e.g. "config incomplete: used the catalog entry"; "fp16_tflops estimated"
    BenchKnobs knobs;              // -ngl, --n-cpu-moe, -ot, -ctk/-ctv, -t, -sm, -ts as the line gave them
};

// parse one scenario object; false + err naming the field and what would be valid
bool parse_predict_input(const Catalog& cat, const nlohmann::json& line, PredictInput& out, std::string& err);
// one input line -> one output line (no trailing newline); never throws, malformed lines give {"id", "error"}
// with explain = true the output also carries "explain": the named time terms (seconds per token), the inputs
// the scenario was built from and the fitted-parameter provenance
// with a device profile fitted on the scenario's device, the estimate is corrected by it and the output carries
// "calibrated": "calibrated on your N rows (...)"; every answer carries "llama_bench": the command that measures it
std::string predict_line(const Catalog& cat, const SpeedParams& params, const std::string& line, bool explain = false,
                         const DeviceProfile* profile = nullptr);
// the hardware field of a line (catalog id or inline object, filled from a catalog device it names); the serving
// lines (serving.h serve_predict_line) read theirs with it
bool predict_hardware_from_json(const Catalog& cat, const nlohmann::json& h, Hardware& out, std::string& note, std::string& err);

}  // namespace llmsim
