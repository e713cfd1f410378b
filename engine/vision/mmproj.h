// What the vision and audio encoders read from an mmproj file the same way: the clip header check, bounded integer
// keys, and the weights either from the file's tensors or from ggml-org's F16/F32 layout when no file is read.
#pragma once
#include <cstdint>
#include <string>

#include "io/gguf.h"

namespace llmsim {

// parameters of an encoder laid out as ggml-org's converters write it: matrices F16, norms and biases F32
struct ParamLayout {
    int64_t f16 = 0, f32 = 0;
};

struct MmprojWeights {
    int64_t n_params = 0;
    uint64_t weights_bytes = 0;
    bool from_file = false;
    std::string types;   // "F16 300.1M + F32 0.4M params (...)"
};

MmprojWeights mmproj_weights_from_layout(const ParamLayout& l);
MmprojWeights mmproj_weights_from_file(const GgufInfo& info);

// false (err says why) unless general.architecture is "clip"
bool mmproj_is_clip(const GgufInfo& info, std::string& err);
// reads an unsigned key into dst when it lies in [lo, hi]; else false and err names the key
bool mmproj_uint(const GgufInfo& info, const char* key, int& dst, int64_t lo, int64_t hi, std::string& err);
// "mmproj GGUF header 'name'"
std::string mmproj_source(const GgufInfo& info);

template <class Encoder>
void set_mmproj_weights(Encoder& e, const MmprojWeights& w) {
    e.n_params = w.n_params;
    e.weights_bytes = w.weights_bytes;
    e.weights_from_file = w.from_file;
    e.weights_types = w.types;
}

}  // namespace llmsim
