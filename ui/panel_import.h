// The import panel's own state (Tracy keeps each view's state with its view): the pasted config.json, the path
// field (desktop) and the result of the last import, which import.cpp writes and the JS API reads
// (results().import_message). Owned by AppState (app.import); never in the URL.
#pragma once
#include <string>

struct ImportState {
    std::string text;       // pasted config.json
    std::string message;    // result of the last import
    bool ok = false;
    std::string path;       // desktop: path of a .gguf / config.json
};
