// A device's contexts in one call against one call per context, bit for bit: evaluate_contexts() (the placer, the
// layer layout, the fit search's layouts, the speed scenario, the prompt's prefill and the decodes at the prompt and
// at depth 0 made once) vs evaluate() with req.memory.n_ctx set to each context; estimate_memory_contexts() vs
// estimate_memory(); estimate_decode_planned() vs estimate_decode(). A spread of the catalog: every 2nd model x every
// 3rd device, a mixed rig, and request variants (-ngl, -np, KV types, max-context search with notes, a device
// profile, the serving and MLX plan sets), so that fitting, partial-offload, OOM and failing contexts all occur.
// evaluate_grid() (every device of a model and quant in one call) against evaluate() per device and context over
// every 3rd model x every device (a rig, no hardware and a repeated shape among them), with the same variants, a
// tensor split that fails all but the 2-GPU shape and an MLX quant llama.cpp cannot load. estimate_prefill_planned()
// (a grid's prefill: the model's terms planned once) against estimate_prefill() over backends, MoE, SWA, batch sizes.
//
// Tolerance: none — doubles are compared by their bits, strings and counts exactly.
#include <catch2/catch.hpp>

#include <cstring>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "catalog/catalog.h"
#include "memory/memory.h"
#include "memory/prepared_weights.h"
#include "rig/rig.h"
#include "sim/simulate.h"
#include "speed/device_profile.h"
#include "speed/speed.h"
#include "speed/speed_inputs.h"
#include "test_support.h"

using namespace llmsim;

namespace contexts_test {

bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

// every field of two breakdowns (devices included); empty when equal
std::string memory_diff(const MemoryBreakdown& a, const MemoryBreakdown& b) {
    std::ostringstream s;
#define LLMSIM_CMP(x) if (!(a.x == b.x)) s << #x << ": " << a.x << " vs " << b.x << "; "
    LLMSIM_CMP(weights_bytes); LLMSIM_CMP(kv_cache_bytes); LLMSIM_CMP(compute_bytes); LLMSIM_CMP(overhead_bytes);
    LLMSIM_CMP(total_bytes); LLMSIM_CMP(usable_bytes); LLMSIM_CMP(usable_raised_bytes);
    LLMSIM_CMP(max_context); LLMSIM_CMP(max_context_extended); LLMSIM_CMP(gpu_layers); LLMSIM_CMP(fit_gpu_layers);
    LLMSIM_CMP(n_layers); LLMSIM_CMP(kv_k_bytes); LLMSIM_CMP(kv_v_bytes); LLMSIM_CMP(recurrent_state_bytes);
    LLMSIM_CMP(kv_cells_full); LLMSIM_CMP(kv_cells_swa); LLMSIM_CMP(file_bytes); LLMSIM_CMP(params);
#undef LLMSIM_CMP
    if (!same_bits(a.bits_per_weight, b.bits_per_weight)) s << "bits_per_weight; ";
    if (a.status != b.status) s << "status: " << to_string(a.status) << " vs " << to_string(b.status) << "; ";
    if (a.notes != b.notes) s << "notes; ";
    if (a.devices.size() != b.devices.size()) return s.str() + "device count";
    for (size_t i = 0; i < a.devices.size(); ++i) {
        const DeviceMemory &x = a.devices[i], &y = b.devices[i];
#define LLMSIM_CMP(f) if (!(x.f == y.f)) s << "devices[" << i << "]." #f ": " << x.f << " vs " << y.f << "; "
        LLMSIM_CMP(name); LLMSIM_CMP(hardware_id); LLMSIM_CMP(host); LLMSIM_CMP(weights_bytes);
        LLMSIM_CMP(kv_cache_bytes); LLMSIM_CMP(compute_bytes); LLMSIM_CMP(overhead_bytes); LLMSIM_CMP(total_bytes);
        LLMSIM_CMP(usable_bytes); LLMSIM_CMP(n_layers);
#undef LLMSIM_CMP
    }
    return s.str();
}

std::string view_diff(const SpeedView& a, const SpeedView& b) {
    const double SpeedView::*fields[] = {
        &SpeedView::decode_tps, &SpeedView::decode_low, &SpeedView::decode_high, &SpeedView::decode_empty_tps,
        &SpeedView::decode_empty_low, &SpeedView::decode_empty_high, &SpeedView::decode_full_tps,
        &SpeedView::decode_full_low, &SpeedView::decode_full_high, &SpeedView::prefill_tps, &SpeedView::prefill_low,
        &SpeedView::prefill_high, &SpeedView::ttft_s, &SpeedView::ttft_low, &SpeedView::ttft_high, &SpeedView::reply_s,
        &SpeedView::aggregate_tps, &SpeedView::per_user_tps, &SpeedView::decode_intensity, &SpeedView::decode_flops,
        &SpeedView::prefill_intensity, &SpeedView::prefill_flops, &SpeedView::peak_flops, &SpeedView::peak_bytes_per_s};
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; ++i)
        if (!same_bits(a.*fields[i], b.*fields[i])) return "speed double field " + std::to_string(i);
    if (a.ok != b.ok || a.error != b.error) return "ok/error: '" + a.error + "' vs '" + b.error + "'";
    if (a.decode_bound != b.decode_bound || a.prefill_bound != b.prefill_bound) return "bound";
    if (a.decode_depth != b.decode_depth || a.decode_full_depth != b.decode_full_depth ||
        a.prompt_tokens != b.prompt_tokens)
        return "depths";
    if (a.flash_attn != b.flash_attn || a.calibrated != b.calibrated || a.explain != b.explain) return "texts";
    return "";
}

