// llmsim prepared weights: see prepared_weights.h.
//
// [SECTION] Model hash
// [SECTION] Build
// [SECTION] Cache
#include "memory/prepared_weights.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <mutex>
#include <unordered_map>

#include "memory/memory.h"
#include "quant/quant_types.h"

namespace llmsim {

// [SECTION] Model hash -----------------------------------------------------------------------------------
// The cache is looked up on every estimate, so the key must be cheap: the numeric fields are packed into a small
// array (no allocation) and hashed with four independent multiply-rotate lanes; a hit is then confirmed by
// comparing the packed fields and the strings/lists byte for byte, so a hash collision can never serve the
// weights of another model.

namespace {

constexpr size_t kMaxKeyWords = 48;

// every Model field the weights, KV cache and memory arithmetic read, except strings and lists
struct ModelKey {
    int64_t w[kMaxKeyWords];
    size_t n = 0;
    void add(int64_t v) { w[n++] = v; }
};

void make_model_key(const Model& m, ModelKey& k) {
    k.n = 0;
    k.add(m.n_layers);
    k.add(m.hidden_size);
    k.add(m.intermediate_size);
    k.add(m.n_heads);
    k.add(m.n_kv_heads);
    k.add(m.head_dim);
    k.add(m.head_dim_v);
    k.add(m.vocab_size);
    k.add((int64_t)m.tie_embeddings | (int64_t)m.qkv_bias << 1 | (int64_t)m.qk_norm << 2 | (int64_t)m.gated_ffn << 3 |
          (int64_t)m.moe.has_value() << 4 | (int64_t)m.mla.has_value() << 5 | (int64_t)m.swa.has_value() << 6 |
          (int64_t)m.hybrid.has_value() << 7);
    k.add(m.native_context);
    k.add(m.extended_context);
    k.add((int64_t)m.id.size());
    k.add((int64_t)m.arch.size());
    k.add((int64_t)m.rope_scaling.size());
    if (m.moe) {
        const MoeConfig& e = *m.moe;
        k.add(e.n_experts);
        k.add(e.n_experts_active);
        k.add(e.n_shared_experts);
        k.add(e.expert_ffn);
        k.add(e.shared_ffn);
        k.add(e.first_dense_layers);
        k.add(e.layer_step);
        k.add(e.router_bias);
    }
    if (m.mla) {
        const MlaConfig& a = *m.mla;
        k.add(a.q_lora_rank);
        k.add(a.kv_lora_rank);
        k.add(a.qk_rope_head_dim);
        k.add(a.qk_nope_head_dim);
        k.add(a.v_head_dim);
    }
    if (m.swa) {
        k.add(m.swa->window);
        k.add(m.swa->pattern);
        k.add((int64_t)m.swa->sliding_layers.size());
    }
    if (m.hybrid) {
        k.add((int64_t)m.hybrid->recurrent_type.size());
        k.add((int64_t)m.hybrid->attention_layers.size());
        k.add(m.hybrid->ssm_state_bytes_per_layer);
        k.add(m.hybrid->recurrent_layer_params);
    }
}

// four multiply-rotate lanes (independent, so ~1 cycle per word) and a splitmix64 finaliser
struct LaneHasher {
    uint64_t l[4] = {0x9E3779B97F4A7C15ull, 0xC2B2AE3D27D4EB4Full, 0x165667B19E3779F9ull, 0x27D4EB2F165667C5ull};
    size_t i = 0;
    static uint64_t rotl(uint64_t x, int r) { return (x << r) | (x >> (64 - r)); }
    void add(uint64_t v) {
        uint64_t& h = l[i++ & 3];
        h = rotl((h ^ v) * 0x9FB21C651E98DF25ull, 29);
    }
    void add_bytes(const std::string& s) {
        size_t j = 0;
        for (; j + 8 <= s.size(); j += 8) {
            uint64_t x;
            std::memcpy(&x, s.data() + j, 8);
            add(x);
        }
        uint64_t tail = 0;
        std::memcpy(&tail, s.data() + j, s.size() - j);
        add(tail ^ (uint64_t)s.size() << 56);
    }
    uint64_t finish() const {
        uint64_t z = l[0] ^ rotl(l[1], 17) ^ rotl(l[2], 31) ^ rotl(l[3], 47);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return z ^ (z >> 31);
    }
};

// GCC cannot see that make_model_key() wrote the first k.n words (the rest stay unwritten on purpose: zeroing
// the array on every lookup costs more than hashing it)
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
uint64_t hash_model_key(const Model& m, const ModelKey& k) {
    LaneHasher h;
    // four words per step in registers (the lane array would otherwise round-trip through the stack)
    uint64_t a = h.l[0], b = h.l[1], c = h.l[2], d = h.l[3];
    size_t i = 0;
    constexpr uint64_t K = 0x9FB21C651E98DF25ull;
    for (; i + 4 <= k.n; i += 4) {
        a = LaneHasher::rotl((a ^ (uint64_t)k.w[i]) * K, 29);
        b = LaneHasher::rotl((b ^ (uint64_t)k.w[i + 1]) * K, 29);
        c = LaneHasher::rotl((c ^ (uint64_t)k.w[i + 2]) * K, 29);
        d = LaneHasher::rotl((d ^ (uint64_t)k.w[i + 3]) * K, 29);
    }
    h.l[0] = a; h.l[1] = b; h.l[2] = c; h.l[3] = d;
    for (; i < k.n; ++i) h.add((uint64_t)k.w[i]);
    h.add_bytes(m.id);  // error messages name the model; arch, rope_scaling and the lists are compared on a hit
    return h.finish();
}
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

}  // namespace

uint64_t model_hash(const Model& m) {
    ModelKey k;
    make_model_key(m, k);
    LaneHasher h;
    for (size_t i = 0; i < k.n; ++i) h.add((uint64_t)k.w[i]);
    h.add_bytes(m.id);
    h.add_bytes(m.arch);
    h.add_bytes(m.rope_scaling);
    if (m.swa) for (int x : m.swa->sliding_layers) h.add((uint64_t)x);
    if (m.hybrid) {
        h.add_bytes(m.hybrid->recurrent_type);
        for (int x : m.hybrid->attention_layers) h.add((uint64_t)x);
    }
    return h.finish();
}

// [SECTION] Build ----------------------------------------------------------------------------------------

namespace {

// the bytes a decoded token reads (formerly simulate.cpp's active_weight_bytes): every tensor once, except routed
// experts (only k of E are read) and the token-embedding table (one row per token); fills p's parameter counts
// scale per-tensor bytes from the rules' total `rules_total` to `exact_total`, the rounding remainder going to the
// largest tensor, so the sum is exactly the file's (a Hub lookup read it from the header)
void scale_to_exact_sum(std::vector<uint64_t>& bytes, uint64_t exact_total, uint64_t rules_total) {
    const double s = (double)exact_total / (double)rules_total;
    uint64_t sum = 0;
    size_t largest = 0;
    for (size_t i = 0; i < bytes.size(); ++i) {
        bytes[i] = (uint64_t)((double)bytes[i] * s + 0.5);
        sum += bytes[i];
        if (bytes[i] > bytes[largest]) largest = i;
    }
    if (bytes.empty()) return;
    if (sum <= exact_total) bytes[largest] += exact_total - sum;
    else bytes[largest] -= std::min(bytes[largest], sum - exact_total);
}

uint64_t prepare_active_bytes(const Model& m, const WeightSize& ws, const std::vector<TensorDesc>& ts,
                              uint64_t file_bytes_override, PreparedWeights* p) {
    count_params(m, ts, p->params);
    for (size_t i = 0; i < ws.tensors.size() && i < ws.bytes.size(); ++i) {
        if (ws.tensors[i].name == "token_embd.weight") p->gguf_token_embd_bytes += ws.bytes[i];
        if (ws.tensors[i].routed_expert) p->gguf_routed_expert_bytes += ws.bytes[i];
    }
    uint64_t active = 0;
    if (ws.bytes.empty() || ws.tensors.empty()) {   // flat-bpw formats (GGUF and MLX names have bytes per tensor)
        const double bytes_per_param = ws.params > 0 ? (double)ws.tensor_data_bytes / (double)ws.params : 0;
        const double act = (double)p->params.active - (double)p->params.embedding;
        active = (uint64_t)std::llround(std::max(0.0, act) * bytes_per_param);
    } else {
        double total = 0;
        const double expert_fraction = m.is_moe() && m.moe->n_experts > 0
                                           ? (double)m.moe->n_experts_active / (double)m.moe->n_experts : 1.0;
        double embd = 0;
        for (size_t i = 0; i < ws.tensors.size(); ++i) {
            const TensorDesc& t = ws.tensors[i];
            if (t.name == "token_embd.weight") { embd += (double)ws.bytes[i]; continue; }
            const double b = (double)ws.bytes[i];
            total += t.routed_expert ? b * expert_fraction : b;
        }
        // a tied output reads the embedding matrix once per token as the output projection
        if (m.tie_embeddings) total += embd;
        active = (uint64_t)std::llround(total);
    }
    if (file_bytes_override > 0 && ws.tensor_data_bytes > 0)
        active = (uint64_t)std::llround((double)active * (double)file_bytes_override / (double)ws.file_bytes_estimate);
    return active;

}

// the layer structure the KV cache and compute buffers need (memory.cpp estimate_kv_cache /
// estimate_compute_buffer, per layer -> counts)
void prepare_layer_structure(const Model& m, PreparedWeights* p) {
    const int L = m.n_layers;
    p->full_layers_prefix.assign((size_t)L + 1, 0);
    p->swa_layers_prefix.assign((size_t)L + 1, 0);
    p->recurrent_layers_prefix.assign((size_t)L + 1, 0);
    for (int il = 0; il < L; ++il) {
        const size_t i = (size_t)il;
        const bool attn = layer_has_attention(m, il);
        const bool swa = attn && layer_is_swa(m, il);
        p->full_layers_prefix[i + 1] = p->full_layers_prefix[i] + (attn && !swa ? 1 : 0);
        p->swa_layers_prefix[i + 1] = p->swa_layers_prefix[i] + (swa ? 1 : 0);
        p->recurrent_layers_prefix[i + 1] = p->recurrent_layers_prefix[i] + (attn ? 0 : 1);
        if (attn) (swa ? p->has_swa : p->has_full_attention) = true;
        p->ffn_bytes_per_token_max = std::max(p->ffn_bytes_per_token_max, ffn_phase_floats_per_token(m, il));
    }
    p->kv_k_row = kv_k_row(m);
    p->kv_v_row = kv_v_row(m);
    if (m.hybrid) {
        p->state_bytes_per_seq = m.hybrid->ssm_state_bytes_per_layer > 0 ? (uint64_t)m.hybrid->ssm_state_bytes_per_layer
                                                                         : default_state_bytes(m);
    }
}

}  // namespace

std::shared_ptr<const PreparedWeights> build_prepared_weights(const Catalog& cat, const Model& m,
                                                              const std::string& file_type, std::string& err,
                                                              uint64_t file_bytes_override, const QuantOptions& opt) {
    WeightSize ws;
    if (!compute_weight_size(m, file_type, ws, err, &cat, opt)) return nullptr;
    auto p = std::make_shared<PreparedWeights>();
    p->model_hash = model_hash(m);
    p->file_type = file_type;
    p->weight_class = weight_class_of(file_type);
    p->file_bytes_override = file_bytes_override;
    p->imatrix = opt.imatrix;
    p->exact_tensor_data_bytes = opt.exact_tensor_data_bytes;
    p->gguf = ws.gguf;
    p->flat_bpw = ws.bytes.empty() ? ws.bits_per_weight : 0.0;   // only catalog flat-bpw formats
    p->tensor_data_bytes = ws.tensor_data_bytes;
    p->file_bytes_estimate = ws.file_bytes_estimate;
    p->bits_per_weight = ws.bits_per_weight;
    p->tied_output = m.tie_embeddings;
    if (opt.exact_tensor_data_bytes > 0 && ws.tensor_data_bytes > 0) {  // the file's own bytes, not the rules'
        p->tensor_data_bytes = opt.exact_tensor_data_bytes;
        p->file_bytes_estimate = ws.file_bytes_estimate - ws.tensor_data_bytes + opt.exact_tensor_data_bytes;
        p->bits_per_weight = ws.params > 0 ? 8.0 * (double)opt.exact_tensor_data_bytes / (double)ws.params : 0.0;
    }

    // bytes per tensor as the placement sees them (same arithmetic as memory_reference.cpp's prepare())
    std::vector<TensorDesc> flat_tensors;
    std::vector<uint64_t> bytes;
    const bool per_tensor = !ws.bytes.empty();   // GGUF rules and the MLX names (mlx_quant.h) size every tensor
    if (per_tensor) {
        bytes = ws.bytes;
    } else {
        // flat-bpw formats: spread the bytes over the tensors in proportion to their parameters (for placement)
        if (!enumerate_tensors(m, flat_tensors, err)) return nullptr;
        const double bpw = ws.bits_per_weight;
        bytes.reserve(flat_tensors.size());
        for (const TensorDesc& t : flat_tensors) bytes.push_back((uint64_t)((double)t.n_elements() * bpw / 8.0 + 0.5));
    }
    const std::vector<TensorDesc>& ts = per_tensor ? ws.tensors : flat_tensors;
    if (opt.exact_tensor_data_bytes > 0 && ws.tensor_data_bytes > 0) {
        scale_to_exact_sum(bytes, opt.exact_tensor_data_bytes, ws.tensor_data_bytes);
    } else if (file_bytes_override > 0 && ws.file_bytes_estimate > 0) {
        const double s = (double)file_bytes_override / (double)ws.file_bytes_estimate;
        for (uint64_t& b : bytes) b = (uint64_t)((double)b * s + 0.5);
    }

    const int L = m.n_layers;
    p->n_layers = L;
    std::vector<uint64_t> layer((size_t)L, 0), expert((size_t)L, 0), layer_max((size_t)L, 0), expert_max((size_t)L, 0);
    for (size_t i = 0; i < ts.size(); ++i) {
        const TensorDesc& t = ts[i];
        const uint64_t b = bytes[i];
        p->weights_bytes += b;
        if (t.name == "token_embd.weight") p->token_embd_bytes += b;
        else if (t.layer < 0) (t.name == "output.weight" ? p->output_bytes : p->output_other_bytes) += b;
        else {
            const size_t il = (size_t)t.layer;
            layer[il] += b;
            layer_max[il] = std::max(layer_max[il], b);
            if (t.routed_expert) {
                expert[il] += b;
                expert_max[il] = std::max(expert_max[il], b);
            }
        }
    }
    p->layer_bytes_prefix.assign((size_t)L + 1, 0);
    p->expert_bytes_prefix.assign((size_t)L + 1, 0);
    p->layer_max_tensor_prefix.assign((size_t)L + 1, 0);
    p->expert_max_tensor_prefix.assign((size_t)L + 1, 0);
    for (size_t il = 0; il < (size_t)L; ++il) {
        p->layer_bytes_prefix[il + 1] = p->layer_bytes_prefix[il] + layer[il];
        p->expert_bytes_prefix[il + 1] = p->expert_bytes_prefix[il] + expert[il];
        p->layer_max_tensor_prefix[il + 1] = std::max(p->layer_max_tensor_prefix[il], layer_max[il]);
        p->expert_max_tensor_prefix[il + 1] = std::max(p->expert_max_tensor_prefix[il], expert_max[il]);
    }

    p->active_weight_bytes = prepare_active_bytes(m, ws, ts, file_bytes_override, p.get());
    if (opt.exact_tensor_data_bytes > 0 && ws.tensor_data_bytes > 0)  // the same scale as the tensors' bytes
        p->active_weight_bytes = (uint64_t)std::llround((double)p->active_weight_bytes *
                                                        (double)opt.exact_tensor_data_bytes / (double)ws.tensor_data_bytes);
    prepare_layer_structure(m, p.get());
    return p;
}

// [SECTION] Cache ----------------------------------------------------------------------------------------
// One process-wide LRU map (the engine has no state object the CLI, the UI and the JS API all share); a mutex
// because native callers may evaluate from several threads. A hit costs packing and hashing the model's fields,
// one map lookup and a byte comparison of the stored fields.

namespace {

struct CacheEntry {
    std::shared_ptr<const PreparedWeights> value;
    uint64_t last_use = 0;
    // the model fields the entry was built from (verified on every hit)
    std::vector<int64_t> key_words;
    std::string id, arch, rope_scaling, recurrent_type;
    std::vector<int> sliding_layers, attention_layers;
};

struct Cache {
    std::mutex mutex;
    std::unordered_map<uint64_t, CacheEntry> map;
    uint64_t tick = 0;
    PreparedWeightsCacheStats stats;
};

Cache g_cache;

uint64_t cache_key(uint64_t mh, const std::string& file_type, uint64_t override_bytes, bool imatrix, uint64_t exact_bytes) {
    LaneHasher h;
    h.add(mh);
    h.add_bytes(file_type);
    h.add(override_bytes ^ ((uint64_t)imatrix << 63));
    if (exact_bytes) h.add(exact_bytes);
    return h.finish();
}

const std::vector<int> kNoLayers;
const std::vector<int>& sliding_of(const Model& m) { return m.swa ? m.swa->sliding_layers : kNoLayers; }
const std::vector<int>& attention_of(const Model& m) { return m.hybrid ? m.hybrid->attention_layers : kNoLayers; }

bool entry_matches(const CacheEntry& e, const Catalog& cat, const Model& m, const ModelKey& k,
                   const std::string& file_type, uint64_t override_bytes, const QuantOptions& opt) {
    const PreparedWeights& w = *e.value;
    if (w.file_bytes_override != override_bytes || w.imatrix != opt.imatrix || w.file_type != file_type) return false;
    if (w.exact_tensor_data_bytes != opt.exact_tensor_data_bytes) return false;
    if (e.key_words.size() != k.n || std::memcmp(e.key_words.data(), k.w, k.n * sizeof(int64_t)) != 0) return false;
    if (e.id != m.id || e.arch != m.arch || e.rope_scaling != m.rope_scaling) return false;
    if (e.sliding_layers != sliding_of(m) || e.attention_layers != attention_of(m)) return false;
    if (m.hybrid && e.recurrent_type != m.hybrid->recurrent_type) return false;
    if (w.flat_bpw > 0) {
        // non-GGUF formats read flat_bpw from the catalog: an edited catalog must not serve stale bytes
        const FileType* f = cat.find_file_type(file_type);
        if (!f || f->gguf || f->flat_bpw != w.flat_bpw) return false;
    }
    return true;
}

}  // namespace

std::shared_ptr<const PreparedWeights> prepare_weights(const Catalog& cat, const Model& m, const std::string& file_type,
                                                       std::string& err, uint64_t file_bytes_override,
                                                       const QuantOptions& opt) {
    ModelKey k;
    make_model_key(m, k);
    const uint64_t key = cache_key(hash_model_key(m, k), file_type, file_bytes_override, opt.imatrix, opt.exact_tensor_data_bytes);
    {
        std::lock_guard<std::mutex> lock(g_cache.mutex);
        auto it = g_cache.map.find(key);
        if (it != g_cache.map.end() && entry_matches(it->second, cat, m, k, file_type, file_bytes_override, opt)) {
            it->second.last_use = ++g_cache.tick;
            ++g_cache.stats.hits;
            return it->second.value;
        }
        ++g_cache.stats.misses;
    }
    // build outside the lock; failures are not cached (their messages may depend on the catalog)
    std::shared_ptr<const PreparedWeights> p = build_prepared_weights(cat, m, file_type, err, file_bytes_override, opt);
    if (!p) return nullptr;
    std::lock_guard<std::mutex> lock(g_cache.mutex);
    if (g_cache.map.size() >= kPreparedWeightsCacheSize && g_cache.map.find(key) == g_cache.map.end()) {
        auto oldest = g_cache.map.begin();
        for (auto it = g_cache.map.begin(); it != g_cache.map.end(); ++it)
            if (it->second.last_use < oldest->second.last_use) oldest = it;
        g_cache.map.erase(oldest);
    }
    CacheEntry& e = g_cache.map[key];  // a colliding key (different model) is replaced
    e.value = p;
    e.last_use = ++g_cache.tick;
    e.key_words.assign(k.w, k.w + k.n);
    e.id = m.id;
    e.arch = m.arch;
    e.rope_scaling = m.rope_scaling;
    e.recurrent_type = m.hybrid ? m.hybrid->recurrent_type : std::string();
    e.sliding_layers = sliding_of(m);
    e.attention_layers = attention_of(m);
    return p;
}

PreparedWeightsCacheStats prepared_weights_cache_stats() {
    std::lock_guard<std::mutex> lock(g_cache.mutex);
    PreparedWeightsCacheStats s = g_cache.stats;
    s.entries = g_cache.map.size();
    return s;
}

void clear_prepared_weights_cache() {
    std::lock_guard<std::mutex> lock(g_cache.mutex);
    g_cache.map.clear();
    g_cache.stats = PreparedWeightsCacheStats{};
}

}  // namespace llmsim
