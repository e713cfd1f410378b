// Accuracy: how the speed model compares with measurements — predicted vs measured for every calibration row
// (log-log, by hardware class, the ±25 % corridor), the held-out error per class stored with the fit (the harder
// of leave-one-device/source/class-out), its band and that band's coverage, and the seed formula on the same rows;
// then the serving engines held out by source (panel_accuracy_serving.cpp).
#include <imgui.h>

#include <algorithm>
#include <cmath>

#include "evidence/evidence.h"
#include "core/format.h"
#include "panels.h"
#include "plot.h"
#include "runtime/speed_glue.h"
#include "widgets.h"
#include "core/stats.h"

namespace {
const Ink kClassInks[] = {Ink::Weights, Ink::KvCache, Ink::Compute, Ink::Good, Ink::Hard, Ink::Overhead};
}  // namespace

void add_parity_references(std::vector<PlotSeries>& series, double& lo, double& hi) {
    lo = std::pow(10.0, std::floor(std::log10(lo)));
    hi = std::pow(10.0, std::ceil(std::log10(hi)));
    PlotSeries ideal{"predicted = measured", {lo, hi}, {lo, hi}};
    PlotSeries up{"±25 %", {lo, hi}, {lo * 1.25, hi * 1.25}};
    PlotSeries down{"", {lo, hi}, {lo * 0.75, hi * 0.75}};
    series.insert(series.begin(), {ideal, up, down});
    static_assert(kParityReferences == 3, "the reference lines above");
    color_parity_references(series);
}

void color_parity_references(std::vector<PlotSeries>& series) {
    if (series.size() < kParityReferences) return;
    series[0].color = ink_u32(Ink::Reference);
    series[1].color = series[2].color = ink_u32(Ink::Reference, kReferenceBandAlpha);
}

void draw_parity_series(const char* id, const std::vector<PlotSeries>& series, double lo, double hi,
                        std::function<std::string(double)> format) {
    PlotAxis xa{"measured", "tok/s", lo, hi, true}, ya{"predicted", "tok/s", lo, hi, true};
    xa.format = ya.format = std::move(format);
    draw_plot(id, ImVec2(-1, ImGui::GetFontSize() * 18), xa, ya, series);
}

void draw_parity_plot(const char* id, std::vector<PlotSeries> series, double lo, double hi,
                      std::function<std::string(double)> format) {
    add_parity_references(series, lo, hi);
    draw_parity_series(id, series, lo, hi, std::move(format));
}

