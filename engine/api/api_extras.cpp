// JSON front doors of spec / lora / train (api_extras.h).
#include "api/api_extras.h"

#include <cmath>

#include "catalog/model_names.h"
#include "core/json_diag.h"
#include "runtime/command.h"
#include "rig/resolve_device.h"

namespace llmsim {

using nlohmann::json;

namespace {

std::string error_text(const std::string& msg) {
    return json{{"error", msg}}.dump(-1, ' ', false, json::error_handler_t::replace);
}

// a range bound as people write it: 0, 3, 10000000, 0.01
std::string bound_text(double v) {
    if (v == std::floor(v) && std::fabs(v) < 1e15) return std::to_string((long long)v);
    return json(v).dump();
}

// a number in [lo, hi] (whole when `whole`); absent or null leaves `out`
bool num(const json& j, const char* key, double lo, double hi, bool whole, double& out, std::string& err) {
    auto it = j.find(key);
    if (it == j.end() || it->is_null()) return true;
    if (!it->is_number()) { err = std::string(key) + " must be a number"; return false; }
    const double v = it->get<double>();
    if (!std::isfinite(v) || v < lo || v > hi || (whole && v != std::floor(v))) {
        err = std::string(key) + " must be " + (whole ? "a whole number" : "a number") + " from " + bound_text(lo) + " to " + bound_text(hi);
        return false;
    }
    out = v;
    return true;
}
bool str(const json& j, const char* key, std::string& out, std::string& err) {
    auto it = j.find(key);
    if (it == j.end() || it->is_null()) return true;
    if (!it->is_string()) { err = std::string(key) + " must be a string"; return false; }
    out = it->get<std::string>();
    return true;
}
// parse the request and find `key`'s catalog model; false + err
bool parse_request(const Catalog& cat, const std::string& text, json& j, const char* key, const Model*& m, std::string& err) {
    j = json::parse(text, nullptr, false);
    if (j.is_discarded() || !j.is_object()) { err = "request must be a JSON object such as {\"model\": \"Qwen/Qwen2.5-7B-Instruct\"}"; return false; }
    std::string id;
    if (!str(j, key, id, err)) return false;
    if (id.empty()) { err = std::string(key) + " is required (a catalog model id)"; return false; }
    m = cat.find_model(id);   // catalog ids and the Ollama tags / GGUF repos at their default quant (catalog/model_names.h)
    if (!m) {
        if (resolve_model_name(cat, id, err)) {
            err = std::string(key) + " '" + id + "' names a quant: give the catalog id and \"quant\" instead";
        } else if (err.rfind("unknown model '", 0) == 0) {   // nothing close to a known name: the close matches, if any
            std::string close;
            for (const std::string& c : close_model_names(cat, id)) close += (close.empty() ? "; close: " : ", ") + c;
            err = "unknown " + std::string(key) + " '" + id + "' (not in the catalog" + close + ")";
        } else {
            err = std::string(key) + ": " + err;   // an unknown Ollama tag, a quant the catalog lacks
        }
        return false;
    }
    return true;
}
bool hardware(const Catalog& cat, const json& j, const Hardware*& hw, std::string& err) {
    std::string id;
    if (!str(j, "hardware", id, err)) return false;
    if (id.empty()) return true;
    hw = resolve_device(cat, id);
    if (!hw) { err = "unknown hardware '" + id + "' (a catalog id such as \"rtx-4090\")"; return false; }
    return true;
}
bool quant(const Catalog& cat, const json& j, const char* key, std::string& out, std::string& err) {
    if (!str(j, key, out, err)) return false;
    return cat.resolve_file_type(out, key, err) != nullptr;
}

// the per-device memory rows, the speed block and the acceptance table: one layout for the draft-model and MTP answers
json spec_devices_json(const std::vector<SpecDevice>& devices) {
    json a = json::array();
    for (const SpecDevice& d : devices)
        a.push_back({{"name", d.name}, {"target_bytes", d.target_bytes}, {"draft_weights_bytes", d.draft_weights_bytes},
                     {"draft_kv_bytes", d.draft_kv_bytes}, {"draft_compute_bytes", d.draft_compute_bytes},
                     {"total_bytes", d.total_bytes}, {"usable_bytes", d.usable_bytes}});
    return a;
}
json spec_speed_json(const SpecSpeed& sp) {
    return {{"k", sp.k}, {"acceptance", sp.acceptance}, {"expected_tokens", sp.expected_tokens},
            {"target_step_s", sp.target_step_s}, {"draft_step_s", sp.draft_step_s},
            {"verify_step_s", sp.verify_step_s}, {"sample_s", sp.sample_s}, {"round_s", sp.round_s},
            {"plain_tokens_per_s", sp.plain_tokens_per_s}, {"spec_tokens_per_s", sp.spec_tokens_per_s},
            {"speedup", sp.speedup}, {"break_even_acceptance", sp.break_even_acceptance <= 1 ? json(sp.break_even_acceptance) : json()},
            {"pays_off_ever", sp.break_even_acceptance <= 1}, {"best_k", sp.best_k}, {"best_k_speedup", sp.best_k_speedup}};
}
json acceptance_json(const AcceptanceRange* ranges, int n) {
    json a = json::array();
    for (int i = 0; i < n; ++i)
        a.push_back({{"task", ranges[i].task}, {"low", ranges[i].low}, {"high", ranges[i].high}, {"source", ranges[i].source}});
    return a;
}

}  // namespace

json spec_to_json(const Model& tm, const Model& dm, const SpecRequest& r, const SpecMemory& mem, const SpecSpeed& sp,
                  const std::string& command) {
    json j;
    j["target"] = tm.id;
    j["draft"] = dm.id;
    j["draft_ctx"] = mem.draft_ctx;
    j["slots"] = mem.slots;
    j["depth"] = r.depth;
    j["devices"] = spec_devices_json(mem.devices);
    j["total_bytes"] = mem.total_bytes;
    j["draft_extra_bytes"] = mem.draft_extra_bytes;
    j["fits"] = mem.fits;
    j["speed"] = spec_speed_json(sp);
    int n = 0;
    const AcceptanceRange* ranges = acceptance_ranges(n);
    j["acceptance_ranges"] = acceptance_json(ranges, n);
    j["command"] = command;
    return j;
}

json mtp_to_json(const Model& tm, const SpecRequest& r, const MtpMemory& mem, const SpecSpeed* sp, const std::string& command) {
    json j;
    j["target"] = tm.id;
    j["draft"] = "MTP heads";
    j["mtp"] = {{"nextn_layers", mem.support.nextn_layers}, {"runs", mem.support.runs}, {"since", mem.support.since},
                {"kv_filter_since", mem.support.kv_filter_since}, {"own_embed_head", mem.support.own_embed_head},
                {"message", mem.support.message}, {"nextn_weights_bytes", mem.nextn_weights_bytes},
                {"kv_bytes", mem.mtp_kv_bytes}, {"kv_unfiltered_bytes", mem.mtp_kv_unfiltered_bytes},
                {"compute_bytes", mem.mtp_compute_bytes}, {"cells", mem.mtp_cells}};
    j["depth"] = r.depth;
    j["devices"] = spec_devices_json(mem.devices);
    j["total_bytes"] = mem.total_bytes;
    j["draft_extra_bytes"] = mem.mtp_extra_bytes;
    j["fits"] = mem.fits;
    json speed;
    if (sp) {
        speed = spec_speed_json(*sp);
        speed["caveat"] = kMtpSpeedCaveat;
    }
    j["speed"] = speed;
    int n = 0;
    const AcceptanceRange* ranges = mtp_acceptance_ranges(n);
    j["acceptance_ranges"] = acceptance_json(ranges, n);
    j["command"] = command;
    return j;
}

json lora_to_json(const Model& m, const LoraSpec& spec, const LoraSize& sz, const LoraCost& cost, int adapters,
                  bool with_speed, const std::string& command) {
    json j = {{"model", m.id}, {"rank", spec.rank}, {"type", to_string(spec.type)}, {"params", sz.params}, {"bytes", sz.bytes},
              {"bytes_per_token", sz.bytes_per_token}, {"flops_per_token", sz.flops_per_token},
              {"extra_graph_nodes", sz.extra_graph_nodes},
              {"adapters", adapters}, {"adapters_bytes", cost.adapters_bytes}, {"command", command}};
    j["per_target_bytes"] = json::object();
    for (int i = 0; i < kLoraTargetCount; ++i)
        if (spec.targets[i]) j["per_target_bytes"][to_string((LoraTarget)i)] = sz.per_target_bytes[i];
    j["decode"] = with_speed ? json{{"base_tokens_per_s", cost.base_tokens_per_s}, {"lora_tokens_per_s", cost.lora_tokens_per_s},
                                    {"dispatch_s_per_token", cost.dispatch_s_per_token}, {"slowdown", cost.slowdown}} : json();
    return j;
}

json train_to_json(const Model& m, const TrainRequest& r, const TrainMemory& t) {
    return json{{"model", m.id}, {"method", to_string(r.method)}, {"optimizer", to_string(r.optimizer)},
                {"seq", r.seq}, {"micro_batch", r.micro_batch}, {"gpus", r.gpus}, {"zero", r.zero},
                {"grad_ckpt", r.grad_ckpt}, {"params", t.params}, {"trainable_params", t.trainable_params},
                {"weights_bytes", t.weights_bytes}, {"grads_bytes", t.grads_bytes},
                {"optimizer_bytes", t.optimizer_bytes}, {"activations_bytes", t.activations_bytes},
                {"logits_bytes", t.logits_bytes}, {"zero3_gather_bytes", t.zero3_gather_bytes},
                {"ddp_bucket_bytes", t.ddp_bucket_bytes}, {"cuda_context_bytes", t.cuda_context_bytes},
                {"fragmentation_bytes", t.fragmentation_bytes}, {"total_bytes_per_gpu", t.total_bytes},
                {"usable_bytes_per_gpu", r.hardware ? json(t.usable_bytes) : json()}, {"fits", r.hardware ? json(t.fits) : json()},
                {"flops_per_token", t.flops_per_token}, {"tokens_per_s", t.tokens_per_s > 0 ? json(t.tokens_per_s) : json()},
                {"utilisation", r.utilisation}, {"notes", t.notes}};
}

bool parse_spec_request(const Catalog& cat, const std::string& text, SpecCall& out, std::string& err) {
    json j;
    out = SpecCall();
    if (!parse_request(cat, text, j, "model", out.target, err) || !json_bool_field(j, "mtp", out.mtp, err)) return false;
    if (!out.mtp && !parse_request(cat, text, j, "draft", out.draft, err)) return false;
    SpecRequest& r = out.req;
    double ctx = 8192, np = 1, kmax = out.mtp ? 3 : 16, kmin = 0, acc = out.mtp ? 0.75 : 0.7, dctx = 0, dngl = -1, depth = -1;
    if (!hardware(cat, j, r.target.memory.hardware, err) || !quant(cat, j, "quant", r.target.memory.file_type, err) ||
        !quant(cat, j, "draft_quant", r.draft_file_type, err) || !num(j, "ctx", 1, 1e7, true, ctx, err) ||
        !num(j, "parallel", 1, 1024, true, np, err) || !num(j, "draft_max", 1, 256, true, kmax, err) ||
        !num(j, "draft_min", 0, 256, true, kmin, err) || !num(j, "accept", 0, 1, false, acc, err) ||
        !num(j, "draft_ctx", 0, 1e7, true, dctx, err) || !num(j, "draft_ngl", -1, 1000, true, dngl, err) ||
        !num(j, "depth", 0, 1e7, true, depth, err))
        return false;
    if (!r.target.memory.hardware) { err = "hardware is required (a catalog id such as \"rtx-4090\")"; return false; }
    r.target.memory.n_ctx = (int64_t)ctx;
    r.target.memory.n_parallel = (int)np;
    r.draft_max = (int)kmax; r.draft_min = (int)kmin; r.acceptance = acc;
    r.draft_ctx = (int64_t)dctx; r.draft_gpu_layers = (int)dngl;
    r.depth = depth >= 0 ? (int64_t)depth : std::min<int64_t>(r.target.memory.n_ctx / r.target.memory.n_parallel / 2, 4096);
    return true;
}

std::string api_spec(const Catalog& cat, const std::string& text) {
    SpecCall c;
    std::string err;
    if (!parse_spec_request(cat, text, c, err)) return error_text(err);
    if (c.mtp) {
        MtpMemory mm;
        SpecSpeed msp;
        if (!estimate_mtp_memory(cat, *c.target, c.req, mm, err)) return error_text(err);
        const bool runs = mm.support.runs;
        if (runs && !estimate_mtp_speed(cat, *c.target, c.req, msp, err)) return error_text(err);
        const std::string cmd = llama_server_command(cat, *c.target, c.req.target) + (runs ? mtp_server_flags(c.req) : std::string());
        return mtp_to_json(*c.target, c.req, mm, runs ? &msp : nullptr, cmd).dump(-1, ' ', false, json::error_handler_t::replace);
    }
    SpecMemory mem;
    SpecSpeed sp;
    if (!estimate_spec_memory(cat, *c.target, *c.draft, c.req, mem, err) || !estimate_spec_speed(cat, *c.target, *c.draft, c.req, sp, err))
        return error_text(err);
    const std::string command = llama_server_command(cat, *c.target, c.req.target) + spec_server_flags(*c.draft, c.req);
    return spec_to_json(*c.target, *c.draft, c.req, mem, sp, command).dump(-1, ' ', false, json::error_handler_t::replace);
}

std::vector<std::string> lora_adapter_files(const LoraSpec& spec, int n) {
    std::vector<std::string> files;
    for (int i = 0; i < n; ++i) files.push_back("adapter" + std::to_string(i) + "-r" + std::to_string(spec.rank) + ".gguf");
    return files;
}

bool parse_lora_request(const Catalog& cat, const std::string& text, LoraCall& out, std::string& err) {
    json j;
    out = LoraCall();
    std::string targets, type;
    if (!parse_request(cat, text, j, "model", out.model, err)) return false;
    double rank = 16, n = 1, ctx = 8192, depth = 1024;
    if (!num(j, "rank", 1, 4096, true, rank, err) || !num(j, "adapters", 1, 1024, true, n, err) ||
        !num(j, "ctx", 1, 1e7, true, ctx, err) || !num(j, "depth", 0, 1e7, true, depth, err) ||
        !str(j, "targets", targets, err) || !str(j, "lora_type", type, err) || !hardware(cat, j, out.req.memory.hardware, err) ||
        !quant(cat, j, "quant", out.req.memory.file_type, err))
        return false;
    out.spec.rank = (int)rank;
    if (!targets.empty() && !parse_lora_targets(targets, out.spec, err)) return false;
    if (!type.empty()) {
        auto t = parse_tensor_type(type);
        if (!t) { err = "lora_type must be f32, f16, bf16 or q8_0"; return false; }
        out.spec.type = *t;
    }
    out.req.memory.n_ctx = (int64_t)ctx;
    out.adapters = (int)n;
    out.depth = (int64_t)depth;
    return true;
}

std::string api_lora(const Catalog& cat, const std::string& text) {
    LoraCall c;
    std::string err;
    if (!parse_lora_request(cat, text, c, err)) return error_text(err);
    LoraSize sz;
    LoraCost cost;
    if (!lora_size(*c.model, c.spec, sz, err) || !lora_cost(cat, *c.model, c.req, c.spec, c.adapters, c.depth, cost, err)) return error_text(err);
    const std::string command = llama_server_command(cat, *c.model, c.req) + lora_server_flags(lora_adapter_files(c.spec, c.adapters));
    return lora_to_json(*c.model, c.spec, sz, cost, c.adapters, c.req.memory.hardware != nullptr, command).dump(-1, ' ', false, json::error_handler_t::replace);
}

bool parse_train_request(const Catalog& cat, const std::string& text, TrainCall& out, std::string& err) {
    json j;
    out = TrainCall();
    std::string method, optimizer, targets = "all";
    if (!parse_request(cat, text, j, "model", out.model, err)) return false;
    TrainRequest& r = out.req;
    double seq = 2048, mb = 1, gpus = 1, zero = 0, rank = 16, mfu = 0.4;
    if (!str(j, "method", method, err) || !str(j, "optimizer", optimizer, err) || !str(j, "targets", targets, err) ||
        !num(j, "seq", 1, 1e7, true, seq, err) || !num(j, "micro_batch", 1, 4096, true, mb, err) ||
        !num(j, "gpus", 1, 4096, true, gpus, err) || !num(j, "zero", 0, 3, true, zero, err) ||
        !num(j, "rank", 1, 4096, true, rank, err) || !num(j, "mfu", 0.01, 1, false, mfu, err) ||
        !json_bool_field(j, "grad_ckpt", r.grad_ckpt, err) || !json_bool_field(j, "flash_attn", r.flash_attn, err) ||
        !json_bool_field(j, "dropout", r.dropout, err) || !hardware(cat, j, r.hardware, err))
        return false;
    if (!method.empty() && !parse_train_method(method, r.method)) { err = "method must be full, lora or qlora"; return false; }
    if (!optimizer.empty() && !parse_train_optimizer(optimizer, r.optimizer)) { err = "optimizer must be adamw, adamw8bit or adafactor"; return false; }
    if (!parse_lora_targets(targets, r.lora, err)) return false;
    r.seq = (int64_t)seq; r.micro_batch = (int)mb; r.gpus = (int)gpus; r.zero = (int)zero;
    r.lora.rank = (int)rank; r.utilisation = mfu;
    return true;
}

std::string api_train(const Catalog& cat, const std::string& text) {
    TrainCall c;
    std::string err;
    if (!parse_train_request(cat, text, c, err)) return error_text(err);
    TrainMemory t;
    if (!estimate_training(*c.model, c.req, t, err)) return error_text(err);
    return train_to_json(*c.model, c.req, t).dump(-1, ' ', false, json::error_handler_t::replace);
}

}  // namespace llmsim

