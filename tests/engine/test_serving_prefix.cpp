// engine/serving: prefix caching, multi-turn sessions and KV offload tiers (issue 36), each expected value worked out
// by hand from the engine's rule: vLLM caches full 16-token blocks and recomputes the last prompt token; SGLang's
// radix tree is token-granular; a finished turn's full blocks are the next turn's hit; a full pool evicts; a tier hit
// pays its transfer (KV bytes / link bandwidth).
#include <catch2/catch.hpp>

#include <cstdio>
#include <string>

#include <nlohmann/json.hpp>

#include "catalog/catalog.h"
#include "serving/serving.h"
#include "test_support.h"

using namespace llmsim;

namespace {
// Llama-3.1-8B BF16 on one H100 SXM, one client at a time: 2048-token prompts, 16 output tokens, 32 requests
ServeRequest plain_8b(const std::string& engine = "vllm") {
    ServeRequest r;
    r.engine = engine; r.model = "meta-llama/Llama-3.1-8B-Instruct"; r.precision = "bf16"; r.hardware = "h100-sxm";
    r.gpus = 1; r.tp = 1; r.max_model_len = 8192;
    r.workload.input_len = 2048; r.workload.output_len = 16; r.workload.concurrency = 1; r.workload.num_prompts = 32;
    return r;
}
// Llama-3.1-8B's KV per token: 32 layers x 8 KV heads x 128 x (K + V) x 2 bytes
constexpr double kKvBytesPerToken = 32.0 * 8 * 128 * 2 * 2;   // 131,072
}  // namespace

TEST_CASE("prefix cache: a 90 % shared prefix skips its full blocks (vLLM) or its tokens (SGLang)", "[serving][prefix]") {
    ServeRequest plain = plain_8b();
    ServeRequest shared = plain;
    shared.workload.shared_prefix_len = 1843;   // 90 % of 2048
    ServeResult a = serve(cat(), plain), b = serve(cat(), shared);
    REQUIRE(a.ok); REQUIRE(b.ok);
    // vLLM: the prefix's full blocks are 1843 / 16 = 115 blocks = 1840 tokens; one request at a time, so request 0
    // misses and the 31 after it each find 1840 of their 2048 tokens and compute 208
    CHECK(b.load.prompt_tokens == 32 * 2048);
    CHECK(b.load.prefix_hit_tokens == 31 * 1840);
    CHECK(b.load.prefix_hit_rate == Approx(31.0 * 1840 / (32.0 * 2048)));
    CHECK(b.load.prefill_tokens_computed == 2048 + 31 * 208);
    CHECK(a.load.prefill_tokens_computed == 32 * 2048);
    // each TTFT is the one step that prefills its computed tokens (budget 8192 >= 2048): 208 tokens at depth 1840
    std::string err;
    const double hit_s = serve_step_time(cat(), plain, {}, 208, 1840, nullptr, err);
    const double miss_s = serve_step_time(cat(), plain, {}, 2048, 0, nullptr, err);
    REQUIRE(err.empty());
    CHECK(b.load.ttft_ms.median == Approx(hit_s * 1e3).epsilon(1e-9));
    CHECK(a.load.ttft_ms.median == Approx(miss_s * 1e3).epsilon(1e-9));
    CHECK(b.load.ttft_ms.median < a.load.ttft_ms.median / 2);

    // SGLang's radix tree matches tokens: 1843 found, 205 computed
    ServeRequest sg = shared; sg.engine = "sglang";
    ServeResult c = serve(cat(), sg);
    REQUIRE(c.ok);
    CHECK(c.load.prefix_hit_tokens == 31 * 1843);
    CHECK(c.load.prefill_tokens_computed == 2048 + 31 * 205);

    // with the cache off (vLLM --no-enable-prefix-caching) the shared prefix is recomputed every time
    ServeRequest off = shared; off.prefix_caching = 0;
    ServeResult d = serve(cat(), off);
    REQUIRE(d.ok);
    CHECK(d.load.prefix_hit_tokens == 0);
    CHECK(d.load.prefill_tokens_computed == 32 * 2048);
    CHECK(d.load.ttft_ms.median == Approx(a.load.ttft_ms.median).epsilon(1e-9));
    CHECK(d.command.find("--no-enable-prefix-caching") != std::string::npos);
}

