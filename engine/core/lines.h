// The lines of a text (JSONL files, logs): one loop for every reader of line-oriented input.
#pragma once
#include <string>

namespace llmsim {

// Calls fn(line, line_no) for each line of `text`, line_no counted from 1, the '\n' removed (a '\r' before it
// stays: callers trim). A text that ends with '\n' has no empty last line. Stops early, returning false, when fn
// returns false.
template <class Fn>
bool for_each_line(const std::string& text, Fn&& fn) {
    size_t pos = 0;
    int line_no = 0;
    while (pos < text.size()) {
        size_t nl = text.find('\n', pos);
        if (nl == std::string::npos) nl = text.size();
        ++line_no;
        if (!fn(text.substr(pos, nl - pos), line_no)) return false;
        pos = nl + 1;
    }
    return true;
}

// true when the line holds only spaces, tabs or '\r'
inline bool blank_line(const std::string& line) { return line.find_first_not_of(" \t\r") == std::string::npos; }

}  // namespace llmsim
