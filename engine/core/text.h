// Small text helpers for names and typed-in lists (model ids, quant names, device names, HTTP header keys, file
// suffixes, "a,b,c" options): one implementation for every module and front end. The case helpers change only
// 'A'-'Z' / 'a'-'z', so the result does not depend on the C locale (std::tolower does) and UTF-8 bytes pass
// through untouched.
//
//   if (llmsim::equals_ci(name, "FP16")) ...                 // "fp16", "Fp16", "FP16"
//   const std::string key = llmsim::lower_ascii(header_key);  // "Content-Range" -> "content-range"
//   if (llmsim::ends_with_ci(path, ".gguf")) ...              // "Model.GGUF" too
//   for (const std::string& part : llmsim::split_on("4090,3090@host", ',')) ... llmsim::trim_space(part) ...
#pragma once
#include <string>
#include <string_view>
#include <vector>

namespace llmsim {

// c lower-cased / upper-cased when it is an ASCII letter, else c
constexpr char lower_ascii(char c) { return c >= 'A' && c <= 'Z' ? char(c - 'A' + 'a') : c; }
constexpr char upper_ascii(char c) { return c >= 'a' && c <= 'z' ? char(c - 'a' + 'A') : c; }

// s with its ASCII letters lower-cased / upper-cased
// the llama.cpp build number in a build string as llama-bench prints it: "233d773d0 (6413)" -> 6413 (the first number
// in parentheses), "b7600 (baseline ...)" / "b4418" -> the number after a leading 'b'; 0 when there is none
inline int llama_build_number(const std::string& b) {
    const size_t open = b.find('(');
    const char* digits = nullptr;
    if (open != std::string::npos && open + 1 < b.size() && b[open + 1] >= '0' && b[open + 1] <= '9') digits = b.c_str() + open + 1;
    else if (b.size() > 1 && b[0] == 'b' && b[1] >= '0' && b[1] <= '9') digits = b.c_str() + 1;
    if (!digits) return 0;
    long n = 0;
    for (const char* c = digits; *c >= '0' && *c <= '9' && n < 1000000; ++c) n = n * 10 + (*c - '0');
    return n > 0 && n < 1000000 ? (int)n : 0;
}

inline std::string lower_ascii(std::string s) {
    for (char& c : s) c = lower_ascii(c);
    return s;
}
inline std::string upper_ascii(std::string s) {
    for (char& c : s) c = upper_ascii(c);
    return s;
}

// a equals b ignoring the case of ASCII letters
inline bool equals_ci(std::string_view a, std::string_view b) {
    if (a.size() != b.size()) return false;
    for (size_t i = 0; i < a.size(); ++i)
        if (lower_ascii(a[i]) != lower_ascii(b[i])) return false;
    return true;
}

// s ends with suffix, ignoring the case of ASCII letters
inline bool ends_with_ci(std::string_view s, std::string_view suffix) {
    return s.size() >= suffix.size() && equals_ci(s.substr(s.size() - suffix.size()), suffix);
}

// s without leading and trailing white space (space, \t, \n, \v, \f, \r: what isspace() is in the C locale)
inline std::string trim_space(const std::string& s) {
    const char* ws = " \t\n\v\f\r";
    const size_t a = s.find_first_not_of(ws);
    if (a == std::string::npos) return "";
    return s.substr(a, s.find_last_not_of(ws) - a + 1);
}

// the fields of s between each `sep`, empty ones kept ("a,,b" -> "a", "", "b"; "" -> one empty field)
inline std::vector<std::string> split_on(const std::string& s, char sep) {
    std::vector<std::string> out(1);
    for (char c : s) {
        if (c == sep) out.emplace_back();
        else out.back() += c;
    }
    return out;
}

}  // namespace llmsim
