// JSON in, JSON out: the entry points the JS API (window.llmsim.memory / predict) and the CLI share, so the
// browser and `llmsim-cli memory --json` / `llmsim-cli predict` give the same answers with the same keys.
//   std::string out = llmsim::api_memory(cat, R"({"model":"Qwen/Qwen2.5-7B-Instruct","quant":"Q4_K_M","ctx":32768,"hardware":"rtx-4090"})");
#pragma once
#include <string>

#include <nlohmann/json.hpp>

#include "catalog/catalog.h"
#include "serving/cost.h"
#include "memory/memory.h"

namespace llmsim {
// the breakdown with the contract keys of `llmsim-cli memory --json` (weights_bytes, kv_cache_bytes, compute_bytes,
// overhead_bytes, total_bytes, usable_bytes, status, max_context, devices[...]); usable/status/max_context are
// null without hardware
nlohmann::json memory_to_json(const Model& model, const MemoryRequest& req, const MemoryBreakdown& mb);
// a memory request as JSON: {"model", "config"?, "quant", "ctx", "hardware"?, "kv_type"?, "ngl"?, "parallel"?,
// "ubatch"?, "flash_attn"?, "n_cpu_moe"?, "file_bytes"?} → memory_to_json, or {"error": "..."}
std::string api_memory(const Catalog& cat, const std::string& request_json);
// a cost result with the keys of `llmsim-cli cost --json` and the JS API's results().cost (hours_needed_per_month,
// devices_needed, active_hours_per_month per device, utilisation, capacity_tokens_per_month, load_over_capacity,
// served_share, capacity_note, own/rent/api USD per month, payback_months, cheapest); unknown values are null
nlohmann::json cost_to_json(const CostResult& r);
}  // namespace llmsim
