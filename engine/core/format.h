// Number formatting shared by the CLI and the UI: units always explicit (GiB vs GB), 3 significant figures,
// locale-independent (a desktop with a comma decimal separator prints the same as the browser).
//   format_gib(45.3e9) -> "42.2 GiB"     format_tokens(32768) -> "32k"     format_sig(1234.5, 3) -> "1230"
#pragma once
#include <cstdint>
#include <string>

#include "core/units.h"

namespace llmsim {
// bytes as GiB (2^30) with 3 significant figures (at least one decimal below 100)
std::string format_gib(double bytes);
// bytes as decimal GB (10^9)
std::string format_gb(double bytes);
// value with n significant figures, no exponent for |v| in [1e-3, 1e9)
std::string format_sig(double v, int n = 3);
// a token count the way llama.cpp users say it: 4096 -> "4k", 131072 -> "128k", 1000 -> "1000"
std::string format_tokens(int64_t tokens);
// value with a fixed number of decimals, locale-independent
std::string format_fixed(double v, int decimals);
}  // namespace llmsim