std::string evaluation_diff(const Evaluation& a, const Evaluation& b) {
    std::string d = memory_diff(a.memory, b.memory);
    if (!d.empty()) return d;
    d = view_diff(a.speed, b.speed);
    if (!d.empty()) return d;
    if (a.params.total != b.params.total || a.active_weight_bytes != b.active_weight_bytes ||
        a.weight_bytes != b.weight_bytes || a.embedding_bytes != b.embedding_bytes ||
        a.routed_expert_bytes != b.routed_expert_bytes || a.full_attn_layers != b.full_attn_layers ||
        a.swa_layers != b.swa_layers || a.kv_k_row != b.kv_k_row || a.kv_v_row != b.kv_v_row ||
        a.weight_class != b.weight_class)
        return "weight figures";
    return "";
}

// a request variant of the spread
struct Variant {
    const char* label;
    void (*apply)(SimRequest& req);
};

const Variant kVariants[] = {
    {"default", [](SimRequest&) {}},
    {"ngl 12, np 2, q8_0 KV", [](SimRequest& r) {
         r.memory.n_gpu_layers = 12;
         r.memory.n_parallel = 2;
         r.memory.kv_type_k = r.memory.kv_type_v = TensorType::Q8_0;
     }},
    {"max context, notes, explain, no flash attention", [](SimRequest& r) {
         r.memory.compute_max_context = true;
         r.memory.with_notes = true;
         r.memory.flash_attn = false;
         r.with_explain = true;
     }},
    {"memory only", [](SimRequest& r) { r.with_speed = false; }},
};

const Variant& variant(size_t i) { return kVariants[i % (sizeof kVariants / sizeof kVariants[0])]; }

struct Tally {
    size_t compared = 0, fitting = 0, oom = 0, partial = 0, failed = 0;
};

