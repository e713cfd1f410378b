// estimate_memory_grid (memory.h) one device at a time, for a caller that uses each device's breakdowns as soon as
// they are written: llama.cpp's grid plan runs the device's speed view right after, while its evaluations are still
// in the cache (all the breakdowns first, then all the views, missed L1 ~34 times an evaluation vs ~3). The shapes a
// device shares (the checks, layouts, placements and fit-search parts of its backend and GPU count) live as long as
// the grid.
//
//   llmsim::MemoryGrid grid(weights, model, req, contexts, count);   // req.hardware is not read
//   for (const llmsim::Hardware* h : devices)
//       if (!grid.device(h, breakdowns, err)) fprintf(stderr, "%s: %s\n", h->id.c_str(), err.c_str());
#pragma once
#include <cstdint>
#include <memory>
#include <string>

#include "memory/memory.h"

namespace llmsim {

class MemoryGrid {
public:
    // weights, model, contexts: kept by reference (they outlive the grid); req: copied
    MemoryGrid(const PreparedWeights& weights, const Model& model, const MemoryRequest& req, const int64_t* contexts,
               int count);
    ~MemoryGrid();
    MemoryGrid(const MemoryGrid&) = delete;
    MemoryGrid& operator=(const MemoryGrid&) = delete;
    // hw's breakdown at contexts[i] into *out[i], the numbers of estimate_memory_contexts; false + err (the
    // breakdowns reset) when the request is bad on this device
    bool device(const Hardware* hw, MemoryBreakdown* const* out, std::string& err);

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

}  // namespace llmsim
