// llmsim-cli lora: LoRA adapters at inference (engine/adapter/lora.h): adapter size by rank and target modules,
// memory of N adapters and the decode speed cost, and the llama-server command with --lora.
#include <cstdio>

#include "adapter/lora.h"
#include "api/api_extras.h"
#include "commands.h"
#include "core/units.h"
#include "runtime/command.h"
#include "rig/resolve_device.h"

namespace llmsim::cli {

int cmd_lora(int argc, char** argv) {
    Args a = parse_args(argc, argv, {"help", "json"});
    if (a.has("help")) {
        printf("usage: llmsim-cli lora --model ID [--rank 16] [--targets q,k,v,o|attn|mlp|all] [--lora-type f16]\n"
               "                       [--adapters N] [--hardware ID] [--quant Q4_K_M] [--ctx N] [--depth N] [--json]\n"
               "PEFT LoRA: A (r x in) + B (out x r) per targeted linear per layer in the adapter's GGUF type\n"
               "(convert_lora_to_gguf --outtype f32|f16|bf16|q8_0); with --hardware, decode tok/s with and without one\n"
               "applied adapter (every adapter tensor is read per token). Memory is given in GiB and MiB (binary).\n");
        return 0;
    }
    static const char* known[] = {"model", "rank", "targets", "lora-type", "adapters", "hardware", "quant", "ctx", "depth", "json", "help"};
    for (const auto& kv : a.options) {
        bool ok = false;
        for (const char* k : known) ok |= kv.first == k;
        if (!ok) return fail("lora: unknown option --" + kv.first + " (try llmsim-cli lora --help)");
    }
    Catalog cat;
    if (!load_catalog(cat)) return 1;
    const std::string* mid = a.get("model");
    if (!mid) return fail("lora: --model ID is required");
    const Model* m = cat.find_model(*mid);
    if (!m) return fail("lora: " + unknown_model_message(cat, *mid));
    LoraSpec spec;
    std::string err;
    double rank = 16, n = 1, ctx = 8192, depth = 1024;
    if (!option_number(a, "lora", "rank", 1, 4096, rank, err) || !option_number(a, "lora", "adapters", 1, 1024, n, err) ||
        !option_number(a, "lora", "ctx", 1, 1e7, ctx, err) || !option_number(a, "lora", "depth", 0, 1e7, depth, err))
        return fail(err);
    spec.rank = (int)rank;
    if (const std::string* t = a.get("targets"))
        if (!parse_lora_targets(*t, spec, err)) return fail(err);
    if (const std::string* t = a.get("lora-type")) {
        auto tt = parse_tensor_type(*t);
        if (!tt) return fail("lora: unknown --lora-type '" + *t + "' (f32, f16, bf16 or q8_0)");
        spec.type = *tt;
    }
    SimRequest req;
    req.memory.n_ctx = (int64_t)ctx;
    if (const std::string* q = a.get("quant")) {
        if (!cat.find_file_type(*q)) return fail("lora: unknown --quant '" + *q + "'");
        req.memory.file_type = *q;
    }
    if (const std::string* h = a.get("hardware")) {
        req.memory.hardware = resolve_device(cat, *h);
        if (!req.memory.hardware) return fail("lora: unknown hardware '" + *h + "' (llmsim-cli catalog --hardware lists them)");
    }
    LoraSize sz;
    LoraCost cost;
    if (!lora_size(*m, spec, sz, err) || !lora_cost(cat, *m, req, spec, (int)n, (int64_t)depth, cost, err))
        return fail(err[0] == 'l' ? err : "lora: " + err);
    std::string cmd = llama_server_command(cat, *m, req) + lora_server_flags(lora_adapter_files(spec, (int)n));
    if (a.has("json")) {
        printf("%s\n", lora_to_json(*m, spec, sz, cost, (int)n, req.memory.hardware != nullptr, cmd).dump(2).c_str());
        return 0;
    }
    printf("LoRA r=%d on %s, %s: %.2f M params, %.1f MiB per adapter (%s)\n", spec.rank, m->id.c_str(),
           to_string(spec.type), sz.params / 1e6, sz.bytes / (double)kMiB, "A r x in + B out x r per targeted linear");
    for (int i = 0; i < kLoraTargetCount; ++i)
        if (spec.targets[i]) printf("  %-10s %8.1f MiB\n", to_string((LoraTarget)i), sz.per_target_bytes[i] / (double)kMiB);
    printf("%d adapter(s) loaded: %.3f GiB\n", (int)n, cost.adapters_bytes / (double)kGiB);
    if (req.memory.hardware)
        printf("decode at depth %d on %s: %.1f tok/s without, %.1f tok/s with one adapter applied (-%.1f %%)\n",
               (int)depth, req.memory.hardware->id.c_str(), cost.base_tokens_per_s, cost.lora_tokens_per_s, cost.slowdown * 100);
    if (req.memory.hardware)
        printf("  of which %llu extra graph nodes (mul_mat A, mul_mat B, scale, add per adapted tensor): %.2f ms per token\n",
               (unsigned long long)sz.extra_graph_nodes, cost.dispatch_s_per_token * 1e3);
    printf("\n%s\n", cmd.c_str());
    return 0;
}

}  // namespace llmsim::cli