// [vision] ------------------------------------------------------------------------------------------------
namespace llmsim {

json vision_to_json(const Model& m, const VisionRequest& r, const VisionEstimate& v, const std::string& cmd) {
    const VisionEncoder& e = v.encoder;
    const ProjectorTypeInfo& pt = projector_type_info(e.projector);
    json j = {
        {"model", m.id}, {"projector_type", pt.gguf_name},
        {"encoder", {{"n_layer", e.n_layer}, {"n_embd", e.n_embd}, {"n_ff", e.n_ff}, {"n_head", e.n_head},
                     {"patch_size", e.patch_size}, {"image_size", e.image_size}, {"n_merge", e.n_merge},
                     {"params", e.n_params}, {"source", e.source}}},
        {"weights_bytes", e.weights_bytes}, {"weights_from_file", e.weights_from_file}, {"weights_types", e.weights_types},
        {"image", {{"input_w", v.plan.input_w}, {"input_h", v.plan.input_h}, {"encoded_w", v.plan.encoded_w},
                   {"encoded_h", v.plan.encoded_h}, {"tiles", v.plan.tiles}, {"patches_per_pass", v.plan.patches_per_pass},
                   {"tokens", v.plan.tokens}, {"token_rule", pt.token_rule}}},
        {"images", r.images}, {"image_tokens_total", v.image_tokens_total}, {"n_ctx", v.n_ctx},
        {"kv_cache_bytes", v.kv_cache_bytes}, {"image_kv_bytes", v.image_kv_bytes},
        {"warmup_image_px", v.warmup_size_px}, {"gpu_compute_bytes", v.gpu_compute_bytes},
        {"cpu_compute_bytes", v.cpu_compute_bytes}, {"encoder_gpu_total_bytes", v.gpu_total_bytes}, {"device", v.device},
        {"encode_gflop", v.encode_gflop}, {"encode_s", v.encode_ok ? json(v.encode_s) : json()},
        {"compute_buffer_basis", "clip warm-up graph; the rule reproduces one published log (Gemma 3 4B), estimate elsewhere"},
        {"encode_basis", "physics: encoder FLOPs through the speed model's prefill rate, not validated"},
        {"command", cmd}, {"warnings", v.warnings}};
    return j;
}

bool parse_vision_request(const Catalog& cat, const std::string& text, VisionCall& out, std::string& err) {
    json j;
    out = VisionCall();
    if (!parse_request(cat, text, j, "model", out.model, err)) return false;
    VisionRequest& r = out.req;
    double ctx = 8192, np = 1, ub = 512, images = 1, w = 0, h = 0;
    bool fa = true;
    if (!hardware(cat, j, r.text.memory.hardware, err) || !quant(cat, j, "quant", r.text.memory.file_type, err) ||
        !num(j, "ctx", 1, 1e7, true, ctx, err) || !num(j, "parallel", 1, 1024, true, np, err) ||
        !num(j, "ubatch", 1, 1 << 20, true, ub, err) || !num(j, "images", 0, 10000, true, images, err) ||
        !num(j, "image_w", 1, 16384, true, w, err) || !num(j, "image_h", 1, 16384, true, h, err) ||
        !json_bool_field(j, "flash_attn", fa, err))
        return false;
    r.text.memory.n_ctx = (int64_t)ctx;
    r.text.memory.n_parallel = (int)np;
    r.text.memory.n_ubatch = (int)ub;
    r.text.memory.flash_attn = fa;
    r.images = (int)images;
    r.image_w = (int)w;
    r.image_h = (int)h;
    return true;
}

std::string vision_mmproj_flags(const Model& m) { return " --mmproj " + vision_mmproj_file_name(m); }

std::string api_vision(const Catalog& cat, const std::string& text) {
    VisionCall c;
    std::string err;
    if (!parse_vision_request(cat, text, c, err)) return error_text(err);
    VisionEncoder enc;
    VisionEstimate v;
    if (!vision_encoder_for_model(*c.model, enc, err) || !estimate_vision(cat, *c.model, enc, c.req, v, err)) return error_text(err);
    const std::string command = llama_server_command(cat, *c.model, c.req.text) + vision_mmproj_flags(*c.model);
    return vision_to_json(*c.model, c.req, v, command).dump(-1, ' ', false, json::error_handler_t::replace);
}

// [audio] (issue 16: audio projectors, engine/audio/audio.h) ------------------------------------------------

json audio_to_json(const Model& m, const AudioRequest& r, const AudioEstimate& a, const std::string& cmd) {
    const AudioEncoder& e = a.encoder;
    const AudioProjectorInfo& pt = audio_projector_info(e.projector);
    return json{
        {"model", m.id}, {"projector_type", pt.gguf_name},
        {"encoder", {{"n_layer", e.n_layer}, {"n_embd", e.n_embd}, {"n_ff", e.n_ff}, {"n_head", e.n_head},
                     {"n_mel_bins", e.n_mel_bins}, {"stack_factor", e.stack_factor}, {"params", e.n_params},
                     {"source", e.source}}},
        {"weights_bytes", e.weights_bytes}, {"weights_from_file", e.weights_from_file}, {"weights_types", e.weights_types},
        {"clip", {{"seconds", a.plan.seconds}, {"samples", a.plan.samples}, {"mel_frames", a.plan.mel_frames},
                  {"chunks", a.plan.chunks}, {"frames_per_chunk", a.plan.frames_per_chunk},
                  {"tokens_per_chunk", a.plan.tokens_per_chunk}, {"tokens", a.plan.tokens},
                  {"tokens_per_s", a.plan.tokens_per_s}, {"token_rule", pt.token_rule}}},
        {"clips", r.clips}, {"audio_tokens_total", a.audio_tokens_total}, {"n_ctx", a.n_ctx},
        {"kv_cache_bytes", a.kv_cache_bytes}, {"audio_kv_bytes", a.audio_kv_bytes},
        {"gpu_compute_bytes", a.gpu_compute_bytes}, {"vision_tower_bytes", e.vision_tower_bytes},
        {"vision_compute_bytes", a.vision_compute_bytes}, {"cpu_compute_bytes", a.cpu_compute_bytes},
        {"encoder_gpu_total_bytes", a.gpu_total_bytes}, {"device", a.device},
        {"encode_gflop", a.encode_gflop}, {"encode_s", a.encode_ok ? json(a.encode_s) : json()},
        {"compute_buffer_basis", "clip warm-up graph of one 3000-frame chunk; the vision transformer rule over the encoder's positions, no audio log checked"},
        {"encode_basis", "physics: encoder FLOPs through the speed model's prefill rate, one pass per chunk, not validated"},
        {"command", cmd}, {"warnings", a.warnings}};
}

bool parse_audio_request(const Catalog& cat, const std::string& text, AudioCall& out, std::string& err) {
    json j;
    out = AudioCall();
    if (!parse_request(cat, text, j, "model", out.model, err)) return false;
    AudioRequest& r = out.req;
    double ctx = 8192, np = 1, ub = 512, clips = 1, seconds = 30;
    bool fa = true;
    if (!hardware(cat, j, r.text.memory.hardware, err) || !quant(cat, j, "quant", r.text.memory.file_type, err) ||
        !num(j, "ctx", 1, 1e7, true, ctx, err) || !num(j, "parallel", 1, 1024, true, np, err) ||
        !num(j, "ubatch", 1, 1 << 20, true, ub, err) || !num(j, "clips", 0, 1000, true, clips, err) ||
        !num(j, "seconds", 0.01, kAudioMaxSeconds, false, seconds, err) || !json_bool_field(j, "flash_attn", fa, err))
        return false;
    r.text.memory.n_ctx = (int64_t)ctx;
    r.text.memory.n_parallel = (int)np;
    r.text.memory.n_ubatch = (int)ub;
    r.text.memory.flash_attn = fa;
    r.clips = (int)clips;
    r.seconds = seconds;
    return true;
}

std::string api_audio(const Catalog& cat, const std::string& text) {
    AudioCall c;
    std::string err;
    if (!parse_audio_request(cat, text, c, err)) return error_text(err);
    AudioEncoder enc;
    AudioEstimate a;
    if (!audio_encoder_for_model(*c.model, enc, err) || !estimate_audio(cat, *c.model, enc, c.req, a, err)) return error_text(err);
    const std::string command = llama_server_command(cat, *c.model, c.req.text) + " --mmproj " + enc.mmproj_file;
    return audio_to_json(*c.model, c.req, a, command).dump(-1, ' ', false, json::error_handler_t::replace);
}

}  // namespace llmsim

