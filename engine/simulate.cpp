// evaluate(): memory (memory.h) + speed (speed.h) for one scenario. See simulate.h.
#include "simulate.h"

#include "prepared_weights.h"
#include "speed_glue.h"

namespace llmsim {

uint64_t limit_side_bytes(const MemoryBreakdown& mb) {
    // devices = GPUs first, then "host"; a CPU-only placement has only "host"
    if (mb.devices.size() <= 1) return mb.total_bytes;
    uint64_t gpu = 0;
    for (size_t i = 0; i + 1 < mb.devices.size(); ++i) gpu += mb.devices[i].total_bytes;
    return gpu;
}

bool evaluate(const Catalog& cat, const Model& model, const SimRequest& req, Evaluation& out, std::string& err) {
    out = Evaluation();
    // weights, parameter counts and the bytes a decoded token reads come prepared (cached per model and quant):
    // no tensor enumeration or quant rules per call
    const std::shared_ptr<const PreparedWeights> w =
        prepare_weights(cat, model, req.memory.file_type, err, req.memory.file_bytes_override);
    if (!w) return false;
    if (!estimate_memory(*w, model, req.memory, out.memory, err)) return false;
    out.params = w->params;
    out.active_weight_bytes = w->active_weight_bytes;
    out.weight_bytes = w->weights_bytes;
    out.embedding_bytes = w->token_embd_bytes;
    out.routed_expert_bytes = w->gguf_routed_expert_bytes;
    if (!w->full_layers_prefix.empty() && !w->swa_layers_prefix.empty()) {
        out.full_attn_layers = w->full_layers_prefix.back();
        out.swa_layers = w->swa_layers_prefix.back();
        out.kv_k_row = w->kv_k_row;
        out.kv_v_row = w->kv_v_row;
    }
    if (req.with_speed) estimate_speed_view(cat, model, req, out);
    return true;
}

}  // namespace llmsim
