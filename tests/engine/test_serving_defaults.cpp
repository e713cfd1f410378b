// What a serving request gets when it names no precision: the model as published (serving.h release_precision).
// The expected formats are the publishers' own (DeepSeek-R1's config.json quantization_config: fp8 e4m3; gpt-oss:
// MXFP4 experts, OpenAI's model card), written here by hand.
#include "test_support.h"

#include "serving/serving.h"

using namespace llmsim;

TEST_CASE("release_precision: the checkpoint as published, bf16 where the catalog records none", "[serving][defaults]") {
    const Model* r1 = cat().find_model("deepseek-ai/DeepSeek-R1");
    const Model* oss = cat().find_model("openai/gpt-oss-120b");
    const Model* llama = cat().find_model("meta-llama/Llama-3.1-8B-Instruct");
    REQUIRE(r1); REQUIRE(oss); REQUIRE(llama);
    CHECK(release_precision(*r1) == "fp8");
    CHECK(release_precision(*oss) == "mxfp4");
    CHECK(release_precision(*llama) == "bf16");
}

TEST_CASE("a serve() request without a precision serves the model as published", "[serving][defaults]") {
    ServeRequest q;
    std::string err;
    // DeepSeek-R1 on one 8x H200 node: at BF16 (1.25 TiB of weights) it fits no replica; as published (FP8) it runs
    REQUIRE(parse_serve_request(R"({"engine": "vllm", "model": "deepseek-ai/DeepSeek-R1", "hardware": "8x-h200-sxm",
                                    "tp": 8, "workload": {"input_len": 1000, "output_len": 100, "concurrency": 4}})",
                                cat(), q, err));
    CHECK(q.precision == "fp8");
    ServeMemoryPlan plan;
    REQUIRE(serve_memory(cat(), q, plan, err));
    CHECK(plan.fits);
    // a named precision is kept, even one that does not fit
    REQUIRE(parse_serve_request(R"({"engine": "vllm", "model": "deepseek-ai/DeepSeek-R1", "hardware": "8x-h200-sxm",
                                    "tp": 8, "precision": "bf16"})", cat(), q, err));
    CHECK(q.precision == "bf16");
    REQUIRE(serve_memory(cat(), q, plan, err));
    CHECK_FALSE(plan.fits);
    // a model without a recorded release format keeps bf16
    REQUIRE(parse_serve_request(R"({"engine": "sglang", "model": "meta-llama/Llama-3.1-8B-Instruct", "hardware": "h100-sxm"})",
                                cat(), q, err));
    CHECK(q.precision == "bf16");
}
