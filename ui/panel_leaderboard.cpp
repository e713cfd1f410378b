// Hardware leaderboard: every catalog device for the scenario's model, quant and context. Sortable by any
// column, filterable by kind and search; click a row to simulate that device.
#include <imgui.h>
#include <imgui_stdlib.h>

#include <algorithm>

#include "sim/explain.h"
#include "core/format.h"
#include "panels.h"
#include "sim/speed_labels.h"
#include "widgets.h"

namespace {

const char* kKinds[] = {"All kinds", "Consumer GPU", "Workstation GPU", "Datacenter GPU", "Apple", "APU", "CPU"};

bool row_visible(const AppState& app, const DeviceRow& r) {
    const llmsim::Hardware& h = *r.hardware;
    if (app.leaderboard.kind_filter > 0 && (int)h.kind != app.leaderboard.kind_filter - 1) return false;
    if (app.leaderboard.fits_only && (r.eval.memory.status == llmsim::FitStatus::Oom || !r.error.empty())) return false;
    return matches_query(h.name + " " + h.id + " " + h.vendor + " " +
                         std::to_string((long long)(h.memory_bytes * (int64_t)h.gpu_count / 1000000000)) + "gb", app.hardware_search);
}

int status_rank(llmsim::FitStatus s) {
    switch (s) {
    case llmsim::FitStatus::Comfortable: return 0;
    case llmsim::FitStatus::Tight: return 1;
    case llmsim::FitStatus::TunableUma: return 2;
    case llmsim::FitStatus::PartialOffload: return 3;
    case llmsim::FitStatus::Oom: return 4;
    default: return 5;
    }
}

double decode_of(const DeviceRow& r) {
    bool runs = r.eval.memory.status != llmsim::FitStatus::Oom && r.eval.speed.ok;
    return runs ? r.eval.speed.decode_tps : -1;
}

// the decode column's header: the range a user lives through, named by its depths (speed_labels.h words)
std::string decode_header(const AppState& app) {
    const int64_t full = app.scenario.ctx_tokens / std::max(1, app.scenario.parallel);   // per sequence, as the engine
    return "Decode tok/s, empty → " + llmsim::context_words(full);
}

// "151 → 104": tg128 at an empty context → at the full chosen context
std::string decode_range_cell(const llmsim::SpeedView& v) {
    return llmsim::format_sig(v.decode_empty_tps) + " → " + llmsim::format_sig(v.decode_full_tps);
}

// hovering a number of a row explains it: the engine re-evaluates that one device with explanations (µs)
void explain_row_tooltip(const AppState& app, const DeviceRow& r, const char* key) {
    if (!ImGui::IsItemHovered() || !app.derived.model) return;
    llmsim::SimRequest req = request_from_scenario(app);
    req.memory.hardware = r.hardware;
    req.memory.n_gpu_layers = llmsim::kAllGpuLayers;
    req.memory.n_cpu_moe = 0;
    req.with_explain = true;
    llmsim::Evaluation ev;
    std::string err;
    if (!llmsim::evaluate(app.catalog, *app.derived.model, req, ev, err)) return;
    for (const llmsim::Explanation& e : llmsim::explain(app.catalog, *app.derived.model, req, ev)) {
        if (e.key != key) continue;
        ImGui::BeginTooltip();
        ImGui::PushTextWrapPos(ImGui::GetFontSize() * 34.0f);
        ImGui::Text("%s on %s = %s", e.key.c_str(), r.hardware->name.c_str(), e.value.c_str());
        ImGui::Separator();
        ImGui::TextUnformatted(e.text.c_str());
        for (const std::string& in : e.inputs) ImGui::BulletText("%s", in.c_str());
        ImGui::PopTextWrapPos();
        ImGui::EndTooltip();
    }
}

// the visible rows in display order: filter, then sort by the chosen column. Rebuilt only when the table's sort
// specs are dirty or an input changed (the derived rows, the search, the filters), never every frame
void update_order(AppState& app, ImGuiTableSortSpecs* ss) {
    LeaderboardState& lb = app.leaderboard;
    const Derived& d = app.derived;
    const bool inputs_changed = lb.order_version != d.version || lb.order_search != app.hardware_search ||
                                lb.order_kind_filter != lb.kind_filter || lb.order_fits_only != lb.fits_only;
    if (!inputs_changed && !(ss && ss->SpecsDirty)) return;
    lb.order_version = d.version;
    lb.order_search = app.hardware_search;
    lb.order_kind_filter = lb.kind_filter;
    lb.order_fits_only = lb.fits_only;
    lb.order.clear();
    for (int i = 0; i < (int)d.devices.size(); ++i)
        if (row_visible(app, d.devices[i])) lb.order.push_back(i);
    if (!ss) return;
    ss->SpecsDirty = false;
    if (ss->SpecsCount <= 0) return;
    const ImGuiTableColumnSortSpecs& sp = ss->Specs[0];
    auto key = [&](const DeviceRow& r) -> double {
        switch (sp.ColumnIndex) {
        case 1: return status_rank(r.eval.memory.status);
        case 2: return (double)llmsim::limit_side_bytes(r.eval.memory) / std::max<double>(1, (double)r.eval.memory.usable_bytes);
        case 3: return decode_of(r) > 0 ? r.eval.speed.decode_full_tps : -1;
        case 4: return decode_of(r) > 0 ? r.eval.speed.ttft_s : 1e30;
        case 5: return (double)r.eval.memory.max_context;
        case 6: return r.usd_per_decode_tps > 0 && decode_of(r) > 0 ? r.usd_per_decode_tps : 1e30;
        default: return 0;
        }
    };
    std::stable_sort(lb.order.begin(), lb.order.end(), [&](int a, int b) {
        if (sp.ColumnIndex == 0) {
            int c = d.devices[a].hardware->name.compare(d.devices[b].hardware->name);
            return sp.SortDirection == ImGuiSortDirection_Ascending ? c < 0 : c > 0;
        }
        double ka = key(d.devices[a]), kb = key(d.devices[b]);
        return sp.SortDirection == ImGuiSortDirection_Ascending ? ka < kb : ka > kb;
    });
}

// the row's menu: right-click on the row, or (phone width, no right-click on a touch screen) the row's "…" button
void row_menu_popup(AppState& app, const DeviceRow& r) {
    if (!ImGui::BeginPopup("row-menu")) return;
    if (ImGui::MenuItem("Add to compare")) {
        auto setups = parse_compare(app.scenario.compare);
        if (setups.size() < 4) {
            setups.push_back({app.scenario.model, r.hardware->id, app.scenario.quant});
            app.scenario.compare = format_compare(setups);
            mark_changed(app);
        }
    }
    note_widget(app, "leaderboard-menu-compare");
    if (ImGui::MenuItem("Simulate")) {
        app.scenario.hardware = r.hardware->id;
        mark_changed(app);
    }
    ImGui::EndPopup();
}

// phone width: the name wrapped, its fit, then memory / TTFT / max context / price stacked in the Hardware cell
// (those columns are hidden) and a "…" button for the row menu. Returns true when the row was clicked.
bool phone_hardware_cell(AppState& app, const DeviceRow& r, const std::string& label, bool selected) {
    const llmsim::MemoryBreakdown& mb = r.eval.memory;
    std::string details = r.error;
    if (r.error.empty()) {
        const bool runs = decode_of(r) > 0;
        details = llmsim::format_fixed(llmsim::limit_side_bytes(mb) / (double)llmsim::kGiB, 1) + " / " +
                  llmsim::format_fixed(mb.usable_bytes / (double)llmsim::kGiB, 1) + " GiB";
        if (runs) details += " · TTFT " + llmsim::format_sig(r.eval.speed.ttft_s) + " s";
        details += " · max ctx " + (mb.max_context > 0 ? llmsim::format_tokens(mb.max_context) : std::string("OOM"));
        if (runs && r.usd_per_decode_tps > 0) details += " · $" + llmsim::format_sig(r.usd_per_decode_tps) + " per tok/s";
    }
    return stacked_row_cell(app, "leaderboard-row-" + r.hardware->id, label, r.error.empty() ? &mb.status : nullptr, details, selected,
                            "leaderboard-menu-" + r.hardware->id);
}

}  // namespace

