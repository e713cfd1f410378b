// Embedding and reranker models (embed.h has the rules and their llama.cpp sources).
//
// [SECTION] Table
// [SECTION] Weights
// [SECTION] Throughput
// [SECTION] Estimate
#include "embed/embed.h"

#include <algorithm>
#include <cmath>

#include "memory/memory.h"
#include "model/arch_table.h"
#include "model/model_tensors.h"
#include "quant/quant_types.h"
#include "runtime/command.h"
#include "memory/llama_server_args.h"
#include "sim/simulate.h"
#include "speed/speed.h"
#include "runtime/speed_glue.h"
#include "vision/vision.h"

namespace llmsim {

// [SECTION] Table ---------------------------------------------------------------------------------------------

namespace {

// config.json of each model as published on the Hugging Face Hub (fields: num_hidden_layers, hidden_size,
// intermediate_size, num_attention_heads, num_key_value_heads, vocab_size, max_position_embeddings,
// type_vocab_size); the XLM-RoBERTa-large shape (bge-m3, bge-reranker-v2-m3, jina-embeddings-v3's backbone) was
// checked in this session against copies of bge-m3's config.json found in public code; the others are as
// published, not re-read here
constexpr const char* kSrcXlmr = "config.json (XLMRobertaModel 24 x 1024, ffn 4096, 16 heads, vocab 250002, 8194 positions, type_vocab 1)";
constexpr const char* kSrcBert = "config.json (BertModel 24 x 1024, ffn 4096, 16 heads, vocab 30522, 512 positions, type_vocab 2)";
constexpr const char* kSrcQwen3 = "config.json (Qwen3 decoder; the embedding/reranker checkpoints keep the base model's shape)";
constexpr const char* kSrcQwen2 = "config.json (Qwen2 decoder; llama.cpp runs it causal although gte-Qwen2 trains bidirectional)";

const EmbeddingModel kModels[] = {
    {"BAAI/bge-m3", "embedding", "bert (XLM-RoBERTa)", false, 24, 1024, 4096, 16, 16, 64, 250002, 8192, 1, 8194, false, "cls", kSrcXlmr},
    {"BAAI/bge-large-en-v1.5", "embedding", "bert", false, 24, 1024, 4096, 16, 16, 64, 30522, 512, 2, 512, false, "cls", kSrcBert},
    {"intfloat/e5-large-v2", "embedding", "bert", false, 24, 1024, 4096, 16, 16, 64, 30522, 512, 2, 512, false, "mean", kSrcBert},
    {"thenlper/gte-large", "embedding", "bert", false, 24, 1024, 4096, 16, 16, 64, 30522, 512, 2, 512, false, "mean", kSrcBert},
    {"jinaai/jina-embeddings-v3", "embedding", "jina-bert-v3", false, 24, 1024, 4096, 16, 16, 64, 250002, 8192, 1, 0, false, "mean",
     "config.json (XLM-RoBERTa backbone with RoPE, 24 x 1024, ffn 4096; the task LoRA adapters are not counted)"},
    {"BAAI/bge-reranker-v2-m3", "reranker", "bert (XLM-RoBERTa)", false, 24, 1024, 4096, 16, 16, 64, 250002, 8192, 1, 8194, false, "rank",
     "config.json (XLMRobertaForSequenceClassification 24 x 1024, one label)"},
    {"Qwen/Qwen3-Embedding-0.6B", "embedding", "qwen3", true, 28, 1024, 3072, 16, 8, 128, 151669, 32768, 0, 0, true, "last", kSrcQwen3},
    {"Qwen/Qwen3-Embedding-4B", "embedding", "qwen3", true, 36, 2560, 9728, 32, 8, 128, 151665, 32768, 0, 0, true, "last", kSrcQwen3},
    {"Qwen/Qwen3-Embedding-8B", "embedding", "qwen3", true, 36, 4096, 12288, 32, 8, 128, 151665, 32768, 0, 0, true, "last", kSrcQwen3},
    {"Qwen/Qwen3-Reranker-0.6B", "reranker", "qwen3", true, 28, 1024, 3072, 16, 8, 128, 151669, 32768, 0, 0, true, "rank", kSrcQwen3},
    {"Qwen/Qwen3-Reranker-4B", "reranker", "qwen3", true, 36, 2560, 9728, 32, 8, 128, 151665, 32768, 0, 0, true, "rank", kSrcQwen3},
    {"Qwen/Qwen3-Reranker-8B", "reranker", "qwen3", true, 36, 4096, 12288, 32, 8, 128, 151665, 32768, 0, 0, true, "rank", kSrcQwen3},
    {"Alibaba-NLP/gte-Qwen2-1.5B-instruct", "embedding", "qwen2", true, 28, 1536, 8960, 12, 2, 128, 151646, 32768, 0, 0, true, "last", kSrcQwen2},
    {"Alibaba-NLP/gte-Qwen2-7B-instruct", "embedding", "qwen2", true, 28, 3584, 18944, 28, 4, 128, 151646, 32768, 0, 0, true, "last", kSrcQwen2},
};

}  // namespace

const EmbeddingModel* embedding_models(int& count) {
    count = (int)(sizeof kModels / sizeof kModels[0]);
    return kModels;
}

const EmbeddingModel* find_embedding_model(const std::string& id) {
    for (const EmbeddingModel& m : kModels)
        if (id == m.id) return &m;
    return nullptr;
}

// [SECTION] Weights ---------------------------------------------------------------------------------------------

namespace {

bool is_reranker(const EmbeddingModel& m) { return std::string(m.kind) == "reranker"; }

// a decoder embedder as a catalog-style Model (no output matrix: embedding checkpoints drop the LM head, so the
// tied layout is the one without one); rerankers' 2-row classifier head is negligible and not counted
Model decoder_model(const EmbeddingModel& e) {
    Model m;
    m.id = e.id;
    m.name = e.id;
    m.arch = e.arch;
    m.n_layers = e.n_layer;
    m.hidden_size = e.n_embd;
    m.intermediate_size = e.n_ff;
    m.n_heads = e.n_head;
    m.n_kv_heads = e.n_kv_head;
    m.head_dim = e.head_dim;
    m.vocab_size = e.vocab;
    m.tie_embeddings = true;
    // q/k/v bias (Qwen2) and q/k norms (Qwen3) are the architecture's defaults, as in a config.json import
    if (const HfModelType* t = find_hf_model_type(e.arch)) { m.qkv_bias = t->qkv_bias; m.qk_norm = t->qk_norm; }
    m.gated_ffn = e.gated_ffn;
    m.native_context = e.max_tokens;
    return m;
}

struct EncoderParams {
    int64_t matrix = 0, vector = 0;   // 2-D (at the file type) and 1-D (F32) elements
};

// BERT / XLM-RoBERTa / jina-bert-v3 tensors as llama.cpp's converter writes them (the pooler is dropped)
EncoderParams encoder_params(const EmbeddingModel& e) {
    const int64_t H = e.n_embd, F = e.n_ff;
    EncoderParams p;
    p.matrix = e.vocab * H + e.pos_rows * H + (int64_t)e.type_vocab * H;
    p.vector = 2 * H;                                           // embedding LayerNorm
    p.matrix += e.n_layer * (4 * H * H + 2 * H * F);
    p.vector += e.n_layer * (4 * H + F + H + 4 * H);            // q k v o biases, ffn biases, two LayerNorms
    if (is_reranker(e)) { p.matrix += H * H + H; p.vector += H + 1; }   // classifier dense + out
    return p;
}

}  // namespace

// [SECTION] Throughput ------------------------------------------------------------------------------------------

namespace {

// the batch through the speed model's prefill on req.hardware: hardware terms from a proxy evaluation, the model
// terms replaced by the embedder's; each document attends only within itself (a window of its length, half for
// causal models), so a batch of short documents does not pay a quadratic over the whole batch
bool batch_time(const Catalog& cat, const EmbeddingModel& e, const EmbedRequest& req, const EmbedEstimate& est,
                double& time_s, std::string& err) {
    Model proxy = decoder_model(e);
    if (!e.causal) { proxy.arch = "qwen2"; proxy.n_kv_heads = e.n_head; proxy.qk_norm = false; }
    SimRequest sr;
    sr.memory.hardware = req.hardware;
    sr.memory.file_type = req.file_type == "F32" || req.file_type == "BF16" ? std::string("F16") : req.file_type;
    sr.memory.n_ctx = std::max<int64_t>(est.n_ctx, 256);
    sr.memory.flash_attn = req.flash_attn;
    sr.with_speed = false;
    Evaluation ev;
    SpeedScenario s;
    if (!evaluate(cat, proxy, sr, ev, err) || !build_speed_scenario(proxy, sr, ev, s, err)) return false;
    const int64_t H = e.n_embd;
    s.weight_bytes = s.weight_bytes_per_token = (double)est.weights_bytes;
    // matmul parameters per token: q and o (heads x head_dim), k and v (kv heads x head_dim), the FFN
    const double attn = 2.0 * H * e.n_head * e.head_dim + 2.0 * H * e.n_kv_head * e.head_dim;
    s.active_params = (double)e.n_layer * (attn + (e.gated_ffn ? 3.0 : 2.0) * H * e.n_ff);
    s.n_layers = e.n_layer;
    s.n_heads = e.n_head;
    s.head_dim_qk = s.head_dim_v = e.head_dim;
    s.full_attn_layers = 0;
    s.swa_layers = e.n_layer;
    s.swa_window = std::max<int64_t>(1, e.causal ? req.doc_tokens / 2 : req.doc_tokens);
    s.kv_bytes_per_token_full = s.kv_bytes_per_token_swa = 0;
    s.moe_experts = s.moe_experts_active = 0;
    s.moe_expert_bytes = 0;
    s.offload_fraction = 0;
    s.ubatch = (int)std::min<int64_t>(est.n_ubatch, 1 << 20);
    s.batch = (int)std::min<int64_t>(est.n_ctx, 1 << 24);
    const SpeedResult r = estimate_prefill(s, default_speed_params(), (int64_t)req.batch_docs * req.doc_tokens, 0);
    if (!r.ok) { err = r.error; return false; }
    time_s = r.time_s;
    return true;
}

bool check_request(const EmbeddingModel& m, const EmbedRequest& r, std::string& err) {
    if (r.doc_tokens < 1 || r.doc_tokens > m.max_tokens) {
        err = "doc-tokens: must be 1 to " + std::to_string(m.max_tokens) + " (" + m.id + "'s positions)";
        return false;
    }
    if (r.batch_docs < 1 || r.batch_docs > 4096) { err = "batch: must be 1 to 4096 documents"; return false; }
    if (r.n_ubatch < 0 || r.n_ubatch > (1 << 20)) { err = "ubatch: must be 0 (auto) to 1048576 tokens"; return false; }
    if (r.n_ubatch > 0 && r.n_ubatch < r.doc_tokens) {
        err = "ubatch: -ub " + std::to_string(r.n_ubatch) + " is below one document's " + std::to_string(r.doc_tokens) +
              " tokens; llama-server refuses it (\"input is too large to process. increase the physical batch size\")";
        return false;
    }
    return true;
}

}  // namespace

// [SECTION] Estimate --------------------------------------------------------------------------------------------

bool estimate_embedding(const Catalog& cat, const EmbeddingModel& m, const EmbedRequest& req, EmbedEstimate& out,
                        std::string& err) {
    out = EmbedEstimate();
    if (!check_request(m, req, err)) return false;
    out.min_ubatch = req.doc_tokens;
    out.n_ubatch = req.n_ubatch > 0 ? req.n_ubatch : std::max<int64_t>(512, req.doc_tokens);
    out.n_ctx = (int64_t)req.batch_docs * req.doc_tokens;
    if (m.causal) {
        MemoryRequest mr;
        mr.hardware = req.hardware;
        mr.file_type = req.file_type;
        mr.n_ctx = out.n_ctx;
        mr.n_parallel = req.batch_docs;
        mr.n_ubatch = (int)out.n_ubatch;
        mr.n_batch = (int)std::max<int64_t>(out.n_ubatch, std::min<int64_t>(out.n_ctx, 1 << 30));
        mr.flash_attn = req.flash_attn;
        MemoryBreakdown mb;
        std::string e;
        if (!estimate_memory(cat, decoder_model(m), mr, mb, e)) { err = e; return false; }
        ParamCounts pc;
        if (count_params(decoder_model(m), pc, e)) out.params = (int64_t)pc.total;
        out.weights_bytes = mb.weights_bytes;
        out.kv_cache_bytes = mb.kv_cache_bytes;
        out.compute_bytes = mb.compute_bytes;
    } else {
        const std::optional<TensorType> t = parse_tensor_type(req.file_type);
        if (!t || (*t != TensorType::F32 && *t != TensorType::F16 && *t != TensorType::BF16 && *t != TensorType::Q8_0)) {
            err = "quant: " + req.file_type + " is not offered for " + m.id + " (F32, F16, BF16 or Q8_0)";
            return false;
        }
        const TensorTypeInfo& ti = tensor_type_info(*t);
        const EncoderParams p = encoder_params(m);
        out.params = p.matrix + p.vector;
        out.weights_bytes = (uint64_t)((double)p.matrix * ti.type_size / ti.block_size) + (uint64_t)p.vector * 4;
        out.compute_bytes = transformer_graph_peak_bytes(out.n_ubatch, m.n_embd, m.n_ff, m.gated_ffn, m.n_head,
                                                         out.n_ubatch, req.flash_attn);
    }
    out.output_bytes = (uint64_t)req.batch_docs * (is_reranker(m) ? 1 : m.n_embd) * 4;
    out.total_bytes = out.weights_bytes + out.kv_cache_bytes + out.compute_bytes + out.output_bytes;
    const std::string file = gguf_file_name(decoder_model(m), req.file_type);
    LlamaServerArgs server = LlamaServerArgs::file(file);
    if (is_reranker(m)) server.flag("--reranking");
    else server.flag("--embedding").option("--pooling", m.pooling);
    server.ctx(out.n_ctx).parallel(req.batch_docs).batch(std::max<int64_t>(out.n_ubatch, 2048)).ubatch(out.n_ubatch).gpu_layers(-1);
    out.command = server.str();
    if (!m.causal && req.doc_tokens > 512 && req.n_ubatch == 0)
        out.warnings.push_back("-ub raised to " + std::to_string(out.n_ubatch) + ": an encoder needs a whole input in one ubatch");
    if (req.hardware) {
        std::string e;
        out.speed_ok = batch_time(cat, m, req, out, out.batch_s, e) && out.batch_s > 0;
        if (out.speed_ok) {
            out.tokens_per_s = (double)req.batch_docs * req.doc_tokens / out.batch_s;
            out.docs_per_s = req.batch_docs / out.batch_s;
        } else {
            out.warnings.push_back("no throughput: " + e);
        }
    }
    return true;
}

}  // namespace llmsim
