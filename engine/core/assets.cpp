// Assets by name: compiled in (the generated embedded_assets.cpp) or handed over at run time. See assets.h.
#include "core/assets.h"

#include <map>
#include <mutex>

namespace llmsim {
namespace {
struct RuntimeAssets {
    std::mutex mutex;
    std::map<std::string, std::string> files;   // a map's nodes never move: a view into one stays valid
};
RuntimeAssets& runtime_assets() {
    static RuntimeAssets r;
    return r;
}
}  // namespace

std::string_view embedded_asset(const char* name) {
    const std::string_view compiled = compiled_asset(name);
    if (!compiled.empty()) return compiled;
    RuntimeAssets& r = runtime_assets();
    std::lock_guard<std::mutex> lock(r.mutex);
    auto it = r.files.find(name);
    return it == r.files.end() ? std::string_view() : std::string_view(it->second);
}

bool add_runtime_asset(const std::string& name, std::string bytes) {
    if (!compiled_asset(name.c_str()).empty()) return false;
    RuntimeAssets& r = runtime_assets();
    std::lock_guard<std::mutex> lock(r.mutex);
    return r.files.emplace(name, std::move(bytes)).second;
}

}  // namespace llmsim
