// Section inputs that reach the engine without a browser: the Serving section's multi-LoRA keys (sv_loras,
// sv_lora_r -> vLLM --enable-lora --max-loras --max-lora-rank), its expert-parallel switch (sv_ep -> vLLM
// --enable-expert-parallel, SGLang --ep-size, TensorRT-LLM --ep_size) and the Vision section's mmproj file (a GGUF
// header read through the Import path, ui/import.cpp), and a contributed-runs file read by the Contributed runs section
// (ui/panel_contributed.cpp) into the evidence beside the estimate. Expected values are derived by hand from the
// sources named.
#include <catch2/catch.hpp>

#include <cstdio>
#include <cstring>

#include <nlohmann/json.hpp>

#include "../engine/mini_gguf.h"
#include "app_state.h"
#include "core/format.h"
#include "import.h"
#include "panels.h"
#include "url_state.h"

namespace {

AppState app_from(const std::string& hash) {
    AppState app;
    init_app(app);
    REQUIRE(app.catalog_error.empty());
    std::string err;
    REQUIRE(decode_url_state(hash, app.scenario, err));
    mark_changed(app);
    update_derived(app);
    return app;
}

}  // namespace

TEST_CASE("ui: the Serving section's multi-LoRA inputs reach serve() and its command", "[ui][serving]") {
    AppState app = app_from("model=meta-llama/Llama-3.1-8B-Instruct&hardware=h100-sxm&sv_loras=4&sv_lora_r=16&sv_c=8");
    update_serving(app);
    REQUIRE(app.serving.error.empty());
    const llmsim::ServeRequest& r = app.serving.request;
    CHECK(r.max_loras == 4);
    CHECK(r.max_lora_rank == 16);
    const nlohmann::json j = nlohmann::json::parse(serving_request_json(r));
    CHECK(j["max_loras"] == 4);
    CHECK(j["max_lora_rank"] == 16);
    // Llama-3.1-8B at rank 16, TP 1: per layer qkv 3*16*4096 + (4096 + 2*1024)*16, o 16*4096 + 4096*16,
    // gate_up 2*(16*4096 + 14336*16), down 16*14336 + 4096*16 = 1,310,720 elements; x 32 layers = 41,943,040
    // (= PEFT's all-linear r=16 count) per slot, 2 bytes each (bf16 lora_dtype), 4 slots
    CHECK(app.serving.result.memory.lora_bytes == 4ull * 41943040ull * 2ull);
    const std::string& cmd = app.serving.result.command;
    CHECK(cmd.find(" --enable-lora --max-loras 4 --max-lora-rank 16") != std::string::npos);
    bool explained = false;
    for (const llmsim::Explanation& e : app.serving.explanations) explained |= e.key == "serve_lora";
    CHECK(explained);
    // the slots come off the KV pool: the same request without LoRA has a larger pool by exactly the slots
    AppState off = app_from("model=meta-llama/Llama-3.1-8B-Instruct&hardware=h100-sxm&sv_c=8");
    update_serving(off);
    REQUIRE(off.serving.error.empty());
    CHECK(off.serving.result.memory.lora_bytes == 0);
    CHECK(off.serving.result.command.find("--enable-lora") == std::string::npos);
    CHECK(nlohmann::json::parse(serving_request_json(off.serving.request)).count("max_loras") == 0);
    const double diff = (double)off.serving.result.memory.kv_pool_bytes - (double)app.serving.result.memory.kv_pool_bytes;
    CHECK(diff == Approx((double)app.serving.result.memory.lora_bytes).epsilon(0.01));   // pool rounded to whole blocks
    // the keys round-trip through the URL; the default (off) leaves it
    CHECK(encode_url_state(app.scenario).find("sv_loras=4") != std::string::npos);
    CHECK(encode_url_state(off.scenario).find("sv_loras") == std::string::npos);
}

