// The llama.cpp runtime (llama-server): the registry entry's three functions name the existing model —
// memory.h's estimate_memory (llama.cpp's buffers and placement rules), speed_glue.h's speed view and
// command.h's llama-server command line. Nothing here computes; see runtime.h.
#include "runtime/runtime.h"

#include <algorithm>

#include "runtime/command.h"
#include "memory/memory.h"
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
        for (int i = 0; i < count; ++i) out[i].speed = SpeedView();
        return true;
    }
    SharedSpeed shared;   // the scenario, prefill and two decodes of this device: made once for the contexts
    for (int i = 0; i < count; ++i) estimate_speed_view_at(model, req, contexts[i], out[i], &shared);
    return true;
}

std::string command_line(const Catalog& cat, const Model& model, const SimRequest& req, int port) {
    return llama_server_command(cat, model, req, port);
}

}  // namespace llmsim::llamacpp
