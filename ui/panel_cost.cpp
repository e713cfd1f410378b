// Buy vs cloud vs API: monthly cost of each for the chosen usage, payback, and which is cheapest.
#include <imgui.h>

#include <algorithm>

#include "cost.h"
#include "format.h"
#include "panels.h"
#include "widgets.h"

llmsim::CostInputs cost_inputs(const AppState& app) {
    const Derived& d = app.derived;
    llmsim::CostInputs in;
    const Scenario& s = app.scenario;
    // tokens/month split 3:1 input:output, the usual chat/RAG ratio (editable as a total)
    in.input_mtok_per_month = s.mtok_per_month * 0.75;
    in.output_mtok_per_month = s.mtok_per_month * 0.25;
    in.hours_per_month_override = -1;
    if (d.eval.speed.ok) { in.prefill_tokens_per_s = d.eval.speed.prefill_tps; in.decode_tokens_per_s = d.eval.speed.decode_tps; }
    if (d.hardware) {
        const llmsim::Hardware& h = *d.hardware;
        in.hardware_price_usd = h.price_usd > 0 ? h.price_usd : h.price_used_usd;   // rigs: all GPUs together
        in.device_power_w = h.tdp_w * h.gpu_count;
        in.cloud_usd_per_hour = h.cloud_usd_per_hour * h.gpu_count;
    }
    if (s.price_usd >= 0) in.hardware_price_usd = s.price_usd;
    if (s.rent_usd_per_hour >= 0) in.cloud_usd_per_hour = s.rent_usd_per_hour;
    in.amortize_months = s.amortize_months;
    in.kwh_price_usd = s.kwh_price_usd;
    if (d.model) { in.api_in_usd_per_mtok = d.model->api_price_in_usd_per_mtok; in.api_out_usd_per_mtok = d.model->api_price_out_usd_per_mtok; }
    if (s.api_in_usd >= 0) in.api_in_usd_per_mtok = s.api_in_usd;
    if (s.api_out_usd >= 0) in.api_out_usd_per_mtok = s.api_out_usd;
    return in;
}

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
        defaults = cost_inputs(app);
        s = saved;
    }
    auto price_input = [&](const char* label, double& value, double catalog, float step) {
        float v = (float)(value >= 0 ? value : std::max(0.0, catalog));
        if (ImGui::DragFloat(label, &v, step, 0.0f, 1e7f, "%.2f")) { value = v; changed = true; }
        if (value >= 0) { ImGui::SameLine(); ImGui::PushID(label); if (ImGui::SmallButton("reset")) { value = -1; changed = true; } ImGui::PopID(); }
    };
    price_input("hardware price (USD)", s.price_usd, defaults.hardware_price_usd, 10.0f);
    price_input("cloud rent (USD/hour)", s.rent_usd_per_hour, defaults.cloud_usd_per_hour, 0.01f);
    price_input("API input (USD per 1M)", s.api_in_usd, defaults.api_in_usd_per_mtok, 0.01f);
    price_input("API output (USD per 1M)", s.api_out_usd, defaults.api_out_usd_per_mtok, 0.01f);
    ImGui::PopItemWidth();
    if (changed) mark_changed(app);

    const llmsim::CostInputs in = cost_inputs(app);
    llmsim::CostResult r = llmsim::estimate_cost(in);
    if (!r.error.empty()) { ImGui::TextDisabled("%s", r.error.c_str()); return; }
    const char* rec = r.cheapest == "api" ? "USE THE SERVERLESS API" : r.cheapest == "rent" ? "RENT A CLOUD GPU" : "BUY THE HARDWARE";
    ImGui::PushFont(app.font_bold);
    ImGui::TextColored(ImVec4(0.3f, 0.78f, 0.45f, 1), "%s", rec);
    ImGui::PopFont();
    if (ImGui::BeginTable("cost", 3, ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_SizingStretchProp)) {
        ImGui::TableSetupColumn("Option");
        ImGui::TableSetupColumn("per month");
        ImGui::TableSetupColumn("how");
        table_header_row(app, "cost", "lrl");
        ImGui::TableNextRow(); ImGui::TableNextColumn(); ImGui::TextUnformatted("Own hardware");
        ImGui::TableNextColumn(); text_right(("$" + llmsim::format_fixed(r.own_usd_per_month, 2)).c_str());
        if (ImGui::IsItemHovered())
            ImGui::SetTooltip("own = price / months + power x active hours x $/kWh\n= $%s / %d + %s W x %s h x $%s/kWh\nactive hours = %s M input tokens / %s tok/s prefill + %s M output tokens / %s tok/s decode\nprices: catalog (sourced) unless you edited them",
                              llmsim::format_sig(in.hardware_price_usd, 4).c_str(), (int)in.amortize_months, llmsim::format_sig(in.device_power_w).c_str(),
                              llmsim::format_sig(r.active_hours_per_month).c_str(), llmsim::format_fixed(in.kwh_price_usd, 3).c_str(),
                              llmsim::format_sig(in.input_mtok_per_month).c_str(), llmsim::format_sig(in.prefill_tokens_per_s).c_str(),
                              llmsim::format_sig(in.output_mtok_per_month).c_str(), llmsim::format_sig(in.decode_tokens_per_s).c_str());
        ImGui::TableNextColumn(); ImGui::Text("$%s amortised + $%s power (%s h active)", llmsim::format_fixed(r.own_amortization_usd_per_month, 2).c_str(),
                                              llmsim::format_fixed(r.own_power_usd_per_month, 2).c_str(), llmsim::format_sig(r.active_hours_per_month).c_str());
        ImGui::TableNextRow(); ImGui::TableNextColumn(); ImGui::TextUnformatted("Cloud GPU");
        ImGui::TableNextColumn(); text_right(r.rent_usd_per_month >= 0 ? ("$" + llmsim::format_fixed(r.rent_usd_per_month, 2)).c_str() : "—");
        ImGui::TableNextColumn();
        if (in.cloud_usd_per_hour > 0) ImGui::Text("@ $%s/hour x %s h", llmsim::format_fixed(in.cloud_usd_per_hour, 2).c_str(), llmsim::format_sig(r.active_hours_per_month).c_str());
        else ImGui::TextDisabled("not rentable (no sourced price)");
        ImGui::TableNextRow(); ImGui::TableNextColumn(); ImGui::TextUnformatted("Serverless API");
        ImGui::TableNextColumn(); text_right(r.api_usd_per_month >= 0 ? ("$" + llmsim::format_fixed(r.api_usd_per_month, 2)).c_str() : "—");
        if (ImGui::IsItemHovered() && r.api_usd_per_month >= 0)
            ImGui::SetTooltip("api = input M tokens x $/1M in + output M tokens x $/1M out\n= %s x $%s + %s x $%s\nprice: %s",
                              llmsim::format_sig(in.input_mtok_per_month).c_str(), llmsim::format_fixed(in.api_in_usd_per_mtok, 2).c_str(),
                              llmsim::format_sig(in.output_mtok_per_month).c_str(), llmsim::format_fixed(in.api_out_usd_per_mtok, 2).c_str(),
                              app.derived.model && !app.derived.model->api_price_source.empty() ? app.derived.model->api_price_source.c_str() : "entered");
        ImGui::TableNextColumn();
        if (in.api_in_usd_per_mtok >= 0 && in.api_out_usd_per_mtok >= 0)
            ImGui::Text("$%s in / $%s out per 1M tokens", llmsim::format_fixed(in.api_in_usd_per_mtok, 2).c_str(),
                        llmsim::format_fixed(in.api_out_usd_per_mtok, 2).c_str());
        else ImGui::TextDisabled("no API price for this model");
        ImGui::EndTable();
    }
    if (r.payback_months > 0) ImGui::Text("Payback: %s months", llmsim::format_sig(r.payback_months).c_str());
    else ImGui::TextDisabled("Payback: never at this usage (owning's running cost is not below the alternatives)");
}
