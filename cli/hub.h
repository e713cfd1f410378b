// The CLI's Hugging Face lookups: engine/hub's plan driven over libcurl (hub_curl.cpp).
//   HF_ENDPOINT  the Hub to ask (default https://huggingface.co; a mirror or the tests' stand-in)
//   HF_TOKEN     sent as "Authorization: Bearer ..." to the endpoint only (never to redirect targets), never printed
#pragma once
#include <string>

#include "hub/hub_lookup.h"
#include "memory/memory.h"

namespace llmsim::cli {

// look `ref` up (cached per process by its text); progress and "read N MB of a M GB file" on stderr;
// false + err (the lookup's message) on failure
bool hub_lookup(const HubRef& ref, const HubLookupOptions& opt, HubResult& out, std::string& err);

// `--model ID` is not in the catalog: look it up on the Hub with --quant `quant` (may be null), fill the model and
// the request's file type and exact tensor bytes; returns 0 or an exit code (the message printed)
int model_from_hub(const std::string& id, const std::string* quant, const char* cmd, Model& model, MemoryRequest& req);

}  // namespace llmsim::cli
