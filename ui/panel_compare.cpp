// Compare 2–4 setups (model × hardware × quant) side by side; the best value of each row is highlighted.
// The setups live in the URL (compare=model~hardware~quant,...), so a comparison is shareable like everything else.
#include <imgui.h>

#include <functional>
#include <limits>

#include "core/format.h"
#include "panels.h"
#include "sim/speed_labels.h"
#include "widgets.h"

namespace {

struct RowSpec {
    const char* label;
    const char* tip;
    std::function<double(const CompareColumn&)> value;   // NaN = not available
    std::function<std::string(const CompareColumn&)> text;
    bool higher_is_better;
};

double nan() { return std::numeric_limits<double>::quiet_NaN(); }
bool runs(const CompareColumn& c) { return c.error.empty() && c.eval.speed.ok; }
double price(const CompareColumn& c) {
    if (!c.hardware) return nan();
    double p = c.hardware->price_usd > 0 ? c.hardware->price_usd : c.hardware->price_used_usd;
    return p > 0 ? p : nan();
}

}  // namespace

void draw_compare(AppState& app) {
    auto setups = parse_compare(app.scenario.compare);
    const Derived& d = app.derived;
    if (ImGui::Button("Add the current setup")) {
        if (setups.size() < 4) {
            setups.push_back({app.scenario.model, app.scenario.hardware, app.scenario.quant});
            app.scenario.compare = format_compare(setups);
            mark_changed(app);
        }
    }
    note_widget(app, "compare-add");
    text_disabled_after((std::to_string(setups.size()) + " of 4 setups · right-click a leaderboard row to add a device").c_str());
    if (d.compare.empty()) {
        ImGui::TextWrapped("Nothing to compare yet: add the current setup, change the model, device or quant, and add again.");
        return;
    }
    const std::vector<RowSpec> rows = {
        {"Status", "fit status on that device", [](const CompareColumn& c) { return c.error.empty() ? -(double)(int)c.eval.memory.status : nan(); },
         [](const CompareColumn& c) { return std::string(llmsim::to_string(c.eval.memory.status)); }, true},
        {"Total / Limit", "GPU-side memory needed / usable, GiB", [](const CompareColumn& c) {
             return c.error.empty() && c.eval.memory.usable_bytes ? (double)c.eval.memory.usable_bytes - (double)llmsim::limit_side_bytes(c.eval.memory) : nan(); },
         [](const CompareColumn& c) { return llmsim::format_fixed(llmsim::limit_side_bytes(c.eval.memory) / (double)llmsim::kGiB, 1) + " / " +
                                             llmsim::format_fixed(c.eval.memory.usable_bytes / (double)llmsim::kGiB, 1) + " GiB"; }, true},
        {"Weights", "weights in GiB", [](const CompareColumn& c) { return c.error.empty() ? -(double)c.eval.memory.weights_bytes : nan(); },
         [](const CompareColumn& c) { return llmsim::format_gib((double)c.eval.memory.weights_bytes); }, true},
        {"KV cache", "KV cache in GiB", [](const CompareColumn& c) { return c.error.empty() ? -(double)c.eval.memory.kv_cache_bytes : nan(); },
         [](const CompareColumn& c) { return llmsim::format_gib((double)c.eval.memory.kv_cache_bytes); }, true},
        {"Decode", "tok/s at batch 1, tg128 at an empty context \u2192 at the full chosen context (best = the higher full-context number)",
         [](const CompareColumn& c) { return runs(c) ? c.eval.speed.decode_full_tps : nan(); },
         [](const CompareColumn& c) { return runs(c) ? llmsim::format_sig(c.eval.speed.decode_empty_tps) + " \u2192 " +
                                                           llmsim::format_sig(c.eval.speed.decode_full_tps) + " tok/s" : std::string("—"); }, true},
        {"Prefill", "prompt tok/s (the prompt length and flash attention are named above the table)", [](const CompareColumn& c) { return runs(c) ? c.eval.speed.prefill_tps : nan(); },
         [](const CompareColumn& c) { return runs(c) ? llmsim::format_sig(c.eval.speed.prefill_tps) + " tok/s" : std::string("—"); }, true},
        {"TTFT", "seconds to the first token of the prompt", [](const CompareColumn& c) { return runs(c) ? -c.eval.speed.ttft_s : nan(); },
         [](const CompareColumn& c) { return runs(c) ? llmsim::format_sig(c.eval.speed.ttft_s) + " s" : std::string("—"); }, true},
        {"Max context", "largest context that fits", [](const CompareColumn& c) { return c.error.empty() ? (double)c.eval.memory.max_context : nan(); },
         [](const CompareColumn& c) { return c.eval.memory.max_context > 0 ? llmsim::format_tokens(c.eval.memory.max_context) : std::string("OOM"); }, true},
        {"Price", "purchase price (new, else used), USD", [](const CompareColumn& c) { double p = price(c); return p == p ? -p : nan(); },
         [](const CompareColumn& c) { double p = price(c); return p == p ? "$" + llmsim::format_fixed(p, 0) : std::string("—"); }, true},   // "$750", not "$750.0"
        {"$ per tok/s", "price / decode tok/s", [](const CompareColumn& c) { double p = price(c); return p == p && runs(c) ? -p / c.eval.speed.decode_tps : nan(); },
         [](const CompareColumn& c) { double p = price(c); return p == p && runs(c) ? "$" + llmsim::format_sig(p / c.eval.speed.decode_tps) : std::string("—"); }, true},
    };
    for (const CompareColumn& c : d.compare)   // the conditions every speed row is for (the same for all setups)
        if (runs(c)) {
            llmsim::SpeedView conditions = c.eval.speed;
            conditions.calibrated.clear();
            ImGui::PushTextWrapPos(0.0f);
            ImGui::TextDisabled("Speeds: %s", llmsim::speed_conditions(conditions).c_str());
            ImGui::PopTextWrapPos();
            break;
        }
    const int ncol = (int)d.compare.size() + 1;
    ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_SizingStretchProp;
    if (ImGui::GetContentRegionAvail().x < ImGui::GetFontSize() * 12 * ncol)
        flags = (flags & ~ImGuiTableFlags_SizingStretchProp) | ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_ScrollX;
    if (!ImGui::BeginTable("compare", ncol, flags, ImVec2(0, (flags & ImGuiTableFlags_ScrollX) ? ImGui::GetFrameHeight() * (rows.size() + 4) : 0))) return;
    ImGui::TableSetupColumn("", ImGuiTableColumnFlags_WidthFixed, ImGui::GetFontSize() * 7);
    for (size_t i = 0; i < d.compare.size(); ++i) ImGui::TableSetupColumn(("##c" + std::to_string(i)).c_str());
    // header: each setup with a remove button
    ImGui::TableNextRow(ImGuiTableRowFlags_Headers);
    ImGui::TableNextColumn();
    int remove = -1;
    for (size_t i = 0; i < d.compare.size(); ++i) {
        const CompareColumn& c = d.compare[i];
        ImGui::TableNextColumn();
        ImGui::PushID((int)i);
        ImGui::TextWrapped("%s", c.hardware ? c.hardware->name.c_str() : c.hardware_id.c_str());
        ImGui::TextDisabled("%s · %s", c.model ? c.model->name.c_str() : c.model_id.c_str(), c.quant.c_str());
        if (ImGui::SmallButton("remove")) remove = (int)i;
        ImGui::SameLine();
        if (ImGui::SmallButton("simulate")) {
            app.scenario.model = c.model_id; app.scenario.hardware = c.hardware_id; app.scenario.quant = c.quant;
            app.scenario.section = "simulator"; app.scroll_to_section = true;
            mark_changed(app);
        }
        ImGui::PopID();
    }
    for (const RowSpec& r : rows) {
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(r.label);
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", r.tip);
        // the best column of this row (when the values differ)
        int best = -1;
        double best_v = 0, worst_v = 0;
        for (size_t i = 0; i < d.compare.size(); ++i) {
            double v = r.value(d.compare[i]);
            if (v != v) continue;
            if (best < 0 || v > best_v) { best = (int)i; best_v = v; }
            if (best < 0 || v < worst_v || i == 0) worst_v = v;
        }
        for (size_t i = 0; i < d.compare.size(); ++i) {
            ImGui::TableNextColumn();
            const CompareColumn& c = d.compare[i];
            if (!c.error.empty()) { ImGui::TextDisabled("%s", i == 0 || &r == &rows[0] ? c.error.c_str() : "—"); continue; }
            std::string t = r.text(c);
            bool highlight = (int)i == best && best_v != worst_v && d.compare.size() > 1;
            if (highlight) ImGui::TextColored(status_color(llmsim::FitStatus::Comfortable), "%s (best)", t.c_str());   // the UI font has no ★ (it drew "?")
            else if (&r == &rows[0]) ImGui::TextColored(status_color(c.eval.memory.status), "%s", t.c_str());
            else ImGui::TextUnformatted(t.c_str());
        }
    }
    ImGui::EndTable();
    if (remove >= 0) {
        setups.erase(setups.begin() + remove);
        app.scenario.compare = format_compare(setups);
        mark_changed(app);
    }
}
