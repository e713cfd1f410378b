// Structs as compact bytes, for the web page's build-time assets (catalog/catalog_binary.h, speed/speed_binary.h):
// the native build parses the JSON (the one source of truth) and writes the bytes; the page reads them back with a
// walk over the structs' fields, no JSON parse and no JSON parser compiled in its first frame.
// A struct takes part by a field list, one function template found by argument-dependent lookup, in its namespace:
//   template <class V> static void fields(V& v, SpeedBand& x) { v.f("rows", x.rows); v.f("low", x.low); ... }
// and (for an enum field) constexpr uint64_t enum_count(MyEnum) { return number of values; }. Then:
//   const BinaryForm form{"LLMSPDB1", "speed_params.bin", "speed params", "llmsim-cli catalog --speed-binary"};
//   std::string bytes = to_binary(form, params);
//   if (!from_binary(form, bytes, params, err)) ...;   // err "speed_params.bin: ...", params untouched
//   std::string dump = fields_text(params);            // "path = value" per field: tests compare two structs with it
//
// Layout: an 8-byte magic, the field list's fingerprint (u64: names and kinds in order, so a file written by another
// field list is refused, not misread), the payload's length (u64) and its FNV-1a 64 hash (u64), then the payload:
// integers as zigzag LEB128, doubles as a short decimal (an integer and a power of ten, checked bit for bit) or
// their 8 IEEE bytes, bools as one byte, strings and vectors as a length then the items, fixed arrays as their items.
//
// [SECTION] Framing
// [SECTION] Visitors: Writer, Reader, Fingerprint, Dump
// [SECTION] API
#pragma once
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace llmsim {

// what a binary file is called in its messages
struct BinaryForm {
    const char* magic;    // 8 bytes, e.g. "LLMCATB1"
    const char* file;     // "catalog.bin": every message starts with it
    const char* what;     // "catalog": "not a binary catalog", "the catalog's field list"
    const char* remake;   // the command that writes it: "llmsim-cli catalog --binary"
};

namespace binary_fields {

// [SECTION] Framing --------------------------------------------------------------------------------------

constexpr size_t kHeaderBytes = 32;
constexpr int kRawDouble = 16;                  // number-form tags 0..15: decimals with k places; 16: raw bytes
constexpr double kExactInt = 9007199254740992.0; // 2^53: every integer below it is a double exactly
constexpr double kPow10[kRawDouble] = {1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15};
constexpr int kMaxDepth = 6;   // structs inside structs: the catalog's deepest real nesting is 3

inline uint64_t fnv1a(const unsigned char* p, size_t n, uint64_t h = 1469598103934665603ull) {
    for (size_t i = 0; i < n; ++i) h = (h ^ p[i]) * 1099511628211ull;
    return h;
}
inline void put_u64(std::string& out, uint64_t x) {
    for (int i = 0; i < 8; ++i) out.push_back((char)(unsigned char)(x >> (8 * i)));
}
inline uint64_t get_u64(const unsigned char* p) {
    uint64_t x = 0;
    for (int i = 0; i < 8; ++i) x |= (uint64_t)p[i] << (8 * i);
    return x;
}

template <class T> struct is_vector : std::false_type {};
template <class T> struct is_vector<std::vector<T>> : std::true_type {};
template <class T> struct is_optional : std::false_type {};
template <class T> struct is_optional<std::optional<T>> : std::true_type {};
template <class T> struct is_pair : std::false_type {};
template <class A, class B> struct is_pair<std::pair<A, B>> : std::true_type {};

// [SECTION] Visitors: Writer, Reader, Fingerprint, Dump --------------------------------------------------

struct Writer {
    std::string out;
    void uint(uint64_t x) {
        while (x >= 0x80) { out.push_back((char)(unsigned char)(x | 0x80)); x >>= 7; }
        out.push_back((char)(unsigned char)x);
    }
    // a double the JSON wrote as a short decimal ("82.58") as the integer and the power of ten it was written with
    // (tag k, 8258: k = 2): n / 10^k with both exact is the double nearest the decimal, as strtod reads it, and it is
    // checked here bit for bit; anything else as its 8 bytes (tag kRawDouble). 8 raw bytes gzip to ~7; this to ~2
    void real(double x) {
        for (int k = 0; k < kRawDouble; ++k) {
            const double scaled = x * kPow10[k];
            if (!(scaled > -kExactInt && scaled < kExactInt)) break;
            const auto n = (int64_t)(scaled < 0 ? scaled - 0.5 : scaled + 0.5);
            const double back = (double)n / kPow10[k];
            if (std::memcmp(&back, &x, 8) == 0) { uint((uint64_t)k); item(n); return; }
        }
        uint((uint64_t)kRawDouble);
        uint64_t b;
        std::memcpy(&b, &x, 8);
        put_u64(out, b);
    }
    template <class T> void f(const char*, T& x) { item(x); }
    template <class T> void item(T& x) {
        if constexpr (std::is_same_v<T, bool>) out.push_back(x ? 1 : 0);
        else if constexpr (std::is_enum_v<T>) uint((uint64_t)x);
        else if constexpr (std::is_integral_v<T>) uint(((uint64_t)(int64_t)x << 1) ^ (uint64_t)((int64_t)x >> 63));
        else if constexpr (std::is_same_v<T, double>) real(x);
        else if constexpr (std::is_same_v<T, std::string>) { uint(x.size()); out += x; }
        else if constexpr (std::is_array_v<T>) { for (auto& e : x) item(e); }
        else if constexpr (is_vector<T>::value) { uint(x.size()); for (auto& e : x) item(e); }
        else if constexpr (is_optional<T>::value) { out.push_back(x ? 1 : 0); if (x) item(*x); }
        else if constexpr (is_pair<T>::value) { item(x.first); item(x.second); }
        else fields(*this, x);
    }
};

struct Reader {
    const unsigned char* p;
    const unsigned char* end;
    const unsigned char* begin;
    const char* field = "";      // the field being read when it failed
    const char* problem = nullptr;
    int depth = 0;

    bool bad(const char* why) { if (!problem) problem = why; return false; }
    bool uint(uint64_t& x) {
        x = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            if (p == end) return bad("ends inside a number");
            const unsigned char b = *p++;
            x |= (uint64_t)(b & 0x7f) << shift;
            if (!(b & 0x80)) return true;
        }
        return bad("holds a number longer than 64 bits");
    }
    // a count of items each at least one byte long: never more than the bytes left
    bool count(size_t& n) {
        uint64_t x;
        if (!uint(x)) return false;
        if (x > (uint64_t)(end - p)) return bad("lists more items than it has bytes");
        n = (size_t)x;
        return true;
    }
    template <class T> void f(const char* name, T& x) {
        if (problem) return;
        field = name;
        item(x);
    }
    template <class T> void integer(T& x) {
        uint64_t v;
        if (!uint(v)) return;
        const int64_t s = (int64_t)(v >> 1) ^ -(int64_t)(v & 1);
        if (s < (int64_t)std::numeric_limits<T>::min() || s > (int64_t)std::numeric_limits<T>::max()) {
            bad("holds a number out of its field's range");
            return;
        }
        x = (T)s;
    }
    void real(double& x) {
        uint64_t k;
        if (!uint(k)) return;
        if (k < (uint64_t)kRawDouble) {
            int64_t n = 0;
            integer(n);
            if (problem) return;
            if (!(n > -kExactInt && n < kExactInt)) { bad("holds a decimal with more digits than a double"); return; }
            x = (double)n / kPow10[k];
            return;
        }
        if (k != (uint64_t)kRawDouble) { bad("holds an unknown number form"); return; }
        if (end - p < 8) { bad("ends inside a number"); return; }
        const uint64_t b = get_u64(p);
        std::memcpy(&x, &b, 8);
        p += 8;
    }
    template <class T> void item(T& x) {
        if (problem) return;
        if constexpr (std::is_same_v<T, bool>) {
            if (p == end) { bad("ends inside a field"); return; }
            if (*p > 1) { bad("holds a true/false byte that is neither"); return; }
            x = *p++ == 1;
        } else if constexpr (std::is_enum_v<T>) {
            uint64_t v;
            if (!uint(v)) return;
            if (v >= enum_count(T{})) { bad("holds an enum value out of range"); return; }
            x = (T)v;
        } else if constexpr (std::is_integral_v<T>) {
            integer(x);
        } else if constexpr (std::is_same_v<T, double>) {
            real(x);
        } else if constexpr (std::is_same_v<T, std::string>) {
            size_t n;
            if (!count(n)) return;
            x.assign((const char*)p, n);
            p += n;
        } else if constexpr (std::is_array_v<T>) {
            for (auto& e : x) item(e);
        } else if constexpr (is_vector<T>::value) {
            size_t n;
            if (!count(n)) return;
            x.clear();
            x.reserve(n < 1024 ? n : 1024);   // a forged count cannot reserve more than the bytes it spends
            for (size_t i = 0; i < n && !problem; ++i) item(x.emplace_back());
        } else if constexpr (is_optional<T>::value) {
            bool has = false;
            item(has);
            if (problem || !has) return;
            x.emplace();
            item(*x);
        } else if constexpr (is_pair<T>::value) {
            item(x.first);
            item(x.second);
        } else {
            if (++depth > kMaxDepth) { bad("nests deeper than the field lists do"); return; }
            fields(*this, x);
            --depth;
        }
    }
};

// the field list itself: names and kinds in order, each struct's list once per place it is used
struct Fingerprint {
    uint64_t h = 1469598103934665603ull;
    int depth = 0;
    void mix(const char* s) { h = fnv1a((const unsigned char*)s, std::strlen(s) + 1, h); }
    template <class T> void f(const char* name, T& x) { mix(name); item(x); }
    template <class T> void item(T&) {
        if constexpr (std::is_same_v<T, bool>) mix("b");
        else if constexpr (std::is_enum_v<T>) mix("e");
        else if constexpr (std::is_integral_v<T>) mix("i");
        else if constexpr (std::is_same_v<T, double>) mix("d");
        else if constexpr (std::is_same_v<T, std::string>) mix("s");
        else if constexpr (std::is_array_v<T>) {
            mix(("<" + std::to_string(std::extent_v<T>)).c_str());
            std::remove_extent_t<T> e{};
            item(e);
            mix(">");
        }
        else if constexpr (is_vector<T>::value) { mix("["); typename T::value_type e{}; if (depth < 3) item(e); mix("]"); }
        else if constexpr (is_optional<T>::value) { mix("?"); typename T::value_type e{}; item(e); }
        else if constexpr (is_pair<T>::value) { mix("("); typename T::first_type a{}; typename T::second_type b{}; item(a); item(b); }
        else { ++depth; mix("{"); T e{}; fields(*this, e); mix("}"); --depth; }
    }
};

template <class T> uint64_t fingerprint_of() {
    static const uint64_t fp = [] { Fingerprint v; T x{}; v.item(x); return v.h; }();
    return fp;
}

struct Dump {
    std::string out;
    std::string path;
    template <class T> void f(const char* name, T& x) {
        const size_t n = path.size();
        path += path.empty() ? "" : ".";
        path += name;
        item(x);
        path.resize(n);
    }
    void line(const std::string& value) { out += path + " = " + value + "\n"; }
    template <class T> void each(T& list) {
        const size_t n = path.size();
        size_t i = 0;
        for (auto& e : list) { path += "[" + std::to_string(i++) + "]"; item(e); path.resize(n); }
    }
    template <class T> void item(T& x) {
        if constexpr (std::is_same_v<T, bool>) line(x ? "true" : "false");
        else if constexpr (std::is_enum_v<T> || std::is_integral_v<T>) line(std::to_string((long long)x));
        else if constexpr (std::is_same_v<T, double>) { char b[40]; std::snprintf(b, sizeof b, "%.17g", x); line(b); }
        else if constexpr (std::is_same_v<T, std::string>) line("\"" + x + "\"");
        else if constexpr (std::is_array_v<T>) each(x);
        else if constexpr (is_vector<T>::value) { line("list of " + std::to_string(x.size())); each(x); }
        else if constexpr (is_optional<T>::value) {
            line(x ? "present" : "absent");
            if (x) item(*x);
        } else if constexpr (is_pair<T>::value) {
            const size_t n = path.size();
            path += ".first"; item(x.first); path.resize(n);
            path += ".second"; item(x.second); path.resize(n);
        } else fields(*this, x);
    }
};

}  // namespace binary_fields

