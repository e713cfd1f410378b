// llmsim-cli serve: a serving engine's memory plan and its behaviour under load (engine/serving/serving.h);
// --sweep prints throughput / TTFT / TPOT against concurrency, --search the cheapest configurations meeting an
// SLA, --bench times that search.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>

#include "catalog/catalog.h"
#include "commands.h"
#include "evidence/serving_accuracy.h"
#include "rig/resolve_device.h"
#include "serving/serving.h"

namespace llmsim::cli {

namespace {

const char* kHelpRest =
    "                        [--precision bf16|fp16|fp8|nvfp4|mxfp4|int4-awq|int4-gptq|int8 (llamacpp: Q4_K_M ...)]\n"
    "                        [--kv-dtype auto|fp8] [--gpus N] [--tp N] [--pp N] [--interconnect nvlink|pcie|FABRIC]\n"
    "                        [--gpus-per-node N] [--nics-per-node N] [--no-p2p] [--engine-version V]\n"
    "                        [--enable-expert-parallel] [--explain]\n"
    "                        --no-p2p: the GPUs lack peer-to-peer access (all-reduce staged through host memory);\n"
    "                        --engine-version: vLLM below 0.8 runs the V0 engine's speed; SGLang\n"
    "                        from 0.4.6 (or none named) on Hopper runs DeepSeek's block-FP8 linears on DeepGEMM\n"
    "                        without --precision: the model as published (DeepSeek-R1 fp8, gpt-oss mxfp4, else bf16);\n"
    "                        without --tp on a multi-GPU device (8x-h200-sxm): all its GPUs / pp\n"
    "                        FABRIC between nodes: ib-xdr|ib-ndr|ib-hdr|roce-400|roce-200|roce-100|ethernet-100|ethernet-25|\n"
    "                        ethernet-10, -xN = N NICs per node (default: a NIC per GPU on IB / RoCE 200+, else 1)\n"
    "                        [--max-model-len N] [--gpu-memory-utilization F] [--mem-fraction-static F]\n"
    "                        [--max-num-seqs N] [--max-num-batched-tokens N] [--block-size N]\n"
    "                        [--max-loras N --max-lora-rank R]   (vLLM multi-LoRA slots)\n"
    "                        [--input-len N] [--output-len N] [--dist fixed|uniform|sharegpt]\n"
    "                        [--concurrency C | --request-rate R | --burst] [--num-prompts N] [--seed S]\n"
    "                        [--shared-prefix N] [--turns N --think-time S] [--session-prefix N] [--prefix-caching on|off]\n"
    "                        [--kv-offload-cpu-gib N] [--kv-offload-nvme-gib N]\n"
    "                        --shared-prefix: tokens every prompt shares (a system prompt); --turns: multi-turn sessions\n"
    "                        (turn k's prompt = the earlier turns' prompts and answers + new input, --think-time s apart);\n"
    "                        the engine's prefix cache decides what prefill is skipped (printed with and without it);\n"
    "                        --kv-offload-*: host RAM / NVMe tiers behind it (vLLM + LMCache, SGLang HiCache), GiB per replica\n"
    "                        [--sla-ttft-ms MS] [--sla-tpot-ms MS] [--sweep] [--search [--disagg]] [--json] [--request FILE]\n"
    "                        [--prefill-gpus P --decode-gpus D [--prefill-tp N] [--decode-tp N] [--kv-link nvlink|FABRIC]]\n"
    "                        [--deploy FILE|-]\n"
    "                        --prefill-gpus/--decode-gpus: prefill/decode disaggregation (vLLM NixlConnector, SGLang\n"
    "                        --disaggregation-mode): separate pools, each prompt's KV over --kv-link (default nvlink in\n"
    "                        one node, else ib-ndr); --search --disagg also searches the P:D split and each pool's TP;\n"
    "                        --deploy: an NVIDIA Dynamo DynamoGraphDeployment (YAML) for the request or the search's answer\n"
    "       llmsim-cli serve --bench\n"
    "The memory plan of the engine (weights per GPU under TP/PP, activation peak, CUDA graphs, runtime buffers, the KV\n"
    "pool in blocks and tokens, max concurrency at --max-model-len, the largest --max-model-len that fits) and a\n"
    "continuous-batching simulation of the load (closed loop --concurrency, Poisson --request-rate, or --burst of\n"
    "--num-prompts): output and total tok/s, requests/s, TTFT / TPOT / ITL mean, median, p90, p99, queueing share, KV\n"
    "use, where a step's time goes, $ and Wh per 1M output tokens batched vs single stream, and the command line.\n"
    "--sweep: concurrency 1..256 with the SLA lines; --search: every datacenter/workstation device x 1/2/4/8 GPUs x\n"
    "vLLM/SGLang x bf16/fp8 meeting the SLA at --concurrency (or any), cheapest first; --bench: times that search.\n"
    "--request FILE: the request as JSON (the JS API's serve() shape). Memory in GiB (2^30 bytes).\n"
    "Without --num-prompts a run simulates 8 x C requests (at least 32) in closed loop, 200 otherwise: the same rule\n"
    "for a single run, --sweep, the SLA bisection and --search (serving.h default_num_prompts).\n";

// the usage text; the engine list is the engine table's serving engines (serve_engines(): MLX runs single-stream
// scenarios only, memory --engine mlx)
std::string help_text() {
    std::string names;
    for (const std::string& n : serve_engines()) names += (names.empty() ? "" : "|") + n;
    return "usage: llmsim-cli serve --model ID --hardware ID [--engine " + names + "]\n" + kHelpRest;
}

// --prefill-gpus P --decode-gpus D [--prefill-tp N] [--decode-tp N] [--kv-link L]: the request's disaggregation block
bool read_disaggregation(const Args& a, ServeRequest& r, std::string& err) {
    const bool any = a.get("prefill-gpus") || a.get("decode-gpus") || a.get("prefill-tp") || a.get("decode-tp") || a.get("kv-link");
    if (!any) return true;
    if (!a.get("prefill-gpus") || !a.get("decode-gpus")) { err = "serve: disaggregation needs --prefill-gpus P and --decode-gpus D"; return false; }
    double v;
    auto n = [&](const char* k, double lo, double hi, double& out) { return option_number(a, "serve", k, lo, hi, out, err); };
    ServeDisaggregation& d = r.disaggregation;
    v = 0; if (!n("prefill-gpus", 1, 1024, v)) return false; d.prefill_gpus = (int)v;
    v = 0; if (!n("decode-gpus", 1, 1024, v)) return false; d.decode_gpus = (int)v;
    v = 1; if (!n("prefill-tp", 1, 64, v)) return false; d.prefill_tp = (int)v;
    v = 1; if (!n("decode-tp", 1, 64, v)) return false; d.decode_tp = (int)v;
    if (const std::string* l = a.get("kv-link")) d.link = *l;
    r.gpus = d.prefill_gpus + d.decode_gpus; r.tp = d.decode_tp; r.pp = 1;
    return true;
}

bool read_request(const Args& a, const Catalog& cat, ServeRequest& r, std::string& err) {
    if (const std::string* f = a.get("request")) {
        std::string text;
        if (!read_text_file(*f, 1 << 20, text, err)) return false;
        return parse_serve_request(text, cat, r, err);
    }
    auto s = [&](const char* k, std::string& out) { if (const std::string* v = a.get(k)) out = *v; };
    s("engine", r.engine); s("model", r.model); s("hardware", r.hardware); s("precision", r.precision);
    s("kv-dtype", r.kv_dtype); s("interconnect", r.interconnect); s("engine-version", r.engine_version);
    r.no_p2p = a.has("no-p2p");
    if (r.model.empty() || r.hardware.empty()) { err = "serve: --model ID and --hardware ID are required"; return false; }
    double v;
    auto n = [&](const char* k, double lo, double hi, double& out) { return option_number(a, "serve", k, lo, hi, out, err); };
    v = 1; if (!n("pp", 1, 64, v)) return false; r.pp = (int)v;
    // no --tp on a multi-GPU device (8x-h200-sxm): every GPU of it over pp, as the Serving section does
    const Hardware* hw = resolve_device(cat, r.hardware);
    v = hw && hw->gpu_count > 1 ? std::max(1, hw->gpu_count / r.pp) : 1;
    if (!n("tp", 1, 64, v)) return false;
    r.tp = (int)v;
    v = r.tp * r.pp;
    if (!n("gpus", 1, 1024, v)) return false;
    r.gpus = (int)v;
    // no --precision: the model as published (release_precision); llama-server takes a GGUF file type instead
    if (!a.get("precision")) default_to_release_precision(cat, r);
    v = 0; if (!n("max-model-len", 1, 1e7, v)) return false; r.max_model_len = (int64_t)v;
    if (!n("gpu-memory-utilization", 0.05, 1, r.gpu_memory_utilization) || !n("mem-fraction-static", 0.05, 1, r.mem_fraction_static)) return false;
    v = 0; if (!n("max-num-seqs", 1, 65536, v)) return false; r.max_num_seqs = (int)v;
    v = 0; if (!n("max-num-batched-tokens", 1, 1e7, v)) return false; r.max_num_batched_tokens = (int)v;
    v = 0; if (!n("block-size", 1, 1024, v)) return false; r.block_size = (int)v;
    v = 0; if (!n("max-loras", 0, 1024, v)) return false; r.max_loras = (int)v;
    v = 16; if (!n("max-lora-rank", 1, 512, v)) return false; r.max_lora_rank = (int)v;
    v = 8; if (!n("gpus-per-node", 1, 72, v)) return false; r.gpus_per_node = (int)v;
    v = 0; if (!n("nics-per-node", 1, 64, v)) return false; r.nics_per_node = (int)v;
    ServeWorkload& w = r.workload;
    v = 1024; if (!n("input-len", 1, 1e7, v)) return false; w.input_len = (int64_t)v;
    v = 128; if (!n("output-len", 1, 1e6, v)) return false; w.output_len = (int64_t)v;
    v = 0; if (!n("concurrency", 1, 100000, v)) return false; w.concurrency = (int)v;
    if (!n("request-rate", 1e-6, 1e6, w.request_rate)) return false;
    w.burst = a.has("burst");
    r.expert_parallel = a.has("enable-expert-parallel");
    if (w.concurrency == 0 && w.request_rate == 0 && !w.burst) w.concurrency = 16;
    v = 0; if (!n("num-prompts", 1, 200000, v)) return false; w.num_prompts = (int)v;
    v = 1; if (!n("seed", 0, 4e9, v)) return false; w.seed = (uint64_t)v;
    if (const std::string* d = a.get("dist")) {
        if (*d == "fixed") w.dist = LengthDist::Fixed;
        else if (*d == "uniform") { w.dist = LengthDist::Uniform; w.range_ratio = 1.0; }
        else if (*d == "sharegpt") w.dist = LengthDist::ShareGpt;
        else { err = "serve: --dist wants fixed, uniform or sharegpt (got '" + *d + "')"; return false; }
    }
    if (!n("sla-ttft-ms", 0, 1e9, r.sla.ttft_p90_ms) || !n("sla-tpot-ms", 0, 1e9, r.sla.tpot_p90_ms)) return false;
    v = 0; if (!n("shared-prefix", 0, 1e7, v)) return false; w.shared_prefix_len = (int64_t)v;
    v = 1; if (!n("turns", 1, 1000, v)) return false; w.turns = (int)v;
    v = 0; if (!n("session-prefix", 0, 1e7, v)) return false; w.session_prefix_len = (int64_t)v;
    if (!n("think-time", 0, 86400, w.think_time_s)) return false;
    if (const std::string* pc = a.get("prefix-caching")) {
        if (*pc == "on") r.prefix_caching = 1;
        else if (*pc == "off") r.prefix_caching = 0;
        else { err = "serve: --prefix-caching wants on or off (got '" + *pc + "')"; return false; }
    }
    if (!n("kv-offload-cpu-gib", 0, 65536, r.kv_offload.cpu_gib) || !n("kv-offload-nvme-gib", 0, 1048576, r.kv_offload.nvme_gib)) return false;
    return read_disaggregation(a, r, err);
}

void print_result(const ServeRequest& req, const ServeResult& r) {
    const ServeMemoryPlan& m = r.memory;
    const ServeDisaggregation& d = req.disaggregation;
    if (d.enabled())
        printf("%s on %s, %s, disaggregated: %d prefill GPU(s) as tp %d instances + %d decode GPU(s) as tp %d instances (the memory plan "
               "below is a decode instance's)\n", req.engine.c_str(), req.hardware.c_str(), req.precision.c_str(), d.prefill_gpus, d.prefill_tp,
               d.decode_gpus, d.decode_tp);
    else
        printf("%s on %s, %s, tp %d pp %d, %d GPU(s)\n", req.engine.c_str(), req.hardware.c_str(), req.precision.c_str(), req.tp, req.pp, req.gpus);
    printf("memory per GPU (GiB): total %.2f, budget %.2f, weights %.2f, activation peak %.2f, CUDA graphs %.2f, runtime %.2f\n",
           m.gpu_total_bytes / (double)kGiB, m.budget_bytes / (double)kGiB, m.weights_bytes / (double)kGiB, m.activation_peak_bytes / (double)kGiB,
           m.cuda_graph_bytes / (double)kGiB, m.runtime_bytes / (double)kGiB);
    printf("KV pool: %.2f GiB = %lld blocks x %d tokens = %lld tokens (%llu bytes/token); max concurrency at %lld tokens: %.2fx; "
           "largest max_model_len %lld\n", m.kv_pool_bytes / (double)kGiB, (long long)m.kv_pool_blocks, m.block_size,
           (long long)m.kv_pool_tokens, (unsigned long long)m.kv_bytes_per_token, (long long)m.max_model_len, m.max_concurrency,
           (long long)m.largest_max_model_len);
    for (const std::string& rule : m.rules) printf("  - %s\n", rule.c_str());
    if (!r.ok) { printf("error: %s\n", r.error.c_str()); return; }
    const ServeLoad& l = r.load;
    printf("load: %d requests in %.1f s: %.1f output tok/s (band %.1f..%.1f), %.1f total tok/s, %.2f req/s\n", l.completed,
           l.duration_s, l.output_tok_s, r.low, r.high, l.total_tok_s, l.req_s);
    printf("%-6s %9s %9s %9s %9s\n", "ms", "mean", "median", "p90", "p99");
    auto row = [](const char* n, const LatencyStats& s) { printf("%-6s %9.1f %9.1f %9.1f %9.1f\n", n, s.mean, s.median, s.p90, s.p99); };
    row("TTFT", l.ttft_ms); row("TPOT", l.tpot_ms); row("ITL", l.itl_ms); row("E2E", l.e2e_ms);
    printf("queueing share of TTFT %.0f %%, KV pool use mean %.0f %% / peak %.0f %%, mean batch %.1f, preemptions %lld\n",
           l.queueing_share * 100, l.kv_use_mean * 100, l.kv_use_peak * 100, l.mean_batch, (long long)l.preemptions);
    const StepBreakdown& s = r.step;
    printf("a decode step at batch %d: %.2f ms = max(weights %.2f + KV %.2f, compute %.2f) + overhead %.2f + all-reduce/PP %.2f ms "
           "(%s-bound, network %.0f %%)\n", s.batch, s.step_s * 1e3, s.weights_s * 1e3, s.kv_s * 1e3, s.compute_s * 1e3,
           s.overhead_s * 1e3, s.allreduce_s * 1e3, s.bound.c_str(), s.network_share * 100);
    if (s.moe_fixed_s > 0)
        printf("  of the overhead, %.2f ms is the MoE layers' fixed kernel-chain latency (35 us per MoE layer, vllm#24700 "
               "benchmark_moe: Qwen3-30B-A3B FP8 on H100 minus its weight reads)\n", s.moe_fixed_s * 1e3);
    const ServeCost& c = r.cost;
    auto usd = [](double v) { static char b[4][32]; static int i = 0; i = (i + 1) % 4; if (v < 0) snprintf(b[i], 32, "n/a"); else snprintf(b[i], 32, "$%.3f", v); return b[i]; };
    printf("cost per 1M output tokens: own %s batched vs %s single stream (%.1f tok/s); rent %s vs %s; %.0f vs %.0f Wh\n",
           usd(c.usd_per_mtok_own_batched), usd(c.usd_per_mtok_own_single), c.single_stream_tok_s, usd(c.usd_per_mtok_rent_batched),
           usd(c.usd_per_mtok_rent_single), c.wh_per_mtok_batched, c.wh_per_mtok_single);
    printf("command: %s\n", r.command.c_str());
    for (const std::string& n : r.notes) printf("note: %s\n", n.c_str());
    for (const std::string& n : r.prefix.lines) printf("prefix: %s\n", n.c_str());
    for (const std::string& l : r.disagg.lines) printf("disaggregation: %s\n", l.c_str());
}

// --deploy FILE|-: the Dynamo graph for the request; "-" = stdout
int write_deploy(const Catalog& cat, const ServeRequest& req, const std::string& where) {
    std::string yaml, err;
    if (!serve_deploy_yaml(cat, req, yaml, err)) return fail("serve --deploy: " + err);
    if (where == "-") { printf("%s", yaml.c_str()); return 0; }
    FILE* f = fopen(where.c_str(), "wb");
    if (!f) return fail("serve --deploy: cannot write " + where);
    fwrite(yaml.data(), 1, yaml.size(), f);
    fclose(f);
    fprintf(stderr, "wrote %s (%zu bytes): kubectl apply -f %s\n", where.c_str(), yaml.size(), where.c_str());
    return 0;
}

int run_search(const Catalog& cat, ServeRequest req, bool disagg, const std::string* deploy) {
    if (req.sla.ttft_p90_ms <= 0 && req.sla.tpot_p90_ms <= 0) { req.sla.ttft_p90_ms = 1000; req.sla.tpot_p90_ms = 50; }
    SlaSearch space;
    space.disaggregated = disagg;
    if (disagg) {   // the P:D splits of the request's device and GPU count (the whole device list x splits is large)
        space.gpu_counts = {req.gpus};
        space.engines = {req.engine};
        space.precisions = {req.precision};
        space.datacenter_and_workstation_only = false;
        space.only_hardware = req.hardware;
    }
    SlaSearchStats st;
    auto t0 = std::chrono::steady_clock::now();
    std::vector<std::string> notes;
    std::vector<SlaPoint> pts = sla_search(cat, req, space, &st, &notes);
    double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    printf("%zu configurations meet TTFT p90 <= %.0f ms, TPOT p90 <= %.0f ms (%d fit, %d serve() runs, %.0f ms)\n", pts.size(),
           req.sla.ttft_p90_ms, req.sla.tpot_p90_ms, st.candidates, st.serve_runs, ms);
    printf("%-4s %-16s %-8s %-6s %4s %-14s %8s %10s %9s %9s %10s %10s\n", "#", "hardware", "engine", "prec", "gpus", "split", "max C", "out tok/s",
           "TTFT p90", "TPOT p90", "$/1M own", "$/1M rent");
    auto usd = [](double v) { static char b[2][32]; static int i = 0; i ^= 1; if (v < 0) snprintf(b[i], 32, "n/a"); else snprintf(b[i], 32, "%.3f", v); return b[i]; };
    for (size_t i = 0; i < pts.size() && i < 30u; ++i) {
        const SlaPoint& p = pts[i];
        char split[32];
        if (p.disagg.enabled()) snprintf(split, sizeof split, "%dP(tp%d):%dD(tp%d)", p.disagg.prefill_gpus, p.disagg.prefill_tp, p.disagg.decode_gpus, p.disagg.decode_tp);
        else snprintf(split, sizeof split, "agg tp%d", p.tp);
        printf("%-4zu %-16s %-8s %-6s %4d %-14s %8d %10.0f %9.0f %9.1f %10s %10s\n", i + 1, p.hardware.c_str(), p.engine.c_str(),
               p.precision.c_str(), p.gpus, split, p.max_concurrency, p.output_tok_s, p.ttft_p90_ms, p.tpot_p90_ms, usd(p.usd_per_mtok_own),
               usd(p.usd_per_mtok_rent));
    }
    if (!pts.empty()) printf("cheapest: %s\n", pts[0].command.c_str());
    for (const std::string& v : notes) printf("note: %s\n", v.c_str());
    if (deploy && !pts.empty()) return write_deploy(cat, sla_point_request(req, pts[0]), *deploy);
    return 0;
}

}  // namespace

int cmd_serve(int argc, char** argv) {
    Args a = parse_args(argc, argv, {"help", "json", "burst", "sweep", "search", "bench", "explain", "no-p2p", "enable-expert-parallel", "disagg"});
    if (a.has("help")) { printf("%s", help_text().c_str()); return 0; }
    static const char* known[] = {"engine", "model", "hardware", "precision", "kv-dtype", "interconnect", "tp", "pp", "gpus",
                                  "max-model-len", "gpu-memory-utilization", "mem-fraction-static", "max-num-seqs",
                                  "max-num-batched-tokens", "block-size", "max-loras", "max-lora-rank", "input-len", "output-len", "dist", "concurrency",
                                  "request-rate", "burst", "num-prompts", "seed", "sla-ttft-ms", "sla-tpot-ms", "sweep",
                                  "search", "bench", "json", "request", "gpus-per-node", "nics-per-node", "explain",
                                  "no-p2p", "engine-version", "shared-prefix", "turns", "think-time", "prefix-caching", "session-prefix",
                                  "kv-offload-cpu-gib", "kv-offload-nvme-gib",
                                  "enable-expert-parallel", "prefill-gpus", "decode-gpus", "prefill-tp", "decode-tp", "kv-link",
                                  "deploy", "disagg"};
    for (const auto& kv : a.options) {
        bool ok = false;
        for (const char* k : known) ok |= kv.first == k;
        if (!ok) return fail("serve: unknown option --" + kv.first + " (try llmsim-cli serve --help)");
    }
    Catalog cat;
    if (!load_catalog(cat)) return 1;
    std::string err;
    ServeRequest req;
    if (a.has("bench")) { printf("serve --bench: %s", sla_bench(cat).c_str()); return 0; }
    if (!read_request(a, cat, req, err)) return fail(err);
    if (a.has("search")) return run_search(cat, req, a.has("disagg"), a.get("deploy"));
    if (const std::string* d = a.get("deploy")) return write_deploy(cat, req, *d);
    if (a.has("sweep")) {
        printf("%6s %10s %10s %10s %10s %10s\n", "C", "out tok/s", "TTFT p90", "TPOT p90", "KV use", "SLA");
        for (int c : {1, 2, 4, 8, 16, 32, 64, 128, 256}) {
            ServeRequest q = closed_loop_at(req, c);   // default_num_prompts(), as the SLA bisection below runs them
            if (req.workload.num_prompts > 0) q.workload.num_prompts = req.workload.num_prompts;   // an explicit count wins
            ServeResult r = serve(cat, q);
            if (!r.ok) return fail("serve: " + r.error);
            bool ok = (req.sla.ttft_p90_ms <= 0 || r.load.ttft_ms.p90 <= req.sla.ttft_p90_ms) &&
                      (req.sla.tpot_p90_ms <= 0 || r.load.tpot_ms.p90 <= req.sla.tpot_p90_ms);
            printf("%6d %10.0f %10.0f %10.1f %9.0f%% %10s\n", c, r.load.output_tok_s, r.load.ttft_ms.p90, r.load.tpot_ms.p90,
                   r.load.kv_use_peak * 100, ok ? "meets" : "misses");
        }
        ServeResult best;
        int c = sla_max_concurrency(cat, req, 256, &best);
        if (req.sla.ttft_p90_ms > 0 || req.sla.tpot_p90_ms > 0)
            printf("largest concurrency meeting the SLA: %d (%.0f output tok/s)\n", c, best.load.output_tok_s);
        return 0;
    }
    {   // bad input (unknown engine, model, device, parallelism) fails before anything is printed
        ServeMemoryPlan mp;
        if (!serve_memory(cat, req, mp, err)) return fail("serve: " + err);
    }
    ServeResult r = serve(cat, req);
    // a disaggregation block that cannot run (pools, link) fails before anything is printed, as above
    if (req.disaggregation.enabled() && !r.ok && r.memory.gpu_total_bytes == 0 && !a.has("json")) return fail("serve: " + r.error);
    serve_prefix_comparison(cat, req, r);   // a sharing workload: the same run without the cache (and the SLA's concurrency)
    if (a.has("json")) { printf("%s\n", serve_result_json(req, r).c_str()); return r.ok ? 0 : 2; }
    print_result(req, r);
    if (a.has("explain") && r.ok) {
        for (const std::string& l : r.network) printf("%s\n", l.c_str());
        ServingAccuracy acc;
        std::string aerr;
        if (load_builtin_serving_accuracy(acc, aerr)) printf("validation: %s\n", serving_validation_line(acc, req.engine).c_str());
    }
    return r.ok ? 0 : 2;
}

}  // namespace llmsim::cli
