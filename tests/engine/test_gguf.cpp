// engine/io/gguf.cpp: GGUF header reading on files built here by a tiny writer - valid v2/v3 files, header-only
// reads, prefixes, and hostile input (truncation at every byte, huge counts, bad types, deep nesting, byte flips).
#include <catch2/catch.hpp>

#include <cstring>
#include <fstream>
#include <sstream>
#include <nlohmann/json.hpp>

#include "io/gguf.h"
#include "quant/quant_types.h"

using namespace llmsim;

namespace {

// [SECTION] a tiny GGUF writer ---------------------------------------------------------------------------

struct Bytes {
    std::vector<uint8_t> b;
    Bytes& raw(const void* p, size_t n) {
        b.insert(b.end(), (const uint8_t*)p, (const uint8_t*)p + n);
        return *this;
    }
    template <class T>
    Bytes& le(T v) {
        uint64_t x = 0;
        std::memcpy(&x, &v, sizeof(T));
        for (size_t i = 0; i < sizeof(T); ++i) b.push_back(uint8_t(x >> (8 * i)));
        return *this;
    }
    Bytes& str(const std::string& s) {
        le<uint64_t>(s.size());
        return raw(s.data(), s.size());
    }
};

enum : uint32_t { U8 = 0, I8, U16, I16, U32, I32, F32, BOOL, STR, ARR, U64, I64, F64 };

struct Tensor {
    std::string name;
    std::vector<uint64_t> dims;
    uint32_t type;
    uint64_t bytes;
};

struct Writer {
    uint32_t version = 3;
    Bytes kvs;
    uint64_t n_kv = 0;
    std::vector<Tensor> tensors;
    std::optional<uint64_t> n_kv_override, n_tensors_override;
    uint32_t alignment = 32;

    Writer& u32(const std::string& k, uint32_t v) { return key(k, U32).raw_le(v); }
    Writer& u64(const std::string& k, uint64_t v) { return key(k, U64).raw_le(v); }
    Writer& f32(const std::string& k, float v) { return key(k, F32).raw_le(v); }
    Writer& boolean(const std::string& k, bool v) { return key(k, BOOL).raw_le(uint8_t(v)); }
    Writer& str(const std::string& k, const std::string& v) {
        key(k, STR);
        kvs.str(v);
        return *this;
    }
    Writer& arr_i32(const std::string& k, const std::vector<int32_t>& v) {
        key(k, ARR);
        kvs.le<uint32_t>(I32).le<uint64_t>(v.size());
        for (int32_t x : v) kvs.le(x);
        return *this;
    }
    Writer& arr_str(const std::string& k, size_t n) {
        key(k, ARR);
        kvs.le<uint32_t>(STR).le<uint64_t>(n);
        for (size_t i = 0; i < n; ++i) kvs.str("t" + std::to_string(i));
        return *this;
    }
    // a key with raw value bytes appended by the caller through kvs
    Writer& key(const std::string& k, uint32_t type) {
        kvs.str(k).le(type);
        ++n_kv;
        return *this;
    }
    template <class T>
    Writer& raw_le(T v) {
        kvs.le(v);
        return *this;
    }
    Writer& tensor(const std::string& name, std::vector<uint64_t> dims, uint32_t type) {
        const TensorTypeInfo* ts = tensor_type_by_id(type);
        uint64_t n = 1;
        for (auto d : dims) n *= d;
        tensors.push_back({name, dims, type, ts ? n / (uint64_t)ts->block_size * (uint64_t)ts->type_size : 0});
        return *this;
    }

