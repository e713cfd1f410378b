// The Hub lookup plan (hub_lookup.h).
//
// [SECTION] Names and messages
// [SECTION] State
// [SECTION] File list -> variants
// [SECTION] GGUF headers
// [SECTION] safetensors
// [SECTION] HubLookup
#include "hub/hub_lookup.h"

#include <algorithm>
#include <cstdio>
#include <cstring>

#include "core/format.h"
#include "core/text.h"
#include "hub/hub_parse.h"
#include "io/gguf.h"
#include "model/hf_config.h"
#include "model/model_tensors.h"
#include "quant/quant_types.h"

namespace llmsim {

// [SECTION] Names and messages -------------------------------------------------------------------------------

namespace {

std::string base_name(const std::string& p) {
    const size_t k = p.rfind('/');
    return k == std::string::npos ? p : p.substr(k + 1);
}

// "x-00002-of-00005.gguf" -> stem "x", index 2, count 5; false when not a split name
bool split_name(const std::string& path, std::string& stem, int& index, int& count) {
    if (!ends_with_ci(path, ".gguf")) return false;
    const std::string s = path.substr(0, path.size() - 5);
    // "-NNNNN-of-NNNNN" is 15 characters
    if (s.size() < 16 || s.compare(s.size() - 15, 1, "-") != 0 || s.compare(s.size() - 9, 4, "-of-") != 0) return false;
    const std::string a = s.substr(s.size() - 14, 5), b = s.substr(s.size() - 5);
    for (char c : a + b)
        if (c < '0' || c > '9') return false;
    index = std::atoi(a.c_str());
    count = std::atoi(b.c_str());
    stem = s.substr(0, s.size() - 15);
    return index >= 1 && count >= 1 && index <= count;
}

// a token that names a GGUF quant: Q4_K_M, IQ2_XXS, Q8_0, F16, BF16, F32, MXFP4, MXFP4_MOE, TQ1_0
bool quant_token(const std::string& t) {
    if (t == "F16" || t == "BF16" || t == "F32" || t == "FP16" || t == "FP32" || t == "MXFP4" || t == "MXFP4_MOE") return true;
    size_t i = 0;
    if (t.compare(0, 2, "IQ") == 0 || t.compare(0, 2, "TQ") == 0) i = 2;
    else if (!t.empty() && t[0] == 'Q') i = 1;
    else return false;
    if (i >= t.size() || t[i] < '0' || t[i] > '9') return false;
    for (; i < t.size(); ++i)
        if (!((t[i] >= 'A' && t[i] <= 'Z') || (t[i] >= '0' && t[i] <= '9') || t[i] == '_')) return false;
    return true;
}

std::string gb_text(uint64_t b) {
    if (b >= 1000000000ull) return format_sig((double)b / 1e9, 3) + " GB";
    if (b >= 1000000ull) return format_sig((double)b / 1e6, 3) + " MB";
    return format_sig((double)b / 1e3, 3) + " kB";
}

std::string join(const std::vector<std::string>& v, const char* sep) {
    std::string s;
    for (const std::string& x : v) s += (s.empty() ? "" : sep) + x;
    return s;
}

}  // namespace

std::string gguf_quant_from_file_name(const std::string& path) {
    std::string stem = base_name(path);
    int idx, cnt;
    std::string st;
    if (split_name(stem, st, idx, cnt)) stem = st;
    else if (ends_with_ci(stem, ".gguf")) stem = stem.substr(0, stem.size() - 5);
    std::vector<std::string> toks(1);
    for (char c : stem) {
        if (c == '-' || c == '.') toks.emplace_back();
        else toks.back() += c;
    }
    for (size_t i = toks.size(); i-- > 0;) {
        const std::string t = upper_ascii(toks[i]);
        if (!quant_token(t)) continue;
        return i > 0 && upper_ascii(toks[i - 1]) == "UD" ? "UD-" + t : t;
    }
    return "";
}

std::string hub_status_message(const HubResponse& r, const std::string& repo, const std::string& what,
                               HubErrorKind& kind, int& retry_after_s) {
    retry_after_s = -1;
    if (r.status >= 200 && r.status < 300) { kind = HubErrorKind::None; return ""; }
    if (r.status == 0) {
        kind = HubErrorKind::Offline;
        return "the Hub could not be reached (" + (r.network_error.empty() ? std::string("no answer") : r.network_error.substr(0, 200)) +
               "); check the connection, or HF_ENDPOINT for a mirror";
    }
    if (r.error_code == "GatedRepo" || (r.status == 403 && r.error_code != "RepoNotFound")) {
        kind = HubErrorKind::Gated;
        return repo + " is gated: accept the licence on the Hub (https://huggingface.co/" + repo +
               "), or paste a token (HF_TOKEN) of an account that has accepted it";
    }
    if (r.status == 404 && r.error_code == "EntryNotFound") {
        kind = HubErrorKind::NotFound;
        return repo + " has no file " + what + " (404)";
    }
    if (r.status == 404 || r.error_code == "RepoNotFound") {
        kind = HubErrorKind::NotFound;
        return "no model " + repo + " on the Hub (" + std::to_string(r.status) +
               "): check the id (owner/name, as in the model page's address); a private repo needs a token (HF_TOKEN)";
    }
    if (r.status == 401) {
        kind = HubErrorKind::Gated;
        return repo + " needs a login (401): it is gated or private; accept the licence on the Hub, or paste a token (HF_TOKEN)";
    }
    if (r.status == 429) {
        kind = HubErrorKind::RateLimited;
        retry_after_s = parse_retry_after(r.retry_after);
        if (retry_after_s < 0) retry_after_s = parse_ratelimit_reset(r.ratelimit);
        return "the Hub is rate-limiting requests (429); try again " +
               (retry_after_s >= 0 ? "in " + std::to_string(retry_after_s) + " s" : std::string("in a minute")) +
               " (a token, HF_TOKEN, raises the limit)";
    }
    kind = HubErrorKind::Server;
    return "the Hub answered HTTP " + std::to_string(r.status) + " for " + what + "; try again later";
}

std::string hub_variant_file_type(const HubGgufVariant& v) {
    if (v.file_type >= 0 && v.file_type < (int)LlamaFtype::Count) {
        const std::string ft = to_string((LlamaFtype)v.file_type);
        if (parse_llama_ftype(ft)) return ft;
    }
    return parse_llama_ftype(v.quant) ? upper_ascii(v.quant) : "";
}

std::string hub_read_summary(const HubResult& r) {
    std::string s = "read " + gb_text(r.bytes_read) + " in " + std::to_string(r.requests) + " requests";
    if (r.bytes_in_files_read > 0) s += " (headers of a " + gb_text(r.bytes_in_files_read) + " download)";
    return s;
}

// [SECTION] State --------------------------------------------------------------------------------------------

enum class Step { Info, Tree, GgufHeader, Config, StIndex, StHeader, Done, Failed };

struct HubLookup::State {
    HubRef ref;
    HubLookupOptions opt;
    HubResult res;
    Step step = Step::Info;
    std::string err;
    HubErrorKind kind = HubErrorKind::None;
    int retry_after = -1;
    HubRequest pending;
    HubRepoInfo info;
    std::vector<HubFileEntry> tree_files; // the pages of the tree listing read so far
    bool warned_range = false;            // "Content-Range not readable" said once
    // GGUF: the variants whose headers are still to read, the shard and the bytes of the current one
    std::vector<int> queue;
    size_t queue_pos = 0, shard = 0;
    std::string buf;
    uint64_t file_total = 0;
    GgufInfo first;                       // the first shard of the current variant
    // safetensors
    std::vector<std::string> st_shards;
    size_t st_pos = 0;
    bool st_has_index = false;

