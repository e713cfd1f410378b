// The serving plan set (runtime.h ScenarioModel::Serving) for every engine row that runs scenarios through the serving
// model (vLLM, SGLang, TensorRT-LLM, LMDeploy): three thin adapters from a scenario (MemoryRequest / SimRequest: -c
// as --max-model-len, -np as --max-num-seqs) to the serving engine model (serving/serving.h), which owns the engines'
// memory rules, step time and command lines. Nothing here computes.
#include <algorithm>
#include <memory>

#include "catalog/catalog.h"
#include "memory/memory.h"
#include "runtime/runtime.h"
#include "serving/serving.h"
#include "runtime/scenario.h"

namespace llmsim {

namespace {

// the serving checkpoint format of a scenario's file type (the catalog row, so aliases and case are resolved once):
// F16/BF16/F32 stay 16-bit, Q8_0/FP8 run as FP8, MXFP4 as MXFP4, NVFP4 as NVFP4, the AWQ/GPTQ int4 formats as
// themselves, 4-, 3- and 2-bit K/legacy GGUF types as AWQ int4 (the nearest checkpoint format those engines load).
// Any other file type (Q5/Q6, the IQ1-IQ3 mixes, ternary, MLX) has no checkpoint these engines load: an error that
// says so, never a silent BF16.
struct ServingFormat {
    const char* file_type;   // quants.json name
    const char* precision;   // ServeRequest::precision
};
constexpr ServingFormat kServingFormats[] = {
    {"F16", "fp16"}, {"BF16", "bf16"}, {"F32", "bf16"}, {"Q8_0", "fp8"}, {"FP8", "fp8"}, {"MXFP4_MOE", "mxfp4"},
    {"NVFP4", "nvfp4"}, {"AWQ_INT4_G128", "int4-awq"}, {"GPTQ_INT4_G128", "int4-gptq"},
};

bool serving_precision(const char* engine, const FileType& ft, std::string& out, std::string& err) {
    for (const ServingFormat& f : kServingFormats)
        if (ft.name == f.file_type) { out = f.precision; return true; }
    const std::string& n = ft.name;
    if (n.rfind("Q4", 0) == 0 || n.rfind("IQ4", 0) == 0 || n.rfind("Q3", 0) == 0 || n.rfind("Q2", 0) == 0) {
        out = "int4-awq";
        return true;
    }
    std::string valid;
    for (const ServingFormat& f : kServingFormats) valid += std::string(valid.empty() ? "" : ", ") + f.file_type;
    err = std::string(engine) + ": no checkpoint format it loads stands for quant '" + n + "' (pick " + valid +
          ", or a 4-, 3- or 2-bit GGUF type, served as AWQ int4)";
    return false;
}

bool to_serve(const Catalog& cat, const char* engine, const Model& model, const MemoryRequest& m, ServeRequest& r,
              std::string& err) {
    r = ServeRequest();
    r.engine = engine;
    r.model = model.id;
    r.model_override = std::shared_ptr<const Model>(std::shared_ptr<const Model>(), &model);   // aliasing: no copy
    const FileType* ft = cat.resolve_file_type(m.file_type, engine, err);
    if (!ft || !serving_precision(engine, *ft, r.precision, err)) return false;
    if (m.hardware) {
        r.hardware = m.hardware->id;
        r.hardware_override = std::shared_ptr<const Hardware>(std::shared_ptr<const Hardware>(), m.hardware);
        r.gpus = r.tp = std::max(1, m.hardware->gpu_count);
    }
    r.kv_dtype = m.kv_type_k == TensorType::F16 ? "auto" : "fp8";
    r.max_model_len = m.n_ctx;
    r.max_num_seqs = std::max(1, m.n_parallel);
    return true;
}

bool memory_plan_for(const char* engine, const Model& model, const MemoryRequest& req, MemoryBreakdown& out, std::string& err) {
    const Catalog* cat = embedded_catalog(&err);
    if (!cat) return false;
    if (!req.hardware) { err = std::string(engine) + ": a serving engine's memory plan needs a device"; return false; }
    ServeRequest r;
    if (!to_serve(*cat, engine, model, req, r, err)) return false;
    ServeMemoryPlan p;
    if (!serve_memory(*cat, r, p, err)) return false;
    out = MemoryBreakdown{};
    const uint64_t g = (uint64_t)std::max(1, r.gpus);
    for (uint64_t i = 0; i < g; ++i) {
        DeviceMemory d;
        d.name = "GPU" + std::to_string(i);
        d.weights_bytes = p.weights_bytes; d.kv_cache_bytes = p.kv_pool_bytes; d.compute_bytes = p.activation_peak_bytes;
        d.overhead_bytes = p.runtime_bytes + p.cuda_graph_bytes;
        d.total_bytes = d.weights_bytes + d.kv_cache_bytes + d.compute_bytes + d.overhead_bytes;
        d.usable_bytes = p.gpu_total_bytes;
        out.devices.push_back(d);
    }
    out.weights_bytes = p.weights_bytes * g; out.kv_cache_bytes = p.kv_pool_bytes * g;
    out.compute_bytes = p.activation_peak_bytes * g; out.overhead_bytes = (p.runtime_bytes + p.cuda_graph_bytes) * g;
    out.total_bytes = out.weights_bytes + out.kv_cache_bytes + out.compute_bytes + out.overhead_bytes;
    out.usable_bytes = p.gpu_total_bytes * g;
    out.status = p.fits ? FitStatus::Comfortable : FitStatus::Oom;   // the engine sizes its pool to the budget
    out.max_context = p.largest_max_model_len;
    out.n_layers = model.n_layers; out.gpu_layers = model.n_layers + 1;
    out.kv_cells_full = p.kv_pool_tokens;
    out.notes = p.rules;
    return true;
}

void speed_plan_for(const Catalog& catalog, const char* engine, const Model& model, const SimRequest& req, Evaluation& out) {
    const Catalog* cat = &catalog;
    out.speed = SpeedView();
    if (!req.memory.hardware) { out.speed.error = "no device"; return; }
    ServeRequest r;
    if (!to_serve(*cat, engine, model, req.memory, r, out.speed.error)) return;
    r.workload.input_len = std::max<int64_t>(1, req.prompt_tokens);
    r.workload.output_len = std::max<int64_t>(2, req.gen_tokens);
    r.workload.concurrency = std::max(1, req.memory.n_parallel);
    r.workload.num_prompts = 2 * r.workload.concurrency;
    r.with_single_stream = false;
    ServeResult s = serve(*cat, r);
    if (!s.ok) { out.speed.error = s.error; return; }
    SpeedView& v = out.speed;
    v.ok = true;
    v.decode_tps = s.load.tpot_ms.mean > 0 ? 1e3 / s.load.tpot_ms.mean : 0;
    v.decode_low = v.decode_tps * (s.low / s.load.output_tok_s); v.decode_high = v.decode_tps * (s.high / s.load.output_tok_s);
    v.decode_empty_tps = v.decode_full_tps = v.decode_tps;
    v.decode_depth = v.decode_full_depth = req.prompt_tokens;
    v.prompt_tokens = req.prompt_tokens;
    v.ttft_s = s.load.ttft_ms.mean / 1e3;
    v.prefill_tps = v.ttft_s > 0 ? (double)req.prompt_tokens / v.ttft_s : 0;
    v.reply_s = s.load.e2e_ms.mean / 1e3;
    v.aggregate_tps = s.load.output_tok_s;
    v.per_user_tps = v.decode_tps;
    v.decode_bound = s.step.bound == "compute" ? Bound::Compute : s.step.bound == "memory" ? Bound::Memory : Bound::None;
}

std::string command_for(const Catalog& catalog, const char* engine, const Model& model, const SimRequest& req, int port) {
    const Catalog* cat = &catalog;
    if (!req.memory.hardware) return "";
    ServeRequest r;
    std::string err;
    if (!to_serve(*cat, engine, model, req.memory, r, err)) return "";
    r.workload.concurrency = 1; r.workload.num_prompts = 1; r.with_single_stream = false;
    ServeResult s = serve(*cat, r);
    return s.command.empty() ? "" : s.command + " --port " + std::to_string(port);
}

}  // namespace

namespace serving_adapter {
bool memory_plan(EngineId e, const PreparedWeights&, const Model& m, const MemoryRequest& req, MemoryBreakdown& out, std::string& err) {
    return memory_plan_for(engine_row(e).name, m, req, out, err);
}
void speed_plan(const Catalog& c, const Model& m, const SimRequest& req, Evaluation& out) {
    speed_plan_for(c, engine_row(req.engine).name, m, req, out);
}
std::string command_line(const Catalog& c, const Model& m, const SimRequest& req, int port) {
    return command_for(c, engine_row(req.engine).name, m, req, port);
}
}  // namespace serving_adapter

}  // namespace llmsim
