// A minimal GGUF v3 header writer for tests (string / u32 keys, F16 / F32 tensor infos, no tensor data), shared by
// the vision and audio engine tests and the UI's mmproj import test:
//   MiniGguf w; w.str("general.architecture", "clip").u32("clip.vision.block_count", 27).tensor("v.x", 64, 64, 1);
//   std::vector<uint8_t> bytes = w.build();
#pragma once
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

// a minimal GGUF v3 header: string/u32/bool keys and F16/F32 tensors (no data)
struct MiniGguf {
    std::vector<uint8_t> kv, ti;
    uint64_t n_kv = 0, n_t = 0, off = 0;
    template <class T> static void le(std::vector<uint8_t>& b, T v) {
        uint8_t x[sizeof(T)];
        std::memcpy(x, &v, sizeof(T));
        b.insert(b.end(), x, x + sizeof(T));
    }
    static void s(std::vector<uint8_t>& b, const std::string& v) { le<uint64_t>(b, v.size()); b.insert(b.end(), v.begin(), v.end()); }
    MiniGguf& str(const std::string& k, const std::string& v) { s(kv, k); le<uint32_t>(kv, 8); s(kv, v); ++n_kv; return *this; }
    MiniGguf& u32(const std::string& k, uint32_t v) { s(kv, k); le<uint32_t>(kv, 4); le<uint32_t>(kv, v); ++n_kv; return *this; }
    MiniGguf& boolean(const std::string& k, bool v) { s(kv, k); le<uint32_t>(kv, 7); le<uint8_t>(kv, v ? 1 : 0); ++n_kv; return *this; }
    MiniGguf& tensor(const std::string& name, uint64_t d0, uint64_t d1, uint32_t type) {
        s(ti, name); le<uint32_t>(ti, d1 > 1 ? 2 : 1); le<uint64_t>(ti, d0);
        if (d1 > 1) le<uint64_t>(ti, d1);
        le<uint32_t>(ti, type); le<uint64_t>(ti, off);
        off += (d0 * d1 * (type == 1 ? 2 : 4) + 31) / 32 * 32;
        ++n_t;
        return *this;
    }
    std::vector<uint8_t> build() const {
        std::vector<uint8_t> b = {'G', 'G', 'U', 'F'};
        le<uint32_t>(b, 3); le<uint64_t>(b, n_t); le<uint64_t>(b, n_kv);
        b.insert(b.end(), kv.begin(), kv.end());
        b.insert(b.end(), ti.begin(), ti.end());
        while (b.size() % 32) b.push_back(0);
        return b;
    }
};
