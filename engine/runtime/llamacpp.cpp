// The llama.cpp runtime (llama-server): the registry entry's three functions name the existing model —
// memory.h's estimate_memory (llama.cpp's buffers and placement rules), speed_glue.h's speed view and
// command.h's llama-server command line. Nothing here computes; see runtime.h.
#include "runtime/runtime.h"

#include <algorithm>
#include <vector>

#include "runtime/command.h"
#include "memory/memory.h"
#include "memory/memory_grid.h"
#include "memory/prepared_weights.h"
#include "quant/mlx_quant.h"
#include "runtime/speed_glue.h"

namespace llmsim::llamacpp {

bool memory_plan(EngineId, const PreparedWeights& weights, const Model& model, const MemoryRequest& req, MemoryBreakdown& out,
                 std::string& err) {
    if (looks_like_mlx_quant(weights.file_type)) {   // mlx-lm's safetensors: no GGUF llama.cpp could load
        err = "quant " + weights.file_type + " is an MLX format; llama.cpp loads GGUF files (run it with engine mlx)";
        return false;
    }
    return estimate_memory(weights, model, req, out, err);
}

void speed_plan(const Catalog& cat, const Model& model, const SimRequest& req, Evaluation& out) {
    estimate_speed_view(cat, model, req, out);
}

bool contexts_plan(const Catalog&, const PreparedWeights& weights, const Model& model, const SimRequest& req,
                   const int64_t* contexts, int count, Evaluation* out, std::string& err) {
    if (count <= 0) return true;
    if (looks_like_mlx_quant(weights.file_type))   // memory_plan's message: llama.cpp loads GGUF files
        return memory_plan(req.engine, weights, model, req.memory, out[0].memory, err);
    // the breakdowns live in the evaluations: estimate_memory_contexts takes them by pointer, a chunk at a time
    constexpr int kChunk = 16;
    MemoryBreakdown* mb[kChunk];
    for (int i0 = 0; i0 < count; i0 += kChunk) {
        const int n = std::min(kChunk, count - i0);
        for (int i = 0; i < n; ++i) mb[i] = &out[i0 + i].memory;
        if (!estimate_memory_contexts(weights, model, req.memory, contexts + i0, n, mb, err)) return false;
    }
    if (!req.with_speed) {
        for (int i = 0; i < count; ++i) reset_speed_view(out[i].speed);
        return true;
    }
    SharedSpeed shared;   // the scenario, prefill and two decodes of this device: made once for the contexts
    for (int i = 0; i < count; ++i) estimate_speed_view_at(model, req, contexts[i], out[i], &shared);
    return true;
}

void grid_plan(const Catalog&, const PreparedWeights& weights, const Model& model, const SimRequest& req,
               const Hardware* const* devices, int n_devices, const int64_t* contexts, int count, Evaluation* out,
               bool* ok, std::string* errs) {
    const size_t stride = (size_t)std::max(count, 0);
    if (looks_like_mlx_quant(weights.file_type)) {   // memory_plan's message, for every device
        for (int d = 0; d < n_devices; ++d)
            ok[d] = count <= 0 || memory_plan(req.engine, weights, model, req.memory, out[(size_t)d * stride].memory, errs[d]);
        return;
    }
    // one device at a time, its speed views right after its breakdowns (its evaluations still in the cache); the
    // breakdowns live in the evaluations, MemoryGrid takes them by pointer
    MemoryGrid grid(weights, model, req.memory, contexts, count);
    std::vector<MemoryBreakdown*> mb(stride);
    SimRequest r = req;
    SharedSpeed shared;   // one device's scenario, prefill and two decodes, made again for each device
    // the scenario's inputs of the model, quant and request and the decodes' model terms (the prompt, depth 0, each
    // context's full depth): made once for every device
    SpeedScenario model_part;
    std::vector<DecodeDepth> depths;
    PrefillPlan prefill;
    if (req.with_speed && n_devices > 0 && count > 0) {
        speed_model_inputs(model, req, out[0], model_part);   // out[0]: evaluate_grid's weight figures
        shared.model_part = &model_part;
        depths.resize((size_t)count + 2);
        plan_decode_depth(model_part, std::max<int64_t>(1, req.prompt_tokens), std::max<int64_t>(1, req.gen_tokens), depths[0]);
        plan_decode_depth(model_part, 0, 128, depths[1]);
        for (int i = 0; i < count; ++i)   // the full context of one sequence (speed_glue.cpp speed_view_parts)
            plan_decode_depth(model_part, std::max<int64_t>(0, contexts[i] / std::max(1, req.memory.n_parallel)), 128,
                              depths[(size_t)i + 2]);
        shared.depths = depths.data();
        shared.n_depths = (int)depths.size();
        plan_prefill(model_part, default_speed_params(), std::max<int64_t>(1, req.prompt_tokens), 0, prefill);
        shared.prefill = &prefill;
    }
    for (int d = 0; d < n_devices; ++d) {
        Evaluation* o = out + (size_t)d * stride;
        for (size_t i = 0; i < stride; ++i) mb[i] = &o[i].memory;
        ok[d] = grid.device(devices[d], mb.data(), errs[d]);
        if (!ok[d]) continue;
        if (!req.with_speed) {
            for (int i = 0; i < count; ++i) reset_speed_view(o[i].speed);
            continue;
        }
        r.memory.hardware = devices[d];
        shared.valid = false;
        for (int i = 0; i < count; ++i) estimate_speed_view_at(model, r, contexts[i], o[i], &shared);
    }
}

std::string command_line(const Catalog& cat, const Model& model, const SimRequest& req, int port) {
    return llama_server_command(cat, model, req, port);
}

}  // namespace llmsim::llamacpp