    // header bytes (+ `data_bytes` zero bytes of tensor data); offsets packed and aligned
    std::vector<uint8_t> build(size_t data_bytes = 0) const {
        Bytes out;
        out.raw("GGUF", 4).le(version).le<uint64_t>(n_tensors_override.value_or(tensors.size()));
        out.le<uint64_t>(n_kv_override.value_or(n_kv));
        out.raw(kvs.b.data(), kvs.b.size());
        uint64_t off = 0;
        for (const Tensor& t : tensors) {
            out.str(t.name).le<uint32_t>((uint32_t)t.dims.size());
            for (auto d : t.dims) out.le(d);
            out.le(t.type).le(off);
            off += t.bytes;
            off = (off + alignment - 1) / alignment * alignment;
        }
        while (out.b.size() % alignment) out.b.push_back(0);
        out.b.resize(out.b.size() + data_bytes, 0);
        return out.b;
    }
};

// a 2-layer llama with GQA, Q4_K/Q6_K weights and a 100-token vocabulary
Writer tiny_llama() {
    Writer w;
    w.str("general.architecture", "llama")
        .str("general.name", "Tiny Llama")
        .u32("general.file_type", 15)
        .u32("llama.block_count", 2)
        .u64("llama.context_length", 4096)
        .u64("llama.embedding_length", 256)
        .u64("llama.feed_forward_length", 512)
        .u64("llama.attention.head_count", 8)
        .u64("llama.attention.head_count_kv", 2)
        .f32("llama.rope.freq_base", 500000.0f)
        .str("tokenizer.ggml.model", "gpt2")
        .arr_str("tokenizer.ggml.tokens", 100)
        .boolean("tokenizer.ggml.add_bos_token", true);
    w.tensor("token_embd.weight", {256, 100}, 12).tensor("output_norm.weight", {256}, 0).tensor("output.weight", {256, 100}, 14);
    for (int l = 0; l < 2; ++l) {
        const std::string p = "blk." + std::to_string(l) + ".";
        w.tensor(p + "attn_q.weight", {256, 256}, 12)
            .tensor(p + "attn_k.weight", {256, 64}, 12)
            .tensor(p + "attn_v.weight", {256, 64}, 14)
            .tensor(p + "attn_output.weight", {256, 256}, 12)
            .tensor(p + "ffn_gate.weight", {256, 512}, 12)
            .tensor(p + "ffn_up.weight", {256, 512}, 12)
            .tensor(p + "ffn_down.weight", {512, 256}, 14)
            .tensor(p + "attn_norm.weight", {256}, 0)
            .tensor(p + "ffn_norm.weight", {256}, 0);
    }
    return w;
}

std::string read_err(const std::vector<uint8_t>& file, GgufInfo* info_out = nullptr, const GgufLimits& lim = {}) {
    GgufInfo info;
    std::string err;
    const bool ok = read_gguf_buffer(file.data(), file.size(), info, err, nullptr, lim);
    if (ok && info_out) *info_out = info;
    return ok ? std::string() : err;
}

// header prefix up to (not including) the first tensor info; `kv_bytes` appended as the only KV
std::vector<uint8_t> with_kv(const std::function<void(Bytes&)>& kv_bytes, uint64_t n_kv = 1) {
    Bytes b;
    b.raw("GGUF", 4).le<uint32_t>(3).le<uint64_t>(0).le<uint64_t>(n_kv);
    kv_bytes(b);
    return b.b;
}

}  // namespace

TEST_CASE("gguf: a valid v3 header", "[gguf]") {
    const Writer w = tiny_llama();
    const auto file = w.build(4096);
    GgufInfo info;
    REQUIRE(read_err(file, &info) == "");
    CHECK(info.version == 3);
    CHECK(info.n_kv == 13);
    CHECK(info.kv.size() == 13);
    CHECK(info.n_tensors == 21);
    CHECK(info.architecture == "llama");
    CHECK(info.name == "Tiny Llama");
    CHECK(info.file_type == 15);
    CHECK(info.vocab_size == 100);
    CHECK(info.alignment == 32);
    CHECK(info.data_offset % 32 == 0);
    CHECK(info.data_offset == file.size() - 4096);
    CHECK(*info.get_uint("llama.block_count") == 2);
    CHECK(*info.get_number("llama.rope.freq_base") == Approx(500000.0));
    CHECK(*info.get_string("tokenizer.ggml.model") == "gpt2");
    CHECK(!info.get_string("llama.block_count"));
    CHECK(!info.get_uint("nope"));
    CHECK(info.find("tokenizer.ggml.tokens")->array_len == 100);
    CHECK(info.find("tokenizer.ggml.add_bos_token")->num == 1);

    // bytes per type: Q4_K = 144 bytes / 256 weights, Q6_K = 210 / 256, F32 = 4
    uint64_t q4k = 0, q6k = 0, f32 = 0, elems = 0;
    for (const auto& t : w.tensors) {
        uint64_t n = 1;
        for (auto d : t.dims) n *= d;
        elems += n;
        (t.type == 12 ? q4k : t.type == 14 ? q6k : f32) += t.bytes;
    }
    CHECK(q4k == (256 * 100 + 2 * (256 * 256 * 2 + 256 * 64 + 256 * 512 * 2)) / 256 * 144);
    CHECK(info.tensor_data_bytes == q4k + q6k + f32);
    CHECK(info.n_elements == elems);
    REQUIRE(info.by_type.size() == 3);
    CHECK(std::string(info.by_type[0].type_name) == "Q4_K");  // largest first
    CHECK(info.by_type[0].bytes == q4k);
    CHECK(info.by_type[0].n_tensors == 11);
    REQUIRE(info.tensors.size() == 21);
    CHECK(info.tensors[0].name == "token_embd.weight");
    CHECK(info.tensors[0].n_dims == 2);
    CHECK(info.tensors[0].dims[1] == 100);
    CHECK(info.tensors[1].offset == 14400);  // 25600 / 256 * 144, already 32-aligned
}

