#include "plot.h"

#include <algorithm>
#include <array>
#include <cmath>

#include "core/format.h"
#include "theme.h"

namespace {

double to_unit(const PlotAxis& a, double v) {
    if (a.log) {
        double lo = std::log10(std::max(a.min, 1e-300)), hi = std::log10(std::max(a.max, 1e-300));
        return (std::log10(std::max(v, 1e-300)) - lo) / (hi - lo);
    }
    return (v - a.min) / (a.max - a.min);
}

double from_unit(const PlotAxis& a, double t) {
    if (a.log) {
        double lo = std::log10(a.min), hi = std::log10(a.max);
        return std::pow(10.0, lo + t * (hi - lo));
    }
    return a.min + t * (a.max - a.min);
}

std::string label_of(const PlotAxis& a, double v) { return a.format ? a.format(v) : llmsim::format_sig(v, 3); }

// "nice" linear ticks (1, 2, 5 x 10^k) or decades for log axes
std::vector<double> ticks(const PlotAxis& a, int target) {
    std::vector<double> t;
    if (a.log && a.pow2_ticks) {
        for (double d = std::pow(2.0, std::ceil(std::log2(a.min))); d <= a.max * 1.0001; d *= 2) t.push_back(d);
        while ((int)t.size() > std::max(3, target)) {   // thin out: every other power of two
            std::vector<double> thin;
            for (size_t i = 0; i < t.size(); i += 2) thin.push_back(t[i]);
            t = thin;
        }
        return t;
    }
    if (a.log) {
        for (double d = std::pow(10.0, std::floor(std::log10(a.min))); d <= a.max * 1.0001; d *= 10)
            if (d >= a.min * 0.9999) t.push_back(d);
        if (t.size() < 3) {   // too few decades: add 2x and 5x
            std::vector<double> more;
            for (double d = std::pow(10.0, std::floor(std::log10(a.min))); d <= a.max; d *= 10)
                for (double m : {1.0, 2.0, 5.0})
                    if (d * m >= a.min && d * m <= a.max) more.push_back(d * m);
            t = more;
        }
        return t;
    }
    double span = a.max - a.min;
    if (!(span > 0)) return {a.min};
    double raw = span / target, mag = std::pow(10.0, std::floor(std::log10(raw)));
    double step = raw / mag < 1.5 ? mag : raw / mag < 3 ? 2 * mag : raw / mag < 7 ? 5 * mag : 10 * mag;
    for (double v = std::ceil(a.min / step) * step; v <= a.max + step * 1e-6; v += step) t.push_back(v);
    return t;
}

// the plot's box on screen and the two axes' mappings into it
struct PlotFrame {
    ImDrawList* dl;
    ImVec2 p0, size;   // the whole widget
    ImVec2 a, b;       // the plotting area: top left, bottom right
    float fh;          // font height
    const PlotAxis& x;
    const PlotAxis& y;
    float sx(double v) const { return a.x + (float)to_unit(x, v) * (b.x - a.x); }
    float sy(double v) const { return b.y - (float)to_unit(y, v) * (b.y - a.y); }
};

ImU32 color_of(const PlotSeries& s) { return s.color ? s.color : ink_u32(Ink::Weights); }

// grid lines, tick labels and the two axis titles
void draw_axes(const PlotFrame& f, ImU32 text, ImU32 dim, ImU32 grid) {
    ImDrawList* dl = f.dl;
    const ImVec2 a = f.a, b = f.b;
    for (double t : ticks(f.x, std::max(2, (int)((b.x - a.x) / (f.fh * 6))))) {
        float px = f.sx(t);
        dl->AddLine(ImVec2(px, a.y), ImVec2(px, b.y), grid);
        std::string s = label_of(f.x, t);
        // centred under its tick, but kept inside the plot's box (the last tick's label was cut at the right edge)
        const float tw = ImGui::CalcTextSize(s.c_str()).x;
        dl->AddText(ImVec2(std::min(px - tw / 2, f.p0.x + f.size.x - tw), b.y + 3), dim, s.c_str());
    }
    for (double t : ticks(f.y, std::max(2, (int)((b.y - a.y) / (f.fh * 2.5f))))) {
        float py = f.sy(t);
        dl->AddLine(ImVec2(a.x, py), ImVec2(b.x, py), grid);
        std::string s = label_of(f.y, t);
        dl->AddText(ImVec2(a.x - ImGui::CalcTextSize(s.c_str()).x - 4, py - f.fh / 2), dim, s.c_str());
    }
    std::string xl = std::string(f.x.label) + (f.x.unit[0] ? std::string(" (") + f.x.unit + ")" : "");
    std::string yl = std::string(f.y.label) + (f.y.unit[0] ? std::string(" (") + f.y.unit + ")" : "");
    dl->AddText(ImVec2((a.x + b.x) / 2 - ImGui::CalcTextSize(xl.c_str()).x / 2, b.y + f.fh * 1.25f), text, xl.c_str());
    dl->AddText(ImVec2(f.p0.x, f.p0.y + f.size.y - f.fh * 1.1f), dim, yl.c_str());
}

// the legend's size: the widest name (with its swatch) and the number of named series
struct LegendSize { float w = 0; int rows = 0; };
LegendSize legend_size(const std::vector<PlotSeries>& series, float fh) {
    LegendSize l;
    for (const PlotSeries& s : series)
        if (!s.name.empty()) { l.w = std::max(l.w, fh + ImGui::CalcTextSize(s.name.c_str()).x); ++l.rows; }
    return l;
}

// a vertical line's label, placed to be drawn over the series
struct LineLabel { ImVec2 pos; ImU32 col; const std::string* text; float w; };

// the vertical lines, and where each one's label goes: right of the line, or left of it when it would run past
// the plot's right edge (phone width); one row lower when it would overlap an earlier label or the legend
std::vector<LineLabel> draw_vlines(const PlotFrame& f, const std::vector<PlotVLine>& vlines, const LegendSize& legend) {
    std::vector<std::array<float, 3>> placed;   // labels drawn so far: x0, x1, row
    // the legend (drawn later, top left) counts as placed, so a line's label never lands on it (phone width)
    for (int r = 0; r < (int)std::ceil(legend.rows * 1.15f); ++r) placed.push_back({f.a.x + 6, f.a.x + 6 + legend.w, (float)r});
    std::vector<LineLabel> line_labels;
    for (const PlotVLine& v : vlines) {
        float px = f.sx(v.x);
        const ImU32 vcol = v.color ? v.color : ink_u32(Ink::Limit);
        f.dl->AddLine(ImVec2(px, f.a.y), ImVec2(px, f.b.y), vcol, 1.5f);
        const float tw = ImGui::CalcTextSize(v.label.c_str()).x;
        const float tx = px + 4 + tw <= f.b.x ? px + 4 : std::max(f.a.x, px - 4 - tw);
        int row = 0;
        for (bool clash = true; clash; ) {
            clash = false;
            for (const auto& r : placed)
                if ((int)r[2] == row && tx < r[1] + 4 && tx + tw > r[0] - 4) { clash = true; ++row; break; }
        }
        placed.push_back({tx, tx + tw, (float)row});
        line_labels.push_back({ImVec2(tx, f.a.y + 2 + row * f.fh), vcol, &v.label, tw});
    }
    return line_labels;
}

void draw_series(const PlotFrame& f, const std::vector<PlotSeries>& series) {
    for (const PlotSeries& s : series) {
        size_t n = std::min(s.x.size(), s.y.size());
        if (s.points_only) {
            for (size_t i = 0; i < n; ++i) f.dl->AddCircleFilled(ImVec2(f.sx(s.x[i]), f.sy(s.y[i])), f.fh * 0.32f, color_of(s));
            continue;
        }
        for (size_t i = 1; i < n; ++i)
            f.dl->AddLine(ImVec2(f.sx(s.x[i - 1]), f.sy(s.y[i - 1])), ImVec2(f.sx(s.x[i]), f.sy(s.y[i])), color_of(s), s.thickness);
    }
}

// the legend, top left, on a backing of the window colour
void draw_legend(const PlotFrame& f, const std::vector<PlotSeries>& series, const LegendSize& legend, ImU32 text,
                 ImU32 backing) {
    float lx = f.a.x + 6, ly = f.a.y + 4;
    const float fh = f.fh;
    if (legend.rows > 0) f.dl->AddRectFilled(ImVec2(lx - 3, ly - 1), ImVec2(lx + legend.w + 3, ly + legend.rows * fh * 1.15f), backing, 3.0f);
    for (const PlotSeries& s : series) {
        if (s.name.empty()) continue;
        f.dl->AddRectFilled(ImVec2(lx, ly + fh * 0.35f), ImVec2(lx + fh * 0.8f, ly + fh * 0.65f), color_of(s));
        f.dl->AddText(ImVec2(lx + fh, ly), text, s.name.c_str());
        ly += fh * 1.15f;
    }
}

// labelled scatter series: the one point nearest the cursor in both directions, marked, with its label
// (returns it, or nullptr when no labelled series has a point)
const PlotSeries* hover_nearest_labelled_point(const PlotFrame& f, const std::vector<PlotSeries>& series, ImVec2 m,
                                               ImU32 text) {
    const PlotSeries* near_s = nullptr;
    size_t near_i = 0;
    float near_d = 1e30f;
    for (const PlotSeries& s : series) {
        if (!s.points_only || s.labels.empty()) continue;
        for (size_t i = 0; i < std::min({s.x.size(), s.y.size(), s.labels.size()}); ++i) {
            const float dx = f.sx(s.x[i]) - m.x, dy = f.sy(s.y[i]) - m.y, d = dx * dx + dy * dy;
            if (d < near_d) { near_d = d; near_s = &s; near_i = i; }
        }
    }
    if (near_s) {
        f.dl->AddCircle(ImVec2(f.sx(near_s->x[near_i]), f.sy(near_s->y[near_i])), f.fh * 0.45f, text, 12, 2.0f);
        ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(color_of(*near_s)), "%s: %s %s at %s %s", near_s->name.c_str(),
                           label_of(f.y, near_s->y[near_i]).c_str(), f.y.unit, label_of(f.x, near_s->x[near_i]).c_str(), f.x.unit);
        ImGui::TextUnformatted(near_s->labels[near_i].c_str());
    }
    return near_s;
}

