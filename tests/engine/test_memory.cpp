// Memory model tests: tensor enumeration, llama-quantize type rules, KV cache, compute buffers, fit logic.
//
// Golden data (measured with llama.cpp itself, copied from the shared calibration set into assets/calibration/):
//   llamacpp_quant_sizes.csv        llama-quantize outputs / --dry-run (llama.cpp de3ff815ea7d)
//   llamacpp_memory.csv             buffers llama.cpp printed at load (CPU backend, de3ff815ea7d)
//   llamacpp_memory_projection.csv  llama.cpp's no-alloc memory plan in exact bytes (de3ff815ea7d)
//
// Tolerances (named here, as ggml's tests do):
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "core/assets.h"
#include "catalog/catalog.h"
#include "memory/memory.h"
#include "model/model_tensors.h"
#include "quant/quant_rules.h"
#include "test_support.h"

using namespace llmsim;

namespace {

constexpr double kTolFileBytes = 0.005;      // GGUF file size (tensor data is exact; the header is estimated)
constexpr double kTolParams = 0.01;          // total params vs the model card's published count
constexpr double kTolCompute = 0.10;         // compute buffer vs llama.cpp (CPU backend)
constexpr double kTolBenchSizeGiB = 0.005;   // llama-bench prints model size with 2 decimals (GiB)
constexpr double kTolBenchSize = 0.005;      // + 0.5 % relative

// [SECTION] calibration files

std::string read_file_text(const std::string& rel) {
    std::vector<std::string> roots;
#ifdef LLMSIM_SOURCE_DIR
    roots.push_back(std::string(LLMSIM_SOURCE_DIR) + "/");
#endif
    for (const char* r : {"", "../", "../../", "../../../"}) roots.push_back(r);
    for (const std::string& r : roots) {
        std::ifstream f(r + rel, std::ios::binary);
        if (f) {
            std::stringstream s;
            s << f.rdbuf();
            return s.str();
        }
    }
    return "";
}

// rows of a CSV with a header, fields may be double-quoted
std::vector<std::map<std::string, std::string>> read_csv(const std::string& rel) {
    std::vector<std::map<std::string, std::string>> rows;
    const std::string text = read_file_text(rel);
    std::istringstream in(text);
    std::string line;
    std::vector<std::string> header;
    auto split = [](const std::string& l) {
        std::vector<std::string> out;
        std::string cur;
        bool q = false;
        for (char c : l) {
            if (c == '"') { q = !q; continue; }
            if (c == ',' && !q) { out.push_back(cur); cur.clear(); } else cur += c;
        }
        out.push_back(cur);
        return out;
    };
    while (std::getline(in, line)) {
        if (!line.empty() && line.back() == '\r') line.pop_back();
        if (line.empty()) continue;
        std::vector<std::string> f = split(line);
        if (header.empty()) { header = f; continue; }
        std::map<std::string, std::string> row;
        for (size_t i = 0; i < header.size() && i < f.size(); ++i) row[header[i]] = f[i];
        rows.push_back(row);
    }
    return rows;
}

double num(const std::string& s) { return std::strtod(s.c_str(), nullptr); }
uint64_t u64(const std::string& s) { return std::strtoull(s.c_str(), nullptr, 10); }

// [SECTION] models of the calibration runs (values from each model's Hugging Face config.json)

Model llama31_8b() {
    Model m;  // meta-llama/Llama-3.1-8B-Instruct config.json
    m.id = "meta-llama/Llama-3.1-8B-Instruct"; m.arch = "llama";
    m.n_layers = 32; m.hidden_size = 4096; m.intermediate_size = 14336; m.n_heads = 32; m.n_kv_heads = 8;
    m.head_dim = 128; m.vocab_size = 128256; m.rope_scaling = "llama3"; m.native_context = 131072;
    return m;
}
Model qwen25_05b() {
    Model m;  // Qwen/Qwen2.5-0.5B-Instruct config.json (tied embeddings, q/k/v bias)
    m.id = "Qwen/Qwen2.5-0.5B-Instruct"; m.arch = "qwen2";
    m.n_layers = 24; m.hidden_size = 896; m.intermediate_size = 4864; m.n_heads = 14; m.n_kv_heads = 2;
    m.head_dim = 64; m.vocab_size = 151936; m.tie_embeddings = true; m.qkv_bias = true; m.native_context = 32768;
    return m;
}
Model gemma2_9b() {
    Model m;  // google/gemma-2-9b-it config.json (sliding window 4096 on every other layer)
    m.id = "google/gemma-2-9b-it"; m.arch = "gemma2";
    m.n_layers = 42; m.hidden_size = 3584; m.intermediate_size = 14336; m.n_heads = 16; m.n_kv_heads = 8;
    m.head_dim = 256; m.vocab_size = 256000; m.tie_embeddings = true; m.native_context = 8192;
    SlidingWindow s; s.window = 4096; s.pattern = 2; m.swa = s;
    return m;
}
Model dsv2_lite() {
    Model m;  // deepseek-ai/DeepSeek-V2-Lite config.json (MLA without q_lora, 64 experts + 2 shared, layer 0 dense)
    m.id = "deepseek-ai/DeepSeek-V2-Lite"; m.arch = "deepseek2";
    m.n_layers = 27; m.hidden_size = 2048; m.intermediate_size = 10944; m.n_heads = 16; m.n_kv_heads = 16;
    m.head_dim = 192; m.head_dim_v = 128; m.vocab_size = 102400; m.native_context = 163840;
    MoeConfig e; e.n_experts = 64; e.n_experts_active = 6; e.n_shared_experts = 2; e.expert_ffn = 1408;
    e.first_dense_layers = 1; m.moe = e;
    MlaConfig a; a.kv_lora_rank = 512; a.qk_rope_head_dim = 64; a.qk_nope_head_dim = 128; a.v_head_dim = 128; m.mla = a;
    return m;
}
Model calibration_model(const std::string& arch) {
    if (arch == "llama") return llama31_8b();
    if (arch == "qwen2") return qwen25_05b();
    if (arch == "gemma2") return gemma2_9b();
    return dsv2_lite();
}

MemoryRequest request_from_row(const std::map<std::string, std::string>& r) {
    MemoryRequest q;
    q.file_type = r.at("quant");
    q.n_ctx = (int64_t)u64(r.at("n_ctx"));
    q.n_ubatch = (int)u64(r.at("n_ubatch"));
    q.flash_attn = r.at("flash_attn") == "on";
    q.kv_type_k = *parse_tensor_type(r.at("ctk"));
    q.kv_type_v = *parse_tensor_type(r.at("ctv"));
    q.n_parallel = (int)u64(r.at("n_parallel"));
    const std::string& cmd = r.at("command");
    if (cmd.find("-ub 2048") != std::string::npos) q.n_ubatch = 2048;   // the override comes last on the line
    if (cmd.find("--swa-full") != std::string::npos) q.swa_full = true;
    q.compute_max_context = false;
    return q;
}

}  // namespace

