// llmsim quant types: the one table of ggml tensor types (ggml's type_traits[]: name, block size, bytes per
// block) and the one table of llama.cpp file types (LLAMA_FTYPE_*: name, default tensor type, matmul kernel
// class). The quant rules, the GGUF reader, the speed model and the UI all read these; the catalog's
// assets/catalog/quants.json is checked against them (tests/engine/test_quant_types.cpp).
//
//   const llmsim::TensorTypeInfo& q = llmsim::tensor_type_info(llmsim::TensorType::Q4_K);  // 256 weights, 144 B
//   const llmsim::LlamaFtypeInfo* f = llmsim::find_llama_ftype("q4_k_m");   // base Q4_K, kernel KQuant
//
// Adding a type: one enumerator (value = the ggml/llama.cpp id) and one row in quant_types.cpp; the
// static_asserts there fail until both are in place.
//
// [SECTION] Kernel classes
// [SECTION] ggml tensor types
// [SECTION] llama.cpp file types
#pragma once
#include <cstdint>
#include <optional>
#include <string>

namespace llmsim {

// [SECTION] Kernel classes -------------------------------------------------------------------------------

// the kernel family that does the bulk of the matmuls; they reach different shares of bandwidth and FLOP/s
enum class WeightClass { F16, Q8, Legacy, KQuant, KQuantLow, Mxfp4, Count };
constexpr int kWeightClassCount = (int)WeightClass::Count;
// the names the fitted speed parameters' tables use ("f16", "q8", "legacy", "kquant", "kquant_low", "mxfp4")
extern const char* const kWeightClassNames[kWeightClassCount];
const char* to_string(WeightClass c);
// the weight class of a llama.cpp file type name from the file type table ("Q4_K_M" -> KQuant, "Q4_0" -> Legacy,
// "F16"/"BF16" -> F16 ...); names that are no llama.cpp file type (unsloth UD-* mixes, MLX, FP8 ...) -> KQuant
// (defined with the file type table, quant_types.cpp)
WeightClass weight_class_of(const std::string& file_type);

// [SECTION] ggml tensor types ----------------------------------------------------------------------------

// values are enum ggml_type (the GGUF tensor type id); ids ggml removed (4, 5, 31-33, 36-38) have no name
enum class TensorType : int {
    F32 = 0, F16 = 1, Q4_0 = 2, Q4_1 = 3, Q5_0 = 6, Q5_1 = 7, Q8_0 = 8, Q8_1 = 9,
    Q2_K = 10, Q3_K = 11, Q4_K = 12, Q5_K = 13, Q6_K = 14, Q8_K = 15,
    IQ2_XXS = 16, IQ2_XS = 17, IQ3_XXS = 18, IQ1_S = 19, IQ4_NL = 20, IQ3_S = 21, IQ2_S = 22, IQ4_XS = 23,
    I8 = 24, I16 = 25, I32 = 26, I64 = 27, F64 = 28, IQ1_M = 29, BF16 = 30, TQ1_0 = 34, TQ2_0 = 35, MXFP4 = 39,
    NVFP4 = 40, Q1_0 = 41, Q2_0 = 42,
    Count = 43
};

struct TensorTypeInfo {
    TensorType type;
    const char* name;      // "Q4_K"; nullptr for an id ggml removed
    int block_size;        // weights per block
    int type_size;         // bytes per block
    bool quantized;        // ggml_is_quantized
    bool in_rules;         // the pinned llama.cpp of the quant rules knows it (false: newer types a GGUF may hold)
};

// table row of a type; never null for a TensorType value listed above
const TensorTypeInfo& tensor_type_info(TensorType t);
// table row for a GGUF tensor type id; nullptr for ids no GGUF file may hold (removed or unknown)
const TensorTypeInfo* tensor_type_by_id(uint32_t id);
// ggml type by name ("q8_0", "Q4_K", "f16", "FP16"; case-insensitive) among the types the quant rules know;
// nullopt if unknown
std::optional<TensorType> parse_tensor_type(const std::string& name);
const char* to_string(TensorType t);

// [SECTION] llama.cpp file types -------------------------------------------------------------------------

// values are enum llama_ftype (LLAMA_FTYPE_*); ids llama.cpp removed (4-6, 33-35) have no name
enum class LlamaFtype : int {
    ALL_F32 = 0, F16 = 1, Q4_0 = 2, Q4_1 = 3, Q8_0 = 7, Q5_0 = 8, Q5_1 = 9, Q2_K = 10, Q3_K_S = 11, Q3_K_M = 12,
    Q3_K_L = 13, Q4_K_S = 14, Q4_K_M = 15, Q5_K_S = 16, Q5_K_M = 17, Q6_K = 18, IQ2_XXS = 19, IQ2_XS = 20,
    Q2_K_S = 21, IQ3_XS = 22, IQ3_XXS = 23, IQ1_S = 24, IQ4_NL = 25, IQ3_S = 26, IQ3_M = 27, IQ2_S = 28,
    IQ2_M = 29, IQ4_XS = 30, IQ1_M = 31, BF16 = 32, TQ1_0 = 36, TQ2_0 = 37, MXFP4_MOE = 38,
    NVFP4 = 39, Q1_0 = 40, Q2_0 = 41,
    Count = 42
};

struct LlamaFtypeInfo {
    LlamaFtype ftype;
    const char* name;      // as llama-quantize names it ("Q4_K_M"); nullptr for an id llama.cpp removed
    TensorType base;       // llama_ftype_get_default_type
    WeightClass kernel;    // the kernel family of most of its matmuls (speed model)
    bool has_rules;        // the per-tensor rules (quant_rules.cpp) cover it; false: newer than their pinned commit
};

// table row of a file type; never null for a LlamaFtype value listed above
const LlamaFtypeInfo& llama_ftype_info(LlamaFtype f);
// file type by name, case-insensitive, with the aliases "FP16"/"FP32" and "MXFP4" (= MXFP4_MOE), including
// types without per-tensor rules; nullptr if the name is no llama.cpp file type (e.g. "MLX_4BIT", "UD-Q4_K_XL")
const LlamaFtypeInfo* find_llama_ftype(const std::string& name);
// llama.cpp file type by name among those the per-tensor rules cover; nullopt otherwise
std::optional<LlamaFtype> parse_llama_ftype(const std::string& name);
const char* to_string(LlamaFtype f);
// the default tensor type of a file type (llama_ftype_get_default_type)
TensorType ftype_default_type(LlamaFtype f);

}  // namespace llmsim
