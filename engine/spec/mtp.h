// Multi-token prediction (MTP) heads as llama-server's draft: --spec-type draft-mtp runs the model's own NextN
// block(s) (config.json num_nextn_predict_layers, Model::nextn_layers) as the drafter instead of a second model.
//
//   llmsim::SpecRequest r;                       // target request, --spec-draft-n-max (draft_max), acceptance, -ctkd/-ctvd
//   llmsim::MtpMemory mem; llmsim::SpecSpeed sp; std::string err;
//   if (llmsim::estimate_mtp_memory(cat, *model, r, mem, err) && mem.support.runs)
//       llmsim::estimate_mtp_speed(cat, *model, r, sp, err);
//
// Rules (llama.cpp; each PR is cited where it is used in mtp.cpp):
//   weights  the NextN block(s) are in the GGUF beside the trunk (glm4moe: blk.<n_layer>.*, with nextn.eh_proj
//            {2 n_embd, n_embd}, enorm, hnorm, and for GLM / DeepSeek their own embed_tokens + shared_head_head
//            copies). Since llama.cpp#26296 (merged 2026-07-29) they are loaded only with --spec-type draft-mtp
//            (load_mtp); the plain memory estimate never counts them. With draft-mtp they are loaded once.
//   context  the draft is a second llama_context on the SAME model (LLAMA_CONTEXT_TYPE_MTP, llama.cpp#22673): no
//            second copy of the weights, but its own KV cache and compute buffer. Its KV has the target's cells
//            (n_ctx; #22673's log: "8192 cells, 1 layers, 1/1 seqs") and, with the per-context layer filter, only
//            the NextN layer(s); builds before the filter (glm4moe / deepseek2 before #28630) allocate every
//            layer. Its compute buffer is reserved at the target's n_ubatch (#22673 thread, 2026-05-16).
//   speed    one draft step = one decode of the NextN block + head (the same step-time model as a draft model,
//            spec.h); k = --spec-draft-n-max drafted tokens, verified in one target step of k + 1 tokens.
// Not modelled: the MTP head re-reading the accepted tokens' hidden states after each verify (a small batch),
// the device-to-host embedding copy that slows prompt processing (#22673's note).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "catalog/catalog.h"
#include "spec/spec.h"

namespace llmsim {

// what llama.cpp can do with a model's MTP heads
struct MtpSupport {
    int nextn_layers = 0;             // 0: the model has no MTP heads
    bool runs = false;                // llama.cpp has a draft-mtp graph for its architecture
    std::string since;                // the change that added it ("" when none)
    std::string kv_filter_since;      // the change from which the MTP KV holds only the NextN layers ("" = always)
    bool own_embed_head = false;      // the NextN block has its own embedding and head copies
    std::string message;              // one line for the user: what runs, from which build, or why not
};

struct MtpMemory {
    MtpSupport support;
    MemoryBreakdown target;           // estimate_memory of the target alone (no NextN weights: llama.cpp#26296)
    uint64_t nextn_weights_bytes = 0; // the NextN block(s) as the file stores them (the target's quant)
    uint64_t mtp_kv_bytes = 0;        // the MTP context's KV cache with the layer filter (NextN layers only)
    uint64_t mtp_kv_unfiltered_bytes = 0;  // what a build before the filter allocates (every layer)
    uint64_t mtp_compute_bytes = 0;   // the MTP context's compute buffers (all devices)
    int64_t mtp_cells = 0;            // KV cells of the MTP context (the target's n_ctx)
    std::vector<SpecDevice> devices;  // the target + the MTP extras per device (draft_* = the MTP extras)
    uint64_t total_bytes = 0;
    uint64_t mtp_extra_bytes = 0;     // what --spec-type draft-mtp adds to the target alone
    bool fits = false;
    bool known_limit = false;
};

// the check of the MTP speed against a measurement (README; tests/engine/test_mtp.cpp keeps it as a guard): shown
// with every MTP speed
constexpr const char* kMtpSpeedCaveat =
    "physics: llama.cpp#26534 measured x1.17-1.20 for GLM-4.5-Air Q4_K_M on 4x RTX 3090 at --spec-draft-n-max 1 "
    "(acceptance not reported); this model gives x1.29 at acceptance 1 and x1.17-1.20 at about 0.85, but that row was "
    "known when its MoE verify rule was written (a regression guard, not a validation), and no dense MTP target "
    "has been measured";

// per-token acceptance of MTP drafts reported by the sources cited in mtp.cpp
const AcceptanceRange* mtp_acceptance_ranges(int& count);
// llama.cpp's support for the model's MTP heads (nextn_layers, architecture row)
MtpSupport mtp_support(const Model& m);
// the NextN block of `m` as a model of its own: nextn_layers full-attention layers of the trunk's shapes (MoE from
// the first), untied embedding + head; its weights stand for the block's, its decode step for one draft step
Model nextn_block_model(const Model& m);
// memory of the target + its MTP draft context; false + err on bad input or a model without MTP heads
bool estimate_mtp_memory(const Catalog& cat, const Model& target, const SpecRequest& req, MtpMemory& out,
                         std::string& err);
// expected decode speed with the MTP draft; false + err when llama.cpp cannot run it (mtp_support().message)
bool estimate_mtp_speed(const Catalog& cat, const Model& target, const SpecRequest& req, SpecSpeed& out,
                        std::string& err);
// the llama-server flags: " --spec-type draft-mtp --spec-draft-n-max K [-ctkd T -ctvd T]"
std::string mtp_server_flags(const SpecRequest& req);

}  // namespace llmsim
