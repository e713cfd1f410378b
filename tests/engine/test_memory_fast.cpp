// Fast memory path vs the reference implementation: estimate_memory() (prepared weights, prefix sums, cheap
// searches) must give byte-identical results to estimate_memory_reference() (tests/engine/memory_reference.cpp, the code
// before the fast path, unchanged) for every catalog model over a deterministic spread of scenarios: quants,
// contexts, -ngl, -np, --kv-unified, --swa-full, KV types, flash attention, --n-cpu-moe / --cpu-moe, tensor split,
// multi-GPU rigs, Apple / APU / CPU devices, host RAM for auto offload, file-size overrides, non-GGUF formats and
// the error paths. Also checks the prepared-weights cache (a model edited under the same id is re-prepared) and
// that evaluate()'s parameter counts and active weight bytes equal the old per-call computation.
//
// Tolerance: none — every field must be equal (doubles compared with ==).
#include <catch2/catch.hpp>

#include <cmath>
#include <sstream>
#include <string>
#include <vector>

#include "catalog/catalog.h"
#include "memory/memory.h"
#include "memory_reference.h"
#include "model/model_tensors.h"
#include "memory/prepared_weights.h"
#include "quant/quant_rules.h"
#include "sim/simulate.h"
#include "test_support.h"

using namespace llmsim;

