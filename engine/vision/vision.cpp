// Vision projectors (vision.h has the rules and their llama.cpp sources).
//
// [SECTION] Projector types
// [SECTION] Encoder table and parameter layout
// [SECTION] mmproj GGUF
// [SECTION] Image tokens (preprocessing + clip_n_output_tokens)
// [SECTION] Compute buffer, FLOPs and the estimate
#include "vision/vision.h"

#include <algorithm>
#include <cmath>

#include "memory/memory.h"
#include "runtime/command.h"
#include "speed/speed.h"
#include "runtime/speed_glue.h"
#include "vision/mmproj.h"

namespace llmsim {

// [SECTION] Projector types --------------------------------------------------------------------------------

namespace {

const ProjectorTypeInfo kProjectorTypes[] = {
    {ProjectorType::Gemma3, "gemma3", "fixed image_size square, (image_size / patch)^2 / n_merge^2 (n_merge 4)"},
    {ProjectorType::Qwen25VL, "qwen2.5vl_merger", "dynamic size: (w / (2 patch)) x (h / (2 patch)), 8 to 4096 tokens"},
    {ProjectorType::Pixtral, "pixtral", "dynamic size: rows x cols of (patch x n_merge) + one [IMG_BREAK] per row but the last, 8 to 1024 tokens"},
    {ProjectorType::Llama4, "llama4", "tiles of image_size: (image_size / patch)^2 / n_merge^2 per tile, grid up to 3x3 + an overview tile"},
};
static_assert(sizeof kProjectorTypes / sizeof kProjectorTypes[0] == (size_t)ProjectorType::Count,
              "one row per projector type");

}  // namespace

const ProjectorTypeInfo& projector_type_info(ProjectorType t) { return kProjectorTypes[(int)t]; }

bool projector_type_from_name(const std::string& name, ProjectorType& out) {
    for (const ProjectorTypeInfo& p : kProjectorTypes)
        if (name == p.gguf_name) { out = p.type; return true; }
    return false;
}

// [SECTION] Encoder table and parameter layout ---------------------------------------------------------------

namespace {

struct EncoderRow {
    const char* model_id;
    ProjectorType projector;
    int n_layer, n_embd, n_ff, n_head, patch_size, image_size, n_merge;
    bool gated_ffn;
    const char* source;
};

constexpr const char* kSiglipSrc =
    "AI-Hypercomputer/maxtext@e591f30cbbf217ed67ef71263ec0538239f9c3b8:src/maxtext/checkpoint_conversion/utils/"
    "hf_model_configs.py (gemma3_*_config.vision_config: SigLIP 27 x 1152, ffn 4304, 16 heads, patch 14, 896 px); "
    "n_merge 4: clip.cpp load_hparams PROJECTOR_TYPE_GEMMA3";
constexpr const char* kPixtralSrc =
    "mlc-ai/mlc-llm@79d603f085f50500e9509fa01785ffa7ecfaaa93:python/mlc_llm/model/model_preset.py (Mistral 3 pixtral "
    "vision_config: 24 x 1024, ffn 4096 silu, 16 heads, patch 14, 1540 px, spatial_merge_size 2); the same hparams "
    "in the Mistral-Small-3.2 mmproj load log of ggml-org/llama.cpp#16842";
constexpr const char* kLlama4Src =
    "AI-Hypercomputer/maxtext@e591f30cbbf217ed67ef71263ec0538239f9c3b8:src/maxtext/configs/base.yml (llama4 multi "
    "modal configs: 34 x 1408, ffn 5632, 16 heads, tile 336, patch 14, pixel_shuffle_ratio 0.5 = n_merge 2, "
    "projector 4096)";
constexpr const char* kQwen25Src =
    "Qwen2.5-VL vision_config as shipped (depth 32, hidden 1280, intermediate 3420 SwiGLU, 16 heads, patch 14, "
    "spatial_merge_size 2, fullatt_block_indexes every 8th); recalled from the Hugging Face config, not re-read";

constexpr const char* kQwenOmniVisionSrc =
    "Qwen2.5-Omni's vision tower is Qwen2.5-VL's ViT (transformers configuration_qwen2_5_omni.py "
    "Qwen2_5OmniVisionEncoderConfig: depth 32, intermediate 3420, 16 heads, patch 14, spatial_merge_size 2, "
    "fullatt_block_indexes 7/15/23/31; width 1280 as Qwen2.5-VL, not re-read); it ships in the qwen2.5o mmproj with "
    "the audio tower (engine/audio)";

const EncoderRow kEncoders[] = {
    {"google/gemma-3-4b-it", ProjectorType::Gemma3, 27, 1152, 4304, 16, 14, 896, 4, false, kSiglipSrc},
    {"google/gemma-3-12b-it", ProjectorType::Gemma3, 27, 1152, 4304, 16, 14, 896, 4, false, kSiglipSrc},
    {"google/gemma-3-27b-it", ProjectorType::Gemma3, 27, 1152, 4304, 16, 14, 896, 4, false, kSiglipSrc},
    {"mistralai/Mistral-Small-3.1-24B-Instruct-2503", ProjectorType::Pixtral, 24, 1024, 4096, 16, 14, 1540, 2, true, kPixtralSrc},
    {"mistralai/Mistral-Small-3.2-24B-Instruct-2506", ProjectorType::Pixtral, 24, 1024, 4096, 16, 14, 1540, 2, true, kPixtralSrc},
    {"meta-llama/Llama-4-Scout-17B-16E-Instruct", ProjectorType::Llama4, 34, 1408, 5632, 16, 14, 336, 2, false, kLlama4Src},
    {"meta-llama/Llama-4-Maverick-17B-128E-Instruct", ProjectorType::Llama4, 34, 1408, 5632, 16, 14, 336, 2, false, kLlama4Src},
    {"Qwen/Qwen2.5-VL-3B-Instruct", ProjectorType::Qwen25VL, 32, 1280, 3420, 16, 14, 0, 2, true, kQwen25Src},
    {"Qwen/Qwen2.5-VL-7B-Instruct", ProjectorType::Qwen25VL, 32, 1280, 3420, 16, 14, 0, 2, true, kQwen25Src},
    {"Qwen/Qwen2.5-VL-32B-Instruct", ProjectorType::Qwen25VL, 32, 1280, 3456, 16, 14, 0, 2, true, kQwen25Src},
    {"Qwen/Qwen2.5-VL-72B-Instruct", ProjectorType::Qwen25VL, 32, 1280, 3456, 16, 14, 0, 2, true, kQwen25Src},
    {"Qwen/Qwen2.5-Omni-7B", ProjectorType::Qwen25VL, 32, 1280, 3420, 16, 14, 0, 2, true, kQwenOmniVisionSrc},
    {"Qwen/Qwen2.5-Omni-3B", ProjectorType::Qwen25VL, 32, 1280, 3420, 16, 14, 0, 2, true, kQwenOmniVisionSrc},
};

// tensor elements of an mmproj file, split by the type ggml-org's conversions store them in: 2-D matrices F16,
// 1-D norms/biases F32, and Gemma 3's patch and position embeddings F32 (convert_hf_to_gguf.py
// Gemma3VisionModel.tensor_force_quant: ".embeddings." -> F32). Checked against two published mmproj load logs
// (test_vision.cpp).
ParamLayout encoder_layout(const VisionEncoder& e) {
    const int64_t E = e.n_embd, F = e.n_ff, T = e.projection_dim, p = e.patch_size, m = e.n_merge;
    ParamLayout l;
    const bool layer_norm = e.projector == ProjectorType::Gemma3 || e.projector == ProjectorType::Llama4;  // w + b
    const bool biases = e.projector != ProjectorType::Pixtral;
    // transformer blocks: q k v o, FFN (gated: gate up down), two norms, biases
    l.f16 += e.n_layer * (4 * E * E + (e.gated_ffn ? 3 : 2) * E * F);
    l.f32 += e.n_layer * ((layer_norm ? 4 : 2) * E + (biases ? 4 * E + F + E + (e.gated_ffn ? F : 0) : 0));
    const int64_t patch = 3 * p * p * E * (e.projector == ProjectorType::Qwen25VL ? 2 : 1);  // Qwen: 2 temporal slices
    switch (e.projector) {
        case ProjectorType::Gemma3: {
            const int64_t side = e.image_size / p;
            l.f32 += patch + E + side * side * E + 2 * E + E;     // patch (+bias), position, post-LN, soft-emb norm
            l.f16 += E * T;                                       // mm_input_projection
        } break;
        case ProjectorType::Pixtral:
            l.f16 += patch + (E * m * m) * E + E * T + T * T;     // patch conv, patch merger, linear_1, linear_2
            l.f32 += E + E;                                       // ln_pre, mm norm
            break;
        case ProjectorType::Llama4: {
            const int64_t side = e.image_size / p, shuffled = E * m * m;
            l.f16 += patch + (side * side + 1) * E + shuffled * 4096 + 4096 * 4096 + 4096 * T;  // + adapter MLP, proj
            l.f32 += E + 4 * E;                                   // class embedding, pre/post LN
        } break;
        case ProjectorType::Qwen25VL: {
            const int64_t merged = E * m * m;
            l.f16 += patch + merged * merged + merged * T;        // merger mlp.0, mlp.2
            l.f32 += E + merged + T;                              // ln_q, merger biases
        } break;
        case ProjectorType::Count: break;
    }
    return l;
}

void fill_weights_from_layout(VisionEncoder& e) {
    const ParamLayout l = encoder_layout(e);
    set_mmproj_weights(e, mmproj_weights_from_layout(l));
}

}  // namespace

bool vision_encoder_for_model(const Model& text_model, VisionEncoder& out, std::string& err) {
    for (const EncoderRow& r : kEncoders) {
        if (text_model.id != r.model_id) continue;
        out = VisionEncoder();
        out.projector = r.projector;
        out.n_layer = r.n_layer; out.n_embd = r.n_embd; out.n_ff = r.n_ff; out.n_head = r.n_head;
        out.patch_size = r.patch_size; out.image_size = r.image_size; out.n_merge = r.n_merge;
        out.gated_ffn = r.gated_ffn;
        out.projection_dim = text_model.hidden_size;
        out.source = r.source;
        fill_weights_from_layout(out);
        return true;
    }
    err = "'" + text_model.id + "' has no vision encoder in llmsim's table (Gemma 3 4B/12B/27B, Mistral Small 3.1/3.2, "
          "Llama 4 Scout/Maverick, Qwen2.5-VL, Qwen2.5-Omni); pass --mmproj FILE to read its projector";
    return false;
}

std::string vision_mmproj_file_name(const Model& m) { return "mmproj-" + gguf_file_name(m, "F16"); }

std::vector<std::string> vision_model_ids() {
    std::vector<std::string> ids;
    for (const EncoderRow& r : kEncoders) ids.push_back(r.model_id);
    return ids;
}

// [SECTION] mmproj GGUF ----------------------------------------------------------------------------------------

bool vision_encoder_from_gguf(const GgufInfo& info, VisionEncoder& out, std::string& err) {
    out = VisionEncoder();
    if (!mmproj_is_clip(info, err)) return false;
    const std::string* pt = info.get_string("clip.projector_type");
    if (!pt) pt = info.get_string("clip.vision.projector_type");
    if (!pt) { err = "mmproj: clip.projector_type is missing"; return false; }
    if (!projector_type_from_name(*pt, out.projector)) {
        err = "mmproj: projector type '" + *pt + "' is not modelled (llmsim knows gemma3, qwen2.5vl_merger, pixtral, llama4)";
        return false;
    }
    auto need = [&](const char* key, int& dst, int64_t lo, int64_t hi) { return mmproj_uint(info, key, dst, lo, hi, err); };
    int proj_dim = 0;
    if (!need("clip.vision.block_count", out.n_layer, 1, 1024) || !need("clip.vision.embedding_length", out.n_embd, 1, 65536) ||
        !need("clip.vision.feed_forward_length", out.n_ff, 1, 262144) ||
        !need("clip.vision.attention.head_count", out.n_head, 1, 1024) || !need("clip.vision.patch_size", out.patch_size, 1, 1024) ||
        !need("clip.vision.projection_dim", proj_dim, 1, 1 << 20))
        return false;
    if (out.n_embd % out.n_head != 0) { err = "mmproj: embedding_length is not a multiple of head_count"; return false; }
    std::optional<uint64_t> img = info.get_uint("clip.vision.image_size");
    out.image_size = img && *img <= 65536 ? (int)*img : 0;
    if (out.projector != ProjectorType::Qwen25VL && out.image_size < out.patch_size) {
        err = "mmproj: clip.vision.image_size is missing or smaller than the patch";
        return false;
    }
    out.projection_dim = proj_dim;
    // hparams.n_merge defaults per type (clip.cpp load_hparams), overridden by the file's keys
    out.n_merge = out.projector == ProjectorType::Gemma3 ? 4 : out.projector == ProjectorType::Llama4 ? 2 : 2;
    for (const char* k : {"clip.vision.projector.scale_factor", "clip.vision.spatial_merge_size"})
        if (std::optional<uint64_t> v = info.get_uint(k); v && *v >= 1 && *v <= 64) out.n_merge = (int)*v;
    out.gated_ffn = out.projector == ProjectorType::Pixtral || out.projector == ProjectorType::Qwen25VL;
    set_mmproj_weights(out, mmproj_weights_from_file(info));
    out.source = mmproj_source(info);
    return true;
}

// [SECTION] Image tokens (preprocessing + clip_n_output_tokens) ---------------------------------------------------

namespace {

// size kept within [min_px, max_px] pixels, each side a multiple of `align`, aspect ratio kept (Qwen2-VL
// image_processing smart_resize; clip.cpp's dynamic-resolution types resize to this before encoding)
void smart_resize(int w, int h, int align, int64_t min_px, int64_t max_px, int& out_w, int& out_h) {
    double bw = std::max(align, (int)std::lround((double)w / align) * align);
    double bh = std::max(align, (int)std::lround((double)h / align) * align);
    if (bw * bh > (double)max_px) {
        const double beta = std::sqrt((double)w * h / (double)max_px);
        bw = std::max<double>(align, std::floor(w / beta / align) * align);
        bh = std::max<double>(align, std::floor(h / beta / align) * align);
    } else if (bw * bh < (double)min_px) {
        const double beta = std::sqrt((double)min_px / ((double)w * h));
        bw = std::ceil(w * beta / align) * align;
        bh = std::ceil(h * beta / align) * align;
    }
    out_w = (int)bw;
    out_h = (int)bh;
}

// LLaVA select_best_resolution: the candidate keeping the most of the image's pixels, then the least padding
void best_grid(int w, int h, int tile, int max_side, int& cols, int& rows) {
    double best_eff = -1, best_waste = 0;
    for (int x = 1; x <= max_side; ++x)
        for (int y = 1; y <= max_side; ++y) {
            if (x == 1 && y == 1) continue;               // set_llava_uhd_res_candidates skips 1 x 1
            const double cw = (double)x * tile, ch = (double)y * tile;
            const double s = std::min(cw / w, ch / h);
            const double eff = std::min((double)w * s * h * s, (double)w * h), waste = cw * ch - eff;
            if (eff > best_eff || (eff == best_eff && waste < best_waste)) { best_eff = eff; best_waste = waste; cols = x; rows = y; }
        }
}

}  // namespace

int warmup_image_size(const VisionEncoder& e) {
    const int unit = e.patch_size * std::max(1, e.n_merge);
    switch (e.projector) {
        case ProjectorType::Qwen25VL: return 46 * unit;   // set_warmup_n_tokens(46*46)
        case ProjectorType::Pixtral: return 16 * unit;    // set_warmup_n_tokens(256)
        default: return e.image_size;                     // warmup_image_size = image_size
    }
}

bool plan_image(const VisionEncoder& e, int w, int h, ImagePlan& out, std::string& err) {
    out = ImagePlan();
    if (w < 1 || h < 1 || w > 16384 || h > 16384) { err = "image size: each side must be 1 to 16384 pixels"; return false; }
    if (e.patch_size < 1 || e.n_merge < 1) { err = "vision encoder: patch size and merge must be positive"; return false; }
    out.input_w = w;
    out.input_h = h;
    const int p = e.patch_size, m = e.n_merge, unit = p * m;
    switch (e.projector) {
        case ProjectorType::Gemma3: {                     // resized to the fixed square
            out.encoded_w = out.encoded_h = e.image_size;
            const int64_t side = e.image_size / p;
            out.patches_per_pass = side * side;
            out.tokens = (int)(out.patches_per_pass / ((int64_t)m * m));
        } break;
        case ProjectorType::Qwen25VL:                     // set_limit_image_tokens(8, 4096)
        case ProjectorType::Pixtral: {                    // set_limit_image_tokens(8, 1024)
            const int64_t area = (int64_t)unit * unit, max_tok = e.projector == ProjectorType::Qwen25VL ? 4096 : 1024;
            smart_resize(w, h, unit, 8 * area, max_tok * area, out.encoded_w, out.encoded_h);
            const int cols = out.encoded_w / unit, rows = out.encoded_h / unit;
            out.patches_per_pass = (int64_t)(out.encoded_w / p) * (out.encoded_h / p);
            out.tokens = cols * rows + (e.projector == ProjectorType::Pixtral ? rows - 1 : 0);
        } break;
        case ProjectorType::Llama4: {
            int cols = 1, rows = 1;
            best_grid(w, h, e.image_size, 3, cols, rows);
            out.tiles = cols * rows + 1;                  // the grid + one overview of the whole image
            out.encoded_w = out.encoded_h = e.image_size;
            const int64_t side = e.image_size / p;
            out.patches_per_pass = side * side + 1;       // + the class embedding
            out.tokens = (int)(out.tiles * (side * side / ((int64_t)m * m)));
        } break;
        case ProjectorType::Count: err = "vision encoder: no projector type"; return false;
    }
    return true;
}

// [SECTION] Compute buffer, FLOPs and the estimate ------------------------------------------------------------------

uint64_t transformer_graph_peak_bytes(int64_t n, int n_embd, int n_ff, bool gated_ffn, int n_head, int64_t kv_len,
                                      bool flash_attn) {
    const double ffn = (double)n_ff * (gated_ffn ? 2 : 1) + 3.0 * n_embd;
    double b = 4.0 * (double)n * std::max(ffn, 5.0 * n_embd);
    if (!flash_attn) b += 2.0 * 4.0 * (double)n * (double)kv_len * n_head;
    return (uint64_t)b;
}

namespace {

// clip's GPU compute buffer for one pass over n positions. With flash attention the peak is the FFN: the residual,
// the normed input, the up projection (gated: gate and up) and its output in f32 = 4 n (F (x2 gated) + 3 E) bytes;
// this reproduces the Gemma 3 4B warm-up log exactly (test_vision.cpp). Without flash attention the f32 KQ scores
// and their softmax, 2 x 4 n^2 heads, come on top (build_attn's ggml_soft_max_ext). Qwen2.5-VL adds its f16
// window mask, 2 n^2.
uint64_t pass_compute_bytes(const VisionEncoder& e, int64_t n, bool flash_attn) {
    uint64_t b = transformer_graph_peak_bytes(n, e.n_embd, e.n_ff, e.gated_ffn, e.n_head, n, flash_attn);
    if (e.projector == ProjectorType::Qwen25VL) b += (uint64_t)(2.0 * (double)n * n);
    return b;
}

// matmul parameters one position passes through (2 FLOP each)
double linear_params_per_position(const VisionEncoder& e) {
    return e.n_layer * (4.0 * e.n_embd * e.n_embd + (e.gated_ffn ? 3.0 : 2.0) * e.n_embd * e.n_ff);
}

// full-attention layers: all but Qwen2.5-VL, whose window layers attend within 112 px windows (64 positions) and
// every 8th layer attends to the whole image (fullatt_block_indexes)
int full_attention_layers(const VisionEncoder& e) {
    return e.projector == ProjectorType::Qwen25VL ? e.n_layer / 8 : e.n_layer;
}

double pass_flops(const VisionEncoder& e, int64_t n) {
    const int full = full_attention_layers(e), win = e.n_layer - full;
    const double attn = 4.0 * n * e.n_embd * ((double)full * n + (double)win * std::min<int64_t>(n, 64));
    return 2.0 * n * linear_params_per_position(e) + attn;
}

bool encode_time(const Catalog& cat, const Model& text_model, const VisionRequest& req, VisionEstimate& out,
                 std::string& err) {
    const VisionEncoder& e = out.encoder;
    EncoderPass pass;
    pass.weights_bytes = e.weights_bytes;
    pass.linear_params = linear_params_per_position(e);
    pass.n_layer = e.n_layer;
    pass.n_head = e.n_head;
    pass.head_dim = e.n_embd / e.n_head;
    pass.full_attn_layers = full_attention_layers(e);
    pass.window = 64;
    double s = 0;
    if (!encoder_pass_seconds(cat, text_model, req.text, pass, out.plan.patches_per_pass, s, err)) return false;
    out.encode_s = s * out.plan.tiles;
    return true;
}

}  // namespace

// the encoder as a speed-model scenario on the text model's device: weights F16, one GPU, bidirectional attention
// counted as twice the heads of the causal prefill term
bool encoder_pass_seconds(const Catalog& cat, const Model& text_model, const SimRequest& text, const EncoderPass& e,
                          int64_t n_positions, double& seconds, std::string& err) {
    SimRequest t = text;
    t.with_speed = false;
    Evaluation ev;
    SpeedScenario s;
    if (!evaluate(cat, text_model, t, ev, err) || !build_speed_scenario(text_model, t, ev, s, err)) return false;
    s.weight_bytes = s.weight_bytes_per_token = (double)e.weights_bytes;
    s.active_params = e.linear_params;
    s.n_layers = e.n_layer;
    s.n_heads = 2 * e.n_head;
    s.head_dim_qk = s.head_dim_v = e.head_dim;
    s.full_attn_layers = e.full_attn_layers;
    s.swa_layers = e.n_layer - e.full_attn_layers;
    s.swa_window = e.window;
    s.kv_bytes_per_token_full = s.kv_bytes_per_token_swa = 0;
    s.weight_class = WeightClass::F16;
    s.moe_experts = s.moe_experts_active = 0;
    s.moe_expert_bytes = 0;
    s.gpus = 1;
    s.offload_fraction = 0;
    s.ubatch = s.batch = (int)std::min<int64_t>(n_positions, 1 << 20);   // one graph per pass
    const SpeedResult r = estimate_prefill(s, default_speed_params(), n_positions, 0);
    if (!r.ok) { err = r.error; return false; }
    seconds = r.time_s;
    return true;
}

bool estimate_vision(const Catalog& cat, const Model& text_model, const VisionEncoder& enc, const VisionRequest& req,
                     VisionEstimate& out, std::string& err) {
    out = VisionEstimate();
    out.encoder = enc;
    if (req.images < 0 || req.images > 10000) { err = "images: must be 0 to 10000"; return false; }
    const int w = req.image_w > 0 ? req.image_w : std::max(enc.image_size, 896);
    const int h = req.image_h > 0 ? req.image_h : std::max(enc.image_size, 896);
    if (!plan_image(enc, w, h, out.plan, err)) return false;
    MemoryBreakdown mem;
    std::string e;
    if (!estimate_memory(cat, text_model, req.text.memory, mem, e)) { err = "text model: " + e; return false; }
    out.n_ctx = req.text.memory.n_ctx;
    out.kv_cache_bytes = mem.kv_cache_bytes;
    out.image_tokens_total = (int64_t)req.images * out.plan.tokens;
    if (out.n_ctx > 0)
        out.image_kv_bytes = (uint64_t)((double)mem.kv_cache_bytes * std::min<double>(1.0, (double)out.image_tokens_total / out.n_ctx));
    if (out.image_tokens_total > out.n_ctx / std::max(1, req.text.memory.n_parallel))
        out.warnings.push_back("the images' " + std::to_string(out.image_tokens_total) + " tokens exceed the context per sequence (" +
                               std::to_string(out.n_ctx / std::max(1, req.text.memory.n_parallel)) + "): raise -c");
    // Gemma 3 attends bidirectionally within an image (mtmd_decode_use_non_causal), so one image must fit one ubatch
    if (enc.projector == ProjectorType::Gemma3 && req.text.memory.n_ubatch < out.plan.tokens)
        out.warnings.push_back("-ub " + std::to_string(req.text.memory.n_ubatch) + " is below one image's " +
                               std::to_string(out.plan.tokens) + " tokens; llama.cpp needs the whole image in one ubatch (non-causal)");
    const int wu = warmup_image_size(enc);
    ImagePlan wp;
    if (!plan_image(enc, wu, wu, wp, err)) return false;
    out.warmup_size_px = wu;
    out.warmup_patches = wp.patches_per_pass;
    out.gpu_compute_bytes = pass_compute_bytes(enc, std::max(wp.patches_per_pass, out.plan.patches_per_pass), req.text.memory.flash_attn);
    // a larger image than the warm-up's grows the buffers at encode time (ggml_backend_sched_alloc_graph in
    // clip_image_batch_encode, ggml-org/llama.cpp#17695), so the peak is the larger of the two
    const uint64_t pixels = std::max<uint64_t>((uint64_t)wu * wu, (uint64_t)out.plan.encoded_w * out.plan.encoded_h);
    out.cpu_compute_bytes = pixels * 3 * 4;              // inp_raw, f32 RGB
    out.gpu_total_bytes = enc.weights_bytes + out.gpu_compute_bytes;
    const Hardware* hw = req.text.memory.hardware;
    out.device = hw && hw->kind != HardwareKind::Cpu ? "GPU 0 (" + hw->name + ")" : "host";
    out.encode_gflop = pass_flops(enc, out.plan.patches_per_pass) * out.plan.tiles / 1e9;
    if (hw) {
        std::string te;
        out.encode_ok = encode_time(cat, text_model, req, out, te);
        if (!out.encode_ok) out.warnings.push_back("no encode time: " + te);
    }
    return true;
}

}  // namespace llmsim
