// The accuracy panel's own state (Tracy keeps each view's state with its view). Owned by AppState
// (app.accuracy); never in the URL.
#pragma once
#include <functional>
#include <string>
#include <vector>

#include <memory>

#include "evidence/serving_accuracy.h"
#include "evidence/evidence.h"

struct AppState;
struct PlotSeries;
struct ServingPlotCache;   // panel_accuracy_serving.cpp (kept out of this header: it is included without ImGui)

struct AccuracyState {
    int kind = 0;                              // 0 decode, 1 prefill
    std::vector<llmsim::EvidenceRow> rows;     // every measured row with its prediction (computed on first view)
    // the serving part: the CLI's leave-one-source-out report, embedded (assets/calibration/serving_accuracy.json);
    // recomputing it takes about a minute natively, so the page reads it (panel_accuracy_serving.cpp)
    llmsim::ServingAccuracy serving;
    bool serving_loaded = false;
    std::string serving_error;
    double serving_load_ms = 0;                // parsing the embedded file
    // the serving scatter with the y = x / ±25 % lines and every point's read-out label, built on the first frame
    // that draws it (1107 labels: building them every frame cost about a millisecond), the decades it spans and each
    // engine series' ink (the colours follow the theme, so they are set again every frame)
    std::shared_ptr<ServingPlotCache> serving_plot;   // null until built; reset when the report changes
};

// panel_accuracy_serving.cpp: load the embedded serving report once (also for results() before the section is drawn)
void update_accuracy_serving(AppState& app);
// results().accuracy: {"serving": {fold, groups: [...], rows_plotted, load_ms, error}} (call update_accuracy_serving first)
std::string accuracy_state_json(const AppState& app);

// panel_accuracy.cpp: a measured-vs-predicted plot (log-log, both axes in tok/s) of `series` over the decades that
// hold [lo, hi], under the y = x line and the ±25 % corridor; `format` labels the ticks (default 3 significant figures)
void draw_parity_plot(const char* id, std::vector<PlotSeries> series, double lo, double hi,
                      std::function<std::string(double)> format = {});
// the two halves of draw_parity_plot, for a plot whose series are kept between frames: round [lo, hi] out to whole
// decades and put the kParityReferences lines (y = x, the ±25 % corridor) first in `series`; then draw the prepared
// series (color_parity_references first: the theme may have changed since they were made)
constexpr size_t kParityReferences = 3;
void add_parity_references(std::vector<PlotSeries>& series, double& lo, double& hi);
void color_parity_references(std::vector<PlotSeries>& series);
void draw_parity_series(const char* id, const std::vector<PlotSeries>& series, double lo, double hi,
                        std::function<std::string(double)> format = {});
