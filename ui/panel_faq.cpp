// FAQ: the seed page's questions, answered from the same numbers the other sections show (generated, not
// written per model).
#include <imgui.h>

#include <algorithm>

#include "format.h"
#include "panels.h"
#include "widgets.h"

namespace {
void qa(AppState& app, const std::string& q, const std::string& a) {
    ImGui::PushFont(app.font_bold);
    ImGui::TextWrapped("%s", q.c_str());
    ImGui::PopFont();
    ImGui::TextWrapped("%s", a.c_str());
    ImGui::Spacing();
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

    // cheapest device (new or used price) on which it runs fully on the GPU
    const DeviceRow* cheapest = nullptr;
    double best = 1e30;
    for (const DeviceRow& r : d.devices) {
        auto st = r.eval.memory.status;
        if (!r.error.empty() || !(st == llmsim::FitStatus::Comfortable || st == llmsim::FitStatus::Tight)) continue;
        double price = r.hardware->price_usd > 0 ? r.hardware->price_usd : r.hardware->price_used_usd;
        if (price <= 0) continue;
        if (price < best) { best = price; cheapest = &r; }
    }
    if (cheapest) {
        std::string speed = cheapest->eval.speed.ok ? " at about " + llmsim::format_sig(cheapest->eval.speed.decode_tps) + " tok/s decode and " +
                                                          llmsim::format_sig(cheapest->eval.speed.ttft_s) + " s to the first token of a " +
                                                          llmsim::format_tokens(s.prompt_tokens) + "-token prompt" : "";
        qa(app, "What is the cheapest hardware that runs " + m.name + "?",
           cheapest->hardware->name + " (about $" + llmsim::format_sig(best, 3) + ") runs " + m.name + " " + s.quant + " with a " +
               llmsim::format_tokens(s.ctx_tokens) + " context entirely in GPU memory" + speed + ".");
    } else {
        qa(app, "What is the cheapest hardware that runs " + m.name + "?",
           "No single catalog device with a known price holds " + m.name + " " + s.quant + " at " + llmsim::format_tokens(s.ctx_tokens) +
               " context; try a smaller quant or context, or a multi-GPU rig.");
    }

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
