// URL-hash and JSON encodings of the Scenario (see url_state.h). One table of fields drives both.
#include "url_state.h"
#include "serving_stages.h"

#include <cerrno>
#include <clocale>
#include <cstdlib>
#include <cstdio>
#include <cstring>
#include <cctype>

#include <nlohmann/json.hpp>

#include "core/json_diag.h"
#include "core/input_limits.h"

namespace {

enum class Kind { Str, Int, Num, Bool };

struct Field {
    const char* key;
    Kind kind;
    std::string Scenario::*s = nullptr;
    int64_t Scenario::*i64 = nullptr;
    int Scenario::*i32 = nullptr;
    double Scenario::*num = nullptr;
    bool Scenario::*flag = nullptr;
    double min = 0, max = 0;     // valid range for numbers
    const char* unit = "";
    bool (*check)(const std::string& value, std::string& why) = nullptr;   // a text value's own rule (nullptr = any text)
};

Field str(const char* k, std::string Scenario::*m) { Field f{k, Kind::Str}; f.s = m; return f; }
Field i64(const char* k, int64_t Scenario::*m, double lo, double hi, const char* unit) {
    Field f{k, Kind::Int}; f.i64 = m; f.min = lo; f.max = hi; f.unit = unit; return f; }
Field i32(const char* k, int Scenario::*m, double lo, double hi, const char* unit) {
    Field f{k, Kind::Int}; f.i32 = m; f.min = lo; f.max = hi; f.unit = unit; return f; }
Field num(const char* k, double Scenario::*m, double lo, double hi, const char* unit) {
    Field f{k, Kind::Num}; f.num = m; f.min = lo; f.max = hi; f.unit = unit; return f; }
Field flag(const char* k, bool Scenario::*m) { Field f{k, Kind::Bool}; f.flag = m; return f; }
// a text value that must follow `check` (a bad one is refused with its reason, the state unchanged)
Field strv(const char* k, std::string Scenario::*m, bool (*check)(const std::string&, std::string&)) { Field f = str(k, m); f.check = check; return f; }

// sv_stages: "rate:seconds,..." (serving_stages.h parse_rate_stages_text)
bool check_stages(const std::string& v, std::string& why) { std::vector<llmsim::ServeWorkload::RateStage> st; return parse_rate_stages_text(v, st, why); }

const std::vector<Field>& fields() {
    static const std::vector<Field> table = {
        str("model", &Scenario::model),
        str("hardware", &Scenario::hardware),
        str("quant", &Scenario::quant),
        i32("gpus", &Scenario::gpus, 0, llmsim::kMaxGpus, "GPUs (0 = as listed)"),
        num("custom_bw", &Scenario::custom_bw_gbs, llmsim::kMinBandwidthGbs, llmsim::kMaxBandwidthGbs, "GB/s"),
        num("custom_tflops", &Scenario::custom_tflops, 0.01, 100000, "TFLOPS"),
        num("custom_mem", &Scenario::custom_mem_gib, 0.5, 100000, "GiB"),
        i64("ctx", &Scenario::ctx_tokens, 1, (double)llmsim::kMaxContextTokens, "tokens"),
        str("kv", &Scenario::kv_type),
        flag("fa", &Scenario::flash_attn),
        i32("ngl", &Scenario::gpu_layers, -1, llmsim::kMaxGpuLayers, "layers (-1 = all)"),
        i32("cpu_moe", &Scenario::cpu_moe_layers, 0, llmsim::kMaxGpuLayers, "layers"),
        i32("np", &Scenario::parallel, 1, llmsim::kMaxParallelSequences, "sequences"),
        i64("prompt", &Scenario::prompt_tokens, 1, (double)llmsim::kMaxContextTokens, "tokens"),
        i64("gen", &Scenario::gen_tokens, 1, (double)llmsim::kMaxContextTokens, "tokens"),
        i64("ctx_b", &Scenario::ctx_b_tokens, 1, (double)llmsim::kMaxContextTokens, "tokens"),
        num("host_ram", &Scenario::host_ram_gib, 0, 65536, "GiB (0 = catalog)"),
        num("host_bw", &Scenario::host_bw_gbs, 0, 10000, "GB/s (0 = catalog)"),
        str("sm", &Scenario::split_mode),
        i32("mg", &Scenario::main_gpu, 0, 15, "GPU index"),
        str("ts", &Scenario::tensor_split),
        num("hours", &Scenario::hours_per_month, 0, 744, "hours per month"),
        num("mtok", &Scenario::mtok_per_month, 0, 1e6, "million tokens per month"),
        num("kwh", &Scenario::kwh_price_usd, 0, 10, "USD per kWh"),
        i32("months", &Scenario::amortize_months, 1, 240, "months"),
        num("price", &Scenario::price_usd, -1, 1e9, "USD (-1 = catalog)"),
        num("rent", &Scenario::rent_usd_per_hour, -1, 1e5, "USD per hour (-1 = catalog)"),
        num("api_in", &Scenario::api_in_usd, -1, 1e4, "USD per 1M tokens (-1 = catalog)"),
        num("api_out", &Scenario::api_out_usd, -1, 1e4, "USD per 1M tokens (-1 = catalog)"),
        num("rec_tps", &Scenario::rec_min_tps, 0, 100000, "tok/s"),
        num("rec_price", &Scenario::rec_max_price, 0, 1e9, "USD"),
        str("bm_task", &Scenario::bm_task),
        num("rec_ttft", &Scenario::rec_max_ttft_s, 0, 1e6, "seconds (0 = any)"),
        // serving section (panel_serving.cpp); README "URL keys" lists them
        str("sv_engine", &Scenario::sv_engine),
        str("sv_prec", &Scenario::sv_precision),
        str("sv_kv", &Scenario::sv_kv),
        i32("sv_gpus", &Scenario::sv_gpus, 0, llmsim::kMaxGpus, "GPUs (0 = the device's)"),
        i32("sv_tp", &Scenario::sv_tp, 0, 64, "GPUs (0 = all / pp)"),
        i32("sv_pp", &Scenario::sv_pp, 1, 64, "stages"),
        str("sv_net", &Scenario::sv_net),
        i64("sv_len", &Scenario::sv_max_len, 0, (double)llmsim::kMaxContextTokens, "tokens (0 = the model's)"),
        num("sv_gmu", &Scenario::sv_gmu, 0, 1, "share of GPU memory (0 = engine default)"),
        i64("sv_in", &Scenario::sv_in, 1, (double)llmsim::kMaxContextTokens, "tokens"),
        i64("sv_out", &Scenario::sv_out, 1, 1000000, "tokens"),
        i32("sv_c", &Scenario::sv_conc, 1, 4096, "requests in flight"),
        num("sv_rate", &Scenario::sv_rate, 0, 1e6, "requests/s (0 = closed loop)"),
        num("sv_ttft", &Scenario::sv_ttft_ms, 0, 1e7, "ms (0 = no target)"),
        num("sv_tpot", &Scenario::sv_tpot_ms, 0, 1e6, "ms (0 = no target)"),
        i64("sv_prefix", &Scenario::sv_prefix, 0, (double)llmsim::kMaxContextTokens, "shared prefix tokens"),
        i32("sv_turns", &Scenario::sv_turns, 1, 1000, "turns per session"),
        num("sv_think", &Scenario::sv_think_s, 0, 86400, "s between turns"),
        num("sv_cpu_gib", &Scenario::sv_cpu_gib, 0, 65536, "GiB host-RAM tier"),
        num("sv_nvme_gib", &Scenario::sv_nvme_gib, 0, 1048576, "GiB NVMe tier"),
        i32("sv_groups", &Scenario::sv_groups, 1, 100000, "prefix groups (distinct shared prefixes)"),
        i32("sv_ppg", &Scenario::sv_ppg, 0, 1000000, "prompts per group (0 = every prompt new)"),
        strv("sv_stages", &Scenario::sv_stages, check_stages),   // "rate:seconds,..." requests/s for s; "" = one rate
        i32("sv_loras", &Scenario::sv_loras, 0, 1024, "LoRA slots (0 = off)"),
        i32("sv_lora_r", &Scenario::sv_lora_rank, 1, 512, "rank"),
        flag("sv_ep", &Scenario::sv_ep),
        i32("sv_pd_p", &Scenario::sv_pd_p, 0, 1024, "prefill GPUs (0 = not disaggregated)"),
        i32("sv_pd_d", &Scenario::sv_pd_d, 1, 1024, "decode GPUs"),
        i32("sv_pd_ptp", &Scenario::sv_pd_ptp, 1, 64, "prefill TP"),
        i32("sv_pd_dtp", &Scenario::sv_pd_dtp, 1, 64, "decode TP"),
        str("sv_pd_link", &Scenario::sv_pd_link),
        // speculative decoding, LoRA, fine-tuning (panel_spec.cpp, panel_lora.cpp, panel_train.cpp)
        str("sp_draft", &Scenario::sp_draft),
        str("sp_dq", &Scenario::sp_draft_quant),
        i32("sp_k", &Scenario::sp_draft_max, 1, 256, "tokens"),
        i32("sp_kmin", &Scenario::sp_draft_min, 0, 256, "tokens"),
        num("sp_acc", &Scenario::sp_accept, 0, 1, "acceptance rate"),
        i64("sp_cd", &Scenario::sp_draft_ctx, 0, (double)llmsim::kMaxContextTokens, "tokens (0 = the target's per sequence)"),
        i32("sp_ngld", &Scenario::sp_draft_ngl, -1, 1000, "layers (-1 = all)"),
        i32("sp_mtp", &Scenario::sp_mtp, 0, 1, "(0 = a draft model, 1 = the model's MTP heads)"),
        i32("lora_n", &Scenario::lora_n, 0, 1024, "adapters (0 = none)"),
        i32("lora_r", &Scenario::lora_rank, 1, 4096, "rank"),
        str("lora_t", &Scenario::lora_targets),
        str("lora_type", &Scenario::lora_type),
        str("tr_method", &Scenario::tr_method),
        str("tr_opt", &Scenario::tr_optimizer),
        i64("tr_seq", &Scenario::tr_seq, 1, (double)llmsim::kMaxContextTokens, "tokens"),
        i32("tr_mb", &Scenario::tr_micro_batch, 1, 4096, "sequences"),
        i32("tr_gpus", &Scenario::tr_gpus, 1, 4096, "GPUs"),
        i32("tr_zero", &Scenario::tr_zero, 0, 3, "ZeRO stage"),
        flag("tr_ckpt", &Scenario::tr_grad_ckpt),
        i32("tr_r", &Scenario::tr_rank, 1, 4096, "rank"),
        str("tr_t", &Scenario::tr_targets),
        num("tr_mfu", &Scenario::tr_mfu, 0.01, 1, "share of peak FLOP/s"),
        // vision and embeddings (panel_vision.cpp, panel_embed.cpp)
        i32("vi_n", &Scenario::vi_images, 0, 10000, "images (0 = none)"),
        i32("vi_w", &Scenario::vi_w, 0, 16384, "px (0 = native)"),
        i32("vi_h", &Scenario::vi_h, 0, 16384, "px (0 = native)"),
        i32("au_s", &Scenario::au_s, 0, 14400, "s of audio (0 = none)"),
        str("em_model", &Scenario::em_model),
        str("em_q", &Scenario::em_quant),
        i32("em_batch", &Scenario::em_batch, 1, 4096, "documents"),
        i64("em_doc", &Scenario::em_doc, 1, 1e6, "tokens"),
        str("sv_s_dev", &Scenario::sv_s_dev),
        str("sv_s_eng", &Scenario::sv_s_eng),
        str("sv_s_prec", &Scenario::sv_s_prec),
        str("sv_s_gpus", &Scenario::sv_s_gpus),
        flag("sv_s_pd", &Scenario::sv_s_pd),
        str("compare", &Scenario::compare),
        str("section", &Scenario::section),
        str("embed", &Scenario::embed),
        str("theme", &Scenario::theme),
    };
    return table;
}

std::string percent_encode(const std::string& v) {
    static const char* hex = "0123456789ABCDEF";
    std::string out;
    for (unsigned char c : v) {
        if (isalnum(c) || c == '-' || c == '_' || c == '.' || c == '~' || c == '/' || c == ',') out += (char)c;
        else { out += '%'; out += hex[c >> 4]; out += hex[c & 15]; }
    }
    return out;
}

bool percent_decode(const std::string& v, std::string& out) {
    out.clear();
    for (size_t i = 0; i < v.size(); ++i) {
        if (v[i] == '%') {
            if (i + 2 >= v.size() || !isxdigit((unsigned char)v[i + 1]) || !isxdigit((unsigned char)v[i + 2])) return false;
            out += (char)strtol(v.substr(i + 1, 2).c_str(), nullptr, 16);
            i += 2;
        } else if (v[i] == '+') {
            out += ' ';
        } else {
            out += v[i];
        }
    }
    return true;
}

// the whole string as a decimal number: [spaces][+-](digits[.digits] | .digits)[(e|E)[+-]digits], '.' always the
// point. What a std::istream with the classic locale reads under libstdc++ (the native app; 0 differences in 937,440
// strings, docs/validation/2026-12-07-page-ready3.md). libc++'s stream (the page) also took hexadecimal ("0x10") and
// refused underflow ("1e-400"); this reads both as the native app does. The stream was ~90 functions (locale, num_get,
// strtold's soft float) compiled lazily while the page read its link's numbers
bool read_decimal(const std::string& t, double& v) {
    size_t i = 0;
    const size_t n = t.size();
    while (i < n && std::isspace((unsigned char)t[i])) ++i;
    const size_t start = i;
    if (i < n && (t[i] == '+' || t[i] == '-')) ++i;
    size_t digits = 0;
    while (i < n && t[i] >= '0' && t[i] <= '9') { ++i; ++digits; }
    if (i < n && t[i] == '.')
        for (++i; i < n && t[i] >= '0' && t[i] <= '9'; ++i) ++digits;
    if (digits == 0) return false;
    if (i < n && (t[i] == 'e' || t[i] == 'E')) {
        if (++i < n && (t[i] == '+' || t[i] == '-')) ++i;
        size_t exponent_digits = 0;
        for (; i < n && t[i] >= '0' && t[i] <= '9'; ++i) ++exponent_digits;
        if (exponent_digits == 0) return false;
    }
    if (i != n) return false;
    std::string num = t.substr(start);
    const char* point = std::localeconv()->decimal_point;   // strtod reads the process's point: hand it that
    if (point && std::strcmp(point, ".") != 0)
        if (size_t at = num.find('.'); at != std::string::npos) num.replace(at, 1, point);
    errno = 0;
    char* end = nullptr;
    v = std::strtod(num.c_str(), &end);
    // overflow is refused, underflow reads as 0 or a denormal (as the native stream does)
    return !(errno == ERANGE && (v > 1 || v < -1)) && end == num.c_str() + num.size();
}

// locale-independent number parse of the whole string
bool parse_number(const std::string& text, double& out) {
    if (text.empty() || text.size() > 40) return false;
    double v = 0;
    if (!read_decimal(text, v)) {
        // allow "32k" / "1M" suffixes for token counts
        char last = text.back();
        double mul = last == 'k' || last == 'K' ? 1024 : last == 'm' || last == 'M' ? 1048576 : 0;
        if (mul == 0) return false;
        if (!read_decimal(text.substr(0, text.size() - 1), v)) return false;
        v *= mul;
    }
    if (!(v == v) || v > 1e300 || v < -1e300) return false;
    out = v;
    return true;
}

// what a stream with the classic locale writes for a double: libc++'s num_put formats a double with no floatfield set
// through printf's "%.*g" at the stream's precision, 6 (core/format.cpp format_fixed made the same change). The stream
// was ~35 functions (locale, num_put, stringbuf) compiled lazily in the page's first frame, which writes the URL hash
std::string format_number(double v) {
    char buf[48];
    std::snprintf(buf, sizeof buf, "%.6g", v);
    std::string out = buf;
    // a process whose LC_NUMERIC is not "C" writes its own decimal point: the classic '.' always, as before
    const char* point = std::localeconv()->decimal_point;
    if (point && std::strcmp(point, ".") != 0)
        if (size_t at = out.find(point); at != std::string::npos) out.replace(at, std::strlen(point), ".");
    return out;
}

bool set_field(const Field& f, const std::string& value, Scenario& s, std::string& err) {
    switch (f.kind) {
    case Kind::Str:
        if (value.size() > 256) { err = std::string(f.key) + ": value longer than 256 characters"; return false; }
        // the value goes back out through getState()'s JSON, which needs UTF-8 (a %A2 alone would abort the page)
        if (size_t bad = llmsim::find_invalid_utf8(value); bad != std::string::npos) {
            err = std::string(f.key) + ": the value is not UTF-8 text (byte " + std::to_string(bad + 1) +
                  " of the decoded value); percent-encode UTF-8, e.g. %C3%A9 for \u00e9";
            return false;
        }
        if (f.check) {
            std::string why;
            if (!f.check(value, why)) { err = std::string(f.key) + ": " + why; return false; }
        }
        s.*(f.s) = value;
        return true;
    case Kind::Bool:
        if (value == "1" || value == "on" || value == "true") { s.*(f.flag) = true; return true; }
        if (value == "0" || value == "off" || value == "false") { s.*(f.flag) = false; return true; }
        err = std::string(f.key) + ": '" + value + "' is not on/off (use on, off, 1 or 0)";
        return false;
    case Kind::Int:
    case Kind::Num: {
        double v = 0;
        // "1 to 10000000 tokens", not "1 to 1e+07 tokens"
        auto bound = [](double b) { return b == (double)(int64_t)b ? std::to_string((int64_t)b) : format_number(b); };
        const std::string range = bound(f.min) + " to " + bound(f.max) + " " + f.unit;
        if (!parse_number(value, v)) {
            err = std::string(f.key) + ": '" + value + "' is not a number (valid: " + range +
                  (f.kind == Kind::Int && std::strcmp(f.unit, "tokens") == 0 ? "; 32k and 1M work too)" : ")");
            return false;
        }
        if (v < f.min || v > f.max) {
            err = std::string(f.key) + ": " + value + " is out of range (" + range + ")";
            return false;
        }
        if (f.kind == Kind::Int) {
            if (v != (double)(int64_t)v) { err = std::string(f.key) + ": '" + value + "' must be a whole number"; return false; }
            if (f.i64) s.*(f.i64) = (int64_t)v; else s.*(f.i32) = (int)v;
        } else {
            s.*(f.num) = v;
        }
        return true;
    }
    }
    return false;
}

std::string get_field(const Field& f, const Scenario& s) {
    switch (f.kind) {
    case Kind::Str: return s.*(f.s);
    case Kind::Bool: return s.*(f.flag) ? "on" : "off";
    case Kind::Int: return std::to_string(f.i64 ? s.*(f.i64) : (int64_t)(s.*(f.i32)));
    case Kind::Num: return format_number(s.*(f.num));
    }
    return {};
}

const Field* find_field(const std::string& key) {
    for (const Field& f : fields())
        if (key == f.key) return &f;
    return nullptr;
}

std::string known_keys() {
    std::string k;
    for (const Field& f : fields()) { if (!k.empty()) k += ", "; k += f.key; }
    return k;
}

}  // namespace

