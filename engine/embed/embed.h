// Embedding and reranker models (RAG users size them next to the chat model), as llama.cpp runs them.
//
// Memory rules (ggml-org/llama.cpp, src/llama-model.cpp and tools/server/server.cpp):
//   - weights: every 2-D tensor at the file's type, 1-D norms/biases F32 (BERT-family files are F32/F16/BF16/Q8_0
//     here); decoder embedders (Qwen3-Embedding, gte-Qwen2) go through the catalog's own memory model (estimate_memory)
//     as a decoder without an output matrix;
//   - KV cache: none for the non-causal encoders (llama_model::create_memory returns no memory for LLM_ARCH_BERT,
//     JINA_BERT_V3, ...); decoder embedders keep a normal KV cache of -c cells;
//   - -ub: llama-server refuses an embedding/rerank input longer than the physical batch ("input is too large to
//     process. increase the physical batch size"), and a non-causal encoder needs the whole sequence in one ubatch,
//     so -ub and -b must be >= the longest input's tokens; -c = documents per batch x tokens per document;
//   - compute buffer: one ubatch's graph (transformer_graph_peak_bytes, the clip rule in vision.h).
// Throughput: the encoder's matmul FLOPs and attention within each document through the speed model's prefill
// rate on the device (estimate_prefill; documents attend only within themselves, counted as a window of the
// document's length, half of it for causal models). Physics, not validated against a measurement.
//
//   const llmsim::EmbeddingModel* m = llmsim::find_embedding_model("BAAI/bge-m3");
//   llmsim::EmbedRequest r; r.hardware = cat.find_hardware("rtx-4090"); r.doc_tokens = 512; r.batch_docs = 32;
//   llmsim::EmbedEstimate e; std::string err;
//   if (llmsim::estimate_embedding(cat, *m, r, e, err)) printf("%.0f docs/s\n", e.docs_per_s);
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "catalog/catalog.h"

namespace llmsim {

struct EmbeddingModel {
    const char* id;                    // Hugging Face id
    const char* kind;                  // "embedding" or "reranker"
    const char* arch;                  // llama.cpp architecture (bert, xlm-roberta via bert, jina-bert-v3, qwen2, qwen3)
    bool causal;                       // decoder embedder (last-token pooling, KV cache) vs bidirectional encoder
    int n_layer, n_embd, n_ff, n_head, n_kv_head, head_dim;
    int64_t vocab;
    int64_t max_tokens;                // max_position_embeddings usable for one input
    int type_vocab;                    // BERT token-type rows (0 = none)
    int64_t pos_rows;                  // learned position table rows (BERT 512, XLM-R 8194 = 8192 + 2 padding); 0 = RoPE
    bool gated_ffn;                    // SwiGLU (Qwen) vs GELU (BERT)
    const char* pooling;               // llama.cpp --pooling: cls, mean, last, rank
    const char* source;                // config source
};

// the table (popular embedding and reranker models); count set to its length
const EmbeddingModel* embedding_models(int& count);
// a row by id (case-sensitive), nullptr when not in the table
const EmbeddingModel* find_embedding_model(const std::string& id);

struct EmbedRequest {
    const Hardware* hardware = nullptr;   // nullptr: memory only
    std::string file_type = "F16";        // the GGUF's type (encoders: F32, F16, BF16, Q8_0)
    int64_t doc_tokens = 512;             // tokens per document (query + document for rerankers)
    int batch_docs = 32;                  // documents embedded together (sequences in one batch)
    int n_ubatch = 0;                     // -ub; 0 = the smallest that works (max(512, doc_tokens))
    bool flash_attn = true;
};

struct EmbedEstimate {
    int64_t params = 0;
    uint64_t weights_bytes = 0;
    uint64_t kv_cache_bytes = 0;          // 0 for encoders
    uint64_t compute_bytes = 0;           // one ubatch's graph
    uint64_t output_bytes = 0;            // the pooled embeddings (f32) of a batch
    uint64_t total_bytes = 0;
    int64_t n_ctx = 0;                    // -c
    int64_t n_ubatch = 0;                 // -ub used
    int64_t min_ubatch = 0;               // the smallest -ub (and -b) llama-server accepts for these inputs
    bool speed_ok = false;
    double tokens_per_s = 0;              // input tokens embedded per second at this batch
    double docs_per_s = 0;
    double batch_s = 0;                   // one batch of batch_docs documents
    std::string command;                  // llama-server --embedding|--reranking ...
    std::vector<std::string> warnings;
};

// memory and throughput of `m` for req; false + err on bad input (a document longer than the model's positions,
// an -ub below one document, an unsupported file type)
bool estimate_embedding(const Catalog& cat, const EmbeddingModel& m, const EmbedRequest& req, EmbedEstimate& out,
                        std::string& err);

}  // namespace llmsim
