// Prefix caching and KV offload tiers around serve(): which cache each engine runs, the host link and NVMe a tier
// hit is loaded over, the report (ServePrefixReport) and the comparison with the cache off. The cache itself is
// serve_prefix_cache.cpp; the simulation that uses it serve_load.cpp.
//
// [SECTION] Engines' caches (registry)
// [SECTION] Host link and NVMe
// [SECTION] Setup and report
// [SECTION] Comparison
#include <algorithm>
#include <cmath>
#include <cstdio>

#include <nlohmann/json.hpp>

#include "core/assets.h"
#include "core/units.h"
#include "serving/serving_internal.h"

namespace llmsim {
namespace serving {

namespace {

// [SECTION] Engines' caches (registry) ------------------------------------------------------------------

struct PrefixCacheRow {
    PrefixCacheKind kind;
    bool on_by_default;
    const char* mechanism;   // what it is and where the engine's code does it
};

// one row per EngineId (engines.h order)
constexpr PrefixCacheRow kPrefixCacheRows[] = {
    {PrefixCacheKind::BlockHash, true,
     "vLLM automatic prefix caching: full KV blocks found by chained block hash, the last prompt token always recomputed "
     "(vllm/v1/core/kv_cache_manager.py KVCacheManager.get_computed_blocks, kv_cache_utils.py hash_block_tokens); on by "
     "default in V1, off in V0 (--enable-prefix-caching); unreferenced cached blocks stay in the free queue and are "
     "evicted least recently freed first, a request's tail first (block_pool.py, KVCacheManager.free)"},
    {PrefixCacheKind::Radix, true,
     "SGLang RadixAttention: token-granular radix tree over the KV pool (python/sglang/srt/mem_cache/radix_cache.py "
     "RadixCache.match_prefix / insert); nodes a running request holds are locked (inc_lock_ref), the rest evicted as "
     "least recently used leaves when the pool needs room (RadixCache.evict); the last token is always computed "
     "(managers/schedule_batch.py Req.adjust_max_prefix_ids: max_prefix_len = input_len - 1); on unless "
     "--disable-radix-cache. Its longest-prefix-first queue order (--schedule-policy lpm) is not modelled: FCFS"},
    {PrefixCacheKind::Slot, true,
     "llama-server slot cache: each of the -np slots keeps the tokens it last ran; a request takes the idle slot whose "
     "cache covers the largest share of its prompt above --slot-prompt-similarity, else the least recently used one, "
     "and reuses the common prefix (tools/server get_available_slot, cache_prompt on by default); a new session on a "
     "slot that held another session keeps only the shared prefix (--cache-reuse shifts further chunks; not modelled)"},
    {PrefixCacheKind::None, false, "TensorRT-LLM KV cache block reuse: not modelled"},
    {PrefixCacheKind::None, false, "LMDeploy prefix caching: not modelled"},
    {PrefixCacheKind::None, false, "mlx_lm.server: not modelled"},
};
static_assert(sizeof(kPrefixCacheRows) / sizeof(kPrefixCacheRows[0]) == (size_t)kEngineCount, "one prefix-cache row per engine");

const PrefixCacheRow& prefix_row(EngineId e) { return kPrefixCacheRows[(int)e]; }

// the cache this request runs: the row's, on by default or by request (vLLM V0 off unless asked)
PrefixCacheKind cache_kind(const ServeRequest& req, EngineId e) {
    const PrefixCacheRow& row = prefix_row(e);
    bool on = req.prefix_caching == 1 || (req.prefix_caching < 0 && row.on_by_default && !(e == EngineId::Vllm && runs_vllm_v0(req)));
    return on ? row.kind : PrefixCacheKind::None;
}

// [SECTION] Host link and NVMe ---------------------------------------------------------------------------

// GPU <- host bandwidth per direction. PCIe payload rates per x16 link (PCI-SIG base specifications, 128b/130b
// encoding: 3.0 8 GT/s -> 15.75 GB/s, 4.0 16 GT/s -> 31.5 GB/s, 5.0 32 GT/s -> 63 GB/s); the GPU generation sets the
// link (A100 PCIe 4.0, H100/H200/H20 PCIe 5.0, MI300X PCIe 5.0, MI250 PCIe 4.0, V100/T4 PCIe 3.0). GH200 and GB200
// attach the GPU to the Grace CPU over NVLink-C2C, 900 GB/s total = 450 GB/s per direction (NVIDIA GH200 Grace
// Hopper Superchip datasheet). These are line rates: pinned copies measure lower, so a tier hit's transfer is a
// lower bound
struct HostLink { const char* name; double gbs; };
HostLink host_link(const Hardware& hw) {
    if (hw.id.find("gh200") != std::string::npos || hw.id.find("gb200") != std::string::npos || hw.id.find("gb300") != std::string::npos)
        return {"NVLink-C2C", 450.0};
    switch (hw.chip_family) {
        case ChipFamily::NvidiaHopper: case ChipFamily::NvidiaHopperH20: case ChipFamily::NvidiaBlackwellPro:
        case ChipFamily::NvidiaBlackwellGeforce: case ChipFamily::AmdCdna3: case ChipFamily::AmdCdna4: case ChipFamily::AmdRdna4:
            return {"PCIe 5.0 x16", 63.0};
        case ChipFamily::NvidiaTuring: case ChipFamily::NvidiaVolta: case ChipFamily::NvidiaPascal: case ChipFamily::NvidiaPascalGp100:
            return {"PCIe 3.0 x16", 15.75};
        default:
            return {"PCIe 4.0 x16", 31.5};
    }
}

// NVMe tier read bandwidth per replica: one PCIe 4.0 x4 NVMe drive, 7,450 MB/s sequential read (Samsung 990 PRO data
// sheet); the GPUs of a replica share it
constexpr double kNvmeReadGbs = 7.45;

// the host DRAM a CPU tier is made of, at the catalog's price (assets/catalog/host_memory.json "ddr5_rdimm": a DDR5
// RDIMM kit's retail price per GiB, with its source and date); usd_per_gib 0 when the asset is missing or malformed
struct DramPrice { double usd_per_gib = 0; std::string source; };
const DramPrice& dram_price() {
    static const DramPrice price = [] {
        DramPrice d;
        const std::string_view text = embedded_asset("catalog/host_memory.json");
        if (text.empty()) return d;
        nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
        if (j.is_discarded() || !j.is_object() || !j.contains("ddr5_rdimm") || !j["ddr5_rdimm"].is_object()) return d;
        const nlohmann::json& r = j["ddr5_rdimm"];
        if (!r.contains("usd_per_gib") || !r["usd_per_gib"].is_number() || !(r["usd_per_gib"].get<double>() > 0)) return d;
        d.usd_per_gib = r["usd_per_gib"].get<double>();
        auto text_of = [&](const char* k) { return r.contains(k) && r[k].is_string() ? r[k].get<std::string>() : std::string("?"); };
        d.source = text_of("module") + ", " + text_of("date") + " (assets/catalog/host_memory.json)";
        return d;
    }();
    return price;
}

std::string fmt1(const char* f, double a) { char b[256]; snprintf(b, sizeof b, f, a); return b; }

}  // namespace

// [SECTION] Setup and report -----------------------------------------------------------------------------

bool validate_prefix_request(const ServeRequest& req, std::string& err) {
    const ServeWorkload& w = req.workload;
    if (w.shared_prefix_len < 0 || w.shared_prefix_len >= w.input_len) {
        err = "workload.shared_prefix_len: must be 0 to input_len - 1 (" + std::to_string(w.input_len - 1) + ")"; return false;
    }
    if (w.turns < 1 || w.turns > 1000) { err = "workload.turns: out of range (1 to 1000)"; return false; }
    if (w.session_prefix_len < 0 || w.session_prefix_len > 10000000) { err = "workload.session_prefix_len: out of range (0 to 10000000)"; return false; }
    if (!std::isfinite(w.think_time_s) || w.think_time_s < 0 || w.think_time_s > 86400) {
        err = "workload.think_time_s: out of range (0 to 86400 s)"; return false;
    }
    if (w.prefix_groups < 1 || w.prefix_groups > 100000) { err = "workload.prefix_groups: out of range (1 to 100000)"; return false; }
    if (w.prefix_groups > 1 && w.shared_prefix_len == 0) { err = "workload.prefix_groups: needs shared_prefix_len (each group's prefix)"; return false; }
    if (w.prompts_per_group < 0 || (int64_t)w.prompts_per_group * w.prefix_groups > 1000000) {
        err = "workload.prompts_per_group: 0 (every prompt new) to 1000000 prompts in the pool (groups x prompts_per_group)"; return false;
    }
    if ((w.prompts_per_group > 0 || !w.rate_stages.empty()) && w.turns > 1) {
        err = "workload.turns: multi-turn sessions do not combine with prompts_per_group or rate_stages"; return false;
    }
    if (w.rate_stages.size() > 200) { err = "workload.rate_stages: at most 200 stages"; return false; }
    double staged = 0;
    for (const ServeWorkload::RateStage& sg : w.rate_stages) {
        if (!std::isfinite(sg.rate) || !std::isfinite(sg.duration_s) || sg.rate <= 0 || sg.rate > 100000 || sg.duration_s <= 0 || sg.duration_s > 86400) {
            err = "workload.rate_stages: each stage needs rate 0 to 100000 requests/s and duration_s 0 to 86400"; return false;
        }
        staged += std::floor(sg.rate * sg.duration_s);
    }
    if (staged > 1000000) { err = "workload.rate_stages: more than 1000000 requests in all"; return false; }
    if (req.prefix_caching < -1 || req.prefix_caching > 1) { err = "prefix_caching: true, false or null (engine default)"; return false; }
    const double cpu = req.kv_offload.cpu_gib, nvme = req.kv_offload.nvme_gib;
    if (!std::isfinite(cpu) || !std::isfinite(nvme) || cpu < 0 || nvme < 0 || cpu > 65536 || nvme > 1048576) {
        err = "kv_offload: cpu_gib 0 to 65536, nvme_gib 0 to 1048576"; return false;
    }
    const Engine* e = find_engine(req.engine);
    if (e && req.prefix_caching == 1 && prefix_row(e->id).kind == PrefixCacheKind::None) {
        err = std::string("prefix_caching: ") + prefix_row(e->id).mechanism; return false;
    }
    if (e && (cpu > 0 || nvme > 0) && prefix_row(e->id).kind != PrefixCacheKind::BlockHash && prefix_row(e->id).kind != PrefixCacheKind::Radix) {
        err = "kv_offload: modelled for vllm (OffloadingConnector / LMCache) and sglang (HiCache) only"; return false;
    }
    return true;
}

// the load setup's cache and tiers, and the report's static figures (pool per tier, links, per-1k costs)
void setup_prefix(const ServeRequest& req, const ReplicaShape& s, const EngineSpeed& p, const ServeMemoryPlan& m, LoadSetup& st,
                  ServePrefixReport& rep) {
    const ServeWorkload& w = req.workload;
    if (!w.shares_prefix()) return;
    st.prefix_cache = cache_kind(req, s.engine);
    rep.mechanism = prefix_row(s.engine).mechanism;
    rep.active = st.prefix_cache != PrefixCacheKind::None;
    rep.gpu_pool_tokens = m.kv_pool_tokens;
    const double token_bytes_replica = (double)m.kv_bytes_per_token * s.tp * s.pp;
    const bool tiers = rep.active && st.prefix_cache != PrefixCacheKind::Slot && token_bytes_replica > 0;
    if (tiers) {
        st.cpu_tier_tokens = (int64_t)(req.kv_offload.cpu_gib * (double)kGiB / token_bytes_replica);
        st.nvme_tier_tokens = (int64_t)(req.kv_offload.nvme_gib * (double)kGiB / token_bytes_replica);
    }
    const HostLink link = host_link(*s.hw);
    rep.host_link = link.name; rep.host_link_gbs = link.gbs; rep.nvme_gbs = kNvmeReadGbs;
    // each GPU loads its own shard over its own link; the replica's GPUs share the drive
    st.cpu_load_s_per_token = (double)m.kv_bytes_per_token / (link.gbs * 1e9);
    st.nvme_load_s_per_token = std::max(token_bytes_replica / (kNvmeReadGbs * 1e9), st.cpu_load_s_per_token);
    rep.cpu_tier_tokens = st.cpu_tier_tokens; rep.nvme_tier_tokens = st.nvme_tier_tokens;
    rep.cpu_load_ms_per_1k = st.cpu_load_s_per_token * 1e6; rep.nvme_load_ms_per_1k = st.nvme_load_s_per_token * 1e6;
    rep.prefill_ms_per_1k = step_time(s, p, 0, 0, 1000, 0, nullptr) * 1e3;
    // a session's tokens at its last answer, its shared prefix stored once for all
    const int64_t own = w.input_len - w.shared_prefix_len;
    const double last_ctx = (double)(w.input_len + w.session_prefix_len + w.output_len) + (double)(w.turns - 1) * (double)(own + w.output_len);
    const double per_session = std::max(1.0, last_ctx - (double)w.shared_prefix_len);
    const double held_tokens = (double)(rep.gpu_pool_tokens + rep.cpu_tier_tokens + rep.nvme_tier_tokens) - (double)w.shared_prefix_len;
    rep.sessions_held = std::max(0.0, held_tokens / per_session) * std::max(1, s.replicas);
    // the CPU tier's DRAM at the catalog's DDR5 RDIMM price (every replica has its own): the owner buys it with the
    // GPUs (fill_cost adds it to the hardware price); a rented instance's hourly price already includes its host RAM
    const DramPrice& dram = dram_price();
    if (dram.usd_per_gib <= 0) {
        rep.host_memory_usd = -1;
        rep.host_memory_price_source = "no DRAM price in the catalog (assets/catalog/host_memory.json): left out";
    } else {
        rep.host_memory_usd = req.kv_offload.cpu_gib * std::max(1, s.replicas) * dram.usd_per_gib;
        rep.host_memory_price_source = fmt1("$%.2f per GiB: ", dram.usd_per_gib) + dram.source;
    }
}

// the report's lines, number by number, once the run is done
void explain_prefix(const ServeRequest& req, const ServeLoad& l, ServePrefixReport& rep) {
    const ServeWorkload& w = req.workload;
    if (!w.shares_prefix()) return;
    rep.lines.push_back(std::string(rep.active ? "" : "OFF for this request; ") + rep.mechanism);
    char b[512];
    snprintf(b, sizeof b, "workload: %lld-token shared prefix, %lld-token session context, %d turn(s) per session, %.1f s think time; "
             "prompts %lld tokens in all, %lld found cached (hit rate %.1f %%), %lld computed (recomputes after preemption included)",
             (long long)w.shared_prefix_len, (long long)w.session_prefix_len, w.turns, w.think_time_s, (long long)l.prompt_tokens,
             (long long)l.prefix_hit_tokens,
             l.prefix_hit_rate * 100, (long long)l.prefill_tokens_computed);
    rep.lines.push_back(b);
    if (w.prefix_groups > 1 || w.prompts_per_group > 0) {
        snprintf(b, sizeof b, "%d prefix groups of %lld tokens (%lld in all against a GPU pool of %lld tokens per replica)%s",
                 w.prefix_groups, (long long)w.shared_prefix_len, (long long)w.prefix_groups * w.shared_prefix_len, (long long)rep.gpu_pool_tokens,
                 w.prompts_per_group > 0 ? "; a pool of groups x prompts_per_group prompts sent in turn, so a prompt recurs whole" : "");
        rep.lines.push_back(b);
    }
    for (const ServeLoad::Stage& sg : l.stages) {
        snprintf(b, sizeof b, "stage at %.4g requests/s: %d requests, %.0f output tok/s, TTFT mean %.0f ms / p90 %.0f ms, hit rate %.1f %%",
                 sg.rate, sg.requests, sg.output_tok_s, sg.ttft_ms.mean, sg.ttft_ms.p90, sg.prefix_hit_rate * 100);
        rep.lines.push_back(b);
    }
    snprintf(b, sizeof b, "KV per replica: GPU pool %lld tokens, CPU tier %lld tokens (%.0f GiB), NVMe tier %lld tokens (%.0f GiB); %lld cached "
             "tokens evicted from the GPU pool; about %.0f sessions held at their last turn",
             (long long)rep.gpu_pool_tokens, (long long)rep.cpu_tier_tokens, req.kv_offload.cpu_gib, (long long)rep.nvme_tier_tokens,
             req.kv_offload.nvme_gib, (long long)l.prefix_evicted_tokens, rep.sessions_held);
    rep.lines.push_back(b);
    if (rep.cpu_tier_tokens > 0 || rep.nvme_tier_tokens > 0) {
        snprintf(b, sizeof b, "a tier hit loads instead of recomputing: 1,000 tokens of KV take %.2f ms from host RAM over %s (%.1f GB/s a "
                 "direction per GPU) and %.2f ms from NVMe (%.2f GB/s per replica) against %.2f ms to prefill them; hits loaded %lld "
                 "tokens from CPU, %lld from NVMe", rep.cpu_load_ms_per_1k, rep.host_link.c_str(), rep.host_link_gbs,
                 rep.nvme_load_ms_per_1k, rep.nvme_gbs, rep.prefill_ms_per_1k, (long long)l.prefix_hit_cpu_tokens,
                 (long long)l.prefix_hit_nvme_tokens);
        rep.lines.push_back(b);
        if (rep.host_memory_usd > 0)
            rep.lines.push_back(fmt1("host memory cost: $%.0f for the CPU tiers (", rep.host_memory_usd) + fmt1("%.0f GiB", req.kv_offload.cpu_gib) +
                                " a replica at " + rep.host_memory_price_source + "), in the owner's $/1M with the GPUs; a rented "
                                "instance's hourly price already includes its host RAM");
        else
            rep.lines.push_back("host memory cost: " + rep.host_memory_price_source);
    }
    static const char* names[4] = {"GPU", "CPU tier", "NVMe tier", "no hit"};
    std::string by;
    for (int t = 0; t < 4; ++t)
        if (l.requests_by_tier[t] > 0) by += (by.empty() ? "" : ", ") + std::string(names[t]) + fmt1(" %.0f ms", l.ttft_mean_ms_by_tier[t]) +
                                          " (" + std::to_string(l.requests_by_tier[t]) + ")";
    if (!by.empty()) rep.lines.push_back("mean TTFT by where the hit came from (requests): " + by);
}

// the command line's cache and offload flags: vLLM --no-enable-prefix-caching / --enable-prefix-caching and LMCache
// (its KV connector, sized by LMCACHE_* environment variables); SGLang --disable-radix-cache and HiCache
// (--enable-hierarchical-cache --hicache-size GB, --hicache-storage-backend file). `env` goes before the command.
// Both size their host buffer per GPU worker: every TP rank allocates LMCACHE_MAX_LOCAL_CPU_SIZE GiB on its own
// (LMCache/LMCache#2901: TP 2 at 50 GB used 100 GB; the buffer is max_local_cpu_size x 1024^3 bytes, #1147), and
// SGLang's host pool is made per TP worker too, so the replica's cpu_gib is divided by its GPUs
void prefix_command(const ServeRequest& req, EngineId e, std::string& env, std::string& flags) {
    const bool v0 = e == EngineId::Vllm && runs_vllm_v0(req);
    const int ranks = std::max(1, req.tp * req.pp);
    const double cpu = req.kv_offload.cpu_gib / ranks, nvme = req.kv_offload.nvme_gib / ranks;
    if (e == EngineId::Vllm) {
        if (req.prefix_caching == 0 && !v0) flags += " --no-enable-prefix-caching";
        if (req.prefix_caching == 1 && v0) flags += " --enable-prefix-caching";
        if (cpu > 0 || nvme > 0) {
            env = "LMCACHE_LOCAL_CPU=True LMCACHE_MAX_LOCAL_CPU_SIZE=" + fmt1("%.1f", cpu) + " ";
            if (nvme > 0) env += "LMCACHE_LOCAL_DISK=file:///nvme/lmcache/ LMCACHE_MAX_LOCAL_DISK_SIZE=" + fmt1("%.1f", nvme) + " ";
            flags += " --kv-transfer-config '{\"kv_connector\":\"LMCacheConnectorV1\",\"kv_role\":\"kv_both\"}'";
        }
    } else if (e == EngineId::Sglang) {
        if (req.prefix_caching == 0) flags += " --disable-radix-cache";
        if (cpu > 0) flags += " --enable-hierarchical-cache --hicache-size " + fmt1("%.0f", cpu * (double)kGiB / 1e9);
        if (nvme > 0) flags += " --hicache-storage-backend file";
    }
}

}  // namespace serving

// [SECTION] Comparison -----------------------------------------------------------------------------------

bool serve_prefix_cache_active(const ServeRequest& req) {
    const Engine* e = find_engine(req.engine);
    return e && req.workload.shares_prefix() && serving::cache_kind(req, e->id) != serving::PrefixCacheKind::None;
}

void serve_prefix_comparison(const Catalog& cat, const ServeRequest& req, ServeResult& r, int max_concurrency) {
    if (!r.ok || !serve_prefix_cache_active(req)) return;
    ServeRequest off = req;
    off.prefix_caching = 0; off.kv_offload = {}; off.with_single_stream = false;
    ServeResult o = serve(cat, off);
    if (!o.ok) return;
    ServePrefixReport& p = r.prefix;
    p.compared = true;
    p.ttft_p90_ms_off = o.load.ttft_ms.p90; p.ttft_mean_ms_off = o.load.ttft_ms.mean; p.output_tok_s_off = o.load.output_tok_s;
    char b[512];
    snprintf(b, sizeof b, "without the prefix cache: TTFT mean %.0f ms / p90 %.0f ms (with it %.0f / %.0f), output %.0f tok/s (with it %.0f), "
             "%lld prompt tokens computed (with it %lld)", o.load.ttft_ms.mean, o.load.ttft_ms.p90, r.load.ttft_ms.mean, r.load.ttft_ms.p90,
             o.load.output_tok_s, r.load.output_tok_s, (long long)o.load.prefill_tokens_computed, (long long)r.load.prefill_tokens_computed);
    p.lines.push_back(b);
    if (req.sla.ttft_p90_ms > 0 || req.sla.tpot_p90_ms > 0) {
        ServeRequest on = req; on.with_single_stream = false;
        p.sla_concurrency_on = sla_max_concurrency(cat, on, max_concurrency, nullptr);
        p.sla_concurrency_off = sla_max_concurrency(cat, off, max_concurrency, nullptr);
        snprintf(b, sizeof b, "largest concurrency within the SLA (TTFT p90 <= %.0f ms, TPOT p90 <= %.0f ms): %d with the cache, %d without",
                 req.sla.ttft_p90_ms, req.sla.tpot_p90_ms, p.sla_concurrency_on, p.sla_concurrency_off);
        p.lines.push_back(b);
    }
}

namespace {
// "meets the SLA" or what it misses by, for a reason line
std::string sla_verdict(const ServeSla& sla, const ServeResult& r) {
    if (!r.ok) return "does not run (" + r.error + ")";
    char b[200];
    if (sla.ttft_p90_ms > 0 && r.load.ttft_ms.p90 > sla.ttft_p90_ms) {
        snprintf(b, sizeof b, "misses the SLA (TTFT p90 %.0f ms > %.0f ms)", r.load.ttft_ms.p90, sla.ttft_p90_ms); return b;
    }
    if (sla.tpot_p90_ms > 0 && r.load.tpot_ms.p90 > sla.tpot_p90_ms) {
        snprintf(b, sizeof b, "misses the SLA (TPOT p90 %.1f ms > %.1f ms)", r.load.tpot_ms.p90, sla.tpot_p90_ms); return b;
    }
    if (sla.min_output_tok_s > 0 && r.load.output_tok_s < sla.min_output_tok_s) {
        snprintf(b, sizeof b, "misses the SLA (%.0f output tok/s < %.0f)", r.load.output_tok_s, sla.min_output_tok_s); return b;
    }
    return "still meets the SLA";
}
bool sla_met(const ServeSla& sla, const ServeResult& r) { return sla_verdict(sla, r) == "still meets the SLA"; }
}  // namespace

std::vector<SearchNote> search_prefix_reasons(const Catalog& cat, const ServeRequest& req, const std::vector<SlaPoint>& pts) {
    std::vector<SearchNote> out;
    const bool tiers = req.kv_offload.cpu_gib > 0 || req.kv_offload.nvme_gib > 0;
    if (pts.empty() || (!req.workload.shares_prefix() && !tiers)) return out;
    const SlaPoint& p = pts.front();
    // the load the search judged this point at (serve_search.cpp evaluate): the target concurrency, the request's
    // own rate, else its largest concurrency within the SLA
    ServeRequest q = sla_point_request(req, p);
    q.with_single_stream = false;
    const ServeWorkload& w = req.workload;
    if (w.concurrency > 0) q = closed_loop_at(q, w.concurrency);
    else if (w.request_rate <= 0 && !w.burst && p.max_concurrency > 0) q = closed_loop_at(q, p.max_concurrency);
    if (!serve_prefix_cache_active(q)) return out;
    const ServeResult on = serve(cat, q);
    if (!on.ok) return out;
    char where[160], b[700];
    snprintf(where, sizeof where, "the answer (%s x%d %s %s)", p.hardware.c_str(), p.gpus, p.engine.c_str(), p.precision.c_str());
    ServeRequest off = q;
    off.prefix_caching = 0; off.kv_offload = {};
    const ServeResult o = serve(cat, off);
    snprintf(b, sizeof b, "prefix cache: %s finds %.1f %% of its prompt tokens cached and computes %lld of %lld; TTFT p90 %.0f ms with the "
             "cache, %.0f ms without it, where it %s%s", where, on.load.prefix_hit_rate * 100, (long long)on.load.prefill_tokens_computed,
             (long long)on.load.prompt_tokens, on.load.ttft_ms.p90, o.load.ttft_ms.p90, sla_verdict(req.sla, o).c_str(),
             sla_met(req.sla, o) ? ": the cache lowers TTFT here but is not what this answer rests on"
                                 : ": the cache is why this configuration qualifies");
    out.push_back({b, sla_met(req.sla, o) ? SearchNoteKind::Aside : SearchNoteKind::Because});
    if (!tiers) return out;
    ServeRequest gpu_only = q;
    gpu_only.kv_offload = {};
    const ServeResult g = serve(cat, gpu_only);
    snprintf(b, sizeof b, "KV offload (CPU %.0f GiB, NVMe %.0f GiB per replica): about %.0f sessions held at their last turn against %.0f on "
             "the GPU pool alone; hits loaded %lld tokens from host RAM and %lld from NVMe instead of recomputing them; TTFT p90 %.0f ms "
             "with the tiers, %.0f ms without, where it %s%s", req.kv_offload.cpu_gib, req.kv_offload.nvme_gib, on.prefix.sessions_held,
             g.prefix.sessions_held, (long long)on.load.prefix_hit_cpu_tokens, (long long)on.load.prefix_hit_nvme_tokens,
             on.load.ttft_ms.p90, g.load.ttft_ms.p90, sla_verdict(req.sla, g).c_str(),
             sla_met(req.sla, g) ? ": the tiers are not what this answer rests on" : ": the tiers are why this configuration qualifies");
    out.push_back({b, sla_met(req.sla, g) ? SearchNoteKind::Aside : SearchNoteKind::Because});
    return out;
}

}  // namespace llmsim
