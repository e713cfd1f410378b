// Test-only oracle of the memory model (memory_reference.h): estimate_memory() as it was before the fast path
// (engine/memory/memory.cpp + engine/memory/prepared_weights.cpp) — it enumerates every tensor, re-applies the quant rules and
// places tensors one by one, once per probe of the fit and max-context searches. Slow (~1 ms per call), kept
// as the oracle tests/engine/test_memory_fast.cpp compares the fast path with, field by field.
//
// What stays independent of the fast path: the tensor-by-tensor placement, the per-layer KV sum (the public
// estimate_kv_cache, which the fast path does not call), the compute buffer per device through the public
// estimate_compute_buffer, and the fit / max-context searches by full re-placement. What it shares with the
// engine (memory.h building blocks, no second copy): the cell plan (plan_cells, with pad-to-256 and the effective
// ubatch), the backend device names and runtime bytes, and the RAM pool of a device — lookups and the cell
// arithmetic that estimate_kv_cache / estimate_compute_buffer already took from the engine.
//
// [SECTION] Placement and totals
// [SECTION] Fit search
#include "memory_reference.h"

#include <algorithm>
#include <cmath>

#include "model/model_tensors.h"

namespace llmsim {

// [SECTION] Placement and totals -------------------------------------------------------------------------

namespace {

struct Prepared {
    std::vector<TensorDesc> tensors;
    std::vector<uint64_t> bytes;       // per tensor, after file-size scaling
    WeightSize ws;
    Backend backend = Backend::Cpu;
    int n_gpus = 0;
};

bool prepare(const Catalog& cat, const Model& m, const MemoryRequest& r, Prepared& p, std::string& err) {
    if (!compute_weight_size(m, r.file_type, p.ws, err, &cat)) return false;
    if (p.ws.gguf) {
        p.tensors = p.ws.tensors;
        p.bytes = p.ws.bytes;
    } else {
        // flat-bpw formats: spread the bytes over the tensors in proportion to their parameters (for placement)
        if (!enumerate_tensors(m, p.tensors, err)) return false;
        const double bpw = p.ws.bits_per_weight;
        for (const TensorDesc& t : p.tensors) p.bytes.push_back((uint64_t)((double)t.n_elements() * bpw / 8.0 + 0.5));
    }
    if (r.file_bytes_override.value_or(0) > 0 && p.ws.file_bytes_estimate > 0) {
        const double s = (double)*r.file_bytes_override / (double)p.ws.file_bytes_estimate;
        for (uint64_t& b : p.bytes) b = (uint64_t)((double)b * s + 0.5);
    }
    if (r.hardware) {
        p.backend = r.backend ? *r.backend : (r.hardware->backends.empty() ? Backend::Cpu : r.hardware->backends[0]);
        if (r.hardware->kind == HardwareKind::Cpu) p.backend = Backend::Cpu;
        p.n_gpus = p.backend == Backend::Cpu ? 0 : std::max(1, r.hardware->gpu_count);
    } else if (r.backend && *r.backend != Backend::Cpu) {
        p.backend = *r.backend;
        p.n_gpus = 1;
    }
    if (!r.tensor_split.empty() && p.n_gpus > 0 && (int)r.tensor_split.size() != p.n_gpus) {
        err = "--tensor-split has " + std::to_string(r.tensor_split.size()) + " values but the hardware has " +
              std::to_string(p.n_gpus) + " GPUs";
        return false;
    }
    return true;
}

// place weights, KV and compute for a given -ngl and context; fills devices and totals, not status
bool place(const Model& m, const MemoryRequest& r, const Prepared& p, int ngl, MemoryBreakdown& out, std::string& err) {
    KvCacheSize kv;
    if (!estimate_kv_cache(m, r, kv, err)) return false;
    const int L = m.n_layers;
    const int G = p.n_gpus;
    ngl = G == 0 ? 0 : std::clamp(ngl, 0, L + 1);

    // llama.cpp llama_model::load_tensors: i_gpu_start = max(n_layer - ngl, 0); the output "layer" (index
    // n_layer) is on GPU only when ngl > n_layer; layers are split over GPUs by cumulative proportions
    const int i_gpu_start = std::max(L - ngl, 0);
    const int act = std::min(ngl, L + 1);
    std::vector<double> split((size_t)std::max(G, 1), 1.0);
    if (!r.tensor_split.empty()) split = r.tensor_split;
    double sum = 0;
    for (double& s : split) { s = std::max(0.0, s); sum += s; }
    if (sum <= 0) { err = "--tensor-split proportions must not all be zero"; return false; }
    std::vector<double> cum(split.size());
    double acc = 0;
    for (size_t i = 0; i < split.size(); ++i) { cum[i] = acc / sum; acc += split[i]; }
    // device index: 0..G-1 = GPUs, G = host
    auto device_of_layer = [&](int il) -> int {
        if (G == 0 || il < i_gpu_start || il - i_gpu_start >= act) return G;
        const double x = (double)(il - i_gpu_start) / (double)act;
        int d = (int)(std::upper_bound(cum.begin(), cum.end(), x) - cum.begin()) - 1;
        return std::clamp(d, 0, G - 1);
    };

    out.devices.clear();
    for (int g = 0; g < G; ++g) {
        DeviceMemory d;
        d.name = p.backend == Backend::Metal && G == 1 ? "Metal" : backend_device_prefix(p.backend) + std::to_string(g);
        out.devices.push_back(d);
    }
    DeviceMemory host;
    host.name = "host";
    out.devices.push_back(host);
    std::vector<DeviceMemory>& dev = out.devices;

    const int out_dev = device_of_layer(L);
    uint64_t max_host_layer_tensor = 0;
    uint64_t embd_bytes = 0;
    for (size_t i = 0; i < p.tensors.size(); ++i) {
        const TensorDesc& t = p.tensors[i];
        const uint64_t b = p.bytes[i];
        int d;
        if (t.name == "token_embd.weight") { d = G; embd_bytes = b; }   // input embeddings stay on the CPU
        else if (t.layer < 0) d = out_dev;                               // output, output_norm, rope factors
        else {
            d = device_of_layer(t.layer);
            if (t.routed_expert && (r.cpu_moe || t.layer < r.n_cpu_moe)) d = G;  // --cpu-moe / --n-cpu-moe
        }
        dev[(size_t)d].weights_bytes += b;
        if (d == G && t.layer >= 0) max_host_layer_tensor = std::max(max_host_layer_tensor, b);
    }
    // tied embeddings: llama.cpp creates output as a duplicate of token_embd on the output device
    if (m.tie_embeddings && out_dev != G) dev[(size_t)out_dev].weights_bytes += embd_bytes;

    for (int il = 0; il < L; ++il) {
        const int d = device_of_layer(il);
        dev[(size_t)d].kv_cache_bytes += kv.per_layer[(size_t)il];
        dev[(size_t)d].n_layers += 1;
    }

    // compute buffers
    for (int d = 0; d <= G; ++d) {
        const bool has_layers = dev[(size_t)d].n_layers > 0;
        const bool has_out = out_dev == d;
        if (d == G && G > 0 && !has_layers && !has_out) {
            dev[(size_t)d].compute_bytes = estimate_compute_buffer(m, r, false, false).total;
            continue;
        }
        if (d < G && !has_layers && !has_out) continue;
        dev[(size_t)d].compute_bytes = estimate_compute_buffer(m, r, has_layers, has_out).total;
    }
    // partial offload: with a batch >= 32 llama.cpp copies CPU-resident weights to the GPU for the matmul
    // (op offload), so GPU0's buffer must hold the largest such tensor (estimate)
    const CellPlan cp = plan_cells(m, r, r.n_ctx);
    if (G > 0 && max_host_layer_tensor > 0 && cp.ubatch >= 32) dev[0].compute_bytes += max_host_layer_tensor;

    // overhead: GPU runtime per device; host: process + logits output buffer (n_vocab f32 per sequence)
    for (int g = 0; g < G; ++g) dev[(size_t)g].overhead_bytes = backend_runtime_bytes(p.backend);
    dev[(size_t)G].overhead_bytes = kHostRuntimeBytes + 4 * (uint64_t)m.vocab_size * (uint64_t)std::max(1, r.n_parallel);

    out.weights_bytes = out.kv_cache_bytes = out.compute_bytes = out.overhead_bytes = out.total_bytes = 0;
    for (DeviceMemory& d : dev) {
        d.total_bytes = d.weights_bytes + d.kv_cache_bytes + d.compute_bytes + d.overhead_bytes;
        out.weights_bytes += d.weights_bytes;
        out.kv_cache_bytes += d.kv_cache_bytes;
        out.compute_bytes += d.compute_bytes;
        out.overhead_bytes += d.overhead_bytes;
        out.total_bytes += d.total_bytes;
    }
    out.kv_k_bytes = kv.k_bytes;
    out.kv_v_bytes = kv.v_bytes;
    out.recurrent_state_bytes = kv.state_bytes;
    out.kv_cells_full = kv.cells_full;
    out.kv_cells_swa = kv.cells_swa;
    out.gpu_layers = ngl;
    out.n_layers = L;
    out.params = p.ws.params;
    out.bits_per_weight = p.ws.bits_per_weight;
    out.file_bytes = r.file_bytes_override ? *r.file_bytes_override : p.ws.file_bytes_estimate;
    return true;
}

// status of a placed configuration against the hardware (no search)
FitStatus judge(const MemoryRequest& r, const Prepared& p, MemoryBreakdown& mb) {
    const Hardware* hw = r.hardware;
    if (!hw) return FitStatus::Unknown;
    const int G = p.n_gpus;
    DeviceMemory& host = mb.devices.back();
    const uint64_t ram = r.host_ram_bytes ? *r.host_ram_bytes : (uint64_t)std::max<int64_t>(0, hw->system_ram_bytes);
    if (G == 0) {
        // CPU-only: everything lives in RAM
        const uint64_t usable = hw->kind == HardwareKind::Cpu || ram == 0 ? usable_gpu_bytes(*hw, r)
                                                                          : (ram > kHostRamReserveBytes ? ram - kHostRamReserveBytes : 0);
        host.usable_bytes = usable;
        mb.usable_bytes = usable;
        mb.usable_raised_bytes = usable;
        if (usable == 0 || host.total_bytes > usable) return FitStatus::Oom;
        return (double)host.total_bytes <= kComfortableFraction * (double)usable ? FitStatus::Comfortable : FitStatus::Tight;
    }
    const uint64_t lim = usable_gpu_bytes(*hw, r);
    const uint64_t lim_raised = usable_gpu_bytes_raised(*hw, r);
    mb.usable_bytes = lim * (uint64_t)G;
    mb.usable_raised_bytes = lim_raised * (uint64_t)G;
    double worst = 0;
    bool over_raised = false;
    for (int g = 0; g < G; ++g) {
        DeviceMemory& d = mb.devices[(size_t)g];
        d.usable_bytes = lim;
        worst = std::max(worst, lim ? (double)d.total_bytes / (double)lim : 1e9);
        over_raised |= d.total_bytes > lim_raised;
    }
    if (hw->unified_memory()) {
        // one pool: GPU buffers count against the working-set / GTT limit, everything against RAM
        const uint64_t pool = ram_bytes_of(*hw);
        if (over_raised || mb.total_bytes > pool) return FitStatus::Oom;
        if (worst > 1.0) return FitStatus::TunableUma;
    } else if (worst > 1.0) {
        return FitStatus::Oom;
    }
    const bool host_layers = host.n_layers > 0;
    if (host_layers) {
        if (ram > 0 && host.total_bytes > (ram > kHostRamReserveBytes ? ram - kHostRamReserveBytes : 0)) return FitStatus::Oom;
        return FitStatus::PartialOffload;
    }
    return worst <= kComfortableFraction ? FitStatus::Comfortable : FitStatus::Tight;
}

bool fits(FitStatus s) {
    return s == FitStatus::Comfortable || s == FitStatus::Tight || s == FitStatus::TunableUma ||
           s == FitStatus::PartialOffload;
}

}  // namespace

// [SECTION] Fit search -----------------------------------------------------------------------------------

bool estimate_memory_reference(const Catalog& cat, const Model& m, const MemoryRequest& req, MemoryBreakdown& out,
                               std::string& err) {
    out = MemoryBreakdown{};
    Prepared p;
    if (!prepare(cat, m, req, p, err)) return false;
    const int L = m.n_layers;
    const int want_ngl = req.n_gpu_layers < 0 ? L + 1 : req.n_gpu_layers;
    if (!place(m, req, p, want_ngl, out, err)) return false;
    out.status = judge(req, p, out);

    if (!p.ws.gguf) out.notes.push_back("weights from the catalog's flat bits-per-weight (no per-tensor rules for this format)");
    if (p.n_gpus > 0) out.notes.push_back("GPU runtime overhead and GPU compute buffers are estimates (fitted on llama.cpp's CPU backend)");

    if (req.hardware && p.n_gpus > 0 && out.status == FitStatus::Oom) {
        // fewest layers to offload: the most -ngl whose GPU part fits (binary search; GPU use grows with ngl)
        int lo = 0, hi = std::min(want_ngl, L + 1) - 1, best = -1;
        MemoryBreakdown probe;
        std::string e2;
        while (lo <= hi) {
            const int mid = (lo + hi) / 2;
            if (!place(m, req, p, mid, probe, e2)) break;
            bool gpu_ok = true;
            const uint64_t lim = usable_gpu_bytes(*req.hardware, req);
            for (int g = 0; g < p.n_gpus; ++g) gpu_ok &= probe.devices[(size_t)g].total_bytes <= lim;
            if (gpu_ok) { best = mid; lo = mid + 1; } else hi = mid - 1;
        }
        out.fit_gpu_layers = best;
        const uint64_t ram = req.host_ram_bytes ? *req.host_ram_bytes : (uint64_t)std::max<int64_t>(0, req.hardware->system_ram_bytes);
        if (req.n_gpu_layers < 0 && best >= 1 && ram > 0 && !req.hardware->unified_memory()) {
            // auto placement (like llama.cpp --fit): use the partial offload when host RAM holds the rest
            MemoryBreakdown partial;
            if (place(m, req, p, best, partial, e2)) {
                partial.status = judge(req, p, partial);
                if (partial.status == FitStatus::PartialOffload) {
                    partial.fit_gpu_layers = best;
                    partial.notes = out.notes;
                    out = partial;
                }
            }
        }
    } else if (req.hardware) {
        out.fit_gpu_layers = out.gpu_layers;
    }

    if (req.hardware && req.compute_max_context) {
        // largest multiple of 256 (up to the native context, or the extended one when allowed) that still fits
        // with the same placement; memory grows monotonically with n_ctx, so bisect
        int64_t limit = m.native_context > 0 ? m.native_context : 131072;
        if (req.allow_extended_context && m.extended_context > limit) limit = m.extended_context;
        const int ngl = out.gpu_layers;
        int64_t lo = 1, hi = limit / kKvCellPad, best = 0;
        MemoryRequest r2 = req;
        MemoryBreakdown probe;
        std::string e2;
        while (lo <= hi) {
            const int64_t mid = (lo + hi) / 2;
            r2.n_ctx = mid * kKvCellPad;
            if (!place(m, r2, p, ngl, probe, e2)) break;
            if (fits(judge(r2, p, probe))) { best = mid; lo = mid + 1; } else hi = mid - 1;
        }
        out.max_context = best * kKvCellPad;
        out.max_context_extended = m.native_context > 0 && out.max_context > m.native_context;
    }
    return true;
}

}  // namespace llmsim
