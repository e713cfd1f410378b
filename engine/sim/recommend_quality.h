// "Which model should I run on this machine for coding / chat / reasoning?": the catalog models a device runs at a
// context (and at least X tok/s decode there), ranked by a published benchmark score for the task, each at the
// least lossy quant that fits, with that quant's measured quality loss (KLD / perplexity vs FP16, quants.json) beside
// the model's score. Scores come from models.json "quality" (scripts/catalog/quality_scores.json); each task ranks by
// one benchmark's one metric (models.json "quality_tasks"), so scores of different benchmarks never share a scale,
// and the quant's loss is shown next to the score, never folded into it (no published formula combines the two).
// Models without a published score on that benchmark are listed apart as "no published score".
//
//   llmsim::QualityQuery q;
//   q.task = "coding"; q.ctx_tokens = 16384; q.min_decode_tps = 10;
//   llmsim::QualityResult r = llmsim::recommend_models_by_quality(cat, *cat.find_hardware("rtx-4090"), q);
//   for (auto& c : r.ranked) printf("%s %s: %.1f (%s KLD %.3f)\n", c.model->id.c_str(), c.quant.c_str(), c.score,
//                                   c.quant.c_str(), c.file_type->kld);
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "catalog/catalog.h"
#include "runtime/scenario.h"

namespace llmsim {

struct QualityQuery {
    std::string task = "general";      // a models.json quality_tasks name: general, chat, reasoning, coding
    int64_t ctx_tokens = 8192;         // the context every entry must fit (and decode at)
    double min_decode_tps = 0;         // decode at the full ctx_tokens depth; 0 = no speed constraint
    // also try the quants quants.json labels "Extreme Compression" (KLD >= 0.25 on its scoreboard: Q2_K, IQ2_*, IQ1_*);
    // off by default, or a 70B at IQ1_M (perplexity +309 %) would outrank every model that fits at 4 bits
    bool include_extreme = false;
};

struct QualityChoice {
    const Model* model = nullptr;
    std::string quant;                 // the least lossy quant that fits and meets the speed
    const FileType* file_type = nullptr;
    bool release_format = false;       // the quant is the format the authors publish (FP8 -> Q8_0, MXFP4): no loss vs it
    double score = -1;                 // the task's metric; -1 = no published score
    const QualityScore* row = nullptr; // where the score comes from (date, source, note); nullptr = no published score
    Evaluation eval;                   // memory and speed at ctx_tokens
};

struct QualityResult {
    const QualityTask* task = nullptr;
    const QualityBenchmark* benchmark = nullptr;
    std::vector<QualityChoice> ranked;     // with a score, highest first (ties: the less lossy quant)
    std::vector<QualityChoice> unscored;   // fit and meet the speed, no published score: largest first
    std::vector<const Model*> scored_not_fitting;   // have a score, but no quant fits / meets the speed
    std::string error;                 // bad input: unknown task, context < 1, negative speed
};

// the quants tried for a model, least lossy first: its release format (when the catalog records one), then every file
// type with a published KLD in quants.json, lowest KLD first (below the release format's bits when it has one),
// without the "Extreme Compression" band unless include_extreme
std::vector<const FileType*> quality_quants(const Catalog& cat, const Model& m, bool include_extreme = false);
// quants.json's label for the band above KLD 0.25 (quality_label_rules)
constexpr const char* kExtremeCompressionLabel = "Extreme Compression";

// rank the catalog's models for one device by the task's benchmark; fills error on bad input
QualityResult recommend_models_by_quality(const Catalog& cat, const Hardware& hw, const QualityQuery& q);

}  // namespace llmsim
