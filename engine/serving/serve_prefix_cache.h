// The prefix cache of one replica inside the load simulation (internal to engine/serving; serving.h is the front
// door). It decides how much of a prompt is found cached, pins what running requests share, keeps what finished
// requests leave behind, and evicts the least recently used unreferenced blocks when running requests need the room.
//
// The prompts of a sharing workload form a two-level tree, so the cache keeps "chains", not tokens: chain g < G is
// prefix group g's shared prefix (its full blocks; G = 1 for one system prompt), chain G + s is session s's own tokens
// after it (every turn's prompt, output and next input, so turn k+1 extends turn k; with a prompt pool, the pool
// prompt's question and the output that followed it). A chain's cached part is always a prefix of it: vLLM frees a request's
// blocks tail first so its tail is evicted first (v1/core/kv_cache_manager.py KVCacheManager.free, "ordered in
// reverse so that the tail blocks are evicted first"); SGLang's radix tree evicts leaves (mem_cache/radix_cache.py
// RadixCache.evict). A session's blocks are only reachable through its group's prefix (vLLM chains each block's hash
// to its parent's, v1/core/kv_cache_utils.py hash_block_tokens; a radix path starts at the root). One group's prefix
// is evicted last; with several, the group prefixes are LRU like the rest (vLLM's free queue does not rank them).
//
//   serving::PrefixCache cache(setup, n_sessions, shared_prefix_len, session_group /*empty: one group*/);
//   PrefixHit h = cache.lookup(0 /*session*/, prompt_tokens, now);   // what is found, and in which tier
//   cache.pin(h, now); ... cache.donate_shared(...); cache.release(...)
//
// [SECTION] Engines' caches
// [SECTION] Offload tier
// [SECTION] The cache
#pragma once
#include <cstddef>
#include <cstdint>
#include <set>
#include <utility>
#include <vector>

