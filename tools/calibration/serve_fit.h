// Fitting and validating the serving engines' speed parameters on published serving measurements
// (assets/calibration/serving.jsonl: predict's serving line plus "measured" and "source").
//
//   std::vector<llmsim::ServingRow> rows;
//   llmsim::read_serving_rows(cat, text, rows, err);
//   llmsim::ServingValidation v = llmsim::validate_serving(cat, rows);   // leave-one-source-out
//   printf("%s", llmsim::format_serving_validation(v).c_str());
#pragma once
#include <string>
#include <vector>

#include "serving/serving.h"
#include "serving/serving_internal.h"

namespace llmsim {

struct ServingRow {
    std::string id, source, engine;      // source: the publication (GitHub owner/repo, or the host of a URL)
    std::string publication;             // the source at its commit (owner/repo@commit): one measurement campaign
    std::string device;                  // the hardware id (or an inline device's name)
    ServeRequest req;                    // as serve_predict_line builds it
    double out_tok_s = -1, tpot_ms = -1, ttft_ms = -1;   // measured (median where published, else mean); -1 = none
    bool tpot_is_mean = false, ttft_is_mean = false;     // only the mean was published: the prediction's mean is compared
    bool moe = false;                    // the row's config names routed experts
};

// parse the rows (lines without a usable prediction input are counted in *skipped with the first reason)
bool read_serving_rows(const Catalog& cat, const std::string& text, std::vector<ServingRow>& out, std::string& err,
                       int* skipped = nullptr, std::string* first_skip = nullptr);

// tpot_ms / ttft_ms: the simulated median, or the mean where the row published only a mean (the same statistic)
// low..high: the output tok/s band; tpot_/ttft_low..high: the same metric's band (ServeResult's bands)
struct ServingPrediction {
    bool ok = false;
    double out_tok_s = 0, tpot_ms = 0, ttft_ms = 0, low = 0, high = 0;
    double tpot_low = 0, tpot_high = 0, ttft_low = 0, ttft_high = 0;
};
ServingPrediction predict_serving_row(const Catalog& cat, const ServingRow& row, const serving::SpeedTable& table);

// refit every engine's speed parameters on the rows with use[i] (engines without rows keep the pooled fit)
// `start`: the table to refine (default the shipped one); `only`: refit just these engines (the others keep
// `start`'s values, unless they have no rows left: then the fitted engines' geometric mean)
serving::SpeedTable fit_serving(const Catalog& cat, const std::vector<ServingRow>& rows, const std::vector<bool>& use,
                                const serving::SpeedTable* start = nullptr, const std::vector<std::string>* only = nullptr);

struct ServingGroupErrors {             // one group of held-out predictions
    std::string name;
    int rows = 0, tpot_rows = 0, ttft_rows = 0;
    double out_mdape = 0, tpot_mdape = 0, ttft_mdape = 0, coverage = 0;
    double within25 = 0;                // share of rows whose held-out output tok/s is within +-25 % (no prediction: outside)
    double tpot_coverage = 0, ttft_coverage = 0;   // share of the rows measuring TPOT / TTFT inside that metric's band
};
struct ServingValidation {
    std::vector<ServingGroupErrors> by_source;   // each source held out in turn
    std::vector<ServingGroupErrors> by_engine;   // the same held-out predictions grouped by engine
    std::vector<ServingGroupErrors> by_regime;   // ... by load (burst, closed loop, Poisson) and model kind (dense, MoE)
    std::vector<ServingGroupErrors> by_setup;    // ... per engine by GPU vendor, dense vs MoE and one GPU vs several
    ServingGroupErrors all;
    serving::SpeedTable fitted;                  // on every row
    double fit_ms = 0;
    std::string fold;                            // "source", "publication" or "device"
    std::vector<ServingPrediction> held;         // per row, predicted with its group held out; its low..high band
                                                 // comes from the held-out errors of the other groups only
};
// which rows are held out together: a whole source (GitHub owner/repo or host), a publication (the source at
// one commit: e.g. TensorRT-LLM's v0.17 and v1.0 perf-overview tables are two), or a whole device
enum class ServingFold { Source, Publication, Device };
// leave-one-group-out: for each group, fit without it and predict its rows
ServingValidation validate_serving(const Catalog& cat, const std::vector<ServingRow>& rows,
                                   ServingFold fold = ServingFold::Source);
std::string format_serving_validation(const ServingValidation& v);

}  // namespace llmsim
