// Model facts: params, dense/MoE, attention, layers x hidden, context, license, API price.
#include <imgui.h>

#include "a11y.h"
#include "core/format.h"
#include "panels.h"
#include "widgets.h"

void draw_model_header(AppState& app) {
    if (!app.hub_status.empty()) {   // the last Hugging Face lookup: progress, what was read, or what went wrong
        if (app.hub_busy || app.hub_ok) ImGui::TextWrapped("Hugging Face: %s", app.hub_status.c_str());
        else {
            ImGui::PushStyleColor(ImGuiCol_Text, ink_vec4(Ink::Bad));
            ImGui::TextWrapped("Hugging Face: %s", app.hub_status.c_str());
            ImGui::PopStyleColor();
        }
        note_widget(app, "hub-status");
        if (app.hub_busy && app.hub_cancel) {
            ImGui::SameLine();
            if (ImGui::SmallButton("Cancel##hub")) app.hub_cancel();
            note_widget(app, "hub-cancel");
        }
    }
    const llmsim::Model* m = app.catalog.find_model(app.scenario.model);
    if (!m) {
        ImGui::TextWrapped("Unknown model '%s'. Pick one above or import a config.json.", app.scenario.model.c_str());
        return;
    }
    ImGui::PushFont(app.font_bold);
    ImGui::TextUnformatted(m->name.c_str());
    ImGui::PopFont();
    ImGui::TextDisabled("%s · %s · HF: %s", m->family.c_str(), m->license.empty() ? "licence not stated" : m->license.c_str(),
                        m->id.c_str());
    const std::string page = model_page_path(app);   // the static, printable page of this model (llmsim-cli site)
    if (app.open_model_page && !page.empty()) {
        if (ImGui::SmallButton("Model page")) app.open_model_page(page);
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s: the seed-format page of this model (tables, FAQ; printable)", page.c_str());
    }
    const llmsim::ParamCounts& pc = app.derived.params;
    if (m->is_moe())
        ImGui::Text("Parameters: %sB total, %sB active per token (MoE)", llmsim::format_sig(pc.total / 1e9).c_str(),
                    llmsim::format_sig(pc.active / 1e9).c_str());
    else
        ImGui::Text("Parameters: %sB (dense)", llmsim::format_sig(pc.total / 1e9).c_str());
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("computed from the architecture (every GGUF tensor); published: %s",
                          m->published_params_b > 0 ? (llmsim::format_sig(m->published_params_b) + "B").c_str() : "none");
    std::string attn = m->mla ? "MLA" : (m->n_kv_heads == 1 ? "MQA" : m->n_kv_heads == m->n_heads ? "MHA" : "GQA");
    ImGui::Text("Attention: %s (%d KV / %d Q heads)%s", attn.c_str(), m->n_kv_heads, m->n_heads, m->swa ? " + sliding window" : "");
    ImGui::Text("Layers x hidden: %d x %lld", m->n_layers, (long long)m->hidden_size);
    ImGui::Text("Native context: %s tokens%s", llmsim::format_tokens(m->native_context).c_str(),
                m->extended_context > 0 ? (" (" + llmsim::format_tokens(m->extended_context) + " with " + m->rope_scaling + ")").c_str() : "");
    if (m->is_moe())
        ImGui::Text("MoE: %d experts, %d active per token", m->moe->n_experts, m->moe->n_experts_active);
    else
        ImGui::TextUnformatted("Dense (no experts)");
    if (m->api_price_in_usd_per_mtok >= 0)
        ImGui::Text("Serverless API: $%s in / $%s out per 1M tokens", llmsim::format_fixed(m->api_price_in_usd_per_mtok, 2).c_str(),
                    llmsim::format_fixed(m->api_price_out_usd_per_mtok, 2).c_str());
}
