// llmsim-cli vision: a VLM's vision projector (llama.cpp --mmproj, engine/vision/vision.h): the mmproj weights,
// clip's compute buffer, image tokens per image, their share of the KV cache, the time to encode an image and the
// llama-server command with --mmproj.
#include <cerrno>
#include <cstdio>
#include <cstring>

#include "commands.h"
#include "core/format.h"
#include "api/api_extras.h"
#include "core/units.h"
#include "io/gguf.h"
#include "runtime/command.h"
#include "vision/vision.h"
#include "rig/resolve_device.h"

namespace llmsim::cli {

namespace {

const char* kVisionUsage =
    "usage: llmsim-cli vision --model ID [--mmproj FILE|auto] [--hardware ID] [--images N] [--image WxH]\n"
    "                         [--quant Q4_K_M] [--ctx N] [--parallel N] [--ubatch N] [--no-fa] [--json]\n"
    "A vision model's projector as llama.cpp's mtmd/clip loads it: --mmproj FILE reads an mmproj GGUF header (its\n"
    "real tensor types); auto (default) uses llmsim's table of catalog VLMs (Gemma 3 4B/12B/27B, Mistral Small\n"
    "3.1/3.2, Llama 4 Scout/Maverick, Qwen2.5-VL, Qwen2.5-Omni) at ggml-org's F16 layout. Prints image tokens per image (per\n"
    "projector type), the encoder's weights and compute buffer (on GPU 0), the images' share of the KV cache and\n"
    "the time to encode one image (speed model, physics). --image defaults to 896x896 (Pixtral: 1540x1540).\n";

double mib(uint64_t b) { return (double)b / (double)kMiB; }

bool parse_image_size(const std::string& s, int& w, int& h) {
    char x = 0;
    return sscanf(s.c_str(), "%d%c%d", &w, &x, &h) == 3 && (x == 'x' || x == 'X') && w > 0 && h > 0;
}

void print_vision(const Model& m, const VisionRequest& r, const VisionEstimate& v, const std::string& cmd) {
    const VisionEncoder& e = v.encoder;
    printf("%s: projector %s, encoder %d x %d (ffn %d, %d heads), patch %d, n_merge %d\n", m.id.c_str(),
           projector_type_info(e.projector).gguf_name, e.n_layer, e.n_embd, e.n_ff, e.n_head, e.patch_size, e.n_merge);
    printf("  source: %s\n\n", e.source.c_str());
    printf("image %dx%d -> encoded %dx%d, %d pass(es) of %lld patches -> %d tokens per image\n", v.plan.input_w,
           v.plan.input_h, v.plan.encoded_w, v.plan.encoded_h, v.plan.tiles, (long long)v.plan.patches_per_pass, v.plan.tokens);
    printf("  rule (clip_n_output_tokens): %s\n\n", projector_type_info(e.projector).token_rule);
    printf("| part | MiB | where |\n|---|---:|---|\n");
    printf("| mmproj weights (%s) | %.2f | %s |\n", e.weights_types.c_str(), mib(e.weights_bytes), v.device.c_str());
    printf("| clip compute buffer (warm-up %dx%d or this image if larger, %s) | %.2f | %s |\n", v.warmup_size_px, v.warmup_size_px,
           r.text.memory.flash_attn ? "flash attention" : "no flash attention", mib(v.gpu_compute_bytes), v.device.c_str());
    printf("| input image f32 | %.2f | host |\n", mib(v.cpu_compute_bytes));
    printf("| encoder total on the GPU | %.2f (%.2f GiB) | %s |\n\n", mib(v.gpu_total_bytes),
           (double)v.gpu_total_bytes / (double)kGiB, v.device.c_str());
    printf("%d image(s) = %lld tokens of the %lld-token context: %.2f MiB of the %.2f MiB KV cache (allocated at -c either way)\n",
           r.images, (long long)v.image_tokens_total, (long long)v.n_ctx, mib(v.image_kv_bytes), mib(v.kv_cache_bytes));
    if (v.encode_ok)
        printf("encode one image: %.1f GFLOP, %.3f s (physics through the speed model, not validated)\n", v.encode_gflop, v.encode_s);
    else
        printf("encode one image: %.1f GFLOP (pick --hardware for a time)\n", v.encode_gflop);
    for (const std::string& w : v.warnings) printf("warning: %s\n", w.c_str());
    printf("\ncommand: %s\n", cmd.c_str());
}

}  // namespace

int cmd_vision(int argc, char** argv) {
    Args a = parse_args(argc, argv, {"help", "json", "no-fa"});
    if (a.has("help")) { printf("%s", kVisionUsage); return 0; }
    static const char* known[] = {"model", "mmproj", "hardware", "images", "image", "quant", "ctx", "parallel",
                                  "ubatch", "no-fa", "json", "help"};
    for (const auto& kv : a.options) {
        bool ok = false;
        for (const char* k : known) ok |= kv.first == k;
        if (!ok) return fail("vision: unknown option --" + kv.first + " (try llmsim-cli vision --help)");
    }
    if (!a.positional.empty()) return fail("vision: unexpected argument '" + a.positional[0] + "'");
    Catalog cat;
    if (!load_catalog(cat)) return 1;
    const std::string* mid = a.get("model");
    if (!mid) return fail("vision: --model ID is required");
    const Model* m = cat.find_model(*mid);
    if (!m) return fail("vision: " + unknown_model_message(cat, *mid));
    VisionRequest r;
    if (const std::string* hid = a.get("hardware")) {
        r.text.memory.hardware = resolve_device(cat, *hid);
        if (!r.text.memory.hardware) return fail("vision: unknown hardware '" + *hid + "' (llmsim-cli catalog --hardware lists them)");
    }
    if (const std::string* q = a.get("quant")) r.text.memory.file_type = *q;
    if (!cat.find_file_type(r.text.memory.file_type))
        return fail("vision: unknown quant '" + r.text.memory.file_type + "' (llmsim-cli catalog --quants lists them)");
    double ctx = 8192, np = 1, ub = 512, images = 1;
    std::string err;
    if (!option_number(a, "vision", "ctx", 1, 1e7, ctx, err) || !option_number(a, "vision", "parallel", 1, 1024, np, err) ||
        !option_number(a, "vision", "ubatch", 1, 1 << 20, ub, err) || !option_number(a, "vision", "images", 0, 10000, images, err))
        return fail(err);
    r.text.memory.n_ctx = (int64_t)ctx;
    r.text.memory.n_parallel = (int)np;
    r.text.memory.n_ubatch = (int)ub;
    r.text.memory.flash_attn = !a.has("no-fa");
    r.images = (int)images;
    if (const std::string* s = a.get("image"); s && !parse_image_size(*s, r.image_w, r.image_h))
        return fail("vision: --image wants WIDTHxHEIGHT in pixels, e.g. 1920x1080 (got '" + *s + "')");
    VisionEncoder enc;
    const std::string* mp = a.get("mmproj");
    std::string mmproj_name;
    if (mp && *mp != "auto") {
        GgufInfo info;
        if (!read_gguf_header_file(*mp, info, err) || !vision_encoder_from_gguf(info, enc, err)) return fail("vision: " + err);
        mmproj_name = *mp;
    } else {
        if (!vision_encoder_for_model(*m, enc, err)) return fail("vision: " + err);
        mmproj_name = vision_mmproj_file_name(*m);
    }
    VisionEstimate v;
    if (!estimate_vision(cat, *m, enc, r, v, err)) return fail("vision: " + err);
    std::string cmd = llama_server_command(cat, *m, r.text) + " --mmproj " + mmproj_name;
    if (a.has("json")) printf("%s\n", vision_to_json(*m, r, v, cmd).dump(2).c_str());
    else print_vision(*m, r, v, cmd);
    return 0;
}

}  // namespace llmsim::cli
