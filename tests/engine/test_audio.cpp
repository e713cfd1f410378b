// Audio projectors (engine/audio/audio.h). Each rule is pinned to the llama.cpp function it follows (tools/mtmd at
// ggml-org/llama.cpp@0024aa7417efd50a7c2a79e049dfbbbceb0beaaf) with values worked out by hand from that source, and
// the mmproj weight layout is compared with one published file size it was not fitted on.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>

#include "catalog/catalog.h"
#include "io/gguf.h"
#include "audio/audio.h"
#include "mini_gguf.h"
#include "test_support.h"

using namespace llmsim;

namespace {
AudioEncoder encoder_of(const char* id) {
    const Model* m = cat().find_model(id);
    REQUIRE(m);
    AudioEncoder e;
    std::string err;
    REQUIRE(audio_encoder_for_model(*m, e, err));
    return e;
}
AudioEncoder synthetic(AudioProjector t, int stack) {
    AudioEncoder e;
    e.projector = t;
    e.n_layer = 32; e.n_embd = 1280; e.n_ff = 5120; e.n_head = 20; e.n_mel_bins = 128;
    e.stack_factor = stack;
    e.projection_dim = 2048;
    return e;
}

bool read(const std::vector<uint8_t>& bytes, GgufInfo& info, std::string& err) {
    GgufReadFn rd = [&](uint64_t o, void* dst, size_t n) -> size_t {
        if (o >= bytes.size()) return 0;
        const size_t k = std::min<size_t>(n, bytes.size() - (size_t)o);
        std::memcpy(dst, bytes.data() + o, k);
        return k;
    };
    return read_gguf(rd, info, err);
}
MiniGguf audio_header(const char* type, bool stack) {
    MiniGguf g;
    g.str("general.architecture", "clip").boolean("clip.has_audio_encoder", true).str("clip.projector_type", type)
        .u32("clip.audio.block_count", 32).u32("clip.audio.embedding_length", 1280).u32("clip.audio.feed_forward_length", 5120)
        .u32("clip.audio.attention.head_count", 20).u32("clip.audio.num_mel_bins", 128).u32("clip.audio.projection_dim", 3072);
    if (stack) g.u32("clip.audio.projector.stack_factor", 4);
    g.tensor("a.blk.0.attn_q.weight", 1280, 1280, 1).tensor("a.blk.0.attn_q.bias", 1280, 1, 0);
    return g;
}
}  // namespace

TEST_CASE("audio: whisper mel frames and 30 s chunks follow mtmd_audio_preprocessor_whisper", "[audio]") {
    // log_mel_spectrogram: input padded to 31 s (audio_chunk_len + 1), + 30 s of zeros + 2 x 200 reflective samples,
    // n_len = (n_padded - 400) / 160 + 1; preprocess keeps only whole 3000-frame chunks
    CHECK(audio_mel_frames(AudioProjector::Qwen2A, 10 * 16000) == (31 * 16000 + 30 * 16000) / 160 + 1);   // 6101
    CHECK(audio_mel_frames(AudioProjector::Qwen2A, 60 * 16000) == 9001);
    const AudioEncoder q = encoder_of("Qwen/Qwen2.5-Omni-7B");
    std::string err;
    AudioPlan p;
    // every clip up to 31 s becomes two chunks, the second silent (ggml-org/llama.cpp#26351 reports Voxtral encoding
    // a 2 s clip twice; the rule was read off mtmd-audio.cpp first, the issue confirms the symptom)
    for (double s : {0.5, 2.0, 10.0, 30.0, 31.0}) {
        REQUIRE(plan_audio(q, s, p, err));
        CHECK(p.chunks == 2);
    }
    // 59.98 s: 959,680 samples -> (959,680 + 480,000) / 160 + 1 = 8999 frames = 2 whole chunks (the rest is silence)
    REQUIRE(plan_audio(q, 59.98, p, err));
    CHECK(p.mel_frames == 8999);
    CHECK(p.chunks == 2);
    // 59.99 s: 9000 frames = 3 chunks, the third almost silent
    REQUIRE(plan_audio(q, 59.99, p, err));
    CHECK(p.chunks == 3);
    // 10 min: 9,600,000 samples -> 63,001 frames -> 21 chunks
    REQUIRE(plan_audio(q, 600, p, err));
    CHECK(p.mel_frames == 63001);
    CHECK(p.chunks == 21);
}

