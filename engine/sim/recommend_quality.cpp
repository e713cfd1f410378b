#include "sim/recommend_quality.h"

#include <algorithm>
#include <utility>
#include <cmath>

#include "sim/simulate.h"

namespace llmsim {

namespace {

// the file type's nominal bits per weight: its bulk tensor type's (ggml type table) or its flat figure
double nominal_bpw(const Catalog& cat, const FileType& ft) {
    if (ft.flat_bpw > 0) return ft.flat_bpw;
    const GgmlType* t = cat.find_ggml_type(ft.base_type);
    return t ? t->bits_per_weight() : 0;
}

// a stable sort for the few dozen entries here: std::sort / std::stable_sort instantiations cost the web page
// several kB of wasm each, for lists of at most ~100
template <class T, class Less>
void insertion_sort(std::vector<T>& v, Less less) {
    for (size_t i = 1; i < v.size(); ++i)
        for (size_t k = i; k > 0 && less(v[k], v[k - 1]); --k) std::swap(v[k], v[k - 1]);
}

bool fits(FitStatus s) {
    return s == FitStatus::Comfortable || s == FitStatus::Tight || s == FitStatus::TunableUma;
}

// the model's row for the task's benchmark and that row's score for the metric; nullptr when none is published
const QualityScore* score_row(const Model& m, const QualityTask& t, double& score) {
    for (const QualityScore& q : m.quality)
        if (q.benchmark == t.benchmark)
            if (const double* s = q.score(t.metric)) {
                score = *s;
                return &q;
            }
    return nullptr;
}

// the first quant (least lossy first) that fits at the context and meets the speed; false when none does
bool best_quant(const Catalog& cat, const Model& m, const Hardware& hw, const QualityQuery& q, QualityChoice& out) {
    // the device's memory, all GPUs: a quant whose weights alone need more (at 90 % of its nominal bits per weight,
    // below any real file's) cannot fit, and is skipped before its weights are prepared (that preparation, per model and
    // quant, is most of this ranking's cost: ~0.3 s for the catalog, on the page's first frame)
    const double device_bytes = (double)hw.memory_bytes * std::max(1, hw.gpu_count);
    double params = 0;   // known after the first quant evaluated
    for (const FileType* ft : quality_quants(cat, m, q.include_extreme)) {
        if (params > 0 && params * nominal_bpw(cat, *ft) * 0.9 / 8.0 > device_bytes) continue;
        SimRequest req;
        req.memory.file_type = ft->name;
        req.memory.n_ctx = q.ctx_tokens;
        req.memory.hardware = &hw;
        req.memory.compute_max_context = false;
        std::string err;
        if (!evaluate(cat, m, req, out.eval, err)) continue;
        params = (double)out.eval.params.total;
        if (!fits(out.eval.memory.status)) continue;
        if (q.min_decode_tps > 0 && (!out.eval.speed.ok || out.eval.speed.decode_full_tps < q.min_decode_tps)) continue;
        out.model = &m;
        out.quant = ft->name;
        out.file_type = ft;
        out.release_format = ft->name == m.release_file_type;
        return true;
    }
    return false;
}

}  // namespace

std::vector<const FileType*> quality_quants(const Catalog& cat, const Model& m, bool include_extreme) {
    std::vector<const FileType*> out;
    double below_bpw = 1e9;
    if (const FileType* rel = m.release_file_type.empty() ? nullptr : cat.find_file_type(m.release_file_type)) {
        out.push_back(rel);
        below_bpw = nominal_bpw(cat, *rel);
    }
    std::vector<const FileType*> measured;
    for (const FileType& ft : cat.file_types)
        if (ft.kld >= 0 && nominal_bpw(cat, ft) < below_bpw && (include_extreme || ft.quality_label != kExtremeCompressionLabel))
            measured.push_back(&ft);
    insertion_sort(measured, [](const FileType* a, const FileType* b) { return a->kld < b->kld; });
    out.insert(out.end(), measured.begin(), measured.end());
    return out;
}

QualityResult recommend_models_by_quality(const Catalog& cat, const Hardware& hw, const QualityQuery& q) {
    QualityResult r;
    r.task = cat.find_quality_task(q.task);
    if (!r.task) {
        r.error = "unknown task '" + q.task + "' (tasks: " + cat.quality_task_names() + ")";
        return r;
    }
    r.benchmark = cat.find_quality_benchmark(r.task->benchmark);
    if (q.ctx_tokens < 1) { r.error = "context must be at least 1 token"; return r; }
    if (!std::isfinite(q.min_decode_tps) || q.min_decode_tps < 0) { r.error = "min decode must be >= 0 tok/s (0 = no constraint)"; return r; }
    std::vector<QualityChoice> found;   // every model that fits, in catalog order
    for (const Model& m : cat.models) {
        double score = -1;
        const QualityScore* row = score_row(m, *r.task, score);
        QualityChoice c;
        if (!best_quant(cat, m, hw, q, c)) {
            if (row) r.scored_not_fitting.push_back(&m);
            continue;
        }
        c.score = score;
        c.row = row;
        found.push_back(std::move(c));
    }
    // scored first, highest score first (ties: the less lossy quant); then the unscored, largest first; catalog
    // order otherwise. Indices are sorted, not the choices (each holds an Evaluation).
    std::vector<size_t> order(found.size());
    for (size_t i = 0; i < order.size(); ++i) order[i] = i;
    insertion_sort(order, [&](size_t ia, size_t ib) {
        const QualityChoice &a = found[ia], &b = found[ib];
        if ((a.row != nullptr) != (b.row != nullptr)) return a.row != nullptr;
        if (a.row) return a.score != b.score ? a.score > b.score : a.file_type->kld < b.file_type->kld;
        return a.eval.params.total > b.eval.params.total;
    });
    for (size_t i : order) (found[i].row ? r.ranked : r.unscored).push_back(std::move(found[i]));
    return r;
}

}  // namespace llmsim
