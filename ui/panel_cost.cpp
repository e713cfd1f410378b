// Buy vs cloud vs API: monthly cost of each for the chosen usage, payback, and which is cheapest; one stream
// (llama.cpp, the page's scenario) and, beside it, the same box batching many users under the Serving section's
// engine (panel_serving.h), so $/token and payback reflect what a serving box does.
#include <imgui.h>

#include <algorithm>

#include "serving/cost.h"
#include "core/format.h"
#include "panels.h"
#include "widgets.h"

namespace {

std::string usd_or_dash(double v, int decimals) { return v >= 0 ? "$" + llmsim::format_fixed(v, decimals) : std::string("—"); }

// single stream next to batched: $/1M output tokens (the serving engine's ServeCost at 730 busy hours) and this
// page's monthly cost and payback with the box's batched throughput
void draw_batched_cost(AppState& app, const llmsim::CostResult& single) {
    update_serving(app);
    const ServingState& st = app.serving;
    ImGui::Spacing();
    ImGui::PushFont(app.font_bold);
    ImGui::TextUnformatted("Single stream vs batched (many users at once)");
    ImGui::PopFont();
    llmsim::CostInputs bin;
    if (!cost_inputs_at_served_load(app, bin)) {
        ImGui::PushTextWrapPos(0.0f);
        ImGui::TextDisabled("No batched figures: %s (see the Serving section).",
                            !st.error.empty() ? st.error.c_str() : !st.cost_result.error.empty() ? st.cost_result.error.c_str() : "no serving result");
        ImGui::PopTextWrapPos();
        return;
    }
    const llmsim::CostResult b = llmsim::estimate_cost(bin);
    const llmsim::ServeCost& c = st.cost_result.cost;
    const llmsim::ServeRequest& q = st.cost_request;
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextDisabled("Batched load: %s, %d %s, %s, %lld in / %lld out tokens per request (this section's 3:1 mix); prices for %d GPU%s; per 1M tokens: own = amortised price + power, rent = cloud rate, both at 730 busy hours a month.",
                        serving_engine_name(q.engine), q.gpus, q.gpus == 1 ? "GPU" : "GPUs",
                        q.workload.request_rate > 0 ? (llmsim::format_sig(q.workload.request_rate) + " requests/s").c_str()
                                                    : (std::to_string(q.workload.concurrency) + " requests in flight").c_str(),
                        (long long)q.workload.input_len, (long long)q.workload.output_len, q.gpus, q.gpus == 1 ? "" : "s");
    ImGui::PopTextWrapPos();
    note_widget(app, "cost-batched-load");
    auto row = [&](const char* name, const std::string& a, const std::string& bb) {
        ImGui::TableNextRow();
        ImGui::TableNextColumn(); ImGui::TextUnformatted(name);
        ImGui::TableNextColumn(); text_right(a.c_str());
        ImGui::TableNextColumn(); text_right(bb.c_str());
    };
    const ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_SizingFixedFit;
    // per 1M output tokens: both columns from the serving engine (one request at a time vs the load)
    if (ImGui::BeginTable("cost-mtok", 3, flags)) {
        ImGui::TableSetupColumn("per 1M out tokens");
        ImGui::TableSetupColumn("single stream");
        ImGui::TableSetupColumn("batched");
        table_header_row(app, "cost-mtok", "lrr");
        row("output tok/s", llmsim::format_sig(c.single_stream_tok_s), llmsim::format_sig(st.cost_result.load.output_tok_s));
        row("own", usd_or_dash(c.usd_per_mtok_own_single, 3), usd_or_dash(c.usd_per_mtok_own_batched, 3));
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("amortised catalog price + power at 730 busy hours a month / output tokens in those hours");
        note_widget(app, "cost-mtok-own-batched");
        row("rent", usd_or_dash(c.usd_per_mtok_rent_single, 3), usd_or_dash(c.usd_per_mtok_rent_batched, 3));
        row("energy (Wh)", llmsim::format_sig(c.wh_per_mtok_single), llmsim::format_sig(c.wh_per_mtok_batched));
        ImGui::EndTable();
    }
    // this page's usage per month: the one-stream figures above next to the same usage at the batched rate
    if (ImGui::BeginTable("cost-month", 3, flags)) {
        ImGui::TableSetupColumn("per month");
        ImGui::TableSetupColumn("one stream");
        ImGui::TableSetupColumn("batched");
        table_header_row(app, "cost-month", "lrr");
        row("own hardware", usd_or_dash(single.own_usd_per_month, 2), usd_or_dash(b.own_usd_per_month, 2));
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", llmsim::explain_cost(bin, b).c_str());
        row("cloud GPU", usd_or_dash(single.rent_usd_per_month, 2), usd_or_dash(b.rent_usd_per_month, 2));
        row("serverless API", usd_or_dash(single.api_usd_per_month, 2), usd_or_dash(b.api_usd_per_month, 2));
        row("devices needed", std::to_string(single.devices_needed), std::to_string(b.devices_needed));
        row("payback (months)", single.payback_months > 0 ? llmsim::format_sig(single.payback_months) : "never",
            b.payback_months > 0 ? llmsim::format_sig(b.payback_months) : "never");
        note_widget(app, "cost-batched-payback");
        ImGui::EndTable();
    }
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextDisabled("One stream: llama.cpp %s, one request at a time (the table above). Batched: the month's tokens at %s tok/s "
                        "(in + out) under %s; cheapest: %s.", app.scenario.quant.c_str(),
                        llmsim::format_sig(st.cost_result.load.total_tok_s).c_str(), serving_engine_name(q.engine),
                        b.cheapest == "api" ? "the serverless API" : b.cheapest == "rent" ? "a cloud GPU" : "owning the hardware");
    ImGui::PopTextWrapPos();
}

}  // namespace

