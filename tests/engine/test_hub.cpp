// Hub lookups (engine/hub): references, file-name quants, response parsers, and whole lookups against an
// in-memory Hub that answers Range requests like the real one. Every expected byte count is computed here
// from the fixture the test builds, never by the code under test.
#include <catch2/catch.hpp>

#include <cstring>
#include <map>

#include "catalog/catalog.h"
#include "hub/hub_lookup.h"
#include "hub/hub_parse.h"
#include "hub/hub_ref.h"
#include "memory/memory.h"

using namespace llmsim;

namespace {

// [SECTION] fixtures ---------------------------------------------------------------------------------------

struct HeaderBytes {
    std::string b;
    template <class T>
    HeaderBytes& le(T v) {
        unsigned char x[sizeof(T)];
        std::memcpy(x, &v, sizeof(T));
        b.append((const char*)x, sizeof(T));
        return *this;
    }
    HeaderBytes& str(const std::string& s) {
        le<uint64_t>(s.size());
        b += s;
        return *this;
    }
};

// a llama-shaped GGUF header; returns the header bytes and (in tensor_bytes) the sum of ggml_nbytes computed
// here: Q4_K (type 12) 144 B per 256, Q6_K (14) 210 B per 256, F32 (0) 4 B, Q8_0 (8) 34 B per 32
struct Fixture {
    std::string header;
    uint64_t tensor_bytes = 0;
    uint64_t n_tensors = 0;
};

Fixture llama_gguf(int layers, uint64_t hidden, uint64_t ffn, uint64_t vocab, uint32_t mat_type, int split_no = 0,
                   int split_count = 0, int first_layer = 0, int last_layer = -1, const char* arch = "llama") {
    struct T { std::string name; std::vector<uint64_t> dims; uint32_t type; };
    std::vector<T> ts;
    const uint64_t kv = hidden / 4;
    if (last_layer < 0) last_layer = layers - 1;
    if (split_no <= 1) ts.push_back({"token_embd.weight", {hidden, vocab}, mat_type});
    for (int l = first_layer; l <= last_layer; ++l) {
        const std::string p = "blk." + std::to_string(l) + ".";
        ts.push_back({p + "attn_q.weight", {hidden, hidden}, mat_type});
        ts.push_back({p + "attn_k.weight", {hidden, kv}, mat_type});
        ts.push_back({p + "attn_v.weight", {hidden, kv}, mat_type == 12 ? 14u : mat_type});
        ts.push_back({p + "attn_output.weight", {hidden, hidden}, mat_type});
        ts.push_back({p + "ffn_gate.weight", {hidden, ffn}, mat_type});
        ts.push_back({p + "ffn_up.weight", {hidden, ffn}, mat_type});
        ts.push_back({p + "ffn_down.weight", {ffn, hidden}, mat_type == 12 ? 14u : mat_type});
        ts.push_back({p + "attn_norm.weight", {hidden}, 0});
        ts.push_back({p + "ffn_norm.weight", {hidden}, 0});
    }
    if (split_count == 0 || split_no == split_count) {
        ts.push_back({"output_norm.weight", {hidden}, 0});
        ts.push_back({"output.weight", {hidden, vocab}, 14});
    }
    HeaderBytes kvs;
    uint64_t n_kv = 0;
    auto key = [&](const std::string& k, uint32_t type) { kvs.str(k).le(type); ++n_kv; };
    const std::string a = arch;
    key("general.architecture", 8); kvs.str(a);
    key("general.name", 8); kvs.str("New Model");
    key("general.file_type", 4); kvs.le<uint32_t>(mat_type == 12 ? 15 : 7);
    key(a + ".block_count", 4); kvs.le<uint32_t>((uint32_t)layers);
    key(a + ".context_length", 4); kvs.le<uint32_t>(131072);
    key(a + ".embedding_length", 4); kvs.le<uint32_t>((uint32_t)hidden);
    key(a + ".feed_forward_length", 4); kvs.le<uint32_t>((uint32_t)ffn);
    key(a + ".attention.head_count", 4); kvs.le<uint32_t>((uint32_t)(hidden / 64));
    key(a + ".attention.head_count_kv", 4); kvs.le<uint32_t>((uint32_t)(kv / 64));
    key(a + ".rope.freq_base", 6); kvs.le<float>(500000.0f);
    if (split_count > 0) {
        key("split.no", 2); kvs.le<uint16_t>((uint16_t)(split_no - 1));
        key("split.count", 2); kvs.le<uint16_t>((uint16_t)split_count);
    }
    if (split_no <= 1) {
        key("tokenizer.ggml.model", 8); kvs.str("gpt2");
        key("tokenizer.ggml.tokens", 9); kvs.le<uint32_t>(8).le<uint64_t>(vocab);
        for (uint64_t i = 0; i < vocab; ++i) kvs.str("tok" + std::to_string(i));
    }
    HeaderBytes out;
    out.b = "GGUF";
    out.le<uint32_t>(3).le<uint64_t>(ts.size()).le<uint64_t>(n_kv);
    out.b += kvs.b;
    Fixture f;
    uint64_t off = 0;
    for (const T& t : ts) {
        uint64_t n = 1;
        for (uint64_t d : t.dims) n *= d;
        const uint64_t bytes = t.type == 0 ? n * 4 : t.type == 12 ? n / 256 * 144 : t.type == 14 ? n / 256 * 210 : n / 32 * 34;
        out.str(t.name).le<uint32_t>((uint32_t)t.dims.size());
        for (uint64_t d : t.dims) out.le(d);
        out.le(t.type).le(off);
        off = (off + bytes + 31) / 32 * 32;
        f.tensor_bytes += bytes;
    }
    while (out.b.size() % 32) out.b.push_back('\0');
    f.header = out.b;
    f.n_tensors = ts.size();
    return f;
}

// a safetensors shard header: 8-byte length + JSON; bytes = sum of dtype x shape computed here
std::string safetensors_header(const std::vector<std::pair<std::string, std::vector<uint64_t>>>& tensors, uint64_t& bytes) {
    std::string j = "{\"__metadata__\":{\"format\":\"pt\"}";
    uint64_t off = 0;
    for (const auto& t : tensors) {
        uint64_t n = 2;
        std::string shape;
        for (uint64_t d : t.second) { n *= d; shape += (shape.empty() ? "" : ",") + std::to_string(d); }
        j += ",\"" + t.first + "\":{\"dtype\":\"BF16\",\"shape\":[" + shape + "],\"data_offsets\":[" + std::to_string(off) + "," +
             std::to_string(off + n) + "]}";
        off += n;
        bytes += n;
    }
    j += "}";
    HeaderBytes b;
    b.le<uint64_t>(j.size());
    return b.b + j;
}

// [SECTION] an in-memory Hub ---------------------------------------------------------------------------------

struct FakeFile { std::string head; uint64_t size; };  // bytes past `head` read as zeros

struct FakeHub {
    std::map<std::string, std::string> json;     // API path -> body
    std::map<std::string, FakeFile> files;       // "/org/name/resolve/main/f" -> file
    std::map<std::string, std::string> links;    // API path -> its Link header (a paged tree listing)
    bool hide_content_range = false;             // a browser that may not read the storage's Content-Range
    int force_status = 0;
    std::string force_error_code, retry_after;
    uint64_t served = 0;
    std::vector<HubRequest> log;