TEST_CASE("gguf: v2 files read the same", "[gguf]") {
    Writer w = tiny_llama();
    w.version = 2;
    GgufInfo info;
    REQUIRE(read_err(w.build(), &info) == "");
    CHECK(info.version == 2);
    CHECK(info.n_tensors == 21);
}

TEST_CASE("gguf: model_from_gguf on a dense llama", "[gguf]") {
    GgufInfo info;
    REQUIRE(read_err(tiny_llama().build(), &info) == "");
    Model m;
    std::string err;
    REQUIRE(model_from_gguf(info, m, err));
    CHECK(m.arch == "llama");
    CHECK(m.name == "Tiny Llama");
    CHECK(m.n_layers == 2);
    CHECK(m.hidden_size == 256);
    CHECK(m.intermediate_size == 512);
    CHECK(m.n_heads == 8);
    CHECK(m.n_kv_heads == 2);
    CHECK(m.head_dim == 32);
    CHECK(m.vocab_size == 100);
    CHECK(m.native_context == 4096);
    CHECK(!m.tie_embeddings);  // output.weight present
    CHECK(!m.qkv_bias);
    CHECK(!m.qk_norm);
    CHECK(m.gated_ffn);
    CHECK(!m.moe);
}

TEST_CASE("gguf: reads only the header through the callback", "[gguf]") {
    const auto file = tiny_llama().build(8u << 20);  // 8 MiB of "weights"
    uint64_t max_end = 0, total = 0;
    GgufReadFn rd = [&](uint64_t off, void* dst, size_t n) -> size_t {
        if (off >= file.size()) return 0;
        const size_t take = (size_t)std::min<uint64_t>(n, file.size() - off);
        std::memcpy(dst, file.data() + off, take);
        max_end = std::max<uint64_t>(max_end, off + take);
        total += take;
        return take;
    };
    GgufInfo info;
    std::string err;
    REQUIRE(read_gguf(rd, info, err));
    CHECK(total <= (1u << 20) + 64);     // one window, not the 8 MiB of data
    CHECK(max_end <= (1u << 20) + 64);
}

TEST_CASE("gguf: a prefix asks for more bytes", "[gguf]") {
    const auto file = tiny_llama().build();
    GgufInfo info;
    std::string err;
    uint64_t need = 0;
    CHECK(!read_gguf_buffer(file.data(), 200, info, err, &need));
    CHECK(need == (1u << 20));
    CHECK(err == "GGUF: the header continues past the first 200 bytes; read 1048576 bytes and try again");
    CHECK(read_gguf_buffer(file.data(), file.size(), info, err, &need));
    CHECK(need == 0);
    // a real error in a prefix is not "need more"
    std::vector<uint8_t> bad = file;
    bad[0] = 'X';
    CHECK(!read_gguf_buffer(bad.data(), 200, info, err, &need));
    CHECK(need == 0);
}

