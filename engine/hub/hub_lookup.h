// A Hub lookup as a plan: which request to make next, and what each response means. No HTTP here — the caller
// (libcurl in the CLI, fetch on the web, a fake in the tests) makes the request, follows redirects, and feeds back
// the status, a few headers and the body bytes.
//
//   llmsim::HubRef ref;  llmsim::parse_hub_ref("org/new-model:Q4_K_M", ref, err);
//   llmsim::HubLookup look(ref);
//   llmsim::HubRequest rq;
//   while (look.next(rq)) look.feed(my_http_get(endpoint + rq.path, rq.range_begin, rq.range_bytes, rq.max_body_bytes));
//   if (look.failed()) show(look.error());             // "gated: accept the licence on the Hub, or paste a token"
//   else use(look.result().model, look.result().variants[look.result().chosen].tensor_data_bytes);
//
// Steps: GET /api/models/{repo}?blobs=true (gated flag, pipeline tag, file names and sizes; falls back to
// /api/models/{repo}/tree/{rev}?recursive=true when sizes are missing); then for a GGUF repo the chosen file's
// header by Range (2 MiB first, more when the header is longer; every shard of a split file), for a safetensors
// repo config.json, model.safetensors.index.json and each shard's header (8-byte length + JSON) by Range.
// Every response is untrusted: JSON bodies are capped (kHubMaxJsonBytes) and depth-checked, counts are capped,
// headers go through the GGUF reader's own validators.
//
// [SECTION] Requests and responses
// [SECTION] Results
// [SECTION] The lookup
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "catalog/catalog.h"
#include "hub/hub_ref.h"

namespace llmsim {

// [SECTION] Requests and responses -------------------------------------------------------------------------

constexpr uint64_t kHubMaxJsonBytes = 16u << 20;          // a model API answer with ~100k files is ~10 MiB
constexpr uint64_t kHubFirstRangeBytes = 2u << 20;        // most GGUF headers fit (a 150k-token vocab is ~3 MiB)
constexpr uint64_t kHubMaxHeaderBytes = 64u << 20;        // GgufLimits::max_header_bytes
constexpr uint64_t kHubMaxSafetensorsHeaderBytes = 100u << 20;  // the safetensors format's own limit
constexpr size_t kHubMaxFiles = 100000;                   // files listed per repo
constexpr size_t kHubMaxShards = 512;                     // shards per GGUF or safetensors model
constexpr size_t kHubMaxTreePages = 200;                  // pages of the tree listing (the Hub sends 1000 entries a page)
constexpr size_t kHubMaxLinkHeaderChars = 16384;          // a Link header (one cursor URL is ~300 characters)
constexpr int kHubMaxRequests = 2048;                     // per lookup (headers of every variant of a big repo)

struct HubRequest {
    std::string path;             // relative to the endpoint, starts with '/': "/api/models/org/name?blobs=true"
    uint64_t range_begin = 0;     // with range_bytes > 0: send "Range: bytes=begin-(begin+bytes-1)"
    uint64_t range_bytes = 0;     // 0 = no Range header
    uint64_t max_body_bytes = 0;  // stop reading (and report truncated) past this many bytes
    std::string what;             // "the file list", "the header of x.gguf" (progress text)
};

struct HubResponse {
    int status = 0;               // HTTP status after redirects; 0 = no answer (network error, offline)
    std::string network_error;    // with status 0: the transport's words ("Could not resolve host")
    std::string body;             // at most max_body_bytes
    bool truncated = false;       // the body was cut at max_body_bytes
    std::string content_range;    // "bytes 0-2097151/47000000000" (206 answers)
    std::string retry_after;      // 429: seconds or an HTTP date
    std::string ratelimit;        // 429: the RateLimit header (`"api";r=0;t=55`), read when Retry-After is absent
    std::string error_code;       // the Hub's X-Error-Code: RepoNotFound, GatedRepo, EntryNotFound, ...
    std::string link;             // the Link header: a paged tree listing's rel="next" (followed only on the endpoint)
};

// [SECTION] Results ------------------------------------------------------------------------------------------

enum class HubErrorKind { None, BadReference, NotFound, Gated, RateLimited, Offline, Server, NotTextModel,
                          UnsupportedArchitecture, NoWeights, Malformed };

// one GGUF model in the repo: a single file or the shards of a split one, with its quant label
struct HubGgufVariant {
    std::string quant;                    // "Q4_K_M", "UD-Q4_K_XL", "F16" (from the file name)
    std::vector<std::string> files;       // one path, or the shards in order
    uint64_t file_bytes = 0;              // sum of the listed file sizes (0 = unknown)
    bool header_read = false;
    uint64_t tensor_data_bytes = 0;       // sum over shards of the header's tensor sizes: the weights as loaded
    uint64_t header_bytes = 0;            // sum over shards of the header sizes (data_offset)
    uint64_t n_tensors = 0;
    int file_type = -1;                   // general.file_type of the first shard (llama_ftype), -1 = absent
};

struct HubSafetensorsDtype {
    std::string dtype;                    // "BF16"
    uint64_t n_tensors = 0, n_elements = 0, bytes = 0;
};

struct HubResult {
    HubRef ref;
    std::string format;                   // "gguf" or "safetensors"
    Model model;
    std::vector<std::string> warnings;
    std::vector<HubGgufVariant> variants; // GGUF repos: by quant, in file-list order
    int chosen = -1;                      // the variant whose header was read first (the one asked for)
    uint64_t safetensors_bytes = 0;       // safetensors repos: sum of dtype x shape over all shards
    std::vector<HubSafetensorsDtype> safetensors_by_dtype;
    bool gated = false;                   // the repo asks users to accept a licence
    std::string license;                  // the model card's licence ("apache-2.0", "llama3.1"); also model.license
    int tree_pages = 0;                   // pages of the tree listing read (0: the model API had the sizes)
    std::string pipeline_tag;
    uint64_t bytes_read = 0;              // body bytes received over all requests
    uint64_t bytes_in_files_read = 0;     // size of the files whose headers were read (the "of a 47 GB file")
    int requests = 0;
};

struct HubLookupOptions {
    bool all_headers = false;             // read the header of every GGUF variant (the quant table), not only the chosen
    size_t max_variant_headers = 32;      // with all_headers: at most this many variants
    uint64_t first_range_bytes = kHubFirstRangeBytes;
    std::string endpoint = "https://huggingface.co";  // where the paths go; a next-page link must stay on it
    std::string prefer_quant;             // a GGUF repo's file to pick when the reference names none (--quant);
                                          // a safetensors repo ignores it
};

// [SECTION] The lookup -------------------------------------------------------------------------------------

class HubLookup {
public:
    explicit HubLookup(const HubRef& ref, const HubLookupOptions& opt = {});
    ~HubLookup();
    HubLookup(const HubLookup&) = delete;
    HubLookup& operator=(const HubLookup&) = delete;

