// evaluate(): memory (memory.h) + speed (speed.h) for one scenario, through the runtime's plans
// (runtime/runtime.h). See simulate.h.
#include "sim/simulate.h"

#include <algorithm>

#include "memory/prepared_weights.h"
#include "runtime/speed_glue.h"   // reset_speed_view

namespace llmsim {

uint64_t limit_side_bytes(const MemoryBreakdown& mb) {
    // devices = GPUs first, then "host"; a CPU-only placement has only "host"
    if (mb.devices.size() <= 1) return mb.total_bytes;
    uint64_t gpu = 0;
    for (size_t i = 0; i + 1 < mb.devices.size(); ++i) gpu += mb.devices[i].total_bytes;
    return gpu;
}

bool evaluate(const Catalog& cat, const Model& model, const SimRequest& req, Evaluation& out, std::string& err) {
    // weights, parameter counts and the bytes a decoded token reads come prepared (cached per model and quant):
    // no tensor enumeration or quant rules per call
    QuantOptions qo;
    qo.exact_tensor_data_bytes = req.memory.tensor_data_bytes_exact.value_or(0);
    const std::shared_ptr<const PreparedWeights> w = prepare_weights(
        cat, model, req.memory.file_type, err,
        req.memory.tensor_data_bytes_exact ? 0 : req.memory.file_bytes_override.value_or(0), qo);
    if (!w) {
        out = Evaluation();
        return false;
    }
    return evaluate(cat, *w, model, req, out, err);
}

void copy_weight_figures(const PreparedWeights& w, Evaluation& ev) {
    ev.params = w.params;
    ev.active_weight_bytes = w.active_weight_bytes;
    ev.weight_bytes = w.weights_bytes;
    ev.embedding_bytes = w.token_embd_bytes;
    ev.routed_expert_bytes = w.gguf_routed_expert_bytes;
    ev.full_attn_layers = -1;
    ev.swa_layers = 0;
    ev.kv_k_row = ev.kv_v_row = 0;
    if (!w.full_layers_prefix.empty() && !w.swa_layers_prefix.empty()) {
        ev.full_attn_layers = w.full_layers_prefix.back();
        ev.swa_layers = w.swa_layers_prefix.back();
        ev.kv_k_row = w.kv_k_row;
        ev.kv_v_row = w.kv_v_row;
    }
}

bool evaluate_contexts(const Catalog& cat, const PreparedWeights& w, const Model& model, const SimRequest& req,
                       const int64_t* contexts, int count, Evaluation* out, std::string& err) {
    const Runtime* rt = runtime(req.engine);
    if (!rt) {
        err = "engine: unknown engine id " + std::to_string((int)req.engine);
        for (int i = 0; i < count; ++i) out[i] = Evaluation();
        return false;
    }
    for (int i = 0; i < count; ++i) {   // evaluate()'s fields outside the plans
        out[i].speed.ok = false;
        out[i].speed.error.clear();
        out[i].weight_class = w.weight_class;
        copy_weight_figures(w, out[i]);
    }
    if (!rt->contexts_plan(cat, w, model, req, contexts, count, out, err)) {
        for (int i = 0; i < count; ++i) out[i] = Evaluation();
        return false;
    }
    return true;
}

void evaluate_grid(const Catalog& cat, const PreparedWeights& w, const Model& model, const SimRequest& req,
                   const Hardware* const* devices, int n_devices, const int64_t* contexts, int count, Evaluation* out,
                   bool* ok, std::string* errs) {
    const size_t n = (size_t)std::max(n_devices, 0) * (size_t)std::max(count, 0);
    const Runtime* rt = runtime(req.engine);
    if (!rt) {
        for (int d = 0; d < n_devices; ++d) {
            errs[d] = "engine: unknown engine id " + std::to_string((int)req.engine);
            ok[d] = false;
        }
        for (size_t k = 0; k < n; ++k) out[k] = Evaluation();
        return;
    }
    for (size_t k = 0; k < n; ++k) {   // evaluate()'s fields outside the plans
        out[k].speed.ok = false;
        out[k].speed.error.clear();
        out[k].weight_class = w.weight_class;
        copy_weight_figures(w, out[k]);
    }
    rt->grid_plan(cat, w, model, req, devices, n_devices, contexts, count, out, ok, errs);
    for (int d = 0; d < n_devices; ++d)
        if (!ok[d])
            for (int i = 0; i < count; ++i) out[(size_t)d * (size_t)count + (size_t)i] = Evaluation();
}

bool evaluate(const Catalog& cat, const PreparedWeights& w, const Model& model, const SimRequest& req,
              Evaluation& out, std::string& err) {
    // every field is written below or by the runtime's memory and speed plans (llama.cpp: estimate_memory /
    // estimate_speed_view), which reset what they fill (keeping the buffers: no Evaluation temporary per call)
    const Runtime* rt = runtime(req.engine);
    if (!rt) {
        err = "engine: unknown engine id " + std::to_string((int)req.engine);
        out = Evaluation();
        return false;
    }
    out.speed.ok = false;
    out.speed.error.clear();
    out.weight_class = w.weight_class;
    copy_weight_figures(w, out);
    if (!rt->memory_plan(req.engine, w, model, req.memory, out.memory, err)) {
        out = Evaluation();
        return false;
    }
    if (req.with_speed) rt->speed_plan(cat, model, req, out);
    else reset_speed_view(out.speed);
    return true;
}

}  // namespace llmsim
