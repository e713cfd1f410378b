// Serving many users: the serving engine (engine/serving/serving.h) for the scenario's model and device under
// vLLM, SGLang, llama-server ...: memory plan, throughput / TTFT / TPOT against concurrency with the SLA lines,
// the largest concurrency within the SLA, where a step's time goes, cost at the served load and the command.
// [SECTION] request
// [SECTION] compute
// [SECTION] explanations
// [SECTION] inputs
// [SECTION] results
// [SECTION] JSON
#include <imgui.h>
#include <imgui_stdlib.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cmath>
#include <locale>
#include <sstream>

#include <nlohmann/json.hpp>

#include "core/format.h"
#include "core/input_limits.h"
#include "serving/serve_network.h"
#include "panels.h"
#include "panel_accuracy.h"
#include "plot.h"
#include "widgets.h"
#include "rig/resolve_device.h"

const int kServingSweep[9] = {1, 2, 4, 8, 16, 32, 64, 128, 256};

namespace {

const char* const kPrecisions[] = {"bf16", "fp16", "fp8", "nvfp4", "mxfp4", "int4-awq", "int4-gptq", "int8"};

const char* engine_name(const std::string& e) { return serving_engine_name(e); }

}  // namespace

const char* serving_engine_name(const std::string& e) {
    const llmsim::Engine* row = llmsim::find_engine(e);
    return row ? row->display_name : e.c_str();
}

namespace {

// the row of the section's engine; nullptr for an unknown id (a hand-edited URL: serve() reports it)
const llmsim::Engine* engine_of(const Scenario& s) { return llmsim::find_engine(s.sv_engine); }
bool takes_gguf(const Scenario& s) { const llmsim::Engine* e = engine_of(s); return e && e->weights == llmsim::WeightFormat::GgufFileType; }

bool is_file_type(const AppState& app, const std::string& name) {
    for (const llmsim::FileType& f : app.catalog.file_types)
        if (f.gguf && f.name == name) return true;
    return false;
}

// the precision the engine gets: llama-server takes a GGUF file type (the scenario's quant unless one is chosen)
std::string effective_precision(const AppState& app) {
    const Scenario& s = app.scenario;
    if (takes_gguf(s)) return is_file_type(app, s.sv_precision) ? s.sv_precision : s.quant;
    if (!s.sv_precision.empty()) return s.sv_precision;
    return app.derived.model ? llmsim::release_precision(*app.derived.model) : "bf16";   // the model as published
}

// the expert-parallel switch applies: a MoE model on an engine whose EP is modelled (vLLM ignores
// --enable-expert-parallel on a dense model too: it has no FusedMoE layer to distribute)
bool ep_applies(const AppState& app) {
    return app.derived.model && app.derived.model->is_moe() && llmsim::serve_engine_has_expert_parallel(app.scenario.sv_engine);
}

// the engine's own words for expert parallel over the TP group (the flag serve()'s command line adds)
std::string ep_flag(const std::string& engine, int tp) {
    const llmsim::Engine* e = llmsim::find_engine(engine);
    return e ? llmsim::expert_parallel_flag(*e, tp) : "";
}

bool meets_sla(const Scenario& s, double ttft_p90_ms, double tpot_p90_ms) {
    return (s.sv_ttft_ms <= 0 || ttft_p90_ms <= s.sv_ttft_ms) && (s.sv_tpot_ms <= 0 || tpot_p90_ms <= s.sv_tpot_ms);
}

}  // namespace

// [SECTION] request -----------------------------------------------------------------------------------------

int serving_num_prompts(int concurrency) {
    llmsim::ServeWorkload w;
    w.concurrency = concurrency;
    return llmsim::default_num_prompts(w);
}

bool serving_request_from_scenario(const AppState& app, llmsim::ServeRequest& r, std::string& err) {
    const Scenario& s = app.scenario;
    const Derived& d = app.derived;
    if (!d.model) { err = "no model: pick one in the top bar"; return false; }
    if (!app.scenario_hardware_ok) { err = "no device: pick one in the top bar"; return false; }
    if (s.sv_gmu != 0 && (s.sv_gmu < 0.05 || s.sv_gmu > 1)) { err = "GPU memory share must be 0.05 to 1 (or 0: engine default)"; return false; }
    r = llmsim::ServeRequest();
    r.engine = s.sv_engine;
    r.model = d.model->id;
    r.precision = effective_precision(app);
    r.kv_dtype = s.sv_kv.empty() ? "auto" : s.sv_kv;
    // a catalog device by id (the JS API's form); a custom device or N of a card as the page's own device
    if (s.hardware != "custom" && s.gpus == 0 && llmsim::resolve_device(app.catalog, s.hardware)) r.hardware = s.hardware;
    else { r.hardware = app.scenario_hardware.id; r.hardware_override = std::make_shared<llmsim::Hardware>(app.scenario_hardware); }
    r.gpus = s.sv_gpus > 0 ? s.sv_gpus : std::max(1, app.scenario_hardware.gpu_count);
    r.pp = std::max(1, s.sv_pp);
    r.tp = s.sv_tp > 0 ? s.sv_tp : std::max(1, r.gpus / r.pp);
    r.interconnect = s.sv_net;   // "" = the device's own link in a node, ib-ndr between nodes
    r.max_model_len = s.sv_max_len;
    const llmsim::Engine* e = engine_of(s);
    if (e && e->memory_share == llmsim::MemoryShareKnob::MemFractionStatic) r.mem_fraction_static = s.sv_gmu;
    else r.gpu_memory_utilization = s.sv_gmu;
    r.workload.input_len = s.sv_in;
    r.workload.output_len = s.sv_out;
    std::string stage_err;
    if (!parse_rate_stages_text(s.sv_stages, r.workload.rate_stages, stage_err)) { err = "Staged rates (sv_stages): " + stage_err; return false; }
    if (!r.workload.rate_stages.empty()) r.workload.num_prompts = 0;   // the ladder drives the load (serving.h RateStage)
    else if (s.sv_rate > 0) { r.workload.request_rate = s.sv_rate; r.workload.num_prompts = 0; }
    else { r.workload.concurrency = s.sv_conc; r.workload.num_prompts = 0; }   // 0: default_num_prompts(), as everywhere
    r.sla.ttft_p90_ms = s.sv_ttft_ms;
    r.sla.tpot_p90_ms = s.sv_tpot_ms;
    r.workload.shared_prefix_len = std::min<int64_t>(s.sv_prefix, std::max<int64_t>(0, s.sv_in - 1));
    r.workload.turns = std::max(1, s.sv_turns);
    r.workload.think_time_s = s.sv_think_s;
    r.workload.prefix_groups = s.sv_groups;     // serve() refuses groups > 1 without a shared prefix, by name
    r.workload.prompts_per_group = s.sv_ppg;
    if (e && (e->id == llmsim::EngineId::Vllm || e->id == llmsim::EngineId::Sglang)) { r.kv_offload.cpu_gib = s.sv_cpu_gib; r.kv_offload.nvme_gib = s.sv_nvme_gib; }
    r.max_loras = s.sv_loras;            // 0 = LoRA off; the engine refuses it for anything but vLLM and odd ranks
    r.max_lora_rank = s.sv_lora_rank;
    r.expert_parallel = s.sv_ep && ep_applies(app);
    if (s.sv_pd_p > 0) {   // prefill/decode disaggregation (panel_serving_disagg.cpp): the pools set the GPUs
        r.disaggregation.prefill_gpus = s.sv_pd_p; r.disaggregation.decode_gpus = std::max(1, s.sv_pd_d);
        r.disaggregation.prefill_tp = std::max(1, s.sv_pd_ptp); r.disaggregation.decode_tp = std::max(1, s.sv_pd_dtp);
        r.disaggregation.link = s.sv_pd_link;
        r.gpus = r.disaggregation.prefill_gpus + r.disaggregation.decode_gpus; r.tp = r.disaggregation.decode_tp; r.pp = 1;
    }
    return true;
}

