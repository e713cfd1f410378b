// Pasted runs -> calibration records, and contributed-runs files -> evidence rows and a profile (contributed.h).
//
// [SECTION] Export
// [SECTION] Contributed runs
#include "evidence/contributed.h"

#include <nlohmann/json.hpp>

#include "api/predict.h"
#include "core/input_limits.h"
#include "core/lines.h"
#include "evidence/evidence.h"
#include "runtime/speed_glue.h"

namespace llmsim {

using json = nlohmann::json;
using ordered_json = nlohmann::ordered_json;

// [SECTION] Export ---------------------------------------------------------------------------------------

namespace {

bool digits_at(const std::string& s, size_t pos, size_t n) {
    if (pos + n > s.size()) return false;
    for (size_t i = pos; i < pos + n; ++i)
        if (s[i] < '0' || s[i] > '9') return false;
    return true;
}

// "YYYY-MM-DD" with a month 01..12 and a day 01..31 (the calendar beyond that is the contributor's business)
bool valid_date(const std::string& d) {
    if (d.size() != 10 || d[4] != '-' || d[7] != '-' || !digits_at(d, 0, 4) || !digits_at(d, 5, 2) || !digits_at(d, 8, 2)) return false;
    const int month = std::stoi(d.substr(5, 2)), day = std::stoi(d.substr(8, 2));
    return month >= 1 && month <= 12 && day >= 1 && day <= 31;
}

bool valid_info(const ContributionInfo& info, std::string& err) {
    if (!valid_date(info.date)) { err = "the date must be YYYY-MM-DD, not '" + info.date.substr(0, 20) + "'"; return false; }
    if (info.note.size() > kContributionNoteMaxBytes) {
        err = "the note is " + std::to_string(info.note.size()) + " bytes; keep it under " +
              std::to_string(kContributionNoteMaxBytes) + " (setup, clocks, driver)";
        return false;
    }
    for (char c : info.note)
        if ((unsigned char)c < 0x20 || c == 0x7f) { err = "the note must be one line of text (no tabs, newlines or control bytes)"; return false; }
    return true;
}

// the predict fields first, in the order a reviewer reads them, then what was measured and how
ordered_json record_of(const json& predict, const BenchRow& r, const Hardware& hw, const std::string& id,
                       const std::string& date, const std::string& source, const std::string& format) {
    ordered_json rec;
    rec["id"] = id;
    for (const char* k : {"model", "quant", "model_size_gib", "hardware"})
        if (predict.contains(k)) rec[k] = ordered_json::parse(predict[k].dump());
    rec["hardware_name"] = hw.name;
    if (!r.device.empty()) rec["device_printed"] = r.device;
    for (const char* k : {"backend", "flash_attn", "ubatch", "batch", "type_k", "type_v", "ngl", "test"})
        if (predict.contains(k)) rec[k] = ordered_json::parse(predict[k].dump());
    rec["measured_tokens_per_s"] = r.tps;
    if (r.tps_sd > 0) rec["stddev_tokens_per_s"] = r.tps_sd;
    rec["build"] = r.build.empty() ? ordered_json(nullptr) : ordered_json(r.build);
    rec["date"] = date;
    if (!r.backend.empty()) rec["backend_printed"] = r.backend;
    rec["flags"] = printed_bench_flags(r);
    if (!r.model_label.empty()) rec["llama_bench_model"] = r.model_label;
    if (r.params > 0) rec["params"] = r.params;
    rec["contributed"] = true;
    rec["source"] = source;
    rec["notes"] = "exported by llmsim from pasted " + format + " output, line " + std::to_string(r.line) +
                   (r.threads > 0 ? "; " + std::to_string(r.threads) + " threads" : "");
    return rec;
}

}  // namespace

std::string printed_bench_flags(const BenchRow& r) {
    std::string f;
    auto add = [&](const char* flag, const std::string& v) { f += std::string(f.empty() ? "" : " ") + flag + " " + v; };
    if (r.ngl >= 0) add("-ngl", std::to_string(r.ngl));
    if (r.flash_attn >= 0) add("-fa", std::to_string(r.flash_attn));
    if (r.n_ubatch > 0) add("-ub", std::to_string(r.n_ubatch));
    if (r.n_batch > 0) add("-b", std::to_string(r.n_batch));
    if (!r.type_k.empty()) add("-ctk", r.type_k);
    if (!r.type_v.empty()) add("-ctv", r.type_v);
    if (r.threads > 0) add("-t", std::to_string(r.threads));
    return f;
}

bool export_contributed_runs(const Catalog& cat, const BenchImport& imp, const Hardware& hw, const std::string& model_id,
                             const ContributionInfo& info, ContributedExport& out, std::string& err) {
    out = ContributedExport();
    if (!valid_info(info, err)) return false;
    const Hardware* catalog_hw = cat.find_hardware(hw.id);
    if (hw.id.empty() || hw.id == "custom" || !catalog_hw) {
        err = "the runs' device must be a catalog device (pick it, or name it with --hardware ID), not '" + hw.name + "'";
        return false;
    }
    const std::string source = "contributed " + info.date + (info.note.empty() ? "" : ": " + info.note);
    for (const BenchRow& r : imp.rows) {
        std::string why;
        const Model* m = match_bench_model(cat, r, model_id, why);
        if (!m) { out.skipped.push_back("line " + std::to_string(r.line) + ": " + why); continue; }
        const json predict = bench_row_predict_json(cat, r, *m, *catalog_hw);
        PredictInput p;   // an exported line must load: the same parser reads it back
        if (!parse_predict_input(cat, predict, p, why)) { out.skipped.push_back("line " + std::to_string(r.line) + ": " + why); continue; }
        // the row's own test day when llama-bench printed it (-o json "test_time"), else the export's
        const std::string day = r.test_time.size() >= 10 && valid_date(r.test_time.substr(0, 10)) ? r.test_time.substr(0, 10) : info.date;
        const std::string id = "contrib-" + info.date + "-" + catalog_hw->id + "-" + std::to_string(out.rows + 1);
        out.jsonl += record_of(predict, r, *catalog_hw, id, day, source, imp.format).dump(-1, ' ', false, json::error_handler_t::replace) + "\n";
        ++out.rows;
    }
    if (out.rows == 0) {
        err = "no row could be exported" + (out.skipped.empty() ? std::string() : " (" + out.skipped.front() + ")");
        return false;
    }
    return true;
}

// [SECTION] Contributed runs -----------------------------------------------------------------------------

bool parse_contributed_runs(const std::string& text, std::vector<CalibrationRow>& rows, std::string& err) {
    if (text.size() > kContributedMaxBytes) {
        err = "contributed runs: the file is " + std::to_string(text.size() >> 10) + " KiB; at most " +
              std::to_string(kContributedMaxBytes >> 20) + " MiB (split it)";
        return false;
    }
    if (text.find('\0') != std::string::npos) { err = "contributed runs: the file holds NUL bytes (binary data, not JSON Lines)"; return false; }
    int records = 0;   // counted before any is read: each record costs a tensor walk
    for_each_line(text, [&](const std::string& line, int) { records += blank_line(line) ? 0 : 1; return true; });
    if (records > kContributedMaxRows) {
        err = "contributed runs: " + std::to_string(records) + " records; at most " + std::to_string(kContributedMaxRows) + " (split the file)";
        return false;
    }
    std::vector<CalibrationRow> got;
    const bool ok = for_each_line(text, [&](const std::string& line, int line_no) {
        if (blank_line(line)) return true;
        const std::string where = "contributed line " + std::to_string(line_no) + ": ";
        CalibrationRow row;
        std::string e;
        if (!parse_calibration_row(line, row, e)) { err = where + e; return false; }
        if (row.source.compare(0, 11, "contributed") != 0) {
            err = where + "\"source\" must start with \"contributed\" (a record from llmsim's export; see docs/contributing-runs.md)";
            return false;
        }
        row.contributed = true;
        got.push_back(std::move(row));
        return true;
    });
    if (!ok) return false;
    if (got.empty()) { err = "contributed runs: the file has no records"; return false; }
    rows = std::move(got);
    return true;
}

std::vector<ProfileSample> contributed_samples(const Catalog& cat, const std::vector<CalibrationRow>& rows, const Hardware& hw,
                                               std::vector<std::string>* skipped) {
    std::vector<ProfileSample> out;
    for (const CalibrationRow& r : rows) {
        if (!row_on_device(cat, r, hw)) continue;
        if (r.offload) {   // as bench_samples: partial offload is scored on its own, never fitted
            if (skipped) skipped->push_back(r.id + ": partial offload is not used");
            continue;
        }
        const SpeedScenario& s = r.scenario;
        std::string label = (s.test == SpeedTest::Prefill ? "pp" : "tg") + std::to_string(s.tokens);
        if (s.depth > 0) label += " @ d" + std::to_string(s.depth);
        out.push_back({s, r.measured_tokens_per_s, r.model, label});
    }
    return out;
}

bool fit_contributed_profile(const Catalog& cat, const std::vector<CalibrationRow>& rows, const Hardware& hw,
                             DeviceProfile& out, std::string& err) {
    std::vector<std::string> skipped;
    const std::vector<ProfileSample> samples = contributed_samples(cat, rows, hw, &skipped);
    if (samples.empty()) {
        err = "no contributed row measured on " + hw.name + " is usable" +
              (skipped.empty() ? std::string() : " (" + std::to_string(skipped.size()) + " partial-offload rows are not used)");
        return false;
    }
    DeviceProfile p;
    if (!fit_device_profile(samples, default_speed_params(), hw, p, err)) return false;
    p.contributed = true;
    p.source = "contributed runs, " + std::to_string(samples.size()) + " rows";
    out = std::move(p);
    return true;
}

}  // namespace llmsim
