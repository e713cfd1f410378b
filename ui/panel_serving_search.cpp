// The cheapest configuration for the Serving section's load within its SLA: the engine's SLA search in slices
// (sla_search_begin / sla_search_step), a results table, and "Use" to make a row the section's configuration.
// [SECTION] space and state
// [SECTION] drawing
// [SECTION] JSON
#include <imgui.h>

#include <algorithm>
#include <chrono>
#include <cmath>

#include <nlohmann/json.hpp>

#include "core/format.h"
#include "panels.h"
#include "widgets.h"
#include "rig/resolve_device.h"

namespace {

// the engines a search may pick: the checkpoint engines (llama-server takes GGUF types, which the search's precisions are not)
std::vector<std::string> search_engines() {
    std::vector<std::string> v;
    for (const llmsim::Engine& e : llmsim::engines())
        if (e.weights == llmsim::WeightFormat::Checkpoint) v.push_back(e.name);
    return v;
}
const char* const kSearchPrecisions[] = {"bf16", "fp8", "nvfp4", "mxfp4", "int4-awq", "int4-gptq", "int8"};
const int kSearchGpuCounts[] = {1, 2, 4, 8, 16};

std::vector<std::string> split_list(const std::string& s) {
    std::vector<std::string> out;
    size_t a = 0;
    while (a <= s.size()) {
        size_t b = s.find(',', a);
        if (b == std::string::npos) b = s.size();
        if (b > a) out.push_back(s.substr(a, b - a));
        a = b + 1;
    }
    return out;
}

std::string join_list(const std::vector<std::string>& v, const char* sep = ",") {
    std::string s;
    for (const std::string& x : v) s += (s.empty() ? "" : sep) + x;
    return s;
}

template <size_t N>
bool in_list(const char* const (&list)[N], const std::string& v) {
    for (const char* x : list) if (v == x) return true;
    return false;
}

// the search's key: the request it runs (model, load, SLA, max-model-len) and the space
std::string search_key(const llmsim::ServeRequest& r, const Scenario& s) {
    return serving_request_json(r) + "|" + s.sv_s_dev + "|" + s.sv_s_eng + "|" + s.sv_s_prec + "|" + s.sv_s_gpus + (s.sv_s_pd ? "|pd" : "");
}

bool search_request(const AppState& app, llmsim::ServeRequest& req, std::string& err) {
    if (!serving_request_from_scenario(app, req, err)) return false;
    if (req.sla.ttft_p90_ms <= 0 && req.sla.tpot_p90_ms <= 0) { err = "set an SLA (TTFT p90 or TPOT p90) above to search"; return false; }
    req.hardware_override = nullptr;   // every candidate names its catalog device
    req.expert_parallel = false;       // TP configurations only: EP is physics-only and LMDeploy has none modelled
    // the section's memory share for whichever engine a candidate runs (each engine reads only its own field), so a
    // picked row gives the section the numbers the table showed
    req.gpu_memory_utilization = req.mem_fraction_static = app.scenario.sv_gmu;
    return true;
}

}  // namespace

// [SECTION] space and state ----------------------------------------------------------------------------------

bool serving_search_space(const AppState& app, llmsim::SlaSearch& space, std::string& err) {
    const Scenario& s = app.scenario;
    space = llmsim::SlaSearch();
    if (s.sv_s_dev != "datacenter" && s.sv_s_dev != "all") { err = "sv_s_dev: datacenter or all (got '" + s.sv_s_dev + "')"; return false; }
    space.datacenter_and_workstation_only = s.sv_s_dev == "datacenter";
    for (const std::string& e : split_list(s.sv_s_eng)) {
        const std::vector<std::string> known = search_engines();
        if (std::find(known.begin(), known.end(), e) == known.end()) {
            err = "sv_s_eng: unknown engine '" + e + "' (" + join_list(known, ", ") + ")";
            return false;
        }
        space.engines.push_back(e);
    }
    for (const std::string& p : split_list(s.sv_s_prec)) {
        if (!in_list(kSearchPrecisions, p)) { err = "sv_s_prec: unknown precision '" + p + "'"; return false; }
        space.precisions.push_back(p);
    }
    for (const std::string& g : split_list(s.sv_s_gpus)) {
        int n = 0;
        for (int c : kSearchGpuCounts) if (g == std::to_string(c)) n = c;
        if (n == 0) { err = "sv_s_gpus: GPU counts are 1, 2, 4, 8 or 16 (got '" + g + "')"; return false; }
        space.gpu_counts.push_back(n);
    }
    if (space.engines.empty()) { err = "pick at least one engine to search"; return false; }
    if (space.precisions.empty()) { err = "pick at least one precision to search"; return false; }
    if (space.gpu_counts.empty()) { err = "pick at least one GPU count to search"; return false; }
    space.limit = kServingSearchRows;
    space.exact_top = 0;   // the table shows each row's margins to the SLA; a bisection per row would double the cost
    if (s.sv_s_pd) {       // the P:D splits of the section's device and GPU count, next to its aggregated forms
        llmsim::ServeRequest r;
        if (!serving_request_from_scenario(app, r, err)) return false;
        if (s.hardware == "custom" || s.gpus != 0) { err = "P:D search: pick a catalog device (one card) in the top bar"; return false; }
        space.disaggregated = true;
        space.only_hardware = s.hardware;
        space.gpu_counts = {std::max(2, r.gpus)};
        space.datacenter_and_workstation_only = false;
        space.limit = 0;   // every split is shown: the answer is the comparison, not only the cheapest few
    }
    return true;
}

