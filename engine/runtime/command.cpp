#include "runtime/command.h"

#include "catalog/model_names.h"

#include "quant/quant_rules.h"
#include "memory/memory.h"
#include "rig/rig.h"
#include "memory/llama_server_args.h"

#include <cctype>
#include <cmath>
#include <cstdio>

namespace llmsim {

namespace {

std::string num(double v) {
    char buf[32];
    snprintf(buf, sizeof buf, "%g", v);
    return buf;
}

// -ts for a mixed rig: the given proportions, else the free memory the simulation split by (GiB, one decimal), so
// that the run places layers where the simulation did — llama.cpp's own default reads free memory at load time,
// which moves with whatever else the GPUs hold
std::string rig_tensor_split(const Hardware& rig, const MemoryRequest& m) {
    std::string ts;
    for (size_t i = 0; i < rig.rig.size(); ++i) {
        double part;
        if (i < m.tensor_split.size()) {
            part = m.tensor_split[i];
        } else {
            const Hardware& h = rig.rig[i].hw;
            const uint64_t lim = usable_gpu_bytes(h, m);
            const uint64_t ovh = backend_runtime_bytes(h.backends.empty() ? Backend::Vulkan : h.backends.front());
            part = std::round((double)(lim > ovh ? lim - ovh : 0) / (double)kGiB * 10.0) / 10.0;
        }
        ts += (i ? "," : "") + num(part);
    }
    return ts;
}

// the rpc-server each RPC host runs first (tools/rpc: rpc-server -H host -p port), one comment line per host
std::string rpc_server_lines(const Hardware& rig) {
    std::string out;
    int last = 0;
    for (const RigDevice& d : rig.rig)
        if (d.host > last) {
            last = d.host;
            out += "# on RPC host " + std::to_string(d.host) + " (" + d.host_label + ", 192.168.1." + std::to_string(10 + d.host) +
                   "): rpc-server -H 0.0.0.0 -p 50052\n";
        }
    return out;
}
}  // namespace

std::string ollama_command(const Model& model, const std::string& file_type) {
    const std::string tag = ollama_tag_for(model, file_type);
    return tag.empty() ? std::string() : "ollama run " + tag;
}

std::string gguf_file_name(const Model& model, const std::string& file_type) {
    std::string base = model.id;
    size_t slash = base.rfind('/');
    if (slash != std::string::npos) base = base.substr(slash + 1);
    return base + "-" + file_type + ".gguf";
}

std::string llama_server_command(const Catalog& cat, const Model& model, const SimRequest& req, int port) {
    const MemoryRequest& m = req.memory;
    const FileType* ft = cat.find_file_type(m.file_type);
    const std::string port_s = std::to_string(port);   // the MLX and vLLM lines
    if (ft && !ft->gguf) {
        if (ft->name.rfind("MLX", 0) == 0)
            return "# llama.cpp does not load MLX weights; MLX's own server:\nmlx_lm.server --model " + model.id +
                   " --port " + port_s;
        return "# llama.cpp does not load " + ft->name + " checkpoints; vLLM serves them:\nvllm serve " + model.id +
               " --max-model-len " + std::to_string(m.n_ctx) + " --port " + port_s;
    }
    LlamaServerArgs a = LlamaServerArgs::file(gguf_file_name(model, ft ? ft->name : m.file_type));
    a.ctx(m.n_ctx).gpu_layers(m.n_gpu_layers).flash_attn(m.flash_attn).kv_types(m.kv_type_k, m.kv_type_v);
    if (m.cpu_moe) a.flag("--cpu-moe");
    else if (m.n_cpu_moe > 0) a.option("--n-cpu-moe", std::to_string(m.n_cpu_moe));
    if (m.n_parallel > 1) a.parallel(m.n_parallel);
    std::string rpc_lines;   // the rpc-server each RPC host starts first, before the command
    if (m.hardware && !m.hardware->rig.empty()) {
        const Hardware& rig = *m.hardware;
        if (rig.rig.size() > 1 && m.split_mode != SplitMode::None) a.option("-ts", rig_tensor_split(rig, m));
        if (m.split_mode != SplitMode::Layer) a.option("-sm", to_string(m.split_mode));
        if (m.split_mode != SplitMode::Layer && m.main_gpu != 0) a.option("-mg", std::to_string(m.main_gpu));
        const std::string rpc = rpc_endpoints(rig);
        if (!rpc.empty()) {
            a.option("--rpc", rpc);
            rpc_lines = rpc_server_lines(rig);
        }
    } else if (m.hardware && m.hardware->gpu_count > 1) {
        std::string ts;
        for (int i = 0; i < m.hardware->gpu_count; ++i) {
            ts += (i ? "," : "") + ((size_t)i < m.tensor_split.size() ? num(m.tensor_split[i]) : std::string("1"));
        }
        a.option("-ts", ts);
        if (m.split_mode != SplitMode::Layer) a.option("-sm", to_string(m.split_mode));
        if (m.split_mode != SplitMode::Layer && m.main_gpu != 0) a.option("-mg", std::to_string(m.main_gpu));
    }
    if (m.n_ubatch != 512) a.ubatch(m.n_ubatch);
    a.port(port);
    return rpc_lines + a.str();
}

}  // namespace llmsim
