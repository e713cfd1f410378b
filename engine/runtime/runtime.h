// llmsim runtimes: the inference engines a scenario can run on, one entry each (the registry of ggml's
// ggml_backend_reg and vLLM's model registry). This folder owns what differs per engine: how it lays out
// memory (its memory plan), how fast it runs (its speed plan) and the command line that starts it. The
// arithmetic an entry uses stays where it lives (memory.h, speed_glue.h, command.h); an entry only names it.
//
//   const llmsim::Runtime* rt = llmsim::runtime(req.runtime);            // RuntimeId::LlamaCpp by default
//   std::string cmd = rt->command_line(cat, model, req, 8080);           // "llama-server -m ... --port 8080"
//   const llmsim::Runtime* r = llmsim::find_runtime("llamacpp");         // nullptr for an unknown id
//   for (const llmsim::Runtime& r : llmsim::runtimes()) printf("%s\n", r.display_name);
//
// Adding a runtime: runtime/<id>.cpp with its three functions, and its registration in [SECTION] The runtimes
// below (an enumerator, a declaration line, a table row); the static_asserts fail until all three are in place
// and every function is set.
//
// [SECTION] Entry
// [SECTION] The runtimes
// [SECTION] Lookup
#pragma once
#include <cstddef>
#include <string>

namespace llmsim {

struct Catalog;            // catalog.h
struct Model;              // catalog.h
struct MemoryRequest;      // memory.h
struct MemoryBreakdown;    // memory.h
struct PreparedWeights;    // prepared_weights.h
struct SimRequest;         // simulate.h
struct Evaluation;         // simulate.h

// [SECTION] Entry ----------------------------------------------------------------------------------------

enum class RuntimeId : int;   // [SECTION] The runtimes

// the memory plan: the per-device breakdown for prepared weights; false + err on bad input
using MemoryPlan = bool(const PreparedWeights& weights, const Model& model, const MemoryRequest& req,
                        MemoryBreakdown& out, std::string& err);
// the speed plan: fills out.speed from the memory breakdown already in `out` (out.speed.error: why none)
using SpeedPlan = void(const Catalog& cat, const Model& model, const SimRequest& req, Evaluation& out);
// the command line that runs exactly the simulated setup, serving on `port`
using CommandLine = std::string(const Catalog& cat, const Model& model, const SimRequest& req, int port);

struct Runtime {
    // every field is a constructor argument, so a row that leaves one out does not compile (an aggregate row
    // would silently get nullptr); test_runtime also checks at run time that no function is null
    constexpr Runtime(RuntimeId runtime_, const char* id_, const char* display_name_, MemoryPlan* memory_plan_,
                      SpeedPlan* speed_plan_, CommandLine* command_line_)
        : runtime(runtime_), id(id_), display_name(display_name_), memory_plan(memory_plan_), speed_plan(speed_plan_),
          command_line(command_line_) {}
    RuntimeId runtime;          // its index in the registry
    const char* id;             // "llamacpp": stable, for URLs, JSON and the CLI
    const char* display_name;   // "llama.cpp": what the UI shows
    MemoryPlan* memory_plan;
    SpeedPlan* speed_plan;
    CommandLine* command_line;
};

// an entry with every function set (checked at run time by test_runtime: comparing a function's address with
// null is not a constant expression under GCC's -fsanitize=undefined, so it cannot be a static_assert)
inline bool runtime_complete(const Runtime& r) {
    return r.id && r.display_name && r.memory_plan && r.speed_plan && r.command_line;
}

// [SECTION] The runtimes ---------------------------------------------------------------------------------

// values index kRuntimes; Count = the number of runtimes
enum class RuntimeId : int { LlamaCpp = 0, Vllm, Sglang, TrtLlm, Count };
constexpr int kRuntimeCount = (int)RuntimeId::Count;

// each runtime's functions, defined in runtime/<id>.cpp
namespace llamacpp { MemoryPlan memory_plan; SpeedPlan speed_plan; CommandLine command_line; }
// vLLM, SGLang and TensorRT-LLM: runtime/serving_engines.cpp, adapters to serving/serving.h
namespace vllm { MemoryPlan memory_plan; SpeedPlan speed_plan; CommandLine command_line; }
namespace sglang { MemoryPlan memory_plan; SpeedPlan speed_plan; CommandLine command_line; }
namespace trtllm { MemoryPlan memory_plan; SpeedPlan speed_plan; CommandLine command_line; }

inline constexpr Runtime kRuntimes[] = {
    {RuntimeId::LlamaCpp, "llamacpp", "llama.cpp", llamacpp::memory_plan, llamacpp::speed_plan, llamacpp::command_line},
    {RuntimeId::Vllm, "vllm", "vLLM", vllm::memory_plan, vllm::speed_plan, vllm::command_line},
    {RuntimeId::Sglang, "sglang", "SGLang", sglang::memory_plan, sglang::speed_plan, sglang::command_line},
    {RuntimeId::TrtLlm, "trtllm", "TensorRT-LLM", trtllm::memory_plan, trtllm::speed_plan, trtllm::command_line},
};

static_assert(sizeof(kRuntimes) / sizeof(kRuntimes[0]) == (size_t)kRuntimeCount,
              "one row in kRuntimes per RuntimeId enumerator");
// row i is RuntimeId i
constexpr bool runtime_rows_in_order() {
    for (int i = 0; i < kRuntimeCount; ++i)
        if ((int)kRuntimes[i].runtime != i) return false;
    return true;
}
static_assert(runtime_rows_in_order(), "every kRuntimes row is in RuntimeId order");

// [SECTION] Lookup ---------------------------------------------------------------------------------------

// the entry of a runtime; nullptr for Count or a value outside the enum (evaluate() reports it as an error)
const Runtime* runtime(RuntimeId id);
// the entry with this id ("llamacpp"; exact, case-sensitive); nullptr if there is none
const Runtime* find_runtime(const std::string& id);

// every entry, in RuntimeId order: for (const Runtime& r : runtimes())
struct RuntimeRange {
    const Runtime* first;
    const Runtime* last;
    const Runtime* begin() const { return first; }
    const Runtime* end() const { return last; }
    size_t size() const { return (size_t)(last - first); }
};
RuntimeRange runtimes();

}  // namespace llmsim
