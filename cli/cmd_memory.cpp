// llmsim-cli memory | quants | fit: the memory model (engine/memory/memory.h) from the command line.
//   memory --model ID [--config config.json] --quant Q4_K_M --ctx 32768 [--hardware ID] [--kv-type q8_0]
//          [--ngl N] [--parallel N] [--ubatch N] [--batch N] [--flash-attn on|off] [--n-cpu-moe N]
//          [--file-bytes N] [--json]
//   quants --model ID [--config config.json] [--ctx 8192,32768] [--format md|csv|json]
//   fit    --model ID [--config config.json] --quant Q --ctx N [--format md|csv|json]
// Bad input: one line on stderr, exit 2.
#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "api/api.h"
#include "sim/explain.h"
#include "sim/simulate.h"

#include "commands.h"
#include "hub.h"
#include "core/format.h"
#include "model/hf_config.h"
#include "core/input_limits.h"
#include "memory/memory.h"
#include "report/sections.h"
#include "runtime/command.h"
#include "sim/speed_labels.h"
#include "quant/mlx_quant.h"
#include "serving/engines.h"

namespace llmsim::cli {

namespace {

using nlohmann::json;

bool parse_int(const std::string& s, int64_t lo, int64_t hi, int64_t& out) {
    if (s.empty()) return false;
    errno = 0;
    char* end = nullptr;
    const long long v = std::strtoll(s.c_str(), &end, 10);
    if (errno != 0 || end == s.c_str() || *end != '\0' || v < lo || v > hi) return false;
    out = v;
    return true;
}

// a context size: "32768", "32k" (x1024)
bool parse_ctx(const std::string& s, int64_t& out) {
    std::string t = s;
    int64_t mul = 1;
    if (!t.empty() && (t.back() == 'k' || t.back() == 'K')) { mul = 1024; t.pop_back(); }
    int64_t v;
    if (!parse_int(t, 1, kMaxContextTokens, v) || v > kMaxContextTokens / mul) return false;
    out = v * mul;
    return true;
}

struct Common {
    Catalog cat;
    Model model;
    MemoryRequest req;
    const Hardware* hw = nullptr;
    bool json = false;
    std::string format = "md";
};

const std::vector<std::string> kFlags = {"json", "help", "explain"};

// parse the options all three commands share; returns 0 or an exit code
int parse_common(const Args& a, const char* cmd, const std::vector<std::string>& allowed, Common& c) {
    for (const auto& kv : a.options)
        if (std::find(allowed.begin(), allowed.end(), kv.first) == allowed.end())
            return fail(std::string(cmd) + ": unknown option --" + kv.first + " (try llmsim-cli " + cmd + " --help)");
    if (!a.positional.empty()) return fail(std::string(cmd) + ": unexpected argument '" + a.positional[0] + "'");
    if (!load_catalog(c.cat)) return 1;
    const std::string* cfg = a.get("config");
    const std::string* id = a.get("model");
    bool from_hub = false;
    std::string name_quant;   // the file type an Ollama tag or GGUF repo name implies
    if (cfg) {
        std::ifstream f(*cfg, std::ios::binary);
        if (!f) return fail(std::string(cmd) + ": cannot read --config " + *cfg);
        std::stringstream ss;
        ss << f.rdbuf();
        std::string err;
        if (!model_from_hf_config(ss.str(), id ? *id : *cfg, c.model, err))
            return fail(std::string(cmd) + ": " + *cfg + ": " + err);
    } else if (id) {
        std::string err;
        if (const auto r = resolve_model_name(c.cat, *id, err)) {   // catalog id, Ollama tag, hf.co/ or GGUF repo
            c.model = *r->model;
            const auto ft = pick_file_type(*r, a.get("quant"), err);
            if (!ft) return fail(std::string(cmd) + ": " + err);
            if (!r->file_type.empty()) name_quant = *ft;
        } else if (id->find('/') != std::string::npos) {  // not in the catalog: look it up on the Hub (cli/hub_curl.cpp)
            if (int rc = model_from_hub(*id, a.get("quant"), cmd, c.model, c.req)) return rc;
            from_hub = true;
        } else {
            return fail(std::string(cmd) + ": " + with_model_hint(err, "llmsim-cli catalog --models lists them, give a Hugging Face id org/name, or pass --config config.json"));
        }
    } else {
        return fail(std::string(cmd) + ": --model ID or --config config.json is required");
    }
    MemoryRequest& r = c.req;
    if (!name_quant.empty() && !a.get("quant")) r.file_type = name_quant;   // the tag's quant ("qwen2.5:7b" = Q4_K_M)
    if (const std::string* q = from_hub ? nullptr : a.get("quant")) {  // a Hub file's type comes from its header
        if (looks_like_mlx_quant(*q) && !parse_mlx_quant(*q)) return fail(std::string(cmd) + ": " + mlx_quant_error(*q));
        if (!parse_llama_ftype(*q) && !c.cat.find_file_type(*q) && !parse_mlx_quant(*q))
            return fail(std::string(cmd) + ": unknown --quant '" + *q + "' (llmsim-cli catalog --quants lists them; "
                        "MLX: mlx-4bit-g64 ...)");
        r.file_type = *q;
    }
    if (const std::string* s = a.get("ctx")) {
        if (!parse_ctx(*s, r.n_ctx)) return fail(std::string(cmd) + ": --ctx must be a token count from 1 to " + std::to_string(kMaxContextTokens) + " (e.g. 32768 or 32k), got '" + *s + "'");
    }
    if (a.has("hardware") || a.has("rpc-hosts")) {
        std::string err;
        if (!resolve_hardware_option(a, cmd, c.cat, c.hw, r, err)) return fail(err);
        r.hardware = c.hw;
    }
    {
        std::string err;
        if (!apply_rig_options(a, cmd, r, err)) return fail(err);
    }
    auto kv_type = [&](const char* opt, TensorType& t) -> bool {
        const std::string* s = a.get(opt);
        if (!s) return true;
        const auto v = parse_tensor_type(*s);
        static const TensorType ok[] = {TensorType::F16, TensorType::BF16, TensorType::F32, TensorType::Q8_0,
                                        TensorType::Q4_0, TensorType::Q4_1, TensorType::Q5_0, TensorType::Q5_1,
                                        TensorType::IQ4_NL};
        if (!v || std::find(std::begin(ok), std::end(ok), *v) == std::end(ok)) return false;
        t = *v;
        return true;
    };
    TensorType both = r.kv_type_k;
    if (!kv_type("kv-type", both) || !kv_type("kv-type-k", r.kv_type_k) || !kv_type("kv-type-v", r.kv_type_v))
        return fail(std::string(cmd) + ": KV cache types are f16, bf16, f32, q8_0, q4_0, q4_1, q5_0, q5_1 or iq4_nl");
    if (a.has("kv-type")) {
        r.kv_type_k = a.has("kv-type-k") ? r.kv_type_k : both;
        r.kv_type_v = a.has("kv-type-v") ? r.kv_type_v : both;
    }
    int64_t v;
    if (const std::string* s = a.get("ngl")) {
        if (!parse_int(*s, -1, kMaxGpuLayers, v))
            return fail(std::string(cmd) + ": --ngl must be a layer count from 0 to " + std::to_string(kMaxGpuLayers) + " (or -1 for all)");
        r.n_gpu_layers = (int)v;
    }
    if (const std::string* s = a.get("parallel")) {
        if (!parse_int(*s, 1, kMaxParallelSequences, v))
            return fail(std::string(cmd) + ": --parallel must be between 1 and " + std::to_string(kMaxParallelSequences));
        r.n_parallel = (int)v;
    }
    if (const std::string* s = a.get("ubatch")) {
        if (!parse_int(*s, 1, kMaxUbatch, v)) return fail(std::string(cmd) + ": --ubatch must be between 1 and " + std::to_string(kMaxUbatch));
        r.n_ubatch = (int)v;
    }
    if (const std::string* s = a.get("batch")) {
        if (!parse_int(*s, 1, 1 << 20, v)) return fail(std::string(cmd) + ": --batch must be between 1 and 1048576");
        r.n_batch = (int)v;
    }
    if (const std::string* s = a.get("n-cpu-moe")) {
        if (!parse_int(*s, 0, kMaxGpuLayers, v))
            return fail(std::string(cmd) + ": --n-cpu-moe must be a layer count from 0 to " + std::to_string(kMaxGpuLayers));
        r.n_cpu_moe = (int)v;
    }
    if (const std::string* s = a.get("file-bytes")) {
        if (!parse_int(*s, 1, INT64_MAX, v)) return fail(std::string(cmd) + ": --file-bytes must be the GGUF file size in bytes");
        r.file_bytes_override = (uint64_t)v;
    }
    if (const std::string* s = a.get("flash-attn")) {
        if (*s == "on" || *s == "1" || *s == "true") r.flash_attn = true;
        else if (*s == "off" || *s == "0" || *s == "false") r.flash_attn = false;
        else return fail(std::string(cmd) + ": --flash-attn must be on or off");
    }
    c.json = a.has("json");
    if (const std::string* s = a.get("format")) {
        if (*s != "md" && *s != "csv" && *s != "json") return fail(std::string(cmd) + ": --format must be md, csv or json");
        c.format = *s;
    }
    if (c.json) c.format = "json";
    return 0;
}

std::string status_text(const MemoryBreakdown& mb) {
    std::string s = to_string(mb.status);
    if (mb.status == FitStatus::PartialOffload)
        s += " (" + std::to_string(std::min(mb.gpu_layers, mb.n_layers)) + " of " + std::to_string(mb.n_layers) + " layers on GPU)";
    if (mb.status == FitStatus::Oom && mb.fit_gpu_layers > 0)
        s += " (" + std::to_string(std::min(mb.fit_gpu_layers, mb.n_layers)) + " of " + std::to_string(mb.n_layers) +
             " layers would fit on the GPU)";
    return s;
}

void print_table(const std::string& format, const std::vector<std::string>& header,
                 const std::vector<std::vector<std::string>>& rows) {
    if (format == "csv") {
        auto esc = [](const std::string& s) {
            if (s.find_first_of(",\"") == std::string::npos) return s;
            std::string o = "\"";
            for (char ch : s) { if (ch == '"') o += '"'; o += ch; }
            return o + "\"";
        };
        for (size_t i = 0; i < header.size(); ++i) printf("%s%s", i ? "," : "", esc(header[i]).c_str());
        printf("\n");
        for (const auto& r : rows) {
            for (size_t i = 0; i < r.size(); ++i) printf("%s%s", i ? "," : "", esc(r[i]).c_str());
            printf("\n");
        }
        return;
    }
    printf("|");
    for (const auto& h : header) printf(" %s |", h.c_str());
    printf("\n|");
    for (size_t i = 0; i < header.size(); ++i) printf("---|");
    printf("\n");
    for (const auto& r : rows) {
        printf("|");
        for (const auto& c : r) printf(" %s |", c.c_str());
        printf("\n");
    }
}

}  // namespace

// [SECTION] memory

int cmd_memory(int argc, char** argv) {
    Args a = parse_args(argc, argv, kFlags);
    if (a.has("help")) {
        printf("usage: llmsim-cli memory --model ID [--config config.json] --quant Q4_K_M --ctx 32768 [--hardware ID]\n"
               "         [--kv-type q8_0] [--ngl N] [--parallel N] [--ubatch N] [--batch N] [--flash-attn on|off]\n"
               "         [--n-cpu-moe N] [--file-bytes N] [--json] [--explain] [--device-profile profile.json]\n"
               "         [--engine llamacpp|mlx]   mlx: mlx-lm on an Apple Silicon Mac (--quant mlx-4bit-g64, mlx-8bit-g64,\n"
               "         mlx-mxfp4 ...), with its speed and a side-by-side with llama.cpp on the same Mac\n"
               RIG_OPTIONS_HELP
               "Memory per device (weights, KV cache, compute buffers, overhead) as llama.cpp would allocate it.\n"
               "An ID not in the catalog (org/name, org/name:QUANT, a huggingface.co URL) is looked up on the Hub\n"
               "(HF_ENDPOINT, HF_TOKEN): only the GGUF file's header is read, by Range, for its exact weights.\n");
        return 0;
    }
    Common c;
    if (int rc = parse_common(a, "memory", {"model", "config", "quant", "ctx", "hardware", "kv-type", "kv-type-k",
                                            "kv-type-v", "ngl", "parallel", "ubatch", "batch", "flash-attn",
                                            "n-cpu-moe", "file-bytes", "json", "explain", "device-profile",
                                            "engine", RIG_OPTIONS}, c))
        return rc;
    DeviceProfile profile;
    bool with_profile = false;
    std::string perr;
    if (!read_device_profile(a, "memory", profile, with_profile, perr)) return fail(perr);
    MemoryBreakdown mb;
    std::string err;
    if (const std::string* e = a.get("engine")) {   // another engine's plans (runtime.h): MLX on a Mac
        const Engine* row = find_engine(*e);
        if (!row || (row->scenario != ScenarioModel::LlamaCpp && row->scenario != ScenarioModel::Mlx))
            return fail("memory: --engine takes llamacpp or mlx (got '" + *e + "'); serving engines: llmsim-cli serve");
        if (row->scenario == ScenarioModel::Mlx) return print_mlx_memory(c.cat, c.model, c.req, c.json);
    }
    if (looks_like_mlx_quant(c.req.file_type))
        return fail("memory: " + c.req.file_type + " is an MLX format: add --engine mlx (llama.cpp loads GGUF files)");
    if (!estimate_memory(c.cat, c.model, c.req, mb, err)) return fail("memory: " + err);
    if (c.json) {
        json j = memory_to_json(c.model, c.req, mb);
        printf("%s\n", j.dump(1).c_str());
        return 0;
    }
    printf("%s  %s  ctx %s  (%s bpw, %sB params)\n", c.model.id.c_str(), c.req.file_type.c_str(),
           format_tokens(c.req.n_ctx).c_str(), format_fixed(mb.bits_per_weight, 2).c_str(),
           format_sig((double)mb.params / 1e9, 3).c_str());
    printf("  %-8s %12s %12s %12s %12s %12s\n", "device", "weights", "KV cache", "compute", "overhead", "total");
    for (const DeviceMemory& d : mb.devices)
        printf("  %-8s %12s %12s %12s %12s %12s%s\n", d.name.c_str(), format_gib((double)d.weights_bytes).c_str(),
               format_gib((double)d.kv_cache_bytes).c_str(), format_gib((double)d.compute_bytes).c_str(),
               format_gib((double)d.overhead_bytes).c_str(), format_gib((double)d.total_bytes).c_str(),
               d.hardware_id.empty() ? "" : ("  " + d.hardware_id + (d.host ? " on RPC host " + std::to_string(d.host) : "") + ", " +
                                             std::to_string(d.n_layers) + " layers, usable " + format_gib((double)d.usable_bytes)).c_str());
    printf("  %-8s %12s %12s %12s %12s %12s\n", "total", format_gib((double)mb.weights_bytes).c_str(),
           format_gib((double)mb.kv_cache_bytes).c_str(), format_gib((double)mb.compute_bytes).c_str(),
           format_gib((double)mb.overhead_bytes).c_str(), format_gib((double)mb.total_bytes).c_str());
    if (c.hw) {
        printf("on %s: %s, usable %s, max safe context %s\n", c.hw->name.c_str(), status_text(mb).c_str(),
               format_gib((double)mb.usable_bytes).c_str(),
               mb.max_context > 0 ? format_tokens(mb.max_context).c_str() : "none");
    }
    for (const std::string& n : mb.notes) printf("note: %s\n", n.c_str());
    if (const std::string o = ollama_command(c.model, c.req.file_type); !o.empty())   // the same weights in Ollama
        printf("ollama: %s\n", o.c_str());
    if (c.hw && !c.hw->rig.empty()) {   // a mixed rig / RPC: the command that runs this split
        SimRequest sr;
        sr.memory = c.req;
        printf("command:\n%s\n", llama_server_command(c.cat, c.model, sr).c_str());
    }
    if (a.has("explain")) {   // how each number is made (engine/sim/explain.h), speeds too when a device is given
        SimRequest sr;
        sr.memory = c.req;
        sr.with_explain = true;
        sr.device_profile = with_profile ? &profile : nullptr;
        Evaluation ev;
        if (!evaluate(c.cat, c.model, sr, ev, err)) return fail("memory: " + err);
        if (ev.speed.ok) {
            printf("\ndecode %s\n  %s\n  check it: %s\n", decode_range_text(ev.speed).c_str(), speed_conditions(ev.speed).c_str(),
                   llama_bench_command(c.model, sr).c_str());
        }
        for (const Explanation& e : explain(c.cat, c.model, sr, ev)) {
            printf("\n%s = %s\n  %s\n", e.key.c_str(), e.value.c_str(), e.text.c_str());
            for (const std::string& in : e.inputs) printf("  - %s\n", in.c_str());
        }
    }
    return 0;
}

// [SECTION] quants

int cmd_quants(int argc, char** argv) {
    Args a = parse_args(argc, argv, kFlags);
    if (a.has("help")) {
        printf("usage: llmsim-cli quants --model ID [--config config.json] [--ctx 8192,32768] [--format md|csv|json]\n"
               "The quantization footprint table: bits per weight, weights only, and totals at each context\n"
               "(CPU-backend composition: weights + f16 KV cache + compute buffer + overhead, no device).\n");
        return 0;
    }
    std::vector<int64_t> ctxs = {8192, 32768};
    if (const std::string* s = a.get("ctx")) {
        ctxs.clear();
        std::stringstream ss(*s);
        std::string item;
        while (std::getline(ss, item, ',')) {
            int64_t v;
            if (!parse_ctx(item, v)) return fail("quants: --ctx must be a comma-separated list of token counts, got '" + *s + "'");
            ctxs.push_back(v);
        }
        if (ctxs.empty()) return fail("quants: --ctx needs at least one context size");
    }
    Args b = a;
    b.options.erase(std::remove_if(b.options.begin(), b.options.end(), [](const auto& kv) { return kv.first == "ctx"; }),
                    b.options.end());
    Common c;
    if (int rc = parse_common(b, "quants", {"model", "config", "format", "json", "kv-type", "flash-attn", "parallel"}, c))
        return rc;
    std::vector<const FileType*> fts;
    for (const FileType& f : c.cat.file_types)
        if (f.common) fts.push_back(&f);
    if (fts.empty()) return fail("quants: the catalog marks no common quantizations");
    // rows by effective bits per weight, largest first (MLX 4-bit lands between Q4_K_M and IQ4_XS, as on the seed)
    std::vector<std::pair<double, const FileType*>> by_bpw;
    for (const FileType* f : fts) {
        WeightSize ws;
        std::string e;
        by_bpw.push_back({compute_weight_size(c.model, f->name, ws, e, &c.cat) ? ws.bits_per_weight : 0.0, f});
    }
    std::stable_sort(by_bpw.begin(), by_bpw.end(), [](const auto& x, const auto& y) { return x.first > y.first; });
    for (size_t i = 0; i < fts.size(); ++i) fts[i] = by_bpw[i].second;
    std::vector<std::string> header = {"Quantization", "BPW", "Weights Only"};
    for (int64_t x : ctxs) header.push_back("Total @ " + format_tokens(x) + " Ctx");
    header.push_back("Quality");
    std::vector<std::vector<std::string>> rows;
    json arr = json::array();
    for (const FileType* f : fts) {
        MemoryRequest r = c.req;
        if (r.file_type != f->name) r.tensor_data_bytes_exact.reset();   // a Hub file's exact bytes are its own type's only
        r.file_type = f->name;
        std::vector<std::string> row;
        json jr;
        jr["quant"] = f->name;
        jr["totals"] = json::array();
        MemoryBreakdown mb;
        std::string err;
        bool ok = true;
        for (size_t i = 0; i < ctxs.size() && ok; ++i) {
            r.n_ctx = ctxs[i];
            if (!estimate_memory(c.cat, c.model, r, mb, err)) { ok = false; break; }
            if (i == 0) {
                row = {f->name, format_fixed(mb.bits_per_weight, 2), format_gib((double)mb.weights_bytes)};
                jr["bits_per_weight"] = mb.bits_per_weight;
                jr["weights_bytes"] = mb.weights_bytes;
            }
            row.push_back(format_gib((double)mb.total_bytes));
            jr["totals"].push_back({{"n_ctx", ctxs[i]}, {"total_bytes", mb.total_bytes}, {"kv_cache_bytes", mb.kv_cache_bytes}});
        }
        if (!ok) return fail("quants: " + f->name + ": " + err);
        row.push_back(f->quality_label);
        jr["quality"] = f->quality_label;
        rows.push_back(row);
        arr.push_back(jr);
    }
    if (c.format == "json") {
        printf("%s\n", json{{"model", c.model.id}, {"rows", arr}}.dump(1).c_str());
        return 0;
    }
    print_table(c.format, header, rows);
    return 0;
}

// [SECTION] fit

int cmd_fit(int argc, char** argv) {
    Args a = parse_args(argc, argv, kFlags);
    if (a.has("help")) {
        printf("usage: llmsim-cli fit --model ID [--config config.json] --quant Q --ctx N [--kv-type T] [--parallel N]\n"
               "         [--format md|csv|json] [--device-profile profile.json]\n"
               "One row per catalog device: fit status, total / usable limit, decode tok/s from an empty context to the\n"
               "full --ctx (the band is the full-context one), TTFT for a 4k prompt, max safe context, GPU layers.\n"
               "--device-profile corrects the device it was fitted on (marked \"calibrated\").\n");
        return 0;
    }
    Common c;
    if (int rc = parse_common(a, "fit", {"model", "config", "quant", "ctx", "kv-type", "kv-type-k", "kv-type-v",
                                         "parallel", "ubatch", "flash-attn", "format", "json", "device-profile",
                                         "host-ram-gib", "host-mem", "host-bw-gbs"}, c))
        return rc;
    DeviceProfile profile;
    bool with_profile = false;
    std::string perr;
    if (!read_device_profile(a, "fit", profile, with_profile, perr)) return fail(perr);
    struct Row { const Hardware* hw; MemoryBreakdown mb; SpeedView speed; };
    std::vector<Row> rows;
    for (const Hardware& h : c.cat.hardware) {
        SimRequest r;
        r.memory = c.req;
        r.memory.hardware = &h;
        r.prompt_tokens = 4096;
        r.device_profile = with_profile ? &profile : nullptr;
        Evaluation ev;
        std::string err;
        if (!evaluate(c.cat, c.model, r, ev, err)) return fail("fit: " + h.id + ": " + err);
        rows.push_back(Row{&h, ev.memory, ev.speed});
    }
    std::stable_sort(rows.begin(), rows.end(), [&](const Row& x, const Row& y) {
        if (fit_status_rank(x.mb.status) != fit_status_rank(y.mb.status)) return fit_status_rank(x.mb.status) < fit_status_rank(y.mb.status);
        return x.mb.usable_bytes > y.mb.usable_bytes;
    });
    if (c.format == "json") {
        json arr = json::array();
        for (const Row& r : rows) {
            const uint64_t gpu_total = r.mb.total_bytes - r.mb.devices.back().total_bytes;
            arr.push_back({{"hardware", r.hw->id}, {"name", r.hw->name}, {"status", to_string(r.mb.status)},
                           {"total_bytes", r.mb.total_bytes}, {"gpu_total_bytes", gpu_total},
                           {"usable_bytes", r.mb.usable_bytes}, {"max_context", r.mb.max_context},
                           {"gpu_layers", r.mb.gpu_layers}, {"fit_gpu_layers", r.mb.fit_gpu_layers},
                           {"decode_tokens_per_s", r.speed.ok ? json(r.speed.decode_tps) : json(nullptr)},
                           {"decode_low", r.speed.ok ? json(r.speed.decode_low) : json(nullptr)},
                           {"decode_high", r.speed.ok ? json(r.speed.decode_high) : json(nullptr)},
                           {"decode_depth", r.speed.ok ? json(r.speed.decode_depth) : json(nullptr)},
                           {"decode_empty_tokens_per_s", r.speed.ok ? json(r.speed.decode_empty_tps) : json(nullptr)},
                           {"decode_full_tokens_per_s", r.speed.ok ? json(r.speed.decode_full_tps) : json(nullptr)},
                           {"decode_full_low", r.speed.ok ? json(r.speed.decode_full_low) : json(nullptr)},
                           {"decode_full_high", r.speed.ok ? json(r.speed.decode_full_high) : json(nullptr)},
                           {"decode_full_depth", r.speed.ok ? json(r.speed.decode_full_depth) : json(nullptr)},
                           {"calibrated", r.speed.calibrated},
                           {"ttft_4k_s", r.speed.ok ? json(r.speed.ttft_s) : json(nullptr)}});
        }
        printf("%s\n", json{{"model", c.model.id}, {"quant", c.req.file_type}, {"n_ctx", c.req.n_ctx}, {"rows", arr}}
                           .dump(1).c_str());
        return 0;
    }
    std::vector<std::vector<std::string>> out;
    for (const Row& r : rows) {
        // the device side of the total (all GPUs; CPU-only devices: host RAM), as "Total / Limit"
        const bool cpu_only = r.mb.devices.size() == 1;
        const uint64_t used = cpu_only ? r.mb.total_bytes : r.mb.total_bytes - r.mb.devices.back().total_bytes;
        out.push_back({r.hw->name, status_text(r.mb),
                       format_fixed((double)used / (double)kGiB, 1) + " / " +
                           format_fixed((double)r.mb.usable_bytes / (double)kGiB, 1) + " GiB",
                       r.speed.ok ? format_sig(r.speed.decode_empty_tps) + " → " + format_sig(r.speed.decode_full_tps) + " tok/s (" +
                                        format_sig(r.speed.decode_full_low) + "–" + format_sig(r.speed.decode_full_high) + ")" +
                                        (r.speed.calibrated.empty() ? "" : " calibrated")
                                  : (r.mb.status == FitStatus::Oom ? "OOM" : "—"),
                       r.speed.ok ? format_sig(r.speed.ttft_s) + " s" : "—",
                       r.mb.max_context > 0 ? format_tokens(r.mb.max_context) : "OOM"});
    }
    print_table(c.format, {"Hardware", "Status", "Total / Limit", "Decode (empty → " + format_tokens(c.req.n_ctx) + " context)",
                           "TTFT (4k prompt)", "Max Safe Ctx"}, out);
    if (c.format == "md") printf("\ndecode: tg128 at an empty context and at the full %s context; flash attention %s%s\n",
                                 format_tokens(c.req.n_ctx).c_str(), c.req.flash_attn ? "on" : "off",
                                 with_profile ? ("; " + calibrated_label(profile) + " on " + profile.hardware_id).c_str() : "");
    return 0;
}

}  // namespace llmsim::cli
