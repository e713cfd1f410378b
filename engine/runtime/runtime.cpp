// The runtime registry: one row per inference engine, indexed by RuntimeId. See runtime.h.
#include "runtime.h"

namespace llmsim {

// [SECTION] Rows: each runtime's functions (defined in runtime/<id>.cpp), then its row ---------------------
namespace llamacpp { MemoryPlan memory_plan; SpeedPlan speed_plan; CommandLine command_line; }

namespace {

constexpr Runtime kRuntimes[] = {
    {RuntimeId::LlamaCpp, "llamacpp", "llama.cpp", llamacpp::memory_plan, llamacpp::speed_plan, llamacpp::command_line},
};

// [SECTION] Checks on the table ---------------------------------------------------------------------------
static_assert(sizeof(kRuntimes) / sizeof(kRuntimes[0]) == (size_t)kRuntimeCount,
              "one row per RuntimeId (add the row, or the enumerator, in runtime.h)");

constexpr bool rows_in_order_and_complete() {
    for (int i = 0; i < kRuntimeCount; ++i)
        if ((int)kRuntimes[i].runtime != i || !runtime_complete(kRuntimes[i])) return false;
    return true;
}
static_assert(rows_in_order_and_complete(), "row i is RuntimeId i and sets id, name and all three functions");

}  // namespace

const Runtime* runtime(RuntimeId id) {
    const int i = (int)id;
    return i >= 0 && i < kRuntimeCount ? &kRuntimes[i] : nullptr;
}

const Runtime* find_runtime(const std::string& id) {
    for (const Runtime& r : kRuntimes)
        if (id == r.id) return &r;
    return nullptr;
}

RuntimeRange runtimes() { return {kRuntimes, kRuntimes + kRuntimeCount}; }

}  // namespace llmsim