// [SECTION] tensors and quant rules

TEST_CASE("memory: per-tensor quant rules reproduce llama-quantize byte for byte", "[memory][quant]") {
    // source: assets/calibration/llamacpp_quant_sizes.csv (llama-quantize de3ff815ea7d, real files and --dry-run)
    const auto rows = read_csv("assets/calibration/llamacpp_quant_sizes.csv");
    REQUIRE(rows.size() >= 30);
    for (const auto& r : rows) {
        const Model m = calibration_model(r.at("arch"));
        WeightSize ws;
        std::string err;
        INFO(r.at("hf_id") << " " << r.at("quant"));
        REQUIRE(compute_weight_size(m, r.at("quant"), ws, err));
        CHECK(ws.tensor_data_bytes == u64(r.at("tensor_data_bytes")));
        const double file = num(r.at("file_bytes"));
        CHECK(std::fabs((double)ws.file_bytes_estimate / file - 1.0) < kTolFileBytes);
        // the per-type histogram "TYPE:count:bytes;..." matches exactly
        std::map<std::string, std::pair<int, uint64_t>> want;
        std::stringstream hs(r.at("tensor_type_histogram"));
        std::string item;
        while (std::getline(hs, item, ';')) {
            const size_t a = item.find(':'), b = item.rfind(':');
            want[item.substr(0, a)] = {std::stoi(item.substr(a + 1, b - a - 1)), u64(item.substr(b + 1))};
        }
        REQUIRE(ws.histogram.size() == want.size());
        for (const TypeHistogramEntry& e : ws.histogram) {
            INFO(to_string(e.type));
            REQUIRE(want.count(to_string(e.type)) == 1);
            CHECK(want[to_string(e.type)].first == e.count);
            CHECK(want[to_string(e.type)].second == e.bytes);
        }
    }
}

