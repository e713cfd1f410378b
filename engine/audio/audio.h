// Audio projectors (llama.cpp --mmproj with an audio encoder, tools/mtmd): what seconds of audio cost next to the
// text model.
//
// Every rule names the llama.cpp function it follows (ggml-org/llama.cpp@0024aa7417efd50a7c2a79e049dfbbbceb0beaaf):
//   - mel front-end: mtmd_audio_preprocessor_whisper::preprocess + log_mel_spectrogram (mtmd-audio.cpp): 16 kHz,
//     hop 160 (100 frames per second), input shorter than audio_chunk_len + 1 = 31 s padded with zeros to 31 s,
//     then 30 s of zeros appended; the mel is cut into chunks of exactly 3000 frames and a last incomplete chunk is
//     dropped. So every clip of up to 31 s becomes TWO chunks, the second one silent (ggml-org/llama.cpp#26351
//     reports the symptom for Voxtral). lfm2a (mtmd_audio_preprocessor_conformer) makes one chunk of the whole clip.
//   - tokens per chunk: clip_n_output_tokens() per projector type (clip.cpp), from the chunk's mel frames:
//     whisper conv stride 2, then the type's stack factor (clip.audio.projector.stack_factor) and/or avg-pool 2
//     (clip_model::audio_has_stack_frames / audio_has_avgpool, clip-model.h);
//   - weights: the mmproj file's tensor bytes when a file is given (every tensor clip_init loads: a file with a vision
//     tower as well loads both), otherwise the Whisper-encoder shapes at ggml-org's F16 layout (matrices F16, 1-D F32);
//   - compute buffer: clip_model_loader::warmup() reserves the graph of warmup_audio_size = 3000 frames x n_mel
//     (clip-model.h), one chunk, so it is the same for any clip length; the peak uses the transformer rule
//     transformer_graph_peak_bytes (vision.h) over the 1500 positions after the conv (estimate, no audio log checked);
//   - encode time: the encoder's matmul + bidirectional attention FLOPs through the speed model's prefill rate, one
//     pass per chunk (physics, not validated).
//
//   llmsim::AudioEncoder enc;
//   std::string err;
//   if (!llmsim::audio_encoder_for_model(*cat.find_model("Qwen/Qwen2.5-Omni-7B"), enc, err)) return;
//   llmsim::AudioPlan plan;
//   llmsim::plan_audio(enc, 60.0, plan, err);   // 3 chunks x 750 tokens
//
// [SECTION] Projector types and encoders
// [SECTION] Audio clips
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

enum class AudioProjector { Ultravox, Qwen2A, Qwen3A, Voxtral, GlmA, MusicFlamingo, Lfm2A, Count };

struct AudioProjectorInfo {
    AudioProjector type;
    const char* gguf_name;   // clip.audio.projector_type / clip.projector_type (clip-impl.h PROJECTOR_TYPE_NAMES)
    bool whisper_chunks;     // mtmd_audio_preprocessor_whisper (30 s chunks of 3000 frames); else one conformer chunk
    const char* token_rule;  // clip_n_output_tokens() for one chunk of n mel frames, in words
};
const AudioProjectorInfo& audio_projector_info(AudioProjector t);
// the type whose gguf_name is `name` ("qwen2.5o", Qwen2.5-Omni's mixed vision+audio file, is qwen2a for audio:
// clip.cpp load_hparams); false when llmsim does not model it
bool audio_projector_from_name(const std::string& name, AudioProjector& out);

struct AudioEncoder {                  // the clip_hparams of the audio clip_ctx llmsim needs
    AudioProjector projector = AudioProjector::Qwen2A;
    int n_layer = 0;                   // clip.audio.block_count
    int n_embd = 0;                    // clip.audio.embedding_length
    int n_ff = 0;                      // clip.audio.feed_forward_length
    int n_head = 0;                    // clip.audio.attention.head_count
    int n_mel_bins = 128;              // clip.audio.num_mel_bins
    int stack_factor = 0;              // clip.audio.projector.stack_factor (0 = none)
    int64_t proj_hidden = 0;           // the projector MLP's hidden width (ultravox / voxtral / glma), 0 = one linear
    int64_t projection_dim = 0;        // clip.audio.projection_dim = the text model's hidden size
    int64_t n_params = 0;              // parameters of the audio encoder (table) or of the whole mmproj file
    uint64_t weights_bytes = 0;        // everything clip_init loads from the file (audio tower + any vision tower)
    uint64_t vision_tower_bytes = 0;   // the vision tower's share of weights_bytes (mixed files, table rows)
    bool weights_from_file = false;
    std::string weights_types;
    std::string mmproj_file;           // the ggml-org mmproj file name the command line names (table rows)
    std::string source;
};

