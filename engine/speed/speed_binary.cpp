// speed_params.json's binary form (speed_binary.h): the field lists of SpeedParams and the device-profile prior,
// walked by core/binary_fields.h's visitors.
#include "speed/speed_binary.h"

#include <cstdint>
#include <utility>

#include "core/binary_fields.h"

namespace llmsim {

// A field added to one of these structs without a line in its list below would be dropped from the page's
// parameters without a word: the sizes (64-bit libstdc++, every native build) make that a compile error. Add the
// field to its list, then update the size.
#if defined(__GLIBCXX__) && defined(__x86_64__)
static_assert(sizeof(SpeedBand) == 80 && sizeof(SpeedParams) == 2888 && sizeof(ProfilePriorKind) == 104 &&
              sizeof(ProfilePrior) == 480 && sizeof(SpeedCalibration) == 3368,
              "a speed parameter struct changed: update its field list in speed_binary.cpp");
#endif

// [SECTION] Field lists (namespace llmsim, static: the visitors find them by argument-dependent lookup) ----------

template <class V> static void fields(V& v, SpeedBand& x) {
    v.f("rows", x.rows); v.f("low", x.low); v.f("high", x.high); v.f("mdape", x.mdape); v.f("within25", x.within25);
    v.f("coverage", x.coverage); v.f("from", x.from);
}
template <class V> static void decode_fields(V& v, SpeedParams& x) {
    v.f("bw_share", x.bw_share); v.f("backend_bw", x.backend_bw); v.f("weight_bw", x.weight_bw);
    v.f("kv_factor", x.kv_factor); v.f("no_fa_kv", x.no_fa_kv); v.f("fixed_ms_per_layer", x.fixed_ms_per_layer);
    v.f("gpu_hop_ms", x.gpu_hop_ms); v.f("alu_flops_per_param", x.alu_flops_per_param); v.f("alu_weight", x.alu_weight);
    v.f("alu_cpu_flops_per_param", x.alu_cpu_flops_per_param); v.f("alu_unified", x.alu_unified);
    v.f("intel_bw", x.intel_bw); v.f("intel_vulkan_bw", x.intel_vulkan_bw);
    v.f("mmvq_sm_bytes_per_clk", x.mmvq_sm_bytes_per_clk); v.f("moe_bw", x.moe_bw); v.f("moe_layer_us", x.moe_layer_us);
    v.f("sycl_expert_call_us", x.sycl_expert_call_us);
}
template <class V> static void prefill_fields(V& v, SpeedParams& x) {
    v.f("compute_share", x.compute_share); v.f("compute_kind", x.compute_kind);
    v.f("compute_backend", x.compute_backend); v.f("compute_weight", x.compute_weight);
    v.f("tflops_exponent", x.tflops_exponent); v.f("fa_attn_factor", x.fa_attn_factor);
    v.f("fa_attn_backend", x.fa_attn_backend); v.f("no_fa_score_bytes", x.no_fa_score_bytes);
    v.f("pipeline_hop_ms", x.pipeline_hop_ms); v.f("host_share", x.host_share); v.f("intel_compute", x.intel_compute);
    v.f("moe_compute", x.moe_compute); v.f("vulkan_cm2_compute", x.vulkan_cm2_compute);
    v.f("vulkan_scalar_moe", x.vulkan_scalar_moe); v.f("moe_route_ns", x.moe_route_ns);
    v.f("matmul_half_tokens", x.matmul_half_tokens);
}
template <class V> static void fields(V& v, SpeedParams& x) {
    decode_fields(v, x);
    prefill_fields(v, x);
    v.f("band", x.band); v.f("band_older", x.band_older); v.f("band_fp16_estimated", x.band_fp16_estimated);
    v.f("recent_builds", x.recent_builds); v.f("fit_rows_decode", x.fit_rows_decode);
    v.f("fit_rows_prefill", x.fit_rows_prefill); v.f("fit_devices", x.fit_devices); v.f("fit_source", x.fit_source);
}
template <class V> static void fields(V& v, ProfilePriorKind& x) {
    v.f("tau2", x.tau2); v.f("tau2_moe", x.tau2_moe); v.f("sigma2", x.sigma2); v.f("eps2", x.eps2); v.f("rho", x.rho);
    v.f("groups", x.groups); v.f("multi_model_groups", x.multi_model_groups); v.f("mixed_groups", x.mixed_groups);
}
template <class V> static void fields(V& v, ProfilePrior& x) {
    v.f("unseen", x.unseen); v.f("seen", x.seen); v.f("seen_devices", x.seen_devices); v.f("source", x.source);
    v.f("fitted", x.fitted);
}
template <class V> static void fields(V& v, SpeedCalibration& x) { v.f("params", x.params); v.f("prior", x.prior); }

namespace {
constexpr BinaryForm kForm{"LLMSPDB1", "speed_params.bin", "speed parameter file", "llmsim-cli catalog --speed-binary"};
}  // namespace

// [SECTION] API ------------------------------------------------------------------------------------------

bool parse_speed_calibration(const std::string& json_text, SpeedCalibration& out, std::string& err) {
    SpeedCalibration c;
    if (!parse_speed_params(json_text, c.params, err) || !parse_profile_prior(json_text, c.prior, err)) return false;
    out = std::move(c);
    return true;
}

std::string speed_calibration_to_binary(const SpeedCalibration& c) { return to_binary(kForm, c); }

bool speed_calibration_from_binary(std::string_view bytes, SpeedCalibration& out, std::string& err) {
    return from_binary(kForm, bytes, out, err);
}

std::string speed_calibration_fields_text(const SpeedCalibration& c) { return fields_text(c); }

}  // namespace llmsim