// evaluate_contexts over `contexts` vs evaluate() per context; counts what it compared
void compare_contexts(const Catalog& cat, const Model& m, const SimRequest& base, const int64_t* contexts, int count,
                      Tally& t) {
    std::string err;
    const auto w = prepare_weights(cat, m, base.memory.file_type, err, 0);
    if (!w) return;
    std::vector<Evaluation> batch((size_t)count);
    std::string batch_err;
    const bool batch_ok = evaluate_contexts(cat, *w, m, base, contexts, count, batch.data(), batch_err);
    bool all_ok = true;
    std::string first_err;
    std::vector<Evaluation> single((size_t)count);
    for (int i = 0; i < count; ++i) {
        SimRequest r = base;
        r.memory.n_ctx = contexts[i];
        std::string e;
        const bool ok = evaluate(cat, *w, m, r, single[(size_t)i], e);
        if (!ok && all_ok) first_err = e;
        all_ok = all_ok && ok;
    }
    INFO(m.id << " " << base.memory.file_type << " on " << (base.memory.hardware ? base.memory.hardware->id : "none")
              << " engine " << (int)base.engine);
    REQUIRE(batch_ok == all_ok);
    ++t.compared;
    if (!all_ok) {
        CHECK(batch_err == first_err);
        ++t.failed;
        return;
    }
    for (int i = 0; i < count; ++i) {
        const std::string d = evaluation_diff(batch[(size_t)i], single[(size_t)i]);
        INFO("context " << contexts[i] << ": " << d);
        CHECK(d.empty());
        const FitStatus st = single[(size_t)i].memory.status;
        t.oom += st == FitStatus::Oom;
        t.partial += st == FitStatus::PartialOffload;
        t.fitting += st == FitStatus::Comfortable || st == FitStatus::Tight;
    }
}

}  // namespace contexts_test

TEST_CASE("evaluate_contexts gives evaluate()'s numbers for each context", "[sweep]") {
    const Catalog& c = cat();
    const int64_t contexts[] = {4096, 8192, 32768, 131072};
    std::vector<const Hardware*> devices;
    for (size_t hi = 0; hi < c.hardware.size(); hi += 3) devices.push_back(&c.hardware[hi]);
    const Hardware* rig = find_rig(c, "rtx-5080+rtx-5060-ti-16gb");
    REQUIRE(rig);
    devices.push_back(rig);
    contexts_test::Tally t;
    size_t vi = 0;
    for (size_t mi = 0; mi < c.models.size(); mi += 2)
        for (const Hardware* h : devices) {
            const contexts_test::Variant& v = contexts_test::variant(vi++);
            SimRequest req;
            req.memory.file_type = mi % 4 == 0 ? "Q4_K_M" : "Q8_0";
            req.memory.hardware = h;
            v.apply(req);
            INFO(v.label);
            contexts_test::compare_contexts(c, c.models[mi], req, contexts, 4, t);
        }
    // the spread reaches every path it is meant to check
    CHECK(t.compared > 2000);
    CHECK(t.fitting > 1000);
    CHECK(t.oom > 500);
    CHECK(t.partial > 100);
}

TEST_CASE("evaluate_contexts on the serving and MLX plan sets, with a device profile, and on bad contexts", "[sweep]") {
    const Catalog& c = cat();
    const int64_t contexts[] = {2048, 16384, 65536};
    contexts_test::Tally t;
    const Hardware* apple = c.find_hardware("m2-ultra-192");
    const Hardware* h100 = c.find_hardware("h100-sxm");
    const Hardware* rtx = c.find_hardware("rtx-4090");
    REQUIRE(apple);
    REQUIRE(h100);
    REQUIRE(rtx);
    DeviceProfile profile;
    profile.hardware_id = rtx->id;
    profile.decode.rows = profile.prefill.rows = 6;
    profile.decode.factor = 0.9;
    profile.decode.factor_moe = 0.95;
    profile.prefill.factor = 1.1;
    profile.prefill.factor_moe = 1.05;
    for (size_t mi = 0; mi < c.models.size(); mi += 7) {
        SimRequest vllm;
        vllm.engine = EngineId::Vllm;
        vllm.memory.file_type = "Q8_0";
        vllm.memory.hardware = h100;
        contexts_test::compare_contexts(c, c.models[mi], vllm, contexts, 3, t);
        SimRequest mlx;
        mlx.engine = EngineId::Mlx;
        mlx.memory.file_type = "mlx-4bit-g64";
        mlx.memory.hardware = apple;
        contexts_test::compare_contexts(c, c.models[mi], mlx, contexts, 3, t);
        SimRequest profiled;
        profiled.memory.file_type = "Q4_K_M";
        profiled.memory.hardware = rtx;
        profiled.device_profile = &profile;
        contexts_test::compare_contexts(c, c.models[mi], profiled, contexts, 3, t);
    }
    CHECK(t.compared > 30);
    // a context below 1 fails the whole call with the message evaluate() gives for it; nothing is left filled
    const int64_t bad[] = {4096, 0};
    SimRequest req;
    req.memory.file_type = "Q4_K_M";
    req.memory.hardware = rtx;
    std::string err;
    const auto w = prepare_weights(c, c.models.front(), "Q4_K_M", err, 0);
    REQUIRE(w);
    Evaluation out[2];
    CHECK_FALSE(evaluate_contexts(c, *w, c.models.front(), req, bad, 2, out, err));
    CHECK(err == "context must be at least 1 token (got 0)");
    CHECK(out[0].memory.devices.empty());
    CHECK_FALSE(out[0].speed.ok);
}