// hover cross-hair and read-out: the x under the cursor, then each named series' value there
void draw_hover(const PlotFrame& f, const std::vector<PlotSeries>& series, ImU32 text, ImU32 dim) {
    const PlotAxis& x = f.x;
    const PlotAxis& y = f.y;
    ImVec2 m = ImGui::GetIO().MousePos;
    if (!(m.x >= f.a.x && m.x <= f.b.x)) return;
    f.dl->AddLine(ImVec2(m.x, f.a.y), ImVec2(m.x, f.b.y), dim);
    double xv = from_unit(x, (m.x - f.a.x) / (f.b.x - f.a.x));
    ImGui::BeginTooltip();
    ImGui::Text("%s: %s %s", x.label, label_of(x, xv).c_str(), x.unit);
    const PlotSeries* near_s = hover_nearest_labelled_point(f, series, m, text);
    for (const PlotSeries& s : series) {
        size_t n = std::min(s.x.size(), s.y.size());
        // a series without a name has no line to write; next to a labelled point the reference lines' nearest
        // end points (the y = x line at x = 10) say nothing about the cursor
        if (n == 0 || s.name.empty() || (s.points_only && !s.labels.empty()) || (near_s && !s.points_only)) continue;
        // a flat line (an SLA limit) has one value everywhere: no point to name ("SLA: 50.0 ms at 1" read as if
        // the limit were measured at x = 1)
        if (std::all_of(s.y.begin(), s.y.begin() + (std::ptrdiff_t)n, [&](double v) { return v == s.y[0]; })) {
            ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(color_of(s)), "%s: %s %s", s.name.c_str(),
                               label_of(y, s.y[0]).c_str(), y.unit);
            continue;
        }
        size_t best = 0;
        for (size_t i = 1; i < n; ++i)
            if (std::fabs(f.sx(s.x[i]) - m.x) < std::fabs(f.sx(s.x[best]) - m.x)) best = i;
        f.dl->AddCircle(ImVec2(f.sx(s.x[best]), f.sy(s.y[best])), f.fh * 0.35f, color_of(s), 12, 2.0f);
        ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(color_of(s)), "%s: %s %s at %s", s.name.c_str(),
                           label_of(y, s.y[best]).c_str(), y.unit, label_of(x, s.x[best]).c_str());
    }
    ImGui::EndTooltip();
}

}  // namespace