TEST_CASE("prefix cache: the largest concurrency within a TTFT SLA grows with the skipped prefill", "[serving][prefix]") {
    ServeRequest r = plain_8b();
    r.workload.input_len = 4096; r.workload.output_len = 64; r.workload.num_prompts = 0;
    r.workload.shared_prefix_len = 3686;   // 90 %
    r.sla.ttft_p90_ms = 500;
    r.with_single_stream = false;
    ServeResult one = serve(cat(), closed_loop_at(r, 1));
    REQUIRE(one.ok);
    serve_prefix_comparison(cat(), closed_loop_at(r, 1), one, 128);
    const ServePrefixReport& p = one.prefix;
    REQUIRE(p.compared);
    // 3686 / 16 = 230 full blocks = 3680 tokens skipped of 4096: 416 computed, a tenth of the work; the concurrency
    // that fills the same prefill time a step is then several times larger
    CHECK(p.sla_concurrency_off >= 1);
    CHECK(p.sla_concurrency_on >= 2 * p.sla_concurrency_off);
    CHECK(one.load.ttft_ms.p90 < p.ttft_p90_ms_off);
}

TEST_CASE("prefix cache: multi-turn sessions hit the previous turn's blocks; a full pool evicts them", "[serving][prefix]") {
    ServeRequest r = plain_8b();
    r.workload.input_len = 512; r.workload.output_len = 128; r.workload.turns = 4; r.workload.concurrency = 8;
    r.workload.num_prompts = 64;   // 16 sessions of 4 turns
    r.with_single_stream = false;
    ServeResult big = serve(cat(), r);
    REQUIRE(big.ok);
    // turn k's prompt = 512 + k x (128 + 512): 512, 1152, 1792, 2432 tokens. Turn k finds turn k-1's computed
    // sequence (its prompt + output, less the last sampled token) in full blocks: 639 -> 624, 1279 -> 1264,
    // 1919 -> 1904 tokens. Per session 3792 of 5888 prompt tokens
    CHECK(big.load.prompt_tokens == 16 * 5888);
    CHECK(big.load.prefix_hit_tokens == 16 * 3792);
    CHECK(big.load.prefix_evicted_tokens == 0);
    CHECK(big.load.prefix_hit_rate == Approx(3792.0 / 5888));

    // a session context (session_prefix_len: a document the conversation opens with) rides on turn 0 only:
    // turn 0 = 1000 + 512 = 1512 tokens, turn 1 = 1512 + 128 + 512 = 2152; turn 1 finds 1639 -> 1632 tokens
    ServeRequest doc = r;
    doc.workload.turns = 2; doc.workload.session_prefix_len = 1000; doc.workload.num_prompts = 16;
    ServeResult d = serve(cat(), doc);
    REQUIRE(d.ok);
    CHECK(d.load.prompt_tokens == 8 * (1512 + 2152));
    CHECK(d.load.prefix_hit_tokens == 8 * 1632);

    // a pool of ~12k tokens: 8 clients' running turns (up to 2560 tokens each) need more than the pool holds, so
    // the finished turns' blocks are evicted before the next turn comes back for them
    ServeRequest small = r;
    small.max_model_len = 4096;
    small.gpu_memory_utilization = 0.0;
    ServeMemoryPlan m;
    std::string err;
    REQUIRE(serve_memory(cat(), small, m, err));
    const double weights_gib = (double)m.weights_bytes / (1ull << 30), total_gib = (double)m.gpu_total_bytes / (1ull << 30);
    // utilization that leaves ~1.5 GiB of KV (12,288 tokens x 128 KiB) above the weights and the non-KV overheads
    small.gpu_memory_utilization = (weights_gib + (double)(m.budget_bytes - m.weights_bytes - m.kv_pool_bytes) / (1ull << 30) + 1.5) / total_gib;
    ServeResult tight = serve(cat(), small);
    REQUIRE(tight.ok);
    REQUIRE(tight.memory.kv_pool_tokens < 16000);
    CHECK(tight.load.prefix_evicted_tokens > 0);
    CHECK(tight.load.prefix_hit_rate < big.load.prefix_hit_rate);

    // a host-RAM tier keeps what the pool evicted: hits come back from it and pay their transfer over PCIe 5.0 x16
    // (63 GB/s a direction): 1,000 tokens x 131,072 bytes / 63 GB/s = 2.08 ms; from NVMe (7.45 GB/s) 17.6 ms
    ServeRequest tier = small;
    tier.kv_offload.cpu_gib = 64;
    ServeResult t = serve(cat(), tier);
    REQUIRE(t.ok);
    CHECK(t.prefix.cpu_tier_tokens == (int64_t)(64.0 * (1ull << 30) / kKvBytesPerToken));
    CHECK(t.prefix.cpu_load_ms_per_1k == Approx(1000 * kKvBytesPerToken / 63e9 * 1e3));
    CHECK(t.prefix.nvme_load_ms_per_1k == Approx(1000 * kKvBytesPerToken / 7.45e9 * 1e3));
    CHECK(t.load.prefix_hit_cpu_tokens > 0);
    CHECK(t.load.prefix_hit_rate > tight.load.prefix_hit_rate);
    REQUIRE(t.load.requests_by_tier[1] > 0);
    // a request served from the CPU tier waits at least for its transfer before its first token
    const double mean_cpu_hit = (double)t.load.prefix_hit_cpu_tokens / t.load.requests_by_tier[1];
    CHECK(t.load.ttft_mean_ms_by_tier[1] >= mean_cpu_hit * kKvBytesPerToken / 63e9 * 1e3);
}

