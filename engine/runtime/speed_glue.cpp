// Catalog model + quant + device → SpeedScenario (speed.h) → SpeedView (runtime/scenario.h).
#include "runtime/speed_glue.h"

#include <algorithm>
#include <cmath>
#include <string_view>

#include "speed/device_profile.h"
#include "core/format.h"
#include "quant/quant_rules.h"
#include "speed/speed.h"
#include "rig/rig.h"
#include "rig/rig_speed.h"

namespace llmsim {

namespace {
// the share of a decoded token's weight reads served from host RAM. The host holds the first layers -ngl leaves
// there (all their tensors) and the routed experts of the first --n-cpu-moe / -ot layers; a token reads every
// non-expert byte but only k of E experts, so (host non-expert + host experts x k/E) / (all non-expert + all
// experts x k/E). A dense model: host bytes / weight bytes, the plain offload fraction.
double host_token_fraction(const Model& m, const MemoryRequest& mr, const Evaluation& ev, double host_weights) {
    // nothing in host RAM (every layer on the GPUs): the formulas below give exactly +0 (host_weights >= +0, the
    // host's experts min(+0, ...) = +0); said here so that a full offload skips the walk over the layers
    if (host_weights == 0) return 0.0;
    const double experts = (double)ev.routed_expert_bytes;
    if (!m.is_moe() || !(experts > 0) || m.moe->n_experts <= 0) return host_weights / (double)ev.weight_bytes;
    const int L = m.n_layers;
    const int cpu_layers = mr.n_gpu_layers >= L ? 0 : L - std::max(0, mr.n_gpu_layers);   // -ngl N: the first L - N
    const int lead = std::max(cpu_layers, mr.cpu_moe ? L : std::clamp(mr.n_cpu_moe, 0, L));
    int moe_layers = 0, moe_host = 0;
    for (int il = 0; il < L; ++il)
        if (layer_is_moe(m, il)) { ++moe_layers; moe_host += il < lead ? 1 : 0; }
    const double host_experts = moe_layers > 0 ? std::min(host_weights, experts * moe_host / moe_layers) : 0.0;
    const double a = (double)m.moe->n_experts_active / (double)m.moe->n_experts;
    const double per_token_all = ((double)ev.weight_bytes - experts) + a * experts;
    return per_token_all > 0 ? std::clamp(((host_weights - host_experts) + a * host_experts) / per_token_all, 0.0, 1.0)
                             : 0.0;
}
}  // namespace

void speed_model_inputs(const Model& m, const SimRequest& req, const Evaluation& ev, SpeedScenario& s) {
    const MemoryRequest& mr = req.memory;
    s = SpeedScenario();
    s.weight_bytes = (double)ev.weight_bytes;
    s.weight_bytes_per_token = (double)ev.active_weight_bytes;
    // matmul parameters per token: the embedding table is a lookup, unless it doubles as the output matrix
    s.active_params = (double)ev.params.active - (m.tie_embeddings ? 0.0 : (double)ev.params.embedding);
    s.n_layers = m.n_layers;
    s.n_heads = m.n_heads;
    if (m.mla) {
        s.head_dim_qk = m.mla->qk_nope_head_dim + m.mla->qk_rope_head_dim;
        s.head_dim_v = m.mla->v_head_dim;
    } else {
        s.head_dim_qk = m.head_dim;
        s.head_dim_v = m.kv_head_dim_v();
    }
    // KV bytes per cached token, per layer type, at the KV cache type (true block sizes)
    double full = 0, swa = 0;
    int n_full = 0, n_swa = 0;
    if (ev.full_attn_layers >= 0 && ev.kv_k_row > 0) {   // from the prepared weights: no per-layer walk
        const double bytes = (double)row_bytes(mr.kv_type_k, ev.kv_k_row) + (ev.kv_v_row ? (double)row_bytes(mr.kv_type_v, ev.kv_v_row) : 0.0);
        n_full = ev.full_attn_layers;
        n_swa = ev.swa_layers;
        full = bytes * n_full;
        swa = bytes * n_swa;
    } else for (int il = 0; il < m.n_layers; ++il) {
        if (!layer_has_attention(m, il)) continue;
        const double bytes = (double)row_bytes(mr.kv_type_k, kv_k_row(m)) + (double)row_bytes(mr.kv_type_v, kv_v_row(m));
        if (layer_is_swa(m, il)) { swa += bytes; ++n_swa; } else { full += bytes; ++n_full; }
    }
    s.full_attn_layers = n_full;
    s.swa_layers = n_swa;
    s.swa_window = m.swa ? m.swa->window : 0;
    s.kv_bytes_per_token_full = full;
    s.kv_bytes_per_token_swa = swa;
    // hybrid models: the recurrent layers' state (the layers without attention; the state per layer as the memory
    // model allocates it, hf_config.cpp; 0 where the config does not give it)
    if (m.hybrid && m.hybrid->ssm_state_bytes_per_layer > 0) {
        int recurrent = 0;
        for (int il = 0; il < m.n_layers; ++il) recurrent += layer_has_attention(m, il) ? 0 : 1;
        s.recurrent_state_bytes = (double)m.hybrid->ssm_state_bytes_per_layer * recurrent;
    }
    s.weight_class = ev.weight_class != WeightClass::Count ? ev.weight_class : weight_class_of(mr.file_type);
    if (m.is_moe()) {
        s.moe_experts = m.moe->n_experts;
        s.moe_experts_active = m.moe->n_experts_active;
        s.moe_expert_bytes = (double)ev.routed_expert_bytes;
    }
    s.flash_attn = mr.flash_attn;
    s.ubatch = mr.n_ubatch;
    s.batch = mr.n_batch;
    s.parallel = mr.n_parallel;
}

void speed_device_inputs(const Model& m, const SimRequest& req, const Evaluation& ev, SpeedScenario& s) {
    const Hardware* hw = req.memory.hardware;
    const MemoryRequest& mr = req.memory;
    set_device_speed_inputs(s, *hw);
    s.backend = mr.backend ? *mr.backend : (hw->backends.empty() ? Backend::Cpu : hw->backends.front());
    if (hw->kind == HardwareKind::Cpu) s.backend = Backend::Cpu;
    s.gpus = std::max(1, hw->gpu_count);
    s.link_gbs = hw->link_gbs;
    // weights left in host RAM by -ngl / --n-cpu-moe (discrete GPUs; the token-embedding table always stays there)
    if (!hw->unified_memory() && hw->kind != HardwareKind::Cpu && ev.weight_bytes > 0) {
        double host_weights = 0;
        for (const DeviceMemory& d : ev.memory.devices)
            if (std::string_view(d.name) == "host") host_weights = (double)d.weights_bytes;
        host_weights = std::max(0.0, host_weights - (double)ev.embedding_bytes);
        s.offload_fraction = std::min(1.0, host_weights / (double)ev.weight_bytes);
        s.offload_token_fraction = host_token_fraction(m, mr, ev, host_weights);
        s.host_bandwidth_gbs = mr.host_ram_bandwidth_gbs ? *mr.host_ram_bandwidth_gbs
                             : hw->system_ram_bandwidth_gbs > 0 ? hw->system_ram_bandwidth_gbs : kDefaultHostRamGbs;
    }
}

bool build_speed_scenario(const Model& m, const SimRequest& req, const Evaluation& ev, SpeedScenario& s, std::string& err) {
    if (!req.memory.hardware) { err = "no hardware chosen"; return false; }
    speed_model_inputs(m, req, ev, s);
    speed_device_inputs(m, req, ev, s);
    return true;
}

SpeedResult decode_at_depth(const Model& m, const SimRequest& req, const Evaluation& ev, int64_t depth) {
    SpeedScenario s;
    SpeedResult r;
    if (!build_speed_scenario(m, req, ev, s, r.error)) return r;
    r = req.memory.hardware->rig.empty()
            ? estimate_decode(s, default_speed_params(), std::max<int64_t>(0, depth), 128)
            : estimate_rig_decode(s, default_speed_params(), *req.memory.hardware, ev.memory, m.hidden_size,
                                  std::max<int64_t>(0, depth), 128);
    if (req.device_profile && req.memory.hardware && profile_applies(*req.device_profile, *req.memory.hardware))
        apply_device_profile(*req.device_profile, SpeedTest::Decode, r, s.moe_experts > 0);
    return r;
}

namespace {

// the speeds a view shows, one context: the scenario, the prompt's prefill, the decodes at the prompt, at an empty
// and at the full context; a rig's terms for the explanation
struct ViewParts {
    const SpeedScenario* s = nullptr;
    const SpeedResult *pre = nullptr, *dec = nullptr, *dec0 = nullptr, *decn = nullptr;
    const ViewFigures* figures = nullptr;   // of s, pre, dec and dec0 (make_view_figures)
    const RigSpeedTerms* rig_terms = nullptr;
};

// the view's figures that do not depend on its context, from the profiled parts (fill_view reads them only when the
// parts are ok)
void make_view_figures(const SpeedScenario& s, const SpeedResult& pre, const SpeedResult& dec, const SpeedResult& dec0,
                       int64_t prompt, ViewFigures& f) {
    auto finite = [](double x) { return std::isfinite(x) && x > 0; };
    // estimate_reply's figures (a ReplyTime's numbers, without its error string); the TTFT is the prefill's time
    f.ttft_low_s = (double)prompt / pre.high;
    f.ttft_high_s = (double)prompt / pre.low;
    f.reply_s = pre.time_s + dec.time_s;
    f.finite = finite(dec.tokens_per_s) && finite(pre.tokens_per_s) && finite(pre.time_s) && finite(dec0.tokens_per_s);
    // roofline: per-GPU peak and the attained points (none without bytes per token)
    f.peak_flops = (s.fp16_tflops > 0 ? s.fp16_tflops : estimate_fp16_tflops(s.kind, s.bandwidth_gbs)) * 1e12;
    f.peak_bytes_per_s = s.bandwidth_gbs * 1e9;
    f.decode_intensity = f.decode_flops = f.prefill_intensity = f.prefill_flops = 0;
    if (dec.bytes_per_token > 0) {
        f.decode_intensity = dec.flops_per_token / dec.bytes_per_token;
        f.decode_flops = dec.flops_per_token * dec.tokens_per_s / s.gpus;
    }
    if (pre.bytes_per_token > 0) {
        f.prefill_intensity = pre.flops_per_token / pre.bytes_per_token;
        f.prefill_flops = pre.flops_per_token * pre.tokens_per_s / s.gpus;
    }
}

// the host's weight bytes in a breakdown: the one input of build_speed_scenario that a context can move (the fit
// search's partial offload); the key of SharedSpeed
uint64_t host_weights_key(const MemoryBreakdown& mb) {
    uint64_t host = 0;
    for (const DeviceMemory& d : mb.devices)
        if (std::string_view(d.name) == "host") host = d.weights_bytes;
    return host;
}

void apply_profile(const SimRequest& req, const SpeedScenario& s, SpeedTest test, SpeedResult& r) {
    if (req.device_profile && profile_applies(*req.device_profile, *req.memory.hardware))
        apply_device_profile(*req.device_profile, test, r, s.moe_experts > 0);
}

// estimate_decode_planned on the shared scenario, with the grid's model terms of (depth, n_tokens) where it has them;
// looked up from after the last one found (a device's views ask for its contexts' depths in their order; equal
// entries are the same numbers, made alike)
void decode_shared(SharedSpeed& sh, const SpeedParams& p, int64_t depth, int64_t n_tokens, SpeedResult& r) {
    int i = sh.next_depth < sh.n_depths ? sh.next_depth : 0;
    for (int k = 0; k < sh.n_depths; ++k, i = i + 1 < sh.n_depths ? i + 1 : 0)
        if (sh.depths[i].depth == depth && sh.depths[i].n_tokens == n_tokens) {
            sh.next_depth = i + 1;
            estimate_decode_planned(sh.s, p, sh.decode, sh.depths[i], r);
            return;
        }
    estimate_decode_planned(sh.s, p, sh.decode, depth, n_tokens, r);
}

// the context-independent parts of a single device's speed view (SharedSpeed), rebuilt when the host's share of the
// weights differs from the one they were made with
void prepare_shared(const Model& m, const SimRequest& req, const Evaluation& ev, SharedSpeed& sh) {
    const uint64_t key = host_weights_key(ev.memory);
    if (sh.valid && sh.host_key == key) return;
    sh.valid = true;
    sh.host_key = key;
    sh.error.clear();
    if (sh.model_part) {   // a grid's: the model's inputs made once for its devices (req has a device here)
        sh.s = *sh.model_part;
        speed_device_inputs(m, req, ev, sh.s);
        sh.built = true;
    } else {
        sh.built = build_speed_scenario(m, req, ev, sh.s, sh.error);
        if (!sh.built) return;
    }
    sh.params = &default_speed_params();
    const SpeedParams& p = *sh.params;
    const int64_t prompt = std::max<int64_t>(1, req.prompt_tokens);
    if (sh.prefill) estimate_prefill_planned(sh.s, p, *sh.prefill, sh.pre);
    else sh.pre = estimate_prefill(sh.s, p, prompt, 0);
    plan_decode(sh.s, p, sh.decode);
    decode_shared(sh, p, prompt, std::max<int64_t>(1, req.gen_tokens), sh.dec[0]);
    decode_shared(sh, p, 0, 128, sh.dec[1]);
    for (SpeedResult& r : sh.dec) apply_profile(req, sh.s, SpeedTest::Decode, r);
    apply_profile(req, sh.s, SpeedTest::Prefill, sh.pre);
    make_view_figures(sh.s, sh.pre, sh.dec[0], sh.dec[1], prompt, sh.figures);
}

// fill the view from its parts (the view is reset, its error empty)
void fill_view(const Model& m, const SimRequest& req, const SpeedParams& p, const Evaluation& out, int64_t full_depth,
               const ViewParts& vp, SpeedView& v);

}  // namespace

void reset_speed_view(SpeedView& v) {
    // a field added to SpeedView needs its line here: the size is the reminder (x86-64, wasm32)
    static_assert(sizeof(SpeedView) == (sizeof(void*) == 8 ? 336 : 272), "SpeedView changed: reset the new field");
    v.ok = false;
    v.error.clear();
    v.decode_tps = v.decode_low = v.decode_high = 0;
    v.decode_empty_tps = v.decode_empty_low = v.decode_empty_high = 0;
    v.decode_full_tps = v.decode_full_low = v.decode_full_high = 0;
    v.decode_depth = v.decode_full_depth = v.prompt_tokens = 0;
    v.flash_attn = true;
    v.calibrated.clear();
    v.prefill_tps = v.prefill_low = v.prefill_high = 0;
    v.ttft_s = v.ttft_low = v.ttft_high = 0;
    v.reply_s = v.aggregate_tps = v.per_user_tps = 0;
    v.decode_bound = v.prefill_bound = Bound::None;
    v.decode_intensity = v.decode_flops = v.prefill_intensity = v.prefill_flops = 0;
    v.peak_flops = v.peak_bytes_per_s = 0;
    v.explain.clear();
}

namespace {

void speed_view_parts(const Model& m, const SimRequest& req, int64_t n_ctx, Evaluation& out, SharedSpeed* shared);

}  // namespace

void estimate_speed_view_at(const Model& m, const SimRequest& req, int64_t n_ctx, Evaluation& out,
                            SharedSpeed* shared) {
    reset_speed_view(out.speed);
    speed_view_parts(m, req, n_ctx, out, shared);
}

void estimate_speed_view(const Catalog&, const Model& m, const SimRequest& req, Evaluation& out) {
    estimate_speed_view_at(m, req, req.memory.n_ctx, out, nullptr);
}

namespace {

void speed_view_parts(const Model& m, const SimRequest& req, int64_t n_ctx, Evaluation& out, SharedSpeed* shared) {
    SpeedView& v = out.speed;
    const MemoryBreakdown& mb = out.memory;
    if (!req.memory.hardware) { v.error = "pick a device to see speeds"; return; }
    if (mb.status == FitStatus::Oom) { v.error = "does not fit, so it does not run"; return; }
    const int64_t prompt = std::max<int64_t>(1, req.prompt_tokens);
    const Hardware& hw = *req.memory.hardware;
    // the decode range: tg128 at an empty context and at the full context of one sequence
    const int64_t full_depth = std::max<int64_t>(0, n_ctx / std::max(1, req.memory.n_parallel));
    ViewParts vp;
    if (hw.rig.empty() && shared) {   // the scenario, prefill and two decodes made once for a device's contexts
        prepare_shared(m, req, out, *shared);
        if (!shared->built) { v.error = shared->error; return; }
        const SpeedParams& p = *shared->params;
        vp.s = &shared->s;
        vp.pre = &shared->pre;
        vp.dec = &shared->dec[0];
        vp.dec0 = &shared->dec[1];
        decode_shared(*shared, p, full_depth, 128, shared->decn);
        apply_profile(req, shared->s, SpeedTest::Decode, shared->decn);
        vp.decn = &shared->decn;
        vp.figures = &shared->figures;
        fill_view(m, req, p, out, full_depth, vp, v);
        return;
    }
    const SpeedParams& p = default_speed_params();
    SpeedScenario s;
    if (!build_speed_scenario(m, req, out, s, v.error)) return;
    // the reply = prefill of the prompt (TTFT) + gen_tokens decoded from depth = prompt (estimate_reply's
    // arithmetic, without computing both estimates twice)
    // a mixed rig / RPC: each device's layers at its own speed, plus the links (rig/rig_speed.h)
    RigSpeedTerms rig_terms;
    SpeedResult pre, decs[3];
    if (hw.rig.empty()) {
        pre = estimate_prefill(s, p, prompt, 0);
        const int64_t depths[3] = {prompt, 0, full_depth}, n_tokens[3] = {std::max<int64_t>(1, req.gen_tokens), 128, 128};
        estimate_decode_depths(s, p, 3, depths, n_tokens, decs);
    } else {
        decs[0] = estimate_rig_decode(s, p, hw, mb, m.hidden_size, prompt, std::max<int64_t>(1, req.gen_tokens), &rig_terms);
        pre = estimate_rig_prefill(s, p, hw, mb, m.hidden_size, prompt, 0);
        decs[1] = estimate_rig_decode(s, p, hw, mb, m.hidden_size, 0, 128, nullptr);
        decs[2] = estimate_rig_decode(s, p, hw, mb, m.hidden_size, full_depth, 128, nullptr);
        vp.rig_terms = &rig_terms;
    }
    for (SpeedResult& r : decs) apply_profile(req, s, SpeedTest::Decode, r);
    apply_profile(req, s, SpeedTest::Prefill, pre);
    vp.s = &s;
    vp.pre = &pre;
    vp.dec = &decs[0];
    vp.dec0 = &decs[1];
    vp.decn = &decs[2];
    ViewFigures figures;
    make_view_figures(s, pre, decs[0], decs[1], prompt, figures);
    vp.figures = &figures;
    fill_view(m, req, p, out, full_depth, vp, v);
}

void fill_view(const Model& m, const SimRequest& req, const SpeedParams& p, const Evaluation& out, int64_t full_depth,
               const ViewParts& vp, SpeedView& v) {
    const SpeedScenario& s = *vp.s;
    const SpeedResult &pre = *vp.pre, &dec = *vp.dec, &dec0 = *vp.dec0, &decn = *vp.decn;
    const Hardware& hw = *req.memory.hardware;
    const int64_t prompt = std::max<int64_t>(1, req.prompt_tokens);
    if (!dec.ok || !pre.ok || !dec0.ok || !decn.ok) {
        v.error = !dec.ok ? dec.error : !pre.ok ? pre.error : !dec0.ok ? dec0.error : decn.error;
        return;
    }
    if (req.device_profile && profile_applies(*req.device_profile, hw))
        v.calibrated = calibrated_label(*req.device_profile);
    const ViewFigures& f = *vp.figures;
    if (!f.finite || !std::isfinite(decn.tokens_per_s) || !(decn.tokens_per_s > 0)) {
        v.error = "speed out of the model's range for these inputs";
        return;
    }
    v.ok = true;
    v.decode_tps = dec.tokens_per_s; v.decode_low = dec.low; v.decode_high = dec.high;
    v.decode_empty_tps = dec0.tokens_per_s; v.decode_empty_low = dec0.low; v.decode_empty_high = dec0.high;
    v.decode_full_tps = decn.tokens_per_s; v.decode_full_low = decn.low; v.decode_full_high = decn.high;
    v.decode_depth = prompt;
    v.decode_full_depth = full_depth;
    v.prompt_tokens = prompt;
    v.flash_attn = req.memory.flash_attn;
    v.prefill_tps = pre.tokens_per_s; v.prefill_low = pre.low; v.prefill_high = pre.high;
    v.ttft_s = pre.time_s; v.ttft_low = f.ttft_low_s; v.ttft_high = f.ttft_high_s;
    v.reply_s = f.reply_s;
    v.decode_bound = dec.bound;
    v.prefill_bound = pre.bound;
    v.aggregate_tps = v.decode_tps;
    v.per_user_tps = v.decode_tps;
    if (req.memory.n_parallel > 1) {
        double expert_bytes = 0;
        if (m.is_moe()) expert_bytes = (double)out.routed_expert_bytes;
        ConcurrencyResult c = estimate_concurrency(s, p, req.memory.n_parallel, prompt, m.is_moe() ? m.moe->n_experts : 0,
                                                   m.is_moe() ? m.moe->n_experts_active : 0, expert_bytes);
        if (c.ok) { v.aggregate_tps = c.aggregate_tokens_per_s; v.per_user_tps = c.per_user_tokens_per_s; }
    }
    v.peak_flops = f.peak_flops;
    v.peak_bytes_per_s = f.peak_bytes_per_s;
    v.decode_intensity = f.decode_intensity;
    v.decode_flops = f.decode_flops;
    v.prefill_intensity = f.prefill_intensity;
    v.prefill_flops = f.prefill_flops;
    if (!req.with_explain) return;
    v.explain = "decode " + format_sig(dec.tokens_per_s) + " tok/s: per token " + format_sig(dec.weight_time_s * 1e3) +
                " ms weights (" + format_gb(s.weight_bytes_per_token) + " at " +
                (hw.rig.empty() ? format_sig(s.bandwidth_gbs) + " GB/s spec" : std::string("each device's own GB/s")) + ") + " +
                format_sig(dec.kv_time_s * 1e3) + " ms KV + " + format_sig(dec.alu_time_s * 1e3) + " ms dequant/ALU + " +
                format_sig(dec.fixed_time_s * 1e3) + " ms launches/syncs" +
                (dec.sync_time_s > 0 ? " + " + format_sig(dec.sync_time_s * 1e3) + " ms GPU hand-offs" : "") +
                (dec.offload_time_s > 0 ? " + " + format_sig(dec.offload_time_s * 1e3) + " ms host-RAM layers" : "") +
                "\nprefill " + format_sig(pre.tokens_per_s) + " tok/s: per token " + format_sig(pre.compute_time_s * 1e6) +
                " us matmuls + " + format_sig(pre.attention_time_s * 1e6) + " us attention + " +
                format_sig(pre.overhead_time_s * 1e6) + " us per-ubatch overhead" +
                (pre.fp16_tflops_estimated ? " (FP16 TFLOPS estimated: none published)" : "");
    if (vp.rig_terms) v.explain += "\n" + explain_rig_terms(*vp.rig_terms);
}

}  // namespace

}  // namespace llmsim
