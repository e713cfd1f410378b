// Multi-GPU combinations of one catalog card ("2x-arc-b580": two B580s on one PCIe host, llama.cpp layer
// split) — the rigs the recommender proposes. Built once with the catalog (Catalog::combinations) so that every
// place that accepts a hardware id (predict, memory, fit, the URL, the pickers) accepts them too.
//
//   const llmsim::Hardware* h = cat.find_hardware("2x-arc-b580");   // finds catalog devices, then combinations
#pragma once
#include "catalog/catalog.h"

namespace llmsim {
constexpr int kMaxComboGpus = 8;   // 2x, 4x, 8x
// N identical cards on one PCIe host: memory and bandwidth per GPU as the card, prices x N
Hardware gpu_combination(const Hardware& base, int n);
// fill cat.combinations: 2x/4x/8x of every single discrete card, except rigs the catalog already lists
void add_gpu_combinations(Catalog& cat);
}  // namespace llmsim
