// Context scaling: KV cache, total memory and decode speed from 1k tokens to the model's maximum context,
// as a plot (with the usable limit and the max-safe-context line) and a table.
#include <imgui.h>

#include <algorithm>

#include "core/format.h"
#include "panels.h"
#include "plot.h"
#include "widgets.h"

namespace {
// phone width: the fit in one short word, coloured as status_badge colours it
const char* status_short(llmsim::FitStatus s) {
    switch (s) {
    case llmsim::FitStatus::Comfortable: return "fits";
    case llmsim::FitStatus::Tight: return "tight";
    case llmsim::FitStatus::TunableUma: return "UMA";
    case llmsim::FitStatus::PartialOffload: return "offload";
    case llmsim::FitStatus::Oom: return "OOM";
    default: return "?";
    }
}
}  // namespace

void draw_context(AppState& app) {
    const Derived& d = app.derived;
    if (d.context.empty()) { ImGui::TextDisabled("No context points (%s)", d.error.c_str()); return; }
    PlotAxis x{"context", "tokens", (double)d.context.front().ctx_tokens, (double)d.context.back().ctx_tokens, true};
    x.format = [](double v) { return llmsim::format_tokens((int64_t)(v + 0.5)); };
    x.pow2_ticks = true;
    PlotSeries kv{"KV cache", {}, {}, ink_u32(Ink::KvCache)}, total{"total", {}, {}, ink_u32(Ink::Weights)};
    PlotSeries usable{"usable limit", {}, {}, ink_u32(Ink::Limit)};
    double ymax = 0;
    const double limit_gib = d.eval.memory.usable_bytes / (double)llmsim::kGiB;
    for (const ContextPoint& p : d.context) {
        kv.x.push_back((double)p.ctx_tokens); kv.y.push_back(p.kv_bytes / (double)llmsim::kGiB);
        total.x.push_back((double)p.ctx_tokens); total.y.push_back(p.total_bytes / (double)llmsim::kGiB);
        ymax = std::max(ymax, p.total_bytes / (double)llmsim::kGiB);
        if (limit_gib > 0) { usable.x.push_back((double)p.ctx_tokens); usable.y.push_back(limit_gib); }
    }
    PlotAxis y{"memory", "GiB", 0, std::max(ymax, limit_gib) * 1.1 + 0.1, false};
    std::vector<PlotVLine> lines;
    if (d.eval.memory.max_context > 0) lines.push_back({(double)d.eval.memory.max_context, "max safe " + llmsim::format_tokens(d.eval.memory.max_context)});
    std::vector<PlotSeries> series = {kv, total};
    if (!usable.x.empty()) series.push_back(usable);
    const bool wide = ImGui::GetContentRegionAvail().x > ImGui::GetFontSize() * 40;
    const float h = ImGui::GetFontSize() * 14;
    if (wide) {
        ImGui::BeginTable("ctxplots", 2);
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
    }
    draw_plot("ctx-memory", ImVec2(-1, h), x, y, series, lines);
    if (wide) ImGui::TableNextColumn();
    PlotSeries dec{"decode at full context", {}, {}, ink_u32(Ink::Good)};
    double dmax = 0;
    for (const ContextPoint& p : d.context)
        if (p.decode_tokens_per_s > 0) { dec.x.push_back((double)p.ctx_tokens); dec.y.push_back(p.decode_tokens_per_s); dmax = std::max(dmax, p.decode_tokens_per_s); }
    if (!dec.x.empty()) draw_plot("ctx-decode", ImVec2(-1, h), x, PlotAxis{"decode", "tok/s", 0, dmax * 1.15, false}, {dec}, lines);
    else ImGui::TextDisabled("No decode speeds: the model does not run on this device.");
    if (wide) ImGui::EndTable();

    ImGuiTableFlags tflags = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_SizingStretchProp;
    // phone: the units move into the headers and the fit into one word, so all five columns fit without scrolling
    const bool phone = phone_width(ImGui::GetContentRegionAvail().x);
    if (ImGui::BeginTable("ctxtable", 5, tflags)) {
        ImGui::TableSetupColumn("Context");
        ImGui::TableSetupColumn(phone ? "KV GiB" : "KV cache");
        ImGui::TableSetupColumn(phone ? "Total GiB" : "Total");
        ImGui::TableSetupColumn(phone ? "tok/s at full" : "Decode at full ctx");   // tg128 at a depth of the row's whole context
        ImGui::TableSetupColumn(phone ? "Fit" : "Status");
        table_header_row(app, "ctxtable", "rrrrl");
        int row = 0;
        for (const ContextPoint& p : d.context) {
            if ((p.ctx_tokens & (p.ctx_tokens - 1)) != 0) continue;   // table: powers of two; the plot has all points
            ImGui::TableNextRow();
            ImGui::TableNextColumn(); text_right(llmsim::format_tokens(p.ctx_tokens).c_str()); note_cell(app, "ctxtable", row, 0);
            std::string kv = llmsim::format_gib((double)p.kv_bytes), total = llmsim::format_gib((double)p.total_bytes);
            if (phone) { kv.resize(kv.size() - 4); total.resize(total.size() - 4); }   // " GiB" is in the header
            const std::string dec = p.decode_tokens_per_s > 0 ? llmsim::format_sig(p.decode_tokens_per_s) + (phone ? "" : " tok/s") : "—";
            ImGui::TableNextColumn(); text_right(kv.c_str()); note_cell(app, "ctxtable", row, 1);
            ImGui::TableNextColumn(); text_right(total.c_str()); note_cell(app, "ctxtable", row, 2);
            ImGui::TableNextColumn(); text_right(dec.c_str());
            note_cell(app, "ctxtable", row, 3);
            ImGui::TableNextColumn();
            if (phone) ImGui::TextColored(status_color(p.status), "%s", status_short(p.status));
            else status_badge(p.status);
            ++row;
        }
        ImGui::EndTable();
    }
}
