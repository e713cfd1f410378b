// The LoRA adapters panel's own state: adapter size by rank and targets, memory of the loaded adapters and the
// decode cost of applying one (engine/adapter), through the JS API's request parser (parse_lora_request), so
// window.llmsim.lora(request_json) returns what it shows. Recomputed only when the request changes.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "adapter/lora.h"
#include "sim/explain.h"
#include "section_memo.h"

struct AppState;

struct LoraState {
    SectionMemo memo;                      // the inputs and request the results below are from
    std::string request_json;              // what window.llmsim.lora() takes
    const llmsim::Model* model = nullptr;
    llmsim::LoraSpec spec;
    llmsim::SimRequest request;
    int adapters = 1;                      // computed for max(1, lora_n) adapters
    llmsim::LoraSize size;
    llmsim::LoraCost cost;
    bool with_speed = false;
    std::string command;
    std::vector<llmsim::Explanation> explanations;   // "lora_*" keys
    std::string error;
};

void update_lora(AppState& app);
// " --lora adapter0-r16.gguf ..." when the scenario loads adapters (lora_n > 0) and they compute
std::string lora_command_flags(const AppState& app);
// results().lora: request, result (the `llmsim-cli lora --json` layout)
std::string lora_state_json(const AppState& app);
