// The names people type for a model, resolved to a catalog model and the file type the name implies: catalog ids
// ("Qwen/Qwen2.5-7B-Instruct", "Qwen2.5-7B-Instruct"), Ollama library tags ("qwen2.5:7b", "llama3.1:8b-instruct-q8_0",
// "gpt-oss:20b", with the tag's cited default quant from models.json "ollama_tags"), Ollama's Hub syntax
// ("hf.co/bartowski/Qwen2.5-7B-Instruct-GGUF:Q4_K_M") and GGUF repos as LM Studio and the quantizers name them
// ("lmstudio-community/Qwen2.5-7B-Instruct-GGUF", matched to the base model by name). One resolver for every front door
// (CLI --model, URL state, the UI picker, the JS API, predict lines), so a name means the same thing everywhere.
//
//   std::string err;
//   auto r = llmsim::resolve_model_name(cat, "llama3.1:8b-instruct-q8_0", err);
//   // r->model->id == "meta-llama/Llama-3.1-8B-Instruct", r->file_type == "Q8_0", r->file_type_named == true
//   if (!r) fprintf(stderr, "%s\n", err.c_str());   // "unknown Ollama tag 'qwen2.5:9b' (cited qwen2.5 tags: ...)"
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "catalog/catalog.h"

namespace llmsim {

struct ResolvedModel {
    const Model* model = nullptr;
    std::string file_type;         // the catalog file type the name implies ("Q4_K_M"); "" = none (a plain catalog id)
    bool file_type_named = false;  // the name spelled the quant ("-q8_0", ":Q8_0"): a different --quant is a conflict
    std::string via;               // how it resolved: "catalog id", "Ollama tag qwen2.5:7b", "GGUF repo ..."
};

// resolve what a user typed; nullopt + err (naming close matches, or the quant the catalog lacks) when it names nothing
std::optional<ResolvedModel> resolve_model_name(const Catalog& cat, const std::string& name, std::string& err);
// err from resolve_model_name with a hint for the caller's front door: inside the "(...)" of an unknown-model message
// ("unknown model 'x/y' (not in the catalog; pass its config.json as \"config\")"), else appended in parentheses
std::string with_model_hint(const std::string& err, const std::string& hint);
// the same without building suggestions (bulk lookups: a miss costs no distance search)
std::optional<ResolvedModel> resolve_model_name_quiet(const Catalog& cat, const std::string& name);
// the file type to use for a resolved name and an optional --quant: the option wins unless the name spelled another
// quant (then nullopt + err); with neither, the name's file type, else default_file_type(model)
std::optional<std::string> pick_file_type(const ResolvedModel& r, const std::string* quant_option, std::string& err);
// up to n catalog ids and cited Ollama tags closest to name (edit distance on lower case), best first
std::vector<std::string> close_model_names(const Catalog& cat, const std::string& name, size_t n = 4);
// the first cited Ollama tag that pulls model m at file_type; "" when none is cited
std::string ollama_tag_for(const Model& m, const std::string& file_type);

}  // namespace llmsim