void start_serving_search(AppState& app) {
    ServingSearchState& st = app.serving_search;
    llmsim::ServeRequest req;
    llmsim::SlaSearch space;
    st = ServingSearchState();
    if (!search_request(app, req, st.error) || !serving_search_space(app, space, st.error)) return;
    st.key = search_key(req, app.scenario);
    const auto t0 = std::chrono::steady_clock::now();
    llmsim::sla_search_begin(app.catalog, req, space, st.job);   // memory plans only: no simulation
    st.ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    st.running = true;
    request_frames(app);
}

void step_serving_search(AppState& app) {
    ServingSearchState& st = app.serving_search;
    if (!st.running) return;
    const auto t0 = std::chrono::steady_clock::now();
    double spent = 0;
    bool done = false;
    while (!done && spent < kServingSearchSliceMs) {
        done = llmsim::sla_search_step(app.catalog, st.job, 1);
        spent = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    }
    st.ms += spent;
    ++st.frames;
    if (done) { st.running = false; st.has_result = true; }
    request_frames(app);   // the next slice (or the finished table) on the next frame
}

void use_serving_search_row(AppState& app, size_t i) {
    const ServingSearchState& st = app.serving_search;
    if (i >= st.job.points.size()) return;
    const llmsim::SlaPoint& p = st.job.points[i];
    Scenario& s = app.scenario;
    s.hardware = p.hardware;
    s.gpus = 0;                        // the catalog card itself; the Serving section uses p.gpus of it
    s.sv_engine = p.engine; s.sv_precision = p.precision;
    s.sv_gpus = p.gpus; s.sv_tp = p.tp; s.sv_pp = p.pp;
    s.sv_ep = false;                   // the row was searched without expert parallel
    s.sv_pd_p = p.disagg.prefill_gpus; // 0: aggregated
    if (p.disagg.enabled()) { s.sv_pd_d = p.disagg.decode_gpus; s.sv_pd_ptp = p.disagg.prefill_tp; s.sv_pd_dtp = p.disagg.decode_tp; }
    mark_changed(app);
}

// [SECTION] drawing ------------------------------------------------------------------------------------------

