// The Embeddings section's own state: an embedding or reranker model of engine/embed's table on the app's device
// (llama-server --embedding / --reranking): weights, compute buffer, total vs usable, tokens/s and documents/s,
// through the JS API's request parser (parse_embed_request), so window.llmsim.embed(request_json) returns what it
// shows. Recomputed only when the request changes.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "embed/embed.h"
#include "sim/explain.h"
#include "section_memo.h"

struct AppState;

struct EmbedState {
    SectionMemo memo;                      // the inputs and request the results below are from
    std::string request_json;              // what window.llmsim.embed() takes
    const llmsim::EmbeddingModel* model = nullptr;
    llmsim::EmbedRequest request;
    llmsim::EmbedEstimate estimate;
    uint64_t usable_bytes = 0;             // the device's usable memory (0 = no device)
    std::vector<llmsim::Explanation> explanations;   // "embed_*" keys
    std::string error;
};

void update_embed(AppState& app);
// results().embed: request, result (the `llmsim-cli embed --json` layout), usable_bytes, explanations, error
std::string embed_state_json(const AppState& app);
