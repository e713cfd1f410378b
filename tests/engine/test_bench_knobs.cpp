// llama-bench's knobs on a predict line (api/bench_knobs.h, api/tensor_overrides.h): the -ot pattern subset, the expert
// layers a pattern list selects, the errors, the llama_bench command, and that a line without knobs is unchanged.
#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "api/predict.h"
#include "predict_support.h"
#include "api/tensor_overrides.h"
#include "evidence/calibration_row.h"
#include "runtime/speed_glue.h"

using namespace llmsim;
using nlohmann::json;

namespace {
bool found(const std::string& pattern, const std::string& text) {
    bool f = false;
    std::string err;
    REQUIRE(regex_search_lite(pattern, text, f, err));
    return f;
}
const Model& catalog_model(const char* id) {
    const Model* m = embedded_catalog()->find_model(id);
    REQUIRE(m);
    return *m;
}
// Qwen3-30B-A3B on an RTX 4090, decode tg128, with extra fields spliced in
std::string moe_line(const std::string& extra, const char* kind = "decode") {
    return std::string(R"({"id":"m","model":"Qwen/Qwen3-30B-A3B","quant":"Q4_K_M","hardware":"rtx-4090","flash_attn":true,)") + extra +
           R"("test":{"kind":")" + kind + R"(","tokens":128,"depth":0}})";
}
}  // namespace

TEST_CASE("-ot patterns: std::regex_search semantics on the ECMAScript subset", "[bench_knobs]") {
    // the llama.cpp tensor names the patterns of llama.cpp's docs and threads are written against
    CHECK(found("exps", "blk.3.ffn_up_exps.weight"));
    CHECK(found(R"(\.ffn_.*_exps\.)", "blk.3.ffn_down_exps.weight"));
    CHECK_FALSE(found(R"(\.ffn_.*_exps\.)", "blk.3.ffn_down_shexp.weight"));
    CHECK(found(R"(blk\.(1[0-9])\.ffn)", "blk.12.ffn_up_exps.weight"));
    CHECK_FALSE(found(R"(blk\.(1[0-9])\.ffn)", "blk.2.ffn_up_exps.weight"));
    CHECK_FALSE(found(R"(^blk\.1\.)", "xblk.1.ffn"));
    CHECK(found(R"(ffn_(up|down|gate)_(ch|)exps)", "blk.0.ffn_gate_exps.weight"));
    CHECK(found("a{2,3}b", "caab"));
    CHECK_FALSE(found("a{2,3}b", "cab"));
    CHECK(found(R"([^0-9]\d+$)", "blk.40"));
    CHECK(found("x.*?y", "x--y"));
    // nested repetition is exponential in the text's length: refused, not a hang
    {
        bool f = false;
        std::string err;
        CHECK_FALSE(regex_search_lite("(.*)*(.*)*(.*)*z", "blk.47.ffn_down_exps.weight.xxxxxxxxxxxxxxxxxxxxxxxx", f, err));
        CHECK(err.find("too costly") != std::string::npos);
    }
    for (const char* bad : {"(", "[a-", "a**", R"(\1)", "(?=x)", "a{3,2}", ")"}) {
        bool f = false;
        std::string err;
        INFO(bad);
        CHECK_FALSE(regex_search_lite(bad, "abc", f, err));
        CHECK_FALSE(err.empty());
    }
}

