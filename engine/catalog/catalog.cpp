// Catalog parsing and lookup (declarations and schema: catalog.h, assets/catalog/SCHEMA.md).
//
// Parsing never throws: nlohmann::json is used with allow_exceptions=false and every access is type-checked
// first, because the web build compiles with exceptions disabled. Number parsing is nlohmann's own, which is
// locale-independent (it does not use the C locale's decimal separator).
//
// [SECTION] Helpers
// [SECTION] Field reader
// [SECTION] models.json
// [SECTION] hardware.json
// [SECTION] quants.json
// [SECTION] parse_catalog
// [SECTION] Lookup
// [SECTION] Enums and SlidingWindow
#include "catalog/catalog.h"
#include "catalog/model_names.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <set>
#include <nlohmann/json.hpp>

#include "catalog/gpu_combos.h"
#include "core/json_diag.h"
#include "core/text.h"

namespace llmsim {
namespace {

using json = nlohmann::json;

// [SECTION] Helpers --------------------------------------------------------------------------------------

const char* json_type_name(const json& v) {
    switch (v.type()) {
        case json::value_t::null: return "null";
        case json::value_t::object: return "an object";
        case json::value_t::array: return "an array";
        case json::value_t::string: return "a string";
        case json::value_t::boolean: return "a boolean";
        case json::value_t::number_integer:
        case json::value_t::number_unsigned: return "an integer";
        case json::value_t::number_float: return "a number";
        default: return "an invalid value";
    }
}

// shortest round-trip-ish text of a double without depending on the C locale
std::string num(double v) {
    if (std::isfinite(v) && v == std::floor(v) && std::fabs(v) < 9e15) return std::to_string((long long)v);
    return json(v).dump();  // nlohmann formats locale-independently
}

// [SECTION] Field reader ---------------------------------------------------------------------------------
// Reads the keys of one catalog entry; the first problem is written to err as
// "<doc>: <kind> '<id>': <field> <what was wrong> (<what would be valid>)" and every later call fails fast.

class Entry {
public:
    Entry(const json& obj, std::string where, std::string& err, std::string prefix = {})
        : obj_(obj), where_(std::move(where)), err_(err), prefix_(std::move(prefix)) {}
    // a reader for a nested object whose messages name "<parent>.<key>"
    Entry nested(const json& obj, const char* key) { return Entry(obj, where_, err_, prefix_ + key + "."); }
    // carry a nested reader's failure back to this one
    bool absorb(const Entry& child) {
        if (!child.ok_) ok_ = false;
        return ok_;
    }

    bool ok() const { return ok_; }
    const std::string& where() const { return where_; }
    void set_where(std::string w) { where_ = std::move(w); }

    bool fail(const std::string& msg) {
        if (ok_) err_ = where_ + ": " + msg;
        ok_ = false;
        return false;
    }

    // nullptr when missing or null
    const json* get(const char* key) const {
        auto it = obj_.find(key);
        if (it == obj_.end() || it->is_null()) return nullptr;
        return &*it;
    }

    bool str(const char* key, std::string& out, bool required, const char* example = nullptr) {
        if (!ok_) return false;
        const json* v = get(key);
        if (!v) {
            if (!required) return true;
            return fail(name(key) + " is missing" + (example ? std::string(" (e.g. ") + example + ")" : ""));
        }
        if (!v->is_string())
            return fail(name(key) + " must be a string, got " + json_type_name(*v));
        out = v->get_ref<const std::string&>();
        if (required && out.empty()) return fail(name(key) + " must not be empty");
        return true;
    }

    bool boolean(const char* key, bool& out) {
        if (!ok_) return false;
        const json* v = get(key);
        if (!v) return true;
        if (!v->is_boolean()) return fail(name(key) + " must be true or false, got " + json_type_name(*v));
        out = v->get<bool>();
        return true;
    }

    // a JSON number that is a whole number in [lo, hi]; 24564.0 is accepted as 24564
    bool integer(const char* key, int64_t& out, bool required, int64_t lo, int64_t hi) {
        if (!ok_) return false;
        const json* v = get(key);
        if (!v) return required ? fail(name(key) + " is missing (a whole number >= " + num((double)lo) + ")") : true;
        int64_t r = 0;
        if (v->is_number_unsigned()) {
            uint64_t u = v->get<uint64_t>();
            if (u > (uint64_t)std::numeric_limits<int64_t>::max()) return range_fail(key, (double)u, lo, hi);
            r = (int64_t)u;
        } else if (v->is_number_integer()) {
            r = v->get<int64_t>();
        } else if (v->is_number_float()) {
            double d = v->get<double>();
            if (!std::isfinite(d) || d != std::floor(d) || std::fabs(d) > 9.0e15)
                return fail(name(key) + " must be a whole number, got " + num(d));
            r = (int64_t)d;
        } else {
            return fail(name(key) + " must be a whole number, got " + json_type_name(*v));
        }
        if (r < lo || r > hi) return range_fail(key, (double)r, lo, hi);
        out = r;
        return true;
    }
    bool integer(const char* key, int& out, bool required, int64_t lo, int64_t hi = std::numeric_limits<int>::max()) {
        int64_t r = out;
        if (!integer(key, r, required, lo, std::min<int64_t>(hi, std::numeric_limits<int>::max()))) return false;
        out = (int)r;
        return true;
    }

    // any finite JSON number >= lo
    bool number(const char* key, double& out, bool required, double lo) {
        if (!ok_) return false;
        const json* v = get(key);
        if (!v) return required ? fail(name(key) + " is missing (a number >= " + num(lo) + ")") : true;
        if (!v->is_number()) return fail(name(key) + " must be a number, got " + json_type_name(*v));
        double d = v->get<double>();
        if (!std::isfinite(d) || d < lo)
            return fail(name(key) + " must be >= " + num(lo) + " (got " + num(d) + ")");
        out = d;
        return true;
    }