namespace {

struct Scenario {
    const Model* model = nullptr;
    MemoryRequest req;
    std::string label;
};

std::string describe(const Model& m, const MemoryRequest& r) {
    std::ostringstream s;
    s << m.id << " " << r.file_type << " ctx=" << r.n_ctx << " hw=" << (r.hardware ? r.hardware->id : "none")
      << " ngl=" << r.n_gpu_layers << " np=" << r.n_parallel << " ctk=" << to_string(r.kv_type_k)
      << " ctv=" << to_string(r.kv_type_v) << " fa=" << r.flash_attn << " unified=" << r.kv_unified
      << " swa_full=" << r.swa_full << " n_cpu_moe=" << r.n_cpu_moe << " cpu_moe=" << r.cpu_moe
      << " ts=" << r.tensor_split.size() << " ub=" << r.n_ubatch << " b=" << r.n_batch
      << " override=" << r.file_bytes_override.value_or(0) << " host_ram=" << r.host_ram_bytes.value_or(0)
      << " reserve=" << (r.gpu_reserve_bytes ? (int64_t)*r.gpu_reserve_bytes : -1) << " ext=" << r.allow_extended_context
      << " maxctx=" << r.compute_max_context;
    return s.str();
}

// every field of two breakdowns; empty when equal, else the first differences
std::string diff(const MemoryBreakdown& a, const MemoryBreakdown& b) {
    std::ostringstream s;
#define LLMSIM_CMP(x) if (!(a.x == b.x)) s << #x << ": fast " << a.x << " ref " << b.x << "; "
    LLMSIM_CMP(weights_bytes); LLMSIM_CMP(kv_cache_bytes); LLMSIM_CMP(compute_bytes); LLMSIM_CMP(overhead_bytes);
    LLMSIM_CMP(total_bytes); LLMSIM_CMP(usable_bytes); LLMSIM_CMP(usable_raised_bytes);
    LLMSIM_CMP(max_context); LLMSIM_CMP(max_context_extended); LLMSIM_CMP(gpu_layers); LLMSIM_CMP(fit_gpu_layers);
    LLMSIM_CMP(n_layers); LLMSIM_CMP(kv_k_bytes); LLMSIM_CMP(kv_v_bytes); LLMSIM_CMP(recurrent_state_bytes);
    LLMSIM_CMP(kv_cells_full); LLMSIM_CMP(kv_cells_swa); LLMSIM_CMP(file_bytes); LLMSIM_CMP(bits_per_weight);
    LLMSIM_CMP(params);
#undef LLMSIM_CMP
    if (a.status != b.status) s << "status: fast " << to_string(a.status) << " ref " << to_string(b.status) << "; ";
    if (a.notes != b.notes) s << "notes differ; ";
    if (a.devices.size() != b.devices.size()) {
        s << "devices: fast " << a.devices.size() << " ref " << b.devices.size() << "; ";
        return s.str();
    }
    for (size_t i = 0; i < a.devices.size(); ++i) {
        const DeviceMemory& x = a.devices[i];
        const DeviceMemory& y = b.devices[i];
#define LLMSIM_CMP(f) if (!(x.f == y.f)) s << "devices[" << i << "]." #f ": fast " << x.f << " ref " << y.f << "; "
        LLMSIM_CMP(name); LLMSIM_CMP(weights_bytes); LLMSIM_CMP(kv_cache_bytes); LLMSIM_CMP(compute_bytes);
        LLMSIM_CMP(overhead_bytes); LLMSIM_CMP(total_bytes); LLMSIM_CMP(usable_bytes); LLMSIM_CMP(n_layers);
#undef LLMSIM_CMP
    }
    return s.str();
}

// runs both paths; returns the differences (empty = identical), counts statuses for coverage
std::string compare_paths(const Catalog& cat, const Model& m, const MemoryRequest& r, int* status_counts = nullptr,
                          int* failures = nullptr) {
    MemoryBreakdown fast, ref;
    std::string err_fast, err_ref;
    const bool ok_fast = estimate_memory(cat, m, r, fast, err_fast);
    const bool ok_ref = estimate_memory_reference(cat, m, r, ref, err_ref);
    if (ok_fast != ok_ref) return "ok: fast " + std::to_string(ok_fast) + " ref " + std::to_string(ok_ref) +
                                  " (" + err_fast + " | " + err_ref + ")";
    if (!ok_ref) {
        if (failures) ++*failures;
        if (err_fast != err_ref) return "err: fast '" + err_fast + "' ref '" + err_ref + "'";
    }
    if (status_counts) ++status_counts[(int)ref.status];
    return diff(fast, ref);
}

const Hardware* pick(const std::vector<const Hardware*>& v, size_t i) { return v.empty() ? nullptr : v[i % v.size()]; }

struct HwSets {
    std::vector<const Hardware*> discrete, rigs, apple, apu, cpu;
};

HwSets hardware_sets(const Catalog& cat) {
    HwSets s;
    for (const Hardware& h : cat.hardware) {
        if (h.kind == HardwareKind::Cpu) s.cpu.push_back(&h);
        else if (h.kind == HardwareKind::Apple) s.apple.push_back(&h);
        else if (h.kind == HardwareKind::Apu) s.apu.push_back(&h);
        else if (h.gpu_count > 1) s.rigs.push_back(&h);
        else s.discrete.push_back(&h);
    }
    return s;
}

// deterministic spread of scenarios over every catalog model
std::vector<Scenario> scenarios(const Catalog& cat) {
    const HwSets hw = hardware_sets(cat);
    const char* quants[] = {"Q8_0", "Q6_K", "Q5_K_M", "Q4_K_S", "IQ4_XS", "Q3_K_M", "Q2_K", "IQ2_XS", "F16",
                            "IQ1_M", "MXFP4_MOE", "Q4_0", "BF16", "TQ1_0", "Q3_K_L", "IQ3_M", "Q5_0", "F32"};
    const size_t nq = sizeof quants / sizeof quants[0];
    const int64_t ctxs[] = {1000, 4096, 8192, 32768, 65536, 131072, 300000};
    const size_t nc = sizeof ctxs / sizeof ctxs[0];
    std::vector<Scenario> out;
    size_t i = 0;
    for (const Model& m : cat.models) {
        const int L = m.n_layers;
        auto add = [&](MemoryRequest r) { out.push_back({&m, std::move(r), ""}); };
        MemoryRequest base;
        base.file_type = "Q4_K_M";
        base.n_ctx = 8192;
        {   // default: one discrete GPU, max context search
            MemoryRequest r = base;
            r.hardware = pick(hw.discrete, i);
            add(r);
        }
        {   // partial offload by -ngl, -np, q8_0 KV
            MemoryRequest r = base;
            r.file_type = quants[i % nq];
            r.n_ctx = ctxs[i % nc];
            r.hardware = pick(hw.discrete, i * 7 + 3);
            r.n_gpu_layers = L / 2;
            r.n_parallel = 1 + (int)(i % 4);
            r.kv_type_k = r.kv_type_v = TensorType::Q8_0;
            add(r);
        }
        {   // multi-GPU rig, uneven split on every other model, flash attention off on every third
            MemoryRequest r = base;
            r.hardware = pick(hw.rigs, i);
            r.n_ctx = ctxs[(i + 3) % nc];
            if (r.hardware && i % 2 == 0) {
                for (int g = 0; g < r.hardware->gpu_count; ++g) r.tensor_split.push_back(g == 0 ? 3.0 : 1.0 + 0.25 * g);
            }
            r.flash_attn = i % 3 != 0;
            add(r);
        }
        {   // Apple: extended context, unified KV, -np 2
            MemoryRequest r = base;
            r.hardware = pick(hw.apple, i);
            r.file_type = quants[(i + 5) % nq];
            r.n_ctx = 65536;
            r.allow_extended_context = true;
            r.kv_unified = i % 2 == 0;
            r.n_parallel = 2;
            add(r);
        }
        {   // APU: --swa-full, big ubatch
            MemoryRequest r = base;
            r.hardware = pick(hw.apu, i);
            r.file_type = "Q5_K_M";
            r.n_ctx = ctxs[(i + 1) % nc];
            r.swa_full = i % 2 == 1;
            r.n_ubatch = 2048;
            r.n_batch = 4096;
            add(r);
        }
        {   // --n-cpu-moe (a no-op on dense models)
            MemoryRequest r = base;
            r.hardware = pick(hw.discrete, i * 5 + 1);
            r.n_ctx = 16384;
            r.n_cpu_moe = L / 3;
            add(r);
        }
        {   // --cpu-moe on a rig
            MemoryRequest r = base;
            r.hardware = pick(hw.rigs, i + 1);
            r.cpu_moe = true;
            r.file_type = "Q8_0";
            add(r);
        }
        {   // host RAM known: auto partial offload of big models on a small card
            MemoryRequest r = base;
            r.hardware = pick(hw.discrete, i * 11 + 2);
            r.host_ram_bytes = (uint64_t)(32 + 32 * (i % 4)) * kGiB;
            r.n_ctx = 32768;
            add(r);
        }
        {   // CPU only
            MemoryRequest r = base;
            r.hardware = pick(hw.cpu, i);
            r.file_type = "Q8_0";
            r.n_ctx = 4096;
            add(r);
        }
        {   // no hardware, file size override
            MemoryRequest r = base;
            r.file_bytes_override = 4500000000ull + 123456789ull * i;
            add(r);
        }
        {   // override on hardware + a custom reserve + explicit -ngl past the end (clamped)
            MemoryRequest r = base;
            r.hardware = pick(hw.discrete, i + 9);
            r.file_bytes_override = 20000000000ull + 987654321ull * i;
            r.gpu_reserve_bytes = (uint64_t)(256 * kMiB * (i % 5));
            r.n_gpu_layers = L + 3;
            add(r);
        }
        {   // non-GGUF formats
            MemoryRequest r = base;
            r.hardware = pick(hw.apple, i + 3);
            r.file_type = i % 2 ? "MLX_4BIT" : "MLX_8BIT";
            add(r);
            r.hardware = pick(hw.discrete, i + 4);
            r.file_type = i % 2 ? "FP8" : "AWQ_INT4_G128";
            r.n_gpu_layers = L / 4;
            add(r);
        }
        {   // -ngl 0, -ngl L, another backend, K only quantized with flash attention off
            MemoryRequest r = base;
            r.hardware = pick(hw.discrete, i + 17);
            r.n_gpu_layers = (int)(i % 2 ? 0 : L);
            r.kv_type_k = TensorType::Q8_0;
            r.flash_attn = false;
            r.backend = Backend::Vulkan;
            add(r);
        }
        {   // odd KV types, small ubatch (no op offload), -np 3 with unified KV and SWA
            MemoryRequest r = base;
            r.hardware = pick(hw.discrete, i + 23);
            r.kv_type_k = TensorType::Q4_1;
            r.kv_type_v = TensorType::IQ4_NL;
            r.n_ubatch = 16;
            r.n_parallel = 3;
            r.kv_unified = true;
            r.n_gpu_layers = L - 1;
            add(r);
        }
        // error paths (same message from both)
        if (i % 6 == 0) {
            MemoryRequest r = base;
            r.hardware = pick(hw.discrete, i);
            r.kv_type_v = TensorType::Q4_0;
            r.flash_attn = false;
            add(r);                                  // quantized V without flash attention
            r = base;
            r.hardware = pick(hw.rigs, i);
            r.tensor_split = {1.0};
            add(r);                                  // --tensor-split size mismatch (rig) / fine (1 GPU)
            r = base;
            r.hardware = pick(hw.rigs, i + 2);
            if (r.hardware) r.tensor_split.assign((size_t)r.hardware->gpu_count, 0.0);
            add(r);                                  // all-zero split
            r = base;
            r.file_type = i % 12 ? "Q9_K_XL" : "NVFP4";
            add(r);                                  // unknown quant / GGUF without rules
            r = base;
            r.n_ctx = 0;
            add(r);
            r = base;
            r.n_parallel = 0;
            add(r);
            r = base;
            r.n_ubatch = 0;
            add(r);
        }
        ++i;
    }
    return out;
}

// the old simulate.cpp computation of evaluate()'s active weight bytes, kept here as the oracle
uint64_t active_weight_bytes_reference(const Model& m, const WeightSize& w, const ParamCounts& pc) {
    if (!w.gguf || w.tensors.empty()) {
        double bytes_per_param = w.params > 0 ? (double)w.tensor_data_bytes / (double)w.params : 0;
        double active = (double)pc.active - (double)pc.embedding;
        return (uint64_t)std::llround(std::max(0.0, active) * bytes_per_param);
    }
    double total = 0;
    const double expert_fraction = m.is_moe() && m.moe->n_experts > 0
                                       ? (double)m.moe->n_experts_active / (double)m.moe->n_experts : 1.0;
    for (size_t i = 0; i < w.tensors.size(); ++i) {
        const TensorDesc& t = w.tensors[i];
        if (t.name == "token_embd.weight") continue;
        double b = (double)w.bytes[i];
        total += t.routed_expert ? b * expert_fraction : b;
    }
    if (m.tie_embeddings) {
        for (size_t i = 0; i < w.tensors.size(); ++i)
            if (w.tensors[i].name == "token_embd.weight") total += (double)w.bytes[i];
    }
    return (uint64_t)std::llround(total);
}

}  // namespace