void draw_accuracy(AppState& app) {
    // the web page fetches the measured rows and the serving report after its first frame (app.evidence_deferred)
    if (app.evidence_deferred) { ImGui::TextDisabled("Measured rows: %s", evidence_wait_text(app).c_str()); return; }
    if (app.accuracy.rows.empty()) app.accuracy.rows = llmsim::all_evidence();   // once: 879 estimates
    const auto& rows = app.accuracy.rows;
    if (rows.empty()) { ImGui::TextDisabled("No measured rows in this build."); return; }
    static const char* kinds[] = {"decode", "prefill"};
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 8);
    ImGui::Combo("##acckind", &app.accuracy.kind, kinds, 2);
    text_disabled_after("every measured llama.cpp row (assets/calibration/llamacpp_speed*.jsonl) vs the fitted model");
    const llmsim::SpeedTest want = app.accuracy.kind == 0 ? llmsim::SpeedTest::Decode : llmsim::SpeedTest::Prefill;
    std::vector<PlotSeries> series;
    double lo = 1e30, hi = 0;
    for (int k = 0; k < 5; ++k) {
        PlotSeries s{llmsim::to_string((llmsim::HardwareKind)k), {}, {}, ink_u32(kClassInks[k]), true};
        for (const llmsim::EvidenceRow& e : rows) {
            if (e.row->scenario.test != want || (int)e.row->kind != k || e.predicted <= 0) continue;
            s.x.push_back(e.row->measured_tokens_per_s);
            s.y.push_back(e.predicted);
            lo = std::min({lo, e.row->measured_tokens_per_s, e.predicted});
            hi = std::max({hi, e.row->measured_tokens_per_s, e.predicted});
        }
        if (!s.x.empty()) series.push_back(s);
    }
    if (hi <= 0) return;
    draw_parity_plot("accuracy", std::move(series), lo, hi);

    // per class: the held-out numbers stored with the fit (a publication and its devices held out, today's builds),
    // the band they set and its cross-validated coverage, and the seed formula on the same rows
    const llmsim::SpeedParams& p = llmsim::default_speed_params();
    ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_SizingStretchProp;
    ImVec2 outer(0, 0);
    if (ImGui::GetContentRegionAvail().x < ImGui::GetFontSize() * 36) {   // phone: whole columns, sideways scroll
        flags = (flags & ~ImGuiTableFlags_SizingStretchProp) | ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_ScrollX;
        outer = ImVec2(0, ImGui::GetFrameHeight() * 7.5f);
    }
    if (ImGui::BeginTable("acc", 7, flags, outer)) {
        ImGui::TableSetupColumn("class");
        ImGui::TableSetupColumn("rows");
        ImGui::TableSetupColumn("held-out MdAPE");
        ImGui::TableSetupColumn("within ±25 %");
        ImGui::TableSetupColumn("band");
        ImGui::TableSetupColumn("band coverage");
        ImGui::TableSetupColumn("seed formula: MdAPE");
        table_header_row(app, "acc", "lrrrrrr");
        for (int k = 0; k < 5; ++k) {
            const llmsim::SpeedBand& b = p.band[app.accuracy.kind][k];
            std::vector<double> seed_err;
            for (const llmsim::EvidenceRow& e : rows)
                if (e.row->scenario.test == want && (int)e.row->kind == k && e.seed > 0)
                    seed_err.push_back(std::fabs(e.seed / e.row->measured_tokens_per_s - 1));
            if (b.rows == 0 && seed_err.empty()) continue;
            ImGui::TableNextRow();
            ImGui::TableNextColumn(); ImGui::TextUnformatted(llmsim::to_string((llmsim::HardwareKind)k));
            ImGui::TableNextColumn(); text_right(std::to_string(b.rows).c_str());
            ImGui::TableNextColumn(); text_right((llmsim::format_sig(b.mdape * 100) + " %").c_str());
            if (!b.from.empty() && ImGui::IsItemHovered()) ImGui::SetTooltip("from %s", b.from.c_str());
            ImGui::TableNextColumn(); text_right((llmsim::format_sig(b.within25 * 100) + " %").c_str());
            ImGui::TableNextColumn();
            text_right((llmsim::format_sig(b.low * 100) + " … +" + llmsim::format_sig(b.high * 100) + " %").c_str());
            ImGui::TableNextColumn(); text_right(b.coverage > 0 ? (llmsim::format_sig(b.coverage * 100) + " %").c_str() : "—");
            ImGui::TableNextColumn(); text_right(seed_err.empty() ? "—" : (llmsim::format_sig(llmsim::median(seed_err) * 100) + " %").c_str());
        }
        ImGui::EndTable();
    }
    const llmsim::SpeedBand& rb = p.recent_builds[app.accuracy.kind];
    if (rb.rows > 0)
        ImGui::TextWrapped("All 2025–26 llama.cpp builds with only their publication held out (%d rows, every class; "
                           "their devices may be in the fit): %s %% MdAPE, %s %% within ±25 %%, band coverage %s %% — "
                           "an easier split than the table's, which holds the devices out too.", rb.rows, llmsim::format_sig(rb.mdape * 100).c_str(),
                           llmsim::format_sig(rb.within25 * 100).c_str(), llmsim::format_sig(rb.coverage * 100).c_str());
    ImGui::TextWrapped("Held out four ways, each refit without what it predicts: one device, one whole publication "
                       "(source), one hardware class, and a publication with every device it measured (the case of a "
                       "new publication on hardware new to the data). The table is that last split for today's "
                       "llama.cpp builds (b6700+, from 2025-10): its 5th…95th percentile error, each publication weighted "
                       "1/√rows, is the low…high band every estimate carries (older builds: 10th…90th of their own "
                       "rows); band coverage is the share of rows inside a band fitted without their publication "
                       "(cross-validated; target 70–90 %%). "
                       "A device without a published FP16 figure gets a wider band, measured by re-predicting rows with "
                       "the figure replaced by its chip family's estimate. llmsim-cli accuracy prints the full report; "
                       "the plot shows the shipped fit on every row (2024 and 2025–26 llama.cpp builds).");
    draw_accuracy_serving(app);   // panel_accuracy_serving.cpp
}
