// The "Your own runs" panel's own state (Tracy keeps each view's state with its view): the pasted text, the rows
// read from it next to our predictions, the profile fitted on them, and their export as contributed records. Owned by AppState (app.my_runs); the
// profile in use is AppState::device_profile, which every estimate reads.
#pragma once
#include <string>
#include <vector>

#include "api/bench_import.h"
#include "speed/device_profile.h"

// one pasted row next to our prediction; the model by id (an import may move the catalog's models)
struct MyRunsRow {
    const llmsim::BenchRow* row = nullptr;   // into MyRunsState::imp.rows
    std::string model_id;                  // "" = not used (why says why)
    std::string why;
    double predicted_tps = 0, low = 0, high = 0;
    bool moe = false;                      // a MoE model: the profile's MoE factor applies
};

struct MyRunsState {                       // not part of the scenario or the URL
    std::string text;                      // the pasted output
    llmsim::BenchImport imp;               // its rows
    std::vector<MyRunsRow> matches;
    std::string hardware_name;             // the device the rows were read for
    llmsim::DeviceProfile fitted;          // fitted on the rows
    bool fitted_ok = false;
    std::string message;                   // result of the last read
    bool ok = false;
    bool keep = false;                     // keep the profile in this browser's localStorage
    // the export for contributing (engine/evidence/contributed.h): built on click, not every frame
    std::string note;                      // the contributor's one-line note (setup, clocks, driver)
    std::string export_text;               // the calibration records (JSON Lines); "" = not exported yet
    std::string export_message;
    bool export_ok = false;
};
