// Import a Hugging Face config.json as an llmsim Model (catalog.h), so users can simulate any model they have.
//
// Knows the architectures people run in llama.cpp (llama, mistral, mixtral, mistral3, qwen2, qwen2_moe, qwen3,
// qwen3_moe, qwen3_next, gemma/gemma2/gemma3, phi3, phimoe, deepseek_v2/v3, gpt_oss, llama4, cohere/cohere2,
// granite/granitemoe/granitemoehybrid, olmo2/olmo3/olmoe, falcon, glm4/glm4_moe, jamba, ...) and maps each to
// its llama.cpp architecture name (the rows of model/arch_table.h). Multimodal configs are read from their nested `text_config`. An unknown
// model_type is imported best-effort as a llama-like transformer with a warning, or refused with a message
// naming the missing fields. Input is limited to 4 MiB and 64 levels of nesting. Never throws.
//
//   llmsim::Model m;
//   std::string err;
//   std::vector<std::string> warnings;
//   if (!llmsim::model_from_hf_config(text, "Qwen/Qwen3-8B", m, err, &warnings)) show_error(err);
//
// Context: native_context is the context the shipped config runs at (max_position_embeddings, or
// rope_scaling.original_max_position_embeddings when the config carries a user-added YaRN extension);
// extended_context is native × rope_scaling.factor when the config adds an extension on top of the native
// window (Qwen's "add rope_scaling to config.json" recipe), else 0.
#pragma once
#include <string>
#include <vector>

#include "catalog/catalog.h"

namespace llmsim {

// largest config.json accepted (real ones are a few KiB; a 4 MiB file is a wrong pick such as tokenizer.json)
constexpr size_t kHfConfigMaxBytes = 4u << 20;
// deepest JSON nesting accepted
constexpr int kHfConfigMaxDepth = 64;

// parse config.json text into `out` (id = the Hugging Face id to record); false + err on input that cannot
// describe a model. Warnings (unknown model_type, ignored features) are appended to *warnings when given.
bool model_from_hf_config(const std::string& json_text, const std::string& id, Model& out, std::string& err,
                          std::vector<std::string>* warnings = nullptr);

// llama.cpp architecture name for a Hugging Face model_type ("qwen3_moe" -> "qwen3moe"); "" when unknown
std::string llama_arch_for_hf_model_type(const std::string& model_type);

// the llama.cpp architecture names the importer's table knows, sorted, each once ("deepseek2", "gemma3", ...)
std::vector<std::string> supported_llama_archs();

}  // namespace llmsim