TEST_CASE("estimate_memory_contexts and estimate_decode_planned equal their one-at-a-time calls", "[sweep]") {
    const Catalog& c = cat();
    const int64_t contexts[] = {1, 300, 4096, 40000, 131072};
    size_t compared = 0;
    for (size_t mi = 0; mi < c.models.size(); mi += 5)
        for (size_t hi = 1; hi < c.hardware.size(); hi += 11) {
            MemoryRequest req;
            req.file_type = "Q6_K";
            req.hardware = &c.hardware[hi];
            req.compute_max_context = (mi + hi) % 2 == 0;
            std::string err;
            const auto w = prepare_weights(c, c.models[mi], req.file_type, err, 0);
            if (!w) continue;
            MemoryBreakdown batch[5], single;
            MemoryBreakdown* ptrs[5] = {&batch[0], &batch[1], &batch[2], &batch[3], &batch[4]};
            REQUIRE(estimate_memory_contexts(*w, c.models[mi], req, contexts, 5, ptrs, err));
            for (int i = 0; i < 5; ++i) {
                req.n_ctx = contexts[i];
                REQUIRE(estimate_memory(*w, c.models[mi], req, single, err));
                const std::string d = contexts_test::memory_diff(batch[i], single);
                INFO(c.models[mi].id << " on " << c.hardware[hi].id << " ctx " << contexts[i] << ": " << d);
                CHECK(d.empty());
                ++compared;
            }
        }
    CHECK(compared > 500);

    // decode: a plan of the depth-independent terms, then any depth
    const SpeedParams& p = default_speed_params();
    SpeedScenario s;
    s.weight_bytes = 4.92e9; s.weight_bytes_per_token = 4.60e9; s.active_params = 7.50e9; s.n_layers = 32;
    s.n_heads = 32; s.head_dim_qk = s.head_dim_v = 128; s.full_attn_layers = 32;
    s.kv_bytes_per_token_full = 32 * 2 * 8 * 128 * 2.0;
    s.bandwidth_gbs = 1008; s.fp16_tflops = 330.3;
    for (int broken = 0; broken < 2; ++broken) {
        if (broken) s.bandwidth_gbs = 0;   // check() fails: the plan carries the message
        DecodePlan plan;
        plan_decode(s, p, plan);
        CHECK(plan.ok == !broken);
        for (int64_t depth : {int64_t(0), int64_t(4096), int64_t(131072)}) {
            const SpeedResult one = estimate_decode(s, p, depth, 128);
            SpeedResult planned;
            estimate_decode_planned(s, p, plan, depth, 128, planned);
            CHECK(contexts_test::same_bits(one.tokens_per_s, planned.tokens_per_s));
            CHECK(contexts_test::same_bits(one.low, planned.low));
            CHECK(contexts_test::same_bits(one.high, planned.high));
            CHECK(contexts_test::same_bits(one.kv_time_s, planned.kv_time_s));
            CHECK(one.ok == planned.ok);
            CHECK(one.error == planned.error);
            // the model's terms of the positions made apart (a grid's), on a scenario with another device part
            SpeedScenario other = s;
            other.bandwidth_gbs = broken ? 0 : 3350;
            other.fp16_tflops = 989;
            DecodeDepth dd;
            plan_decode_depth(other, depth, 128, dd);
            SpeedResult via_depth;
            estimate_decode_planned(s, p, plan, dd, via_depth);
            CHECK(contexts_test::same_bits(one.tokens_per_s, via_depth.tokens_per_s));
            CHECK(contexts_test::same_bits(one.low, via_depth.low));
            CHECK(contexts_test::same_bits(one.kv_time_s, via_depth.kv_time_s));
            CHECK(contexts_test::same_bits(one.bytes_per_token, via_depth.bytes_per_token));
            CHECK(contexts_test::same_bits(one.flops_per_token, via_depth.flops_per_token));
            CHECK(one.ok == via_depth.ok);
            CHECK(one.error == via_depth.error);
        }
    }
}

