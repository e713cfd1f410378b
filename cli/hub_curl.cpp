// Hub lookups over libcurl (hub.h). libcurl follows the Hub's redirects from /resolve/ to its file storage
// (cas-bridge.xethub.hf.co, cdn-lfs*.hf.co, ...), keeps the Range header across them, and drops the Authorization
// header when a redirect leaves the endpoint's host (curl's default since 7.58; CURLOPT_UNRESTRICTED_AUTH stays off),
// so the token reaches only the Hub and the signed storage URLs work without it.
#include <curl/curl.h>

#include <cstdio>
#include <cstdlib>
#include <map>

#include "commands.h"
#include "core/format.h"
#include "hub.h"
#include "quant/quant_types.h"

namespace llmsim::cli {

namespace {

struct Transfer {
    HubResponse* resp;
    uint64_t max_body;
};

size_t on_body(char* p, size_t size, size_t n, void* user) {
    Transfer* t = static_cast<Transfer*>(user);
    const size_t bytes = size * n;
    const uint64_t room = t->max_body > t->resp->body.size() ? t->max_body - t->resp->body.size() : 0;
    if (bytes > room) {  // stop the transfer: never more than the plan asked for
        t->resp->body.append(p, (size_t)room);
        t->resp->truncated = true;
        return 0;
    }
    t->resp->body.append(p, bytes);
    return bytes;
}

// the headers the plan reads; a new status line (a redirect's target answering) starts over
size_t on_header(char* p, size_t size, size_t n, void* user) {
    HubResponse* r = static_cast<Transfer*>(user)->resp;
    std::string line(p, size * n);
    while (!line.empty() && (line.back() == '\r' || line.back() == '\n')) line.pop_back();
    if (line.compare(0, 5, "HTTP/") == 0) { r->content_range.clear(); r->retry_after.clear(); r->error_code.clear(); return size * n; }
    const size_t colon = line.find(':');
    if (colon == std::string::npos || line.size() > 4096) return size * n;
    std::string key = line.substr(0, colon), value = line.substr(colon + 1);
    for (char& c : key) c = (char)std::tolower((unsigned char)c);
    while (!value.empty() && value[0] == ' ') value.erase(0, 1);
    if (key == "content-range") r->content_range = value;
    else if (key == "retry-after") r->retry_after = value;
    else if (key == "x-error-code") r->error_code = value;
    return size * n;
}

std::string endpoint() {
    const char* e = std::getenv("HF_ENDPOINT");
    std::string s = e && *e ? e : "https://huggingface.co";
    while (!s.empty() && s.back() == '/') s.pop_back();
    return s;
}

HubResponse send(CURL* curl, const std::string& base, const std::string& token, const HubRequest& rq) {
    HubResponse resp;
    Transfer t{&resp, rq.max_body_bytes};
    curl_easy_reset(curl);
    const std::string url = base + rq.path;
    curl_easy_setopt(curl, CURLOPT_URL, url.c_str());
    curl_easy_setopt(curl, CURLOPT_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(curl, CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(curl, CURLOPT_FOLLOWLOCATION, 1L);
    curl_easy_setopt(curl, CURLOPT_MAXREDIRS, 5L);
    curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT, 15L);
    curl_easy_setopt(curl, CURLOPT_LOW_SPEED_LIMIT, 1024L);   // less than 1 kB/s for 30 s: give up
    curl_easy_setopt(curl, CURLOPT_LOW_SPEED_TIME, 30L);
    curl_easy_setopt(curl, CURLOPT_USERAGENT, "llmsim/" LLMSIM_VERSION);
    curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, on_body);
    curl_easy_setopt(curl, CURLOPT_WRITEDATA, &t);
    curl_easy_setopt(curl, CURLOPT_HEADERFUNCTION, on_header);
    curl_easy_setopt(curl, CURLOPT_HEADERDATA, &t);
    std::string range;
    if (rq.range_bytes > 0) {
        range = std::to_string(rq.range_begin) + "-" + std::to_string(rq.range_begin + rq.range_bytes - 1);
        curl_easy_setopt(curl, CURLOPT_RANGE, range.c_str());
    } else {
        curl_easy_setopt(curl, CURLOPT_ACCEPT_ENCODING, "");  // JSON may come compressed; Range reads never do
    }
    struct curl_slist* headers = nullptr;
    std::string auth;
    if (!token.empty()) {
        auth = "Authorization: Bearer " + token;
        headers = curl_slist_append(headers, auth.c_str());
        curl_easy_setopt(curl, CURLOPT_HTTPHEADER, headers);
    }
    const CURLcode rc = curl_easy_perform(curl);
    long status = 0;
    curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &status);
    if (rc == CURLE_WRITE_ERROR && resp.truncated) {
        resp.status = (int)status;  // stopped by on_body at the plan's limit
    } else if (rc != CURLE_OK) {
        resp.status = 0;
        resp.network_error = curl_easy_strerror(rc);
    } else {
        resp.status = (int)status;
    }
    curl_slist_free_all(headers);
    auth.assign(auth.size(), '\0');
    return resp;
}

std::map<std::string, HubResult>& cache() {
    static std::map<std::string, HubResult> c;  // per process: one lookup per reference and option set
    return c;
}

}  // namespace