// the audio encoder of a catalog model (table in audio.cpp, each row with its config source); false + err for a
// model without one
bool audio_encoder_for_model(const Model& text_model, AudioEncoder& out, std::string& err);
// the audio encoder an mmproj GGUF header describes (clip.has_audio_encoder, clip.audio.* keys); false + err when the
// file has no audio encoder or its projector type is not modelled
bool audio_encoder_from_gguf(const GgufInfo& info, AudioEncoder& out, std::string& err);
// the catalog models that have an audio encoder row
std::vector<std::string> audio_model_ids();

// [SECTION] Audio clips ---------------------------------------------------------------------------------------

constexpr int kAudioSampleRate = 16000;    // hparams.audio_sample_rate (clip.cpp load_hparams, every audio type)
constexpr int kAudioHop = 160;             // hparams.audio_hop_len: 100 mel frames per second
constexpr int kAudioChunkFrames = 3000;    // frames_per_chunk (mtmd-audio.cpp) = warmup_audio_size (clip-model.h)
constexpr double kAudioMaxSeconds = 4 * 3600.0;

// mel frames log_mel_spectrogram makes of n_samples (whisper: min 31 s, + 30 s of zeros; conformer: center padding)
int64_t audio_mel_frames(AudioProjector t, int64_t n_samples);
// clip_n_output_tokens() for one chunk of n_frames mel frames
int64_t audio_chunk_tokens(const AudioEncoder& enc, int64_t n_frames);

struct AudioPlan {
    double seconds = 0;
    int64_t samples = 0;
    int64_t mel_frames = 0;            // the whole padded mel
    int chunks = 0;                    // encoder passes (audio chunks in the prompt)
    int64_t frames_per_chunk = 0;      // 3000 (whisper) or the whole mel (conformer)
    int64_t tokens_per_chunk = 0;
    int64_t tokens = 0;                // chunks x tokens_per_chunk: what lands in the KV cache
    double tokens_per_s = 0;           // tokens / seconds
};

// the chunks and tokens of one clip of `seconds`; false + err outside 0.01 s .. 4 h
bool plan_audio(const AudioEncoder& enc, double seconds, AudioPlan& out, std::string& err);

// [SECTION] Estimate ---------------------------------------------------------------------------------------

struct AudioRequest {
    SimRequest text;                   // the text model's request (hardware, quant, context, -ub, flash attention)
    int clips = 1;                     // audio clips in the context at once
    double seconds = 30;               // length of each clip
};

struct AudioEstimate {
    AudioEncoder encoder;
    AudioPlan plan;                    // one clip
    int64_t audio_tokens_total = 0;    // clips x plan.tokens (marker tokens such as <|audio_bos|> are text)
    int64_t n_ctx = 0;
    uint64_t kv_cache_bytes = 0;
    uint64_t audio_kv_bytes = 0;       // the share of the KV cache the audio tokens fill
    uint64_t gpu_compute_bytes = 0;    // the audio clip_ctx's compute buffer (warm-up: one 3000-frame chunk)
    uint64_t vision_compute_bytes = 0; // a mixed file's vision clip_ctx warm-up buffer (clip_init warms up both)
    uint64_t cpu_compute_bytes = 0;    // the f32 mel input on the host
    uint64_t gpu_total_bytes = 0;      // weights + both compute buffers
    std::string device;
    double encode_gflop = 0;           // one clip (all its chunks)
    double encode_s = 0;
    bool encode_ok = false;
    std::vector<std::string> warnings;
};

// what `req.clips` clips of req.seconds cost with `enc` next to `text_model`; false + err on bad input
bool estimate_audio(const Catalog& cat, const Model& text_model, const AudioEncoder& enc, const AudioRequest& req,
                    AudioEstimate& out, std::string& err);

}  // namespace llmsim