TEST_CASE("ui: bad multi-LoRA input is refused with a reason and the state unchanged", "[ui][serving]") {
    AppState app = app_from("model=meta-llama/Llama-3.1-8B-Instruct&hardware=h100-sxm&sv_loras=2");
    std::string err;
    Scenario s = app.scenario;
    CHECK_FALSE(decode_url_state("sv_loras=5000", s, err));
    CHECK(err.find("sv_loras") != std::string::npos);
    CHECK(s.sv_loras == 2);
    // a rank vLLM does not accept: the section says so and computes nothing
    REQUIRE(decode_url_state("sv_lora_r=7", app.scenario, err));
    mark_changed(app);
    update_derived(app);
    update_serving(app);
    CHECK(app.serving.error == "max_lora_rank: vLLM accepts 1, 8, 16, 32, 64, 128, 256, 320 or 512");
    // LoRA slots under another engine: modelled for vLLM only
    REQUIRE(decode_url_state("sv_lora_r=16&sv_engine=sglang", app.scenario, err));
    mark_changed(app);
    update_derived(app);
    update_serving(app);
    CHECK(app.serving.error == "max_loras: multi-LoRA serving is modelled for vLLM only");
}

TEST_CASE("ui: the Serving section's disaggregation keys reach serve(), the JS request, the URL and Deploy", "[ui][serving]") {
    // 1 prefill GPU : 3 decode GPUs of H100 SXM, each instance TP 1 (issue 36): 1 + 3 instances, 4 GPUs
    AppState app = app_from("model=meta-llama/Llama-3.1-8B-Instruct&hardware=h100-sxm&sv_pd_p=1&sv_pd_d=3&sv_c=16&sv_len=8192");
    update_serving(app);
    REQUIRE(app.serving.error.empty());
    const llmsim::ServeRequest& r = app.serving.request;
    CHECK(r.disaggregation.prefill_gpus == 1);
    CHECK(r.disaggregation.decode_gpus == 3);
    CHECK(r.gpus == 4);
    const std::string json = serving_request_json(r);
    CHECK(nlohmann::json::parse(json)["disaggregation"]["decode_gpus"] == 3);
    // what the page shows is what the JS API's serve() returns for the request the page reports
    CHECK(llmsim::api_serve(app.catalog, json) == llmsim::serve_result_json(r, app.serving.result));
    REQUIRE(app.serving.result.disagg.enabled);
    CHECK(app.serving.result.disagg.prefill_instances == 1);
    CHECK(app.serving.result.disagg.decode_instances == 3);
    CHECK(encode_url_state(app.scenario).find("sv_pd_p=1") != std::string::npos);
    std::string yaml, err;
    REQUIRE(llmsim::serve_deploy_yaml(app.catalog, r, yaml, err));
    CHECK(yaml.find("type: prefill\n    replicas: 1\n") != std::string::npos);
    CHECK(yaml.find("type: decode\n    replicas: 3\n") != std::string::npos);
    // off by default: the hash holds no sv_pd key and the request no disaggregation
    AppState off = app_from("model=meta-llama/Llama-3.1-8B-Instruct&hardware=h100-sxm&sv_c=16&sv_len=8192");
    update_serving(off);
    CHECK_FALSE(off.serving.request.disaggregation.enabled());
    CHECK(encode_url_state(off.scenario).find("sv_pd") == std::string::npos);
}

