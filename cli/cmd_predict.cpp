// llmsim-cli predict: the speed model on JSON Lines scenarios (contract in predict.h). `accuracy` and `calibrate`,
// which refit it, are the calibration lab's (cmd_accuracy.cpp).
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>

#include "commands.h"
#include "api/predict.h"
#include "runtime/speed_glue.h"

namespace llmsim::cli {

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

}  // namespace llmsim::cli
