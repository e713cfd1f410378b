#include "runtime/command.h"

#include "quant/quant_rules.h"

#include <cctype>

namespace llmsim {

namespace {
std::string lower_name(std::string s) {
    for (char& c : s) c = (char)std::tolower((unsigned char)c);
    return s;
}
}  // namespace

std::string gguf_file_name(const Model& model, const std::string& file_type) {
    std::string base = model.id;
    size_t slash = base.rfind('/');
    if (slash != std::string::npos) base = base.substr(slash + 1);
    return base + "-" + file_type + ".gguf";
}

std::string llama_server_command(const Catalog& cat, const Model& model, const SimRequest& req, int port) {
    const MemoryRequest& m = req.memory;
    const FileType* ft = cat.find_file_type(m.file_type);
    std::string port_s = std::to_string(port);
    if (ft && !ft->gguf) {
        if (ft->name.rfind("MLX", 0) == 0)
            return "# llama.cpp does not load MLX weights; MLX's own server:\nmlx_lm.server --model " + model.id +
                   " --port " + port_s;
        return "# llama.cpp does not load " + ft->name + " checkpoints; vLLM serves them:\nvllm serve " + model.id +
               " --max-model-len " + std::to_string(m.n_ctx) + " --port " + port_s;
    }
    std::string cmd = "llama-server -m " + gguf_file_name(model, ft ? ft->name : m.file_type);
    cmd += " -c " + std::to_string(m.n_ctx);
    // -ngl 99 = "all layers" (llama.cpp clamps to n_layers + 1, the output layer included)
    cmd += " -ngl " + std::string(m.n_gpu_layers < 0 ? "99" : std::to_string(m.n_gpu_layers));
    cmd += m.flash_attn ? " -fa on" : " -fa off";
    // llama.cpp matches -ctk/-ctv against ggml's lower-case type names (q8_0, q4_0, ...)
    if (m.kv_type_k != TensorType::F16) cmd += " -ctk " + lower_name(to_string(m.kv_type_k));
    if (m.kv_type_v != TensorType::F16) cmd += " -ctv " + lower_name(to_string(m.kv_type_v));
    if (m.cpu_moe) cmd += " --cpu-moe";
    else if (m.n_cpu_moe > 0) cmd += " --n-cpu-moe " + std::to_string(m.n_cpu_moe);
    if (m.n_parallel > 1) cmd += " -np " + std::to_string(m.n_parallel);
    if (m.hardware && m.hardware->gpu_count > 1) {
        std::string ts;
        for (int i = 0; i < m.hardware->gpu_count; ++i) {
            std::string part = "1";
            if ((size_t)i < m.tensor_split.size()) {
                char buf[32];
                snprintf(buf, sizeof buf, "%g", m.tensor_split[i]);
                part = buf;
            }
            ts += (i ? "," : "") + part;
        }
        cmd += " -ts " + ts;
    }
    if (m.n_ubatch != 512) cmd += " -ub " + std::to_string(m.n_ubatch);
    cmd += " --port " + port_s;
    return cmd;
}

}  // namespace llmsim
