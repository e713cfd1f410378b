// llmsim-cli subcommands. Each lives in its own cmd_*.cpp and returns the process exit code:
// 0 = ok, 2 = bad input (one clear line on stderr, nothing on stdout), 1 = internal failure.
#pragma once
#include <initializer_list>
#include <string>
#include <vector>

#include "catalog/catalog.h"
#include "catalog/model_names.h"
#include "core/text.h"
#include "io/gguf.h"
#include "memory/memory.h"
#include "speed/device_profile.h"

namespace llmsim::cli {

struct Args {                       // "--key value" / "--flag" options after the subcommand
    std::vector<std::string> positional;
    std::vector<std::pair<std::string, std::string>> options;   // in order; flags have value "" 
    // the value of --key, or nullptr; marks it used
    const std::string* get(const std::string& key) const;
    bool has(const std::string& key) const { return get(key) != nullptr; }
};

// split argv into positional arguments and --key value pairs; `flags` lists options that take no value
Args parse_args(int argc, char** argv, const std::vector<std::string>& flags);
// the number given as --key (untouched when absent); false + err "<cmd>: --key wants a number from lo to hi (got 'x')"
bool option_number(const Args& a, const char* cmd, const char* key, double lo, double hi, double& out, std::string& err);
// the first --option of `a` that `known` does not list, or "" when all are known
std::string first_unknown_option(const Args& a, std::initializer_list<const char*> known);
// print "llmsim-cli: <message>" on stderr and return 2
int fail(const std::string& message);
// why --model ID named no catalog model (catalog/model_names.h: close matches, a quant the catalog lacks, or a name
// that spells a quant this command does not take from the name), for commands that look models up with find_model
std::string unknown_model_message(const Catalog& cat, const std::string& id);
// load the embedded catalog or print why not
bool load_catalog(Catalog& cat);
// read a whole file (at most max_bytes); false + err "cannot read 'x'" / "'x' is larger than ..."
bool read_text_file(const std::string& path, size_t max_bytes, std::string& text, std::string& err);
// --device-profile FILE: false + err on a bad file; `given` says whether the option was there
bool read_device_profile(const Args& a, const char* cmd, DeviceProfile& out, bool& given, std::string& err);
// --params FILE (a calibrate --write output) into `out`; without the option `out` is left as given
bool read_speed_params(const Args& a, const char* cmd, SpeedParams& out, std::string& err);

// the rig options memory / fit / predict-style commands accept (common.cpp)
#define RIG_OPTIONS "tensor-split", "split-mode", "main-gpu", "rpc-hosts", "host-ram-gib", "host-mem", "host-bw-gbs"
#define RIG_OPTIONS_HELP \
    "  rigs:  --hardware 'rtx-5080+rtx-5060-ti-16gb' | '2x rtx-3090 + rtx-3060-12gb:pcie4-x8' | auto (detect this machine)\n" \
    "         [--rpc-hosts 'm2-ultra-192@10gbe,...'] [--tensor-split 3,1] [--split-mode layer|row|none] [--main-gpu N]\n" \
    "  host:  [--host-ram-gib 64] [--host-mem ddr5-6000x2 | --host-bw-gbs 96]\n"
// --hardware ID (a catalog id, a rig id, or auto) with --rpc-hosts appended; false + err (one line) when unknown
bool resolve_hardware_option(const Args& a, const char* cmd, const Catalog& cat, const Hardware*& hw, MemoryRequest& r,
                             std::string& err);
// --tensor-split, --split-mode, --main-gpu, --host-ram-gib, --host-mem, --host-bw-gbs into the request
bool apply_rig_options(const Args& a, const char* cmd, MemoryRequest& r, std::string& err);

int cmd_catalog(int argc, char** argv);    // cmd_catalog.cpp
int cmd_memory(int argc, char** argv);     // cmd_memory.cpp
int cmd_quants(int argc, char** argv);     // cmd_memory.cpp
int cmd_fit(int argc, char** argv);        // cmd_memory.cpp
int cmd_predict(int argc, char** argv);    // cmd_predict.cpp
int cmd_accuracy(int argc, char** argv);   // cmd_accuracy.cpp (the calibration lab: tools/calibration)
int cmd_calibrate(int argc, char** argv);  // cmd_accuracy.cpp
int cmd_cost(int argc, char** argv);       // cmd_cost.cpp
int cmd_bench(int argc, char** argv);      // cmd_bench.cpp
int cmd_recommend(int argc, char** argv);  // cmd_recommend.cpp
int cmd_recommend_model(int argc, char** argv);  // cmd_recommend_model.cpp
int cmd_import(int argc, char** argv);     // cmd_import.cpp
int cmd_calibrate_device(int argc, char** argv);   // cmd_calibrate_device.cpp
int cmd_page(int argc, char** argv);       // cmd_page.cpp
int cmd_site(int argc, char** argv);       // cmd_site.cpp
int cmd_detect(int argc, char** argv);     // cmd_detect.cpp
// --hardware auto: this machine as a rig id, its RAM (0 = unknown) and a one-line summary; false + err when no GPU
// or an unknown one is found. LLMSIM_DETECT_DIR=DIR reads recorded outputs from DIR instead of running the tools.
bool detect_this_machine(const Catalog& cat, std::string& id, uint64_t& ram_bytes, std::string& summary, std::string& err);
int cmd_serve(int argc, char** argv);      // cmd_serve.cpp
int cmd_accuracy_serving(const Args& a);   // cmd_accuracy.cpp: accuracy --serving
int cmd_accuracy_extras(const Args& a);    // cmd_accuracy_extras.cpp: accuracy --extras
int cmd_accuracy_mlx(const Args& a);       // cmd_accuracy_extras.cpp: accuracy --mlx
// memory --engine mlx: the MLX breakdown, speed, command and the llama.cpp side-by-side (cmd_memory_mlx.cpp)
int print_mlx_memory(const Catalog& cat, const Model& model, const MemoryRequest& req, bool json);
int cmd_spec(int argc, char** argv);       // cmd_spec.cpp
int cmd_lora(int argc, char** argv);       // cmd_lora.cpp
int cmd_train(int argc, char** argv);      // cmd_train.cpp
int cmd_vision(int argc, char** argv);     // cmd_vision.cpp
int cmd_embed(int argc, char** argv);      // cmd_embed.cpp
int cmd_audio(int argc, char** argv);      // cmd_audio.cpp
int cmd_mcp(int argc, char** argv);        // cmd_mcp.cpp: the MCP server on stdio (mcp_server.h)
// a GGUF file's header (an mmproj for vision/audio); false + err naming the path (cannot open, not a GGUF, ...)
bool read_gguf_header_file(const std::string& path, GgufInfo& info, std::string& err);

}  // namespace llmsim::cli
