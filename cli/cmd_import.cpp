// llmsim-cli import FILE [--id HF_ID]: read a Hugging Face config.json or a .gguf header and print the model
// llmsim would simulate (architecture, dimensions, MoE/MLA/SWA/hybrid layout, context, parameter counts, and
// for GGUF the weights' size). Bad input of any kind (missing, directory, empty, truncated, not JSON/GGUF,
// hostile counts, inconsistent fields): one line on stderr, exit 2.
//
// A .gguf is read through gguf.h's callback, header only (a few MiB of a file of many GiB); a config.json is
// read up to kHfConfigMaxBytes + 1 bytes, never further.
#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string>

#include "commands.h"
#include "core/format.h"
#include "core/text.h"
#include "io/gguf.h"
#include "model/hf_config.h"
#include "model/model_tensors.h"

namespace llmsim::cli {

namespace {

struct File {
    FILE* f = nullptr;
    ~File() {
        if (f) fclose(f);
    }
};

// 7.62 B / 123 M / 5856: parameter counts at every scale (the corpus holds models of a few thousand)
std::string count_text(uint64_t n) {
    if (n >= 1000000000ull) return format_sig((double)n / 1e9, 3) + " B";
    if (n >= 1000000ull) return format_sig((double)n / 1e6, 3) + " M";
    return std::to_string(n);
}

std::string bytes_text(uint64_t b) {
    if (b >= (1ull << 30)) return format_gib((double)b);
    if (b >= (1ull << 20)) return format_sig((double)b / (1 << 20), 3) + " MiB";
    return format_sig((double)b / 1024, 3) + " KiB";
}

void print_model(const Model& m, const std::string& path) {
    if (m.name.empty())
        printf("model:      (unnamed; --id HF_ID names it) from %s\n", path.c_str());
    else
        printf("model:      %s%s\n", m.name.c_str(), m.id != m.name && !m.id.empty() ? (" (" + m.id + ")").c_str() : "");
    printf("arch:       %s\n", m.arch.c_str());
    printf("layers:     %d\n", m.n_layers);
    printf("hidden:     %lld\n", (long long)m.hidden_size);
    printf("heads:      %d (KV heads %d, head_dim %d%s)\n", m.n_heads, m.n_kv_heads, m.head_dim,
           m.head_dim_v ? (", V head_dim " + std::to_string(m.head_dim_v)).c_str() : "");
    printf("ffn:        %lld\n", (long long)m.intermediate_size);
    printf("vocab:      %lld\n", (long long)m.vocab_size);
    printf("context:    %lld tokens native", (long long)m.native_context);
    if (m.extended_context > 0)
        printf(", %lld with %s RoPE scaling", (long long)m.extended_context,
               m.rope_scaling.empty() ? "its" : m.rope_scaling.c_str());
    printf("\n");
    if (m.is_moe())
        printf("moe:        %d experts, %d active per token, expert ffn %lld, %d shared, %d leading dense layers, "
               "every %d. layer MoE\n",
               m.moe->n_experts, m.moe->n_experts_active, (long long)m.moe->expert_ffn, m.moe->n_shared_experts,
               m.moe->first_dense_layers, m.moe->layer_step);
    else
        printf("moe:        no (dense)\n");
    if (m.mla)
        printf("mla:        kv_lora_rank %d, q_lora_rank %d, rope dim %d, nope dim %d, v dim %d\n", m.mla->kv_lora_rank,
               m.mla->q_lora_rank, m.mla->qk_rope_head_dim, m.mla->qk_nope_head_dim, m.mla->v_head_dim);
    else
        printf("mla:        no\n");
    if (m.swa)
        printf("swa:        window %lld tokens, %s\n", (long long)m.swa->window,
               m.swa->pattern > 0 ? ("every " + std::to_string(m.swa->pattern) + ". layer full attention").c_str()
                                  : (std::to_string(m.swa->sliding_layers.size()) + " sliding layers").c_str());
    else
        printf("swa:        no\n");
    if (m.hybrid)
        printf("hybrid:     %s recurrent layers, %zu attention layers of %d\n", m.hybrid->recurrent_type.c_str(),
               m.hybrid->attention_layers.size(), m.n_layers);
}

// params as llmsim's tensor model counts them; false + message when the model cannot be enumerated
bool print_params(const Model& m, std::string& err) {
    ParamCounts pc;
    if (!count_params(m, pc, err)) return false;
    printf("params:     %s total, %s active per token (%llu / %llu)\n", count_text(pc.total).c_str(),
           count_text(pc.active).c_str(), (unsigned long long)pc.total, (unsigned long long)pc.active);
    return true;
}

int import_gguf(const std::string& path, FILE* f, uint64_t file_size, const std::string& id) {
    uint64_t bytes_read = 0;
    GgufReadFn rd = [&](uint64_t off, void* dst, size_t n) -> size_t {
        if (off > (uint64_t)INT64_MAX || fseeko(f, (off_t)off, SEEK_SET) != 0) return 0;
        const size_t got = fread(dst, 1, n, f);
        bytes_read += got;
        return got;
    };
    GgufInfo info;
    std::string err;
    if (!read_gguf(rd, info, err)) return fail("import: " + path + ": " + err);
    // tensor data the header promises must be in the file (a cut download still has a whole header)
    uint64_t data_end = 0;
    for (const auto& t : info.tensors) data_end = std::max(data_end, t.offset + t.bytes);
    if (data_end > 0 && (info.data_offset > file_size || data_end > file_size - info.data_offset))
        return fail("import: " + path + ": GGUF: the tensor data ends at byte " +
                    std::to_string(info.data_offset + data_end) + " but the file has " + std::to_string(file_size) +
                    " bytes; it is truncated - download it again");
    Model m;
    if (!model_from_gguf(info, m, err)) return fail("import: " + path + ": " + err);
    if (!id.empty()) m.id = id;
    printf("file:       %s (GGUF v%u, %llu tensors, %llu metadata keys, header %llu bytes; read %llu bytes)\n",
           path.c_str(), info.version, (unsigned long long)info.n_tensors, (unsigned long long)info.n_kv,
           (unsigned long long)info.data_offset, (unsigned long long)bytes_read);
    print_model(m, path);
    if (!print_params(m, err)) return fail("import: " + path + ": " + err);
    printf("weights:    %s (%llu bytes, %s parameters in the file)", bytes_text(info.tensor_data_bytes).c_str(),
           (unsigned long long)info.tensor_data_bytes, count_text(info.n_elements).c_str());
    for (size_t i = 0; i < info.by_type.size() && i < 4; ++i)
        printf("%s%s x%llu", i ? ", " : "; ", info.by_type[i].type_name, (unsigned long long)info.by_type[i].n_tensors);
    printf("\n");
    for (const std::string& n : m.notes) printf("note:       %s\n", n.c_str());
    return 0;
}

int import_config(const std::string& path, FILE* f, uint64_t file_size, const std::string& id) {
    if (file_size > kHfConfigMaxBytes)
        return fail("import: " + path + ": config.json: the file is " + std::to_string(file_size >> 10) +
                    " KiB; a config.json is a few KiB (limit " + std::to_string(kHfConfigMaxBytes >> 10) +
                    " KiB) - was tokenizer.json or a weights file picked?");
    std::string text;
    text.resize((size_t)file_size + 1);
    const size_t got = fread(&text[0], 1, text.size(), f);
    if (ferror(f)) return fail("import: " + path + ": read error: " + std::strerror(errno));
    text.resize(got);
    if (text.size() > kHfConfigMaxBytes)  // the file grew since stat()
        return fail("import: " + path + ": config.json: the file is larger than " +
                    std::to_string(kHfConfigMaxBytes >> 10) + " KiB; a config.json is a few KiB");
    Model m;
    std::string err;
    std::vector<std::string> warnings;
    if (!model_from_hf_config(text, id, m, err, &warnings)) return fail("import: " + path + ": " + err);
    printf("file:       %s (config.json, %zu bytes)\n", path.c_str(), text.size());
    print_model(m, path);
    if (!print_params(m, err)) return fail("import: " + path + ": " + err);
    for (const std::string& w : warnings) printf("warning:    %s\n", w.c_str());
    return 0;
}

}  // namespace

int cmd_import(int argc, char** argv) {
    Args a = parse_args(argc, argv, {"help"});
    if (a.has("help")) {
        printf("usage: llmsim-cli import FILE [--id HF_ID]\n"
               "Reads a Hugging Face config.json or a .gguf file's header and prints the model llmsim would\n"
               "simulate: architecture, layers, hidden size, heads, context, MoE/MLA/SWA layout, parameters and\n"
               "(GGUF) the weights' size. On bad input prints one line on stderr and exits with 2.\n");
        return 0;
    }
    for (const auto& kv : a.options)
        if (kv.first != "id") return fail("import: unknown option --" + kv.first + " (try llmsim-cli import --help)");
    if (a.positional.size() != 1)
        return fail(a.positional.empty() ? "import: give one file (a config.json or a .gguf)"
                                         : "import: give one file, got " + std::to_string(a.positional.size()));
    const std::string& path = a.positional[0];
    const std::string id = a.get("id") ? *a.get("id") : std::string();

    struct stat st;
    if (stat(path.c_str(), &st) != 0)
        return fail("import: cannot open " + path + ": " + std::strerror(errno));
    if (S_ISDIR(st.st_mode))
        return fail("import: " + path + " is a directory; give the path of its config.json or of a .gguf file");
    if (!S_ISREG(st.st_mode))
        return fail("import: " + path + " is not a regular file; give the path of a config.json or a .gguf file");
    const uint64_t size = (uint64_t)st.st_size;
    if (size == 0) return fail("import: " + path + " is empty (0 bytes); give a config.json or a .gguf file");

    File file;
    file.f = fopen(path.c_str(), "rb");
    if (!file.f) return fail("import: cannot open " + path + ": " + std::strerror(errno));
    unsigned char head[9] = {0};
    const size_t n_head = fread(head, 1, sizeof head, file.f);
    if (fseeko(file.f, 0, SEEK_SET) != 0) return fail("import: cannot read " + path + ": " + std::strerror(errno));

    if ((n_head >= 4 && std::memcmp(head, "GGUF", 4) == 0) || ends_with_ci(path, ".gguf"))
        return import_gguf(path, file.f, size, id);
    // safetensors: an 8-byte little-endian header length, then the JSON header
    if (n_head == 9 && head[8] == '{' && head[7] == 0 && head[6] == 0)
        return fail("import: " + path + " is a .safetensors weights file; import the model's config.json "
                    "(or a .gguf) instead");
    return import_config(path, file.f, size, id);
}

}  // namespace llmsim::cli
