// llmsim-cli predict / accuracy / calibrate: the speed model on JSON Lines scenarios (contract in predict.h),
// its leave-one-device-out accuracy on measured rows, and the refit of its parameters.
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>

#include "calibrate.h"
#include "commands.h"
#include "predict.h"
#include "speed_glue.h"

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
        printf("usage: llmsim-cli predict [FILE|-] [--explain] [--device-profile profile.json]\n"
               "Reads JSON Lines (one scenario per line; see README 'predict') and writes one JSON line per input, in\n"
               "order: {\"id\", \"tokens_per_s\", \"low\", \"high\"} or {\"id\", \"error\"}. Malformed lines get an error line\n"
               "and processing continues. Extra fields (e.g. a measured value) are ignored. --explain adds \"explain\":\n"
               "the formula, every time term in seconds per token, the inputs and the fit's provenance. Every answer\n"
               "carries \"llama_bench\": the command that measures that row. --device-profile (from calibrate-device)\n"
               "corrects rows on the device it was fitted on and adds \"calibrated\".\n");
        return 0;
    }
    for (const auto& kv : a.options)
        if (kv.first != "explain" && kv.first != "device-profile")
            return fail("predict: unknown option --" + kv.first + " (try llmsim-cli predict --help)");
    DeviceProfile profile;
    bool with_profile = false;
    std::string perr;
    if (!read_device_profile(a, "predict", profile, with_profile, perr)) return fail(perr);
    if (a.positional.size() > 1) return fail("predict: one input file at most (or - for standard input)");
    Catalog cat;
    if (!load_catalog(cat)) return 1;
    const SpeedParams& params = default_speed_params();
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

int cmd_accuracy(int argc, char** argv) {
    Args a = parse_args(argc, argv, {"help", "rows"});
    if (a.has("help")) {
        printf("usage: llmsim-cli accuracy FILE [--rows]\n"
               "Leave-one-device-out cross-validation of the speed model on measured rows (predict's input shape plus\n"
               "measured_tokens_per_s): for each device, refit without it and predict its rows. Prints MdAPE and the\n"
               "share within +-25 %% per hardware class for decode and prefill, next to the seed formula\n"
               "(decode = 0.84 x BW / (weights + KV), prefill = 0.65 x TFLOPS / (2 x params)) on the same rows, and the\n"
               "source-to-source spread. --rows also prints every row's prediction.\n");
        return 0;
    }
    if (a.positional.size() != 1) return fail("accuracy: give one JSON Lines file of measured rows (e.g. assets/calibration/llamacpp_speed.jsonl)");
    std::string text, err;
    if (!read_input(a.positional[0], text, err)) return fail("accuracy: " + err);
    std::vector<CalibrationRow> rows;
    if (!parse_calibration_jsonl(text, rows, err)) return fail("accuracy: " + err);
    AccuracyReport rep = leave_one_device_out(rows, default_speed_params());
    printf("%s", format_accuracy_report(rep).c_str());
    if (a.has("rows")) {
        printf("\nid,device,kind,measured,predicted_lodo,seed\n");
        for (const RowPrediction& p : rep.predictions)
            printf("%s,%s,%s,%.4g,%.4g,%.4g\n", p.row->id.c_str(), p.row->device.c_str(),
                   p.row->scenario.test == SpeedTest::Decode ? "decode" : "prefill", p.row->measured_tokens_per_s, p.predicted, p.seed);
    }
    return 0;
}

int cmd_calibrate(int argc, char** argv) {
    Args a = parse_args(argc, argv, {"help"});
    if (a.has("help")) {
        printf("usage: llmsim-cli calibrate [FILE] [--write PATH]\n"
               "Refits the speed model's free parameters on measured rows (default: the embedded calibration data is\n"
               "not shipped, so give assets/calibration/llamacpp_speed.jsonl), measures the leave-one-device-out error\n"
               "bands, prints the report and the parameters as JSON (or writes them to PATH, e.g.\n"
               "assets/calibration/speed_params.json, which every build embeds).\n");
        return 0;
    }
    if (a.positional.size() != 1) return fail("calibrate: give one JSON Lines file of measured rows");
    std::string text, err;
    if (!read_input(a.positional[0], text, err)) return fail("calibrate: " + err);
    std::vector<CalibrationRow> rows;
    if (!parse_calibration_jsonl(text, rows, err)) return fail("calibrate: " + err);
    SpeedParams p = fit_speed_params(rows, default_speed_params());
    AccuracyReport rep = leave_one_device_out(rows, p);
    p = with_measured_bands(p, rep);
    fprintf(stderr, "%s", format_accuracy_report(rep).c_str());
    std::string json = speed_params_to_json(p);
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