std::string leaderboard_text(const AppState& app, bool csv) {
    const int64_t full = app.scenario.ctx_tokens / std::max(1, app.scenario.parallel);
    std::string out = csv ? "hardware,status,total_gib,limit_gib,decode_tps,decode_low,decode_high,ttft_s,max_context,decode_empty_tps,"
                            "decode_full_tps,decode_full_depth\n"
                          : "| Hardware | Status | Total / Limit | " + decode_header(app) + " | TTFT (" +
                                llmsim::format_tokens(app.scenario.prompt_tokens) + " prompt) | Max safe ctx |\n|---|---|---|---|---|---|\n";
    for (int i : app.leaderboard.order) {
        const DeviceRow& r = app.derived.devices[i];
        const auto& mb = r.eval.memory;
        std::string dec = decode_of(r) > 0 ? llmsim::format_sig(r.eval.speed.decode_tps) : "";
        std::string ttft = decode_of(r) > 0 ? llmsim::format_sig(r.eval.speed.ttft_s) : "";
        std::string ctx = mb.max_context > 0 ? llmsim::format_tokens(mb.max_context) : "";
        if (csv)
            out += "\"" + r.hardware->name + "\"," + llmsim::to_string(mb.status) + "," + llmsim::format_fixed(llmsim::limit_side_bytes(mb) / (double)llmsim::kGiB, 2) + "," +
                   llmsim::format_fixed(mb.usable_bytes / (double)llmsim::kGiB, 2) + "," + dec + "," +
                   (dec.empty() ? "" : llmsim::format_sig(r.eval.speed.decode_low)) + "," + (dec.empty() ? "" : llmsim::format_sig(r.eval.speed.decode_high)) + "," +
                   ttft + "," + std::to_string(mb.max_context) + "," +
                   (dec.empty() ? "," : llmsim::format_sig(r.eval.speed.decode_empty_tps) + "," + llmsim::format_sig(r.eval.speed.decode_full_tps)) +
                   "," + std::to_string(full) + "\n";
        else
            out += "| " + r.hardware->name + " | " + llmsim::to_string(mb.status) + " | " + llmsim::format_fixed(llmsim::limit_side_bytes(mb) / (double)llmsim::kGiB, 1) + " / " +
                   llmsim::format_fixed(mb.usable_bytes / (double)llmsim::kGiB, 1) + " GiB | " + (dec.empty() ? "—" : decode_range_cell(r.eval.speed)) + " | " +
                   (ttft.empty() ? "—" : ttft + " s") + " | " + (ctx.empty() ? "—" : ctx) + " |\n";
    }
    return out;
}

