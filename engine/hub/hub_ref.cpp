// Model references (hub_ref.h).
#include "hub/hub_ref.h"
#include "core/text.h"

#include <vector>

namespace llmsim {

namespace {

const char* const kExample = "give a Hugging Face id such as Qwen/Qwen3-8B, Qwen/Qwen3-8B:Q4_K_M or "
                             "https://huggingface.co/Qwen/Qwen3-8B";

bool name_char(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_' || c == '.';
}

// an org, repo or revision name: Hub characters only, not "." or "..", not starting with '.' or '-'
bool valid_name(const std::string& s, size_t max_chars) {
    if (s.empty() || s.size() > max_chars || s[0] == '.' || s[0] == '-') return false;
    for (char c : s)
        if (!name_char(c)) return false;
    return s.find("..") == std::string::npos;
}

// strip the scheme and host of a Hub URL; false when `s` names another host
bool strip_host(std::string& s, std::string& err) {
    static const char* const kPrefixes[] = {"https://huggingface.co/", "http://huggingface.co/", "huggingface.co/",
                                            "https://hf.co/", "http://hf.co/", "hf.co/", "https://www.huggingface.co/"};
    for (const char* p : kPrefixes) {
        const std::string pre(p);
        if (s.compare(0, pre.size(), pre) == 0) { s = s.substr(pre.size()); return true; }
    }
    if (s.find("://") != std::string::npos) {
        err = "'" + s.substr(0, 80) + "' is not a huggingface.co address; " + kExample;
        return false;
    }
    return true;
}

// the parts after org/name: tree/REV[/..], resolve/REV/FILE, blob/REV/FILE
bool parse_tail(const std::vector<std::string>& parts, HubRef& r, std::string& err) {
    if (parts.size() <= 2) return true;
    const std::string& kind = parts[2];
    if (kind != "tree" && kind != "resolve" && kind != "blob") {
        err = "'" + r.repo + "/" + kind + "': after org/name a Hub address continues with /tree/, /blob/ or /resolve/; " +
              kExample;
        return false;
    }
    if (parts.size() < 4 || !valid_name(parts[3], 64)) {
        err = "the Hub address names no valid revision after /" + kind + "/ (a branch such as main, or a commit)";
        return false;
    }
    r.revision = parts[3];
    if (kind == "tree") return true;  // a folder view: the repo is what counts
    std::string file;
    for (size_t i = 4; i < parts.size(); ++i) {
        if (!valid_name(parts[i], kHubMaxNameChars * 2)) {
            err = "the file path in the Hub address has an empty, '.'-leading or non-ASCII part ('" +
                  parts[i].substr(0, 60) + "')";
            return false;
        }
        file += (file.empty() ? "" : "/") + parts[i];
    }
    if (file.empty() || file.size() > kHubMaxFilePathChars) {
        err = "the Hub address names no file after /" + kind + "/" + r.revision + "/";
        return false;
    }
    if (!ends_with_ci(file, ".gguf")) {
        err = "'" + file + "' is not a .gguf file; link a .gguf file or the model's page";
        return false;
    }
    r.file = file;
    return true;
}

}  // namespace

bool parse_hub_ref(const std::string& text, HubRef& out, std::string& err) {
    size_t b = 0, e = text.size();
    while (b < e && (text[b] == ' ' || text[b] == '\t' || text[b] == '\n' || text[b] == '\r')) ++b;
    while (e > b && (text[e - 1] == ' ' || text[e - 1] == '\t' || text[e - 1] == '\n' || text[e - 1] == '\r')) --e;
    std::string s = text.substr(b, e - b);
    if (s.empty()) { err = std::string("the model id is empty; ") + kExample; return false; }
    if (s.size() > 2048) { err = "the model id is longer than 2048 characters; " + std::string(kExample); return false; }
    if (!strip_host(s, err)) return false;
    const size_t q = s.find_first_of("?#");
    if (q != std::string::npos) s = s.substr(0, q);
    while (!s.empty() && s.back() == '/') s.pop_back();
    HubRef r;
    const size_t colon = s.find(':');
    if (colon != std::string::npos) {
        r.quant = s.substr(colon + 1);
        s = s.substr(0, colon);
        bool ok = !r.quant.empty() && r.quant.size() <= 32;
        for (char c : r.quant) ok = ok && (name_char(c) && c != '.');
        if (!ok) { err = "'" + r.quant.substr(0, 40) + "' after ':' is not a quant name such as Q4_K_M"; return false; }
    }
    const std::vector<std::string> parts = split_on(s, '/');
    if (parts.size() < 2) {
        err = "'" + s.substr(0, 80) + "' is not a Hub id (it needs an owner and a name: org/name); " + kExample;
        return false;
    }
    for (int i = 0; i < 2; ++i)
        if (!valid_name(parts[i], kHubMaxNameChars)) {
            err = "'" + parts[i].substr(0, 100) + "' is not a valid Hub " + (i == 0 ? "owner" : "repo name") +
                  " (letters, digits, '-', '_', '.'; at most 96 characters; not starting with '.' or '-')";
            return false;
        }
    r.repo = parts[0] + "/" + parts[1];
    if (!parse_tail(parts, r, err)) return false;
    if (!r.quant.empty() && !r.file.empty()) {
        err = "give either a file or ':QUANT', not both";
        return false;
    }
    out = r;
    return true;
}

std::string hub_ref_text(const HubRef& r) {
    if (!r.file.empty()) return r.repo + "/resolve/" + r.revision + "/" + r.file;
    std::string s = r.repo;
    if (r.revision != "main") s += "/tree/" + r.revision;
    if (!r.quant.empty()) s += ":" + r.quant;
    return s;
}

}  // namespace llmsim