TEST_CASE("gguf: file-level errors", "[gguf]") {
    CHECK(read_err({}) == "GGUF: the file is empty");
    CHECK(read_err({'G', 'G'}) ==
          "GGUF: the file ends inside the magic number (at byte 0); it is truncated - download it again");
    CHECK(read_err({'P', 'K', 3, 4, 0, 0, 0, 0, 0, 0}) ==
          "GGUF: not a GGUF file (the first bytes are 50 4b 03 04, a GGUF file starts with 'GGUF')");
    CHECK(read_err({'l', 'm', 'g', 'g', 1, 0, 0, 0}) ==
          "GGUF: this is an old GGML/GGMF/GGJT model file (before August 2023); convert it to GGUF");
    CHECK(read_err({0x10, 0, 0, 0, 0, 0, 0, 0, '{', '"'}) ==
          "GGUF: this looks like a .safetensors file, not GGUF (import its config.json instead)");
    Writer w = tiny_llama();
    w.version = 1;
    CHECK(read_err(w.build()) ==
          "GGUF: version 1 (August 2023) is not supported; re-convert the model with a current llama.cpp");
    w.version = 4;
    CHECK(read_err(w.build()) == "GGUF: version 4 is not supported (llmsim reads versions 2 and 3)");
    w.version = 0x03000000;  // a big-endian writer's 3
    CHECK(read_err(w.build()) ==
          "GGUF: this is a big-endian GGUF file (version 3 byte-swapped); llmsim reads little-endian files only");
}

TEST_CASE("gguf: every truncation fails cleanly", "[gguf]") {
    const auto file = tiny_llama().build();
    GgufInfo info;
    REQUIRE(read_err(file, &info) == "");
    const size_t header_end = (size_t)info.data_offset;
    for (size_t n = 0; n < header_end; ++n) {
        std::vector<uint8_t> cut(file.begin(), file.begin() + (long)n);
        const std::string err = read_err(cut);
        INFO("prefix " << n);
        // the padding after the last tensor info is not needed to read the header
        if (n >= header_end - 31 && err.empty()) continue;
        CHECK(!err.empty());
        CHECK(err.rfind("GGUF: ", 0) == 0);
    }
    CHECK(read_err({'G', 'G', 'U', 'F', 3, 0}) ==
          "GGUF: the file ends inside the version (at byte 4); it is truncated - download it again");
}

TEST_CASE("gguf: hostile counts and lengths", "[gguf]") {
    Writer w = tiny_llama();
    w.n_tensors_override = 1ull << 60;
    CHECK(read_err(w.build()) == "GGUF: the header claims 1152921504606846976 tensors (limit 1048576); the file is corrupt");
    w = tiny_llama();
    w.n_kv_override = ~0ull;
    CHECK(read_err(w.build()) ==
          "GGUF: the header claims 18446744073709551615 metadata entries (limit 65536); the file is corrupt");
    // a count within the limit but more than the file holds is a truncation, found without allocating for it
    CHECK(read_err(with_kv([](Bytes&) {}, 60000)) ==
          "GGUF: the file ends inside metadata entry 0 key length (at byte 24); it is truncated - download it again");
    w = tiny_llama();
    w.n_kv_override = 60000;  // the tensor infos are then read as metadata: some clean error
    CHECK(read_err(w.build()).rfind("GGUF: ", 0) == 0);

    CHECK(read_err(with_kv([](Bytes& b) { b.le<uint64_t>(1ull << 40); })) ==
          "GGUF: metadata entry 0 key claims 1099511627776 bytes (limit 65535); the file is corrupt");
    CHECK(read_err(with_kv([](Bytes& b) { b.str("k").le<uint32_t>(STR).le<uint64_t>(~0ull); })) ==
          "GGUF: metadata 'k' claims 18446744073709551615 bytes (limit 33554432); the file is corrupt");
    // a string within the limit but past the end of the file
    CHECK(read_err(with_kv([](Bytes& b) { b.str("k").le<uint32_t>(STR).le<uint64_t>(1u << 20).raw("abc", 3); })) ==
          "GGUF: the file ends inside metadata 'k' (at byte 45); it is truncated - download it again");
    CHECK(read_err(with_kv([](Bytes& b) { b.str("k").le<uint32_t>(ARR).le<uint32_t>(U8).le<uint64_t>(1ull << 62); })) ==
          "GGUF: metadata 'k' claims 4611686018427387904 elements (limit 67108864); the file is corrupt");
    CHECK(read_err(with_kv([](Bytes& b) { b.str("k").le<uint32_t>(ARR).le<uint32_t>(U64).le<uint64_t>(50000000); })) ==
          "GGUF: metadata 'k' claims 50000000 uint64 elements, more than fit in the 64 MiB llmsim reads; the file is "
          "corrupt or its header is unusually large");
    // a tighter header cap
    GgufLimits lim;
    lim.max_header_bytes = 256;
    CHECK(read_err(tiny_llama().build(), nullptr, lim) ==
          "GGUF: the header claims 21 tensors, more than fit in the 256 bytes llmsim reads; the file is corrupt or its "
          "header is unusually large");
    lim.max_header_bytes = 600;
    CHECK(read_err(tiny_llama().build(), nullptr, lim) ==
          "GGUF: metadata 'tokenizer.ggml.tokens' claims 100 string elements, more than fit in the 600 bytes llmsim "
          "reads; the file is corrupt or its header is unusually large");
    lim.max_header_bytes = 1700;
    const std::string over = read_err(tiny_llama().build(), nullptr, lim);
    INFO(over);
    CHECK(over.rfind("GGUF: the header is larger than the 1700 bytes llmsim reads (while reading ", 0) == 0);
}