TEST_CASE("prefix cache: llama-server's slots keep the last prompt; a new session on another's slot keeps the prefix", "[serving][prefix]") {
    ServeRequest r = plain_8b("llamacpp");
    r.precision = "Q8_0"; r.max_num_seqs = 1;   // -np 1: one slot
    r.workload.shared_prefix_len = 1000; r.workload.input_len = 1100; r.workload.output_len = 100;
    r.workload.turns = 2; r.workload.num_prompts = 4;   // two sessions on one slot, one after the other
    r.with_single_stream = false;
    ServeResult s = serve(cat(), r);
    REQUIRE(s.ok);
    // session 0: turn 0 misses (1100 computed); turn 1's prompt is 1100 + 100 + 100 = 1300 tokens, the slot holds the
    // 1199 it computed: 1199 found. Session 1 turn 0 lands on the slot of session 0: the 1000-token prefix found;
    // turn 1 finds 1199 again
    CHECK(s.load.prompt_tokens == 2 * (1100 + 1300));
    CHECK(s.load.prefix_hit_tokens == 1199 + 1000 + 1199);
}

TEST_CASE("prefix cache: request keys parse, bad values are refused, plain workloads are unchanged", "[serving][prefix]") {
    const std::string head = R"({"engine": "vllm", "model": "meta-llama/Llama-3.1-8B-Instruct", "precision": "bf16", "hardware": "h100-sxm",)";
    ServeRequest r;
    std::string err;
    REQUIRE(parse_serve_request(head + R"( "kv_offload": {"cpu_gib": 100, "nvme_gib": 1000}, "prefix_caching": true,)"
                                       R"( "workload": {"input_len": 2048, "output_len": 64, "concurrency": 4, "shared_prefix_len": 1843,)"
                                       R"( "turns": 3, "think_time_s": 2.5}})", cat(), r, err));
    CHECK(r.workload.shared_prefix_len == 1843);
    CHECK(r.workload.turns == 3);
    CHECK(r.workload.think_time_s == 2.5);
    CHECK(r.kv_offload.cpu_gib == 100);
    CHECK(r.kv_offload.nvme_gib == 1000);
    CHECK(r.prefix_caching == 1);
    CHECK_FALSE(parse_serve_request(head + R"( "workload": {"concurrency": 4, "turns": 0}})", cat(), r, err));
    CHECK(err == "workload.turns: 0 is out of range (1 to 1000)");
    CHECK_FALSE(parse_serve_request(head + R"( "kv_offload": {"ram_gib": 4}, "workload": {"concurrency": 4}})", cat(), r, err));
    CHECK(err == "kv_offload.ram_gib: unknown key (cpu_gib, nvme_gib)");
    // a prefix as long as the prompt: serve() refuses it and names the key
    ServeRequest bad = plain_8b(); bad.workload.shared_prefix_len = 2048;
    ServeResult br = serve(cat(), bad);
    CHECK_FALSE(br.ok);
    CHECK(br.error == "workload.shared_prefix_len: must be 0 to input_len - 1 (2047)");
    ServeRequest trt = plain_8b("trtllm"); trt.prefix_caching = 1; trt.workload.shared_prefix_len = 100;
    CHECK_FALSE(serve(cat(), trt).ok);
    // a predict line with the issue's keys answers with the hit rate and the pool per tier
    nlohmann::json out = nlohmann::json::parse(serve_predict_line(cat(),
        R"({"id": "p", "engine": "vllm", "model": "meta-llama/Llama-3.1-8B-Instruct", "precision": "bf16", "hardware": "h100-sxm",)"
        R"( "kv_offload": {"cpu_gib": 10}, "test": {"kind": "serving", "input_len": 2048, "output_len": 16, "concurrency": 1,)"
        R"( "request_rate": "inf", "num_prompts": 32, "shared_prefix_len": 1843}})"));
    REQUIRE(out.contains("prefix_cache_hit_rate"));
    CHECK(out["prefix_cache_hit_rate"].get<double>() == Approx(31.0 * 1840 / (32.0 * 2048)));
    CHECK(out["kv_pool_tokens_by_tier"]["cpu"].get<int64_t>() == (int64_t)(10.0 * (1ull << 30) / kKvBytesPerToken));
    // plain workload: the cache switch changes nothing (nothing is shared), so every existing number stands
    ServeRequest p1 = plain_8b(), p2 = plain_8b(); p2.prefix_caching = 0;
    ServeResult x = serve(cat(), p1), y = serve(cat(), p2);
    CHECK(x.load.ttft_ms.mean == y.load.ttft_ms.mean);
    CHECK(x.load.output_tok_s == y.load.output_tok_s);
    CHECK_FALSE(x.prefix.active);
}

