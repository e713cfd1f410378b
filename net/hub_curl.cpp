// Hub lookups over libcurl (hub_curl.h). libcurl follows the Hub's redirects from /resolve/ to its file storage
// (us.aws.cdn.hf.co, cas-bridge.xethub.hf.co, cdn-lfs*.hf.co, ...), keeps the Range header across them, and drops
// the Authorization header when a redirect leaves the endpoint's host (curl's default since 7.58), so the token
// reaches only the Hub and the signed storage URLs work without it.
#include "hub_curl.h"
#include "core/text.h"

#include <curl/curl.h>

#include <cctype>
#include <cstdlib>

namespace llmsim::net {

namespace {

struct Transfer {
    HubResponse* resp;
    uint64_t max_body;
    const std::atomic<bool>* cancel;
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
    if (line.compare(0, 5, "HTTP/") == 0) {
        r->content_range.clear(); r->retry_after.clear(); r->error_code.clear(); r->link.clear(); r->ratelimit.clear();
        return size * n;
    }
    const size_t colon = line.find(':');
    if (colon == std::string::npos || line.size() > kHubMaxLinkHeaderChars + 16) return size * n;
    std::string key = line.substr(0, colon), value = line.substr(colon + 1);
    key = lower_ascii(key);
    while (!value.empty() && value[0] == ' ') value.erase(0, 1);
    if (key == "content-range") r->content_range = value;
    else if (key == "retry-after") r->retry_after = value;
    else if (key == "x-error-code") r->error_code = value;
    else if (key == "ratelimit") r->ratelimit = value;
    else if (key == "link") r->link = value;  // several Link lines are one list (RFC 9110 5.3)
    return size * n;
}

// libcurl asks about once a second and on every chunk: a set cancel flag aborts the transfer
int on_progress(void* user, curl_off_t, curl_off_t, curl_off_t, curl_off_t) {
    const Transfer* t = static_cast<const Transfer*>(user);
    return t->cancel && t->cancel->load() ? 1 : 0;
}

HubResponse send(CURL* curl, const std::string& base, const std::string& token, const HubRequest& rq,
                 const std::atomic<bool>* cancel) {
    HubResponse resp;
    Transfer t{&resp, rq.max_body_bytes, cancel};
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
    curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);             // safe on a worker thread
    curl_easy_setopt(curl, CURLOPT_USERAGENT, "llmsim/" LLMSIM_VERSION);
    curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, on_body);
    curl_easy_setopt(curl, CURLOPT_WRITEDATA, &t);
    curl_easy_setopt(curl, CURLOPT_HEADERFUNCTION, on_header);
    curl_easy_setopt(curl, CURLOPT_HEADERDATA, &t);
    curl_easy_setopt(curl, CURLOPT_NOPROGRESS, 0L);
    curl_easy_setopt(curl, CURLOPT_XFERINFOFUNCTION, on_progress);
    curl_easy_setopt(curl, CURLOPT_XFERINFODATA, &t);
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

}  // namespace

std::string hub_endpoint_from_env() {
    const char* e = std::getenv("HF_ENDPOINT");
    std::string s = e && *e ? e : "https://huggingface.co";
    while (!s.empty() && s.back() == '/') s.pop_back();
    return s;
}

std::string hub_token_from_env() {
    const char* t = std::getenv("HF_TOKEN");
    return t ? t : "";
}

bool check_hub_endpoint(const std::string& endpoint, std::string& err) {
    if (endpoint.compare(0, 7, "http://") == 0 || endpoint.compare(0, 8, "https://") == 0) return true;
    err = "HF_ENDPOINT must be an http:// or https:// address, got '" + endpoint.substr(0, 80) + "'";
    return false;
}

bool run_hub_lookup_curl(HubLookup& look, const std::string& endpoint, const std::string& token,
                         const std::function<void(const std::string&)>& on_progress_text, const std::atomic<bool>* cancel,
                         std::string& err) {
    if (!check_hub_endpoint(endpoint, err)) return false;
    static const bool curl_ready = curl_global_init(CURL_GLOBAL_DEFAULT) == CURLE_OK;  // thread-safe static init
    CURL* curl = curl_ready ? curl_easy_init() : nullptr;
    if (!curl) { err = "libcurl could not start"; return false; }
    HubRequest rq;
    bool cancelled = false;
    while (look.next(rq)) {
        if (cancel && cancel->load()) { cancelled = true; break; }
        if (on_progress_text) on_progress_text(look.progress());
        HubResponse r = send(curl, endpoint, token, rq, cancel);
        if (cancel && cancel->load()) { cancelled = true; break; }
        look.feed(r);
    }
    curl_easy_cleanup(curl);
    if (cancelled) { err = "cancelled"; return false; }
    return true;
}

}  // namespace llmsim::net
