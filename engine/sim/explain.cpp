#include "sim/explain.h"

#include <cctype>

#include "core/format.h"
#include "core/text.h"
#include "model/model_tensors.h"
#include "quant/quant_rules.h"
#include "runtime/speed_glue.h"

namespace llmsim {

namespace {
std::string src_of(const Model& m) { return m.sources.empty() ? "catalog" : "catalog: " + m.sources.front(); }
std::string src_of(const Hardware& h) { return h.sources.empty() ? "catalog" : "catalog: " + h.sources.front(); }
}  // namespace

std::vector<Explanation> explain(const Catalog& cat, const Model& m, const SimRequest& req, const Evaluation& ev) {
    std::vector<Explanation> out;
    const MemoryBreakdown& mb = ev.memory;
    const MemoryRequest& r = req.memory;
    const FileType* ft = cat.find_file_type(r.file_type);

    Explanation w{"weights", format_gib((double)mb.weights_bytes), "", {}};
    w.text = "Sum over the model's " + std::to_string(m.n_layers) + " layers' tensors of each tensor's bytes under " + r.file_type +
             "'s per-tensor rules (llama.cpp llama_tensor_get_type: embeddings/output, attn_v and ffn_down bumps), " +
             "= " + format_fixed(mb.bits_per_weight, 2) + " bits per weight over " + format_sig((double)mb.params / 1e9) + "B parameters" +
             (r.file_bytes_override ? "; scaled to the given file size" : "") + ".";
    w.inputs = {"parameters = " + format_sig((double)ev.params.total / 1e9) + "B (computed from the architecture; " + src_of(m) + ")",
                "file type = " + r.file_type + (ft && !ft->sources.empty() ? " (" + ft->sources.front() + ")" : ""),
                "active weights read per token = " + format_gb((double)ev.active_weight_bytes)};
    out.push_back(w);

    Explanation kv{"kv_cache", format_gib((double)mb.kv_cache_bytes), "", {}};
    int64_t full_layers = 0, swa_layers = 0;
    for (int il = 0; il < m.n_layers; ++il) {
        if (!layer_has_attention(m, il)) continue;
        (layer_is_swa(m, il) ? swa_layers : full_layers)++;
    }
    const uint64_t k_row = row_bytes(r.kv_type_k, kv_k_row(m));
    const uint64_t v_row = row_bytes(r.kv_type_v, kv_v_row(m));
    kv.text = std::to_string(full_layers) + " full-attention layers x " + std::to_string(mb.kv_cells_full) + " cells (n_ctx " +
              std::to_string(r.n_ctx) + " padded to " + std::to_string(kKvCellPad) + ") x (" + std::to_string(k_row) + " B K + " + std::to_string(v_row) + " B V per cell)";
    if (swa_layers > 0)
        kv.text += " + " + std::to_string(swa_layers) + " sliding-window layers x " + std::to_string(mb.kv_cells_swa) +
                   " cells (window " + std::to_string(m.swa ? m.swa->window : 0) + " + ubatch, per sequence, padded to " + std::to_string(kKvCellPad) + ")";
    if (mb.recurrent_state_bytes) kv.text += " + recurrent state " + format_gib((double)mb.recurrent_state_bytes);
    kv.text += m.mla ? " (MLA caches the compressed latent + RoPE part as K only)." : ".";
    const TensorTypeInfo& q8 = tensor_type_info(TensorType::Q8_0);
    kv.inputs = {"KV heads = " + std::to_string(m.n_kv_heads) + ", head_dim = " + std::to_string(m.head_dim) + " (" + src_of(m) + ")",
                 "KV type = " + lower_ascii(to_string(r.kv_type_k)) + "/" + lower_ascii(to_string(r.kv_type_v)) + " (ggml block sizes: q8_0 is " + std::to_string(q8.type_size) + " bytes per " + std::to_string(q8.block_size) + " values)",
                 "parallel sequences = " + std::to_string(r.n_parallel)};
    out.push_back(kv);

    Explanation c{"compute", format_gib((double)mb.compute_bytes), "", {}};
    c.text = "Largest intermediate working set of one ubatch (" + std::to_string(r.n_ubatch) + " tokens): logits (vocab " +
             std::to_string(m.vocab_size) + " x ubatch x 4 B), attention " + (r.flash_attn ? "with flash attention (no score matrix)" :
             "scores (heads x n_ctx x ubatch x 4 B, flash attention off)") + " or FFN activations, per device; fitted to llama.cpp's printed "
             "CPU compute buffers within 3 % (assets/calibration/llamacpp_memory*.csv); GPU backends reuse the CPU formula (estimate).";
    out.push_back(c);

    Explanation o{"overhead", format_gib((double)mb.overhead_bytes), "", {}};
    auto mib = [](uint64_t b) { return std::to_string(b / kMiB) + " MiB"; };
    o.text = "Runtime memory outside llama.cpp's buffers: backend context (CUDA/ROCm ~" + mib(kCudaRuntimeBytes) +
             " per GPU, Metal " + mib(kMetalRuntimeBytes) + ", Vulkan " + mib(kVulkanRuntimeBytes) + ", host process " +
             mib(kHostRuntimeBytes) + ") — named estimates in engine/memory/memory.h, not measured here.";
    static_assert(kCudaRuntimeBytes == kRocmRuntimeBytes, "the text names CUDA and ROCm together");
    out.push_back(o);

    Explanation t{"total", format_gib((double)mb.total_bytes), "weights + KV cache + compute + overhead over all devices (GPU side " +
                  format_gib((double)limit_side_bytes(mb)) + ", the part compared with the usable limit).", {}};
    out.push_back(t);

    if (r.hardware) {
        const Hardware& h = *r.hardware;
        Explanation u{"usable", format_gib((double)mb.usable_bytes), "", {}};
        u.text = h.unified_memory()
                     ? "Unified memory: the GPU may use the OS default limit (" + format_gib((double)mb.usable_bytes) +
                           "; Apple recommendedMaxWorkingSetSize / AMD GTT default); raised limit " + format_gib((double)mb.usable_raised_bytes) + "."
                     : "Reported memory " + format_gib((double)h.memory_bytes) + " per GPU x " + std::to_string(h.gpu_count) +
                           " minus a reserve for the driver and display (engine/memory/memory.h kGpuReserve*, estimate).";
        u.inputs = {"memory as the driver reports it (" + src_of(h) + ")"};
        out.push_back(u);
        Explanation mc{"max_context", mb.max_context > 0 ? format_tokens(mb.max_context) + " tokens" : "none", "", {}};
        mc.text = "Largest n_ctx (multiple of 256, up to the native " + format_tokens(m.native_context) +
                  " context) whose total stays within the usable limit at the same placement.";
        out.push_back(mc);
    }
    if (ev.speed.ok && r.hardware) {
        const SpeedView& sp = ev.speed;
        const Hardware& h = *r.hardware;
        const SpeedParams& p = default_speed_params();
        Explanation d{"decode", format_sig(sp.decode_tps) + " tok/s (" + format_sig(sp.decode_low) + "–" + format_sig(sp.decode_high) + ")", sp.explain, {}};
        d.inputs = {"bandwidth = " + format_sig(h.bandwidth_gbs) + " GB/s spec (" + src_of(h) + ")",
                    "weights read per token = " + format_gb((double)ev.active_weight_bytes),
                    "fitted parameters: assets/calibration/speed_params.json (" + std::to_string(p.fit_rows_decode) + " decode rows, " +
                        std::to_string(p.fit_devices) + " devices; " + p.fit_source + ")",
                    "band = 5th–95th percentile (10th–90th before llama.cpp b6700) of the held-out errors for this hardware class, publication and its devices left out"};
        out.push_back(d);
        Explanation pf{"prefill", format_sig(sp.prefill_tps) + " tok/s", "2 x active parameters FLOPs per token plus causal attention, over "
                       "the fitted share of FP16 tensor throughput for this backend, hardware class and weight type (bandwidth floor: weights read once per ubatch).", {}};
        pf.inputs = {"FP16 tensor = " + (h.fp16_tflops > 0 ? format_sig(h.fp16_tflops) + " TFLOPS (" + h.fp16_tflops_basis + ")" : std::string("not published: estimated from class and bandwidth")),
                     "active parameters = " + format_sig((double)ev.params.active / 1e9) + "B",
                     "fitted on " + std::to_string(p.fit_rows_prefill) + " prefill rows"};
        out.push_back(pf);
        Explanation tt{"ttft", format_sig(sp.ttft_s) + " s", "prompt tokens / prefill speed (empty cache) — the first token comes from the prompt's logits.", {}};
        out.push_back(tt);
    }
    return out;
}

}  // namespace llmsim