TEST_CASE("ui: the Serving section's expert-parallel switch reaches serve(), its command, the JS request and the URL", "[ui][serving]") {
    // Mixtral-8x7B (8 experts, top-2) on 2 x H100 at TP 2: EP puts 4 whole experts on each GPU
    const std::string base = "model=mistralai/Mixtral-8x7B-Instruct-v0.1&hardware=h100-sxm&sv_gpus=2&sv_tp=2&sv_c=16&sv_len=8192";
    AppState app = app_from(base + "&sv_ep=on");
    update_serving(app);
    REQUIRE(app.serving.error.empty());
    const llmsim::ServeRequest& r = app.serving.request;
    CHECK(r.expert_parallel);
    const std::string json = serving_request_json(r);
    CHECK(nlohmann::json::parse(json)["ep"] == true);
    // what the page shows is what the JS API's serve() returns for the request the page reports
    CHECK(llmsim::api_serve(app.catalog, json) == llmsim::serve_result_json(r, app.serving.result));
    CHECK(app.serving.result.command.find(" --tensor-parallel-size 2 ") != std::string::npos);
    CHECK(app.serving.result.command.find(" --enable-expert-parallel") != std::string::npos);
    // the explanation says it is physics only and compares with the experts sharded over TP
    const llmsim::Explanation* ep = nullptr;
    for (const llmsim::Explanation& e : app.serving.explanations) if (e.key == "serve_ep") ep = &e;
    REQUIRE(ep);
    CHECK(ep->value == "EP 2");
    CHECK(ep->text.find("Physics only: no published serving run uses EP") != std::string::npos);
    bool engine_note = false;
    for (const std::string& in : ep->inputs) engine_note |= in.find("4 of 8 experts whole per GPU") != std::string::npos;
    CHECK(engine_note);
    AppState off = app_from(base);
    update_serving(off);
    REQUIRE(off.serving.error.empty());
    CHECK_FALSE(off.serving.request.expert_parallel);
    CHECK(nlohmann::json::parse(serving_request_json(off.serving.request)).count("ep") == 0);
    CHECK(off.serving.result.command.find("expert-parallel") == std::string::npos);
    REQUIRE(app.serving.ep_off.ok);
    CHECK(app.serving.ep_off.step.step_s == off.serving.result.step.step_s);       // the comparison is the switch off
    CHECK(app.serving.ep_off.load.output_tok_s == off.serving.result.load.output_tok_s);
    CHECK(app.serving.result.step.step_s != off.serving.result.step.step_s);         // and EP moves the step
    CHECK(ep->text.find(llmsim::format_sig(off.serving.result.step.step_s * 1e3) + " ms with the experts sharded over TP") != std::string::npos);
    // the URL holds it (on only: off is the default and leaves the hash)
    CHECK(encode_url_state(app.scenario).find("sv_ep=on") != std::string::npos);
    CHECK(encode_url_state(off.scenario).find("sv_ep") == std::string::npos);
    // the engines' own flags: SGLang --ep-size N, TensorRT-LLM --ep_size N
    for (const char* e : {"sglang", "trtllm"}) {
        AppState other = app_from(base + "&sv_ep=on&sv_engine=" + e);
        update_serving(other);
        REQUIRE(other.serving.error.empty());
        CHECK(other.serving.request.expert_parallel);
        CHECK(other.serving.result.command.find(std::string(e) == "sglang" ? " --ep-size 2" : " --ep_size 2") != std::string::npos);
    }
}

TEST_CASE("ui: expert parallel applies to MoE models on vLLM, SGLang and TensorRT-LLM only; a bad value is refused", "[ui][serving]") {
    // a dense model: vLLM ignores --enable-expert-parallel without MoE layers, and so does the section
    AppState dense = app_from("model=meta-llama/Llama-3.1-8B-Instruct&hardware=h100-sxm&sv_gpus=2&sv_tp=2&sv_ep=on");
    update_serving(dense);
    REQUIRE(dense.serving.error.empty());
    CHECK_FALSE(dense.serving.request.expert_parallel);
    CHECK(dense.serving.result.command.find("expert-parallel") == std::string::npos);
    // LMDeploy: no EP modelled; the request leaves it off rather than failing
    AppState lmd = app_from("model=mistralai/Mixtral-8x7B-Instruct-v0.1&hardware=h100-sxm&sv_gpus=2&sv_tp=2&sv_len=8192&sv_ep=on&sv_engine=lmdeploy");
    update_serving(lmd);
    REQUIRE(lmd.serving.error.empty());
    CHECK_FALSE(lmd.serving.request.expert_parallel);
    // not on/off: an error naming the key, the state unchanged
    std::string err;
    Scenario s = lmd.scenario;
    CHECK_FALSE(decode_url_state("sv_ep=maybe", s, err));
    CHECK(err.find("sv_ep") != std::string::npos);
    CHECK(s.sv_ep);
}