    HubResponse operator()(const HubRequest& rq) {
        log.push_back(rq);
        HubResponse r;
        if (force_status) { r.status = force_status; r.error_code = force_error_code; r.retry_after = retry_after; return r; }
        auto j = json.find(rq.path);
        if (j != json.end()) {
            r.status = 200;
            r.body = j->second;
            auto l = links.find(rq.path);
            if (l != links.end()) r.link = l->second;
            served += r.body.size();
            return r;
        }
        auto f = files.find(rq.path);
        if (f == files.end()) { r.status = 404; r.error_code = "EntryNotFound"; return r; }
        const FakeFile& ff = f->second;
        uint64_t b = 0, n = ff.size;
        if (rq.range_bytes > 0) {
            b = rq.range_begin;
            n = std::min(rq.range_bytes, ff.size - std::min(ff.size, b));
            r.status = 206;
            r.content_range = "bytes " + std::to_string(b) + "-" + std::to_string(b + n - 1) + "/" + std::to_string(ff.size);
        } else {
            r.status = 200;
        }
        n = std::min<uint64_t>(n, rq.max_body_bytes);
        if (hide_content_range) r.content_range.clear();
        for (uint64_t i = b; i < b + n; ++i) r.body.push_back(i < ff.head.size() ? ff.head[(size_t)i] : '\0');
        served += r.body.size();
        return r;
    }
    void add_file(const std::string& repo, const std::string& name, const std::string& head, uint64_t size) {
        files["/" + repo + "/resolve/main/" + name] = FakeFile{head, size};
    }
};

std::string siblings_json(const std::vector<std::pair<std::string, uint64_t>>& files, const std::string& extra = "") {
    std::string s = "{\"id\":\"x\"," + extra + "\"siblings\":[";
    for (size_t i = 0; i < files.size(); ++i)
        s += std::string(i ? "," : "") + "{\"rfilename\":\"" + files[i].first + "\",\"size\":" + std::to_string(files[i].second) + "}";
    return s + "]}";
}

HubRef ref_of(const std::string& s) {
    HubRef r;
    std::string err;
    REQUIRE(parse_hub_ref(s, r, err));
    return r;
}

}  // namespace

// [SECTION] references ---------------------------------------------------------------------------------------

TEST_CASE("hub: references in every form a user pastes", "[hub]") {
    HubRef r = ref_of("  org/new-model ");
    CHECK(r.repo == "org/new-model");
    CHECK(r.revision == "main");
    r = ref_of("https://huggingface.co/org/new-model/tree/main");
    CHECK(r.repo == "org/new-model");
    r = ref_of("org/new-model:Q4_K_M");
    CHECK(r.quant == "Q4_K_M");
    r = ref_of("https://huggingface.co/org/new-model/resolve/main/sub/x-Q8_0.gguf?download=true");
    CHECK(r.file == "sub/x-Q8_0.gguf");
    r = ref_of("hf.co/org/m/blob/v1.0/x.gguf");
    CHECK(r.revision == "v1.0");
    CHECK(hub_ref_text(ref_of("org/m:Q4_K_M")) == "org/m:Q4_K_M");

    HubRef bad;
    std::string err;
    CHECK_FALSE(parse_hub_ref("", bad, err));
    CHECK(err.find("empty") != std::string::npos);
    CHECK_FALSE(parse_hub_ref("justaname", bad, err));
    CHECK(err.find("org/name") != std::string::npos);
    CHECK_FALSE(parse_hub_ref("https://example.com/org/m", bad, err));
    CHECK(err.find("not a huggingface.co address") != std::string::npos);
    CHECK_FALSE(parse_hub_ref("org/../etc", bad, err));
    CHECK_FALSE(parse_hub_ref("org/m o", bad, err));
    CHECK_FALSE(parse_hub_ref("org/m/resolve/main/config.json", bad, err));
    CHECK(err.find("not a .gguf file") != std::string::npos);
    CHECK_FALSE(parse_hub_ref("org/m:Q4 K", bad, err));
    CHECK_FALSE(parse_hub_ref("org/" + std::string(97, 'a'), bad, err));
    CHECK_FALSE(parse_hub_ref("org/m/resolve/main/../../x.gguf", bad, err));
}

