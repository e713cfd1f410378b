// GGUF header reader (gguf.h). Format: ggml docs/gguf.md; checks mirror what ggml's gguf.cpp refuses
// (duplicate keys, tensor names >= GGML_MAX_NAME, more than GGML_MAX_DIMS dims, rows that are not whole
// blocks, misaligned offsets, element counts that overflow int64).
//
// [SECTION] Byte source
// [SECTION] Metadata values
// [SECTION] Header
// [SECTION] GgufInfo lookups
// [SECTION] model_from_gguf
#include "io/gguf.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <map>
#include <set>

#include "core/json_diag.h"
#include "model/arch_table.h"
#include "quant/quant_types.h"

namespace llmsim {

namespace {

// [SECTION] Byte source ----------------------------------------------------------------------------------
// Sequential reads through the callback with a window of 4 KiB growing to 1 MiB. Fails with Truncated at end of input,
// OverCap past limits.max_header_bytes.

constexpr size_t kWindow = 1u << 20;

class Source {
public:
    enum class State { Ok, Truncated, OverCap, ReadError };

    Source(const GgufReadFn& read, uint64_t cap) : read_(read), cap_(cap) {}

    uint64_t pos() const { return pos_; }
    State state() const { return state_; }
    bool ok() const { return state_ == State::Ok; }
    uint64_t remaining_to_cap() const { return pos_ < cap_ ? cap_ - pos_ : 0; }

    bool bytes(void* dst, size_t n) {
        if (!ok()) return false;
        if (n > remaining_to_cap()) return set(State::OverCap);
        auto* out = static_cast<uint8_t*>(dst);
        const uint64_t start = pos_;  // a failed read leaves pos() at the item that did not fit
        while (n > 0) {
            if (pos_ < win_start_ || pos_ >= win_start_ + win_.size()) {
                if (!fill()) {
                    pos_ = start;
                    return false;
                }
            }
            const size_t off = (size_t)(pos_ - win_start_);
            const size_t take = std::min(n, win_.size() - off);
            if (out) std::memcpy(out, win_.data() + off, take), out += take;
            pos_ += take;
            n -= take;
        }
        return true;
    }

    // advance n bytes; reads only the last of them, to learn whether the input is that long
    bool skip(uint64_t n) {
        if (!ok()) return false;
        if (n > remaining_to_cap()) return set(State::OverCap);
        if (n == 0) return true;
        if (pos_ + n <= win_start_ + win_.size() && pos_ >= win_start_) {
            pos_ += n;
            return true;
        }
        uint8_t b;
        const uint64_t last = pos_ + n - 1;
        if (read_(last, &b, 1) != 1) return set(State::Truncated);
        pos_ += n;
        return true;
    }

    template <class T>
    bool le(T& v) {  // little-endian integer of sizeof(T) bytes
        uint8_t b[8];
        if (!bytes(b, sizeof(T))) return false;
        uint64_t x = 0;
        for (size_t i = 0; i < sizeof(T); ++i) x |= (uint64_t)b[i] << (8 * i);
        v = (T)x;
        return true;
    }

private:
    bool set(State s) {
        state_ = s;
        return false;
    }
    bool fill() {
        // start small (tiny files cost one small read), double up to kWindow for big headers
        const uint64_t want = std::min<uint64_t>(next_window_, remaining_to_cap());
        next_window_ = std::min<uint64_t>(next_window_ * 2, kWindow);
        win_.resize((size_t)want);
        const size_t got = want ? read_(pos_, win_.data(), (size_t)want) : 0;
        win_.resize(std::min<size_t>(got, (size_t)want));
        win_start_ = pos_;
        if (win_.empty()) return set(State::Truncated);
        return true;
    }

    const GgufReadFn& read_;
    uint64_t cap_;
    uint64_t pos_ = 0;
    std::vector<uint8_t> win_;
    uint64_t win_start_ = 0;
    uint64_t next_window_ = 4u << 10;
    State state_ = State::Ok;
};

// [SECTION] Metadata values ------------------------------------------------------------------------------

size_t fixed_size(GgufType t) {
    switch (t) {
        case GgufType::U8: case GgufType::I8: case GgufType::BOOL: return 1;
        case GgufType::U16: case GgufType::I16: return 2;
        case GgufType::U32: case GgufType::I32: case GgufType::F32: return 4;
        case GgufType::U64: case GgufType::I64: case GgufType::F64: return 8;
        default: return 0;  // STRING, ARRAY
    }
}

const char* type_name(GgufType t) {
    static const char* k[] = {"uint8", "int8", "uint16", "int16", "uint32", "int32", "float32",
                              "bool",  "string", "array", "uint64", "int64", "float64"};
    return (uint32_t)t <= 12 ? k[(uint32_t)t] : "?";
}

class Parser {
public:
    Parser(Source& src, const GgufLimits& lim, std::string& err) : s_(src), lim_(lim), err_(err) {}

    bool fail(const std::string& msg) {
        if (failed_) return false;
        failed_ = true;
        err_ = msg;
        return false;
    }
    bool failed() const { return failed_; }

    // "64 MiB" / "600 bytes": the header cap as a user reads it
    std::string cap_text() const {
        const uint64_t cap = lim_.max_header_bytes;
        return cap % (1u << 20) == 0 ? std::to_string(cap >> 20) + " MiB" : std::to_string(cap) + " bytes";
    }

    // failed read: explain in terms of the source state
    bool io_fail(const std::string& what) {
        switch (s_.state()) {
            case Source::State::Truncated:
                return fail("GGUF: the file ends inside " + what + " (at byte " + std::to_string(s_.pos()) +
                            "); it is truncated - download it again");
            case Source::State::OverCap:
                return fail("GGUF: the header is larger than the " + cap_text() + " llmsim reads (while reading " + what +
                            "); this is not a model header llmsim can use");
            default:
                return fail("GGUF: reading " + what + " failed at byte " + std::to_string(s_.pos()));
        }
    }