TEST_CASE("memory: tensor enumeration of the calibration models", "[memory][tensors]") {
    // source: F16 rows of llamacpp_quant_sizes.csv give exact parameter counts (F16 bytes / 2 + F32 bytes / 4)
    ParamCounts pc;
    std::string err;
    REQUIRE(count_params(llama31_8b(), pc, err));
    CHECK(pc.total == 16059990016ull / 2 + 1065216ull / 4);
    REQUIRE(count_params(qwen25_05b(), pc, err));
    CHECK(pc.total == 987922432ull / 2 + 286208ull / 4);
    CHECK(pc.output == 0);  // tied
    REQUIRE(count_params(gemma2_9b(), pc, err));
    CHECK(pc.total == 18482200576ull / 2 + 2422784ull / 4);
    REQUIRE(count_params(dsv2_lite(), pc, err));
    CHECK(pc.total == 31405899776ull / 2 + 14137344ull / 4);
    CHECK(pc.active < pc.total / 5);  // 6 of 64 experts + 2 shared

    std::vector<TensorDesc> ts;
    REQUIRE(enumerate_tensors(dsv2_lite(), ts, err));
    bool has_k_b = false;
    for (const TensorDesc& t : ts) has_k_b |= t.name == "blk.5.attn_k_b.weight" && t.ne[0] == 128 && t.ne[2] == 16;
    CHECK(has_k_b);
    CHECK(ts.front().layer == -1);  // loader order: non-block tensors first
}

TEST_CASE("memory: catalog models match their published parameter counts", "[memory][catalog]") {
    // source: assets/catalog/models.json published_params_b (model cards); skipped when the catalog is absent
    Catalog cat;
    if (!load_catalog_or_skip(cat)) return;
    int checked = 0;
    for (const Model& m : cat.models) {
        ParamCounts pc;
        std::string err;
        INFO(m.id << ": " << err);
        REQUIRE(count_params(m, pc, err));
        CHECK(pc.active <= pc.total);
        if (m.published_params_b <= 0) continue;
        const double b = (double)pc.total / 1e9;
        INFO(m.id << " computed " << b << "B vs published " << m.published_params_b << "B");
        CHECK(std::fabs(b / m.published_params_b - 1.0) < kTolParams);
        ++checked;
    }
    CHECK(checked > 0);
}

TEST_CASE("memory: model sizes llama-bench printed", "[memory][quant]") {
    // source: llama-bench "size" column (GiB, 2 decimals) in the shared speed calibration set
    // (assets/calibration/llamacpp_speed.jsonl rows s0000.., sources named per case)
    struct Case { Model m; const char* quant; double gib; const char* source; };
    auto llama = [](int L, int64_t d, int64_t ff, int h, int kv, int64_t vocab, bool tied) {
        Model m; m.arch = "llama"; m.n_layers = L; m.hidden_size = d; m.intermediate_size = ff; m.n_heads = h;
        m.n_kv_heads = kv; m.head_dim = (int)(d / h); m.vocab_size = vocab; m.tie_embeddings = tied; return m;
    };
    Model l32_3b = llama(28, 3072, 8192, 24, 8, 128256, true); l32_3b.head_dim = 128; l32_3b.rope_scaling = "llama3";
    Model q3_32b = llama(64, 5120, 25600, 64, 8, 151936, false); q3_32b.arch = "qwen3"; q3_32b.head_dim = 128;
    auto gptoss = [](int L, int n_exp) {
        Model m; m.arch = "gpt-oss"; m.n_layers = L; m.hidden_size = 2880; m.n_heads = 64; m.n_kv_heads = 8;
        m.head_dim = 64; m.vocab_size = 201088;
        MoeConfig e; e.n_experts = n_exp; e.n_experts_active = 4; e.expert_ffn = 2880; e.router_bias = true; m.moe = e;
        SlidingWindow s; s.window = 128; s.pattern = 2; m.swa = s; return m;
    };
    const std::vector<Case> cases = {
        {llama(32, 4096, 14336, 32, 8, 128256, false), "Q4_K_M", 4.58, "XiongjieDai/GPU-Benchmarks-on-LLM-Inference@aa72e0ec86 Llama-3-8B"},
        {llama(32, 4096, 14336, 32, 8, 128256, false), "F16", 14.96, "XiongjieDai/GPU-Benchmarks-on-LLM-Inference@aa72e0ec86 Llama-3-8B"},
        {llama(80, 8192, 28672, 64, 8, 128256, false), "Q4_K_M", 39.59, "XiongjieDai/GPU-Benchmarks-on-LLM-Inference@aa72e0ec86 Llama-3-70B"},
        {llama(80, 8192, 28672, 64, 8, 128256, false), "F16", 131.42, "XiongjieDai/GPU-Benchmarks-on-LLM-Inference@aa72e0ec86 Llama-3-70B"},
        {llama(32, 4096, 11008, 32, 32, 32000, false), "Q4_0", 3.56, "kyuz0/amd-strix-halo-toolboxes@d1a34bee09 llama-2-7b"},
        {llama(32, 4096, 11008, 32, 32, 32000, false), "F16", 12.55, "ggml-org/llama.cpp PR 4766 (2024-01-10) Llama-2-7B"},
        {llama(32, 4096, 11008, 32, 32, 32000, false), "Q8_0", 6.67, "ggml-org/llama.cpp PR 4766 (2024-01-10) Llama-2-7B"},
        {llama(22, 2048, 5632, 32, 4, 32000, false), "Q4_K_M", 0.6213, "geerlingguy/ai-benchmarks issue 43 TinyLlama-1.1B"},
        {l32_3b, "Q4_K_M", 1.87, "geerlingguy/ai-benchmarks issue 43 Llama-3.2-3B"},
        {q3_32b, "Q8_0", 32.42, "lhl/strix-halo-testing@5ee14b5b0e Qwen3-32B"},
        {gptoss(24, 32), "MXFP4", 11.27, "kyuz0/amd-strix-halo-toolboxes@d1a34bee09 gpt-oss-20b"},
        {gptoss(36, 128), "MXFP4", 59.02, "kyuz0/amd-strix-halo-toolboxes@d1a34bee09 gpt-oss-120b"},
    };
    for (const Case& c : cases) {
        WeightSize ws;
        std::string err;
        INFO(c.source << " " << c.quant);
        REQUIRE(compute_weight_size(c.m, c.quant, ws, err));
        const double gib = (double)ws.tensor_data_bytes / (double)kGiB;
        INFO("ours " << gib << " GiB vs " << c.gib);
        CHECK(std::fabs(gib - c.gib) <= kTolBenchSizeGiB + kTolBenchSize * c.gib);
    }
}

