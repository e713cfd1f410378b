// One scenario, every answer: memory per device (memory.h), speeds with their measured bands (speed.h),
// the numbers the UI, the CLI (`fit`, `predict`) and the JS API all show. Pure arithmetic, no UI. evaluate()
// runs the plans of the request's runtime (runtime/runtime.h); the request and answer types are in
// runtime/scenario.h, below the runtimes that fill them.
//
//   llmsim::SimRequest req;
//   req.memory.file_type = "Q4_K_M"; req.memory.n_ctx = 32768; req.memory.hardware = cat.find_hardware("rtx-4090");
//   req.prompt_tokens = 4096;
//   llmsim::Evaluation ev;
//   std::string err;
//   if (llmsim::evaluate(cat, *model, req, ev, err)) printf("%s, %.1f tok/s\n", to_string(ev.memory.status), ev.speed.decode_tps);
#pragma once
#include <cstdint>
#include <string>

#include "catalog/catalog.h"
#include "memory/memory.h"
#include "model/model_tensors.h"
#include "runtime/runtime.h"
#include "runtime/scenario.h"   // SimRequest, SpeedView, Evaluation: what a runtime's plans take and fill

namespace llmsim {

// the part of a breakdown that counts against the device's usable limit: every GPU device (unified memory:
// the GPU side), or everything on a CPU-only device — what "Total / Limit" shows
uint64_t limit_side_bytes(const MemoryBreakdown& mb);

// memory and speed for one configuration; false + err on bad input (the memory model's messages)
bool evaluate(const Catalog& cat, const Model& model, const SimRequest& req, Evaluation& out, std::string& err);
// the same with weights the caller prepared (prepare_weights(cat, model, req.memory.file_type, err,
// req.memory.file_bytes_override.value_or(0)), prepared_weights.h); skips the cache lookup — for sweeps over devices and
// contexts. Reusing `out` across calls keeps its buffers.
bool evaluate(const Catalog& cat, const PreparedWeights& weights, const Model& model, const SimRequest& req,
              Evaluation& out, std::string& err);
// evaluate() with prepared weights for `count` contexts of one request (req.memory.n_ctx is not read): out[i] for
// contexts[i], the numbers of `count` evaluate() calls, with what does not depend on the context (the request's checks,
// the layer layout, the speed scenario, the prompt's prefill, the decodes at the prompt and at depth 0) made once per
// call — a sweep's contexts of one device. false + err (every out reset) when any context fails
bool evaluate_contexts(const Catalog& cat, const PreparedWeights& weights, const Model& model, const SimRequest& req,
                       const int64_t* contexts, int count, Evaluation* out, std::string& err);
// evaluate_contexts() over `n_devices` devices (req.memory.hardware is not read): out[d * count + i] for devices[d] at
// contexts[i], the numbers of one evaluate_contexts() call per device, with what does not depend on the device made
// once (llama.cpp: the request's checks, the layer layouts and each context's placement for every device of one
// backend and GPU count; memory.h estimate_memory_grid) — a leaderboard's, a recommender's or a sweep's devices for one
// model and quant. ok[d] false + errs[d] (its evaluations reset) when devices[d] fails
void evaluate_grid(const Catalog& cat, const PreparedWeights& weights, const Model& model, const SimRequest& req,
                   const Hardware* const* devices, int n_devices, const int64_t* contexts, int count, Evaluation* out,
                   bool* ok, std::string* errs);
// the evaluation's figures that come straight from the prepared weights: parameter counts, weight bytes and the
// attention layout (full / SWA layer counts and KV row sizes, when the model has both prefix tables; else -1, 0, 0);
// the memory and speed parts are left as they are
void copy_weight_figures(const PreparedWeights& weights, Evaluation& ev);

}  // namespace llmsim
