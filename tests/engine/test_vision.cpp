// Vision projectors (engine/vision/vision.h). Each rule is pinned to the llama.cpp function it follows
// (tools/mtmd/clip.cpp at ggml-org/llama.cpp@0024aa7417efd50a7c2a79e049dfbbbceb0beaaf) with hand-computed
// values, and the weights and compute buffer are compared with published mmproj load logs.
#include <catch2/catch.hpp>

#include <cstring>

#include "catalog/catalog.h"
#include "mini_gguf.h"
#include "io/gguf.h"
#include "vision/vision.h"
#include "test_support.h"

using namespace llmsim;

namespace {
VisionEncoder encoder_of(const char* id) {
    const Model* m = cat().find_model(id);
    REQUIRE(m);
    VisionEncoder e;
    std::string err;
    REQUIRE(vision_encoder_for_model(*m, e, err));
    return e;
}
double mib(uint64_t b) { return (double)b / (1024.0 * 1024.0); }

}  // namespace

TEST_CASE("vision: image tokens follow clip_n_output_tokens per projector type", "[vision]") {
    std::string err;
    ImagePlan p;
    // PROJECTOR_TYPE_GEMMA3: the image is resized to 896 x 896; (896/14)^2 = 4096 patches / n_merge^2 (4^2) = 256
    const VisionEncoder g = encoder_of("google/gemma-3-27b-it");
    REQUIRE(plan_image(g, 1920, 1080, p, err));
    CHECK(p.tokens == 256);
    CHECK(p.patches_per_pass == 4096);
    REQUIRE(plan_image(g, 200, 3000, p, err));
    CHECK(p.tokens == 256);
    // PROJECTOR_TYPE_PIXTRAL (Mistral Small 3.1): set_limit_image_tokens(8, 1024) caps pixels at 1024 x 28^2 =
    // 802816; 1024 x 1024 rounds to 1036^2 (too many), so it scales by 1024/896 and floors to 896 x 896 = 32 x 32
    // merged patches + 31 [IMG_BREAK] tokens
    const VisionEncoder px = encoder_of("mistralai/Mistral-Small-3.1-24B-Instruct-2503");
    REQUIRE(plan_image(px, 1024, 1024, p, err));
    CHECK(p.encoded_w == 896);
    CHECK(p.tokens == 32 * 32 + 31);
    // PROJECTOR_TYPE_LLAMA4: 336 px tiles, (336/14)^2 / 2^2 = 144 tokens each; the 1 x 1 grid is not a candidate
    // (set_llava_uhd_res_candidates skips it), so a small image gets a 1 x 2 grid + the overview = 3 x 144
    const VisionEncoder l4 = encoder_of("meta-llama/Llama-4-Scout-17B-16E-Instruct");
    REQUIRE(plan_image(l4, 336, 336, p, err));
    CHECK(p.tiles == 3);
    CHECK(p.tokens == 432);
    REQUIRE(plan_image(l4, 1008, 1008, p, err));    // exactly a 3 x 3 grid + overview
    CHECK(p.tiles == 10);
    CHECK(p.tokens == 1440);
    CHECK_FALSE(plan_image(g, 0, 100, p, err));
    CHECK(err.find("1 to 16384") != std::string::npos);
}

TEST_CASE("vision: Qwen2.5-VL dynamic resolution, 14 px patches and 2x2 merge (from an mmproj header)", "[vision]") {
    MiniGguf w;
    w.str("general.architecture", "clip").str("clip.projector_type", "qwen2.5vl_merger")
        .u32("clip.vision.block_count", 32).u32("clip.vision.embedding_length", 1280)
        .u32("clip.vision.feed_forward_length", 3420).u32("clip.vision.attention.head_count", 16)
        .u32("clip.vision.patch_size", 14).u32("clip.vision.projection_dim", 3584)
        .tensor("v.patch_embd.weight", 14 * 14 * 3, 1280, 1).tensor("v.blk.0.ln1.weight", 1280, 1, 0);
    const std::vector<uint8_t> file = w.build();
    GgufInfo info;
    std::string err;
    REQUIRE(read_gguf_buffer(file.data(), file.size(), info, err));
    VisionEncoder q;
    REQUIRE(vision_encoder_from_gguf(info, q, err));
    CHECK(q.projector == ProjectorType::Qwen25VL);
    CHECK(q.n_merge == 2);                           // clip.cpp default for QWEN25VL without spatial_merge_size
    CHECK(q.weights_from_file);
    CHECK(q.weights_bytes == info.tensor_data_bytes);   // the file's real tensor types, not a rule
    ImagePlan p;
    // (w / 28) x (h / 28) after smart_resize: 1920 x 1080 rounds to 1932 x 1092 (69 x 39), within 4096 x 784 px
    REQUIRE(plan_image(q, 1920, 1080, p, err));
    CHECK(p.encoded_w == 1932);
    CHECK(p.encoded_h == 1092);
    CHECK(p.tokens == 69 * 39);
    CHECK(p.patches_per_pass == 138 * 78);
    // set_warmup_n_tokens(46*46): the compute buffer is reserved for a 1288 x 1288 image
    CHECK(warmup_image_size(q) == 1288);
    // a tiny image is scaled up to set_limit_image_tokens' minimum of 8 tokens
    REQUIRE(plan_image(q, 20, 20, p, err));
    CHECK(p.tokens >= 8);
}