void draw_cost(AppState& app) {
    Scenario& s = app.scenario;
    bool changed = false;
    ImGui::PushItemWidth(ImGui::GetFontSize() * 9);
    float mtok = (float)s.mtok_per_month, kwh = (float)s.kwh_price_usd;
    if (ImGui::DragFloat("million tokens / month (3:1 in:out)", &mtok, 0.5f, 0.0f, 100000.0f, "%.1f")) { s.mtok_per_month = mtok; changed = true; }
    if (ImGui::DragFloat("USD per kWh", &kwh, 0.005f, 0.0f, 2.0f, "%.3f")) { s.kwh_price_usd = kwh; changed = true; }
    changed |= ImGui::SliderInt("months to amortise", &s.amortize_months, 6, 72);
    // prices: the catalog's sourced defaults, each editable (reset with the button)
    llmsim::CostInputs defaults;
    {
        Scenario saved = s;
        s.price_usd = s.rent_usd_per_hour = s.api_in_usd = s.api_out_usd = -1;
        defaults = cost_inputs_from_scenario(app);
        s = saved;
    }
    auto price_input = [&](const char* label, double& value, double catalog, float step) {
        float v = (float)(value >= 0 ? value : std::max(0.0, catalog));
        if (ImGui::DragFloat(label, &v, step, 0.0f, 1e7f, "%.2f")) { value = v; changed = true; }
        if (value >= 0) { ImGui::SameLine(); ImGui::PushID(label); if (ImGui::SmallButton("reset")) { value = -1; changed = true; } ImGui::PopID(); }
    };
    price_input("hardware price (USD)", s.price_usd, defaults.hardware_price_usd, 10.0f);
    price_input("cloud rent (USD/hour)", s.rent_usd_per_hour, defaults.cloud_usd_per_hour, 0.01f);
    price_input("API input (USD per 1M)", s.api_in_usd, defaults.api_in_usd_per_mtok.value_or(-1), 0.01f);
    price_input("API output (USD per 1M)", s.api_out_usd, defaults.api_out_usd_per_mtok.value_or(-1), 0.01f);
    ImGui::PopItemWidth();
    if (changed) mark_changed(app);

    const llmsim::CostInputs in = cost_inputs_from_scenario(app);
    llmsim::CostResult r = llmsim::estimate_cost(in);
    if (!r.error.empty()) { ImGui::TextDisabled("%s", r.error.c_str()); return; }
    const char* rec = r.cheapest == "api" ? "USE THE SERVERLESS API" : r.cheapest == "rent" ? "RENT A CLOUD GPU" : "BUY THE HARDWARE";
    ImGui::PushFont(app.font_bold);
    ImGui::TextColored(ink_vec4(Ink::Good), "%s", rec);
    ImGui::PopFont();
    // capacity: a month has 730 hours; a bigger load is priced on the devices it takes (cost.h)
    const bool many = r.devices_needed > 1;
    const std::string n = std::to_string(r.devices_needed);
    auto explanation = [&] { return llmsim::explain_cost(in, r); };   // built only while hovered
    const std::string capacity = r.capacity_mtok_per_month >= 0 ? llmsim::format_sig(r.capacity_mtok_per_month) + " M tokens/month" : "unknown";
    if (many) {
        ImGui::PushStyleColor(ImGuiCol_Text, ink_vec4(Ink::Warn));
        ImGui::TextWrapped("This load needs %s h a month; one device has 730 h (capacity %s): %s. Priced for %s devices, %s h active each.",
                           llmsim::format_sig(r.hours_needed_per_month).c_str(), capacity.c_str(), llmsim::capacity_note(r).c_str(), n.c_str(),
                           llmsim::format_sig(r.active_hours_per_month).c_str());
        ImGui::PopStyleColor();
    } else {
        ImGui::TextWrapped("%s h active of 730 a month (utilisation %s %%); capacity %s", llmsim::format_sig(r.active_hours_per_month).c_str(),
                    llmsim::format_sig(r.utilisation * 100).c_str(), capacity.c_str());
    }
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", explanation().c_str());
    ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_SizingStretchProp;
    ImVec2 outer(0, 0);
    if (ImGui::GetContentRegionAvail().x < ImGui::GetFontSize() * 34) {   // phone: whole columns, sideways scroll
        flags = (flags & ~ImGuiTableFlags_SizingStretchProp) | ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_ScrollX;
        outer = ImVec2(0, (ImGui::GetTextLineHeight() + 2 * ImGui::GetStyle().CellPadding.y) * 4.5f + ImGui::GetStyle().ScrollbarSize);   // header + 3 rows
    }
    if (ImGui::BeginTable("cost", 3, flags, outer)) {
        ImGui::TableSetupColumn("Option");
        ImGui::TableSetupColumn("per month");
        ImGui::TableSetupColumn("how");
        table_header_row(app, "cost", "lrl");
        ImGui::TableNextRow(); ImGui::TableNextColumn(); ImGui::TextUnformatted(many ? (n + " x own hardware").c_str() : "Own hardware");
        ImGui::TableNextColumn(); text_right(("$" + llmsim::format_fixed(r.own_usd_per_month, 2)).c_str());
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s\nprices: catalog (sourced) unless you edited them", explanation().c_str());
        ImGui::TableNextColumn(); ImGui::Text("$%s amortised + $%s power (%s h active%s)", llmsim::format_fixed(r.own_amortization_usd_per_month, 2).c_str(),
                                              llmsim::format_fixed(r.own_power_usd_per_month, 2).c_str(), llmsim::format_sig(r.active_hours_per_month).c_str(),
                                              many ? " each" : "");
        ImGui::TableNextRow(); ImGui::TableNextColumn(); ImGui::TextUnformatted(many ? (n + " x cloud GPU").c_str() : "Cloud GPU");
        ImGui::TableNextColumn(); text_right(r.rent_usd_per_month >= 0 ? ("$" + llmsim::format_fixed(r.rent_usd_per_month, 2)).c_str() : "—");
        if (ImGui::IsItemHovered() && r.rent_usd_per_month >= 0) ImGui::SetTooltip("%s", explanation().c_str());
        ImGui::TableNextColumn();
        if (in.cloud_usd_per_hour > 0) ImGui::Text("@ $%s/hour x %s%s h", llmsim::format_fixed(in.cloud_usd_per_hour, 2).c_str(),
                                                   many ? (n + " x ").c_str() : "", llmsim::format_sig(r.active_hours_per_month).c_str());
        else ImGui::TextDisabled("not rentable (no sourced price)");
        ImGui::TableNextRow(); ImGui::TableNextColumn(); ImGui::TextUnformatted("Serverless API");
        ImGui::TableNextColumn(); text_right(r.api_usd_per_month >= 0 ? ("$" + llmsim::format_fixed(r.api_usd_per_month, 2)).c_str() : "—");
        if (ImGui::IsItemHovered() && r.api_usd_per_month >= 0)
            ImGui::SetTooltip("api = input M tokens x $/1M in + output M tokens x $/1M out\n= %s x $%s + %s x $%s\nprice: %s",
                              llmsim::format_sig(in.input_mtok_per_month).c_str(), llmsim::format_fixed(in.api_in_usd_per_mtok.value_or(0), 2).c_str(),
                              llmsim::format_sig(in.output_mtok_per_month).c_str(), llmsim::format_fixed(in.api_out_usd_per_mtok.value_or(0), 2).c_str(),
                              app.derived.model && !app.derived.model->api_price_source.empty() ? app.derived.model->api_price_source.c_str() : "entered");
        ImGui::TableNextColumn();
        if (in.api_in_usd_per_mtok && in.api_out_usd_per_mtok)
            ImGui::Text("$%s in / $%s out per 1M tokens", llmsim::format_fixed(*in.api_in_usd_per_mtok, 2).c_str(),
                        llmsim::format_fixed(*in.api_out_usd_per_mtok, 2).c_str());
        else ImGui::TextDisabled("no API price for this model");
        ImGui::EndTable();
    }
    if (r.payback_months > 0) ImGui::Text("Payback%s: %s months", many ? (" of " + n + " devices").c_str() : "", llmsim::format_sig(r.payback_months).c_str());
    else ImGui::TextDisabled("Payback: never at this usage (owning's running cost is not below the alternatives)");
    draw_batched_cost(app, r);
}
