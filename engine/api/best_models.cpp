#include "api/best_models.h"

#include <cmath>

#include "core/format.h"
#include "rig/resolve_device.h"

namespace llmsim {

namespace {

using json = nlohmann::json;

json number_or_null(double v) { return v >= 0 ? json(v) : json(nullptr); }

// built key by key: an initializer list of this size costs the web page several kB of wasm more
json choice_json(const QualityChoice& c, int rank) {
    const FileType& ft = *c.file_type;
    const SpeedView& sp = c.eval.speed;
    json j = json::object();
    if (rank > 0) j["rank"] = rank;
    j["model"] = c.model->id;
    j["name"] = c.model->name;
    j["score"] = c.row ? json(c.score) : json(nullptr);
    if (c.row) {
        j["score_date"] = c.row->date;
        j["score_source"] = c.row->source;
        if (!c.row->note.empty()) j["score_note"] = c.row->note;
    } else {
        j["score_text"] = "no published score";
    }
    j["quant"] = c.quant;
    j["release_format"] = c.release_format;
    j["kld"] = number_or_null(ft.kld);
    j["ppl_delta_pct"] = number_or_null(ft.ppl_delta_pct);
    j["quality_label"] = ft.quality_label;
    j["quality_source"] = ft.quality_source;
    j["params"] = c.eval.params.total;
    j["total_bytes"] = c.eval.memory.total_bytes;
    j["usable_bytes"] = c.eval.memory.usable_bytes;
    j["status"] = to_string(c.eval.memory.status);
    j["decode_full_tps"] = sp.ok ? json(sp.decode_full_tps) : json(nullptr);
    j["decode_full_depth"] = sp.decode_full_depth;
    return j;
}

}  // namespace

json quality_result_to_json(const Hardware& hw, const QualityQuery& q, const QualityResult& r) {
    json out = json::object();
    if (!r.error.empty()) {
        out["error"] = r.error;
        return out;
    }
    const QualityBenchmark& b = *r.benchmark;
    json bench = json::object();
    bench["id"] = b.id;
    bench["name"] = b.name;
    bench["metric"] = r.task->metric;
    for (const auto& m : b.metrics)
        if (m.first == r.task->metric) bench["metric_text"] = m.second;
    bench["why"] = r.task->why;
    bench["version"] = b.version;
    bench["url"] = b.url;
    bench["date"] = b.date;
    bench["source"] = b.source;
    bench["caveat"] = b.caveat;
    out["hardware"] = hw.id;
    out["hardware_name"] = hw.name;
    out["task"] = r.task->task;
    out["ctx"] = q.ctx_tokens;
    out["min_decode_tps"] = q.min_decode_tps;
    out["extreme"] = q.include_extreme;
    out["benchmark"] = std::move(bench);
    json& ranked = out["ranked"] = json::array();
    int rank = 0;
    for (const QualityChoice& c : r.ranked) ranked.push_back(choice_json(c, ++rank));
    json& unscored = out["unscored"] = json::array();
    for (const QualityChoice& c : r.unscored) unscored.push_back(choice_json(c, 0));
    json& nofit = out["scored_not_fitting"] = json::array();
    for (const Model* m : r.scored_not_fitting) nofit.push_back(m->id);
    out["trade_off"] = quality_trade_off(r);
    return out;
}

std::string quality_trade_off(const QualityResult& r) {
    for (size_t i = 0; i < r.ranked.size(); ++i)
        for (size_t k = i + 1; k < r.ranked.size(); ++k) {
            const QualityChoice &a = r.ranked[i], &b = r.ranked[k];
            if (a.score <= b.score || a.file_type->kld <= b.file_type->kld || b.file_type->kld < 0) continue;
            auto side = [](const QualityChoice& c) {
                return c.model->name + " " + format_sig(c.score) + " at " + c.quant + " (KLD " + format_sig(c.file_type->kld) + ")";
            };
            return side(a) + " vs " + side(b) + ": the higher score runs at the lossier quant; the score is the published "
                   "weights', the KLD how far the quant drifts from FP16";
        }
    return "";
}

std::string api_best_models(const Catalog& cat, const std::string& text) {
    const json req = json::parse(text, nullptr, false);
    auto error = [](const std::string& e) { return json{{"error", e}}.dump(); };
    if (req.is_discarded() || !req.is_object()) return error("the request must be a JSON object, e.g. {\"hardware\":\"rtx-4090\",\"task\":\"coding\"}");
    auto str = [&](const char* k) { auto it = req.find(k); return it != req.end() && it->is_string() ? it->get<std::string>() : std::string(); };
    auto num = [&](const char* k, double dflt, double& out) {
        auto it = req.find(k);
        if (it == req.end() || it->is_null()) { out = dflt; return true; }
        if (!it->is_number() || !std::isfinite(it->get<double>())) return false;
        out = it->get<double>();
        return true;
    };
    const std::string hid = str("hardware");
    if (hid.empty()) return error("\"hardware\" is required (a catalog id such as \"rtx-4090\")");
    std::string err;
    const Hardware* hw = resolve_device(cat, hid, err);
    if (!hw) return error(err.empty() ? "unknown hardware '" + hid + "'" : err);
    QualityQuery q;
    if (!str("task").empty()) q.task = str("task");
    double ctx = 0, min_decode = 0;
    if (!num("ctx", 8192, ctx) || !num("min_decode_tps", 0, min_decode)) return error("\"ctx\" and \"min_decode_tps\" must be numbers");
    if (ctx < 1 || ctx > 1e8) return error("\"ctx\" must be from 1 to 100000000 tokens");
    q.ctx_tokens = (int64_t)ctx;
    q.min_decode_tps = min_decode;
    auto ext = req.find("extreme");
    q.include_extreme = ext != req.end() && ext->is_boolean() && ext->get<bool>();
    const QualityResult r = recommend_models_by_quality(cat, *hw, q);
    return quality_result_to_json(*hw, q, r).dump(-1, ' ', false, json::error_handler_t::replace);
}

}  // namespace llmsim
