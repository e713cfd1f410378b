// Shared mmproj reading for engine/vision and engine/audio (see mmproj.h).
#include "vision/mmproj.h"

#include <cstdio>
#include <optional>

namespace llmsim {

MmprojWeights mmproj_weights_from_layout(const ParamLayout& l) {
    MmprojWeights w;
    w.n_params = l.f16 + l.f32;
    w.weights_bytes = (uint64_t)l.f16 * 2 + (uint64_t)l.f32 * 4;
    w.from_file = false;
    char buf[160];
    snprintf(buf, sizeof buf, "F16 %.1fM + F32 %.1fM params (ggml-org mmproj layout, no file read)", l.f16 / 1e6, l.f32 / 1e6);
    w.types = buf;
    return w;
}

MmprojWeights mmproj_weights_from_file(const GgufInfo& info) {
    MmprojWeights w;
    w.n_params = (int64_t)info.n_elements;
    w.weights_bytes = info.tensor_data_bytes;
    w.from_file = true;
    for (const GgufTypeTotal& t : info.by_type) {
        char buf[96];
        snprintf(buf, sizeof buf, "%s%s %.1fM", w.types.empty() ? "" : " + ", t.type_name, t.n_elements / 1e6);
        w.types += buf;
    }
    w.types += " params (from the file)";
    return w;
}

bool mmproj_is_clip(const GgufInfo& info, std::string& err) {
    if (info.architecture == "clip") return true;
    err = "not an mmproj file: general.architecture is '" + info.architecture + "', not 'clip'";
    return false;
}

bool mmproj_uint(const GgufInfo& info, const char* key, int& dst, int64_t lo, int64_t hi, std::string& err) {
    std::optional<uint64_t> v = info.get_uint(key);
    if (!v || (int64_t)*v < lo || (int64_t)*v > hi) {
        err = std::string("mmproj: ") + key + (v ? " is out of range" : " is missing");
        return false;
    }
    dst = (int)*v;
    return true;
}

std::string mmproj_source(const GgufInfo& info) {
    return "mmproj GGUF header" + (info.name.empty() ? std::string() : " '" + info.name + "'");
}

}  // namespace llmsim
