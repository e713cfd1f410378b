// llmsim-cli: the engine on the command line (also the contract outside checks use).
//   llmsim-cli --version | --help | <command> [options]      (llmsim-cli <command> --help for each)
#include <clocale>
#include <cstdio>
#include <cstring>

#include "core/assets.h"
#include "commands.h"

namespace {

struct Command {
    const char* name;
    int (*run)(int, char**);
    const char* summary;
};

const Command kCommands[] = {
    {"catalog", llmsim::cli::cmd_catalog, "list the embedded models, hardware and quant types with counts"},
    {"memory", llmsim::cli::cmd_memory, "memory breakdown for a model, quant and context (optionally on a device)"},
    {"quants", llmsim::cli::cmd_quants, "the quantization footprint table of a model"},
    {"fit", llmsim::cli::cmd_fit, "one row per device: fit status, total / limit, max safe context, speed"},
    {"predict", llmsim::cli::cmd_predict, "JSON Lines scenarios in, predicted tokens/s out"},
    {"accuracy", llmsim::cli::cmd_accuracy, "leave-one-device-out accuracy report on measured rows"},
    {"calibrate", llmsim::cli::cmd_calibrate, "refit the speed model's parameters from measured rows"},
    {"calibrate-device", llmsim::cli::cmd_calibrate_device, "fit a per-device correction from your llama-bench output"},
    {"cost", llmsim::cli::cmd_cost, "own vs rent vs serverless API monthly cost"},
    {"recommend", llmsim::cli::cmd_recommend, "cheapest hardware meeting speed/budget constraints, or the best model for a device"},
    {"recommend-model", llmsim::cli::cmd_recommend_model, "the models a device runs, ranked by a published score for a task (coding, chat, ...)"},
    {"import", llmsim::cli::cmd_import, "read a config.json or a .gguf header and print the model it describes"},
    {"page", llmsim::cli::cmd_page, "a model's page (seed format) or one section of it, as HTML or Markdown"},
    {"site", llmsim::cli::cmd_site, "the static site: a page per catalog model, the models index, sitemap.xml, robots.txt"},
    {"serve", llmsim::cli::cmd_serve, "serving many users: engine memory plan, load simulation, SLA search (vLLM, SGLang, llama-server)"},
    {"spec", llmsim::cli::cmd_spec, "speculative decoding: memory of target + draft, expected speed-up, break-even acceptance"},
    {"lora", llmsim::cli::cmd_lora, "LoRA adapters at inference: adapter size by rank and targets, memory, decode cost"},
    {"vision", llmsim::cli::cmd_vision, "vision projectors (--mmproj): image tokens per image, encoder memory, KV share, encode time"},
    {"audio", llmsim::cli::cmd_audio, "audio projectors (--mmproj): audio tokens per second and per clip, encoder memory, KV share, encode time"},
    {"embed", llmsim::cli::cmd_embed, "embedding and reranker models: memory (no KV for encoders), the -ub rule, tokens/s and docs/s"},
    {"train", llmsim::cli::cmd_train, "fine-tuning memory per GPU (full, LoRA, QLoRA; ZeRO; checkpointing) and tokens/s"},
    {"bench", llmsim::cli::cmd_bench, "time a full sweep of the engine (models x devices x quants x contexts)"},
    {"mcp", llmsim::cli::cmd_mcp, "serve the engine to agents over the Model Context Protocol on stdio (docs/mcp.md)"},
    {"detect", llmsim::cli::cmd_detect, "this machine's GPUs and RAM (nvidia-smi, rocm-smi, /proc/meminfo, sysctl) as a catalog rig"},
};

void usage(FILE* out) {
    fprintf(out, "llmsim-cli %s — does an LLM fit, how fast will it run, what will it cost\n\n"
                 "usage: llmsim-cli <command> [options]\n       llmsim-cli --version | --help\n\ncommands:\n",
            llmsim::version());
    for (const Command& c : kCommands) fprintf(out, "  %-10s %s\n", c.name, c.summary);
    fprintf(out, "\n'llmsim-cli <command> --help' describes each command's options.\n");
}

}  // namespace

int main(int argc, char** argv) {
    setlocale(LC_ALL, "C");
    if (argc < 2) { usage(stderr); return 2; }
    const char* cmd = argv[1];
    if (!strcmp(cmd, "--version") || !strcmp(cmd, "version")) { printf("llmsim-cli %s\n", llmsim::version()); return 0; }
    if (!strcmp(cmd, "--help") || !strcmp(cmd, "-h") || !strcmp(cmd, "help")) { usage(stdout); return 0; }
    for (const Command& c : kCommands)
        if (!strcmp(cmd, c.name)) return c.run(argc - 1, argv + 1);
    return llmsim::cli::fail(std::string("unknown command '") + cmd + "' (try llmsim-cli --help)");
}
