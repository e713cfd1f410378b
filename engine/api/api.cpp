#include "api/api.h"
#include "rig/resolve_device.h"
#include "rig/rig.h"

#include <cmath>

#include "catalog/model_names.h"
#include "model/hf_config.h"
#include "core/json_diag.h"
#include "core/input_limits.h"
#include "quant/quant_rules.h"

namespace llmsim {

using nlohmann::json;

json memory_to_json(const Model& model, const MemoryRequest& req, const MemoryBreakdown& mb) {
    const bool hw = req.hardware != nullptr;
    json j;
    j["model"] = model.id;
    j["quant"] = req.file_type;
    j["n_ctx"] = req.n_ctx;
    j["weights_bytes"] = mb.weights_bytes;
    j["kv_cache_bytes"] = mb.kv_cache_bytes;
    j["compute_bytes"] = mb.compute_bytes;
    j["overhead_bytes"] = mb.overhead_bytes;
    j["total_bytes"] = mb.total_bytes;
    j["usable_bytes"] = hw ? json(mb.usable_bytes) : json(nullptr);
    j["status"] = hw ? json(to_string(mb.status)) : json(nullptr);
    j["max_context"] = hw ? json(mb.max_context) : json(nullptr);
    j["gpu_layers"] = mb.gpu_layers;
    j["n_layers"] = mb.n_layers;
    j["bits_per_weight"] = mb.bits_per_weight;
    j["file_bytes"] = mb.file_bytes;
    j["devices"] = json::array();
    for (const DeviceMemory& d : mb.devices) {
        j["devices"].push_back({{"name", d.name}, {"weights_bytes", d.weights_bytes}, {"kv_cache_bytes", d.kv_cache_bytes},
                                {"compute_bytes", d.compute_bytes}, {"overhead_bytes", d.overhead_bytes},
                                {"total_bytes", d.total_bytes}});
        if (!d.hardware_id.empty()) {   // mixed rigs / RPC (rig/rig.h): which device, on which host, its limit, its layers
            json& x = j["devices"].back();
            x["hardware"] = d.hardware_id;
            x["host"] = d.host;
            x["usable_bytes"] = d.usable_bytes;
            x["n_layers"] = d.n_layers;
        }
    }
    j["notes"] = mb.notes;
    return j;
}

namespace {

json error_json(const std::string& msg) { return json{{"error", msg}}; }

// a whole number in [lo, hi] from a JSON value; false + err naming the key otherwise
bool get_int(const json& j, const char* key, int64_t lo, int64_t hi, int64_t& out, std::string& err) {
    auto it = j.find(key);
    if (it == j.end() || it->is_null()) return true;
    if (!it->is_number()) { err = std::string(key) + " must be a number"; return false; }
    double v = it->get<double>();
    if (!std::isfinite(v) || v != std::floor(v) || v < (double)lo || v > (double)hi) {
        err = std::string(key) + " must be a whole number from " + std::to_string(lo) + " to " + std::to_string(hi);
        return false;
    }
    out = (int64_t)v;
    return true;
}

// the rig fields of a memory request: tensor_split [3, 1], split_mode "layer"|"row"|"none", main_gpu, host_ram_gib
bool read_rig_fields(const json& j, MemoryRequest& req, std::string& err) {
    if (j.contains("tensor_split") && !j["tensor_split"].is_null()) {
        const json& t = j["tensor_split"];
        if (!t.is_array() || t.empty() || t.size() > (size_t)kMaxRigDevices) { err = "tensor_split must be an array of 1 to 16 proportions, e.g. [3, 1]"; return false; }
        for (const json& x : t) {
            if (!x.is_number() || !(x.get<double>() >= 0) || !std::isfinite(x.get<double>())) { err = "tensor_split proportions must be numbers >= 0"; return false; }
            req.tensor_split.push_back(x.get<double>());
        }
    }
    if (j.contains("split_mode") && !j["split_mode"].is_null()) {
        const auto m = j["split_mode"].is_string() ? parse_split_mode(j["split_mode"].get<std::string>()) : std::nullopt;
        if (!m) { err = "split_mode must be \"layer\", \"row\" or \"none\""; return false; }
        req.split_mode = *m;
    }
    int64_t v = req.main_gpu;
    if (!get_int(j, "main_gpu", 0, kMaxRigDevices - 1, v, err)) return false;
    req.main_gpu = (int)v;
    if (j.contains("host_ram_gib") && !j["host_ram_gib"].is_null()) {
        if (!j["host_ram_gib"].is_number() || !(j["host_ram_gib"].get<double>() >= 1 && j["host_ram_gib"].get<double>() <= 65536)) {
            err = "host_ram_gib must be a number from 1 to 65536";
            return false;
        }
        req.host_ram_bytes = (uint64_t)(j["host_ram_gib"].get<double>() * (double)kGiB);
    }
    return true;
}

}  // namespace

std::string api_memory(const Catalog& cat, const std::string& request_json) {
    json j = json::parse(request_json, nullptr, false);
    if (j.is_discarded()) return error_json("request is not valid JSON: " + sanitize_utf8(describe_json_error(request_json))).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    if (!j.is_object()) return error_json("request must be a JSON object, e.g. {\"model\": \"Qwen/Qwen2.5-7B-Instruct\", \"quant\": \"Q4_K_M\", \"ctx\": 8192}").dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    std::string err;
    Model model;
    ResolvedModel named;   // set when the name was resolved (its file type, when the name implies one)
    const std::string id = j.contains("model") && j["model"].is_string() ? j["model"].get<std::string>() : "";
    if (j.contains("config") && j["config"].is_object()) {
        if (!model_from_hf_config(j["config"].dump(-1, ' ', false, nlohmann::json::error_handler_t::replace), id.empty() ? "custom" : id, model, err)) return error_json("config: " + err).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    } else if (id.empty()) {
        return error_json("model is required (a catalog id such as \"Qwen/Qwen2.5-7B-Instruct\", or pass config)").dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    } else if (auto r = resolve_model_name(cat, id, err)) {   // catalog id, Ollama tag ("qwen2.5:7b"), hf.co/ or GGUF repo
        model = *r->model;
        named = std::move(*r);
    } else {
        return error_json(sanitize_utf8(with_model_hint(err, "pass its config.json as \"config\""))).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    }
    MemoryRequest req;
    if (!named.file_type.empty()) req.file_type = named.file_type;
    if (j.contains("quant")) {
        if (!j["quant"].is_string()) return error_json("quant must be a string such as \"Q4_K_M\"").dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
        const std::string q = j["quant"].get<std::string>();
        if (named.model && !pick_file_type(named, &q, err)) return error_json(sanitize_utf8(err)).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
        req.file_type = q;
    }
    int64_t v = req.n_ctx;
    if (!get_int(j, "ctx", 1, kMaxContextTokens, v, err)) return error_json(err).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);   // limits.h: the same range as the CLI and the URL state
    req.n_ctx = v;
    if (j.contains("hardware") && !j["hardware"].is_null()) {
        if (!j["hardware"].is_string()) return error_json("hardware must be a catalog id string such as \"rtx-4090\"").dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
        std::string hw_id = j["hardware"].get<std::string>();
        if (j.contains("rpc_hosts") && !j["rpc_hosts"].is_null()) {   // "m2-ultra-192@10gbe,..." (rig/rig.h)
            if (!j["rpc_hosts"].is_string()) return error_json("rpc_hosts must be a string such as \"m2-ultra-192@10gbe\"").dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
            hw_id = rig_id_with_rpc_hosts(hw_id, j["rpc_hosts"].get<std::string>());
        }
        req.hardware = resolve_device(cat, hw_id, err);
        if (!err.empty()) return error_json(sanitize_utf8(err)).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
        if (!req.hardware) return error_json("unknown hardware '" + sanitize_utf8(hw_id) + "' (a catalog id such as \"rtx-4090\" or \"m4-max-128\")").dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    }
    if (!read_rig_fields(j, req, err)) return error_json(err).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    if (j.contains("kv_type")) {
        auto t = j["kv_type"].is_string() ? parse_tensor_type(j["kv_type"].get<std::string>()) : std::nullopt;
        if (!t) return error_json("kv_type must be f16, bf16, f32, q8_0, q5_1, q5_0, q4_1, q4_0 or iq4_nl").dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
        req.kv_type_k = req.kv_type_v = *t;
    }
    v = req.n_gpu_layers;
    if (!get_int(j, "ngl", -1, kMaxGpuLayers, v, err)) return error_json(err).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    req.n_gpu_layers = (int)v;
    v = req.n_parallel;
    if (!get_int(j, "parallel", 1, kMaxParallelSequences, v, err)) return error_json(err).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    req.n_parallel = (int)v;
    v = req.n_ubatch;
    if (!get_int(j, "ubatch", 1, kMaxUbatch, v, err)) return error_json(err).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    req.n_ubatch = (int)v;
    v = req.n_cpu_moe;
    if (!get_int(j, "n_cpu_moe", 0, kMaxGpuLayers, v, err)) return error_json(err).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    req.n_cpu_moe = (int)v;
    v = 0;
    if (!get_int(j, "file_bytes", 0, INT64_MAX / 2, v, err)) return error_json(err).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    if (v > 0) req.file_bytes_override = (uint64_t)v;  // "file_bytes": 0 (or absent) = from the rules
    if (j.contains("flash_attn") && !j["flash_attn"].is_null()) {
        if (!j["flash_attn"].is_boolean()) return error_json("flash_attn must be true or false").dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
        req.flash_attn = j["flash_attn"].get<bool>();
    }
    MemoryBreakdown mb;
    if (!estimate_memory(cat, model, req, mb, err)) return error_json(err).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    return memory_to_json(model, req, mb).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

nlohmann::json cost_to_json(const CostResult& r) {
    if (!r.error.empty()) return {{"error", r.error}};
    auto opt = [](double v) { return v >= 0 ? nlohmann::json(v) : nlohmann::json(nullptr); };
    return {{"hours_needed_per_month", r.hours_needed_per_month}, {"devices_needed", r.devices_needed},
            {"active_hours_per_month", r.active_hours_per_month}, {"utilisation", r.utilisation},
            {"capacity_tokens_per_month", opt(r.capacity_mtok_per_month >= 0 ? r.capacity_mtok_per_month * 1e6 : -1)},
            {"load_over_capacity", r.load_over_capacity}, {"served_share", r.served_share}, {"capacity_note", capacity_note(r)},
            {"own_usd_per_month", r.own_usd_per_month}, {"own_amortization_usd_per_month", r.own_amortization_usd_per_month},
            {"own_power_usd_per_month", r.own_power_usd_per_month}, {"rent_usd_per_month", opt(r.rent_usd_per_month)},
            {"api_usd_per_month", opt(r.api_usd_per_month)}, {"payback_months", opt(r.payback_months)}, {"cheapest", r.cheapest}};
}

}  // namespace llmsim