namespace {

bool draw_list_checkboxes(const char* id, std::string& value, const std::vector<std::string>& items,
                          const char* (*shown)(const std::string&)) {
    std::vector<std::string> on = split_list(value);
    bool changed = false;
    ImGui::PushID(id);
    for (size_t i = 0; i < items.size(); ++i) {
        bool v = std::find(on.begin(), on.end(), items[i]) != on.end();
        const char* label = shown ? shown(items[i]) : items[i].c_str();
        if (i > 0) same_line_if_fits(ImGui::GetFrameHeight() + ImGui::CalcTextSize(label).x + ImGui::GetStyle().ItemInnerSpacing.x * 2);
        if (ImGui::Checkbox(label, &v)) changed = true;
        if (changed && v && std::find(on.begin(), on.end(), items[i]) == on.end()) on.push_back(items[i]);
        if (!v) on.erase(std::remove(on.begin(), on.end(), items[i]), on.end());
    }
    ImGui::PopID();
    if (changed) {   // keep the canonical order of `items` in the URL
        std::vector<std::string> ordered;
        for (const std::string& it : items) if (std::find(on.begin(), on.end(), it) != on.end()) ordered.push_back(it);
        value = join_list(ordered);
    }
    return changed;
}

void draw_space(AppState& app) {
    Scenario& s = app.scenario;
    bool changed = false;
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted("Devices");
    ImGui::SameLine();
    if (ImGui::RadioButton("datacenter + workstation", s.sv_s_dev == "datacenter")) { s.sv_s_dev = "datacenter"; changed = true; }
    same_line_if_fits(ImGui::CalcTextSize("every NVIDIA / AMD GPU").x + ImGui::GetFrameHeight() * 2);
    if (ImGui::RadioButton("every NVIDIA / AMD GPU", s.sv_s_dev == "all")) { s.sv_s_dev = "all"; changed = true; }
    note_widget(app, "serving-search-devices");
    ImGui::AlignTextToFramePadding(); ImGui::TextUnformatted("Engines"); ImGui::SameLine();
    changed |= draw_list_checkboxes("eng", s.sv_s_eng, search_engines(), serving_engine_name);
    ImGui::AlignTextToFramePadding(); ImGui::TextUnformatted("Precisions"); ImGui::SameLine();
    changed |= draw_list_checkboxes("prec", s.sv_s_prec, {std::begin(kSearchPrecisions), std::end(kSearchPrecisions)}, nullptr);
    std::vector<std::string> counts;
    for (int c : kSearchGpuCounts) counts.push_back(std::to_string(c));
    ImGui::AlignTextToFramePadding(); ImGui::TextUnformatted("GPUs per replica (TP)"); ImGui::SameLine();
    changed |= draw_list_checkboxes("gpus", s.sv_s_gpus, counts, nullptr);
    changed |= ImGui::Checkbox("P:D splits (disaggregated) of this device", &s.sv_s_pd);
    note_widget(app, "serving-search-pd");
    if (changed) mark_changed(app);
}

std::string margin(double value, double target) {   // how far under the target, as a share of it
    if (target <= 0) return "";
    return " (" + llmsim::format_sig((1 - value / target) * 100, 2) + " % under)";
}

// the colour of a search's answer line by what it says (serving.h SearchNote)
Ink search_note_ink(llmsim::SearchNoteKind kind) {
    switch (kind) {
        case llmsim::SearchNoteKind::Because: return Ink::Good;
        case llmsim::SearchNoteKind::Against: return Ink::Warn;
        case llmsim::SearchNoteKind::Aside: break;
    }
    return Ink::Unknown;
}

void draw_search_results(AppState& app) {
    ServingSearchState& st = app.serving_search;
    const llmsim::SlaSearchJob& job = st.job;
    const llmsim::SlaSearchStats& ss = job.stats;
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextDisabled("%d configurations fit in memory; %d simulated at the target load, %d skipped (a single "
                        "sequence's step is over the TPOT target), %d pruned (their cost floor could not beat the "
                        "cheapest %d found); %s ms over %d frame%s.", ss.candidates, ss.simulated, ss.infeasible, ss.pruned,
                        kServingSearchRows, llmsim::format_sig(st.ms).c_str(), st.frames, st.frames == 1 ? "" : "s");
    ImGui::PopTextWrapPos();
    note_widget(app, "serving-search-stats");
    if (!job.notes.empty()) {   // a P:D search: where disaggregation wins (serving.h disagg_verdicts)
        ImGui::PushTextWrapPos(0.0f);
        for (const llmsim::SearchNote& n : job.notes) ImGui::TextColored(ink_vec4(search_note_ink(n.kind)), "%s", n.text.c_str());
        ImGui::PopTextWrapPos();
        note_widget(app, "serving-search-verdict");
    }
    if (job.points.empty()) { ImGui::TextColored(ImVec4(1, 0.55f, 0.35f, 1), "No configuration of this space meets the SLA at this load."); return; }
    const double ttft_t = job.req.sla.ttft_p90_ms, tpot_t = job.req.sla.tpot_p90_ms;
    const ImGuiTableFlags f = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_ScrollX;
    // sideways scroll when narrow (eleven columns); a scrolling table needs its height: the header + every row
    const ImGuiStyle& style = ImGui::GetStyle();
    const float row_h = ImGui::GetFrameHeight() + 2 * style.CellPadding.y;
    const ImVec2 outer(0, row_h * (float)(job.points.size() + 1) + style.ScrollbarSize + 2);
    if (!ImGui::BeginTable("serving-search", 11, f, outer)) return;
    for (const char* h : {"#", "device", "GPUs", "engine", "precision", "out tok/s", "TTFT p90 ms", "TPOT p90 ms", "$/1M out own",
                          "$/1M out rent", "Wh/1M out"})
        ImGui::TableSetupColumn(h);
    table_header_row(app, "serving-search", "llllrrrrrrr");
    auto usd = [](double v) { return v >= 0 ? "$" + llmsim::format_fixed(v, 3) : std::string("—"); };
    for (size_t i = 0; i < job.points.size(); ++i) {
        const llmsim::SlaPoint& p = job.points[i];
        const llmsim::Hardware* h = llmsim::resolve_device(app.catalog, p.hardware);
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        ImGui::PushID((int)i);
        if (ImGui::SmallButton(("Use " + std::to_string(i + 1)).c_str())) use_serving_search_row(app, i);
        ImGui::PopID();
        if (i < 4) note_widget(app, ("serving-search-use-" + std::to_string(i)).c_str());
        ImGui::TableNextColumn(); ImGui::TextUnformatted(h ? h->name.c_str() : p.hardware.c_str());
        ImGui::TableNextColumn();
        if (p.disagg.enabled())
            ImGui::Text("%d = %dP (TP %d) : %dD (TP %d)", p.gpus, p.disagg.prefill_gpus, p.disagg.prefill_tp, p.disagg.decode_gpus, p.disagg.decode_tp);
        else
            ImGui::Text("%d (TP %d%s)", p.gpus, p.tp, p.pp > 1 ? (", PP " + std::to_string(p.pp)).c_str() : "");
        ImGui::TableNextColumn(); ImGui::TextUnformatted(serving_engine_name(p.engine));
        ImGui::TableNextColumn(); ImGui::TextUnformatted(p.precision.c_str());
        ImGui::TableNextColumn(); text_right(llmsim::format_sig(p.output_tok_s).c_str());
        ImGui::TableNextColumn(); text_right((llmsim::format_sig(p.ttft_p90_ms) + margin(p.ttft_p90_ms, ttft_t)).c_str());
        ImGui::TableNextColumn(); text_right((llmsim::format_sig(p.tpot_p90_ms) + margin(p.tpot_p90_ms, tpot_t)).c_str());
        ImGui::TableNextColumn(); text_right(usd(p.usd_per_mtok_own).c_str());
        ImGui::TableNextColumn(); text_right(usd(p.usd_per_mtok_rent).c_str());
        ImGui::TableNextColumn(); text_right(llmsim::format_sig(p.wh_per_mtok).c_str());
    }
    ImGui::EndTable();
    note_widget(app, "serving-search-table");
    ImGui::TextDisabled("Ranked by rent where the device is rentable, else own (amortised price + power at 730 busy hours a month).");
}

}  // namespace

