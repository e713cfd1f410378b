// llmsim-cli audio: a model's audio projector (llama.cpp --mmproj, engine/audio/audio.h): the 30 s mel chunks, audio
// tokens per chunk and per clip, the mmproj weights, clip's compute buffer, the audio's share of the KV cache, the
// time to encode a clip and the llama-server command with --mmproj.
#include <cstdio>

#include "commands.h"
#include "api/api_extras.h"
#include "audio/audio.h"
#include "core/units.h"
#include "io/gguf.h"
#include "runtime/command.h"
#include "rig/resolve_device.h"

namespace llmsim::cli {

namespace {

const char* kAudioUsage =
    "usage: llmsim-cli audio --model ID [--mmproj FILE|auto] [--hardware ID] [--seconds S] [--clips N]\n"
    "                        [--quant Q4_K_M] [--ctx N] [--parallel N] [--ubatch N] [--no-fa] [--json]\n"
    "Audio input as llama.cpp's mtmd runs it: the clip becomes 16 kHz mel frames (100 per second), cut into 30 s\n"
    "chunks of 3000 frames (a clip up to 31 s makes two, the second silent); each chunk becomes tokens per the\n"
    "projector type (clip_n_output_tokens). --mmproj FILE reads an mmproj GGUF header (its real tensor types; a file\n"
    "with a vision tower loads both); auto (default) uses llmsim's table (Qwen2.5-Omni 3B/7B with its vision tower,\n"
    "Ultravox v0.5 on Llama 3.2 1B / 3.1 8B) at ggml-org's F16 layout. Prints tokens per clip, the encoder's weights\n"
    "and compute buffer (on GPU 0), the clips' share of the KV cache and the encode time (speed model, physics).\n"
    "--seconds defaults to 30, --clips to 1.\n";

double mib(uint64_t b) { return (double)b / (double)kMiB; }

void print_audio(const Model& m, const AudioRequest& r, const AudioEstimate& a, const std::string& cmd) {
    const AudioEncoder& e = a.encoder;
    const AudioProjectorInfo& pt = audio_projector_info(e.projector);
    printf("%s: audio projector %s, encoder %d x %d (ffn %d, %d heads), %d mel bins, stack factor %d\n", m.id.c_str(),
           pt.gguf_name, e.n_layer, e.n_embd, e.n_ff, e.n_head, e.n_mel_bins, e.stack_factor);
    printf("  source: %s\n\n", e.source.c_str());
    printf("clip %.2f s = %lld samples at 16 kHz -> %lld mel frames -> %d chunk(s) of %lld frames x %lld tokens = %lld tokens"
           " (%.2f tokens per second of audio)\n", a.plan.seconds, (long long)a.plan.samples, (long long)a.plan.mel_frames,
           a.plan.chunks, (long long)a.plan.frames_per_chunk, (long long)a.plan.tokens_per_chunk, (long long)a.plan.tokens,
           a.plan.tokens_per_s);
    printf("  rule (clip_n_output_tokens): %s\n\n", pt.token_rule);
    printf("| part | MiB | where |\n|---|---:|---|\n");
    printf("| mmproj weights (%s) | %.2f | %s |\n", e.weights_types.c_str(), mib(e.weights_bytes), a.device.c_str());
    printf("| clip compute buffer (warm-up: one 3000-frame chunk, %s; estimate) | %.2f | %s |\n",
           r.text.memory.flash_attn ? "flash attention" : "no flash attention", mib(a.gpu_compute_bytes), a.device.c_str());
    if (a.vision_compute_bytes > 0)
        printf("| the same file's vision tower: its warm-up compute buffer | %.2f | %s |\n", mib(a.vision_compute_bytes), a.device.c_str());
    printf("| input mel f32 | %.2f | host |\n", mib(a.cpu_compute_bytes));
    printf("| encoder total on the GPU | %.2f (%.2f GiB) | %s |\n\n", mib(a.gpu_total_bytes),
           (double)a.gpu_total_bytes / (double)kGiB, a.device.c_str());
    printf("%d clip(s) = %lld tokens of the %lld-token context: %.2f MiB of the %.2f MiB KV cache (allocated at -c either way)\n",
           r.clips, (long long)a.audio_tokens_total, (long long)a.n_ctx, mib(a.audio_kv_bytes), mib(a.kv_cache_bytes));
    if (a.encode_ok)
        printf("encode one clip: %.1f GFLOP, %.3f s (physics through the speed model, not validated)\n", a.encode_gflop, a.encode_s);
    else
        printf("encode one clip: %.1f GFLOP (pick --hardware for a time)\n", a.encode_gflop);
    for (const std::string& w : a.warnings) printf("warning: %s\n", w.c_str());
    printf("\ncommand: %s\n", cmd.c_str());
}

bool parse_text_request(const Catalog& cat, const Args& a, AudioRequest& r, std::string& err) {
    if (const std::string* hid = a.get("hardware")) {
        r.text.memory.hardware = resolve_device(cat, *hid);
        if (!r.text.memory.hardware) { err = "audio: unknown hardware '" + *hid + "' (llmsim-cli catalog --hardware lists them)"; return false; }
    }
    if (const std::string* q = a.get("quant")) r.text.memory.file_type = *q;
    if (!cat.find_file_type(r.text.memory.file_type)) {
        err = "audio: unknown quant '" + r.text.memory.file_type + "' (llmsim-cli catalog --quants lists them)";
        return false;
    }
    double ctx = 8192, np = 1, ub = 512, clips = 1, seconds = 30;
    if (!option_number(a, "audio", "ctx", 1, 1e7, ctx, err) || !option_number(a, "audio", "parallel", 1, 1024, np, err) ||
        !option_number(a, "audio", "ubatch", 1, 1 << 20, ub, err) || !option_number(a, "audio", "clips", 0, 1000, clips, err) ||
        !option_number(a, "audio", "seconds", 0.01, kAudioMaxSeconds, seconds, err))
        return false;
    r.text.memory.n_ctx = (int64_t)ctx;
    r.text.memory.n_parallel = (int)np;
    r.text.memory.n_ubatch = (int)ub;
    r.text.memory.flash_attn = !a.has("no-fa");
    r.clips = (int)clips;
    r.seconds = seconds;
    return true;
}

}  // namespace

int cmd_audio(int argc, char** argv) {
    Args a = parse_args(argc, argv, {"help", "json", "no-fa"});
    if (a.has("help")) { printf("%s", kAudioUsage); return 0; }
    static const char* known[] = {"model", "mmproj", "hardware", "seconds", "clips", "quant", "ctx", "parallel",
                                  "ubatch", "no-fa", "json", "help"};
    for (const auto& kv : a.options) {
        bool ok = false;
        for (const char* k : known) ok |= kv.first == k;
        if (!ok) return fail("audio: unknown option --" + kv.first + " (try llmsim-cli audio --help)");
    }
    if (!a.positional.empty()) return fail("audio: unexpected argument '" + a.positional[0] + "'");
    Catalog cat;
    if (!load_catalog(cat)) return 1;
    const std::string* mid = a.get("model");
    if (!mid) return fail("audio: --model ID is required");
    const Model* m = cat.find_model(*mid);
    if (!m) return fail("audio: " + unknown_model_message(cat, *mid));
    AudioRequest r;
    std::string err;
    if (!parse_text_request(cat, a, r, err)) return fail(err);
    AudioEncoder enc;
    const std::string* mp = a.get("mmproj");
    if (mp && *mp != "auto") {
        GgufInfo info;
        if (!read_gguf_header_file(*mp, info, err) || !audio_encoder_from_gguf(info, enc, err)) return fail("audio: " + err);
        enc.mmproj_file = *mp;
    } else if (!audio_encoder_for_model(*m, enc, err)) {
        return fail("audio: " + err);
    }
    AudioEstimate est;
    if (!estimate_audio(cat, *m, enc, r, est, err)) return fail("audio: " + err);
    const std::string cmd = llama_server_command(cat, *m, r.text) + " --mmproj " + enc.mmproj_file;
    if (a.has("json")) printf("%s\n", audio_to_json(*m, r, est, cmd).dump(2).c_str());
    else print_audio(*m, r, est, cmd);
    return 0;
}

}  // namespace llmsim::cli