std::string serving_request_json(const llmsim::ServeRequest& r) {
    nlohmann::json j = {{"engine", r.engine}, {"model", r.model}, {"precision", r.precision}, {"kv_dtype", r.kv_dtype},
                        {"hardware", r.hardware}, {"gpus", r.gpus}, {"tp", r.tp}, {"pp", r.pp}};
    if (!r.interconnect.empty()) j["interconnect"] = r.interconnect;
    if (r.max_model_len > 0) j["max_model_len"] = r.max_model_len;
    if (r.gpu_memory_utilization > 0) j["gpu_memory_utilization"] = r.gpu_memory_utilization;
    if (r.mem_fraction_static > 0) j["mem_fraction_static"] = r.mem_fraction_static;
    if (r.max_loras > 0) { j["max_loras"] = r.max_loras; j["max_lora_rank"] = r.max_lora_rank; }
    if (r.expert_parallel) j["ep"] = true;
    if (r.disaggregation.enabled()) {
        const llmsim::ServeDisaggregation& d = r.disaggregation;
        j["disaggregation"] = {{"prefill_gpus", d.prefill_gpus}, {"decode_gpus", d.decode_gpus}, {"prefill_tp", d.prefill_tp},
                               {"decode_tp", d.decode_tp}};
        if (!d.link.empty()) j["disaggregation"]["link"] = d.link;
    }
    nlohmann::json w = {{"input_len", r.workload.input_len}, {"output_len", r.workload.output_len}};
    if (r.workload.concurrency > 0) w["concurrency"] = r.workload.concurrency;
    if (r.workload.request_rate > 0) w["request_rate"] = r.workload.request_rate;
    if (r.workload.num_prompts > 0) w["num_prompts"] = r.workload.num_prompts;
    if (r.workload.shared_prefix_len > 0) w["shared_prefix_len"] = r.workload.shared_prefix_len;
    if (r.workload.turns > 1) { w["turns"] = r.workload.turns; w["think_time_s"] = r.workload.think_time_s; }
    if (r.workload.prefix_groups > 1) w["prefix_groups"] = r.workload.prefix_groups;
    if (r.workload.prompts_per_group > 0) w["prompts_per_group"] = r.workload.prompts_per_group;
    if (!r.workload.rate_stages.empty()) {
        nlohmann::json st = nlohmann::json::array();
        for (const llmsim::ServeWorkload::RateStage& sg : r.workload.rate_stages) st.push_back({{"rate", sg.rate}, {"duration_s", sg.duration_s}});
        w["rate_stages"] = st;
    }
    if (r.kv_offload.cpu_gib > 0 || r.kv_offload.nvme_gib > 0) j["kv_offload"] = {{"cpu_gib", r.kv_offload.cpu_gib}, {"nvme_gib", r.kv_offload.nvme_gib}};
    j["workload"] = w;
    j["sla"] = {{"ttft_p90_ms", r.sla.ttft_p90_ms}, {"tpot_p90_ms", r.sla.tpot_p90_ms}};
    return j.dump();
}

std::string serving_load_words(const AppState& app) {
    const llmsim::ServeRequest& r = app.serving.request;
    std::string w = std::string(engine_name(r.engine)) + " · " + r.precision + " · " + std::to_string(r.gpus) + (r.gpus == 1 ? " GPU" : " GPUs");
    if (r.tp > 1 || r.pp > 1) w += " (TP " + std::to_string(r.tp) + ", PP " + std::to_string(r.pp) + ")";
    if (r.expert_parallel) w += " · expert parallel";
    if (r.max_loras > 0) w += " · " + std::to_string(r.max_loras) + " LoRA slots (rank " + std::to_string(r.max_lora_rank) + ")";
    const std::vector<llmsim::ServeWorkload::RateStage>& ladder = r.workload.rate_stages;
    if (!ladder.empty()) {
        double lo = ladder[0].rate, hi = ladder[0].rate;
        for (const llmsim::ServeWorkload::RateStage& sg : ladder) { lo = std::min(lo, sg.rate); hi = std::max(hi, sg.rate); }
        w += " · " + std::to_string(ladder.size()) + (ladder.size() == 1 ? " stage at " : " stages at ") + llmsim::format_sig(lo) +
             (hi > lo ? "–" + llmsim::format_sig(hi) : "") + " requests/s";
    } else if (r.workload.request_rate > 0) w += " · " + llmsim::format_sig(r.workload.request_rate) + " requests/s";
    else w += " · " + std::to_string(r.workload.concurrency) + " in flight";
    w += " · " + std::to_string(r.workload.input_len) + " in / " + std::to_string(r.workload.output_len) + " out tokens";
    if (r.workload.shared_prefix_len > 0) w += " (" + std::to_string(r.workload.shared_prefix_len) + " shared)";
    if (r.workload.turns > 1) w += " · " + std::to_string(r.workload.turns) + "-turn sessions";
    if (r.workload.prefix_groups > 1) w += " · " + std::to_string(r.workload.prefix_groups) + " prefix groups";
    if (r.workload.prompts_per_group > 0) w += " · a pool of " + std::to_string(std::max(1, r.workload.prefix_groups) * r.workload.prompts_per_group) + " prompts";
    return w;
}

// [SECTION] explanations --------------------------------------------------------------------------------------