TEST_CASE("hub: quant labels from GGUF file names", "[hub]") {
    CHECK(gguf_quant_from_file_name("Qwen3-8B-Q4_K_M.gguf") == "Q4_K_M");
    CHECK(gguf_quant_from_file_name("qwen2.5-7b-instruct-q8_0.gguf") == "Q8_0");
    CHECK(gguf_quant_from_file_name("Q4_K_M/Llama-3.3-70B-Instruct-Q4_K_M-00001-of-00002.gguf") == "Q4_K_M");
    CHECK(gguf_quant_from_file_name("GLM-4.6-UD-Q2_K_XL-00001-of-00003.gguf") == "UD-Q2_K_XL");
    CHECK(gguf_quant_from_file_name("model.IQ2_XXS.gguf") == "IQ2_XXS");
    CHECK(gguf_quant_from_file_name("gpt-oss-20b-MXFP4.gguf") == "MXFP4");
    CHECK(gguf_quant_from_file_name("model-bf16.gguf") == "BF16");
    CHECK(gguf_quant_from_file_name("model.gguf") == "");
}

TEST_CASE("hub: header parsers refuse what they cannot trust", "[hub]") {
    uint64_t b, e, t;
    CHECK(parse_content_range("bytes 0-2097151/47000000000", b, e, t));
    CHECK(b == 0);
    CHECK(e == 2097151);
    CHECK(t == 47000000000ull);
    CHECK(parse_content_range("bytes 5-9/*", b, e, t));
    CHECK(t == 0);
    CHECK_FALSE(parse_content_range("bytes 9-5/10", b, e, t));
    CHECK_FALSE(parse_content_range("bytes 0-9/5", b, e, t));
    CHECK_FALSE(parse_content_range("items 0-9/50", b, e, t));
    CHECK_FALSE(parse_content_range("bytes 0-99999999999999999999999/1", b, e, t));
    CHECK(parse_retry_after("30") == 30);
    CHECK(parse_retry_after("Wed, 21 Oct 2015 07:28:30 GMT", 1445412480) == 30);  // 07:28:00 UTC is 1445412480 (timegm)
    CHECK(parse_retry_after("soon") == -1);
    // out-of-range clock fields are malformed, not a wait (fuzz_hub: "9999027:28:00" overflowed hh * 3600)
    CHECK(parse_retry_after("Wed, 21 Oct 2015 9999027:28:00 GMT", 1445412480) == -1);
    CHECK(parse_retry_after("Wed, 21 Oct 2015 24:00:00 GMT", 1445412480) == -1);
    CHECK(parse_retry_after("Wed, 21 Oct 2015 07:61:00 GMT", 1445412480) == -1);
    CHECK(parse_retry_after("Wed, 21 Oct 2015 07:28:59 GMT", 1445412480) == 59);

    HubRepoInfo info;
    std::string err;
    CHECK_FALSE(parse_hub_model_info("[1,2]", info, err));
    CHECK_FALSE(parse_hub_model_info("{\"id\":1}", info, err));
    CHECK(err.find("siblings") != std::string::npos);
    CHECK_FALSE(parse_hub_model_info(std::string(100, '[') + std::string(100, ']'), info, err));
    CHECK(err.find("levels deep") != std::string::npos);
    REQUIRE(parse_hub_model_info("{\"gated\":\"manual\",\"pipeline_tag\":\"text-generation\",\"siblings\":[{\"rfilename\":\"a.gguf\","
                                 "\"lfs\":{\"size\":12}},{\"rfilename\":7},{\"rfilename\":\"b\",\"size\":-3}]}", info, err));
    CHECK(info.gated);
    REQUIRE(info.files.size() == 2);
    CHECK(info.files[0].size_bytes == 12);
    CHECK_FALSE(info.files[1].has_size);

    std::vector<HubFileEntry> tree;
    REQUIRE(parse_hub_tree("[{\"type\":\"directory\",\"path\":\"d\"},{\"type\":\"file\",\"path\":\"d/x.gguf\",\"size\":99}]", tree, err));
    REQUIRE(tree.size() == 1);
    CHECK(tree[0].size_bytes == 99);

    std::vector<SafetensorsTensorTotal> tot;
    CHECK_FALSE(parse_safetensors_header("{\"w\":{\"dtype\":\"BF16\",\"shape\":[2,3],\"data_offsets\":[0,11]}}", tot, err));
    CHECK(err.find("dtype x shape is 12") != std::string::npos);
    CHECK_FALSE(parse_safetensors_header("{\"w\":{\"dtype\":\"Q9\",\"shape\":[2],\"data_offsets\":[0,2]}}", tot, err));
    CHECK(err.find("unknown dtype") != std::string::npos);
}