TEST_CASE("ui: an mmproj GGUF opened through the import path sizes the Vision section with its own tensors", "[ui][vision]") {
    AppState app = app_from("model=google/gemma-3-4b-it&hardware=rtx-4090&quant=Q4_K_M&ctx=8192&vi_n=1");
    update_vision(app);
    REQUIRE(app.vision.error.empty());
    const uint64_t table_bytes = app.vision.estimate.encoder.weights_bytes;
    const size_t models_before = app.catalog.models.size();
    // Gemma 3's encoder keys over two tensors: F16 64 x 64 (8192 bytes) + F32 64 (256 bytes)
    MiniGguf w;
    w.str("general.architecture", "clip").str("clip.projector_type", "gemma3")
        .u32("clip.vision.block_count", 27).u32("clip.vision.embedding_length", 1152)
        .u32("clip.vision.feed_forward_length", 4304).u32("clip.vision.attention.head_count", 16)
        .u32("clip.vision.patch_size", 14).u32("clip.vision.projection_dim", 2560).u32("clip.vision.image_size", 896)
        .tensor("mm.input_projection.weight", 64, 64, 1).tensor("v.post_layernorm.weight", 64, 1, 0);
    const std::vector<uint8_t> file = w.build();
    uint64_t need = 0;
    CHECK(import_gguf_prefix(app, file.data(), file.size(), file.size(), "mmproj-test.gguf", &need) == 1);
    CHECK(app.vision_file.loaded);
    CHECK(app.catalog.models.size() == models_before);             // not imported as a language model
    CHECK(app.scenario.model == "google/gemma-3-4b-it");
    update_derived(app);
    update_vision(app);
    REQUIRE(app.vision.error.empty());
    CHECK(app.vision.estimate.encoder.weights_bytes == 8192 + 256);   // the file's tensor types, not the table's
    CHECK(table_bytes != 8192 + 256);
    CHECK(app.vision.estimate.plan.tokens == 256);                    // (896 / 14)^2 / 4^2
    CHECK(vision_command_flags(app) == " --mmproj mmproj-test.gguf");
    // a text model's GGUF while the section waits for an mmproj: refused, nothing imported, the mmproj stays
    MiniGguf text;
    text.str("general.architecture", "llama");
    const std::vector<uint8_t> tf = text.build();
    app.vision_file.expect_mmproj = true;
    CHECK(import_gguf_prefix(app, tf.data(), tf.size(), tf.size(), "model.gguf", &need) == 0);
    CHECK(app.vision_file.message.find("not an mmproj") != std::string::npos);
    CHECK(app.vision_file.file_name == "mmproj-test.gguf");
    CHECK(app.catalog.models.size() == models_before);
    // back to the table
    clear_vision_file(app);
    update_derived(app);
    update_vision(app);
    CHECK(app.vision.estimate.encoder.weights_bytes == table_bytes);
    // the desktop's route: a path (the section's path box, or a dropped file) through import_path
    const std::string path = "ui_section_inputs_mmproj.gguf";
    FILE* f = fopen(path.c_str(), "wb");
    REQUIRE(f);
    fwrite(file.data(), 1, file.size(), f);
    fclose(f);
    CHECK(import_path(app, path));
    std::remove(path.c_str());
    update_derived(app);
    update_vision(app);
    CHECK(app.vision_file.file_name == path);
    CHECK(app.vision.estimate.encoder.weights_bytes == 8192 + 256);
    CHECK(app.catalog.models.size() == models_before);
}

TEST_CASE("ui: contributed runs show beside the estimate, marked; a bad file changes nothing", "[ui][contributed]") {
    AppState app = app_from("model=Qwen/Qwen2.5-7B-Instruct&hardware=rtx-4080&quant=Q4_K_M");
    size_t project_rows = app.derived.evidence.size();
    for (const llmsim::EvidenceRow& e : app.derived.evidence) CHECK_FALSE(e.row->contributed);
    // llama.cpp's llama-bench README rows on an RTX 4080, exported (tests/corpus/bench/README.md)
    std::FILE* f = std::fopen(LLMSIM_SOURCE_DIR "/tests/corpus/bench/contributed_rtx4080.jsonl", "rb");
    REQUIRE(f);
    std::string text(1 << 16, '\0');
    text.resize(std::fread(&text[0], 1, text.size(), f));
    std::fclose(f);
    REQUIRE(load_contributed_runs(app, text, "contributed_rtx4080.jsonl"));
    update_derived(app);
    REQUIRE(app.derived.evidence.size() == project_rows + 2);
    int contributed = 0;
    for (const llmsim::EvidenceRow& e : app.derived.evidence) contributed += e.row->contributed ? 1 : 0;
    CHECK(contributed == 2);
    const nlohmann::json j = nlohmann::json::parse(contributed_json(app));
    CHECK(j["rows"] == 2);
    CHECK(j["on_device"] == 2);
    CHECK_FALSE(load_contributed_runs(app, text + "{\"id\": 1}\n", "broken.jsonl"));
    CHECK(app.contributed.message.find("contributed line 3") != std::string::npos);
    CHECK(app.contributed.rows.size() == 2);   // the rows read before stay
    CHECK(app.contributed.file_name == "contributed_rtx4080.jsonl");
}

