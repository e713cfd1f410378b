// llmsim runtimes: the plans a scenario (SimRequest, scenario.h) runs on its inference engine. The engines themselves
// are rows of one table (serving/engines.h: id, names, memory rule, speed, command line, flags); a row's `scenario`
// field picks one of the plan sets here: llama.cpp's own models (memory.h's estimate_memory, speed_glue.h's speed
// view, command.h's llama-server command line), or the serving model with the scenario mapped to a ServeRequest
// (runtime/serving_engines.cpp). The arithmetic a plan uses stays where it lives; a plan only names it.
//
//   const llmsim::Runtime* rt = llmsim::runtime(req.engine);            // EngineId::LlamaCpp by default
//   std::string cmd = rt->command_line(cat, model, req, 8080);           // "llama-server -m ... --port 8080"
//   bool ok = rt->memory_plan(req.engine, weights, model, req.memory, breakdown, err);
//
// Adding an engine: a row in serving/engines.cpp, nothing here. Adding a way to run scenarios (a third plan set):
// an enumerator in engines.h ScenarioModel, its three functions and a row in kRuntimes (runtime.cpp).
//
// [SECTION] Plans
// [SECTION] Lookup
#pragma once
#include <string>

#include "serving/engines.h"

namespace llmsim {

struct Catalog;            // catalog.h
struct Model;              // catalog.h
struct MemoryRequest;      // memory.h
struct MemoryBreakdown;    // memory.h
struct PreparedWeights;    // prepared_weights.h
struct SimRequest;         // scenario.h
struct Evaluation;         // scenario.h
struct Hardware;           // catalog.h
struct MlxSpeedInputs;     // speed/mlx_speed.h
struct MlxSpeedParams;     // speed/mlx_speed.h

// [SECTION] Plans ----------------------------------------------------------------------------------------

// the memory plan of `engine`: the per-device breakdown for prepared weights; false + err on bad input
using MemoryPlan = bool(EngineId engine, const PreparedWeights& weights, const Model& model, const MemoryRequest& req,
                        MemoryBreakdown& out, std::string& err);
// the speed plan of req.engine: fills out.speed from the memory breakdown already in `out` (out.speed.error: why none)
using SpeedPlan = void(const Catalog& cat, const Model& model, const SimRequest& req, Evaluation& out);
// the command line that runs exactly the simulated setup on req.engine, serving on `port`
using CommandLine = std::string(const Catalog& cat, const Model& model, const SimRequest& req, int port);
// the memory and speed plans for `count` contexts of one request (req.memory.n_ctx is not read): out[i].memory and
// out[i].speed for contexts[i], the numbers of `count` memory_plan + speed_plan calls, with the work that does not
// depend on the context done once where the plan set can share it; false + err when any context's memory plan fails
using ContextsPlan = bool(const Catalog& cat, const PreparedWeights& weights, const Model& model, const SimRequest& req,
                          const int64_t* contexts, int count, Evaluation* out, std::string& err);
// the contexts plan over `n_devices` devices (req.memory.hardware is not read): out[d * count + i] for devices[d] at
// contexts[i], the numbers of one contexts plan per device, with the work that does not depend on the device done
// once where the plan set can share it; ok[d] false + errs[d] when devices[d]'s plan fails
using GridPlan = void(const Catalog& cat, const PreparedWeights& weights, const Model& model, const SimRequest& req,
                      const Hardware* const* devices, int n_devices, const int64_t* contexts, int count, Evaluation* out,
                      bool* ok, std::string* errs);

struct Runtime {
    // every field is a constructor argument, so a row that leaves one out does not compile (an aggregate row
    // would silently get nullptr); test_runtime also checks at run time that no function is null
    constexpr Runtime(ScenarioModel model_, MemoryPlan* memory_plan_, SpeedPlan* speed_plan_, CommandLine* command_line_,
                      ContextsPlan* contexts_plan_, GridPlan* grid_plan_)
        : model(model_), memory_plan(memory_plan_), speed_plan(speed_plan_), command_line(command_line_),
          contexts_plan(contexts_plan_), grid_plan(grid_plan_) {}
    ScenarioModel model;        // its index in kRuntimes
    MemoryPlan* memory_plan;
    SpeedPlan* speed_plan;
    CommandLine* command_line;
    ContextsPlan* contexts_plan;   // a sweep's contexts (plan_each_context: the two plans once per context)
    GridPlan* grid_plan;           // a sweep's devices (plan_each_device: the contexts plan once per device)
};

// a plan set with every function set (checked at run time by test_runtime: comparing a function's address with
// null is not a constant expression under GCC's -fsanitize=undefined, so it cannot be a static_assert)
inline bool runtime_complete(const Runtime& r) {
    return r.memory_plan && r.speed_plan && r.command_line && r.contexts_plan && r.grid_plan;
}

// llama.cpp's own models: runtime/llamacpp.cpp
namespace llamacpp {
MemoryPlan memory_plan; SpeedPlan speed_plan; CommandLine command_line; ContextsPlan contexts_plan; GridPlan grid_plan;
}  // namespace llamacpp
// the serving model for any engine row (vLLM, SGLang, TensorRT-LLM, LMDeploy): runtime/serving_engines.cpp
namespace serving_adapter { MemoryPlan memory_plan; SpeedPlan speed_plan; CommandLine command_line; }
// mlx-lm's own models (memory/mlx_memory.h, the MLX speed view, mlx_lm.generate / mlx_lm.server): runtime/mlx.cpp
namespace mlx {
MemoryPlan memory_plan; SpeedPlan speed_plan; CommandLine command_line;
// the speed formulas' inputs (speed/mlx_speed.h) for an evaluated MLX scenario; false + err without an Apple device
bool speed_inputs(const Model& m, const SimRequest& req, const Evaluation& ev, MlxSpeedInputs& in, std::string& err);
// the shipped shares, per-token and per-MoE-layer costs and bands (runtime/mlx.cpp kShippedMlxSpeed)
MlxSpeedParams shipped_speed_params();
}  // namespace mlx

// [SECTION] Lookup ---------------------------------------------------------------------------------------

// the plans a scenario on this engine runs (its row's ScenarioModel); nullptr for Count or a value outside the
// enum (evaluate() reports it as an error)
const Runtime* runtime(EngineId id);
// the plan set of a scenario model; nullptr outside the enum
const Runtime* runtime_of(ScenarioModel m);

}  // namespace llmsim
