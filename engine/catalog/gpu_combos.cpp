// Multi-GPU combinations of catalog cards (gpu_combos.h).
#include "catalog/gpu_combos.h"

namespace llmsim {

Hardware gpu_combination(const Hardware& base, int n) {
    Hardware h = base;
    h.id = std::to_string(n) + "x-" + base.id;
    h.name = std::to_string(n) + "x " + base.name;
    h.gpu_count = n;
    if (h.link.empty()) { h.link = "pcie"; h.link_gbs = 32; h.link_assumed = true; }   // PCIe 4.0 x16 per direction
    h.price_usd = base.price_usd > 0 ? base.price_usd * n : 0;
    h.price_used_usd = base.price_used_usd > 0 ? base.price_used_usd * n : 0;
    h.cloud_usd_per_hour = base.cloud_usd_per_hour > 0 ? base.cloud_usd_per_hour : 0;   // per GPU, as in the catalog
    h.seed_aliases.clear();
    h.calibration_names.clear();
    h.tool_names.clear();
    h.notes.push_back("synthetic: " + std::to_string(n) + " identical cards, llama.cpp layer split over PCIe");
    return h;
}

void add_gpu_combinations(Catalog& cat) {
    cat.combinations.clear();
    for (const Hardware& h : cat.hardware) {
        if (h.gpu_count != 1 || h.unified_memory() || h.kind == HardwareKind::Cpu) continue;
        for (int n = 2; n <= kMaxComboGpus; n *= 2) {
            bool exists = false;   // the catalog already lists this rig
            for (const Hardware& c : cat.hardware)
                exists |= c.gpu_count == n && c.bandwidth_gbs == h.bandwidth_gbs && c.memory_bytes == h.memory_bytes && c.vendor == h.vendor;
            if (!exists) cat.combinations.push_back(gpu_combination(h, n));
        }
    }
}

}  // namespace llmsim