TEST_CASE("gguf: bad types and values", "[gguf]") {
    CHECK(read_err(with_kv([](Bytes& b) { b.str("k").le<uint32_t>(13); })) ==
          "GGUF: metadata 'k' has value type 13 (valid: 0-12, uint8 ... float64); the file is corrupt or from a newer "
          "GGUF version");
    CHECK(read_err(with_kv([](Bytes& b) { b.str("k").le<uint32_t>(ARR).le<uint32_t>(99).le<uint64_t>(1); })) ==
          "GGUF: metadata 'k' (array element) has value type 99 (valid: 0-12, uint8 ... float64); the file is corrupt "
          "or from a newer GGUF version");
    CHECK(read_err(with_kv([](Bytes& b) { b.str("k").le<uint32_t>(BOOL).le<uint8_t>(2); })) ==
          "GGUF: metadata 'k' is a bool with byte value 2 (must be 0 or 1)");
    CHECK(read_err(with_kv([](Bytes& b) { b.str("").le<uint32_t>(U8).le<uint8_t>(0); })) ==
          "GGUF: metadata entry 0 has an empty key");
    CHECK(read_err(with_kv(
              [](Bytes& b) {
                  b.str("k").le<uint32_t>(U8).le<uint8_t>(0);
                  b.str("k").le<uint32_t>(U8).le<uint8_t>(0);
              },
              2)) == "GGUF: metadata 'k' appears twice (keys must be unique)");
    // arrays nested deeper than the limit
    CHECK(read_err(with_kv([](Bytes& b) {
              b.str("k").le<uint32_t>(ARR);
              for (int i = 0; i < 10; ++i) b.le<uint32_t>(ARR).le<uint64_t>(1);
              b.le<uint32_t>(U8).le<uint64_t>(0);
          })) == "GGUF: metadata 'k'[0][0][0] nests arrays more than 3 deep; the file is corrupt");
    // nesting within the limit is read
    CHECK(read_err(with_kv([](Bytes& b) {
              b.str("k").le<uint32_t>(ARR).le<uint32_t>(ARR).le<uint64_t>(2);
              b.le<uint32_t>(U8).le<uint64_t>(1).le<uint8_t>(7);
              b.le<uint32_t>(STR).le<uint64_t>(1).str("x");
          })) == "");
    Writer w = tiny_llama();
    w.u32("general.alignment", 24);
    CHECK(read_err(w.build()) == "GGUF: general.alignment must be a uint32 power of two (got 24)");
    w = tiny_llama();
    w.str("general.alignment", "32");
    CHECK(read_err(w.build()) == "GGUF: general.alignment must be a uint32 power of two (got a string)");
}

