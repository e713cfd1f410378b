// Published measurements of the beyond-chat models, scored held out (extras_accuracy.h).
//
// [SECTION] Rows
// [SECTION] Per-kind predictions
// [SECTION] Report
#include "calibration/extras_accuracy.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <set>

#include <nlohmann/json.hpp>

#include "adapter/lora.h"
#include "core/lines.h"
#include "core/units.h"
#include "embed/embed.h"
#include "model/hf_config.h"
#include "spec/spec.h"
#include "train/train.h"
#include "vision/vision.h"
#include "core/stats.h"

namespace llmsim {

using json = nlohmann::json;

// [SECTION] Rows -------------------------------------------------------------------------------------------

namespace {
struct KindName { ExtraKind kind; const char* name; };
constexpr KindName kKindNames[] = {
    {ExtraKind::TrainMemory, "train_memory"},   {ExtraKind::TrainTokensPerS, "train_tokens_per_s"},
    {ExtraKind::VisionEncode, "vision_encode"}, {ExtraKind::LoraDecode, "lora_decode"},
    {ExtraKind::SpecDecode, "spec_decode"},     {ExtraKind::EmbedThroughput, "embed_throughput"},
};
static_assert(sizeof(kKindNames) / sizeof(kKindNames[0]) == (size_t)ExtraKind::Count, "a name per ExtraKind");

std::string str_of(const json& j, const char* k) {
    return j.contains(k) && j[k].is_string() ? j[k].get<std::string>() : std::string();
}
}  // namespace

const char* to_string(ExtraKind k) {
    for (const KindName& n : kKindNames)
        if (n.kind == k) return n.name;
    return "?";
}

bool parse_extra_kind(const std::string& s, ExtraKind& out) {
    for (const KindName& n : kKindNames)
        if (s == n.name) { out = n.kind; return true; }
    return false;
}

namespace {
bool parse_extra_row(const std::string& line, ExtraRow& row, std::string& err) {
    json j = json::parse(line, nullptr, false);
    if (j.is_discarded() || !j.is_object()) { err = "not a JSON object"; return false; }
    row = ExtraRow();
    row.id = str_of(j, "id");
    if (row.id.empty()) { err = "\"id\" is missing"; return false; }
    std::string kind = str_of(j, "kind");
    if (!parse_extra_kind(kind, row.kind)) { err = "row " + row.id + ": unknown kind '" + kind + "'"; return false; }
    row.model = str_of(j, "model");
    if (j.contains("config") && j["config"].is_object()) row.config_json = j["config"].dump();
    if (row.model.empty() && row.config_json.empty()) { err = "row " + row.id + ": \"model\" is missing"; return false; }
    row.hardware = str_of(j, "hardware");
    row.source = str_of(j, "source");
    if (row.source.empty()) { err = "row " + row.id + ": \"source\" is missing (every measurement names where it came from)"; return false; }
    row.date = str_of(j, "date");
    row.build = str_of(j, "build");
    row.framework = str_of(j, "framework");
    row.notes = str_of(j, "notes");
    row.guided = j.contains("guided") && j["guided"].is_boolean() && j["guided"].get<bool>();
    if (!j.contains("setup") || !j["setup"].is_object() || !j.contains("measured") || !j["measured"].is_object()) {
        err = "row " + row.id + ": \"setup\" and \"measured\" must be JSON objects";
        return false;
    }
    row.line = line;
    return true;
}
}  // namespace

bool parse_extra_rows(const std::string& text, std::vector<ExtraRow>& rows, std::string& err) {
    rows.clear();
    std::set<std::string> ids;
    const bool ok = for_each_line(text, [&](const std::string& line, int line_no) {
        if (blank_line(line)) return true;
        ExtraRow row;
        std::string e;
        if (!parse_extra_row(line, row, e)) { err = "line " + std::to_string(line_no) + ": " + e; return false; }
        if (!ids.insert(row.id).second) { err = "line " + std::to_string(line_no) + ": duplicate id " + row.id; return false; }
        rows.push_back(std::move(row));
        return true;
    });
    if (!ok) return false;
    if (rows.empty()) { err = "no measurement rows"; return false; }
    return true;
}

// [SECTION] Per-kind predictions ------------------------------------------------------------------------------

namespace {

struct RowContext {
    const Catalog& cat;
    const ExtraRow& row;
    json setup, measured;
    Model own;                         // a model built from the row's config.json
    const Model* model = nullptr;
    const Hardware* hw = nullptr;
};

double num_of(const json& j, const char* k, double fallback) {
    return j.contains(k) && j[k].is_number() ? j[k].get<double>() : fallback;
}

// whole numbers for the modules' requests, clamped before the cast (a JSON 1e300 must not overflow an int); the
// owning module then refuses what is out of its range with its own message
int64_t i64_of(const json& j, const char* k, int64_t fallback) {
    return (int64_t)std::max(-1e15, std::min(1e15, num_of(j, k, (double)fallback)));
}
int int_of(const json& j, const char* k, int fallback) {
    return (int)std::max(-1e9, std::min(1e9, num_of(j, k, (double)fallback)));
}

bool bool_of(const json& j, const char* k, bool fallback) {
    return j.contains(k) && j[k].is_boolean() ? j[k].get<bool>() : fallback;
}

bool positive(const json& j, const char* k, double& out, std::string& err) {
    out = num_of(j, k, 0);
    if (!(out > 0)) { err = std::string("measured.") + k + " is missing or not a positive number"; return false; }
    return true;
}

// the row's own model (its config.json when given, else the catalog) or, with row_model false, a catalog id
bool resolve_model(RowContext& c, const std::string& id, bool row_model, const Model*& out, std::string& err) {
    if (row_model && !c.row.config_json.empty()) {
        if (!model_from_hf_config(c.row.config_json, id.empty() ? "custom" : id, c.own, err)) { err = "config: " + err; return false; }
        out = &c.own;
        return true;
    }
    out = c.cat.find_model(id);
    if (!out) { err = "unknown model '" + id + "' (not in the catalog; give its config.json as \"config\")"; return false; }
    return true;
}

bool need_hardware(RowContext& c, std::string& err) {
    c.hw = c.cat.find_hardware(c.row.hardware);
    if (!c.hw) { err = "unknown hardware '" + c.row.hardware + "'"; return false; }
    return true;
}

// fine-tuning: the training request of the row's setup (train.h); memory is compared with the same statistic the
// source printed: torch.cuda.max_memory_allocated has no CUDA context and no allocator slack, max_memory_reserved
// has the slack, nvidia-smi ("device") has both
bool train_request(RowContext& c, TrainRequest& r, std::string& err) {
    const json& s = c.setup;
    if (!parse_train_method(str_of(s, "method"), r.method)) { err = "setup.method must be full, lora or qlora"; return false; }
    std::string opt = str_of(s, "optimizer");
    if (!opt.empty() && !parse_train_optimizer(opt, r.optimizer)) { err = "setup.optimizer: unknown '" + opt + "'"; return false; }
    r.seq = i64_of(s, "seq", 0);
    r.micro_batch = int_of(s, "micro_batch", 1);
    r.gpus = int_of(s, "gpus", 1);
    r.zero = int_of(s, "zero", 0);
    r.grad_ckpt = bool_of(s, "grad_ckpt", false);
    r.flash_attn = bool_of(s, "flash_attn", true);
    r.ddp_bucket_view = bool_of(s, "ddp_bucket_view", false);
    r.lora.rank = int_of(s, "rank", 16);
    if (!parse_lora_targets(s.contains("targets") ? str_of(s, "targets") : "all", r.lora, err)) return false;
    r.hardware = c.hw;
    return true;
}

bool predict_train(RowContext& c, ExtraScore& out, std::string& err) {
    if (!resolve_model(c, c.row.model, true, c.model, err) || !need_hardware(c, err)) return false;
    TrainRequest r;
    if (!train_request(c, r, err)) return false;
    TrainMemory t;
    if (!estimate_training(*c.model, r, t, err)) return false;
    if (c.row.kind == ExtraKind::TrainTokensPerS) {
        if (!positive(c.measured, "tokens_per_s", out.measured, err)) return false;
        out.quantity = "training tokens/s (all GPUs)";
        out.predicted = t.tokens_per_s;
        if (!(t.tokens_per_s > 0)) { err = "no training tokens/s: the catalog has no FP16 tensor figure for " + c.hw->id; return false; }
        return true;
    }
    std::string stat = str_of(c.measured, "memory_stat");
    double v = num_of(c.measured, "peak_gib", 0);
    if (!(v > 0)) v = num_of(c.measured, "peak_gb", 0) * 1e9 / (double)kGiB;
    if (!(v > 0)) { err = "measured.peak_gib or measured.peak_gb is missing or not positive"; return false; }
    uint64_t pred = t.total_bytes;
    if (stat == "allocated") pred -= t.cuda_context_bytes + t.fragmentation_bytes;
    else if (stat == "reserved") pred -= t.cuda_context_bytes;
    else if (stat != "device") { err = "measured.memory_stat must be allocated, reserved or device"; return false; }
    out.quantity = "peak GPU memory (" + stat + ") GiB";
    out.measured = v;
    out.predicted = (double)pred / (double)kGiB;
    return true;
}

bool predict_vision(RowContext& c, ExtraScore& out, std::string& err) {
    if (!resolve_model(c, c.row.model, true, c.model, err) || !need_hardware(c, err)) return false;
    if (!positive(c.measured, "encode_ms", out.measured, err)) return false;
    VisionEncoder enc;
    if (!vision_encoder_for_model(*c.model, enc, err)) return false;
    VisionRequest r;
    r.text.memory.hardware = c.hw;
    r.text.memory.file_type = c.setup.contains("quant") ? str_of(c.setup, "quant") : "Q4_K_M";
    r.text.memory.n_ctx = i64_of(c.setup, "n_ctx", 4096);
    r.image_w = int_of(c.setup, "image_w", 0);
    r.image_h = int_of(c.setup, "image_h", 0);
    VisionEstimate v;
    if (!estimate_vision(c.cat, *c.model, enc, r, v, err)) return false;
    if (!v.encode_ok) { err = "no encode time for this device"; return false; }
    out.quantity = "image encode ms (" + std::to_string(v.plan.tokens) + " tokens)";
    out.predicted = v.encode_s * 1e3;
    return true;
}

// decode speed with one adapter applied over the speed without, measured and predicted (the base speed's own
// error cancels, so this scores the adapter's cost alone)
bool predict_lora(RowContext& c, ExtraScore& out, std::string& err) {
    if (!resolve_model(c, c.row.model, true, c.model, err) || !need_hardware(c, err)) return false;
    double base_ms = 0, lora_ms = 0;
    if (!positive(c.measured, "base_ms_per_token", base_ms, err) || !positive(c.measured, "lora_ms_per_token", lora_ms, err)) return false;
    LoraSpec spec;
    spec.rank = int_of(c.setup, "rank", 16);
    if (!parse_lora_targets(c.setup.contains("targets") ? str_of(c.setup, "targets") : "q,k,v,o", spec, err)) return false;
    std::string lt = c.setup.contains("lora_type") ? str_of(c.setup, "lora_type") : "F16";
    std::optional<TensorType> tt = parse_tensor_type(lt);
    if (!tt) { err = "setup.lora_type: unknown type '" + lt + "'"; return false; }
    spec.type = *tt;
    SimRequest r;
    r.memory.hardware = c.hw;
    r.memory.file_type = c.setup.contains("quant") ? str_of(c.setup, "quant") : "Q4_K_M";
    r.memory.n_ctx = i64_of(c.setup, "n_ctx", 4096);
    LoraCost lc;
    if (!lora_cost(c.cat, *c.model, r, spec, 1, i64_of(c.setup, "depth", 0), lc, err)) return false;
    out.quantity = "decode speed with / without the adapter";
    out.measured = base_ms / lora_ms;
    out.predicted = lc.lora_tokens_per_s / lc.base_tokens_per_s;
    return true;
}

// the per-token acceptance a whose E(a, k) (spec.h expected_accepted_tokens) equals the measured tokens per round
double acceptance_for(double tokens_per_round, int k) {
    double lo = 0, hi = 0.999999;
    for (int i = 0; i < 80; ++i) (expected_accepted_tokens(0.5 * (lo + hi), k) < tokens_per_round ? lo : hi) = 0.5 * (lo + hi);
    return lo;
}

// llama-speculative / llama-server counts: each round yields its accepted drafts + the target's own token, so
// rounds = n_predict - n_accept; the effective draft length is n_drafted / rounds (drafts stop early at
// --draft-p-min), which the model is given as k
bool predict_spec(RowContext& c, ExtraScore& out, std::string& err) {
    const Model* draft = nullptr;
    if (!resolve_model(c, c.row.model, true, c.model, err) || !resolve_model(c, str_of(c.setup, "draft"), false, draft, err) ||
        !need_hardware(c, err))
        return false;
    double n_predict = 0, n_drafted = 0, spec_tps = 0;
    if (!positive(c.measured, "n_predict", n_predict, err) || !positive(c.measured, "n_drafted", n_drafted, err) ||
        !positive(c.measured, "spec_tokens_per_s", spec_tps, err))
        return false;
    double n_accept = num_of(c.measured, "n_accept", -1);
    if (n_accept < 0 || n_accept >= n_predict) { err = "measured.n_accept must be from 0 to below n_predict"; return false; }
    double rounds = n_predict - n_accept;
    int k_max = int_of(c.setup, "draft_max", 16);
    int k = std::max(1, (int)std::lround(std::min((double)std::max(k_max, 1), n_drafted / rounds)));
    SpecRequest r;
    r.target.memory.hardware = c.hw;
    r.target.memory.file_type = c.setup.contains("quant") ? str_of(c.setup, "quant") : "Q4_K_M";
    r.target.memory.n_ctx = i64_of(c.setup, "n_ctx", 4096);
    r.draft_file_type = c.setup.contains("draft_quant") ? str_of(c.setup, "draft_quant") : "Q8_0";
    r.draft_max = k;
    r.depth = i64_of(c.setup, "depth", 0);
    r.acceptance = acceptance_for(n_predict / rounds, k);
    SpecSpeed sp;
    if (!estimate_spec_speed(c.cat, *c.model, *draft, r, sp, err)) return false;
    double plain = num_of(c.measured, "plain_tokens_per_s", 0);
    char q[96];
    if (plain > 0) {
        snprintf(q, sizeof q, "speed-up with the draft (k %d, a %.2f)", k, r.acceptance);
        out.measured = spec_tps / plain;
        out.predicted = sp.speedup;
    } else {
        snprintf(q, sizeof q, "decode tokens/s with the draft (k %d, a %.2f)", k, r.acceptance);
        out.measured = spec_tps;
        out.predicted = sp.spec_tokens_per_s;
    }
    out.quantity = q;
    return true;
}

bool predict_embed(RowContext& c, ExtraScore& out, std::string& err) {
    const EmbeddingModel* m = find_embedding_model(c.row.model);
    if (!m) { err = "unknown embedding model '" + c.row.model + "' (embed.h table)"; return false; }
    if (!need_hardware(c, err) || !positive(c.measured, "tokens_per_s", out.measured, err)) return false;
    EmbedRequest r;
    r.hardware = c.hw;
    if (c.setup.contains("file_type")) r.file_type = str_of(c.setup, "file_type");
    r.doc_tokens = i64_of(c.setup, "doc_tokens", 512);
    r.batch_docs = int_of(c.setup, "batch_docs", 32);
    r.n_ubatch = int_of(c.setup, "n_ubatch", 0);
    EmbedEstimate e;
    if (!estimate_embedding(c.cat, *m, r, e, err)) return false;
    if (!e.speed_ok) { err = "no throughput for this device"; return false; }
    out.quantity = "embedded tokens/s";
    out.predicted = e.tokens_per_s;
    return true;
}

}  // namespace

ExtraScore score_extra_row(const Catalog& cat, const ExtraRow& row) {
    ExtraScore s;
    s.row = &row;
    json whole = json::parse(row.line, nullptr, false);
    if (!whole.is_object() || !whole.contains("setup") || !whole.contains("measured")) { s.error = "not a measurement row"; return s; }
    RowContext c{cat, row, whole["setup"], whole["measured"], Model(), nullptr, nullptr};
    std::string err;
    bool ok = false;
    switch (row.kind) {
        case ExtraKind::TrainMemory:
        case ExtraKind::TrainTokensPerS: ok = predict_train(c, s, err); break;
        case ExtraKind::VisionEncode: ok = predict_vision(c, s, err); break;
        case ExtraKind::LoraDecode: ok = predict_lora(c, s, err); break;
        case ExtraKind::SpecDecode: ok = predict_spec(c, s, err); break;
        case ExtraKind::EmbedThroughput: ok = predict_embed(c, s, err); break;
        case ExtraKind::Count: err = "bad kind"; break;
    }
    s.ok = ok && s.measured > 0 && std::isfinite(s.predicted) && s.predicted > 0;
    if (!s.ok) s.error = err.empty() ? "no prediction" : err;
    else s.rel_error = s.predicted / s.measured - 1.0;
    return s;
}

// [SECTION] Report -------------------------------------------------------------------------------------------

ExtrasReport score_extra_rows(const Catalog& cat, const std::vector<ExtraRow>& rows) {
    ExtrasReport rep;
    for (const ExtraRow& r : rows) rep.scores.push_back(score_extra_row(cat, r));
    for (int k = 0; k < (int)ExtraKind::Count; ++k) {
        ExtraKindSummary sum;
        sum.kind = (ExtraKind)k;
        std::vector<double> abs_e, e;
        for (const ExtraScore& s : rep.scores) {
            if (s.row->kind != sum.kind) continue;
            if (!s.ok) { ++sum.failed; continue; }
            if (s.row->guided) { ++sum.guided; continue; }
            ++sum.held_out;
            abs_e.push_back(std::fabs(s.rel_error));
            e.push_back(s.rel_error);
        }
        sum.median_abs_error = median(abs_e);
        sum.median_error = median(e);
        rep.kinds.push_back(sum);
    }
    return rep;
}

std::string format_extras_report(const ExtrasReport& rep) {
    std::string o = "| id | kind | model | hardware | quantity | measured | predicted | error | role | source |\n"
                    "|---|---|---|---|---|---:|---:|---:|---|---|\n";
    char b[256];
    for (const ExtraScore& s : rep.scores) {
        const ExtraRow& r = *s.row;
        o += "| " + r.id + " | " + to_string(r.kind) + " | " + r.model + " | " + r.hardware + " | ";
        if (s.ok) {
            snprintf(b, sizeof b, "%s | %.4g | %.4g | %+.1f %% | ", s.quantity.c_str(), s.measured, s.predicted, s.rel_error * 100);
            o += b;
        } else {
            o += "not scored: " + s.error + " | | | | ";
        }
        o += std::string(r.guided ? "guided (regression guard)" : "held out") + " | " + r.source + " |\n";
    }
    o += "\n| kind | held-out rows | median abs error | median error | guided rows | not scored |\n|---|---:|---:|---:|---:|---:|\n";
    for (const ExtraKindSummary& k : rep.kinds) {
        if (k.held_out == 0 && k.guided == 0 && k.failed == 0) {
            o += std::string("| ") + to_string(k.kind) + " | 0 (no published measurement in the file) | | | 0 | 0 |\n";
            continue;
        }
        if (k.held_out == 0)
            snprintf(b, sizeof b, "| %s | 0 | | | %d | %d |\n", to_string(k.kind), k.guided, k.failed);
        else
            snprintf(b, sizeof b, "| %s | %d | %.1f %% | %+.1f %% | %d | %d |\n", to_string(k.kind), k.held_out,
                     k.median_abs_error * 100, k.median_error * 100, k.guided, k.failed);
        o += b;
    }
    return o;
}

}  // namespace llmsim
