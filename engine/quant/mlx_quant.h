// llmsim MLX quantization: the formats mlx-lm (`mlx_lm.convert -q`) writes, as one table of modes, and the bytes of
// every tensor of a model stored in one of them. MLX quantizes a matrix in groups along its last axis (the input
// dimension): `affine` keeps one scale and one bias per group in the model's dtype (fp16/bf16, 2 bytes each);
// the microscaling modes keep one 8-bit scale per group and no bias (mlx.core.quantize's table of modes,
// https://ml-explore.github.io/mlx/build/html/python/_autosummary/mlx.core.quantize.html). Which tensors mlx-lm
// quantizes follows mlx_lm/utils.py quantize_model() (ml-explore/mlx-lm@d78bf58e, 2026-08-22): every module with
// `to_quantized` (nn.Linear, nn.Embedding, the MoE SwitchLinear: so the embedding and lm_head too) whose last
// dimension divides by the group size; norms, biases and convolutions stay in the model's dtype. MoE routers go to
// 8 bits, group 64 (the models' quant_predicate, e.g. mlx_lm/models/qwen3_moe.py: `mlp.gate` -> bits 8).
//
//   std::optional<llmsim::MlxQuant> q = llmsim::parse_mlx_quant("mlx-4bit-g64");   // nullopt: not an MLX name
//   llmsim::MlxWeightSize ws;
//   std::string err;
//   if (q && llmsim::compute_mlx_weight_size(model, *q, ws, err)) printf("%.2f GB\n", ws.total_bytes / 1e9);
//
// [SECTION] Modes
// [SECTION] Names
// [SECTION] Sizes
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "catalog/catalog.h"
#include "model/model_tensors.h"

namespace llmsim {

// [SECTION] Modes ----------------------------------------------------------------------------------------

// values index kMlxModes (mlx_quant.cpp); Count = the number of modes. None = unquantized (the model's fp16/bf16)
enum class MlxQuantMode : int { None = 0, Affine, Mxfp4, Nvfp4, Mxfp8, Count };

struct MlxModeInfo {
    MlxQuantMode mode;
    const char* name;          // mlx's mode string: "affine", "mxfp4" ... ("none" for unquantized)
    int default_bits;          // mlx_lm/utils.py quantize_model defaults_for_mode
    int default_group_size;
    unsigned bits_allowed;     // bit k set: k bits per weight allowed (mlx.core.quantize's table)
    unsigned groups_allowed;   // bit 0: 16, bit 1: 32, bit 2: 64, bit 3: 128
    double scale_bytes;        // per group; affine: the model dtype's 2 bytes (scales "same as input")
    double bias_bytes;         // per group; 0 for the microscaling modes (no bias)
};

// the row of a mode; `m` must be a valid enumerator (not Count)
const MlxModeInfo& mlx_mode_info(MlxQuantMode m);

// one MLX quantization: mode, bits per weight and group size
struct MlxQuant {
    MlxQuantMode mode = MlxQuantMode::Affine;
    int bits = 4;
    int group_size = 64;
};

// bits per quantized weight including the group's scale and bias: bits + 8 x (scale + bias bytes) / group
// (affine 4-bit g64: 4 + 32/64 = 4.5; mxfp4: 4 + 8/32 = 4.25); 16 for None
double mlx_bits_per_weight(const MlxQuant& q);

// [SECTION] Names ----------------------------------------------------------------------------------------
// The names users and pickers type: "mlx-4bit-g64" (affine, any allowed bits and group), "mlx-4bit" (group 64, the
// mlx_lm.convert default), "mlx-mxfp4", "mlx-nvfp4", "mlx-mxfp8", "mlx-bf16" (unquantized). Case-insensitive.

// the quantization a name stands for; nullopt when it is no MLX name or names a combination mlx does not support
std::optional<MlxQuant> parse_mlx_quant(const std::string& name);
// the canonical name: "mlx-4bit-g64", "mlx-mxfp4", "mlx-bf16"
std::string mlx_quant_name(const MlxQuant& q);
// true when `name` starts with "mlx-" (an MLX name, valid or not: the error then says why)
bool looks_like_mlx_quant(const std::string& name);
// why `name` is no valid MLX quantization (unsupported bits or group), listing what is allowed
std::string mlx_quant_error(const std::string& name);
// the names a quant picker offers for MLX, most bits first (the common mlx-community repos: 8, 6, 4, 3 bit g64,
// 4-bit g32 / g128, mxfp4, bf16)
const std::vector<std::string>& mlx_quant_picker_names();

// the llama.cpp file type a side-by-side on the same Mac compares an MLX quantization with: the K-quant of the same
// bit width (4 -> Q4_K_M, 8 -> Q8_0, 6 -> Q6_K ...), MXFP4_MOE for mxfp4, F16 for unquantized
std::string mlx_counterpart_file_type(const MlxQuant& q);

// [SECTION] Sizes ----------------------------------------------------------------------------------------

struct MlxWeightSize {
    MlxQuant quant;
    uint64_t params = 0;             // all parameters (tied embeddings once)
    uint64_t total_bytes = 0;        // every tensor as mlx-lm saves it (the safetensors payload, headers excluded)
    uint64_t quantized_bytes = 0;    // packed weights + scales + biases of the quantized matrices
    uint64_t unquantized_bytes = 0;  // tensors left in the model dtype (norms, biases, convolutions, odd shapes)
    double bits_per_weight = 0;      // 8 x total_bytes / params (what mlx_lm.convert prints as "bits per weight")
    std::vector<TensorDesc> tensors; // enumerate_tensors() order
    std::vector<uint64_t> bytes;     // parallel to tensors
};

// bytes of one tensor stored under `q` (quantized when mlx-lm would, else 2 bytes per element)
uint64_t mlx_tensor_bytes(const TensorDesc& t, const MlxQuant& q);
// the model's weights stored under `q`; false + err when the model cannot be enumerated
bool compute_mlx_weight_size(const Model& m, const MlxQuant& q, MlxWeightSize& out, std::string& err);

}  // namespace llmsim
