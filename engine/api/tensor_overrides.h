// llama-bench / llama-server --override-tensor (-ot) as `llmsim-cli predict` reads it: which MoE layers' routed experts a
// "<pattern>=CPU,..." list keeps in host RAM. llama.cpp splits the list at ',' and the pattern from the buffer at the
// first '=', then tests every tensor name with std::regex_search (ECMAScript; common/arg.cpp). The same unanchored
// search runs here on an ECMAScript subset (literals and escapes, '.', [classes], \d \w \s, groups (…) (?:…), '|',
// * + ? {m,n} (lazy forms too), ^ $) because the engine does not use exceptions and std::regex throws on bad input.
//
//   std::vector<int> layers;
//   std::string err;
//   if (!llmsim::expert_layers_on_host(model, "blk\\.(1[0-9])\\.ffn_.*_exps=CPU", layers, err)) puts(err.c_str());
//   // layers = {10, ..., 19}: the memory model keeps that many layers' experts in host RAM (MemoryRequest::n_cpu_moe)
#pragma once
#include <string>
#include <vector>

#include "catalog/catalog.h"

namespace llmsim {

// does `pattern` occur anywhere in `text` (std::regex_search semantics)? false + err when the pattern is malformed or
// uses what the subset lacks (back-references, look-around, \b)
bool regex_search_lite(const std::string& pattern, const std::string& text, bool& found, std::string& err);

// the MoE layers (ascending) whose three routed-expert tensors blk.N.ffn_{up,gate,down}_exps the list keeps on the
// CPU; false + err when an entry is not "<pattern>=CPU", when a pattern also matches a tensor the speed model keeps on
// the GPU (attention, norms, router, shared experts, dense FFN, output), when it moves only some of a layer's expert
// tensors, or when the list moves no tensor of this model at all
bool expert_layers_on_host(const Model& m, const std::string& overrides, std::vector<int>& layers, std::string& err);

}  // namespace llmsim
