// The Vision section's own state: a VLM's projector (llama-server --mmproj, engine/vision) for the top bar's model:
// image tokens, mmproj weights, clip's compute buffer, the KV share of the images and encode time, through the JS
// API's request parser (parse_vision_request), so window.llmsim.vision(request_json) returns what it shows.
// Recomputed only when the request changes.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "sim/explain.h"
#include "section_memo.h"
#include "vision/vision.h"

struct AppState;

struct VisionState {
    SectionMemo memo;                      // the inputs and request the results below are from
    std::string request_json;              // what window.llmsim.vision() takes
    const llmsim::Model* model = nullptr;
    llmsim::VisionRequest request;         // computed for max(1, vi_images) images
    llmsim::VisionEstimate estimate;
    std::string command;
    std::vector<llmsim::Explanation> explanations;   // "vision_*" keys
    bool not_vlm = false;                  // the model has no projector row (error says so)
    std::string error;
};

// an mmproj GGUF the user opened (the section's button, the Import section or a dropped file: import_gguf_prefix
// sends a general.architecture = clip header here). Only its header is read, on this machine; session only, never
// in the URL. While loaded, the section sizes the file's own encoder (its real tensor types) instead of the table's.
struct VisionFile {
    bool loaded = false;
    llmsim::VisionEncoder encoder;         // vision_encoder_from_gguf
    std::string file_name;                 // the command's --mmproj argument
    uint64_t tensor_bytes = 0;             // GgufInfo::tensor_data_bytes of the file
    uint64_t version = 0;                  // bumped on each load or clear (part of the section's request key)
    std::string message;                   // what was read, or why the last file was not taken
    bool ok = false;                       // the last file was taken
    bool expect_mmproj = false;            // the section's Open button was pressed: the next file must be an mmproj
    std::string path_text;                 // desktop: the typed path
};

// take the mmproj header `info` read from `file_name`; false + app.vision_file.message when it is not an mmproj
// llmsim models (a file loaded before stays loaded)
bool load_vision_file(AppState& app, const llmsim::GgufInfo& info, const std::string& file_name);
// forget the opened file: back to the table's encoder for catalog VLMs
void clear_vision_file(AppState& app);
void update_vision(AppState& app);
// " --mmproj mmproj-<model>-f16.gguf" (or the opened file's name) when the scenario puts images in (vi_images > 0)
// and they compute
std::string vision_command_flags(const AppState& app);
// results().vision: request, result (the `llmsim-cli vision --json` layout), explanations, error
std::string vision_state_json(const AppState& app);