    bool string(std::string& out, uint64_t max_len, uint64_t keep, const std::string& what, bool* truncated = nullptr) {
        uint64_t len = 0;
        if (!s_.le(len)) return io_fail(what + " length");
        if (len > max_len)
            return fail("GGUF: " + what + " claims " + std::to_string(len) + " bytes (limit " + std::to_string(max_len) +
                        "); the file is corrupt");
        out.clear();
        // grows only as bytes arrive, so a huge claimed length costs nothing until the bytes are there
        const uint64_t take = std::min(len, keep);
        while (out.size() < take) {
            char buf[4096];
            const size_t n = (size_t)std::min<uint64_t>(sizeof buf, take - out.size());
            if (!s_.bytes(buf, n)) return io_fail(what);
            out.append(buf, n);
        }
        if (len > take && !s_.skip(len - take)) return io_fail(what);
        if (truncated) *truncated = len > take;
        return true;
    }

    bool scalar(GgufType t, GgufValue& v, const std::string& what) {
        uint8_t b[8] = {0};
        const size_t n = fixed_size(t);
        if (!s_.bytes(b, n)) return io_fail(what);
        uint64_t x = 0;
        for (size_t i = 0; i < n; ++i) x |= (uint64_t)b[i] << (8 * i);
        v.is_uint = false;
        switch (t) {
            case GgufType::U8: case GgufType::U16: case GgufType::U32: case GgufType::U64:
                v.u = x, v.num = (double)x, v.is_uint = true;
                v.i = x <= (uint64_t)std::numeric_limits<int64_t>::max() ? (int64_t)x : 0;
                break;
            case GgufType::I8: v.i = (int8_t)x; break;
            case GgufType::I16: v.i = (int16_t)x; break;
            case GgufType::I32: v.i = (int32_t)(uint32_t)x; break;
            case GgufType::I64: v.i = (int64_t)x; break;
            case GgufType::BOOL:
                if (x > 1) return fail("GGUF: " + what + " is a bool with byte value " + std::to_string(x) + " (must be 0 or 1)");
                v.i = (int64_t)x;
                break;
            case GgufType::F32: {
                uint32_t w = (uint32_t)x;
                float f;
                std::memcpy(&f, &w, 4);
                v.num = f;
                break;
            }
            case GgufType::F64: std::memcpy(&v.num, &x, 8); break;
            default: return fail("GGUF: internal: not a scalar type");
        }
        switch (t) {
            case GgufType::I8: case GgufType::I16: case GgufType::I32: case GgufType::I64: case GgufType::BOOL:
                v.num = (double)v.i;
                if (v.i >= 0) v.u = (uint64_t)v.i, v.is_uint = true;
                break;
            case GgufType::F32: case GgufType::F64:
                if (std::isfinite(v.num) && v.num >= 0 && v.num == std::floor(v.num) && v.num < 1.8e19) {
                    v.u = (uint64_t)v.num, v.is_uint = true;
                    if (v.num < 9.2e18) v.i = (int64_t)v.num;
                }
                break;
            default: break;
        }
        return true;
    }

    bool value_type(uint32_t raw, GgufType& t, const std::string& what) {
        if (raw > 12)
            return fail("GGUF: " + what + " has value type " + std::to_string(raw) +
                        " (valid: 0-12, uint8 ... float64); the file is corrupt or from a newer GGUF version");
        t = (GgufType)raw;
        return true;
    }

