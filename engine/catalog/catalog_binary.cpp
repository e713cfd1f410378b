// The catalog's binary form (catalog_binary.h). One field list per struct, walked by four visitors: the writer, the
// reader, the fingerprint of the list itself (a file written by another list is refused, not misread) and the text
// dump tests compare catalogs with.
//
// [SECTION] Field lists
// [SECTION] Visitors
// [SECTION] API
#include "catalog/catalog_binary.h"

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <optional>
#include <type_traits>
#include <utility>
#include <vector>

#include "catalog/gpu_combos.h"

namespace llmsim {
namespace {

// A field added to a struct without a line below would be dropped from the page's catalog without a word: these
// sizes (64-bit libstdc++, every native build) make that a compile error. Add the field to its list, then update the size.
#if defined(__GLIBCXX__) && defined(__x86_64__)
static_assert(sizeof(MoeConfig) == 48 && sizeof(MlaConfig) == 20 && sizeof(SlidingWindow) == 40 &&
              sizeof(HybridConfig) == 72 && sizeof(OllamaTag) == 128 && sizeof(QualityScore) == 152,
              "a catalog struct changed: update its field list in catalog_binary.cpp");
static_assert(sizeof(Model) == 800 && sizeof(Hardware) == 616 && sizeof(RigDevice) == 736 && sizeof(GgmlType) == 48 &&
              sizeof(FileType) == 216 && sizeof(QualityBenchmark) == 248 && sizeof(QualityTask) == 128 &&
              sizeof(Catalog) == 184,
              "a catalog struct changed: update its field list in catalog_binary.cpp");
#endif

// [SECTION] Field lists ----------------------------------------------------------------------------------
// Order is the file's order. The writer and the dump take const catalogs through these (they never write to them).

template <class V> void fields(V& v, MoeConfig& x) {
    v.f("n_experts", x.n_experts); v.f("n_experts_active", x.n_experts_active);
    v.f("n_shared_experts", x.n_shared_experts); v.f("expert_ffn", x.expert_ffn); v.f("shared_ffn", x.shared_ffn);
    v.f("first_dense_layers", x.first_dense_layers); v.f("layer_step", x.layer_step); v.f("router_bias", x.router_bias);
}
template <class V> void fields(V& v, MlaConfig& x) {
    v.f("q_lora_rank", x.q_lora_rank); v.f("kv_lora_rank", x.kv_lora_rank); v.f("qk_rope_head_dim", x.qk_rope_head_dim);
    v.f("qk_nope_head_dim", x.qk_nope_head_dim); v.f("v_head_dim", x.v_head_dim);
}
template <class V> void fields(V& v, SlidingWindow& x) {
    v.f("window", x.window); v.f("pattern", x.pattern); v.f("sliding_layers", x.sliding_layers);
}
template <class V> void fields(V& v, HybridConfig& x) {
    v.f("recurrent_type", x.recurrent_type); v.f("attention_layers", x.attention_layers);
    v.f("ssm_state_bytes_per_layer", x.ssm_state_bytes_per_layer); v.f("recurrent_layer_params", x.recurrent_layer_params);
}
template <class V> void fields(V& v, OllamaTag& x) {
    v.f("tag", x.tag); v.f("file_type", x.file_type); v.f("variants", x.variants); v.f("source", x.source);
    v.f("only_file_type", x.only_file_type);
}
template <class V> void fields(V& v, QualityScore& x) {
    v.f("benchmark", x.benchmark); v.f("scores", x.scores); v.f("date", x.date); v.f("source", x.source);
    v.f("note", x.note);
}
template <class V> void fields(V& v, Model& x) {
    v.f("id", x.id); v.f("name", x.name); v.f("family", x.family); v.f("license", x.license); v.f("arch", x.arch);
    v.f("n_layers", x.n_layers); v.f("hidden_size", x.hidden_size); v.f("intermediate_size", x.intermediate_size);
    v.f("n_heads", x.n_heads); v.f("n_kv_heads", x.n_kv_heads); v.f("head_dim", x.head_dim);
    v.f("head_dim_v", x.head_dim_v); v.f("vocab_size", x.vocab_size); v.f("tie_embeddings", x.tie_embeddings);
    v.f("qkv_bias", x.qkv_bias); v.f("qk_norm", x.qk_norm); v.f("gated_ffn", x.gated_ffn);
    v.f("native_context", x.native_context); v.f("extended_context", x.extended_context);
    v.f("rope_scaling", x.rope_scaling); v.f("moe", x.moe); v.f("mla", x.mla); v.f("swa", x.swa);
    v.f("hybrid", x.hybrid); v.f("nextn_layers", x.nextn_layers); v.f("published_params_b", x.published_params_b);
    v.f("published_active_params_b", x.published_active_params_b);
    v.f("api_price_in_usd_per_mtok", x.api_price_in_usd_per_mtok);
    v.f("api_price_out_usd_per_mtok", x.api_price_out_usd_per_mtok); v.f("api_price_source", x.api_price_source);
    v.f("api_price_provider", x.api_price_provider); v.f("api_price_date", x.api_price_date);
    v.f("release_weights", x.release_weights); v.f("release_file_type", x.release_file_type);
    v.f("release_source", x.release_source); v.f("sources", x.sources); v.f("notes", x.notes);
    v.f("ollama_tags", x.ollama_tags); v.f("quality", x.quality);
}
template <class V> void fields(V& v, Hardware& x) {
    v.f("id", x.id); v.f("name", x.name); v.f("vendor", x.vendor); v.f("kind", x.kind);
    v.f("chip_family", x.chip_family); v.f("backends", x.backends); v.f("gpu_count", x.gpu_count); v.f("link", x.link);
    v.f("link_gbs", x.link_gbs); v.f("link_assumed", x.link_assumed); v.f("memory_bytes", x.memory_bytes);
    v.f("bandwidth_gbs", x.bandwidth_gbs); v.f("memory_kind", x.memory_kind); v.f("fp16_tflops", x.fp16_tflops);
    v.f("fp16_tflops_basis", x.fp16_tflops_basis); v.f("fp16_tflops_estimated", x.fp16_tflops_estimated);
    v.f("int8_tops", x.int8_tops); v.f("tdp_w", x.tdp_w); v.f("sm_count", x.sm_count); v.f("cpu_cores", x.cpu_cores);
    v.f("boost_clock_mhz", x.boost_clock_mhz); v.f("cpu_core_flops_per_clk", x.cpu_core_flops_per_clk);
    v.f("price_usd", x.price_usd); v.f("price_used_usd", x.price_used_usd);
    v.f("cloud_usd_per_hour", x.cloud_usd_per_hour); v.f("gpu_limit_default_bytes", x.gpu_limit_default_bytes);
    v.f("gpu_limit_max_bytes", x.gpu_limit_max_bytes); v.f("system_ram_bytes", x.system_ram_bytes);
    v.f("system_ram_bandwidth_gbs", x.system_ram_bandwidth_gbs); v.f("seed_aliases", x.seed_aliases);
    v.f("calibration_names", x.calibration_names); v.f("tool_names", x.tool_names);
    v.f("memory_basis", x.memory_basis); v.f("price_source", x.price_source); v.f("cloud_source", x.cloud_source);
    v.f("sources", x.sources); v.f("notes", x.notes); v.f("rig", x.rig);
}
template <class V> void fields(V& v, RigDevice& x) {
    v.f("hw", x.hw); v.f("llama_name", x.llama_name); v.f("host", x.host); v.f("host_label", x.host_label);
    v.f("net_link", x.net_link); v.f("net_gbs", x.net_gbs); v.f("net_latency_us", x.net_latency_us);
}
template <class V> void fields(V& v, GgmlType& x) {
    v.f("name", x.name); v.f("id", x.id); v.f("block_size", x.block_size); v.f("type_size", x.type_size);
}
template <class V> void fields(V& v, FileType& x) {
    v.f("name", x.name); v.f("aliases", x.aliases); v.f("ftype_id", x.ftype_id); v.f("gguf", x.gguf);
    v.f("base_type", x.base_type); v.f("flat_bpw", x.flat_bpw); v.f("quality_label", x.quality_label);
    v.f("kld", x.kld); v.f("ppl_delta_pct", x.ppl_delta_pct); v.f("quality_source", x.quality_source);
    v.f("common", x.common); v.f("sources", x.sources);
}
template <class V> void fields(V& v, QualityBenchmark& x) {
    v.f("id", x.id); v.f("name", x.name); v.f("version", x.version); v.f("url", x.url); v.f("date", x.date);
    v.f("source", x.source); v.f("caveat", x.caveat); v.f("metrics", x.metrics);
}
template <class V> void fields(V& v, QualityTask& x) {
    v.f("task", x.task); v.f("benchmark", x.benchmark); v.f("metric", x.metric); v.f("why", x.why);
}
template <class V> void fields(V& v, Catalog& x) {   // combinations are derived (add_gpu_combinations), not stored
    v.f("models", x.models); v.f("hardware", x.hardware); v.f("ggml_types", x.ggml_types);
    v.f("file_types", x.file_types); v.f("quality_benchmarks", x.quality_benchmarks);
    v.f("quality_tasks", x.quality_tasks);
}

// the number of values of each enum the catalog stores (a read value at or past it is corrupt)
constexpr uint64_t enum_count(HardwareKind) { return (uint64_t)HardwareKind::Cpu + 1; }
constexpr uint64_t enum_count(Backend) { return (uint64_t)Backend::Cpu + 1; }
constexpr uint64_t enum_count(ChipFamily) { return (uint64_t)ChipFamily::Count + 1; }

// [SECTION] Visitors -------------------------------------------------------------------------------------

template <class T> struct is_vector : std::false_type {};
template <class T> struct is_vector<std::vector<T>> : std::true_type {};
template <class T> struct is_optional : std::false_type {};
template <class T> struct is_optional<std::optional<T>> : std::true_type {};
template <class T> struct is_pair : std::false_type {};
template <class A, class B> struct is_pair<std::pair<A, B>> : std::true_type {};

constexpr char kMagic[8] = {'L', 'L', 'M', 'C', 'A', 'T', 'B', '1'};
constexpr size_t kHeaderBytes = 32;
constexpr int kRawDouble = 16;                  // number-form tags 0..15: decimals with k places; 16: raw bytes
constexpr double kExactInt = 9007199254740992.0; // 2^53: every integer below it is a double exactly
constexpr double kPow10[kRawDouble] = {1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15};
constexpr int kMaxDepth = 6;   // Catalog > Hardware > RigDevice > Hardware (a rig's device) > ...: real files use 3

uint64_t fnv1a(const unsigned char* p, size_t n, uint64_t h = 1469598103934665603ull) {
    for (size_t i = 0; i < n; ++i) h = (h ^ p[i]) * 1099511628211ull;
    return h;
}

void put_u64(std::string& out, uint64_t x) {
    for (int i = 0; i < 8; ++i) out.push_back((char)(unsigned char)(x >> (8 * i)));
}
uint64_t get_u64(const unsigned char* p) {
    uint64_t x = 0;
    for (int i = 0; i < 8; ++i) x |= (uint64_t)p[i] << (8 * i);
    return x;
}

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
            uint64_t v;
            if (!uint(v)) return;
            const int64_t s = (int64_t)(v >> 1) ^ -(int64_t)(v & 1);
            if (s < (int64_t)std::numeric_limits<T>::min() || s > (int64_t)std::numeric_limits<T>::max()) {
                bad("holds a number out of its field's range");
                return;
            }
            x = (T)s;
        } else if constexpr (std::is_same_v<T, double>) {
            uint64_t k;
            if (!uint(k)) return;
            if (k < (uint64_t)kRawDouble) {
                int64_t n = 0;
                item(n);
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
        } else if constexpr (std::is_same_v<T, std::string>) {
            size_t n;
            if (!count(n)) return;
            x.assign((const char*)p, n);
            p += n;
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
            if (++depth > kMaxDepth) { bad("nests deeper than any catalog does"); return; }
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
        else if constexpr (is_vector<T>::value) { mix("["); typename T::value_type e{}; if (depth < 3) item(e); mix("]"); }
        else if constexpr (is_optional<T>::value) { mix("?"); typename T::value_type e{}; item(e); }
        else if constexpr (is_pair<T>::value) { mix("("); typename T::first_type a{}; typename T::second_type b{}; item(a); item(b); }
        else { ++depth; mix("{"); T e{}; fields(*this, e); mix("}"); --depth; }
    }
};

uint64_t field_list_fingerprint() {
    static const uint64_t fp = [] { Fingerprint v; Catalog c; v.item(c); return v.h; }();
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
    template <class T> void item(T& x) {
        if constexpr (std::is_same_v<T, bool>) line(x ? "true" : "false");
        else if constexpr (std::is_enum_v<T> || std::is_integral_v<T>) line(std::to_string((long long)x));
        else if constexpr (std::is_same_v<T, double>) { char b[40]; std::snprintf(b, sizeof b, "%.17g", x); line(b); }
        else if constexpr (std::is_same_v<T, std::string>) line("\"" + x + "\"");
        else if constexpr (is_vector<T>::value) {
            line("list of " + std::to_string(x.size()));
            const size_t n = path.size();
            for (size_t i = 0; i < x.size(); ++i) { path += "[" + std::to_string(i) + "]"; item(x[i]); path.resize(n); }
        } else if constexpr (is_optional<T>::value) {
            line(x ? "present" : "absent");
            if (x) item(*x);
        } else if constexpr (is_pair<T>::value) {
            const size_t n = path.size();
            path += ".first"; item(x.first); path.resize(n);
            path += ".second"; item(x.second); path.resize(n);
        } else fields(*this, x);
    }
};

}  // namespace