TEST_CASE("ui: on a Mac the Run it section shows MLX beside llama.cpp; elsewhere nothing", "[ui][mlx]") {
    AppState app = app_from("model=Qwen/Qwen2.5-7B-Instruct&hardware=m4-max-128&quant=Q4_K_M&ctx=32768");
    update_mlx(app);
    REQUIRE(app.mlx.shown);
    CHECK(app.mlx.result.mlx.quant == "mlx-4bit-g64");   // the page's Q4_K_M, at MLX's 4-bit
    CHECK(app.mlx.result.llamacpp.quant == "Q4_K_M");
    REQUIRE(app.mlx.result.mlx.ok);
    CHECK(app.mlx.result.mlx.command.find("mlx_lm.server --model mlx-community/Qwen2.5-7B-Instruct-4bit") != std::string::npos);
    // the llama.cpp column is the page's own estimate
    CHECK(app.mlx.result.llamacpp.ev.memory.total_bytes == app.derived.eval.memory.total_bytes);
    AppState other = app_from("model=Qwen/Qwen2.5-7B-Instruct&hardware=rtx-4090&quant=Q4_K_M");
    update_mlx(other);
    CHECK_FALSE(other.mlx.shown);
}

TEST_CASE("ui: the Best models section ranks the link's device by the bm_task score (issue 38)", "[ui][quality]") {
    // Aider polyglot (scripts/catalog/quality_scores.json): Qwen3 32B 40.0 > QwQ-32B 20.9 on a 24 GB RTX 4090
    AppState app = app_from("model=Qwen/Qwen2.5-7B-Instruct&hardware=rtx-4090&ctx=8192&rec_tps=10&bm_task=coding");
    update_best_models(app);
    REQUIRE(app.best_models.error.empty());
    REQUIRE(app.best_models.result.ranked.size() >= 2);
    CHECK(app.best_models.result.ranked[0].model->id == "Qwen/Qwen3-32B");
    CHECK(app.best_models.result.ranked[1].model->id == "Qwen/QwQ-32B");
    const nlohmann::json j = nlohmann::json::parse(best_models_json(app));
    CHECK(j["benchmark"]["name"] == "Aider polyglot");
    CHECK(j["ctx"] == 8192);
    // an unknown task from a hand-edited link: the section says so, nothing is ranked
    AppState bad = app_from("hardware=rtx-4090&bm_task=poetry");
    update_best_models(bad);
    CHECK(bad.best_models.error == "unknown task 'poetry' (tasks: general, chat, reasoning, coding)");
}

TEST_CASE("ui: the Serving section's shared prefix, sessions and offload reach serve() and the URL", "[ui][serving]") {
    AppState app = app_from("model=meta-llama/Llama-3.1-8B-Instruct&hardware=h100-sxm&sv_engine=vllm&sv_in=2048&sv_out=64&sv_c=4"
                            "&sv_prefix=1843&sv_turns=3&sv_think=2&sv_cpu_gib=32");
    update_serving(app);
    REQUIRE(app.serving.error.empty());
    const llmsim::ServeRequest& r = app.serving.request;
    CHECK(r.workload.shared_prefix_len == 1843);
    CHECK(r.workload.turns == 3);
    CHECK(r.workload.think_time_s == 2);
    CHECK(r.kv_offload.cpu_gib == 32);
    const nlohmann::json j = nlohmann::json::parse(serving_request_json(r));
    CHECK(j["workload"]["shared_prefix_len"] == 1843);
    CHECK(j["kv_offload"]["cpu_gib"] == 32);
    // the prefix cache ran and is explained (hit rate, tiers, the comparison with the cache off)
    CHECK(app.serving.result.prefix.active);
    CHECK(app.serving.result.load.prefix_hit_tokens > 0);
    CHECK(app.serving.result.prefix.compared);
    bool explained = false;
    for (const llmsim::Explanation& e : app.serving.explanations) explained |= e.key == "serve_prefix_hit";
    CHECK(explained);
    const std::string url = encode_url_state(app.scenario);
    CHECK(url.find("sv_prefix=1843") != std::string::npos);
    CHECK(url.find("sv_turns=3") != std::string::npos);
    // a plain request leaves the keys out of the URL and builds no cache
    AppState plain = app_from("model=meta-llama/Llama-3.1-8B-Instruct&hardware=h100-sxm&sv_c=4");
    update_serving(plain);
    CHECK_FALSE(plain.serving.result.prefix.active);
    CHECK(encode_url_state(plain.scenario).find("sv_prefix") == std::string::npos);
    std::string err;
    Scenario s = app.scenario;
    CHECK_FALSE(decode_url_state("sv_turns=0", s, err));
    CHECK(s.sv_turns == 3);
}

