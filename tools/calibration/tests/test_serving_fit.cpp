// tools/calibration/serve_fit: how a published serving row becomes the simulated request (the run's stated server
// flags and mean lengths are inputs; its measured numbers never are).
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "catalog/catalog.h"
#include "calibration/serve_fit.h"
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

TEST_CASE("warm first prompt: a vLLM row whose notes say prefix caching is on", "[serving][ttft]") {
    // a calibration row: vLLM with the notes' "prefix caching ON" (dennislee22's logs), not another engine's
    std::vector<ServingRow> rows;
    std::string err;
    const std::string row = R"({"id": "r", "engine": "ENGINE", "model": "Qwen/Qwen2.5-7B-Instruct", "precision": "bf16",)"
                            R"( "hardware": "a100-sxm-80gb", "gpus": 1, "tp": 1, "test": {"kind": "serving", "input_len": 1024,)"
                            R"( "output_len": 16, "request_rate": "inf", "num_prompts": 1}, "measured": {"output_tok_s": 100},)"
                            R"J( "source": "example/src@abc", "notes": "prefix caching ON (logs show nonzero hit rate)"})J";
    std::string vllm = row, sglang = row;
    vllm.replace(vllm.find("ENGINE"), 6, "vllm");
    sglang.replace(sglang.find("ENGINE"), 6, "sglang");
    REQUIRE(read_serving_rows(cat(), vllm + "\n" + sglang, rows, err));
    REQUIRE(rows.size() == 2);
    CHECK(rows[0].req.workload.warm_first_prompt);
    CHECK_FALSE(rows[1].req.workload.warm_first_prompt);
}

TEST_CASE("dataset rows without lengths: mean lengths from the printed throughputs", "[serving][ttft]") {
    // LMDeploy docs/en/benchmark/a100_fp16.md (serving.jsonl v0594): Llama-2-7B, profile_throughput, concurrency 64,
    // 3000 ShareGPT prompts: 2562.435 output tok/s, 5283.547 total tok/s, 10.275 req/s -> 249.4 out, 264.8 in per request
    const std::string line = R"({"id": "l", "engine": "lmdeploy", "model": "meta-llama/Llama-2-7b-hf", "precision": "fp16",)"
                             R"( "hardware": "a100-sxm-80gb", "gpus": 1, "tp": 1, "test": {"kind": "serving", "input_len": null,)"
                             R"( "output_len": null, "dataset": "sharegpt", "concurrency": 64, "request_rate": "inf", "num_prompts": 3000},)"
                             R"( "measured": {"output_tok_s": 2562.435, "total_tok_s": 5283.547, "req_s": 10.275}, "source": "x/y@1", "notes": "NOTES"})";
    std::vector<ServingRow> rows;
    std::string err;
    std::string plain = line, totals = line;
    plain.replace(plain.find("NOTES"), 5, "FTL ave 0.092s");
    // printed token totals in the notes win (IOG's and dstack's files print them)
    totals.replace(totals.find("NOTES"), 5, "completed 3000; total in/out tokens 600000/300000");
    REQUIRE(read_serving_rows(cat(), plain + "\n" + totals, rows, err));
    REQUIRE(rows.size() == 2);
    CHECK(rows[0].req.workload.input_len == 265);
    CHECK(rows[0].req.workload.output_len == 249);
    CHECK(rows[0].req.workload.dist == LengthDist::ShareGpt);
    CHECK(rows[1].req.workload.input_len == 200);
    CHECK(rows[1].req.workload.output_len == 100);
    // a closed loop keeps its 3000 requests (the warm-up wave of 64 is 2 % of them, as in the benchmark's mean)
    CHECK(rows[0].req.workload.num_prompts == 3000);
    ServeRequest big = rows[0].req;
    big.workload.num_prompts = 50000;
    serving::apply_predict_defaults(big);
    CHECK(big.workload.num_prompts == 4000);
}