TEST_CASE("memory: quant rule details", "[memory][quant]") {
    std::string err;
    // the shape fallback: DeepSeek-V2-Lite ffn_down_exps rows of 1408 are not a multiple of 256
    WeightSize ws;
    REQUIRE(compute_weight_size(dsv2_lite(), "Q4_K_M", ws, err));
    for (size_t i = 0; i < ws.tensors.size(); ++i) {
        if (ws.tensors[i].name == "blk.4.ffn_down_exps.weight") CHECK(ws.types[i] == TensorType::Q5_0);
        if (ws.tensors[i].name == "blk.5.ffn_down_exps.weight") CHECK(ws.types[i] == TensorType::Q8_0);  // use_more_bits
        if (ws.tensors[i].name == "blk.5.ffn_down_shexp.weight") CHECK(ws.types[i] == TensorType::Q6_K);
    }
    // 8-expert rule (Mixtral): attn_v and attn_k -> Q8_0 under Q4_K_M
    Model mx = llama31_8b();
    mx.rope_scaling = "";
    MoeConfig e; e.n_experts = 8; e.n_experts_active = 2; e.expert_ffn = 14336; mx.moe = e; mx.intermediate_size = 0;
    REQUIRE(compute_weight_size(mx, "Q4_K_M", ws, err));
    for (size_t i = 0; i < ws.tensors.size(); ++i) {
        if (ws.tensors[i].name == "blk.10.attn_v.weight" || ws.tensors[i].name == "blk.10.attn_k.weight")
            CHECK(ws.types[i] == TensorType::Q8_0);
        if (ws.tensors[i].name == "blk.10.attn_output.weight") CHECK(ws.types[i] == TensorType::Q5_K);
    }
    // 70B rule: attn_v Q4_K -> Q5_K on 80-layer GQA llama
    Model l70 = llama31_8b();
    l70.n_layers = 80; l70.hidden_size = 8192; l70.n_heads = 64; l70.intermediate_size = 28672;
    REQUIRE(compute_weight_size(l70, "Q4_K_M", ws, err));
    for (size_t i = 0; i < ws.tensors.size(); ++i)
        if (ws.tensors[i].name == "blk.13.attn_v.weight") CHECK(ws.types[i] == TensorType::Q5_K);  // 13 is not use_more_bits
    // non-GGUF formats use the catalog's flat bpw; unknown names fail with a message
    CHECK_FALSE(compute_weight_size(llama31_8b(), "Q9_K_XL", ws, err));
    CHECK(err.find("Q9_K_XL") != std::string::npos);
    Catalog cat;
    FileType mlx; mlx.name = "MLX_4BIT"; mlx.gguf = false; mlx.flat_bpw = 4.5; cat.file_types.push_back(mlx);
    REQUIRE(compute_weight_size(llama31_8b(), "MLX_4BIT", ws, err, &cat));
    CHECK(ws.bits_per_weight == Approx(4.5));
}

