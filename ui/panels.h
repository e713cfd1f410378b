// One draw function per section of the page; each lives in its own ui/panel_*.cpp and reads/writes AppState.
#pragma once
#include "app_state.h"

struct SectionInfo {
    const char* key;        // URL/embed key: section=leaderboard
    const char* title;      // collapsing-header label
    void (*draw)(AppState&);
};

void draw_top_bar(AppState& app);        // panel_top_bar.cpp: the scenario (model, hardware, quant, context)
void draw_model_header(AppState& app);   // panel_model.cpp: model facts
void draw_quants(AppState& app);         // panel_quants.cpp: quantization footprint table
void draw_leaderboard(AppState& app);    // panel_leaderboard.cpp: every device

// every section in page order
const std::vector<SectionInfo>& sections();