TEST_CASE("gguf: bad tensor infos", "[gguf]") {
    auto one = [](const std::string& name, std::vector<uint64_t> dims, uint32_t type) {
        Writer w;
        w.str("general.architecture", "llama");
        w.tensor(name, std::move(dims), type);
        return w;
    };
    CHECK(read_err(one(std::string(64, 'x'), {32}, 0).build()) ==
          "GGUF: tensor info 0 name claims 64 bytes (limit 63); the file is corrupt");
    CHECK(read_err(one("t", {32, 1, 1, 1, 1}, 0).build()) == "GGUF: tensor 't' has 5 dimensions (valid: 1 to 4)");
    CHECK(read_err(one("t", {}, 0).build()) == "GGUF: tensor 't' has 0 dimensions (valid: 1 to 4)");
    CHECK(read_err(one("t", {32}, 4).build()) ==
          "GGUF: tensor 't' has ggml type 4, which llmsim does not know (removed from ggml or newer than llmsim)");
    CHECK(read_err(one("t", {32}, 1000).build()).find("has ggml type 1000") != std::string::npos);
    CHECK(read_err(one("t", {100, 2}, 12).build()) ==
          "GGUF: tensor 't' rows of 100 elements are not a whole number of Q4_K blocks of 256");
    CHECK(read_err(one("t", {1ull << 40, 1ull << 40}, 0).build()) ==
          "GGUF: tensor 't' has dimensions whose element count overflows 64 bits");
    CHECK(read_err(one("t", {~0ull}, 0).build()) ==
          "GGUF: tensor 't' has dimensions whose element count overflows 64 bits");
    Writer w = one("a", {32}, 0);
    w.tensor("a", {32}, 0);
    CHECK(read_err(w.build()) == "GGUF: tensor 'a' appears twice (names must be unique)");

    // misaligned and overlapping offsets, written by hand
    auto manual = [](uint64_t off_a, uint64_t off_b) {
        Bytes b;
        b.raw("GGUF", 4).le<uint32_t>(3).le<uint64_t>(2).le<uint64_t>(0);
        b.str("a").le<uint32_t>(1).le<uint64_t>(64).le<uint32_t>(0).le<uint64_t>(off_a);
        b.str("b").le<uint32_t>(1).le<uint64_t>(64).le<uint32_t>(0).le<uint64_t>(off_b);
        return b.b;
    };
    CHECK(read_err(manual(0, 256)) == "");
    CHECK(read_err(manual(0, 100)) ==
          "GGUF: tensor 'b' data offset 100 is not a multiple of the 32-byte alignment");
    CHECK(read_err(manual(0, 128)) == "GGUF: tensor data regions overlap at offset 128; the file is corrupt");
    CHECK(read_err(manual(0, ~0ull - 31)) == "GGUF: tensor 'b' data offset 18446744073709551584 overflows 64 bits");
}

TEST_CASE("gguf: random byte flips never crash", "[gguf]") {
    const auto file = tiny_llama().build();
    uint64_t state = 0x9E3779B97F4A7C15ull;
    auto next = [&]() {
        state ^= state << 13, state ^= state >> 7, state ^= state << 17;
        return state;
    };
    int failures = 0;
    for (int iter = 0; iter < 3000; ++iter) {
        std::vector<uint8_t> f = file;
        const int flips = 1 + (int)(next() % 4);
        for (int k = 0; k < flips; ++k) f[next() % f.size()] = (uint8_t)next();
        GgufInfo info;
        std::string err;
        if (!read_gguf_buffer(f.data(), f.size(), info, err)) {
            ++failures;
            CHECK(!err.empty());
        } else {
            Model m;
            model_from_gguf(info, m, err);  // must not crash either
        }
    }
    CHECK(failures > 0);
}

TEST_CASE("gguf: model_from_gguf MoE, tied output, QK-norm", "[gguf]") {
    Writer w;
    w.str("general.architecture", "qwen3moe")
        .str("general.name", "Tiny MoE")
        .u32("qwen3moe.block_count", 2)
        .u32("qwen3moe.context_length", 40960)
        .u32("qwen3moe.embedding_length", 256)
        .u32("qwen3moe.feed_forward_length", 768)
        .u32("qwen3moe.attention.head_count", 4)
        .u32("qwen3moe.attention.head_count_kv", 2)
        .u32("qwen3moe.attention.key_length", 128)
        .u32("qwen3moe.attention.value_length", 128)
        .u32("qwen3moe.expert_count", 8)
        .u32("qwen3moe.expert_used_count", 2)
        .u32("qwen3moe.expert_feed_forward_length", 256)
        .u32("qwen3moe.vocab_size", 1000);
    w.tensor("token_embd.weight", {256, 1000}, 8)
        .tensor("blk.0.attn_q_norm.weight", {128}, 0)
        .tensor("blk.0.ffn_gate_exps.weight", {256, 256, 8}, 12)
        .tensor("blk.0.ffn_up_exps.weight", {256, 256, 8}, 12);
    GgufInfo info;
    REQUIRE(read_err(w.build(), &info) == "");
    CHECK(info.vocab_size == 1000);
    Model m;
    std::string err;
    REQUIRE(model_from_gguf(info, m, err));
    CHECK(m.arch == "qwen3moe");
    CHECK(m.head_dim == 128);
    CHECK(m.tie_embeddings);
    CHECK(m.qk_norm);
    CHECK(m.gated_ffn);
    REQUIRE(m.is_moe());
    CHECK(m.moe->n_experts == 8);
    CHECK(m.moe->n_experts_active == 2);
    CHECK(m.moe->expert_ffn == 256);
    CHECK(m.intermediate_size == 0);
    CHECK(!m.moe->router_bias);
}