// [SECTION] KV cache and compute buffers

TEST_CASE("memory: KV cache is byte-exact against llama.cpp's memory plan", "[memory][kv]") {
    // source: assets/calibration/llamacpp_memory_projection.csv (context_bytes, llama.cpp de3ff815ea7d) — GQA
    // Llama-3.1-8B, SWA gemma-2-9b (incl. -np 4, --swa-full, -ub 2048), MLA DeepSeek-V2-Lite, q8_0 KV
    const auto rows = read_csv("assets/calibration/llamacpp_memory_projection.csv");
    REQUIRE(rows.size() >= 40);
    for (const auto& r : rows) {
        INFO(r.at("command"));
        const MemoryRequest q = request_from_row(r);
        KvCacheSize kv;
        std::string err;
        REQUIRE(estimate_kv_cache(calibration_model(r.at("arch")), q, kv, err));
        CHECK(kv.k_bytes + kv.v_bytes + kv.state_bytes == u64(r.at("context_bytes")));
    }
}

TEST_CASE("memory: printed KV, model and compute buffers of real llama.cpp runs", "[memory][kv][compute]") {
    // source: assets/calibration/llamacpp_memory.csv (llama-completion -lv 5, CPU backend, de3ff815ea7d);
    // buffers are printed in MiB with 2 decimals
    const auto rows = read_csv("assets/calibration/llamacpp_memory.csv");
    REQUIRE(rows.size() >= 40);
    Catalog cat;
    for (const auto& r : rows) {
        INFO(r.at("command"));
        const MemoryRequest q = request_from_row(r);
        MemoryBreakdown mb;
        std::string err;
        REQUIRE(estimate_memory(cat, calibration_model(r.at("arch")), q, mb, err));
        const double mib = (double)kMiB;
        CHECK(std::fabs((double)mb.kv_cache_bytes / mib - num(r.at("kv_buffer_mib"))) < 0.006);
        CHECK(std::fabs((double)mb.kv_k_bytes / mib - num(r.at("k_mib"))) < 0.006);
        CHECK(std::fabs((double)mb.kv_v_bytes / mib - num(r.at("v_mib"))) < 0.006);
        const std::string mbuf = r.at("model_buffer_mib");
        if (mbuf.find("REPACK") == std::string::npos) {   // repacked runs split the weights over two buffers
            CHECK(std::fabs((double)mb.weights_bytes / mib - num(mbuf.substr(mbuf.find('=') + 1))) < 0.006);
        }
        const std::string cbuf = r.at("compute_buffer_mib");
        const double measured = num(cbuf.substr(cbuf.find('=') + 1));
        CHECK(std::fabs((double)mb.compute_bytes / mib / measured - 1.0) < kTolCompute);
    }
}

TEST_CASE("memory: compute buffers within 10 % of llama.cpp's memory plan", "[memory][compute]") {
    // source: assets/calibration/llamacpp_memory_projection.csv (compute_bytes, CPU backend, de3ff815ea7d)
    const auto rows = read_csv("assets/calibration/llamacpp_memory_projection.csv");
    double worst = 0;
    for (const auto& r : rows) {
        INFO(r.at("command"));
        const MemoryRequest q = request_from_row(r);
        const ComputeSize c = estimate_compute_buffer(calibration_model(r.at("arch")), q, true, true);
        const double err = (double)c.total / num(r.at("compute_bytes")) - 1.0;
        worst = std::max(worst, std::fabs(err));
        CHECK(std::fabs(err) < kTolCompute);
    }
    CHECK(worst < 0.05);  // measured: 2.9 % worst (Llama-3.1-8B, q8_0 KV at 32k)
}

