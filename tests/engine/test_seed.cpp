// The seed pages (../shared/seeds, the product llmsim replaces): where they are right we reproduce them;
// where we differ on purpose, README "Memory" says why. Numbers below are copied from the seed pages.
#include <catch2/catch.hpp>

#include <cmath>

#include "core/format.h"
#include "memory/memory.h"
#include "model/model_tensors.h"
#include "test_support.h"

using namespace llmsim;

namespace {
double kv_gib(const Model& m, int64_t ctx) {
    MemoryRequest r;
    r.file_type = "Q4_K_M";
    r.n_ctx = ctx;
    KvCacheSize kv;
    std::string err;
    REQUIRE(estimate_kv_cache(m, r, kv, err));
    return (double)(kv.k_bytes + kv.v_bytes) / 1073741824.0;
}
}  // namespace

TEST_CASE("seed header facts: Qwen2.5-72B-Instruct and Qwen2.5-7B-Instruct", "[seed]") {
    const Model* big = cat().find_model("Qwen/Qwen2.5-72B-Instruct");
    const Model* small = cat().find_model("Qwen/Qwen2.5-7B-Instruct");
    REQUIRE(big);
    REQUIRE(small);
    ParamCounts pb, ps;
    std::string err;
    REQUIRE(count_params(*big, pb, err));
    REQUIRE(count_params(*small, ps, err));
    // seed: "72.7B Dense", "GQA (8 KV / 64 Q)", "80 × 8192", "32k tokens", "$0.36 in / $0.40 out per 1M"
    CHECK(format_sig(pb.total / 1e9, 3) == "72.7");
    CHECK(pb.active == pb.total);
    CHECK((big->n_kv_heads == 8 && big->n_heads == 64 && big->n_layers == 80 && big->hidden_size == 8192));
    CHECK(format_tokens(big->native_context) == "32k");
    CHECK(big->api_price_in_usd_per_mtok == Approx(0.36));
    CHECK(big->api_price_out_usd_per_mtok == Approx(0.40));
    // seed: "7.6B Dense", "GQA (4 KV / 28 Q)", "28 × 3584", "32k tokens", "Apache-2.0", "$0.04 in / $0.12 out"
    CHECK(format_sig(ps.total / 1e9, 2) == "7.6");
    CHECK((small->n_kv_heads == 4 && small->n_heads == 28 && small->n_layers == 28 && small->hidden_size == 3584));
    CHECK(format_tokens(small->native_context) == "32k");
    CHECK(small->license == "Apache-2.0");
    CHECK(small->api_price_in_usd_per_mtok == Approx(0.04));
    CHECK(small->api_price_out_usd_per_mtok == Approx(0.12));
}

TEST_CASE("seed context-scaling KV column is reproduced exactly (f16 GQA)", "[seed]") {
    const Model* big = cat().find_model("Qwen/Qwen2.5-72B-Instruct");
    const Model* small = cat().find_model("Qwen/Qwen2.5-7B-Instruct");
    REQUIRE(big);
    REQUIRE(small);
    // seed 72B: 4k 1.25 GiB, 8k 2.50, 16k 5.00, 32k 10.00
    CHECK(kv_gib(*big, 4096) == Approx(1.25));
    CHECK(kv_gib(*big, 8192) == Approx(2.50));
    CHECK(kv_gib(*big, 16384) == Approx(5.00));
    CHECK(kv_gib(*big, 32768) == Approx(10.00));
    // seed 7B: 4k 0.22 GiB, 8k 0.44, 16k 0.88, 32k 1.75 (two decimals)
    CHECK(format_fixed(kv_gib(*small, 4096), 2) == "0.22");
    CHECK(format_fixed(kv_gib(*small, 8192), 2) == "0.44");
    CHECK(format_fixed(kv_gib(*small, 16384), 2) == "0.88");
    CHECK(format_fixed(kv_gib(*small, 32768), 2) == "1.75");
}

TEST_CASE("where the seed's flat bpw is wrong, we follow llama-quantize's per-tensor rules", "[seed]") {
    // seed: Qwen2.5-72B Q4_K_M weights 41.87 GiB (4.85 bpw x 1.02). Real file: Qwen/Qwen2.5-72B-Instruct-GGUF
    // q4_k_m = 47.4 GB, because ffn_down (29568 wide, not a multiple of 256) falls back to Q5_0/Q8_0.
    const Model* big = cat().find_model("Qwen/Qwen2.5-72B-Instruct");
    REQUIRE(big);
    WeightSize w;
    std::string err;
    REQUIRE(compute_weight_size(*big, "Q4_K_M", w, err, &cat()));
    CHECK(w.file_bytes_estimate / 1e9 == Approx(47.4).epsilon(0.01));
    CHECK(w.bits_per_weight > 5.0);   // not 4.85
}
