// The plan sets (runtime.h) and the lookup from an engine row to its plans. See runtime.h.
#include "runtime/runtime.h"

#include <algorithm>

#include "runtime/scenario.h"

namespace llmsim {

namespace {

// the contexts plan of a plan set that shares nothing across contexts: its memory and speed plans once per context
template <MemoryPlan* memory_plan, SpeedPlan* speed_plan>
bool plan_each_context(const Catalog& cat, const PreparedWeights& w, const Model& m, const SimRequest& req,
                       const int64_t* contexts, int count, Evaluation* out, std::string& err) {
    SimRequest r = req;
    for (int i = 0; i < count; ++i) {
        r.memory.n_ctx = contexts[i];
        if (!memory_plan(r.engine, w, m, r.memory, out[i].memory, err)) return false;
        if (r.with_speed) speed_plan(cat, m, r, out[i]);
        else out[i].speed = SpeedView();
    }
    return true;
}

// the grid plan of a plan set that shares nothing across devices: its contexts plan once per device
template <ContextsPlan* contexts_plan>
void plan_each_device(const Catalog& cat, const PreparedWeights& w, const Model& m, const SimRequest& req,
                      const Hardware* const* devices, int n_devices, const int64_t* contexts, int count, Evaluation* out,
                      bool* ok, std::string* errs) {
    SimRequest r = req;
    for (int d = 0; d < n_devices; ++d) {
        r.memory.hardware = devices[d];
        ok[d] = contexts_plan(cat, w, m, r, contexts, count, out + (size_t)d * (size_t)std::max(count, 0), errs[d]);
    }
}

constexpr Runtime kRuntimes[] = {
    {ScenarioModel::LlamaCpp, llamacpp::memory_plan, llamacpp::speed_plan, llamacpp::command_line,
     llamacpp::contexts_plan, llamacpp::grid_plan},
    {ScenarioModel::Serving, serving_adapter::memory_plan, serving_adapter::speed_plan, serving_adapter::command_line,
     plan_each_context<serving_adapter::memory_plan, serving_adapter::speed_plan>,
     plan_each_device<plan_each_context<serving_adapter::memory_plan, serving_adapter::speed_plan>>},
    {ScenarioModel::Mlx, mlx::memory_plan, mlx::speed_plan, mlx::command_line,
     plan_each_context<mlx::memory_plan, mlx::speed_plan>,
     plan_each_device<plan_each_context<mlx::memory_plan, mlx::speed_plan>>},
};
constexpr int kRuntimeCount = (int)ScenarioModel::Count;
static_assert(sizeof(kRuntimes) / sizeof(kRuntimes[0]) == (size_t)kRuntimeCount, "one plan set per ScenarioModel");
constexpr bool runtime_rows_in_order() {
    for (int i = 0; i < kRuntimeCount; ++i)
        if ((int)kRuntimes[i].model != i) return false;
    return true;
}
static_assert(runtime_rows_in_order(), "every kRuntimes row is in ScenarioModel order");

}  // namespace

const Runtime* runtime_of(ScenarioModel m) {
    const int i = (int)m;
    return i >= 0 && i < kRuntimeCount ? &kRuntimes[i] : nullptr;
}

const Runtime* runtime(EngineId id) {
    const int i = (int)id;
    return i >= 0 && i < kEngineCount ? runtime_of(engine_row(id).scenario) : nullptr;
}

}  // namespace llmsim
