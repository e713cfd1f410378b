// The JSON forms of serving: a request (CLI --json input, the JS API's serve()), a result, and the `predict`
// contract's test.kind "serving" lines.
//
// [SECTION] Reading fields
// [SECTION] Request
// [SECTION] Result
// [SECTION] predict lines

#include <chrono>
#include <cmath>

#include <nlohmann/json.hpp>

#include "rig/resolve_device.h"
#include "catalog/catalog.h"
#include "model/hf_config.h"
#include "serving/serving.h"
#include "serving/serving_internal.h"

namespace llmsim {

using nlohmann::json;

namespace {

// [SECTION] Reading fields -------------------------------------------------------------------------------

bool num(const json& j, const char* key, double& out, double lo, double hi, std::string& err, const std::string& where) {
    if (!j.contains(key) || j[key].is_null()) return true;
    if (!j[key].is_number()) { err = where + key + ": must be a number"; return false; }
    double v = j[key].get<double>();
    if (!std::isfinite(v) || v < lo || v > hi) {
        char b[160]; snprintf(b, sizeof b, "%s%s: %g is out of range (%g to %g)", where.c_str(), key, v, lo, hi); err = b; return false;
    }
    out = v;
    return true;
}
bool integer(const json& j, const char* key, int64_t& out, double lo, double hi, std::string& err, const std::string& where) {
    double v = (double)out;
    if (!num(j, key, v, lo, hi, err, where)) return false;
    if (v != std::floor(v)) { err = where + key + ": must be a whole number"; return false; }
    out = (int64_t)v;
    return true;
}
bool str(const json& j, const char* key, std::string& out, std::string& err) {
    if (!j.contains(key) || j[key].is_null()) return true;
    if (!j[key].is_string()) { err = std::string(key) + ": must be a string"; return false; }
    out = j[key].get<std::string>();
    return true;
}

// "rate_stages": [{"rate": R, "duration_s": D}, ...] (inference-perf load.stages); unknown keys refused
bool parse_rate_stages(const json& t, ServeWorkload& w, std::string& err, const std::string& where) {
    if (!t.contains("rate_stages") || t["rate_stages"].is_null()) return true;
    const json& a = t["rate_stages"];
    const std::string at = where + ".rate_stages";
    if (!a.is_array() || a.empty() || a.size() > 200) { err = at + ": must be a list of 1 to 200 {\"rate\", \"duration_s\"}"; return false; }
    std::vector<ServeWorkload::RateStage> stages;
    for (const json& e : a) {
        if (!e.is_object()) { err = at + ": each stage must be {\"rate\": R, \"duration_s\": D}"; return false; }
        for (auto it = e.begin(); it != e.end(); ++it)
            if (it.key() != "rate" && it.key() != "duration_s") { err = at + "." + it.key() + ": unknown key (rate, duration_s)"; return false; }
        ServeWorkload::RateStage sg;
        if (!e.contains("rate") || !e.contains("duration_s")) { err = at + ": each stage needs rate and duration_s"; return false; }
        if (!num(e, "rate", sg.rate, 1e-9, 1e5, err, at + ".") || !num(e, "duration_s", sg.duration_s, 1e-9, 86400, err, at + ".")) return false;
        stages.push_back(sg);
    }
    w.rate_stages = stages;
    return true;
}

// the sharing keys of a workload: "shared_prefix_len" (tokens every prompt shares), "turns" and "think_time_s"
// (multi-turn sessions); serve() checks them against input_len (validate_prefix_request)
bool parse_sessions(const json& t, ServeWorkload& w, std::string& err, const std::string& where) {
    int64_t v = w.shared_prefix_len;
    if (!integer(t, "shared_prefix_len", v, 0, 1e7, err, where + ".")) return false;
    w.shared_prefix_len = v;
    v = w.turns; if (!integer(t, "turns", v, 1, 1000, err, where + ".")) return false; w.turns = (int)v;
    v = w.session_prefix_len; if (!integer(t, "session_prefix_len", v, 0, 1e7, err, where + ".")) return false; w.session_prefix_len = v;
    v = w.prefix_groups; if (!integer(t, "prefix_groups", v, 1, 100000, err, where + ".")) return false; w.prefix_groups = (int)v;
    v = w.prompts_per_group; if (!integer(t, "prompts_per_group", v, 0, 1000000, err, where + ".")) return false; w.prompts_per_group = (int)v;
    if (!parse_rate_stages(t, w, err, where)) return false;
    return num(t, "think_time_s", w.think_time_s, 0, 86400, err, where + ".");
}

// "prefix_caching": true / false / null (the engine's default); "kv_offload": {"cpu_gib": N, "nvme_gib": N}
bool parse_prefix_keys(const json& j, ServeRequest& r, std::string& err) {
    if (j.contains("prefix_caching") && !j["prefix_caching"].is_null()) {
        if (!j["prefix_caching"].is_boolean()) { err = "prefix_caching: must be true, false or null (the engine's default)"; return false; }
        r.prefix_caching = j["prefix_caching"].get<bool>() ? 1 : 0;
    }
    if (j.contains("kv_offload") && !j["kv_offload"].is_null()) {
        const json& o = j["kv_offload"];
        if (!o.is_object()) { err = "kv_offload: must be an object {\"cpu_gib\": N, \"nvme_gib\": N}"; return false; }
        for (auto it = o.begin(); it != o.end(); ++it)
            if (it.key() != "cpu_gib" && it.key() != "nvme_gib") { err = "kv_offload." + it.key() + ": unknown key (cpu_gib, nvme_gib)"; return false; }
        if (!num(o, "cpu_gib", r.kv_offload.cpu_gib, 0, 65536, err, "kv_offload.") ||
            !num(o, "nvme_gib", r.kv_offload.nvme_gib, 0, 1048576, err, "kv_offload."))
            return false;
    }
    return true;
}

// the workload from a {"input_len", "output_len", "dataset"|"dist", "range_ratio", "concurrency", "request_rate",
// "num_prompts", "seed", "warm_first_prompt"} object (a predict line's "test" has the same keys)
bool parse_workload(const json& t, ServeWorkload& w, std::string& err, const std::string& where) {
    if (!t.is_object()) { err = where + ": must be an object"; return false; }
    int64_t v;
    v = w.input_len; if (!integer(t, "input_len", v, 1, 1e7, err, where + ".")) return false; w.input_len = v;
    v = w.output_len; if (!integer(t, "output_len", v, 1, 1e6, err, where + ".")) return false; w.output_len = v;
    std::string ds, dist;
    if (!str(t, "dataset", ds, err) || !str(t, "dist", dist, err)) { err = where + "." + err; return false; }
    bool in_null = t.contains("input_len") && t["input_len"].is_null();
    if (dist == "sharegpt" || ds.find("sharegpt") != std::string::npos || ds.find("ShareGPT") != std::string::npos || in_null) {
        w.dist = LengthDist::ShareGpt;
        if (in_null) w.input_len = kShareGptMeanInputTokens;   // dataset named, lengths not: serving.h
        if (t.contains("output_len") && t["output_len"].is_null()) w.output_len = kShareGptMeanOutputTokens;
    } else if (dist == "uniform" || ds.find("range_ratio 0.0") != std::string::npos ||
               ds.find("random_range_ratio 0.0") != std::string::npos || ds.find("sglang default random") != std::string::npos) {
        w.dist = LengthDist::Uniform; w.range_ratio = 1.0;   // sglang random_range_ratio 0: uniform in [1, len]
    } else if (!dist.empty() && dist != "fixed") {
        err = where + ".dist: '" + dist + "' is not fixed, uniform or sharegpt"; return false;
    }
    if (!num(t, "range_ratio", w.range_ratio, 0, 1, err, where + ".")) return false;
    v = 0; if (!integer(t, "concurrency", v, 1, 100000, err, where + ".")) return false;
    w.concurrency = (int)v;
    w.request_rate = 0; w.burst = false;
    if (t.contains("request_rate") && !t["request_rate"].is_null()) {
        const json& r = t["request_rate"];
        if (r.is_string() && (r == "inf" || r == "Infinity")) { if (w.concurrency <= 0) w.burst = true; }
        else if (r.is_number() && r.get<double>() > 0 && std::isfinite(r.get<double>())) { if (w.concurrency <= 0) w.request_rate = r.get<double>(); }
        else { err = where + ".request_rate: must be a number > 0, \"inf\" or null"; return false; }
    }
    const bool staged = t.contains("rate_stages") && !t["rate_stages"].is_null();
    if (w.concurrency <= 0 && w.request_rate <= 0 && !w.burst && !staged) w.burst = true;   // nothing paces the requests
    v = w.num_prompts; if (!integer(t, "num_prompts", v, 1, 1e7, err, where + ".")) return false;
    w.num_prompts = (int)v;
    // a predict line's {"concurrency": C, "request_rate": null} without num_prompts is a static batch of C
    // (serving.jsonl README: LMDeploy profile_generation): all C start together, so it is one burst of C and its
    // TTFT is the whole batch's prefill, not a staggered closed loop's
    bool rate_null = t.contains("request_rate") && t["request_rate"].is_null();
    bool prompts_unset = !t.contains("num_prompts") || t["num_prompts"].is_null();
    if (where == "test" && w.concurrency > 0 && rate_null && prompts_unset) {
        w.num_prompts = w.concurrency; w.concurrency = 0; w.burst = true;
    }
    v = (int64_t)w.seed; if (!integer(t, "seed", v, 0, 4e9, err, where + ".")) return false; w.seed = (uint64_t)v;
    if (t.contains("warm_first_prompt") && !t["warm_first_prompt"].is_null()) {
        if (!t["warm_first_prompt"].is_boolean()) { err = where + ".warm_first_prompt: must be true or false"; return false; }
        w.warm_first_prompt = t["warm_first_prompt"].get<bool>();
    }
    return parse_sessions(t, w, err, where);
}

// "ep": true / false, or the EP size, which must equal tp (the EP group is the TP group: no DP attention here);
// "enable_expert_parallel" is the same switch under vLLM's flag name
bool parse_ep(const json& j, ServeRequest& r, std::string& err) {
    for (const char* k : {"ep", "enable_expert_parallel"}) {
        if (!j.contains(k) || j[k].is_null()) continue;
        const json& v = j[k];
        if (v.is_boolean()) { r.expert_parallel = v.get<bool>(); continue; }
        if (v.is_number_integer() && (v.get<int64_t>() == 1 || v.get<int64_t>() == r.tp)) { r.expert_parallel = v.get<int64_t>() > 1; continue; }
        err = std::string(k) + ": expected true, false or the EP size = tp (" + std::to_string(r.tp) +
              "); an EP group wider than TP needs data-parallel attention, which is not modelled";
        return false;
    }
    return true;
}

// "disaggregation": {"prefill_gpus", "decode_gpus", "prefill_tp", "decode_tp", "link"} (serving.h ServeDisaggregation);
// null or absent = off. The pools set gpus (P + D) and tp (decode_tp); serve() checks the rest (counts, link)
bool parse_disaggregation(const json& j, ServeRequest& r, std::string& err) {
    if (!j.contains("disaggregation") || j["disaggregation"].is_null()) return true;
    const json& d = j["disaggregation"];
    if (!d.is_object()) { err = "disaggregation: must be an object {\"prefill_gpus\", \"decode_gpus\", \"prefill_tp\", \"decode_tp\", \"link\"}"; return false; }
    for (auto it = d.begin(); it != d.end(); ++it) {
        static const char* known[] = {"prefill_gpus", "decode_gpus", "prefill_tp", "decode_tp", "link"};
        bool ok = false;
        for (const char* k : known) ok |= it.key() == k;
        if (!ok) { err = "disaggregation." + it.key() + ": unknown key (prefill_gpus, decode_gpus, prefill_tp, decode_tp, link)"; return false; }
    }
    ServeDisaggregation g;
    int64_t v;
    const std::string where = "disaggregation.";
    if (!d.contains("prefill_gpus") || !d.contains("decode_gpus")) { err = "disaggregation: prefill_gpus and decode_gpus are required"; return false; }
    v = 0; if (!integer(d, "prefill_gpus", v, 1, 1024, err, where)) return false; g.prefill_gpus = (int)v;
    v = 0; if (!integer(d, "decode_gpus", v, 1, 1024, err, where)) return false; g.decode_gpus = (int)v;
    v = 1; if (!integer(d, "prefill_tp", v, 1, 64, err, where)) return false; g.prefill_tp = (int)v;
    v = 1; if (!integer(d, "decode_tp", v, 1, 64, err, where)) return false; g.decode_tp = (int)v;
    if (!str(d, "link", g.link, err)) { err = where + err; return false; }
    r.disaggregation = g;
    r.gpus = g.prefill_gpus + g.decode_gpus; r.tp = g.decode_tp; r.pp = 1;
    return true;
}

bool parse_common(const json& j, const Catalog& cat, ServeRequest& r, std::string& err) {
    if (!j.is_object()) { err = "request must be a JSON object"; return false; }
    if (!str(j, "engine", r.engine, err) || !str(j, "model", r.model, err) || !str(j, "precision", r.precision, err) ||
        !str(j, "kv_dtype", r.kv_dtype, err) || !str(j, "interconnect", r.interconnect, err) ||
        !str(j, "engine_version", r.engine_version, err))
        return false;
    if (r.kv_dtype.empty()) r.kv_dtype = "auto";
    // no precision named: a checkpoint engine serves the model as published (release_precision); llama-server keeps
    // its own rule (a GGUF file type)
    const bool named_precision = j.contains("precision") && j["precision"].is_string();
    if (j.contains("config") && j["config"].is_object()) {
        auto m = std::make_shared<Model>();
        std::string e;
        if (model_from_hf_config(j["config"].dump(-1, ' ', false, json::error_handler_t::replace), r.model.empty() ? "custom" : r.model, *m, e)) {
            if (const Model* known = cat.find_model(r.model)) { m->native_context = known->native_context ? known->native_context : m->native_context; }
            r.model_override = m;
        } else if (!cat.find_model(r.model)) { err = "config: " + e; return false; }
    }
    if (!named_precision) default_to_release_precision(cat, r);
    if (!j.contains("hardware")) { err = "hardware: required (a catalog id or an object)"; return false; }
    if (j["hardware"].is_string()) r.hardware = j["hardware"].get<std::string>();
    else {
        auto h = std::make_shared<Hardware>();
        std::string note;
        if (!device_from_json(cat, j["hardware"], *h, note, err)) { err = "hardware: " + err; return false; }
        r.hardware = h->id;
        r.hardware_override = h;
    }
    int64_t v;
    v = r.gpus; if (!integer(j, "gpus", v, 1, 1024, err, "")) return false; r.gpus = (int)v;
    v = r.tp; if (!integer(j, "tp", v, 1, 64, err, "")) return false; r.tp = (int)v;
    v = r.pp; if (!integer(j, "pp", v, 1, 64, err, "")) return false; r.pp = (int)v;
    if (!j.contains("gpus") || j["gpus"].is_null()) r.gpus = r.tp * r.pp;
    v = r.max_model_len; if (!integer(j, "max_model_len", v, 1, 1e7, err, "")) return false; r.max_model_len = v;
    if (!num(j, "gpu_memory_utilization", r.gpu_memory_utilization, 0.05, 1.0, err, "")) return false;
    if (!num(j, "mem_fraction_static", r.mem_fraction_static, 0.05, 1.0, err, "")) return false;
    v = r.max_num_seqs; if (!integer(j, "max_num_seqs", v, 1, 65536, err, "")) return false; r.max_num_seqs = (int)v;
    v = r.max_num_batched_tokens; if (!integer(j, "max_num_batched_tokens", v, 1, 1e7, err, "")) return false; r.max_num_batched_tokens = (int)v;
    v = r.block_size; if (!integer(j, "block_size", v, 1, 1024, err, "")) return false; r.block_size = (int)v;
    v = r.max_loras; if (!integer(j, "max_loras", v, 0, 1024, err, "")) return false; r.max_loras = (int)v;
    v = r.max_lora_rank; if (!integer(j, "max_lora_rank", v, 1, 512, err, "")) return false; r.max_lora_rank = (int)v;
    v = r.gpus_per_node; if (!integer(j, "gpus_per_node", v, 1, 72, err, "")) return false; r.gpus_per_node = (int)v;
    v = r.nics_per_node; if (!integer(j, "nics_per_node", v, 0, 64, err, "")) return false; r.nics_per_node = (int)v;
    if (j.contains("cuda_graphs") && j["cuda_graphs"].is_boolean()) r.cuda_graphs = j["cuda_graphs"].get<bool>();
    if (j.contains("no_p2p") && !j["no_p2p"].is_null()) {
        if (!j["no_p2p"].is_boolean()) { err = "no_p2p: must be true or false"; return false; }
        r.no_p2p = j["no_p2p"].get<bool>();
    }
    if (!parse_ep(j, r, err) || !parse_prefix_keys(j, r, err)) return false;
    if (!parse_disaggregation(j, r, err)) return false;
    if (j.contains("sla") && j["sla"].is_object()) {
        const json& s = j["sla"];
        if (!num(s, "ttft_p90_ms", r.sla.ttft_p90_ms, 0, 1e9, err, "sla.") || !num(s, "tpot_p90_ms", r.sla.tpot_p90_ms, 0, 1e9, err, "sla.") ||
            !num(s, "min_output_tok_s", r.sla.min_output_tok_s, 0, 1e12, err, "sla."))
            return false;
    }
    return true;
}

json stats(const LatencyStats& s) { return json{{"mean", s.mean}, {"median", s.median}, {"p90", s.p90}, {"p99", s.p99}}; }

// a staged ladder's stages (ServeLoad::stages): each stage's rate, requests, output tok/s, TTFT, TPOT and hit rate
json stages_json(const ServeLoad& l) {
    json a = json::array();
    for (const ServeLoad::Stage& sg : l.stages)
        a.push_back({{"rate", sg.rate}, {"requests", sg.requests}, {"output_tok_s", sg.output_tok_s}, {"duration_s", sg.duration_s},
                     {"prefix_cache_hit_rate", sg.prefix_hit_rate}, {"ttft_ms", stats(sg.ttft_ms)}, {"tpot_ms", stats(sg.tpot_ms)}});
    return a;
}

// the prefix cache's figures (serve() JSON "prefix", a predict line's prefix keys): hit rate, tokens per tier, TTFT by tier
json prefix_json(const ServeLoad& l, const ServePrefixReport& p) {
    auto opt = [](double v) { return v < 0 ? json(nullptr) : json(v); };
    json o = {{"active", p.active}, {"mechanism", p.mechanism}, {"hit_rate", l.prefix_hit_rate}, {"prompt_tokens", l.prompt_tokens},
              {"hit_tokens", l.prefix_hit_tokens}, {"hit_cpu_tokens", l.prefix_hit_cpu_tokens}, {"hit_nvme_tokens", l.prefix_hit_nvme_tokens},
              {"prefill_tokens_computed", l.prefill_tokens_computed}, {"evicted_tokens", l.prefix_evicted_tokens},
              {"kv_pool_tokens_by_tier", {{"gpu", p.gpu_pool_tokens}, {"cpu", p.cpu_tier_tokens}, {"nvme", p.nvme_tier_tokens}}},
              {"host_link", p.host_link}, {"host_link_gbs", p.host_link_gbs}, {"nvme_gbs", p.nvme_gbs},
              {"load_ms_per_1k_tokens", {{"cpu", p.cpu_load_ms_per_1k}, {"nvme", p.nvme_load_ms_per_1k}}},
              {"prefill_ms_per_1k_tokens", p.prefill_ms_per_1k}, {"sessions_held", p.sessions_held},
              {"host_memory_usd", opt(p.host_memory_usd)}, {"host_memory_price_source", p.host_memory_price_source}, {"lines", p.lines}};
    json by = json::object();
    static const char* names[4] = {"gpu", "cpu", "nvme", "miss"};
    for (int t = 0; t < 4; ++t)
        if (l.requests_by_tier[t] > 0) by[names[t]] = {{"requests", l.requests_by_tier[t]}, {"ttft_mean_ms", l.ttft_mean_ms_by_tier[t]}};
    o["ttft_by_tier"] = by;
    if (!l.stages.empty()) o["stages"] = stages_json(l);
    if (p.compared) {
        o["without_cache"] = {{"ttft_mean_ms", p.ttft_mean_ms_off}, {"ttft_p90_ms", p.ttft_p90_ms_off}, {"output_tok_s", p.output_tok_s_off}};
        if (p.sla_concurrency_on >= 0) o["sla_max_concurrency"] = {{"with_cache", p.sla_concurrency_on}, {"without_cache", p.sla_concurrency_off}};
    }
    return o;
}

// a disaggregated result's parts (ServeDisaggResult)
json disagg_json(const ServeRequest& req, const ServeDisaggResult& g) {
    const ServeDisaggregation& d = req.disaggregation;
    json o = {{"prefill_gpus", d.prefill_gpus}, {"decode_gpus", d.decode_gpus}, {"prefill_tp", d.prefill_tp}, {"decode_tp", d.decode_tp},
              {"prefill_instances", g.prefill_instances}, {"decode_instances", g.decode_instances}, {"link", g.link},
              {"link_gbs", g.link_gbs}, {"link_latency_us", g.link_latency_us}, {"kv_bytes_per_token", g.kv_bytes_per_token},
              {"kv_bytes_mean", g.kv_bytes_mean}, {"transfer_ms_mean", g.transfer_ms_mean}, {"link_utilisation", g.link_utilisation},
              {"prefill_ttft_ms", stats(g.prefill_ttft_ms)}, {"decode_first_ms", stats(g.decode_first_ms)},
              {"prefill_mean_batch_tokens", g.prefill_mean_batch_tokens}, {"decode_mean_batch", g.decode_mean_batch},
              {"prefill_kv_pool_tokens", g.prefill_memory.kv_pool_tokens}, {"prefill_command", g.prefill_command},
              {"decode_command", g.decode_command}, {"lines", g.lines}};
    if (g.have_aggregated)
        o["aggregated"] = {{"output_tok_s", g.agg_output_tok_s}, {"ttft_p90_ms", g.agg_ttft_p90_ms}, {"tpot_p90_ms", g.agg_tpot_p90_ms}};
    return o;
}

}  // namespace

// [SECTION] Request --------------------------------------------------------------------------------------

bool parse_serve_request(const std::string& text, const Catalog& cat, ServeRequest& out, std::string& err) {
    json j = json::parse(text, nullptr, false);
    if (j.is_discarded()) { err = "request is not valid JSON"; return false; }
    ServeRequest r;
    if (!parse_common(j, cat, r, err)) return false;
    const char* wk = j.contains("workload") ? "workload" : j.contains("test") ? "test" : nullptr;
    if (wk && !parse_workload(j[wk], r.workload, err, wk)) return false;
    out = r;
    return true;
}

// [SECTION] Result ---------------------------------------------------------------------------------------

std::string serve_result_json(const ServeRequest& req, const ServeResult& r) {
    json o;
    o["engine"] = req.engine; o["model"] = req.model_override ? req.model_override->id : req.model;
    o["hardware"] = req.hardware; o["precision"] = req.precision;
    o["ok"] = r.ok;
    if (!r.ok) o["error"] = r.error;
    const ServeMemoryPlan& m = r.memory;
    o["memory"] = {{"gpu_total_bytes", m.gpu_total_bytes}, {"budget_bytes", m.budget_bytes}, {"weights_bytes", m.weights_bytes},
                   {"activation_peak_bytes", m.activation_peak_bytes}, {"cuda_graph_bytes", m.cuda_graph_bytes},
                   {"runtime_bytes", m.runtime_bytes}, {"kv_pool_bytes", m.kv_pool_bytes}, {"lora_bytes", m.lora_bytes}, {"kv_bytes_per_token", m.kv_bytes_per_token},
                   {"kv_pool_blocks", m.kv_pool_blocks}, {"kv_pool_tokens", m.kv_pool_tokens}, {"block_size", m.block_size},
                   {"max_model_len", m.max_model_len}, {"max_concurrency", m.max_concurrency},
                   {"largest_max_model_len", m.largest_max_model_len}, {"fits", m.fits}, {"rules", m.rules}};
    const ServeLoad& l = r.load;
    o["load"] = {{"output_tok_s", l.output_tok_s}, {"total_tok_s", l.total_tok_s}, {"req_s", l.req_s}, {"duration_s", l.duration_s},
                 {"ttft_ms", stats(l.ttft_ms)}, {"tpot_ms", stats(l.tpot_ms)}, {"itl_ms", stats(l.itl_ms)}, {"e2e_ms", stats(l.e2e_ms)},
                 {"queueing_share", l.queueing_share}, {"kv_use_mean", l.kv_use_mean}, {"kv_use_peak", l.kv_use_peak},
                 {"mean_batch", l.mean_batch}, {"preemptions", l.preemptions}, {"completed", l.completed}};
    // a staged ladder's stages with or without a shared prefix (prefix_json carries them too, as before, when the cache
    // is active); a one-rate run has none, so its JSON is unchanged
    if (!l.stages.empty()) o["load"]["stages"] = stages_json(l);
    const StepBreakdown& s = r.step;
    o["step"] = {{"batch", s.batch}, {"prefill_tokens", s.prefill_tokens}, {"weights_s", s.weights_s}, {"kv_s", s.kv_s},
                 {"compute_s", s.compute_s}, {"overhead_s", s.overhead_s}, {"moe_fixed_s", s.moe_fixed_s}, {"allreduce_s", s.allreduce_s},
                 {"network_s", s.network_s}, {"network_share", s.network_share}, {"step_s", s.step_s}, {"bound", s.bound}};
    const ServeCost& c = r.cost;
    auto opt = [](double v) { return v < 0 ? json(nullptr) : json(v); };
    o["cost"] = {{"usd_per_mtok_own_batched", opt(c.usd_per_mtok_own_batched)}, {"usd_per_mtok_own_single", opt(c.usd_per_mtok_own_single)},
                 {"usd_per_mtok_rent_batched", opt(c.usd_per_mtok_rent_batched)}, {"usd_per_mtok_rent_single", opt(c.usd_per_mtok_rent_single)},
                 {"wh_per_mtok_batched", c.wh_per_mtok_batched}, {"wh_per_mtok_single", c.wh_per_mtok_single},
                 {"single_stream_tok_s", c.single_stream_tok_s}};
    o["low"] = r.low; o["high"] = r.high;
    // the TPOT / TTFT bands: every statistic scaled by the engine's held-out error quantiles of that metric
    o["tpot_band_ms"] = {{"low", stats(r.tpot_band_low_ms)}, {"high", stats(r.tpot_band_high_ms)}};
    o["ttft_band_ms"] = {{"low", stats(r.ttft_band_low_ms)}, {"high", stats(r.ttft_band_high_ms)}};
    if (r.prefix.active || !r.prefix.lines.empty()) o["prefix"] = prefix_json(l, r.prefix);
    o["command"] = r.command;
    o["notes"] = r.notes;
    o["network"] = r.network;
    if (r.disagg.enabled) o["disaggregation"] = disagg_json(req, r.disagg);
    return o.dump(1, ' ', false, json::error_handler_t::replace);
}

std::string api_serve(const Catalog& cat, const std::string& request_json) {
    ServeRequest r;
    std::string err;
    if (!parse_serve_request(request_json, cat, r, err)) return json{{"error", err}}.dump(-1, ' ', false, json::error_handler_t::replace);
    ServeResult res = serve(cat, r);
    serve_prefix_comparison(cat, r, res);   // with and without the cache, only for a sharing workload
    return serve_result_json(r, res);
}

namespace {
// the optional "search" object of a serveSearch request: {"engines": [...], "precisions": [...], "gpu_counts": [...],
// "devices": "datacenter" | "all", "limit": N, "exact_top": N}; false + err naming the key
bool parse_search_space(const json& j, SlaSearch& sp, std::string& err) {
    if (!j.is_object() || !j.contains("search")) return true;
    const json& o = j["search"];
    if (!o.is_object()) { err = "search: must be an object"; return false; }
    auto strings = [&](const char* k, std::vector<std::string>& out) {
        if (!o.contains(k)) return true;
        bool good = o[k].is_array();
        if (good) for (const json& v : o[k]) good = good && v.is_string();
        if (!good) { err = std::string("search.") + k + ": must be an array of strings"; return false; }
        for (const json& v : o[k]) out.push_back(v.get<std::string>());
        return true;
    };
    if (!strings("engines", sp.engines) || !strings("precisions", sp.precisions)) return false;
    for (const std::string& e : sp.engines)
        if (!serving::find_engine(e)) { err = "search.engines: unknown engine '" + e + "'"; return false; }
    if (o.contains("gpu_counts")) {
        bool good = o["gpu_counts"].is_array();
        if (good) for (const json& v : o["gpu_counts"]) good = good && v.is_number_integer() && v.get<int64_t>() >= 1 && v.get<int64_t>() <= 64;
        if (!good) { err = "search.gpu_counts: must be an array of counts 1 to 64"; return false; }
        for (const json& v : o["gpu_counts"]) sp.gpu_counts.push_back(v.get<int>());
    }
    if (o.contains("disaggregated")) {   // also every P:D split (serving.h SlaSearch::disaggregated)
        if (!o["disaggregated"].is_boolean()) { err = "search.disaggregated: must be true or false"; return false; }
        sp.disaggregated = o["disaggregated"].get<bool>();
    }
    if (o.contains("hardware")) {        // one device only
        if (!o["hardware"].is_string()) { err = "search.hardware: must be a device id"; return false; }
        sp.only_hardware = o["hardware"].get<std::string>();
    }
    if (o.contains("devices")) {
        std::string d = o["devices"].is_string() ? o["devices"].get<std::string>() : "";
        if (d != "datacenter" && d != "all") { err = "search.devices: \"datacenter\" (datacenter and workstation) or \"all\""; return false; }
        sp.datacenter_and_workstation_only = d == "datacenter";
    }
    if (o.contains("exact_top")) {
        if (!o["exact_top"].is_number_integer() || o["exact_top"].get<int64_t>() < 0 || o["exact_top"].get<int64_t>() > 100) { err = "search.exact_top: 0 to 100"; return false; }
        sp.exact_top = o["exact_top"].get<int>();
    }
    if (o.contains("limit")) {
        if (!o["limit"].is_number_integer() || o["limit"].get<int64_t>() < 0 || o["limit"].get<int64_t>() > 10000) { err = "search.limit: 0 to 10000"; return false; }
        sp.limit = o["limit"].get<int>();
    }
    return true;
}

json point_json(const SlaPoint& p) {
    auto opt = [](double v) { return v < 0 ? json(nullptr) : json(v); };
    return {{"engine", p.engine}, {"hardware", p.hardware}, {"precision", p.precision}, {"gpus", p.gpus}, {"tp", p.tp},
            {"pp", p.pp}, {"max_concurrency", p.max_concurrency}, {"output_tok_s", p.output_tok_s},
            {"ttft_p90_ms", p.ttft_p90_ms}, {"tpot_p90_ms", p.tpot_p90_ms}, {"price_usd", p.price_usd},
            {"rent_usd_per_hour", p.rent_usd_per_hour}, {"usd_per_mtok", opt(p.usd_per_mtok)},
            {"usd_per_mtok_own", opt(p.usd_per_mtok_own)}, {"usd_per_mtok_rent", opt(p.usd_per_mtok_rent)},
            {"wh_per_mtok", p.wh_per_mtok}, {"command", p.command}};
}
json point_json_full(const SlaPoint& p) {
    json o = point_json(p);
    if (p.disagg.enabled())
        o["disaggregation"] = {{"prefill_gpus", p.disagg.prefill_gpus}, {"decode_gpus", p.disagg.decode_gpus},
                               {"prefill_tp", p.disagg.prefill_tp}, {"decode_tp", p.disagg.decode_tp}, {"link", p.disagg.link}};
    return o;
}
}  // namespace

std::string sla_point_json(const SlaPoint& p) { return point_json_full(p).dump(-1, ' ', false, json::error_handler_t::replace); }

std::string api_serve_search(const Catalog& cat, const std::string& request_json) {
    ServeRequest r;
    std::string err;
    SlaSearch space;
    if (!parse_serve_request(request_json, cat, r, err) || !parse_search_space(json::parse(request_json, nullptr, false), space, err))
        return json{{"error", err}}.dump(-1, ' ', false, json::error_handler_t::replace);
    if (r.sla.ttft_p90_ms <= 0 && r.sla.tpot_p90_ms <= 0) { r.sla.ttft_p90_ms = 1000; r.sla.tpot_p90_ms = 50; }
    SlaSearchStats st;
    auto t0 = std::chrono::steady_clock::now();
    std::vector<std::string> notes;
    std::vector<SlaPoint> pts = sla_search(cat, r, space, &st, &notes);
    double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    json a = json::array();
    for (const SlaPoint& p : pts) a.push_back(point_json_full(p));
    json out{{"ok", true}, {"sla", {{"ttft_p90_ms", r.sla.ttft_p90_ms}, {"tpot_p90_ms", r.sla.tpot_p90_ms}}}, {"points", a},
             {"ms", ms}, {"candidates", st.candidates}, {"simulated", st.simulated}, {"pruned", st.pruned}, {"infeasible", st.infeasible},
             {"serve_runs", st.serve_runs}};
    if (!notes.empty()) out["notes"] = notes;
    return out.dump(-1, ' ', false, json::error_handler_t::replace);
}

std::string api_serve_deploy(const Catalog& cat, const std::string& request_json) {
    ServeRequest r;
    std::string err, yaml;
    if (!parse_serve_request(request_json, cat, r, err)) return json{{"error", err}}.dump(-1, ' ', false, json::error_handler_t::replace);
    if (!serve_deploy_yaml(cat, r, yaml, err)) return json{{"ok", false}, {"error", err}}.dump(-1, ' ', false, json::error_handler_t::replace);
    return json{{"ok", true}, {"format", "nvidia.com/v1beta1 DynamoGraphDeployment"}, {"yaml", yaml}}.dump(-1, ' ', false, json::error_handler_t::replace);
}

// [SECTION] predict lines --------------------------------------------------------------------------------

namespace serving {
void apply_predict_defaults(ServeRequest& r) {
    // a long burst reaches its steady state well before 2,000 requests (a batch limit of up to 2048 sequences
    // fills, then turns over); Poisson loads within 400. A closed loop's first C requests arrive together (its
    // warm-up wave) and a benchmark's mean TTFT averages them with all N (LMDeploy profile_throughput.py: C threads
    // draining one queue of N prompts, FTL ave over all N): cut to 4 x C, a 3000-prompt run at C = 64 weighted that
    // wave 12x too much (LMDeploy's closed-loop FTL 2.3x too long), so a closed loop keeps up to 4000 requests
    const ServeWorkload& w = r.workload;
    int cap = w.burst ? 2000 : w.concurrency > 0 ? std::max(4000, 4 * w.concurrency) : 400;
    // a prompt pool is sent whole (SGLang's generated-shared-prefix sends each of its groups x prompts once)
    if (w.prompts_per_group > 0) cap = std::max(cap, std::min(20000, std::max(1, w.prefix_groups) * w.prompts_per_group));
    if (w.num_prompts > cap) r.workload.num_prompts = cap;
    // no --max-model-len in the row: the benchmark's longest request (fixed lengths), or room for the tail of a
    // length distribution (ShareGPT-like draws reach 8 x the mean)
    if (r.max_model_len == 0) {
        // a session's last turn holds every earlier turn (its input grows by the new input and the answer each turn)
        int64_t need = w.input_len + w.session_prefix_len + w.output_len +
                       (int64_t)(w.turns - 1) * (w.input_len - w.shared_prefix_len + w.output_len);
        r.max_model_len = w.dist == LengthDist::Fixed ? std::max<int64_t>(2048, need) : std::max<int64_t>(4096, 8 * need);
        r.max_model_len_assumed = true;   // the server itself ran its default (vllm_v0_dense_chunked reads that)
    }
}
}  // namespace serving

std::string serve_predict_line(const Catalog& cat, const std::string& line) {
    json in = json::parse(line, nullptr, false);
    json out;
    out["id"] = in.is_object() && in.contains("id") ? in["id"] : json(nullptr);
    auto fail = [&](const std::string& e) { out["error"] = e; return out.dump(-1, ' ', false, json::error_handler_t::replace); };
    if (in.is_discarded() || !in.is_object()) return fail("not valid JSON");
    ServeRequest r;
    std::string err;
    if (!parse_common(in, cat, r, err)) return fail(err);
    if (!in.contains("test") || !parse_workload(in["test"], r.workload, err, "test")) return fail(err.empty() ? "test: required" : err);
    serving::apply_predict_defaults(r);
    ServeResult s = serve(cat, r);
    if (!s.ok) return fail(s.error);
    const ServeLoad& l = s.load;
    out["output_tok_s"] = l.output_tok_s;
    out["total_tok_s"] = l.total_tok_s;
    out["req_s"] = l.req_s;
    // p90 too: the SLA search's targets are p90s, so its answer can be re-checked with a predict line
    out["ttft_ms"] = {{"mean", l.ttft_ms.mean}, {"median", l.ttft_ms.median}, {"p90", l.ttft_ms.p90}, {"p99", l.ttft_ms.p99}};
    out["tpot_ms"] = {{"mean", l.tpot_ms.mean}, {"median", l.tpot_ms.median}, {"p90", l.tpot_ms.p90}};
    out["itl_ms"] = {{"mean", l.itl_ms.mean}, {"median", l.itl_ms.median}};
    out["low"] = s.low; out["high"] = s.high;
    // the TPOT / TTFT bands on the median (the held-out error quantiles of that metric, serve_fit.cpp)
    out["tpot_ms"]["low"] = s.tpot_band_low_ms.median; out["tpot_ms"]["high"] = s.tpot_band_high_ms.median;
    out["ttft_ms"]["low"] = s.ttft_band_low_ms.median; out["ttft_ms"]["high"] = s.ttft_band_high_ms.median;
    out["max_concurrency_fit"] = s.memory.max_concurrency;
    out["kv_pool_tokens"] = s.memory.kv_pool_tokens;
    // issue 36's contract: a line that shares prefixes or names kv_offload gets the prefix-cache hit rate and the KV
    // pool per tier (plain lines keep their answer as it was: the golden outputs pin it)
    if (r.workload.shares_prefix() || r.kv_offload.cpu_gib > 0 || r.kv_offload.nvme_gib > 0) {
        out["prefix_cache_hit_rate"] = l.prefix_hit_rate;
        out["kv_pool_tokens_by_tier"] = {{"gpu", s.memory.kv_pool_tokens}, {"cpu", s.prefix.cpu_tier_tokens}, {"nvme", s.prefix.nvme_tier_tokens}};
        out["prefill_tokens_computed"] = l.prefill_tokens_computed;
    }
    if (!l.stages.empty()) out["stages"] = stages_json(l);
    if (s.disagg.enabled)
        out["disaggregation"] = {{"transfer_ms_mean", s.disagg.transfer_ms_mean}, {"prefill_ttft_ms", s.disagg.prefill_ttft_ms.median},
                                 {"decode_first_ms", s.disagg.decode_first_ms.median}, {"link_utilisation", s.disagg.link_utilisation}};
    return out.dump(-1, ' ', false, json::error_handler_t::replace);
}

}  // namespace llmsim
