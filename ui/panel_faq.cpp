// FAQ: the seed page's questions, answered from the same numbers the other sections show (generated, not
// written per model).
#include <imgui.h>

#include <algorithm>

#include "sim/cost.h"
#include "derived.h"
#include "core/format.h"
#include "panels.h"
#include "sim/recommend.h"
#include "speed/speed_labels.h"
#include "widgets.h"

namespace {
void qa(AppState& app, const std::string& q, const std::string& a) {
    ImGui::PushFont(app.font_bold);
    ImGui::TextWrapped("%s", q.c_str());
    ImGui::PopFont();
    ImGui::TextWrapped("%s", a.c_str());
    ImGui::Spacing();
}
// what the load costs a month on the scenario's device, by the cost section's rule: a month has 730 hours, and a
// load that needs more is priced on as many devices as it takes
void cost_answer(AppState& app) {
    const Derived& d = app.derived;
    if (!d.hardware) return;
    const llmsim::CostInputs in = cost_inputs_from_scenario(app);
    const llmsim::CostResult r = llmsim::estimate_cost(in);
    const std::string q = "What does it cost to serve " + llmsim::format_sig(app.scenario.mtok_per_month) + " M tokens a month of " +
                          d.model->name + " on " + d.hardware->name + "?";
    if (!r.error.empty()) { qa(app, q, "Unknown: " + r.error + "."); return; }
    const std::string n = std::to_string(r.devices_needed);
    std::string a = "At one stream (3:1 input:output) the load needs " + llmsim::format_sig(r.hours_needed_per_month) +
                    " h of device time a month; one device has 730 h";
    if (r.capacity_mtok_per_month >= 0) a += " and serves about " + llmsim::format_sig(r.capacity_mtok_per_month) + " M tokens a month";
    a += r.devices_needed > 1 ? ", so it " + llmsim::capacity_note(r) + ". Owning " + n + " costs $"
                              : " (" + llmsim::format_sig(r.utilisation * 100) + " % used). Owning it costs $";
    a += llmsim::format_fixed(r.own_usd_per_month, 2) + "/month (amortised over " + std::to_string(app.scenario.amortize_months) +
         " months, plus power for " + llmsim::format_sig(r.active_hours_per_month) + " active hours" + (r.devices_needed > 1 ? " each" : "") + ")";
    a += r.rent_usd_per_month >= 0 ? ", renting " + std::string(r.devices_needed > 1 ? "them" : "it") + " $" + llmsim::format_fixed(r.rent_usd_per_month, 2)
                                   : ", it is not rentable (no sourced price)";
    a += r.api_usd_per_month >= 0 ? ", a serverless API $" + llmsim::format_fixed(r.api_usd_per_month, 2) + "." : "; no API price is known.";
    qa(app, q, a + " The Buy vs cloud vs API section shows the work.");
}
}  // namespace

void draw_faq(AppState& app) {
    const Derived& d = app.derived;
    if (!d.model || !d.eval_ok) return;
    const llmsim::Model& m = *d.model;
    const Scenario& s = app.scenario;
    const auto& mb = d.eval.memory;
    qa(app, "How much VRAM does " + m.name + " require in " + s.quant + "?",
       m.name + " weights take " + llmsim::format_gib((double)mb.weights_bytes) + " in " + s.quant + " (" +
           llmsim::format_fixed(mb.bits_per_weight, 2) + " bits per weight). With a " + llmsim::format_tokens(s.ctx_tokens) + " " + s.kv_type +
           " KV cache (" + llmsim::format_gib((double)mb.kv_cache_bytes) + "), compute buffers and runtime overhead, the total is " +
           llmsim::format_gib((double)mb.total_bytes) + " (" + llmsim::format_gb((double)mb.total_bytes) + ").");

    // cheapest hardware that runs it usably: the recommender's first answer at the usable floor (recommend.h:
    // decode >= 10 tok/s at the full context, first token of a 4k prompt within 10 s), catalog devices and
    // multi-GPU combinations; the answer states the floor
    const llmsim::RecommendResult& rr = d.cheapest_usable;
    const llmsim::Candidate* cheapest = nullptr;
    for (const llmsim::Candidate& c : rr.accepted)
        if (c.price_usd > 0) { cheapest = &c; break; }
    const std::string floor = "at least " + llmsim::format_sig(llmsim::kUsableMinDecodeTps) + " tok/s " +
                              llmsim::decode_label(s.ctx_tokens) + " and the first token of a " +
                              llmsim::format_tokens(llmsim::kUsablePromptTokens) + " prompt within " +
                              llmsim::format_sig(llmsim::kUsableMaxTtftS) + " s";
    const std::string q_cheap = "What is the cheapest hardware that runs " + m.name + "?";
    if (cheapest) {
        const llmsim::SpeedView& sp = cheapest->eval.speed;
        std::string speed = sp.ok ? ": " + llmsim::decode_range_text(sp) + ", first token in " + llmsim::format_sig(sp.ttft_s) + " s (" +
                                        llmsim::prefill_label(sp.prompt_tokens, sp.flash_attn) + ")" : "";
        qa(app, q_cheap,
           cheapest->hardware.name + " (about $" + llmsim::format_fixed(cheapest->price_usd, 0) + ") runs " + m.name + " " + s.quant + " with a " +
               llmsim::format_tokens(s.ctx_tokens) + " context (" + llmsim::to_string(cheapest->eval.memory.status) + ") usably, meaning " +
               floor + speed + ". The Recommended hardware section ranks the rest by price; its floor is editable there.");
    } else {
        qa(app, q_cheap,
           "No catalog device or multi-GPU combination with a known price runs " + m.name + " " + s.quant + " at " +
               llmsim::format_tokens(s.ctx_tokens) + " context usably (" + floor + "); try a smaller quant or context, or lower the "
               "floor in the Recommended hardware section.");
    }

    cost_answer(app);

    std::string attn = m.mla ? "multi-head latent attention (MLA), caching a " + std::to_string(m.mla->kv_lora_rank + m.mla->qk_rope_head_dim) +
                                   "-value latent per token per layer"
                             : (m.n_kv_heads < m.n_heads ? "GQA with " : "full multi-head attention with ") + std::to_string(m.n_kv_heads) +
                                   " KV heads of " + std::to_string(m.head_dim) + " dims";
    std::string swa = m.swa ? "; sliding-window layers cache at most " + std::to_string(m.swa->window) + " tokens (+ a ubatch)" : "";
    std::string kv_at;
    for (const ContextPoint& p : d.context)
        if (p.ctx_tokens == 8192 || p.ctx_tokens == 32768 || p.ctx_tokens == 131072)
            kv_at += (kv_at.empty() ? "" : ", ") + llmsim::format_gib((double)p.kv_bytes) + " at " + llmsim::format_tokens(p.ctx_tokens);
    qa(app, "How does " + m.name + "'s KV cache scale with context?",
       m.name + " uses " + attn + " across " + std::to_string(m.n_layers) + " layers" + swa + ". In " + s.kv_type + " the KV cache is " +
           (kv_at.empty() ? "linear in the context" : kv_at) + "; q8_0 halves it, at a small quality cost.");
}
