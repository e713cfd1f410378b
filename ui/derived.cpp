#include "derived.h"

#include <chrono>

#include "app_state.h"
#include "quant_rules.h"

llmsim::SimRequest request_from_scenario(const AppState& app) {
    const Scenario& s = app.scenario;
    llmsim::SimRequest r;
    r.memory.file_type = s.quant;
    r.memory.n_ctx = s.ctx_tokens;
    if (auto t = llmsim::parse_tensor_type(s.kv_type)) { r.memory.kv_type_k = *t; r.memory.kv_type_v = *t; }
    r.memory.flash_attn = s.flash_attn;
    r.memory.n_parallel = s.parallel;
    r.memory.n_gpu_layers = s.gpu_layers;
    r.memory.n_cpu_moe = s.cpu_moe_layers;
    r.memory.hardware = app.catalog.find_hardware(s.hardware);
    r.prompt_tokens = s.prompt_tokens;
    r.gen_tokens = s.gen_tokens;
    return r;
}

void update_derived(AppState& app) {
    Derived& d = app.derived;
    if (d.version == app.state_version) return;
    auto t0 = std::chrono::steady_clock::now();
    d = Derived();
    d.version = app.state_version;
    const Scenario& s = app.scenario;
    d.model = app.catalog.find_model(s.model);
    d.hardware = app.catalog.find_hardware(s.hardware);
    if (!d.model) { d.error = "unknown model '" + s.model + "' — pick one from the list or import a config.json"; return; }
    if (!llmsim::parse_tensor_type(s.kv_type)) { d.error = "unknown KV cache type '" + s.kv_type + "' (f16, bf16, q8_0, q4_0 ...)"; return; }
    std::string err;
    llmsim::count_params(*d.model, d.params, err);
    const llmsim::SimRequest base = request_from_scenario(app);

    // the current scenario
    d.eval_ok = llmsim::evaluate(app.catalog, *d.model, base, d.eval, err);
    if (!d.eval_ok) d.error = err;

    // quantization table: weights and totals at two contexts, no hardware, no speed
    for (const llmsim::FileType& ft : app.catalog.file_types) {
        QuantRow row;
        row.file_type = &ft;
        llmsim::SimRequest r = base;
        r.with_speed = false;
        r.memory.hardware = nullptr;
        r.memory.file_type = ft.name;
        r.memory.n_gpu_layers = -1;
        r.memory.n_cpu_moe = 0;
        llmsim::Evaluation ev;
        std::string e;
        if (llmsim::evaluate(app.catalog, *d.model, r, ev, e)) {
            row.weights_bytes = ev.memory.weights_bytes;
            row.bits_per_weight = ev.memory.bits_per_weight;
            row.total_a_bytes = ev.memory.total_bytes;
            r.memory.n_ctx = s.ctx_b_tokens;
            if (llmsim::evaluate(app.catalog, *d.model, r, ev, e)) row.total_b_bytes = ev.memory.total_bytes;
            else row.error = e;
        } else {
            row.error = e;
        }
        d.quants.push_back(row);
    }

    // leaderboard: every device
    for (const llmsim::Hardware& hw : app.catalog.hardware) {
        DeviceRow row;
        row.hardware = &hw;
        llmsim::SimRequest r = base;
        r.memory.hardware = &hw;
        r.memory.n_gpu_layers = -1;
        r.memory.n_cpu_moe = 0;
        std::string e;
        if (!llmsim::evaluate(app.catalog, *d.model, r, row.eval, e)) row.error = e;
        double price = hw.price_usd > 0 ? hw.price_usd : hw.price_used_usd;
        if (row.eval.speed.ok && row.eval.speed.decode_tps > 0 && price > 0)
            row.usd_per_decode_tps = price * hw.gpu_count / row.eval.speed.decode_tps;
        d.devices.push_back(row);
    }

    // context scaling: powers of two and the midpoints between them, up to the largest context we can show
    int64_t max_ctx = d.model->extended_context > 0 ? d.model->extended_context : d.model->native_context;
    if (max_ctx <= 0) max_ctx = 131072;
    for (int64_t c = 1024; c <= max_ctx; c *= 2) {
        for (int64_t ctx : {c, c + c / 2}) {
            if (ctx > max_ctx) continue;
            llmsim::SimRequest r = base;
            r.memory.n_ctx = ctx;
            r.memory.compute_max_context = false;
            r.prompt_tokens = ctx;   // decode read-out at a full context
            llmsim::Evaluation ev;
            std::string e;
            if (!llmsim::evaluate(app.catalog, *d.model, r, ev, e)) continue;
            ContextPoint p;
            p.ctx_tokens = ctx;
            p.kv_bytes = ev.memory.kv_cache_bytes;
            p.total_bytes = ev.memory.total_bytes;
            p.status = ev.memory.status;
            p.decode_tokens_per_s = ev.speed.ok ? ev.speed.decode_tps : 0;
            d.context.push_back(p);
        }
    }
    d.compute_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}