TEST_CASE("memory fast path: identical to the reference on every catalog model", "[memory][fast]") {
    Catalog cat;
    if (!load_catalog_or_skip(cat)) return;
    const std::vector<Scenario> sc = scenarios(cat);
    REQUIRE(sc.size() >= 500);
    int status_counts[8] = {};
    int failures = 0, mismatches = 0;
    MemoryBreakdown reused;  // estimate_memory resets a breakdown in place: reuse must not leak old values
    for (const Scenario& s : sc) {
        std::string d = compare_paths(cat, *s.model, s.req, status_counts, &failures);
        MemoryBreakdown fresh;
        std::string e1, e2;
        const bool ok1 = estimate_memory(cat, *s.model, s.req, reused, e1);
        const bool ok2 = estimate_memory(cat, *s.model, s.req, fresh, e2);
        if (ok1 != ok2 || e1 != e2) d += " reuse: ok/err differ;";
        else if (!diff(reused, fresh).empty()) d += " reuse: " + diff(reused, fresh);
        if (!d.empty()) {
            ++mismatches;
            if (mismatches <= 20) FAIL_CHECK(describe(*s.model, s.req) << "\n  " << d);
        }
    }
    CHECK(mismatches == 0);
    // coverage: every status and the error paths occur
    CHECK(failures > 20);
    for (FitStatus st : {FitStatus::Unknown, FitStatus::Comfortable, FitStatus::Tight, FitStatus::TunableUma,
                         FitStatus::PartialOffload, FitStatus::Oom}) {
        INFO(to_string(st));
        CHECK(status_counts[(int)st] > 0);
    }
}

