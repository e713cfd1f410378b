// Test-only: the memory model's oracle (memory_reference.cpp), estimate_memory() as it was before the fast path.
// It enumerates and places every tensor on each call (~1 ms); tests/engine/test_memory_fast.cpp checks the fast
// path against it field by field. Not part of the product library.
//
//   llmsim::MemoryBreakdown ref;
//   std::string err;
//   bool ok = llmsim::estimate_memory_reference(cat, model, req, ref, err);
#pragma once
#include <string>

#include "memory/memory.h"

namespace llmsim {

// memory per device, tensor by tensor; same contract (and, the tests require, same results) as estimate_memory
bool estimate_memory_reference(const Catalog& cat, const Model& model, const MemoryRequest& req, MemoryBreakdown& out,
                               std::string& err);

}  // namespace llmsim