namespace {

std::string serving_ms(double s) { return llmsim::format_sig(s * 1e3) + " ms"; }

// expert parallel at the chosen point: what it changes next to the same request with the experts sharded over TP
// (st.ep_off), the engine's own note on the busiest GPU, and what is not modelled
void add_ep_explanation(ServingState& st) {
    const llmsim::ServeRequest& q = st.request;
    const llmsim::ServeResult& r = st.result;
    const llmsim::StepBreakdown& s = r.step;
    std::string text = "expert parallel (" + ep_flag(q.engine, q.tp) + "): each of the TP " + std::to_string(q.tp) +
        " GPUs holds whole experts instead of 1/" + std::to_string(q.tp) + " of every expert, so a step waits for the busiest GPU's "
        "experts (in the weights term). Physics only: no published serving run uses EP, so no measurement validates these numbers.";
    if (st.ep_off.ok)
        text += " Here: decode step " + serving_ms(s.step_s) + " with EP vs " + serving_ms(st.ep_off.step.step_s) + " with the experts sharded over TP; output " +
                llmsim::format_sig(r.load.output_tok_s) + " vs " + llmsim::format_sig(st.ep_off.load.output_tok_s) + " tok/s; TPOT p90 " +
                llmsim::format_sig(r.load.tpot_ms.p90) + " vs " + llmsim::format_sig(st.ep_off.load.tpot_ms.p90) + " ms.";
    else if (q.tp < 2)
        text += " At TP 1 the EP group is one GPU: nothing changes.";
    std::vector<std::string> inputs;
    for (const std::string& n : r.notes) if (n.rfind("expert parallel", 0) == 0) inputs.push_back("engine: " + n);
    inputs.push_back("MoE kernel chain (router, align, two grouped GEMMs, sum): " + serving_ms(s.moe_fixed_s) + " of the " + serving_ms(s.overhead_s) + " overhead");
    inputs.push_back("communication: the MoE output is still summed by the TP all-reduce (" + serving_ms(s.allreduce_s) +
                     " a step); all-to-all: none modelled (it belongs to data-parallel attention, DeepEP / pplx; attention stays TP here)");
    inputs.push_back("experts per GPU: vLLM fused_moe/layer.py determine_expert_map (ceil(E / EP) on the busiest rank); engine/serving/serve_memory.cpp");
    st.explanations.push_back({"serve_ep", "EP " + std::to_string(q.tp), std::move(text), std::move(inputs)});
}

// a staged ladder: how each stage's figures are made (serve_load.cpp draw_staged_requests; ServeLoad::Stage), one line
// per stage as `serve --explain` prints them (serve_prefix.cpp explain_prefix)
void add_stages_explanation(ServingState& st) {
    const llmsim::ServeLoad& l = st.result.load;
    std::vector<std::string> lines;
    int requests = 0;
    for (size_t k = 0; k < l.stages.size(); ++k) {
        const llmsim::ServeLoad::Stage& sg = l.stages[k];
        requests += sg.requests;
        lines.push_back("stage " + std::to_string(k + 1) + " at " + llmsim::format_sig(sg.rate) + " requests/s: " + std::to_string(sg.requests) +
                        " requests over " + llmsim::format_sig(sg.duration_s) + " s, " + llmsim::format_sig(sg.output_tok_s) + " output tok/s, TTFT mean " +
                        llmsim::format_sig(sg.ttft_ms.mean) + " ms / p90 " + llmsim::format_sig(sg.ttft_ms.p90) + " ms, TPOT p90 " +
                        llmsim::format_sig(sg.tpot_ms.p90) + " ms, hit rate " + llmsim::format_sig(sg.prefix_hit_rate * 100) + " %");
    }
    st.explanations.push_back({"serve_stages", std::to_string(l.stages.size()) + " stages, " + std::to_string(requests) + " requests",
        "staged arrivals (inference-perf load_generator.py run_stage): stage k sends int(rate x seconds) requests at Poisson times "
        "from its start, and the next stage starts only when every one of them has finished; the request index (and so the pool "
        "prompt) restarts each stage. A stage's output tok/s = its output tokens / (its start to its last completion, the "
        "duration column); its TTFT and TPOT are its own requests'. Each replica gets a request with probability 1 / replicas.",
        lines});
}

void build_serving_explanations(ServingState& st) {
    st.explanations.clear();
    const llmsim::ServeResult& r = st.result;
    const llmsim::ServeMemoryPlan& m = r.memory;
    auto add = [&](const char* key, std::string value, std::string text, std::vector<std::string> inputs) {
        st.explanations.push_back({key, std::move(value), std::move(text), std::move(inputs)});
    };
    add("serve_kv_pool", gib_text(m.kv_pool_bytes),
        "KV pool per GPU = budget " + gib_text(m.budget_bytes) + " - weights " +
            gib_text(m.weights_bytes) + " - activation peak " + gib_text(m.activation_peak_bytes) +
            " - runtime " + gib_text(m.runtime_bytes) +
            (m.lora_bytes > 0 ? " - LoRA slots " + gib_text(m.lora_bytes) : std::string()) +
            " (the engine's own rules below); " +
            std::to_string(m.kv_pool_blocks) + " blocks x " + std::to_string(m.block_size) + " tokens = " + std::to_string(m.kv_pool_tokens) +
            " tokens at " + std::to_string(m.kv_bytes_per_token) + " bytes per token",
        m.rules);
    if (r.prefix.active) {   // prefix cache: the hit rate, the tiers and the comparison, number by number
        const llmsim::ServeLoad& l = r.load;
        add("serve_prefix_hit", llmsim::format_sig(l.prefix_hit_rate * 100) + " %",
            "prefix-cache hit rate = " + std::to_string(l.prefix_hit_tokens) + " cached / " + std::to_string(l.prompt_tokens) +
                " prompt tokens; " + std::to_string(l.prefill_tokens_computed) + " prompt tokens computed",
            r.prefix.lines);
    }
    if (!r.load.stages.empty()) add_stages_explanation(st);
    if (m.lora_bytes > 0) {
        const llmsim::ServeRequest& q = st.request;
        std::vector<std::string> rules;
        for (const std::string& rule : m.rules) if (rule.rfind("LoRA", 0) == 0) rules.push_back(rule);
        rules.push_back("vLLM accepts max-lora-rank 1, 8, 16, 32, 64, 128, 256, 320 or 512; a smaller adapter still fills a full-rank slot");
        add("serve_lora", gib_text(m.lora_bytes),
            "LoRA slots per GPU = " + std::to_string(q.max_loras) + " slots (--max-loras) x the A and B buffers of every wrapped linear at rank " +
                std::to_string(q.max_lora_rank) + " (--max-lora-rank), in the activations' 16-bit type, sharded like the layer under TP " +
                std::to_string(q.tp) + "; vLLM allocates them before profiling, so they come off the KV pool",
            rules);
    }
    add("serve_max_concurrency", llmsim::format_fixed(m.max_concurrency, 2) + "x",
        "max concurrency = KV pool tokens / tokens one request may hold (max-model-len " + std::to_string(m.max_model_len) +
            ", rounded up to whole blocks); largest max-model-len = " + std::to_string(m.largest_max_model_len) + " tokens (one sequence fills the pool)",
        {"KV pool = " + std::to_string(m.kv_pool_tokens) + " tokens", "block size = " + std::to_string(m.block_size) + " tokens"});
    const llmsim::StepBreakdown& s = r.step;
    const bool ep = st.request.expert_parallel;
    std::vector<std::string> step_inputs = {
        ep ? "weights: the dense layers' share + the experts the busiest EP GPU touches, / effective bandwidth"
           : "weights: the GPU's share of the weight bytes / effective bandwidth",
        "KV: the KV bytes of every sequence at its depth / effective bandwidth",
        "compute: FLOPs of the batch (+ prefill chunk tokens " + std::to_string(s.prefill_tokens) + ") / effective tensor rate",
        "rates and overheads: the engine's fit on published serving runs (tools/calibration/serve_fit.cpp)"};
    if (s.moe_fixed_s > 0) step_inputs.push_back("MoE: the fixed latency of each MoE layer's chain of small kernels = " + serving_ms(s.moe_fixed_s) + " of the overhead");
    if (ep) step_inputs.push_back("expert parallel: no all-to-all is modelled (attention stays TP); the MoE output rides the TP all-reduce");
    add("serve_step", serving_ms(s.step_s),
        "decode step at batch " + std::to_string(s.batch) + " = max(weights " + serving_ms(s.weights_s) + " + KV " + serving_ms(s.kv_s) + ", compute " +
            serving_ms(s.compute_s) + ") + per-step overhead " + serving_ms(s.overhead_s) + " + TP all-reduce / PP hand-off " + serving_ms(s.allreduce_s) + " (" +
            s.bound + "-bound; network " + llmsim::format_sig(s.network_share * 100) + " % of the step)",
        step_inputs);
    const llmsim::ServeLoad& l = r.load;
    add("serve_throughput", llmsim::format_sig(l.output_tok_s) + " tok/s",
        "output throughput = generated tokens / makespan of " + std::to_string(l.completed) + " simulated requests (" +
            llmsim::format_sig(l.duration_s) + " s; continuous batching, mean batch " + llmsim::format_sig(l.mean_batch) + ", " +
            std::to_string(l.preemptions) + " preemptions); band " + llmsim::format_sig(r.low) + " .. " + llmsim::format_sig(r.high) +
            " tok/s from the engine fit's held-out errors",
        {"total (in + out) = " + llmsim::format_sig(l.total_tok_s) + " tok/s", "requests = " + llmsim::format_sig(l.req_s) + " /s",
         "KV pool use: mean " + llmsim::format_sig(l.kv_use_mean * 100) + " %, peak " + llmsim::format_sig(l.kv_use_peak * 100) + " %"});
    add("serve_ttft", llmsim::format_sig(l.ttft_ms.p90) + " ms",
        "TTFT p90 over the simulated requests: waiting for admission (a free slot and KV blocks) + prefill chunks shared with "
        "decodes; " + llmsim::format_sig(l.queueing_share * 100) + " % of TTFT is queueing on average",
        {"mean " + llmsim::format_sig(l.ttft_ms.mean) + " ms, median " + llmsim::format_sig(l.ttft_ms.median) + " ms, p99 " +
         llmsim::format_sig(l.ttft_ms.p99) + " ms"});
    add("serve_tpot", llmsim::format_sig(l.tpot_ms.p90) + " ms",
        "TPOT p90: (end-to-end - TTFT) / (output tokens - 1) per request; each output token waits one step of the whole batch",
        {"mean " + llmsim::format_sig(l.tpot_ms.mean) + " ms, median " + llmsim::format_sig(l.tpot_ms.median) + " ms",
         "ITL p90 " + llmsim::format_sig(l.itl_ms.p90) + " ms (steps with prefill chunks are longer)"});
    const llmsim::ServeCost& c = r.cost;
    add("serve_cost", c.usd_per_mtok_own_batched >= 0 ? "$" + llmsim::format_fixed(c.usd_per_mtok_own_batched, 3) : "n/a",
        "$ per 1M output tokens = the device's monthly cost at 730 busy hours (amortised catalog price + power, or cloud rent) / "
        "the output tokens it makes in those hours, at the served load (batched) or one request at a time (single stream)",
        {"batched " + llmsim::format_sig(l.output_tok_s) + " tok/s vs single stream " + llmsim::format_sig(c.single_stream_tok_s) + " tok/s",
         "Wh per 1M output tokens = GPU TDP x GPUs x hours for 1M tokens"});
    if (st.request.expert_parallel) add_ep_explanation(st);
}

}  // namespace

// [SECTION] compute -----------------------------------------------------------------------------------------

namespace {

// the closed-loop curve: serve() at each sweep concurrency (closed_loop_at: the SLA search's runs too)
void compute_sweep(const AppState& app, const llmsim::ServeRequest& req, ServingState& st) {
    st.sweep.clear();
    for (int c : kServingSweep) {
        llmsim::ServeRequest q = llmsim::closed_loop_at(req, c);
        q.with_single_stream = false;
        llmsim::ServeResult r = llmsim::serve(app.catalog, q);
        if (!r.ok) break;
        st.sweep.push_back({c, r.load.output_tok_s, r.load.ttft_ms.p90, r.load.tpot_ms.p90, false});
    }
}

}  // namespace