TEST_CASE("estimate_prefill_planned equals estimate_prefill on a plan made with another device part", "[sweep]") {
    const SpeedParams& p = default_speed_params();
    // a dense model and an MoE one (Qwen3-30B-A3B-like: 128 experts, 8 active), with and without SWA layers
    SpeedScenario dense;
    dense.weight_bytes = 4.92e9; dense.weight_bytes_per_token = 4.60e9; dense.active_params = 7.50e9;
    dense.n_layers = 32; dense.n_heads = 32; dense.head_dim_qk = dense.head_dim_v = 128; dense.full_attn_layers = 32;
    dense.kv_bytes_per_token_full = 32 * 2 * 8 * 128 * 2.0;
    SpeedScenario moe = dense;
    moe.weight_bytes = 17.3e9; moe.weight_bytes_per_token = 1.9e9; moe.active_params = 3.3e9; moe.n_layers = 48;
    moe.moe_experts = 128; moe.moe_experts_active = 8; moe.moe_expert_bytes = 16.0e9;
    SpeedScenario swa = moe;
    swa.full_attn_layers = 12; swa.swa_layers = 36; swa.swa_window = 128; swa.kv_bytes_per_token_swa = 36 * 2 * 8 * 64 * 2.0;
    const Backend backends[] = {Backend::Cuda, Backend::Rocm, Backend::Vulkan, Backend::Metal, Backend::Sycl, Backend::Cpu};
    struct Run { int64_t prompt, depth; int ubatch, batch; };
    const Run runs[] = {{4096, 0, 512, 2048}, {5000, 700, 384, 1000}, {1, 0, 512, 2048}, {300, 0, 512, 128},
                        {0, 0, 512, 2048}, {4096, 0, 0, 2048}};
    size_t compared = 0;
    for (const SpeedScenario* model : {&dense, &moe, &swa})
        for (WeightClass wc : {WeightClass::KQuant, WeightClass::F16})
            for (const Run& run : runs)
                for (int variant = 0; variant < 4; ++variant) {
                    SpeedScenario s = *model;
                    s.weight_class = wc;
                    s.ubatch = run.ubatch;
                    s.batch = run.batch;
                    s.flash_attn = variant != 1;
                    // the plan's scenario: the same model's part on another device (Metal, other rates, one GPU)
                    SpeedScenario other = s;
                    other.backend = Backend::Metal;
                    other.bandwidth_gbs = 400; other.fp16_tflops = 30; other.memory = MemoryKind::Unified;
                    PrefillPlan plan;
                    plan_prefill(other, p, run.prompt, run.depth, plan);
                    for (Backend b : backends) {
                        s.backend = b;
                        s.bandwidth_gbs = variant == 3 ? 0 : 1008;   // 3: check() fails before the plan's error
                        s.fp16_tflops = variant == 2 ? 0 : 165;      // 2: estimated TFLOPS, 4 GPUs, a third offloaded
                        s.gpus = variant == 2 ? 4 : 1;
                        s.offload_fraction = variant == 2 ? 0.3 : 0;
                        s.host_bandwidth_gbs = 80;
                        s.vulkan_coopmat2 = variant == 0;
                        const SpeedResult one = estimate_prefill(s, p, run.prompt, run.depth);
                        SpeedResult planned;
                        planned.error = "left from before";
                        planned.weight_time_s = 1;
                        estimate_prefill_planned(s, p, plan, planned);
                        INFO("model " << (model == &dense ? "dense" : model == &moe ? "moe" : "swa") << " backend "
                                      << (int)b << " variant " << variant << " prompt " << run.prompt);
                        const double SpeedResult::*fields[] = {
                            &SpeedResult::tokens_per_s, &SpeedResult::low, &SpeedResult::high, &SpeedResult::time_s,
                            &SpeedResult::weight_time_s, &SpeedResult::compute_time_s, &SpeedResult::attention_time_s,
                            &SpeedResult::overhead_time_s, &SpeedResult::offload_time_s, &SpeedResult::sync_time_s,
                            &SpeedResult::flops_per_token, &SpeedResult::bytes_per_token};
                        for (const auto f : fields) CHECK(contexts_test::same_bits(one.*f, planned.*f));
                        CHECK(one.ok == planned.ok);
                        CHECK(one.error == planned.error);
                        CHECK(one.bound == planned.bound);
                        CHECK(one.fp16_tflops_estimated == planned.fp16_tflops_estimated);
                        compared += one.ok ? 1 : 0;
                    }
                }
    CHECK(compared > 300);
}