TEST_CASE("-ot: the MoE layers whose routed experts a list keeps in host RAM", "[bench_knobs]") {
    const Model& qwen = catalog_model("Qwen/Qwen3-30B-A3B");   // 48 layers, every one MoE
    std::vector<int> layers;
    std::string err;
    REQUIRE(expert_layers_on_host(qwen, "exps=CPU", layers, err));
    CHECK(layers.size() == 48);
    REQUIRE(expert_layers_on_host(qwen, R"(blk\.(1[0-9])\.ffn_.*_exps=CPU)", layers, err));
    REQUIRE(layers.size() == 10);
    CHECK(layers.front() == 10);
    CHECK(layers.back() == 19);
    // two entries: the union
    REQUIRE(expert_layers_on_host(qwen, R"(blk\.[0-4]\.ffn_.*_exps=CPU,blk\.4[0-7]\..*exps=CPU)", layers, err));
    CHECK(layers.size() == 13);
    // carteakey/lllms' gpt-oss-120b placement: blocks 5 and up of 36
    const Model& oss = catalog_model("openai/gpt-oss-120b");
    REQUIRE(expert_layers_on_host(oss, R"(blk\.(5|[6-9]|[0-9][0-9]|[0-9][0-9][0-9])\.ffn_(up|down|gate)_(ch|)exps=CPU)", layers, err));
    CHECK(layers.size() == 31);
    CHECK(layers.front() == 5);
    // clear errors: another buffer, a tensor the model does not move, part of a layer, a dense model, two runs
    CHECK_FALSE(expert_layers_on_host(qwen, "exps=CUDA0", layers, err));
    CHECK(err.find("only =CPU") != std::string::npos);
    CHECK_FALSE(expert_layers_on_host(qwen, "ffn_.*=CPU", layers, err));
    CHECK(err.find("also matches") != std::string::npos);
    CHECK_FALSE(expert_layers_on_host(qwen, R"(blk\.3\.ffn_up_exps=CPU)", layers, err));
    CHECK(err.find("only some of layer 3") != std::string::npos);
    CHECK_FALSE(expert_layers_on_host(catalog_model("meta-llama/Llama-3.1-8B-Instruct"), "exps=CPU", layers, err));
    CHECK(err.find("no routed experts") != std::string::npos);
    CHECK_FALSE(expert_layers_on_host(qwen, "exps=CPU;exps=CPU", layers, err));
    CHECK_FALSE(expert_layers_on_host(qwen, "exps", layers, err));
}

TEST_CASE("predict: llama-bench knobs reach the estimate and the command", "[bench_knobs][predict]") {
    json base = predict_json(moe_line(""));
    REQUIRE(base.contains("tokens_per_s"));
    // knobs that change nothing the speed model reads: f16 KV (the default) and threads (no thread term)
    json same = predict_json(moe_line(R"("kv_type":"f16","threads":8,)"));
    REQUIRE(same.contains("tokens_per_s"));
    CHECK(same["tokens_per_s"].get<double>() == base["tokens_per_s"].get<double>());
    CHECK(same["llama_bench"].get<std::string>().find(" -ngl 99 -t 8") != std::string::npos);
    // experts in host RAM: slower the more layers, and bound by the host RAM's bandwidth
    json part = predict_json(moe_line(R"("n_cpu_moe":24,)"));
    json all = predict_json(moe_line(R"("n_cpu_moe":48,)"));
    json ot = predict_json(moe_line(R"("override_tensors":"exps=CPU",)"));
    REQUIRE(part.contains("tokens_per_s"));
    REQUIRE(all.contains("tokens_per_s"));
    CHECK(part["tokens_per_s"].get<double>() < base["tokens_per_s"].get<double>());
    CHECK(all["tokens_per_s"].get<double>() < part["tokens_per_s"].get<double>());
    CHECK(ot["tokens_per_s"].get<double>() == all["tokens_per_s"].get<double>());   // the same placement, two spellings
    CHECK(part["llama_bench"].get<std::string>().find(" -ngl 99 -ncmoe 24") != std::string::npos);
    CHECK(ot["llama_bench"].get<std::string>().find(" -ot \"exps=CPU\"") != std::string::npos);
    const std::string hw_fast = R"("hardware":{"name":"NVIDIA GeForce RTX 4090","host":{"ram_bandwidth_gbs":200}},)";
    std::string fast = moe_line(R"("n_cpu_moe":48,)" + hw_fast);
    fast.erase(fast.find(R"("hardware":"rtx-4090",)"), std::string(R"("hardware":"rtx-4090",)").size());
    json quick = predict_json(fast);
    REQUIRE(quick.contains("tokens_per_s"));
    CHECK(quick["tokens_per_s"].get<double>() > 1.5 * all["tokens_per_s"].get<double>());
    // a dense 8B with every layer in 50 GB/s host RAM: decode cannot beat reading its ~4.9 GB of weights at 50 GB/s
    json dense = predict_json(R"({"id":"d","model":"meta-llama/Llama-3.1-8B-Instruct","quant":"Q4_K_M","ngl":0,
        "hardware":{"name":"NVIDIA GeForce RTX 4090","host":{"ram_bandwidth_gbs":50}},"test":{"kind":"decode","tokens":128,"depth":0}})");
    REQUIRE(dense.contains("tokens_per_s"));
    CHECK(dense["tokens_per_s"].get<double>() < 50.0 / 4.9);
    CHECK(dense["llama_bench"].get<std::string>().find(" -ngl 0") != std::string::npos);
    // a quantized KV cache reads fewer bytes per cached token: faster decode at depth
    json f16 = predict_json(R"({"id":"k","model":"Qwen/Qwen3-30B-A3B","quant":"Q4_K_M","hardware":"rtx-4090","flash_attn":true,"test":{"kind":"decode","tokens":128,"depth":32768}})");
    json q8 = predict_json(R"({"id":"k","model":"Qwen/Qwen3-30B-A3B","quant":"Q4_K_M","hardware":"rtx-4090","flash_attn":true,"type_k":"q8_0","type_v":"q8_0","test":{"kind":"decode","tokens":128,"depth":32768}})");
    CHECK(q8["tokens_per_s"].get<double>() > f16["tokens_per_s"].get<double>());
    CHECK(q8["llama_bench"].get<std::string>().find(" -ctk q8_0 -ctv q8_0") != std::string::npos);
}