// [SECTION] lookups ------------------------------------------------------------------------------------------

TEST_CASE("hub: a GGUF repo is sized from its header, read by Range", "[hub]") {
    const Fixture q4 = llama_gguf(4, 512, 1536, 3000, 12);
    const Fixture q8a = llama_gguf(4, 512, 1536, 3000, 8, 1, 2, 0, 1);
    const Fixture q8b = llama_gguf(4, 512, 1536, 3000, 8, 2, 2, 2, 3);
    const uint64_t q4_size = q4.header.size() + q4.tensor_bytes + 4096;  // data padded, as real files are
    FakeHub hub;
    hub.json["/api/models/org/new-model?blobs=true"] = siblings_json(
        {{"README.md", 100}, {"new-model-Q4_K_M.gguf", q4_size}, {"Q8_0/new-model-Q8_0-00001-of-00002.gguf", 1 << 30},
         {"Q8_0/new-model-Q8_0-00002-of-00002.gguf", 1 << 30}, {"mmproj-F16.gguf", 1000}},
        "\"pipeline_tag\":\"text-generation\",");
    hub.add_file("org/new-model", "new-model-Q4_K_M.gguf", q4.header, q4_size);
    hub.add_file("org/new-model", "Q8_0/new-model-Q8_0-00001-of-00002.gguf", q8a.header, 1 << 30);
    hub.add_file("org/new-model", "Q8_0/new-model-Q8_0-00002-of-00002.gguf", q8b.header, 1 << 30);

    SECTION("the chosen quant only") {
        HubLookup look(ref_of("org/new-model:Q4_K_M"));
        std::string err;
        REQUIRE(run_hub_lookup(look, std::ref(hub), err));
        const HubResult& r = look.result();
        CHECK(r.format == "gguf");
        REQUIRE(r.variants.size() == 2);  // mmproj is not a model
        const HubGgufVariant& v = r.variants[(size_t)r.chosen];
        CHECK(v.quant == "Q4_K_M");
        CHECK(v.tensor_data_bytes == q4.tensor_bytes);
        CHECK(v.n_tensors == q4.n_tensors);
        CHECK_FALSE(r.variants[1].header_read);
        CHECK(r.model.arch == "llama");
        CHECK(r.model.n_layers == 4);
        CHECK(r.model.id == "org/new-model");
        CHECK(hub.served < q4_size);
        CHECK(r.bytes_read == hub.served);
        // the Range request names the file path relative to the endpoint
        CHECK(hub.log[1].path == "/org/new-model/resolve/main/new-model-Q4_K_M.gguf");
        CHECK(hub.log[1].range_begin == 0);
        CHECK(hub.log[1].range_bytes == std::min<uint64_t>(q4_size, kHubFirstRangeBytes));

        // the memory model takes the file's bytes exactly
        Catalog cat;
        REQUIRE(load_embedded_catalog(cat, err));
        MemoryRequest mr;
        mr.file_type = "Q4_K_M";
        mr.n_ctx = 8192;
        mr.tensor_data_bytes_exact = v.tensor_data_bytes;
        MemoryBreakdown mb;
        REQUIRE(estimate_memory(cat, r.model, mr, mb, err));
        CHECK(mb.weights_bytes == q4.tensor_bytes);
    }
    SECTION("every variant's header, split files summed") {
        HubLookupOptions opt;
        opt.all_headers = true;
        HubLookup look(ref_of("org/new-model"), opt);
        std::string err;
        REQUIRE(run_hub_lookup(look, std::ref(hub), err));
        const HubResult& r = look.result();
        CHECK(r.variants[(size_t)r.chosen].quant == "Q4_K_M");  // the default
        const HubGgufVariant& q8 = r.variants[1];
        CHECK(q8.quant == "Q8_0");
        CHECK(q8.files.size() == 2);
        CHECK(q8.header_read);
        CHECK(q8.tensor_data_bytes == q8a.tensor_bytes + q8b.tensor_bytes);
        CHECK(q8.n_tensors == q8a.n_tensors + q8b.n_tensors);
    }
    SECTION("a header longer than the first range is read in further ranges") {
        HubLookupOptions opt;
        opt.first_range_bytes = 4096;
        HubLookup look(ref_of("https://huggingface.co/org/new-model/resolve/main/new-model-Q4_K_M.gguf"), opt);
        std::string err;
        REQUIRE(run_hub_lookup(look, std::ref(hub), err));
        CHECK(look.result().variants[0].tensor_data_bytes == q4.tensor_bytes);
        CHECK(hub.log.size() >= 3);
        CHECK(hub.log[2].range_begin == 4096);
    }
    SECTION("a quant the repo does not have is named with what it has") {
        HubLookup look(ref_of("org/new-model:IQ2_XXS"));
        std::string err;
        CHECK_FALSE(run_hub_lookup(look, std::ref(hub), err));
        CHECK(err == "org/new-model has no GGUF file for IQ2_XXS; it has Q4_K_M, Q8_0");
    }
}