// prefix groups, the prompt pool and the staged ladder (sv_groups, sv_ppg, sv_stages; issue 36, helper frontier4):
// the request only (no simulation, so the case stays cheap); the page's numbers for it are checked in e2e.mjs
TEST_CASE("ui: prefix groups, the prompt pool and staged rates reach the request and the URL; a bad ladder is refused", "[ui][serving]") {
    AppState app = app_from("model=meta-llama/Llama-3.1-8B-Instruct&hardware=h100-sxm&sv_in=2048&sv_out=64&sv_prefix=1843"
                            "&sv_groups=4&sv_ppg=2&sv_stages=2:5,4:7.5");
    llmsim::ServeRequest r;
    std::string err;
    REQUIRE(serving_request_from_scenario(app, r, err));
    CHECK(r.workload.prefix_groups == 4);
    CHECK(r.workload.prompts_per_group == 2);
    REQUIRE(r.workload.rate_stages.size() == 2);
    CHECK(r.workload.rate_stages[1].rate == 4);
    CHECK(r.workload.rate_stages[1].duration_s == 7.5);
    CHECK(r.workload.concurrency == 0);   // the ladder drives the load
    CHECK(r.workload.request_rate == 0);
    const nlohmann::json j = nlohmann::json::parse(serving_request_json(r));
    CHECK(j["workload"]["prefix_groups"] == 4);
    CHECK(j["workload"]["prompts_per_group"] == 2);
    CHECK(j["workload"]["rate_stages"][1]["duration_s"] == 7.5);
    const std::string url = encode_url_state(app.scenario);
    CHECK(url.find("sv_groups=4") != std::string::npos);
    CHECK(url.find("sv_ppg=2") != std::string::npos);
    CHECK(url.find("sv_stages=2%3A5,4%3A7.5") != std::string::npos);
    Scenario back;
    REQUIRE(decode_url_state(url, back, err));
    CHECK(back.sv_stages == "2:5,4:7.5");
    // bad values: refused by key with the reason, the state unchanged
    Scenario s = app.scenario;
    CHECK_FALSE(decode_url_state("sv_stages=3;50", s, err));
    CHECK(err.find("sv_stages: stage 1: '3;50' is not rate:seconds") == 0);
    CHECK_FALSE(decode_url_state("sv_stages=2:5,0:10", s, err));
    CHECK(err == "sv_stages: stage 2: rate 0 must be above 0 and at most 100000 requests/s");
    CHECK_FALSE(decode_url_state("sv_stages=1000:100", s, err));   // int(1000 x 100) = 100000 requests > 20000
    CHECK(err.find("sv_stages: 100000 requests in all") == 0);
    CHECK_FALSE(decode_url_state("sv_stages=2:5,", s, err));
    CHECK(err.find("sv_stages: stage 2: '' is not rate:seconds") == 0);
    CHECK_FALSE(decode_url_state("sv_groups=0", s, err));
    CHECK(err.find("sv_groups") == 0);
    CHECK(s.sv_stages == "2:5,4:7.5");
    CHECK(s.sv_groups == 4);
    // one spelling in the link once the section applies a typed ladder
    std::vector<llmsim::ServeWorkload::RateStage> st;
    REQUIRE(parse_rate_stages_text(" 3 : 50 , 10:20 ", st, err));
    CHECK(rate_stages_text(st) == "3:50,10:20");
    // no ladder: the request is the closed loop again
    app.scenario.sv_stages.clear();
    REQUIRE(serving_request_from_scenario(app, r, err));
    CHECK(r.workload.rate_stages.empty());
    CHECK(r.workload.concurrency == app.scenario.sv_conc);
}
