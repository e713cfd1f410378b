// Line plots drawn with ImGui draw lists (Debian has no ImPlot): axes with units and ticks, several series,
// point markers, vertical reference lines, and a hover cross-hair with a read-out of every series (labelled
// scatter series: the one point nearest the cursor, named).
//   PlotAxis x{"context", "tokens", 1024, 131072, true}, y{"memory", "GiB", 0, 80, false};
//   draw_plot("ctx", ImVec2(-1, 240), x, y, {{"total", xs, ys, ink_u32(Ink::Weights)}}, {}, {{32768, "max safe"}});
#pragma once
#include <imgui.h>

#include <functional>
#include <string>
#include <vector>

struct PlotAxis {
    const char* label = "";
    const char* unit = "";
    double min = 0, max = 1;
    bool log = false;
    bool pow2_ticks = false;   // log axes of token counts: ticks at 1k, 2k, 4k ... (every other power when crowded)
    std::function<std::string(double)> format{};   // tick/read-out labels; default: 3 significant figures ({}: no
                                                   // -Wmissing-field-initializers on PlotAxis{label, unit, min, max})
};

struct PlotSeries {
    std::string name;
    std::vector<double> x, y;
    ImU32 color = 0;             // 0: the theme's Ink::Weights (theme.h)
    bool points_only = false;    // markers instead of a line
    float thickness = 1.6f;
    std::vector<std::string> labels{};   // points_only: what each point is; the read-out names the point nearest the cursor
};

struct PlotVLine {
    double x = 0;
    std::string label;
    ImU32 color = 0;   // 0: the theme's Ink::Limit (theme.h)
};

// draw a plot filling `size` (negative width = all available); returns true when hovered
bool draw_plot(const char* id, ImVec2 size, const PlotAxis& x, const PlotAxis& y, const std::vector<PlotSeries>& series,
               const std::vector<PlotVLine>& vlines = {});
