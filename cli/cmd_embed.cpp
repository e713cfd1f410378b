// llmsim-cli embed: embedding and reranker models (engine/embed/embed.h): weights, KV cache (decoders only),
// compute buffer, the -ub rule, tokens/s and documents/s at a batch, and the llama-server command.
#include <cstdio>

#include "api/api_extras.h"
#include "commands.h"
#include "core/units.h"
#include "embed/embed.h"
#include "rig/resolve_device.h"

namespace llmsim::cli {

namespace {

const char* kEmbedUsage =
    "usage: llmsim-cli embed --model ID [--hardware ID] [--quant F16] [--doc-tokens 512] [--batch 32] [--ubatch N]\n"
    "                        [--no-fa] [--json]      |      llmsim-cli embed --list\n"
    "Embedding and reranker models as llama-server --embedding / --reranking runs them: weights by type, no KV cache\n"
    "for the non-causal encoders (BERT, XLM-RoBERTa, jina-bert-v3), a normal one for decoder embedders (Qwen3-\n"
    "Embedding, gte-Qwen2), -ub >= one document's tokens, and tokens/s and documents/s for --batch documents of\n"
    "--doc-tokens tokens (speed model, physics). Encoders take F32, F16, BF16 or Q8_0.\n";

double mib(uint64_t b) { return (double)b / (double)kMiB; }

void print_embed(const EmbeddingModel& m, const EmbedRequest& r, const EmbedEstimate& e) {
    printf("%s (%s, %s, %s pooling, %s)\n  source: %s\n\n", m.id, m.kind, m.arch, m.pooling, m.causal ? "causal" : "bidirectional", m.source);
    printf("| part | MiB |\n|---|---:|\n");
    printf("| weights (%s, %.0fM params) | %.2f |\n", r.file_type.c_str(), e.params / 1e6, mib(e.weights_bytes));
    printf("| KV cache (%lld cells) | %.2f |\n", (long long)e.n_ctx, mib(e.kv_cache_bytes));
    printf("| compute buffer (-ub %lld) | %.2f |\n", (long long)e.n_ubatch, mib(e.compute_bytes));
    printf("| pooled outputs (%d x %s) | %.2f |\n", r.batch_docs, std::string(m.kind) == "reranker" ? "score" : "vector", mib(e.output_bytes));
    printf("| total | %.2f (%.2f GiB) |\n\n", mib(e.total_bytes), (double)e.total_bytes / (double)kGiB);
    printf("-ub and -b must be >= %lld (one document's tokens)\n", (long long)e.min_ubatch);
    if (e.speed_ok)
        printf("%d documents x %lld tokens: %.3f s per batch, %.0f tokens/s, %.1f documents/s (physics, not validated)\n",
               r.batch_docs, (long long)r.doc_tokens, e.batch_s, e.tokens_per_s, e.docs_per_s);
    else
        printf("throughput: pick --hardware\n");
    for (const std::string& w : e.warnings) printf("warning: %s\n", w.c_str());
    printf("\ncommand: %s\n", e.command.c_str());
}

}  // namespace

int cmd_embed(int argc, char** argv) {
    Args a = parse_args(argc, argv, {"help", "json", "no-fa", "list"});
    if (a.has("help")) { printf("%s", kEmbedUsage); return 0; }
    static const char* known[] = {"model", "hardware", "quant", "doc-tokens", "batch", "ubatch", "no-fa", "json", "list", "help"};
    for (const auto& kv : a.options) {
        bool ok = false;
        for (const char* k : known) ok |= kv.first == k;
        if (!ok) return fail("embed: unknown option --" + kv.first + " (try llmsim-cli embed --help)");
    }
    if (!a.positional.empty()) return fail("embed: unexpected argument '" + a.positional[0] + "'");
    if (a.has("list")) {
        int n = 0;
        const EmbeddingModel* ms = embedding_models(n);
        for (int i = 0; i < n; ++i)
            printf("  %-40s %-9s %-20s %2d x %-5d max %lld tokens\n", ms[i].id, ms[i].kind, ms[i].arch, ms[i].n_layer,
                   ms[i].n_embd, (long long)ms[i].max_tokens);
        return 0;
    }
    Catalog cat;
    if (!load_catalog(cat)) return 1;
    const std::string* mid = a.get("model");
    if (!mid) return fail("embed: --model ID is required (llmsim-cli embed --list)");
    const EmbeddingModel* m = find_embedding_model(*mid);
    if (!m) return fail("embed: unknown embedding model '" + *mid + "' (llmsim-cli embed --list)");
    EmbedRequest r;
    if (const std::string* hid = a.get("hardware")) {
        r.hardware = resolve_device(cat, *hid);
        if (!r.hardware) return fail("embed: unknown hardware '" + *hid + "' (llmsim-cli catalog --hardware lists them)");
    }
    if (const std::string* q = a.get("quant")) r.file_type = *q;
    double doc = 512, batch = 32, ub = 0;
    std::string err;
    if (!option_number(a, "embed", "doc-tokens", 1, 1e6, doc, err) || !option_number(a, "embed", "batch", 1, 4096, batch, err) ||
        !option_number(a, "embed", "ubatch", 0, 1 << 20, ub, err))
        return fail(err);
    r.doc_tokens = (int64_t)doc;
    r.batch_docs = (int)batch;
    r.n_ubatch = (int)ub;
    r.flash_attn = !a.has("no-fa");
    EmbedEstimate e;
    if (!estimate_embedding(cat, *m, r, e, err)) return fail("embed: " + err);
    if (a.has("json")) printf("%s\n", embed_to_json(*m, r, e).dump(2).c_str());
    else print_embed(*m, r, e);
    return 0;
}

}  // namespace llmsim::cli
