// Reads the user's own measurements: llama-bench output (its Markdown table, `-o json`, `-o jsonl`) and
// llama-server timings (the "timings" object of a /completion answer, or its "prompt eval time = ..." log
// lines). A strict validating parser: hostile input gets a message naming the line and what was wrong, never a
// crash; input and row counts are bounded. Then each row is matched to a catalog model (llama.cpp arch +
// parameter count + size; models with the same shape are equivalent) and turned into a speed-model sample.
//
//   llmsim::BenchImport imp;
//   std::string err;
//   if (!llmsim::parse_bench_output(text, imp, err)) { fprintf(stderr, "%s\n", err.c_str()); return 2; }
//   std::vector<llmsim::ProfileSample> samples;
//   std::vector<llmsim::BenchMatch> matches;
//   llmsim::bench_samples(cat, imp, *cat.find_hardware("rtx-4090"), "", samples, matches);
//
// [SECTION] Rows
// [SECTION] Matching
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "catalog/catalog.h"
#include "speed/device_profile.h"
#include "speed/speed.h"

namespace llmsim {

// [SECTION] Rows -----------------------------------------------------------------------------------------

constexpr size_t kBenchMaxBytes = 4u << 20;   // larger input is not a benchmark log
constexpr size_t kBenchMaxRows = 5000;

struct BenchRow {
    int line = 0;                  // 1-based line of the input (JSON array: entry index + 1)
    std::string model_label;       // llama-bench "model": "qwen2 7B Q4_K - Medium" ("" for llama-server)
    std::string arch;              // its first word: the llama.cpp architecture ("qwen2")
    std::string file_type;         // the label's type as a llama.cpp file type name ("Q4_K_M"); "" = not given
    double size_gib = 0;           // tensor data size llama-bench printed, GiB (0 = not given)
    double params = 0;             // parameter count (0 = not given)
    std::string backend;           // "CUDA", "Metal,BLAS", ... as printed
    int ngl = -1;                  // -ngl; -1 = not printed (llama-bench default 99)
    int flash_attn = -1;           // -1 not printed, 0 off, 1 on
    int n_ubatch = 0;              // 0 = not printed (512)
    int n_batch = 0;               // -b; 0 = not printed (2048)
    std::string type_k, type_v;    // -ctk / -ctv as printed ("q8_0"); "" = not printed (f16)
    int threads = 0;               // -t; 0 = not printed
    // the device as the tool printed it: -o json's "gpu_info" (else "cpu_info"), or llama.cpp's device line above a
    // Markdown table ("Device 0: NVIDIA GeForce RTX 4080, compute capability 8.9" -> the name); "" = not printed
    std::string device;
    std::string build;             // "8cf427ff (5163)": -o json's build_commit + build_number, or the "build:" line
    std::string test_time;         // -o json's "test_time" ("2025-04-24T11:59:33Z"); "" = not printed
    SpeedTest kind = SpeedTest::Decode;
    int64_t tokens = 0;            // ppN / tgN
    int64_t depth = 0;             // "@ dN"
    double tps = 0, tps_sd = 0;    // t/s ± sd
    std::string test_label() const;   // "pp512 @ d4096"
};

struct BenchImport {
    std::string format;            // "markdown", "json", "jsonl", "llama-server"
    std::vector<BenchRow> rows;
    std::vector<std::string> skipped;   // "line 9: pp512+tg128 (a combined test) is not used"
};

// parse any of the formats above (detected from the text); false + err when nothing usable is in it or a row
// is malformed ("line 7: t/s '12,3' is not a number")
bool parse_bench_output(const std::string& text, BenchImport& out, std::string& err);

// [SECTION] Matching -------------------------------------------------------------------------------------

struct BenchMatch {                // one row, next to the prediction for exactly that row
    const BenchRow* row = nullptr;
    const Model* model = nullptr;  // nullptr = not matched (why says why)
    std::string why;               // "qwen2, 7.62 B params" or the reason the row is not used
    double predicted_tps = 0, low = 0, high = 0;   // without any profile
};

// the catalog model a row measured: `model_id` when given, else the model of the same llama.cpp arch whose
// parameter count is within 3 % (closest wins); nullptr + why when none or the row has no label
const Model* match_bench_model(const Catalog& cat, const BenchRow& row, const std::string& model_id, std::string& why);
// the predict line (predict.h) for exactly this row on the catalog device `hw`: model, quant, size, backend, -fa, -ub,
// -b, -ctk/-ctv, and -ngl when it leaves layers in host RAM (the offload group); the export (evidence/contributed.h)
// writes the same fields, so a contributed row predicts what the pasted one did
nlohmann::json bench_row_predict_json(const Catalog& cat, const BenchRow& row, const Model& model, const Hardware& hw);
// every row as a speed-model sample on the catalog device `hw` (rows that cannot be used are listed in matches
// with the reason; model_id, when given, overrides the label match)
void bench_samples(const Catalog& cat, const BenchImport& imp, const Hardware& hw, const std::string& model_id,
                   std::vector<ProfileSample>& samples, std::vector<BenchMatch>& matches);

}  // namespace llmsim