// [embed] -------------------------------------------------------------------------------------------------
namespace llmsim {

json embed_to_json(const EmbeddingModel& m, const EmbedRequest& r, const EmbedEstimate& e) {
    return json{{"model", m.id}, {"kind", m.kind}, {"arch", m.arch}, {"causal", m.causal}, {"pooling", m.pooling},
                {"source", m.source}, {"quant", r.file_type}, {"doc_tokens", r.doc_tokens}, {"batch", r.batch_docs},
                {"params", e.params}, {"weights_bytes", e.weights_bytes}, {"kv_cache_bytes", e.kv_cache_bytes},
                {"compute_bytes", e.compute_bytes}, {"output_bytes", e.output_bytes}, {"total_bytes", e.total_bytes},
                {"n_ctx", e.n_ctx}, {"n_ubatch", e.n_ubatch}, {"min_ubatch", e.min_ubatch},
                {"tokens_per_s", e.speed_ok ? json(e.tokens_per_s) : json()},
                {"docs_per_s", e.speed_ok ? json(e.docs_per_s) : json()}, {"batch_s", e.speed_ok ? json(e.batch_s) : json()},
                {"speed_basis", "physics: the speed model's prefill rate, not validated for embedding models"},
                {"command", e.command}, {"warnings", e.warnings}};
}

bool parse_embed_request(const Catalog& cat, const std::string& text, EmbedCall& out, std::string& err) {
    out = EmbedCall();
    json j = json::parse(text, nullptr, false);
    if (j.is_discarded() || !j.is_object()) { err = "request must be a JSON object such as {\"model\": \"BAAI/bge-m3\"}"; return false; }
    std::string id;
    if (!str(j, "model", id, err)) return false;
    out.model = find_embedding_model(id);
    if (!out.model) { err = "unknown embedding model '" + id + "' (llmsim-cli embed --list)"; return false; }
    EmbedRequest& r = out.req;
    double doc = 512, batch = 32, ub = 0;
    bool fa = true;
    if (!hardware(cat, j, r.hardware, err) || !str(j, "quant", r.file_type, err) ||
        !num(j, "doc_tokens", 1, 1e6, true, doc, err) || !num(j, "batch", 1, 4096, true, batch, err) ||
        !num(j, "ubatch", 0, 1 << 20, true, ub, err) || !json_bool_field(j, "flash_attn", fa, err))
        return false;
    r.doc_tokens = (int64_t)doc;
    r.batch_docs = (int)batch;
    r.n_ubatch = (int)ub;
    r.flash_attn = fa;
    return true;
}

std::string api_embed(const Catalog& cat, const std::string& text) {
    EmbedCall c;
    std::string err;
    if (!parse_embed_request(cat, text, c, err)) return error_text(err);
    EmbedEstimate e;
    if (!estimate_embedding(cat, *c.model, c.req, e, err)) return error_text(err);
    return embed_to_json(*c.model, c.req, e).dump(-1, ' ', false, json::error_handler_t::replace);
}

}  // namespace llmsim
