// The llama.cpp runtime (llama-server): the registry entry's three functions name the existing model —
// memory.h's estimate_memory (llama.cpp's buffers and placement rules), speed_glue.h's speed view and
// command.h's llama-server command line. Nothing here computes; see runtime.h.
#include "runtime/runtime.h"

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

std::string command_line(const Catalog& cat, const Model& model, const SimRequest& req, int port) {
    return llama_server_command(cat, model, req, port);
}

}  // namespace llmsim::llamacpp
