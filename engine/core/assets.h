// Assets compiled into every llmsim binary (catalog JSON, fitted calibration parameters).
// The bytes come from a file generated at build time by cmake/embed.cmake; no filesystem is needed.
//   std::string_view models = llmsim::embedded_asset("catalog/models.json");
#pragma once
#include <string_view>

namespace llmsim {
// bytes of an embedded asset by its path under assets/; empty when there is no such asset
std::string_view embedded_asset(const char* name);
// the version string of this build ("0.1.0")
const char* version();
}  // namespace llmsim