void draw_leaderboard(AppState& app) {
    const Derived& d = app.derived;
    if (!d.model) return;
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 14);
    ImGui::InputTextWithHint("##hwsearch", "search: 4090, m4, 24gb, amd …", &app.hardware_search);
    same_line_if_fits(ImGui::GetFontSize() * 10);   // phone width: the filters go on the next line, not off-screen
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 10);
    ImGui::Combo("##kind", &app.leaderboard.kind_filter, kKinds, IM_ARRAYSIZE(kKinds));
    same_line_if_fits(ImGui::CalcTextSize("Runs only").x + ImGui::GetFrameHeight() + ImGui::GetStyle().ItemInnerSpacing.x);
    ImGui::Checkbox("Runs only", &app.leaderboard.fits_only);
    text_disabled_after((app.scenario.quant + " @ " + llmsim::format_tokens(app.scenario.ctx_tokens) + " context, TTFT for " +
                         llmsim::format_tokens(app.scenario.prompt_tokens) + " tokens").c_str());
    if (d.eval_ok && d.eval.speed.ok) {   // every row's conditions (a profile calibrates one device only: not named here)
        llmsim::SpeedView conditions = d.eval.speed;
        conditions.calibrated.clear();
        text_disabled_after(llmsim::speed_conditions(conditions).c_str());
    }

    ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_SizingStretchProp |
                            ImGuiTableFlags_Sortable | ImGuiTableFlags_ScrollY | ImGuiTableFlags_Hideable;
    const float height = app.scenario.embed.empty() ? ImGui::GetTextLineHeightWithSpacing() * 18 : 0;
    // phone (under 34 em): two columns, the rest stacked in the Hardware cell; tablet (under 50 em): whole columns,
    // sideways scroll
    const bool phone = phone_width(ImGui::GetContentRegionAvail().x);
    const bool narrow = !phone && ImGui::GetContentRegionAvail().x < ImGui::GetFontSize() * 50;
    if (narrow)
        flags = (flags & ~ImGuiTableFlags_SizingStretchProp) | ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_ScrollX;
    if (ImGui::BeginTable("leaderboard", 7, flags, ImVec2(0, height))) {
        ImGui::TableSetupScrollFreeze(1, 1);
        if (narrow) ImGui::TableSetupColumn("Hardware", ImGuiTableColumnFlags_WidthFixed, ImGui::GetFontSize() * 13);
        else ImGui::TableSetupColumn("Hardware", ImGuiTableColumnFlags_WidthStretch, 3.0f);
        // phone width: explicit widths in em (right-aligned cells cannot auto-fit a column)
        const float em = ImGui::GetFontSize();
        const ImGuiTableColumnFlags fixed = narrow ? ImGuiTableColumnFlags_WidthFixed : 0;
        const ImGuiTableColumnFlags stacked = phone ? ImGuiTableColumnFlags_Disabled : 0;   // shown in the Hardware cell
        ImGui::TableSetupColumn("Status", fixed | stacked, narrow ? em * 9.5f : 1.3f);
        ImGui::TableSetupColumn("Total / Limit", fixed | stacked, narrow ? em * 8.5f : 1.5f);
        const std::string dec_head = phone ? std::string("Decode tok/s") : decode_header(app);
        ImGui::TableSetupColumn(dec_head.c_str(), (phone ? ImGuiTableColumnFlags_WidthFixed : fixed) | ImGuiTableColumnFlags_DefaultSort |
                                ImGuiTableColumnFlags_PreferSortDescending,
                                narrow || phone ? ImGui::CalcTextSize(dec_head.c_str()).x + em * 1.5f : 2.6f);
        ImGui::TableSetupColumn("TTFT", fixed | stacked, narrow ? em * 4.5f : 0.9f);
        ImGui::TableSetupColumn("Max ctx", fixed | stacked, narrow ? em * 4.5f : 0.9f);
        ImGui::TableSetupColumn("$ per tok/s", fixed | stacked, narrow ? em * 5 : 1.0f);
        const char* tips[] = {"device (rigs: GPU count x card); click a row to simulate it",
                              "COMFORTABLE ≤ 90 % of usable; TIGHT ≤ 100 %; TUNABLE_UMA fits under the raised unified-memory limit; PARTIAL_OFFLOAD only with layers on the CPU; OOM does not fit",
                              "memory needed / usable memory, GiB (usable = reported minus driver/OS reserve, or the unified-memory GPU limit)",
                              "decode tokens/s (tg128) at batch 1: at an empty context \u2192 at the full chosen context (the range a chat lives through); sorted by the full-context number. Hover a number for the work",
                              "time to first token for the prompt length, seconds",
                              "largest context (multiple of 256) that still fits",
                              "purchase price (new, else used) divided by decode tok/s"};
        table_header_row(app, "leaderboard", "llrrrrr", tips);

        update_order(app, ImGui::TableGetSortSpecs());
        for (int i : app.leaderboard.order) {
            const DeviceRow& r = d.devices[i];
            const llmsim::MemoryBreakdown& mb = r.eval.memory;
            ImGui::TableNextRow();
            ImGui::TableNextColumn();
            ImGui::PushID(r.hardware->id.c_str());
            // a device profile in use marks its row (short, the column is narrow); "calibrated on your N rows ..." on hover
            const std::string label = r.eval.speed.calibrated.empty() ? r.hardware->name : r.hardware->name + " (calibrated)";
            const bool selected = r.hardware->id == app.scenario.hardware;
            bool clicked = false;
            if (phone) clicked = phone_hardware_cell(app, r, label, selected);
            else {
                clicked = ImGui::Selectable(label.c_str(), selected, ImGuiSelectableFlags_SpanAllColumns);
                note_widget(app, ("leaderboard-row-" + r.hardware->id).c_str());
                if (!r.eval.speed.calibrated.empty() && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", r.eval.speed.calibrated.c_str());
                ImGui::OpenPopupOnItemClick("row-menu", ImGuiPopupFlags_MouseButtonRight);
            }
            if (clicked) {
                app.scenario.hardware = r.hardware->id;
                app.scenario.section = "simulator";
                app.scroll_to_section = true;
                mark_changed(app);
            }
            row_menu_popup(app, r);
            ImGui::PopID();
            ImGui::TableNextColumn();
            if (!r.error.empty()) { ImGui::TextDisabled("—"); if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", r.error.c_str()); continue; }
            status_badge(mb.status);
            ImGui::TableNextColumn();
            text_right((llmsim::format_fixed(llmsim::limit_side_bytes(mb) / (double)llmsim::kGiB, 1) + " / " + llmsim::format_fixed(mb.usable_bytes / (double)llmsim::kGiB, 1) + " GiB").c_str());
            explain_row_tooltip(app, r, "usable");
            ImGui::TableNextColumn();
            if (decode_of(r) > 0) text_right(decode_range_cell(r.eval.speed).c_str());
            else text_right(mb.status == llmsim::FitStatus::Oom ? "OOM" : "—");
            explain_row_tooltip(app, r, "decode");
            ImGui::TableNextColumn();
            text_right(decode_of(r) > 0 ? (llmsim::format_sig(r.eval.speed.ttft_s) + " s").c_str() : "—");
            explain_row_tooltip(app, r, "ttft");
            ImGui::TableNextColumn();
            text_right(mb.max_context > 0 ? llmsim::format_tokens(mb.max_context).c_str() : "OOM");
            explain_row_tooltip(app, r, "max_context");
            ImGui::TableNextColumn();
            text_right(r.usd_per_decode_tps > 0 && decode_of(r) > 0 ? ("$" + llmsim::format_sig(r.usd_per_decode_tps)).c_str() : "—");
        }
        ImGui::EndTable();
    }
    // the exports are built on click, not every frame
    copy_button(app, "Copy as Markdown##lb", [&] { return leaderboard_text(app, false); });
    ImGui::SameLine();
    copy_button(app, "Copy as CSV##lb", [&] { return leaderboard_text(app, true); });
}
