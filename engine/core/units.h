// llmsim units: the byte multiples every module and front end uses, defined once. GiB = 2^30 bytes (what memory
// is shown in); GB = 1e9 bytes (what bandwidth is quoted in, GB/s) — the two differ by 7 %.
//
//   const double gib = (double)bytes / (double)llmsim::kGiB;
#pragma once
#include <cstdint>

namespace llmsim {

constexpr uint64_t kMiB = 1024ull * 1024ull;
constexpr uint64_t kGiB = 1024ull * kMiB;

constexpr double to_gib(uint64_t bytes) { return (double)bytes / (double)kGiB; }

}  // namespace llmsim