std::string encode_url_state(const Scenario& s) {
    const Scenario defaults;
    std::string out;
    for (const Field& f : fields()) {
        std::string v = get_field(f, s);
        const bool always = std::strcmp(f.key, "model") == 0 || std::strcmp(f.key, "quant") == 0 || std::strcmp(f.key, "ctx") == 0;
        if (v == get_field(f, defaults) && !always) continue;
        if (!out.empty()) out += '&';
        out += f.key;
        out += '=';
        out += percent_encode(v);
    }
    return out;
}

bool decode_url_state(const std::string& hash, Scenario& out, std::string& err, std::vector<std::string>* keys) {
    if (hash.size() > 8192) { err = "link state is longer than 8192 characters"; return false; }
    Scenario s = out;
    std::vector<std::string> seen;
    size_t start = (!hash.empty() && hash[0] == '#') ? 1 : 0;
    while (start < hash.size()) {
        size_t end = hash.find('&', start);
        if (end == std::string::npos) end = hash.size();
        std::string pair = hash.substr(start, end - start);
        start = end + 1;
        if (pair.empty()) continue;
        size_t eq = pair.find('=');
        std::string key = pair.substr(0, eq), raw = eq == std::string::npos ? "" : pair.substr(eq + 1), value;
        if (!percent_decode(raw, value)) { err = key + ": malformed percent-encoding in '" + raw + "'"; return false; }
        const Field* f = find_field(key);
        if (!f) { err = "unknown key '" + key + "' (known: " + known_keys() + ")"; return false; }
        if (!set_field(*f, value, s, err)) return false;
        seen.push_back(key);
    }
    out = s;
    if (keys) *keys = std::move(seen);
    return true;
}

