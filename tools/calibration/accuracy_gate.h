// The accuracy gate: the held-out figures the README states, recomputed and compared with committed values
// (tests/accuracy_gate.json) within stated tolerances, so a model change that makes them worse fails the build
// instead of moving a number in a report nobody reads. Also the headline table the README embeds, printed from the
// committed figures (the gate keeps those honest).
//
//   llmsim::GateFile committed;
//   std::string err;
//   if (!llmsim::parse_gate_file(text, committed, err)) { ... }
//   std::vector<llmsim::GateFigure> now = llmsim::speed_gate_figures(validation);          // calibrate.h
//   auto more = llmsim::serving_gate_figures(serving_validation);                             // serve_fit.h
//   now.insert(now.end(), more.begin(), more.end());
//   llmsim::GateVerdict v = llmsim::compare_gate(committed, now);
//   printf("%s", llmsim::format_gate_verdict(v, "tests/accuracy_gate.json").c_str());
//   return v.failed() ? 1 : 0;
//
// Figures are in percent (MdAPE, share within +-25 %, band coverage) or row counts. The direction is in the name:
// "...mdape" worse when it rises, "...within25" / "...coverage" worse when it falls, "...rows" must not change
// (a changed count means the data changed: rewrite the file).
//
// [SECTION] Figures
// [SECTION] The committed file
// [SECTION] Comparison
// [SECTION] Headline table
#pragma once
#include <string>
#include <vector>

#include "calibration/calibrate.h"
#include "calibration/serve_fit.h"

namespace llmsim {

// [SECTION] Figures --------------------------------------------------------------------------------------

struct GateFigure {
    std::string name;   // "speed.decode.source_out.all.mdape", "serving.vllm.tpot_mdape", ...
    double value = 0;   // percent, or a row count
};

// the speed model's held-out figures from a validation whose bands are filled (with_validated_bands): device out
// and source out x decode and prefill x all rows and 2025-26 builds x rows, MdAPE, within +-25 %, band coverage
std::vector<GateFigure> speed_gate_figures(const ValidationReport& v);
// the shipped parameters in-sample (rows, MdAPE, within +-25 %, share inside the shipped low..high band) per test
// kind: the held-out folds start from the physical priors, so they do not see a hand-edited fitted value in
// speed_params.json; these do ("speed.decode.shipped.all.mdape", ...)
std::vector<GateFigure> shipped_speed_gate_figures(const std::vector<CalibrationRow>& rows, const SpeedParams& shipped);
// the serving model's per engine (and "all"), one group held out at a time: rows, output tok/s / TPOT / TTFT MdAPE,
// within +-25 %, output band coverage
std::vector<GateFigure> serving_gate_figures(const ServingValidation& v);

// [SECTION] The committed file ---------------------------------------------------------------------------

struct GateTolerance {
    // MdAPE may rise by at most this many points; the shares by at most share_fall_points fall. Why these: the
    // figures are deterministic for a given build (threads do not change them), so the tolerance is not for noise
    // but for another compiler's or libm's last bits steering a Nelder-Mead fold to a slightly different optimum;
    // a real model change that matters moves a headline MdAPE by more than 0.3 points, and a share falls by 1
    // point when 4 of the ~430 decode rows leave the +-25 % window or the band
    double mdape_rise_points = 0.3;
    double share_fall_points = 1.0;
};

struct GateFile {
    std::vector<std::string> speed_files;   // calibration JSON Lines, relative to the working directory
    std::string serving_file;               // serving.jsonl
    GateTolerance tolerance;
    std::vector<GateFigure> figures;        // in the order written
};

// false + err naming the field on a bad file
bool parse_gate_file(const std::string& text, GateFile& out, std::string& err);
// the file as committed (figures in percent to 4 decimals; one figure per line so a diff shows which moved)
std::string gate_file_to_json(const GateFile& g);

// [SECTION] Comparison -----------------------------------------------------------------------------------

struct GateVerdict {
    std::vector<std::string> failures;       // worse than tolerance, a changed row count, a figure missing
    std::vector<std::string> improvements;   // better: update the committed file
    std::vector<std::string> within;         // worse, but within tolerance
    bool failed() const { return !failures.empty(); }
};
// compare each committed figure with the figure of that name in `now`
GateVerdict compare_gate(const GateFile& committed, const std::vector<GateFigure>& now);
// the verdict as lines for the terminal, ending with the command that updates `path` when something improved
std::string format_gate_verdict(const GateVerdict& v, const std::string& path);

// [SECTION] Headline table -------------------------------------------------------------------------------

// the README's headline accuracy table (Markdown) from the committed figures: the speed model per test, hold-out
// and build era; the serving model per engine
std::string format_headline_md(const GateFile& g);
// the text between `begin` and `end` marker lines of `doc` (the lines in between, with their newlines); false when
// either marker is missing
bool text_between_markers(const std::string& doc, const std::string& begin, const std::string& end, std::string& out);

}  // namespace llmsim
