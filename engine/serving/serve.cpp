// serve(): memory plan + load simulation + step breakdown + cost + command line; the engine table; the SLA
// search. See serving.h.
//
// [SECTION] Engine table
// [SECTION] serve()
// [SECTION] Command lines
// (the SLA search: serve_search.cpp)
#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>

#include "catalog/catalog.h"
#include "memory/llama_server_args.h"
#include "serving/serving_internal.h"
#include "serving/cost.h"

namespace llmsim {

namespace serving {

// [SECTION] Engine table ---------------------------------------------------------------------------------

// the engines' rows (block size, fitted speed, hooks) are in engines.cpp
// vLLM before v0.8.0 (V0 engine), fitted on its rows like the engine rows (dstack's vLLM 0.6.3/0.6.4, sgl-project's 0.6.0)
// (12 + 6 usable rows, fewer than the fit's 20: it takes V1's values until more V0 runs are collected)
constexpr EngineSpeed kVllmV0Speed = {0.840, 0.525, 3.81, -0.78, 0.54, -0.22, 5.23, -0.83, 9.71};
SpeedTable shipped_speed_table() {
    SpeedTable t;
    for (const Engine& e : engines()) t.e[(int)e.id] = e.speed;
    t.vllm_v0 = kVllmV0Speed;
    return t;
}
int engine_version_number(const std::string& v) {
    // "0.7.4.dev138+g21f6ca217" -> 704, "v0.5.7" -> 507, "1.0" -> 10000: major x 10000 + minor x 100 + patch
    size_t i = (!v.empty() && (v[0] == 'v' || v[0] == 'V')) ? 1 : 0;
    int part[3] = {0, 0, 0};
    for (int k = 0; k < 3; ++k) {
        if (i >= v.size() || v[i] < '0' || v[i] > '9') { if (k < 2) return -1; break; }
        while (i < v.size() && v[i] >= '0' && v[i] <= '9' && part[k] < 1000) part[k] = part[k] * 10 + (v[i++] - '0');
        if (part[k] > 99 && k > 0) return -1;
        if (k < 2 && (i >= v.size() || v[i] != '.')) { if (k == 0) return -1; break; }
        if (k < 2) ++i;
    }
    return part[0] * 10000 + part[1] * 100 + part[2];
}
bool runs_vllm_v0(const ServeRequest& r) {
    if (r.engine != "vllm") return false;
    const int n = engine_version_number(r.engine_version);
    return n >= 0 && n < 800;   // v0.8.0 made V1 the default engine (VLLM_USE_V1=1)
}
bool runs_deepgemm(const ServeRequest& r, const Hardware& hw) {
    if (r.engine != "sglang") return false;
    if (hw.chip_family != ChipFamily::NvidiaHopper && hw.chip_family != ChipFamily::NvidiaHopperH20) return false;
    if (r.engine_version.empty()) return true;   // no version named: the current release
    const int n = engine_version_number(r.engine_version);
    return n >= 406;   // SGLang v0.4.6 is the first release with sgl-project/sglang#5628 (2025-04-22)
}

bool sglang_overlap_schedule(const ServeRequest& r) {
    if (r.engine != "sglang") return false;
    const int n = engine_version_number(r.engine_version);
    // Scheduler.event_loop_overlap, the default from v0.4.0 (lmsys.org/blog/2024-12-04-sglang-v0-4: "The scheduler
    // runs one batch ahead"); none named, or a string without a version: the current release
    return n < 0 || n >= 400;
}

double decode_kv_reads(const ServeRequest& r, const Model& m, const Hardware& hw, int tp) {
    if (!runs_vllm_v0(r) || m.mla || m.n_heads <= 0 || m.n_kv_heads <= 0) return 1;
    const double kv_heads_gpu = std::max(1.0, std::floor((double)m.n_kv_heads / std::max(1, tp)));
    const double group = std::max(1.0, (double)m.n_heads / std::max(1, tp) / kv_heads_gpu);
    if (group <= 1) return 1;
    const ChipFamily f = hw.chip_family;
    if (hw.vendor == "nvidia") {
        const bool pre_ampere = f == ChipFamily::NvidiaTuring || f == ChipFamily::NvidiaVolta ||
                                f == ChipFamily::NvidiaPascalGp100 || f == ChipFamily::NvidiaPascal;
        return (r.kv_dtype == "fp8" || pre_ampere) ? group : 1;
    }
    if (hw.vendor == "amd") {
        const bool custom = group <= 16 && (m.head_dim == 64 || m.head_dim == 128);
        return custom ? 1 : group;
    }
    return 1;
}

double early_mla_moe_layer_us(const ServeRequest& r, const Model& m) {
    if (r.engine != "sglang" || !m.mla || !m.is_moe()) return 0;
    const int n = engine_version_number(r.engine_version);
    return n >= 0 && n < 406 ? kEarlyMlaMoeLayerUs : 0;   // only a stated release before v0.4.6
}

namespace {

std::string fmt(const char* f, double v) { char b[64]; snprintf(b, sizeof b, f, v); return b; }

bool validate_workload(const ServeWorkload& w, std::string& err) {
    int modes = (w.concurrency > 0) + (w.request_rate > 0) + (w.burst ? 1 : 0) + (!w.rate_stages.empty());
    if (w.concurrency < 0 || w.concurrency > 100000) { err = "workload.concurrency: out of range (1 to 100000)"; return false; }
    if (w.request_rate < 0 || !std::isfinite(w.request_rate)) { err = "workload.request_rate: must be > 0, or \"inf\" for a burst"; return false; }
    if (modes != 1) { err = "workload: give exactly one of concurrency, request_rate, request_rate \"inf\" (burst) or rate_stages"; return false; }
    if (w.input_len < 1 || w.input_len > 10000000) { err = "workload.input_len: out of range (1 to 10000000 tokens)"; return false; }
    if (w.output_len < 1 || w.output_len > 1000000) { err = "workload.output_len: out of range (1 to 1000000 tokens)"; return false; }
    if (w.num_prompts < 0 || w.num_prompts > 10000000) { err = "workload.num_prompts: out of range (1 to 10000000)"; return false; }
    if (w.range_ratio < 0 || w.range_ratio > 1) { err = "workload.range_ratio: must be in [0, 1]"; return false; }
    return true;
}

}  // namespace

void fill_cost(const ReplicaShape& s, int gpus, double tok_s, double single_tok_s, ServeCost& c, double extra_hardware_usd) {
    c.single_stream_tok_s = single_tok_s;
    double watts = (s.hw->tdp_w > 0 ? s.hw->tdp_w : 300.0) * gpus;
    auto per_mtok = [&](double ts, double& own, double& rent, double& wh) {
        if (ts <= 0) return;
        // engine/serving/cost.h at 730 busy hours a month: amortised price + power (own), rent for the hours
        CostInputs in;
        in.hours_per_month_override = kHoursPerMonth;
        in.output_mtok_per_month = ts * 3600.0 * kHoursPerMonth / 1e6;
        in.hardware_price_usd = s.hw->price_usd > 0 ? s.hw->price_usd * gpus / std::max(1, s.hw->gpu_count) + extra_hardware_usd : 0;
        in.device_power_w = watts;
        in.cloud_usd_per_hour = s.hw->cloud_usd_per_hour * gpus;
        CostResult r = estimate_cost(in);
        if (!r.error.empty()) return;
        if (in.hardware_price_usd > 0) own = r.own_usd_per_month / in.output_mtok_per_month;
        if (r.rent_usd_per_month >= 0 && in.cloud_usd_per_hour > 0) rent = r.rent_usd_per_month / in.output_mtok_per_month;
        wh = watts * (1e6 / ts) / 3600.0;
    };
    per_mtok(tok_s, c.usd_per_mtok_own_batched, c.usd_per_mtok_rent_batched, c.wh_per_mtok_batched);
    per_mtok(single_tok_s, c.usd_per_mtok_own_single, c.usd_per_mtok_rent_single, c.wh_per_mtok_single);
}

// [SECTION] Command lines --------------------------------------------------------------------------------

// each engine's own flags (engines.h ServeCommand); the replicas note is added by serve_with
std::string vllm::command_line(const ServeRequest& req, const ReplicaShape& s, const ServeMemoryPlan& m, int seqs, int tokens) {
    char b[512];
    std::string kv = req.kv_dtype == "fp8" ? " --kv-cache-dtype fp8" : "";
    snprintf(b, sizeof b, "vllm serve %s --tensor-parallel-size %d%s --max-model-len %lld --gpu-memory-utilization %.2f "
             "--max-num-seqs %d --max-num-batched-tokens %d%s%s", s.model->id.c_str(), s.tp,
             s.pp > 1 ? (" --pipeline-parallel-size " + std::to_string(s.pp)).c_str() : "", (long long)m.max_model_len,
             req.gpu_memory_utilization > 0 ? req.gpu_memory_utilization : 0.9, seqs, tokens, kv.c_str(),
             req.cuda_graphs ? "" : " --enforce-eager");
    std::string c = b;
    if (s.ep > 1) c += " " + expert_parallel_flag(engine_row(EngineId::Vllm), s.ep);
    if (req.max_loras > 0)
        c += " --enable-lora --max-loras " + std::to_string(req.max_loras) + " --max-lora-rank " + std::to_string(req.max_lora_rank);
    return c;
}

std::string sglang::command_line(const ServeRequest& req, const ReplicaShape& s, const ServeMemoryPlan& m, int seqs, int tokens) {
    char b[512];
    snprintf(b, sizeof b, "python -m sglang.launch_server --model-path %s --tp %d%s --context-length %lld%s "
             "--max-running-requests %d --chunked-prefill-size %d%s%s", s.model->id.c_str(), s.tp,
             s.pp > 1 ? (" --pp-size " + std::to_string(s.pp)).c_str() : "", (long long)m.max_model_len,
             req.mem_fraction_static > 0 ? fmt(" --mem-fraction-static %.2f", req.mem_fraction_static).c_str() : "",
             seqs, tokens, req.kv_dtype == "fp8" ? " --kv-cache-dtype fp8_e4m3" : "", req.cuda_graphs ? "" : " --disable-cuda-graph");
    std::string c = b;
    if (s.ep > 1) c += " " + expert_parallel_flag(engine_row(EngineId::Sglang), s.ep);
    return c;
}

std::string llamacpp::command_line(const ServeRequest& req, const ReplicaShape& s, const ServeMemoryPlan& m, int seqs, int tokens) {
    LlamaServerArgs a = LlamaServerArgs::hub(s.model->id, req.precision);
    a.parallel(seqs).ctx(m.max_model_len).flag("--kv-unified").flag("--cont-batching").gpu_layers(-1).batch(tokens);
    if (req.kv_dtype == "q8_0") a.kv_types(TensorType::Q8_0, TensorType::Q8_0).flash_attn(true);
    return a.str();
}

std::string trtllm::command_line(const ServeRequest&, const ReplicaShape& s, const ServeMemoryPlan& m, int seqs, int tokens) {
    char b[512];
    snprintf(b, sizeof b, "trtllm-serve %s --tp_size %d --pp_size %d --max_batch_size %d --max_num_tokens %d --max_seq_len %lld",
             s.model->id.c_str(), s.tp, s.pp, seqs, tokens, (long long)m.max_model_len);
    std::string c = b;
    if (s.ep > 1) c += " " + expert_parallel_flag(engine_row(EngineId::TrtLlm), s.ep);
    return c;
}

std::string lmdeploy::command_line(const ServeRequest&, const ReplicaShape& s, const ServeMemoryPlan& m, int seqs, int) {
    char b[512];
    snprintf(b, sizeof b, "lmdeploy serve api_server %s --tp %d --session-len %lld --max-batch-size %d", s.model->id.c_str(), s.tp,
             (long long)m.max_model_len, seqs);
    return b;
}

// what expert parallel does to the typical step, next to TP's sharded experts (the explanation of the EP terms)
static std::string expert_parallel_note(const ReplicaShape& s, const EngineSpeed& p, const StepBreakdown& st) {
    const double mb = std::max(1.0, (double)(st.batch + st.prefill_tokens) / s.pp);
    ReplicaShape tp = s;
    tp.ep = 1; tp.local_experts = s.n_experts; tp.expert_bytes_gpu = s.expert_bytes_gpu / s.local_experts * s.n_experts / s.tp;
    const ExpertStep e = expert_step(s, p, mb), t = expert_step(tp, p, mb);
    char b[640];
    snprintf(b, sizeof b, "expert parallel over %d GPUs (physics only: no serving measurement with EP validates it): %d of %d experts "
               "whole per GPU; at %.0f tokens a step the busiest GPU touches %.1f of its experts and reads %.2f GB of them "
               "(%.2f GB with the experts sharded over TP), %.1f tokens per expert; the MoE output is still summed by the TP "
               "all-reduce (attention stays TP; the all-to-all of data-parallel attention is not modelled)",
               s.ep, s.local_experts, s.n_experts, mb, e.touched, e.read_bytes / 1e9, t.read_bytes / 1e9, e.tokens_per_expert);
    return b;
}

// [SECTION] serve() --------------------------------------------------------------------------------------

const EngineSpeed& engine_speed(const ServeRequest& req, const ReplicaShape& s, const SpeedTable& table) {
    return runs_vllm_v0(req) ? table.vllm_v0 : table.e[(int)s.engine];
}

LoadSetup load_setup(const ServeRequest& req, const ReplicaShape& s, const ServeMemoryPlan& m) {
    LoadSetup st;
    st.max_num_seqs = effective_max_num_seqs(req, s);
    st.max_batched_tokens = effective_max_batched_tokens(req, s);
    st.max_batched_tokens = std::max<int>(st.max_batched_tokens, st.max_num_seqs > 0 ? 1 : 1);
    st.pool_blocks = m.kv_pool_blocks;
    st.block_size = std::max(1, m.block_size);
    st.max_model_len = m.max_model_len;
    // admission: the row's reserve_output (TensorRT-LLM's GUARANTEED_NO_EVICT, engines.cpp), else the blocks
    // running prompts still need are held back
    st.reserve_output = engine_row(s.engine).reserve_output;
    st.admission_holdback = true;
    // the step order: vLLM V0 with chunked prefill off (forced off for MLA before v0.8) runs waiting prompts in a
    // step of their own before any decode (vllm/core/scheduler.py Scheduler._schedule_default: "Don't schedule
    // decodes if prefills are scheduled"). SGLang's scheduler is prefill-first too (get_next_batch_to_run), but
    // turning it on for SGLang worsened serving.jsonl's SGLang source-out figures, before and after the overlap
    // scheduler below (output MdAPE 9.70 -> 10.36 %; docs/validation/2026-12-07-queue.md, 2026-12-07-sglang.md)
    st.prefill_first = vllm_v0_mla(req, s) || vllm_v0_dense_chunked(req, s) == 0;
    // SGLang's overlap scheduler: a request that arrives during a busy step first runs two steps later
    // (docs/validation/2026-12-07-sglang.md: serving.jsonl's SGLang TTFT source out 51.8 -> 34.5 %)
    st.overlap_schedule = sglang_overlap_schedule(req);
    // SGLang's HTTP server + TokenizerManager: one process hands requests to the scheduler one at a time (a closed
    // loop's wave of C fixed-length requests reaches it spread over C x ~2 ms, so the wave splits over steps)
    if (s.engine == EngineId::Sglang) { st.frontend_request_s = kSglangFrontendRequestS; st.frontend_token_s = kSglangFrontendTokenS; }
    return st;
}

ServeResult serve_with(const Catalog& cat, const ServeRequest& req, const SpeedTable& table, const ParamCounts* counts) {
    if (req.disaggregation.enabled()) {
        // the disaggregated pools run no prefix cache: refuse a sharing workload rather than answer it cache-less
        if (serve_prefix_cache_active(req) || req.kv_offload.cpu_gib > 0 || req.kv_offload.nvme_gib > 0 || !req.workload.rate_stages.empty()) {
            ServeResult bad;
            bad.error = "disaggregation: prefix caching and KV offload are not modelled for disaggregated pools; drop "
                        "shared_prefix_len / turns / session_prefix_len / prompts_per_group / rate_stages / kv_offload or the "
                        "disaggregation block";
            return bad;
        }
        return serve_disaggregated(cat, req, table, counts);
    }
    ServeResult r;
    ReplicaShape s;
    if (!build_shape(cat, req, s, r.error, counts)) return r;
    if (!validate_workload(req.workload, r.error) || !validate_prefix_request(req, r.error)) return r;
    if (!plan_memory(cat, req, s, r.memory, r.error)) return r;
    if (!r.memory.fits) {
        r.error = "does not fit: the KV pool (" + std::to_string(r.memory.kv_pool_tokens) + " tokens per replica) cannot hold one " +
                  std::to_string(r.memory.max_model_len) + "-token sequence; lower max_model_len, add GPUs or raise tp";
        return r;
    }
    const EngineSpeed& p = engine_speed(req, s, table);
    LoadSetup st = load_setup(req, s, r.memory);
    const Engine& eng = engine_row(s.engine);
    setup_prefix(req, s, p, r.memory, st, r.prefix);   // nothing unless the workload shares prefixes
    // the load divides over the data-parallel replicas
    ServeWorkload w = req.workload;
    int rep = std::max(1, s.replicas);
    st.replicas = rep;   // a staged ladder is drawn for all replicas and thinned (draw_staged_requests)
    if (w.num_prompts <= 0) w.num_prompts = default_num_prompts(w);
    w.num_prompts = std::max(1, (w.num_prompts + rep - 1) / rep);
    if (w.concurrency > 0) w.concurrency = std::max(1, (w.concurrency + rep - 1) / rep);
    if (w.request_rate > 0) w.request_rate /= rep;
    r.load = simulate_load(s, p, st, w, &r.step);
    r.load.output_tok_s *= rep; r.load.total_tok_s *= rep; r.load.req_s *= rep;
    r.load.completed *= rep;
    // (a staged ladder's stages are the deployment's already: serve_load.cpp fill_stage_statistics)
    r.low = r.load.output_tok_s * (1 + p.band_low);
    r.high = r.load.output_tok_s * (1 + p.band_high);
    auto scaled = [](const LatencyStats& v, double f) { LatencyStats o = v; o.mean *= f; o.median *= f; o.p90 *= f; o.p99 *= f; return o; };
    r.tpot_band_low_ms = scaled(r.load.tpot_ms, 1 + p.tpot_band_low); r.tpot_band_high_ms = scaled(r.load.tpot_ms, 1 + p.tpot_band_high);
    r.ttft_band_low_ms = scaled(r.load.ttft_ms, 1 + p.ttft_band_low); r.ttft_band_high_ms = scaled(r.load.ttft_ms, 1 + p.ttft_band_high);
    // single stream on the same box: one request at a time
    double single = 0;
    if (req.with_single_stream) {
        ServeWorkload w1 = req.workload; w1.concurrency = 1; w1.request_rate = 0; w1.burst = false; w1.num_prompts = 2;
        w1.dist = LengthDist::Fixed; w1.turns = 1; w1.shared_prefix_len = 0; w1.session_prefix_len = 0;
        ServeLoad l1 = simulate_load(s, p, st, w1, nullptr);
        single = l1.output_tok_s;
    }
    // the CPU tier's DRAM is bought with the GPUs (setup_prefix prices it; 0 without a tier)
    fill_cost(s, s.replicas * s.tp * s.pp, r.load.output_tok_s, single, r.cost, std::max(0.0, r.prefix.host_memory_usd));
    r.command = eng.command_line(req, s, r.memory, st.max_num_seqs, st.max_batched_tokens);
    {
        std::string env, flags;
        prefix_command(req, s.engine, env, flags);
        r.command = env + r.command + flags;
    }
    explain_prefix(req, r.load, r.prefix);
    if (s.replicas > 1) r.command += "   # x" + std::to_string(s.replicas) + " replicas behind a load balancer";
    if (eng.serve_note) r.notes.push_back(eng.serve_note);
    if (r.load.preemptions > 0) r.notes.push_back(std::to_string(r.load.preemptions) + " preemptions: the KV pool ran full");
    r.network = network_lines(s, req.gpus_per_node, r.step);
    if (s.ep > 1) r.notes.push_back(expert_parallel_note(s, p, r.step));
    if (s.model->mla && req.precision == "fp8") {   // which block-FP8 kernel this engine release runs (runs_deepgemm)
        if (!s.block_fp8.empty())
            r.notes.push_back("block-FP8 linears: " + fmt("%.2f", block_fp8_extra_s(s, p, r.step.batch) * 1e3) +
                              " ms a step beyond their weight reads (Triton/CUTLASS block-FP8 GEMMs are grid-starved at decode batches; "
                              "SGLang from v0.4.6 on Hopper runs DeepGEMM instead)");
        else if (runs_deepgemm(req, *s.hw))
            r.notes.push_back("block-FP8 linears on DeepGEMM (SGLang v0.4.6 and later on Hopper, sglang#5628): no grid-starvation "
                              "term (held out: 7 SGLang v0.5.7 runs of DeepSeek-R1 on 8x H200, InferenceX#870, 2026: output tok/s MdAPE "
                              "3.3 %, TPOT 4.4 %)");
    }
    if (s.layer_floor_us > 0)
        r.notes.push_back("early SGLang build (before v0.4.6) with an MLA + MoE model: " + fmt("%.0f", s.layer_floor_us) + " us a layer, " +
                          fmt("%.1f", s.layers_stage * s.pp * s.layer_floor_us * 1e-3) + " ms a step, in the overhead (SGLang v0.4.1.post2's "
                          "DeepSeek-V3 batch 1/8/32 decode, sglang#2643, less this model's step)");
    if (s.decode_kv_reads > 1)
        r.notes.push_back("vLLM V0 decodes through PagedAttention.forward_decode here (XFormers backend: FP8 KV cache or a GPU "
                          "before sm_80; ROCm: a shape its custom kernel refuses): one thread block per query head, so each "
                          "cached KV byte is read " + fmt("%.0f", s.decode_kv_reads) + " times a step (" + fmt("%.2f", r.step.kv_s * 1e3) +
                          " ms of KV reads at this batch)");
    if (st.prefill_first)
        r.notes.push_back("vLLM V0 with MLA: chunked prefill is off, so waiting prompts run in steps of their own before any decode "
                          "(vllm/core/scheduler.py _schedule_default); fixed-length clients then arrive in waves and TTFT grows with "
                          "concurrency");
    if (st.overlap_schedule && r.load.itl_ms.median > 0)
        r.notes.push_back("SGLang's overlap scheduler (v0.4.0 on, Scheduler.event_loop_overlap): each step is formed while the one "
                          "before it runs, so a request that arrives during a busy step waits one more step (~" +
                          fmt("%.1f", r.load.itl_ms.median) + " ms here) before its prefill; included in TTFT");
    if (st.frontend_request_s > 0 || st.frontend_token_s > 0)
        r.notes.push_back("SGLang's HTTP server and TokenizerManager are one process: requests reach the scheduler one at a time, " +
                          fmt("%.1f", (st.frontend_request_s + st.frontend_token_s * (double)req.workload.input_len) * 1e3) +
                          " ms each at this prompt length (sglang#9382: 500 requests/s of 500 tokens saturate it); included in "
                          "TTFT, and a closed loop's wave of fixed-length requests is split over several prefill steps");
    if (s.crosses_network)
        r.notes.push_back(std::string(s.tp_net ? "tp spans nodes: every all-reduce" : "pp spans nodes: " + std::to_string(s.pp_net_hops) +
                          " stage hand-off(s)") + " over the network (" + fmt("%.0f", r.step.network_share * 100) + " % of a step); " + s.net_explain);
    r.ok = r.load.completed > 0;
    if (!r.ok) r.error = "no request completed (a request larger than the KV pool?)";
    return r;
}

}  // namespace serving

const std::vector<std::string>& serve_engines() {
    static const std::vector<std::string> v = [] {
        std::vector<std::string> names;
        for (const Engine& e : engines())
            if (e.weights != WeightFormat::MlxQuant) names.push_back(e.name);   // MLX: single-stream scenarios only
        return names;
    }();
    return v;
}

bool serve_engine_has_expert_parallel(const std::string& engine) {
    const Engine* e = find_engine(engine);
    return e && e->ep_flag;
}

std::string release_precision(const Model& m) {
    std::string p;
    for (char c : m.release_weights) p += (char)std::tolower((unsigned char)c);
    return (p == "fp8" || p == "mxfp4" || p == "nvfp4" || p == "fp16" || p == "bf16") ? p : "bf16";
}

void default_to_release_precision(const Catalog& cat, ServeRequest& r) {
    const Engine* e = find_engine(r.engine);
    const Model* m = r.model_override ? r.model_override.get() : cat.find_model(r.model);
    if (e && e->weights == WeightFormat::Checkpoint && m) r.precision = release_precision(*m);
}

bool serve_memory(const Catalog& cat, const ServeRequest& req, ServeMemoryPlan& out, std::string& err) {
    serving::ReplicaShape s;
    if (!serving::build_shape(cat, req, s, err)) return false;
    return serving::plan_memory(cat, req, s, out, err);
}

double serve_step_time(const Catalog& cat, const ServeRequest& req, const std::vector<int64_t>& depths, int64_t prefill_tokens,
                       int64_t prefill_depth, StepBreakdown* out, std::string& err) {
    serving::ReplicaShape s;
    if (!serving::build_shape(cat, req, s, err)) return -1;
    double sum = 0;
    for (int64_t d : depths) { if (d < 0) { err = "depths: must be >= 0"; return -1; } sum += (double)d; }
    if (prefill_tokens < 0 || prefill_depth < 0) { err = "prefill: tokens and depth must be >= 0"; return -1; }
    serving::SpeedTable t = serving::shipped_speed_table();
    return serving::step_time(s, t.e[(int)s.engine], (int)depths.size(), sum, prefill_tokens, (double)prefill_depth, out);
}

int default_num_prompts(const ServeWorkload& w) {
    if (w.concurrency > 0) return std::max(kMinPrompts, kPromptsPerSlot * w.concurrency);
    return kOpenLoopPrompts;
}

ServeRequest closed_loop_at(const ServeRequest& req, int c) {
    ServeRequest q = req;
    q.workload.concurrency = std::max(1, c); q.workload.request_rate = 0; q.workload.burst = false; q.workload.rate_stages.clear();
    q.workload.num_prompts = 0;
    return q;
}

ServeResult serve(const Catalog& cat, const ServeRequest& req) {
    ServeResult r = serving::serve_with(cat, req, serving::shipped_speed_table());
    if (r.ok && req.disaggregation.enabled()) serving::compare_aggregated(cat, req, r);
    return r;
}

}  // namespace llmsim