TEST_CASE("hub: a 70B-shaped GGUF needs its header only", "[hub]") {
    // Llama-3.1-70B's shape (80 layers, hidden 8192, ffn 28672, 128256-token vocabulary; ../shared/reference/models.json
    // "meta-llama/Llama-3.1-70B-Instruct", from litgpt's config.py) as Q4_K/Q6_K: 723 tensors
    const Fixture f = llama_gguf(80, 8192, 28672, 128256, 12);
    const uint64_t size = f.header.size() + f.tensor_bytes;
    FakeHub hub;
    hub.json["/api/models/org/big?blobs=true"] = siblings_json({{"big-Q4_K_M.gguf", size}});
    hub.add_file("org/big", "big-Q4_K_M.gguf", f.header, size);
    HubLookup look(ref_of("org/big"));
    std::string err;
    REQUIRE(run_hub_lookup(look, std::ref(hub), err));
    const HubResult& r = look.result();
    CHECK(f.n_tensors == 723);
    CHECK(r.variants[0].tensor_data_bytes == f.tensor_bytes);
    CHECK(r.model.n_layers == 80);
    // the whole header and nothing of the ~40 GB of tensor data beyond the last range
    CHECK(hub.served < f.header.size() + 2 * kHubFirstRangeBytes);
    CHECK(hub.served * 1000 < size);
    WARN("70B-shaped GGUF: header " << f.header.size() << " bytes, " << r.requests << " requests, " << hub.served
                                    << " bytes served of a " << size << "-byte file");
}

TEST_CASE("hub: a safetensors repo is sized from its shard headers", "[hub]") {
    // Qwen2.5-0.5B's dimensions (../shared/reference/models.json "Qwen/Qwen2.5-0.5B-Instruct", litgpt config.py)
    const std::string config = R"({"architectures":["Qwen2ForCausalLM"],"model_type":"qwen2","hidden_size":896,
        "intermediate_size":4864,"num_hidden_layers":24,"num_attention_heads":14,"num_key_value_heads":2,
        "vocab_size":151936,"max_position_embeddings":32768,"rope_theta":1000000.0,"tie_word_embeddings":true,
        "torch_dtype":"bfloat16"})";
    uint64_t bytes = 0;
    const std::string s1 = safetensors_header({{"model.embed_tokens.weight", {151936, 896}}, {"model.norm.weight", {896}}}, bytes);
    const std::string s2 = safetensors_header({{"model.layers.0.mlp.up_proj.weight", {4864, 896}}}, bytes);
    const std::string index = R"({"metadata":{},"weight_map":{"model.embed_tokens.weight":"model-00001-of-00002.safetensors",
        "model.norm.weight":"model-00001-of-00002.safetensors","model.layers.0.mlp.up_proj.weight":"model-00002-of-00002.safetensors"}})";
    FakeHub hub;
    hub.json["/api/models/org/st?blobs=true"] = siblings_json({{"config.json", config.size()}, {"model.safetensors.index.json", index.size()},
                                                              {"model-00001-of-00002.safetensors", 1 << 30}, {"model-00002-of-00002.safetensors", 1 << 29}});
    hub.json["/org/st/resolve/main/config.json"] = config;
    hub.json["/org/st/resolve/main/model.safetensors.index.json"] = index;
    hub.add_file("org/st", "model-00001-of-00002.safetensors", s1, 1 << 30);
    hub.add_file("org/st", "model-00002-of-00002.safetensors", s2, 1 << 29);
    HubLookup look(ref_of("org/st"));
    std::string err;
    REQUIRE(run_hub_lookup(look, std::ref(hub), err));
    const HubResult& r = look.result();
    CHECK(r.format == "safetensors");
    CHECK(r.model.arch == "qwen2");
    CHECK(r.model.n_layers == 24);
    CHECK(r.safetensors_bytes == bytes);
    REQUIRE(r.safetensors_by_dtype.size() == 1);
    CHECK(r.safetensors_by_dtype[0].dtype == "BF16");
    CHECK(r.safetensors_by_dtype[0].n_tensors == 3);
}