// [SECTION] API ------------------------------------------------------------------------------------------

std::string catalog_to_binary(const Catalog& cat) {
    Writer w;
    w.item(const_cast<Catalog&>(cat));
    std::string out(kMagic, sizeof kMagic);
    put_u64(out, field_list_fingerprint());
    put_u64(out, w.out.size());
    put_u64(out, fnv1a((const unsigned char*)w.out.data(), w.out.size()));
    return out + w.out;
}

bool catalog_from_binary(std::string_view bytes, Catalog& out, std::string& err) {
    const auto* b = (const unsigned char*)bytes.data();
    if (bytes.size() < kHeaderBytes || std::memcmp(b, kMagic, sizeof kMagic) != 0) {
        err = "catalog.bin: not a binary catalog (" + std::to_string(bytes.size()) +
              " bytes, no LLMCATB1 header): rebuild it with llmsim-cli catalog --binary";
        return false;
    }
    if (get_u64(b + 8) != field_list_fingerprint()) {
        err = "catalog.bin: written for another version of the catalog's field list: rebuild it with this build's "
              "llmsim-cli catalog --binary";
        return false;
    }
    const uint64_t size = get_u64(b + 16);
    if (size != bytes.size() - kHeaderBytes) {
        err = "catalog.bin: truncated or padded: the header says " + std::to_string(size) + " bytes of fields, the file has " +
              std::to_string(bytes.size() - kHeaderBytes);
        return false;
    }
    if (get_u64(b + 24) != fnv1a(b + kHeaderBytes, (size_t)size)) {
        err = "catalog.bin: corrupt (its checksum does not match its bytes)";
        return false;
    }
    Reader r{b + kHeaderBytes, b + bytes.size(), b + kHeaderBytes};
    Catalog c;
    r.item(c);
    if (!r.problem && r.p != r.end) r.problem = "has bytes after the last field";
    if (r.problem) {
        err = std::string("catalog.bin: corrupt: it ") + r.problem + " (field '" + r.field + "', byte " +
              std::to_string(kHeaderBytes + (size_t)(r.p - r.begin)) + ")";
        return false;
    }
    add_gpu_combinations(c);
    out = std::move(c);
    return true;
}

std::string catalog_fields_text(const Catalog& cat) {
    Dump d;
    d.item(const_cast<Catalog&>(cat));
    for (size_t i = 0; i < cat.combinations.size(); ++i) {   // derived, not stored: compared all the same
        d.path = "combinations[" + std::to_string(i) + "]";
        d.item(const_cast<Hardware&>(cat.combinations[i]));
    }
    return d.out;
}

}  // namespace llmsim