    bool strings(const char* key, std::vector<std::string>& out, bool required_nonempty) {
        if (!ok_) return false;
        const json* v = get(key);
        if (!v) return required_nonempty ? fail(name(key) + " is missing (a list of strings)") : true;
        if (!v->is_array()) return fail(name(key) + " must be a list of strings, got " + json_type_name(*v));
        out.clear();
        for (size_t i = 0; i < v->size(); ++i) {
            const json& e = (*v)[i];
            if (!e.is_string())
                return fail(name(key) + "[" + std::to_string(i) + "] must be a string, got " + json_type_name(e));
            out.push_back(e.get<std::string>());
        }
        if (required_nonempty && out.empty()) return fail(name(key) + " must list at least one entry");
        return true;
    }

    bool ints(const char* key, std::vector<int>& out, int lo, int hi) {
        if (!ok_) return false;
        const json* v = get(key);
        if (!v) return true;
        if (!v->is_array()) return fail(name(key) + " must be a list of whole numbers, got " + json_type_name(*v));
        out.clear();
        for (size_t i = 0; i < v->size(); ++i) {
            const json& e = (*v)[i];
            if (!e.is_number_integer() && !e.is_number_unsigned())
                return fail(name(key) + "[" + std::to_string(i) + "] must be a whole number, got " + json_type_name(e));
            int64_t x = e.is_number_unsigned() ? (int64_t)std::min<uint64_t>(e.get<uint64_t>(), (uint64_t)INT64_MAX)
                                               : e.get<int64_t>();
            if (x < lo || x > hi)
                return fail(name(key) + "[" + std::to_string(i) + "] must be in [" + std::to_string(lo) + ", " +
                            std::to_string(hi) + "] (got " + std::to_string(x) + ")");
            out.push_back((int)x);
        }
        return true;
    }

    // a nested object (nullptr when missing/null); fails when the key holds something else
    const json* object(const char* key) {
        if (!ok_) return nullptr;
        const json* v = get(key);
        if (!v) return nullptr;
        if (!v->is_object()) {
            fail(name(key) + " must be an object or null, got " + json_type_name(*v));
            return nullptr;
        }
        return v;
    }

    std::string name(const char* key) const { return prefix_ + key; }

private:
    bool range_fail(const char* key, double got, int64_t lo, int64_t hi) {
        const bool open_top = hi == std::numeric_limits<int64_t>::max() || hi == std::numeric_limits<int>::max();
        std::string valid = !open_top ? "in [" + std::to_string(lo) + ", " + std::to_string(hi) + "]"
                            : got < (double)lo ? ">= " + std::to_string(lo)
                                               : "<= " + std::to_string(hi);
        return fail(name(key) + " must be " + valid + " (got " + num(got) + ")");
    }