TEST_CASE("hub: every failure is a message a user can act on", "[hub]") {
    FakeHub hub;
    std::string err;
    auto run = [&](const std::string& id) {
        HubLookup look(ref_of(id));
        run_hub_lookup(look, std::ref(hub), err);
        return look.error_kind();
    };
    hub.force_status = 404;
    hub.force_error_code = "RepoNotFound";
    CHECK(run("org/nope") == HubErrorKind::NotFound);
    CHECK(err.find("no model org/nope on the Hub (404)") == 0);
    hub.force_status = 401;
    hub.force_error_code = "GatedRepo";
    CHECK(run("org/gated") == HubErrorKind::Gated);
    CHECK(err.find("accept the licence on the Hub") != std::string::npos);
    hub.force_status = 403;
    hub.force_error_code = "";
    CHECK(run("org/gated") == HubErrorKind::Gated);
    hub.force_status = 429;
    hub.retry_after = "30";
    {
        HubLookup look(ref_of("org/x"));
        CHECK_FALSE(run_hub_lookup(look, std::ref(hub), err));
        CHECK(look.retry_after_s() == 30);
        CHECK(err.find("rate-limiting requests (429); try again in 30 s") != std::string::npos);
    }
    hub.force_status = 0;
    {
        HubLookup look(ref_of("org/x"));
        HubResponse off;
        off.network_error = "Could not resolve host: huggingface.co";
        look.feed(off);
        CHECK(look.error_kind() == HubErrorKind::Offline);
        CHECK(look.error().find("could not be reached (Could not resolve host") != std::string::npos);
    }
    hub.json["/api/models/org/img?blobs=true"] = siblings_json({{"model.safetensors", 10}}, "\"pipeline_tag\":\"text-to-image\",");
    CHECK(run("org/img") == HubErrorKind::NotTextModel);
    CHECK(err == "org/img is a text-to-image model, not a text-generation model; llmsim sizes LLMs");
    const Fixture odd = llama_gguf(2, 256, 512, 100, 12, 0, 0, 0, -1, "brandnewarch");
    hub.json["/api/models/org/odd?blobs=true"] = siblings_json({{"odd-Q4_K_M.gguf", odd.header.size() + odd.tensor_bytes}});
    hub.add_file("org/odd", "odd-Q4_K_M.gguf", odd.header, odd.header.size() + odd.tensor_bytes);
    CHECK(run("org/odd") == HubErrorKind::UnsupportedArchitecture);
    CHECK(err.find("architecture 'brandnewarch' is not supported yet; llmsim models ") != std::string::npos);
    CHECK(err.find("llama") != std::string::npos);
    hub.json["/api/models/org/none?blobs=true"] = siblings_json({{"README.md", 10}});
    CHECK(run("org/none") == HubErrorKind::NoWeights);
    // a header cut short by the file's end is a malformed file, named
    hub.json["/api/models/org/cut?blobs=true"] = siblings_json({{"cut-Q4_K_M.gguf", 300}});
    hub.add_file("org/cut", "cut-Q4_K_M.gguf", odd.header.substr(0, 300), 300);
    CHECK(run("org/cut") == HubErrorKind::Malformed);
    CHECK(err.find("cut-Q4_K_M.gguf: GGUF") == 0);
    // sizes missing from the model API: the tree listing is asked
    hub.json["/api/models/org/tree?blobs=true"] = "{\"siblings\":[{\"rfilename\":\"t-Q4_K_M.gguf\"}]}";
    hub.json["/api/models/org/tree/tree/main?recursive=true"] = "[{\"type\":\"file\",\"path\":\"t-Q4_K_M.gguf\",\"size\":" +
                                                                 std::to_string(odd.header.size() + odd.tensor_bytes) + "}]";
    hub.add_file("org/tree", "t-Q4_K_M.gguf", odd.header, odd.header.size() + odd.tensor_bytes);
    CHECK(run("org/tree") == HubErrorKind::UnsupportedArchitecture);  // got as far as the header
}

// [SECTION] paging, licence, hidden headers -------------------------------------------------------------------

TEST_CASE("hub: the Link header's next page, and where it may point", "[hub]") {
    std::string next, err, path;
    // the shape the Hub sends (huggingface_hub#1176)
    REQUIRE(parse_link_next("<https://huggingface.co/api/models/o/n/tree/main?recursive=true&cursor=ZXlK>; rel=\"next\"", next, err));
    CHECK(next == "https://huggingface.co/api/models/o/n/tree/main?recursive=true&cursor=ZXlK");
    REQUIRE(parse_link_next("<https://h/a?p=1>; rel=\"prev\", <https://h/a?p=3>; rel=\"next last\"", next, err));
    CHECK(next == "https://h/a?p=3");
    REQUIRE(parse_link_next("<https://h/a?p=3>;rel=next", next, err));
    CHECK(next == "https://h/a?p=3");
    REQUIRE(parse_link_next("<https://h/a?p=1>; rel=\"prev\"", next, err));
    CHECK(next.empty());
    REQUIRE(parse_link_next("", next, err));
    CHECK(next.empty());
    CHECK_FALSE(parse_link_next("https://h/a; rel=next", next, err));
    CHECK(err.find("must start with '<'") != std::string::npos);
    CHECK_FALSE(parse_link_next("<https://h/a; rel=next", next, err));
    CHECK_FALSE(parse_link_next("<https://h/a>; rel=\"next", next, err));
    CHECK_FALSE(parse_link_next("<https://h/a>; rel=next, <https://h/b>; rel=next", next, err));
    CHECK(err.find("two different next pages") != std::string::npos);
    CHECK_FALSE(parse_link_next("<https://h/a b>; rel=next", next, err));
    CHECK_FALSE(parse_link_next("<>; rel=next", next, err));
    CHECK_FALSE(parse_link_next("<https://h/" + std::string(kHubMaxLinkHeaderChars, 'a') + ">; rel=next", next, err));
    CHECK(next.empty());

    REQUIRE(hub_endpoint_path("https://huggingface.co/api/models/o/n/tree/main?cursor=x", "https://huggingface.co", path, err));
    CHECK(path == "/api/models/o/n/tree/main?cursor=x");
    REQUIRE(hub_endpoint_path("HTTPS://HuggingFace.co/api/x", "https://huggingface.co", path, err));
    CHECK(path == "/api/x");
    REQUIRE(hub_endpoint_path("/mirror/api/x", "https://m.example/mirror", path, err));  // origin-relative
    CHECK(path == "/api/x");
    REQUIRE(hub_endpoint_path("http://127.0.0.1:8000/api/x", "http://127.0.0.1:8000", path, err));
    CHECK(path == "/api/x");
    CHECK_FALSE(hub_endpoint_path("https://evil.example/api/x", "https://huggingface.co", path, err));
    CHECK(err == "the next-page link goes to https://evil.example, not the endpoint https://huggingface.co; not followed");
    CHECK_FALSE(hub_endpoint_path("https://huggingface.co.evil.example/api/x", "https://huggingface.co", path, err));
    CHECK_FALSE(hub_endpoint_path("https://huggingface.co@evil.example/api/x", "https://huggingface.co", path, err));
    CHECK_FALSE(hub_endpoint_path("http://huggingface.co/api/x", "https://huggingface.co", path, err));  // scheme
    CHECK_FALSE(hub_endpoint_path("http://127.0.0.1:8001/api/x", "http://127.0.0.1:8000", path, err));  // port
    CHECK_FALSE(hub_endpoint_path("//evil.example/api/x", "https://huggingface.co", path, err));         // scheme-relative
    CHECK_FALSE(hub_endpoint_path("https://m.example/other/api/x", "https://m.example/mirror", path, err));
    CHECK(err.find("outside the endpoint") != std::string::npos);
    CHECK_FALSE(hub_endpoint_path("https://m.example/mirrorx/api/x", "https://m.example/mirror", path, err));
    CHECK_FALSE(hub_endpoint_path("https://huggingface.co/api/../../x", "https://huggingface.co", path, err));
    CHECK(err.find("dot segment") != std::string::npos);
    CHECK_FALSE(hub_endpoint_path("javascript:alert(1)", "https://huggingface.co", path, err));
}

