// llmsim-cli train: fine-tuning memory per GPU and tokens/s (engine/train/train.h).
#include <cstdio>

#include "api/api_extras.h"
#include "commands.h"
#include "core/units.h"
#include "train/train.h"
#include "rig/resolve_device.h"

namespace llmsim::cli {

namespace {
const char* kTrainUsage =
    "usage: llmsim-cli train --model ID [--method full|lora|qlora] [--optimizer adamw|adamw8bit|adafactor]\n"
    "                        [--seq 2048] [--micro-batch 1] [--gpus N] [--zero 0..3] [--grad-ckpt] [--no-flash-attn]\n"
    "                        [--dropout] [--rank 16] [--targets all] [--hardware ID] [--mfu 0.4] [--json]\n"
    "Memory per GPU (GiB = 2^30 bytes): weights, gradients, optimizer state (ZeRO-sharded), activations\n"
    "(Korthikanti et al. 2022 accounting; checkpointing keeps each layer's input), logits, framework overheads\n"
    "(named estimates); tokens/s from 6 N + 12 L H Q T FLOPs per token at the stated utilisation (--mfu).\n";

}  // namespace

int cmd_train(int argc, char** argv) {
    Args a = parse_args(argc, argv, {"help", "json", "grad-ckpt", "no-flash-attn", "dropout"});
    if (a.has("help")) { printf("%s", kTrainUsage); return 0; }
    static const char* known[] = {"model", "method", "optimizer", "seq", "micro-batch", "gpus", "zero", "grad-ckpt",
                                  "no-flash-attn", "dropout", "rank", "targets", "hardware", "mfu", "json", "help"};
    for (const auto& kv : a.options) {
        bool ok = false;
        for (const char* k : known) ok |= kv.first == k;
        if (!ok) return fail("train: unknown option --" + kv.first + " (try llmsim-cli train --help)");
    }
    Catalog cat;
    if (!load_catalog(cat)) return 1;
    const std::string* mid = a.get("model");
    if (!mid) return fail("train: --model ID is required");
    const Model* m = cat.find_model(*mid);
    if (!m) return fail("train: " + unknown_model_message(cat, *mid));
    TrainRequest r;
    if (const std::string* s = a.get("method"))
        if (!parse_train_method(*s, r.method)) return fail("train: --method is full, lora or qlora (got '" + *s + "')");
    if (const std::string* s = a.get("optimizer"))
        if (!parse_train_optimizer(*s, r.optimizer)) return fail("train: --optimizer is adamw, adamw8bit or adafactor (got '" + *s + "')");
    std::string err;
    double seq = 2048, mb = 1, gpus = 1, zero = 0, rank = 16, mfu = 0.4;
    if (!option_number(a, "train", "seq", 1, 1e7, seq, err) || !option_number(a, "train", "micro-batch", 1, 4096, mb, err) ||
        !option_number(a, "train", "gpus", 1, 4096, gpus, err) || !option_number(a, "train", "zero", 0, 3, zero, err) ||
        !option_number(a, "train", "rank", 1, 4096, rank, err) || !option_number(a, "train", "mfu", 0.01, 1, mfu, err))
        return fail(err);
    r.seq = (int64_t)seq; r.micro_batch = (int)mb; r.gpus = (int)gpus; r.zero = (int)zero; r.utilisation = mfu;
    r.lora.rank = (int)rank;
    r.grad_ckpt = a.has("grad-ckpt");
    r.flash_attn = !a.has("no-flash-attn");
    r.dropout = a.has("dropout");
    if (!a.has("targets")) parse_lora_targets("all", r.lora, err);
    else if (!parse_lora_targets(*a.get("targets"), r.lora, err)) return fail("train: " + err);
    if (const std::string* h = a.get("hardware")) {
        r.hardware = resolve_device(cat, *h);
        if (!r.hardware) return fail("train: unknown hardware '" + *h + "' (llmsim-cli catalog --hardware lists them)");
    }
    TrainMemory t;
    if (!estimate_training(*m, r, t, err)) return fail(err);
    if (a.has("json")) {
        printf("%s\n", train_to_json(*m, r, t).dump(2).c_str());
        return 0;
    }
    printf("%s %s fine-tune, %s, seq %lld x micro-batch %d, %d GPU(s), ZeRO %d%s\n", m->id.c_str(), to_string(r.method),
           to_string(r.optimizer), (long long)r.seq, r.micro_batch, r.gpus, r.zero, r.grad_ckpt ? ", gradient checkpointing" : "");
    printf("params %.3f B, trainable %.2f M\n\n| per GPU | GiB |\n|---|---:|\n", t.params / 1e9, t.trainable_params / 1e6);
    const std::pair<const char*, uint64_t> rows[] = {
        {"weights", t.weights_bytes}, {"gradients", t.grads_bytes}, {"optimizer state", t.optimizer_bytes},
        {"activations", t.activations_bytes}, {"logits (estimate)", t.logits_bytes}, {"ZeRO-3 gathered layers (estimate)", t.zero3_gather_bytes},
        {"DDP gradient buckets", t.ddp_bucket_bytes}, {"CUDA context (estimate)", t.cuda_context_bytes},
        {"allocator fragmentation (estimate)", t.fragmentation_bytes}, {"total", t.total_bytes}};
    for (const auto& row : rows) printf("| %s | %.2f |\n", row.first, to_gib(row.second));
    if (r.hardware)
        printf("\n%s: %.1f GiB per GPU -> %s; %.0f tokens/s at %.0f %% utilisation (%.3g FLOPs per token)\n",
               r.hardware->id.c_str(), to_gib(t.usable_bytes), t.fits ? "fits" : "does NOT fit", t.tokens_per_s, r.utilisation * 100,
               t.flops_per_token);
    for (const std::string& n : t.notes) printf("note: %s\n", n.c_str());
    return 0;
}

}  // namespace llmsim::cli
