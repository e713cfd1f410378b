// Buy vs cloud vs API: monthly cost of each for the chosen usage, payback, and which is cheapest.
#include <imgui.h>

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
    in.amortize_months = s.amortize_months;
    in.kwh_price_usd = s.kwh_price_usd;
    if (d.model) { in.api_in_usd_per_mtok = d.model->api_price_in_usd_per_mtok; in.api_out_usd_per_mtok = d.model->api_price_out_usd_per_mtok; }
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
    ImGui::PopItemWidth();
    if (changed) mark_changed(app);

    llmsim::CostResult r = llmsim::estimate_cost(cost_inputs(app));
    if (!r.error.empty()) { ImGui::TextDisabled("%s", r.error.c_str()); return; }
    const char* rec = r.cheapest == "api" ? "USE THE SERVERLESS API" : r.cheapest == "rent" ? "RENT A CLOUD GPU" : "BUY THE HARDWARE";
    ImGui::PushFont(app.font_bold);
    ImGui::TextColored(ImVec4(0.3f, 0.78f, 0.45f, 1), "%s", rec);
    ImGui::PopFont();
    if (ImGui::BeginTable("cost", 3, ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_SizingStretchProp)) {
        ImGui::TableSetupColumn("Option");
        ImGui::TableSetupColumn("per month");
        ImGui::TableSetupColumn("how");
        ImGui::TableHeadersRow();
        const llmsim::Hardware* h = app.derived.hardware;
        ImGui::TableNextRow(); ImGui::TableNextColumn(); ImGui::TextUnformatted("Own hardware");
        ImGui::TableNextColumn(); text_right(("$" + llmsim::format_fixed(r.own_usd_per_month, 2)).c_str());
        ImGui::TableNextColumn(); ImGui::Text("$%s amortised + $%s power (%s h active)", llmsim::format_fixed(r.own_amortization_usd_per_month, 2).c_str(),
                                              llmsim::format_fixed(r.own_power_usd_per_month, 2).c_str(), llmsim::format_sig(r.active_hours_per_month).c_str());
        ImGui::TableNextRow(); ImGui::TableNextColumn(); ImGui::TextUnformatted("Cloud GPU");
        ImGui::TableNextColumn(); text_right(r.rent_usd_per_month >= 0 ? ("$" + llmsim::format_fixed(r.rent_usd_per_month, 2)).c_str() : "—");
        ImGui::TableNextColumn();
        if (h && h->cloud_usd_per_hour > 0) ImGui::Text("@ $%s/hour x %s h", llmsim::format_fixed(h->cloud_usd_per_hour * h->gpu_count, 2).c_str(), llmsim::format_sig(r.active_hours_per_month).c_str());
        else ImGui::TextDisabled("not rentable (no sourced price)");
        ImGui::TableNextRow(); ImGui::TableNextColumn(); ImGui::TextUnformatted("Serverless API");
        ImGui::TableNextColumn(); text_right(r.api_usd_per_month >= 0 ? ("$" + llmsim::format_fixed(r.api_usd_per_month, 2)).c_str() : "—");
        ImGui::TableNextColumn();
        if (app.derived.model && app.derived.model->api_price_in_usd_per_mtok >= 0)
            ImGui::Text("$%s in / $%s out per 1M tokens", llmsim::format_fixed(app.derived.model->api_price_in_usd_per_mtok, 2).c_str(),
                        llmsim::format_fixed(app.derived.model->api_price_out_usd_per_mtok, 2).c_str());
        else ImGui::TextDisabled("no API price for this model");
        ImGui::EndTable();
    }
    if (r.payback_months > 0) ImGui::Text("Payback: %s months", llmsim::format_sig(r.payback_months).c_str());
    else ImGui::TextDisabled("Payback: never at this usage (owning's running cost is not below the alternatives)");
}
