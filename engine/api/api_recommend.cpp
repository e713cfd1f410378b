// The recommend and cost JSON entry points (api_recommend.h): the request readers, and the layouts the CLI prints.
#include "api/api_recommend.h"

#include "api/api.h"
#include "catalog/model_names.h"
#include "core/json_diag.h"
#include "rig/resolve_device.h"
#include "sim/simulate.h"

namespace llmsim {

namespace {
using json = nlohmann::json;

std::string error_answer(const std::string& msg) {
    return json{{"error", sanitize_utf8(msg)}}.dump(-1, ' ', false, json::error_handler_t::replace);
}
std::string answer(const json& j) { return j.dump(-1, ' ', false, json::error_handler_t::replace); }
json tps_or_null(bool ok, double v) { return ok ? json(v) : json(nullptr); }

// the devices the query's load needs (730 h each a month, cost.h) and their rent; the owning figures are left
// out (priced without the buyer's electricity and amortisation inputs)
json load_json(const CostResult& lc) {
    json load = cost_to_json(lc);
    for (const char* k : {"own_usd_per_month", "own_amortization_usd_per_month", "own_power_usd_per_month", "api_usd_per_month",
                          "payback_months", "cheapest"})
        load.erase(k);
    return load;
}

json candidate_json(const Candidate& c, bool with_load) {
    const bool ok = c.eval.speed.ok;
    json j{{"hardware", c.hardware.id}, {"name", c.hardware.name}, {"gpus", c.hardware.gpu_count},
           {"synthetic", c.synthetic}, {"price_usd", c.price_usd}, {"power_w", c.power_w},
           {"cloud_usd_per_hour", c.cloud_usd_per_hour}, {"status", to_string(c.eval.memory.status)},
           {"total_bytes", c.eval.memory.total_bytes}, {"usable_bytes", c.eval.memory.usable_bytes},
           {"decode_tps", tps_or_null(ok, c.eval.speed.decode_tps)}, {"ttft_s", tps_or_null(ok, c.eval.speed.ttft_s)},
           {"decode_empty_tps", tps_or_null(ok, c.eval.speed.decode_empty_tps)},
           {"decode_full_tps", tps_or_null(ok, c.eval.speed.decode_full_tps)},
           {"decode_full_depth", c.eval.speed.decode_full_depth},
           {"decode_checked_tps", tps_or_null(ok, c.decode_checked_tps)},
           {"decode_checked_depth", c.decode_checked_depth},
           {"calibrated", c.eval.speed.calibrated},
           {"reason", c.reason}};
    if (with_load && c.load_cost.error.empty()) j["load"] = load_json(c.load_cost);
    return j;
}

// a model id as people type it (catalog id, Ollama tag, hf.co/, GGUF repo); nullptr + err
const Model* request_model(const Catalog& cat, const json& j, std::string& err, ResolvedModel& named) {
    if (!j.contains("model") || !j["model"].is_string() || j["model"].get<std::string>().empty()) {
        err = "model is required (a catalog id such as \"Qwen/Qwen2.5-7B-Instruct\" or an Ollama tag such as \"qwen2.5:7b\")";
        return nullptr;
    }
    auto r = resolve_model_name(cat, j["model"].get<std::string>(), err);
    if (!r) return nullptr;
    named = *r;
    return r->model;
}
const Hardware* request_hardware(const Catalog& cat, const json& j, std::string& err) {
    if (!j.contains("hardware") || !j["hardware"].is_string() || j["hardware"].get<std::string>().empty()) {
        err = "hardware is required (a catalog id such as \"rtx-4090\" or \"m4-max-128\")";
        return nullptr;
    }
    const std::string id = j["hardware"].get<std::string>();
    const Hardware* hw = resolve_device(cat, id, err);
    if (!hw && err.empty()) err = "unknown hardware '" + id + "' (a catalog id such as \"rtx-4090\" or \"m4-max-128\")";
    return err.empty() ? hw : nullptr;
}
// the request's quant (checked against the catalog), else the name's, else `fallback`
bool request_quant(const Catalog& cat, const json& j, const ResolvedModel& named, const std::string& fallback,
                   std::string& quant, std::string& err) {
    const std::string* given = nullptr;
    std::string q;
    if (j.contains("quant") && !j["quant"].is_null()) {
        if (!j["quant"].is_string()) { err = "quant must be a string such as \"Q4_K_M\""; return false; }
        q = j["quant"].get<std::string>();
        given = &q;
    }
    if (named.model) {
        auto picked = pick_file_type(named, given, err);
        if (!picked) return false;
        quant = given || !named.file_type.empty() ? *picked : fallback;
    } else {
        quant = given ? q : fallback;
    }
    if (!cat.find_file_type(quant)) { err = "unknown quant '" + quant + "'"; return false; }
    return true;
}

struct RecommendFields : RecommendLimits {
    bool usable = false, all = false;
};
// the recommend request's numbers, in the CLI's ranges, the --usable floor applied where a constraint is not given
bool read_recommend_fields(const json& j, RecommendFields& f, std::string& err) {
    if (!json_number_field(j, "ctx", f.ctx, false, err, 1, 1e8) ||
        !json_number_field(j, "min_decode_tps", f.min_decode, false, err, 0, 1e7) ||
        !json_number_field(j, "max_ttft_s", f.max_ttft, false, err, 0, 1e7) ||
        !json_number_field(j, "max_price_usd", f.max_price, false, err, 0, 1e9) ||
        !json_number_field(j, "max_watts", f.max_watts, false, err, 0, 1e7) ||
        !json_number_field(j, "max_rent_usd_per_hour", f.max_rent, false, err, 0, 1e6) ||
        !json_number_field(j, "prompt_tokens", f.prompt, false, err, 1, 1e8) ||
        !json_number_field(j, "tokens_per_month", f.tokens, false, err, 0, 1e15) ||
        !json_number_field(j, "input_share", f.share, false, err, 0, 1) ||
        !json_number_field(j, "decode_depth", f.depth, false, err, 0, 1e8) || !json_bool_field(j, "usable", f.usable, err) ||
        !json_bool_field(j, "all", f.all, err))
        return false;
    if (f.depth > f.ctx) { err = "decode_depth must be at most ctx"; return false; }
    auto given = [&](const char* k) { return j.contains(k) && !j[k].is_null(); };
    if (f.usable) {
        if (!given("min_decode_tps")) f.min_decode = kUsableMinDecodeTps;
        if (!given("max_ttft_s")) f.max_ttft = kUsableMaxTtftS;
        if (!given("prompt_tokens")) f.prompt = (double)kUsablePromptTokens;
    }
    return true;
}

json parse_object(const std::string& text, std::string& err) {
    json j = json::parse(text, nullptr, false);
    if (j.is_discarded()) { err = "request is not valid JSON: " + describe_json_error(text); return json(); }
    if (!j.is_object()) { err = "request must be a JSON object"; return json(); }
    return j;
}
}  // namespace

const std::vector<std::string>& recommend_model_quants() {
    static const std::vector<std::string> quants = {"Q8_0", "Q6_K", "Q5_K_M", "Q4_K_M", "IQ4_XS", "Q3_K_M"};
    return quants;
}

json recommend_to_json(const RecommendQuery& q, const RecommendResult& r, bool all, bool with_load) {
    json out;
    out["model"] = q.model->id;
    out["quant"] = q.quant;
    out["ctx"] = q.ctx_tokens;
    out["min_decode_tps"] = q.min_decode_tps;
    out["decode_depth"] = q.decode_depth.value_or(q.ctx_tokens);
    out["max_ttft_s"] = q.max_ttft_s;
    out["prompt_tokens"] = q.prompt_tokens;
    out["accepted"] = json::array();
    for (auto& c : r.accepted) out["accepted"].push_back(candidate_json(c, with_load));
    out["rejected"] = json::array();
    if (all) for (auto& c : r.rejected) out["rejected"].push_back(candidate_json(c, with_load));
    return out;
}

json models_for_hardware_to_json(const std::vector<ModelChoice>& list) {
    json out = json::array();
    for (auto& c : list) {
        const bool ok = c.eval.speed.ok;
        out.push_back({{"model", c.model->id}, {"quant", c.quant}, {"status", to_string(c.eval.memory.status)},
                       {"total_bytes", c.eval.memory.total_bytes}, {"params", c.eval.params.total},
                       {"decode_tps", tps_or_null(ok, c.eval.speed.decode_tps)},
                       {"decode_empty_tps", tps_or_null(ok, c.eval.speed.decode_empty_tps)},
                       {"decode_full_tps", tps_or_null(ok, c.eval.speed.decode_full_tps)},
                       {"decode_full_depth", c.eval.speed.decode_full_depth}});
    }
    return out;
}

RecommendQuery recommend_query(const Model* model, const std::string& quant, const RecommendLimits& l) {
    RecommendQuery q;
    q.model = model;
    q.quant = quant;
    q.ctx_tokens = (int64_t)l.ctx;
    q.prompt_tokens = (int64_t)l.prompt;
    q.min_decode_tps = l.min_decode;
    q.max_ttft_s = l.max_ttft;
    q.max_price_usd = l.max_price;
    q.max_power_w = l.max_watts;
    q.max_cloud_usd_per_hour = l.max_rent;
    q.load_mtok_per_month = l.tokens / 1e6;
    q.load_input_share = l.share;
    if (l.depth >= 0) q.decode_depth = (int64_t)l.depth;
    return q;
}

std::string api_recommend(const Catalog& cat, const std::string& request_json) {
    std::string err;
    const json j = parse_object(request_json, err);
    if (!err.empty()) return error_answer(err);
    ResolvedModel named;
    const Model* model = request_model(cat, j, err, named);
    if (!model) return error_answer(err);
    RecommendFields f;
    std::string quant;
    if (!read_recommend_fields(j, f, err) || !request_quant(cat, j, named, "Q4_K_M", quant, err)) return error_answer(err);
    const RecommendQuery q = recommend_query(model, quant, f);
    const RecommendResult r = recommend_hardware(cat, q);
    if (!r.error.empty()) return error_answer(r.error);
    return answer(recommend_to_json(q, r, f.all, f.tokens > 0));
}

std::string api_recommend_models(const Catalog& cat, const std::string& request_json) {
    std::string err;
    const json j = parse_object(request_json, err);
    if (!err.empty()) return error_answer(err);
    const Hardware* hw = request_hardware(cat, j, err);
    if (!hw) return error_answer(err);
    double ctx = 8192, min_decode = 0;
    if (!json_number_field(j, "ctx", ctx, false, err, 1, 1e8) ||
        !json_number_field(j, "min_decode_tps", min_decode, false, err, 0, 1e7))
        return error_answer(err);
    const auto list = best_models_for(cat, *hw, (int64_t)ctx, min_decode, recommend_model_quants());
    return answer({{"hardware", hw->id}, {"ctx", (int64_t)ctx}, {"min_decode_tps", min_decode},
                   {"models", models_for_hardware_to_json(list)}});
}

bool compute_cost(const Catalog& cat, const Model& m, const Hardware& hw, const std::string& quant, const CostOptions& o,
                  CostInputs& in, CostResult& r, std::string& err) {
    SimRequest req;
    req.memory.file_type = quant;
    req.memory.n_ctx = (int64_t)o.ctx;
    req.memory.hardware = &hw;
    req.memory.compute_max_context = false;
    Evaluation ev;
    if (!evaluate(cat, m, req, ev, err)) return false;
    in = CostInputs();
    in.input_mtok_per_month = o.tokens_per_month * o.input_share / 1e6;
    in.output_mtok_per_month = o.tokens_per_month * (1 - o.input_share) / 1e6;
    if (o.hours_per_month >= 0) in.hours_per_month_override = o.hours_per_month;
    if (ev.speed.ok) { in.prefill_tokens_per_s = ev.speed.prefill_tps; in.decode_tokens_per_s = ev.speed.decode_tps; }
    in.hardware_price_usd = o.price_usd >= 0 ? o.price_usd : (hw.price_usd > 0 ? hw.price_usd : hw.price_used_usd);
    in.amortize_months = o.months;
    in.device_power_w = hw.tdp_w * hw.gpu_count;
    in.kwh_price_usd = o.kwh_price_usd;
    in.cloud_usd_per_hour = o.rent_usd_per_hour >= 0 ? o.rent_usd_per_hour : hw.cloud_usd_per_hour * hw.gpu_count;
    const double api_in = o.api_in_usd_per_mtok >= 0 ? o.api_in_usd_per_mtok : m.api_price_in_usd_per_mtok;
    const double api_out = o.api_out_usd_per_mtok >= 0 ? o.api_out_usd_per_mtok : m.api_price_out_usd_per_mtok;
    if (api_in >= 0) in.api_in_usd_per_mtok = api_in;     // the catalog's -1: no API price
    if (api_out >= 0) in.api_out_usd_per_mtok = api_out;
    r = estimate_cost(in);
    if (!r.error.empty()) {
        err = r.error + (ev.speed.ok ? "" : " (" + ev.speed.error + ")");
        return false;
    }
    return true;
}

std::string api_cost(const Catalog& cat, const std::string& request_json) {
    std::string err;
    const json j = parse_object(request_json, err);
    if (!err.empty()) return error_answer(err);
    ResolvedModel named;
    const Model* m = request_model(cat, j, err, named);
    if (!m) return error_answer(err);
    const Hardware* hw = request_hardware(cat, j, err);
    if (!hw) return error_answer(err);
    std::string quant;
    if (!request_quant(cat, j, named, "Q4_K_M", quant, err)) return error_answer(err);
    CostOptions o;
    bool explain = false;
    if (!json_number_field(j, "ctx", o.ctx, false, err, 1, 1e8) ||
        !json_number_field(j, "tokens_per_month", o.tokens_per_month, false, err, 0, 1e15) ||
        !json_number_field(j, "input_share", o.input_share, false, err, 0, 1) ||
        !json_number_field(j, "hours_per_month", o.hours_per_month, false, err, 0, 744) ||
        !json_number_field(j, "kwh_price_usd", o.kwh_price_usd, false, err, 0, 10) ||
        !json_number_field(j, "months", o.months, false, err, 1, 240) ||
        !json_number_field(j, "price_usd", o.price_usd, false, err, 0, 1e9) ||
        !json_number_field(j, "rent_usd_per_hour", o.rent_usd_per_hour, false, err, 0, 1e5) ||
        !json_number_field(j, "api_in_usd_per_mtok", o.api_in_usd_per_mtok, false, err, 0, 1e4) ||
        !json_number_field(j, "api_out_usd_per_mtok", o.api_out_usd_per_mtok, false, err, 0, 1e4) ||
        !json_bool_field(j, "explain", explain, err))
        return error_answer(err);
    CostInputs in;
    CostResult r;
    if (!compute_cost(cat, *m, *hw, quant, o, in, r, err)) return error_answer(err);
    json out = cost_to_json(r);
    out["model"] = m->id;
    out["hardware"] = hw->id;
    out["quant"] = quant;
    if (explain) out["explanation"] = explain_cost(in, r);
    return answer(out);
}

}  // namespace llmsim
