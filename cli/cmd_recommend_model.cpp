// llmsim-cli recommend-model: the models a device runs at a context and speed, ranked by a published benchmark score
// for a task (sim/recommend_quality.h), each at the least lossy quant that fits, with that quant's measured loss.
// Its own command rather than `recommend --hardware --task`: recommend --hardware ranks by size and keeps its output
// (pinned by the golden outputs); this one ranks by quality, lists the unscored models apart and names its sources.
#include <cstdio>

#include <nlohmann/json.hpp>

#include "api/best_models.h"
#include "commands.h"
#include "core/format.h"
#include "rig/resolve_device.h"
#include "sim/recommend_quality.h"
#include "sim/speed_labels.h"

namespace llmsim::cli {

namespace {

void print_help() {
    printf("usage: llmsim-cli recommend-model --hardware ID [--task general|chat|reasoning|coding] [--ctx N]\n"
           "                                  [--min-decode TOK_S] [--extreme] [--format md|json]\n"
           "Ranks the catalog models that fit the device at --ctx (default 8192) and decode at >= --min-decode tok/s\n"
           "at that full context, by the published score the task uses (general and chat: Open LLM Leaderboard v2\n"
           "average; reasoning: its BBH score; coding: Aider polyglot pass rate). Each model runs at the least lossy\n"
           "quant that fits; the quant's measured loss (KL divergence and perplexity vs FP16, llama.cpp's LLaMA 3 8B\n"
           "scoreboard) is shown beside the score, never folded into it. Models without a published score are\n"
           "listed apart as \"no published score\". The quants labelled Extreme Compression (KLD >= 0.25: Q2_K, IQ2_*,\n"
           "IQ1_*) are left out unless --extreme. Scores and sources: assets/catalog/models.json (quality).\n");
}

std::string loss_cell(const QualityChoice& c) {
    const FileType& ft = *c.file_type;
    std::string s = c.release_format ? "as released" : "";
    if (ft.kld >= 0)
        s += (s.empty() ? "" : "; ") + std::string("KLD ") + format_sig(ft.kld) +
             (ft.ppl_delta_pct >= 0 ? ", PPL +" + format_sig(ft.ppl_delta_pct) + " %" : "");
    return s + " (" + ft.quality_label + ")";
}

std::string decode_cell(const QualityChoice& c) {
    return c.eval.speed.ok ? format_sig(c.eval.speed.decode_full_tps) + " tok/s" : "—";
}

void print_md(const Hardware& hw, const QualityQuery& q, const QualityResult& r) {
    const QualityBenchmark& b = *r.benchmark;
    printf("Best models for %s on %s at %s context%s, by %s %s:\n\n", r.task->task.c_str(), hw.name.c_str(),
           format_tokens(q.ctx_tokens).c_str(),
           q.min_decode_tps > 0 ? (" with >= " + format_sig(q.min_decode_tps) + " tok/s decode there").c_str() : "",
           b.name.c_str(), r.task->metric.c_str());
    printf("| # | Model | Score | Quant | Quant loss vs FP16 | Memory | Decode at %s | Status | Score date |\n"
           "|---|---|---|---|---|---|---|---|---|\n", format_tokens(q.ctx_tokens).c_str());
    int rank = 0;
    for (const QualityChoice& c : r.ranked)
        printf("| %d | %s | %s | %s | %s | %s / %s | %s | %s | %s |\n", ++rank, c.model->id.c_str(), format_fixed(c.score, 2).c_str(),
               c.quant.c_str(), loss_cell(c).c_str(), format_gib((double)c.eval.memory.total_bytes).c_str(),
               format_gib((double)c.eval.memory.usable_bytes).c_str(), decode_cell(c).c_str(), to_string(c.eval.memory.status), c.row->date.c_str());
    if (r.ranked.empty()) printf("| — | no model with a published %s score fits | | | | | | | |\n", b.name.c_str());
    const std::string trade = quality_trade_off(r);
    if (!trade.empty()) printf("\nTrade-off: %s.\n", trade.c_str());
    if (!r.scored_not_fitting.empty()) {
        printf("\nScored, but no quant fits at this context and speed:");
        for (size_t i = 0; i < r.scored_not_fitting.size(); ++i) printf("%s %s", i ? "," : "", r.scored_not_fitting[i]->id.c_str());
        printf("\n");
    }
    if (!r.unscored.empty()) {
        printf("\nNo published %s score (they fit; not ranked):", b.name.c_str());
        for (size_t i = 0; i < r.unscored.size(); ++i)
            printf("%s %s %s", i ? "," : "", r.unscored[i].model->id.c_str(), r.unscored[i].quant.c_str());
        printf("\n");
    }
    for (const auto& m : b.metrics)
        if (m.first == r.task->metric) printf("\nScore: %s %s, %s. %s\n", b.name.c_str(), m.first.c_str(), m.second.c_str(), r.task->why.c_str());
    printf("Benchmark: %s (%s; snapshot %s). Source: %s.\n", b.version.c_str(), b.url.c_str(), b.date.c_str(), b.source.c_str());
    if (!b.caveat.empty()) printf("Caveat: %s.\n", b.caveat.c_str());
    printf("Quant loss: mean KL divergence and perplexity change vs FP16 on LLaMA 3 8B (quants.json quality_source).\n");
    printf("\nSources of the scores:\n\n");
    for (const QualityChoice& c : r.ranked)
        printf("- %s: %s%s\n", c.model->id.c_str(), c.row->source.c_str(), c.row->note.empty() ? "" : (" (" + c.row->note + ")").c_str());
}

}  // namespace

int cmd_recommend_model(int argc, char** argv) {
    Args a = parse_args(argc, argv, {"help", "extreme"});
    if (a.has("help")) {
        print_help();
        return 0;
    }
    const std::string unknown = first_unknown_option(a, {"hardware", "task", "ctx", "min-decode", "format", "extreme"});
    if (!unknown.empty()) return fail("recommend-model: unknown option --" + unknown + " (try llmsim-cli recommend-model --help)");
    Catalog cat;
    if (!load_catalog(cat)) return 1;
    const std::string* hid = a.get("hardware");
    if (!hid) return fail("recommend-model: --hardware ID is required (llmsim-cli catalog --hardware lists them)");
    std::string err;
    const Hardware* hw = resolve_device(cat, *hid, err);
    if (!hw) return fail("recommend-model: " + (err.empty() ? "unknown hardware '" + *hid + "' (llmsim-cli catalog --hardware lists them)" : err));
    QualityQuery q;
    if (const std::string* t = a.get("task")) q.task = *t;
    double ctx = 8192, min_decode = 0;
    if (!option_number(a, "recommend-model", "ctx", 1, 1e8, ctx, err) ||
        !option_number(a, "recommend-model", "min-decode", 0, 1e7, min_decode, err))
        return fail(err);
    q.ctx_tokens = (int64_t)ctx;
    q.min_decode_tps = min_decode;
    q.include_extreme = a.has("extreme");
    const std::string format = a.get("format") ? *a.get("format") : "md";
    if (format != "md" && format != "json") return fail("recommend-model: --format must be md or json");
    const QualityResult r = recommend_models_by_quality(cat, *hw, q);
    if (!r.error.empty()) return fail("recommend-model: " + r.error);
    if (format == "json")
        printf("%s\n", quality_result_to_json(*hw, q, r).dump(1).c_str());
    else
        print_md(*hw, q, r);
    return 0;
}

}  // namespace llmsim::cli