TEST_CASE("memory: KV semantics", "[memory][kv]") {
    std::string err;
    KvCacheSize kv;
    MemoryRequest q;
    q.n_ctx = 5000;  // padded to 5120 cells
    REQUIRE(estimate_kv_cache(llama31_8b(), q, kv, err));
    CHECK(kv.cells_full == 5120);
    // quantized V needs flash attention (llama.cpp refuses otherwise)
    q.kv_type_v = TensorType::Q4_0;
    q.flash_attn = false;
    CHECK_FALSE(estimate_kv_cache(llama31_8b(), q, kv, err));
    CHECK(err.find("flash") != std::string::npos);
    // block sizes: q4_0 rows of 1024 = 32 blocks x 18 bytes
    q.flash_attn = true;
    q.kv_type_k = TensorType::Q4_0;
    REQUIRE(estimate_kv_cache(llama31_8b(), q, kv, err));
    CHECK(kv.k_bytes == 32ull * 5120 * (1024 / 32) * 18);
    // SWA grows with -np; full attention does not
    MemoryRequest a, b;
    a.n_ctx = b.n_ctx = 32768;
    b.n_parallel = 4;
    KvCacheSize ka, kb;
    REQUIRE(estimate_kv_cache(gemma2_9b(), a, ka, err));
    REQUIRE(estimate_kv_cache(gemma2_9b(), b, kb, err));
    CHECK(ka.cells_full == kb.cells_full);
    CHECK(kb.cells_swa == 4 * ka.cells_swa);
    // hybrid: recurrent layers hold a fixed state per sequence
    Model h = llama31_8b();
    HybridConfig hc; hc.recurrent_type = "mamba"; hc.ssm_state_bytes_per_layer = 1000000;
    for (int i = 0; i < 32; i += 8) hc.attention_layers.push_back(i);
    h.hybrid = hc;
    MemoryRequest r2;
    r2.n_parallel = 2;
    REQUIRE(estimate_kv_cache(h, r2, kv, err));
    CHECK(kv.state_bytes == 28ull * 1000000 * 2);
    // bad input
    MemoryRequest bad;
    bad.n_ctx = 0;
    CHECK_FALSE(estimate_kv_cache(llama31_8b(), bad, kv, err));
}

// [SECTION] placement and fit

namespace {
Hardware gpu24() {
    Hardware h;  // an RTX 4090-like card: 24564 MiB reported by nvidia-smi
    h.id = "test-24g"; h.kind = HardwareKind::Consumer; h.backends = {Backend::Cuda};
    h.memory_bytes = 24564ll * (int64_t)kMiB;
    return h;
}
Hardware mac64() {
    Hardware h;
    h.id = "test-mac64"; h.kind = HardwareKind::Apple; h.backends = {Backend::Metal};
    h.memory_bytes = 64ll * (int64_t)kGiB; h.system_ram_bytes = 64ll * (int64_t)kGiB;
    h.gpu_limit_default_bytes = 48ll * (int64_t)kGiB; h.gpu_limit_max_bytes = 56ll * (int64_t)kGiB;
    return h;
}
}  // namespace

TEST_CASE("memory: placement follows -ngl, tied output and --n-cpu-moe", "[memory][placement]") {
    Catalog cat;
    const Hardware hw = gpu24();
    MemoryRequest q;
    q.file_type = "Q4_K_M";
    q.n_ctx = 8192;
    q.hardware = &hw;
    MemoryBreakdown mb;
    std::string err;
    REQUIRE(estimate_memory(cat, llama31_8b(), q, mb, err));
    REQUIRE(mb.devices.size() == 2);
    CHECK(mb.devices[0].name == "CUDA0");
    CHECK(mb.devices[1].name == "host");
    CHECK(mb.status == FitStatus::Comfortable);
    CHECK(mb.gpu_layers == 33);
    // token_embd stays on the host: Q4_K 128256 x 4096
    CHECK(mb.devices[1].weights_bytes == 128256ull * 4096 / 256 * 144);
    CHECK(mb.devices[0].kv_cache_bytes == 1073741824ull);
    CHECK(mb.max_context == 131072);
    CHECK(mb.usable_bytes == 24564ull * kMiB - kGpuReserveDesktopBytes);

    // -ngl 20: the last 20 layers on the GPU, output on the host
    q.n_gpu_layers = 20;
    REQUIRE(estimate_memory(cat, llama31_8b(), q, mb, err));
    CHECK(mb.devices[0].n_layers == 20);
    CHECK(mb.devices[1].n_layers == 12);
    CHECK(mb.status == FitStatus::PartialOffload);
    CHECK(mb.devices[0].kv_cache_bytes == 1073741824ull / 32 * 20);

    // tied embeddings: the output copy of token_embd goes to the GPU as well
    q.n_gpu_layers = -1;
    REQUIRE(estimate_memory(cat, qwen25_05b(), q, mb, err));
    uint64_t embd = 0;
    WeightSize ws;
    REQUIRE(compute_weight_size(qwen25_05b(), "Q4_K_M", ws, err));
    for (size_t i = 0; i < ws.tensors.size(); ++i) if (ws.tensors[i].name == "token_embd.weight") embd = ws.bytes[i];
    CHECK(mb.devices[1].weights_bytes == embd);
    CHECK(mb.weights_bytes == ws.tensor_data_bytes + embd);

    // --n-cpu-moe 10: routed experts of layers 0..9 in host RAM
    MemoryRequest m2 = q;
    m2.n_cpu_moe = 10;
    MemoryBreakdown a, b;
    REQUIRE(estimate_memory(cat, dsv2_lite(), q, a, err));
    REQUIRE(estimate_memory(cat, dsv2_lite(), m2, b, err));
    CHECK(b.devices[1].weights_bytes > a.devices[1].weights_bytes);
    CHECK(a.weights_bytes == b.weights_bytes);

    // two GPUs split the 33 "layers" (32 + output) evenly, output on the last
    Hardware rig = gpu24();
    rig.gpu_count = 2;
    q.hardware = &rig;
    REQUIRE(estimate_memory(cat, llama31_8b(), q, mb, err));
    REQUIRE(mb.devices.size() == 3);
    CHECK(mb.devices[0].n_layers + mb.devices[1].n_layers == 32);
    CHECK(std::abs(mb.devices[0].n_layers - mb.devices[1].n_layers) <= 2);  // llama.cpp counts the output as a layer: 17 + 15
}