namespace {
// a tree listing of `n` files (one GGUF among README-like filler), `per_page` a page, each page's Link naming the
// next on `link_origin`
void paged_tree(FakeHub& hub, const std::string& repo, size_t n, size_t per_page, const std::string& gguf, uint64_t gguf_size,
                const std::string& link_origin = "https://huggingface.co") {
    hub.json["/api/models/" + repo + "?blobs=true"] = "{\"pipeline_tag\":\"text-generation\",\"siblings\":[{\"rfilename\":\"" + gguf + "\"}]}";
    const std::string first = "/api/models/" + repo + "/tree/main?recursive=true";
    for (size_t page = 0; page * per_page < n; ++page) {
        std::string body = "[";
        for (size_t i = page * per_page; i < std::min(n, (page + 1) * per_page); ++i) {
            const std::string name = i == n - 1 ? gguf : "extra/file-" + std::to_string(i) + ".txt";
            const uint64_t size = i == n - 1 ? gguf_size : 10;
            body += std::string(i % per_page ? "," : "") + "{\"type\":\"file\",\"path\":\"" + name + "\",\"size\":" + std::to_string(size) + "}";
        }
        const std::string path = page == 0 ? first : first + "&cursor=p" + std::to_string(page);
        hub.json[path] = body + "]";
        if ((page + 1) * per_page < n)
            hub.links[path] = "<" + link_origin + first + "&cursor=p" + std::to_string(page + 1) + ">; rel=\"next\"";
    }
}
}  // namespace

TEST_CASE("hub: a tree listing longer than one page is followed to its end", "[hub]") {
    const Fixture q4 = llama_gguf(4, 512, 1536, 3000, 12);
    const uint64_t size = q4.header.size() + q4.tensor_bytes;
    FakeHub hub;
    // 2,501 entries at 1,000 a page (the Hub's page): the GGUF is the last entry, on the third page
    paged_tree(hub, "org/big", 2501, 1000, "big-Q4_K_M.gguf", size);
    hub.add_file("org/big", "big-Q4_K_M.gguf", q4.header, size);
    HubLookup look(ref_of("org/big"));
    std::string err;
    REQUIRE(run_hub_lookup(look, std::ref(hub), err));
    CHECK(look.result().tree_pages == 3);
    REQUIRE(look.result().variants.size() == 1);
    CHECK(look.result().variants[0].tensor_data_bytes == q4.tensor_bytes);
    CHECK(look.result().variants[0].file_bytes == size);
    size_t tree_requests = 0;
    for (const HubRequest& rq : hub.log) tree_requests += rq.path.find("/tree/") != std::string::npos;
    CHECK(tree_requests == 3);

    SECTION("a next page on another origin is not followed") {
        FakeHub evil;
        paged_tree(evil, "org/big", 2501, 1000, "big-Q4_K_M.gguf", size, "https://evil.example");
        HubLookup l2(ref_of("org/big"));
        CHECK_FALSE(run_hub_lookup(l2, std::ref(evil), err));
        CHECK(l2.error_kind() == HubErrorKind::Malformed);
        CHECK(err == "org/big: the next-page link goes to https://evil.example, not the endpoint https://huggingface.co; not followed");
        CHECK(evil.log.size() == 2);  // the model API and the first page only
    }
    SECTION("a next page of another repo's tree is not followed") {
        FakeHub other;
        paged_tree(other, "org/big", 2501, 1000, "big-Q4_K_M.gguf", size);
        const std::string first = "/api/models/org/big/tree/main?recursive=true";
        other.links[first] = "<https://huggingface.co/api/models/org/other/tree/main?cursor=p1>; rel=\"next\"";
        HubLookup l2(ref_of("org/big"));
        CHECK_FALSE(run_hub_lookup(l2, std::ref(other), err));
        CHECK(err.find("is not this repo's file tree; not followed") != std::string::npos);
    }
    SECTION("the page bound holds against a listing that never ends") {
        FakeHub loop;
        paged_tree(loop, "org/big", 2, 1, "big-Q4_K_M.gguf", size);
        const std::string first = "/api/models/org/big/tree/main?recursive=true";
        loop.links[first + "&cursor=p1"] = "<https://huggingface.co" + first + "&cursor=p1>; rel=\"next\"";  // itself
        HubLookup l2(ref_of("org/big"));
        CHECK_FALSE(run_hub_lookup(l2, std::ref(loop), err));
        CHECK(err == "org/big: the file tree has more than " + std::to_string(kHubMaxTreePages) + " pages; not read");
        CHECK(l2.result().requests == 1 + (int)kHubMaxTreePages);
    }
    SECTION("a mirror endpoint with a path prefix") {
        FakeHub m;
        paged_tree(m, "org/big", 2501, 1000, "big-Q4_K_M.gguf", size, "https://m.example/hf");
        m.add_file("org/big", "big-Q4_K_M.gguf", q4.header, size);
        HubLookupOptions opt;
        opt.endpoint = "https://m.example/hf";
        HubLookup l2(ref_of("org/big"), opt);
        REQUIRE(run_hub_lookup(l2, std::ref(m), err));
        CHECK(l2.result().tree_pages == 3);
    }
}

