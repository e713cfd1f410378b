// llmsim-cli calibrate-device: read your llama-bench (or llama-server) output, show each row next to the
// prediction for exactly that row, and fit the per-device correction (engine/speed/device_profile.h) that
// --device-profile then applies on predict, fit, memory --explain and recommend. --export writes the rows as
// contributed calibration records; --contributed reads such records back (engine/evidence/contributed.h).
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <iostream>
#include <sstream>

#include "api/bench_import.h"
#include "core/input_limits.h"
#include "evidence/contributed.h"
#include "evidence/evidence.h"
#include "commands.h"
#include "speed/device_profile.h"
#include "core/format.h"
#include "calibration/calibrate.h"
#include "calibration/profile_validation.h"
#include "runtime/speed_glue.h"
#include "rig/resolve_device.h"

namespace llmsim::cli {

namespace {
bool read_calibration_files(const std::vector<std::string>& files, std::vector<CalibrationRow>& rows, std::string& err) {
    for (const std::string& f : files) {
        std::string text;
        std::vector<CalibrationRow> part;
        if (!read_text_file(f, 64u << 20, text, err)) return false;
        if (!parse_calibration_jsonl(text, part, err)) { err = f + ": " + err; return false; }
        rows.insert(rows.end(), part.begin(), part.end());
    }
    return true;
}

// the calibration rows (CalibrationRow: the same parser as `calibrate`; `first` is the file after --holdout /
// --fit-prior, the rest are positional) and the speed parameters (--params, else the embedded ones)
bool read_rows_and_params(const Args& a, const std::string& first, std::vector<CalibrationRow>& rows, SpeedParams& params,
                          std::string& err) {
    std::vector<std::string> files = {first};
    files.insert(files.end(), a.positional.begin(), a.positional.end());
    if (!read_calibration_files(files, rows, err)) { err = "calibrate-device: " + err; return false; }
    return read_speed_params(a, "calibrate-device", params, err);
}

// --fit-prior FILE...: the shrinkage prior, printed or written into a speed params file (that key only)
int fit_prior_command(const Args& a, const std::string& first) {
    std::vector<CalibrationRow> rows;
    SpeedParams params = default_speed_params();
    std::string err;
    if (!read_rows_and_params(a, first, rows, params, err)) return fail(err);
    ProfilePrior prior;
    if (!fit_profile_prior(rows, params, ProfileHoldoutOptions(), prior, err)) return fail("calibrate-device: " + err);
    const std::string json = profile_prior_to_json(prior);
    const std::string* path = a.get("write");
    if (!path) { printf("%s\n", json.c_str()); return 0; }
    // only this key of the speed params file changes (the rest is `calibrate --write`'s)
    std::string text;
    if (!read_text_file(*path, 16u << 20, text, err)) return fail("calibrate-device: " + err);
    if (!merge_profile_prior(text, prior, text, err)) return fail("calibrate-device: " + *path + ": " + err);
    std::ofstream f(*path, std::ios::binary);
    if (!f || !(f << text << "\n")) return fail("calibrate-device: cannot write '" + *path + "'");
    fprintf(stderr, "wrote device_profile_prior into %s\n", path->c_str());
    return 0;
}

// --holdout FILE...: the held-out report (devices refit out of the speed fit, then in-sample)
int holdout_command(const Args& a, const std::string& first) {
    std::vector<CalibrationRow> rows;
    SpeedParams params = default_speed_params();
    std::string err;
    if (!read_rows_and_params(a, first, rows, params, err)) return fail(err);
    ProfileHoldoutOptions opt;
    if (const std::string* m = a.get("max-devices")) {
        char* end = nullptr;
        const long v = std::strtol(m->c_str(), &end, 10);
        if (m->empty() || *end || v < 0 || v > 100000)
            return fail("calibrate-device: --max-devices wants a whole number >= 0 (0 = every device), not '" + *m + "'");
        opt.max_devices = (int)v;
    }
    ProfileHoldoutReport rep;
    if (!profile_holdout_refit(rows, params, opt, rep, err)) return fail("calibrate-device: " + err);
    printf("%s", format_profile_holdout(rep).c_str());
    return 0;
}

// the text of BENCH: a file, or - for standard input
bool read_bench_text(const std::string& path, std::string& text, std::string& err) {
    if (path != "-") return read_text_file(path, kBenchMaxBytes, text, err);
    std::ostringstream ss;
    ss << std::cin.rdbuf();
    text = ss.str();
    return true;
}

// the device the rows were measured on: --hardware, else the device the paste printed (llama.cpp's device line or
// -o json's gpu_info, matched against the catalog's tool names); nullptr + err when neither names a catalog device
const Hardware* bench_device(const Catalog& cat, const Args& a, const BenchImport& imp, std::string& err) {
    if (const std::string* hid = a.get("hardware")) {
        const Hardware* hw = resolve_device(cat, *hid);
        if (!hw) err = "calibrate-device: unknown hardware '" + *hid + "' (llmsim-cli catalog --hardware lists them)";
        return hw;
    }
    const std::string printed = imp.rows.empty() ? "" : imp.rows.front().device;
    const Hardware* hw = printed.empty() ? nullptr : match_device_name(cat, printed, 0);
    if (hw) fprintf(stderr, "device '%s' as printed: %s\n", printed.c_str(), hw->id.c_str());
    else err = "calibrate-device: --hardware ID is required (the device the rows were measured on" +
               (printed.empty() ? std::string(")") : "; '" + printed + "' as printed is not a catalog device)");
    return hw;
}

// the rows next to the prediction for each, on stderr
void print_bench_rows(const BenchImport& imp, const std::vector<BenchMatch>& matches, const Hardware& hw) {
    fprintf(stderr, "%zu rows read (%s) on %s\n\n", imp.rows.size(), imp.format.c_str(), hw.name.c_str());
    fprintf(stderr, "| line | model | test | measured t/s | predicted t/s | band | used |\n|---|---|---|---|---|---|---|\n");
    for (const BenchMatch& m : matches)
        fprintf(stderr, "| %d | %s | %s | %s%s | %s | %s | %s |\n", m.row->line,
                m.model ? m.model->id.c_str() : (m.row->model_label.empty() ? "?" : m.row->model_label.c_str()),
                m.row->test_label().c_str(), format_sig(m.row->tps).c_str(),
                m.row->tps_sd > 0 ? (" ± " + format_sig(m.row->tps_sd)).c_str() : "",
                m.model ? format_sig(m.predicted_tps).c_str() : "—",
                m.model ? (format_sig(m.low) + "–" + format_sig(m.high)).c_str() : "—", m.model ? "yes" : m.why.c_str());
    for (const std::string& s : imp.skipped) fprintf(stderr, "skipped %s\n", s.c_str());
}

// the profile's fit on stderr, then its file on stdout or in out_path
int write_profile(const DeviceProfile& prof, const std::string& out_path) {
    fprintf(stderr, "\n%s\n", calibrated_label(prof).c_str());
    for (const auto& [name, f] : {std::pair<const char*, const ProfileFactor*>{"decode", &prof.decode}, {"prefill", &prof.prefill}})
        if (f->rows)
            fprintf(stderr, "  %s: %d rows of %d model%s, median error %s%% -> %s%% on these rows; x%s at full weight, "
                    "weight %s (n tau^2 / (n tau^2 + sigma^2)); band x%s of the class band\n", name, f->rows, f->models,
                    f->models == 1 ? "" : "s", format_sig(f->mdape_before * 100).c_str(), format_sig(f->mdape_after * 100).c_str(),
                    format_fixed(f->raw, 2).c_str(), format_fixed(f->weight, 2).c_str(), format_fixed(f->band_scale, 2).c_str());
    const ProfilePrior& prior = default_profile_prior();
    fprintf(stderr, "  %s\n", !prior.fitted ? "no prior in speed_params.json: the rows at full weight"
                             : prof.seen_by_fit ? "the speed fit saw this device: the in-sample prior (a profile mostly adds its models' noise)"
                                                : "the speed fit never saw this device: the held-out prior");
    const std::string json = device_profile_to_json(prof);
    if (out_path.empty()) {
        printf("%s\n", json.c_str());
        return 0;
    }
    std::ofstream f(out_path, std::ios::binary);
    if (!f || !(f << json << "\n")) return fail("calibrate-device: cannot write '" + out_path + "'");
    fprintf(stderr, "wrote %s (use it with --device-profile %s)\n", out_path.c_str(), out_path.c_str());
    return 0;
}

// today, UTC, as YYYY-MM-DD (the export's default --date)
std::string today_utc() {
    const std::time_t t = std::time(nullptr);
    std::tm tm{};
#ifdef _WIN32
    gmtime_s(&tm, &t);
#else
    gmtime_r(&t, &tm);
#endif
    char buf[16];
    std::strftime(buf, sizeof buf, "%Y-%m-%d", &tm);
    return buf;
}

// --export FILE: the rows as contributed calibration records (evidence/contributed.h), to FILE or - for stdout
int export_command(const Catalog& cat, const Args& a, const BenchImport& imp, const Hardware& hw, const std::string& model_id) {
    ContributionInfo info;
    info.note = a.get("note") ? *a.get("note") : "";
    info.date = a.get("date") ? *a.get("date") : today_utc();
    ContributedExport ex;
    std::string err;
    if (!export_contributed_runs(cat, imp, hw, model_id, info, ex, err)) return fail("calibrate-device: --export: " + err);
    for (const std::string& s : ex.skipped) fprintf(stderr, "not exported: %s\n", s.c_str());
    const std::string& path = *a.get("export");
    if (path == "-") { fputs(ex.jsonl.c_str(), stdout); return 0; }
    std::ofstream f(path, std::ios::binary);
    if (!f || !(f << ex.jsonl)) return fail("calibrate-device: cannot write '" + path + "'");
    fprintf(stderr, "wrote %d contributed records to %s (docs/contributing-runs.md says how to send them)\n", ex.rows, path.c_str());
    return 0;
}

// --contributed FILE: others' runs on the device next to our prediction for each, and the profile they fit
int contributed_command(const Args& a, const std::string& path, const std::string& out_path) {
    Catalog cat;
    if (!load_catalog(cat)) return 1;
    const std::string* hid = a.get("hardware");
    if (!hid) return fail("calibrate-device: --contributed needs --hardware ID (the device whose rows to use)");
    const Hardware* hw = resolve_device(cat, *hid);
    if (!hw) return fail("calibrate-device: unknown hardware '" + *hid + "' (llmsim-cli catalog --hardware lists them)");
    std::string text, err;
    std::vector<CalibrationRow> rows;
    if (!read_text_file(path, kContributedMaxBytes, text, err)) return fail("calibrate-device: " + err);
    if (!parse_contributed_runs(text, rows, err)) return fail("calibrate-device: " + path + ": " + err);
    fprintf(stderr, "%zu contributed rows read from %s\n\n| id | model | test | measured t/s | predicted t/s | band | source |\n"
            "|---|---|---|---|---|---|---|\n", rows.size(), path.c_str());
    for (const CalibrationRow& r : rows) {
        if (!row_on_device(cat, r, *hw)) continue;
        const SpeedResult p = estimate_speed(r.scenario, default_speed_params());
        fprintf(stderr, "| %s | %s | %s%lld @ d%lld | %s | %s | %s | %s |\n", r.id.c_str(), r.model.c_str(),
                r.scenario.test == SpeedTest::Prefill ? "pp" : "tg", (long long)r.scenario.tokens, (long long)r.scenario.depth,
                format_sig(r.measured_tokens_per_s).c_str(), p.ok ? format_sig(p.tokens_per_s).c_str() : "—",
                p.ok ? (format_sig(p.low) + "–" + format_sig(p.high)).c_str() : "—", r.source.c_str());
    }
    DeviceProfile prof;
    if (!fit_contributed_profile(cat, rows, *hw, prof, err)) return fail("calibrate-device: " + err);
    prof.source += " from " + path;
    return write_profile(prof, out_path);
}

}  // namespace

int cmd_calibrate_device(int argc, char** argv) {
    Args a = parse_args(argc, argv, {"help"});
    if (a.has("help")) {
        printf("usage: llmsim-cli calibrate-device BENCH|- [--hardware ID] [--model ID] [-o profile.json]\n"
               "       llmsim-cli calibrate-device BENCH|- [--hardware ID] [--model ID] --export FILE|- [--note TEXT] [--date YYYY-MM-DD]\n"
               "       llmsim-cli calibrate-device --contributed RUNS.jsonl --hardware ID [-o profile.json]\n"
               "       llmsim-cli calibrate-device --holdout MEASURED.jsonl... [--params speed_params.json] [--max-devices N]\n"
               "       llmsim-cli calibrate-device --fit-prior MEASURED.jsonl... [--write assets/calibration/speed_params.json]\n"
               "BENCH is llama-bench output (its Markdown table, -o json or -o jsonl) or llama-server timings (the\n"
               "\"timings\" object of a /completion answer, or its \"prompt eval time\" / \"eval time\" log lines; those\n"
               "name no model: give --model). Each row's model is matched by llama.cpp arch + parameter count; the\n"
               "device is --hardware, else the device the output printed (llama.cpp's device line, -o json's gpu_info)\n"
               "when the catalog knows that name. Prints every row next to the prediction for it, then fits one decode and one\n"
               "prefill efficiency factor for that device, shrunk towards 1 by how much its models can say about the\n"
               "device (weight n tau^2 / (n tau^2 + sigma^2), n = models; the prior is in speed_params.json), and writes\n"
               "the profile (stdout, or -o FILE).\n"
               "--export: write the rows instead as calibration records (one JSON line per test: device as printed,\n"
               "catalog id, build, backend, flags, model, quant, t/s, \"source\": \"contributed DATE: NOTE\"), ready to\n"
               "send to the project (docs/contributing-runs.md). --date defaults to today (UTC).\n"
               "--contributed: read such records (others' runs) and show those measured on --hardware next to our\n"
               "prediction, then fit the same profile on them, marked \"calibrated on N contributed rows\".\n"
               "--holdout: how much such a profile helps on models it was not fitted on (calibration rows as for\n"
               "`calibrate`): each device with a setup of >= 2 models is refit out of the speed model (the accuracy\n"
               "command's device-out folds), a profile is fitted on one model's rows and scored on the setup's other\n"
               "models; then the same on the shipped fit (--params: another one), in-sample. --max-devices N refits\n"
               "only the N devices with the most multi-model setups (each refit takes seconds).\n"
               "--fit-prior: fit the shrinkage prior (tau^2, sigma^2 per kind, seen and unseen devices) from the same\n"
               "refits and print it, or write it into the speed params file as \"device_profile_prior\" (only that key).\n");
        return 0;
    }
    if (const std::string* fp = a.get("fit-prior")) return fit_prior_command(a, *fp);
    if (const std::string* h = a.get("holdout")) return holdout_command(a, *h);
    std::string out_path;
    for (const auto& kv : a.options)
        if (kv.first != "hardware" && kv.first != "model" && kv.first != "o" && kv.first != "export" && kv.first != "note" &&
            kv.first != "date" && kv.first != "contributed")
            return fail("calibrate-device: unknown option --" + kv.first + " (try llmsim-cli calibrate-device --help)");
    // "-o FILE" arrives as a positional pair (parse_args only knows --options)
    std::vector<std::string> pos;
    for (size_t i = 0; i < a.positional.size(); ++i) {
        if (a.positional[i] == "-o") {
            if (i + 1 >= a.positional.size()) return fail("calibrate-device: -o wants a file name");
            out_path = a.positional[++i];
        } else pos.push_back(a.positional[i]);
    }
    if (const std::string* o = a.get("o")) out_path = *o;
    if (const std::string* c = a.get("contributed")) {
        if (!pos.empty()) return fail("calibrate-device: --contributed reads its own file; give no llama-bench output with it");
        return contributed_command(a, *c, out_path);
    }
    if (pos.size() != 1) return fail("calibrate-device: give one llama-bench output file (or - for standard input)");
    Catalog cat;
    if (!load_catalog(cat)) return 1;
    const std::string model_id = a.get("model") ? *a.get("model") : "";
    if (!model_id.empty() && !cat.find_model(model_id)) return fail("calibrate-device: unknown model '" + model_id + "'");

    std::string text, err;
    if (!read_bench_text(pos[0], text, err)) return fail("calibrate-device: " + err);
    BenchImport imp;
    if (!parse_bench_output(text, imp, err)) return fail("calibrate-device: " + pos[0] + ": " + err);
    const Hardware* hw = bench_device(cat, a, imp, err);
    if (!hw) return fail(err);
    std::vector<ProfileSample> samples;
    std::vector<BenchMatch> matches;
    bench_samples(cat, imp, *hw, model_id, samples, matches);
    print_bench_rows(imp, matches, *hw);
    if (a.has("export")) return export_command(cat, a, imp, *hw, model_id);
    DeviceProfile prof;
    if (!fit_device_profile(samples, default_speed_params(), *hw, prof, err)) return fail("calibrate-device: " + err);
    prof.source = imp.format + " output, " + std::to_string(samples.size()) + " rows" + (pos[0] == "-" ? "" : " from " + pos[0]);
    return write_profile(prof, out_path);
}

}  // namespace llmsim::cli
