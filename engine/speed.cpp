// llmsim speed model. See speed.h for the interface and docs/speed-model.md for the physics and the fit.
//
// [SECTION] Names and guesses
// [SECTION] Parameters (JSON)
// [SECTION] Shared terms
// [SECTION] Decode
// [SECTION] Prefill
// [SECTION] TTFT, reply, concurrency, seed
#include "speed.h"

#include "assets.h"
#include "input_limits.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <cstdio>
#include <cstring>

#include <nlohmann/json.hpp>

namespace llmsim {

using json = nlohmann::json;

// [SECTION] Names and guesses ----------------------------------------------------------------------------

namespace {
const char* const kWeightClassNames[kWeightClassCount] = {"f16", "q8", "legacy", "kquant", "kquant_low", "mxfp4"};
const char* const kMemoryKindNames[kMemoryKindCount] = {"gddr", "hbm", "unified"};
const char* const kBackendNames[kBackendCount] = {"cuda", "rocm", "metal", "vulkan", "sycl", "cpu"};
const char* const kKindNames[kHardwareKindCount] = {"consumer", "workstation", "datacenter", "apple", "apu", "cpu"};
}  // namespace

WeightClass weight_class_of(const std::string& ft) {
    const LlamaFtypeInfo* f = find_llama_ftype(ft);
    return f ? f->kernel : WeightClass::KQuant;   // unsloth UD-Q4_K_XL, MLX, FP8 ...
}

const char* to_string(WeightClass c) { return kWeightClassNames[(int)c]; }
const char* to_string(MemoryKind m) { return kMemoryKindNames[(int)m]; }

MemoryKind guess_memory_kind(HardwareKind kind, double bandwidth_gbs) {
    if (kind == HardwareKind::Apple || kind == HardwareKind::Apu || kind == HardwareKind::Cpu) return MemoryKind::Unified;
    if (kind == HardwareKind::Datacenter && bandwidth_gbs >= 1200) return MemoryKind::Hbm;
    return MemoryKind::Gddr;
}

double estimate_fp16_tflops(HardwareKind kind, double bandwidth_gbs) {
    bool unified = kind == HardwareKind::Apple || kind == HardwareKind::Apu || kind == HardwareKind::Cpu;
    return (unified ? 0.04 : 0.025) * bandwidth_gbs;
}

// [SECTION] Parameters (JSON) ----------------------------------------------------------------------------

bool load_builtin_speed_params(SpeedParams& out, std::string& err) {
    out = SpeedParams{};
    const std::string_view text = embedded_asset("calibration/speed_params.json");
    if (text.empty()) {
        err = "the embedded calibration/speed_params.json is missing (the build did not embed assets/)";
        return false;
    }
    if (!parse_speed_params(std::string(text), out, err)) {
        out = SpeedParams{};
        err = "the embedded calibration/speed_params.json does not parse: " + err;
        return false;
    }
    return true;
}

SpeedParams builtin_speed_params() {
    SpeedParams p;
    std::string err;
    const bool ok = load_builtin_speed_params(p, err);
    assert(ok && "embedded speed_params.json is broken; tests/engine/test_speed.cpp names the error");
    (void)ok;
    return p;
}

namespace {

json table(const double* v, const char* const* names, int n) {
    json o = json::object();
    for (int i = 0; i < n; ++i) o[names[i]] = v[i];
    return o;
}

// read a number at obj[key]; missing keys keep the default, non-numbers are an error
bool read_num(const json& obj, const char* key, double& out, const std::string& where, std::string& err) {
    if (!obj.is_object()) { err = where + " is not an object"; return false; }
    auto it = obj.find(key);
    if (it == obj.end()) return true;
    if (!it->is_number()) { err = where + "." + key + " is not a number"; return false; }
    out = it->get<double>();
    if (!std::isfinite(out)) { err = where + "." + key + " is not finite"; return false; }
    return true;
}

bool read_table(const json& obj, const char* key, double* v, const char* const* names, int n, const std::string& where,
                std::string& err) {
    if (!obj.is_object()) { err = where + " is not an object"; return false; }
    auto it = obj.find(key);
    if (it == obj.end()) return true;
    for (int i = 0; i < n; ++i)
        if (!read_num(*it, names[i], v[i], where + "." + key, err)) return false;
    return true;
}

}  // namespace

std::string speed_params_to_json(const SpeedParams& p) {
    json d = json::object();
    d["bw_share"] = table(p.bw_share, kMemoryKindNames, kMemoryKindCount);
    d["backend_bw"] = table(p.backend_bw, kBackendNames, kBackendCount);
    d["weight_bw"] = table(p.weight_bw, kWeightClassNames, kWeightClassCount);
    d["kv_factor"] = p.kv_factor;
    d["no_fa_kv"] = table(p.no_fa_kv, kBackendNames, kBackendCount);
    d["fixed_ms_per_layer"] = p.fixed_ms_per_layer;
    d["gpu_hop_ms"] = p.gpu_hop_ms;
    d["alu_flops_per_param"] = p.alu_flops_per_param;
    d["alu_weight"] = table(p.alu_weight, kWeightClassNames, kWeightClassCount);
    d["alu_unified"] = p.alu_unified;
    json f = json::object();
    f["compute_share"] = p.compute_share;
    f["compute_kind"] = table(p.compute_kind, kKindNames, kHardwareKindCount);
    f["compute_backend"] = table(p.compute_backend, kBackendNames, kBackendCount);
    f["compute_weight"] = table(p.compute_weight, kWeightClassNames, kWeightClassCount);
    f["tflops_exponent"] = p.tflops_exponent;
    f["fa_attn_factor"] = p.fa_attn_factor;
    f["no_fa_score_bytes"] = p.no_fa_score_bytes;
    f["ubatch_overhead_ms"] = p.ubatch_overhead_ms;
    f["pipeline_hop_ms"] = p.pipeline_hop_ms;
    f["host_share"] = p.host_share;
    json bands = json::object();
    const char* kinds[2] = {"decode", "prefill"};
    for (int k = 0; k < 2; ++k) {
        json b = json::object();
        for (int c = 0; c < kHardwareKindCount; ++c) {
            const SpeedBand& sb = p.band[k][c];
            if (sb.rows == 0) continue;
            b[kKindNames[c]] = {{"rows", sb.rows}, {"low", sb.low}, {"high", sb.high}, {"mdape", sb.mdape},
                                {"within25", sb.within25}};
        }
        bands[kinds[k]] = b;
    }
    json root = json::object();
    root["about"] = "llmsim speed model parameters (engine/speed.h, docs/speed-model.md). Shares are fractions of "
                    "vendor spec; factors are relative to CUDA / F16 / GDDR. bands: leave-one-device-out relative "
                    "errors (predicted/measured - 1, 10th and 90th percentile) per hardware class.";
    root["fit"] = {{"rows_decode", p.fit_rows_decode}, {"rows_prefill", p.fit_rows_prefill},
                   {"devices", p.fit_devices}, {"source", p.fit_source}};
    root["decode"] = d;
    root["prefill"] = f;
    root["bands"] = bands;
    return root.dump(1);
}

bool parse_speed_params(const std::string& text, SpeedParams& out, std::string& err) {
    json root = json::parse(text, nullptr, false);
    if (root.is_discarded() || !root.is_object()) { err = "speed_params.json: not a JSON object"; return false; }
    SpeedParams p;   // defaults for anything missing
    const std::string w = "speed_params.json";
    if (root.contains("decode")) {
        const json& d = root["decode"];
        std::string wd = w + ".decode";
        if (!read_table(d, "bw_share", p.bw_share, kMemoryKindNames, kMemoryKindCount, wd, err) ||
            !read_table(d, "backend_bw", p.backend_bw, kBackendNames, kBackendCount, wd, err) ||
            !read_table(d, "weight_bw", p.weight_bw, kWeightClassNames, kWeightClassCount, wd, err) ||
            !read_num(d, "kv_factor", p.kv_factor, wd, err) ||
            !read_table(d, "no_fa_kv", p.no_fa_kv, kBackendNames, kBackendCount, wd, err) ||
            !read_num(d, "fixed_ms_per_layer", p.fixed_ms_per_layer, wd, err) ||
            !read_num(d, "gpu_hop_ms", p.gpu_hop_ms, wd, err) ||
            !read_num(d, "alu_flops_per_param", p.alu_flops_per_param, wd, err) ||
            !read_table(d, "alu_weight", p.alu_weight, kWeightClassNames, kWeightClassCount, wd, err) ||
            !read_num(d, "alu_unified", p.alu_unified, wd, err))
            return false;
    }
    if (root.contains("prefill")) {
        const json& f = root["prefill"];
        std::string wf = w + ".prefill";
        if (!read_num(f, "compute_share", p.compute_share, wf, err) ||
            !read_table(f, "compute_kind", p.compute_kind, kKindNames, kHardwareKindCount, wf, err) ||
            !read_table(f, "compute_backend", p.compute_backend, kBackendNames, kBackendCount, wf, err) ||
            !read_table(f, "compute_weight", p.compute_weight, kWeightClassNames, kWeightClassCount, wf, err) ||
            !read_num(f, "tflops_exponent", p.tflops_exponent, wf, err) ||
            !read_num(f, "fa_attn_factor", p.fa_attn_factor, wf, err) ||
            !read_num(f, "no_fa_score_bytes", p.no_fa_score_bytes, wf, err) ||
            !read_num(f, "ubatch_overhead_ms", p.ubatch_overhead_ms, wf, err) ||
            !read_num(f, "pipeline_hop_ms", p.pipeline_hop_ms, wf, err) ||
            !read_num(f, "host_share", p.host_share, wf, err))
            return false;
    }
    if (root.contains("bands") && root["bands"].is_object()) {
        const char* kinds[2] = {"decode", "prefill"};
        for (int k = 0; k < 2; ++k) {
            if (!root["bands"].contains(kinds[k])) continue;
            const json& b = root["bands"][kinds[k]];
            for (int c = 0; c < kHardwareKindCount; ++c) {
                if (!b.is_object() || !b.contains(kKindNames[c])) continue;
                const json& e = b[kKindNames[c]];
                std::string we = w + ".bands." + kinds[k] + "." + kKindNames[c];
                double rows = 0;
                SpeedBand& sb = p.band[k][c];
                if (!read_num(e, "rows", rows, we, err) || !read_num(e, "low", sb.low, we, err) ||
                    !read_num(e, "high", sb.high, we, err) || !read_num(e, "mdape", sb.mdape, we, err) ||
                    !read_num(e, "within25", sb.within25, we, err))
                    return false;
                sb.rows = (int)rows;
                if (sb.low > 0 || sb.high < 0 || sb.low <= -1) { err = we + ": low must be in (-1, 0] and high >= 0"; return false; }
            }
        }
    }
    if (root.contains("fit") && root["fit"].is_object()) {
        const json& f = root["fit"];
        double v = 0;
        if (read_num(f, "rows_decode", v, w + ".fit", err)) p.fit_rows_decode = (int)v; else return false;
        v = 0;
        if (read_num(f, "rows_prefill", v, w + ".fit", err)) p.fit_rows_prefill = (int)v; else return false;
        v = 0;
        if (read_num(f, "devices", v, w + ".fit", err)) p.fit_devices = (int)v; else return false;
        if (f.contains("source") && f["source"].is_string()) p.fit_source = f["source"].get<std::string>();
    }
    out = p;
    return true;
}

// [SECTION] Shared terms ---------------------------------------------------------------------------------

namespace {

// mean of min(x, w) for x uniform on [a, b] (w <= 0: no cap)
double mean_capped(double a, double b, double w) {
    if (w <= 0) return 0.5 * (a + b);
    if (b <= w) return 0.5 * (a + b);
    if (a >= w) return w;
    if (b - a <= 0) return std::min(a, w);
    return ((w * w - a * a) / 2 + w * (b - w)) / (b - a);
}

int full_layers(const SpeedScenario& s) {
    if (s.full_attn_layers > 0 || s.swa_layers > 0) return s.full_attn_layers;
    return s.n_layers;
}

// sum over layers of the attended context length, averaged over positions [a, b]
double layer_ctx(const SpeedScenario& s, double a, double b) {
    return full_layers(s) * 0.5 * (a + b) + s.swa_layers * mean_capped(a, b, (double)s.swa_window);
}

// KV bytes read per token, averaged over positions [a, b]
double kv_bytes(const SpeedScenario& s, double a, double b) {
    return s.kv_bytes_per_token_full * 0.5 * (a + b) + s.kv_bytes_per_token_swa * mean_capped(a, b, (double)s.swa_window);
}

double tflops(const SpeedScenario& s, bool& estimated) {
    estimated = !(s.fp16_tflops > 0);
    return estimated ? estimate_fp16_tflops(s.kind, s.bandwidth_gbs) : s.fp16_tflops;
}

// FLOP/s prefill matmuls reach: a share of the rated FP16 figure, by class, backend and weight type. Tensor-core
// parts get (TFLOPS/100)^exponent on top (the bigger the tensor units, the harder llama.cpp's kernels feed them);
// Apple/APU figures are vector-ALU rates that the Metal/HIP kernels reach in proportion.
double effective_flops(const SpeedScenario& s, const SpeedParams& p, double tf) {
    double share = p.compute_share * p.compute_kind[(int)s.kind] * p.compute_backend[(int)s.backend] *
                   p.compute_weight[(int)s.weight_class];
    if (s.memory != MemoryKind::Unified) share *= std::pow(tf / 100.0, p.tflops_exponent);
    return tf * 1e12 * share;
}

double bw_share(const SpeedScenario& s, const SpeedParams& p) {
    return p.bw_share[(int)s.memory] * p.backend_bw[(int)s.backend];
}

bool check(const SpeedScenario& s, std::string& err) {
    if (!(s.bandwidth_gbs > 0)) { err = "the device has no memory bandwidth (bandwidth_gbs); add it to the catalog entry"; return false; }
    if (s.n_layers <= 0) { err = "the model has no layers (n_layers = 0)"; return false; }
    if (!(s.weight_bytes > 0) || !(s.weight_bytes_per_token > 0)) { err = "the model has no weight bytes"; return false; }
    if (!(s.active_params > 0)) { err = "the model has no active parameters"; return false; }
    if (s.gpus < 1) { err = "gpus must be at least 1"; return false; }
    if (s.offload_fraction < 0 || s.offload_fraction > 1) { err = "offload_fraction must be between 0 and 1"; return false; }
    if (s.offload_fraction > 0 && !(s.host_bandwidth_gbs > 0)) {
        err = "weights are offloaded to host RAM but the host RAM bandwidth is unknown (host_bandwidth_gbs)";
        return false;
    }
    return true;
}

// tokens/s band from the class's measured relative errors e = predicted/measured - 1
void apply_band(SpeedResult& r, const SpeedParams& p, int kind_index, HardwareKind k) {
    const SpeedBand* b = &p.band[kind_index][(int)k];
    SpeedBand fallback;
    if (b->rows == 0) {   // no rows for this class: the widest band we have
        fallback.low = -0.25; fallback.high = 0.25;
        for (int c = 0; c < kHardwareKindCount; ++c)
            if (p.band[kind_index][c].rows > 0) {
                fallback.low = std::min(fallback.low, p.band[kind_index][c].low);
                fallback.high = std::max(fallback.high, p.band[kind_index][c].high);
            }
        b = &fallback;
    }
    // measured = predicted / (1 + e): the over-predictions (e > 0) set the low end
    r.low = r.tokens_per_s / (1 + b->high);
    r.high = r.tokens_per_s / (1 + std::max(b->low, -0.9));
}

}  // namespace

// [SECTION] Decode ---------------------------------------------------------------------------------------

namespace {

// seconds per decoded token, one sequence, positions averaged over [a, b]
SpeedResult decode_terms(const SpeedScenario& s, const SpeedParams& p, double a, double b) {
    SpeedResult r;
    double bw = s.bandwidth_gbs * 1e9;
    double share = bw_share(s, p);
    double gpu_frac = 1.0 - s.offload_fraction;
    r.weight_time_s = s.weight_bytes_per_token * gpu_frac / (bw * share * p.weight_bw[(int)s.weight_class]);
    double kv = kv_bytes(s, a, b);
    double kv_cost = p.kv_factor * (s.flash_attn ? 1.0 : p.no_fa_kv[(int)s.backend]);
    r.kv_time_s = kv * kv_cost / (bw * share);
    double tf = tflops(s, r.fp16_tflops_estimated) * 1e12;
    bool unified = s.memory == MemoryKind::Unified;
    double alu = s.active_params * gpu_frac * p.alu_flops_per_param * p.alu_weight[(int)s.weight_class] *
                 (unified ? p.alu_unified : 1.0) / tf;
    // the dequant/dot work partly overlaps the reads: matmul time = hypot(read, alu), the ALU term is the excess
    r.alu_time_s = std::hypot(r.weight_time_s, alu) - r.weight_time_s;
    r.fixed_time_s = s.n_layers * p.fixed_ms_per_layer * 1e-3;
    r.sync_time_s = (s.gpus - 1) * p.gpu_hop_ms * 1e-3;
    if (s.offload_fraction > 0)
        r.offload_time_s = s.weight_bytes_per_token * s.offload_fraction / (s.host_bandwidth_gbs * 1e9 * p.host_share);
    double t = r.weight_time_s + r.kv_time_s + r.alu_time_s + r.fixed_time_s + r.sync_time_s + r.offload_time_s;
    r.time_s = t;
    r.tokens_per_s = 1.0 / t;
    r.bound = (r.weight_time_s + r.kv_time_s + r.offload_time_s >= alu) ? "memory" : "compute";
    r.bytes_per_token = s.weight_bytes_per_token + kv;
    r.flops_per_token = 2 * s.active_params + 2.0 * s.n_heads * (s.head_dim_qk + (s.head_dim_v ? s.head_dim_v : s.head_dim_qk)) * layer_ctx(s, a, b);
    r.ok = true;
    return r;
}

}  // namespace

SpeedResult estimate_decode(const SpeedScenario& s, const SpeedParams& p, int64_t depth, int64_t n_tokens) {
    SpeedResult r;
    if (!check(s, r.error)) return r;
    if (n_tokens < 1 || depth < 0) { r.error = "decode needs at least 1 token and a depth >= 0"; return r; }
    // position of the i-th generated token is depth + i; the mean over i in [0, N) is depth + N/2 (linear terms)
    r = decode_terms(s, p, (double)depth, (double)depth + (double)n_tokens);
    r.time_s = r.time_s * (double)n_tokens;
    apply_band(r, p, 0, s.kind);
    return r;
}

// [SECTION] Prefill --------------------------------------------------------------------------------------

namespace {

struct UbatchTime {
    double total = 0, compute = 0, attention = 0, overhead = 0, offload = 0;
    bool compute_bound = true;
};

UbatchTime ubatch_time(const SpeedScenario& s, const SpeedParams& p, double n, double ctx0, double tf, double comp,
                       double bw_eff) {
    UbatchTime u;
    double lin = 2.0 * s.active_params * n / comp;
    double gpu_bytes = s.weight_bytes * (1.0 - s.offload_fraction);
    double wfloor = gpu_bytes / bw_eff;
    double lc = layer_ctx(s, ctx0, ctx0 + n);   // sum over layers of the context each token attends to
    double hv = s.head_dim_v ? s.head_dim_v : s.head_dim_qk;
    double attn_flops = 2.0 * s.n_heads * (s.head_dim_qk + hv) * lc * n;
    double at;
    if (s.flash_attn) at = attn_flops * p.fa_attn_factor / comp;
    else at = attn_flops / comp + s.n_heads * lc * n * p.no_fa_score_bytes / bw_eff;   // f32 KQ scores round trips
    (void)tf;
    u.compute = std::max(lin, wfloor);
    u.compute_bound = lin >= wfloor;
    u.attention = at;
    u.overhead = p.ubatch_overhead_ms * 1e-3 * s.n_layers / 32.0;
    if (s.offload_fraction > 0) {
        // llama.cpp runs large-batch matmuls of host-resident weights on the GPU: the weights cross the link once
        double link = s.host_link_gbs > 0 ? s.host_link_gbs : (s.link_gbs > 0 ? s.link_gbs : kDefaultPcieGbs);
        u.offload = s.weight_bytes * s.offload_fraction / (link * 1e9);
    }
    u.total = u.compute + u.attention + u.overhead + u.offload;
    return u;
}

}  // namespace

SpeedResult estimate_prefill(const SpeedScenario& s, const SpeedParams& p, int64_t n_tokens, int64_t depth) {
    SpeedResult r;
    if (!check(s, r.error)) return r;
    if (n_tokens < 1 || depth < 0) { r.error = "prefill needs at least 1 prompt token and a depth >= 0"; return r; }
    if (s.ubatch < 1 || s.batch < 1) { r.error = "ubatch and batch must be at least 1"; return r; }
    bool est = false;
    double tf = tflops(s, est);
    r.fp16_tflops_estimated = est;
    double comp = effective_flops(s, p, tf);
    double bw_eff = s.bandwidth_gbs * 1e9 * bw_share(s, p);
    int64_t batch = std::max<int64_t>(s.batch, s.ubatch);
    double total = 0, comp_t = 0, attn_t = 0, ovh_t = 0, sync_t = 0, off_t = 0;
    int compute_bound_ub = 0, n_ub_total = 0;
    int64_t pos = 0;
    while (pos < n_tokens) {
        int64_t nb = std::min(batch, n_tokens - pos);
        double batch_time = 0;
        int k = 0;
        for (int64_t q = 0; q < nb; q += s.ubatch) {
            double n = (double)std::min<int64_t>(s.ubatch, nb - q);
            UbatchTime u = ubatch_time(s, p, n, (double)(depth + pos + q), tf, comp, bw_eff);
            batch_time += u.total;
            comp_t += u.compute; attn_t += u.attention; ovh_t += u.overhead; off_t += u.offload;
            compute_bound_ub += u.compute_bound ? 1 : 0;
            ++k; ++n_ub_total;
        }
        if (s.gpus > 1) {
            // layer split pipelines the ubatches of one batch through the GPUs (llama.cpp pipeline parallelism):
            // k ubatches over G stages take (k + G - 1) stage times of T/(k G) each, plus a hand-off per stage
            double G = s.gpus;
            double stage = batch_time / (k * G) + p.pipeline_hop_ms * 1e-3;
            double piped = (k + G - 1) * stage;
            sync_t += piped - batch_time;   // negative: the pipeline saves time
            batch_time = piped;
        }
        total += batch_time;
        pos += nb;
    }
    double N = (double)n_tokens;
    r.time_s = total;
    r.tokens_per_s = N / total;
    r.compute_time_s = comp_t / N;
    r.attention_time_s = attn_t / N;
    r.overhead_time_s = ovh_t / N;
    r.offload_time_s = off_t / N;
    r.sync_time_s = sync_t / N;
    r.bound = (compute_bound_ub * 2 >= n_ub_total) ? "compute" : "memory";
    double hv = s.head_dim_v ? s.head_dim_v : s.head_dim_qk;
    r.flops_per_token = 2 * s.active_params + 2.0 * s.n_heads * (s.head_dim_qk + hv) * layer_ctx(s, (double)depth, (double)depth + N);
    r.bytes_per_token = s.weight_bytes / std::min<double>(N, (double)s.ubatch) + kv_bytes(s, (double)depth, (double)depth + N);
    r.ok = true;
    apply_band(r, p, 1, s.kind);
    return r;
}

SpeedResult estimate_speed(const SpeedScenario& s, const SpeedParams& p) {
    if (s.test == SpeedTest::Prefill) return estimate_prefill(s, p, s.tokens, s.depth);
    return estimate_decode(s, p, s.depth, s.tokens);
}

// [SECTION] TTFT, reply, concurrency, seed ---------------------------------------------------------------

double time_to_first_token_s(const SpeedScenario& s, const SpeedParams& p, int64_t prompt_tokens) {
    SpeedResult r = estimate_prefill(s, p, std::max<int64_t>(prompt_tokens, 1), 0);
    return r.ok ? r.time_s : -1.0;
}

ReplyTime estimate_reply(const SpeedScenario& s, const SpeedParams& p, int64_t prompt_tokens, int64_t gen_tokens) {
    ReplyTime out;
    if (prompt_tokens < 1 || gen_tokens < 0) { out.error = "a reply needs a prompt of at least 1 token and gen_tokens >= 0"; return out; }
    SpeedResult pf = estimate_prefill(s, p, prompt_tokens, 0);
    if (!pf.ok) { out.error = pf.error; return out; }
    out.ttft_s = pf.time_s;
    out.ttft_low_s = prompt_tokens / pf.high;    // fast end of the band
    out.ttft_high_s = prompt_tokens / pf.low;
    double gen_low = 0, gen_high = 0;
    if (gen_tokens > 0) {
        SpeedResult d = estimate_decode(s, p, prompt_tokens, gen_tokens);
        if (!d.ok) { out.error = d.error; return out; }
        out.generate_s = d.time_s;
        out.decode_tokens_per_s = d.tokens_per_s;
        gen_low = gen_tokens / d.high;
        gen_high = gen_tokens / d.low;
    }
    out.total_s = out.ttft_s + out.generate_s;
    out.total_low_s = out.ttft_low_s + gen_low;
    out.total_high_s = out.ttft_high_s + gen_high;
    out.ok = true;
    return out;
}

ConcurrencyResult estimate_concurrency(const SpeedScenario& s, const SpeedParams& p, int n_parallel, int64_t depth,
                                       int moe_experts, int moe_experts_active, double expert_bytes) {
    ConcurrencyResult c;
    c.parallel = n_parallel;
    if (n_parallel < 1) { c.error = "n_parallel must be at least 1"; return c; }
    std::string err;
    if (!check(s, err)) { c.error = err; return c; }
    SpeedResult one = decode_terms(s, p, (double)depth, (double)depth + 1);
    double B = n_parallel;
    // weights: read once per step; MoE: the union of the experts B tokens route to
    double w = one.weight_time_s;
    if (moe_experts > 0 && moe_experts_active > 0 && expert_bytes > 0 && s.weight_bytes_per_token > 0) {
        double frac_one = (double)moe_experts_active / moe_experts;
        double frac_b = 1.0 - std::pow(1.0 - frac_one, B);
        double active_expert_bytes = expert_bytes * frac_one;
        double scale = (s.weight_bytes_per_token - active_expert_bytes + expert_bytes * frac_b) / s.weight_bytes_per_token;
        w *= std::max(scale, 1.0);
    }
    // matmul FLOPs of B tokens at the prefill compute rate: large batches turn decode compute-bound
    bool est = false;
    double tf = tflops(s, est);
    double comp = effective_flops(s, p, tf);
    double flops_t = B * 2.0 * s.active_params / comp;
    double mem_t = w + one.alu_time_s + one.offload_time_s;
    double step = std::max(mem_t, flops_t) + B * one.kv_time_s + one.fixed_time_s + one.sync_time_s;
    c.step_time_s = step;
    c.per_user_tokens_per_s = 1.0 / step;
    c.aggregate_tokens_per_s = B / step;
    c.bound = flops_t > mem_t ? "compute" : "memory";
    c.ok = true;
    return c;
}

double seed_tokens_per_s(const SpeedScenario& s, double total_params) {
    if (s.test == SpeedTest::Decode) {
        double kv = kv_bytes(s, (double)s.depth, (double)(s.depth + s.tokens));
        return 0.84 * s.bandwidth_gbs * 1e9 / (s.weight_bytes + kv);
    }
    bool est = false;
    return 0.65 * tflops(s, est) * 1e12 / (2.0 * total_params);
}

}  // namespace llmsim
