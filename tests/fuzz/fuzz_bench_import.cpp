// libFuzzer target: the llama-bench / llama-server output reader (engine/io/bench_import.h) on arbitrary text, then
// the model match and the per-device fit on whatever it accepts. A refusal must say why; an accepted row must
// have a positive finite t/s and a token count; a fitted profile must have finite factors in range. The same text
// as a contributed-runs file (evidence/contributed.h): a refusal says why and leaves the rows as they were; and
// every export of accepted rows must load back as contributed runs, one row per record.
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "api/bench_import.h"
#include "evidence/contributed.h"
#include "speed/device_profile.h"
#include "runtime/speed_glue.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size > 1 << 16) return 0;
    const llmsim::Catalog* cat = llmsim::embedded_catalog();
    if (!cat) __builtin_trap();
    const std::string text(reinterpret_cast<const char*>(data), size);
    std::string err;
    std::vector<llmsim::CalibrationRow> contributed(1);
    if (!llmsim::parse_contributed_runs(text, contributed, err)) {
        if (err.empty() || contributed.size() != 1) __builtin_trap();
    } else {
        for (const llmsim::CalibrationRow& r : contributed)
            if (!r.contributed || !(r.measured_tokens_per_s > 0)) __builtin_trap();
    }
    err.clear();
    llmsim::BenchImport imp;
    if (!llmsim::parse_bench_output(text, imp, err)) {
        if (err.empty() || !imp.rows.empty()) __builtin_trap();
        return 0;
    }
    if (imp.rows.empty() || imp.rows.size() > llmsim::kBenchMaxRows) __builtin_trap();
    for (const llmsim::BenchRow& r : imp.rows)
        if (!(r.tps > 0) || !std::isfinite(r.tps) || r.tokens < 1 || r.depth < 0) __builtin_trap();
    if (imp.rows.size() > 64) return 0;   // the model match walks the catalog per row: keep executions fast
    const llmsim::Hardware* hw = cat->find_hardware("rtx-4090");
    if (!hw) __builtin_trap();
    std::vector<llmsim::ProfileSample> samples;
    std::vector<llmsim::BenchMatch> matches;
    llmsim::bench_samples(*cat, imp, *hw, "", samples, matches);
    if (matches.size() != imp.rows.size()) __builtin_trap();
    llmsim::ContributionInfo info;
    info.date = "2026-12-07";
    llmsim::ContributedExport ex;
    if (llmsim::export_contributed_runs(*cat, imp, *hw, "", info, ex, err)) {
        std::vector<llmsim::CalibrationRow> back;
        if (!llmsim::parse_contributed_runs(ex.jsonl, back, err) || (int)back.size() != ex.rows) __builtin_trap();
    } else if (err.empty()) {
        __builtin_trap();
    }
    llmsim::DeviceProfile prof;
    if (llmsim::fit_device_profile(samples, llmsim::default_speed_params(), *hw, prof, err)) {
        for (const llmsim::ProfileFactor* f : {&prof.decode, &prof.prefill})
            if (!std::isfinite(f->factor) || f->factor < 0.05 || f->factor > 20 || f->band_scale < 0.5 || f->band_scale > 1) __builtin_trap();
        llmsim::DeviceProfile back;
        if (!llmsim::parse_device_profile(llmsim::device_profile_to_json(prof), back, err)) __builtin_trap();
    } else if (err.empty()) {
        __builtin_trap();
    }
    return 0;
}