// Three caches, so dragging one slider reruns only what depends on it: the sweep depends on neither the chosen
// load nor the SLA; the SLA answer on the SLA; the chosen point and the cost load on everything
void update_serving(AppState& app) {
    ServingState& st = app.serving;
    if (!st.memo.inputs_moved(app.state_version, app.derived.version)) return;
    llmsim::ServeRequest req;
    std::string err;
    const bool have = serving_request_from_scenario(app, req, err);
    // a device override (custom / N of a card) is not in the JSON: key on its name and sizes too
    std::string device;
    if (req.hardware_override)
        device = app.scenario_hardware.name + std::to_string(app.scenario_hardware.memory_bytes) + llmsim::format_sig(app.scenario_hardware.bandwidth_gbs, 6);
    llmsim::ServeRequest base = req;   // without the load and the SLA: what the sweep depends on
    base.workload.concurrency = 0; base.workload.request_rate = 0; base.workload.num_prompts = 0; base.workload.rate_stages.clear();
    base.sla = llmsim::ServeSla();
    const std::string sweep_key = have ? serving_request_json(base) + device : "error:" + err;
    const std::string sla_key = sweep_key + "|" + llmsim::format_sig(req.sla.ttft_p90_ms, 9) + "|" + llmsim::format_sig(req.sla.tpot_p90_ms, 9);
    const std::string key = have ? serving_request_json(req) + device : sweep_key;
    if (!st.memo.key_changed(key)) return;
    const auto t0 = std::chrono::steady_clock::now();
    st.explanations.clear();
    st.result = llmsim::ServeResult();
    st.cost_result = llmsim::ServeResult();
    st.request = req;
    st.error = have ? "" : err;
    st.ep_off = llmsim::ServeResult();
    if (have) st.result = llmsim::serve(app.catalog, req);
    if (have && !st.result.ok) st.error = st.result.error;
    // a sharing workload: the same run with the cache off, and the SLA's largest concurrency with and without it
    if (st.error.empty()) llmsim::serve_prefix_comparison(app.catalog, req, st.result, kServingSweep[8]);
    if (st.error.empty() && req.expert_parallel && req.tp > 1) {   // the EP explanation's comparison: experts sharded over TP
        llmsim::ServeRequest off = req;
        off.expert_parallel = false;
        off.with_single_stream = false;
        st.ep_off = llmsim::serve(app.catalog, off);
    }
    if (!st.error.empty()) {   // nothing below is valid; recompute all of it next time
        st.sweep.clear(); st.sweep_key.clear();
        st.sla_max_concurrency = 0; st.sla_at = llmsim::ServeResult(); st.sla_key.clear();
    } else {
        if (sweep_key != st.sweep_key) { compute_sweep(app, req, st); st.sweep_key = sweep_key; st.sla_key.clear(); }
        for (ServingPoint& p : st.sweep) p.meets = meets_sla(app.scenario, p.ttft_p90_ms, p.tpot_p90_ms);
        if (sla_key != st.sla_key) {
            st.sla_max_concurrency = 0;
            st.sla_at = llmsim::ServeResult();
            if (req.sla.ttft_p90_ms > 0 || req.sla.tpot_p90_ms > 0)
                st.sla_max_concurrency = llmsim::sla_max_concurrency(app.catalog, req, kServingSweep[8], &st.sla_at);
            st.sla_key = sla_key;
        }
        build_serving_explanations(st);
    }
    if (have) {
        st.cost_request = req;
        st.cost_request.workload.input_len = 3 * req.workload.output_len;
        st.cost_result = llmsim::serve(app.catalog, st.cost_request);
    }
    st.compute_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

bool cost_inputs_at_served_load(const AppState& app, llmsim::CostInputs& in) {
    const ServingState& st = app.serving;
    if (!st.cost_result.ok || st.cost_result.load.total_tok_s <= 0) return false;
    in = cost_inputs_from_scenario(app);
    // the page prices its device (N of a card); the serving load may use another number of those GPUs
    const double per = (double)st.cost_request.gpus / std::max(1, app.scenario_hardware.gpu_count);
    in.hardware_price_usd *= per;
    in.device_power_w *= per;
    in.cloud_usd_per_hour *= per;
    // the load is simulated at the cost section's own 3:1 mix, so hours = tokens / total (in + out) rate
    in.prefill_tokens_per_s = in.decode_tokens_per_s = st.cost_result.load.total_tok_s;
    return true;
}

// [SECTION] inputs ------------------------------------------------------------------------------------------

namespace {

bool combo_strings(const char* label, std::string& value, const std::vector<std::string>& items,
                   const char* (*shown)(const std::string&) = nullptr) {
    bool changed = false;
    if (ImGui::BeginCombo(label, shown ? shown(value) : value.c_str())) {
        for (const std::string& it : items) {
            if (ImGui::Selectable(shown ? shown(it) : it.c_str(), it == value)) { value = it; changed = true; }
        }
        ImGui::EndCombo();
    }
    return changed;
}

// the network between nodes once TP x PP spans more than one 8-GPU node: the fabric and its NICs per node, kept as one
// `interconnect` value ("roce-200-x2"; serve_network.h)
bool draw_fabric_inputs(Scenario& s) {
    std::string id = s.sv_net.empty() ? "ib-ndr" : s.sv_net;
    int nics = 0;
    if (size_t x = id.rfind("-x"); x != std::string::npos && x + 2 < id.size() && std::isdigit((unsigned char)id[x + 2])) {
        nics = std::atoi(id.c_str() + x + 2); id = id.substr(0, x);
    }
    std::vector<std::string> ids;
    for (const llmsim::serving::Fabric& f : llmsim::serving::fabrics()) ids.push_back(f.id);
    bool changed = combo_strings("Network between nodes", id, ids);
    ImGui::SameLine();
    help_marker("InfiniBand / RoCE / Ethernet between the nodes: TP or PP past 8 GPUs sends its all-reduces or hand-offs over it "
                "(the step's network share is shown below; the rules and their sources: engine/serving/serve_network.h)");
    if (ImGui::SliderInt("NICs per node", &nics, 0, 8, nics == 0 ? "fabric default" : "%d")) changed = true;
    if (changed) s.sv_net = nics > 0 ? id + "-x" + std::to_string(nics) : id;
    return changed;
}

bool input_tokens(const char* label, int64_t& v, int64_t lo, int64_t hi) {
    int iv = (int)std::min<int64_t>(v, 2000000000);
    if (!ImGui::InputInt(label, &iv, 0, 0) || !ImGui::IsItemDeactivatedAfterEdit()) {
        if (ImGui::IsItemDeactivatedAfterEdit()) { v = std::clamp<int64_t>(iv, lo, hi); return true; }
        return false;
    }
    v = std::clamp<int64_t>(iv, lo, hi);
    return true;
}

// vLLM multi-LoRA: --enable-lora --max-loras N --max-lora-rank R (off by default)
bool draw_lora_inputs(AppState& app) {
    Scenario& s = app.scenario;
    bool changed = false;
    bool on = s.sv_loras > 0;
    if (ImGui::Checkbox("Multi-LoRA (--enable-lora)", &on)) { s.sv_loras = on ? 1 : 0; changed = true; }   // vLLM's default: 1 slot
    note_widget(app, "serving-lora-on");
    if (!on) return changed;
    int n = s.sv_loras;
    if (ImGui::SliderInt("LoRA slots (--max-loras)", &n, 1, 256, "%d", ImGuiSliderFlags_Logarithmic)) { s.sv_loras = std::clamp(n, 1, 256); changed = true; }
    note_widget(app, "serving-lora-slots");
    static const int kRanks[] = {1, 8, 16, 32, 64, 128, 256, 320, 512};   // vllm/config/lora.py MaxLoRARanks
    const std::string shown = std::to_string(s.sv_lora_rank);
    if (ImGui::BeginCombo("--max-lora-rank", shown.c_str())) {
        for (int r : kRanks)
            if (ImGui::Selectable(std::to_string(r).c_str(), r == s.sv_lora_rank)) { s.sv_lora_rank = r; changed = true; }
        ImGui::EndCombo();
    }
    note_widget(app, "serving-lora-rank");
    return changed;
}

// expert parallel, in the engine's own flag, for a MoE model on vLLM / SGLang / TensorRT-LLM only
bool draw_ep_input(AppState& app, int tp) {
    Scenario& s = app.scenario;
    if (!ep_applies(app)) {   // hidden: no stale rects for the e2e checks
        app.widget_rects.erase("serving-ep");
        app.widget_rects.erase("serving-ep-help");
        return false;
    }
    const std::string label = "Expert parallel (" + ep_flag(s.sv_engine, tp) + ")###serving-ep";
    const bool changed = ImGui::Checkbox(label.c_str(), &s.sv_ep);
    note_widget(app, "serving-ep");
    ImGui::SameLine();
    help_marker("Expert parallel: each of the TP GPUs holds whole experts (ceil(experts / TP) on the busiest, vLLM's "
                "determine_expert_map) instead of 1/TP of every expert; attention stays tensor parallel and the MoE output is "
                "still summed by the TP all-reduce (no all-to-all is modelled). Physics only: no published serving run uses "
                "EP, so no measurement validates these numbers.");
    note_widget(app, "serving-ep-help");
    if (s.sv_ep && tp < 2) ImGui::TextDisabled("at TP 1 the EP group is one GPU: nothing changes");
    return changed;
}

bool draw_engine_inputs(AppState& app, float w) {
    Scenario& s = app.scenario;
    bool changed = false;
    ImGui::PushItemWidth(w);
    const std::string engine_before = s.sv_engine;
    changed |= combo_strings("Engine", s.sv_engine, llmsim::serve_engines(), engine_name);
    note_widget(app, "serving-engine");
    if (s.sv_engine != engine_before) {   // precision and KV dtype vocabularies differ between llama-server and the rest
        const llmsim::Engine* before = llmsim::find_engine(engine_before);
        if (takes_gguf(s)) { s.sv_precision = s.quant; s.sv_kv = "auto"; }
        else if (before && before->weights == llmsim::WeightFormat::GgufFileType) { s.sv_precision.clear(); s.sv_kv = "auto"; }
        if (!engine_of(s) || !engine_of(s)->multi_lora) s.sv_loras = 0;   // multi-LoRA slots are modelled for vLLM only
    }
    std::vector<std::string> precs, kvs;
    if (takes_gguf(s)) {
        for (const llmsim::FileType& f : app.catalog.file_types) if (f.gguf) precs.push_back(f.name);
        kvs = {"auto", "q8_0", "q4_0"};
    } else {
        precs.assign(std::begin(kPrecisions), std::end(kPrecisions));
        kvs = {"auto", "fp8"};
    }
    std::string prec = effective_precision(app);
    if (combo_strings(takes_gguf(s) ? "GGUF file type" : "Precision", prec, precs)) { s.sv_precision = prec; changed = true; }
    changed |= combo_strings("KV cache dtype", s.sv_kv, kvs);
    int gpus = s.sv_gpus > 0 ? s.sv_gpus : std::max(1, app.scenario_hardware.gpu_count);
    ImGui::BeginDisabled(s.sv_pd_p > 0);   // disaggregated: the prefill and decode pools below set the GPUs and TP
    if (ImGui::SliderInt("GPUs", &gpus, 1, 16)) { s.sv_gpus = gpus; changed = true; }
    int tp = s.sv_tp > 0 ? s.sv_tp : std::max(1, gpus / std::max(1, s.sv_pp));
    if (ImGui::SliderInt("Tensor parallel (TP)", &tp, 1, std::max(1, gpus))) { s.sv_tp = tp; changed = true; }
    if (ImGui::SliderInt("Pipeline parallel (PP)", &s.sv_pp, 1, std::max(1, gpus))) { if (s.sv_tp == 0) s.sv_tp = tp; changed = true; }
    ImGui::EndDisabled();
    if (tp * std::max(1, s.sv_pp) > 8) changed |= draw_fabric_inputs(s);
    changed |= draw_ep_input(app, tp);
    int64_t len = s.sv_max_len > 0 ? s.sv_max_len : (app.derived.model ? app.derived.model->native_context : 0);
    if (input_tokens("max-model-len (tokens)", len, 1, llmsim::kMaxContextTokens)) { s.sv_max_len = len; changed = true; }
    float gmu = (float)(s.sv_gmu > 0 ? s.sv_gmu : 0.9);
    const llmsim::Engine* row = engine_of(s);
    const char* gmu_label = row && row->memory_share == llmsim::MemoryShareKnob::MemFractionStatic ? "--mem-fraction-static"
                                                                                                 : "GPU memory utilization";
    if (ImGui::SliderFloat(gmu_label, &gmu, 0.5f, 0.98f, s.sv_gmu > 0 ? "%.2f" : "engine default")) { s.sv_gmu = std::round(gmu * 100) / 100; changed = true; }
    if (s.sv_gmu > 0) { ImGui::SameLine(); if (ImGui::SmallButton("default")) { s.sv_gmu = 0; changed = true; } }
    if (row && row->multi_lora) changed |= draw_lora_inputs(app);
    ImGui::PopItemWidth();
    return changed;
}

// a whole number typed into a box: applied when the box is left after an edit, clamped to [lo, hi]
bool input_count(const char* label, int& v, int lo, int hi) {
    int iv = v;
    ImGui::InputInt(label, &iv, 0, 0);
    if (!ImGui::IsItemDeactivatedAfterEdit()) return false;
    v = std::clamp(iv, lo, hi);
    return true;
}

// prefix groups and the prompt pool (ServeWorkload::prefix_groups / prompts_per_group; inference-perf shared_prefix,
// SGLang generated-shared-prefix): G distinct shared prefixes; a pool of G x Q prompts sent in turn
bool draw_group_inputs(AppState& app) {
    Scenario& s = app.scenario;
    bool changed = false;
    ImGui::BeginDisabled(s.sv_prefix <= 0 && s.sv_groups <= 1);   // each group's prefix is the shared prefix above
    changed |= input_count("Prefix groups", s.sv_groups, 1, 100000);
    ImGui::EndDisabled();
    note_widget(app, "serving-groups");
    ImGui::SameLine();
    help_marker("Prefix groups: G distinct shared prefixes of the length above, as inference-perf's shared_prefix data and SGLang's "
                "generated-shared-prefix benchmark make them. Each request draws its group; the group prefixes share the KV pool "
                "and are evicted LRU like the rest (docs/serving-model.md \"Prefix groups\"). Needs a shared prefix.");
    changed |= input_count("Prompts per group", s.sv_ppg, 0, 1000000);
    note_widget(app, "serving-ppg");
    ImGui::SameLine();
    help_marker("Prompts per group Q: a fixed pool of G x Q prompts (a group's prefix + one of its Q questions), shuffled once; "
                "request i sends prompt i mod (G x Q), so a whole prompt recurs (inference-perf SharedPrefixDataGenerator). "
                "0 = every prompt's own part is new. Does not combine with multi-turn sessions.");
    if (s.sv_groups > 1 || s.sv_ppg > 0) {
        ImGui::PushTextWrapPos(0.0f);
        ImGui::TextDisabled("%d group(s) x %lld prefix tokens%s", s.sv_groups, (long long)s.sv_prefix,
                            s.sv_ppg > 0 ? (" · a pool of " + std::to_string((long long)s.sv_groups * s.sv_ppg) + " prompts").c_str() : "");
        ImGui::PopTextWrapPos();
    }
    return changed;
}

// shared prefix, multi-turn sessions and the offload tiers (serving.h; docs/serving-model.md "Prefix caching")
bool draw_prefix_inputs(AppState& app) {
    Scenario& s = app.scenario;
    bool changed = false;
    changed |= input_tokens("Shared prefix tokens", s.sv_prefix, 0, std::max<int64_t>(0, s.sv_in - 1));
    changed |= draw_group_inputs(app);
    changed |= ImGui::SliderInt("Turns per session", &s.sv_turns, 1, 64, "%d", ImGuiSliderFlags_Logarithmic);
    if (s.sv_turns > 1) {
        float think = (float)s.sv_think_s;
        if (ImGui::SliderFloat("Think time (s)", &think, 0.0f, 600.0f, "%.1f")) { s.sv_think_s = think; changed = true; }
    }
    const llmsim::Engine* e = engine_of(s);
    if (e && (e->id == llmsim::EngineId::Vllm || e->id == llmsim::EngineId::Sglang) && (s.sv_prefix > 0 || s.sv_turns > 1)) {
        float cpu = (float)s.sv_cpu_gib, nvme = (float)s.sv_nvme_gib;
        if (ImGui::SliderFloat("KV offload: host RAM (GiB)", &cpu, 0.0f, 2048.0f, "%.0f")) { s.sv_cpu_gib = std::round(cpu); changed = true; }
        if (ImGui::SliderFloat("KV offload: NVMe (GiB)", &nvme, 0.0f, 8192.0f, "%.0f")) { s.sv_nvme_gib = std::round(nvme); changed = true; }
    }
    return changed;
}

// the staged ladder as text ("3:50,10:20"): applied when the box is left or Enter pressed; a bad ladder is refused with
// its reason under the box and the scenario keeps the last good one
bool draw_stage_input(AppState& app) {
    Scenario& s = app.scenario;
    ServingState& st = app.serving;
    // the box shows the scenario's ladder, except while typed in or while a refused ladder is shown with its reason
    if (!st.stages_editing && st.stages_error.empty()) st.stages_edit = s.sv_stages;
    ImGui::InputTextWithHint("Stages (req/s:s, ...)", "3:50,10:20", &st.stages_edit);
    note_widget(app, "serving-stages-input");
    st.stages_editing = ImGui::IsItemActive();
    bool changed = false;
    if (ImGui::IsItemDeactivatedAfterEdit()) {
        std::vector<llmsim::ServeWorkload::RateStage> stages;
        std::string err;
        if (!parse_rate_stages_text(st.stages_edit, stages, err)) st.stages_error = "Staged rates: " + err;
        else if (stages.empty()) st.stages_error = "Staged rates: give at least one rate:seconds (or pick concurrency / request rate)";
        else { st.stages_error.clear(); s.sv_stages = rate_stages_text(stages); changed = true; }
    }
    ImGui::SameLine();
    help_marker("Staged arrivals, as inference-perf's load.stages runs them (load_generator.py run_stage): stage k sends "
                "int(rate x seconds) requests at Poisson times from its start and waits for all of them to finish before the next "
                "stage starts. Each stage's throughput, TTFT and hit rate are shown in the table below the load.");
    if (!st.stages_error.empty()) {
        ImGui::PushTextWrapPos(0.0f);
        ImGui::TextColored(ink_vec4(Ink::Bad), "%s", st.stages_error.c_str());
        ImGui::PopTextWrapPos();
        note_widget(app, "serving-stages-error");
    } else {
        app.widget_rects.erase("serving-stages-error");   // no stale rect for the e2e checks once the ladder is good
    }
    return changed;
}

bool draw_load_inputs(AppState& app, float w) {
    Scenario& s = app.scenario;
    bool changed = false;
    ImGui::PushItemWidth(w);
    changed |= input_tokens("Input tokens / request", s.sv_in, 1, llmsim::kMaxContextTokens);
    changed |= input_tokens("Output tokens / request", s.sv_out, 1, 1000000);
    const bool staged = !s.sv_stages.empty(), open = !staged && s.sv_rate > 0;
    if (ImGui::RadioButton("concurrency", !open && !staged)) { s.sv_rate = 0; s.sv_stages.clear(); changed = true; }
    ImGui::SameLine();
    if (ImGui::RadioButton("request rate", open)) { if (!open) { s.sv_rate = s.sv_rate > 0 ? s.sv_rate : 4; s.sv_stages.clear(); changed = true; } }
    ImGui::SameLine();
    if (ImGui::RadioButton("staged rates", staged)) { if (!staged) { s.sv_stages = "2:30,4:30,8:30"; app.serving.stages_error.clear(); changed = true; } }
    note_widget(app, "serving-load-mode");
    if (!staged) { app.widget_rects.erase("serving-stages-input"); app.widget_rects.erase("serving-stages-error"); }   // no stale rects
    if (staged) changed |= draw_stage_input(app);
    else if (!open) changed |= ImGui::SliderInt("Requests in flight", &s.sv_conc, 1, 512, "%d", ImGuiSliderFlags_Logarithmic);
    else {
        float rate = (float)s.sv_rate;
        if (ImGui::SliderFloat("Requests / s (Poisson)", &rate, 0.1f, 200.0f, "%.2f", ImGuiSliderFlags_Logarithmic)) { s.sv_rate = rate; changed = true; }
    }
    float ttft = (float)s.sv_ttft_ms, tpot = (float)s.sv_tpot_ms;
    if (ImGui::DragFloat("SLA: TTFT p90 (ms)", &ttft, 10.0f, 0.0f, 600000.0f, ttft > 0 ? "%.0f" : "none")) { s.sv_ttft_ms = std::max(0.0f, ttft); changed = true; }
    if (ImGui::DragFloat("SLA: TPOT p90 (ms)", &tpot, 0.5f, 0.0f, 10000.0f, tpot > 0 ? "%.1f" : "none")) { s.sv_tpot_ms = std::max(0.0f, tpot); changed = true; }
    changed |= draw_prefix_inputs(app);
    ImGui::PopItemWidth();
    return changed;
}

void draw_serving_inputs(AppState& app) {
    const float label_w = ImGui::CalcTextSize("Output tokens / request").x + ImGui::GetStyle().ItemInnerSpacing.x * 2;
    const bool wide = ImGui::GetContentRegionAvail().x > ImGui::GetFontSize() * 44;
    bool changed = false;
    if (wide && ImGui::BeginTable("serving-inputs", 2)) {
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        const float w = std::max(ImGui::GetFontSize() * 6, std::min(ImGui::GetContentRegionAvail().x - label_w, ImGui::GetFontSize() * 11));
        changed |= draw_engine_inputs(app, w);
        ImGui::TableNextColumn();
        changed |= draw_load_inputs(app, w);
        ImGui::EndTable();
    } else {
        const float w = std::max(ImGui::GetFontSize() * 6, std::min(ImGui::GetContentRegionAvail().x - label_w, ImGui::GetFontSize() * 11));
        changed |= draw_engine_inputs(app, w);
        changed |= draw_load_inputs(app, w);
    }
    changed |= draw_disagg_inputs(app);
    if (changed) mark_changed(app);
}

// [SECTION] results -----------------------------------------------------------------------------------------

void row2(const char* name, const std::string& value, AppState& app, const char* explain_key = nullptr) {
    ImGui::TableNextRow();
    ImGui::TableNextColumn(); ImGui::TextUnformatted(name);
    ImGui::TableNextColumn(); text_right(value.c_str());
    if (explain_key) explain_item(app, explain_key);
}


void draw_memory_plan(AppState& app) {
    const llmsim::ServeMemoryPlan& m = app.serving.result.memory;
    ImGui::PushFont(app.font_bold); ImGui::TextUnformatted("Memory per GPU (GiB = 2^30 bytes)"); ImGui::PopFont();
    if (!ImGui::BeginTable("serve-mem", 2, ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_SizingFixedFit)) return;
    row2("GPU total", gib_text(m.gpu_total_bytes), app);
    row2("engine budget", gib_text(m.budget_bytes), app);
    row2("weights", gib_text(m.weights_bytes), app);
    row2("activation peak", gib_text(m.activation_peak_bytes), app);
    row2("CUDA graphs", gib_text(m.cuda_graph_bytes), app);
    row2("runtime (CUDA, NCCL)", gib_text(m.runtime_bytes), app);
    if (m.lora_bytes > 0) {
        const llmsim::ServeRequest& q = app.serving.request;
        row2(("LoRA slots (" + std::to_string(q.max_loras) + " x rank " + std::to_string(q.max_lora_rank) + ")").c_str(), gib_text(m.lora_bytes), app, "serve_lora");
        note_widget(app, "serving-lora");
    }
    row2("KV pool", gib_text(m.kv_pool_bytes), app, "serve_kv_pool");
    note_widget(app, "serving-kv-pool");
    row2("KV pool tokens", std::to_string(m.kv_pool_tokens) + " (" + std::to_string(m.kv_pool_blocks) + " blocks x " + std::to_string(m.block_size) + ")", app, "serve_kv_pool");
    row2("max concurrency", llmsim::format_fixed(m.max_concurrency, 2) + "x at " + llmsim::format_tokens(m.max_model_len), app, "serve_max_concurrency");
    row2("largest max-model-len", std::to_string(m.largest_max_model_len) + " tokens", app, "serve_max_concurrency");
    ImGui::EndTable();
}

void draw_load_table(AppState& app) {
    const ServingState& st = app.serving;
    const llmsim::ServeLoad& l = st.result.load;
    ImGui::PushFont(app.font_bold); ImGui::TextUnformatted("At the chosen load"); ImGui::PopFont();
    if (!ImGui::BeginTable("serve-load", 2, ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_SizingFixedFit)) return;
    row2("output throughput", llmsim::format_sig(l.output_tok_s) + " tok/s", app, "serve_throughput");
    row2("band", llmsim::format_sig(st.result.low) + " – " + llmsim::format_sig(st.result.high) + " tok/s", app, "serve_throughput");
    row2("total (in + out)", llmsim::format_sig(l.total_tok_s) + " tok/s", app, "serve_throughput");
    row2("TTFT p90", llmsim::format_sig(l.ttft_ms.p90) + " ms", app, "serve_ttft");
    row2("TPOT p90", llmsim::format_sig(l.tpot_ms.p90) + " ms", app, "serve_tpot");
    row2("KV pool use (peak)", llmsim::format_sig(l.kv_use_peak * 100) + " %", app, "serve_throughput");
    const Scenario& s = app.scenario;
    const bool has_sla = s.sv_ttft_ms > 0 || s.sv_tpot_ms > 0;
    row2("largest concurrency in SLA", !has_sla ? std::string("no SLA set") : st.sla_max_concurrency > 0 ?
         std::to_string(st.sla_max_concurrency) + (st.sla_max_concurrency >= kServingSweep[8] ? "+" : "") + " (" + llmsim::format_sig(st.sla_at.load.output_tok_s) + " tok/s)"
         : std::string("none (even 1 misses)"), app);
    note_widget(app, "serving-sla-max");
    const llmsim::ServePrefixReport& px = st.result.prefix;
    if (px.active) {   // a sharing workload: what the prefix cache skipped and what it holds
        row2("prefix-cache hit rate", llmsim::format_sig(l.prefix_hit_rate * 100) + " % of prompt tokens", app, "serve_prefix_hit");
        if (px.compared) row2("TTFT p90 without the cache", llmsim::format_sig(px.ttft_p90_ms_off) + " ms", app, "serve_prefix_hit");
        if (px.sla_concurrency_off >= 0)
            row2("SLA concurrency with / without", std::to_string(px.sla_concurrency_on) + " / " + std::to_string(px.sla_concurrency_off), app, "serve_prefix_hit");
        if (px.cpu_tier_tokens > 0 || px.nvme_tier_tokens > 0)
            row2("KV tokens GPU / CPU / NVMe", std::to_string(px.gpu_pool_tokens) + " / " + std::to_string(px.cpu_tier_tokens) + " / " +
                 std::to_string(px.nvme_tier_tokens), app, "serve_prefix_hit");
    }
    ImGui::EndTable();
    const bool meets = meets_sla(s, l.ttft_ms.p90, l.tpot_ms.p90);
    if (has_sla) ImGui::TextColored(ink_vec4(meets ? Ink::Good : Ink::Bad), meets ? "● meets the SLA" : "● misses the SLA");
}

// a staged ladder's stages, one row each (ServeLoad::stages, what `serve --explain` prints per stage); at phone width
// the requests and TTFT-mean columns are left out
void draw_stages(AppState& app) {
    const llmsim::ServeLoad& l = app.serving.result.load;
    if (l.stages.empty()) { app.widget_rects.erase("serving-stages"); return; }
    ImGui::PushFont(app.font_bold); ImGui::TextUnformatted("Per stage of the ladder"); ImGui::PopFont();
    explain_item(app, "serve_stages");
    const bool narrow = phone_width(ImGui::GetContentRegionAvail().x);
    static const char* const kTipsWide[] = {"arrival rate of the stage, requests/s (Poisson)", "int(rate x seconds) requests sent in the stage",
        "output tokens / (stage start to its last completion), tok/s", "mean time to first token of the stage's requests, ms",
        "90th percentile TTFT, ms", "90th percentile time per output token, ms", "prompt tokens found in the prefix cache, %"};
    static const char* const kTipsNarrow[] = {kTipsWide[0], kTipsWide[2], kTipsWide[4], kTipsWide[6]};
    const int cols = narrow ? 4 : 7;
    if (!ImGui::BeginTable("serve-stages", cols, ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_SizingFixedFit)) return;
    ImGui::TableSetupColumn("req/s");
    if (!narrow) ImGui::TableSetupColumn("requests");
    ImGui::TableSetupColumn("output tok/s");
    if (!narrow) ImGui::TableSetupColumn("TTFT mean ms");
    ImGui::TableSetupColumn("TTFT p90 ms");
    if (!narrow) ImGui::TableSetupColumn("TPOT p90 ms");
    ImGui::TableSetupColumn("hit %");
    table_header_row(app, "serve-stages", narrow ? "rrrr" : "rrrrrrr", narrow ? kTipsNarrow : kTipsWide);
    for (size_t k = 0; k < l.stages.size(); ++k) {
        const llmsim::ServeLoad::Stage& sg = l.stages[k];
        ImGui::TableNextRow();
        auto cell = [&](const std::string& v, int col) { ImGui::TableNextColumn(); text_right(v.c_str()); note_cell(app, "serve-stages", (int)k, col); };
        int c = 0;
        cell(llmsim::format_sig(sg.rate), c++);
        if (!narrow) cell(std::to_string(sg.requests), c++);
        cell(llmsim::format_sig(sg.output_tok_s), c++);
        if (!narrow) cell(llmsim::format_sig(sg.ttft_ms.mean), c++);
        cell(llmsim::format_sig(sg.ttft_ms.p90), c++);
        if (!narrow) cell(llmsim::format_sig(sg.tpot_ms.p90), c++);
        cell(llmsim::format_sig(sg.prefix_hit_rate * 100), c++);
    }
    ImGui::EndTable();
    note_widget(app, "serving-stages");
}

void draw_plots(AppState& app) {
    const ServingState& st = app.serving;
    const Scenario& s = app.scenario;
    if (st.sweep.empty()) return;
    PlotAxis x{"concurrency", "requests in flight", 1, (double)st.sweep.back().concurrency, true};
    x.pow2_ticks = true;
    x.format = [](double v) { return std::to_string((int)std::lround(v)); };
    const bool closed = st.request.workload.concurrency > 0;
    const double chosen_c = closed ? st.request.workload.concurrency : st.result.load.mean_batch;
    std::vector<PlotVLine> lines;
    if (chosen_c >= 1) lines.push_back({chosen_c, closed ? "chosen " + std::to_string((int)chosen_c) : "mean batch " + llmsim::format_sig(chosen_c)});
    if (st.sla_max_concurrency > 0) lines.push_back({(double)st.sla_max_concurrency, "SLA max " + std::to_string(st.sla_max_concurrency), ink_u32(Ink::Good)});
    const ImU32 curve = ink_u32(Ink::Weights), sla = ink_u32(Ink::Hard), pt = ink_u32(Ink::Limit);
    auto plot = [&](const char* id, const char* name, const char* unit, double (*get)(const ServingPoint&), double target, double chosen, bool log) {
        PlotSeries c{name, {}, {}, curve};
        double lo = 1e30, hi = 0;
        for (const ServingPoint& p : st.sweep) { c.x.push_back(p.concurrency); c.y.push_back(get(p)); lo = std::min(lo, get(p)); hi = std::max(hi, get(p)); }
        std::vector<PlotSeries> series = {c};
        if (target > 0) { series.push_back({"SLA", {x.min, x.max}, {target, target}, sla}); hi = std::max(hi, target); lo = std::min(lo, target); }
        if (closed && chosen > 0) { PlotSeries p{"chosen", {chosen_c}, {chosen}, pt, true}; series.push_back(p); }
        PlotAxis y{name, unit, log ? std::max(1e-3, lo / 1.5) : 0, log ? hi * 1.5 : hi * 1.15 + 1e-9, log};
        draw_plot(id, ImVec2(-1, ImGui::GetFontSize() * 12), x, y, series, lines);
        note_widget(app, id);
    };
    const llmsim::ServeLoad& l = st.result.load;
    const float avail = ImGui::GetContentRegionAvail().x;
    const int cols = avail > ImGui::GetFontSize() * 60 ? 3 : 1;
    if (cols > 1) { ImGui::BeginTable("serve-plots", cols); ImGui::TableNextRow(); ImGui::TableNextColumn(); }
    plot("serving-plot-throughput", "output", "tok/s", [](const ServingPoint& p) { return p.output_tok_s; }, 0, l.output_tok_s, false);
    if (cols > 1) ImGui::TableNextColumn();
    plot("serving-plot-ttft", "TTFT p90", "ms", [](const ServingPoint& p) { return p.ttft_p90_ms; }, s.sv_ttft_ms, l.ttft_ms.p90, true);
    if (cols > 1) ImGui::TableNextColumn();
    plot("serving-plot-tpot", "TPOT p90", "ms", [](const ServingPoint& p) { return p.tpot_p90_ms; }, s.sv_tpot_ms, l.tpot_ms.p90, false);
    if (cols > 1) ImGui::EndTable();
    ImGui::PushTextWrapPos(0.0f);   // it ran off the right edge at phone width
    ImGui::TextDisabled("Each point: %d to %d closed-loop requests simulated (%d x concurrency, at least %d, as the SLA search runs them).",
                        serving_num_prompts(1), serving_num_prompts(st.sweep.back().concurrency), llmsim::kPromptsPerSlot, llmsim::kMinPrompts);
    ImGui::PopTextWrapPos();
}

void draw_step(AppState& app) {
    const llmsim::StepBreakdown& s = app.serving.result.step;
    ImGui::PushFont(app.font_bold); ImGui::TextUnformatted("Where a decode step's time goes"); ImGui::PopFont();
    ImGui::TextWrapped("batch %d: %s ms = max(weights %s + KV %s, compute %s) + overhead %s + all-reduce/PP %s ms — %s-bound, network %s %%",
                       s.batch, llmsim::format_sig(s.step_s * 1e3).c_str(), llmsim::format_sig(s.weights_s * 1e3).c_str(),
                       llmsim::format_sig(s.kv_s * 1e3).c_str(), llmsim::format_sig(s.compute_s * 1e3).c_str(),
                       llmsim::format_sig(s.overhead_s * 1e3).c_str(), llmsim::format_sig(s.allreduce_s * 1e3).c_str(), s.bound.c_str(),
                       llmsim::format_sig(s.network_share * 100).c_str());
    explain_item(app, "serve_step");
    if (s.moe_fixed_s > 0) {
        ImGui::PushTextWrapPos(0.0f);
        ImGui::TextDisabled("MoE kernel chain %s ms of the overhead%s", llmsim::format_sig(s.moe_fixed_s * 1e3).c_str(),
                            app.serving.request.expert_parallel ? "; expert parallel: the busiest GPU's experts in the weights, "
                                                                  "the MoE output in the all-reduce, no all-to-all" : "");
        ImGui::PopTextWrapPos();
        if (app.serving.request.expert_parallel) explain_item(app, "serve_ep");
    }
    // a stacked bar of the step: the bounding side (memory or compute), overhead, all-reduce
    const double mem = s.weights_s + s.kv_s, bound = std::max(mem, s.compute_s), total = bound + s.overhead_s + s.allreduce_s;
    if (total <= 0) return;
    const float w = ImGui::GetContentRegionAvail().x, h = ImGui::GetFontSize() * 1.2f;
    ImVec2 p = ImGui::GetCursorScreenPos();
    ImDrawList* dl = ImGui::GetWindowDrawList();
    struct Part { const char* name; double s; Ink ink; };
    const Part parts[] = {{"weights", mem >= s.compute_s ? s.weights_s : 0, Ink::Weights},
                          {"KV", mem >= s.compute_s ? s.kv_s : 0, Ink::KvCache},
                          {"compute", mem >= s.compute_s ? 0 : s.compute_s, Ink::Compute},
                          {"overhead", s.overhead_s, Ink::Overhead},
                          {"all-reduce", s.allreduce_s, Ink::Hard}};
    float x = p.x;
    for (const Part& part : parts) {
        if (part.s <= 0) continue;
        const float pw = (float)(part.s / total) * w;
        dl->AddRectFilled(ImVec2(x, p.y), ImVec2(x + pw, p.y + h), ink_u32(part.ink));
        const std::string t = std::string(part.name) + " " + llmsim::format_sig(part.s / total * 100, 2) + "%";
        if (ImGui::CalcTextSize(t.c_str()).x < pw - 4) dl->AddText(ImVec2(x + 3, p.y + (h - ImGui::GetFontSize()) * 0.5f), ink_label_u32(part.ink), t.c_str());
        x += pw;
    }
    ImGui::Dummy(ImVec2(w, h));
    note_widget(app, "serving-step-bar");
}

void draw_cost_and_command(AppState& app) {
    const llmsim::ServeResult& r = app.serving.result;
    const llmsim::ServeCost& c = r.cost;
    ImGui::PushFont(app.font_bold); ImGui::TextUnformatted("Cost per 1M output tokens"); ImGui::PopFont();
    auto usd = [](double v) { return v >= 0 ? "$" + llmsim::format_fixed(v, 3) : std::string("—"); };
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextDisabled("own = amortised catalog price + power, rent = cloud rate; both at 730 busy hours a month");
    ImGui::PopTextWrapPos();
    if (ImGui::BeginTable("serve-cost", 3, ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_SizingFixedFit)) {
        ImGui::TableSetupColumn("");
        ImGui::TableSetupColumn("single stream");
        ImGui::TableSetupColumn("batched");
        table_header_row(app, "serve-cost", "lrr");
        auto row = [&](const char* name, const std::string& a, const std::string& b) {
            ImGui::TableNextRow();
            ImGui::TableNextColumn(); ImGui::TextUnformatted(name);
            ImGui::TableNextColumn(); text_right(a.c_str()); explain_item(app, "serve_cost");
            ImGui::TableNextColumn(); text_right(b.c_str()); explain_item(app, "serve_cost");
        };
        row("speed", llmsim::format_sig(c.single_stream_tok_s) + " tok/s", llmsim::format_sig(r.load.output_tok_s) + " tok/s");
        row("own", usd(c.usd_per_mtok_own_single), usd(c.usd_per_mtok_own_batched));
        row("rent", usd(c.usd_per_mtok_rent_single), usd(c.usd_per_mtok_rent_batched));
        row("energy", llmsim::format_sig(c.wh_per_mtok_single) + " Wh", llmsim::format_sig(c.wh_per_mtok_batched) + " Wh");
        ImGui::EndTable();
    }
    ImGui::PushFont(app.font_bold); ImGui::TextUnformatted("Command"); ImGui::PopFont();
    ImGui::PushFont(app.font_mono);
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextUnformatted(r.command.c_str());
    ImGui::PopTextWrapPos();
    ImGui::PopFont();
    copy_button(app, "Copy command##serving", r.command);
    note_widget(app, "serving-copy");
    ImGui::PushTextWrapPos(0.0f);   // long notes (expert parallel, the network) wrap instead of running off the right edge
    for (const std::string& n : r.notes) ImGui::TextDisabled("note: %s", n.c_str());
    for (const std::string& n : r.prefix.lines) ImGui::TextDisabled("prefix cache: %s", n.c_str());
    ImGui::PopTextWrapPos();
}

}  // namespace

// how well the chosen engine's numbers are validated (the embedded held-out report, per engine, never pooled). The
// web page fetches that report after its first frame (app.evidence_deferred): until then the line says so
void draw_validation(AppState& app) {
    if (app.evidence_deferred) { ImGui::TextDisabled("Validation: %s", evidence_wait_text(app).c_str()); return; }
    update_accuracy_serving(app);
    if (!app.accuracy.serving_error.empty()) return;
    ImGui::PushTextWrapPos(0.0f);
    std::string line = llmsim::serving_validation_line(app.accuracy.serving, app.scenario.sv_engine);
    if (size_t at = line.find("+-"); at != std::string::npos) line.replace(at, 2, "\u00b1");   // the UI font has ±
    ImGui::TextDisabled("Validation: %s.", line.c_str());
    // the deployments no fit has seen and the model gets most wrong (assets/calibration/serving_large_heldout.jsonl)
    if (app.derived.model && app.derived.model->is_moe() && app.serving.request.gpus > 1)
        ImGui::TextDisabled("Multi-GPU MoE: on 8-GPU DeepSeek-R1 runs of early-2025 builds held out of every fit, output came "
                            "out 2-3x too fast; 2026 SGLang v0.5.7 runs on 8x H200 land within 4 %% (docs/serving-model.md).");
    ImGui::PopTextWrapPos();
}

void draw_serving(AppState& app) {
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextDisabled("Many users on %s: continuous batching under a serving engine (the model and device of the top bar).",
                        app.scenario_hardware_ok ? app.scenario_hardware.name.c_str() : "the chosen device");
    ImGui::PopTextWrapPos();
    draw_serving_inputs(app);
    update_serving(app);
    const ServingState& st = app.serving;
    if (!st.error.empty()) {
        ImGui::PushTextWrapPos(0.0f);
        ImGui::TextColored(ink_vec4(Ink::Bad), "%s", st.error.c_str());
        ImGui::PopTextWrapPos();
        note_widget(app, "serving-error");
        if (st.result.memory.gpu_total_bytes > 0) draw_memory_plan(app);
        return;
    }
    draw_validation(app);
    const bool wide = ImGui::GetContentRegionAvail().x > ImGui::GetFontSize() * 44;
    if (wide && ImGui::BeginTable("serve-top", 2)) {
        ImGui::TableNextRow();
        ImGui::TableNextColumn(); draw_memory_plan(app);
        ImGui::TableNextColumn(); draw_load_table(app);
        ImGui::EndTable();
    } else {
        draw_memory_plan(app);
        draw_load_table(app);
    }
    draw_stages(app);
    draw_plots(app);
    draw_step(app);
    draw_cost_and_command(app);
    draw_disagg_results(app);
    ImGui::Separator();
    draw_serving_search(app);
}

// [SECTION] JSON ----------------------------------------------------------------------------------------------

std::string serving_to_json(const AppState& app) {
    const ServingState& st = app.serving;
    nlohmann::json j;
    j["request"] = nlohmann::json::parse(serving_request_json(st.request));
    j["error"] = st.error;
    j["compute_ms"] = st.compute_ms;
    j["load_words"] = serving_load_words(app);
    if (!st.memo.key.empty() && st.error.empty()) {
        j["result"] = nlohmann::json::parse(llmsim::serve_result_json(st.request, st.result));
        nlohmann::json sw = nlohmann::json::array();
        for (const ServingPoint& p : st.sweep)
            sw.push_back({{"concurrency", p.concurrency}, {"output_tok_s", p.output_tok_s}, {"ttft_p90_ms", p.ttft_p90_ms},
                          {"tpot_p90_ms", p.tpot_p90_ms}, {"meets", p.meets}});
        j["sweep"] = sw;
        j["sla_max_concurrency"] = st.sla_max_concurrency;
        nlohmann::json ex = nlohmann::json::array();
        for (const llmsim::Explanation& e : st.explanations)
            ex.push_back({{"key", e.key}, {"value", e.value}, {"text", e.text}, {"inputs", e.inputs}});
        j["explanations"] = ex;
        // the texts the panel shows for the memory plan and the load (e2e compares them with serve()'s numbers)
        const llmsim::ServeMemoryPlan& m = st.result.memory;
        j["shown"] = {{"kv_pool", gib_text(m.kv_pool_bytes)}, {"weights", gib_text(m.weights_bytes)}, {"lora", m.lora_bytes > 0 ? gib_text(m.lora_bytes) : ""},
                      {"max_concurrency", llmsim::format_fixed(m.max_concurrency, 2) + "x at " + llmsim::format_tokens(m.max_model_len)},
                      {"output_tok_s", llmsim::format_sig(st.result.load.output_tok_s) + " tok/s"},
                      {"ttft_p90", llmsim::format_sig(st.result.load.ttft_ms.p90) + " ms"},
                      {"tpot_p90", llmsim::format_sig(st.result.load.tpot_ms.p90) + " ms"},
                      {"command", st.result.command}};
    }
    return j.dump();
}
