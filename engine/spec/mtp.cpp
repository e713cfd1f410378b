// MTP heads as the draft (--spec-type draft-mtp): support per architecture, memory of the NextN block(s) and the
// MTP context, and the speed through the draft-model step-time model (mtp.h has the rules).
#include "spec/mtp.h"

#include <algorithm>
#include <cctype>

#include "memory/memory.h"
#include "model/arch_table.h"
#include "quant/quant_rules.h"
#include "core/text.h"

namespace llmsim {

namespace {

// Per-token acceptance of MTP drafts, as reported (not llama.cpp measurements of llmsim's own):
const AcceptanceRange kMtpAcceptance[] = {
    {"DeepSeek-V3, 2nd token (one MTP module)", 0.85, 0.90,
     "DeepSeek-V3 Technical Report (arXiv:2412.19437) sec. 5.4.3: 'between 85% and 90%'"},
    {"llama.cpp draft-mtp, Qwen3.6, 3 draft tokens", 0.65, 0.90,
     "ggml-org/llama.cpp#22673: 'steady-state acceptance of around 75%'; 65-90 % in its 2026-05-16 comment"},
    {"llama.cpp draft-mtp, DeepSeek V3.2, code, n-max 2", 0.80, 0.80,
     "ggml-org/llama.cpp#26457: 'draft acceptance is around 80%'"},
    {"llama.cpp draft-mtp, Qwen3.8-27B, n-max 2-3", 0.56, 0.79,
     "sudoingX/qwen38-mtp#5 (0.56), #73 (0.718), #78 (0.786): community A/B runs"},
};

// llama.cpp#26296 (merged 2026-07-29): MTP tensors are loaded only with --spec-type draft-mtp
constexpr const char* kLoadOnlyWithMtp = "ggml-org/llama.cpp#26296";

// bytes of the tensor named `name` in ws, 0 when absent
uint64_t tensor_bytes(const WeightSize& ws, const std::string& name) {
    for (size_t i = 0; i < ws.tensors.size() && i < ws.bytes.size(); ++i)
        if (ws.tensors[i].name == name) return ws.bytes[i];
    return 0;
}

// the NextN tensors the trunk-shaped block lacks: eh_proj {2 n_embd, n_embd} (stored like the block's
// attn_output, the nearest 2-D tensor the quantizer treats alike) and enorm + hnorm (f32 {n_embd}); without
// own copies, the block's embedding and head are the trunk's (token_embd / output are not in the block)
uint64_t nextn_weight_bytes(const Model& nb, const WeightSize& ws, bool own_embed_head) {
    const uint64_t h = (uint64_t)nb.hidden_size;
    if (!ws.gguf) {   // flat bits-per-weight format: scale by the extra parameters
        const double extra = (double)nb.nextn_layers * (2.0 * h * h + 2.0 * h);
        return ws.tensor_data_bytes + (uint64_t)((double)ws.tensor_data_bytes * extra / std::max<double>(1, (double)ws.params));
    }
    uint64_t bytes = ws.tensor_data_bytes;
    for (int il = 0; il < nb.n_layers; ++il) {
        const std::string blk = "blk." + std::to_string(il) + ".";
        const uint64_t wo = tensor_bytes(ws, blk + "attn_output.weight");
        const uint64_t wo_elems = (uint64_t)nb.n_heads * (uint64_t)nb.kv_head_dim_v() * h;
        bytes += wo_elems ? (uint64_t)((double)wo * (2.0 * h * h) / (double)wo_elems) : 0;
        bytes += 2 * ((h * 4 + kGgufAlignment - 1) / kGgufAlignment * kGgufAlignment);
    }
    if (!own_embed_head) bytes -= std::min(bytes, tensor_bytes(ws, "token_embd.weight") + tensor_bytes(ws, "output.weight"));
    return bytes;
}

// the MTP context's memory request: the target's cells and sequences, -ctkd/-ctvd, the target's n_ubatch
MemoryRequest mtp_context_request(const SpecRequest& req) {
    MemoryRequest d = req.target.memory;
    d.kv_type_k = req.draft_kv_type_k;
    d.kv_type_v = req.draft_kv_type_v;
    d.n_cpu_moe = 0;
    d.cpu_moe = false;
    d.file_bytes_override.reset();
    d.tensor_data_bytes_exact.reset();
    d.compute_max_context = false;
    return d;
}

SpecDevice& device_named(std::vector<SpecDevice>& v, const std::string& name) {
    auto it = std::find_if(v.begin(), v.end(), [&](const SpecDevice& s) { return s.name == name; });
    if (it != v.end()) return *it;
    v.push_back(SpecDevice{name});
    return v.back();
}

}  // namespace

const AcceptanceRange* mtp_acceptance_ranges(int& count) {
    count = (int)(sizeof kMtpAcceptance / sizeof kMtpAcceptance[0]);
    return kMtpAcceptance;
}

MtpSupport mtp_support(const Model& m) {
    MtpSupport s;
    s.nextn_layers = m.nextn_layers;
    const ArchInfo* a = find_llama_arch(m.arch);
    if (m.nextn_layers <= 0) {
        s.message = m.id + " has no MTP heads (no num_nextn_predict_layers in its config): use a draft model (-md)";
        return s;
    }
    if (a) {
        s.runs = a->mtp_draft_since != nullptr;
        s.since = a->mtp_draft_since ? a->mtp_draft_since : "";
        s.kv_filter_since = a->mtp_kv_filter_since ? a->mtp_kv_filter_since : "";
        s.own_embed_head = a->nextn_own_embed_head;
    }
    const std::string n = std::to_string(m.nextn_layers) + " MTP (NextN) layer" + (m.nextn_layers > 1 ? "s" : "");
    if (!s.runs) {
        s.message = m.id + " has " + n + " but llama.cpp has no draft-mtp graph for architecture '" + m.arch +
                    "': memory only (no speed); the heads are not loaded without --spec-type draft-mtp (" +
                    kLoadOnlyWithMtp + ")";
        return s;
    }
    s.message = n + " run as the draft with --spec-type draft-mtp from " + s.since +
                "; the GGUF must carry the NextN block (files converted before that drop it)";
    if (!s.kv_filter_since.empty())
        s.message += "; the MTP context caches only the NextN layer from " + s.kv_filter_since +
                     " (older builds: every layer)";
    return s;
}

Model nextn_block_model(const Model& m) {
    Model b = m;
    b.id = m.id + " (NextN block)";
    b.n_layers = std::max(1, m.nextn_layers);
    b.swa.reset();      // the NextN block is a full-attention block (glm4moe / deepseek2 / qwen3next MTP graphs)
    b.hybrid.reset();
    if (b.moe) {        // it sits after the dense lead layers: MoE like the trunk's last layer
        b.moe->first_dense_layers = 0;
        b.moe->layer_step = 1;
    }
    b.tie_embeddings = false;   // its own embed_tokens + shared_head_head, or (qwen3next) the trunk's two
    b.published_params_b = 0;
    b.published_active_params_b = 0;
    return b;
}

bool estimate_mtp_memory(const Catalog& cat, const Model& target, const SpecRequest& req, MtpMemory& out,
                         std::string& err) {
    out = MtpMemory();
    out.support = mtp_support(target);
    if (out.support.nextn_layers <= 0) { err = out.support.message; return false; }
    if (req.draft_max < 1 || req.draft_max > 256) { err = "spec-draft-n-max: " + std::to_string(req.draft_max) + " is out of range (1 to 256 tokens)"; return false; }
    if (!(req.acceptance >= 0 && req.acceptance <= 1)) { err = "accept: the acceptance rate must be from 0 to 1"; return false; }
    std::string e;
    if (!estimate_memory(cat, target, req.target.memory, out.target, e)) { err = "target: " + e; return false; }
    const Model nb = nextn_block_model(target);
    WeightSize ws;
    if (!compute_weight_size(nb, req.target.memory.file_type, ws, e, &cat)) { err = "NextN block: " + e; return false; }
    out.nextn_weights_bytes = nextn_weight_bytes(nb, ws, out.support.own_embed_head);
    MemoryBreakdown mb;
    if (!estimate_memory(cat, nb, mtp_context_request(req), mb, e)) { err = "MTP context: " + e; return false; }
    out.mtp_cells = mb.kv_cells_full;
    out.mtp_kv_bytes = mb.kv_cache_bytes;
    out.mtp_kv_unfiltered_bytes = out.support.kv_filter_since.empty() ? mb.kv_cache_bytes
        : mb.kv_cache_bytes / (uint64_t)nb.n_layers * (uint64_t)(target.n_layers + nb.n_layers);
    for (const DeviceMemory& t : out.target.devices) {
        SpecDevice& d = device_named(out.devices, t.name);
        d.target_bytes = t.total_bytes;
        d.usable_bytes = t.usable_bytes;
    }
    // the NextN weights sit with the block's layer (the device the synthetic block's layer lands on); the KV and
    // compute buffers where the MTP context puts them; the runtime overhead is the process's (the target's)
    const DeviceMemory* layer_dev = nullptr;
    for (const DeviceMemory& dm : mb.devices)
        if (dm.n_layers > 0 && !layer_dev) layer_dev = &dm;
    for (const DeviceMemory& dm : mb.devices) {
        SpecDevice& d = device_named(out.devices, dm.name);
        if (&dm == layer_dev || (!layer_dev && dm.name == "host")) d.draft_weights_bytes += out.nextn_weights_bytes;
        d.draft_kv_bytes += dm.kv_cache_bytes;
        d.draft_compute_bytes += dm.compute_bytes;
        out.mtp_compute_bytes += dm.compute_bytes;
    }
    out.fits = true;
    for (SpecDevice& d : out.devices) {
        const uint64_t extra = d.draft_weights_bytes + d.draft_kv_bytes + d.draft_compute_bytes;
        d.total_bytes = d.target_bytes + extra;
        out.mtp_extra_bytes += extra;
        out.total_bytes += d.total_bytes;
        if (d.usable_bytes > 0) {
            out.known_limit = true;
            if (d.total_bytes > d.usable_bytes) out.fits = false;
        }
    }
    if (!out.known_limit) out.fits = false;
    return true;
}

bool estimate_mtp_speed(const Catalog& cat, const Model& target, const SpecRequest& req, SpecSpeed& out,
                        std::string& err) {
    out = SpecSpeed();
    const MtpSupport s = mtp_support(target);
    if (!s.runs) { err = s.message; return false; }
    // the draft is the NextN block in the target's own file: the target's quant, the MTP context's cache types
    SpecRequest r = req;
    r.draft_file_type = req.target.memory.file_type;
    r.draft_ctx = 0;
    r.draft_gpu_layers = req.target.memory.n_gpu_layers;
    return estimate_spec_speed(cat, target, nextn_block_model(target), r, out, err);
}

std::string mtp_server_flags(const SpecRequest& req) {
    std::string f = " --spec-type draft-mtp --spec-draft-n-max " + std::to_string(req.draft_max);
    if (req.draft_kv_type_k != TensorType::F16) f += " -ctkd " + lower_ascii(to_string(req.draft_kv_type_k));
    if (req.draft_kv_type_v != TensorType::F16) f += " -ctvd " + lower_ascii(to_string(req.draft_kv_type_v));
    return f;
}

}  // namespace llmsim
