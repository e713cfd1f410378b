// Labels for speed numbers and the llama-bench command that checks them (speed_labels.h).
#include "sim/speed_labels.h"

#include <cctype>

#include "runtime/command.h"
#include "core/format.h"
#include "core/text.h"
#include "quant/quant_rules.h"

namespace llmsim {

std::string context_words(int64_t depth) { return depth <= 0 ? "empty context" : format_tokens(depth) + " context"; }

std::string decode_label(int64_t depth) { return "decode at " + context_words(depth); }

std::string prefill_label(int64_t prompt_tokens, bool flash_attn) {
    return "prefill of a " + format_tokens(prompt_tokens) + " prompt, flash attention " + (flash_attn ? "on" : "off");
}

std::string decode_range_text(const SpeedView& v) {
    if (!v.ok) return "—";
    return format_sig(v.decode_empty_tps) + " → " + format_sig(v.decode_full_tps) + " tok/s (empty → " +
           format_tokens(v.decode_full_depth) + " context)";
}

std::string speed_conditions(const SpeedView& v) {
    std::string s = "decode tg128 at empty and at " + context_words(v.decode_full_depth) + "; " +
                    prefill_label(v.prompt_tokens, v.flash_attn);
    if (!v.calibrated.empty()) s += "; " + v.calibrated;
    return s;
}

std::string llama_bench_command(const Model& model, const SimRequest& req) {
    const MemoryRequest& m = req.memory;
    const int64_t full = m.n_ctx / (m.n_parallel > 1 ? m.n_parallel : 1);
    std::string cmd = "llama-bench -m " + gguf_file_name(model, m.file_type) + " -p " +
                      std::to_string(req.prompt_tokens > 0 ? req.prompt_tokens : 512) + " -n 128 -d 0," + std::to_string(full);
    cmd += m.flash_attn ? " -fa 1" : " -fa 0";
    cmd += " -ngl " + std::string(m.n_gpu_layers < 0 ? "99" : std::to_string(m.n_gpu_layers));
    if (m.n_ubatch != 512) cmd += " -ub " + std::to_string(m.n_ubatch);
    if (m.kv_type_k != TensorType::F16 || m.kv_type_v != TensorType::F16) {
        cmd += " -ctk " + lower_ascii(to_string(m.kv_type_k)) + " -ctv " + lower_ascii(to_string(m.kv_type_v));
    }
    return cmd;
}

}  // namespace llmsim
