#include "evidence/evidence.h"

#include <algorithm>
#include <mutex>

#include "core/assets.h"
#include "runtime/speed_glue.h"

namespace llmsim {

const std::vector<CalibrationRow>& measured_rows(std::string* err) {
    struct Loaded { std::vector<CalibrationRow> rows; std::string err; bool done = false; };
    static Loaded loaded;
    static std::mutex mutex;
    std::lock_guard<std::mutex> lock(mutex);
    if (!loaded.done) {
        // the 2024 rows, the recent-build rows (2025-26, flash attention on by default) and the rows we collected on
        // devices those two lack (llamacpp_speed_collected.README.md): the same fit saw all three. On the web page
        // they arrive after the first frame (core/assets.h): until all three are there, nothing is kept, so a
        // call made too early does not hide the rows from later ones
        Loaded l;
        l.done = true;
        for (const char* name : {"calibration/llamacpp_speed.jsonl", "calibration/llamacpp_speed_2025.jsonl",
                                 "calibration/llamacpp_speed_collected.jsonl"}) {
            std::string_view text = embedded_asset(name);
            std::vector<CalibrationRow> part;
            if (text.empty()) { l.err = "measured rows are not loaded (" + std::string(name) + ")"; l.rows.clear(); l.done = false; break; }
            if (!parse_calibration_jsonl(std::string(text), part, l.err)) { l.rows.clear(); break; }
            l.rows.insert(l.rows.end(), part.begin(), part.end());
        }
        if (l.done) loaded = std::move(l);
        else if (err) *err = l.err;
    }
    if (err && !loaded.err.empty()) *err = loaded.err;
    return loaded.rows;
}

namespace {
EvidenceRow evidence_of(const CalibrationRow& r) {
    EvidenceRow e;
    e.row = &r;
    const SpeedScenario& s = r.scenario;
    e.test = std::string(s.test == SpeedTest::Decode ? "tg" : "pp") + std::to_string(s.tokens) + " @ depth " + std::to_string(s.depth);
    SpeedResult p = estimate_speed(s, default_speed_params());
    if (p.ok) { e.predicted = p.tokens_per_s; e.low = p.low; e.high = p.high; }
    e.seed = seed_tokens_per_s(s, r.total_params);
    return e;
}
}  // namespace

bool row_on_device(const Catalog& cat, const CalibrationRow& r, const Hardware& hw) {
    if (r.contributed && !r.hardware_id.empty() && r.hardware_id != "custom") return r.hardware_id == hw.id;
    const Hardware* rh = cat.find_hardware(r.hardware_name.empty() ? r.device : r.hardware_name);
    return rh && rh->id == hw.id;   // hw may be a copy (the UI's scenario device)
}

namespace {
// the rows of `rows` measured on hw, best matches first, at most max_rows
void collect_evidence(const Catalog& cat, const std::vector<CalibrationRow>& rows, const Model& model, const Hardware& hw,
                      const std::string& quant, size_t max_rows, std::vector<EvidenceRow>& out) {
    std::vector<EvidenceRow> found;
    for (const CalibrationRow& r : rows) {
        if (!row_on_device(cat, r, hw)) continue;
        EvidenceRow e = evidence_of(r);
        const Model* rm = cat.find_model(r.model);
        e.match = r.model == model.id ? (r.quant == quant ? 3 : 2) : (rm && rm->family == model.family ? 1 : 0);
        found.push_back(e);
    }
    std::stable_sort(found.begin(), found.end(), [](const EvidenceRow& a, const EvidenceRow& b) { return a.match > b.match; });
    if (found.size() > max_rows) found.resize(max_rows);
    out.insert(out.end(), found.begin(), found.end());
}
}  // namespace

std::vector<EvidenceRow> find_evidence(const Catalog& cat, const Model& model, const Hardware& hw, const std::string& quant,
                                       size_t max_rows, const std::vector<CalibrationRow>* contributed) {
    std::vector<EvidenceRow> out;
    collect_evidence(cat, measured_rows(), model, hw, quant, max_rows, out);
    if (contributed) collect_evidence(cat, *contributed, model, hw, quant, max_rows, out);
    return out;
}

std::vector<EvidenceRow> all_evidence() {
    std::vector<EvidenceRow> out;
    for (const CalibrationRow& r : measured_rows()) out.push_back(evidence_of(r));
    return out;
}

}  // namespace llmsim
