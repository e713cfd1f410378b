// The plan sets (runtime.h) and the lookup from an engine row to its plans. See runtime.h.
#include "runtime/runtime.h"

namespace llmsim {

namespace {

constexpr Runtime kRuntimes[] = {
    {ScenarioModel::LlamaCpp, llamacpp::memory_plan, llamacpp::speed_plan, llamacpp::command_line},
    {ScenarioModel::Serving, serving_adapter::memory_plan, serving_adapter::speed_plan, serving_adapter::command_line},
    {ScenarioModel::Mlx, mlx::memory_plan, mlx::speed_plan, mlx::command_line},
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