namespace {
// the SLA search over one device's counts (what a user sizing a cluster of one kind asks): vLLM BF16 at 1, 2, 4, 8 GPUs
SlaSearch one_device(const char* hw) {
    SlaSearch s;
    s.engines = {"vllm"}; s.precisions = {"bf16"}; s.gpu_counts = {1, 2, 4, 8};
    s.only_hardware = hw; s.datacenter_and_workstation_only = false; s.exact_top = 0;
    return s;
}
const std::string* note_starting(const std::vector<std::string>& notes, const char* head) {
    for (const std::string& n : notes) if (n.rfind(head, 0) == 0) return &n;
    return nullptr;
}
}  // namespace

TEST_CASE("SLA search: a long shared prefix at a tight TTFT SLA needs fewer GPUs, and the answer says why", "[serving][prefix][search]") {
    // Llama-3.1-70B BF16 on H100s, 8,192-token prompts of which 7,680 are one system prompt, 128 out, 16 clients,
    // TTFT p90 <= 2 s: without the cache every prompt's 8,192 tokens are prefilled and 4 GPUs miss the TTFT target
    ServeRequest r;
    r.engine = "vllm"; r.model = "meta-llama/Llama-3.1-70B-Instruct"; r.precision = "bf16"; r.hardware = "h100-sxm";
    r.max_model_len = 16384;
    r.workload.input_len = 8192; r.workload.output_len = 128; r.workload.concurrency = 16;
    r.workload.shared_prefix_len = 7680;
    r.sla.ttft_p90_ms = 2000; r.sla.tpot_p90_ms = 100;
    ServeRequest off = r;
    off.prefix_caching = 0;
    std::vector<std::string> notes_on, notes_off;
    const std::vector<SlaPoint> on = sla_search(cat(), r, one_device("h100-sxm"), nullptr, &notes_on);
    const std::vector<SlaPoint> without = sla_search(cat(), off, one_device("h100-sxm"), nullptr, &notes_off);
    REQUIRE(!on.empty());
    INFO("with the cache: x" << on[0].gpus << " $" << on[0].usd_per_mtok << (without.empty() ? std::string(" / without: none") : " / without: x" + std::to_string(without[0].gpus) + " $" + std::to_string(without[0].usd_per_mtok)));
    for (const std::string& n : notes_on) INFO(n);
    REQUIRE(!without.empty());
    CHECK(on[0].gpus < without[0].gpus);
    CHECK(on[0].usd_per_mtok < without[0].usd_per_mtok);
    CHECK(notes_off.empty());   // the cache is off: nothing to explain
    const std::string* why = note_starting(notes_on, "prefix cache: ");
    REQUIRE(why);
    CHECK(why->find("the cache is why this configuration qualifies") != std::string::npos);
    // the same line as the search's own note carries what it says, for the UI's colour (serving.h SearchNote)
    const std::vector<SearchNote> reasons = search_prefix_reasons(cat(), r, on);
    REQUIRE(reasons.size() == 1);
    CHECK(reasons[0].text == *why);
    CHECK(reasons[0].kind == SearchNoteKind::Because);
    // the numbers the line quotes are the answer's own run: 7,680 / 16 = 480 full blocks, so at most 7,680 of each
    // 8,192-token prompt is found cached (hit rate <= 93.75 %) and at least 512 tokens of each are computed
    ServeResult at = serve(cat(), closed_loop_at(sla_point_request(r, on[0]), 16));
    REQUIRE(at.ok);
    CHECK(at.load.prefix_hit_rate <= 7680.0 / 8192 + 1e-12);
    CHECK(at.load.prefill_tokens_computed >= at.load.completed * 512);
    char hit[32];
    snprintf(hit, sizeof hit, "finds %.1f %%", at.load.prefix_hit_rate * 100);
    CHECK(why->find(hit) != std::string::npos);
}