TEST_CASE("gguf: model_from_gguf MLA, SWA and hybrid layouts", "[gguf]") {
    SECTION("deepseek2 with *_mla keys") {
        Writer w;
        w.str("general.architecture", "deepseek2")
            .u32("deepseek2.block_count", 4)
            .u32("deepseek2.context_length", 163840)
            .u32("deepseek2.embedding_length", 512)
            .u32("deepseek2.feed_forward_length", 1024)
            .u32("deepseek2.attention.head_count", 16)
            .u32("deepseek2.attention.head_count_kv", 1)
            .u32("deepseek2.attention.key_length", 576)
            .u32("deepseek2.attention.value_length", 512)
            .u32("deepseek2.attention.key_length_mla", 192)
            .u32("deepseek2.attention.value_length_mla", 128)
            .u32("deepseek2.attention.kv_lora_rank", 512)
            .u32("deepseek2.attention.q_lora_rank", 1536)
            .u32("deepseek2.rope.dimension_count", 64)
            .u32("deepseek2.expert_count", 64)
            .u32("deepseek2.expert_used_count", 6)
            .u32("deepseek2.expert_shared_count", 2)
            .u32("deepseek2.expert_feed_forward_length", 256)
            .u32("deepseek2.leading_dense_block_count", 1)
            .u32("deepseek2.vocab_size", 1000);
        w.tensor("blk.1.exp_probs_b.bias", {64}, 0);
        GgufInfo info;
        REQUIRE(read_err(w.build(), &info) == "");
        Model m;
        std::string err;
        REQUIRE(model_from_gguf(info, m, err));
        REQUIRE(m.mla);
        CHECK(m.mla->qk_rope_head_dim == 64);
        CHECK(m.mla->qk_nope_head_dim == 128);
        CHECK(m.mla->v_head_dim == 128);
        CHECK(m.head_dim == 192);
        CHECK(m.head_dim_v == 128);
        CHECK(m.n_kv_heads == 16);
        REQUIRE(m.is_moe());
        CHECK(m.moe->n_shared_experts == 2);
        CHECK(m.moe->first_dense_layers == 1);
        CHECK(m.moe->router_bias);
        CHECK(m.intermediate_size == 1024);
    }
    SECTION("gemma3 sliding window with the default pattern") {
        Writer w;
        w.str("general.architecture", "gemma3")
            .u32("gemma3.block_count", 12)
            .u32("gemma3.context_length", 131072)
            .u32("gemma3.embedding_length", 256)
            .u32("gemma3.feed_forward_length", 512)
            .u32("gemma3.attention.head_count", 4)
            .u32("gemma3.attention.head_count_kv", 1)
            .u32("gemma3.attention.key_length", 256)
            .u32("gemma3.attention.sliding_window", 1024)
            .u32("gemma3.vocab_size", 1000);
        GgufInfo info;
        REQUIRE(read_err(w.build(), &info) == "");
        Model m;
        std::string err;
        REQUIRE(model_from_gguf(info, m, err));
        REQUIRE(m.swa);
        CHECK(m.swa->window == 1024);
        CHECK(m.swa->pattern == 6);
    }
    SECTION("jamba: head_count_kv 0 marks recurrent layers") {
        Writer w;
        w.str("general.architecture", "jamba")
            .u32("jamba.block_count", 8)
            .u32("jamba.context_length", 262144)
            .u32("jamba.embedding_length", 256)
            .u32("jamba.feed_forward_length", 512)
            .u32("jamba.attention.head_count", 8)
            .arr_i32("jamba.attention.head_count_kv", {0, 0, 0, 0, 2, 0, 0, 0})
            .u32("jamba.ssm.conv_kernel", 4)
            .u32("jamba.ssm.inner_size", 512)
            .u32("jamba.ssm.state_size", 16)
            .u32("jamba.ssm.time_step_rank", 16)
            .u32("jamba.vocab_size", 1000);
        w.u32("jamba.expert_count", 4).u32("jamba.expert_used_count", 2);
        w.tensor("blk.0.ssm_in.weight", {256, 1024}, 0).tensor("blk.0.ssm_out.weight", {512, 256}, 0);
        for (int l : {1, 3, 5, 7}) w.tensor("blk." + std::to_string(l) + ".ffn_gate_inp.weight", {256, 4}, 0);
        GgufInfo info;
        REQUIRE(read_err(w.build(), &info) == "");
        CHECK(*info.get_layer_value("jamba.attention.head_count_kv", 4) == 2);
        CHECK(*info.get_layer_value("jamba.attention.head_count", 4) == 8);
        CHECK(!info.get_layer_value("jamba.attention.head_count_kv", 8));
        Model m;
        std::string err;
        REQUIRE(model_from_gguf(info, m, err));
        CHECK(m.n_kv_heads == 2);
        REQUIRE(m.hybrid);
        CHECK(m.hybrid->recurrent_type == "mamba");
        CHECK(m.hybrid->attention_layers == std::vector<int>{4});
        CHECK(m.hybrid->ssm_state_bytes_per_layer == 4 * (3 * 512 + 16 * 512));
        CHECK(m.hybrid->recurrent_layer_params == 256 * 1024 + 512 * 256);
        REQUIRE(m.is_moe());  // MoE layers found from the routers: 1, 3, 5, 7
        CHECK(m.moe->layer_step == 2);
        CHECK(m.moe->first_dense_layers == 0);
        CHECK(m.moe->expert_ffn == 512);
        CHECK(m.intermediate_size == 512);
    }
}

