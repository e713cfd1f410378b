// The prefix cache of one replica (serve_prefix_cache.h): GPU chains with pins and LRU eviction, the write-through
// offload tiers, and llama-server's slots.
#include "serving/serve_prefix_cache.h"

#include <algorithm>
#include <cmath>

#include "serving/serving_internal.h"

namespace llmsim::serving {

// [SECTION] Offload tier ---------------------------------------------------------------------------------

void OffloadTier::touch(int c, double now) {
    if (!on() || len[(size_t)c] <= 0) { if (on()) last[(size_t)c] = now; return; }
    if (c >= lru_from) lru.erase({last[(size_t)c], c});
    last[(size_t)c] = now;
    if (c >= lru_from) lru.insert({now, c});
}

void OffloadTier::store(int c, int64_t tokens, double now) {
    if (!on() || tokens <= len[(size_t)c]) { touch(c, now); return; }
    tokens = std::min(tokens, capacity);
    int64_t grow = tokens - len[(size_t)c];
    // make room: the least recently used chain's tail first, one group's shared prefix (chain 0) last
    while (used + grow > capacity) {
        int victim = -1;
        for (auto it = lru.begin(); it != lru.end(); ++it) if (it->second != c) { victim = it->second; break; }
        if (victim < 0) victim = (lru_from > 0 && c != 0 && len[0] > 0) ? 0 : -1;
        if (victim < 0) { grow = capacity - used; break; }
        int64_t take = std::min(len[(size_t)victim], used + grow - capacity);
        len[(size_t)victim] -= take; used -= take;
        if (len[(size_t)victim] == 0 && victim >= lru_from) lru.erase({last[(size_t)victim], victim});
    }
    if (grow <= 0) { touch(c, now); return; }
    if (c >= lru_from && len[(size_t)c] > 0) lru.erase({last[(size_t)c], c});
    len[(size_t)c] += grow; used += grow; last[(size_t)c] = now;
    if (c >= lru_from) lru.insert({now, c});
}

// [SECTION] The cache ------------------------------------------------------------------------------------

PrefixCache::PrefixCache(const LoadSetup& st, int sessions, int64_t shared_prefix_len, std::vector<int> session_group)
    : kind_(st.prefix_cache), block_(std::max(1, st.prefix_cache == PrefixCacheKind::Slot ? 1 : st.block_size)),
      shared_full_(0), group_(std::move(session_group)), slot_similarity_(kLlamaSlotPromptSimilarity) {
    shared_full_ = shared_prefix_len / block_ * block_;
    for (int g : group_) groups_ = std::max(groups_, g + 1);
    lru_from_ = groups_ == 1 ? 1 : 0;
    group_.resize((size_t)std::max(1, sessions), 0);
    chains_.resize((size_t)groups_ + (size_t)std::max(1, sessions));
    if (kind_ == PrefixCacheKind::BlockHash || kind_ == PrefixCacheKind::Radix) {
        cpu_.init(st.cpu_tier_tokens, (int)chains_.size(), lru_from_);
        nvme_.init(st.nvme_tier_tokens, (int)chains_.size(), lru_from_);
    }
    if (kind_ == PrefixCacheKind::Slot) slots_.resize((size_t)std::max(1, st.max_num_seqs));
}

void PrefixCache::ref(int c) {
    Chain& ch = chains_[(size_t)c];
    if (ch.refs++ == 0 && ch.gpu > 0) {
        evictable_ -= ch.gpu / block_;
        if (c >= lru_from_) lru_.erase({ch.last, c});
    }
}

void PrefixCache::unref(int c, double now) {
    Chain& ch = chains_[(size_t)c];
    if (ch.refs > 0) --ch.refs;
    if (ch.refs > 0) return;
    ch.last = now;
    if (ch.gpu > 0) {
        evictable_ += ch.gpu / block_;
        if (c >= lru_from_) lru_.insert({now, c});
    }
}

void PrefixCache::store_tiers(int c, int64_t tokens, double now) {
    cpu_.store(c, tokens, now);
    nvme_.store(c, tokens, now);
}

PrefixHit PrefixCache::lookup(int s, int64_t tokens) const {
    PrefixHit h;
    if (kind_ != PrefixCacheKind::BlockHash && kind_ != PrefixCacheKind::Radix) return h;
    const int64_t cap = floor_block(std::max<int64_t>(0, tokens - 1));
    const size_t cs = (size_t)schain(s), c0 = (size_t)gchain(s);
    // a tier's contiguous prefix from token 0: the group's shared chain, then (only when it is whole) the session's
    auto contiguous = [&](int64_t shared, int64_t own) { return shared < shared_full_ ? shared : shared_full_ + own; };
    const int64_t g = contiguous(chains_[c0].gpu, chains_[cs].gpu);
    const int64_t c = cpu_.on() ? contiguous(cpu_.len[c0], cpu_.len[cs]) : 0;
    const int64_t n = nvme_.on() ? contiguous(nvme_.len[c0], nvme_.len[cs]) : 0;
    // the GPU's own hit first, then what the connector finds beyond it (vLLM: KVCacheManager.get_computed_blocks,
    // then KVConnector get_num_new_matched_tokens for the tokens past the local hit), fastest tier first
    h.gpu = std::min(g, cap);
    h.cpu = std::max<int64_t>(0, std::min(std::max(g, c), cap) - h.gpu);
    h.nvme = std::max<int64_t>(0, std::min(std::max({g, c, n}), cap) - h.gpu - h.cpu);
    h.gpu = floor_block(h.gpu); h.cpu = floor_block(h.cpu); h.nvme = floor_block(h.nvme);
    h.pins_shared = shared_full_ > 0 && h.gpu > 0;
    h.pins_session = h.gpu > shared_full_;
    h.ref_blocks = h.gpu / block_;
    return h;
}

void PrefixCache::pin(const PrefixHit& h, int s, double now) {
    const int g = gchain(s), c = schain(s);
    if (h.pins_shared) ref(g);
    if (h.pins_session) ref(c);
    if (h.cpu > 0) { cpu_.touch(g, now); cpu_.touch(c, now); }
    if (h.nvme > 0) { nvme_.touch(g, now); nvme_.touch(c, now); }
}

int64_t PrefixCache::donate_shared(PrefixHit& h, int s, double now) {
    if (shared_full_ == 0 || (kind_ != PrefixCacheKind::BlockHash && kind_ != PrefixCacheKind::Radix)) return 0;
    const int g = gchain(s);
    Chain& c0 = chains_[(size_t)g];
    if (c0.gpu >= shared_full_) {   // another request cached it first: this one's copy stays its own
        store_tiers(g, shared_full_, now);
        return 0;
    }
    if (!h.pins_shared) { ref(g); h.pins_shared = true; }
    int64_t blocks = (shared_full_ - c0.gpu) / block_;
    c0.gpu = shared_full_;
    h.ref_blocks += blocks;
    store_tiers(g, shared_full_, now);
    return blocks;
}

int64_t PrefixCache::release(PrefixHit& h, int s, int64_t end_tokens, bool sessions, double now, int64_t& freed) {
    freed = 0;
    if (kind_ != PrefixCacheKind::BlockHash && kind_ != PrefixCacheKind::Radix) return 0;
    const int c = schain(s), g = gchain(s);
    Chain& ch = chains_[(size_t)c];
    int64_t taken = 0;
    const int64_t own = floor_block(end_tokens) - shared_full_;   // the session's full blocks this request computed
    // only a session's next turn (or a pool prompt's next send) can reuse them (plain requests are each their own
    // chain: never looked up again)
    if (sessions && own > 0 && chains_[(size_t)g].gpu >= shared_full_) {
        if (!h.pins_session && ch.gpu > 0) {   // stale: reached through an evicted shared prefix, recomputed since
            if (ch.refs == 0) { evictable_ -= ch.gpu / block_; lru_.erase({ch.last, c}); }
            freed += ch.gpu / block_; ch.gpu = 0;
        }
        if (!h.pins_session) { ref(c); h.pins_session = true; }
        if (own > ch.gpu) { taken = (own - ch.gpu) / block_; ch.gpu = own; }
        store_tiers(c, own, now);
    }
    if (h.pins_session) { unref(c, now); h.pins_session = false; }
    // vLLM frees a request's blocks tail first (KVCacheManager.free), so among group prefixes in the LRU the prefix
    // goes behind the session blocks freed in the same instant
    if (h.pins_shared) { unref(g, lru_from_ == 0 ? std::nextafter(now, 1e300) : now); h.pins_shared = false; }
    h.ref_blocks = 0;
    return taken;
}

int64_t PrefixCache::evict(int64_t blocks) {
    int64_t freed = 0;
    while (freed < blocks) {
        int c = -1;
        if (!lru_.empty()) c = lru_.begin()->second;
        else if (lru_from_ == 1 && chains_[0].refs == 0 && chains_[0].gpu > 0) c = 0;   // one shared prefix goes last
        if (c < 0) break;
        Chain& ch = chains_[(size_t)c];
        int64_t k = std::min(ch.gpu / block_, blocks - freed);
        ch.gpu -= k * block_; evictable_ -= k; freed += k; evicted_tokens_ += k * block_;
        if (ch.gpu == 0 && c >= lru_from_) lru_.erase({ch.last, c});
    }
    return freed;
}

// llama-server (tools/server/server-context.cpp get_available_slot): the idle slot whose cached prompt shares the
// largest fraction of the new prompt, if above --slot-prompt-similarity, else the least recently used idle slot; the
// request then keeps the common prefix of that slot's cache and computes the rest (n_prompt_tokens_cache). Another
// session's slot holds the shared prefix only, and running there overwrites that session's history
PrefixHit PrefixCache::take_slot(int s, int64_t tokens, double now) {
    PrefixHit h;
    if (kind_ != PrefixCacheKind::Slot) return h;
    const int64_t shared = std::min(shared_full_, tokens);
    auto common = [&](const Slot& sl) {
        if (sl.session < 0 || gchain(sl.session) != gchain(s)) return (int64_t)0;
        int64_t c = std::min(sl.shared, shared);
        if (c == shared_full_ && sl.session == s) c += std::min(sl.own, tokens - shared_full_);
        return c;
    };
    int best = -1, lru = -1; double best_sim = 0;
    for (size_t i = 0; i < slots_.size(); ++i) {
        const Slot& sl = slots_[i];
        if (sl.busy) continue;
        double sim = tokens > 0 ? (double)common(sl) / (double)tokens : 0;
        if (sim > slot_similarity_ && sim > best_sim) { best_sim = sim; best = (int)i; }
        if (lru < 0 || sl.last < slots_[(size_t)lru].last) lru = (int)i;
    }
    h.slot = best >= 0 ? best : lru;
    if (h.slot < 0) return h;
    Slot& sl = slots_[(size_t)h.slot];
    h.gpu = std::min(common(sl), std::max<int64_t>(0, tokens - 1));
    sl.busy = true; sl.last = now;
    return h;
}

void PrefixCache::free_slot(const PrefixHit& h, int s, int64_t end_tokens, double now) {
    if (kind_ != PrefixCacheKind::Slot || h.slot < 0) return;
    Slot& sl = slots_[(size_t)h.slot];
    sl.busy = false; sl.last = now; sl.session = s;
    sl.shared = std::min(shared_full_, end_tokens);
    sl.own = std::max<int64_t>(0, end_tokens - shared_full_);
}

void PrefixCache::cancel_slot(const PrefixHit& h) {
    if (kind_ == PrefixCacheKind::Slot && h.slot >= 0) slots_[(size_t)h.slot].busy = false;
}

}  // namespace llmsim::serving