TEST_CASE("memory: fit status, max context and fallbacks", "[memory][fit]") {
    Catalog cat;
    std::string err;
    MemoryBreakdown mb;
    // 70B at Q4_K_M does not fit 24 GB; without known host RAM it is OOM with a layer suggestion
    Model l70 = llama31_8b();
    l70.n_layers = 80; l70.hidden_size = 8192; l70.n_heads = 64; l70.intermediate_size = 28672;
    const Hardware hw = gpu24();
    MemoryRequest q;
    q.file_type = "Q4_K_M";
    q.n_ctx = 32768;
    q.hardware = &hw;
    REQUIRE(estimate_memory(cat, l70, q, mb, err));
    CHECK(mb.status == FitStatus::Oom);
    CHECK(mb.fit_gpu_layers > 10);
    CHECK(mb.fit_gpu_layers < 60);
    // with 64 GiB host RAM the auto placement offloads part of the model
    q.host_ram_bytes = 64 * kGiB;
    REQUIRE(estimate_memory(cat, l70, q, mb, err));
    CHECK(mb.status == FitStatus::PartialOffload);
    CHECK(mb.gpu_layers == mb.fit_gpu_layers);
    CHECK(mb.devices[0].total_bytes <= mb.devices[0].usable_bytes);

    // Apple 64 GB: above the default working set, below the raised limit -> TUNABLE_UMA
    const Hardware mac = mac64();
    MemoryRequest m;
    m.file_type = "Q4_K_M";
    m.n_ctx = 32768;
    m.hardware = &mac;
    REQUIRE(estimate_memory(cat, l70, m, mb, err));
    CHECK(mb.status == FitStatus::TunableUma);
    CHECK(mb.devices[0].name == "Metal");
    m.file_type = "Q2_K";
    REQUIRE(estimate_memory(cat, l70, m, mb, err));
    CHECK((mb.status == FitStatus::Comfortable || mb.status == FitStatus::Tight));

    // the best quant that fits an 8B on 24 GB at 8k is F16 (16.1 GB); on a 12 GB card it is Q8_0
    Hardware g12 = gpu24();
    g12.memory_bytes = 12288ll * (int64_t)kMiB;
    MemoryRequest s;
    s.n_ctx = 8192;
    s.hardware = &g12;
    CHECK(best_fitting_file_type(cat, llama31_8b(), s, {"F16", "Q8_0", "Q4_K_M"}) == "Q8_0");
    s.hardware = &hw;
    CHECK(best_fitting_file_type(cat, llama31_8b(), s, {"F16", "Q8_0", "Q4_K_M"}) == "F16");

    // max context grows with smaller KV types and never passes the native context
    MemoryRequest c;
    c.file_type = "Q8_0";
    c.n_ctx = 4096;
    c.hardware = &g12;
    REQUIRE(estimate_memory(cat, llama31_8b(), c, mb, err));
    const int64_t f16_ctx = mb.max_context;
    c.kv_type_k = c.kv_type_v = TensorType::Q8_0;
    REQUIRE(estimate_memory(cat, llama31_8b(), c, mb, err));
    CHECK(mb.max_context > f16_ctx);
    CHECK(mb.max_context % 256 == 0);
    CHECK(mb.max_context <= 131072);

    // a file size override scales the weights
    MemoryRequest o;
    o.file_bytes_override = 5000000000ull;
    REQUIRE(estimate_memory(cat, llama31_8b(), o, mb, err));
    CHECK(std::fabs((double)mb.weights_bytes - 5e9 * 4912898304.0 / 4916139104.0) < 5e6);
    // no hardware: status unknown, no max context
    CHECK(mb.status == FitStatus::Unknown);
    CHECK(mb.max_context == -1);
}