// [SECTION] API ------------------------------------------------------------------------------------------

// x's fields as a file: header (magic, fingerprint, length, checksum) then the payload
template <class T> std::string to_binary(const BinaryForm& form, const T& x) {
    using namespace binary_fields;
    Writer w;
    w.item(const_cast<T&>(x));   // the writer only reads
    std::string out(form.magic, 8);
    put_u64(out, fingerprint_of<T>());
    put_u64(out, w.out.size());
    put_u64(out, fnv1a((const unsigned char*)w.out.data(), w.out.size()));
    return out + w.out;
}

// the header of a file to_binary wrote for T; false + err ("<file>: ...") on anything else
template <class T> bool check_binary_header(const BinaryForm& form, std::string_view bytes, std::string& err) {
    using namespace binary_fields;
    const auto* b = (const unsigned char*)bytes.data();
    const std::string file = form.file;
    if (bytes.size() < kHeaderBytes || std::memcmp(b, form.magic, 8) != 0) {
        err = file + ": not a binary " + form.what + " (" + std::to_string(bytes.size()) + " bytes, no " +
              std::string(form.magic, 8) + " header): rebuild it with " + form.remake;
        return false;
    }
    if (get_u64(b + 8) != fingerprint_of<T>()) {
        err = file + ": written for another version of the " + form.what + "'s field list: rebuild it with this build's " +
              form.remake;
        return false;
    }
    const uint64_t size = get_u64(b + 16);
    if (size != bytes.size() - kHeaderBytes) {
        err = file + ": truncated or padded: the header says " + std::to_string(size) + " bytes of fields, the file has " +
              std::to_string(bytes.size() - kHeaderBytes);
        return false;
    }
    if (get_u64(b + 24) != fnv1a(b + kHeaderBytes, (size_t)size)) {
        err = file + ": corrupt (its checksum does not match its bytes)";
        return false;
    }
    return true;
}

// read what to_binary wrote into `out` (a fresh T the caller then keeps or drops); false + err on any other input
template <class T> bool from_binary(const BinaryForm& form, std::string_view bytes, T& out, std::string& err) {
    using namespace binary_fields;
    if (!check_binary_header<T>(form, bytes, err)) return false;
    const auto* b = (const unsigned char*)bytes.data();
    Reader r{b + kHeaderBytes, b + bytes.size(), b + kHeaderBytes};
    T x{};
    r.item(x);
    if (!r.problem && r.p != r.end) r.problem = "has bytes after the last field";
    if (r.problem) {
        err = std::string(form.file) + ": corrupt: it " + r.problem + " (field '" + r.field + "', byte " +
              std::to_string(kHeaderBytes + (size_t)(r.p - r.begin)) + ")";
        return false;
    }
    out = std::move(x);
    return true;
}

// every field, one "path = value" line each (doubles to 17 digits)
template <class T> std::string fields_text(const T& x) {
    binary_fields::Dump d;
    d.item(const_cast<T&>(x));
    return d.out;
}

}  // namespace llmsim