    // a value of type t; depth counts enclosing arrays
    bool value(GgufType t, GgufValue& v, const std::string& what, int depth) {
        v.type = t;
        if (t == GgufType::STRING)
            return string(v.str, lim_.max_string_bytes, lim_.max_stored_string_bytes, what, &v.str_truncated);
        if (t != GgufType::ARRAY) return scalar(t, v, what);

        if (depth >= lim_.max_array_depth)
            return fail("GGUF: " + what + " nests arrays more than " + std::to_string(lim_.max_array_depth) +
                        " deep; the file is corrupt");
        uint32_t raw = 0;
        if (!s_.le(raw)) return io_fail(what + " element type");
        GgufType et;
        if (!value_type(raw, et, what + " (array element)")) return false;
        uint64_t len = 0;
        if (!s_.le(len)) return io_fail(what + " length");
        v.array_type = et;
        v.array_len = len;
        if (len > lim_.max_array_len)
            return fail("GGUF: " + what + " claims " + std::to_string(len) + " elements (limit " +
                        std::to_string(lim_.max_array_len) + "); the file is corrupt");
        const size_t es = fixed_size(et);
        const uint64_t min_elem_bytes = es ? es : (et == GgufType::STRING ? 8 : 12);
        if (len > s_.remaining_to_cap() / min_elem_bytes)
            return fail("GGUF: " + what + " claims " + std::to_string(len) + " " + type_name(et) +
                        " elements, more than fit in the " + cap_text() +
                        " llmsim reads; the file is corrupt or its header is unusually large");
        if (es) {
            if (len <= lim_.max_stored_array_len) {
                GgufValue e;
                for (uint64_t i = 0; i < len; ++i) {
                    if (!scalar(et, e, what)) return false;
                    v.array_nums.push_back(e.num);
                }
                return true;
            }
            if (!s_.skip(len * es)) return io_fail(what);
            return true;
        }
        GgufValue e;
        for (uint64_t i = 0; i < len; ++i) {
            if (et == GgufType::STRING) {
                // element strings (tokens, merges) are only counted, never stored
                uint64_t n = 0;
                if (!s_.le(n)) return io_fail(what + " element length");
                if (n > lim_.max_string_bytes)
                    return fail("GGUF: " + what + " element " + std::to_string(i) + " claims " + std::to_string(n) +
                                " bytes; the file is corrupt");
                if (!s_.skip(n)) return io_fail(what);
            } else if (!value(et, e, what + "[" + std::to_string(i) + "]", depth + 1)) {
                return false;
            }
        }
        return true;
    }

private:
    Source& s_;
    const GgufLimits& lim_;
    std::string& err_;
    bool failed_ = false;
};

// [SECTION] Header ---------------------------------------------------------------------------------------

// why the first four bytes are not "GGUF": old GGML formats, a byte-swapped file, safetensors, or the bytes
std::string describe_bad_magic(const GgufReadFn& read, const uint8_t magic[4]) {
    const std::string m4((const char*)magic, 4);
    if (m4 == "lmgg" || m4 == "fmgg" || m4 == "tjgg")
        return "GGUF: this is an old GGML/GGMF/GGJT model file (before August 2023); convert it to GGUF";
    if (m4 == "FUGG")
        return "GGUF: the magic reads 'FUGG' - a byte-swapped file; llmsim reads little-endian GGUF only";
    uint8_t more[5] = {0};
    if (read(4, more, 5) == 5 && more[4] == '{')
        return "GGUF: this looks like a .safetensors file, not GGUF (import its config.json instead)";
    char hex[32];
    std::snprintf(hex, sizeof hex, "%02x %02x %02x %02x", magic[0], magic[1], magic[2], magic[3]);
    return std::string("GGUF: not a GGUF file (the first bytes are ") + hex + ", a GGUF file starts with 'GGUF')";
}

// magic, version and the two counts; false + err (empty file, old or foreign format, unsupported version,
// counts no file of the read limits could hold)
bool parse_preamble(const GgufReadFn& read, Source& src, Parser& p, GgufInfo& info, std::string& err,
                    const GgufLimits& lim) {
    uint8_t magic[4];
    if (!src.bytes(magic, 4)) {
        if (src.pos() == 0 && src.state() == Source::State::Truncated) {
            uint8_t b;
            if (read(0, &b, 1) == 0) {
                err = "GGUF: the file is empty";
                return false;
            }
        }
        return p.io_fail("the magic number");
    }
    if (std::memcmp(magic, "GGUF", 4) != 0) {
        err = describe_bad_magic(read, magic);
        return false;
    }
    uint32_t version = 0;
    if (!src.le(version)) return p.io_fail("the version");
    if (version == 1) {
        err = "GGUF: version 1 (August 2023) is not supported; re-convert the model with a current llama.cpp";
        return false;
    }
    if (version != 2 && version != 3) {
        const uint32_t swapped = (version >> 24) | ((version >> 8) & 0xff00) | ((version << 8) & 0xff0000) | (version << 24);
        if (swapped >= 1 && swapped <= 3)
            err = "GGUF: this is a big-endian GGUF file (version " + std::to_string(swapped) +
                  " byte-swapped); llmsim reads little-endian files only";
        else
            err = "GGUF: version " + std::to_string(version) + " is not supported (llmsim reads versions 2 and 3)";
        return false;
    }
    info.version = version;
    if (!src.le(info.n_tensors)) return p.io_fail("the tensor count");
    if (!src.le(info.n_kv)) return p.io_fail("the metadata count");
    // a tensor info is at least 8 (name length) + 4 (n_dims) + 4 (type) + 8 (offset) bytes; a key/value at
    // least 8 (key length) + 1 + 4 (type) + 1 (value) bytes
    const std::string cap_text = p.cap_text();
    auto count_check = [&](uint64_t n, uint64_t limit, uint64_t min_bytes, const char* what) {
        if (n > limit)
            err = "GGUF: the header claims " + std::to_string(n) + " " + what + " (limit " + std::to_string(limit) +
                  "); the file is corrupt";
        else if (n > src.remaining_to_cap() / min_bytes)
            err = "GGUF: the header claims " + std::to_string(n) + " " + what + ", more than fit in the " + cap_text +
                  " llmsim reads; the file is corrupt or its header is unusually large";
        else
            return true;
        return false;
    };
    if (!count_check(info.n_tensors, lim.max_tensors, 24, "tensors")) return false;
    if (!count_check(info.n_kv, lim.max_kv, 14, "metadata entries")) return false;
    return true;
}

// the key/value metadata; false + err on a duplicate key or a malformed value
bool parse_metadata(Source& src, Parser& p, GgufInfo& info, const GgufLimits& lim) {
    std::set<std::string> keys;
    for (uint64_t i = 0; i < info.n_kv; ++i) {
        GgufKv kv;
        const std::string what = "metadata entry " + std::to_string(i);
        if (!p.string(kv.key, lim.max_key_bytes, lim.max_key_bytes, what + " key")) return false;
        if (kv.key.empty()) return p.fail("GGUF: " + what + " has an empty key");
        const std::string kwhat = "metadata '" + kv.key + "'";
        if (!keys.insert(kv.key).second) return p.fail("GGUF: " + kwhat + " appears twice (keys must be unique)");
        uint32_t raw = 0;
        if (!src.le(raw)) return p.io_fail(kwhat + " type");
        GgufType t;
        if (!p.value_type(raw, t, kwhat)) return false;
        if (!p.value(t, kv.value, kwhat, 0)) return false;
        info.kv.push_back(std::move(kv));
    }
    return true;
}

// general.alignment, architecture, name, file type, split count and the vocabulary size from the metadata
bool read_well_known_keys(GgufInfo& info, std::string& err) {
    if (const GgufValue* a = info.find("general.alignment")) {
        if (a->type != GgufType::U32 || a->u == 0 || (a->u & (a->u - 1)) != 0 || a->u > (1u << 20)) {
            err = "GGUF: general.alignment must be a uint32 power of two (got " +
                  (a->type == GgufType::U32 ? std::to_string(a->u) : std::string("a ") + type_name(a->type)) + ")";
            return false;
        }
        info.alignment = (uint32_t)a->u;
    }
    if (const std::string* s = info.get_string("general.architecture")) info.architecture = *s;
    if (const std::string* s = info.get_string("general.name")) info.name = *s;
    if (auto ft = info.get_uint("general.file_type"); ft && *ft < 1024) info.file_type = (int)*ft;
    if (auto sc = info.get_uint("split.count"); sc && *sc >= 1 && *sc < 100000) info.split_count = (int)*sc;
    if (const GgufValue* t = info.find("tokenizer.ggml.tokens"); t && t->type == GgufType::ARRAY)
        info.vocab_size = (int64_t)t->array_len;
    else if (auto v = info.get_uint(info.architecture + ".vocab_size"); v && *v < (1ull << 40))
        info.vocab_size = (int64_t)*v;
    return true;
}

// one tensor info record (name, dims, type, offset) with ggml's checks; `names` holds the names so far
bool parse_tensor_info(Source& src, Parser& p, const GgufInfo& info, uint64_t i, std::set<std::string>& names,
                       GgufTensorInfo& t) {
    const std::string what = "tensor info " + std::to_string(i);
    // ggml: GGML_MAX_NAME = 64 including the terminating NUL
    if (!p.string(t.name, 63, 63, what + " name")) return false;
    if (t.name.empty()) return p.fail("GGUF: " + what + " has an empty name; the file is corrupt");
    const std::string twhat = "tensor '" + t.name + "'";
    if (!names.insert(t.name).second) return p.fail("GGUF: " + twhat + " appears twice (names must be unique)");
    if (!src.le(t.n_dims)) return p.io_fail(twhat + " dimension count");
    if (t.n_dims < 1 || t.n_dims > 4)
        return p.fail("GGUF: " + twhat + " has " + std::to_string(t.n_dims) + " dimensions (valid: 1 to 4)");
    uint64_t n = 1;
    bool overflow = false;
    for (uint32_t d = 0; d < t.n_dims; ++d) {
        if (!src.le(t.dims[d])) return p.io_fail(twhat + " dimensions");
        if (t.dims[d] > (uint64_t)std::numeric_limits<int64_t>::max()) overflow = true;
        else if (t.dims[d] != 0 && n > (uint64_t)std::numeric_limits<int64_t>::max() / t.dims[d]) overflow = true;
        else n *= t.dims[d];
    }
    if (overflow) return p.fail("GGUF: " + twhat + " has dimensions whose element count overflows 64 bits");
    t.n_elements = n;
    if (!src.le(t.type)) return p.io_fail(twhat + " type");
    const TensorTypeInfo* ts = tensor_type_by_id(t.type);
    if (!ts)
        return p.fail("GGUF: " + twhat + " has ggml type " + std::to_string(t.type) +
                      ", which llmsim does not know (removed from ggml or newer than llmsim)");
    if (t.dims[0] % (uint64_t)ts->block_size != 0)
        return p.fail("GGUF: " + twhat + " rows of " + std::to_string(t.dims[0]) + " elements are not a whole number of " +
                      ts->name + " blocks of " + std::to_string(ts->block_size));
    const uint64_t block_size = (uint64_t)ts->block_size, type_size = (uint64_t)ts->type_size;
    t.bytes = n / block_size * type_size;  // n < 2^63, type_size <= 292: no overflow for real sizes
    if (n / block_size > std::numeric_limits<uint64_t>::max() / type_size)
        return p.fail("GGUF: " + twhat + " size overflows 64 bits");
    if (!src.le(t.offset)) return p.io_fail(twhat + " offset");
    if (t.offset % info.alignment != 0)
        return p.fail("GGUF: " + twhat + " data offset " + std::to_string(t.offset) + " is not a multiple of the " +
                      std::to_string(info.alignment) + "-byte alignment");
    if (t.offset > std::numeric_limits<uint64_t>::max() - t.bytes)
        return p.fail("GGUF: " + twhat + " data offset " + std::to_string(t.offset) + " overflows 64 bits");
    return true;
}

bool parse(const GgufReadFn& read, GgufInfo& out, std::string& err, const GgufLimits& lim) {
    Source src(read, lim.max_header_bytes);
    Parser p(src, lim, err);
    GgufInfo info;
    if (!parse_preamble(read, src, p, info, err, lim)) return false;
    if (!parse_metadata(src, p, info, lim)) return false;
    if (!read_well_known_keys(info, err)) return false;

    // tensor infos
    std::set<std::string> names;
    std::map<uint32_t, GgufTypeTotal> totals;
    for (uint64_t i = 0; i < info.n_tensors; ++i) {
        GgufTensorInfo t;
        if (!parse_tensor_info(src, p, info, i, names, t)) return false;
        GgufTypeTotal& tot = totals[t.type];
        tot.type = t.type;
        tot.type_name = tensor_type_by_id(t.type)->name;  // parse_tensor_info checked the id
        tot.n_tensors += 1;
        tot.n_elements += t.n_elements;
        tot.bytes += t.bytes;
        info.tensor_data_bytes += t.bytes;
        info.n_elements += t.n_elements;
        info.tensors.push_back(std::move(t));
    }
    // tensors must not overlap (ggml requires them packed in order; any order is accepted here)
    {
        std::vector<std::pair<uint64_t, uint64_t>> spans;
        spans.reserve(info.tensors.size());
        for (const auto& t : info.tensors) spans.emplace_back(t.offset, t.bytes);
        std::sort(spans.begin(), spans.end());
        for (size_t i = 1; i < spans.size(); ++i)
            if (spans[i - 1].first + spans[i - 1].second > spans[i].first)
                return p.fail("GGUF: tensor data regions overlap at offset " + std::to_string(spans[i].first) +
                              "; the file is corrupt");
    }
    const uint64_t end = src.pos();
    info.data_offset = end + (info.alignment - end % info.alignment) % info.alignment;
    for (const auto& kv : totals) info.by_type.push_back(kv.second);
    std::sort(info.by_type.begin(), info.by_type.end(),
              [](const GgufTypeTotal& a, const GgufTypeTotal& b) { return a.bytes > b.bytes; });
    out = std::move(info);
    return true;
}

}  // namespace

bool read_gguf(const GgufReadFn& read, GgufInfo& out, std::string& err, const GgufLimits& limits) {
    return parse(read, out, err, limits);
}

bool read_gguf_buffer(const void* data, size_t size, GgufInfo& out, std::string& err, uint64_t* need_bytes,
                      const GgufLimits& limits) {
    const auto* bytes = static_cast<const uint8_t*>(data);
    bool ran_out = false;
    GgufReadFn rd = [&](uint64_t off, void* dst, size_t n) -> size_t {
        if (off >= size) {
            ran_out = true;
            return 0;
        }
        const size_t take = (size_t)std::min<uint64_t>(n, size - off);
        if (take < n) ran_out = true;
        if (take) std::memcpy(dst, bytes + off, take);
        return take;
    };
    if (need_bytes) *need_bytes = 0;
    const bool ok = parse(rd, out, err, limits);
    if (!ok && need_bytes && ran_out && err.find("ends inside") != std::string::npos) {
        const uint64_t more = std::max<uint64_t>((uint64_t)size * 2, 1u << 20);
        if (size < limits.max_header_bytes) {
            *need_bytes = std::min<uint64_t>(more, limits.max_header_bytes);
            err = "GGUF: the header continues past the first " + std::to_string(size) + " bytes; read " +
                  std::to_string(*need_bytes) + " bytes and try again";
        }
    }
    return ok;
}

// [SECTION] GgufInfo lookups -----------------------------------------------------------------------------

const GgufValue* GgufInfo::find(const std::string& key) const {
    for (const GgufKv& kv : this->kv)
        if (kv.key == key) return &kv.value;
    return nullptr;
}

std::optional<uint64_t> GgufInfo::get_uint(const std::string& key) const {
    const GgufValue* v = find(key);
    if (!v || v->type == GgufType::ARRAY || v->type == GgufType::STRING || !v->is_uint) return std::nullopt;
    return v->u;
}

std::optional<double> GgufInfo::get_number(const std::string& key) const {
    const GgufValue* v = find(key);
    if (!v || v->type == GgufType::ARRAY || v->type == GgufType::STRING) return std::nullopt;
    return v->num;
}

const std::string* GgufInfo::get_string(const std::string& key) const {
    const GgufValue* v = find(key);
    return v && v->type == GgufType::STRING ? &v->str : nullptr;
}

std::optional<double> GgufInfo::get_layer_value(const std::string& key, int layer) const {
    const GgufValue* v = find(key);
    if (!v || v->type == GgufType::STRING) return std::nullopt;
    if (v->type != GgufType::ARRAY) return v->num;
    if (layer < 0 || (uint64_t)layer >= v->array_nums.size()) return std::nullopt;
    return v->array_nums[(size_t)layer];
}

// [SECTION] model_from_gguf ------------------------------------------------------------------------------
// Keys as llama.cpp writes them (src/llama-arch.cpp LLM_KV_NAMES, "<arch>." prefixed); layer-feature flags
// (tied output, biases, QK-norm, gated FFN, router bias) are read from which tensors exist, as llama.cpp's
// loader does.

namespace {

struct LayerStat {
    int64_t max = 0;            // largest value over layers
    int64_t min_nonzero = 0;
    std::vector<int> zero_layers;  // layers whose value is 0 (per-layer arrays only)
    bool present = false;
    bool per_layer = false;
};

LayerStat layer_stat(const GgufInfo& info, const std::string& key, int n_layers) {
    LayerStat s;
    const GgufValue* v = info.find(key);
    if (!v || v->type == GgufType::STRING) return s;
    if (v->type == GgufType::ARRAY && v->array_nums.empty()) return s;
    s.present = true;
    s.per_layer = v->type == GgufType::ARRAY;
    const int n = s.per_layer ? (int)std::min<size_t>(v->array_nums.size(), (size_t)n_layers) : 1;
    for (int i = 0; i < n; ++i) {
        const double d = s.per_layer ? v->array_nums[(size_t)i] : v->num;
        const int64_t x = std::isfinite(d) && d > 0 && d < 9e15 ? (int64_t)d : 0;
        s.max = std::max(s.max, x);
        if (x > 0 && (s.min_nonzero == 0 || x < s.min_nonzero)) s.min_nonzero = x;
        if (x == 0 && s.per_layer) s.zero_layers.push_back(i);
    }
    return s;
}

bool has_tensor_suffix(const GgufInfo& info, const char* suffix) {
    const size_t n = std::strlen(suffix);
    for (const auto& t : info.tensors)
        if (t.name.size() >= n && t.name.compare(t.name.size() - n, n, suffix) == 0) return true;
    return false;
}

bool has_tensor(const GgufInfo& info, const std::string& name) {
    for (const auto& t : info.tensors)
        if (t.name == name) return true;
    return false;
}

}  // namespace

namespace {

// what the parts of model_from_gguf share
struct GgufImport {
    const GgufInfo& info;
    std::string a;                       // "<architecture>." key prefix
    Model& m;
    std::string& err;
    int64_t ctx = 0;                     // context_length
    int64_t key_len = 0, val_len = 0;    // attention.key_length / value_length (0 = absent)
    LayerStat kvh;                       // attention.head_count_kv per layer

