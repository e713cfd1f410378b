// Importing a model the catalog does not know: a pasted Hugging Face config.json, or a .gguf file of which
// only the header is read (in the browser the file never leaves the machine; nothing is uploaded).
// The imported model joins app.catalog.models and becomes the scenario's model, so every section uses it.
#pragma once
#include <cstdint>
#include <string>

#include "app_state.h"
#include "hub/hub_lookup.h"

// import config.json text under `id` (default "imported/<model_type>"); false + app.import.message on error
bool import_hf_config(AppState& app, const std::string& json_text, const std::string& id);
// import a GGUF header from the first `size` bytes of a file of `file_size` bytes. Returns 1 on success,
// 0 on error (app.import.message says why), or -1 when more bytes are needed (*need_bytes set).
int import_gguf_prefix(AppState& app, const void* data, size_t size, uint64_t file_size, const std::string& file_name,
                       uint64_t* need_bytes);
// a finished Hugging Face lookup (engine/hub): the model joins the session catalog under its Hub id, each repo
// GGUF file whose header was read gives its file type's exact weights (app.hub_tensor_bytes), the chosen file's
// type becomes the scenario's quant; app.hub_status says what was read
void import_hub_result(AppState& app, const llmsim::HubResult& r);
// a file without GGUF magic while the Vision section waits for an mmproj: true (refused, messages set)
bool import_not_gguf_for_vision(AppState& app, const std::string& file_name);
// native: import a .gguf or config.json from a path (reads only the GGUF header); an mmproj GGUF goes to the
// Vision section (load_vision_file) instead of the model list

bool import_path(AppState& app, const std::string& path);
