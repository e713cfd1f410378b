// llmsim prepared weights: see prepared_weights.h.
//
// [SECTION] Model hash
// [SECTION] Build
// [SECTION] Cache
#include "prepared_weights.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <mutex>
#include <unordered_map>

namespace llmsim {

// [SECTION] Model hash -----------------------------------------------------------------------------------

namespace {

// 64-bit mixing (splitmix64 finaliser over a running state): cheap, and every input bit reaches every output bit
struct Hasher {
    uint64_t h = 0x9E3779B97F4A7C15ull;
    void add(uint64_t v) {
        uint64_t z = h ^ (v + 0x9E3779B97F4A7C15ull + (h << 6) + (h >> 2));
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        h = z ^ (z >> 31);
    }
    void add_i(int64_t v) { add((uint64_t)v); }
    void add_d(double v) {
        uint64_t u;
        std::memcpy(&u, &v, sizeof u);
        add(u);
    }
    void add(const std::string& s) {
        add((uint64_t)s.size());
        size_t i = 0;
        for (; i + 8 <= s.size(); i += 8) {
            uint64_t w;
            std::memcpy(&w, s.data() + i, 8);
            add(w);
        }
        uint64_t tail = 0;
        std::memcpy(&tail, s.data() + i, s.size() - i);
        add(tail);
    }
    void add(const std::vector<int>& v) {
        add((uint64_t)v.size());
        for (int x : v) add_i(x);
    }
};

}  // namespace

uint64_t model_hash(const Model& m) {
    Hasher h;
    h.add(m.id);  // error messages name the model
    h.add(m.arch);
    h.add_i(m.n_layers);
    h.add_i(m.hidden_size);
    h.add_i(m.intermediate_size);
    h.add_i(m.n_heads);
    h.add_i(m.n_kv_heads);
    h.add_i(m.head_dim);
    h.add_i(m.head_dim_v);
    h.add_i(m.vocab_size);
    h.add((uint64_t)m.tie_embeddings | (uint64_t)m.qkv_bias << 1 | (uint64_t)m.qk_norm << 2 |
          (uint64_t)m.gated_ffn << 3 | (uint64_t)m.moe.has_value() << 4 | (uint64_t)m.mla.has_value() << 5 |
          (uint64_t)m.swa.has_value() << 6 | (uint64_t)m.hybrid.has_value() << 7);
    h.add_i(m.native_context);
    h.add_i(m.extended_context);
    h.add(m.rope_scaling);
    if (m.moe) {
        const MoeConfig& e = *m.moe;
        h.add_i(e.n_experts);
        h.add_i(e.n_experts_active);
        h.add_i(e.n_shared_experts);
        h.add_i(e.expert_ffn);
        h.add_i(e.shared_ffn);
        h.add_i(e.first_dense_layers);
        h.add_i(e.layer_step);
        h.add((uint64_t)e.router_bias);
    }
    if (m.mla) {
        const MlaConfig& a = *m.mla;
        h.add_i(a.q_lora_rank);
        h.add_i(a.kv_lora_rank);
        h.add_i(a.qk_rope_head_dim);
        h.add_i(a.qk_nope_head_dim);
        h.add_i(a.v_head_dim);
    }
    if (m.swa) {
        h.add_i(m.swa->window);
        h.add_i(m.swa->pattern);
        h.add(m.swa->sliding_layers);
    }
    if (m.hybrid) {
        h.add(m.hybrid->recurrent_type);
        h.add(m.hybrid->attention_layers);
        h.add_i(m.hybrid->ssm_state_bytes_per_layer);
        h.add_i(m.hybrid->recurrent_layer_params);
    }
    return h.h;
}

// [SECTION] Build ----------------------------------------------------------------------------------------

std::shared_ptr<const PreparedWeights> build_prepared_weights(const Catalog& cat, const Model& m,
                                                              const std::string& file_type, std::string& err,
                                                              uint64_t file_bytes_override, const QuantOptions& opt) {
    WeightSize ws;
    if (!compute_weight_size(m, file_type, ws, err, &cat, opt)) return nullptr;
    auto p = std::make_shared<PreparedWeights>();
    p->model_hash = model_hash(m);
    p->file_type = file_type;
    p->file_bytes_override = file_bytes_override;
    p->imatrix = opt.imatrix;
    p->gguf = ws.gguf;
    p->flat_bpw = ws.gguf ? 0.0 : ws.bits_per_weight;
    p->tensor_data_bytes = ws.tensor_data_bytes;
    p->file_bytes_estimate = ws.file_bytes_estimate;
    p->bits_per_weight = ws.bits_per_weight;
    p->tied_output = m.tie_embeddings;

    // bytes per tensor as the placement sees them (same arithmetic as memory_reference.cpp's prepare())
    std::vector<TensorDesc> flat_tensors;
    std::vector<uint64_t> bytes;
    if (ws.gguf) {
        bytes = ws.bytes;
    } else {
        // flat-bpw formats: spread the bytes over the tensors in proportion to their parameters (for placement)
        if (!enumerate_tensors(m, flat_tensors, err)) return nullptr;
        const double bpw = ws.bits_per_weight;
        bytes.reserve(flat_tensors.size());
        for (const TensorDesc& t : flat_tensors) bytes.push_back((uint64_t)((double)t.n_elements() * bpw / 8.0 + 0.5));
    }
    const std::vector<TensorDesc>& ts = ws.gguf ? ws.tensors : flat_tensors;
    if (file_bytes_override > 0 && ws.file_bytes_estimate > 0) {
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

    // parameters and the bytes a decoded token reads (formerly simulate.cpp's active_weight_bytes): every tensor
    // once, except routed experts (only k of E are read) and the token-embedding table (one row per token)
    count_params(m, ts, p->params);
    for (size_t i = 0; i < ws.tensors.size() && i < ws.bytes.size(); ++i) {
        if (ws.tensors[i].name == "token_embd.weight") p->gguf_token_embd_bytes += ws.bytes[i];
        if (ws.tensors[i].routed_expert) p->gguf_routed_expert_bytes += ws.bytes[i];
    }
    uint64_t active = 0;
    if (!ws.gguf || ws.tensors.empty()) {
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
    p->active_weight_bytes = active;

    // KV structure (memory.cpp estimate_kv_cache / estimate_compute_buffer, per layer -> counts)
    p->full_layers_prefix.assign((size_t)L + 1, 0);
    p->swa_layers_prefix.assign((size_t)L + 1, 0);
    p->recurrent_layers_prefix.assign((size_t)L + 1, 0);
    const bool moe = m.is_moe();
    const uint64_t n_embd = (uint64_t)m.hidden_size;
    const uint64_t n_used = moe ? (uint64_t)m.moe->n_experts_active : 0;
    const uint64_t n_ff_exp = moe ? (uint64_t)m.moe->expert_ffn : 0;
    for (int il = 0; il < L; ++il) {
        const size_t i = (size_t)il;
        const bool attn = layer_has_attention(m, il);
        const bool swa = attn && layer_is_swa(m, il);
        p->full_layers_prefix[i + 1] = p->full_layers_prefix[i] + (attn && !swa ? 1 : 0);
        p->swa_layers_prefix[i + 1] = p->swa_layers_prefix[i] + (swa ? 1 : 0);
        p->recurrent_layers_prefix[i + 1] = p->recurrent_layers_prefix[i] + (attn ? 0 : 1);
        if (attn) (swa ? p->has_swa : p->has_full_attention) = true;
        uint64_t f;
        if (layer_is_moe(m, il)) {
            const uint64_t n_exp = (uint64_t)m.moe->n_experts;
            const uint64_t n_sh = (uint64_t)m.moe->n_shared_experts *
                                  (uint64_t)(m.moe->shared_ffn > 0 ? m.moe->shared_ffn : m.moe->expert_ffn);
            f = 3 * n_embd + 3 * n_exp + 3 * n_used * n_ff_exp + 2 * n_used * n_embd + 3 * n_sh;
        } else {
            f = 3 * n_embd + 3 * (uint64_t)std::max<int64_t>(0, m.intermediate_size);
        }
        p->ffn_bytes_per_token_max = std::max(p->ffn_bytes_per_token_max, f);
    }
    const int64_t n_kv_heads = m.n_kv_heads > 0 ? m.n_kv_heads : m.n_heads;
    p->kv_k_row = m.mla ? (uint64_t)(m.mla->kv_lora_rank + m.mla->qk_rope_head_dim) : (uint64_t)(n_kv_heads * m.head_dim);
    p->kv_v_row = m.mla ? 0 : (uint64_t)(n_kv_heads * m.kv_head_dim_v());
    if (m.hybrid) {
        // recurrent state of one layer for one sequence when the catalog has none: Mamba-1 conv + ssm state, f32
        // (llama.cpp n_embd_r = (d_conv-1) d_inner, n_embd_s = d_state d_inner), d_inner = 2 n_embd, d_conv 4, d_state 16
        const uint64_t d_inner = 2 * (uint64_t)m.hidden_size;
        p->state_bytes_per_seq = m.hybrid->ssm_state_bytes_per_layer > 0 ? (uint64_t)m.hybrid->ssm_state_bytes_per_layer
                                                                         : 4 * (3 * d_inner + 16 * d_inner);
    }
    return p;
}

// [SECTION] Cache ----------------------------------------------------------------------------------------
// One process-wide LRU map (the engine has no state object the CLI, the UI and the JS API all share); a mutex
// because native callers may evaluate from several threads. Hits cost a hash of the model's fields and one
// map lookup.

namespace {

struct CacheEntry {
    std::shared_ptr<const PreparedWeights> value;
    uint64_t last_use = 0;
};

struct Cache {
    std::mutex mutex;
    std::unordered_map<uint64_t, CacheEntry> map;
    uint64_t tick = 0;
    PreparedWeightsCacheStats stats;
};

Cache g_cache;

uint64_t cache_key(uint64_t mh, const std::string& file_type, uint64_t override_bytes, bool imatrix) {
    Hasher h;
    h.add(mh);
    h.add(file_type);
    h.add(override_bytes);
    h.add((uint64_t)imatrix);
    return h.h;
}

bool entry_matches(const PreparedWeights& w, const Catalog& cat, uint64_t mh, const std::string& file_type,
                   uint64_t override_bytes, bool imatrix) {
    if (w.model_hash != mh || w.file_bytes_override != override_bytes || w.imatrix != imatrix ||
        w.file_type != file_type)
        return false;
    if (!w.gguf) {
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
    const uint64_t mh = model_hash(m);
    const uint64_t key = cache_key(mh, file_type, file_bytes_override, opt.imatrix);
    {
        std::lock_guard<std::mutex> lock(g_cache.mutex);
        auto it = g_cache.map.find(key);
        if (it != g_cache.map.end() && entry_matches(*it->second.value, cat, mh, file_type, file_bytes_override, opt.imatrix)) {
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
    CacheEntry& e = g_cache.map[key];
    e.value = p;
    e.last_use = ++g_cache.tick;
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
