// llmsim side by side: one model on one Mac under MLX (mlx-lm) and under llama.cpp, each with its own quantization of
// the same bit width (quant/mlx_quant.h mlx_counterpart_file_type: mlx-4bit-g64 beside Q4_K_M), so the UI and the
// CLI show the same comparison: memory per engine, decode and prefill speed, each engine's command line.
//
//   llmsim::SimRequest req; req.memory.file_type = "mlx-4bit-g64"; req.memory.hardware = cat.find_hardware("m4-max-128");
//   llmsim::SideBySide s;
//   if (llmsim::mlx_side_by_side(cat, *model, req, s)) printf("%s vs %s\n", s.mlx.quant.c_str(), s.llamacpp.quant.c_str());
#pragma once
#include <string>

#include "runtime/scenario.h"

namespace llmsim {

struct EngineColumn {
    EngineId engine = EngineId::LlamaCpp;
    std::string quant;          // the file type this engine runs ("mlx-4bit-g64", "Q4_K_M")
    bool ok = false;            // evaluated; false: error says why
    std::string error;
    Evaluation ev;
    std::string command;        // the engine's command line for this setup
};

struct SideBySide {
    EngineColumn mlx, llamacpp;
};

// MLX at req.memory.file_type (an MLX name; a GGUF type is mapped the other way: Q4_K_M -> mlx-4bit-g64) and llama.cpp at
// its counterpart, both on req.memory.hardware; false when the device is not Apple Silicon or neither column evaluates
bool mlx_side_by_side(const Catalog& cat, const Model& model, const SimRequest& req, SideBySide& out);
// the MLX quantization that stands beside a llama.cpp file type (Q4_K_M -> mlx-4bit-g64, Q8_0 -> mlx-8bit-g64,
// F16/BF16 -> mlx-bf16, MXFP4_MOE -> mlx-mxfp4); the file type's bit width decides; mlx-4bit-g64 when none fits
std::string mlx_quant_beside(const std::string& file_type);

}  // namespace llmsim
