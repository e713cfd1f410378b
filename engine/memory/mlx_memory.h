// llmsim MLX memory: where the bytes go when mlx-lm (`mlx_lm.generate` / `mlx_lm.server`) runs a model on an Apple
// Silicon Mac: the weights as mlx_lm.convert stores them (quant/mlx_quant.h), mlx-lm's KV cache, a prefill
// working set and the Metal runtime, against the wired-memory limit mlx-lm sets. Fills the same MemoryBreakdown the
// llama.cpp model fills (one "Metal" device), so every view of a memory result shows MLX too.
//
// Facts (ml-explore/mlx-lm@d78bf58e, 2026-08-22):
// - KV cache: mlx_lm/models/cache.py KVCache keeps keys and values as (batch, n_kv_heads, cells, head_dim) arrays in
//   the activations' dtype (fp16/bf16) and grows them by `step = 256` cells; sliding-window layers of models whose
//   make_cache() builds RotatingKVCache(max_size = sliding_window) (gemma3_text.py, gpt_oss.py, llama.py with
//   layer_types) stop at the window. DeepSeek's MLA caches the latent and the RoPE part (deepseek_v3.py), as
//   llama.cpp does. `--kv-bits 4|8` turns it into QuantizedKVCache (group 64, fp16 scale + bias per group).
// - Wired limit: mlx_lm/generate.py wired_limit() wires up to mx.device_info()["max_recommended_working_set_size"]
//   (Metal's recommendedMaxWorkingSetSize, which `sudo sysctl iogpu.wired_limit_mb=N` raises; 0 = the macOS default)
//   and warns when the model takes more than 0.9 of it: the COMFORTABLE / TIGHT line here.
//
//   llmsim::MemoryRequest req; req.file_type = "mlx-4bit-g64"; req.n_ctx = 8192; req.hardware = cat.find_hardware("m4-max-128");
//   llmsim::MemoryBreakdown mb; std::string err;
//   auto w = llmsim::prepare_weights(cat, model, req.file_type, err);
//   if (w && llmsim::estimate_mlx_memory(*w, model, req, mb, err)) printf("%s\n", llmsim::to_string(mb.status));
#pragma once
#include <cstdint>
#include <string>

#include "memory/memory.h"

namespace llmsim {

struct PreparedWeights;  // prepared_weights.h

// KVCache grows by this many cells (mlx_lm/models/cache.py KVCache.step)
constexpr int64_t kMlxKvStep = 256;
// mlx_lm.generate prefills the prompt in chunks of this many tokens (generate.py generate_step prefill_step_size)
constexpr int64_t kMlxPrefillStep = 2048;
// mlx-lm's memory warning: a model above this share of the wired limit "can be slow" (generate.py wired_limit)
constexpr double kMlxWiredWarnFraction = 0.9;
// the QuantizedKVCache group (generate.py --kv-group-size default 64)
constexpr int kMlxKvGroupSize = 64;

// the KV-cache bytes mlx-lm holds for one sequence of n_tokens: full layers round up to the next 256 cells, rotating
// (sliding-window) layers stop at the window; kv_bits 0 = fp16/bf16, 4 or 8 = --kv-bits
uint64_t mlx_kv_cache_bytes(const Model& m, int64_t n_tokens, int kv_bits);
// true when mlx-lm gives layer il a RotatingKVCache (sliding window)
bool mlx_layer_rotates(const Model& m, int il);
// the mlx --kv-bits of a llama.cpp KV type: F16/BF16 -> 0, Q8_0 -> 8, Q4_0 -> 4; -1 for types MLX has no match for
int mlx_kv_bits(TensorType t);

// the MLX memory plan for prepared weights (an MLX quant name: mlx_quant.h): one "Metal" device against the wired
// limit; false + err for a non-MLX quant, a device that is not Apple Silicon, a KV type MLX lacks, n_ctx < 1
bool estimate_mlx_memory(const PreparedWeights& w, const Model& m, const MemoryRequest& req, MemoryBreakdown& out,
                         std::string& err);

}  // namespace llmsim