bool hub_lookup(const HubRef& ref, const HubLookupOptions& opt, HubResult& out, std::string& err) {
    const std::string key = hub_ref_text(ref) + "#" + opt.prefer_quant + (opt.all_headers ? "#all" : "");
    auto it = cache().find(key);
    if (it != cache().end()) { out = it->second; return true; }
    const std::string base = endpoint();
    if (base.compare(0, 7, "http://") != 0 && base.compare(0, 8, "https://") != 0) {
        err = "HF_ENDPOINT must be an http:// or https:// address, got '" + base.substr(0, 80) + "'";
        return false;
    }
    const char* tok = std::getenv("HF_TOKEN");
    const std::string token = tok ? tok : "";
    static bool curl_ready = curl_global_init(CURL_GLOBAL_DEFAULT) == CURLE_OK;
    CURL* curl = curl_ready ? curl_easy_init() : nullptr;
    if (!curl) { err = "libcurl could not start"; return false; }
    fprintf(stderr, "hub: looking up %s on %s\n", hub_ref_text(ref).c_str(), base.c_str());
    HubLookup look(ref, opt);
    HubRequest rq;
    while (look.next(rq)) {
        fprintf(stderr, "hub: %s\n", look.progress().c_str());
        look.feed(send(curl, base, token, rq));
    }
    curl_easy_cleanup(curl);
    if (look.failed()) { err = look.error(); return false; }
    out = look.result();
    fprintf(stderr, "hub: %s\n", hub_read_summary(out).c_str());
    cache()[key] = out;
    return true;
}

int model_from_hub(const std::string& id, const std::string* quant, const char* cmd, Model& model, MemoryRequest& req) {
    HubRef ref;
    std::string err;
    if (!parse_hub_ref(id, ref, err)) return fail(std::string(cmd) + ": unknown model '" + id + "': " + err);
    HubLookupOptions opt;
    if (quant) opt.prefer_quant = *quant;
    HubResult r;
    if (!hub_lookup(ref, opt, r, err)) return fail(std::string(cmd) + ": " + err);
    for (const std::string& w : r.warnings) fprintf(stderr, "hub: note: %s\n", w.c_str());
    model = r.model;
    if (r.format == "safetensors") {
        fprintf(stderr, "hub: %s: safetensors checkpoint of %s bytes (%s); llama.cpp memory below is for --quant %s by the rules\n",
                ref.repo.c_str(), std::to_string(r.safetensors_bytes).c_str(), format_gib((double)r.safetensors_bytes).c_str(),
                quant ? quant->c_str() : req.file_type.c_str());
        if (quant) req.file_type = *quant;
        return 0;
    }
    const HubGgufVariant& v = r.variants[(size_t)r.chosen];
    // the per-tensor rules that spread the file's bytes over layers: the header's file type, else the name's
    const std::string ft = hub_variant_file_type(v);
    if (!ft.empty()) req.file_type = ft;
    else fprintf(stderr, "hub: note: %s is no llama.cpp file type; its bytes are spread over the tensors as %s\n", v.quant.c_str(), req.file_type.c_str());
    req.tensor_data_bytes_exact = v.tensor_data_bytes;
    fprintf(stderr, "hub: %s %s (%s): weights %s bytes from %llu tensors in the header%s\n", ref.repo.c_str(), v.quant.c_str(),
            v.files[0].c_str(), std::to_string(v.tensor_data_bytes).c_str(), (unsigned long long)v.n_tensors,
            v.files.size() > 1 ? (", " + std::to_string(v.files.size()) + " split files").c_str() : "");
    return 0;
}

}  // namespace llmsim::cli
