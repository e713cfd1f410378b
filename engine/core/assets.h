// Assets of every llmsim binary (catalog JSON, fitted calibration parameters, measured rows): compiled in from a file
// generated at build time by cmake/embed.cmake (no filesystem needed), or handed over at run time. The web page
// compiles in only what its first view needs; the measured rows and the serving accuracy report are files next to
// llmsim.wasm that the page fetches after its first frame and passes in here (ui/platform_web.cpp). Native programs
// compile everything in.
//   std::string_view models = llmsim::embedded_asset("catalog/models.json");
//   llmsim::add_runtime_asset("calibration/serving_accuracy.json", std::move(text));   // the page's fetch
#pragma once
#include <string>
#include <string_view>

namespace llmsim {
// bytes of an asset by its path under assets/ (compiled in, or handed over by add_runtime_asset); empty when there is
// no such asset (yet)
std::string_view embedded_asset(const char* name);
// the compiled-in assets alone (the file cmake/embed.cmake generates defines it)
std::string_view compiled_asset(const char* name);
// an asset this program received at run time; embedded_asset() finds it from then on. The bytes are kept for the
// life of the program (views into them stay valid). false (and nothing changes) when `name` is compiled in or was
// handed over before: an asset never changes under a reader that parsed it.
bool add_runtime_asset(const std::string& name, std::string bytes);
// the version string of this build ("0.1.0")
const char* version();
}  // namespace llmsim