TEST_CASE("memory fast path: notes only when asked, results otherwise equal", "[memory][fast]") {
    Catalog cat;
    if (!load_catalog_or_skip(cat)) return;
    const Model* m = cat.find_model("meta-llama/Llama-3.1-8B-Instruct");
    REQUIRE(m);
    MemoryRequest r;
    r.hardware = cat.find_hardware("rtx-4090");
    REQUIRE(r.hardware);
    MemoryBreakdown a, b;
    std::string err;
    REQUIRE(estimate_memory(cat, *m, r, a, err));
    r.with_notes = false;
    REQUIRE(estimate_memory(cat, *m, r, b, err));
    CHECK_FALSE(a.notes.empty());
    CHECK(b.notes.empty());
    b.notes = a.notes;
    CHECK(diff(a, b).empty());
}

TEST_CASE("memory fast path: a model edited under the same id is prepared again", "[memory][fast][cache]") {
    Catalog cat;
    if (!load_catalog_or_skip(cat)) return;
    const HwSets hw = hardware_sets(cat);
    std::vector<Model> variants;
    for (const char* id : {"meta-llama/Llama-3.1-8B-Instruct", "google/gemma-2-9b-it", "deepseek-ai/DeepSeek-V2-Lite",
                           "ai21labs/Jamba-v0.1", "Qwen/Qwen2.5-0.5B-Instruct"}) {
        const Model* m = cat.find_model(id);
        if (!m) continue;
        Model v = *m;
        variants.push_back(v);
        v.n_layers += 2; variants.push_back(v);
        v.hidden_size += 256; variants.push_back(v);
        v.tie_embeddings = !v.tie_embeddings; variants.push_back(v);
        v.vocab_size += 1000; variants.push_back(v);
        v.intermediate_size += 512; variants.push_back(v);
        v.n_kv_heads = v.n_kv_heads > 1 ? v.n_kv_heads / 2 : v.n_kv_heads; variants.push_back(v);
        if (v.swa) { v.swa->window *= 2; variants.push_back(v); }
        if (v.moe) { v.moe->n_experts_active += 1; variants.push_back(v); v.moe->first_dense_layers += 1; variants.push_back(v); }
        if (v.hybrid && !v.hybrid->attention_layers.empty()) { v.hybrid->attention_layers.pop_back(); variants.push_back(v); }
        v.rope_scaling = v.rope_scaling == "llama3" ? "" : "llama3"; variants.push_back(v);
    }
    REQUIRE(variants.size() >= 30);
    int mismatches = 0;
    size_t k = 0;
    for (const Model& v : variants) {
        MemoryRequest r;
        r.hardware = pick(hw.discrete, k++);
        r.n_ctx = 16384;
        const std::string d = compare_paths(cat, v, r);
        if (!d.empty() && ++mismatches <= 10) FAIL_CHECK(describe(v, r) << " (variant " << k << ")\n  " << d);
    }
    CHECK(mismatches == 0);

    // the cache answers a repeated request without preparing again, and a changed field misses
    const Model* m = cat.find_model("meta-llama/Llama-3.1-8B-Instruct");
    REQUIRE(m);
    std::string err;
    auto a = prepare_weights(cat, *m, "Q4_K_M", err);
    auto b = prepare_weights(cat, *m, "Q4_K_M", err);
    REQUIRE(a);
    CHECK(a.get() == b.get());
    Model edited = *m;
    edited.intermediate_size += 256;
    auto c = prepare_weights(cat, edited, "Q4_K_M", err);
    REQUIRE(c);
    CHECK(c.get() != a.get());
    CHECK(c->tensor_data_bytes > a->tensor_data_bytes);
    CHECK(model_hash(edited) != model_hash(*m));
    auto d = prepare_weights(cat, *m, "Q4_K_M", err, 5000000000ull);
    REQUIRE(d);
    CHECK(d.get() != a.get());
}

