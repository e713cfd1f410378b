// Embedding and reranker models (engine/embed/embed.h): each memory rule pinned to the llama.cpp behaviour it
// follows, parameter counts against the published model sizes, bad input refused.
#include <catch2/catch.hpp>

#include "catalog/catalog.h"
#include "embed/embed.h"
#include "test_support.h"

using namespace llmsim;

namespace {
EmbedEstimate run(const char* id, EmbedRequest r) {
    const EmbeddingModel* m = find_embedding_model(id);
    REQUIRE(m);
    EmbedEstimate e;
    std::string err;
    REQUIRE(estimate_embedding(cat(), *m, r, e, err));
    return e;
}
}  // namespace

TEST_CASE("embed: BERT-family parameters match the published counts (pooler dropped by the converter)", "[embed]") {
    // BERT-large (bge-large-en-v1.5, e5-large-v2, gte-large): Hugging Face reports 335,141,888 parameters, of which
    // the pooler (1024 x 1024 + 1024) is not in a llama.cpp GGUF
    CHECK(run("BAAI/bge-large-en-v1.5", {}).params == 335141888 - 1049600);
    CHECK(run("intfloat/e5-large-v2", {}).params == 335141888 - 1049600);
    // XLM-RoBERTa-large (bge-m3): 250002-token vocabulary and 8194 positions; the model card's "568M" includes the
    // pooler too
    const int64_t m3 = run("BAAI/bge-m3", {}).params + 1049600;
    CHECK(m3 > 567500000);
    CHECK(m3 < 568500000);
    // F16 matrices + F32 vectors: bytes = 2 x matrix elements + 4 x vector elements; Q8_0 is 34 bytes per 32
    EmbedRequest q8;
    q8.file_type = "Q8_0";
    CHECK(run("BAAI/bge-large-en-v1.5", q8).weights_bytes < run("BAAI/bge-large-en-v1.5", {}).weights_bytes * 0.54);
}

TEST_CASE("embed: encoders have no KV cache, decoder embedders a normal one", "[embed]") {
    EmbedRequest r;
    r.doc_tokens = 512;
    r.batch_docs = 16;
    // llama_model::create_memory: no memory for LLM_ARCH_BERT (and jina-bert-v3)
    CHECK(run("BAAI/bge-m3", r).kv_cache_bytes == 0);
    CHECK(run("jinaai/jina-embeddings-v3", r).kv_cache_bytes == 0);
    // Qwen3-Embedding-0.6B: 28 layers x 8 KV heads x 128 x (K + V) x f16 = 114,688 bytes per cell, 16 x 512 cells
    const EmbedEstimate q = run("Qwen/Qwen3-Embedding-0.6B", r);
    CHECK(q.n_ctx == 16 * 512);
    CHECK(q.kv_cache_bytes == 114688ull * 16 * 512);
}

TEST_CASE("embed: one document must fit one ubatch", "[embed]") {
    EmbedRequest r;
    r.doc_tokens = 2048;
    // auto -ub: raised to the document (an encoder needs the whole input in one ubatch), with a warning
    const EmbedEstimate e = run("BAAI/bge-m3", r);
    CHECK(e.n_ubatch == 2048);
    CHECK(e.min_ubatch == 2048);
    REQUIRE(e.warnings.size() == 1);
    CHECK(e.command.find("-ub 2048") != std::string::npos);
    CHECK(e.command.find("--embedding --pooling cls") != std::string::npos);
    // an explicit -ub below the document is what llama-server refuses
    r.n_ubatch = 512;
    EmbedEstimate bad;
    std::string err;
    CHECK_FALSE(estimate_embedding(cat(), *find_embedding_model("BAAI/bge-m3"), r, bad, err));
    CHECK(err.find("input is too large to process") != std::string::npos);
    // the compute buffer grows with -ub (one ubatch's graph)
    CHECK(e.compute_bytes > run("BAAI/bge-m3", {}).compute_bytes * 3);
}

TEST_CASE("embed: throughput and bad input", "[embed]") {
    EmbedRequest r;
    r.hardware = cat().find_hardware("rtx-4090");
    REQUIRE(r.hardware);
    const EmbedEstimate e = run("BAAI/bge-large-en-v1.5", r);
    REQUIRE(e.speed_ok);
    CHECK(e.docs_per_s == Approx(e.tokens_per_s / 512));
    CHECK(e.tokens_per_s > 1000);
    const EmbedEstimate big = run("Qwen/Qwen3-Embedding-8B", r);
    REQUIRE(big.speed_ok);
    CHECK(big.tokens_per_s < e.tokens_per_s);        // 7.6B vs 0.33B parameters per token
    std::string err;
    EmbedEstimate out;
    EmbedRequest longdoc;
    longdoc.doc_tokens = 1024;                       // BERT has 512 positions
    CHECK_FALSE(estimate_embedding(cat(), *find_embedding_model("BAAI/bge-large-en-v1.5"), longdoc, out, err));
    CHECK(err.find("1 to 512") != std::string::npos);
    EmbedRequest q4;
    q4.file_type = "Q4_K_M";
    CHECK_FALSE(estimate_embedding(cat(), *find_embedding_model("BAAI/bge-m3"), q4, out, err));
    CHECK(err.find("F32, F16, BF16 or Q8_0") != std::string::npos);
    CHECK(find_embedding_model("nobody/nothing") == nullptr);
}
