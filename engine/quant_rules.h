// llmsim quant rules: which ggml type llama-quantize gives every tensor of a model under a llama.cpp file type
// (Q4_K_M, IQ4_XS, ...), and the resulting bytes — a per-tensor mix, not a flat bits-per-weight.
//
// Mirrors llama.cpp's llama_tensor_get_type / llama_tensor_get_type_impl / tensor_type_fallback
// (src/llama-quant.cpp at ggml-org/llama.cpp@007dbbf3fd17eefe9b47fee45f48f7ba5e62b714), re-written, not copied.
// The ggml type table (block size, bytes per block) is ggml's type_traits[] (ggml/src/ggml.c).
// Non-GGUF formats (MLX 4-bit, AWQ, FP8, ...) have no per-tensor rules: they use the catalog's flat_bpw.
//
//   llmsim::WeightSize ws;
//   std::string err;
//   if (!llmsim::compute_weight_size(model, "Q4_K_M", ws, err)) { ... }
//   // ws.tensor_data_bytes, ws.file_bytes_estimate, ws.bits_per_weight, ws.histogram
//
// [SECTION] ggml tensor types
// [SECTION] llama.cpp file types
// [SECTION] Per-tensor rules and sizes
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "catalog.h"
#include "model_tensors.h"

namespace llmsim {

// [SECTION] ggml tensor types ----------------------------------------------------------------------------

// values are enum ggml_type (the GGUF tensor type id)
enum class TensorType : int {
    F32 = 0, F16 = 1, Q4_0 = 2, Q4_1 = 3, Q5_0 = 6, Q5_1 = 7, Q8_0 = 8, Q8_1 = 9,
    Q2_K = 10, Q3_K = 11, Q4_K = 12, Q5_K = 13, Q6_K = 14, Q8_K = 15,
    IQ2_XXS = 16, IQ2_XS = 17, IQ3_XXS = 18, IQ1_S = 19, IQ4_NL = 20, IQ3_S = 21, IQ2_S = 22, IQ4_XS = 23,
    I8 = 24, I16 = 25, I32 = 26, I64 = 27, F64 = 28, IQ1_M = 29, BF16 = 30, TQ1_0 = 34, TQ2_0 = 35, MXFP4 = 39,
};

struct TensorTypeInfo {
    TensorType type;
    const char* name;      // "Q4_K"
    int block_size;        // weights per block
    int type_size;         // bytes per block
    bool quantized;        // ggml_is_quantized
};

// table row of a type; never null for a TensorType value listed above
const TensorTypeInfo& tensor_type_info(TensorType t);
// ggml type by name ("q8_0", "Q4_K", "f16"; case-insensitive); nullopt if unknown
std::optional<TensorType> parse_tensor_type(const std::string& name);
const char* to_string(TensorType t);
// bytes of one row of n elements (ggml_row_size); n must be a multiple of the block size
uint64_t row_bytes(TensorType t, uint64_t n);
// bytes of a tensor (ggml_nbytes) stored as type t
uint64_t tensor_bytes(TensorType t, const TensorDesc& d);

// [SECTION] llama.cpp file types -------------------------------------------------------------------------

// values are enum llama_ftype (LLAMA_FTYPE_*)
enum class LlamaFtype : int {
    ALL_F32 = 0, F16 = 1, Q4_0 = 2, Q4_1 = 3, Q8_0 = 7, Q5_0 = 8, Q5_1 = 9, Q2_K = 10, Q3_K_S = 11, Q3_K_M = 12,
    Q3_K_L = 13, Q4_K_S = 14, Q4_K_M = 15, Q5_K_S = 16, Q5_K_M = 17, Q6_K = 18, IQ2_XXS = 19, IQ2_XS = 20,
    Q2_K_S = 21, IQ3_XS = 22, IQ3_XXS = 23, IQ1_S = 24, IQ4_NL = 25, IQ3_S = 26, IQ3_M = 27, IQ2_S = 28,
    IQ2_M = 29, IQ4_XS = 30, IQ1_M = 31, BF16 = 32, TQ1_0 = 36, TQ2_0 = 37, MXFP4_MOE = 38,
};

// llama.cpp file type by the name llama-quantize uses ("Q4_K_M"; "FP16"/"F16", "BF16", "FP32"/"F32");
// nullopt for names that are not GGUF file types (e.g. "MLX_4BIT")
std::optional<LlamaFtype> parse_llama_ftype(const std::string& name);
const char* to_string(LlamaFtype f);
// the default tensor type of a file type (llama_ftype_get_default_type)
TensorType ftype_default_type(LlamaFtype f);

// [SECTION] Per-tensor rules and sizes -------------------------------------------------------------------

struct QuantOptions {
    bool imatrix = false;          // an importance matrix was used (changes a few ffn_down / attn_v choices)
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