    // the next request to make; false when the lookup is finished (done() or failed())
    bool next(HubRequest& out) const;
    // consume the answer to the request next() gave last
    void feed(const HubResponse& resp);

    bool done() const;                    // finished with a result
    bool failed() const;                  // finished with an error
    const std::string& error() const;     // what went wrong and what to do, one sentence
    HubErrorKind error_kind() const;
    int retry_after_s() const;            // 429: seconds to wait (-1 = not given)
    const HubResult& result() const;      // valid when done(); partial (file list, bytes read) otherwise
    std::string progress() const;         // "reading the header of x.gguf (2.0 MiB so far)"

private:
    struct State;
    std::unique_ptr<State> s_;
};

// drive a lookup to its end with a synchronous transport; false + err (lookup.error()) on failure
bool run_hub_lookup(HubLookup& lookup, const std::function<HubResponse(const HubRequest&)>& send, std::string& err);

// the quant label in a GGUF file name ("Qwen3-8B-UD-Q4_K_XL-00001-of-00002.gguf" -> "UD-Q4_K_XL"); "" when none
std::string gguf_quant_from_file_name(const std::string& path);

// the llama.cpp file type whose per-tensor rules spread a variant's exact bytes over its layers: the header's
// general.file_type, else the quant label when it is one ("UD-Q4_K_XL" is not); "" when neither
std::string hub_variant_file_type(const HubGgufVariant& v);

// the user-facing message for an HTTP answer that is not a success (401/403/404/429/5xx/0); "" for 2xx
std::string hub_status_message(const HubResponse& r, const std::string& repo, const std::string& what,
                               HubErrorKind& kind, int& retry_after_s);

// "read 2.1 MB of a 47.0 GB file" (decimal units, as the Hub shows file sizes)
std::string hub_read_summary(const HubResult& r);

}  // namespace llmsim