TEST_CASE("SLA search: a CPU tier holds more sessions of a KV-bound multi-turn load and changes the answer", "[serving][prefix][search]") {
    // Llama-3.1-8B on H100s, 64 chat sessions of 16 turns, 2,048 new tokens and 256 out a turn, 10 s think time: a
    // session ends at 36,864 tokens, 64 of them 2.4M tokens, more than two H100s' KV pool (about 1M) holds, so without
    // a tier the finished turns are evicted and recomputed when the session comes back
    ServeRequest r;
    r.engine = "vllm"; r.model = "meta-llama/Llama-3.1-8B-Instruct"; r.precision = "bf16"; r.hardware = "h100-sxm";
    r.max_model_len = 40960;
    r.workload.input_len = 2048; r.workload.output_len = 256; r.workload.concurrency = 64;
    r.workload.turns = 16; r.workload.think_time_s = 10;
    r.sla.ttft_p90_ms = 2000; r.sla.tpot_p90_ms = 100;
    ServeRequest tier = r;
    tier.kv_offload.cpu_gib = 512;
    std::vector<std::string> notes_gpu, notes_tier;
    const std::vector<SlaPoint> gpu = sla_search(cat(), r, one_device("h100-sxm"), nullptr, &notes_gpu);
    const std::vector<SlaPoint> with = sla_search(cat(), tier, one_device("h100-sxm"), nullptr, &notes_tier);
    REQUIRE(!with.empty());
    INFO("with the tier: x" << with[0].gpus << " $" << with[0].usd_per_mtok << (gpu.empty() ? std::string(" / GPU only: none") : " / GPU only: x" + std::to_string(gpu[0].gpus) + " $" + std::to_string(gpu[0].usd_per_mtok)));
    for (const std::string& n : notes_tier) INFO(n);
    REQUIRE(!gpu.empty());
    CHECK(with[0].gpus < gpu[0].gpus);
    CHECK(with[0].usd_per_mtok < gpu[0].usd_per_mtok);
    const std::string* why = note_starting(notes_tier, "KV offload ");
    REQUIRE(why);
    CHECK(why->find("the tiers are why this configuration qualifies") != std::string::npos);
    // sessions held: (GPU pool + CPU tier, nothing shared) / a session's context at its last answer, per replica; the
    // tier adds 512 GiB / 128 KiB a token = 4,194,304 tokens, 113.8 sessions of 2,304 + 15 x 2,304 = 36,864 tokens
    ServeResult at = serve(cat(), closed_loop_at(sla_point_request(tier, with[0]), 64));
    REQUIRE(at.ok);
    const double last_ctx = 2048 + 256 + 15.0 * (2048 + 256);
    CHECK(at.prefix.cpu_tier_tokens == 4194304);   // the replica's ranks together hold 128 KiB a token at any TP
    CHECK(at.prefix.sessions_held == Approx((double)(at.prefix.gpu_pool_tokens + at.prefix.cpu_tier_tokens) / last_ctx * (with[0].gpus / with[0].tp)));
    CHECK(at.load.prefix_hit_cpu_tokens > 0);
    // the GPU pool alone holds fewer sessions than the 64 clients keep open
    ServeRequest alone = sla_point_request(tier, with[0]);
    alone.kv_offload = {};
    ServeResult g = serve(cat(), closed_loop_at(alone, 64));
    REQUIRE(g.ok);
    CHECK(g.prefix.sessions_held < 64);
    CHECK(at.prefix.sessions_held > 64);
    CHECK(g.load.prefix_evicted_tokens > 0);
}