TEST_CASE("hub: the model card's licence reaches the model", "[hub]") {
    std::string err;
    HubRepoInfo info;
    REQUIRE(parse_hub_model_info("{\"siblings\":[],\"cardData\":{\"license\":\"apache-2.0\"},\"tags\":[\"license:mit\"]}", info, err));
    CHECK(info.license == "apache-2.0");
    REQUIRE(parse_hub_model_info("{\"siblings\":[],\"cardData\":{\"license\":\"other\",\"license_name\":\"qwen-research\"}}", info, err));
    CHECK(info.license == "qwen-research");
    REQUIRE(parse_hub_model_info("{\"siblings\":[],\"tags\":[\"gguf\",\"license:llama3.1\"]}", info, err));
    CHECK(info.license == "llama3.1");
    REQUIRE(parse_hub_model_info("{\"siblings\":[],\"cardData\":{\"license\":[\"mit\",\"apache-2.0\"]}}", info, err));
    CHECK(info.license == "mit, apache-2.0");
    REQUIRE(parse_hub_model_info("{\"siblings\":[],\"cardData\":{\"license\":7},\"tags\":[3]}", info, err));
    CHECK(info.license.empty());

    const Fixture q4 = llama_gguf(4, 512, 1536, 3000, 12);
    const uint64_t size = q4.header.size() + q4.tensor_bytes;
    FakeHub hub;
    hub.json["/api/models/org/lic?blobs=true"] = siblings_json({{"lic-Q4_K_M.gguf", size}},
        "\"pipeline_tag\":\"text-generation\",\"cardData\":{\"license\":\"gemma\"},\"tags\":[\"license:gemma\"],");
    hub.add_file("org/lic", "lic-Q4_K_M.gguf", q4.header, size);
    HubLookup look(ref_of("org/lic"));
    REQUIRE(run_hub_lookup(look, std::ref(hub), err));
    CHECK(look.result().license == "gemma");
    CHECK(look.result().model.license == "gemma");
}

TEST_CASE("hub: a 206 whose Content-Range the page may not read uses the file list's size", "[hub]") {
    const Fixture q4 = llama_gguf(4, 512, 1536, 3000, 12);
    const uint64_t size = q4.header.size() + q4.tensor_bytes + 4096;
    FakeHub hub;
    hub.hide_content_range = true;
    hub.json["/api/models/org/hid?blobs=true"] = siblings_json({{"hid-Q4_K_M.gguf", size}}, "\"pipeline_tag\":\"text-generation\",");
    hub.add_file("org/hid", "hid-Q4_K_M.gguf", q4.header, size);
    HubLookupOptions opt;
    opt.first_range_bytes = 1024;  // the header takes several ranges
    HubLookup look(ref_of("org/hid"), opt);
    std::string err;
    REQUIRE(run_hub_lookup(look, std::ref(hub), err));
    CHECK(look.result().variants[0].tensor_data_bytes == q4.tensor_bytes);
    CHECK(look.result().bytes_in_files_read == size);
    REQUIRE(look.result().warnings.size() == 1);
    CHECK(look.result().warnings[0] == "hid-Q4_K_M.gguf: the storage's Content-Range header was not readable (not exposed to this "
                                      "page); the file size is the one in the repo's file list");
}

TEST_CASE("hub: a 429 with only the RateLimit header still says how long to wait", "[hub]") {
    CHECK(parse_ratelimit_reset("\"api\";r=0;t=55") == 55);
    CHECK(parse_ratelimit_reset("\"resolvers\"; t=7; r=0") == 7);
    CHECK(parse_ratelimit_reset("\"api\";r=495") == -1);
    CHECK(parse_ratelimit_reset("\"api\";r=0;t=x") == -1);
    CHECK(parse_ratelimit_reset("") == -1);
    HubResponse r;
    r.status = 429;
    r.ratelimit = "\"api\";r=0;t=23";
    HubErrorKind k;
    int wait = 0;
    const std::string msg = hub_status_message(r, "org/x", "the file list", k, wait);
    CHECK(k == HubErrorKind::RateLimited);
    CHECK(wait == 23);
    CHECK(msg.find("try again in 23 s") != std::string::npos);
    r.retry_after = "40";  // Retry-After, when present, wins
    hub_status_message(r, "org/x", "the file list", k, wait);
    CHECK(wait == 40);
}
