// The "Contributed runs" panel's own state: a contributed-runs file (others' llama-bench runs as calibration records,
// engine/evidence/contributed.h) read in this session. Its rows show beside the estimate (Derived::evidence, marked
// contributed) and, when asked, calibrate the scenario's device (AppState::device_profile, marked contributed).
// Owned by AppState (app.contributed); never in the scenario or the URL, never sent anywhere.
#pragma once
#include <string>
#include <vector>

#include "evidence/calibration_row.h"
#include "speed/device_profile.h"

struct ContributedState {
    std::string text;                          // the pasted file text (an opened file's text goes straight to the reader)
    std::vector<llmsim::CalibrationRow> rows;  // the rows read (Derived::evidence points into them)
    std::string file_name;                     // where they came from ("pasted", "runs.jsonl")
    std::string message;                       // result of the last read
    bool ok = false;
    llmsim::DeviceProfile fitted;              // fitted on the rows of one device, on request
    bool fitted_ok = false;
};
