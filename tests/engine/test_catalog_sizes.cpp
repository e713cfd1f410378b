// Catalog models added in issue 13 against the weight sizes llama-bench printed for their published GGUF files.
// llama-bench's "size" column is the model's tensor bytes in GiB with 2 decimals (llama_model_size), so each case
// compares WeightSize::tensor_data_bytes. Where no file of the model itself was measured, the case names the
// measured model with the same tensor shapes (the catalog note says which shapes are shared).
#include <catch2/catch.hpp>

#include <cmath>
#include <string>
#include <vector>

#include "catalog/catalog.h"
#include "core/units.h"
#include "quant/quant_rules.h"

using namespace llmsim;

namespace {
constexpr double kTolBenchSizeGiB = 0.005;  // llama-bench prints model size with 2 decimals (GiB)
constexpr double kTolBenchSize = 0.005;     // + 0.5 % relative, as tests/engine/test_memory.cpp
// GLM-4.5-Air: ours is 0.9 % above the one measured file (a single source whose repository the index does not
// name; whether that file carries the MTP/NextN block, which the catalog does not count, is not known), so the
// band is wider than llama-bench's rounding.
constexpr double kTolGlmAir = 0.015;
}  // namespace

TEST_CASE("catalog: new models' weights match llama-bench file sizes", "[catalog][memory]") {
    Catalog cat;
    std::string err;
    if (!load_embedded_catalog(cat, err)) {
        WARN("catalog not available, skipping: " << err);
        return;
    }
    struct Case { const char* id; const char* quant; double gib; double tol; const char* source; };
    const std::vector<Case> cases = {
        // row f0192 of assets/calibration/llamacpp_speed_2025.jsonl: Qwen3-30B-A3B-Instruct-2507 (same shapes)
        {"Qwen/Qwen3-30B-A3B-Thinking-2507", "Q4_K_M", 17.28, kTolBenchSize,
         "github.com/ggml-org/llama.cpp/issues/20893 (b7548 table, Qwen3-30B-A3B-Instruct-2507 Q4_K_M)"},
        // row f0094: microsoft/phi-4 Q4_K_M (Phi-4-reasoning keeps phi-4's shapes)
        {"microsoft/Phi-4-reasoning", "Q4_K_M", 8.43, kTolBenchSize,
         "Arc Pro B70 llama.cpp Vulkan benchmark notes (public code file id 55913994130), phi-4 Q4_K_M"},
        // Llama-3-70B Q4_K_M (XiongjieDai, same shapes as the Llama-3.1 70B fine-tune)
        {"nvidia/Llama-3.1-Nemotron-70B-Instruct-HF", "Q4_K_M", 39.59, kTolBenchSize,
         "XiongjieDai/GPU-Benchmarks-on-LLM-Inference@aa72e0ec86 Llama-3-70B Q4_K_M"},
        // rows f0098 / f0090 (the model itself)
        {"mistralai/Mistral-Small-3.2-24B-Instruct-2506", "Q4_K_M", 13.34, kTolBenchSize,
         "Arc Pro B70 llama.cpp Vulkan benchmark notes (public code file id 55913994130), Mistral-Small-3.2-24B Q4_K_M"},
        {"deepseek-ai/DeepSeek-R1-Distill-Qwen-14B", "Q4_K_M", 8.37, kTolBenchSize,
         "Arc Pro B70 llama.cpp Vulkan benchmark notes (public code file id 55913994130), DeepSeek-R1-Distill-Qwen-14B Q4_K_M"},
        // row f0121: GLM-4.5-Air Q3_K_M
        {"zai-org/GLM-4.5-Air", "Q3_K_M", 51.01, kTolGlmAir,
         "benchmarking doc (public code file id 59459646521), GLM-4.5-Air Q3_K_M"},
    };
    for (const Case& c : cases) {
        INFO(c.id << " " << c.quant << " vs " << c.source);
        const Model* m = cat.find_model(c.id);
        REQUIRE(m != nullptr);
        WeightSize ws;
        REQUIRE(compute_weight_size(*m, c.quant, ws, err));
        const double gib = (double)ws.tensor_data_bytes / (double)kGiB;
        INFO("ours " << gib << " GiB vs " << c.gib << " GiB");
        CHECK(std::fabs(gib - c.gib) <= kTolBenchSizeGiB + c.tol * c.gib);
    }
}
