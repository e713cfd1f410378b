// Vision projectors (llama.cpp --mmproj): what an image costs next to the text model.
//
// Every rule names the llama.cpp function it follows (tools/mtmd/clip.cpp, clip-model.h, at
// ggml-org/llama.cpp@0024aa7417efd50a7c2a79e049dfbbbceb0beaaf):
//   - image tokens: clip_n_output_tokens() per projector type, after the preprocessing size rule of that type;
//   - weights: the mmproj file's tensor bytes (GgufInfo::tensor_data_bytes) when a file is given, otherwise the
//     encoder's tensor shapes at the layout of ggml-org's mmproj files (matrices F16, 1-D tensors F32);
//   - compute buffer: clip_model_loader::warmup() reserves the graph of one image of hparams.warmup_image_size
//     (set_warmup_n_tokens / set_limit_image_tokens per type) on the GPU, plus the f32 input image on the CPU;
//   - encode time: the vision transformer's matmul and (bidirectional) attention FLOPs through the speed model's
//     prefill rate for the same device (estimate_prefill), one pass per tile.
// The encoder runs on one device: clip_ctx picks the first GPU backend (or the CPU), so its weights and compute
// buffer land on GPU 0 whatever the text model's split.
//
//   llmsim::VisionEncoder enc;
//   std::string err;
//   if (!llmsim::vision_encoder_for_model(*cat.find_model("google/gemma-3-4b-it"), enc, err)) return;
//   llmsim::ImagePlan plan;
//   llmsim::plan_image(enc, 1024, 768, plan, err);   // plan.tokens == 256
//
// [SECTION] Projector types and encoders
// [SECTION] Images
// [SECTION] Estimate
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "catalog/catalog.h"
#include "io/gguf.h"
#include "sim/simulate.h"

