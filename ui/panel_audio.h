// The audio part of the Vision & audio section: the top bar's model's audio projector (llama-server --mmproj,
// engine/audio) for the scenario's seconds of audio: the 30 s chunks, audio tokens, mmproj weights, clip's compute
// buffer, the audio's KV share and the encode time, through the JS API's request parser (parse_audio_request), so
// window.llmsim.audio(request_json) returns what it shows. Recomputed only when the request changes.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "audio/audio.h"
#include "section_memo.h"
#include "sim/explain.h"

struct AppState;

struct AudioState {
    SectionMemo memo;
    std::string request_json;              // what window.llmsim.audio() takes
    const llmsim::Model* model = nullptr;
    llmsim::AudioRequest request;          // one clip of au_s seconds (30 s while au_s = 0)
    llmsim::AudioEstimate estimate;
    std::string command;
    std::vector<llmsim::Explanation> explanations;   // "audio_*" keys
    bool no_audio = false;                 // the model has no audio encoder row (error says so)
    std::string error;
};

void update_audio(AppState& app);
// " --mmproj <file>" when the scenario puts audio in (au_s > 0) and it computes
std::string audio_command_flags(const AppState& app);
// drawn inside the Vision & audio section (panel_vision.cpp)
void draw_audio_part(AppState& app);
// results().audio: request, result (the `llmsim-cli audio --json` layout), explanations, error
std::string audio_state_json(const AppState& app);