    void fail(HubErrorKind k, const std::string& e) { kind = k; err = e; step = Step::Failed; }
    std::string file_url(const std::string& f) const { return "/" + ref.repo + "/resolve/" + ref.revision + "/" + f; }
    void request(const std::string& path, uint64_t begin, uint64_t bytes, uint64_t max_body, const std::string& what) {
        pending = HubRequest{path, begin, bytes, max_body, what};
    }
    const HubFileEntry* find_file(const std::string& p) const {
        for (const HubFileEntry& f : info.files)
            if (f.path == p) return &f;
        return nullptr;
    }
    bool check_arch(const Model& m);
    void after_file_list();
    void build_variants();
    void start_gguf(size_t queue_index);
    void start_shard();
    void on_gguf(const HubResponse& r);
    void finish_shard(const GgufInfo& gi);
    void start_st_shard();
    void on_st_header(const HubResponse& r);
    void on_config(const HubResponse& r);
    void on_tree(const HubResponse& r);
    void tree_request(const std::string& path);
    bool range_header(const HubResponse& r, const std::string& name, uint64_t& total);
};

void HubLookup::State::tree_request(const std::string& path) {
    step = Step::Tree;
    request(path, 0, 0, kHubMaxJsonBytes,
            res.tree_pages == 0 ? std::string("the file tree") : "the file tree (page " + std::to_string(res.tree_pages + 1) + ")");
}

// one page of the tree listing; a Link rel="next" on the endpoint asks for the next one (bounded in pages and entries)
void HubLookup::State::on_tree(const HubResponse& r) {
    std::string e, next, path;
    if (!parse_hub_tree(r.body, tree_files, e)) { fail(HubErrorKind::Malformed, ref.repo + ": " + e); return; }
    ++res.tree_pages;
    if (tree_files.size() > kHubMaxFiles) {
        fail(HubErrorKind::Malformed, ref.repo + ": the file tree lists more than " + std::to_string(kHubMaxFiles) + " files; not read");
        return;
    }
    if (!r.link.empty() && !parse_link_next(r.link, next, e)) { fail(HubErrorKind::Malformed, ref.repo + ": " + e); return; }
    if (!next.empty()) {
        if ((size_t)res.tree_pages >= kHubMaxTreePages) {
            fail(HubErrorKind::Malformed, ref.repo + ": the file tree has more than " + std::to_string(kHubMaxTreePages) + " pages; not read");
            return;
        }
        if (!hub_endpoint_path(next, opt.endpoint, path, e)) { fail(HubErrorKind::Malformed, ref.repo + ": " + e); return; }
        const std::string tree = "/api/models/" + ref.repo + "/tree/";
        if (path.compare(0, tree.size(), tree) != 0) {
            fail(HubErrorKind::Malformed, ref.repo + ": the next-page link " + path.substr(0, 80) + " is not this repo's file tree; not followed");
            return;
        }
        tree_request(path);
        return;
    }
    info.files = std::move(tree_files);
    tree_files.clear();
    after_file_list();
}

// a 206's Content-Range: false (failed) when it names other bytes than asked for; a 206 without a readable one (a
// browser sees only the headers the storage exposes) falls back to the body's length and the file list's size
bool HubLookup::State::range_header(const HubResponse& r, const std::string& name, uint64_t& total) {
    uint64_t b0 = 0, b1 = 0, t = 0;
    if (r.status == 206 && parse_content_range(r.content_range, b0, b1, t)) {
        if (b0 != pending.range_begin) { fail(HubErrorKind::Malformed, name + ": the server sent bytes from " + std::to_string(b0) + ", not the range asked for"); return false; }
        total = t;
        return true;
    }
    if (r.status == 200 && pending.range_begin > 0) {
        fail(HubErrorKind::Malformed, name + ": the server ignored the Range request (HTTP 200); llmsim does not download whole files");
        return false;
    }
    if (r.status == 206 && r.content_range.empty() && !warned_range) {
        warned_range = true;
        res.warnings.push_back(name + ": the storage's Content-Range header was not readable (not exposed to this page); "
                                      "the file size is the one in the repo's file list");
    }
    return true;
}

bool HubLookup::State::check_arch(const Model& m) {
    const std::vector<std::string> archs = supported_llama_archs();
    if (std::find(archs.begin(), archs.end(), m.arch) != archs.end()) return true;
    fail(HubErrorKind::UnsupportedArchitecture, ref.repo + ": architecture '" + m.arch.substr(0, 64) +
                                                 "' is not supported yet; llmsim models " + join(archs, ", "));
    return false;
}

// [SECTION] File list -> variants ------------------------------------------------------------------------------

void HubLookup::State::build_variants() {
    struct Group { std::string stem; int count; std::vector<std::pair<int, const HubFileEntry*>> parts; };
    std::vector<Group> groups;
    for (const HubFileEntry& f : info.files) {
        if (!ends_with_ci(f.path, ".gguf")) continue;
        const std::string b = upper_ascii(base_name(f.path));
        if (b.find("MMPROJ") != std::string::npos || b.find("IMATRIX") != std::string::npos) continue;  // not the LLM
        std::string stem = f.path;
        int idx = 1, cnt = 1;
        if (!split_name(f.path, stem, idx, cnt)) stem = f.path;
        auto g = std::find_if(groups.begin(), groups.end(), [&](const Group& x) { return x.stem == stem && x.count == cnt; });
        if (g == groups.end()) { groups.push_back({stem, cnt, {}}); g = groups.end() - 1; }
        g->parts.push_back({idx, &f});
    }
    for (Group& g : groups) {
        std::sort(g.parts.begin(), g.parts.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
        bool whole = (int)g.parts.size() == g.count && g.count <= (int)kHubMaxShards;
        for (size_t i = 0; whole && i < g.parts.size(); ++i) whole = g.parts[i].first == (int)i + 1;
        if (!whole) {
            res.warnings.push_back(base_name(g.stem) + ": " + std::to_string(g.parts.size()) + " of " +
                                   std::to_string(g.count) + " split files listed; skipped");
            continue;
        }
        HubGgufVariant v;
        v.quant = gguf_quant_from_file_name(g.parts[0].second->path);
        if (v.quant.empty()) v.quant = base_name(g.stem);
        for (const auto& p : g.parts) {
            v.files.push_back(p.second->path);
            v.file_bytes += p.second->size_bytes;
        }
        res.variants.push_back(std::move(v));
    }
}

void HubLookup::State::after_file_list() {
    build_variants();
    if (!res.variants.empty()) {
        res.format = "gguf";
        int chosen = -1;
        const std::string quant = ref.quant.empty() && ref.file.empty() ? opt.prefer_quant : ref.quant;
        for (size_t i = 0; i < res.variants.size() && chosen < 0; ++i) {
            const HubGgufVariant& v = res.variants[i];
            if (!ref.file.empty() ? std::find(v.files.begin(), v.files.end(), ref.file) != v.files.end()
                                  : !quant.empty() && (upper_ascii(v.quant) == upper_ascii(quant) ||
                                                       ends_with_ci(v.quant, ("-" + quant).c_str())))
                chosen = (int)i;
        }
        if (chosen < 0 && (!ref.file.empty() || !quant.empty())) {
            std::vector<std::string> q;
            for (const HubGgufVariant& v : res.variants) q.push_back(v.quant);
            fail(HubErrorKind::NotFound, ref.repo + " has no GGUF file " +
                                             (ref.file.empty() ? "for " + quant : ref.file) + "; it has " + join(q, ", "));
            return;
        }
        for (size_t i = 0; i < res.variants.size() && chosen < 0; ++i)
            if (upper_ascii(res.variants[i].quant) == "Q4_K_M") chosen = (int)i;
        res.chosen = chosen < 0 ? 0 : chosen;
        queue.push_back(res.chosen);
        for (size_t i = 0; opt.all_headers && i < res.variants.size() && queue.size() < opt.max_variant_headers; ++i)
            if ((int)i != res.chosen) queue.push_back((int)i);
        start_gguf(0);
        return;
    }
    if (!ref.file.empty() || !ref.quant.empty()) {
        fail(HubErrorKind::NoWeights, ref.repo + " has no GGUF files, so it has no " +
                                          (ref.file.empty() ? ref.quant : ref.file) + "; drop the ':" +
                                          (ref.file.empty() ? ref.quant : ref.file) + "' to size its safetensors weights");
        return;
    }
    const bool index = find_file("model.safetensors.index.json") != nullptr;
    if (!index && !find_file("model.safetensors")) {
        fail(HubErrorKind::NoWeights, ref.repo + " has neither .gguf files nor model.safetensors(.index.json); "
                                                 "llmsim reads GGUF and safetensors repos");
        return;
    }
    if (!find_file("config.json")) {
        fail(HubErrorKind::NoWeights, ref.repo + " has safetensors weights but no config.json; it is not a transformers model");
        return;
    }
    res.format = "safetensors";
    st_has_index = index;
    step = Step::Config;
    request(file_url("config.json"), 0, 0, kHfConfigMaxBytes + 1, "config.json");
}

// [SECTION] GGUF headers ------------------------------------------------------------------------------------

void HubLookup::State::start_gguf(size_t queue_index) {
    queue_pos = queue_index;
    shard = 0;
    start_shard();
}

void HubLookup::State::start_shard() {
    const HubGgufVariant& v = res.variants[(size_t)queue[queue_pos]];
    buf.clear();
    file_total = 0;
    if (const HubFileEntry* f = find_file(v.files[shard])) file_total = f->size_bytes;
    // later shards of a split file carry no tokenizer: their headers are tensor infos only (~80 bytes each)
    const uint64_t first = shard == 0 ? opt.first_range_bytes : std::min<uint64_t>(opt.first_range_bytes, 256u << 10);
    const uint64_t n = file_total > 0 ? std::min(file_total, first) : first;
    step = Step::GgufHeader;
    request(file_url(v.files[shard]), 0, n, n, "the header of " + base_name(v.files[shard]));
}

void HubLookup::State::on_gguf(const HubResponse& r) {
    const std::string& file = res.variants[(size_t)queue[queue_pos]].files[shard];
    const std::string name = base_name(file);
    uint64_t total = 0;
    if (!range_header(r, name, total)) return;
    if (total > 0) file_total = total;
    buf.append(r.body, 0, (size_t)std::min<uint64_t>(r.body.size(), pending.range_bytes));
    const bool whole = file_total > 0 && buf.size() >= file_total;
    // parse what has arrived; a read past it records how far the parser wanted to go (the next range starts there)
    uint64_t wanted_end = 0;
    bool ran_out = false;
    GgufReadFn rd = [&](uint64_t off, void* dst, size_t n) -> size_t {
        wanted_end = std::max<uint64_t>(wanted_end, off + n);
        if (off >= buf.size()) { ran_out = true; return 0; }
        const size_t take = (size_t)std::min<uint64_t>(n, buf.size() - off);
        if (take < n) ran_out = true;
        std::memcpy(dst, buf.data() + off, take);
        return take;
    };
    GgufInfo gi;
    std::string e;
    GgufLimits lim;
    lim.max_header_bytes = kHubMaxHeaderBytes;
    if (read_gguf(rd, gi, e, lim)) { finish_shard(gi); return; }
    if (whole || !ran_out || e.find("ends inside") == std::string::npos) { fail(HubErrorKind::Malformed, name + ": " + e); return; }
    if (r.body.size() < pending.range_bytes) {
        fail(HubErrorKind::Malformed, name + ": the file ended after " + std::to_string(buf.size()) + " bytes, inside its header");
        return;
    }
    if (buf.size() >= kHubMaxHeaderBytes) {
        fail(HubErrorKind::Malformed, name + ": its header is larger than " + std::to_string(kHubMaxHeaderBytes >> 20) + " MiB; not read");
        return;
    }
    // the rest of the header is usually tensor infos (~80 bytes each): ask for a quarter more, at least 512 KiB
    // (wanted_end is not used: the reader pulls 1 MiB windows, so it says little about how much is missing)
    uint64_t want = (uint64_t)buf.size() + std::max<uint64_t>(512u << 10, buf.size() / 4);
    want = std::min(want, kHubMaxHeaderBytes);
    if (file_total > 0) want = std::min(want, file_total);
    const uint64_t n = want - buf.size();
    request(file_url(file), buf.size(), n, n, "the header of " + name + " (" + format_sig((double)want / 1048576.0, 3) + " MiB)");
}

void HubLookup::State::finish_shard(const GgufInfo& gi) {
    HubGgufVariant& v = res.variants[(size_t)queue[queue_pos]];
    v.tensor_data_bytes += gi.tensor_data_bytes;
    v.header_bytes += gi.data_offset;
    v.n_tensors += gi.n_tensors;
    res.bytes_in_files_read += file_total;
    if (shard == 0) {
        v.file_type = gi.file_type;
        if (v.files.size() > 1 && gi.split_count != (int)v.files.size())
            res.warnings.push_back(base_name(v.files[0]) + " says split.count " + std::to_string(gi.split_count) + ", the repo lists " +
                                   std::to_string(v.files.size()) + " files");
        if (queue_pos == 0) first = gi;
    }
    if (++shard < v.files.size()) { start_shard(); return; }
    v.header_read = true;
    if (queue_pos == 0) {  // the chosen variant makes the model
        Model m;
        std::string e;
        if (!model_from_gguf(first, m, e)) { fail(HubErrorKind::Malformed, base_name(v.files[0]) + ": " + e); return; }
        if (!check_arch(m)) return;
        m.notes.erase(std::remove_if(m.notes.begin(), m.notes.end(), [](const std::string& n) { return n.compare(0, 10, "GGUF split") == 0; }),
                      m.notes.end());
        if (v.files.size() > 1) m.notes.push_back("weights summed over the headers of " + std::to_string(v.files.size()) + " split files");
        m.id = ref.repo;
        if (!res.license.empty()) m.license = res.license;  // the model card over the file's general.license
        if (m.name.empty()) m.name = base_name(ref.repo);
        if (m.family.empty()) m.family = "hub";
        m.sources.push_back("https://huggingface.co/" + ref.repo);
        res.model = std::move(m);
    }
    if (queue_pos + 1 < queue.size()) { start_gguf(queue_pos + 1); return; }
    step = Step::Done;
}

// [SECTION] safetensors ----------------------------------------------------------------------------------------

void HubLookup::State::on_config(const HubResponse& r) {
    if (r.truncated || r.body.size() > kHfConfigMaxBytes) { fail(HubErrorKind::Malformed, ref.repo + ": config.json is larger than 4 MiB"); return; }
    Model m;
    std::string e;
    std::vector<std::string> warn;
    if (!model_from_hf_config(r.body, ref.repo, m, e, &warn)) {
        const bool text = e.find("missing") == std::string::npos;
        fail(text ? HubErrorKind::Malformed : HubErrorKind::NotTextModel, ref.repo + ": " + e);
        return;
    }
    for (const std::string& w : warn) {
        if (w.find("is not one llmsim knows") != std::string::npos) {
            fail(HubErrorKind::UnsupportedArchitecture, ref.repo + ": " + w.substr(0, w.find(';')) +
                                                            " - not supported yet; llmsim models " + join(supported_llama_archs(), ", "));
            return;
        }
        res.warnings.push_back(w);
    }
    if (!check_arch(m)) return;
    m.family = m.family.empty() ? "hub" : m.family;
    if (!res.license.empty()) m.license = res.license;
    res.model = std::move(m);
    if (st_has_index) {
        step = Step::StIndex;
        request(file_url("model.safetensors.index.json"), 0, 0, kHubMaxJsonBytes, "model.safetensors.index.json");
        return;
    }
    st_shards = {"model.safetensors"};
    st_pos = 0;
    start_st_shard();
}

void HubLookup::State::start_st_shard() {
    buf.clear();
    step = Step::StHeader;
    const uint64_t n = 256u << 10;  // the length and, for most shards, the whole header
    request(file_url(st_shards[st_pos]), 0, n, n, "the header of " + base_name(st_shards[st_pos]));
}

void HubLookup::State::on_st_header(const HubResponse& r) {
    const std::string name = base_name(st_shards[st_pos]);
    uint64_t total = 0;
    if (!range_header(r, name, total)) return;
    if (total == 0)
        if (const HubFileEntry* f = find_file(st_shards[st_pos])) total = f->size_bytes;
    buf.append(r.body, 0, (size_t)std::min<uint64_t>(r.body.size(), pending.range_bytes));
    if (buf.size() < 8) { fail(HubErrorKind::Malformed, name + ": shorter than a safetensors header (8 bytes)"); return; }
    uint64_t len = 0;
    for (int i = 7; i >= 0; --i) len = (len << 8) | (unsigned char)buf[(size_t)i];
    if (len < 2 || len > kHubMaxSafetensorsHeaderBytes) {
        fail(HubErrorKind::Malformed, name + ": header length " + std::to_string(len) + " is not that of a safetensors file");
        return;
    }
    if (buf.size() < 8 + len) {
        if (r.body.size() < pending.range_bytes) { fail(HubErrorKind::Malformed, name + ": the file ended inside its header"); return; }
        request(file_url(st_shards[st_pos]), buf.size(), 8 + len - buf.size(), 8 + len - buf.size(), "the header of " + name);
        return;
    }
    std::vector<SafetensorsTensorTotal> totals;
    std::string e;
    if (!parse_safetensors_header(buf.substr(8, (size_t)len), totals, e)) { fail(HubErrorKind::Malformed, name + ": " + e); return; }
    if (total > 0) res.bytes_in_files_read += total;
    for (const SafetensorsTensorTotal& t : totals) {
        auto it = std::find_if(res.safetensors_by_dtype.begin(), res.safetensors_by_dtype.end(),
                               [&](const HubSafetensorsDtype& d) { return d.dtype == t.dtype; });
        if (it == res.safetensors_by_dtype.end()) { res.safetensors_by_dtype.push_back({t.dtype, 0, 0, 0}); it = res.safetensors_by_dtype.end() - 1; }
        it->n_tensors += t.n_tensors;
        it->n_elements += t.n_elements;
        it->bytes += t.bytes;
        res.safetensors_bytes += t.bytes;
    }
    if (++st_pos < st_shards.size()) { start_st_shard(); return; }
    std::sort(res.safetensors_by_dtype.begin(), res.safetensors_by_dtype.end(),
              [](const HubSafetensorsDtype& a, const HubSafetensorsDtype& b) { return a.bytes > b.bytes; });
    step = Step::Done;
}

// [SECTION] HubLookup --------------------------------------------------------------------------------------------

HubLookup::HubLookup(const HubRef& ref, const HubLookupOptions& opt) : s_(new State) {
    s_->ref = ref;
    s_->opt = opt;
    s_->opt.first_range_bytes = std::max<uint64_t>(64, std::min(opt.first_range_bytes, kHubMaxHeaderBytes));
    s_->res.ref = ref;
    const std::string rev = ref.revision == "main" ? "" : "/revision/" + ref.revision;
    s_->request("/api/models/" + ref.repo + rev + "?blobs=true", 0, 0, kHubMaxJsonBytes, "the file list");
}

HubLookup::~HubLookup() = default;

bool HubLookup::next(HubRequest& out) const {
    if (s_->step == Step::Done || s_->step == Step::Failed) return false;
    out = s_->pending;
    return true;
}

void HubLookup::feed(const HubResponse& r) {
    State& s = *s_;
    if (s.step == Step::Done || s.step == Step::Failed) return;
    s.res.bytes_read += r.body.size();
    if (++s.res.requests > kHubMaxRequests) { s.fail(HubErrorKind::Server, "more than " + std::to_string(kHubMaxRequests) + " requests; stopped"); return; }
    HubErrorKind k;
    const std::string what = s.pending.what;
    const std::string msg = hub_status_message(r, s.ref.repo, what, k, s.retry_after);
    if (!msg.empty()) { s.fail(k, msg); return; }
    if (r.truncated && s.pending.range_bytes == 0 && s.step != Step::Config) {
        s.fail(HubErrorKind::Malformed, what + " is larger than " + std::to_string(s.pending.max_body_bytes >> 20) + " MiB; not read");
        return;
    }
    std::string e;
    switch (s.step) {
        case Step::Info: {
            if (!parse_hub_model_info(r.body, s.info, e)) { s.fail(HubErrorKind::Malformed, s.ref.repo + ": " + e); return; }
            s.res.gated = s.info.gated;
            s.res.license = s.info.license;
            s.res.pipeline_tag = s.info.pipeline_tag;
            static const char* const kText[] = {"", "text-generation", "text2text-generation", "image-text-to-text",
                                                "conversational", "any-to-any", "question-answering", "summarization",
                                                "translation", "visual-question-answering", "audio-text-to-text",
                                                "video-text-to-text"};
            if (std::none_of(std::begin(kText), std::end(kText), [&](const char* t) { return s.info.pipeline_tag == t; })) {
                s.fail(HubErrorKind::NotTextModel, s.ref.repo + " is a " + s.info.pipeline_tag +
                                                       " model, not a text-generation model; llmsim sizes LLMs");
                return;
            }
            const bool sizes = std::all_of(s.info.files.begin(), s.info.files.end(), [](const HubFileEntry& f) {
                return f.has_size || !(ends_with_ci(f.path, ".gguf") || ends_with_ci(f.path, ".safetensors"));
            });
            if (!sizes) {  // an endpoint without ?blobs=true: the tree listing has the sizes
                s.tree_request("/api/models/" + s.ref.repo + "/tree/" + s.ref.revision + "?recursive=true");
                return;
            }
            s.after_file_list();
            return;
        }
        case Step::Tree: s.on_tree(r); return;
        case Step::GgufHeader: s.on_gguf(r); return;
        case Step::Config: s.on_config(r); return;
        case Step::StIndex:
            if (!parse_safetensors_index(r.body, s.st_shards, e)) { s.fail(HubErrorKind::Malformed, s.ref.repo + ": " + e); return; }
            for (const std::string& f : s.st_shards)
                if (!s.find_file(f)) { s.fail(HubErrorKind::Malformed, s.ref.repo + ": the index names " + f + ", which the repo does not list"); return; }
            s.st_pos = 0;
            s.start_st_shard();
            return;
        case Step::StHeader: s.on_st_header(r); return;
        case Step::Done:
        case Step::Failed: return;
    }
}

bool HubLookup::done() const { return s_->step == Step::Done; }
bool HubLookup::failed() const { return s_->step == Step::Failed; }
const std::string& HubLookup::error() const { return s_->err; }
HubErrorKind HubLookup::error_kind() const { return s_->kind; }
int HubLookup::retry_after_s() const { return s_->retry_after; }
const HubResult& HubLookup::result() const { return s_->res; }

std::string HubLookup::progress() const {
    const State& s = *s_;
    if (s.step == Step::Done) return "done: " + hub_read_summary(s.res);
    if (s.step == Step::Failed) return s.err;
    return "reading " + s.pending.what + " (" + gb_text(s.res.bytes_read) + " so far)";
}

bool run_hub_lookup(HubLookup& lookup, const std::function<HubResponse(const HubRequest&)>& send, std::string& err) {
    HubRequest rq;
    while (lookup.next(rq)) lookup.feed(send(rq));
    if (lookup.failed()) { err = lookup.error(); return false; }
    return true;
}

}  // namespace llmsim
