// llmsim speed model. See speed.h for the interface and docs/speed-model.md for the physics and the fit.
//
// [SECTION] Names and guesses
// [SECTION] Parameters (JSON)
// [SECTION] Shared terms
// [SECTION] Decode
// [SECTION] Prefill
// [SECTION] TTFT, reply, concurrency, seed
#include "speed/speed.h"

#include "core/assets.h"
#include "core/input_limits.h"
#include "core/text.h"
#include "speed/speed_binary.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string_view>

#include <nlohmann/json.hpp>

namespace llmsim {

using json = nlohmann::json;

// [SECTION] Names and guesses ----------------------------------------------------------------------------

namespace {
const char* const kMemoryKindNames[kMemoryKindCount] = {"gddr", "hbm", "unified"};
const char* const kBackendNames[kBackendCount] = {"cuda", "rocm", "metal", "vulkan", "sycl", "cpu"};
const char* const kKindNames[kHardwareKindCount] = {"consumer", "workstation", "datacenter", "apple", "apu", "cpu"};
}  // namespace

const char* to_string(MemoryKind m) { return kMemoryKindNames[(int)m]; }

const char* to_string(Bound b) {
    static const char* const kNames[] = {"", "memory", "compute"};   // Bound's order
    return kNames[(int)b];
}

MemoryKind guess_memory_kind(HardwareKind kind, double bandwidth_gbs) {
    if (kind == HardwareKind::Apple || kind == HardwareKind::Apu || kind == HardwareKind::Cpu) return MemoryKind::Unified;
    if (kind == HardwareKind::Datacenter && bandwidth_gbs >= 1200) return MemoryKind::Hbm;
    return MemoryKind::Gddr;
}

namespace {
// TFLOPS (dense FP16 tensor, the catalog's fp16_tflops convention) per GB/s of memory bandwidth, per chip family:
// the median over assets/catalog/hardware.json devices of the family whose figure is published (not estimated), each
// chip counted once (memory-size variants share their TFLOPS and GB/s);
// tests/engine/test_speed.cpp re-derives every row that has such a device. Rows without one name their source.
// One row per ChipFamily, in its order (catalog/chip_family.h).
using F = ChipFamily;
// clang-format off
constexpr ChipFamilyRates kChipFamilyRates[] = {
    {F::NvidiaBlackwellGeforce, 0.234, 1.0, 1.0, 1.0, true, true},
    {F::NvidiaBlackwellPro,     0.281, 1.0, 1.0, 1.0, true, true},
    {F::NvidiaAdaGeforce,       0.295, 1.0, 1.0, 1.0, true},
    {F::NvidiaAdaPro,           0.391, 1.0, 1.0, 1.0, true},
    {F::NvidiaHopperH20,        0.037, 2.0 / 3, 1.0, 1.0, true},  // H20 148 / 4000 (catalog): export-limited tensor rate
    {F::NvidiaHopper,           0.247, 2.0 / 3, 1.0, 1.0, true},
    {F::NvidiaAmpereGeforce,    0.157, 1.0, 1.0, 1.0, true},
    {F::NvidiaAmperePro,        0.189, 1.0, 1.0, 1.0, true},
    {F::NvidiaTuring,           0.189, 1.0, 1.0, 1.0, true},
    {F::NvidiaVolta,            0.125, 1.0, 1.0, 1.0, true},  // V100 PCIe 112 / 897 (catalog)
    {F::NvidiaPascalGp100,      0.0255}, // P100 PCIe 18.7 / 732: no tensor cores, no DP4A
    // sm_61 (P40, P4, P6000, GTX 10, Titan X/Xp): no published figure (their catalog fp16_tflops are FP32 rates
    // marked estimated); GP100's ratio. MMQ runs DP4A at 4x the FP32 rate (ChipFamilyRates::mmq_rate)
    {F::NvidiaPascal,           0.0255, 1.0, 2.0},
    // RX 9070 XT WMMA 194.7 / 640 (AMD); flash attention's tile kernel on the vector ALUs at 1/4 (fa_tile_share)
    {F::AmdRdna4,               0.304, 1.0, 1.0, 1.0, false, false, 0.25},
    {F::AmdRdna3,               0.143},
    {F::AmdCdna4,               0.288},  // MI355X 2307 / 8000 (catalog)
    {F::AmdCdna3,               0.232},
    {F::AmdCdna2,               0.114},  // MI210 181 / 1638, MI250X 383 / 3277
    {F::AmdCdna1,               0.150},  // MI100 184.6 / 1228.8 (catalog)
    {F::AmdStrixHalo,           0.232},
    {F::IntelXe2,               0.257},
    // A770 137.6 / 560 (Intel XMX); ggml-vulkan gives Alchemist no coopmat: vector engines, 1/4 (vulkan_mm_rate)
    {F::IntelAlchemist,         0.246, 1.0, 1.0, 0.25},
    // vendor / class medians for devices of a generation the table does not single out
    {F::NvidiaConsumer,         0.196, 1.0, 1.0, 1.0, true},
    {F::NvidiaWorkstation,      0.281, 1.0, 1.0, 1.0, true},
    {F::NvidiaDatacenter,       0.214, 1.0, 1.0, 1.0, true},
    {F::AmdConsumer,            0.128},
    {F::AmdDatacenter,          0.232},
    {F::AmdApu,                 0.232},
    {F::Intel,                  0.257},
    {F::Apple,                  0.027},
    // class medians for any vendor (cpu: FP32 FMA peak per GB/s of the catalog's two estimated CPUs)
    {F::Consumer,               0.196},
    {F::Workstation,            0.281},
    {F::Datacenter,             0.217},
    {F::Apu,                    0.232},
    {F::Cpu,                    0.025},
};
// clang-format on
static_assert(sizeof kChipFamilyRates / sizeof kChipFamilyRates[0] == (size_t)ChipFamily::Count,
              "one kChipFamilyRates row per ChipFamily");
constexpr bool rates_in_enum_order() {
    for (size_t i = 0; i < sizeof kChipFamilyRates / sizeof kChipFamilyRates[0]; ++i)
        if ((size_t)kChipFamilyRates[i].family != i) return false;
    return true;
}
static_assert(rates_in_enum_order(), "kChipFamilyRates rows must follow the ChipFamily order");
}  // namespace

const ChipFamilyRates& chip_family_rates(ChipFamily family) {
    assert((int)family >= 0 && family < ChipFamily::Count && "a device without a chip family: use class_chip_family");
    return kChipFamilyRates[(int)family >= 0 && family < ChipFamily::Count ? (int)family : (int)ChipFamily::Consumer];
}

double mma_share_of(ChipFamily family) { return chip_family_rates(family).mma_share; }
double mmq_rate_of(ChipFamily family) { return chip_family_rates(family).mmq_rate; }
double vulkan_mm_rate_of(ChipFamily family) { return chip_family_rates(family).vulkan_mm_rate; }

bool is_intel_gpu(ChipFamily family) {
    return family == ChipFamily::IntelXe2 || family == ChipFamily::IntelAlchemist || family == ChipFamily::Intel;
}

void set_family_rates(SpeedScenario& s, ChipFamily family) {
    const ChipFamilyRates& f = chip_family_rates(family);
    s.mma_share = f.mma_share;
    s.mmq_rate = f.mmq_rate;
    s.vulkan_mm_rate = f.vulkan_mm_rate;
    s.vulkan_coopmat2 = f.vulkan_coopmat2;
    s.native_fp4_mma = f.native_fp4_mma;
    s.fa_tile_share = f.fa_tile_share;
}

bool rocm_fa_tile_kernel(const SpeedScenario& s) {
    if (s.backend != Backend::Rocm || !(s.fa_tile_share < 1.0)) return false;
    const bool before_mma = s.llama_build != 0 && s.llama_build <= kRdna4MmaFaBuild;
    return before_mma || s.head_dim_qk > kRdna4MmaFaMaxHead;
}

Fp16Estimate estimate_fp16_tflops(ChipFamily family, double bandwidth_gbs) {
    const ChipFamilyRates& f = chip_family_rates(family);
    Fp16Estimate e;
    e.family = to_string(family);
    e.tflops_per_gbs = f.tflops_per_gbs;
    e.tflops = f.tflops_per_gbs * bandwidth_gbs;
    return e;
}

double estimate_fp16_tflops(HardwareKind kind, double bandwidth_gbs) {
    return chip_family_rates(class_chip_family(kind)).tflops_per_gbs * bandwidth_gbs;
}

// [SECTION] Parameters (JSON) ----------------------------------------------------------------------------

bool load_builtin_speed_params(SpeedParams& out, std::string& err) {
    out = SpeedParams{};
#ifdef LLMSIM_SPEED_BINARY   // the web page: speed_params.bin, written at build time from the JSON (speed_binary.h)
    const std::string_view bin = embedded_asset("calibration/speed_params.bin");
    SpeedCalibration c;
    if (bin.empty()) {
        err = "the embedded calibration/speed_params.bin is missing (the build did not write it)";
        return false;
    }
    if (!speed_calibration_from_binary(bin, c, err)) return false;
    out = c.params;
    return true;
#else
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
#endif
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
    d["moe_bw"] = p.moe_bw;
    d["moe_layer_us"] = p.moe_layer_us;
    d["intel_bw"] = p.intel_bw;
    d["intel_vulkan_bw"] = p.intel_vulkan_bw;
    d["sycl_expert_call_us"] = p.sycl_expert_call_us;
    d["mmvq_sm_bytes_per_clk"] = p.mmvq_sm_bytes_per_clk;
    d["alu_cpu_flops_per_param"] = p.alu_cpu_flops_per_param;
    json f = json::object();
    f["compute_share"] = p.compute_share;
    f["compute_kind"] = table(p.compute_kind, kKindNames, kHardwareKindCount);
    f["compute_backend"] = table(p.compute_backend, kBackendNames, kBackendCount);
    f["compute_weight"] = table(p.compute_weight, kWeightClassNames, kWeightClassCount);
    f["tflops_exponent"] = p.tflops_exponent;
    f["fa_attn_factor"] = p.fa_attn_factor;
    f["fa_attn_backend"] = table(p.fa_attn_backend, kBackendNames, kBackendCount);
    f["no_fa_score_bytes"] = p.no_fa_score_bytes;
    f["pipeline_hop_ms"] = p.pipeline_hop_ms;
    f["host_share"] = p.host_share;
    f["matmul_half_tokens"] = p.matmul_half_tokens;
    f["intel_compute"] = p.intel_compute;
    f["moe_compute"] = p.moe_compute;
    f["moe_route_ns"] = p.moe_route_ns;
    f["vulkan_cm2_compute"] = p.vulkan_cm2_compute;
    f["vulkan_scalar_moe"] = p.vulkan_scalar_moe;
    json bands = json::object();
    const char* kinds[2] = {"decode", "prefill"};
    // one kind's per-class bands (classes without rows left out); the current-build and older-build tables alike
    auto class_bands = [](const SpeedBand (&by_class)[kHardwareKindCount]) {
        json b = json::object();
        for (int c = 0; c < kHardwareKindCount; ++c) {
            const SpeedBand& sb = by_class[c];
            if (sb.rows == 0) continue;
            b[kKindNames[c]] = {{"rows", sb.rows}, {"low", sb.low}, {"high", sb.high}, {"mdape", sb.mdape},
                                {"within25", sb.within25}, {"coverage", sb.coverage}, {"from", sb.from}};
        }
        return b;
    };
    json older = json::object();
    for (int k = 0; k < 2; ++k) {
        bands[kinds[k]] = class_bands(p.band[k]);
        json b = class_bands(p.band_older[k]);
        if (!b.empty()) older[kinds[k]] = b;
    }
    if (!older.empty()) bands["older_builds"] = older;
    json fe = json::object();
    for (int k = 0; k < 2; ++k) {
        const SpeedBand& sb = p.band_fp16_estimated[k];
        if (sb.rows == 0) continue;
        fe[kinds[k]] = {{"rows", sb.rows}, {"low", sb.low}, {"high", sb.high}, {"mdape", sb.mdape}, {"within25", sb.within25}};
    }
    if (!fe.empty()) bands["fp16_estimated"] = fe;
    json rb = json::object();
    for (int k = 0; k < 2; ++k) {
        const SpeedBand& sb = p.recent_builds[k];
        if (sb.rows == 0) continue;
        rb[kinds[k]] = {{"rows", sb.rows}, {"low", sb.low}, {"high", sb.high}, {"mdape", sb.mdape},
                        {"within25", sb.within25}, {"coverage", sb.coverage}, {"from", sb.from}};
    }
    if (!rb.empty()) bands["recent_builds"] = rb;
    json root = json::object();
    root["about"] = "llmsim speed model parameters (engine/speed/speed.h, docs/speed-model.md). Shares are fractions of "
                    "vendor spec; factors are relative to CUDA / F16 / GDDR. bands: held-out relative errors "
                    "(predicted/measured - 1) per hardware class from leave-one-source-and-its-devices-out, each publication weighted "
                    "1/sqrt(rows): 5th and 95th percentile for builds b6700+ (the class tables), 10th and 90th for older builds "
                    "(older_builds); coverage: cross-validated by publication; fp16_estimated: rows "
                    "re-predicted with their fp16_tflops replaced by the family estimate; recent_builds: the 2025-26 builds "
                    "alone (rows dated 2025+ or build >= b4418), every class, leave-one-source-out.";
    root["fit"] = {{"rows_decode", p.fit_rows_decode}, {"rows_prefill", p.fit_rows_prefill},
                   {"devices", p.fit_devices}, {"source", p.fit_source}};
    root["decode"] = d;
    root["prefill"] = f;
    root["bands"] = bands;
    return root.dump(1);
}

// bands.older_builds.<kind>.<class> (optional): the band of a build before kFreshBandFirstBuild
static bool read_older_bands(const json& bands, int k, SpeedParams& p, std::string& err) {
    const char* kinds[2] = {"decode", "prefill"};
    const std::string w = "speed_params.json";
    const json ob = bands.value("older_builds", json::object());
    if (!ob.is_object() || !ob.contains(kinds[k]) || !ob[kinds[k]].is_object()) return true;
    for (int c = 0; c < kHardwareKindCount; ++c) {
        if (!ob[kinds[k]].contains(kKindNames[c])) continue;
        const json& e = ob[kinds[k]][kKindNames[c]];
        const std::string we = w + ".bands.older_builds." + kinds[k] + "." + kKindNames[c];
        SpeedBand& sb = p.band_older[k][c];
        double rows = 0;
        if (!read_num(e, "rows", rows, we, err) || !read_num(e, "low", sb.low, we, err) ||
            !read_num(e, "high", sb.high, we, err) || !read_num(e, "mdape", sb.mdape, we, err) ||
            !read_num(e, "within25", sb.within25, we, err) || !read_num(e, "coverage", sb.coverage, we, err))
            return false;
        if (sb.low > 0 || sb.high < 0 || sb.low <= -1 || rows < 0) {
            err = we + ": low must be in (-1, 0], high >= 0 and rows >= 0";
            return false;
        }
        sb.rows = (int)rows;
        if (e.contains("from") && e["from"].is_string()) sb.from = e["from"].get<std::string>();
    }
    return true;
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
            !read_num(d, "alu_unified", p.alu_unified, wd, err) ||
            !read_num(d, "moe_bw", p.moe_bw, wd, err) || !read_num(d, "moe_layer_us", p.moe_layer_us, wd, err) ||
            !read_num(d, "intel_bw", p.intel_bw, wd, err) ||
            !read_num(d, "intel_vulkan_bw", p.intel_vulkan_bw, wd, err) ||
            !read_num(d, "sycl_expert_call_us", p.sycl_expert_call_us, wd, err) ||
            !read_num(d, "mmvq_sm_bytes_per_clk", p.mmvq_sm_bytes_per_clk, wd, err) ||
            !read_num(d, "alu_cpu_flops_per_param", p.alu_cpu_flops_per_param, wd, err))
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
            !read_table(f, "fa_attn_backend", p.fa_attn_backend, kBackendNames, kBackendCount, wf, err) ||
            !read_num(f, "no_fa_score_bytes", p.no_fa_score_bytes, wf, err) ||
            !read_num(f, "pipeline_hop_ms", p.pipeline_hop_ms, wf, err) ||
            !read_num(f, "host_share", p.host_share, wf, err) ||
            !read_num(f, "matmul_half_tokens", p.matmul_half_tokens, wf, err) ||
            !read_num(f, "intel_compute", p.intel_compute, wf, err) ||
            !read_num(f, "moe_compute", p.moe_compute, wf, err) ||
            !read_num(f, "moe_route_ns", p.moe_route_ns, wf, err) ||
            !read_num(f, "vulkan_cm2_compute", p.vulkan_cm2_compute, wf, err) ||
            !read_num(f, "vulkan_scalar_moe", p.vulkan_scalar_moe, wf, err))
            return false;
    }
    if (root.contains("bands") && root["bands"].is_object()) {
        const char* kinds[2] = {"decode", "prefill"};
        for (int k = 0; k < 2; ++k) {
            if (!root["bands"].contains(kinds[k])) continue;
            const json& b = root["bands"][kinds[k]];
            for (int c = 0; c <= kHardwareKindCount; ++c) {   // c == count: bands.fp16_estimated.<kind>
                const json& src = c < kHardwareKindCount ? b : root["bands"].value("fp16_estimated", json::object());
                const char* key = c < kHardwareKindCount ? kKindNames[c] : kinds[k];
                if (!src.is_object() || !src.contains(key)) continue;
                const json& e = src[key];
                std::string we = w + ".bands." + (c < kHardwareKindCount ? std::string(kinds[k]) + "." + key
                                                                          : std::string("fp16_estimated.") + key);
                double rows = 0;
                SpeedBand& sb = c < kHardwareKindCount ? p.band[k][c] : p.band_fp16_estimated[k];
                if (!read_num(e, "rows", rows, we, err) || !read_num(e, "low", sb.low, we, err) ||
                    !read_num(e, "high", sb.high, we, err) || !read_num(e, "mdape", sb.mdape, we, err) ||
                    !read_num(e, "within25", sb.within25, we, err))
                    return false;
                sb.rows = (int)rows;
                if (!read_num(e, "coverage", sb.coverage, we, err)) return false;
                if (e.contains("from") && e["from"].is_string()) sb.from = e["from"].get<std::string>();
                if (sb.low > 0 || sb.high < 0 || sb.low <= -1) { err = we + ": low must be in (-1, 0] and high >= 0"; return false; }
            }
            if (!read_older_bands(root["bands"], k, p, err)) return false;
            // bands.recent_builds.<kind> (optional): shown, never applied, so only its numbers are checked
            const json rb = root["bands"].value("recent_builds", json::object());
            if (rb.is_object() && rb.contains(kinds[k])) {
                const json& e = rb[kinds[k]];
                const std::string we = w + ".bands.recent_builds." + kinds[k];
                SpeedBand& sb = p.recent_builds[k];
                double rows = 0;
                if (!read_num(e, "rows", rows, we, err) || !read_num(e, "mdape", sb.mdape, we, err) ||
                    !read_num(e, "within25", sb.within25, we, err) || !read_num(e, "coverage", sb.coverage, we, err) ||
                    !read_num(e, "low", sb.low, we, err) || !read_num(e, "high", sb.high, we, err))
                    return false;
                if (rows < 0 || sb.mdape < 0 || sb.within25 < 0 || sb.within25 > 1 || sb.coverage < 0 || sb.coverage > 1) {
                    err = we + ": rows and mdape must be >= 0, within25 and coverage in [0, 1]";
                    return false;
                }
                sb.rows = (int)rows;
                if (e.contains("from") && e["from"].is_string()) sb.from = e["from"].get<std::string>();
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

// share of a ubatch's own cells a sliding-window query runs over (see ubatch_layer_ctx)
constexpr double kSwaViewShare = 1.0;

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

// sum over layers of the KV cells a ubatch of n tokens starting at position ctx0 runs its attention over, per token.
// Full-attention layers: the cells are in position order, and the flash-attention kernels stop each query tile at
// its last unmasked cell, so a token sees ctx0 + n/2 on average. Sliding-window layers: llama.cpp's SWA cache holds
// the window plus the ubatch (llama_kv_cache_iswa: n_swa + n_ubatch cells) and its cells are reused out of
// position order, so every query of the ubatch runs over all of them, min(ctx0, window) + n, masked or not; a
// short window (gpt-oss: 128) costs the ubatch's length, not the window's.
double ubatch_layer_ctx(const SpeedScenario& s, double ctx0, double n) {
    const double w = (double)s.swa_window;
    if (s.swa_layers <= 0 || w <= 0 || ctx0 + n <= w) return layer_ctx(s, ctx0, ctx0 + n);
    return full_layers(s) * (ctx0 + 0.5 * n) + s.swa_layers * (std::min(ctx0, w) + kSwaViewShare * n);
}

// KV bytes read per token, averaged over positions [a, b]
double kv_bytes(const SpeedScenario& s, double a, double b) {
    return s.kv_bytes_per_token_full * 0.5 * (a + b) + s.kv_bytes_per_token_swa * mean_capped(a, b, (double)s.swa_window);
}

// a CPU core's FP32 FMA peak where the core's facts are not stated: 32 FLOP per clock (two 256-bit FMA pipes on Zen 2-5
// and Intel Haswell ... Raptor Lake P-cores, four 128-bit NEON pipes on Apple's P-cores) x 3.5 GHz, between the catalog
// EPYC 9654's 3.55 GHz all-core boost and laptop clocks
constexpr double kCpuCoreFp32Gflops = 112;

// TFLOPS of a CPU run that states -t (SpeedScenario::cpu_threads) or its cores: min(threads, cores) x the core's FP32
// FMA peak (its FLOP per clock x clock; else kCpuCoreFp32Gflops); 0 where neither is stated (the GPU rule applies)
double cpu_tflops(const SpeedScenario& s) {
    if (s.backend != Backend::Cpu) return 0;
    const bool facts = s.cpu_core_flops_per_clk > 0 && s.sm_clock_mhz > 0;
    const int cores = s.cpu_threads > 0 ? (s.cpu_cores > 0 ? std::min(s.cpu_threads, s.cpu_cores) : s.cpu_threads)
                                        : (facts ? s.cpu_cores : 0);
    if (cores <= 0) return 0;
    const double core_gflops = facts ? s.cpu_core_flops_per_clk * s.sm_clock_mhz * 1e-3 : kCpuCoreFp32Gflops;
    return cores * core_gflops * 1e-3;
}

double tflops(const SpeedScenario& s, bool& estimated) {
    estimated = s.fp16_tflops_estimated || !(s.fp16_tflops > 0);
    if (const double cpu = cpu_tflops(s); cpu > 0) return cpu;
    return s.fp16_tflops > 0 ? s.fp16_tflops : estimate_fp16_tflops(s.kind, s.bandwidth_gbs);
}

// FLOP/s prefill matmuls reach: a share of the rated FP16 figure, by class, backend and weight type. Tensor-core
// parts get (TFLOPS/100)^exponent on top (the bigger the tensor units, the harder llama.cpp's kernels feed them);
// Apple/APU figures are vector-ALU rates that the Metal/HIP kernels reach in proportion.
double effective_flops(const SpeedScenario& s, const SpeedParams& p, double tf) {
    // the rate llama.cpp's instruction path can issue (ChipFamilyRates::mma_share; under Vulkan vulkan_mm_rate: the vector
    // ALUs where ggml-vulkan gets no cooperative matrix)
    const double usable = tf * s.mma_share * (s.backend == Backend::Vulkan ? s.vulkan_mm_rate : 1.0);
    double share = p.compute_share * p.compute_kind[(int)s.kind] * p.compute_backend[(int)s.backend] *
                   p.compute_weight[(int)s.weight_class] * (s.intel_gpu ? p.intel_compute : 1.0) *
                   (s.backend == Backend::Vulkan && s.vulkan_coopmat2 ? p.vulkan_cm2_compute : 1.0);
    if (s.memory != MemoryKind::Unified) share *= std::pow(usable / 100.0, p.tflops_exponent);
    return usable * 1e12 * share;
}

// the weight matmuls' rate over effective_flops: CUDA's quantised matmuls (mul_mat_q) at the family's mmq_rate
// (DP4A on Pascal sm_61); attention and F16 weights (cuBLAS) at 1
double weight_matmul_rate(const SpeedScenario& s) {
    if (s.backend != Backend::Cuda || s.weight_class == WeightClass::F16) return 1.0;
    // MXFP4 on Blackwell's FP4 instruction (ChipFamilyRates::native_fp4_mma) from its first build on; not on B200
    const bool fp4 = s.native_fp4_mma && s.weight_class == WeightClass::Mxfp4 && s.kind != HardwareKind::Datacenter &&
                     (s.llama_build == 0 || s.llama_build >= kNativeFp4Build);
    return s.mmq_rate * (fp4 ? kNativeFp4Speedup : 1.0);
}

// routed-expert bytes one token reads (k of E experts), capped at what it reads in all
double moe_active_expert_bytes(const SpeedScenario& s) {
    if (s.moe_experts <= 0 || s.moe_experts_active <= 0 || !(s.moe_expert_bytes > 0)) return 0;
    return std::min(s.weight_bytes_per_token, s.moe_expert_bytes * s.moe_experts_active / s.moe_experts);
}

// share of the large-n matmul rate a matmul over n tokens reaches
double matmul_efficiency(const SpeedParams& p, double n) { return n / (n + std::max(p.matmul_half_tokens, 0.0)); }
// the same on the scenario's backend: ggml-cpu's mul_mat runs a vec_dot (or a small llamafile_sgemm tile) per weight row
// and token column, so a column costs the same at 16 tokens as at 512: no GPU tile fill
double matmul_efficiency(const SpeedScenario& s, const SpeedParams& p, double n) {
    return s.backend == Backend::Cpu ? 1.0 : matmul_efficiency(p, n);
}

}  // namespace

// MoE prefill: MUL_MAT_ID tiles.
// The column tile (tokens) of the expert matmul kernel a ubatch of n tokens runs, 0 where the backend runs one
// matmul per expert on exactly its gathered rows (no padding):
// - CUDA / ROCm, quantised experts: ggml_cuda_mul_mat_id -> ggml_cuda_mul_mat_q with ids (ggml-cuda/mmq.cu) sorts
//   the rows by expert (ggml_cuda_launch_mm_ids_helper, mmid.cu) and runs ONE stream-k launch over every expert's
//   tiles; mul_mat_q_case (mmq.cuh) picks the tile width mmq_x from args.ncols_max, which for MUL_MAT_ID is the
//   ubatch's token count (ne12), not the tokens per expert: the multiple of 8 (16 from 48 up on tensor-core
//   parts, mmq_get_granularity_host) up to get_mmq_x_max_host (128 with Turing+ mma, AMD MFMA or WMMA) with the
//   fewest tiles of n columns. Each expert then runs ceil(t_e / mmq_x) full-width tiles (mul_mat_q skips the
//   tiles past expert_bounds[e + 1]); F16/BF16 experts take the cuBLAS/mmf path instead (no MMQ tile)
// - Metal (kernel_mul_mm_id after kernel_mul_mm_id_map0, ggml-metal.metal: tiles of 32 token columns per expert,
//   blocks past the expert's count exit early) would pad less (~1.25x for gpt-oss-20b at 512 tokens); with that
//   rule the Apple MoE rows held out came out 20-45 % too slow (Apple prefill source out 11.7 -> 18.6 %), so it is
//   left on the plain rule until a measured Metal sweep over ubatch sizes says how much of it shows
// - Vulkan (mul_mat_id shaders, tile picked by ggml_vk_guess_matmul_id_pipeline), SYCL (a host loop of per-expert
//   matmuls, sycl_expert_loop_s) and CPU: the plain rule (not read for this model)
namespace {
// the backend runs MMQ's MUL_MAT_ID tiles over quantised experts (CUDA / ROCm; F16 experts take cuBLAS/mmf)
bool tiles_experts(const SpeedScenario& s) {
    return (s.backend == Backend::Cuda || s.backend == Backend::Rocm) && s.weight_class != WeightClass::F16;
}
// moe_tile_tokens on a backend that tiles
int mmq_tile_tokens(double n) {
    const int max_tile = 128, granularity16_from = 48;
    // mul_mat_q_case: the smallest allowed mmq_x that reaches the fewest column tiles
    const int cols = std::max(1, (int)std::ceil(n));
    int best = 0, best_tiles = 1 << 30;
    for (int x = 8; x <= max_tile && best_tiles > 1; x += 8) {
        if (x >= granularity16_from && x % 16 != 0) continue;
        int tiles = (cols + x - 1) / x;
        if (tiles < best_tiles) { best = x; best_tiles = tiles; }
    }
    return best;
}
}  // namespace

int moe_tile_tokens(const SpeedScenario& s, double n) { return tiles_experts(s) ? mmq_tile_tokens(n) : 0; }

// columns the expert kernel computes per routed row: sum over experts of ceil(t_e / tile) x tile, over n x k.
// Each token picks k distinct experts of E, so with uniform routing t_e ~ Binomial(n, k / E):
// E[ceil(t / m)] = sum_{j >= 0} P(t > j m), P(t > 0) = 1 - (1 - k/E)^n exactly (the experts the ubatch touches),
// the rest by the normal approximation with continuity correction. Balanced routing is what the routers are
// trained for (gpt-oss, Qwen3 and DeepSeek-V2 use load-balancing losses); 1 = no padding
namespace {
// moe_tile_padding at the tile m the backend picks (moe_tile_tokens): the model's part alone, so a grid's devices of a
// tiling backend share it
double moe_tile_padding_at(const SpeedScenario& s, double n, int m) {
    if (m <= 0 || s.moe_experts <= 0 || s.moe_experts_active <= 0 || n < 1) return 1.0;
    const double E = s.moe_experts, q = std::min(1.0, (double)s.moe_experts_active / E);
    const double mean = n * q, sd = std::sqrt(std::max(n * q * (1 - q), 1e-12));
    double tiles = 1.0 - std::pow(1.0 - q, n);
    for (int j = 1; j * (double)m < n; ++j) {
        double z = (j * (double)m + 0.5 - mean) / sd;
        double tail = 0.5 * std::erfc(z / std::sqrt(2.0));
        tiles += tail;
        if (tail < 1e-9 && j * (double)m > mean) break;
    }
    return std::max(1.0, E * tiles * m / (n * s.moe_experts_active));
}
}  // namespace

double moe_tile_padding(const SpeedScenario& s, double n) { return moe_tile_padding_at(s, n, moe_tile_tokens(s, n)); }

namespace {

// seconds of the linear (matmul) FLOPs of a ubatch of n tokens: the dense part at n tokens per matmul; each routed
// expert at its n k / E tokens padded to the backend's tile (moe_tile_padding; 1 where it does not pad)
double linear_time(const SpeedScenario& s, const SpeedParams& p, double n, double comp, double pad) {
    double expert_frac = s.weight_bytes_per_token > 0 ? moe_active_expert_bytes(s) / s.weight_bytes_per_token : 0;
    double dense_params = s.active_params * (1 - expert_frac), expert_params = s.active_params * expert_frac;
    double expert_eff = 1.0;
    if (expert_frac > 0) {
        const double per_expert = std::max(1.0, n * s.moe_experts_active / s.moe_experts);
        // each expert is its own matmul over its padded columns (its weight rows are re-read per column tile, as
        // in a dense matmul over that many tokens), of which 1 / pad are real rows
        expert_eff = matmul_efficiency(s, p, per_expert * pad) / pad;
        if (s.backend == Backend::Vulkan && !s.vulkan_coopmat2) expert_eff *= p.vulkan_scalar_moe;
    }
    return 2.0 * n * (dense_params / matmul_efficiency(s, p, n) + expert_params / (expert_eff * p.moe_compute)) /
           (comp * weight_matmul_rate(s));
}

// seconds of the SYCL backend's host loop over experts (SpeedParams::sycl_expert_call_us): 3 MUL_MAT_ID nodes per
// MoE layer, `calls` expert matmuls each; 0 on other backends and for dense models
double sycl_expert_loop_s(const SpeedScenario& s, const SpeedParams& p, double calls) {
    if (s.backend != Backend::Sycl || s.moe_experts <= 0) return 0;
    return s.n_layers * 3.0 * calls * std::max(p.sycl_expert_call_us, 0.0) * 1e-6;
}

double bw_share(const SpeedScenario& s, const SpeedParams& p) {
    const double intel = !s.intel_gpu ? 1.0 : p.intel_bw * (s.backend == Backend::Vulkan ? p.intel_vulkan_bw : 1.0);
    return p.bw_share[(int)s.memory] * p.backend_bw[(int)s.backend] * intel;
}

// llama.cpp's CUDA backend runs mul_mat_vec_q for up to this many columns (MMVQ_MAX_BATCH_SIZE, ggml-cuda/mmvq.cuh)
constexpr int kMmvqMaxBatch = 8;
// spec bytes per SM-clock of the HBM devices the decode rows were fitted on: A100 PCIe 80GB 1935 GB/s / (108 SMs x
// 1.41 GHz) = 12.7, H100 PCIe 2000 / (114 x 1.755) = 10.0; their mean
constexpr double kTypicalHbmBytesPerSmClk = 11.35;

// decode's read share with the per-SM limit (SpeedParams::mmvq_sm_bytes_per_clk): a byte costs its share of the spec
// bandwidth plus its share of what the SMs' loads in flight sustain (SMs x clock x bytes per SM-clock), so
// 1 / reached = 1 / (spec x share) + 1 / (SM limit). HBM parts under CUDA only (the mul_mat_vec_q launch shape):
// the GDDR rows show no such limit (an RTX 3090 with 6.7 B of spec per SM-clock reads as large a share as an
// RTX 4090 with 3.1; applied to them too, decode source out went 10.1 -> 10.7 %, consumer 8.8 -> 11.6 %).
// Quantised weights only: F16/BF16 weights are read by another kernel, mul_mat_vec (ggml-cuda/mmv.cu, mmvf.cu
// since 2025), whose rows are not the mmvq launch shape; with the limit, F16 decode on A100/H100 came out 15-39 % low
// while the quantised rows of the same runs landed within 10 %
double decode_read_share(const SpeedScenario& s, const SpeedParams& p) {
    const double share = bw_share(s, p);
    if (s.memory != MemoryKind::Hbm || s.weight_class == WeightClass::F16 || !(p.mmvq_sm_bytes_per_clk > 0) ||
        !(share > 0))
        return share;
    // spec bytes per SM-clock: the device's own where the catalog states its SMs and clock (CUDA); otherwise (an HBM
    // part without them: V100, P100, B200, AMD Instinct under ROCm, inline devices) the fitted HBM parts' typical
    // value, so that such a part reads the share the HBM rows were fitted to rather than the bare DRAM share
    const bool own = s.backend == Backend::Cuda && s.sm_count > 0 && s.sm_clock_mhz > 0;
    const double spec_bytes_per_sm_clk =
        own ? s.bandwidth_gbs * 1e3 / (s.sm_count * s.sm_clock_mhz) : kTypicalHbmBytesPerSmClk;
    return 1.0 / (1.0 / share + spec_bytes_per_sm_clk / p.mmvq_sm_bytes_per_clk);
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

// the divisors of the tokens/s band from the class's measured relative errors e = predicted/measured - 1 (the bounds
// only: copies of SpeedBand, whose `from` is a string, made this one of the sweep's costliest helpers). measured =
// predicted / (1 + e): the over-predictions (e > 0) set the low end
struct BandDivisors {
    double low_den = 1, high_den = 1;   // low = tokens/s / low_den, high = tokens/s / high_den
};
BandDivisors band_divisors(const SpeedParams& p, int kind_index, HardwareKind k, int llama_build, bool fp16_estimated) {
    const bool older = llama_build > 0 && llama_build < kFreshBandFirstBuild && p.band_older[kind_index][(int)k].rows > 0;
    const SpeedBand* table = older ? p.band_older[kind_index] : p.band[kind_index];
    const SpeedBand& cls = table[(int)k];
    double low = cls.low, high = cls.high;
    if (cls.rows == 0) {   // no rows for this class: the widest band we have
        low = -0.25; high = 0.25;
        for (int c = 0; c < kHardwareKindCount; ++c)
            if (table[c].rows > 0) {
                low = std::min(low, table[c].low);
                high = std::max(high, table[c].high);
            }
    }
    // an estimated fp16_tflops: the band measured for the estimate where it is wider
    const SpeedBand& fe = p.band_fp16_estimated[kind_index];
    if (fp16_estimated && fe.rows > 0) {
        low = std::min(low, fe.low);
        high = std::max(high, fe.high);
    }
    BandDivisors b;
    b.low_den = 1 + high;
    b.high_den = 1 + std::max(low, -0.9);
    return b;
}

void apply_band(SpeedResult& r, const BandDivisors& b) {
    r.low = r.tokens_per_s / b.low_den;
    r.high = r.tokens_per_s / b.high_den;
}

// tokens/s band of r's class (kind_index 0 decode, 1 prefill)
void apply_band(SpeedResult& r, const SpeedParams& p, int kind_index, HardwareKind k, int llama_build) {
    apply_band(r, band_divisors(p, kind_index, k, llama_build, r.fp16_tflops_estimated));
}

}  // namespace

// [SECTION] Decode ---------------------------------------------------------------------------------------

namespace {

using DecodeFixed = DecodePlan::Fixed;

// r = from for a result without an error (the fixed terms): every field but the string copied, r's error emptied (its
// buffer kept: the copy assignment's string copy was a sixth of a sweep's decode)
void copy_result(const SpeedResult& from, SpeedResult& r) {
    // a field added to SpeedResult needs its line here: the size is the reminder (x86-64, wasm32)
    static_assert(sizeof(SpeedResult) == (sizeof(void*) == 8 ? 168 : 144), "SpeedResult changed: copy the new field");
    r.ok = from.ok;
    r.error.clear();
    r.tokens_per_s = from.tokens_per_s;
    r.low = from.low;
    r.high = from.high;
    r.time_s = from.time_s;
    r.weight_time_s = from.weight_time_s;
    r.kv_time_s = from.kv_time_s;
    r.alu_time_s = from.alu_time_s;
    r.fixed_time_s = from.fixed_time_s;
    r.sync_time_s = from.sync_time_s;
    r.offload_time_s = from.offload_time_s;
    r.compute_time_s = from.compute_time_s;
    r.attention_time_s = from.attention_time_s;
    r.overhead_time_s = from.overhead_time_s;
    r.fp16_tflops_estimated = from.fp16_tflops_estimated;
    r.bound = from.bound;
    r.flops_per_token = from.flops_per_token;
    r.bytes_per_token = from.bytes_per_token;
}

// into f (its buffers kept: a grid plans the decode of every device)
void decode_fixed_terms(const SpeedScenario& s, const SpeedParams& p, DecodeFixed& f) {
    SpeedResult& r = f.r;
    copy_result(SpeedResult(), r);
    double bw = s.bandwidth_gbs * 1e9;
    double share = decode_read_share(s, p);
    const double host_frac = host_read_fraction(s);
    double gpu_frac = 1.0 - host_frac;
    // MoE: the active experts' bytes (k/E of the routed-expert bytes) are read at moe_bw x the dense share
    double expert_tok = moe_active_expert_bytes(s);
    r.weight_time_s = ((s.weight_bytes_per_token - expert_tok) + expert_tok / p.moe_bw) * gpu_frac /
                      (bw * share * p.weight_bw[(int)s.weight_class]);
    double kv_cost = p.kv_factor * (s.flash_attn ? 1.0 : p.no_fa_kv[(int)s.backend]);
    double tf = tflops(s, r.fp16_tflops_estimated) * 1e12;
    bool unified = s.memory == MemoryKind::Unified;
    // the CPU backend: ggml-cpu's vec_dot per weight at the cores' FMA peak (SpeedParams::alu_cpu_flops_per_param)
    double alu = s.backend == Backend::Cpu ? s.active_params * gpu_frac * p.alu_cpu_flops_per_param / tf
                                           : s.active_params * gpu_frac * p.alu_flops_per_param *
                                                 p.alu_weight[(int)s.weight_class] * (unified ? p.alu_unified : 1.0) / tf;
    // the dequant/dot work partly overlaps the reads: matmul time = hypot(read, alu), the ALU term is the excess
    r.alu_time_s = std::hypot(r.weight_time_s, alu) - r.weight_time_s;
    r.fixed_time_s = s.n_layers * p.fixed_ms_per_layer * 1e-3 + sycl_expert_loop_s(s, p, s.moe_experts_active) +
                     (s.moe_experts > 0 ? s.n_layers * std::max(p.moe_layer_us, 0.0) * 1e-6 : 0.0);
    r.sync_time_s = (s.gpus - 1) * p.gpu_hop_ms * 1e-3;
    if (s.offload_fraction > 0)
        r.offload_time_s = s.weight_bytes_per_token * host_frac / (s.host_bandwidth_gbs * 1e9 * p.host_share);
    f.bw = bw;
    f.share = share;
    f.kv_cost = kv_cost;
    f.alu = alu;
    // hybrid models: each recurrent layer's scan (ggml_ssm_scan for Mamba, ggml_gated_delta_net for Qwen3-Next /
    // Qwen3.5) reads the f32 state of the sequence and writes the next one every token (llama-memory-recurrent.cpp
    // keeps one state per sequence, n_embd_r + n_embd_s floats per layer): 2 x the state bytes at the read share,
    // like the KV cache but without kv_factor (a streamed read and a streamed write, no gather over positions)
    f.state_rw_bytes = 2.0 * std::max(s.recurrent_state_bytes, 0.0) * gpu_frac;
    const BandDivisors band = band_divisors(p, 0, s.kind, s.llama_build, r.fp16_tflops_estimated);
    f.low_den = band.low_den;
    f.high_den = band.high_den;
}

// the model's terms of positions [a, b] (DecodeDepth)
void depth_terms(const SpeedScenario& s, double a, double b, DecodeDepth& d) {
    d.kv = kv_bytes(s, a, b);
    d.bytes_per_token = s.weight_bytes_per_token + d.kv;
    d.flops_per_token = 2 * s.active_params + 2.0 * s.n_heads * (s.head_dim_qk + (s.head_dim_v ? s.head_dim_v : s.head_dim_qk)) * layer_ctx(s, a, b);
}

// seconds per decoded token, one sequence, positions averaged over the depth terms' [a, b], written into r: the fixed
// terms' fields and the depth's, each written once (no SpeedResult temporaries; a view's decodes are a fifth of a
// sweep); the band is the caller's
void decode_terms(const DecodeFixed& f, const DecodeDepth& d, SpeedResult& r) {
    // a field added to SpeedResult needs its line here: the size is the reminder (x86-64, wasm32)
    static_assert(sizeof(SpeedResult) == (sizeof(void*) == 8 ? 168 : 144), "SpeedResult changed: write the new field");
    const SpeedResult& fr = f.r;
    r.ok = true;
    r.error.clear();
    r.weight_time_s = fr.weight_time_s;
    r.kv_time_s = (d.kv * f.kv_cost + f.state_rw_bytes) / (f.bw * f.share);
    r.alu_time_s = fr.alu_time_s;
    r.fixed_time_s = fr.fixed_time_s;
    r.sync_time_s = fr.sync_time_s;
    r.offload_time_s = fr.offload_time_s;
    const double t = r.weight_time_s + r.kv_time_s + r.alu_time_s + r.fixed_time_s + r.sync_time_s + r.offload_time_s;
    r.time_s = t;
    r.tokens_per_s = 1.0 / t;
    r.low = fr.low;
    r.high = fr.high;
    r.compute_time_s = fr.compute_time_s;
    r.attention_time_s = fr.attention_time_s;
    r.overhead_time_s = fr.overhead_time_s;
    r.fp16_tflops_estimated = fr.fp16_tflops_estimated;
    r.bound = (r.weight_time_s + r.kv_time_s + r.offload_time_s >= f.alu) ? Bound::Memory : Bound::Compute;
    r.bytes_per_token = d.bytes_per_token;
    r.flops_per_token = d.flops_per_token;
}

void decode_terms(const SpeedScenario& s, const DecodeFixed& f, double a, double b, SpeedResult& r) {
    DecodeDepth d;
    depth_terms(s, a, b, d);
    decode_terms(f, d, r);
}

SpeedResult decode_terms(const SpeedScenario& s, const SpeedParams& p, double a, double b) {
    SpeedResult r;
    DecodeFixed f;
    decode_fixed_terms(s, p, f);
    decode_terms(s, f, a, b, r);
    return r;
}

// estimate_decode after check(s), on precomputed position-independent terms (the band's divisors of the parameters
// among them) and the model's terms of the positions (d: nullptr = computed here)
void decode_at(const SpeedScenario& s, const DecodeFixed& f, int64_t depth, int64_t n_tokens, const DecodeDepth* d,
               SpeedResult& r) {
    if (n_tokens < 1 || depth < 0) {
        r = SpeedResult();
        r.error = "decode needs at least 1 token and a depth >= 0";
        return;
    }
    // position of the i-th generated token is depth + i; the mean over i in [0, N) is depth + N/2 (linear terms)
    if (d) decode_terms(f, *d, r);
    else decode_terms(s, f, (double)depth, (double)depth + (double)n_tokens, r);
    r.time_s = r.time_s * (double)n_tokens;
    apply_band(r, BandDivisors{f.low_den, f.high_den});
}

}  // namespace

SpeedResult estimate_decode(const SpeedScenario& s, const SpeedParams& p, int64_t depth, int64_t n_tokens) {
    SpeedResult r;
    if (!check(s, r.error)) return r;
    DecodeFixed f;
    decode_fixed_terms(s, p, f);
    decode_at(s, f, depth, n_tokens, nullptr, r);
    return r;
}

void plan_decode(const SpeedScenario& s, const SpeedParams& p, DecodePlan& plan) {
    plan.error.clear();
    plan.ok = check(s, plan.error);
    if (plan.ok) decode_fixed_terms(s, p, plan.fixed);
}

// p: read by plan_decode (the plan holds what the decode needs of it)
void estimate_decode_planned(const SpeedScenario& s, const SpeedParams&, const DecodePlan& plan, int64_t depth,
                             int64_t n_tokens, SpeedResult& out) {
    if (!plan.ok) {
        out = SpeedResult();
        out.error = plan.error;
        return;
    }
    decode_at(s, plan.fixed, depth, n_tokens, nullptr, out);
}

void plan_decode_depth(const SpeedScenario& s, int64_t depth, int64_t n_tokens, DecodeDepth& out) {
    out.depth = depth;
    out.n_tokens = n_tokens;
    depth_terms(s, (double)depth, (double)depth + (double)n_tokens, out);
}

void estimate_decode_planned(const SpeedScenario& s, const SpeedParams&, const DecodePlan& plan,
                             const DecodeDepth& depth, SpeedResult& out) {
    if (!plan.ok) {
        out = SpeedResult();
        out.error = plan.error;
        return;
    }
    decode_at(s, plan.fixed, depth.depth, depth.n_tokens, &depth, out);
}

void estimate_decode_depths(const SpeedScenario& s, const SpeedParams& p, int count, const int64_t* depths,
                            const int64_t* n_tokens, SpeedResult* out) {
    DecodePlan plan;
    plan_decode(s, p, plan);
    for (int i = 0; i < count; ++i) estimate_decode_planned(s, p, plan, depths[i], n_tokens[i], out[i]);
}

// [SECTION] Prefill --------------------------------------------------------------------------------------

namespace {

struct UbatchTime {
    double total = 0, compute = 0, attention = 0, overhead = 0, offload = 0;
    bool compute_bound = true;
};

// the terms of a ubatch of n tokens that do not depend on where it starts (the matmuls, the weight-read floor,
// the overhead, the offload copy): computed once per ubatch size, not once per ubatch
struct UbatchFixed {
    double n = -1;
    UbatchTime u;                        // compute, overhead, offload, compute_bound
};

// a ubatch's attention terms from the model's part (m.n tokens from position ctx0)
void ubatch_attention_terms(const SpeedScenario& s, const SpeedParams& p, double n, double ctx0, PrefillUbatch& m) {
    m.n = n;
    double lc = ubatch_layer_ctx(s, ctx0, n);   // sum over layers of the KV cells each token's attention runs over
    double hv = s.head_dim_v ? s.head_dim_v : s.head_dim_qk;
    m.attn_flops = 2.0 * s.n_heads * (s.head_dim_qk + hv) * lc * n;
    m.attn_fa = m.attn_flops * p.fa_attn_factor;
    m.scores = s.n_heads * lc * n * p.no_fa_score_bytes;   // f32 KQ scores round trips (no flash attention)
}

// a ubatch size's terms from the model's part: the experts n tokens route to, the routing around them, the padding of
// MMQ's expert tiles (used where the backend tiles, tiles_experts)
void ubatch_size_terms(const SpeedScenario& s, const SpeedParams& p, double n, PrefillUbatch& m) {
    // weights read once per ubatch; MoE: only the experts the n tokens route to (nearly all at large n)
    m.touched = s.moe_experts > 0 && s.moe_experts_active > 0
                    ? 1.0 - std::pow(1.0 - (double)s.moe_experts_active / s.moe_experts, n) : 1.0;
    // MoE routing around the expert matmuls: a fixed cost per token and layer (per token and routed expert
    // instead, Qwen3-30B-A3B's k = 8 made the fast cards' rows 40-60 % too slow)
    m.route = s.moe_experts > 0 ? n * s.n_layers * std::max(p.moe_route_ns, 0.0) * 1e-9 : 0;
    m.pad_tiled = s.moe_experts > 0 && s.weight_class != WeightClass::F16 ? moe_tile_padding_at(s, n, mmq_tile_tokens(n)) : 1.0;
}

void ubatch_fixed_terms(const SpeedScenario& s, const SpeedParams& p, const PrefillUbatch& m, double comp,
                        double bw_eff, UbatchFixed& f) {
    const double n = m.n;
    f.n = n;
    UbatchTime& u = f.u;
    double lin = linear_time(s, p, n, comp, tiles_experts(s) ? m.pad_tiled : 1.0);
    double expert_all = s.moe_experts > 0 ? std::min(s.moe_expert_bytes, s.weight_bytes) : 0;
    double gpu_bytes = (s.weight_bytes - expert_all * (1.0 - m.touched)) * (1.0 - s.offload_fraction);
    double wfloor = gpu_bytes / bw_eff;
    u.compute = std::max(lin, wfloor) + m.route;
    u.compute_bound = lin >= wfloor;
    // a ubatch runs the same per-layer kernels as a decoded token (llama.cpp builds one graph per ubatch): their
    // launches and syncs cost decode's fixed_ms_per_layer each, whatever the ubatch size. A separately fitted
    // per-ubatch overhead was set only by the few small -ub sweeps and came out 2.4x decode's (4.6 ms per 32 layers);
    // tied, held out prefill went 18.0/20.5/23.3 -> 17.7/19.5/23.1 % (device/source/class out).
    // SYCL: one gather + mul_mat + scatter per expert the ubatch routes rows to
    u.overhead = p.fixed_ms_per_layer * 1e-3 * s.n_layers + sycl_expert_loop_s(s, p, s.moe_experts * m.touched);
    if (s.offload_fraction > 0) {
        // llama.cpp runs large-batch matmuls of host-resident weights on the GPU: the weights cross the link once
        double link = s.host_link_gbs > 0 ? s.host_link_gbs : (s.link_gbs > 0 ? s.link_gbs : kDefaultPcieGbs);
        u.offload = s.weight_bytes * s.offload_fraction / (link * 1e9);
    }
}

// the prompt's FLOPs and bytes per token (the roofline point), from the model's part
void prefill_roofline(const SpeedScenario& s, int64_t n_tokens, int64_t depth, double& flops, double& bytes) {
    const double N = (double)n_tokens;
    double hv = s.head_dim_v ? s.head_dim_v : s.head_dim_qk;
    flops = 2 * s.active_params + 2.0 * s.n_heads * (s.head_dim_qk + hv) * layer_ctx(s, (double)depth, (double)depth + N);
    bytes = s.weight_bytes / std::min<double>(N, (double)s.ubatch) + kv_bytes(s, (double)depth, (double)depth + N);
}

// the model's terms as estimate_prefill meets its ubatches (each size's when the device's terms of it are made)
struct TermsOnTheWay {
    const SpeedScenario& s;
    const SpeedParams& p;
    PrefillUbatch m;
    const PrefillUbatch& ubatch(int, double n, double ctx0) {
        ubatch_attention_terms(s, p, n, ctx0, m);
        return m;
    }
    const PrefillUbatch& size(int) {
        ubatch_size_terms(s, p, m.n, m);
        return m;
    }
    void roofline(int64_t n_tokens, int64_t depth, SpeedResult& r) {
        prefill_roofline(s, n_tokens, depth, r.flops_per_token, r.bytes_per_token);
    }
};

// the model's terms a plan_prefill made (ubatch k in run order)
struct TermsOfPlan {
    const PrefillPlan& plan;
    const PrefillUbatch& ubatch(int k, double, double) const { return plan.ubatches[(size_t)k]; }
    const PrefillUbatch& size(int k) const { return plan.ubatches[(size_t)k]; }
    void roofline(int64_t, int64_t, SpeedResult& r) const {
        r.flops_per_token = plan.flops_per_token;
        r.bytes_per_token = plan.bytes_per_token;
    }
};

// estimate_prefill after its checks, on the model's terms `terms` gives: the device's rates, then the ubatches of each
// batch in order (their sums in the order they always ran)
template <class Terms>
void run_prefill(const SpeedScenario& s, const SpeedParams& p, int64_t n_tokens, int64_t depth, Terms& terms,
                 SpeedResult& r) {
    bool est = false;
    double tf = tflops(s, est);
    r.fp16_tflops_estimated = est;
    double comp = effective_flops(s, p, tf);
    // the weight-read floor and the score-matrix traffic at the plain share: mul_mat_q tiles and the softmax kernels
    // keep many loads in flight, the per-SM limit of decode_read_share is a mul_mat_vec_q one
    double bw_eff = s.bandwidth_gbs * 1e9 * bw_share(s, p);
    const double fa_backend = p.fa_attn_backend[(int)s.backend] / (rocm_fa_tile_kernel(s) ? s.fa_tile_share : 1.0);
    int64_t batch = std::max<int64_t>(s.batch, s.ubatch);
    double total = 0, comp_t = 0, attn_t = 0, ovh_t = 0, sync_t = 0, off_t = 0;
    int compute_bound_ub = 0, n_ub_total = 0;
    int64_t pos = 0;
    UbatchFixed fixed[2];   // full ubatches, and the last one of a batch when shorter
    while (pos < n_tokens) {
        int64_t nb = std::min(batch, n_tokens - pos);
        double batch_time = 0;
        int k = 0;
        for (int64_t q = 0; q < nb; q += s.ubatch) {
            double n = (double)std::min<int64_t>(s.ubatch, nb - q);
            const PrefillUbatch& m = terms.ubatch(n_ub_total, n, (double)(depth + pos + q));
            UbatchFixed& f = fixed[n == (double)s.ubatch ? 0 : 1];
            if (f.n != n) ubatch_fixed_terms(s, p, terms.size(n_ub_total), comp, bw_eff, f);
            UbatchTime u = f.u;
            u.attention = s.flash_attn ? m.attn_fa * fa_backend / comp : m.attn_flops / comp + m.scores / bw_eff;
            u.total = u.compute + u.attention + u.overhead + u.offload;
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
    r.bound = (compute_bound_ub * 2 >= n_ub_total) ? Bound::Compute : Bound::Memory;
    terms.roofline(n_tokens, depth, r);
    r.ok = true;
    apply_band(r, p, 1, s.kind, s.llama_build);
}

// the request's own errors of a prefill (after check(s)): "" when none
const char* prefill_input_error(const SpeedScenario& s, int64_t n_tokens, int64_t depth) {
    if (n_tokens < 1 || depth < 0) return "prefill needs at least 1 prompt token and a depth >= 0";
    if (s.ubatch < 1 || s.batch < 1) return "ubatch and batch must be at least 1";
    return "";
}

}  // namespace

SpeedResult estimate_prefill(const SpeedScenario& s, const SpeedParams& p, int64_t n_tokens, int64_t depth) {
    SpeedResult r;
    if (!check(s, r.error)) return r;
    const char* bad = prefill_input_error(s, n_tokens, depth);
    if (*bad) { r.error = bad; return r; }
    TermsOnTheWay terms{s, p, PrefillUbatch()};
    run_prefill(s, p, n_tokens, depth, terms, r);
    return r;
}

void plan_prefill(const SpeedScenario& s, const SpeedParams& p, int64_t n_tokens, int64_t depth, PrefillPlan& out) {
    out.n_tokens = n_tokens;
    out.depth = depth;
    out.ubatches.clear();
    out.error = prefill_input_error(s, n_tokens, depth);
    if (!out.error.empty()) return;
    // the ubatches in run_prefill's order: batches of max(batch, ubatch) tokens, each cut into ubatches
    const int64_t batch = std::max<int64_t>(s.batch, s.ubatch);
    for (int64_t pos = 0; pos < n_tokens;) {
        const int64_t nb = std::min(batch, n_tokens - pos);
        for (int64_t q = 0; q < nb; q += s.ubatch) {
            PrefillUbatch m;
            ubatch_attention_terms(s, p, (double)std::min<int64_t>(s.ubatch, nb - q), (double)(depth + pos + q), m);
            ubatch_size_terms(s, p, m.n, m);
            out.ubatches.push_back(m);
        }
        pos += nb;
    }
    prefill_roofline(s, n_tokens, depth, out.flops_per_token, out.bytes_per_token);
}

void estimate_prefill_planned(const SpeedScenario& s, const SpeedParams& p, const PrefillPlan& plan, SpeedResult& out) {
    copy_result(SpeedResult(), out);   // a default result, keeping out's error buffer
    if (!check(s, out.error)) return;
    if (!plan.error.empty()) { out.error = plan.error; return; }
    TermsOfPlan terms{plan};
    run_prefill(s, p, plan.n_tokens, plan.depth, terms, out);
}

SpeedResult estimate_speed(const SpeedScenario& s, const SpeedParams& p) {
    if (s.test == SpeedTest::Prefill) return estimate_prefill(s, p, s.tokens, s.depth);
    return estimate_decode(s, p, s.depth, s.tokens);
}

void apply_speed_band(SpeedResult& r, const SpeedParams& p, SpeedTest test, HardwareKind kind, int llama_build) {
    apply_band(r, p, test == SpeedTest::Decode ? 0 : 1, kind, llama_build);
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
    // weights: read once per step; MoE: the union of the experts B tokens route to. Above 8 columns llama.cpp's CUDA
    // backend leaves mul_mat_vec_q for the mul_mat_q tiles (MMVQ_MAX_BATCH_SIZE 8, ggml-cuda/mmvq.cuh), whose reads
    // the per-SM limit of decode_read_share does not bind: the plain share there
    double w = one.weight_time_s;
    if (n_parallel > kMmvqMaxBatch) w *= decode_read_share(s, p) / bw_share(s, p);
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
    double comp = effective_flops(s, p, tf) * weight_matmul_rate(s);
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
