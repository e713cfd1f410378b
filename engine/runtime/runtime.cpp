// Looking up the runtime registry (the table and its checks are in runtime.h). See runtime.h.
#include "runtime/runtime.h"

namespace llmsim {

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
