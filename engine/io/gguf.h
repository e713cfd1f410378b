// GGUF header reader: what a .gguf file says about its model, read from the header alone.
//
// The header (metadata key/values + tensor infos) is a few MiB at the start of a file of many GiB, so the
// reader pulls bytes through a callback (the CLI seeks in the file; the browser hands over a File.slice())
// or parses a prefix already in memory, and never touches tensor data. Input is untrusted: every read is
// bounds-checked, counts and lengths are capped (GgufLimits) and checked against the bytes that could
// possibly hold them before anything is allocated for them, and nothing throws. GGUF v2 and v3,
// little-endian (format: ggml docs/gguf.md; type sizes: ggml's type_traits[]).
//
//   FILE* f = fopen(path, "rb");
//   llmsim::GgufReadFn rd = [f](uint64_t off, void* dst, size_t n) -> size_t {
//       return fseeko(f, (off_t)off, SEEK_SET) == 0 ? fread(dst, 1, n, f) : 0; };
//   llmsim::GgufInfo info;
//   std::string err;
//   if (!llmsim::read_gguf(rd, info, err)) { fprintf(stderr, "%s\n", err.c_str()); return 2; }
//   llmsim::Model m;
//   if (llmsim::model_from_gguf(info, m, err)) printf("%s: %llu bytes of weights\n", m.name.c_str(),
//                                                      (unsigned long long)info.tensor_data_bytes);
//
// [SECTION] Limits and values
// [SECTION] GgufInfo
// [SECTION] Reading
#pragma once
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "catalog/catalog.h"

namespace llmsim {

// [SECTION] Limits and values ----------------------------------------------------------------------------

struct GgufLimits {
    uint64_t max_header_bytes = 64ull << 20;  // stop reading (error) past this many bytes
    uint64_t max_tensors = 1u << 20;           // DeepSeek-V3 has ~1.1k tensors, unmerged-expert files ~20k
    uint64_t max_kv = 1u << 16;
    uint64_t max_key_bytes = 65535;            // gguf.md: keys are at most 2^16-1 bytes
    uint64_t max_string_bytes = 32u << 20;     // tokenizer.huggingface.json can be several MiB
    uint64_t max_array_len = 1u << 26;
    int max_array_depth = 3;                   // arrays of arrays of ...; real files use 1
    uint64_t max_stored_string_bytes = 1u << 20;  // longer strings are kept cut to this (chat templates fit)
    uint64_t max_stored_array_len = 1u << 14;     // numeric arrays up to this length are kept (per-layer values)
};

enum class GgufType : uint32_t {
    U8 = 0, I8 = 1, U16 = 2, I16 = 3, U32 = 4, I32 = 5, F32 = 6, BOOL = 7, STRING = 8, ARRAY = 9,
    U64 = 10, I64 = 11, F64 = 12,
};

struct GgufValue {
    GgufType type = GgufType::U8;
    // numeric and bool values: `num` always; `u`/`i` when the value is a whole number in range
    double num = 0;
    uint64_t u = 0;
    int64_t i = 0;
    bool is_uint = false;              // value fits uint64 (a non-negative whole number)
    std::string str;                   // STRING (cut at max_stored_string_bytes, see str_truncated)
    bool str_truncated = false;
    GgufType array_type = GgufType::U8;  // ARRAY: element type and length
    uint64_t array_len = 0;
    std::vector<double> array_nums;    // ARRAY of numbers/bools with array_len <= max_stored_array_len
};

struct GgufKv {
    std::string key;
    GgufValue value;
};

// [SECTION] GgufInfo -------------------------------------------------------------------------------------

struct GgufTensorInfo {
    std::string name;
    uint32_t n_dims = 0;
    uint64_t dims[4] = {1, 1, 1, 1};   // ne[0] = row length
    uint32_t type = 0;                 // ggml_type id
    uint64_t offset = 0;               // relative to data_offset
    uint64_t n_elements = 0;
    uint64_t bytes = 0;                // ggml_nbytes
};

struct GgufTypeTotal {
    uint32_t type = 0;                 // ggml_type id
    const char* type_name = "";        // "Q4_K"
    uint64_t n_tensors = 0;
    uint64_t n_elements = 0;
    uint64_t bytes = 0;
};

struct GgufInfo {
    uint32_t version = 0;
    uint64_t n_tensors = 0;
    uint64_t n_kv = 0;
    uint32_t alignment = 32;
    std::vector<GgufKv> kv;            // in file order
    std::vector<GgufTensorInfo> tensors;
    uint64_t data_offset = 0;          // file offset of the tensor data (header size incl. padding)
    uint64_t tensor_data_bytes = 0;    // sum of tensor sizes: the weights as loaded
    uint64_t n_elements = 0;           // parameters in this file
    std::vector<GgufTypeTotal> by_type;  // sorted by bytes, largest first

    // well-known keys, filled by the reader
    std::string architecture;          // general.architecture
    std::string name;                  // general.name
    int file_type = -1;                // general.file_type (llama_ftype), -1 = absent
    int64_t vocab_size = 0;            // tokenizer.ggml.tokens length, or <arch>.vocab_size
    int split_count = 1;               // split.count for multi-file models (this info covers one file)

    // lookups; nullptr/nullopt when absent or of another type
    const GgufValue* find(const std::string& key) const;
    std::optional<uint64_t> get_uint(const std::string& key) const;  // any non-negative whole-number value
    std::optional<double> get_number(const std::string& key) const;
    const std::string* get_string(const std::string& key) const;
    // per-layer value: a scalar, or element `layer` of an array; nullopt when absent
    std::optional<double> get_layer_value(const std::string& key, int layer) const;
};

// [SECTION] Reading --------------------------------------------------------------------------------------

// copy up to n bytes at file offset `offset` into dst; return the count copied (less than n only at end of
// file; 0 on error)
using GgufReadFn = std::function<size_t(uint64_t offset, void* dst, size_t n)>;

// read a GGUF header through `read`; false + err (what is wrong, at which byte) on bad input
bool read_gguf(const GgufReadFn& read, GgufInfo& out, std::string& err, const GgufLimits& limits = {});

// read a GGUF header from bytes in memory. When `need_bytes` is null, `data` is the whole file. Otherwise it
// may be a prefix: if the header continues past it, returns false, sets *need_bytes to a larger prefix size
// worth retrying with (0 on any other error) and err says so.
bool read_gguf_buffer(const void* data, size_t size, GgufInfo& out, std::string& err, uint64_t* need_bytes = nullptr,
                      const GgufLimits& limits = {});

// the Model a GGUF header describes (architecture, dimensions, MoE/MLA/SWA/hybrid layout, context);
// false + err when required keys are missing or inconsistent. The weights' size is info.tensor_data_bytes.
bool model_from_gguf(const GgufInfo& info, Model& out, std::string& err);

}  // namespace llmsim
