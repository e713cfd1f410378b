// libFuzzer target: the GGUF header reader (engine/io/gguf.h) on arbitrary bytes, through both entry points
// (callback with short reads, and an in-memory prefix), then model_from_gguf and the parameter count on
// whatever parses. Small limits make the fuzzer reach the caps quickly.
#include <cstdint>
#include <cstring>
#include <string>

#include "io/gguf.h"
#include "model/model_tensors.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    llmsim::GgufLimits lim;
    lim.max_header_bytes = 1u << 20;
    lim.max_tensors = 4096;
    lim.max_kv = 4096;
    lim.max_string_bytes = 1u << 16;
    lim.max_array_len = 1u << 16;
    lim.max_stored_string_bytes = 4096;
    lim.max_stored_array_len = 512;

    // callback reader over the bytes (short reads only at the end, as the contract says)
    llmsim::GgufReadFn rd = [&](uint64_t off, void* dst, size_t n) -> size_t {
        if (off >= size) return 0;
        const size_t take = (size_t)std::min<uint64_t>(n, size - off);
        std::memcpy(dst, data + off, take);
        return take;
    };
    llmsim::GgufInfo info;
    std::string err;
    const bool ok = llmsim::read_gguf(rd, info, err, lim);
    if (!ok && err.empty()) __builtin_trap();  // every failure must say why

    llmsim::GgufInfo info2;
    std::string err2;
    uint64_t need = 0;
    const bool ok2 = llmsim::read_gguf_buffer(data, size, info2, err2, &need, lim);
    if (ok != ok2) __builtin_trap();  // both entry points agree
    if (!ok2 && err2.empty()) __builtin_trap();

    if (ok) {
        for (const auto& kv : info.kv) (void)info.get_layer_value(kv.key, 1);
        llmsim::Model m;
        std::string merr;
        if (llmsim::model_from_gguf(info, m, merr)) {
            llmsim::ParamCounts pc;
            std::string perr;
            (void)llmsim::count_params(m, pc, perr);
        } else if (merr.empty()) {
            __builtin_trap();
        }
    }
    return 0;
}
