// The accuracy panel's own state (Tracy keeps each view's state with its view). Owned by AppState
// (app.accuracy); never in the URL.
#pragma once
#include <vector>

#include "speed/evidence.h"

struct AccuracyState {
    int kind = 0;                              // 0 decode, 1 prefill
    std::vector<llmsim::EvidenceRow> rows;     // every measured row with its prediction (computed on first view)
};
