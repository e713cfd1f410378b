// llmsim-cli accuracy / calibrate: the calibration lab's commands (tools/calibration, llmsim_lab). The speed
// model's held-out accuracy on measured rows and the refit of its parameters, the serving model's held-out report
// (--serving), the accuracy gate (--gate) and the README's headline table (--headline). `accuracy --extras` is
// cmd_accuracy_extras.cpp.
//
// [SECTION] Rows
// [SECTION] The accuracy gate and the README's headline table
// [SECTION] accuracy --serving
// [SECTION] accuracy, calibrate
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>

#include "calibration/accuracy_gate.h"
#include "calibration/calibrate.h"
#include "calibration/offload_accuracy.h"
#include "calibration/parallel.h"
#include "calibration/profile_validation.h"
#include "calibration/serve_accuracy.h"
#include "calibration/serve_fit.h"
#include "commands.h"
#include "runtime/speed_glue.h"

namespace llmsim::cli {

namespace {

// [SECTION] Rows -------------------------------------------------------------------------------------------

bool read_input(const std::string& path, std::string& text, std::string& err) {
    if (path == "-" || path.empty()) {
        std::ostringstream ss;
        ss << std::cin.rdbuf();
        text = ss.str();
        return true;
    }
    std::ifstream f(path, std::ios::binary);
    if (!f) { err = "cannot read '" + path + "'"; return false; }
    std::ostringstream ss;
    ss << f.rdbuf();
    if (f.bad()) { err = "cannot read '" + path + "' (is it a directory?)"; return false; }
    text = ss.str();
    return true;
}

// every FILE's rows together (JSON Lines each)
bool read_rows(const std::vector<std::string>& files, std::vector<CalibrationRow>& rows, std::string& err) {
    rows.clear();
    for (const std::string& f : files) {
        std::string text;
        std::vector<CalibrationRow> part;
        if (!read_input(f, text, err)) return false;
        if (!parse_calibration_jsonl(text, part, err)) { err = f + ": " + err; return false; }
        rows.insert(rows.end(), part.begin(), part.end());
    }
    return true;
}

// [SECTION] The accuracy gate and the README's headline table ----------------------------------------------

constexpr const char* kDefaultGateFile = "tests/accuracy_gate.json";
constexpr const char* kTableBegin = "<!-- accuracy-table:begin -->";
constexpr const char* kTableEnd = "<!-- accuracy-table:end -->";

// the gate file's figures recomputed from its inputs: the speed model's three held-out schemes (as `accuracy`),
// the serving model's leave-one-source-out (as `accuracy --serving`)
bool compute_gate_figures(const GateFile& g, std::vector<GateFigure>& out, std::string& err) {
    using clock = std::chrono::steady_clock;
    const auto t0 = clock::now();
    std::vector<CalibrationRow> rows;
    if (!read_rows(g.speed_files, rows, err)) return false;
    ValidationReport v = validate(rows, default_speed_params());
    with_validated_bands(default_speed_params(), v);
    out = speed_gate_figures(v);
    const std::vector<GateFigure> shipped = shipped_speed_gate_figures(rows, default_speed_params());
    out.insert(out.end(), shipped.begin(), shipped.end());
    const double speed_s = std::chrono::duration<double>(clock::now() - t0).count();
    std::string text;
    if (!read_text_file(g.serving_file, 64u << 20, text, err)) return false;
    Catalog cat;
    if (!load_catalog(cat)) { err = "the embedded catalog does not load"; return false; }
    std::vector<ServingRow> srows;
    if (!read_serving_rows(cat, text, srows, err)) { err = g.serving_file + ": " + err; return false; }
    const auto t1 = clock::now();
    ServingValidation sv = validate_serving(cat, srows, ServingFold::Source);
    const std::vector<GateFigure> s = serving_gate_figures(sv);
    out.insert(out.end(), s.begin(), s.end());
    fprintf(stderr, "accuracy gate: speed %zu rows, 4 held-out schemes in %.1f s; serving %zu rows, source out in %.1f s (%u threads)\n",
            rows.size(), speed_s, srows.size(), std::chrono::duration<double>(clock::now() - t1).count(), lab_threads());
    return true;
}

// accuracy --gate FILE [--write]
int gate_command(const Args& a) {
    const std::string path = *a.get("gate");
    std::string text, err;
    GateFile committed;
    if (!read_text_file(path, 4u << 20, text, err)) return fail("accuracy: " + err);
    if (!parse_gate_file(text, committed, err)) return fail("accuracy: " + path + ": " + err);
    std::vector<GateFigure> now;
    if (!compute_gate_figures(committed, now, err)) return fail("accuracy: " + err);
    if (a.has("write")) {
        GateFile g = committed;
        g.figures = now;
        std::ofstream f(path, std::ios::binary);
        if (!f || !(f << gate_file_to_json(g))) return fail("accuracy: cannot write '" + path + "'");
        printf("wrote %zu figures to %s (regenerate the README table: llmsim-cli accuracy --headline)\n", now.size(), path.c_str());
        return 0;
    }
    const GateVerdict v = compare_gate(committed, now);
    printf("%s", format_gate_verdict(v, path).c_str());
    return v.failed() ? 1 : 0;
}

// accuracy --headline [--gate FILE] [--format md] [--check-readme README.md]
int headline_command(const Args& a) {
    const std::string path = a.get("gate") ? *a.get("gate") : kDefaultGateFile;
    if (const std::string* f = a.get("format"); f && *f != "md") return fail("accuracy: --headline: --format md is the only format (got '" + *f + "')");
    std::string text, err;
    GateFile g;
    if (!read_text_file(path, 4u << 20, text, err)) return fail("accuracy: " + err);
    if (!parse_gate_file(text, g, err)) return fail("accuracy: " + path + ": " + err);
    const std::string table = format_headline_md(g);
    const std::string* readme = a.get("check-readme");
    if (!readme) { printf("%s", table.c_str()); return 0; }
    std::string doc, in_doc;
    if (!read_text_file(*readme, 4u << 20, doc, err)) return fail("accuracy: " + err);
    if (!text_between_markers(doc, kTableBegin, kTableEnd, in_doc)) {
        printf("%s has no %s ... %s markers yet: nothing to check (skipped)\n", readme->c_str(), kTableBegin, kTableEnd);
        return 77;   // ctest SKIP_RETURN_CODE
    }
    if (in_doc == table) { printf("%s: the accuracy table matches %s\n", readme->c_str(), path.c_str()); return 0; }
    fprintf(stderr, "llmsim-cli: %s: the table between %s and %s is not what llmsim-cli accuracy --headline prints from %s;\n"
            "paste its output between the markers. It prints:\n%s", readme->c_str(), kTableBegin, kTableEnd, path.c_str(), table.c_str());
    return 1;
}

}  // namespace

// [SECTION] accuracy --serving ------------------------------------------------------------------------------

// llmsim-cli accuracy --serving [FILE] [--shipped]: leave-one-source-out on published serving measurements
namespace {
// accuracy --serving --check-asset: the embedded serving_accuracy.json against serving.jsonl and this build's model
int check_serving_accuracy_asset(const Catalog& cat, const std::vector<ServingRow>& rows, const std::string& text,
                                 std::chrono::steady_clock::time_point t0) {
    ServingAccuracy shipped;
    std::string err;
    if (!load_builtin_serving_accuracy(shipped, err)) return fail("accuracy: " + err);
    std::vector<ServingFingerprintRow> now = serving_fingerprint(cat, rows);
    std::string why = serving_accuracy_stale(shipped, text, now);
    double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    if (!why.empty()) return fail("accuracy: assets/calibration/serving_accuracy.json is stale: " + why);
    printf("serving_accuracy.json is current: serving.jsonl FNV-1a %s, %zu fingerprint rows predicted as recorded (%.0f ms)\n",
           shipped.jsonl_fnv1a.c_str(), now.size(), ms);
    return 0;
}
}  // namespace

int cmd_accuracy_serving(const Args& a) {
    std::string path = a.positional.empty() ? "assets/calibration/serving.jsonl" : a.positional[0];
    std::string text, err;
    if (!read_text_file(path, 64u << 20, text, err)) return fail("accuracy: " + err);
    Catalog cat;
    if (!load_catalog(cat)) return 1;
    std::vector<ServingRow> rows;
    int skipped = 0; std::string first;
    if (!read_serving_rows(cat, text, rows, err, &skipped, &first)) return fail("accuracy: " + err);
    auto t0 = std::chrono::steady_clock::now();
    if (a.has("check-asset")) return check_serving_accuracy_asset(cat, rows, text, t0);
    if (a.has("json")) {   // the leave-one-source-out report as the page's asset (scripts/calibration/make_serving_accuracy.sh)
        ServingValidation v = validate_serving(cat, rows, ServingFold::Source);
        printf("%s", serving_accuracy_to_json(serving_accuracy_from(cat, v, rows, text, skipped)).c_str());
        return 0;
    }
    printf("%zu serving rows (%d skipped%s%s)\n", rows.size(), skipped, first.empty() ? "" : ", first: ", first.c_str());
    if (a.has("shipped")) {   // the shipped parameters on every row (not held out: a check of the shipped table)
        std::vector<double> e;
        serving::SpeedTable t = serving::shipped_speed_table();
        for (const ServingRow& r : rows) {
            ServingPrediction p = predict_serving_row(cat, r, t);
            e.push_back(p.ok ? std::fabs(p.out_tok_s / r.out_tok_s - 1) : 1.0);
            if (a.has("rows")) printf("%s,%s,%s,%.1f,%.1f,%.2f,%.2f,%.1f,%.1f\n", r.id.c_str(), r.engine.c_str(), r.source.c_str(), r.out_tok_s,
                                      p.out_tok_s, r.tpot_ms, p.tpot_ms, r.ttft_ms, p.ttft_ms);
        }
        std::sort(e.begin(), e.end());
        printf("shipped parameters, every row (in-sample): output tok/s MdAPE %.1f %%\n", e.empty() ? 0 : e[e.size() / 2] * 100);
    } else {
        std::string by = a.get("by") ? *a.get("by") : "source";
        ServingFold fold = by == "source" ? ServingFold::Source : by == "publication" ? ServingFold::Publication
                         : by == "device" ? ServingFold::Device : (ServingFold)-1;
        if ((int)fold < 0) return fail("accuracy: --by: expected source, publication or device, got '" + by + "'");
        ServingValidation v = validate_serving(cat, rows, fold);
        printf("%s", format_serving_validation(v).c_str());
        if (a.has("rows"))   // id, engine, group, measured / held-out predicted output tok/s, TPOT, TTFT (ms)
            for (size_t i = 0; i < rows.size(); ++i) {
                const ServingRow& r = rows[i]; const ServingPrediction& p = v.held[i];
                printf("%s,%s,%s,%.1f,%.1f,%.2f,%.2f,%.1f,%.1f\n", r.id.c_str(), r.engine.c_str(),
                       (by == "device" ? r.device : by == "publication" ? r.publication : r.source).c_str(), r.out_tok_s,
                       p.ok ? p.out_tok_s : -1.0, r.tpot_ms, p.tpot_ms, r.ttft_ms, p.ttft_ms);
            }
    }
    printf("time %.1f s\n", std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    return 0;
}

// [SECTION] accuracy, calibrate ---------------------------------------------------------------------------


int cmd_accuracy(int argc, char** argv) {
    Args a = parse_args(argc, argv, {"help", "rows", "detail", "serving", "shipped", "extras", "json", "check-asset", "write", "headline",
                                     "offload", "mlx"});
    if (a.has("serving") && !a.has("help")) return cmd_accuracy_serving(a);
    if (a.has("extras") && !a.has("help")) return cmd_accuracy_extras(a);
    if (a.has("mlx") && !a.has("help")) return cmd_accuracy_mlx(a);
    if (a.has("headline") && !a.has("help")) return headline_command(a);
    if (a.has("gate") && !a.has("help")) return gate_command(a);
    if (a.has("help")) {
        printf("usage: llmsim-cli accuracy FILE... [--detail] [--rows] [--offload]\n"
               "       llmsim-cli accuracy --gate tests/accuracy_gate.json [--write]   the accuracy gate: the held-out figures\n"
               "       (speed source / device out, decode / prefill, all rows and 2025-26 builds; serving per engine, source\n"
               "       out) recomputed from the file's inputs and compared with its committed values; exit 1 naming each\n"
               "       figure worse than the file's tolerance; --write records the new figures instead\n"
               "       llmsim-cli accuracy --headline [--gate FILE] [--format md] [--check-readme README.md]   the README's\n"
               "       headline table from the committed figures (--check-readme: exit 1 when the README's table between\n"
               "       <!-- accuracy-table:begin --> and <!-- accuracy-table:end --> differs, 77 when it has no markers)\n"
               "       llmsim-cli accuracy --serving [FILE] [--by source|publication|device] [--rows] [--shipped]   serving engines,\n"
               "       leave-one-group-out (--rows: every row's held-out prediction as CSV; --json: the report as\n"
               "       assets/calibration/serving_accuracy.json holds it, made by scripts/calibration/make_serving_accuracy.sh;\n"
               "       --check-asset: is the embedded serving_accuracy.json current for FILE and this build's model, in ~2 s)\n"
               "       llmsim-cli accuracy --extras [FILE]   fine-tuning, vision encode, LoRA, speculative decoding and\n"
               "       embedding models against published measurements (default assets/calibration/extras_measured.jsonl)\n"
               "       llmsim-cli accuracy --mlx [FILE]   the MLX (mlx-lm) speed model fitted and scored leave-one-source-out\n"
               "       on published mlx_lm rows (default assets/calibration/mlx_speed.jsonl)\n"
               "Held-out validation of the speed model on measured rows (predict's input shape plus measured_tokens_per_s),\n"
               "three ways: leave-one-device-out (refit without a device, predict its rows), leave-one-source-out (a whole\n"
               "publication held out) and leave-one-class-out (a hardware class held out). Prints MdAPE, the share within\n"
               "+-25 %% and the coverage of the low..high band (share of held-out rows inside it) per hardware class for\n"
               "decode and prefill; the band of each class comes from the harder of the three. --detail adds each scheme's\n"
               "table with the seed formula (decode = 0.84 x BW / (weights + KV), prefill = 0.65 x TFLOPS / (2 x params))\n"
               "and per-group errors; --rows prints every row's held-out predictions.\n"
               "Rows whose weights are partly in host RAM (ngl below the layer count, n_cpu_moe, override_tensors; e.g.\n"
               "assets/calibration/llamacpp_offload.jsonl) are their own group \"offload\": never in a fit, never pooled,\n"
               "each publication held out against a fit on the full-GPU rows; --offload prints that group alone.\n"
               "e.g. llmsim-cli accuracy assets/calibration/llamacpp_speed.jsonl assets/calibration/llamacpp_speed_2025.jsonl\n"
               "     assets/calibration/llamacpp_speed_collected.jsonl\n");
        return 0;
    }
    if (a.positional.empty()) return fail("accuracy: give JSON Lines files of measured rows (e.g. assets/calibration/llamacpp_speed.jsonl)");
    std::string err;
    std::vector<CalibrationRow> all, rows, offload;
    if (!read_rows(a.positional, all, err)) return fail("accuracy: " + err);
    for (const CalibrationRow& r : all) (r.offload ? offload : rows).push_back(r);
    if (rows.empty()) return fail("accuracy: the offload rows are scored against a fit on full-GPU rows: give those files too");
    if (a.has("offload")) {
        if (offload.empty()) return fail("accuracy: --offload: no row leaves weights in host RAM (ngl, n_cpu_moe, override_tensors)");
        const OffloadReport rep = score_offload_rows(rows, offload, default_speed_params());
        printf("%s", format_offload_report(rep).c_str());
        if (a.has("rows"))   // id, publication, kind, measured, held-out predicted tok/s
            for (const RowPrediction& p : rep.predictions)
                printf("%s,%s,%s,%.4g,%.4g\n", p.row->id.c_str(), source_key(p.row->source).c_str(),
                       p.row->scenario.test == SpeedTest::Decode ? "decode" : "prefill", p.row->measured_tokens_per_s, p.predicted);
        return 0;
    }
    ValidationReport v = validate(rows, default_speed_params());
    with_validated_bands(default_speed_params(), v);
    printf("%s", format_validation_report(v).c_str());
    if (a.has("detail"))
        for (const AccuracyReport& rep : v.by) printf("%s", format_accuracy_report(rep).c_str());
    if (a.has("rows")) {
        printf("\nid,device,source,kind,measured,device_out,source_out,class_out,source_devices_out,seed\n");
        for (size_t i = 0; i < v.by[0].predictions.size(); ++i) {
            const RowPrediction& p = v.by[0].predictions[i];
            printf("%s,%s,%s,%s,%.4g,%.4g,%.4g,%.4g,%.4g,%.4g\n", p.row->id.c_str(), p.row->device.c_str(),
                   source_key(p.row->source).c_str(), p.row->scenario.test == SpeedTest::Decode ? "decode" : "prefill",
                   p.row->measured_tokens_per_s, p.predicted, v.by[1].predictions[i].predicted,
                   v.by[2].predictions[i].predicted, v.by[3].predictions[i].predicted, p.seed);
        }
    }
    if (!offload.empty()) printf("%s", format_offload_report(score_offload_rows(rows, offload, default_speed_params())).c_str());
    return 0;
}

int cmd_calibrate(int argc, char** argv) {
    Args a = parse_args(argc, argv, {"help"});
    if (a.has("help")) {
        printf("usage: llmsim-cli calibrate FILE... [--write PATH]\n"
               "Refits the speed model's free parameters on measured rows (the calibration data is not shipped: give\n"
               "assets/calibration/llamacpp_speed.jsonl assets/calibration/llamacpp_speed_2025.jsonl\n"
               "assets/calibration/llamacpp_speed_collected.jsonl), measures the\n"
               "held-out error bands (leave one device / source / class out; per class the harder one), prints the\n"
               "report and the parameters as JSON (or writes them to PATH, e.g. assets/calibration/speed_params.json,\n"
               "which every build embeds).\n");
        return 0;
    }
    if (a.positional.empty()) return fail("calibrate: give JSON Lines files of measured rows");
    std::string err;
    std::vector<CalibrationRow> rows;
    if (!read_rows(a.positional, rows, err)) return fail("calibrate: " + err);
    const size_t before = rows.size();   // the offload rows check the host-RAM physics; they never join the fit
    rows.erase(std::remove_if(rows.begin(), rows.end(), [](const CalibrationRow& r) { return r.offload; }), rows.end());
    if (rows.size() != before) fprintf(stderr, "calibrate: %zu offload rows left out of the fit (llmsim-cli accuracy scores them)\n", before - rows.size());
    if (rows.empty()) return fail("calibrate: no full-GPU rows to fit");
    SpeedParams p = fit_speed_params(rows, default_speed_params());
    // the held-out fits start from the embedded parameters, as `accuracy` does (not from this fit, which saw
    // every row): the report is the same one `accuracy` prints
    ValidationReport v = validate(rows, default_speed_params());
    p = with_validated_bands(p, v);
    p.fit_source = "";
    for (const std::string& f : a.positional) p.fit_source += (p.fit_source.empty() ? "" : " + ") + f;
    p.fit_source += ": fit_speed_params + validate (device, source and class held out; engine/speed/calibrate.cpp)";
    fprintf(stderr, "%s", format_validation_report(v).c_str());
    std::string json = speed_params_to_json(p);
    // the device-profile shrinkage prior from the same device-out folds (held out) and this fit (in-sample)
    std::vector<double> heldout, insample;
    for (size_t i = 0; i < rows.size(); ++i) {
        heldout.push_back(v.by[(int)HoldOut::Device].predictions[i].predicted);
        const SpeedResult r = estimate_speed(rows[i].scenario, p);
        insample.push_back(r.ok ? r.tokens_per_s : 0);
    }
    ProfilePrior prior = estimate_profile_prior(rows, heldout, insample);
    prior.source = "llmsim-cli calibrate: device-out folds and the fit in-sample (engine/speed/profile_validation.cpp)";
    if (!merge_profile_prior(json, prior, json, err)) return fail("calibrate: " + err);
    if (const std::string* path = a.get("write")) {
        std::ofstream f(*path, std::ios::binary);
        if (!f) return fail("calibrate: cannot write '" + *path + "'");
        f << json << "\n";
        fprintf(stderr, "wrote %s\n", path->c_str());
    } else {
        printf("%s\n", json.c_str());
    }
    return 0;
}


}  // namespace llmsim::cli