TEST_CASE("predict: bad llama-bench knobs get an error naming the field", "[bench_knobs][predict]") {
    struct Case { const char* extra; const char* expect; };
    const Case cases[] = {
        {R"("ngl":-2,)", "ngl must be between"},
        {R"("ngl":2.5,)", "ngl must be a whole number"},
        {R"("threads":0,)", "threads must be between"},
        {R"("kv_type":"q3_k",)", "is not a KV cache type"},
        {R"("kv_type":"q8_0","type_k":"q8_0",)", "not both"},
        {R"("split_mode":"rows",)", "split_mode must be"},
        {R"("tensor_split":[1],)", "tensor_split needs gpus of 2 or more"},
        {R"("override_tensors":"ffn_.*=CPU",)", "also matches"},
        {R"("override_tensors":7,)", "override_tensors must be"},
    };
    for (const Case& c : cases) {
        json e = predict_json(moe_line(c.extra));
        INFO(c.extra << " -> " << e.dump());
        REQUIRE(e.contains("error"));
        CHECK(e["error"].get<std::string>().find(c.expect) != std::string::npos);
    }
    json dense = predict_json(R"({"id":"d","model":"meta-llama/Llama-3.1-8B-Instruct","hardware":"rtx-4090","n_cpu_moe":4,"test":{"kind":"decode","tokens":128,"depth":0}})");
    CHECK(dense["error"].get<std::string>().find("no routed experts") != std::string::npos);
    json nofa = predict_json(R"({"id":"f","model":"Qwen/Qwen3-30B-A3B","hardware":"rtx-4090","flash_attn":false,"kv_type":"q8_0","test":{"kind":"decode","tokens":128,"depth":0}})");
    CHECK(nofa["error"].get<std::string>().find("needs flash_attn true") != std::string::npos);
    json ts = predict_json(R"({"id":"t","model":"Qwen/Qwen3-30B-A3B","hardware":"rtx-4090","gpus":2,"tensor_split":"3/1","test":{"kind":"decode","tokens":128,"depth":0}})");
    REQUIRE(ts.contains("tokens_per_s"));
    CHECK(ts["llama_bench"].get<std::string>().find(" -ts 3/1") != std::string::npos);
}

TEST_CASE("calibration rows: the offload flag and the collected offload rows", "[bench_knobs][calibration]") {
    CalibrationRow r;
    std::string err;
    REQUIRE(parse_calibration_row(moe_line(R"("measured_tokens_per_s":50,"n_cpu_moe":8,)"), r, err));
    CHECK(r.offload);
    REQUIRE(parse_calibration_row(moe_line(R"("measured_tokens_per_s":50,"ngl":99,"kv_type":"q8_0",)"), r, err));
    CHECK_FALSE(r.offload);
#ifdef LLMSIM_SOURCE_DIR
    // every row of the collected file parses, leaves weights in host RAM and names its source (README: 41 rows, 5 sources)
    std::ifstream f(std::string(LLMSIM_SOURCE_DIR) + "/assets/calibration/llamacpp_offload.jsonl", std::ios::binary);
    REQUIRE(f);
    std::stringstream ss;
    ss << f.rdbuf();
    std::vector<CalibrationRow> rows;
    REQUIRE(parse_calibration_jsonl(ss.str(), rows, err));
    CHECK(rows.size() == 41);
    std::vector<std::string> sources;
    for (const CalibrationRow& row : rows) {
        INFO(row.id);
        CHECK(row.offload);
        CHECK(row.scenario.offload_fraction > 0);
        CHECK_FALSE(row.source.empty());
        if (std::find(sources.begin(), sources.end(), row.source) == sources.end()) sources.push_back(row.source);
    }
    CHECK(sources.size() == 5);
#endif
}