    // a required whole-number key in [lo, hi]; false + err naming it
    bool need(const char* key, int64_t lo, int64_t hi, int64_t& v) {
            auto x = info.get_uint(a + key);
            if (!x) {
                const GgufValue* raw = info.find(a + key);
                std::string got;
                if (raw && (raw->type == GgufType::STRING || raw->type == GgufType::ARRAY)) got = std::string(" (got a ") + type_name(raw->type) + ")";
                else if (raw) {
                    char buf[40];
                    std::snprintf(buf, sizeof buf, "%.17g", raw->num);
                    got = std::string(" (got ") + buf + ")";
                }
                err = "GGUF: " + a + key + (raw ? " must be a non-negative whole number" + got : " is missing") +
                      " (the " + info.architecture + " architecture needs it)";
                return false;
            }
            if ((int64_t)*x < lo || *x > (uint64_t)hi) {
                err = "GGUF: " + a + key + " must be in [" + std::to_string(lo) + ", " + std::to_string(hi) + "] (got " +
                      std::to_string(*x) + ")";
                return false;
            }
            v = (int64_t)*x;
            return true;
    }
    // an optional whole-number key; dflt when absent or absurd
    int64_t opt(const char* key, int64_t dflt) const {
            auto x = info.get_uint(a + key);
            return x && *x < (1ull << 40) ? (int64_t)*x : dflt;
    }
};

// the MoE layout where the file has no layout keys (Jamba): the layers holding a router (ffn_gate_inp)
void moe_layout_from_routers(const GgufInfo& info, int n_layers, MoeConfig& moe) {
    std::vector<bool> routed((size_t)n_layers, false);
    bool any = false;
    for (const auto& t : info.tensors) {
        int layer = -1, consumed = 0;
        // %6d: a hostile name's digits cannot overflow the int (no model has a million layers)
        if (std::sscanf(t.name.c_str(), "blk.%6d.ffn_gate_inp.weight%n", &layer, &consumed) == 1 &&
            consumed == (int)t.name.size() && layer >= 0 && layer < n_layers)
            routed[(size_t)layer] = any = true;
    }
    bool matched = !any;
    for (int step = 1; step <= std::min(n_layers, 16) && !matched; ++step)
        for (int fd : {0, (int)(std::find(routed.begin(), routed.end(), true) - routed.begin())}) {
            bool ok = fd < n_layers;
            for (int i = 0; i < n_layers && ok; ++i) ok = routed[(size_t)i] == (i >= fd && (i + 1) % step == 0);
            if (ok) {
                moe.layer_step = step, moe.first_dense_layers = fd, matched = true;
                break;
            }
        }
}

// name, id, license and family
bool gguf_names(GgufImport& x) {
    const GgufInfo& info = x.info;
    Model& m = x.m;
    // names go to the UI, the URL and JSON output: keep them valid UTF-8 and of a sane length
    auto text = [](const std::string& s) { return sanitize_utf8(s.size() > 256 ? s.substr(0, 256) : s); };
    m.name = text(info.name.empty() ? info.architecture : info.name);
    if (const std::string* repo = info.get_string("general.source.huggingface.repository")) m.id = text(*repo);
    else m.id = m.name;
    if (const std::string* lic = info.get_string("general.license")) m.license = text(*lic);
    if (const std::string* b = info.get_string("general.basename")) m.family = text(*b);
    return true;
}

// block count, embedding length, context, heads, KV heads, head dims, vocabulary
bool gguf_core(GgufImport& x) {
    const GgufInfo& info = x.info;
    const std::string& a = x.a;
    Model& m = x.m;
    std::string& err = x.err;
    auto need = [&](const char* key, int64_t lo, int64_t hi, int64_t& v) { return x.need(key, lo, hi, v); };
    auto opt = [&](const char* key, int64_t dflt) { return x.opt(key, dflt); };
    int64_t n_layers = 0, hidden = 0;
    int64_t& ctx = x.ctx;
    if (!need("block_count", 1, 10000, n_layers) || !need("embedding_length", 1, 1 << 20, hidden) ||
        !need("context_length", 1, int64_t(1) << 34, ctx))
        return false;
    m.n_layers = (int)n_layers;
    m.hidden_size = hidden;

    const LayerStat heads = layer_stat(info, a + "attention.head_count", m.n_layers);
    if (!heads.present || heads.max < 1 || heads.max > (1 << 16)) {
        err = "GGUF: " + a + "attention.head_count is missing or 0 (the attention head count is needed)";
        return false;
    }
    m.n_heads = (int)heads.max;
    x.kvh = layer_stat(info, a + "attention.head_count_kv", m.n_layers);
    m.n_kv_heads = x.kvh.present && x.kvh.max > 0 ? (int)std::min<int64_t>(x.kvh.max, 1 << 16) : m.n_heads;
    if (m.n_heads % m.n_kv_heads != 0) {
        err = "GGUF: " + a + "attention.head_count_kv must divide attention.head_count (got " +
              std::to_string(m.n_heads) + " / " + std::to_string(m.n_kv_heads) + ")";
        return false;
    }
    x.key_len = opt("attention.key_length", 0);
    x.val_len = opt("attention.value_length", 0);
    const int64_t key_len = x.key_len, val_len = x.val_len;
    if (key_len > 0) m.head_dim = (int)std::min<int64_t>(key_len, 1 << 16);
    else if (m.hidden_size % m.n_heads == 0) m.head_dim = (int)(m.hidden_size / m.n_heads);
    else {
        err = "GGUF: " + a + "attention.key_length is missing and embedding_length " + std::to_string(hidden) +
              " is not a multiple of head_count " + std::to_string(m.n_heads);
        return false;
    }
    if (val_len > 0 && val_len != m.head_dim) m.head_dim_v = (int)std::min<int64_t>(val_len, 1 << 16);

    // vocabulary: the tokenizer's token list, or the embedding matrix
    m.vocab_size = info.vocab_size;
    if (m.vocab_size <= 0)
        for (const auto& t : info.tensors)
            if (t.name == "token_embd.weight" && t.n_dims >= 2) m.vocab_size = (int64_t)t.dims[1];
    if (m.vocab_size <= 0) {
        err = "GGUF: the vocabulary size is unknown (no tokenizer.ggml.tokens, " + a +
              "vocab_size or token_embd.weight)";
        return false;
    }
    return true;
}

bool gguf_features(GgufImport& x) {
    const GgufInfo& info = x.info;
    Model& m = x.m;
    // features from the tensors present
    m.tie_embeddings = !info.tensors.empty() && !has_tensor(info, "output.weight");
    m.qkv_bias = has_tensor_suffix(info, ".attn_q.bias") || has_tensor_suffix(info, ".attn_qkv.bias");
    m.qk_norm = has_tensor_suffix(info, ".attn_q_norm.weight") || has_tensor_suffix(info, ".attn_k_norm.weight");
    m.gated_ffn = info.tensors.empty() || has_tensor_suffix(info, ".ffn_gate.weight") ||
                  has_tensor_suffix(info, ".ffn_gate_exps.weight") || has_tensor_suffix(info, ".ffn_gate_up_exps.weight") ||
                  !(has_tensor_suffix(info, ".ffn_up.weight") || has_tensor_suffix(info, ".ffn_up_exps.weight"));
    return true;
}

bool gguf_moe(GgufImport& x) {
    const GgufInfo& info = x.info;
    const std::string& a = x.a;
    Model& m = x.m;
    std::string& err = x.err;
    auto opt = [&](const char* key, int64_t dflt) { return x.opt(key, dflt); };
    // FFN and experts
    const LayerStat ff = layer_stat(info, a + "feed_forward_length", m.n_layers);
    const int64_t n_expert = opt("expert_count", 0);
    if (n_expert > 0) {
        MoeConfig moe;
        moe.n_experts = (int)std::min<int64_t>(n_expert, 1 << 16);
        moe.n_experts_active = (int)std::min<int64_t>(opt("expert_used_count", 0), 1 << 16);
        if (moe.n_experts_active < 1 || moe.n_experts_active > moe.n_experts) {
            err = "GGUF: " + a + "expert_used_count must be in [1, expert_count = " + std::to_string(moe.n_experts) +
                  "] (got " + std::to_string(moe.n_experts_active) + ")";
            return false;
        }
        const int64_t eff = opt("expert_feed_forward_length", 0);
        moe.expert_ffn = eff > 0 ? eff : ff.max;  // Mixtral in the llama arch: feed_forward_length is per expert
        if (moe.expert_ffn <= 0) {
            err = "GGUF: " + a + "expert_feed_forward_length is missing (the width of one expert's FFN is needed)";
            return false;
        }
        moe.n_shared_experts = (int)std::min<int64_t>(opt("expert_shared_count", 0), 1 << 16);
        moe.shared_ffn = opt("expert_shared_feed_forward_length", 0);
        if (moe.n_shared_experts == 0 && (moe.shared_ffn > 0 || has_tensor_suffix(info, ".ffn_up_shexp.weight")))
            moe.n_shared_experts = 1;
        moe.first_dense_layers = (int)std::min<int64_t>(opt("leading_dense_block_count", 0), m.n_layers - 1);
        moe.layer_step = (int)std::max<int64_t>(1, std::min<int64_t>(opt("interleave_moe_layer_step", 1), m.n_layers));
        // without those keys (Jamba), the layers holding a router (ffn_gate_inp) are the MoE layers
        if (!info.find(a + "leading_dense_block_count") && !info.find(a + "interleave_moe_layer_step"))
            moe_layout_from_routers(info, m.n_layers, moe);
        moe.router_bias = has_tensor_suffix(info, ".exp_probs_b.bias") || has_tensor_suffix(info, ".ffn_gate_inp.bias");
        const bool has_dense = moe.first_dense_layers > 0 || moe.layer_step > 1;
        m.intermediate_size = has_dense ? ff.max : 0;  // without expert_feed_forward_length both widths are equal (Jamba)
        if (has_dense && m.intermediate_size <= 0) {
            err = "GGUF: " + a + "feed_forward_length is missing (this MoE model has dense layers)";
            return false;
        }
        m.moe = moe;
    } else {
        m.intermediate_size = ff.max;
        const ArchInfo* row = find_llama_arch(info.architecture);
        if (m.intermediate_size <= 0 && !(row && row->recurrent_only)) {
            err = "GGUF: " + a + "feed_forward_length is missing or 0 (the FFN width is needed)";
            return false;
        }
    }
    return true;
}

bool gguf_mla(GgufImport& x) {
    const std::string& a = x.a;
    Model& m = x.m;
    std::string& err = x.err;
    auto opt = [&](const char* key, int64_t dflt) { return x.opt(key, dflt); };
    // multi-head latent attention (deepseek2): newer files give the per-head sizes as *_mla
    if (const int64_t kv_lora = opt("attention.kv_lora_rank", 0); kv_lora > 0) {
        MlaConfig mla;
        mla.kv_lora_rank = (int)std::min<int64_t>(kv_lora, 1 << 20);
        mla.q_lora_rank = (int)std::min<int64_t>(opt("attention.q_lora_rank", 0), 1 << 20);
        mla.qk_rope_head_dim = (int)std::min<int64_t>(opt("rope.dimension_count", 64), 1 << 16);
        const int64_t k = opt("attention.key_length_mla", x.key_len), v = opt("attention.value_length_mla", x.val_len);
        if (k <= mla.qk_rope_head_dim || v <= 0) {
            err = "GGUF: " + a + "attention.key_length(_mla) / value_length(_mla) are missing or too small for MLA";
            return false;
        }
        mla.qk_nope_head_dim = (int)std::min<int64_t>(k - mla.qk_rope_head_dim, 1 << 16);
        mla.v_head_dim = (int)std::min<int64_t>(v, 1 << 16);
        m.head_dim = mla.qk_nope_head_dim + mla.qk_rope_head_dim;
        m.head_dim_v = mla.v_head_dim == m.head_dim ? 0 : mla.v_head_dim;
        m.n_kv_heads = m.n_heads;
        m.mla = mla;
    }
    return true;
}

bool gguf_swa(GgufImport& x) {
    const GgufInfo& info = x.info;
    const std::string& a = x.a;
    Model& m = x.m;
    auto opt = [&](const char* key, int64_t dflt) { return x.opt(key, dflt); };
    // sliding-window attention, for the architectures llama.cpp runs with one (src/llama-model.cpp)
    const int64_t window = opt("attention.sliding_window", 0);
    const ArchInfo* row = find_llama_arch(info.architecture);
    const SwaRule rule = row ? row->swa : SwaRule::None;
    if (rule == SwaRule::Chunked) {
        SlidingWindow swa;  // chunked attention (Llama 4: n_swa = 8192, every 4th layer global)
        swa.window = row->chunk_window;
        swa.pattern = row->swa_pattern;
        m.swa = swa;
    } else if (window > 0 && rule == SwaRule::Window) {
        SlidingWindow swa;
        swa.window = window;
        const GgufValue* pat = info.find(a + "attention.sliding_window_pattern");
        if (pat && pat->type == GgufType::ARRAY && !pat->array_nums.empty()) {
            for (int i = 0; i < m.n_layers && i < (int)pat->array_nums.size(); ++i)
                if (pat->array_nums[(size_t)i] != 0) swa.sliding_layers.push_back(i);
            swa.pattern = 0;
        } else if (pat && pat->is_uint && pat->u > 0 && pat->u < 10000) {
            swa.pattern = (int)pat->u;
        } else {
            swa.pattern = row->swa_pattern;
        }
        if (swa.pattern > 0 || !swa.sliding_layers.empty()) m.swa = swa;
    }
    return true;
}

bool gguf_hybrid(GgufImport& x) {
    const GgufInfo& info = x.info;
    const ArchInfo* row = find_llama_arch(info.architecture);
    Model& m = x.m;
    auto opt = [&](const char* key, int64_t dflt) { return x.opt(key, dflt); };
    // hybrid recurrent layers: head_count_kv = 0 marks a recurrent layer (Jamba, Granite 4), or every
    // full_attention_interval-th layer is attention (Qwen3-Next)
    const int64_t conv = opt("ssm.conv_kernel", 0), inner = opt("ssm.inner_size", 0), state = opt("ssm.state_size", 0);
    const int64_t groups = opt("ssm.group_count", 0);
    const int64_t interval = opt("full_attention_interval", 0);
    if (conv > 0 && inner > 0 && state > 0 && (!x.kvh.zero_layers.empty() || interval > 0)) {
        HybridConfig h;
        if (interval > 0) {
            for (int i = 0; i < m.n_layers; ++i)
                if ((i + 1) % interval == 0) h.attention_layers.push_back(i);
        } else {
            for (int i = 0; i < m.n_layers; ++i)
                if (std::find(x.kvh.zero_layers.begin(), x.kvh.zero_layers.end(), i) == x.kvh.zero_layers.end())
                    h.attention_layers.push_back(i);
        }
        if (row && row->mixer == RecurrentMixer::GatedDeltaNet) {
            // ssm.state_size = key head dim, group_count = key heads, time_step_rank = value heads
            h.recurrent_type = "gated_deltanet";
            const int64_t conv_dim = 2 * groups * state + inner;
            h.ssm_state_bytes_per_layer = 4 * ((conv - 1) * conv_dim + state * inner);
        } else if (groups > 0) {
            h.recurrent_type = "mamba2";
            h.ssm_state_bytes_per_layer = 4 * ((conv - 1) * (inner + 2 * groups * state) + state * inner);
        } else {
            h.recurrent_type = "mamba";
            h.ssm_state_bytes_per_layer = 4 * ((conv - 1) * inner + state * inner);
        }
        // parameters of one recurrent mixer: the ssm_* tensors of the first recurrent layer
        int first_rec = -1;
        for (int i = 0; i < m.n_layers && first_rec < 0; ++i)
            if (std::find(h.attention_layers.begin(), h.attention_layers.end(), i) == h.attention_layers.end()) first_rec = i;
        if (first_rec >= 0) {
            const std::string pre = "blk." + std::to_string(first_rec) + ".";
            for (const auto& t : info.tensors)
                if (t.name.compare(0, pre.size(), pre) == 0 &&
                    (t.name.compare(pre.size(), 4, "ssm_") == 0 || t.name.compare(pre.size(), 8, "attn_qkv") == 0 ||
                     t.name.compare(pre.size(), 9, "attn_gate") == 0))
                    h.recurrent_layer_params += (int64_t)t.n_elements;
        }
        m.hybrid = h;
    }
    return true;
}

bool gguf_rope(GgufImport& x) {
    const GgufInfo& info = x.info;
    const std::string& a = x.a;
    Model& m = x.m;
    auto opt = [&](const char* key, int64_t dflt) { return x.opt(key, dflt); };
    // context and RoPE extension
    m.native_context = x.ctx;
    if (const std::string* rt = info.get_string(a + "rope.scaling.type"); rt && *rt != "none") m.rope_scaling = *rt;
    const double factor = info.get_number(a + "rope.scaling.factor").value_or(1.0);
    const int64_t orig = opt("rope.scaling.original_context_length", 0);
    if (orig > 0 && orig >= x.ctx && factor > 1 && factor < 1024)  // extension added on top of the trained window
        m.extended_context = (int64_t)std::llround((double)x.ctx * factor);
    return true;
}

}  // namespace

bool model_from_gguf(const GgufInfo& info, Model& out, std::string& err) {
    if (info.architecture.empty()) {
        const GgufValue* a = info.find("general.architecture");
        err = a ? std::string("GGUF: general.architecture must be a non-empty string such as \"llama\" (got ") +
                      (a->type == GgufType::STRING ? "an empty string" : std::string("a ") + type_name(a->type)) + ")"
                : "GGUF: general.architecture is missing; llmsim cannot tell what model this is";
        return false;
    }
    if (info.architecture.size() > 64 || find_invalid_utf8(info.architecture) != std::string::npos) {
        err = "GGUF: general.architecture is not an architecture name (longer than 64 bytes or not UTF-8 text)";
        return false;
    }
    Model m;
    m.arch = info.architecture;
    GgufImport x{info, info.architecture + ".", m, err, 0, 0, 0, {}};
    for (bool (*part)(GgufImport&) : {gguf_names, gguf_core, gguf_features, gguf_moe, gguf_mla, gguf_swa, gguf_hybrid,
                                      gguf_rope})
        if (!part(x)) return false;

    if (info.split_count > 1)
        m.notes.push_back("GGUF split 1 of " + std::to_string(info.split_count) + ": tensor sizes cover this file only");
    out = std::move(m);
    return true;
}

}  // namespace llmsim