TEST_CASE("memory fast path: prepared weights hold evaluate()'s params and active bytes", "[memory][fast][simulate]") {
    Catalog cat;
    if (!load_catalog_or_skip(cat)) return;
    const Hardware* hw = cat.find_hardware("rtx-4090");
    int mismatches = 0, n = 0;
    for (const Model& m : cat.models) {
        for (const char* q : {"Q4_K_M", "Q8_0", "MLX_4BIT", "F16"}) {
            for (uint64_t override_bytes : {0ull, 7777777777ull}) {
                SimRequest req;
                req.memory.file_type = q;
                req.memory.hardware = hw;
                req.memory.file_bytes_override = override_bytes;
                req.with_speed = false;
                Evaluation ev;
                std::string err;
                if (!evaluate(cat, m, req, ev, err)) continue;
                ++n;
                ParamCounts pc;
                WeightSize w;
                REQUIRE(count_params(m, pc, err));
                REQUIRE(compute_weight_size(m, q, w, err, &cat));
                uint64_t active = active_weight_bytes_reference(m, w, pc);
                uint64_t embedding = 0, routed = 0;
                for (size_t i = 0; i < w.tensors.size() && i < w.bytes.size(); ++i) {
                    if (w.tensors[i].name == "token_embd.weight") embedding += w.bytes[i];
                    if (w.tensors[i].routed_expert) routed += w.bytes[i];
                }
                if (override_bytes > 0 && w.tensor_data_bytes > 0)
                    active = (uint64_t)std::llround((double)active * (double)override_bytes / (double)w.file_bytes_estimate);
                const bool same = ev.params.total == pc.total && ev.params.active == pc.active &&
                                  ev.params.embedding == pc.embedding && ev.params.output == pc.output &&
                                  ev.params.routed_expert == pc.routed_expert &&
                                  ev.params.per_layer_max == pc.per_layer_max && ev.active_weight_bytes == active &&
                                  ev.routed_expert_bytes == routed &&
                                  // weights and the embedding table as placed: after the file-size override; without
                                  // one, a GGUF's are exactly the per-tensor rules' bytes
                                  (override_bytes > 0 || !w.tensors.size() ||
                                   (ev.weight_bytes == w.tensor_data_bytes && ev.embedding_bytes == embedding));
                if (!same && ++mismatches <= 10)
                    FAIL_CHECK(m.id << " " << q << " override " << override_bytes << ": active " << ev.active_weight_bytes
                                    << " vs " << active << ", params " << ev.params.total << " vs " << pc.total);
                MemoryBreakdown ref;
                REQUIRE(estimate_memory_reference(cat, m, req.memory, ref, err));
                const std::string d = diff(ev.memory, ref);
                if (!d.empty() && ++mismatches <= 10) FAIL_CHECK(m.id << " " << q << ": " << d);
            }
        }
    }
    CHECK(n > 200);
    CHECK(mismatches == 0);
}