namespace llmsim::serving {

struct LoadSetup;

// [SECTION] Engines' caches ------------------------------------------------------------------------------

// how an engine finds a cached prompt prefix
enum class PrefixCacheKind {
    None,        // not modelled / off
    BlockHash,   // vLLM automatic prefix caching: full blocks by chained hash, the last prompt token recomputed
    Radix,       // SGLang RadixAttention: token-granular radix tree (page_size tokens), LRU over unreferenced leaves
    Slot,        // llama-server: each slot keeps the prompt it last ran; a request reuses its slot's common prefix
    Count
};

// [SECTION] Offload tier ---------------------------------------------------------------------------------

// one offload tier (host RAM or NVMe): an inclusive, write-through LRU store of chain prefixes, in tokens. vLLM's
// OffloadingConnector (v1/kv_offload) and LMCache store every computed block as it is saved; SGLang HiCache's default
// write policy is write-through to host (mem_cache/hiradix_cache.py). Eviction takes the least recently used chain's
// tail, the shared prefix last (one group; with several, chains below lru_from are none)
struct OffloadTier {
    int64_t capacity = 0, used = 0;
    std::vector<int64_t> len;            // per chain
    std::vector<double> last;            // per chain, last store or hit
    std::set<std::pair<double, int>> lru;   // (last, chain) of chains with len > 0 from lru_from on
    int lru_from = 1;                    // chains below it (one group's prefix) are evicted last, outside the LRU
    void init(int64_t cap, int chains, int from) {
        capacity = cap; lru_from = from; len.assign((std::size_t)chains, 0); last.assign((std::size_t)chains, 0);
    }
    bool on() const { return capacity > 0; }
    void touch(int c, double now);
    void store(int c, int64_t tokens, double now);   // the chain's first `tokens` are in this tier
};

// [SECTION] The cache ------------------------------------------------------------------------------------

// where a request's cached prefix is: `gpu` tokens already in the pool (pinned, not allocated), then `cpu` and `nvme`
// tokens loaded from the tiers into newly allocated blocks; hit = the sum, a multiple of the block
struct PrefixHit {
    int64_t gpu = 0, cpu = 0, nvme = 0;
    int64_t hit() const { return gpu + cpu + nvme; }
    bool pins_shared = false, pins_session = false;
    int64_t ref_blocks = 0;              // of the request's blocks, those the cache owns (pinned, not the request's)
    int slot = -1;                       // llama-server: the slot the request runs on
};

class PrefixCache {
public:
    // session_group[s]: session s's prefix group (empty: every session in group 0)
    PrefixCache(const LoadSetup& st, int sessions, int64_t shared_prefix_len, std::vector<int> session_group = {});
    bool on() const { return kind_ != PrefixCacheKind::None; }
    // tokens of the shared prefix that are blocks of their own (its last partial block holds each request's own tokens)
    int64_t shared_full() const { return shared_full_; }
    // what a prompt of `tokens` tokens of session `s` finds; at most tokens - 1 (the last token is always computed:
    // vLLM KVCacheManager.get_computed_blocks "max_cache_hit_length = request.num_tokens - 1"), whole blocks
    PrefixHit lookup(int s, int64_t tokens) const;
    // the request runs with that hit: its GPU part is pinned (no longer evictable), tier hits touched
    void pin(const PrefixHit& h, int s, double now);
    // the request's prompt is computed: its own blocks of the shared prefix join the cache (vLLM caches a block once
    // full, KVCacheManager.cache_blocks; SGLang inserts at the end of prefill, cache_unfinished_req). Returns how many
    // of the request's own blocks now belong to the cache (pinned by it)
    int64_t donate_shared(PrefixHit& h, int s, double now);
    // the request leaves (finished or preempted) with `end_tokens` computed (prompt + output): with `sessions` (turns
    // > 1) its full blocks of session s join the cache for the next turn; the pins drop. Returns the request's own
    // blocks the cache took over; `freed` = cache blocks dropped as stale (back to the free pool)
    int64_t release(PrefixHit& h, int s, int64_t end_tokens, bool sessions, double now, int64_t& freed);
    // blocks cached but referenced by no running request (they count as free: vLLM keeps them in its free queue)
    int64_t evictable() const { return evictable_; }
    // free at least `blocks` by evicting LRU unreferenced chain tails (the shared prefix last); returns blocks freed
    int64_t evict(int64_t blocks);
    int64_t evicted_tokens() const { return evicted_tokens_; }
    // llama-server: a request gets a slot and reuses what the slot holds; frees it at the end
    PrefixHit take_slot(int s, int64_t tokens, double now);
    void free_slot(const PrefixHit& h, int s, int64_t end_tokens, double now);
    void cancel_slot(const PrefixHit& h);   // the request did not start: the slot is idle again, its cache as it was
    PrefixCacheKind kind() const { return kind_; }

private:
    struct Chain { int64_t gpu = 0; int refs = 0; double last = 0; };
    struct Slot { int session = -1; int64_t shared = 0, own = 0; bool busy = false; double last = 0; };
    PrefixCacheKind kind_;
    int block_;
    int64_t shared_full_;
    int groups_ = 1;                         // chains 0 .. groups_-1 are the group prefixes, groups_ + s session s
    int lru_from_ = 1;                       // one group: its prefix is evicted last (outside the LRU); else 0
    std::vector<int> group_;                 // per session
    std::vector<Chain> chains_;
    std::set<std::pair<double, int>> lru_;   // (last, chain) of unreferenced chains with gpu blocks from lru_from_ on
    int64_t evictable_ = 0, evicted_tokens_ = 0;
    OffloadTier cpu_, nvme_;
    std::vector<Slot> slots_;
    double slot_similarity_;

    int64_t floor_block(int64_t t) const { return t / block_ * block_; }
    int gchain(int s) const { return group_.empty() ? 0 : group_[(std::size_t)s]; }   // session s's group prefix
    int schain(int s) const { return groups_ + s; }                                   // session s's own tokens
    void unref(int c, double now);
    void ref(int c);
    void store_tiers(int c, int64_t tokens, double now);
};

}  // namespace llmsim::serving