TEST_CASE("memory: byte counts do not wrap for the largest models", "[memory][wasm]") {
    // DeepSeek-V3-size tensors exceed 2^32 bytes: the 32-bit size_t of wasm32 must not be involved
    Model m = dsv2_lite();
    m.n_layers = 61; m.hidden_size = 7168; m.intermediate_size = 18432; m.n_heads = 128; m.vocab_size = 129280;
    m.moe->n_experts = 256; m.moe->n_experts_active = 8; m.moe->n_shared_experts = 1; m.moe->expert_ffn = 2048;
    m.moe->first_dense_layers = 3; m.mla->q_lora_rank = 1536;
    ParamCounts pc;
    std::string err;
    REQUIRE(count_params(m, pc, err));
    CHECK(pc.total > 600000000000ull);
    WeightSize ws;
    REQUIRE(compute_weight_size(m, "F16", ws, err));
    CHECK(ws.tensor_data_bytes > 1200000000000ull);
}

TEST_CASE("memory: a model opens at its release format, at a context that fits the device", "[memory][defaults]") {
    Catalog cat;
    if (!load_catalog_or_skip(cat)) return;
    // gpt-oss-120b ships MXFP4 experts; the published GGUF is 59.02 GiB in llama-bench's size column
    // (github:kyuz0/amd-strix-halo-toolboxes@d1a34bee09:benchmark/results/gpt-oss-120b-mxfp4-00001-of-00003__rocm-7_2_3__fa1.log)
    const Model* oss = cat.find_model("openai/gpt-oss-120b");
    REQUIRE(oss);
    CHECK(oss->release_weights == "MXFP4");
    REQUIRE(default_file_type(*oss) == "MXFP4_MOE");
    WeightSize ws;
    std::string err;
    REQUIRE(compute_weight_size(*oss, default_file_type(*oss), ws, err));
    const double gib = (double)ws.tensor_data_bytes / (double)kGiB;
    INFO("gpt-oss-120b at its default file type: " << gib << " GiB vs 59.02 published");
    CHECK(std::fabs(gib - 59.02) <= kTolBenchSizeGiB + kTolBenchSize * 59.02);
    // what it opened at before: Q4_K_M re-quantises the 2880-wide experts to larger fallback types
    WeightSize q4;
    REQUIRE(compute_weight_size(*oss, "Q4_K_M", q4, err));
    CHECK(q4.tensor_data_bytes > ws.tensor_data_bytes * 1.2);
    // FP8 releases open at Q8_0; an unrecorded format at llama.cpp's -hf default
    CHECK(default_file_type(*cat.find_model("deepseek-ai/DeepSeek-V3")) == "Q8_0");
    const Model* qwen = cat.find_model("Qwen/Qwen2.5-7B-Instruct");
    const Model* l8 = cat.find_model("meta-llama/Llama-3.1-8B-Instruct");
    const Model* l70 = cat.find_model("meta-llama/Llama-3.1-70B-Instruct");
    REQUIRE((qwen && l8 && l70));
    CHECK(default_file_type(*qwen) == "Q4_K_M");

    auto ctx_on = [&](const Model& m, const char* hw) {
        MemoryRequest q;
        q.file_type = default_file_type(m);
        q.hardware = cat.find_hardware(hw);
        REQUIRE(q.hardware);
        return default_context_tokens(cat, m, q);
    };
    // 4.4 GiB of weights + 1.75 GiB KV at the native 32k fit a 24 GB card
    CHECK(ctx_on(*qwen, "rtx-4090") == 32768);
    // Llama 3.1 8B: 128 KiB of f16 KV per token (32 layers x 8 KV heads x 128 x 2 x 2 B) + 4.58 GiB of Q4_K_M weights;
    // on 12 GB: 64k needs 8 GiB of KV (> 12.5 GiB in all, does not fit), 32k needs 4 GiB (about 9 GiB in all)
    CHECK(ctx_on(*l8, "rtx-3060-12gb") == 32768);
    CHECK(ctx_on(*l8, "h100-sxm") == 131072);   // the native 128k fits 80 GB
    // 40 GiB of weights never fit 24 GB: the floor
    CHECK(ctx_on(*l70, "rtx-4090") == 4096);
    CHECK(ctx_on(*oss, "h200-sxm") == 131072);
    // no device: the native context
    MemoryRequest none;
    none.file_type = "Q4_K_M";
    CHECK(default_context_tokens(cat, *l8, none) == 131072);
}
