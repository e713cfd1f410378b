// Parsers for Hub responses (hub_parse.h).
#include "hub/hub_parse.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>

#include <nlohmann/json.hpp>

#include "core/json_diag.h"
#include "core/text.h"
#include "hub/hub_lookup.h"

namespace llmsim {

namespace {

using nlohmann::json;

constexpr int kMaxDepth = 64;

// parse a bounded JSON text; false + err ("<what>: ...") when too large, too deep or not JSON
bool parse_bounded(const std::string& body, const char* what, json& out, std::string& err) {
    if (body.size() > kHubMaxJsonBytes) {
        err = std::string(what) + ": the answer is " + std::to_string(body.size() >> 20) + " MiB, more than the " +
              std::to_string(kHubMaxJsonBytes >> 20) + " MiB accepted";
        return false;
    }
    if (json_nesting_depth(body) > kMaxDepth) {
        err = std::string(what) + ": JSON nested more than " + std::to_string(kMaxDepth) + " levels deep";
        return false;
    }
    out = json::parse(body, nullptr, false);
    if (out.is_discarded()) {
        err = std::string(what) + ": " + describe_json_error(body);
        return false;
    }
    return true;
}

// a file size: a non-negative whole number below 2^53 (no real file is larger; doubles beyond lose bytes)
bool size_of(const json& v, uint64_t& out) {
    if (v.is_number_unsigned()) { out = v.get<uint64_t>(); return out < (1ull << 53); }
    if (v.is_number_integer()) { const int64_t i = v.get<int64_t>(); out = (uint64_t)i; return i >= 0; }
    return false;
}

// a repo-relative file path: non-empty, bounded, valid UTF-8, no NUL
bool valid_path(const std::string& p) {
    return !p.empty() && p.size() <= kHubMaxFilePathChars && p.find('\0') == std::string::npos &&
           find_invalid_utf8(p) == std::string::npos;
}

// size from "size", else "lfs": {"size": N}
void entry_size(const json& e, HubFileEntry& f) {
    auto it = e.find("size");
    if (it != e.end() && size_of(*it, f.size_bytes)) { f.has_size = true; return; }
    auto lfs = e.find("lfs");
    if (lfs != e.end() && lfs->is_object()) {
        auto s = lfs->find("size");
        if (s != lfs->end() && size_of(*s, f.size_bytes)) f.has_size = true;
    }
}

std::string str_field(const json& o, const char* key, size_t max_chars = 200) {
    auto it = o.find(key);
    if (it == o.end() || !it->is_string()) return "";
    std::string s = it->get<std::string>();
    if (s.size() > max_chars || find_invalid_utf8(s) != std::string::npos) return "";
    return s;
}

int dtype_bytes(const std::string& d) {
    static const struct { const char* name; int bytes; } kDtypes[] = {
        {"F64", 8}, {"I64", 8}, {"U64", 8}, {"F32", 4}, {"I32", 4}, {"U32", 4}, {"F16", 2}, {"BF16", 2},
        {"I16", 2}, {"U16", 2}, {"I8", 1}, {"U8", 1}, {"BOOL", 1}, {"F8_E4M3", 1}, {"F8_E5M2", 1},
        {"F8_E8M0", 1}};
    for (const auto& t : kDtypes)
        if (d == t.name) return t.bytes;
    return 0;
}

// the model card's licence: cardData.license (a string or a list), "other" named by cardData.license_name;
// else the first "license:..." tag (the Hub adds one per card licence); "" when neither
std::string license_of(const json& j) {
    std::string lic;
    auto card = j.find("cardData");
    if (card != j.end() && card->is_object()) {
        auto l = card->find("license");
        if (l != card->end() && l->is_string()) lic = str_field(*card, "license", 100);
        else if (l != card->end() && l->is_array())
            for (size_t i = 0; i < l->size() && i < 4; ++i)
                if ((*l)[i].is_string() && (*l)[i].get<std::string>().size() <= 100 &&
                    find_invalid_utf8((*l)[i].get<std::string>()) == std::string::npos)
                    lic += (lic.empty() ? "" : ", ") + (*l)[i].get<std::string>();
        const std::string name = str_field(*card, "license_name", 100);
        if (lower_ascii(lic) == "other" && !name.empty()) lic = name;
    }
    auto tags = j.find("tags");
    if (lic.empty() && tags != j.end() && tags->is_array())
        for (size_t i = 0; i < tags->size() && i < 1000 && lic.empty(); ++i) {
            const json& t = (*tags)[i];
            if (!t.is_string()) continue;
            const std::string s = t.get<std::string>();
            if (s.compare(0, 8, "license:") == 0 && s.size() > 8 && s.size() <= 108 && find_invalid_utf8(s) == std::string::npos)
                lic = s.substr(8);
        }
    for (char& c : lic)
        if ((unsigned char)c < 0x20) c = ' ';
    return lic;
}

}  // namespace

bool parse_hub_model_info(const std::string& body, HubRepoInfo& out, std::string& err) {
    json j;
    if (!parse_bounded(body, "the Hub's model description", j, err)) return false;
    if (!j.is_object()) {
        err = "the Hub's model description is not a JSON object; is HF_ENDPOINT a Hugging Face Hub?";
        return false;
    }
    HubRepoInfo r;
    auto g = j.find("gated");
    r.gated = g != j.end() && ((g->is_boolean() && g->get<bool>()) || (g->is_string() && !g->get<std::string>().empty()));
    auto p = j.find("private");
    r.is_private = p != j.end() && p->is_boolean() && p->get<bool>();
    auto d = j.find("disabled");
    r.disabled = d != j.end() && d->is_boolean() && d->get<bool>();
    r.pipeline_tag = str_field(j, "pipeline_tag");
    r.library_name = str_field(j, "library_name");
    r.license = license_of(j);
    auto sib = j.find("siblings");
    if (sib == j.end() || !sib->is_array()) {
        err = "the Hub's model description has no file list (\"siblings\"); is HF_ENDPOINT a Hugging Face Hub?";
        return false;
    }
    if (sib->size() > kHubMaxFiles) {
        err = "the repo lists " + std::to_string(sib->size()) + " files, more than the " + std::to_string(kHubMaxFiles) +
              " read";
        return false;
    }
    for (const json& e : *sib) {
        if (!e.is_object()) continue;
        HubFileEntry f;
        f.path = str_field(e, "rfilename", kHubMaxFilePathChars);
        if (!valid_path(f.path)) continue;
        entry_size(e, f);
        r.files.push_back(std::move(f));
    }
    out = std::move(r);
    return true;
}

bool parse_hub_tree(const std::string& body, std::vector<HubFileEntry>& out, std::string& err) {
    json j;
    if (!parse_bounded(body, "the Hub's file tree", j, err)) return false;
    if (!j.is_array()) { err = "the Hub's file tree is not a JSON array"; return false; }
    if (j.size() > kHubMaxFiles) { err = "the repo's file tree has more than " + std::to_string(kHubMaxFiles) + " entries"; return false; }
    for (const json& e : j) {
        if (!e.is_object() || str_field(e, "type") != "file") continue;
        HubFileEntry f;
        f.path = str_field(e, "path", kHubMaxFilePathChars);
        if (!valid_path(f.path)) continue;
        entry_size(e, f);
        out.push_back(std::move(f));
    }
    return true;
}

bool parse_link_next(const std::string& v, std::string& next, std::string& err) {
    next.clear();
    if (v.size() > kHubMaxLinkHeaderChars) {
        err = "the Link header is " + std::to_string(v.size()) + " characters, more than the " +
              std::to_string(kHubMaxLinkHeaderChars) + " read";
        return false;
    }
    size_t i = 0;
    auto ws = [&] { while (i < v.size() && (v[i] == ' ' || v[i] == '\t')) ++i; };
    for (int links = 0;; ++links) {
        ws();
        if (i >= v.size()) break;
        if (links >= 64) { err = "the Link header has more than 64 links"; return false; }
        if (v[i] != '<') { err = "the Link header is malformed (a link must start with '<')"; return false; }
        const size_t close = v.find('>', i + 1);
        if (close == std::string::npos) { err = "the Link header is malformed (no '>')"; return false; }
        const std::string uri = v.substr(i + 1, close - i - 1);
        i = close + 1;
        bool is_next = false;
        for (;;) {  // ;name[=value] parameters up to the next ','
            ws();
            if (i >= v.size()) break;
            if (v[i] == ',') { ++i; break; }
            if (v[i] != ';') { err = "the Link header is malformed (expected ';' or ',' after a link)"; return false; }
            ++i;
            ws();
            size_t k = i;
            while (k < v.size() && v[k] != '=' && v[k] != ';' && v[k] != ',' && v[k] != ' ' && v[k] != '\t') ++k;
            const std::string name = lower_ascii(v.substr(i, k - i));
            i = k;
            ws();
            std::string val;
            if (i < v.size() && v[i] == '=') {
                ++i;
                ws();
                if (i < v.size() && v[i] == '"') {
                    const size_t q = v.find('"', i + 1);
                    if (q == std::string::npos) { err = "the Link header is malformed (an unterminated quote)"; return false; }
                    val = v.substr(i + 1, q - i - 1);
                    i = q + 1;
                } else {
                    k = i;
                    while (k < v.size() && v[k] != ';' && v[k] != ',' && v[k] != ' ' && v[k] != '\t') ++k;
                    val = v.substr(i, k - i);
                    i = k;
                }
            }
            if (name != "rel") continue;
            val = lower_ascii(val) + " ";  // rel may list several relation types: rel="next last"
            for (size_t a = 0, b; (b = val.find(' ', a)) != std::string::npos; a = b + 1)
                if (val.compare(a, b - a, "next") == 0) is_next = true;
        }
        if (!is_next) continue;
        if (uri.empty()) { err = "the Link header's next page is empty"; next.clear(); return false; }
        if (!next.empty() && next != uri) { err = "the Link header names two different next pages"; next.clear(); return false; }
        next = uri;
    }
    for (char c : next)
        if ((unsigned char)c <= 0x20 || (unsigned char)c >= 0x7f) {
            err = "the Link header's next page is not a plain URL";
            next.clear();
            return false;
        }
    return true;
}

namespace {
// "https://host:port/prefix" -> origin "https://host:port" (scheme and host lower-cased), path "/prefix"
bool split_url(const std::string& url, std::string& origin, std::string& path) {
    const size_t sep = url.find("://");
    if (sep == std::string::npos || sep == 0) return false;
    const size_t slash = url.find_first_of("/?#", sep + 3);
    origin = lower_ascii(url.substr(0, slash == std::string::npos ? url.size() : slash));
    path = slash == std::string::npos ? "" : url.substr(slash);
    return origin.size() > sep + 3;
}
}  // namespace

bool hub_endpoint_path(const std::string& url, const std::string& endpoint, std::string& path, std::string& err) {
    std::string eo, ep, uo, up;
    if (!split_url(endpoint, eo, ep)) { err = "the endpoint '" + endpoint.substr(0, 80) + "' is not an absolute URL"; return false; }
    while (!ep.empty() && ep.back() == '/') ep.pop_back();
    if (url.size() > kHubMaxLinkHeaderChars) { err = "the next-page link is too long"; return false; }
    if (url.size() >= 1 && url[0] == '/' && (url.size() < 2 || url[1] != '/')) {
        uo = eo;
        up = url;
    } else if (!split_url(url, uo, up)) {
        err = "the next-page link '" + url.substr(0, 80) + "' is not a URL";
        return false;
    }
    if (uo != eo) {
        err = "the next-page link goes to " + uo.substr(0, 80) + ", not the endpoint " + eo + "; not followed";
        return false;
    }
    if (up.compare(0, ep.size(), ep) != 0 || (up.size() > ep.size() && up[ep.size()] != '/') || up.size() == ep.size()) {
        err = "the next-page link '" + url.substr(0, 80) + "' is outside the endpoint " + endpoint.substr(0, 80) + "; not followed";
        return false;
    }
    path = up.substr(ep.size());
    if (path.compare(0, 2, "//") == 0) { err = "the next-page link '" + url.substr(0, 80) + "' has an empty path segment; not followed"; path.clear(); return false; }
    const std::string before_query = path.substr(0, path.find('?'));
    if (before_query.find("/../") != std::string::npos || before_query.find("/./") != std::string::npos ||
        path.find('\\') != std::string::npos || path.find('#') != std::string::npos ||
        (before_query.size() >= 3 && before_query.compare(before_query.size() - 3, 3, "/..") == 0)) {
        err = "the next-page link '" + url.substr(0, 80) + "' has a dot segment, a backslash or a fragment; not followed";
        path.clear();
        return false;
    }
    for (char c : path)
        if ((unsigned char)c <= 0x20 || (unsigned char)c >= 0x7f) { err = "the next-page link is not a plain URL"; path.clear(); return false; }
    return true;
}

bool parse_content_range(const std::string& value, uint64_t& begin, uint64_t& end, uint64_t& total) {
    // "bytes B-E/T" or "bytes B-E/*"
    if (value.compare(0, 6, "bytes ") != 0 || value.size() > 100) return false;
    const char* s = value.c_str() + 6;
    auto num = [](const char*& p, uint64_t& v) {
        if (*p < '0' || *p > '9') return false;
        v = 0;
        while (*p >= '0' && *p <= '9') {
            if (v > (UINT64_MAX - 9) / 10) return false;
            v = v * 10 + (uint64_t)(*p++ - '0');
        }
        return true;
    };
    if (!num(s, begin) || *s++ != '-' || !num(s, end) || *s++ != '/' || end < begin) return false;
    if (*s == '*' && s[1] == '\0') { total = 0; return true; }
    return num(s, total) && *s == '\0' && total > end;
}

int parse_retry_after(const std::string& value, int64_t now_unix_s) {
    if (value.empty() || value.size() > 64) return -1;
    bool digits = true;
    for (char c : value) digits = digits && c >= '0' && c <= '9';
    if (digits) return value.size() > 7 ? 9999999 : std::atoi(value.c_str());
    // IMF-fixdate: "Wed, 21 Oct 2015 07:28:00 GMT"
    char mon[4] = {0};
    int day, year, hh, mm, ss;
    // field widths bound every number (an unbounded %d overflows: "9999027:28:00" made hh * 3600 overflow an int)
    if (std::sscanf(value.c_str(), "%*3s, %2d %3s %4d %2d:%2d:%2d GMT", &day, mon, &year, &hh, &mm, &ss) != 6) return -1;
    if (hh < 0 || hh > 23 || mm < 0 || mm > 59 || ss < 0 || ss > 60) return -1;
    static const char* const kMonths[] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
    int m = -1;
    for (int i = 0; i < 12; ++i)
        if (std::string(mon) == kMonths[i]) m = i;
    if (m < 0 || year < 1970 || year > 3000 || day < 1 || day > 31) return -1;
    // days from civil (Howard Hinnant's algorithm): no timegm() on every platform
    const int m1 = m + 1;  // 1..12
    const int y = year - (m1 <= 2 ? 1 : 0);
    const int era = y / 400, yoe = y - era * 400, mp = (m1 + 9) % 12;
    const int doy = (153 * mp + 2) / 5 + day - 1, doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    const int64_t days = (int64_t)era * 146097 + doe - 719468;
    const int64_t when = days * 86400 + hh * 3600 + mm * 60 + ss;
    const int64_t now = now_unix_s > 0 ? now_unix_s : (int64_t)std::time(nullptr);
    return when <= now ? 0 : (int)std::min<int64_t>(when - now, 9999999);
}

int parse_ratelimit_reset(const std::string& value) {
    if (value.empty() || value.size() > 256) return -1;
    // parameters after the quoted policy name: ;r=N;t=N (order free, spaces allowed)
    size_t i = 0;
    while ((i = value.find(';', i)) != std::string::npos) {
        ++i;
        while (i < value.size() && value[i] == ' ') ++i;
        if (value.compare(i, 2, "t=") != 0) continue;
        size_t k = i + 2, n = 0;
        long t = 0;
        while (k < value.size() && value[k] >= '0' && value[k] <= '9' && n < 8) t = t * 10 + (value[k++] - '0'), ++n;
        if (n == 0 || (k < value.size() && value[k] != ';' && value[k] != ',' && value[k] != ' ')) return -1;
        return (int)t;
    }
    return -1;
}

bool parse_safetensors_index(const std::string& body, std::vector<std::string>& shards, std::string& err) {
    json j;
    if (!parse_bounded(body, "model.safetensors.index.json", j, err)) return false;
    auto wm = j.is_object() ? j.find("weight_map") : j.end();
    if (!j.is_object() || wm == j.end() || !wm->is_object()) {
        err = "model.safetensors.index.json has no \"weight_map\" object";
        return false;
    }
    shards.clear();
    for (auto it = wm->begin(); it != wm->end(); ++it) {
        if (!it->is_string()) { err = "model.safetensors.index.json: weight_map[\"" + it.key().substr(0, 60) + "\"] is not a file name"; return false; }
        const std::string f = it->get<std::string>();
        if (!valid_path(f)) { err = "model.safetensors.index.json names an invalid shard file"; return false; }
        if (std::find(shards.begin(), shards.end(), f) == shards.end()) {
            if (shards.size() >= kHubMaxShards) { err = "model.safetensors.index.json names more than " + std::to_string(kHubMaxShards) + " shards"; return false; }
            shards.push_back(f);
        }
    }
    if (shards.empty()) { err = "model.safetensors.index.json maps no tensors"; return false; }
    return true;
}

bool parse_safetensors_header(const std::string& json_text, std::vector<SafetensorsTensorTotal>& totals, std::string& err) {
    json j;
    if (!parse_bounded(json_text, "safetensors header", j, err)) return false;
    if (!j.is_object()) { err = "safetensors header: not a JSON object"; return false; }
    for (auto it = j.begin(); it != j.end(); ++it) {
        if (it.key() == "__metadata__") continue;
        const std::string name = it.key().substr(0, 80);
        const json& t = *it;
        if (!t.is_object()) { err = "safetensors header: tensor '" + name + "' is not an object"; return false; }
        const std::string dtype = str_field(t, "dtype", 16);
        const int eb = dtype_bytes(dtype);
        if (eb == 0) { err = "safetensors header: tensor '" + name + "' has an unknown dtype '" + dtype + "'"; return false; }
        auto sh = t.find("shape");
        auto off = t.find("data_offsets");
        if (sh == t.end() || !sh->is_array() || sh->size() > 8 || off == t.end() || !off->is_array() || off->size() != 2) {
            err = "safetensors header: tensor '" + name + "' needs a shape (at most 8 dims) and two data_offsets";
            return false;
        }
        uint64_t n = 1, d = 0;
        for (const json& x : *sh) {
            if (!size_of(x, d) || (d > 0 && n > (1ull << 50) / d)) { err = "safetensors header: tensor '" + name + "' has an invalid or huge shape"; return false; }
            n *= d;
        }
        uint64_t b0 = 0, b1 = 0;
        if (!size_of((*off)[0], b0) || !size_of((*off)[1], b1) || b1 < b0 || b1 - b0 != n * (uint64_t)eb) {
            err = "safetensors header: tensor '" + name + "': data_offsets span " +
                  (b1 >= b0 ? std::to_string(b1 - b0) : std::string("a negative count of")) + " bytes, dtype x shape is " +
                  std::to_string(n * (uint64_t)eb);
            return false;
        }
        auto tt = std::find_if(totals.begin(), totals.end(), [&](const SafetensorsTensorTotal& x) { return x.dtype == dtype; });
        if (tt == totals.end()) { totals.push_back({dtype, 0, 0, 0}); tt = totals.end() - 1; }
        tt->n_tensors += 1;
        tt->n_elements += n;
        tt->bytes += n * (uint64_t)eb;
    }
    return true;
}

}  // namespace llmsim