std::string scenario_to_json(const Scenario& s) {
    nlohmann::json j = nlohmann::json::object();
    for (const Field& f : fields()) {
        switch (f.kind) {
        case Kind::Str: j[f.key] = s.*(f.s); break;
        case Kind::Bool: j[f.key] = s.*(f.flag); break;
        case Kind::Int: j[f.key] = f.i64 ? s.*(f.i64) : (int64_t)(s.*(f.i32)); break;
        case Kind::Num: j[f.key] = s.*(f.num); break;
        }
    }
    return j.dump();
}

bool scenario_from_json(const std::string& json_text, Scenario& out, std::string& err, std::vector<std::string>* keys) {
    nlohmann::json j = nlohmann::json::parse(json_text, nullptr, false);
    if (j.is_discarded() || !j.is_object()) { err = "state must be a JSON object, e.g. {\"quant\": \"Q4_K_M\"}"; return false; }
    Scenario s = out;
    std::vector<std::string> seen;
    for (auto it = j.begin(); it != j.end(); ++it) {
        const Field* f = find_field(it.key());
        if (!f) { err = "unknown key '" + it.key() + "' (known: " + known_keys() + ")"; return false; }
        const nlohmann::json& v = it.value();
        std::string text;
        if (v.is_string()) text = v.get<std::string>();
        else if (v.is_boolean()) text = v.get<bool>() ? "on" : "off";
        else if (v.is_number()) text = format_number(v.get<double>());
        else { err = it.key() + ": expected a string, number or boolean"; return false; }
        if (f->kind == Kind::Str && !v.is_string()) { err = it.key() + ": expected a string"; return false; }
        if (!set_field(*f, text, s, err)) return false;
        seen.push_back(it.key());
    }
    out = s;
    if (keys) *keys = std::move(seen);
    return true;
}
