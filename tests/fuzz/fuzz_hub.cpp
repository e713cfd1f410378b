// libFuzzer target: everything a Hub (or a hostile HF_ENDPOINT) sends back (engine/hub): the model API JSON,
// the tree listing and its Link header (and where a next page may point), Content-Range / Retry-After headers, the safetensors index and headers, model references,
// and a whole lookup fed answers cut from the input (statuses, headers and bodies chosen by the bytes).
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "hub/hub_lookup.h"
#include "hub/hub_parse.h"
#include "hub/hub_ref.h"

namespace {

// a lookup whose every response comes from the input: [status byte][content-range kind][len16][body]...
void fuzz_lookup(const uint8_t* data, size_t size) {
    llmsim::HubRef ref;
    std::string err;
    if (!llmsim::parse_hub_ref("org/model", ref, err)) __builtin_trap();
    llmsim::HubLookupOptions opt;
    opt.all_headers = size > 0 && (data[0] & 1);
    opt.first_range_bytes = 256;
    llmsim::HubLookup look(ref, opt);
    size_t pos = 1;
    llmsim::HubRequest rq;
    for (int i = 0; i < 64 && look.next(rq); ++i) {
        llmsim::HubResponse r;
        if (pos + 4 > size) { r.status = 0; look.feed(r); break; }
        static const int kStatus[] = {200, 206, 206, 206, 401, 403, 404, 429, 500, 0, 302, 200};
        r.status = kStatus[data[pos] % 12];
        r.error_code = (data[pos] & 0x80) ? "GatedRepo" : "";
        const uint8_t cr = data[pos + 1];
        const size_t n = std::min<size_t>(((size_t)data[pos + 2] << 8 | data[pos + 3]), size - pos - 4);
        r.body.assign((const char*)data + pos + 4, n);
        if (r.body.size() > rq.max_body_bytes) { r.body.resize((size_t)rq.max_body_bytes); r.truncated = true; }
        if (cr % 3 == 0)
            r.content_range = "bytes " + std::to_string(rq.range_begin) + "-" + std::to_string(rq.range_begin + (n ? n - 1 : 0)) +
                              "/" + std::to_string(rq.range_begin + n + cr);
        else if (cr % 3 == 1)
            r.content_range = "bytes " + std::to_string(cr) + "-" + std::to_string(cr + n) + "/*";
        r.retry_after = std::to_string(cr);
        if (cr & 0x40)  // a paged tree listing: a next page on the endpoint, elsewhere, or malformed
            r.link = (cr & 0x20) ? "<https://huggingface.co/api/models/org/model/tree/main?cursor=" + std::to_string(i) + ">; rel=\"next\""
                                 : std::string((const char*)data + pos + 4, std::min<size_t>(n, 64));
        pos += 4 + n;
        look.feed(r);
    }
    (void)look.progress();
    (void)llmsim::hub_read_summary(look.result());
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size == 0) return 0;
    const std::string text((const char*)data + 1, size - 1);
    std::string err;
    switch (data[0] % 8) {
        case 0: { llmsim::HubRepoInfo info; llmsim::parse_hub_model_info(text, info, err); break; }
        case 1: { std::vector<llmsim::HubFileEntry> f; llmsim::parse_hub_tree(text, f, err); break; }
        case 2: { uint64_t b, e, t; if (llmsim::parse_content_range(text, b, e, t) && (e < b || (t && t <= e))) __builtin_trap(); break; }
        case 3: { (void)llmsim::parse_retry_after(text, 1700000000); (void)llmsim::parse_ratelimit_reset(text); break; }
        case 4: { std::vector<std::string> s; llmsim::parse_safetensors_index(text, s, err); break; }
        case 5: { std::vector<llmsim::SafetensorsTensorTotal> t; llmsim::parse_safetensors_header(text, t, err); break; }
        case 6: {
            llmsim::HubRef r;
            if (llmsim::parse_hub_ref(text, r, err)) {
                // a parsed reference must be safe to put into a request path
                for (char c : r.repo + r.revision + r.file)
                    if (c == ' ' || c == '?' || c == '#' || c == '%' || (unsigned char)c < 0x21 || (unsigned char)c > 0x7e) __builtin_trap();
                if ((r.repo + "/" + r.file).find("..") != std::string::npos) __builtin_trap();
            }
            (void)llmsim::gguf_quant_from_file_name(text);
            break;
        }
        case 7: {
            if (data[0] & 0x80) { fuzz_lookup(data, size); break; }
            std::string next, path;
            if (llmsim::parse_link_next(text, next, err)) {
                for (char c : next)
                    if ((unsigned char)c <= 0x20 || (unsigned char)c >= 0x7f) __builtin_trap();
                // a path accepted on the endpoint is relative to it and never leaves it
                if (llmsim::hub_endpoint_path(next, "https://huggingface.co", path, err) &&
                    (path.empty() || path[0] != '/' || path.compare(0, 2, "//") == 0 || path.find('#') != std::string::npos))
                    __builtin_trap();
            }
            break;
        }
        default: break;
    }
    return 0;
}
