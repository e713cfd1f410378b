// llmsim quant rules: which ggml type llama-quantize gives every tensor of a model under a llama.cpp file type
// (Q4_K_M, IQ4_XS, ...), and the resulting bytes — a per-tensor mix, not a flat bits-per-weight.
//
// Mirrors llama.cpp's llama_tensor_get_type / llama_tensor_get_type_impl / tensor_type_fallback
// (src/llama-quant.cpp at ggml-org/llama.cpp@007dbbf3fd17eefe9b47fee45f48f7ba5e62b714), re-written, not copied.
// The ggml type and file type tables (block size, bytes per block, default types) are in quant_types.h.
// Non-GGUF formats (MLX_4BIT, AWQ, FP8, ...) have no per-tensor rules: they use the catalog's flat_bpw. The MLX names
// (mlx-4bit-g64, mlx-mxfp4, ...: mlx_quant.h) have mlx-lm's own per-tensor rule: bytes per tensor, no ggml types.
//
//   llmsim::WeightSize ws;
//   std::string err;
//   if (!llmsim::compute_weight_size(model, "Q4_K_M", ws, err)) { ... }
//   // ws.tensor_data_bytes, ws.file_bytes_estimate, ws.bits_per_weight, ws.histogram
//
// [SECTION] ggml tensor types
// [SECTION] Per-tensor rules and sizes
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "catalog/catalog.h"
#include "model/model_tensors.h"
#include "quant/quant_types.h"

namespace llmsim {

// [SECTION] ggml tensor types ----------------------------------------------------------------------------
// (the type table itself, TensorType and tensor_type_info, is in quant_types.h)

// bytes of one row of n elements (ggml_row_size); n must be a multiple of the block size
uint64_t row_bytes(TensorType t, uint64_t n);
// bytes of a tensor (ggml_nbytes) stored as type t
uint64_t tensor_bytes(TensorType t, const TensorDesc& d);

// [SECTION] Per-tensor rules and sizes -------------------------------------------------------------------

struct QuantOptions {
    bool imatrix = false;          // an importance matrix was used (changes a few ffn_down / attn_v choices)
    uint64_t exact_tensor_data_bytes = 0;  // the tensor data of the very file (its GGUF header, read): prepared weights
                                           // are scaled to sum to exactly this (0 = the rules' bytes)
};

// the type a tensor has in an unquantized (converter output) F16 GGUF: F32 for vectors, norms, biases,
// routers; F16 for matrices
TensorType source_type(const TensorDesc& d);

// choose the ggml type of every tensor (same order as `tensors`) as llama-quantize would; false + err on
// a model the rules cannot handle
bool assign_tensor_types(const Model& m, LlamaFtype ftype, const std::vector<TensorDesc>& tensors,
                         std::vector<TensorType>& types, std::string& err, const QuantOptions& opt = {});

struct TypeHistogramEntry {
    TensorType type;
    int count = 0;
    uint64_t bytes = 0;
};

struct WeightSize {
    std::string file_type;         // as requested
    bool gguf = true;              // false: flat_bpw format
    uint64_t params = 0;           // total parameters
    uint64_t tensor_data_bytes = 0;  // sum of tensor bytes, each padded to 32 (GGUF alignment) = llama.cpp model buffer
    uint64_t file_bytes_estimate = 0;  // tensor data + estimated GGUF header (tokenizer + tensor infos)
    double bits_per_weight = 0;    // 8 * tensor_data_bytes / params
    std::vector<TypeHistogramEntry> histogram;   // per ggml type (GGUF only), largest first
    std::vector<TensorDesc> tensors;             // GGUF only
    std::vector<TensorType> types;               // GGUF only, parallel to tensors
    std::vector<uint64_t> bytes;                 // GGUF only, parallel to tensors (padded)
};

// GGUF aligns each tensor's data to 32 bytes (GGUF_DEFAULT_ALIGNMENT)
constexpr uint64_t kGgufAlignment = 32;

// weights of `model` stored as `file_type`: GGUF types follow the per-tensor rules; non-GGUF formats from the
// catalog use flat_bpw x params. `cat` may be null (then only GGUF file types are known).
bool compute_weight_size(const Model& m, const std::string& file_type, WeightSize& out, std::string& err,
                         const Catalog* cat = nullptr, const QuantOptions& opt = {});

}  // namespace llmsim
