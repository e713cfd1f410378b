// llama-bench / llama-server import (bench_import.h): every real output format read row by row, hostile input
// rejected with a message naming the line, and the model matched by arch + parameter count. Fixtures:
// tests/corpus/bench/ (llama.cpp's own README examples, RTX 4080, build 8cf427ff).
#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>

#include "api/bench_import.h"
#include "test_support.h"

using namespace llmsim;

namespace {
std::string fixture(const char* name) {
    std::ifstream f(std::string(LLMSIM_SOURCE_DIR) + "/tests/corpus/bench/" + name, std::ios::binary);
    REQUIRE(f);
    std::stringstream ss;
    ss << f.rdbuf();
    return ss.str();
}
std::string parse_error(const std::string& text) {
    BenchImport imp;
    std::string err;
    CHECK_FALSE(parse_bench_output(text, imp, err));
    CHECK(imp.rows.empty());
    return err;
}
const char* kHeader = "| model | size | params | backend | ngl | test | t/s |\n| --- | ---: | ---: | --- | --: | ---: | ---: |\n";
}  // namespace

TEST_CASE("bench import: the Markdown table, every column of every row", "[bench_import]") {
    BenchImport imp;
    std::string err;
    REQUIRE(parse_bench_output(fixture("llama_bench.md"), imp, err));
    CHECK(imp.format == "markdown");
    REQUIRE(imp.rows.size() == 4);
    const BenchRow& r = imp.rows[2];   // | qwen2 7B Q4_K - Medium | 4.36 GiB | 7.62 B | CUDA | 99 | pp512 @ d512 | 6425.91 ± 18.88 |
    CHECK(r.line == 5);
    CHECK(r.model_label == "qwen2 7B Q4_K - Medium");
    CHECK(r.arch == "qwen2");
    CHECK(r.file_type == "Q4_K_M");
    CHECK(r.size_gib == Approx(4.36));
    CHECK(r.params == Approx(7.62e9));
    CHECK(r.backend == "CUDA");
    CHECK(r.ngl == 99);
    CHECK(r.flash_attn == -1);   // no fa column: not printed
    CHECK(r.kind == SpeedTest::Prefill);
    CHECK(r.tokens == 512);
    CHECK(r.depth == 512);
    CHECK(r.tps == Approx(6425.91));
    CHECK(r.tps_sd == Approx(18.88));
    CHECK(r.test_label() == "pp512 @ d512");
    CHECK(imp.rows[1].kind == SpeedTest::Decode);
    CHECK(imp.rows[1].tokens == 128);
    CHECK(imp.rows[1].depth == 0);
    CHECK(imp.rows[3].tps == Approx(116.71));
}

TEST_CASE("bench import: -o json, -o jsonl and llama-server timings", "[bench_import]") {
    for (const char* name : {"llama_bench.json", "llama_bench.jsonl"}) {
        INFO(name);
        BenchImport imp;
        std::string err;
        REQUIRE(parse_bench_output(fixture(name), imp, err));
        REQUIRE(imp.rows.size() == 2);
        CHECK(imp.rows[0].kind == SpeedTest::Prefill);
        CHECK(imp.rows[0].tokens == 512);
        CHECK(imp.rows[0].params == 7615616512.0);
        CHECK(imp.rows[0].size_gib == Approx(4677120000.0 / 1073741824.0));
        CHECK(imp.rows[0].flash_attn == 0);
        CHECK(imp.rows[0].n_ubatch == 512);
        CHECK(imp.rows[1].kind == SpeedTest::Decode);
        CHECK(imp.rows[1].tokens == 128);
        CHECK(imp.rows[1].tps == Approx(std::string(name) == "llama_bench.json" ? 118.881588 : 119.844681));
    }
    for (const char* name : {"server_timings.json", "server_log.txt"}) {
        INFO(name);
        BenchImport imp;
        std::string err;
        REQUIRE(parse_bench_output(fixture(name), imp, err));
        CHECK(imp.format == "llama-server");
        REQUIRE(imp.rows.size() == 2);
        CHECK(imp.rows[0].kind == SpeedTest::Prefill);
        CHECK(imp.rows[0].tokens == 4096);
        CHECK(imp.rows[0].tps == Approx(5041.2).epsilon(0.001));
        CHECK(imp.rows[1].kind == SpeedTest::Decode);
        CHECK(imp.rows[1].depth == 4096);   // generated after the prompt
        CHECK(imp.rows[1].tps == Approx(112.0));
    }
}

TEST_CASE("bench import: old and new test labels, fa column, combined tests skipped", "[bench_import]") {
    BenchImport imp;
    std::string err;
    const std::string t = std::string("| model | size | params | backend | ngl | fa | test | t/s |\n|---|--:|--:|---|--:|--:|--:|--:|\n") +
                          "| llama 7B mostly Q4_0 | 3.56 GiB | 6.74 B | CUDA | 99 | 1 | pp 512 | 2368.80 ± 93.24 |\n"
                          "| gpt-oss 20B MXFP4 MoE | 11.27 GiB | 20.91 B | Metal,BLAS | 99 | 1 | tg128 @ d4096 | 70.11 ± 0.20 |\n"
                          "| llama 7B mostly Q4_0 | 3.56 GiB | 6.74 B | CUDA | 99 | 1 | pp512+tg128 | 300.00 ± 1.00 |\n";
    REQUIRE(parse_bench_output(t, imp, err));
    REQUIRE(imp.rows.size() == 2);
    CHECK(imp.rows[0].file_type == "Q4_0");
    CHECK(imp.rows[0].tokens == 512);
    CHECK(imp.rows[0].flash_attn == 1);
    CHECK(imp.rows[1].arch == "gpt-oss");
    CHECK(imp.rows[1].file_type == "MXFP4_MOE");
    CHECK(imp.rows[1].depth == 4096);
    REQUIRE(imp.skipped.size() == 1);
    CHECK(imp.skipped[0].find("line 5") != std::string::npos);
}

