// llama-bench / llama-server output -> rows -> speed-model samples (bench_import.h).
//
// [SECTION] Small parsers
// [SECTION] Markdown table
// [SECTION] JSON / JSONL
// [SECTION] llama-server
// [SECTION] Detection
// [SECTION] Matching
#include "api/bench_import.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstring>

#include <nlohmann/json.hpp>

#include "core/format.h"
#include "core/text.h"
#include "api/predict.h"
#include "memory/prepared_weights.h"
#include "rig/resolve_device.h"
#include "runtime/speed_glue.h"

namespace llmsim {

using nlohmann::json;

std::string BenchRow::test_label() const {
    std::string s = (kind == SpeedTest::Prefill ? "pp" : "tg") + std::to_string(tokens);
    return depth > 0 ? s + " @ d" + std::to_string(depth) : s;
}

namespace {

// [SECTION] Small parsers --------------------------------------------------------------------------------

std::string trim(const std::string& s) {
    size_t a = s.find_first_not_of(" \t\r"), b = s.find_last_not_of(" \t\r");
    return a == std::string::npos ? "" : s.substr(a, b - a + 1);
}

// what a user would recognise of a bad value: at most 40 bytes, control bytes shown as '?'
std::string quote(const std::string& s) {
    std::string q = s.substr(0, 40);
    for (char& c : q) if ((unsigned char)c < 0x20) c = '?';
    return "'" + q + (s.size() > 40 ? "…'" : "'");
}

// a plain decimal "1234.56" (no sign, no exponent): locale-independent, exact enough for t/s
bool parse_decimal(const std::string& s, double& out) {
    if (s.empty() || s.size() > 24) return false;
    double v = 0, scale = 1;
    bool dot = false, digit = false;
    for (char c : s) {
        if (c == '.' && !dot) { dot = true; continue; }
        if (c < '0' || c > '9') return false;
        digit = true;
        if (dot) { scale /= 10; v += (c - '0') * scale; }
        else v = v * 10 + (c - '0');
    }
    if (!digit || !std::isfinite(v)) return false;
    out = v;
    return true;
}

bool parse_count(const std::string& s, int64_t max, int64_t& out) {
    if (s.empty() || s.size() > 10) return false;
    int64_t v = 0;
    for (char c : s) {
        if (c < '0' || c > '9') return false;
        v = v * 10 + (c - '0');
    }
    if (v > max) return false;
    out = v;
    return true;
}

// "pp512", "tg128", "pp 512" (older builds), "pp512 @ d4096"; "pp512+tg128" is a combined test (not used)
bool parse_test(const std::string& t, BenchRow& r, std::string& err) {
    std::string s = trim(t), depth;
    const size_t at = s.find('@');
    if (at != std::string::npos) {
        depth = trim(s.substr(at + 1));
        s = trim(s.substr(0, at));
    }
    if (s.find('+') != std::string::npos) { err = "test " + quote(t) + " is a combined prompt+generation test (not used)"; return false; }
    if (s.size() < 3 || (s.compare(0, 2, "pp") != 0 && s.compare(0, 2, "tg") != 0)) {
        err = "test " + quote(t) + " is not ppN, tgN or ppN @ dD";
        return false;
    }
    r.kind = s[0] == 'p' ? SpeedTest::Prefill : SpeedTest::Decode;
    int64_t n = 0, d = 0;
    if (!parse_count(trim(s.substr(2)), 10000000, n) || n < 1) { err = "test " + quote(t) + ": the token count is not a whole number from 1 to 10^7"; return false; }
    if (!depth.empty() && (depth[0] != 'd' || !parse_count(trim(depth.substr(1)), 100000000, d))) {
        err = "test " + quote(t) + ": the depth must be '@ dN'";
        return false;
    }
    r.tokens = n;
    r.depth = d;
    return true;
}

// "2368.80 ± 93.24" or "2368.80"
bool parse_tps(const std::string& v, BenchRow& r, std::string& err) {
    std::string s = trim(v), sd;
    const size_t pm = s.find("\xC2\xB1");   // U+00B1 PLUS-MINUS SIGN, UTF-8
    if (pm != std::string::npos) {
        sd = trim(s.substr(pm + 2));
        s = trim(s.substr(0, pm));
    }
    if (!parse_decimal(s, r.tps) || !(r.tps > 0) || r.tps > 1e7) { err = "t/s " + quote(v) + " is not a positive number"; return false; }
    if (!sd.empty() && !parse_decimal(sd, r.tps_sd)) { err = "t/s " + quote(v) + ": the ± part is not a number"; return false; }
    return true;
}

// llama_model_ftype_name() -> file type: "Q4_K - Medium" -> Q4_K_M, "mostly Q4_0" -> Q4_0, "MXFP4 MoE" -> MXFP4_MOE
std::string file_type_of_label(std::string t) {
    if (t.compare(0, 7, "mostly ") == 0) t = t.substr(7);
    if (t == "MXFP4 MoE") return "MXFP4_MOE";
    const size_t dash = t.find(" - ");
    std::string base = trim(dash == std::string::npos ? t : t.substr(0, dash));
    const std::string size = dash == std::string::npos ? "" : trim(t.substr(dash + 3));
    if (base == "IQ3_S mix") return "IQ3_M";
    if (base.size() >= 4 && base.compare(base.size() - 2, 2, "_K") == 0 && !size.empty()) {
        if (base == "Q2_K") return size == "Small" ? "Q2_K_S" : "Q2_K";
        if (size == "Small") return base + "_S";
        if (size == "Medium") return base + "_M";
        if (size == "Large") return base + "_L";
    }
    return base;
}

// "qwen2 7B Q4_K - Medium" -> arch qwen2, file type Q4_K_M (the middle word is llama.cpp's size label)
void split_model_label(BenchRow& r) {
    const std::string& l = r.model_label;
    const size_t a = l.find(' ');
    r.arch = lower_ascii(l.substr(0, a));
    if (a == std::string::npos) return;
    const size_t b = l.find(' ', a + 1);
    if (b == std::string::npos) return;
    r.file_type = file_type_of_label(trim(l.substr(b + 1)));
}

bool parse_flash_attn(const std::string& v, int& out) {
    const std::string s = lower_ascii(trim(v));
    if (s == "1" || s == "on" || s == "true") { out = 1; return true; }
    if (s == "0" || s == "off" || s == "false") { out = 0; return true; }
    if (s == "auto" || s == "-1") { out = -1; return true; }   // llama.cpp decides: treated as not printed
    return false;
}

// -ctk / -ctv as printed: a short lower-case ggml type name ("q8_0"); predict's parser says whether it is one
bool parse_cache_type(const std::string& v, std::string& out) {
    const std::string s = lower_ascii(trim(v));
    if (s.empty() || s.size() > 16 || s.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789_") != std::string::npos) return false;
    out = s;
    return true;
}

// printed text kept for a record: at most `max` bytes, control bytes as '?'
std::string printed(const std::string& s, size_t max) {
    std::string t = trim(s).substr(0, max);
    for (char& c : t) if ((unsigned char)c < 0x20 || c == 0x7f) c = '?';
    return t;
}

// the log lines llama-bench prints around its table: "build: 8cf427ff (5163)" under it, and the backend's device line
// above it (CUDA/ROCm "  Device 0: NVIDIA GeForce RTX 4080, compute capability 8.9, VMM: yes", Vulkan "ggml_vulkan: 0 =
// AMD Radeon RX 7900 XTX (...) | uma: 0 ...", Metal "ggml_metal_init: GPU name:   Apple M2 Max"), its name read by
// rig's tool_device_name; the first device named wins
void scan_log_line(const std::string& t, std::string& device, std::string& build) {
    if (t.compare(0, 6, "build:") == 0) { build = printed(t.substr(6), 60); return; }
    if (!device.empty()) return;
    const size_t at = t.find("Device ");
    const bool device_line = (at != std::string::npos && at + 7 < t.size() && isdigit((unsigned char)t[at + 7])) ||
                             t.compare(0, 12, "ggml_vulkan:") == 0 || t.find("GPU name:") != std::string::npos;
    if (device_line) device = printed(tool_device_name(t), 100);
}

// [SECTION] Markdown table -------------------------------------------------------------------------------

std::vector<std::string> split_cells(const std::string& line) {
    std::string s = trim(line);
    if (!s.empty() && s.front() == '|') s.erase(0, 1);
    if (!s.empty() && s.back() == '|') s.pop_back();
    std::vector<std::string> cells;
    size_t start = 0;
    for (;;) {
        const size_t p = s.find('|', start);
        cells.push_back(trim(s.substr(start, p == std::string::npos ? std::string::npos : p - start)));
        if (p == std::string::npos || cells.size() > 64) break;
        start = p + 1;
    }
    return cells;
}

bool is_separator(const std::vector<std::string>& cells) {
    for (const std::string& c : cells)
        if (c.empty() || c.find_first_not_of("-:") != std::string::npos) return false;
    return true;
}

// one data row of a table whose header is `cols`
bool markdown_row(const std::vector<std::string>& cols, const std::vector<std::string>& cells, BenchRow& r, std::string& err) {
    if (cells.size() != cols.size()) {
        err = std::to_string(cells.size()) + " cells, the header has " + std::to_string(cols.size());
        return false;
    }
    for (size_t i = 0; i < cols.size(); ++i) {
        const std::string& c = cols[i];
        const std::string& v = cells[i];
        int64_t n = 0;
        if (c == "model") { r.model_label = v.substr(0, 200); split_model_label(r); }
        else if (c == "size" || c == "params") {
            const size_t sp = v.rfind(' ');
            double x = 0;
            const std::string unit = sp == std::string::npos ? "" : v.substr(sp + 1);
            if (sp == std::string::npos || !parse_decimal(v.substr(0, sp), x)) { err = c + " " + quote(v) + " is not '<number> <unit>'"; return false; }
            if (c == "size") {
                if (unit == "GiB") r.size_gib = x; else if (unit == "MiB") r.size_gib = x / 1024;
                else { err = "size " + quote(v) + ": the unit must be GiB or MiB"; return false; }
            } else {
                if (unit == "B") r.params = x * 1e9; else if (unit == "M") r.params = x * 1e6;
                else { err = "params " + quote(v) + ": the unit must be B or M"; return false; }
            }
        }
        else if (c == "backend") r.backend = v.substr(0, 60);
        else if (c == "ngl") { if (!parse_count(v, 100000, n)) { err = "ngl " + quote(v) + " is not a whole number"; return false; } r.ngl = (int)n; }
        else if (c == "fa") { if (!parse_flash_attn(v, r.flash_attn)) { err = "fa " + quote(v) + " is not 0/1/on/off/auto"; return false; } }
        else if (c == "n_ubatch") { if (!parse_count(v, 1000000, n) || n < 1) { err = "n_ubatch " + quote(v) + " is not a whole number"; return false; } r.n_ubatch = (int)n; }
        else if (c == "n_batch") { if (!parse_count(v, 1000000, n) || n < 1) { err = "n_batch " + quote(v) + " is not a whole number"; return false; } r.n_batch = (int)n; }
        else if (c == "threads") { if (!parse_count(v, 100000, n) || n < 1) { err = "threads " + quote(v) + " is not a whole number"; return false; } r.threads = (int)n; }
        else if (c == "type_k" || c == "type_v") {
            if (!parse_cache_type(v, c == "type_k" ? r.type_k : r.type_v)) { err = c + " " + quote(v) + " is not a cache type (f16, q8_0, ...)"; return false; }
        }
        else if (c == "test") { if (!parse_test(v, r, err)) return false; }
        else if (c == "t/s") { if (!parse_tps(v, r, err)) return false; }
    }
    return true;
}

bool parse_markdown(const std::string& text, BenchImport& out, std::string& err) {
    std::vector<std::string> cols;
    std::string device, build;   // from the log lines around the table (scan_log_line)
    bool in_table = false;
    int line_no = 0;
    size_t pos = 0;
    while (pos <= text.size()) {
        size_t nl = text.find('\n', pos);
        if (nl == std::string::npos) nl = text.size();
        const std::string line = text.substr(pos, std::min<size_t>(nl - pos, 8192));
        pos = nl + 1;
        ++line_no;
        const std::string t = trim(line);
        if (t.empty() || t[0] != '|') {
            in_table = false;
            scan_log_line(t, device, build);
            if (nl >= text.size()) break;
            continue;
        }
        std::vector<std::string> cells = split_cells(t);
        if (is_separator(cells)) continue;
        if (std::find(cells.begin(), cells.end(), "t/s") != cells.end() && std::find(cells.begin(), cells.end(), "test") != cells.end()) {
            cols = cells;      // a header: a new table starts
            if (std::find(cols.begin(), cols.end(), "model") == cols.end()) { err = "line " + std::to_string(line_no) + ": the table has no 'model' column"; return false; }
            in_table = true;
            continue;
        }
        if (!in_table) continue;
        BenchRow r;
        r.line = line_no;
        std::string e;
        if (!markdown_row(cols, cells, r, e)) {
            if (e.find("combined") != std::string::npos) { out.skipped.push_back("line " + std::to_string(line_no) + ": " + e); continue; }
            err = "line " + std::to_string(line_no) + ": " + e;
            return false;
        }
        if (out.rows.size() >= kBenchMaxRows) { err = "more than " + std::to_string(kBenchMaxRows) + " rows"; return false; }
        out.rows.push_back(std::move(r));
        if (nl >= text.size()) break;
    }
    for (BenchRow& r : out.rows) { r.device = device; r.build = build; }
    out.format = "markdown";
    return true;
}

// [SECTION] JSON / JSONL ---------------------------------------------------------------------------------

bool json_count(const json& o, const char* key, int64_t lo, int64_t hi, int64_t& out, bool required, std::string& err) {
    auto it = o.find(key);
    if (it == o.end() || it->is_null()) {
        if (required) err = std::string("\"") + key + "\" is missing";
        return !required;
    }
    if (!it->is_number_integer() && !(it->is_number() && it->get<double>() == std::floor(it->get<double>()))) {
        err = std::string("\"") + key + "\" must be a whole number";
        return false;
    }
    const double v = it->get<double>();
    if (!(v >= (double)lo && v <= (double)hi)) { err = std::string("\"") + key + "\" must be from " + std::to_string(lo) + " to " + std::to_string(hi); return false; }
    out = (int64_t)v;
    return true;
}

bool json_row(const json& o, BenchRow& r, std::string& err) {
    if (!o.is_object()) { err = "each entry must be a JSON object (llama-bench -o json/jsonl)"; return false; }
    auto str = [&](const char* k) { auto it = o.find(k); return it != o.end() && it->is_string() ? it->get<std::string>().substr(0, 200) : std::string(); };
    r.model_label = str("model_type");
    if (r.model_label.empty()) { err = "\"model_type\" is missing (is this llama-bench output?)"; return false; }
    split_model_label(r);
    r.backend = str("backends");
    r.device = printed(str("gpu_info").empty() ? str("cpu_info") : str("gpu_info"), 100);
    r.test_time = printed(str("test_time"), 40);
    for (const char* k : {"type_k", "type_v"})
        if (!str(k).empty() && !parse_cache_type(str(k), k[5] == 'k' ? r.type_k : r.type_v)) { err = std::string("\"") + k + "\" is not a cache type (f16, q8_0, ...)"; return false; }
    int64_t size = 0, params = 0, ngl = -1, ub = 0, nb = 0, threads = 0, build = 0, np = 0, ng = 0, nd = 0;
    if (!json_count(o, "model_size", 1, (int64_t)1 << 50, size, false, err) ||
        !json_count(o, "model_n_params", 1, (int64_t)1 << 50, params, false, err) ||
        !json_count(o, "n_gpu_layers", 0, 100000, ngl, false, err) || !json_count(o, "n_ubatch", 1, 1000000, ub, false, err) ||
        !json_count(o, "n_batch", 0, 1000000, nb, false, err) || !json_count(o, "n_threads", 0, 100000, threads, false, err) ||
        !json_count(o, "build_number", 0, 100000000, build, false, err) ||
        !json_count(o, "n_prompt", 0, 10000000, np, true, err) || !json_count(o, "n_gen", 0, 10000000, ng, true, err) ||
        !json_count(o, "n_depth", 0, 100000000, nd, false, err))
        return false;
    r.size_gib = (double)size / (double)kGiB;
    r.params = (double)params;
    r.ngl = o.contains("n_gpu_layers") ? (int)ngl : -1;
    r.n_ubatch = (int)ub;
    r.n_batch = (int)nb;
    r.threads = (int)threads;
    const std::string commit = printed(str("build_commit"), 40);
    if (!commit.empty() || build > 0)
        r.build = commit + (build > 0 ? std::string(commit.empty() ? "" : " ") + "(" + std::to_string(build) + ")" : "");
    if (auto fa = o.find("flash_attn"); fa != o.end() && !fa->is_null()) {
        if (fa->is_boolean()) r.flash_attn = fa->get<bool>() ? 1 : 0;
        else if (fa->is_number_integer()) r.flash_attn = fa->get<int64_t>() == 1 ? 1 : fa->get<int64_t>() == 0 ? 0 : -1;
        else if (!fa->is_string() || !parse_flash_attn(fa->get<std::string>(), r.flash_attn)) { err = "\"flash_attn\" must be true/false, 0/1 or on/off/auto"; return false; }
    }
    if ((np > 0) == (ng > 0)) { err = "n_prompt " + std::to_string(np) + " + n_gen " + std::to_string(ng) + " is a combined test (not used)"; return false; }
    r.kind = np > 0 ? SpeedTest::Prefill : SpeedTest::Decode;
    r.tokens = np > 0 ? np : ng;
    r.depth = nd;
    auto ts = o.find("avg_ts");
    if (ts == o.end() || !ts->is_number() || !std::isfinite(ts->get<double>()) || !(ts->get<double>() > 0) || ts->get<double>() > 1e7) {
        err = "\"avg_ts\" must be a positive number";
        return false;
    }
    r.tps = ts->get<double>();
    if (auto sd = o.find("stddev_ts"); sd != o.end() && sd->is_number() && std::isfinite(sd->get<double>())) r.tps_sd = sd->get<double>();
    return true;
}

bool add_json_row(const json& o, int line, BenchImport& out, std::string& err) {
    BenchRow r;
    r.line = line;
    std::string e;
    if (!json_row(o, r, e)) {
        if (e.find("combined") != std::string::npos) { out.skipped.push_back("entry " + std::to_string(line) + ": " + e); return true; }
        err = "entry " + std::to_string(line) + ": " + e;
        return false;
    }
    if (out.rows.size() >= kBenchMaxRows) { err = "more than " + std::to_string(kBenchMaxRows) + " rows"; return false; }
    out.rows.push_back(std::move(r));
    return true;
}

// [SECTION] llama-server ---------------------------------------------------------------------------------

// {"timings": {"prompt_n", "prompt_per_second", "predicted_n", "predicted_per_second", "cache_n"?}}: one prefill
// row (from an empty cache unless cache_n says otherwise) and one decode row at depth = the prompt
bool server_timings(const json& t, int line, BenchImport& out, std::string& err) {
    const std::string where = "entry " + std::to_string(line) + ": timings";
    int64_t pn = 0, gn = 0, cached = 0;
    std::string e;
    if (!json_count(t, "prompt_n", 0, 100000000, pn, true, e) || !json_count(t, "predicted_n", 0, 100000000, gn, true, e) ||
        !json_count(t, "cache_n", 0, 100000000, cached, false, e)) { err = where + ": " + e; return false; }
    auto rate = [&](const char* k, double& v) {
        auto it = t.find(k);
        if (it == t.end() || !it->is_number() || !std::isfinite(it->get<double>()) || !(it->get<double>() > 0) || it->get<double>() > 1e7) {
            err = where + ": \"" + k + "\" must be a positive number";
            return false;
        }
        v = it->get<double>();
        return true;
    };
    if (pn > 0) {
        BenchRow r; r.line = line; r.kind = SpeedTest::Prefill; r.tokens = pn; r.depth = cached;
        if (!rate("prompt_per_second", r.tps)) return false;
        out.rows.push_back(r);
    }
    if (gn > 0) {
        BenchRow r; r.line = line; r.kind = SpeedTest::Decode; r.tokens = gn; r.depth = cached + pn;
        if (!rate("predicted_per_second", r.tps)) return false;
        out.rows.push_back(r);
    }
    if (out.rows.size() > kBenchMaxRows) { err = "more than " + std::to_string(kBenchMaxRows) + " rows"; return false; }
    return true;
}

// "prompt eval time =  123.45 ms /   512 tokens (    0.24 ms per token,  4147.41 tokens per second)"
// "       eval time = 1234.56 ms /   127 tokens (    9.72 ms per token,   102.87 tokens per second)"
bool parse_server_log(const std::string& text, BenchImport& out, std::string& err) {
    int line_no = 0;
    size_t pos = 0;
    int64_t last_prompt = 0;
    while (pos < text.size()) {
        size_t nl = text.find('\n', pos);
        if (nl == std::string::npos) nl = text.size();
        const std::string line = text.substr(pos, std::min<size_t>(nl - pos, 4096));
        pos = nl + 1;
        ++line_no;
        const size_t et = line.find("eval time =");
        if (et == std::string::npos) continue;
        const bool prompt = line.find("prompt eval time") != std::string::npos;
        const size_t slash = line.find('/', et), tok = line.find(" tokens (", et), comma = line.find(',', et),
                     tps_end = line.find(" tokens per second", et);
        int64_t n = 0;
        double tps = 0;
        if (slash == std::string::npos || tok == std::string::npos || comma == std::string::npos || tps_end == std::string::npos ||
            tok < slash || tps_end < comma || !parse_count(trim(line.substr(slash + 1, tok - slash - 1)), 100000000, n) ||
            !parse_decimal(trim(line.substr(comma + 1, tps_end - comma - 1)), tps) || !(tps > 0)) {
            err = "line " + std::to_string(line_no) + ": not a llama-server timing line (\"... eval time = X ms / N tokens (Y ms per token, Z tokens per second)\")";
            return false;
        }
        if (n < 1) continue;
        BenchRow r;
        r.line = line_no;
        r.kind = prompt ? SpeedTest::Prefill : SpeedTest::Decode;
        r.tokens = n;
        r.depth = prompt ? 0 : last_prompt;
        r.tps = tps;
        if (prompt) last_prompt = n;
        if (out.rows.size() >= kBenchMaxRows) { err = "more than " + std::to_string(kBenchMaxRows) + " rows"; return false; }
        out.rows.push_back(r);
    }
    out.format = "llama-server";
    return true;
}

// [SECTION] Detection ------------------------------------------------------------------------------------

bool parse_json_forms(const std::string& text, BenchImport& out, std::string& err) {
    json doc = json::parse(text, nullptr, false);
    if (!doc.is_discarded()) {
        if (doc.is_array()) {
            if (doc.size() > kBenchMaxRows) { err = "more than " + std::to_string(kBenchMaxRows) + " rows"; return false; }
            out.format = "json";
            for (size_t i = 0; i < doc.size(); ++i)
                if (!add_json_row(doc[i], (int)i + 1, out, err)) return false;
            return true;
        }
        if (doc.is_object() && doc.contains("timings")) {
            out.format = "llama-server";
            if (!doc["timings"].is_object()) { err = "\"timings\" must be an object (llama-server /completion answer)"; return false; }
            return server_timings(doc["timings"], 1, out, err);
        }
        if (doc.is_object() && doc.contains("prompt_per_second")) { out.format = "llama-server"; return server_timings(doc, 1, out, err); }
    }
    // JSON Lines: one llama-bench object per line
    out.format = "jsonl";
    int line_no = 0;
    size_t pos = 0;
    while (pos < text.size()) {
        size_t nl = text.find('\n', pos);
        if (nl == std::string::npos) nl = text.size();
        const std::string line = trim(text.substr(pos, nl - pos));
        pos = nl + 1;
        ++line_no;
        if (line.empty()) continue;
        json o = json::parse(line, nullptr, false);
        if (o.is_discarded()) { err = "line " + std::to_string(line_no) + ": not valid JSON (llama-bench -o jsonl writes one object per line)"; return false; }
        if (!add_json_row(o, line_no, out, err)) { err = "line" + err.substr(5); return false; }
    }
    return true;
}

}  // namespace

bool parse_bench_output(const std::string& text, BenchImport& out, std::string& err) {
    out = BenchImport();
    if (text.size() > kBenchMaxBytes) { err = "input is larger than 4 MiB (a llama-bench log is a few KiB)"; return false; }
    if (text.find('\0') != std::string::npos) { err = "input contains NUL bytes (binary data, not llama-bench output)"; return false; }
    const size_t first = text.find_first_not_of(" \t\r\n");
    if (first == std::string::npos) { err = "input is empty: paste llama-bench output (Markdown table, -o json or -o jsonl) or llama-server timings"; return false; }
    bool ok;
    if (text[first] == '[' || text[first] == '{') ok = parse_json_forms(text, out, err);
    else if (text.find("eval time =") != std::string::npos && text.find("| t/s") == std::string::npos) ok = parse_server_log(text, out, err);
    else ok = parse_markdown(text, out, err);
    if (!ok) { out.rows.clear(); return false; }
    if (out.rows.empty()) {
        err = "no benchmark rows found: expected a llama-bench Markdown table (| model | size | params | backend | ... | test | t/s |), "
              "its -o json / -o jsonl output, or llama-server timings";
        if (!out.skipped.empty()) err += " (" + std::to_string(out.skipped.size()) + " combined pp+tg rows are not used)";
        return false;
    }
    return true;
}

// [SECTION] Matching -------------------------------------------------------------------------------------

const Model* match_bench_model(const Catalog& cat, const BenchRow& row, const std::string& model_id, std::string& why) {
    if (!model_id.empty()) {
        const Model* m = cat.find_model(model_id);
        if (!m) why = "unknown model '" + model_id + "' (llmsim-cli catalog --models lists them)";
        return m;
    }
    if (row.arch.empty() || !(row.params > 0)) {
        why = "the row names no model (llama-server timings): say which with --model ID";
        return nullptr;
    }
    const Model* best = nullptr;
    double best_err = 0.03;   // llama-bench prints 3 significant figures; same shape = same count
    std::string e;
    for (const Model& m : cat.models) {
        if (lower_ascii(m.arch) != row.arch) continue;
        auto w = prepare_weights(cat, m, row.file_type.empty() || !cat.find_file_type(row.file_type) ? "Q4_K_M" : row.file_type, e, 0);
        if (!w) continue;
        const double rel = std::fabs((double)w->params.total / row.params - 1);
        if (rel < best_err) { best_err = rel; best = &m; }
    }
    if (!best) why = "no catalog model of arch '" + row.arch + "' with " + format_sig(row.params / 1e9) + " B params (say which with --model ID)";
    else why = row.arch + ", " + format_sig(row.params / 1e9) + " B params";
    return best;
}

namespace {
const char* backend_of(const std::string& printed) {
    const std::string b = lower_ascii(printed);
    if (b.find("cuda") != std::string::npos) return "cuda";
    if (b.find("rocm") != std::string::npos || b.find("hip") != std::string::npos) return "rocm";
    if (b.find("metal") != std::string::npos || b.find("mtl") != std::string::npos) return "metal";
    if (b.find("vulkan") != std::string::npos) return "vulkan";
    if (b.find("sycl") != std::string::npos) return "sycl";
    if (b.find("cpu") != std::string::npos || b.find("blas") != std::string::npos) return "cpu";
    return nullptr;
}
}  // namespace

json bench_row_predict_json(const Catalog& cat, const BenchRow& r, const Model& model, const Hardware& hw) {
    json in = {{"id", r.test_label()}, {"model", model.id}, {"hardware", hw.id},
               {"test", {{"kind", r.kind == SpeedTest::Prefill ? "prefill" : "decode"}, {"tokens", r.tokens}, {"depth", r.depth}}}};
    in["quant"] = !r.file_type.empty() && cat.find_file_type(r.file_type) ? json(r.file_type) : json(nullptr);
    if (r.size_gib > 0) in["model_size_gib"] = r.size_gib;
    if (const char* b = backend_of(r.backend)) in["backend"] = b;
    in["flash_attn"] = r.flash_attn < 0 ? json(nullptr) : json(r.flash_attn == 1);
    // llama.cpp refuses a quantized V cache without flash attention: a run that printed one with -fa auto (or no fa
    // column) ran with it on
    if (r.flash_attn < 0 && !r.type_v.empty() && r.type_v != "f16" && r.type_v != "bf16" && r.type_v != "f32") in["flash_attn"] = true;
    if (r.n_ubatch > 0) in["ubatch"] = r.n_ubatch;
    if (r.n_batch > 0) in["batch"] = r.n_batch;
    // the build it printed: build-dependent rules and the band's build era apply as they do to its exported record
    if (!r.build.empty()) in["build"] = r.build;
    if (!r.type_k.empty()) in["type_k"] = r.type_k;
    if (!r.type_v.empty()) in["type_v"] = r.type_v;
    // -ngl 99 (or any count past the layers) is llama-bench's default placement: left out, so the line predicts
    // exactly as one without it; fewer layers is partial offload, which the memory model places
    if (r.ngl >= 0 && r.ngl <= model.n_layers) in["ngl"] = r.ngl;
    return in;
}

void bench_samples(const Catalog& cat, const BenchImport& imp, const Hardware& hw, const std::string& model_id,
                   std::vector<ProfileSample>& samples, std::vector<BenchMatch>& matches) {
    const SpeedParams& params = default_speed_params();
    for (const BenchRow& r : imp.rows) {
        BenchMatch bm;
        bm.row = &r;
        bm.model = match_bench_model(cat, r, model_id, bm.why);
        // -ngl up to the layer count leaves layers (at least the output layer) in host RAM: the offload group
        // (bench_knobs.h), which the profile does not learn from
        if (bm.model && r.ngl >= 0 && r.ngl <= bm.model->n_layers) {
            bm.why = "-ngl " + std::to_string(r.ngl) + " of " + std::to_string(bm.model->n_layers) + " layers (+ output): partial offload is not used";
            bm.model = nullptr;
        }
        if (bm.model) {
            PredictInput p;
            std::string e;
            if (!parse_predict_input(cat, bench_row_predict_json(cat, r, *bm.model, hw), p, e)) { bm.why = e; bm.model = nullptr; }
            else {
                SpeedResult pr = estimate_speed(p.scenario, params);
                bm.predicted_tps = pr.tokens_per_s; bm.low = pr.low; bm.high = pr.high;
                samples.push_back({p.scenario, r.tps, bm.model->id, r.test_label()});
            }
        }
        matches.push_back(bm);
    }
}

}  // namespace llmsim