bool draw_plot(const char* id, ImVec2 size, const PlotAxis& x, const PlotAxis& y, const std::vector<PlotSeries>& series,
               const std::vector<PlotVLine>& vlines) {
    ImGui::PushID(id);
    if (size.x <= 0) size.x = ImGui::GetContentRegionAvail().x;
    const ImVec2 p0 = ImGui::GetCursorScreenPos();
    ImGui::InvisibleButton("plot", size);
    const bool hovered = ImGui::IsItemHovered();
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const ImU32 text = ImGui::GetColorU32(ImGuiCol_Text);
    const ImU32 dim = ImGui::GetColorU32(ImGuiCol_TextDisabled);
    const ImU32 grid = ImGui::GetColorU32(ImGuiCol_Border, 0.5f);
    const float fh = ImGui::GetFontSize();
    // frame: room for y tick labels on the left, x labels below
    const float left = fh * 4.2f, bottom = fh * 2.6f, top = fh * 0.6f, right = fh * 0.8f;
    const ImVec2 a(p0.x + left, p0.y + top), b(p0.x + size.x - right, p0.y + size.y - bottom);
    dl->AddRectFilled(a, b, ImGui::GetColorU32(ImGuiCol_FrameBg, 0.6f), 3.0f);
    const PlotFrame f{dl, p0, size, a, b, fh, x, y};
    draw_axes(f, text, dim, grid);

    dl->PushClipRect(a, b, true);
    const LegendSize legend = legend_size(series, fh);
    // the lines' labels and the legend are drawn over the series on a backing of the window colour: an SLA line
    // or a curve through "SLA max 120" left it hard to read
    const std::vector<LineLabel> line_labels = draw_vlines(f, vlines, legend);
    const ImU32 backing = ImGui::GetColorU32(ImGuiCol_WindowBg, 0.8f);
    draw_series(f, series);
    for (const LineLabel& l : line_labels) {
        dl->AddRectFilled(ImVec2(l.pos.x - 2, l.pos.y), ImVec2(l.pos.x + l.w + 2, l.pos.y + fh), backing, 2.0f);
        dl->AddText(l.pos, l.col, l.text->c_str());
    }
    dl->PopClipRect();
    draw_legend(f, series, legend, text, backing);
    if (hovered) draw_hover(f, series, text, dim);
    ImGui::PopID();
    return hovered;
}
