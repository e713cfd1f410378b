// The Fine-tuning memory panel's own state: memory per GPU and tokens/s of a full / LoRA / QLoRA fine-tune
// (engine/train), through the JS API's request parser (parse_train_request), so window.llmsim.train(request_json)
// returns what it shows, plus the breakdown against micro-batch or sequence length for the stacked bars.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "sim/explain.h"
#include "section_memo.h"
#include "train/train.h"

struct AppState;

struct TrainBar { int64_t x = 0; llmsim::TrainMemory memory; };   // one bar: micro-batch or sequence length x

struct TrainState {
    SectionMemo memo;                      // the inputs and request the results below are from
    std::string request_json;              // what window.llmsim.train() takes
    const llmsim::Model* model = nullptr;
    llmsim::TrainRequest request;
    llmsim::TrainMemory memory;
    bool bars_by_seq = false;              // UI only: bars against sequence length instead of micro-batch
    std::vector<TrainBar> bars;
    std::vector<llmsim::Explanation> explanations;   // "train_*" keys
    std::string error;
};

void update_train(AppState& app);
// results().train: request, result (the `llmsim-cli train --json` layout), bars
std::string train_state_json(const AppState& app);
