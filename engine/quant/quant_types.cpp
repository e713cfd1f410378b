// llmsim quant types: see quant_types.h.
//
// [SECTION] ggml type table
// [SECTION] File type table
// [SECTION] Kernel classes
#include "quant/quant_types.h"
#include "core/text.h"

#include <cctype>
#include <cstddef>
#include <cstring>

namespace llmsim {

namespace {

// every named row sits at the index of its enumerator, so the tables can be indexed by the enum
template <class Row, size_t N, class Id>
constexpr bool rows_at_their_ids(const Row (&rows)[N], Id Row::*id) {
    for (size_t i = 0; i < N; ++i)
        if (rows[i].name != nullptr && (size_t)(rows[i].*id) != i) return false;
    return true;
}
}  // namespace

// [SECTION] ggml type table ------------------------------------------------------------------------------
// ggml/src/ggml.c type_traits[] (blck_size, type_size = sizeof(block_*) from ggml-common.h),
// ggml-org/ggml@d99724f2b141; NVFP4, Q1_0, Q2_0 from ggml-org/llama.cpp@004eaba804a3 ggml/include/ggml.h.

namespace {
using T = TensorType;
constexpr TensorTypeInfo kRemovedType = {T::F32, nullptr, 0, 0, false, false};
constexpr TensorTypeInfo kTypes[] = {
    {.type = T::F32, .name = "F32", .block_size = 1, .type_size = 4, .quantized = false, .in_rules = true},
    {.type = T::F16, .name = "F16", .block_size = 1, .type_size = 2, .quantized = false, .in_rules = true},
    {.type = T::Q4_0, .name = "Q4_0", .block_size = 32, .type_size = 18, .quantized = true, .in_rules = true},
    {.type = T::Q4_1, .name = "Q4_1", .block_size = 32, .type_size = 20, .quantized = true, .in_rules = true},
    kRemovedType,  // 4: Q4_2
    kRemovedType,  // 5: Q4_3
    {.type = T::Q5_0, .name = "Q5_0", .block_size = 32, .type_size = 22, .quantized = true, .in_rules = true},
    {.type = T::Q5_1, .name = "Q5_1", .block_size = 32, .type_size = 24, .quantized = true, .in_rules = true},
    {.type = T::Q8_0, .name = "Q8_0", .block_size = 32, .type_size = 34, .quantized = true, .in_rules = true},
    {.type = T::Q8_1, .name = "Q8_1", .block_size = 32, .type_size = 36, .quantized = true, .in_rules = true},
    {.type = T::Q2_K, .name = "Q2_K", .block_size = 256, .type_size = 84, .quantized = true, .in_rules = true},
    {.type = T::Q3_K, .name = "Q3_K", .block_size = 256, .type_size = 110, .quantized = true, .in_rules = true},
    {.type = T::Q4_K, .name = "Q4_K", .block_size = 256, .type_size = 144, .quantized = true, .in_rules = true},
    {.type = T::Q5_K, .name = "Q5_K", .block_size = 256, .type_size = 176, .quantized = true, .in_rules = true},
    {.type = T::Q6_K, .name = "Q6_K", .block_size = 256, .type_size = 210, .quantized = true, .in_rules = true},
    {.type = T::Q8_K, .name = "Q8_K", .block_size = 256, .type_size = 292, .quantized = true, .in_rules = true},
    {.type = T::IQ2_XXS, .name = "IQ2_XXS", .block_size = 256, .type_size = 66, .quantized = true, .in_rules = true},
    {.type = T::IQ2_XS, .name = "IQ2_XS", .block_size = 256, .type_size = 74, .quantized = true, .in_rules = true},
    {.type = T::IQ3_XXS, .name = "IQ3_XXS", .block_size = 256, .type_size = 98, .quantized = true, .in_rules = true},
    {.type = T::IQ1_S, .name = "IQ1_S", .block_size = 256, .type_size = 50, .quantized = true, .in_rules = true},
    {.type = T::IQ4_NL, .name = "IQ4_NL", .block_size = 32, .type_size = 18, .quantized = true, .in_rules = true},
    {.type = T::IQ3_S, .name = "IQ3_S", .block_size = 256, .type_size = 110, .quantized = true, .in_rules = true},
    {.type = T::IQ2_S, .name = "IQ2_S", .block_size = 256, .type_size = 82, .quantized = true, .in_rules = true},
    {.type = T::IQ4_XS, .name = "IQ4_XS", .block_size = 256, .type_size = 136, .quantized = true, .in_rules = true},
    {.type = T::I8, .name = "I8", .block_size = 1, .type_size = 1, .quantized = false, .in_rules = true},
    {.type = T::I16, .name = "I16", .block_size = 1, .type_size = 2, .quantized = false, .in_rules = true},
    {.type = T::I32, .name = "I32", .block_size = 1, .type_size = 4, .quantized = false, .in_rules = true},
    {.type = T::I64, .name = "I64", .block_size = 1, .type_size = 8, .quantized = false, .in_rules = true},
    {.type = T::F64, .name = "F64", .block_size = 1, .type_size = 8, .quantized = false, .in_rules = true},
    {.type = T::IQ1_M, .name = "IQ1_M", .block_size = 256, .type_size = 56, .quantized = true, .in_rules = true},
    {.type = T::BF16, .name = "BF16", .block_size = 1, .type_size = 2, .quantized = false, .in_rules = true},
    kRemovedType,  // 31: Q4_0_4_4
    kRemovedType,  // 32: Q4_0_4_8
    kRemovedType,  // 33: Q4_0_8_8
    {.type = T::TQ1_0, .name = "TQ1_0", .block_size = 256, .type_size = 54, .quantized = true, .in_rules = true},
    {.type = T::TQ2_0, .name = "TQ2_0", .block_size = 256, .type_size = 66, .quantized = true, .in_rules = true},
    kRemovedType,  // 36: IQ4_NL_4_4
    kRemovedType,  // 37: IQ4_NL_4_8
    kRemovedType,  // 38: IQ4_NL_8_8
    {.type = T::MXFP4, .name = "MXFP4", .block_size = 32, .type_size = 17, .quantized = true, .in_rules = true},
    {.type = T::NVFP4, .name = "NVFP4", .block_size = 64, .type_size = 36, .quantized = true, .in_rules = false},
    {.type = T::Q1_0, .name = "Q1_0", .block_size = 128, .type_size = 18, .quantized = true, .in_rules = false},
    {.type = T::Q2_0, .name = "Q2_0", .block_size = 64, .type_size = 18, .quantized = true, .in_rules = false},
};
static_assert(sizeof(kTypes) / sizeof(kTypes[0]) == (size_t)TensorType::Count, "one row per ggml type id");
static_assert(rows_at_their_ids(kTypes, &TensorTypeInfo::type), "a ggml type row is not at the index of its id");
}  // namespace

const TensorTypeInfo& tensor_type_info(TensorType t) {
    const int i = (int)t;
    if (i < 0 || i >= (int)TensorType::Count || !kTypes[i].name) return kTypes[0];  // unreachable for listed values
    return kTypes[i];
}

const TensorTypeInfo* tensor_type_by_id(uint32_t id) {
    if (id >= (uint32_t)TensorType::Count || !kTypes[id].name) return nullptr;
    return &kTypes[id];
}

std::optional<TensorType> parse_tensor_type(const std::string& name) {
    const std::string u = upper_ascii(name);
    for (const TensorTypeInfo& i : kTypes)
        if (i.name && i.in_rules && u == i.name) return i.type;
    if (u == "FP16") return TensorType::F16;
    if (u == "FP32") return TensorType::F32;
    return std::nullopt;
}

const char* to_string(TensorType t) { return tensor_type_info(t).name; }

// [SECTION] File type table ------------------------------------------------------------------------------
// enum llama_ftype (include/llama.h) and llama_ftype_get_default_type (src/llama-quant.cpp) at
// ggml-org/llama.cpp@007dbbf3fd17; NVFP4, Q1_0, Q2_0 from gguf-py/gguf/constants.py LlamaFileType at
// ggml-org/llama.cpp@0024aa7417ef. Kernel classes: the speed model's fit (assets/calibration/speed_params.json).

namespace {
using F = LlamaFtype;
using K = WeightClass;
constexpr LlamaFtypeInfo kRemovedFtype = {F::ALL_F32, nullptr, T::F32, K::F16, false};
constexpr LlamaFtypeInfo kFtypes[] = {
    {.ftype = F::ALL_F32, .name = "F32", .base = T::F32, .kernel = K::F16, .has_rules = true},
    {.ftype = F::F16, .name = "F16", .base = T::F16, .kernel = K::F16, .has_rules = true},
    {.ftype = F::Q4_0, .name = "Q4_0", .base = T::Q4_0, .kernel = K::Legacy, .has_rules = true},
    {.ftype = F::Q4_1, .name = "Q4_1", .base = T::Q4_1, .kernel = K::Legacy, .has_rules = true},
    kRemovedFtype,  // 4: MOSTLY_Q4_1_SOME_F16
    kRemovedFtype,  // 5: MOSTLY_Q4_2
    kRemovedFtype,  // 6: MOSTLY_Q4_3
    {.ftype = F::Q8_0, .name = "Q8_0", .base = T::Q8_0, .kernel = K::Q8, .has_rules = true},
    {.ftype = F::Q5_0, .name = "Q5_0", .base = T::Q5_0, .kernel = K::Legacy, .has_rules = true},
    {.ftype = F::Q5_1, .name = "Q5_1", .base = T::Q5_1, .kernel = K::Legacy, .has_rules = true},
    {.ftype = F::Q2_K, .name = "Q2_K", .base = T::Q2_K, .kernel = K::KQuantLow, .has_rules = true},
    {.ftype = F::Q3_K_S, .name = "Q3_K_S", .base = T::Q3_K, .kernel = K::KQuantLow, .has_rules = true},
    {.ftype = F::Q3_K_M, .name = "Q3_K_M", .base = T::Q3_K, .kernel = K::KQuantLow, .has_rules = true},
    {.ftype = F::Q3_K_L, .name = "Q3_K_L", .base = T::Q3_K, .kernel = K::KQuantLow, .has_rules = true},
    {.ftype = F::Q4_K_S, .name = "Q4_K_S", .base = T::Q4_K, .kernel = K::KQuant, .has_rules = true},
    {.ftype = F::Q4_K_M, .name = "Q4_K_M", .base = T::Q4_K, .kernel = K::KQuant, .has_rules = true},
    {.ftype = F::Q5_K_S, .name = "Q5_K_S", .base = T::Q5_K, .kernel = K::KQuant, .has_rules = true},
    {.ftype = F::Q5_K_M, .name = "Q5_K_M", .base = T::Q5_K, .kernel = K::KQuant, .has_rules = true},
    {.ftype = F::Q6_K, .name = "Q6_K", .base = T::Q6_K, .kernel = K::KQuant, .has_rules = true},
    {.ftype = F::IQ2_XXS, .name = "IQ2_XXS", .base = T::IQ2_XXS, .kernel = K::KQuantLow, .has_rules = true},
    {.ftype = F::IQ2_XS, .name = "IQ2_XS", .base = T::IQ2_XS, .kernel = K::KQuantLow, .has_rules = true},
    {.ftype = F::Q2_K_S, .name = "Q2_K_S", .base = T::Q2_K, .kernel = K::KQuantLow, .has_rules = true},
    {.ftype = F::IQ3_XS, .name = "IQ3_XS", .base = T::IQ3_S, .kernel = K::KQuantLow, .has_rules = true},
    {.ftype = F::IQ3_XXS, .name = "IQ3_XXS", .base = T::IQ3_XXS, .kernel = K::KQuantLow, .has_rules = true},
    {.ftype = F::IQ1_S, .name = "IQ1_S", .base = T::IQ1_S, .kernel = K::KQuantLow, .has_rules = true},
    {.ftype = F::IQ4_NL, .name = "IQ4_NL", .base = T::IQ4_NL, .kernel = K::Legacy, .has_rules = true},
    {.ftype = F::IQ3_S, .name = "IQ3_S", .base = T::IQ3_S, .kernel = K::KQuantLow, .has_rules = true},
    {.ftype = F::IQ3_M, .name = "IQ3_M", .base = T::IQ3_S, .kernel = K::KQuantLow, .has_rules = true},
    {.ftype = F::IQ2_S, .name = "IQ2_S", .base = T::IQ2_XS, .kernel = K::KQuantLow, .has_rules = true},
    {.ftype = F::IQ2_M, .name = "IQ2_M", .base = T::IQ2_S, .kernel = K::KQuantLow, .has_rules = true},
    {.ftype = F::IQ4_XS, .name = "IQ4_XS", .base = T::IQ4_XS, .kernel = K::KQuant, .has_rules = true},
    {.ftype = F::IQ1_M, .name = "IQ1_M", .base = T::IQ1_M, .kernel = K::KQuantLow, .has_rules = true},
    {.ftype = F::BF16, .name = "BF16", .base = T::BF16, .kernel = K::F16, .has_rules = true},
    kRemovedFtype,  // 33: MOSTLY_Q4_0_4_4
    kRemovedFtype,  // 34: MOSTLY_Q4_0_4_8
    kRemovedFtype,  // 35: MOSTLY_Q4_0_8_8
    {.ftype = F::TQ1_0, .name = "TQ1_0", .base = T::TQ1_0, .kernel = K::KQuantLow, .has_rules = true},
    {.ftype = F::TQ2_0, .name = "TQ2_0", .base = T::TQ2_0, .kernel = K::KQuantLow, .has_rules = true},
    {.ftype = F::MXFP4_MOE, .name = "MXFP4_MOE", .base = T::MXFP4, .kernel = K::Mxfp4, .has_rules = true},
    {.ftype = F::NVFP4, .name = "NVFP4", .base = T::NVFP4, .kernel = K::KQuant, .has_rules = false},
    {.ftype = F::Q1_0, .name = "Q1_0", .base = T::Q1_0, .kernel = K::KQuant, .has_rules = false},
    {.ftype = F::Q2_0, .name = "Q2_0", .base = T::Q2_0, .kernel = K::KQuant, .has_rules = false},
};
static_assert(sizeof(kFtypes) / sizeof(kFtypes[0]) == (size_t)LlamaFtype::Count, "one row per llama_ftype id");
static_assert(rows_at_their_ids(kFtypes, &LlamaFtypeInfo::ftype), "a file type row is not at the index of its id");
}  // namespace

const LlamaFtypeInfo& llama_ftype_info(LlamaFtype f) {
    const int i = (int)f;
    if (i < 0 || i >= (int)LlamaFtype::Count || !kFtypes[i].name) return kFtypes[(int)LlamaFtype::F16];
    return kFtypes[i];
}

const LlamaFtypeInfo* find_llama_ftype(const std::string& name) {
    // no allocation: the speed model asks this once per evaluation
    if (equals_ci(name, "FP16")) return &kFtypes[(int)LlamaFtype::F16];
    if (equals_ci(name, "FP32")) return &kFtypes[(int)LlamaFtype::ALL_F32];
    if (equals_ci(name, "MXFP4")) return &kFtypes[(int)LlamaFtype::MXFP4_MOE];  // llama-bench's / model cards' name
    for (const LlamaFtypeInfo& r : kFtypes)
        if (r.name && equals_ci(name, r.name)) return &r;
    return nullptr;
}

std::optional<LlamaFtype> parse_llama_ftype(const std::string& name) {
    const LlamaFtypeInfo* r = find_llama_ftype(name);
    if (!r || !r->has_rules) return std::nullopt;
    return r->ftype;
}

const char* to_string(LlamaFtype f) {
    const int i = (int)f;
    return i >= 0 && i < (int)LlamaFtype::Count && kFtypes[i].name ? kFtypes[i].name : "?";
}

TensorType ftype_default_type(LlamaFtype f) {
    const int i = (int)f;
    return i >= 0 && i < (int)LlamaFtype::Count && kFtypes[i].name ? kFtypes[i].base : TensorType::F16;
}

// [SECTION] Kernel classes -------------------------------------------------------------------------------

const char* const kWeightClassNames[kWeightClassCount] = {"f16", "q8", "legacy", "kquant", "kquant_low", "mxfp4"};

const char* to_string(WeightClass c) { return kWeightClassNames[(int)c]; }

WeightClass weight_class_of(const std::string& ft) {
    const LlamaFtypeInfo* f = find_llama_ftype(ft);
    return f ? f->kernel : WeightClass::KQuant;   // unsloth UD-Q4_K_XL, MLX, FP8 ...
}

}  // namespace llmsim
