// Audio projectors (audio.h has the rules and their llama.cpp sources).
//
// [SECTION] Projector types
// [SECTION] Encoder table and parameter layout
// [SECTION] mmproj GGUF
// [SECTION] Mel frames, chunks and tokens
// [SECTION] Compute buffer, FLOPs and the estimate
#include "audio/audio.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "memory/memory.h"
#include "vision/mmproj.h"
#include "vision/vision.h"

namespace llmsim {

// [SECTION] Projector types --------------------------------------------------------------------------------

namespace {

const AudioProjectorInfo kAudioProjectors[] = {
    {AudioProjector::Ultravox, "ultravox", true, "whisper: ceil(n / stack_factor) / 2 (stack frames, conv stride 2)"},
    {AudioProjector::Qwen2A, "qwen2a", true, "whisper: n / 2 / 2 (conv stride 2, avg-pool 2)"},
    {AudioProjector::Qwen3A, "qwen3a", true, "three stride-2 conv2d: n -> (n - 1) / 2 + 1, three times"},
    {AudioProjector::Voxtral, "voxtral", true, "whisper: ceil(n / stack_factor) / 2 / 2 (stack frames, conv stride 2, avg-pool 2)"},
    {AudioProjector::GlmA, "glma", true, "whisper: n / 2 / stack_factor + 2 (BOI and EOI embeddings)"},
    {AudioProjector::MusicFlamingo, "musicflamingo", true, "whisper: n / 2 / 2 (conv stride 2, avg-pool 2)"},
    {AudioProjector::Lfm2A, "lfm2a", false, "conformer: ((((n + 1) / 2 + 1) / 2) + 1) / 2 (three stride-2 convs)"},
};
static_assert(sizeof kAudioProjectors / sizeof kAudioProjectors[0] == (size_t)AudioProjector::Count,
              "one row per audio projector type");

}  // namespace

const AudioProjectorInfo& audio_projector_info(AudioProjector t) { return kAudioProjectors[(int)t]; }

bool audio_projector_from_name(const std::string& name, AudioProjector& out) {
    if (name == "qwen2.5o") { out = AudioProjector::Qwen2A; return true; }   // clip.cpp: QWEN25O audio ctx = QWEN2A
    for (const AudioProjectorInfo& p : kAudioProjectors)
        if (name == p.gguf_name) { out = p.type; return true; }
    return false;
}

// [SECTION] Encoder table and parameter layout ---------------------------------------------------------------

namespace {

struct AudioRow {
    const char* model_id;
    AudioProjector projector;
    int n_layer, n_embd, n_ff, n_head, n_mel_bins, stack_factor;
    int64_t proj_hidden;               // 0: the text hidden size (Voxtral) or none (Qwen2A)
    const char* mmproj_file;
    const char* source;
};

constexpr const char* kQwenOmniAudioSrc =
    "huggingface/transformers configuration_qwen2_5_omni.py Qwen2_5OmniAudioEncoderConfig (num_mel_bins 128, "
    "encoder_layers 32, encoder_attention_heads 20, encoder_ffn_dim 5120, d_model 1280, max_source_positions 1500, "
    "output_dim 3584 for 7B / 2048 for 3B); projector qwen2a: avg-pool 2 + one linear (clip.cpp load_tensors "
    "PROJECTOR_TYPE_QWEN2A: mm_fc weight + bias)";
constexpr const char* kUltravoxSrc =
    "ggml-org/ultravox-v0_5-llama-3_*-GGUF (the mmproj runs with Meta's own Llama 3.x Instruct, llama.cpp#13623); "
    "encoder Whisper-large-v3-turbo (32 x 1280, 20 heads, ffn 5120, 128 mel); stack_factor 8 and projector hidden "
    "4096 (SwiGLU halves it) recalled from fixie-ai's ultravox config, not re-read";

const AudioRow kAudioRows[] = {
    {"Qwen/Qwen2.5-Omni-7B", AudioProjector::Qwen2A, 32, 1280, 5120, 20, 128, 0, 0, "mmproj-Qwen2.5-Omni-7B-f16.gguf", kQwenOmniAudioSrc},
    {"Qwen/Qwen2.5-Omni-3B", AudioProjector::Qwen2A, 32, 1280, 5120, 20, 128, 0, 0, "mmproj-Qwen2.5-Omni-3B-f16.gguf", kQwenOmniAudioSrc},
    {"meta-llama/Llama-3.2-1B-Instruct", AudioProjector::Ultravox, 32, 1280, 5120, 20, 128, 8, 4096, "mmproj-ultravox-v0_5-llama-3_2-1b-f16.gguf", kUltravoxSrc},
    {"meta-llama/Llama-3.1-8B-Instruct", AudioProjector::Ultravox, 32, 1280, 5120, 20, 128, 8, 4096, "mmproj-ultravox-v0_5-llama-3_1-8b-f16.gguf", kUltravoxSrc},
};

// tensor elements of a Whisper-encoder mmproj (the ggml-org F16 conversions): matrices and conv kernels F16, norms and
// biases F32. Whisper has no k bias (whisper-enc.cpp asserts !k_b). Checked against one published file size
// (test_audio.cpp).
ParamLayout whisper_layout(const AudioEncoder& e) {
    const int64_t E = e.n_embd, F = e.n_ff, T = e.projection_dim, M = e.n_mel_bins, s = std::max(1, e.stack_factor);
    ParamLayout l;
    l.f16 += 3 * M * E + 3 * E * E + 1500 * E;                   // conv1, conv2 (kernel 3), position embeddings
    l.f32 += 2 * E + 2 * E;                                       // conv biases, post-LN
    l.f16 += e.n_layer * (4 * E * E + 2 * E * F);                 // q k v o, ffn up/down
    l.f32 += e.n_layer * (3 * E + 4 * E + F + E);                 // q v o biases, ln1 + ln2 (w + b), ffn biases
    const int64_t H = e.proj_hidden > 0 ? e.proj_hidden : T;
    switch (e.projector) {
        case AudioProjector::Ultravox:                            // norm_pre, mm_1 (swiglu halves), norm_mid, mm_2
            l.f32 += E * s + H / 2;
            l.f16 += E * s * H + (H / 2) * T;
            break;
        case AudioProjector::Voxtral:                             // mm_1 (stacked -> T), mm_2 (T -> T), no biases
            l.f16 += E * s * H + H * T;
            break;
        case AudioProjector::Qwen2A:                              // mm_fc with bias
            l.f16 += E * T;
            l.f32 += T;
            break;
        case AudioProjector::GlmA:                                // norm_pre, mm_1, mm_2 with biases, boi/eoi
            l.f32 += 2 * E + H + T + 2 * T;
            l.f16 += E * s * H + H * T;
            break;
        case AudioProjector::MusicFlamingo:                       // mm_1, mm_2 with biases
            l.f32 += H + T;
            l.f16 += E * H + H * T;
            break;
        default: break;
    }
    return l;
}

void fill_weights_from_layout(AudioEncoder& e) {
    const ParamLayout l = whisper_layout(e);
    set_mmproj_weights(e, mmproj_weights_from_layout(l));
}

}  // namespace

bool audio_encoder_for_model(const Model& text_model, AudioEncoder& out, std::string& err) {
    for (const AudioRow& r : kAudioRows) {
        if (text_model.id != r.model_id) continue;
        out = AudioEncoder();
        out.projector = r.projector;
        out.n_layer = r.n_layer; out.n_embd = r.n_embd; out.n_ff = r.n_ff; out.n_head = r.n_head;
        out.n_mel_bins = r.n_mel_bins; out.stack_factor = r.stack_factor;
        out.projection_dim = text_model.hidden_size;
        out.proj_hidden = r.proj_hidden > 0 ? r.proj_hidden : (r.projector == AudioProjector::Voxtral ? text_model.hidden_size : 0);
        out.mmproj_file = r.mmproj_file;
        out.source = r.source;
        fill_weights_from_layout(out);
        // a mixed file (Qwen2.5-Omni's qwen2.5o) holds the vision tower too, and clip_init loads both contexts
        VisionEncoder v;
        std::string verr;
        if (vision_encoder_for_model(text_model, v, verr)) {
            out.vision_tower_bytes = v.weights_bytes;
            out.mmproj_file = vision_mmproj_file_name(text_model);    // the one file (the vision section names it so)
            out.weights_bytes += v.weights_bytes;
            out.n_params += v.n_params;
            out.weights_types += "; + the vision tower in the same file, " + std::to_string(v.n_params / 1000000) +
                                 "M params (loaded by clip_init too)";
        }
        return true;
    }
    err = "'" + text_model.id + "' has no audio encoder in llmsim's table (Qwen2.5-Omni 3B/7B, Ultravox v0.5 on "
          "Llama 3.2 1B / 3.1 8B); pass --mmproj FILE to read its projector";
    return false;
}

std::vector<std::string> audio_model_ids() {
    std::vector<std::string> ids;
    for (const AudioRow& r : kAudioRows) ids.push_back(r.model_id);
    return ids;
}

// [SECTION] mmproj GGUF ----------------------------------------------------------------------------------------

bool audio_encoder_from_gguf(const GgufInfo& info, AudioEncoder& out, std::string& err) {
    out = AudioEncoder();
    if (!mmproj_is_clip(info, err)) return false;
    const std::optional<uint64_t> has_audio = info.get_uint("clip.has_audio_encoder");
    if (!has_audio || *has_audio == 0) { err = "mmproj: the file has no audio encoder (clip.has_audio_encoder)"; return false; }
    const std::string* pt = info.get_string("clip.audio.projector_type");    // mixed files (KEY_AUDIO_PROJ_TYPE)
    if (!pt) pt = info.get_string("clip.projector_type");
    if (!pt) { err = "mmproj: clip.projector_type is missing"; return false; }
    if (!audio_projector_from_name(*pt, out.projector)) {
        err = "mmproj: audio projector type '" + *pt + "' is not modelled (llmsim knows ultravox, qwen2a, qwen2.5o, "
              "qwen3a, voxtral, glma, musicflamingo, lfm2a)";
        return false;
    }
    auto need = [&](const char* key, int& dst, int64_t lo, int64_t hi) { return mmproj_uint(info, key, dst, lo, hi, err); };
    int proj_dim = 0;
    if (!need("clip.audio.block_count", out.n_layer, 1, 1024) || !need("clip.audio.embedding_length", out.n_embd, 1, 65536) ||
        !need("clip.audio.feed_forward_length", out.n_ff, 1, 262144) ||
        !need("clip.audio.attention.head_count", out.n_head, 1, 1024) ||
        !need("clip.audio.num_mel_bins", out.n_mel_bins, 1, 1024) || !need("clip.audio.projection_dim", proj_dim, 1, 1 << 20))
        return false;
    if (out.n_embd % out.n_head != 0) { err = "mmproj: embedding_length is not a multiple of head_count"; return false; }
    const AudioProjector t = out.projector;
    const bool needs_stack = t == AudioProjector::Ultravox || t == AudioProjector::Voxtral || t == AudioProjector::GlmA;
    if (needs_stack && !need("clip.audio.projector.stack_factor", out.stack_factor, 1, 64)) return false;  // required there
    out.projection_dim = proj_dim;
    set_mmproj_weights(out, mmproj_weights_from_file(info));
    out.source = mmproj_source(info);
    return true;
}

// [SECTION] Mel frames, chunks and tokens ---------------------------------------------------------------------

int64_t audio_mel_frames(AudioProjector t, int64_t n_samples) {
    if (!audio_projector_info(t).whisper_chunks) {
        // conformer: n_fft 512, center padding of 256 each side -> (n + 512 - 512) / hop + 1
        return n_samples / kAudioHop + 1;
    }
    // whisper: shorter input padded to audio_chunk_len + 1 = 31 s; then 30 s of zeros + 2 x 200 reflective samples;
    // n_len = (n_padded - frame_size 400) / hop + 1
    const int64_t n = std::max<int64_t>(n_samples, (int64_t)kAudioSampleRate * 31);
    return (n + (int64_t)kAudioSampleRate * 30) / kAudioHop + 1;
}

int64_t audio_chunk_tokens(const AudioEncoder& e, int64_t n) {
    const int64_t s = std::max(1, e.stack_factor);
    switch (e.projector) {
        case AudioProjector::Ultravox: return ((n + s - 1) / s) / 2;
        case AudioProjector::Voxtral: return ((n + s - 1) / s) / 2 / 2;
        case AudioProjector::Qwen2A:
        case AudioProjector::MusicFlamingo: return n / 2 / 2;
        case AudioProjector::Qwen3A: {
            for (int i = 0; i < 3; ++i) n = (n - 1) / 2 + 1;
            return n;
        }
        case AudioProjector::GlmA: return n / 2 / s + 2;
        case AudioProjector::Lfm2A: return ((((n + 1) / 2) + 1) / 2 + 1) / 2;
        case AudioProjector::Count: break;
    }
    return 0;
}

bool plan_audio(const AudioEncoder& e, double seconds, AudioPlan& out, std::string& err) {
    out = AudioPlan();
    if (!(seconds >= 0.01 && seconds <= kAudioMaxSeconds)) {
        err = "audio length: must be 0.01 to 14400 seconds (4 h)";
        return false;
    }
    if (e.projector == AudioProjector::Count) { err = "audio encoder: no projector type"; return false; }
    if (e.stack_factor < 0) { err = "audio encoder: stack factor must not be negative"; return false; }
    out.seconds = seconds;
    out.samples = (int64_t)std::llround(seconds * kAudioSampleRate);
    out.mel_frames = audio_mel_frames(e.projector, out.samples);
    if (audio_projector_info(e.projector).whisper_chunks) {
        out.chunks = (int)(out.mel_frames / kAudioChunkFrames);     // the last incomplete chunk is dropped
        out.frames_per_chunk = kAudioChunkFrames;
    } else {
        out.chunks = 1;
        out.frames_per_chunk = out.mel_frames;
    }
    out.tokens_per_chunk = audio_chunk_tokens(e, out.frames_per_chunk);
    out.tokens = out.chunks * out.tokens_per_chunk;
    out.tokens_per_s = (double)out.tokens / seconds;
    return true;
}

// [SECTION] Compute buffer, FLOPs and the estimate ------------------------------------------------------------------

namespace {

// encoder positions of one chunk: whisper's conv stride 2 (1500 for 3000 frames); the conformer subsamples 8x
int64_t encoder_positions(const AudioEncoder& e, int64_t frames) {
    return audio_projector_info(e.projector).whisper_chunks ? frames / 2 : audio_chunk_tokens(e, frames);
}

// matmul parameters one encoder position passes through: the transformer, plus the two conv kernels (conv1 runs on
// two mel frames per position)
double linear_params_per_position(const AudioEncoder& e) {
    const double E = e.n_embd;
    return e.n_layer * (4.0 * E * E + 2.0 * E * e.n_ff) + 2.0 * 3.0 * e.n_mel_bins * E + 3.0 * E * E;
}

uint64_t chunk_compute_bytes(const AudioEncoder& e, int64_t frames, bool flash_attn) {
    const int64_t n = encoder_positions(e, frames);
    const uint64_t tr = transformer_graph_peak_bytes(n, e.n_embd, e.n_ff, false, e.n_head, n, flash_attn);
    // the conv stage: f32 mel in, conv1 out (frames x E), conv2's f16 im2col (3 E x n) and its f32 out
    const double conv = 4.0 * frames * e.n_mel_bins + 4.0 * frames * e.n_embd + 2.0 * 3.0 * e.n_embd * n + 4.0 * n * e.n_embd;
    return std::max<uint64_t>(tr, (uint64_t)conv);
}

}  // namespace

bool estimate_audio(const Catalog& cat, const Model& text_model, const AudioEncoder& enc, const AudioRequest& req,
                    AudioEstimate& out, std::string& err) {
    out = AudioEstimate();
    out.encoder = enc;
    if (req.clips < 0 || req.clips > 1000) { err = "audio clips: must be 0 to 1000"; return false; }
    if (!plan_audio(enc, req.seconds, out.plan, err)) return false;
    MemoryBreakdown mem;
    std::string e;
    if (!estimate_memory(cat, text_model, req.text.memory, mem, e)) { err = "text model: " + e; return false; }
    out.n_ctx = req.text.memory.n_ctx;
    out.kv_cache_bytes = mem.kv_cache_bytes;
    out.audio_tokens_total = (int64_t)req.clips * out.plan.tokens;
    if (out.n_ctx > 0)
        out.audio_kv_bytes = (uint64_t)((double)mem.kv_cache_bytes * std::min<double>(1.0, (double)out.audio_tokens_total / out.n_ctx));
    const int64_t per_seq = out.n_ctx / std::max(1, req.text.memory.n_parallel);
    if (out.audio_tokens_total > per_seq)
        out.warnings.push_back("the audio's " + std::to_string(out.audio_tokens_total) + " tokens exceed the context per sequence (" +
                               std::to_string(per_seq) + "): raise -c");
    const bool whisper = audio_projector_info(enc.projector).whisper_chunks;
    if (whisper && req.seconds <= 31.0)
        out.warnings.push_back("llama.cpp encodes a second, silent 30 s chunk for clips up to 31 s (mtmd-audio.cpp pads to "
                               "31 s and appends 30 s of zeros; ggml-org/llama.cpp#26351), so this clip costs 2 chunks");
    if (enc.projector == AudioProjector::Voxtral)
        out.warnings.push_back("llama.cpp avg-pools Voxtral's audio embeddings (clip-model.h audio_has_avgpool), giving half "
                               "the tokens mistral-common / vLLM give (375 per 30 s); ggml-org/llama.cpp#25496");
    // warm-up: one chunk of warmup_audio_size = 3000 frames; a longer conformer clip grows the buffers at encode time
    const int64_t frames = std::max<int64_t>(kAudioChunkFrames, out.plan.frames_per_chunk);
    out.gpu_compute_bytes = chunk_compute_bytes(enc, frames, req.text.memory.flash_attn);
    out.cpu_compute_bytes = (uint64_t)frames * enc.n_mel_bins * 4;     // inp_raw, f32 mel
    if (enc.vision_tower_bytes > 0) {     // the mixed file's vision clip_ctx warms up too (its own compute buffer)
        VisionEncoder v;
        VisionRequest vr;
        vr.text = req.text;
        vr.images = 0;
        VisionEstimate ve;
        std::string verr;
        if (vision_encoder_for_model(text_model, v, verr) && estimate_vision(cat, text_model, v, vr, ve, verr))
            out.vision_compute_bytes = ve.gpu_compute_bytes;
    }
    out.gpu_total_bytes = enc.weights_bytes + out.gpu_compute_bytes + out.vision_compute_bytes;
    const Hardware* hw = req.text.memory.hardware;
    out.device = hw && hw->kind != HardwareKind::Cpu ? "GPU 0 (" + hw->name + ")" : "host";
    const int64_t n = encoder_positions(enc, out.plan.frames_per_chunk);
    const double attn = 4.0 * (double)n * n * enc.n_embd * enc.n_layer;
    out.encode_gflop = (2.0 * n * linear_params_per_position(enc) + attn) * out.plan.chunks / 1e9;
    if (hw) {
        EncoderPass pass;
        pass.weights_bytes = enc.weights_bytes;
        pass.linear_params = linear_params_per_position(enc);
        pass.n_layer = enc.n_layer;
        pass.n_head = enc.n_head;
        pass.head_dim = enc.n_embd / std::max(1, enc.n_head);
        pass.full_attn_layers = enc.n_layer;
        double s = 0;
        std::string te;
        out.encode_ok = encoder_pass_seconds(cat, text_model, req.text, pass, n, s, te);
        if (out.encode_ok) out.encode_s = s * out.plan.chunks;
        else out.warnings.push_back("no encode time: " + te);
    }
    return true;
}

}  // namespace llmsim
