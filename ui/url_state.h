// URL-hash state: every key of the Scenario as `key=value` pairs joined by '&', values percent-encoded.
// The same keys work as desktop command-line arguments (`llmsim model=... quant=Q4_K_M` or `--model ...`).
//   std::string h = encode_url_state(app.scenario);          // "model=Qwen%2FQwen2.5-7B-Instruct&quant=Q4_K_M&..."
//   if (!decode_url_state(h, s, err)) show(err);              // unknown keys and bad values are reported, not applied
#pragma once
#include <string>
#include <vector>

#include "app_state.h"

// encode the keys that differ from defaults, in a fixed order; model, quant and ctx always (their defaults depend
// on the model, so a link must name them)
std::string encode_url_state(const Scenario& s);
// parse a hash (with or without leading '#'); on any bad key/value returns false, fills err and leaves `out` untouched;
// keys (when given) receives the keys the hash set
bool decode_url_state(const std::string& hash, Scenario& out, std::string& err, std::vector<std::string>* keys = nullptr);
// Scenario <-> JSON (the JS API's getState/setState); keys as for decode_url_state
std::string scenario_to_json(const Scenario& s);
bool scenario_from_json(const std::string& json_text, Scenario& out, std::string& err, std::vector<std::string>* keys = nullptr);