    const json& obj_;
    std::string where_;
    std::string& err_;
    std::string prefix_;
    bool ok_ = true;
};

constexpr int64_t kMaxI64 = std::numeric_limits<int64_t>::max();

// the top-level object with its "schema" tag and the named list of entries
const json* open_document(const json& doc, const std::string& text, const char* file, const char* schema, const char* list_key,
                          std::string& err) {
    if (doc.is_discarded()) {
        err = std::string(file) + ": " + describe_json_error(text);
        return nullptr;
    }
    if (!doc.is_object()) {
        err = std::string(file) + ": the document must be a JSON object with \"schema\" and \"" + list_key + "\", got " +
              json_type_name(doc);
        return nullptr;
    }
    auto s = doc.find("schema");
    if (s == doc.end() || !s->is_string() || s->get_ref<const std::string&>() != schema) {
        err = std::string(file) + ": \"schema\" must be \"" + schema + "\"" +
              (s != doc.end() && s->is_string() ? " (got \"" + s->get<std::string>() + "\")" : "");
        return nullptr;
    }
    auto l = doc.find(list_key);
    if (l == doc.end() || !l->is_array()) {
        err = std::string(file) + ": \"" + list_key + "\" must be a list" +
              (l == doc.end() ? std::string(" (it is missing)") : ", got " + std::string(json_type_name(*l)));
        return nullptr;
    }
    return &*l;
}

// "models.json: model 'X'" once the id is known, "models.json: models[3]" before
std::string entry_where(const char* file, const char* kind, const char* list_key, size_t i, const json& e,
                        const char* id_key) {
    if (e.is_object()) {
        auto it = e.find(id_key);
        if (it != e.end() && it->is_string() && !it->get_ref<const std::string&>().empty())
            return std::string(file) + ": " + kind + " '" + it->get<std::string>() + "'";
    }
    return std::string(file) + ": " + list_key + "[" + std::to_string(i) + "]";
}

// [SECTION] models.json ----------------------------------------------------------------------------------

// the optional MoE block ("moe": experts, widths, dense-layer layout, router bias) of a model entry
bool parse_model_moe(Entry& r, Model& m) {
    if (const json* o = r.object("moe")) {
        MoeConfig moe;
        Entry e = r.nested(*o, "moe");
        e.integer("n_experts", moe.n_experts, true, 1);
        e.integer("n_experts_active", moe.n_experts_active, true, 1);
        e.integer("n_shared_experts", moe.n_shared_experts, false, 0);
        e.integer("expert_ffn", moe.expert_ffn, true, 1, kMaxI64);
        e.integer("shared_ffn", moe.shared_ffn, false, 0, kMaxI64);
        e.integer("first_dense_layers", moe.first_dense_layers, false, 0);
        e.integer("layer_step", moe.layer_step, false, 1);
        e.boolean("router_bias", moe.router_bias);
        if (e.ok() && moe.n_experts_active > moe.n_experts)
            e.fail("moe.n_experts_active must be <= moe.n_experts (got " + std::to_string(moe.n_experts_active) +
                   " > " + std::to_string(moe.n_experts) + ")");
        if (e.ok() && moe.first_dense_layers >= m.n_layers)
            e.fail("moe.first_dense_layers must be < n_layers (got " + std::to_string(moe.first_dense_layers) +
                   " >= " + std::to_string(m.n_layers) + ")");
        if (!r.absorb(e)) return false;
        m.moe = moe;
    }
    return true;
}

// the optional multi-head latent attention block ("mla") of a model entry
bool parse_model_mla(Entry& r, Model& m) {
    if (const json* o = r.object("mla")) {
        MlaConfig mla;
        Entry e = r.nested(*o, "mla");
        e.integer("q_lora_rank", mla.q_lora_rank, false, 0);
        e.integer("kv_lora_rank", mla.kv_lora_rank, true, 1);
        e.integer("qk_rope_head_dim", mla.qk_rope_head_dim, true, 1);
        e.integer("qk_nope_head_dim", mla.qk_nope_head_dim, true, 1);
        e.integer("v_head_dim", mla.v_head_dim, true, 1);
        if (!r.absorb(e)) return false;
        m.mla = mla;
    }
    return true;
}

// the optional sliding-window block ("swa": window, pattern or sliding layers) of a model entry
bool parse_model_swa(Entry& r, Model& m) {
    if (const json* o = r.object("swa")) {
        SlidingWindow swa;
        Entry e = r.nested(*o, "swa");
        e.integer("window", swa.window, true, 1, kMaxI64);
        e.integer("pattern", swa.pattern, false, 0);
        e.ints("sliding_layers", swa.sliding_layers, 0, m.n_layers - 1);
        if (e.ok() && swa.pattern == 0 && swa.sliding_layers.empty())
            e.fail("swa.pattern is 0, so swa.sliding_layers must list the sliding layers (or give pattern >= 1: "
                   "1 = every layer sliding, N = every Nth layer full attention)");
        if (!r.absorb(e)) return false;
        m.swa = swa;
    }
    return true;
}

// the optional hybrid recurrent block ("hybrid": recurrent type, attention layers, state) of a model entry
bool parse_model_hybrid(Entry& r, Model& m) {
    if (const json* o = r.object("hybrid")) {
        HybridConfig h;
        Entry e = r.nested(*o, "hybrid");
        e.str("recurrent_type", h.recurrent_type, true, "\"mamba\", \"mamba2\", \"gated_deltanet\"");
        e.ints("attention_layers", h.attention_layers, 0, m.n_layers - 1);
        e.integer("ssm_state_bytes_per_layer", h.ssm_state_bytes_per_layer, false, 0, kMaxI64);
        e.integer("recurrent_layer_params", h.recurrent_layer_params, false, 0, kMaxI64);
        if (e.ok()) {
            for (size_t i = 1; i < h.attention_layers.size(); ++i)
                if (h.attention_layers[i] <= h.attention_layers[i - 1]) {
                    e.fail("hybrid.attention_layers must be strictly increasing (got " +
                           std::to_string(h.attention_layers[i - 1]) + " then " +
                           std::to_string(h.attention_layers[i]) + ")");
                    break;
                }
        }
        if (!r.absorb(e)) return false;
        m.hybrid = h;
    }
    return true;
}

// "scores": {"metric": number 0-100, ...}
bool parse_score_map(Entry& r, const json& o, const std::string& key, std::vector<std::pair<std::string, double>>& out) {
    if (!o.is_object() || o.empty()) return r.fail(key + " must be an object of metric -> score, e.g. {\"average\": 35.2}");
    for (auto it = o.begin(); it != o.end(); ++it) {
        if (!it->is_number() || !std::isfinite(it->get<double>()) || it->get<double>() < 0 || it->get<double>() > 100)
            return r.fail(key + "." + it.key() + " must be a score from 0 to 100");
        out.push_back({it.key(), it->get<double>()});
    }
    return true;
}

// models.json "quality": the published benchmark scores of one model (the benchmarks are checked in parse_catalog)
bool parse_model_quality(Entry& r, Model& m) {
    const json* v = r.get("quality");
    if (!v) return true;
    if (!v->is_array()) return r.fail(std::string("quality must be a list of objects, got ") + json_type_name(*v));
    for (size_t i = 0; i < v->size(); ++i) {
        const json& o = (*v)[i];
        const std::string key = "quality[" + std::to_string(i) + "]";
        if (!o.is_object()) return r.fail(key + " must be an object, got " + json_type_name(o));
        Entry e = r.nested(o, key.c_str());
        QualityScore q;
        e.str("benchmark", q.benchmark, true, "\"open-llm-leaderboard-v2\"");
        e.str("date", q.date, true, "\"2025-05-09\"");
        e.str("source", q.source, true);
        e.str("note", q.note, false);
        if (!r.absorb(e)) return false;
        auto s = o.find("scores");
        if (s == o.end()) return r.fail(key + ".scores is missing");
        if (!parse_score_map(r, *s, key + ".scores", q.scores)) return false;
        m.quality.push_back(std::move(q));
    }
    return true;
}

bool parse_model(Entry& r, Model& m) {
    r.str("id", m.id, true, "\"Qwen/Qwen2.5-7B-Instruct\"");
    r.str("name", m.name, true);
    r.str("family", m.family, false);
    r.str("license", m.license, false);
    r.str("arch", m.arch, true, "\"llama\", \"qwen2\", \"gemma3\"");
    r.integer("n_layers", m.n_layers, true, 1);
    r.integer("hidden_size", m.hidden_size, true, 1, kMaxI64);
    r.integer("intermediate_size", m.intermediate_size, false, 0, kMaxI64);
    r.integer("n_heads", m.n_heads, true, 1);
    r.integer("n_kv_heads", m.n_kv_heads, true, 1);
    r.integer("head_dim", m.head_dim, false, 1);
    r.integer("head_dim_v", m.head_dim_v, false, 0);
    r.integer("vocab_size", m.vocab_size, true, 1, kMaxI64);
    r.boolean("tie_embeddings", m.tie_embeddings);
    r.boolean("qkv_bias", m.qkv_bias);
    r.boolean("qk_norm", m.qk_norm);
    r.boolean("gated_ffn", m.gated_ffn);
    r.integer("native_context", m.native_context, true, 1, kMaxI64);
    r.integer("extended_context", m.extended_context, false, 0, kMaxI64);
    r.str("rope_scaling", m.rope_scaling, false);
    r.number("published_params_b", m.published_params_b, false, 0);
    r.integer("nextn_layers", m.nextn_layers, false, 0, 16);
    r.number("published_active_params_b", m.published_active_params_b, false, 0);
    r.strings("sources", m.sources, true);
    r.strings("notes", m.notes, false);
    if (!r.ok()) return false;

    if (m.head_dim == 0) {
        if (m.hidden_size % m.n_heads != 0)
            return r.fail("head_dim is missing and hidden_size is not a multiple of n_heads (" +
                          std::to_string(m.hidden_size) + " / " + std::to_string(m.n_heads) + "); give head_dim");
        m.head_dim = (int)(m.hidden_size / m.n_heads);
    }
    if (m.n_heads % m.n_kv_heads != 0)
        return r.fail("n_kv_heads must divide n_heads (got " + std::to_string(m.n_heads) + " / " +
                      std::to_string(m.n_kv_heads) + ")");
    if (m.extended_context != 0 && m.extended_context <= m.native_context)
        return r.fail("extended_context must be 0 or larger than native_context (got " +
                      std::to_string(m.extended_context) + " <= " + std::to_string(m.native_context) + ")");
    if (m.published_active_params_b > 0 && m.published_params_b > 0 &&
        m.published_active_params_b > m.published_params_b)
        return r.fail("published_active_params_b must not exceed published_params_b (got " +
                      num(m.published_active_params_b) + " > " + num(m.published_params_b) + ")");

    if (!parse_model_moe(r, m)) return false;
    if (!r.ok()) return false;
    // a dense FFN width is needed whenever some layer is dense
    const bool all_moe = m.moe && m.moe->first_dense_layers == 0 && m.moe->layer_step == 1;
    if (!all_moe && m.intermediate_size <= 0)
        return r.fail(std::string("intermediate_size must be > 0 (got ") + std::to_string(m.intermediate_size) +
                      (m.moe ? "); this model has dense FFN layers (moe.first_dense_layers > 0 or moe.layer_step > 1)"
                             : "); only models whose every layer is MoE may give 0"));

    if (!parse_model_mla(r, m)) return false;
    if (!r.ok()) return false;

    if (!parse_model_swa(r, m)) return false;
    if (!r.ok()) return false;

    if (!parse_model_hybrid(r, m)) return false;
    if (!r.ok()) return false;

    if (const json* o = r.object("api_price")) {
        Entry e = r.nested(*o, "api_price");
        e.number("input_usd_per_mtok", m.api_price_in_usd_per_mtok, true, 0);
        e.number("output_usd_per_mtok", m.api_price_out_usd_per_mtok, true, 0);
        e.str("provider", m.api_price_provider, false);
        e.str("date", m.api_price_date, false);
        e.str("source", m.api_price_source, false);
        if (!r.absorb(e)) return false;
    }
    if (const json* v = r.get("ollama_tags")) {
        if (!v->is_array()) return r.fail(std::string("ollama_tags must be a list of objects, got ") + json_type_name(*v));
        for (size_t i = 0; i < v->size(); ++i) {
            const json& o = (*v)[i];
            const std::string key = "ollama_tags[" + std::to_string(i) + "]";
            if (!o.is_object()) return r.fail(key + " must be an object, got " + json_type_name(o));
            Entry e = r.nested(o, key.c_str());
            OllamaTag t;
            e.str("tag", t.tag, true, "\"qwen2.5:7b\"");
            e.str("file_type", t.file_type, true, "\"Q4_K_M\"");
            e.strings("variants", t.variants, false);
            e.str("source", t.source, true);
            e.boolean("only_file_type", t.only_file_type);
            if (!r.absorb(e)) return false;
            m.ollama_tags.push_back(std::move(t));
        }
    }
    if (!parse_model_quality(r, m)) return false;
    if (const json* o = r.object("release_format")) {
        Entry e = r.nested(*o, "release_format");
        e.str("weights", m.release_weights, true, "\"MXFP4\", \"FP8\", \"BF16\"");
        e.str("file_type", m.release_file_type, true, "\"MXFP4_MOE\", \"Q8_0\"");
        e.str("source", m.release_source, true);
        if (!r.absorb(e)) return false;
    }
    return r.ok();
}

// models.json "quality_benchmarks" and "quality_tasks" (optional): the leaderboards and the metric each task ranks by
bool parse_quality_tables(const json& doc, std::vector<QualityBenchmark>& benchmarks, std::vector<QualityTask>& tasks,
                          std::string& err) {
    auto list = [&](const char* key) -> const json* {
        auto it = doc.find(key);
        if (it == doc.end() || it->is_null()) return nullptr;
        if (!it->is_array()) err = std::string("models.json: \"") + key + "\" must be a list";
        return it->is_array() ? &*it : nullptr;
    };
    if (const json* l = list("quality_benchmarks"))
        for (size_t i = 0; i < l->size(); ++i) {
            const json& o = (*l)[i];
            Entry r(o, "models.json: quality_benchmarks[" + std::to_string(i) + "]", err);
            if (!o.is_object()) return r.fail("must be an object");
            QualityBenchmark b;
            r.str("id", b.id, true, "\"aider-polyglot\"");
            r.str("name", b.name, true);
            r.str("version", b.version, true);
            r.str("url", b.url, true);
            r.str("date", b.date, true);
            r.str("source", b.source, true);
            r.str("caveat", b.caveat, false);
            if (!r.ok()) return false;
            auto m = o.find("metrics");
            if (m == o.end() || !m->is_object() || m->empty()) return r.fail("metrics must be an object of metric -> description");
            for (auto it = m->begin(); it != m->end(); ++it)
                b.metrics.push_back({it.key(), it->is_string() ? it->get<std::string>() : std::string()});
            benchmarks.push_back(std::move(b));
        }
    if (const json* l = list("quality_tasks"))
        for (size_t i = 0; i < l->size(); ++i) {
            const json& o = (*l)[i];
            Entry r(o, "models.json: quality_tasks[" + std::to_string(i) + "]", err);
            if (!o.is_object()) return r.fail("must be an object");
            QualityTask t;
            r.str("task", t.task, true, "\"coding\"");
            r.str("benchmark", t.benchmark, true);
            r.str("metric", t.metric, true);
            r.str("why", t.why, false);
            if (!r.ok()) return false;
            tasks.push_back(std::move(t));
        }
    return err.empty();
}

bool parse_models(const std::string& text, std::vector<Model>& out, std::vector<QualityBenchmark>& benchmarks,
                  std::vector<QualityTask>& tasks, std::string& err) {
    static const char* kFile = "models.json";
    const json doc = json::parse(text, nullptr, false);
    const json* list = open_document(doc, text, kFile, "llmsim-models/1", "models", err);
    if (!list) return false;
    err.clear();
    if (!parse_quality_tables(doc, benchmarks, tasks, err)) return false;
    out.clear();
    out.reserve(list->size());
    std::set<std::string> seen;  // lower-cased ids
    for (size_t i = 0; i < list->size(); ++i) {
        const json& e = (*list)[i];
        const std::string where = entry_where(kFile, "model", "models", i, e, "id");
        if (!e.is_object()) {
            err = where + ": must be an object, got " + json_type_name(e);
            return false;
        }
        Entry r(e, where, err);
        Model m;
        if (!parse_model(r, m)) return false;
        if (!seen.insert(lower_ascii(m.id)).second) {
            err = where + ": id is used by an earlier model (ids must be unique, ignoring case)";
            return false;
        }
        out.push_back(std::move(m));
    }
    return true;
}

// [SECTION] hardware.json --------------------------------------------------------------------------------

bool parse_device(Entry& r, Hardware& h) {
    std::string kind, link, chip_family;
    std::vector<std::string> backends;
    double memory_mib = 0, limit_default_mib = 0, limit_max_mib = 0, ram_gib = 0;
    r.str("id", h.id, true, "\"rtx-4090\"");
    r.str("name", h.name, true);
    r.str("vendor", h.vendor, true, "\"nvidia\", \"amd\", \"apple\", \"intel\"");
    r.str("kind", kind, true, "\"consumer\", \"workstation\", \"datacenter\", \"apple\", \"apu\", \"cpu\"");
    r.str("chip_family", chip_family, true, "\"nvidia-ada-geforce\", \"apple\", \"cpu\"");
    r.strings("backends", backends, true);
    r.integer("gpu_count", h.gpu_count, false, 1);
    r.str("link", h.link, false);
    r.number("link_gbs", h.link_gbs, false, 0);
    r.number("memory_mib", memory_mib, true, 0);
    r.str("memory_basis", h.memory_basis, false);
    r.number("bandwidth_gbs", h.bandwidth_gbs, true, 0);
    r.str("memory_kind", h.memory_kind, false, "\"gddr\", \"hbm\", \"unified\"");
    r.number("fp16_tflops", h.fp16_tflops, false, 0);
    r.str("fp16_tflops_basis", h.fp16_tflops_basis, false);
    r.boolean("fp16_tflops_estimated", h.fp16_tflops_estimated);
    r.number("int8_tops", h.int8_tops, false, 0);
    r.number("tdp_w", h.tdp_w, false, 0);
    r.integer("sm_count", h.sm_count, false, 0);
    r.number("boost_clock_mhz", h.boost_clock_mhz, false, 0);
    // a CPU's cores and their FMA pipes (speed: the CPU backend's FLOP/s = cores x FLOP per clock x clock)
    int simd_bits = 0, fma_pipes = 0;
    r.integer("cpu_cores", h.cpu_cores, false, 0, 4096);
    r.integer("cpu_simd_bits", simd_bits, false, 0, 2048);
    r.integer("cpu_fma_pipes", fma_pipes, false, 0, 16);
    h.cpu_core_flops_per_clk = simd_bits / 32 * 2 * fma_pipes;
    r.number("price_usd", h.price_usd, false, 0);
    r.number("price_used_usd", h.price_used_usd, false, 0);
    r.str("price_source", h.price_source, false);
    r.number("cloud_usd_per_hour", h.cloud_usd_per_hour, false, 0);
    r.str("cloud_source", h.cloud_source, false);
    r.number("gpu_limit_default_mib", limit_default_mib, false, 0);
    r.number("gpu_limit_max_mib", limit_max_mib, false, 0);
    r.number("system_ram_gib", ram_gib, false, 0);
    r.number("system_ram_bandwidth_gbs", h.system_ram_bandwidth_gbs, false, 0);
    r.strings("seed_aliases", h.seed_aliases, false);
    r.strings("calibration_names", h.calibration_names, false);
    r.strings("tool_names", h.tool_names, false);
    r.strings("sources", h.sources, true);
    r.strings("notes", h.notes, false);
    if (!r.ok()) return false;

    if (h.id != lower_ascii(h.id)) return r.fail("id must be lower-case (got \"" + h.id + "\", use \"" + lower_ascii(h.id) + "\")");
    auto k = parse_hardware_kind(kind);
    if (!k) return r.fail("kind \"" + kind + "\" is unknown (valid: consumer, workstation, datacenter, apple, apu, cpu)");
    h.kind = *k;
    auto family = parse_chip_family(chip_family);
    if (!family) return r.fail("chip_family \"" + chip_family + "\" is unknown (valid: " + chip_family_names() + ")");
    h.chip_family = *family;
    for (size_t i = 0; i < backends.size(); ++i) {
        auto b = parse_backend(backends[i]);
        if (!b)
            return r.fail("backends[" + std::to_string(i) + "] \"" + backends[i] +
                          "\" is unknown (valid: cuda, rocm, metal, vulkan, sycl, cpu)");
        h.backends.push_back(*b);
    }
    if (!h.memory_kind.empty() && h.memory_kind != "gddr" && h.memory_kind != "hbm" && h.memory_kind != "unified")
        return r.fail("memory_kind \"" + h.memory_kind + "\" is unknown (valid: gddr, hbm, unified)");
    if (memory_mib <= 0) return r.fail("memory_mib must be > 0 (got " + num(memory_mib) + ")");
    if (h.bandwidth_gbs <= 0) return r.fail("bandwidth_gbs must be > 0 (got " + num(h.bandwidth_gbs) + ")");
    // 1 EiB: anything above is a unit mistake, and keeps the products below inside int64
    if (memory_mib > 1e12 || limit_default_mib > 1e12 || limit_max_mib > 1e12 || ram_gib > 1e9)
        return r.fail("memory sizes must be below 1 EiB (a unit mistake? memory_mib is in MiB, system_ram_gib in GiB)");
    h.memory_bytes = (int64_t)std::llround(memory_mib * (double)kMiB);
    h.gpu_limit_default_bytes = (int64_t)std::llround(limit_default_mib * (double)kMiB);
    h.gpu_limit_max_bytes = (int64_t)std::llround(limit_max_mib * (double)kMiB);
    h.system_ram_bytes = (int64_t)std::llround(ram_gib * (double)kGiB);
    if (h.gpu_limit_default_bytes > 0 && h.gpu_limit_max_bytes > 0 && h.gpu_limit_default_bytes > h.gpu_limit_max_bytes)
        return r.fail("gpu_limit_default_mib must be <= gpu_limit_max_mib (got " + num(limit_default_mib) + " > " +
                      num(limit_max_mib) + ")");
    if (h.gpu_count > 1 && h.link_gbs <= 0 && h.link.empty())
        return r.fail("gpu_count is " + std::to_string(h.gpu_count) +
                      ", so link (e.g. \"pcie4-x16\", \"nvlink\") or link_gbs must say how the GPUs connect");
    return true;
}

bool parse_hardware(const std::string& text, std::vector<Hardware>& out, std::string& err) {
    static const char* kFile = "hardware.json";
    const json doc = json::parse(text, nullptr, false);
    const json* list = open_document(doc, text, kFile, "llmsim-hardware/1", "devices", err);
    if (!list) return false;
    out.clear();
    out.reserve(list->size());
    for (size_t i = 0; i < list->size(); ++i) {
        const json& e = (*list)[i];
        const std::string where = entry_where(kFile, "device", "devices", i, e, "id");
        if (!e.is_object()) {
            err = where + ": must be an object, got " + json_type_name(e);
            return false;
        }
        Entry r(e, where, err);
        Hardware h;
        if (!parse_device(r, h)) return false;
        out.push_back(std::move(h));
    }
    // every name find_hardware matches must lead to one device
    std::vector<std::pair<std::string, size_t>> names;  // lower-cased name, device index
    for (size_t i = 0; i < out.size(); ++i) {
        names.emplace_back(lower_ascii(out[i].id), i);
        for (const auto& a : out[i].seed_aliases) names.emplace_back(lower_ascii(a), i);
        for (const auto& a : out[i].calibration_names) names.emplace_back(lower_ascii(a), i);
        for (const auto& a : out[i].tool_names) names.emplace_back(lower_ascii(a), i);
    }
    std::stable_sort(names.begin(), names.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    for (size_t i = 1; i < names.size(); ++i) {
        if (names[i].first != names[i - 1].first || names[i].second == names[i - 1].second) continue;
        const Hardware& a = out[std::min(names[i].second, names[i - 1].second)];
        const Hardware& b = out[std::max(names[i].second, names[i - 1].second)];
        err = std::string(kFile) + ": device '" + b.id + "': the name \"" + names[i].first +
              "\" (id, seed alias, calibration name or tool name) is also used by device '" + a.id +
              "' (each must name one device, ignoring case)";
        return false;
    }
    return true;
}

// [SECTION] quants.json ----------------------------------------------------------------------------------

bool parse_quants(const std::string& text, std::vector<GgmlType>& types, std::vector<FileType>& ftypes,
                  std::string& err) {
    static const char* kFile = "quants.json";
    const json doc = json::parse(text, nullptr, false);
    const json* tlist = open_document(doc, text, kFile, "llmsim-quants/1", "ggml_types", err);
    if (!tlist) return false;
    auto fl = doc.find("file_types");
    if (fl == doc.end() || !fl->is_array()) {
        err = std::string(kFile) + ": \"file_types\" must be a list" +
              (fl == doc.end() ? std::string(" (it is missing)") : ", got " + std::string(json_type_name(*fl)));
        return false;
    }
    types.clear();
    ftypes.clear();
    std::set<std::string> names;
    std::set<int> ids;
    for (size_t i = 0; i < tlist->size(); ++i) {
        const json& e = (*tlist)[i];
        const std::string where = entry_where(kFile, "ggml type", "ggml_types", i, e, "name");
        if (!e.is_object()) {
            err = where + ": must be an object, got " + json_type_name(e);
            return false;
        }
        Entry r(e, where, err);
        GgmlType t;
        std::vector<std::string> sources;
        r.str("name", t.name, true, "\"Q4_K\"");
        r.integer("id", t.id, true, 0);
        r.integer("block_size", t.block_size, true, 1);
        r.integer("type_size", t.type_size, true, 1);
        r.strings("sources", sources, false);
        if (!r.ok()) return false;
        if (!names.insert(lower_ascii(t.name)).second)
            return r.fail("name is used by an earlier ggml type (names must be unique, ignoring case)");
        if (!ids.insert(t.id).second)
            return r.fail("id " + std::to_string(t.id) + " is used by an earlier ggml type (ids must be unique)");
        types.push_back(std::move(t));
    }
    names.clear();
    std::set<int> ftype_ids;
    for (size_t i = 0; i < fl->size(); ++i) {
        const json& e = (*fl)[i];
        const std::string where = entry_where(kFile, "file type", "file_types", i, e, "name");
        if (!e.is_object()) {
            err = where + ": must be an object, got " + json_type_name(e);
            return false;
        }
        Entry r(e, where, err);
        FileType f;
        r.str("name", f.name, true, "\"Q4_K_M\"");
        r.integer("ftype_id", f.ftype_id, false, -1);
        r.boolean("gguf", f.gguf);
        r.str("base_type", f.base_type, f.gguf, "\"Q4_K\"");
        r.number("flat_bpw", f.flat_bpw, false, 0);
        r.str("quality_label", f.quality_label, false);
        r.number("kld", f.kld, false, -1);
        r.number("ppl_delta_pct", f.ppl_delta_pct, false, -100);
        r.str("quality_source", f.quality_source, false);
        r.boolean("common", f.common);
        r.strings("sources", f.sources, false);
        r.strings("aliases", f.aliases, false);
        if (!r.ok()) return false;
        if (!names.insert(lower_ascii(f.name)).second)
            return r.fail("name is used by an earlier file type (names must be unique, ignoring case)");
        if (f.ftype_id >= 0 && !ftype_ids.insert(f.ftype_id).second)
            return r.fail("ftype_id " + std::to_string(f.ftype_id) + " is used by an earlier file type");
        if (!f.base_type.empty()) {
            auto it = std::find_if(types.begin(), types.end(), [&](const GgmlType& t) { return t.name == f.base_type; });
            if (it == types.end()) {
                std::string valid;
                for (const auto& t : types) valid += (valid.empty() ? "" : ", ") + t.name;
                return r.fail("base_type \"" + f.base_type + "\" is not a ggml type in this file (valid: " + valid + ")");
            }
        }
        if (f.gguf && f.ftype_id < 0)
            return r.fail("ftype_id is missing (GGUF file types carry their llama_ftype number; use \"gguf\": false "
                          "for other formats)");
        if (!f.gguf && f.flat_bpw <= 0)
            return r.fail("flat_bpw must be > 0 for a non-GGUF format (effective bits per weight incl. scales)");
        ftypes.push_back(std::move(f));
    }
    return true;
}

}  // namespace

// [SECTION] parse_catalog --------------------------------------------------------------------------------

namespace {
// every score and task names a listed benchmark and one of its metrics, and a task is listed once
bool check_quality(const Catalog& c, std::string& err) {
    auto has_metric = [&](const std::string& bench, const std::string& metric) {
        const QualityBenchmark* b = c.find_quality_benchmark(bench);
        if (!b) return false;
        for (const auto& m : b->metrics)
            if (m.first == metric) return true;
        return false;
    };
    for (size_t i = 0; i < c.quality_tasks.size(); ++i) {
        const QualityTask& t = c.quality_tasks[i];
        if (!has_metric(t.benchmark, t.metric)) {
            err = "models.json: quality_tasks '" + t.task + "': " + t.benchmark + " / " + t.metric + " is not a listed benchmark metric";
            return false;
        }
        for (size_t j = 0; j < i; ++j)
            if (c.quality_tasks[j].task == t.task) {
                err = "models.json: quality_tasks '" + t.task + "' is listed twice";
                return false;
            }
    }
    for (const Model& m : c.models)
        for (const QualityScore& q : m.quality)
            for (const auto& s : q.scores)
                if (!has_metric(q.benchmark, s.first)) {
                    err = "models.json: model '" + m.id + "': quality " + q.benchmark + " / " + s.first +
                          " is not a metric of a benchmark in quality_benchmarks";
                    return false;
                }
    return true;
}
}  // namespace

bool parse_catalog(const std::string& models_json, const std::string& hardware_json, const std::string& quants_json,
                   Catalog& out, std::string& err) {
    Catalog c;
    if (!parse_models(models_json, c.models, c.quality_benchmarks, c.quality_tasks, err)) return false;
    if (!check_quality(c, err)) return false;
    if (!parse_hardware(hardware_json, c.hardware, err)) return false;
    if (!parse_quants(quants_json, c.ggml_types, c.file_types, err)) return false;
    for (const Model& m : c.models) {
        for (const OllamaTag& t : m.ollama_tags)
            if (!c.find_file_type(t.file_type)) {
                err = "models.json: model '" + m.id + "': ollama_tags " + t.tag + ": file_type \"" + t.file_type +
                      "\" is not a file type in quants.json";
                return false;
            }
        if (m.release_file_type.empty() || c.find_file_type(m.release_file_type)) continue;
        err = "models.json: model '" + m.id + "': release_format.file_type \"" + m.release_file_type +
              "\" is not a file type in quants.json (e.g. \"MXFP4_MOE\", \"Q8_0\", \"Q4_K_M\")";
        return false;
    }
    add_gpu_combinations(c);
    out = std::move(c);
    return true;
}

std::string default_file_type(const Model& m) {
    return m.release_file_type.empty() ? "Q4_K_M" : m.release_file_type;
}

// [SECTION] Lookup ---------------------------------------------------------------------------------------

namespace {
template <class T, class Key>
const T* find_by(const std::vector<T>& v, const std::string& key, Key k) {
    for (const T& x : v)
        if (k(x) == key) return &x;
    for (const T& x : v)
        if (equals_ci(k(x), key)) return &x;
    return nullptr;
}
}  // namespace

const Model* Catalog::find_model(const std::string& id) const {
    if (const Model* m = find_model_id(id)) return m;
    const auto r = resolve_model_name_quiet(*this, id);
    if (!r || r->file_type_named || (!r->file_type.empty() && r->file_type != default_file_type(*r->model))) return nullptr;
    return r->model;
}

const Model* Catalog::find_model_id(const std::string& id) const {
    if (const Model* m = find_by(models, id, [](const Model& x) -> const std::string& { return x.id; })) return m;
    // "Qwen2.5-7B-Instruct" for "Qwen/Qwen2.5-7B-Instruct", but only when it names one model
    if (id.empty() || id.find('/') != std::string::npos) return nullptr;
    const Model* hit = nullptr;
    for (const Model& m : models) {
        const size_t slash = m.id.rfind('/');
        if (slash == std::string::npos || !equals_ci(m.id.substr(slash + 1), id)) continue;
        if (hit) return nullptr;  // ambiguous
        hit = &m;
    }
    return hit;
}

const Hardware* Catalog::find_hardware(const std::string& id) const {
    if (const Hardware* h = find_by(hardware, id, [](const Hardware& x) -> const std::string& { return x.id; }))
        return h;
    for (int pass = 0; pass < 2; ++pass)
        for (const Hardware& h : hardware) {
            for (const auto& lists : {&h.seed_aliases, &h.calibration_names, &h.tool_names})
                for (const auto& a : *lists)
                    if (pass == 0 ? a == id : equals_ci(a, id)) return &h;
        }
    if (const Hardware* c = find_by(combinations, id, [](const Hardware& x) -> const std::string& { return x.id; }))
        return c;
    return nullptr;   // rig ids ("rtx-5080+rtx-5060-ti-16gb") are built above the catalog: rig/resolve_device.h
}

const GgmlType* Catalog::find_ggml_type(const std::string& name) const {
    return find_by(ggml_types, name, [](const GgmlType& x) -> const std::string& { return x.name; });
}

const FileType* Catalog::find_file_type(const std::string& name) const {
    if (const FileType* f = find_by(file_types, name, [](const FileType& x) -> const std::string& { return x.name; })) return f;
    const std::string key = lower_ascii(name);   // other names users type: FP16 for F16, MXFP4 for MXFP4_MOE
    for (const FileType& f : file_types)
        for (const std::string& a : f.aliases)
            if (lower_ascii(a) == key) return &f;
    return nullptr;
}

const FileType* Catalog::resolve_file_type(const std::string& name, const std::string& what, std::string& err) const {
    if (const FileType* f = find_file_type(name)) return f;
    err = (what.empty() ? std::string() : what + ": ") + "unknown quant '" + name + "' (valid: " + file_type_names() + ")";
    return nullptr;
}

std::string Catalog::file_type_names() const {
    std::string out;
    for (const FileType& f : file_types) out += (out.empty() ? "" : ", ") + f.name;
    return out;
}

const GgmlType* Catalog::find_ggml_type_id(int id) const {
    for (const GgmlType& t : ggml_types)
        if (t.id == id) return &t;
    return nullptr;
}

const FileType* Catalog::find_file_type_id(int ftype_id) const {
    if (ftype_id < 0) return nullptr;
    for (const FileType& f : file_types)
        if (f.gguf && f.ftype_id == ftype_id) return &f;
    return nullptr;
}

// [SECTION] Enums and SlidingWindow ----------------------------------------------------------------------

const char* to_string(HardwareKind k) {
    switch (k) {
        case HardwareKind::Consumer: return "consumer";
        case HardwareKind::Workstation: return "workstation";
        case HardwareKind::Datacenter: return "datacenter";
        case HardwareKind::Apple: return "apple";
        case HardwareKind::Apu: return "apu";
        case HardwareKind::Cpu: return "cpu";
    }
    return "?";
}

const char* to_string(Backend b) {
    switch (b) {
        case Backend::Cuda: return "cuda";
        case Backend::Rocm: return "rocm";
        case Backend::Metal: return "metal";
        case Backend::Vulkan: return "vulkan";
        case Backend::Sycl: return "sycl";
        case Backend::Cpu: return "cpu";
    }
    return "?";
}

std::optional<HardwareKind> parse_hardware_kind(const std::string& s) {
    for (HardwareKind k : {HardwareKind::Consumer, HardwareKind::Workstation, HardwareKind::Datacenter,
                           HardwareKind::Apple, HardwareKind::Apu, HardwareKind::Cpu})
        if (equals_ci(s, to_string(k))) return k;
    return std::nullopt;
}

std::optional<Backend> parse_backend(const std::string& s) {
    for (Backend b : {Backend::Cuda, Backend::Rocm, Backend::Metal, Backend::Vulkan, Backend::Sycl, Backend::Cpu})
        if (equals_ci(s, to_string(b))) return b;
    return std::nullopt;
}

// llama.cpp's llama_hparams::set_swa_pattern: layer il is sliding when il % n_pattern < n_pattern - 1,
// i.e. the last layer of every group of n_pattern is full attention (src/llama-hparams.cpp).
bool SlidingWindow::is_sliding(int layer, int n_layers) const {
    if (window <= 0 || layer < 0 || (n_layers > 0 && layer >= n_layers)) return false;
    if (pattern == 1) return true;
    if (pattern > 1) return layer % pattern < pattern - 1;
    return std::find(sliding_layers.begin(), sliding_layers.end(), layer) != sliding_layers.end();
}

const double* QualityScore::score(const std::string& metric) const {
    for (const auto& s : scores)
        if (s.first == metric) return &s.second;
    return nullptr;
}

const QualityTask* Catalog::find_quality_task(const std::string& task) const {
    for (const QualityTask& t : quality_tasks)
        if (t.task == task) return &t;
    return nullptr;
}

const QualityBenchmark* Catalog::find_quality_benchmark(const std::string& id) const {
    for (const QualityBenchmark& b : quality_benchmarks)
        if (b.id == id) return &b;
    return nullptr;
}

std::string Catalog::quality_task_names() const {
    std::string s;
    for (const QualityTask& t : quality_tasks) s += (s.empty() ? "" : ", ") + t.task;
    return s;
}

}  // namespace llmsim
