// Why a JSON text does not parse, in words a user can act on: which byte/line, what was found, what to do.
// Used by every importer that reads JSON from a stranger (config.json, the catalog, API requests).
//
//   json j = json::parse(text, nullptr, false);
//   if (j.is_discarded()) err = "config.json: " + llmsim::describe_json_error(text);
//   // "not valid JSON: line 3, column 1: a ',' before '}' (trailing commas are not allowed in JSON)"
#pragma once
#include <cstddef>
#include <string>

#include <nlohmann/json.hpp>

namespace llmsim {

// the first problem that stops `text` from parsing as JSON, starting "not valid JSON: ..." or naming the
// encoding (UTF-16, not UTF-8, binary, HTML); "" when text parses
std::string describe_json_error(const std::string& text);

// byte offset of the first invalid UTF-8 sequence in s, or std::string::npos when s is valid UTF-8
size_t find_invalid_utf8(const std::string& s);

// nesting depth of JSON text: brackets outside strings (a stray closing bracket does not go below 0). Importers
// refuse deep hostile input with it before parsing (nlohmann's parser is iterative, but the limit keeps it cheap)
int json_nesting_depth(const std::string& text);

// s with every invalid UTF-8 sequence replaced by U+FFFD (names read from files, before they reach JSON output)
std::string sanitize_utf8(const std::string& s);

// the number j[key] in [lo, hi] into out; absent or null leaves out as it is (an error when required); false + err
// "<key> is required" / "<key> must be a number" / "<key> must be between lo and hi" (the request readers' words)
bool json_number_field(const nlohmann::json& j, const char* key, double& out, bool required, std::string& err,
                       double lo, double hi);
// the boolean j[key] into out; absent or null leaves out as it is; false + err "<key> must be true or false"
bool json_bool_field(const nlohmann::json& j, const char* key, bool& out, std::string& err);

}  // namespace llmsim
