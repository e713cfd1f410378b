// Parsers for what the Hub sends back: the model API's JSON (file names, sizes, gated flag, licence), the tree
// listing and its Link pagination header, Content-Range and Retry-After headers, model.safetensors.index.json and a safetensors header. All input is
// hostile: sizes are capped (hub_lookup.h), nesting is checked before parsing, types are checked before use, and
// nothing throws (the fuzz target tests/fuzz/fuzz_hub.cpp feeds each of them arbitrary bytes).
//
//   llmsim::HubRepoInfo info;
//   if (!llmsim::parse_hub_model_info(body, info, err)) fail(err);
//   for (const auto& f : info.files) printf("%s %llu\n", f.path.c_str(), (unsigned long long)f.size_bytes);
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace llmsim {

struct HubFileEntry {
    std::string path;
    uint64_t size_bytes = 0;
    bool has_size = false;
};

struct HubRepoInfo {
    bool gated = false;                   // "gated": "auto" | "manual" (false when absent or false)
    bool is_private = false;
    bool disabled = false;
    std::string pipeline_tag;             // "text-generation", "" when absent
    std::string library_name;
    std::string license;                  // cardData.license (or license_name for "other"), else a "license:" tag
    std::vector<HubFileEntry> files;      // siblings (rfilename, size or lfs.size)
};

// GET /api/models/{repo}[?blobs=true]; false + err on a body that is not a model description
bool parse_hub_model_info(const std::string& body, HubRepoInfo& out, std::string& err);
// GET /api/models/{repo}/tree/{rev}: an array of {type, path, size, lfs}; files are appended to out
bool parse_hub_tree(const std::string& body, std::vector<HubFileEntry>& out, std::string& err);

// RFC 8288 Link header (the tree listing is paged: `Link: <https://huggingface.co/api/models/o/n/tree/main?cursor=..>;
// rel="next"`, huggingface_hub#1176): `next` = the target of rel="next", "" when there is none; false + err when
// the header is malformed or longer than kHubMaxLinkHeaderChars
bool parse_link_next(const std::string& value, std::string& next, std::string& err);
// a URL the Hub handed back (a next page) must stay on the endpoint: same scheme, host and port, under the
// endpoint's path; `path` = the part after the endpoint ("/api/models/..."); a "/..." path is origin-relative.
// false + err (naming the foreign origin) otherwise
bool hub_endpoint_path(const std::string& url, const std::string& endpoint, std::string& path, std::string& err);

// "bytes 0-2097151/47000000000" -> begin 0, end 2097151, total 47000000000 (total 0 when "*"); false if malformed
bool parse_content_range(const std::string& value, uint64_t& begin, uint64_t& end, uint64_t& total);
// Retry-After in seconds (a delay, or an HTTP date relative to now_unix_s when given); -1 when unreadable
int parse_retry_after(const std::string& value, int64_t now_unix_s = 0);

// the IETF RateLimit header the Hub sends (`"api";r=0;t=55`: r requests left, t seconds until the window resets; what
// huggingface_hub parses since 1.2, #3570): t, or -1 when absent or unreadable
int parse_ratelimit_reset(const std::string& value);

// model.safetensors.index.json: the shard file names of weight_map, in first-seen order
bool parse_safetensors_index(const std::string& body, std::vector<std::string>& shards, std::string& err);

struct SafetensorsTensorTotal {
    std::string dtype;
    uint64_t n_tensors = 0, n_elements = 0, bytes = 0;
};
// a safetensors header's JSON (after the 8-byte length): sums dtype x shape per dtype; checks each tensor's
// data_offsets span equals its dtype x shape bytes; false + err on anything else
bool parse_safetensors_header(const std::string& json_text, std::vector<SafetensorsTensorTotal>& totals,
                              std::string& err);

}  // namespace llmsim