TEST_CASE("audio: tokens per 3000-frame chunk follow clip_n_output_tokens per projector type", "[audio]") {
    // PROJECTOR_TYPE_QWEN2A (Qwen2.5-Omni, Qwen2-Audio): 3000 / 2 (conv stride 2) / 2 (avg-pool) = 750
    CHECK(audio_chunk_tokens(encoder_of("Qwen/Qwen2.5-Omni-3B"), 3000) == 750);
    // PROJECTOR_TYPE_ULTRAVOX, stack factor 8: CLIP_ALIGN(3000, 8) / 8 = 375, / 2 = 187
    CHECK(audio_chunk_tokens(encoder_of("meta-llama/Llama-3.2-1B-Instruct"), 3000) == 187);
    // PROJECTOR_TYPE_VOXTRAL, stack factor 4 (convert_hf_to_gguf.py add_audio_stack_factor(4)) and avg-pool:
    // 3000 / 4 = 750, / 2 = 375, / 2 = 187 (llama.cpp#25496: mistral-common gives 375)
    CHECK(audio_chunk_tokens(synthetic(AudioProjector::Voxtral, 4), 3000) == 187);
    // PROJECTOR_TYPE_GLMA, merge factor 4: 3000 / 2 / 4 + 2 (BOI, EOI) = 377
    CHECK(audio_chunk_tokens(synthetic(AudioProjector::GlmA, 4), 3000) == 377);
    // PROJECTOR_TYPE_QWEN3A: three stride-2 conv2d, (n - 1) / 2 + 1: 3000 -> 1500 -> 750 -> 375
    CHECK(audio_chunk_tokens(synthetic(AudioProjector::Qwen3A, 0), 3000) == 375);
    CHECK(audio_chunk_tokens(synthetic(AudioProjector::Qwen3A, 0), 3001) == 376);
    // PROJECTOR_TYPE_MUSIC_FLAMINGO: avg-pool, no stacking = 750
    CHECK(audio_chunk_tokens(synthetic(AudioProjector::MusicFlamingo, 0), 3000) == 750);
    // PROJECTOR_TYPE_LFM2A: one conformer chunk of the whole clip; 10 s = 160,000 samples -> 160000 / 160 + 1 = 1001
    // frames (center padding) -> ((((1001 + 1) / 2) + 1) / 2 + 1) / 2 = 126
    const AudioEncoder lfm = synthetic(AudioProjector::Lfm2A, 0);
    std::string err;
    AudioPlan p;
    REQUIRE(plan_audio(lfm, 10.0, p, err));
    CHECK(p.chunks == 1);
    CHECK(p.mel_frames == 1001);
    CHECK(p.tokens == 126);
    // per request: Qwen2.5-Omni, 60 s = 3 chunks x 750 = 2250 tokens = 37.5 tokens per second of audio
    REQUIRE(plan_audio(encoder_of("Qwen/Qwen2.5-Omni-7B"), 60.0, p, err));
    CHECK(p.tokens == 2250);
    CHECK(p.tokens_per_s == Approx(37.5));
}

TEST_CASE("audio: mmproj weights at the F16 layout vs a published ultravox file size (held out)", "[audio]") {
    // mmproj-ultravox-v0_5-llama-3_2-1b-f16.gguf is 1,371,123,616 bytes (pinned with its sha256 at revision 5390c7c4 of
    // ggml-org/ultravox-v0_5-llama-3_2-1b-GGUF in a public repo, find_string id 70870841940). The layout was written
    // from the converter's rules before this size was looked up; the file also holds the GGUF header, so the tensors
    // are a little smaller than the file.
    const AudioEncoder u = encoder_of("meta-llama/Llama-3.2-1B-Instruct");
    CHECK_FALSE(u.weights_from_file);
    const double file_bytes = 1371123616.0;
    const double err = ((double)u.weights_bytes - file_bytes) / file_bytes;
    CHECK(err < 0.0);                 // below the file (header + the tensors)
    CHECK(std::fabs(err) < 0.005);    // -0.28 %: about the 3.84 MB of the position embeddings if they are F32 in the file
    // the Whisper-large encoder + conv stem is ~636.8 M parameters; the ultravox projector 10240 x 4096 + 2048 x 2048
    CHECK(u.n_params == 682609664 + 508928);
    // Qwen2.5-Omni's qwen2.5o file holds its vision tower as well, which clip_init loads too
    const AudioEncoder o = encoder_of("Qwen/Qwen2.5-Omni-7B");
    CHECK(o.vision_tower_bytes > 0);
    CHECK(o.weights_bytes > o.vision_tower_bytes);
}