void draw_serving_search(AppState& app) {
    ServingSearchState& st = app.serving_search;
    ImGui::PushFont(app.font_bold); ImGui::TextUnformatted("Cheapest configuration for this load"); ImGui::PopFont();
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextDisabled("The load and SLA above (%s) over catalog devices x GPU counts x engines x precisions; "
                        "simulated only when you press the button, a slice per frame.%s", serving_load_words(app).c_str(),
                        app.serving.request.expert_parallel ? " Searched with tensor parallel only (no expert parallel)." : "");
    ImGui::PopTextWrapPos();
    draw_space(app);
    llmsim::ServeRequest req;
    std::string err;
    const bool have = search_request(app, req, err);
    const bool stale = st.has_result && have && search_key(req, app.scenario) != st.key;
    if (!st.running) {
        if (ImGui::Button("Find the cheapest configuration")) start_serving_search(app);
    } else {
        if (ImGui::Button("Stop")) { st.running = false; st.has_result = false; }
        ImGui::SameLine();
        ImGui::Text("simulating %zu of %d candidates ...", std::min(st.job.next + 1, st.job.candidates.size()), st.job.stats.candidates);
    }
    note_widget(app, "serving-search-run");
    step_serving_search(app);
    if (!st.error.empty()) {
        ImGui::PushTextWrapPos(0.0f);
        ImGui::TextColored(ImVec4(1, 0.55f, 0.35f, 1), "%s", st.error.c_str());
        ImGui::PopTextWrapPos();
        note_widget(app, "serving-search-error");
    }
    if (stale) ImGui::TextColored(ImVec4(1, 0.75f, 0.3f, 1), "The inputs changed since this search: press the button to search again.");
    if (st.has_result) draw_search_results(app);
}

// [SECTION] JSON ---------------------------------------------------------------------------------------------

std::string serving_search_to_json(const AppState& app) {
    const ServingSearchState& st = app.serving_search;
    nlohmann::json j = {{"running", st.running}, {"done", st.has_result}, {"error", st.error}, {"ms", st.ms}, {"frames", st.frames},
                        {"candidates", st.job.stats.candidates}, {"simulated", st.job.stats.simulated}, {"pruned", st.job.stats.pruned},
                        {"infeasible", st.job.stats.infeasible}};
    if (!st.key.empty()) j["request"] = nlohmann::json::parse(serving_request_json(st.job.req));
    nlohmann::json pts = nlohmann::json::array();
    for (const llmsim::SlaPoint& p : st.job.points) pts.push_back(nlohmann::json::parse(llmsim::sla_point_json(p)));
    j["points"] = st.has_result ? pts : nlohmann::json::array();
    if (st.has_result && !st.job.notes.empty()) {
        nlohmann::json notes = nlohmann::json::array();
        for (const llmsim::SearchNote& n : st.job.notes) notes.push_back(n.text);
        j["notes"] = notes;
    }
    return j.dump();
}
