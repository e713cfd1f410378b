// evaluate(): memory (memory.h) + speed (speed.h) for one scenario. See simulate.h.
#include "simulate.h"

#include <cmath>

#include "quant_rules.h"
#include "speed_glue.h"

namespace llmsim {

namespace {

// bytes a decoded token reads from weights: every tensor once, except routed experts (only k of E are read)
// and the token-embedding table (one row per token, negligible)
uint64_t active_weight_bytes(const Model& m, const WeightSize& w, const ParamCounts& pc) {
    if (!w.gguf || w.tensors.empty()) {
        double bytes_per_param = w.params > 0 ? (double)w.tensor_data_bytes / (double)w.params : 0;
        double active = (double)pc.active - (double)pc.embedding;
        return (uint64_t)std::llround(std::max(0.0, active) * bytes_per_param);
    }
    double total = 0;
    const double expert_fraction = m.is_moe() && m.moe->n_experts > 0
                                       ? (double)m.moe->n_experts_active / (double)m.moe->n_experts : 1.0;
    for (size_t i = 0; i < w.tensors.size(); ++i) {
        const TensorDesc& t = w.tensors[i];
        if (t.name == "token_embd.weight") continue;
        double b = (double)w.bytes[i];
        total += t.routed_expert ? b * expert_fraction : b;
    }
    // a tied output reads the embedding matrix once per token as the output projection
    if (m.tie_embeddings) {
        for (size_t i = 0; i < w.tensors.size(); ++i)
            if (w.tensors[i].name == "token_embd.weight") total += (double)w.bytes[i];
    }
    return (uint64_t)std::llround(total);
}

}  // namespace

bool evaluate(const Catalog& cat, const Model& model, const SimRequest& req, Evaluation& out, std::string& err) {
    out = Evaluation();
    if (!estimate_memory(cat, model, req.memory, out.memory, err)) return false;
    if (!count_params(model, out.params, err)) return false;
    WeightSize w;
    if (!compute_weight_size(model, req.memory.file_type, w, err, &cat)) return false;
    out.active_weight_bytes = active_weight_bytes(model, w, out.params);
    out.weight_bytes = w.tensor_data_bytes;
    for (size_t i = 0; i < w.tensors.size() && i < w.bytes.size(); ++i) {
        if (w.tensors[i].name == "token_embd.weight") out.embedding_bytes += w.bytes[i];
        if (w.tensors[i].routed_expert) out.routed_expert_bytes += w.bytes[i];
    }
    if (req.memory.file_bytes_override > 0 && w.tensor_data_bytes > 0)
        out.active_weight_bytes = (uint64_t)std::llround((double)out.active_weight_bytes *
                                                         (double)req.memory.file_bytes_override / (double)w.file_bytes_estimate);
    if (req.with_speed) estimate_speed_view(cat, model, req, out);
    return true;
}

}  // namespace llmsim
