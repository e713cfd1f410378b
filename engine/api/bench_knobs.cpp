// llama-bench's knobs on a predict line: parsing, the placement request and the command flags. See bench_knobs.h.
#include "api/bench_knobs.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "api/tensor_overrides.h"
#include "core/json_diag.h"
#include "core/text.h"
#include "model/model_tensors.h"
#include "quant/quant_types.h"

namespace llmsim {

using nlohmann::json;

namespace {

// a whole number field in [lo, hi]; absent or null leaves out unset
bool whole_field(const json& j, const char* key, int lo, int hi, std::optional<int>& out, std::string& err) {
    if (!j.contains(key) || j[key].is_null()) return true;
    double v = 0;
    if (!json_number_field(j, key, v, true, err, lo, hi)) return false;
    if (v != std::floor(v)) { err = std::string(key) + " must be a whole number"; return false; }
    out = (int)v;
    return true;
}

// the KV cache types llama.cpp accepts for -ctk / -ctv (common/arg.cpp kv_cache_types)
constexpr const char* kKvCacheTypes[] = {"f32", "f16", "bf16", "q8_0", "q4_0", "q4_1", "iq4_nl", "q5_0", "q5_1"};

}  // namespace

std::vector<std::string> kv_cache_types() { return {std::begin(kKvCacheTypes), std::end(kKvCacheTypes)}; }

namespace {
bool kv_type_field(const json& j, const char* key, std::optional<TensorType>& out, std::string& err) {
    if (!j.contains(key) || j[key].is_null()) return true;
    const std::string valid = "f32|f16|bf16|q8_0|q4_0|q4_1|iq4_nl|q5_0|q5_1";
    if (!j[key].is_string()) { err = std::string(key) + " must be a KV cache type: " + valid; return false; }
    const std::string s = lower_ascii(j[key].get<std::string>());
    const auto ok = std::find_if(std::begin(kKvCacheTypes), std::end(kKvCacheTypes), [&](const char* t) { return s == t; });
    std::optional<TensorType> t = ok != std::end(kKvCacheTypes) ? parse_tensor_type(s) : std::nullopt;
    if (!t) { err = std::string(key) + " '" + j[key].get<std::string>() + "' is not a KV cache type llama.cpp accepts: " + valid; return false; }
    out = t;
    return true;
}

// kv_type (both caches) or type_k / type_v (llama-bench's columns), not both
bool parse_kv_types(const json& j, bool flash_attn, BenchKnobs& out, std::string& err) {
    std::optional<TensorType> both;
    if (!kv_type_field(j, "kv_type", both, err) || !kv_type_field(j, "type_k", out.type_k, err) ||
        !kv_type_field(j, "type_v", out.type_v, err))
        return false;
    if (both && (out.type_k || out.type_v)) { err = "give kv_type (both caches) or type_k / type_v, not both"; return false; }
    if (both) out.type_k = out.type_v = both;
    if (out.type_v && *out.type_v != TensorType::F16 && *out.type_v != TensorType::F32 && *out.type_v != TensorType::BF16 &&
        !flash_attn) {
        err = "a quantized V cache (type_v / kv_type " + lower_ascii(std::string(to_string(*out.type_v))) +
              ") needs flash_attn true: llama.cpp refuses it without flash attention";
        return false;
    }
    return true;
}

// -ts: an array of proportions or llama-bench's "3/1" (its table prints "3.00/1.00"), one per GPU
bool parse_tensor_split(const json& j, int gpus, BenchKnobs& out, std::string& err) {
    if (!j.contains("tensor_split") || j["tensor_split"].is_null()) return true;
    const json& t = j["tensor_split"];
    std::vector<double> parts;
    if (t.is_array()) {
        for (const json& v : t) {
            if (!v.is_number()) { err = "tensor_split must hold numbers (one proportion per GPU)"; return false; }
            parts.push_back(v.get<double>());
        }
    } else if (t.is_string()) {
        const std::string s = t.get<std::string>();
        size_t a = 0;
        while (a <= s.size()) {
            const size_t b = std::min(s.find('/', a), s.size());
            char* end = nullptr;
            const std::string part = s.substr(a, b - a);
            const double v = std::strtod(part.c_str(), &end);
            if (part.empty() || end != part.c_str() + part.size()) { err = "tensor_split '" + s + "' is not proportions like \"3/1\""; return false; }
            parts.push_back(v);
            a = b + 1;
        }
    } else {
        err = "tensor_split must be an array of proportions ([3, 1]) or llama-bench's \"3/1\"";
        return false;
    }
    double sum = 0;
    for (double v : parts) {
        if (!std::isfinite(v) || v < 0) { err = "tensor_split proportions must be numbers >= 0"; return false; }
        sum += v;
    }
    if (gpus < 2) { err = "tensor_split needs gpus of 2 or more (it spreads layers over GPUs)"; return false; }
    if ((int)parts.size() != gpus) {
        err = "tensor_split has " + std::to_string(parts.size()) + " proportions for " + std::to_string(gpus) + " GPUs";
        return false;
    }
    if (!(sum > 0)) { err = "tensor_split proportions must not all be zero"; return false; }
    out.tensor_split = parts;
    return true;
}

// -ngl, --n-cpu-moe and -ot: where the weights go
bool parse_placement(const json& j, const Model& m, BenchKnobs& out, std::string& err) {
    if (!whole_field(j, "ngl", -1, 100000, out.ngl, err)) return false;
    std::optional<int> ncmoe;
    if (!whole_field(j, "n_cpu_moe", 0, 100000, ncmoe, err)) return false;
    out.n_cpu_moe = ncmoe.value_or(0);
    if (out.n_cpu_moe > 0 && !m.is_moe()) {
        err = "n_cpu_moe " + std::to_string(out.n_cpu_moe) + " on " + m.id + ", which has no routed experts (use ngl for a dense model)";
        return false;
    }
    if (j.contains("override_tensors") && !j["override_tensors"].is_null()) {
        if (!j["override_tensors"].is_string() || j["override_tensors"].get<std::string>().empty()) {
            err = "override_tensors must be llama-bench's -ot value, e.g. \"exps=CPU\" or \"blk\\\\.(1[0-9])\\\\.ffn_.*_exps=CPU\"";
            return false;
        }
        out.override_tensors = j["override_tensors"].get<std::string>();
        if (!expert_layers_on_host(m, out.override_tensors, out.ot_layers, err)) return false;
    }
    out.offload = (out.ngl && *out.ngl >= 0 && *out.ngl <= m.n_layers) || out.n_cpu_moe > 0 || !out.ot_layers.empty();
    return true;
}

}  // namespace

void BenchKnobs::apply(const Model& m, MemoryRequest& mr) const {
    const int L = m.n_layers;
    mr.n_gpu_layers = !ngl || *ngl < 0 ? L + 1 : std::min(*ngl, L + 1);
    // llama.cpp keeps the union of --n-cpu-moe's leading layers and -ot's layers on the CPU; the memory model takes a
    // count of leading layers, so the union becomes the leading run holding as many MoE layers
    int on_host = 0;
    for (int il = 0; il < L; ++il)
        if (layer_is_moe(m, il) && (il < n_cpu_moe || std::binary_search(ot_layers.begin(), ot_layers.end(), il))) ++on_host;
    int lead = 0;
    for (int seen = 0; seen < on_host && lead < L; ++lead) seen += layer_is_moe(m, lead) ? 1 : 0;
    mr.n_cpu_moe = lead;
    if (type_k) mr.kv_type_k = *type_k;
    if (type_v) mr.kv_type_v = *type_v;
    if (split_mode) mr.split_mode = *split_mode;
    mr.tensor_split = tensor_split;
}

bool parse_bench_knobs(const json& j, const Model& m, int gpus, bool flash_attn, BenchKnobs& out, std::string& err) {
    out = BenchKnobs();
    if (!parse_placement(j, m, out, err)) return false;
    if (!parse_kv_types(j, flash_attn, out, err)) return false;
    if (!whole_field(j, "threads", 1, 4096, out.threads, err)) return false;
    if (j.contains("split_mode") && !j["split_mode"].is_null()) {
        std::optional<SplitMode> sm = j["split_mode"].is_string() ? parse_split_mode(j["split_mode"].get<std::string>()) : std::nullopt;
        if (!sm) { err = "split_mode must be \"layer\", \"row\" or \"none\" (llama-bench -sm)"; return false; }
        out.split_mode = sm;
    }
    return parse_tensor_split(j, gpus, out, err);
}

std::string llama_bench_flags(const BenchKnobs& k) {
    std::string f;
    if (k.n_cpu_moe > 0) f += " -ncmoe " + std::to_string(k.n_cpu_moe);
    if (!k.override_tensors.empty()) f += " -ot \"" + k.override_tensors + "\"";
    if (k.type_k && *k.type_k != TensorType::F16) f += " -ctk " + lower_ascii(std::string(to_string(*k.type_k)));
    if (k.type_v && *k.type_v != TensorType::F16) f += " -ctv " + lower_ascii(std::string(to_string(*k.type_v)));
    if (k.threads) f += " -t " + std::to_string(*k.threads);
    if (k.split_mode) f += std::string(" -sm ") + to_string(*k.split_mode);
    for (size_t i = 0; i < k.tensor_split.size(); ++i) {
        char buf[32];
        snprintf(buf, sizeof buf, "%g", k.tensor_split[i]);
        f += (i ? "/" : " -ts ") + std::string(buf);
    }
    return f;
}

}  // namespace llmsim