TEST_CASE("vision: mmproj weights by ggml-org's layout match two published load logs", "[vision]") {
    // ggml-org/gemma-3-4b-it-GGUF mmproj, llama.cpp log quoted in ggml-org/llama.cpp#22790:
    // "load_hparams: model size: 811.79 MiB"
    CHECK(mib(encoder_of("google/gemma-3-4b-it").weights_bytes) == Approx(811.79).margin(0.01));
    // Mistral-Small-3.2-24B mmproj, llama.cpp log quoted in ggml-org/llama.cpp#16842: "model size: 837.36 MiB"
    CHECK(mib(encoder_of("mistralai/Mistral-Small-3.2-24B-Instruct-2506").weights_bytes) == Approx(837.36).margin(0.05));
    std::string err;
    VisionEncoder e;
    CHECK_FALSE(vision_encoder_for_model(*cat().find_model("google/gemma-3-1b-it"), e, err));   // text only
    CHECK(err.find("--mmproj") != std::string::npos);
}

TEST_CASE("vision: clip's warm-up compute buffer reproduces the Gemma 3 4B log", "[vision]") {
    // same log (llama.cpp#22790, CUDA, flash attention enabled, warm-up 896 x 896):
    // "CUDA0 compute buffer size = 121.25 MiB", "CPU compute buffer size = 9.19 MiB". The GPU rule
    // 4 n (n_ff + 3 n_embd) was read off this log, so this pins the rule; it is not an independent check.
    const Model* m = cat().find_model("google/gemma-3-4b-it");
    VisionRequest r;
    r.text.memory.n_ctx = 8192;
    r.text.memory.file_type = "Q4_K_M";
    VisionEstimate v;
    std::string err;
    REQUIRE(estimate_vision(cat(), *m, encoder_of("google/gemma-3-4b-it"), r, v, err));
    CHECK(v.warmup_size_px == 896);
    CHECK(mib(v.gpu_compute_bytes) == Approx(121.25).margin(0.01));
    CHECK(mib(v.cpu_compute_bytes) == Approx(9.19).margin(0.01));
    // without flash attention the f32 scores of 16 heads x 4096^2 (and their softmax) come on top
    r.text.memory.flash_attn = false;
    VisionEstimate nf;
    REQUIRE(estimate_vision(cat(), *m, encoder_of("google/gemma-3-4b-it"), r, nf, err));
    CHECK(nf.gpu_compute_bytes - v.gpu_compute_bytes == 2ull * 4 * 4096 * 4096 * 16);
}

TEST_CASE("vision: image tokens fill the KV cache, context and ubatch checks, encode time", "[vision]") {
    const Model* m = cat().find_model("google/gemma-3-12b-it");
    VisionRequest r;
    r.text.memory.n_ctx = 4096;
    r.text.memory.file_type = "Q4_K_M";
    r.text.memory.hardware = cat().find_hardware("rtx-4090");
    REQUIRE(r.text.memory.hardware);
    r.images = 4;
    VisionEstimate v;
    std::string err;
    REQUIRE(estimate_vision(cat(), *m, encoder_of("google/gemma-3-12b-it"), r, v, err));
    CHECK(v.image_tokens_total == 1024);
    CHECK(v.image_kv_bytes == (uint64_t)((double)v.kv_cache_bytes * 1024 / 4096));
    CHECK(v.warnings.empty());
    CHECK(v.encode_ok);
    CHECK(v.encode_s > 0);
    CHECK(v.encode_s < 5);
    r.images = 20;                                   // 5120 tokens > -c 4096
    r.text.memory.n_ubatch = 128;                    // below one image's 256 tokens
    REQUIRE(estimate_vision(cat(), *m, encoder_of("google/gemma-3-12b-it"), r, v, err));
    REQUIRE(v.warnings.size() == 2);
    CHECK(v.warnings[0].find("exceed the context") != std::string::npos);
    CHECK(v.warnings[1].find("one ubatch") != std::string::npos);
    r.images = -1;
    CHECK_FALSE(estimate_vision(cat(), *m, encoder_of("google/gemma-3-12b-it"), r, v, err));
}

TEST_CASE("vision: bad mmproj headers are refused with a reason", "[vision]") {
    std::string err;
    GgufInfo info;
    VisionEncoder e;
    MiniGguf text;
    text.str("general.architecture", "llama");
    std::vector<uint8_t> f = text.build();
    REQUIRE(read_gguf_buffer(f.data(), f.size(), info, err));
    CHECK_FALSE(vision_encoder_from_gguf(info, e, err));
    CHECK(err.find("not an mmproj") != std::string::npos);
    MiniGguf other;
    other.str("general.architecture", "clip").str("clip.projector_type", "resampler");
    f = other.build();
    REQUIRE(read_gguf_buffer(f.data(), f.size(), info, err));
    CHECK_FALSE(vision_encoder_from_gguf(info, e, err));
    CHECK(err.find("not modelled") != std::string::npos);
    MiniGguf missing;
    missing.str("general.architecture", "clip").str("clip.projector_type", "gemma3");
    f = missing.build();
    REQUIRE(read_gguf_buffer(f.data(), f.size(), info, err));
    CHECK_FALSE(vision_encoder_from_gguf(info, e, err));
    CHECK(err.find("block_count is missing") != std::string::npos);
}
