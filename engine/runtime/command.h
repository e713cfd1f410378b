// The llama-server command line that runs exactly the simulated setup.
//   std::string cmd = llmsim::llama_server_command(model, req, 8080);
//   // "llama-server -m Qwen2.5-7B-Instruct-Q4_K_M.gguf -c 32768 -ngl 99 -fa on --port 8080"
//   std::string o = llmsim::ollama_command(model, "Q4_K_M");   // "ollama run qwen2.5:7b"
#pragma once
#include <string>

#include "catalog/catalog.h"
#include "runtime/scenario.h"

namespace llmsim {
// llama-server flags for the request (-m, -c, -ngl, -fa, -ctk/-ctv, --n-cpu-moe/-ot, -np, -ts, -sm, -mg, --rpc, --port;
// an RPC rig gets one "# on RPC host k ...: rpc-server ..." line per host before it);
// for non-GGUF formats (MLX, GPTQ, AWQ, FP8) the matching server of that ecosystem, with a comment
std::string llama_server_command(const Catalog& cat, const Model& model, const SimRequest& req, int port = 8080);
// "ollama run <tag>" when a cited Ollama library tag pulls this model at this file type (models.json "ollama_tags"),
// "" otherwise: Ollama runs the same llama.cpp weights, so it sits next to the llama-server line, never instead of it
std::string ollama_command(const Model& model, const std::string& file_type);
// the GGUF file name people usually give such a file: "<repo name>-<FILE_TYPE>.gguf"
std::string gguf_file_name(const Model& model, const std::string& file_type);
}  // namespace llmsim
