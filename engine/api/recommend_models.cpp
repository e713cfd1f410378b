#include "api/recommend_models.h"

#include <cmath>

#include "core/format.h"
#include "rig/resolve_device.h"

namespace llmsim {

namespace {

using json = nlohmann::json;

json number_or_null(double v) { return v >= 0 ? json(v) : json(nullptr); }

json choice_json(const QualityChoice& c, int rank) {
    const FileType& ft = *c.file_type;
    const SpeedView& sp = c.eval.speed;
    json j{{"model", c.model->id}, {"name", c.model->name}, {"quant", c.quant}, {"release_format", c.release_format},
           {"kld", number_or_null(ft.kld)}, {"ppl_delta_pct", number_or_null(ft.ppl_delta_pct)},
           {"quality_label", ft.quality_label}, {"quality_source", ft.quality_source},
           {"params", c.eval.params.total}, {"total_bytes", c.eval.memory.total_bytes},
           {"usable_bytes", c.eval.memory.usable_bytes}, {"status", to_string(c.eval.memory.status)},
           {"decode_full_tps", sp.ok ? json(sp.decode_full_tps) : json(nullptr)}, {"decode_full_depth", sp.decode_full_depth}};
    if (rank > 0) j["rank"] = rank;
    if (c.row) {
        j["score"] = c.score;
        j["score_date"] = c.row->date;
        j["score_source"] = c.row->source;
        if (!c.row->note.empty()) j["score_note"] = c.row->note;
    } else {
        j["score"] = nullptr;
        j["score_text"] = "no published score";
    }
    return j;
}

}  // namespace

json quality_result_to_json(const Hardware& hw, const QualityQuery& q, const QualityResult& r) {
    if (!r.error.empty()) return json{{"error", r.error}};
    const QualityBenchmark& b = *r.benchmark;
    std::string metric_text;
    for (const auto& m : b.metrics)
        if (m.first == r.task->metric) metric_text = m.second;
    json out{{"hardware", hw.id}, {"hardware_name", hw.name}, {"task", r.task->task}, {"ctx", q.ctx_tokens},
             {"min_decode_tps", q.min_decode_tps}, {"extreme", q.include_extreme},
             {"benchmark", {{"id", b.id}, {"name", b.name}, {"metric", r.task->metric}, {"metric_text", metric_text},
                            {"why", r.task->why}, {"version", b.version}, {"url", b.url}, {"date", b.date},
                            {"source", b.source}, {"caveat", b.caveat}}},
             {"ranked", json::array()}, {"unscored", json::array()}, {"scored_not_fitting", json::array()},
             {"trade_off", quality_trade_off(r)}};
    int rank = 0;
    for (const QualityChoice& c : r.ranked) out["ranked"].push_back(choice_json(c, ++rank));
    for (const QualityChoice& c : r.unscored) out["unscored"].push_back(choice_json(c, 0));
    for (const Model* m : r.scored_not_fitting) out["scored_not_fitting"].push_back(m->id);
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

std::string api_recommend_models(const Catalog& cat, const std::string& text) {
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
    if (!num("ctx", 8192, ctx) || !num("min_decode", 0, min_decode)) return error("\"ctx\" and \"min_decode\" must be numbers");
    if (ctx < 1 || ctx > 1e8) return error("\"ctx\" must be from 1 to 100000000 tokens");
    q.ctx_tokens = (int64_t)ctx;
    q.min_decode_tps = min_decode;
    auto ext = req.find("extreme");
    q.include_extreme = ext != req.end() && ext->is_boolean() && ext->get<bool>();
    const QualityResult r = recommend_models_by_quality(cat, *hw, q);
    return quality_result_to_json(*hw, q, r).dump(-1, ' ', false, json::error_handler_t::replace);
}

}  // namespace llmsim
