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

void update_vision(AppState& app);
// " --mmproj mmproj-<model>-f16.gguf" when the scenario puts images in (vi_images > 0) and they compute
std::string vision_command_flags(const AppState& app);
// results().vision: request, result (the `llmsim-cli vision --json` layout), explanations, error
std::string vision_state_json(const AppState& app);