namespace llmsim {

// [SECTION] Projector types and encoders -----------------------------------------------------------------

enum class ProjectorType { Gemma3, Qwen25VL, Pixtral, Llama4, Count };

struct ProjectorTypeInfo {
    ProjectorType type;
    const char* gguf_name;      // clip.projector_type in the mmproj GGUF (clip-impl.h PROJECTOR_TYPE_NAMES)
    const char* token_rule;     // how clip_n_output_tokens() counts, in words
};
const ProjectorTypeInfo& projector_type_info(ProjectorType t);
// the type whose gguf_name is `name`; false when llmsim does not model it
bool projector_type_from_name(const std::string& name, ProjectorType& out);

struct VisionEncoder {                 // the clip_hparams llmsim needs
    ProjectorType projector = ProjectorType::Gemma3;
    int n_layer = 0;                   // clip.vision.block_count
    int n_embd = 0;                    // clip.vision.embedding_length
    int n_ff = 0;                      // clip.vision.feed_forward_length
    int n_head = 0;                    // clip.vision.attention.head_count
    int patch_size = 0;                // clip.vision.patch_size
    int image_size = 0;                // clip.vision.image_size (Pixtral/Qwen: the longest edge the tower trained at)
    int n_merge = 1;                   // hparams.n_merge (spatial merge / pooling factor per side)
    int64_t projection_dim = 0;        // clip.vision.projection_dim = the text model's hidden size
    bool gated_ffn = false;            // SwiGLU FFN (Pixtral, Qwen2.5-VL): three matrices per layer
    int64_t n_params = 0;              // parameters of the whole mmproj file
    uint64_t weights_bytes = 0;        // the file's tensor data (from the header, or the F16/F32 layout rule)
    bool weights_from_file = false;    // weights_bytes and types came from a GGUF header
    std::string weights_types;         // "F16 412.3M params + F32 ..." summary
    std::string source;                // where the shape came from
};

// the encoder of a catalog VLM (table in vision.cpp, each row with its config source); false + err for a text-only
// model
bool vision_encoder_for_model(const Model& text_model, VisionEncoder& out, std::string& err);
// the encoder an mmproj GGUF header describes (clip.* keys; weights = the file's tensor bytes by type); false + err
// when the file is not an mmproj or its projector type is not modelled
bool vision_encoder_from_gguf(const GgufInfo& info, VisionEncoder& out, std::string& err);
// the mmproj file name the command line names for a table encoder: "mmproj-" + the model's F16 GGUF name
std::string vision_mmproj_file_name(const Model& text_model);
// the catalog models that have a vision encoder row
std::vector<std::string> vision_model_ids();

// [SECTION] Images -----------------------------------------------------------------------------------------

struct ImagePlan {
    int input_w = 0, input_h = 0;      // the image given
    int encoded_w = 0, encoded_h = 0;  // after the type's resize rule (one tile's size for tiled types)
    int tiles = 1;                     // encoder passes (Llama 4: grid tiles + the overview)
    int64_t patches_per_pass = 0;      // transformer positions of one pass
    int tokens = 0;                    // embeddings handed to the text model (clip_n_output_tokens, summed)
};

// image tokens for one w x h image; false + err for sizes outside 1..16384 px
bool plan_image(const VisionEncoder& enc, int w, int h, ImagePlan& out, std::string& err);
// the square image clip's warm-up reserves the compute buffer for (hparams.warmup_image_size)
int warmup_image_size(const VisionEncoder& enc);

// one transformer graph's peak compute buffer over n_tokens (ggml-alloc reuses buffers): with flash attention the
// FFN peak 4 n (n_ff (x2 gated) + 3 n_embd) bytes, at least 4 n 5 n_embd; without it the f32 scores and their
// softmax over kv_len keys, 2 x 4 n kv_len heads, come on top. Read off the Gemma 3 4B clip log (test_vision.cpp).
uint64_t transformer_graph_peak_bytes(int64_t n_tokens, int n_embd, int n_ff, bool gated_ffn, int n_head,
                                      int64_t kv_len, bool flash_attn);

// one pass of a bidirectional transformer encoder (vision or audio tower) through the speed model: its weights read
// once, linear_params matmul parameters per position, attention over all positions in full_attn_layers and within
// `window` positions elsewhere; on the text request's device (one GPU, F16). Physics, not validated.
struct EncoderPass {
    uint64_t weights_bytes = 0;
    double linear_params = 0;          // matmul parameters one position passes through
    int n_layer = 0, n_head = 0, head_dim = 0;
    int full_attn_layers = 0;
    int window = 64;
};
bool encoder_pass_seconds(const Catalog& cat, const Model& text_model, const SimRequest& text, const EncoderPass& e,
                          int64_t n_positions, double& seconds, std::string& err);

// [SECTION] Estimate ---------------------------------------------------------------------------------------

struct VisionRequest {
    SimRequest text;                   // the text model's request (hardware, quant, context, -ub, flash attention)
    int images = 1;                    // images in the context at once
    int image_w = 0, image_h = 0;      // 0 = the encoder's native image_size square
};

struct VisionEstimate {
    VisionEncoder encoder;
    ImagePlan plan;                    // one image
    int64_t image_tokens_total = 0;    // images x plan.tokens (+ nothing else: marker tokens are text)
    int64_t n_ctx = 0;
    uint64_t kv_cache_bytes = 0;       // the text model's whole KV cache at -c (allocated either way)
    uint64_t image_kv_bytes = 0;       // the share of it the image tokens fill
    int warmup_size_px = 0;
    int64_t warmup_patches = 0;
    uint64_t gpu_compute_bytes = 0;    // clip's compute buffer on the GPU (warm-up graph, or this image's if larger)
    uint64_t cpu_compute_bytes = 0;    // the f32 input image on the CPU side (the same max)
    uint64_t gpu_total_bytes = 0;      // weights + GPU compute buffer (on GPU 0)
    std::string device;                // where they go ("GPU 0: <name>" or "host")
    double encode_gflop = 0;           // one image
    double encode_s = 0;               // one image, 0 when no hardware
    bool encode_ok = false;
    std::vector<std::string> warnings; // context overflow, ubatch below the image's tokens, ...
};

// what `req.images` images of req.image_w x req.image_h cost with `enc` next to `text_model`; false + err on bad
// input (no hardware is needed for memory; encode time needs req.text.memory.hardware)
bool estimate_vision(const Catalog& cat, const Model& text_model, const VisionEncoder& enc, const VisionRequest& req,
                     VisionEstimate& out, std::string& err);

}  // namespace llmsim
