#include "api/predict.h"
#include "rig/rig_speed.h"
#include "rig/resolve_device.h"
#include "core/json_diag.h"
#include "core/text.h"

#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "core/text.h"
#include "runtime/command.h"
#include "catalog/model_names.h"
#include "model/hf_config.h"
#include "memory/prepared_weights.h"
#include "serving/serving.h"
#include "sim/simulate.h"
#include "runtime/speed_glue.h"

namespace llmsim {

using nlohmann::json;

namespace {

// model: config wins; an incomplete config of a model the catalog knows falls back to the catalog entry
bool parse_model_fields(const Catalog& cat, const json& j, PredictInput& out, std::string& err) {
    const std::string model_id = j.contains("model") && j["model"].is_string() ? j["model"].get<std::string>() : "";
    if (j.contains("config") && !j["config"].is_null()) {
        if (!j["config"].is_object()) { err = "config must be a JSON object (a Hugging Face config.json)"; return false; }
        std::string e;
        if (!model_from_hf_config(j["config"].dump(-1, ' ', false, nlohmann::json::error_handler_t::replace), model_id.empty() ? "custom" : model_id, out.model, e)) {
            const Model* m = cat.find_model(model_id);
            if (!m) { err = "config: " + e; return false; }
            out.model = *m;
            out.note = "config incomplete (" + e + "): used the catalog entry";
        }
    } else {
        if (model_id.empty()) { err = "model is required (a catalog or Hugging Face id), or a config object"; return false; }
        std::string e;
        const auto r = resolve_model_name(cat, model_id, e);   // catalog id, Ollama tag, hf.co/ or GGUF repo
        if (!r) { err = with_model_hint(e, "pass its config.json as \"config\""); return false; }
        out.model = *r->model;
    }
    return true;
}

// quant: a llama.cpp file type, Q4_K_M when left out
bool parse_quant_field(const Catalog& cat, const json& j, PredictInput& out, std::string& err) {
    out.quant = "Q4_K_M";
    // a model named by an Ollama tag or GGUF repo brings its file type ("qwen2.5:7b" = Q4_K_M, "gpt-oss:20b" = MXFP4_MOE)
    const std::string model_id = j.contains("model") && j["model"].is_string() && !j.contains("config") ? j["model"].get<std::string>() : "";
    const auto named = model_id.empty() ? std::nullopt : resolve_model_name_quiet(cat, model_id);
    if (named && !named->file_type.empty()) out.quant = named->file_type;
    if (j.contains("quant") && !j["quant"].is_null()) {
        if (!j["quant"].is_string()) { err = "quant must be a llama.cpp file type such as \"Q4_K_M\", or null"; return false; }
        const std::string q = j["quant"].get<std::string>();
        if (named && !pick_file_type(*named, &q, err)) return false;
        out.quant = q;
        if (!cat.resolve_file_type(out.quant, "", err)) return false;
    }
    return true;
}

// hardware.host: the CPU and RAM of the machine (what -ngl / --n-cpu-moe / -ot leave in host RAM runs at its bandwidth);
// cpu, ram and source are the publication's words, ram_bandwidth_gbs (and ram_gib) the numbers the speed model reads
bool parse_host_field(const json& h, Hardware& hw, std::string& err) {
    if (!h.is_object() || !h.contains("host") || h["host"].is_null()) return true;
    const json& host = h["host"];
    if (!host.is_object()) { err = "hardware.host must be an object {cpu, ram, ram_gib, ram_bandwidth_gbs, source}"; return false; }
    for (const char* k : {"cpu", "ram", "source"})
        if (host.contains(k) && !host[k].is_null() && !host[k].is_string()) { err = std::string("hardware.host.") + k + " must be a string"; return false; }
    double bw = 0, gib = 0;
    if (!json_number_field(host, "ram_bandwidth_gbs", bw, false, err, 0.1, 100000) ||
        !json_number_field(host, "ram_gib", gib, false, err, 0.1, 1e6)) {
        err = "hardware.host." + err;
        return false;
    }
    if (bw > 0) hw.system_ram_bandwidth_gbs = bw;
    if (gib > 0) hw.system_ram_bytes = (int64_t)std::llround(gib * (double)kGiB);
    return true;
}

// hardware (a catalog id or an object), the GPU count and the backend the row ran on
bool parse_hardware_fields(const Catalog& cat, const json& j, PredictInput& out, std::string& err) {
    if (!j.contains("hardware")) { err = "hardware is required (a catalog id or an object)"; return false; }
    std::string hw_note;
    if (!device_from_json(cat, j["hardware"], out.hardware, hw_note, err)) return false;
    if (!hw_note.empty()) out.note += std::string(out.note.empty() ? "" : "; ") + hw_note;
    if (!parse_host_field(j["hardware"], out.hardware, err)) return false;
    double gpus = 1;
    if (!json_number_field(j, "gpus", gpus, false, err, 1, 1024)) return false;
    if (gpus != std::floor(gpus)) { err = "gpus must be a whole number"; return false; }
    if (j.contains("gpus") && j["gpus"].is_number()) {
        // a combination id ("2x-arc-b580") names its GPU count; another "gpus" would silently change the rig
        const Hardware* named = j["hardware"].is_string() ? cat.find_hardware(j["hardware"].get<std::string>()) : nullptr;
        bool combo = false;
        for (const Hardware& c : cat.combinations) combo |= &c == named;
        if (combo && (int)gpus != out.hardware.gpu_count) {
            err = "gpus " + std::to_string((int)gpus) + " contradicts hardware '" + j["hardware"].get<std::string>() + "' (" +
                  std::to_string(out.hardware.gpu_count) + " GPUs); drop gpus or use the single card's id with gpus";
            return false;
        }
        out.hardware.gpu_count = (int)gpus;
    }
    if (j.contains("backend") && !j["backend"].is_null()) {
        if (!j["backend"].is_string()) { err = "backend must be cuda|rocm|metal|vulkan|sycl|cpu or null"; return false; }
        std::string b = j["backend"].get<std::string>();
        Backend be;
        if (b == "cuda") be = Backend::Cuda; else if (b == "rocm") be = Backend::Rocm; else if (b == "metal") be = Backend::Metal;
        else if (b == "vulkan") be = Backend::Vulkan; else if (b == "sycl") be = Backend::Sycl; else if (b == "cpu") be = Backend::Cpu;
        else { err = "backend '" + b + "' is not cuda|rocm|metal|vulkan|sycl|cpu"; return false; }
        out.hardware.backends.insert(out.hardware.backends.begin(), be);
    }
    return true;
}

// the llama-bench test: kind (pp / tg), tokens and depth
struct BenchTest { std::string kind; double tokens = 0, depth = 0; };
bool parse_test_field(const json& j, BenchTest& bt, std::string& err) {
    if (!j.contains("test") || !j["test"].is_object()) { err = "test is required: {\"kind\": \"prefill\"|\"decode\", \"tokens\": N, \"depth\": D}"; return false; }
    const json& t = j["test"];
    bt.kind = t.contains("kind") && t["kind"].is_string() ? t["kind"].get<std::string>() : "";
    if (bt.kind != "prefill" && bt.kind != "decode") { err = "test.kind must be \"prefill\" or \"decode\""; return false; }
    if (!json_number_field(t, "tokens", bt.tokens, true, err, 1, 1e8)) { err = "test." + err; return false; }
    if (!json_number_field(t, "depth", bt.depth, false, err, 0, 1e8)) { err = "test." + err; return false; }
    return true;
}

// weights as the memory model lays them out, scaled to the measured file size when given (llama-bench prints
// the tensor data size; file_bytes_override scales against the file size)
std::shared_ptr<const PreparedWeights> prepare_row_weights(const Catalog& cat, const PredictInput& out, double size_gib,
                                                           std::string& err) {
    const uint64_t size_override = size_gib > 0 ? (uint64_t)(size_gib * (double)kGiB) : 0;
    std::shared_ptr<const PreparedWeights> w = prepare_weights(cat, out.model, out.quant, err, 0);
    if (!w) return w;
    if (size_override && w->tensor_data_bytes > 0) {
        const double f = (double)size_override / (double)w->tensor_data_bytes;
        w = prepare_weights(cat, out.model, out.quant, err, (uint64_t)std::llround((double)w->file_bytes_estimate * f));
    }
    return w;
}

// the memory model's placement of a line that sets -ngl / --n-cpu-moe / -ot / -ts (llama-bench's context: prompt +
// generated + depth tokens); a placement that does not fit is still estimated, with a note
bool place_row_weights(const PreparedWeights& w, const BenchTest& bt, SimRequest& req, PredictInput& out, MemoryBreakdown& mb,
                       std::string& err) {
    out.knobs.apply(out.model, req.memory);
    req.memory.n_ctx = std::max<int64_t>(1, (int64_t)(bt.tokens + bt.depth));
    req.memory.compute_max_context = false;
    req.memory.with_notes = false;
    if (!estimate_memory(w, out.model, req.memory, mb, err)) { err = "placement: " + err; return false; }
    if (mb.status == FitStatus::Oom)
        out.note += std::string(out.note.empty() ? "" : "; ") + "as placed it does not fit the GPUs' memory or the host RAM "
                    "(hardware.host.ram_gib, else the catalog's): llama-bench would fail to load it, or spill to shared memory "
                    "on Windows, which the estimate does not model";
    return true;
}

// the speed scenario of the row: the weights' figures, llama-bench -ub / -b (defaults 512 / 2048), the test, and where
// -ngl / --n-cpu-moe / -ot put the weights (absent: every weight on the GPU(s), no placement run)
bool build_row_scenario(const json& j, const PreparedWeights& w, bool fa, const BenchTest& bt, PredictInput& out,
                        std::string& err) {
    Evaluation ev;
    copy_weight_figures(w, ev);
    SimRequest req;
    req.memory.file_type = out.quant;
    req.memory.hardware = &out.hardware;
    req.memory.flash_attn = fa;
    double ubatch = req.memory.n_ubatch, batch = req.memory.n_batch;
    if (!json_number_field(j, "ubatch", ubatch, false, err, 1, 1 << 20)) return false;
    if (!json_number_field(j, "batch", batch, false, err, 1, 1 << 20)) return false;
    if (ubatch != std::floor(ubatch) || batch != std::floor(batch)) { err = "ubatch and batch must be whole numbers"; return false; }
    req.memory.n_ubatch = (int)ubatch;
    req.memory.n_batch = (int)batch;
    if (out.knobs.type_k) req.memory.kv_type_k = *out.knobs.type_k;
    if (out.knobs.type_v) req.memory.kv_type_v = *out.knobs.type_v;
    if (out.knobs.places_weights() && !place_row_weights(w, bt, req, out, ev.memory, err)) return false;
    if (!build_speed_scenario(out.model, req, ev, out.scenario, err)) return false;
    out.scenario.test = bt.kind == "prefill" ? SpeedTest::Prefill : SpeedTest::Decode;
    out.scenario.cpu_threads = out.knobs.threads.value_or(0);   // -t: the CPU backend's FLOP/s (speed.cpp cpu_tflops)
    out.scenario.tokens = (int64_t)bt.tokens;
    out.scenario.depth = (int64_t)bt.depth;
    // the llama.cpp build, as llama-bench prints it ("233d773d0 (6413)", "b7600"): rules that changed with a build
    // (SpeedScenario::llama_build) apply from theirs on; absent or unreadable = a current build
    if (j.contains("build") && !j["build"].is_null()) {
        if (!j["build"].is_string()) { err = "build must be a string as llama-bench prints it (\"233d773d0 (6413)\", \"b7600\")"; return false; }
        out.scenario.llama_build = llama_build_number(j["build"].get<std::string>());
    }
    return true;
}

}  // namespace

bool parse_predict_input(const Catalog& cat, const json& j, PredictInput& out, std::string& err) {
    out = PredictInput();
    if (!j.is_object()) { err = "each line must be a JSON object"; return false; }
    out.id = j.contains("id") && j["id"].is_string() ? j["id"].get<std::string>() : "";
    if (!parse_model_fields(cat, j, out, err)) return false;
    if (!parse_quant_field(cat, j, out, err)) return false;
    double size_gib = 0;
    if (!json_number_field(j, "model_size_gib", size_gib, false, err, 0, 1e6)) return false;
    if (!parse_hardware_fields(cat, j, out, err)) return false;
    bool fa = false;   // null: llama-bench's long-standing default (off)
    if (j.contains("flash_attn") && !j["flash_attn"].is_null()) {
        if (!j["flash_attn"].is_boolean()) { err = "flash_attn must be true, false or null"; return false; }
        fa = j["flash_attn"].get<bool>();
    }
    BenchTest bt;
    if (!parse_test_field(j, bt, err)) return false;
    if (!parse_bench_knobs(j, out.model, std::max(1, out.hardware.gpu_count), fa, out.knobs, err)) return false;
    if (out.knobs.split_mode == SplitMode::None && out.hardware.gpu_count > 1) {
        out.hardware.gpu_count = 1;   // -sm none: the model on the main GPU alone
        out.note += std::string(out.note.empty() ? "" : "; ") + "split_mode none: one GPU holds the model";
    } else if (out.knobs.split_mode == SplitMode::Row && out.hardware.gpu_count > 1) {
        out.note += std::string(out.note.empty() ? "" : "; ") + "split_mode row: estimated as a layer split (the speed model has no row-split term)";
    }

    std::shared_ptr<const PreparedWeights> w = prepare_row_weights(cat, out, size_gib, err);
    if (!w) return false;
    if (!build_row_scenario(j, *w, fa, bt, out, err)) return false;
    out.total_params = (double)w->params.total;
    // the leave-one-device-out group: the catalog device when the name matched one (rows that spell one chip
    // differently stay one device), else the name without "(...)" details
    out.device = out.hardware.id != "custom" && !out.hardware.id.empty() ? out.hardware.id : device_name_key(out.hardware.name);
    const SpeedScenario& sc = out.scenario;
    if (sc.backend == Backend::Cpu && (sc.cpu_threads > 0 || (sc.cpu_cores > 0 && sc.cpu_core_flops_per_clk > 0))) {
        out.note += std::string(out.note.empty() ? "" : "; ") +
                    (sc.cpu_core_flops_per_clk > 0 ? "CPU FLOP/s: min(-t, cores) x the core's FMA peak (cpu_simd_bits, cpu_fma_pipes, boost_clock_mhz)"
                                                   : "CPU FLOP/s: -t x 112 GFLOPS a core (the core's cpu_simd_bits, cpu_fma_pipes and boost_clock_mhz not stated)");
    } else if (out.hardware.fp16_tflops <= 0) {
        Fp16Estimate fe = estimate_fp16_tflops(out.hardware.chip_family, out.hardware.bandwidth_gbs);
        char buf[200];
        snprintf(buf, sizeof buf, "fp16_tflops unknown: estimated %.0f from the %s family (%.3f TFLOPS per GB/s); band widened",
                 fe.tflops, fe.family.c_str(), fe.tflops_per_gbs);
        out.note += std::string(out.note.empty() ? "" : "; ") + buf;
    }
    return true;
}

// a mixed rig / RPC hardware id: the memory model places the layers (all on the GPUs, the context the row needs),
// then each device's share runs at its own speed (rig/rig_speed.h)
static SpeedResult predict_rig(const Catalog& cat, const PredictInput& p, const SpeedParams& params) {
    SpeedResult r;
    MemoryRequest mr;
    mr.file_type = p.quant;
    mr.hardware = &p.hardware;
    mr.flash_attn = p.scenario.flash_attn;
    mr.n_ubatch = p.scenario.ubatch;
    mr.n_batch = p.scenario.batch;
    mr.n_ctx = std::max<int64_t>(4096, p.scenario.depth + p.scenario.tokens);
    mr.compute_max_context = false;
    mr.with_notes = false;
    if (p.knobs.places_weights()) p.knobs.apply(p.model, mr);
    if (p.knobs.type_k) mr.kv_type_k = *p.knobs.type_k;
    if (p.knobs.type_v) mr.kv_type_v = *p.knobs.type_v;
    MemoryBreakdown mb;
    if (!estimate_memory(cat, p.model, mr, mb, r.error)) return r;
    if (p.scenario.test == SpeedTest::Prefill)
        return estimate_rig_prefill(p.scenario, params, p.hardware, mb, p.model.hidden_size, p.scenario.tokens, p.scenario.depth);
    return estimate_rig_decode(p.scenario, params, p.hardware, mb, p.model.hidden_size, p.scenario.depth, p.scenario.tokens);
}

bool predict_hardware_from_json(const Catalog& cat, const json& h, Hardware& out, std::string& note, std::string& err) {
    return device_from_json(cat, h, out, note, err);
}

std::string predict_line(const Catalog& cat, const SpeedParams& params, const std::string& line, bool explain,
                         const DeviceProfile* profile) {
    json in = json::parse(line, nullptr, false);
    json out;
    if (in.is_discarded()) return json{{"id", nullptr}, {"error", "not valid JSON"}}.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    // test.kind "serving": the serving engine's answer (engine/serving/serving.h)
    if (in.is_object() && in.contains("test") && in["test"].is_object() && in["test"].contains("kind") &&
        in["test"]["kind"] == "serving")
        return serve_predict_line(cat, line);
    out["id"] = in.is_object() && in.contains("id") ? in["id"] : json(nullptr);
    PredictInput p;
    std::string err;
    if (!parse_predict_input(cat, in, p, err)) { out["error"] = err; return out.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace); }
    SpeedResult r = p.hardware.rig.empty() ? estimate_speed(p.scenario, params) : predict_rig(cat, p, params);
    if (!r.ok || !std::isfinite(r.tokens_per_s) || r.tokens_per_s <= 0) {
        out["error"] = r.error.empty() ? "no finite estimate for this scenario" : r.error;
        return out.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    }
    if (profile && profile_applies(*profile, p.hardware)) {
        apply_device_profile(*profile, p.scenario.test, r, p.scenario.moe_experts > 0);
        out["calibrated"] = calibrated_label(*profile);
    }
    out["tokens_per_s"] = r.tokens_per_s;
    out["low"] = r.low;
    out["high"] = r.high;
    {   // the llama-bench run that measures exactly this row
        const SpeedScenario& s = p.scenario;
        const bool pp = s.test == SpeedTest::Prefill;
        out["llama_bench"] = "llama-bench -m " + gguf_file_name(p.model, p.quant) + (pp ? " -p " + std::to_string(s.tokens) + " -n 0"
                                                                                      : " -p 0 -n " + std::to_string(s.tokens)) +
                             " -d " + std::to_string(s.depth) + (s.flash_attn ? " -fa 1" : " -fa 0") +
                             " -ngl " + (p.knobs.ngl ? std::to_string(*p.knobs.ngl) : std::string("99")) + llama_bench_flags(p.knobs) +
                             (s.ubatch != 512 ? " -ub " + std::to_string(s.ubatch) : "");
    }
    if (!p.note.empty()) out["note"] = p.note;
    if (explain) {
        const SpeedScenario& s = p.scenario;
        const bool dec = s.test == SpeedTest::Decode;
        json terms = dec ? json{{"weights_s_per_token", r.weight_time_s}, {"kv_cache_s_per_token", r.kv_time_s},
                                {"dequant_alu_s_per_token", r.alu_time_s}, {"launch_sync_s_per_token", r.fixed_time_s},
                                {"gpu_handoff_s_per_token", r.sync_time_s}, {"host_ram_s_per_token", r.offload_time_s}}
                         : json{{"matmul_s_per_token", r.compute_time_s}, {"attention_s_per_token", r.attention_time_s},
                                {"ubatch_overhead_s_per_token", r.overhead_time_s}, {"gpu_handoff_s_per_token", r.sync_time_s},
                                {"host_ram_s_per_token", r.offload_time_s}};
        out["explain"] = {
            {"formula", dec ? "tokens/s = 1 / (weights/(BW x share) + KV x kv_factor/(BW x share) + dequant/ALU (partly overlapped) + launches/syncs per layer + GPU hand-offs + host-RAM layers), averaged over the generated tokens"
                            : "tokens/s = tokens / (per ubatch: max(2 x active params FLOPs / effective FLOP/s, one weight read / BW) + causal attention + overhead), pipelined over GPUs"},
            {"terms", terms},
            {"bound", to_string(r.bound)},
            {"inputs", {{"model", p.model.id}, {"quant", p.quant}, {"weight_class", to_string(s.weight_class)},
                        {"weight_bytes", s.weight_bytes}, {"weight_bytes_per_token", s.weight_bytes_per_token},
                        {"active_params", s.active_params}, {"kv_bytes_per_token_full", s.kv_bytes_per_token_full},
                        {"kv_bytes_per_token_swa", s.kv_bytes_per_token_swa},
                        {"recurrent_state_bytes", s.recurrent_state_bytes}, {"hardware", p.hardware.name},
                        {"hardware_class", to_string(s.kind)}, {"memory_kind", to_string(s.memory)},
                        {"backend", to_string(s.backend)}, {"bandwidth_gbs", s.bandwidth_gbs}, {"fp16_tflops", s.fp16_tflops},
                        {"fp16_tflops_estimated", r.fp16_tflops_estimated}, {"gpus", s.gpus}, {"flash_attn", s.flash_attn},
                        {"tokens", s.tokens}, {"depth", s.depth}}},

            {"band", "low/high = the held-out errors for the hardware class and build era with the whole publication and its devices left out: 5th/95th percentile for a current build (b6700+), 10th/90th for an older one"},
            {"fit", {{"decode_rows", params.fit_rows_decode}, {"prefill_rows", params.fit_rows_prefill},
                     {"devices", params.fit_devices}, {"source", params.fit_source}}},
            {"note", p.note}};
        if (s.offload_fraction > 0)   // -ngl / --n-cpu-moe / -ot left weights in host RAM
            out["explain"]["offload"] = {{"weight_share_in_host_ram", s.offload_fraction}, {"host_ram_bandwidth_gbs", s.host_bandwidth_gbs}};
    }
    return out.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace llmsim
