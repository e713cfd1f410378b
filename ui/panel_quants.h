// The quantization table panel's own state (Tracy keeps each view's state with its view). Owned by AppState
// (app.quants); never in the URL.
#pragma once

struct QuantsState {
    bool show_all = false;     // every file type, not only the common ones
};
