// The words every speed number is shown with, in one place, so the page, the desktop app and the CLI say the
// same: decode is labelled with its context depth, prefill with its prompt length and flash attention, and
// each prediction comes with the llama-bench command that would measure it.
//
//   llmsim::decode_range_text(ev.speed)       -> "150 → 104 tok/s (empty → 32k context)"
//   llmsim::decode_label(32768)               -> "decode at 32k context"
//   llmsim::prefill_label(4096, true)         -> "prefill of a 4k prompt, flash attention on"
//   llmsim::llama_bench_command(model, req)   -> "llama-bench -m Qwen2.5-7B-Instruct-Q4_K_M.gguf -p 4096 -n 128 -d 0,32768 -fa 1 -ngl 99"
#pragma once
#include <cstdint>
#include <string>

#include "catalog/catalog.h"
#include "sim/simulate.h"

namespace llmsim {
// "empty context" for depth 0, else "32k context"
std::string context_words(int64_t depth);
// "decode at empty context", "decode at 32k context"
std::string decode_label(int64_t depth);
// "prefill of a 4k prompt, flash attention on|off"
std::string prefill_label(int64_t prompt_tokens, bool flash_attn);
// the decode range a user lives through: "150 → 104 tok/s (empty → 32k context)"; "—" without a speed
std::string decode_range_text(const SpeedView& v);
// the conditions of a SpeedView in one line: "decode tg128 at empty and at 32k context; prefill of a 4k prompt,
// flash attention on" (+ "; calibrated on your N rows" when a device profile applied)
std::string speed_conditions(const SpeedView& v);
// the llama-bench run that measures exactly these numbers: prefill of the prompt, tg128 at depth 0 and at the
// full context, the same flash attention and GPU layers
std::string llama_bench_command(const Model& model, const SimRequest& req);
}  // namespace llmsim
