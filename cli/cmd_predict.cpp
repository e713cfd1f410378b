// llmsim-cli predict / accuracy / calibrate: the speed model on JSON Lines scenarios (contract in predict.h),
// its leave-one-device-out accuracy on measured rows, and the refit of its parameters.
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>

#include "speed/profile_validation.h"
#include "speed/calibrate.h"
#include "commands.h"
#include "api/predict.h"
#include "runtime/speed_glue.h"

namespace llmsim::cli {

namespace {

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

}  // namespace

int cmd_predict(int argc, char** argv) {
    Args a = parse_args(argc, argv, {"help", "explain"});
    if (a.has("help")) {
        printf("usage: llmsim-cli predict [FILE|-] [--explain] [--device-profile profile.json] [--params speed_params.json]\n"
               "Reads JSON Lines (one scenario per line; see README 'predict') and writes one JSON line per input, in\n"
               "order: {\"id\", \"tokens_per_s\", \"low\", \"high\"} or {\"id\", \"error\"}. Malformed lines get an error line\n"
               "and processing continues. Extra fields (e.g. a measured value) are ignored. --explain adds \"explain\":\n"
               "the formula, every time term in seconds per token, the inputs and the fit's provenance. Every answer\n"
               "carries \"llama_bench\": the command that measures that row. --device-profile (from calibrate-device)\n"
               "corrects rows on the device it was fitted on and adds \"calibrated\". --params uses other fitted\n"
               "parameters (a calibrate --write output) instead of the embedded ones.\n");
        return 0;
    }
    for (const auto& kv : a.options)
        if (kv.first != "explain" && kv.first != "device-profile" && kv.first != "params")
            return fail("predict: unknown option --" + kv.first + " (try llmsim-cli predict --help)");
    DeviceProfile profile;
    bool with_profile = false;
    std::string perr;
    if (!read_device_profile(a, "predict", profile, with_profile, perr)) return fail(perr);
    if (a.positional.size() > 1) return fail("predict: one input file at most (or - for standard input)");
    Catalog cat;
    if (!load_catalog(cat)) return 1;
    SpeedParams params = default_speed_params();
    if (!read_speed_params(a, "predict", params, perr)) return fail(perr);
    std::istream* in = &std::cin;
    std::ifstream file;
    if (!a.positional.empty() && a.positional[0] != "-") {
        file.open(a.positional[0], std::ios::binary);
        if (!file) return fail("predict: cannot read '" + a.positional[0] + "'");
        in = &file;
    }
    std::string line;
    while (std::getline(*in, line)) {
        if (!line.empty() && line.back() == '\r') line.pop_back();
        if (line.find_first_not_of(" \t") == std::string::npos) continue;   // blank lines produce no output
        std::string out = predict_line(cat, params, line, a.has("explain"), with_profile ? &profile : nullptr);
        fwrite(out.data(), 1, out.size(), stdout);
        fputc('\n', stdout);
    }
    if (file.is_open() && file.bad()) return fail("predict: error reading '" + a.positional[0] + "'");
    return 0;
}

namespace {
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
}  // namespace

int cmd_accuracy(int argc, char** argv) {
    Args a = parse_args(argc, argv, {"help", "rows", "detail", "serving", "shipped", "extras", "json", "check-asset"});
    if (a.has("serving") && !a.has("help")) return cmd_accuracy_serving(a);
    if (a.has("extras") && !a.has("help")) return cmd_accuracy_extras(a);
    if (a.has("help")) {
        printf("usage: llmsim-cli accuracy FILE... [--detail] [--rows]\n"
               "       llmsim-cli accuracy --serving [FILE] [--by source|publication|device] [--rows] [--shipped]   serving engines,\n"
               "       leave-one-group-out (--rows: every row's held-out prediction as CSV; --json: the report as\n"
               "       assets/calibration/serving_accuracy.json holds it, made by scripts/calibration/make_serving_accuracy.sh;\n"
               "       --check-asset: is the embedded serving_accuracy.json current for FILE and this build's model, in ~2 s)\n"
               "       llmsim-cli accuracy --extras [FILE]   fine-tuning, vision encode, LoRA, speculative decoding and\n"
               "       embedding models against published measurements (default assets/calibration/extras_measured.jsonl)\n"
               "Held-out validation of the speed model on measured rows (predict's input shape plus measured_tokens_per_s),\n"
               "three ways: leave-one-device-out (refit without a device, predict its rows), leave-one-source-out (a whole\n"
               "publication held out) and leave-one-class-out (a hardware class held out). Prints MdAPE, the share within\n"
               "+-25 %% and the coverage of the low..high band (share of held-out rows inside it) per hardware class for\n"
               "decode and prefill; the band of each class comes from the harder of the three. --detail adds each scheme's\n"
               "table with the seed formula (decode = 0.84 x BW / (weights + KV), prefill = 0.65 x TFLOPS / (2 x params))\n"
               "and per-group errors; --rows prints every row's held-out predictions.\n"
               "e.g. llmsim-cli accuracy assets/calibration/llamacpp_speed.jsonl assets/calibration/llamacpp_speed_2025.jsonl\n"
               "     assets/calibration/llamacpp_speed_collected.jsonl\n");
        return 0;
    }
    if (a.positional.empty()) return fail("accuracy: give JSON Lines files of measured rows (e.g. assets/calibration/llamacpp_speed.jsonl)");
    std::string err;
    std::vector<CalibrationRow> rows;
    if (!read_rows(a.positional, rows, err)) return fail("accuracy: " + err);
    ValidationReport v = validate(rows, default_speed_params());
    with_validated_bands(default_speed_params(), v);
    printf("%s", format_validation_report(v).c_str());
    if (a.has("detail"))
        for (const AccuracyReport& rep : v.by) printf("%s", format_accuracy_report(rep).c_str());
    if (a.has("rows")) {
        printf("\nid,device,source,kind,measured,device_out,source_out,class_out,seed\n");
        for (size_t i = 0; i < v.by[0].predictions.size(); ++i) {
            const RowPrediction& p = v.by[0].predictions[i];
            printf("%s,%s,%s,%s,%.4g,%.4g,%.4g,%.4g,%.4g\n", p.row->id.c_str(), p.row->device.c_str(),
                   source_key(p.row->source).c_str(), p.row->scenario.test == SpeedTest::Decode ? "decode" : "prefill",
                   p.row->measured_tokens_per_s, p.predicted, v.by[1].predictions[i].predicted,
                   v.by[2].predictions[i].predicted, p.seed);
        }
    }
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
