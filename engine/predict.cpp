#include "predict.h"

#include <cmath>

#include "command.h"
#include "hf_config.h"
#include "prepared_weights.h"
#include "simulate.h"
#include "speed_glue.h"

namespace llmsim {

using nlohmann::json;

namespace {

bool number_field(const json& j, const char* key, double& out, bool required, std::string& err, double lo, double hi) {
    auto it = j.find(key);
    if (it == j.end() || it->is_null()) {
        if (required) { err = std::string(key) + " is required"; return false; }
        return true;
    }
    if (!it->is_number()) { err = std::string(key) + " must be a number"; return false; }
    double v = it->get<double>();
    if (!std::isfinite(v) || v < lo || v > hi) {
        err = std::string(key) + " must be between " + std::to_string(lo) + " and " + std::to_string(hi);
        return false;
    }
    out = v;
    return true;
}

std::string device_key(const std::string& name) {
    std::string n = name;
    size_t p = n.find(" (");
    if (p != std::string::npos) n = n.substr(0, p);
    size_t g = n.find(" Generation");
    if (g != std::string::npos) n = n.substr(0, g);
    return n;
}

bool hardware_from_json(const Catalog& cat, const json& h, Hardware& out, std::string& err) {
    if (h.is_string()) {
        const Hardware* hw = cat.find_hardware(h.get<std::string>());
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
    if (kind == "consumer") out.kind = HardwareKind::Consumer;
    else if (kind == "workstation") out.kind = HardwareKind::Workstation;
    else if (kind == "datacenter") out.kind = HardwareKind::Datacenter;
    else if (kind == "apple") out.kind = HardwareKind::Apple;
    else if (kind == "apu") out.kind = HardwareKind::Apu;
    else if (kind == "cpu") out.kind = HardwareKind::Cpu;
    else { err = "hardware.kind '" + kind + "' is not consumer|workstation|datacenter|apple|apu|cpu"; return false; }
    double mem = 0, bw = 0, tf = 0;
    if (!number_field(h, "memory_gib", mem, false, err, 0, 1e6)) { err = "hardware." + err; return false; }
    if (!number_field(h, "bandwidth_gbs", bw, true, err, 0.01, 1e6)) { err = "hardware." + err; return false; }
    if (!number_field(h, "fp16_tflops", tf, false, err, 0, 1e6)) { err = "hardware." + err; return false; }
    out.memory_bytes = (int64_t)(mem * (double)kGiB);
    out.bandwidth_gbs = bw;
    out.fp16_tflops = tf;   // 0 = unknown: the speed model estimates it from class and bandwidth and says so
    out.fp16_tflops_estimated = tf <= 0;
    // default backend by vendor (the row's "backend" overrides it)
    if (out.kind == HardwareKind::Cpu) out.backends = {Backend::Cpu};
    else if (out.vendor == "nvidia") out.backends = {Backend::Cuda};
    else if (out.vendor == "amd") out.backends = {Backend::Rocm};
    else if (out.vendor == "apple" || out.kind == HardwareKind::Apple) out.backends = {Backend::Metal};
    else if (out.vendor == "intel") out.backends = {Backend::Sycl};
    else out.backends = {Backend::Vulkan};
    return true;
}

}  // namespace

bool parse_predict_input(const Catalog& cat, const json& j, PredictInput& out, std::string& err) {
    out = PredictInput();
    if (!j.is_object()) { err = "each line must be a JSON object"; return false; }
    out.id = j.contains("id") && j["id"].is_string() ? j["id"].get<std::string>() : "";
    const std::string model_id = j.contains("model") && j["model"].is_string() ? j["model"].get<std::string>() : "";
    // model: config wins; an incomplete config of a model the catalog knows falls back to the catalog entry
    if (j.contains("config") && !j["config"].is_null()) {
        if (!j["config"].is_object()) { err = "config must be a JSON object (a Hugging Face config.json)"; return false; }
        std::string e;
        if (!model_from_hf_config(j["config"].dump(-1, ' ', false, nlohmann::json::error_handler_t::replace), model_id.empty() ? "custom" : model_id, out.model, e)) {
            const Model* m = cat.find_model(model_id);
            if (!m) { err = "config: " + e; return false; }
            out.model = *m;
            out.note = "config incomplete (" + e + "): used the catalog entry";
        }
    } else {
        const Model* m = cat.find_model(model_id);
        if (!m) {
            err = model_id.empty() ? "model is required (a catalog or Hugging Face id), or a config object"
                                   : "unknown model '" + model_id + "' (not in the catalog; pass its config.json as \"config\")";
            return false;
        }
        out.model = *m;
    }
    // quant
    out.quant = "Q4_K_M";
    if (j.contains("quant") && !j["quant"].is_null()) {
        if (!j["quant"].is_string()) { err = "quant must be a llama.cpp file type such as \"Q4_K_M\", or null"; return false; }
        out.quant = j["quant"].get<std::string>();
        if (!cat.find_file_type(out.quant)) { err = "unknown quant '" + out.quant + "' (llmsim-cli catalog --quants lists them)"; return false; }
    }
    double size_gib = 0;
    if (!number_field(j, "model_size_gib", size_gib, false, err, 0, 1e6)) return false;
    // hardware
    if (!j.contains("hardware")) { err = "hardware is required (a catalog id or an object)"; return false; }
    if (!hardware_from_json(cat, j["hardware"], out.hardware, err)) return false;
    double gpus = 1;
    if (!number_field(j, "gpus", gpus, false, err, 1, 1024)) return false;
    if (gpus != std::floor(gpus)) { err = "gpus must be a whole number"; return false; }
    if (j.contains("gpus") && j["gpus"].is_number()) out.hardware.gpu_count = (int)gpus;
    if (j.contains("backend") && !j["backend"].is_null()) {
        if (!j["backend"].is_string()) { err = "backend must be cuda|rocm|metal|vulkan|sycl|cpu or null"; return false; }
        std::string b = j["backend"].get<std::string>();
        Backend be;
        if (b == "cuda") be = Backend::Cuda; else if (b == "rocm") be = Backend::Rocm; else if (b == "metal") be = Backend::Metal;
        else if (b == "vulkan") be = Backend::Vulkan; else if (b == "sycl") be = Backend::Sycl; else if (b == "cpu") be = Backend::Cpu;
        else { err = "backend '" + b + "' is not cuda|rocm|metal|vulkan|sycl|cpu"; return false; }
        out.hardware.backends.insert(out.hardware.backends.begin(), be);
    }
    bool fa = false;   // null: llama-bench's long-standing default (off)
    if (j.contains("flash_attn") && !j["flash_attn"].is_null()) {
        if (!j["flash_attn"].is_boolean()) { err = "flash_attn must be true, false or null"; return false; }
        fa = j["flash_attn"].get<bool>();
    }
    // test
    if (!j.contains("test") || !j["test"].is_object()) { err = "test is required: {\"kind\": \"prefill\"|\"decode\", \"tokens\": N, \"depth\": D}"; return false; }
    const json& t = j["test"];
    std::string kind = t.contains("kind") && t["kind"].is_string() ? t["kind"].get<std::string>() : "";
    if (kind != "prefill" && kind != "decode") { err = "test.kind must be \"prefill\" or \"decode\""; return false; }
    double tokens = 0, depth = 0;
    if (!number_field(t, "tokens", tokens, true, err, 1, 1e8)) { err = "test." + err; return false; }
    if (!number_field(t, "depth", depth, false, err, 0, 1e8)) { err = "test." + err; return false; }

    // weights as the memory model lays them out, scaled to the measured file size when given
    const uint64_t size_override = size_gib > 0 ? (uint64_t)(size_gib * (double)kGiB) : 0;
    std::shared_ptr<const PreparedWeights> w = prepare_weights(cat, out.model, out.quant, err, 0);
    if (!w) return false;
    if (size_override && w->tensor_data_bytes > 0) {
        // llama-bench prints the tensor data size: scale to it (file_bytes_override scales against the file size)
        const double f = (double)size_override / (double)w->tensor_data_bytes;
        w = prepare_weights(cat, out.model, out.quant, err, (uint64_t)std::llround((double)w->file_bytes_estimate * f));
        if (!w) return false;
    }
    Evaluation ev;   // no memory placement: a benchmark row ran fully on its GPU(s)
    ev.params = w->params;
    ev.active_weight_bytes = w->active_weight_bytes;
    ev.weight_bytes = w->weights_bytes;
    ev.embedding_bytes = w->token_embd_bytes;
    ev.routed_expert_bytes = w->gguf_routed_expert_bytes;
    if (!w->full_layers_prefix.empty() && !w->swa_layers_prefix.empty()) {
        ev.full_attn_layers = w->full_layers_prefix.back();
        ev.swa_layers = w->swa_layers_prefix.back();
        ev.kv_k_row = w->kv_k_row;
        ev.kv_v_row = w->kv_v_row;
    }
    SimRequest req;
    req.memory.file_type = out.quant;
    req.memory.hardware = &out.hardware;
    req.memory.flash_attn = fa;
    if (!build_speed_scenario(out.model, req, ev, out.scenario, err)) return false;
    out.scenario.test = kind == "prefill" ? SpeedTest::Prefill : SpeedTest::Decode;
    out.scenario.tokens = (int64_t)tokens;
    out.scenario.depth = (int64_t)depth;
    out.total_params = (double)w->params.total;
    out.device = device_key(out.hardware.name);
    if (out.hardware.fp16_tflops <= 0) out.note += std::string(out.note.empty() ? "" : "; ") + "fp16_tflops estimated from class and bandwidth";
    return true;
}

std::string predict_line(const Catalog& cat, const SpeedParams& params, const std::string& line, bool explain,
                         const DeviceProfile* profile) {
    json in = json::parse(line, nullptr, false);
    json out;
    if (in.is_discarded()) return json{{"id", nullptr}, {"error", "not valid JSON"}}.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    out["id"] = in.is_object() && in.contains("id") ? in["id"] : json(nullptr);
    PredictInput p;
    std::string err;
    if (!parse_predict_input(cat, in, p, err)) { out["error"] = err; return out.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace); }
    SpeedResult r = estimate_speed(p.scenario, params);
    if (!r.ok || !std::isfinite(r.tokens_per_s) || r.tokens_per_s <= 0) {
        out["error"] = r.error.empty() ? "no finite estimate for this scenario" : r.error;
        return out.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    }
    if (profile && profile_applies(*profile, p.hardware)) {
        apply_device_profile(*profile, p.scenario.test, r);
        out["calibrated"] = calibrated_label(*profile);
    }
    out["tokens_per_s"] = r.tokens_per_s;
    out["low"] = r.low;
    out["high"] = r.high;
    {   // the llama-bench run that measures exactly this row
        const SpeedScenario& s = p.scenario;
        const bool pp = s.test == SpeedTest::Prefill;
        out["llama_bench"] = "llama-bench -m " + gguf_file_name(p.model, p.quant) + (pp ? " -p " + std::to_string(s.tokens) + " -n 0"
                                                                                      : " -p 0 -n " + std::to_string(s.tokens)) +
                             " -d " + std::to_string(s.depth) + (s.flash_attn ? " -fa 1" : " -fa 0") + " -ngl 99" +
                             (s.ubatch != 512 ? " -ub " + std::to_string(s.ubatch) : "");
    }
    if (explain) {
        const SpeedScenario& s = p.scenario;
        const bool dec = s.test == SpeedTest::Decode;
        json terms = dec ? json{{"weights_s_per_token", r.weight_time_s}, {"kv_cache_s_per_token", r.kv_time_s},
                                {"dequant_alu_s_per_token", r.alu_time_s}, {"launch_sync_s_per_token", r.fixed_time_s},
                                {"gpu_handoff_s_per_token", r.sync_time_s}, {"host_ram_s_per_token", r.offload_time_s}}
                         : json{{"matmul_s_per_token", r.compute_time_s}, {"attention_s_per_token", r.attention_time_s},
                                {"ubatch_overhead_s_per_token", r.overhead_time_s}, {"gpu_handoff_s_per_token", r.sync_time_s},
                                {"host_ram_s_per_token", r.offload_time_s}};
        out["explain"] = {
            {"formula", dec ? "tokens/s = 1 / (weights/(BW x share) + KV x kv_factor/(BW x share) + dequant/ALU (partly overlapped) + launches/syncs per layer + GPU hand-offs + host-RAM layers), averaged over the generated tokens"
                            : "tokens/s = tokens / (per ubatch: max(2 x active params FLOPs / effective FLOP/s, one weight read / BW) + causal attention + overhead), pipelined over GPUs"},
            {"terms", terms},
            {"bound", r.bound},
            {"inputs", {{"model", p.model.id}, {"quant", p.quant}, {"weight_class", to_string(s.weight_class)},
                        {"weight_bytes", s.weight_bytes}, {"weight_bytes_per_token", s.weight_bytes_per_token},
                        {"active_params", s.active_params}, {"kv_bytes_per_token_full", s.kv_bytes_per_token_full},
                        {"kv_bytes_per_token_swa", s.kv_bytes_per_token_swa}, {"hardware", p.hardware.name},
                        {"hardware_class", to_string(s.kind)}, {"memory_kind", to_string(s.memory)},
                        {"backend", to_string(s.backend)}, {"bandwidth_gbs", s.bandwidth_gbs}, {"fp16_tflops", s.fp16_tflops},
                        {"fp16_tflops_estimated", r.fp16_tflops_estimated}, {"gpus", s.gpus}, {"flash_attn", s.flash_attn},
                        {"tokens", s.tokens}, {"depth", s.depth}}},
            {"band", "low/high = 10th/90th percentile of leave-one-device-out errors for the hardware class"},
            {"fit", {{"decode_rows", params.fit_rows_decode}, {"prefill_rows", params.fit_rows_prefill},
                     {"devices", params.fit_devices}, {"source", params.fit_source}}},
            {"note", p.note}};
    }
    return out.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace llmsim
