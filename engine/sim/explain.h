// Show the work: for each number of an evaluation, the formula in words, the inputs with units and where
// they come from, and the intermediate values. The UI shows these on hover/click, `llmsim-cli ... --explain`
// prints them, and the JS API returns them.
//   for (const llmsim::Explanation& e : llmsim::explain(cat, model, req, ev)) printf("%s: %s\n", e.key.c_str(), e.text.c_str());
#pragma once
#include <string>
#include <vector>

#include "sim/simulate.h"

namespace llmsim {

struct Explanation {
    std::string key;                 // "weights", "kv_cache", "compute", "overhead", "total", "usable", "decode", "prefill", "ttft", "max_context"
    std::string value;               // the number as shown, with its unit
    std::string text;                // formula in words with the intermediate values
    std::vector<std::string> inputs; // "name = value unit (source)"
};

// explanations of every number in `ev` (computed for `req`)
std::vector<Explanation> explain(const Catalog& cat, const Model& model, const SimRequest& req, const Evaluation& ev);

}  // namespace llmsim