TEST_CASE("evaluate: a reused Evaluation equals a fresh one, with and without prepared weights", "[memory][fast][simulate]") {
    Catalog cat;
    if (!load_catalog_or_skip(cat)) return;
    const std::vector<Scenario> sc = scenarios(cat);
    REQUIRE(sc.size() >= 500);
    Evaluation reused;   // evaluate() writes in place (keeps buffers): nothing of an earlier call may leak
    int mismatches = 0, speeds = 0;
    for (const Scenario& s : sc) {
        SimRequest req;
        req.memory = s.req;
        req.with_speed = (&s - sc.data()) % 5 != 0;   // some calls without speed between calls with it
        Evaluation fresh, prepared_out;
        std::string e1, e2, e3;
        const bool ok1 = evaluate(cat, *s.model, req, reused, e1);
        const bool ok2 = evaluate(cat, *s.model, req, fresh, e2);
        const auto w = prepare_weights(cat, *s.model, req.memory.file_type, e3, req.memory.file_bytes_override.value_or(0));
        const bool ok3 = w && evaluate(cat, *w, *s.model, req, prepared_out, e3);
        std::string d;
        if (ok1 != ok2 || ok2 != ok3 || e1 != e2 || e2 != e3) d = "ok/err differ (" + e1 + " | " + e2 + " | " + e3 + ")";
        for (const Evaluation* x : {&reused, &prepared_out}) {
            if (!d.empty() || !ok2) break;
            d += diff(x->memory, fresh.memory);
            const SpeedView &a = x->speed, &b = fresh.speed;
            if (a.ok != b.ok || a.error != b.error || a.decode_tps != b.decode_tps || a.decode_low != b.decode_low ||
                a.prefill_tps != b.prefill_tps || a.ttft_s != b.ttft_s || a.reply_s != b.reply_s ||
                a.aggregate_tps != b.aggregate_tps || a.decode_bound != b.decode_bound ||
                a.prefill_bound != b.prefill_bound || a.decode_flops != b.decode_flops || a.peak_flops != b.peak_flops)
                d += "speed differs; ";
            if (x->params.total != fresh.params.total || x->active_weight_bytes != fresh.active_weight_bytes ||
                x->weight_bytes != fresh.weight_bytes || x->full_attn_layers != fresh.full_attn_layers ||
                x->swa_layers != fresh.swa_layers || x->kv_k_row != fresh.kv_k_row || x->kv_v_row != fresh.kv_v_row)
                d += "evaluation fields differ; ";
        }
        if (ok2 && fresh.speed.ok) ++speeds;
        if (!d.empty() && ++mismatches <= 20) FAIL_CHECK(describe(*s.model, s.req) << "\n  " << d);
    }
    CHECK(mismatches == 0);
    CHECK(speeds > 100);   // the comparison covered real speed estimates
}