namespace contexts_test {

// evaluate_grid over `devices` x `contexts` vs evaluate() per device and context; counts what it compared
void compare_grid(const Catalog& cat, const Model& m, const SimRequest& base, const std::vector<const Hardware*>& devices,
                  const int64_t* contexts, int count, Tally& t) {
    std::string err;
    const auto w = prepare_weights(cat, m, base.memory.file_type, err, 0);
    if (!w) return;
    const int n = (int)devices.size();
    std::vector<Evaluation> grid((size_t)n * (size_t)count);
    std::unique_ptr<bool[]> ok(new bool[(size_t)n]);
    std::vector<std::string> errs((size_t)n);
    evaluate_grid(cat, *w, m, base, devices.data(), n, contexts, count, grid.data(), ok.get(), errs.data());
    Evaluation single;
    for (int d = 0; d < n; ++d) {
        SimRequest r = base;
        r.memory.hardware = devices[(size_t)d];
        INFO(m.id << " " << base.memory.file_type << " on " << (devices[(size_t)d] ? devices[(size_t)d]->id : "none")
                  << " engine " << (int)base.engine);
        bool all_ok = true;
        std::string first_err;
        for (int i = 0; i < count; ++i) {
            r.memory.n_ctx = contexts[i];
            std::string e;
            const bool one_ok = evaluate(cat, *w, m, r, single, e);
            if (!one_ok && all_ok) first_err = e;
            all_ok = all_ok && one_ok;
            if (!ok[(size_t)d] || !one_ok) continue;
            const std::string diff = evaluation_diff(grid[(size_t)d * (size_t)count + (size_t)i], single);
            INFO("context " << contexts[i] << ": " << diff);
            CHECK(diff.empty());
            const FitStatus st = single.memory.status;
            t.oom += st == FitStatus::Oom;
            t.partial += st == FitStatus::PartialOffload;
            t.fitting += st == FitStatus::Comfortable || st == FitStatus::Tight;
        }
        REQUIRE(ok[(size_t)d] == all_ok);
        ++t.compared;
        if (!all_ok) {
            CHECK(errs[(size_t)d] == first_err);
            CHECK(grid[(size_t)d * (size_t)count].memory.devices.empty());
            ++t.failed;
        }
    }
}

}  // namespace contexts_test

