// The FAQ: the seed page's questions, answered from the numbers the other sections show (generated, not written
// per model). The app (ui/panel_faq.cpp) and the static pages (cli/cmd_page.cpp, visible text and JSON-LD) show
// these words.
#include <string>

#include "core/format.h"
#include "report/sections.h"
#include "sim/speed_labels.h"

namespace llmsim {

namespace {

FaqEntry vram_answer(const FaqInputs& in) {
    const Model& m = *in.model;
    const MemoryBreakdown& mb = *in.memory;
    return {"How much VRAM does " + m.name + " require in " + in.quant + "?",
            m.name + " weights take " + format_gib((double)mb.weights_bytes) + " in " + in.quant + " (" + format_fixed(mb.bits_per_weight, 2) +
                " bits per weight). With a " + format_tokens(in.ctx_tokens) + " " + in.kv_type + " KV cache (" + format_gib((double)mb.kv_cache_bytes) +
                "), compute buffers and runtime overhead, the total is " + format_gib((double)mb.total_bytes) + " (" + format_gb((double)mb.total_bytes) +
                ")."};
}

// cheapest hardware that runs it usably: the recommender's first priced answer at the usable floor (recommend.h:
// decode >= 10 tok/s at the full context, first token of a 4k prompt within 10 s); the answer states the floor
FaqEntry cheapest_answer(const FaqInputs& in) {
    const Model& m = *in.model;
    const std::string floor = "at least " + format_sig(kUsableMinDecodeTps) + " tok/s " + decode_label(in.ctx_tokens) + " and the first token of a " +
                              format_tokens(kUsablePromptTokens) + " prompt within " + format_sig(kUsableMaxTtftS) + " s";
    FaqEntry e{"What is the cheapest hardware that runs " + m.name + "?", ""};
    if (const Candidate* c = in.cheapest) {
        const SpeedView& sp = c->eval.speed;
        const std::string speed = sp.ok ? ": " + decode_range_text(sp) + ", first token in " + format_sig(sp.ttft_s) + " s (" +
                                              prefill_label(sp.prompt_tokens, sp.flash_attn) + ")" : "";
        e.answer = c->hardware.name + " (about $" + format_fixed(c->price_usd, 0) + ") runs " + m.name + " " + in.quant + " with a " +
                   format_tokens(in.ctx_tokens) + " context (" + to_string(c->eval.memory.status) + ") usably, meaning " + floor + speed + ".";
        if (in.app_hints) e.answer += " The Recommended hardware section ranks the rest by price; its floor is editable there.";
    } else {
        e.answer = "No catalog device or multi-GPU combination with a known price runs " + m.name + " " + in.quant + " at " +
                   format_tokens(in.ctx_tokens) + " context usably (" + floor + "); try a smaller quant or context" +
                   (in.app_hints ? ", or lower the floor in the Recommended hardware section." : ".");
    }
    return e;
}

// what the load costs a month on the scenario's device, by the cost section's rule: a month has 730 hours, and a
// load that needs more is priced on as many devices as it takes
FaqEntry cost_answer(const FaqInputs& in) {
    const CostResult& r = *in.cost;
    FaqEntry e{"What does it cost to serve " + format_sig(in.mtok_per_month) + " M tokens a month of " + in.model->name + " on " +
                   in.hardware->name + "?", ""};
    if (!r.error.empty()) { e.answer = "Unknown: " + r.error + "."; return e; }
    const std::string n = std::to_string(r.devices_needed);
    std::string a = "At one stream (3:1 input:output) the load needs " + format_sig(r.hours_needed_per_month) + " h of device time a month; one device has 730 h";
    if (r.capacity_mtok_per_month >= 0) a += " and serves about " + format_sig(r.capacity_mtok_per_month) + " M tokens a month";
    a += r.devices_needed > 1 ? ", so it " + capacity_note(r) + ". Owning " + n + " costs $" : " (" + format_sig(r.utilisation * 100) + " % used). Owning it costs $";
    a += format_fixed(r.own_usd_per_month, 2) + "/month (amortised over " + std::to_string(in.amortize_months) + " months, plus power for " +
         format_sig(r.active_hours_per_month) + " active hours" + (r.devices_needed > 1 ? " each" : "") + ")";
    a += r.rent_usd_per_month >= 0 ? ", renting " + std::string(r.devices_needed > 1 ? "them" : "it") + " $" + format_fixed(r.rent_usd_per_month, 2)
                                   : ", it is not rentable (no sourced price)";
    a += r.api_usd_per_month >= 0 ? ", a serverless API $" + format_fixed(r.api_usd_per_month, 2) + "." : "; no API price is known.";
    e.answer = a + " The Buy vs cloud vs API section shows the work.";
    return e;
}

FaqEntry kv_answer(const FaqInputs& in) {
    const Model& m = *in.model;
    std::string attn = m.mla ? "multi-head latent attention (MLA), caching a " + std::to_string(m.mla->kv_lora_rank + m.mla->qk_rope_head_dim) +
                                   "-value latent per token per layer"
                             : (m.n_kv_heads < m.n_heads ? "GQA with " : "full multi-head attention with ") + std::to_string(m.n_kv_heads) +
                                   " KV heads of " + std::to_string(m.head_dim) + " dims";
    std::string swa = m.swa ? "; sliding-window layers cache at most " + std::to_string(m.swa->window) + " tokens (+ a ubatch)" : "";
    std::string kv_at;
    if (in.context)
        for (const ContextPoint& p : *in.context)
            if (p.ctx_tokens == 8192 || p.ctx_tokens == 32768 || p.ctx_tokens == 131072)
                kv_at += (kv_at.empty() ? "" : ", ") + format_gib((double)p.kv_bytes) + " at " + format_tokens(p.ctx_tokens);
    return {"How does " + m.name + "'s KV cache scale with context?",
            m.name + " uses " + attn + " across " + std::to_string(m.n_layers) + " layers" + swa + ". In " + in.kv_type + " the KV cache is " +
                (kv_at.empty() ? "linear in the context" : kv_at) + "; q8_0 halves it, at a small quality cost."};
}

}  // namespace

std::vector<FaqEntry> faq_entries(const FaqInputs& in) {
    std::vector<FaqEntry> out;
    if (!in.model || !in.memory) return out;
    out.push_back(vram_answer(in));
    out.push_back(cheapest_answer(in));
    if (in.hardware && in.cost) out.push_back(cost_answer(in));
    out.push_back(kv_answer(in));
    return out;
}

}  // namespace llmsim