TEST_CASE("audio: the estimate (KV share, warm-up compute buffer, encode time)", "[audio]") {
    const Model* m = cat().find_model("Qwen/Qwen2.5-Omni-7B");
    REQUIRE(m);
    AudioRequest r;
    r.text.memory.hardware = cat().find_hardware("rtx-4090");
    REQUIRE(r.text.memory.hardware);
    r.text.memory.n_ctx = 8192;
    r.text.memory.flash_attn = true;
    r.seconds = 60;
    r.clips = 1;
    AudioEstimate a;
    std::string err;
    REQUIRE(estimate_audio(cat(), *m, encoder_of("Qwen/Qwen2.5-Omni-7B"), r, a, err));
    CHECK(a.audio_tokens_total == 2250);
    CHECK((double)a.audio_kv_bytes == Approx((double)a.kv_cache_bytes * 2250.0 / 8192.0).epsilon(1e-9));
    // warm-up: 3000 frames -> 1500 positions; with flash attention the FFN peak 4 x 1500 x (5120 + 3 x 1280)
    CHECK(a.gpu_compute_bytes == 4ull * 1500 * (5120 + 3 * 1280));
    CHECK(a.cpu_compute_bytes == 3000ull * 128 * 4);
    CHECK(a.vision_compute_bytes > 0);
    CHECK(a.gpu_total_bytes == a.encoder.weights_bytes + a.gpu_compute_bytes + a.vision_compute_bytes);
    CHECK(a.encode_ok);
    CHECK(a.encode_s > 0);
    // without flash attention the f32 scores and softmax, 2 x 4 x 1500^2 x 20 heads, come on top
    r.text.memory.flash_attn = false;
    REQUIRE(estimate_audio(cat(), *m, encoder_of("Qwen/Qwen2.5-Omni-7B"), r, a, err));
    CHECK(a.gpu_compute_bytes == 4ull * 1500 * (5120 + 3 * 1280) + 2ull * 4 * 1500 * 1500 * 20);
    // the compute buffer is one chunk's whatever the clip length (warmup_audio_size = 3000)
    r.seconds = 3600;
    const uint64_t one_chunk = a.gpu_compute_bytes;
    REQUIRE(estimate_audio(cat(), *m, encoder_of("Qwen/Qwen2.5-Omni-7B"), r, a, err));
    CHECK(a.gpu_compute_bytes == one_chunk);
    // 3600 s: (57,600,000 + 480,000) / 160 + 1 = 363,001 frames = 121 chunks (a whole-30 s clip gets a silent one more)
    CHECK(a.plan.chunks == 121);
    bool ctx_warned = false;
    for (const std::string& w : a.warnings) ctx_warned |= w.find("raise -c") != std::string::npos;
    CHECK(ctx_warned);   // 90,000 tokens in an 8192 context
}

TEST_CASE("audio: bad input is refused with a reason", "[audio]") {
    const AudioEncoder q = encoder_of("Qwen/Qwen2.5-Omni-7B");
    std::string err;
    AudioPlan p;
    for (double s : {0.0, -1.0, std::nan(""), 1e9}) {
        err.clear();
        CHECK_FALSE(plan_audio(q, s, p, err));
        CHECK(err.find("audio length") != std::string::npos);
    }
    const Model* text = cat().find_model("google/gemma-3-1b-it");
    REQUIRE(text);
    AudioEncoder e;
    CHECK_FALSE(audio_encoder_for_model(*text, e, err));
    CHECK(err.find("no audio encoder") != std::string::npos);
    AudioRequest r;
    r.clips = -1;
    AudioEstimate a;
    CHECK_FALSE(estimate_audio(cat(), *cat().find_model("Qwen/Qwen2.5-Omni-7B"), q, r, a, err));
    CHECK(err.find("clips") != std::string::npos);
}

TEST_CASE("audio: the encoder from an mmproj GGUF header", "[audio]") {
    GgufInfo info;
    std::string err;
    AudioEncoder e;
    REQUIRE(read(audio_header("voxtral", true).build(), info, err));
    REQUIRE(audio_encoder_from_gguf(info, e, err));
    CHECK(e.projector == AudioProjector::Voxtral);
    CHECK(e.stack_factor == 4);
    CHECK(e.projection_dim == 3072);
    CHECK(e.weights_from_file);
    CHECK(e.weights_bytes == 1280ull * 1280 * 2 + 1280ull * 4);   // the F16 matrix + the F32 bias
    CHECK(e.n_params == 1280 * 1280 + 1280);
    // qwen2.5o (Qwen2.5-Omni's mixed file) is qwen2a for the audio clip_ctx
    REQUIRE(read(audio_header("qwen2.5o", false).build(), info, err));
    REQUIRE(audio_encoder_from_gguf(info, e, err));
    CHECK(e.projector == AudioProjector::Qwen2A);
    // ultravox / voxtral / glma require clip.audio.projector.stack_factor (load_hparams require_stack)
    REQUIRE(read(audio_header("ultravox", false).build(), info, err));
    CHECK_FALSE(audio_encoder_from_gguf(info, e, err));
    CHECK(err.find("stack_factor is missing") != std::string::npos);
    REQUIRE(read(audio_header("whisperx", false).build(), info, err));
    CHECK_FALSE(audio_encoder_from_gguf(info, e, err));
    CHECK(err.find("not modelled") != std::string::npos);
    // a vision-only mmproj has no audio encoder
    MiniGguf v;
    v.str("general.architecture", "clip").boolean("clip.has_vision_encoder", true).str("clip.projector_type", "gemma3")
        .tensor("v.blk.0.attn_q.weight", 1152, 1152, 1);
    REQUIRE(read(v.build(), info, err));
    CHECK_FALSE(audio_encoder_from_gguf(info, e, err));
    CHECK(err.find("no audio encoder") != std::string::npos);
}