TEST_CASE("evaluate_grid gives evaluate()'s numbers for every device and context", "[sweep]") {
    const Catalog& c = cat();
    const int64_t contexts[] = {4096, 8192, 32768, 131072};
    std::vector<const Hardware*> devices;
    for (const Hardware& h : c.hardware) devices.push_back(&h);
    const Hardware* rig = find_rig(c, "rtx-5080+rtx-5060-ti-16gb");
    REQUIRE(rig);
    devices.push_back(rig);
    devices.push_back(nullptr);                    // no hardware: no limits, no status
    devices.push_back(c.find_hardware("rtx-4090"));   // a shape met again after others
    contexts_test::Tally t;
    size_t vi = 0;
    for (size_t mi = 0; mi < c.models.size(); mi += 3) {
        const contexts_test::Variant& v = contexts_test::variant(vi++);
        SimRequest req;
        req.memory.file_type = mi % 2 == 0 ? "Q4_K_M" : "Q8_0";
        v.apply(req);
        INFO(v.label);
        contexts_test::compare_grid(c, c.models[mi], req, devices, contexts, 4, t);
    }
    CHECK(t.compared > 5000);
    CHECK(t.fitting > 5000);
    CHECK(t.oom > 2000);
    CHECK(t.partial > 500);
}

TEST_CASE("evaluate_grid on the serving and MLX plan sets, a profile, a tensor split and bad contexts", "[sweep]") {
    const Catalog& c = cat();
    const int64_t contexts[] = {2048, 16384, 65536};
    std::vector<const Hardware*> devices;
    for (size_t hi = 0; hi < c.hardware.size(); hi += 4) devices.push_back(&c.hardware[hi]);
    const Hardware* rtx = c.find_hardware("rtx-4090");
    REQUIRE(rtx);
    devices.push_back(rtx);
    DeviceProfile profile;
    profile.hardware_id = rtx->id;
    profile.decode.rows = profile.prefill.rows = 6;
    profile.decode.factor = 0.9;
    profile.decode.factor_moe = 0.95;
    profile.prefill.factor = 1.1;
    profile.prefill.factor_moe = 1.05;
    contexts_test::Tally t;
    for (size_t mi = 0; mi < c.models.size(); mi += 9) {
        SimRequest vllm;
        vllm.engine = EngineId::Vllm;
        vllm.memory.file_type = "Q8_0";
        contexts_test::compare_grid(c, c.models[mi], vllm, devices, contexts, 3, t);
        SimRequest mlx;
        mlx.engine = EngineId::Mlx;
        mlx.memory.file_type = "mlx-4bit-g64";
        contexts_test::compare_grid(c, c.models[mi], mlx, devices, contexts, 3, t);
        SimRequest profiled;
        profiled.memory.file_type = "Q4_K_M";
        profiled.device_profile = &profile;
        contexts_test::compare_grid(c, c.models[mi], profiled, devices, contexts, 3, t);
        // two proportions: the 2-GPU devices place by them, every other shape fails with its own GPU count's message
        SimRequest split;
        split.memory.file_type = "Q4_K_M";
        split.memory.tensor_split = {3, 1};
        contexts_test::compare_grid(c, c.models[mi], split, devices, contexts, 3, t);
        // an MLX quant on llama.cpp: every device fails with memory_plan's message
        SimRequest gguf_only;
        gguf_only.memory.file_type = "mlx-4bit-g64";
        contexts_test::compare_grid(c, c.models[mi], gguf_only, devices, contexts, 3, t);
    }
    CHECK(t.compared > 300);
    CHECK(t.failed > 100);
    // a context below 1 fails every device with evaluate()'s message for it
    const int64_t bad[] = {4096, 0};
    SimRequest req;
    req.memory.file_type = "Q4_K_M";
    contexts_test::compare_grid(c, c.models.front(), req, devices, bad, 2, t);
}