TEST_CASE("bench import: hostile input gets a clear error and no rows", "[bench_import]") {
    CHECK(parse_error("").find("empty") != std::string::npos);
    CHECK(parse_error("hello world\n").find("no benchmark rows") != std::string::npos);
    CHECK(parse_error(std::string(kHeader) + "| llama 7B Q4_0 | 3.56 GiB | 6.74 B | CUDA | 99 | pp512 | 12,3 |\n")
              .find("line 3: t/s '12,3' is not a positive number") != std::string::npos);
    CHECK(parse_error(std::string(kHeader) + "| llama 7B Q4_0 | 3.56 GiB | 6.74 B | CUDA | 99 | pp512 |\n")
              .find("line 3: 6 cells, the header has 7") != std::string::npos);
    CHECK(parse_error(std::string(kHeader) + "| llama 7B Q4_0 | 3.56 TB | 6.74 B | CUDA | 99 | pp512 | 10 |\n")
              .find("GiB or MiB") != std::string::npos);
    CHECK(parse_error(std::string(kHeader) + "| llama 7B Q4_0 | 3.56 GiB | 6.74 B | CUDA | 99 | xx512 | 10 |\n")
              .find("not ppN, tgN") != std::string::npos);
    CHECK(parse_error(std::string(kHeader) + "| llama 7B Q4_0 | 3.56 GiB | 6.74 B | CUDA | 99 | pp99999999999 | 10 |\n")
              .find("token count") != std::string::npos);
    CHECK(parse_error(std::string(kHeader) + "| llama 7B Q4_0 | 3.56 GiB | 6.74 B | CUDA | 99 | pp512 | -5 |\n")
              .find("positive") != std::string::npos);
    CHECK(parse_error("[{\"model_type\": \"llama 7B Q4_0\", \"n_prompt\": 512, \"n_gen\": 0, \"avg_ts\": \"fast\"}]")
              .find("entry 1: \"avg_ts\" must be a positive number") != std::string::npos);
    CHECK(parse_error("[{\"n_prompt\": 512}]").find("model_type") != std::string::npos);
    CHECK(parse_error("[1, 2]").find("JSON object") != std::string::npos);
    CHECK(parse_error("{\"timings\": {\"prompt_n\": -1, \"predicted_n\": 1}}").find("prompt_n") != std::string::npos);
    CHECK(parse_error("prompt eval time = garbage\n").find("line 1: not a llama-server timing line") != std::string::npos);
    CHECK(parse_error(std::string("abc\0def", 7)).find("NUL") != std::string::npos);
    CHECK(parse_error(std::string(kBenchMaxBytes + 1, ' ')).find("4 MiB") != std::string::npos);
    std::string many = kHeader;
    for (size_t i = 0; i <= kBenchMaxRows; ++i) many += "| llama 7B Q4_0 | 3.56 GiB | 6.74 B | CUDA | 99 | pp512 | 10 |\n";
    CHECK(parse_error(many).find("more than") != std::string::npos);
}

TEST_CASE("bench import: the model is matched by llama.cpp arch + parameter count", "[bench_import]") {
    BenchImport imp;
    std::string err;
    REQUIRE(parse_bench_output(fixture("llama_bench.md"), imp, err));
    std::string why;
    const Model* m = match_bench_model(cat(), imp.rows[0], "", why);
    REQUIRE(m);
    CHECK(m->arch == "qwen2");
    CHECK(m->n_layers == 28);   // Qwen2.5-7B's shape (same-shape fine-tunes are equivalent)
    BenchRow odd = imp.rows[0];
    odd.params = 5.0e9;          // no qwen2 of that size (3.3e9 was one until Qwen2.5-Omni-3B, 3.40 B, joined)
    CHECK_FALSE(match_bench_model(cat(), odd, "", why));
    CHECK(why.find("--model") != std::string::npos);
    // every row becomes a sample on the chosen device, predicted for exactly that row
    const Hardware* hw = cat().find_hardware("rtx-4080");
    REQUIRE(hw);
    std::vector<ProfileSample> samples;
    std::vector<BenchMatch> matches;
    bench_samples(cat(), imp, *hw, "", samples, matches);
    REQUIRE(samples.size() == 4);
    REQUIRE(matches.size() == 4);
    CHECK(samples[2].scenario.test == SpeedTest::Prefill);
    CHECK(samples[2].scenario.depth == 512);
    CHECK(samples[2].measured_tps == Approx(6425.91));
    for (const BenchMatch& bm : matches) CHECK(bm.predicted_tps > 0);
}