TEST_CASE("gguf: model_from_gguf messages", "[gguf]") {
    auto err_of = [](Writer w) {
        GgufInfo info;
        REQUIRE(read_err(w.build(), &info) == "");
        Model m;
        std::string err;
        CHECK(!model_from_gguf(info, m, err));
        return err;
    };
    Writer w;
    w.u32("llama.block_count", 2);
    CHECK(err_of(w) == "GGUF: general.architecture is missing; llmsim cannot tell what model this is");
    w = tiny_llama();
    w.kvs = Bytes();
    w.n_kv = 0;
    w.str("general.architecture", "llama").u64("llama.context_length", 4096).u64("llama.embedding_length", 256);
    CHECK(err_of(w) == "GGUF: llama.block_count is missing (the llama architecture needs it)");
    w.str("llama.block_count", "two");
    CHECK(err_of(w) == "GGUF: llama.block_count must be a non-negative whole number (got a string) (the llama architecture needs it)");
    Writer x;
    x.str("general.architecture", "llama").u32("llama.block_count", 0);
    CHECK(err_of(x) == "GGUF: llama.block_count must be in [1, 10000] (got 0)");
    Writer y;
    y.str("general.architecture", "llama").u32("llama.block_count", 2).u32("llama.context_length", 4096)
        .u32("llama.embedding_length", 256).u32("llama.feed_forward_length", 512)
        .u32("llama.attention.head_count", 8).u32("llama.attention.head_count_kv", 3);
    CHECK(err_of(y) == "GGUF: llama.attention.head_count_kv must divide attention.head_count (got 8 / 3)");
    Writer z;
    z.str("general.architecture", "llama").u32("llama.block_count", 2).u32("llama.context_length", 4096)
        .u32("llama.embedding_length", 256).u32("llama.feed_forward_length", 512).u32("llama.attention.head_count", 8);
    CHECK(err_of(z) == "GGUF: the vocabulary size is unknown (no tokenizer.ggml.tokens, llama.vocab_size or "
                       "token_embd.weight)");
    z.u32("llama.expert_count", 8).u32("llama.expert_used_count", 9).u32("llama.vocab_size", 10);
    CHECK(err_of(z) == "GGUF: llama.expert_used_count must be in [1, expert_count = 8] (got 9)");
}

// the ggml type table against assets/catalog/quants.json: tests/engine/test_quant_types.cpp
