// The llama-server command line, flag by flag: every place that prints one (the simulator's command,
// runtime/command.h; the serving plan, serving/serve.cpp; the embedding / reranking plan, embed/embed.cpp) spells
// each option through one method here, so a flag's name and value format (ggml's lower-case type names,
// "-fa on|off", -ngl 99 for all layers) live in one place. Flags appear in the order they are added: each caller
// keeps the order its users already copy. It sits with llama.cpp's memory accounting (memory/): its flags are the
// memory plan's inputs (-c, -ngl, -ub, -np, -ctk/-ctv), and serving/ and runtime/ both print it.
//
//   std::string cmd = llmsim::LlamaServerArgs::file("Qwen2.5-7B-Instruct-Q4_K_M.gguf")
//                         .ctx(32768).gpu_layers(-1).flash_attn(true).port(8080).str();
//   // "llama-server -m Qwen2.5-7B-Instruct-Q4_K_M.gguf -c 32768 -ngl 99 -fa on --port 8080"
#pragma once
#include <cstdint>
#include <string>
#include <utility>

#include "core/text.h"
#include "quant/quant_types.h"

namespace llmsim {

class LlamaServerArgs {
public:
    // -m FILE: a local GGUF file
    static LlamaServerArgs file(const std::string& gguf) { return LlamaServerArgs("llama-server -m " + gguf); }
    // -hf REPO:QUANT: the file of that quant in a Hugging Face repo
    static LlamaServerArgs hub(const std::string& repo, const std::string& quant) {
        return LlamaServerArgs("llama-server -hf " + repo + ":" + quant);
    }

    LlamaServerArgs& ctx(int64_t tokens) { return option("-c", std::to_string(tokens)); }
    // -ngl; negative = all layers, written 99 (llama.cpp clamps to n_layers + 1, the output layer included)
    LlamaServerArgs& gpu_layers(int n) { return option("-ngl", n < 0 ? std::string("99") : std::to_string(n)); }
    LlamaServerArgs& flash_attn(bool on) { return option("-fa", on ? "on" : "off"); }
    // -ctk / -ctv for each that is not f16: llama.cpp matches them against ggml's lower-case type names (q8_0, ...)
    LlamaServerArgs& kv_types(TensorType k, TensorType v) {
        if (k != TensorType::F16) option("-ctk", lower_ascii(to_string(k)));
        if (v != TensorType::F16) option("-ctv", lower_ascii(to_string(v)));
        return *this;
    }
    LlamaServerArgs& parallel(int slots) { return option("-np", std::to_string(slots)); }
    LlamaServerArgs& batch(int64_t tokens) { return option("-b", std::to_string(tokens)); }
    LlamaServerArgs& ubatch(int64_t tokens) { return option("-ub", std::to_string(tokens)); }
    LlamaServerArgs& port(int p) { return option("--port", std::to_string(p)); }
    // a switch without a value: --kv-unified, --cont-batching, --cpu-moe, --reranking, --embedding
    LlamaServerArgs& flag(const char* name) {
        cmd_ += ' ';
        cmd_ += name;
        return *this;
    }
    // any other option with its value: --n-cpu-moe N, -ts A,B, -sm row, -mg 1, --rpc HOST:PORT, --pooling mean
    LlamaServerArgs& option(const char* name, const std::string& value) {
        cmd_ += ' ';
        cmd_ += name;
        cmd_ += ' ';
        cmd_ += value;
        return *this;
    }

    const std::string& str() const { return cmd_; }

private:
    explicit LlamaServerArgs(std::string head) : cmd_(std::move(head)) {}
    std::string cmd_;
};

}  // namespace llmsim
