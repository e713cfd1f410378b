// JSON error descriptions (json_diag.h). nlohmann's SAX interface reports the position and the reason of a
// parse error without exceptions; encodings are checked first because nlohmann's words for them
// ("ill-formed UTF-8 byte") do not say what to do.
#include "core/json_diag.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <nlohmann/json.hpp>

namespace llmsim {
namespace {

using json = nlohmann::json;

// records the first parse error and stops (returning false makes sax_parse return instead of throwing)
struct ErrorSax : nlohmann::json_sax<json> {
    std::string message;
    bool null() override { return true; }
    bool boolean(bool) override { return true; }
    bool number_integer(number_integer_t) override { return true; }
    bool number_unsigned(number_unsigned_t) override { return true; }
    bool number_float(number_float_t, const string_t&) override { return true; }
    bool string(string_t&) override { return true; }
    bool binary(binary_t&) override { return true; }
    bool start_object(std::size_t) override { return true; }
    bool key(string_t&) override { return true; }
    bool end_object() override { return true; }
    bool start_array(std::size_t) override { return true; }
    bool end_array() override { return true; }
    bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception& ex) override {
        message = ex.what();
        return false;
    }
};

// length of the valid UTF-8 sequence at s[i], 0 if invalid (RFC 3629: no overlongs, no surrogates, <= U+10FFFF)
size_t utf8_len(const std::string& s, size_t i) {
    const auto b = [&](size_t k) { return (uint8_t)s[k]; };
    const uint8_t c = b(i);
    if (c < 0x80) return 1;
    size_t n = 0;
    uint32_t cp = 0;
    if ((c & 0xE0) == 0xC0) n = 2, cp = c & 0x1F;
    else if ((c & 0xF0) == 0xE0) n = 3, cp = c & 0x0F;
    else if ((c & 0xF8) == 0xF0) n = 4, cp = c & 0x07;
    else return 0;
    if (i + n > s.size()) return 0;
    for (size_t k = 1; k < n; ++k) {
        if ((b(i + k) & 0xC0) != 0x80) return 0;
        cp = (cp << 6) | (b(i + k) & 0x3F);
    }
    static const uint32_t kMin[5] = {0, 0, 0x80, 0x800, 0x10000};
    if (cp < kMin[n] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
    return n;
}

void line_col(const std::string& s, size_t pos, size_t& line, size_t& col) {
    line = 1, col = 1;
    for (size_t i = 0; i < pos && i < s.size(); ++i) {
        if (s[i] == '\n') ++line, col = 1;
        else ++col;
    }
}

std::string where(const std::string& s, size_t pos) {
    size_t line, col;
    line_col(s, pos, line, col);
    return "line " + std::to_string(line) + ", column " + std::to_string(col) + " (byte " + std::to_string(pos) + ")";
}

}  // namespace

size_t find_invalid_utf8(const std::string& s) {
    for (size_t i = 0; i < s.size();) {
        const size_t n = utf8_len(s, i);
        if (n == 0) return i;
        i += n;
    }
    return std::string::npos;
}

std::string sanitize_utf8(const std::string& s) {
    if (find_invalid_utf8(s) == std::string::npos) return s;
    std::string out;
    for (size_t i = 0; i < s.size();) {
        const size_t n = utf8_len(s, i);
        if (n == 0) out += "\xEF\xBF\xBD", ++i;
        else out.append(s, i, n), i += n;
    }
    return out;
}

std::string describe_json_error(const std::string& text) {
    if (text.size() >= 2 && (((uint8_t)text[0] == 0xFF && (uint8_t)text[1] == 0xFE) ||
                             ((uint8_t)text[0] == 0xFE && (uint8_t)text[1] == 0xFF)))
        return "the file is UTF-16 text; save it as UTF-8 (JSON files are UTF-8)";
    if (const size_t nul = text.find('\0'); nul != std::string::npos)
        return "byte " + std::to_string(nul) + " is a NUL byte: this is a binary file, not JSON text";
    if (const size_t bad = find_invalid_utf8(text); bad != std::string::npos) {
        char hex[8];
        std::snprintf(hex, sizeof hex, "0x%02X", (unsigned)(uint8_t)text[bad]);
        return "not valid UTF-8 at " + where(text, bad) + ": byte " + hex +
               " (JSON must be UTF-8; was the file saved as Latin-1 or Windows-1252?)";
    }
    if (text.empty()) return "the file is empty (0 bytes), no JSON";
    size_t first = text.find_first_not_of(" \t\r\n");
    if (first == std::string::npos) return "the file holds only whitespace, no JSON";
    if (text[first] == '<') return "this is HTML or XML, not JSON (a web page saved instead of the file?)";

    ErrorSax sax;
    json::sax_parse(text, &sax);
    if (sax.message.empty()) return "";
    std::string m = sax.message;
    if (m.size() > 0 && m[0] == '[') {  // drop "[json.exception.parse_error.101] "
        const size_t close = m.find("] ");
        if (close != std::string::npos) m = m.substr(close + 2);
    }
    if (m.compare(0, 15, "parse error at ") == 0) m = m.substr(15);
    std::string hint;
    if (m.find("unexpected end of input") != std::string::npos) hint = " (the text is cut short)";
    else if (m.find("unexpected '}'") != std::string::npos || m.find("unexpected ']'") != std::string::npos)
        hint = " (a trailing comma? JSON allows none before '}' or ']')";
    else if (m.find("last read: '/") != std::string::npos || m.find("/'; expected") != std::string::npos)
        hint = " (comments are not allowed in JSON)";
    else if (m.find("number overflow") != std::string::npos)
        hint = " (a number larger than a 64-bit float can hold)";
    if (m.size() > 240) m = m.substr(0, 240) + "...";
    return "not valid JSON: " + m + hint;
}

int json_nesting_depth(const std::string& text) {
    int depth = 0, max_depth = 0;
    bool in_str = false, esc = false;
    for (char c : text) {
        if (in_str) {
            if (esc) esc = false;
            else if (c == '\\') esc = true;
            else if (c == '"') in_str = false;
            continue;
        }
        if (c == '"') in_str = true;
        else if (c == '[' || c == '{') max_depth = std::max(max_depth, ++depth);
        else if ((c == ']' || c == '}') && depth > 0) --depth;
    }
    return max_depth;
}

bool json_bool_field(const nlohmann::json& j, const char* key, bool& out, std::string& err) {
    auto it = j.find(key);
    if (it == j.end() || it->is_null()) return true;
    if (!it->is_boolean()) { err = std::string(key) + " must be true or false"; return false; }
    out = it->get<bool>();
    return true;
}

bool json_number_field(const nlohmann::json& j, const char* key, double& out, bool required, std::string& err, double lo, double hi) {
    auto it = j.find(key);
    if (it == j.end() || it->is_null()) {
        if (required) { err = std::string(key) + " is required"; return false; }
        return true;
    }
    if (!it->is_number()) { err = std::string(key) + " must be a number"; return false; }
    double v = it->get<double>();
    if (!std::isfinite(v) || v < lo || v > hi) {
        err = std::string(key) + " must be between " + std::to_string(lo) + " and " + std::to_string(hi);
        return false;
    }
    out = v;
    return true;
}

}  // namespace llmsim
