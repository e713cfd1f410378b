// engine/serving/serve_fit: how a published serving row becomes the simulated request (the run's stated server
// flags and mean lengths are inputs; its measured numbers never are).
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "catalog/catalog.h"
#include "serving/serve_fit.h"
#include "test_support.h"

using namespace llmsim;

namespace {
// a serving.jsonl row (its format: ../shared/calibration/serving-README.md) with the given notes and extra fields
std::string row(const std::string& notes, const std::string& extra = "") {
    return R"({"id": "t1", "engine": "vllm", "model": "meta-llama/Llama-3.1-8B-Instruct", "precision": "bf16",)"
           R"( "hardware": "h100-sxm", "gpus": 1, "tp": 1, "pp": 1,)" + extra +
           R"( "test": {"kind": "serving", "input_len": 1000, "output_len": 200, "dataset": "random", "concurrency": null,)"
           R"( "request_rate": 4, "num_prompts": 100}, "measured": {"output_tok_s": 800}, "source": "example/src@abc",)"
           R"( "notes": ")" + notes + R"("})";
}
}  // namespace

TEST_CASE("serving rows: the server flags a row's notes state are the simulated run's configuration", "[serving]") {
    std::vector<ServingRow> rows;
    std::string err;
    // dstack's file names carry the server flags; dennislee22's logs the memory utilisation
    REQUIRE(read_serving_rows(cat(), row("server flags: num-scheduler-step=1, enable-chunked-prefill=TRUE, "
                                         "max-num-batched-tokens=512, max-num-seqs=256; gpu-memory-utilization 0.5"),
                              rows, err));
    REQUIRE(rows.size() == 1);
    CHECK(rows[0].req.max_num_batched_tokens == 512);
    CHECK(rows[0].req.max_num_seqs == 256);
    CHECK(rows[0].req.gpu_memory_utilization == 0.5);
    // "default" is no number: the engine default stays; a field the row sets itself wins over its notes
    rows.clear();
    REQUIRE(read_serving_rows(cat(), row("max-num-batched-tokens=default, max-num-seqs=1024", R"( "max_num_seqs": 64,)"),
                              rows, err));
    REQUIRE(rows.size() == 1);
    CHECK(rows[0].req.max_num_batched_tokens == 0);
    CHECK(rows[0].req.max_num_seqs == 64);
    CHECK(rows[0].out_tok_s == 800);
}

TEST_CASE("serving rows: a startup log that reports no GPU P2P makes the run host-staged", "[serving]") {
    std::vector<ServingRow> rows;
    std::string err;
    // dennislee22's notes quote vLLM's custom_all_reduce.py warning
    REQUIRE(read_serving_rows(cat(), row("startup log: 'Custom allreduce is disabled because your platform lacks GPU P2P capability'"),
                              rows, err));
    REQUIRE(rows.size() == 1);
    CHECK(rows[0].req.no_p2p);
    rows.clear();
    REQUIRE(read_serving_rows(cat(), row("prefix caching ON"), rows, err));
    REQUIRE(rows.size() == 1);
    CHECK_FALSE(rows[0].req.no_p2p);
}

TEST_CASE("serving rows: a TTFT published only as a mean is scored against the simulated mean", "[serving]") {
    std::vector<ServingRow> rows;
    std::string err;
    const std::string mean_only = R"({"id": "t2", "engine": "vllm", "model": "meta-llama/Llama-3.1-8B-Instruct", "precision": "bf16",)"
        R"( "hardware": "h100-sxm", "gpus": 1, "tp": 1, "pp": 1, "test": {"kind": "serving", "input_len": 1000, "output_len": 200,)"
        R"( "dataset": "random", "concurrency": null, "request_rate": 4, "num_prompts": 100},)"
        R"( "measured": {"output_tok_s": 800, "ttft_ms_mean": 120, "tpot_ms_median": 9}, "source": "example/src@abc", "notes": ""})";
    REQUIRE(read_serving_rows(cat(), mean_only, rows, err));
    REQUIRE(rows.size() == 1);
    CHECK(rows[0].ttft_ms == 120);
    CHECK(rows[0].ttft_is_mean);
    CHECK_FALSE(rows[0].tpot_is_mean);
    // the prediction compares like with like: the simulated mean TTFT for this row, the median TPOT
    const ServeResult direct = serve(cat(), rows[0].req);
    REQUIRE(direct.ok);
    const ServingPrediction p = predict_serving_row(cat(), rows[0], serving::shipped_speed_table());
    REQUIRE(p.ok);
    CHECK(p.ttft_ms == Approx(direct.load.ttft_ms.mean));
    CHECK(p.tpot_ms == Approx(direct.load.tpot_ms.median));
}
