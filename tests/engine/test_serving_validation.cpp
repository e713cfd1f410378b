// The per-engine validation line serve --explain prints (evidence/serving_accuracy.h): built from a small accuracy
// file written here by hand, so every expected string below is read off the fixture, not computed by the code.
#include <catch2/catch.hpp>

#include "evidence/serving_accuracy.h"

namespace {
const char* kFixture = R"({
  "fold": "source", "skipped": 0, "inputs": {"serving_jsonl_fnv1a": "0000000000000000", "shipped_every_10th_row": []},
  "groups": [
    {"name": "sglang", "display": "SGLang", "rows": 34, "tpot_rows": 0, "ttft_rows": 20, "out_mdape": 0.097,
     "tpot_mdape": 0, "ttft_mdape": 0.5184, "within25": 0.853, "coverage": 0.882, "band_low": -0.23, "band_high": 0.17},
    {"name": "vllm", "display": "vLLM", "rows": 226, "tpot_rows": 221, "ttft_rows": 221, "out_mdape": 0.1278,
     "tpot_mdape": 0.173, "ttft_mdape": 0.426, "within25": 0.695, "coverage": 0.792, "band_low": -0.78, "band_high": 0.54},
    {"name": "all", "display": "overall", "rows": 260, "tpot_rows": 221, "ttft_rows": 241, "out_mdape": 0.12,
     "tpot_mdape": 0.173, "ttft_mdape": 0.43, "within25": 0.72, "coverage": 0.8}
  ],
  "rows": []
})";
}  // namespace

TEST_CASE("serve --explain names how well the engine is validated, per engine", "[serving][evidence]") {
    llmsim::ServingAccuracy a;
    std::string err;
    REQUIRE(llmsim::parse_serving_accuracy(kFixture, a, err));
    CHECK(llmsim::serving_validation_line(a, "sglang") ==
          "SGLang, each publication held out in turn, on 34 published runs: output tok/s MdAPE 9.7 % (85 % within +-25 %, "
          "band coverage 88 %), TPOT not published, TTFT 51.8 % (20 runs)");
    CHECK(llmsim::serving_validation_line(a, "vllm") ==
          "vLLM, each publication held out in turn, on 226 published runs: output tok/s MdAPE 12.8 % (70 % within +-25 %, "
          "band coverage 79 %), TPOT 17.3 % (221 runs), TTFT 42.6 % (221 runs)");
    // an engine without runs in the data is not given the pooled figure
    CHECK(llmsim::serving_validation_line(a, "llamacpp") ==
          "llama-server: not validated (no published serving runs of this engine in the data)");
}

TEST_CASE("the shipped serving accuracy file gives every engine with runs its own line", "[serving][evidence]") {
    llmsim::ServingAccuracy a;
    std::string err;
    REQUIRE(llmsim::load_builtin_serving_accuracy(a, err));
    for (const char* e : {"vllm", "sglang", "trtllm", "lmdeploy"}) {
        const std::string line = llmsim::serving_validation_line(a, e);
        CHECK(line.find("published runs: output tok/s MdAPE") != std::string::npos);
    }
}
