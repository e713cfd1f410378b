// The runtime registry (engine/runtime/runtime.h): it lists llama.cpp, rejects unknown ids, and its llama.cpp
// entry gives exactly what the functions it names give (the seam changes no number, message or command).
#include <catch2/catch.hpp>

#include <set>
#include <string>

#include "api/api.h"
#include "runtime/command.h"
#include "memory/memory.h"
#include "memory/prepared_weights.h"
#include "runtime/runtime.h"
#include "sim/simulate.h"
#include "runtime/speed_glue.h"
#include "test_support.h"

#include <nlohmann/json.hpp>

using namespace llmsim;

namespace {

// two scenarios: a dense model fully on one GPU, and an MoE split over two GPUs with experts in host memory
SimRequest scenario(int which, const Model*& model) {
    SimRequest req;
    req.memory.n_ctx = 32768;
    if (which == 0) {
        model = cat().find_model("Qwen/Qwen2.5-7B-Instruct");
        req.memory.file_type = "Q4_K_M";
        req.memory.hardware = cat().find_hardware("rtx-4090");
    } else {
        model = cat().find_model("Qwen/Qwen3-30B-A3B");
        req.memory.file_type = "Q4_K_M";
        req.memory.kv_type_k = req.memory.kv_type_v = TensorType::Q8_0;
        req.memory.n_cpu_moe = 12;
        req.memory.n_parallel = 4;
        req.memory.n_gpu_layers = 30;
        req.memory.flash_attn = true;
        req.memory.hardware = cat().find_hardware("2x-rtx-3090");
        req.prompt_tokens = 8192;
    }
    REQUIRE(model);
    REQUIRE(req.memory.hardware);
    return req;
}

void check_same_speed(const SpeedView& a, const SpeedView& b) {
    CHECK(a.ok == b.ok);
    CHECK(a.error == b.error);
    CHECK(a.decode_tps == b.decode_tps);
    CHECK(a.decode_low == b.decode_low);
    CHECK(a.decode_high == b.decode_high);
    CHECK(a.decode_empty_tps == b.decode_empty_tps);
    CHECK(a.decode_full_tps == b.decode_full_tps);
    CHECK(a.prefill_tps == b.prefill_tps);
    CHECK(a.ttft_s == b.ttft_s);
    CHECK(a.reply_s == b.reply_s);
    CHECK(a.aggregate_tps == b.aggregate_tps);
    CHECK(a.per_user_tps == b.per_user_tps);
    CHECK(a.decode_bound == b.decode_bound);
    CHECK(a.prefill_bound == b.prefill_bound);
    CHECK(a.explain == b.explain);
}
}  // namespace

TEST_CASE("engine table: llama.cpp runs its own plans, ids are exact", "[runtime]") {
    const Engine* e = find_engine("llamacpp");
    REQUIRE(e);
    CHECK(std::string(e->name) == "llamacpp");
    CHECK(std::string(e->display_name) == "llama-server");   // one name: the server the serving output prints
    CHECK(e->id == EngineId::LlamaCpp);
    CHECK(e->scenario == ScenarioModel::LlamaCpp);
    CHECK(&engine_row(EngineId::LlamaCpp) == e);
    CHECK(SimRequest().engine == EngineId::LlamaCpp);   // the default every existing caller gets
    CHECK(runtime(EngineId::LlamaCpp) == runtime_of(ScenarioModel::LlamaCpp));
    CHECK(runtime(EngineId::Vllm) == runtime_of(ScenarioModel::Serving));

    CHECK(find_engine("") == nullptr);
    CHECK(find_engine("tensorrt-llm") == nullptr);   // the id is "trtllm"
    CHECK(find_engine("vLLM") == nullptr);           // ids are exact
    CHECK(find_engine("LlamaCpp") == nullptr);       // ids are exact
    CHECK(find_engine("llama-server") == nullptr);   // the display name is not an id
    CHECK(runtime(EngineId::Count) == nullptr);
    CHECK(runtime((EngineId)-1) == nullptr);
    CHECK(runtime_of(ScenarioModel::Count) == nullptr);
}

TEST_CASE("every engine row and plan set is complete, in order and has a unique id", "[runtime]") {
    // the order at compile time (engines.cpp, runtime.cpp assert it); completeness at run time (a function's
    // address is not a constant expression under -fsanitize=undefined)
    for (int m = 0; m < (int)ScenarioModel::Count; ++m) {
        const Runtime* r = runtime_of((ScenarioModel)m);
        REQUIRE(r);
        CHECK((int)r->model == m);
        CHECK(runtime_complete(*r));
    }
    CHECK_FALSE(runtime_complete(Runtime{ScenarioModel::LlamaCpp, nullptr, nullptr, nullptr, nullptr, nullptr}));
    REQUIRE(engines().size() == (size_t)kEngineCount);
    std::set<std::string> ids, names;
    int i = 0;
    for (const Engine& e : engines()) {
        CHECK((int)e.id == i++);
        CHECK(&engine_row(e.id) == &e);
        CHECK(find_engine(e.name) == &e);
        CHECK(ids.insert(e.name).second);
        CHECK(names.insert(e.display_name).second);
        CHECK(e.kv_pool != nullptr);
        CHECK(e.command_line != nullptr);
        CHECK(runtime(e.id) != nullptr);
    }
    CHECK(engine_names("|") == "vllm|sglang|llamacpp|trtllm|lmdeploy|mlx");   // every row, in EngineId order
}

TEST_CASE("llama.cpp entry: memory, speed and command equal the direct functions", "[runtime]") {
    const Runtime* rt = runtime(EngineId::LlamaCpp);
    REQUIRE(rt);
    for (int which = 0; which < 2; ++which) {
        INFO("scenario " << which);
        const Model* model = nullptr;
        const SimRequest req = scenario(which, model);

        // memory: the entry's plan vs estimate_memory (catalog overload), and evaluate() through the seam
        std::string err;
        MemoryBreakdown direct;
        REQUIRE(estimate_memory(cat(), *model, req.memory, direct, err));
        const auto w = prepare_weights(cat(), *model, req.memory.file_type, err, req.memory.file_bytes_override.value_or(0));
        REQUIRE(w);
        MemoryBreakdown via;
        REQUIRE(rt->memory_plan(EngineId::LlamaCpp, *w, *model, req.memory, via, err));
        const std::string direct_json = memory_to_json(*model, req.memory, direct).dump();
        CHECK(memory_to_json(*model, req.memory, via).dump() == direct_json);
        Evaluation ev;
        REQUIRE(evaluate(cat(), *model, req, ev, err));
        CHECK(memory_to_json(*model, req.memory, ev.memory).dump() == direct_json);
        CHECK(ev.memory.total_bytes == direct.total_bytes);
        CHECK(ev.memory.total_bytes > 0);

        // speed: the entry's plan vs estimate_speed_view on the same evaluated memory
        Evaluation a = ev, b = ev;
        a.speed = SpeedView();
        b.speed = SpeedView();
        rt->speed_plan(cat(), *model, req, a);
        estimate_speed_view(cat(), *model, req, b);
        REQUIRE(b.speed.ok);
        CHECK(b.speed.decode_tps > 0);
        check_same_speed(a.speed, b.speed);
        check_same_speed(ev.speed, b.speed);

        // command: the entry's command line vs llama_server_command
        for (int port : {8080, 9000})
            CHECK(rt->command_line(cat(), *model, req, port) == llama_server_command(cat(), *model, req, port));
    }
    // the second scenario is the first case of test_command_recommend.cpp: the same pinned command
    const Model* model = nullptr;
    const SimRequest req = scenario(1, model);
    CHECK(rt->command_line(cat(), *model, req, 9000) ==
          "llama-server -m Qwen3-30B-A3B-Q4_K_M.gguf -c 32768 -ngl 30 -fa on -ctk q8_0 -ctv q8_0 --n-cpu-moe 12 -np 4 "
          "-ts 1,1 --port 9000");
}

TEST_CASE("evaluate rejects an engine outside the table and changes nothing else", "[runtime]") {
    const Model* model = nullptr;
    SimRequest req = scenario(0, model);
    req.engine = EngineId::Count;
    Evaluation ev;
    std::string err;
    CHECK_FALSE(evaluate(cat(), *model, req, ev, err));
    CHECK(err == "engine: unknown engine id 6");   // Count: vLLM, SGLang, llama.cpp, TensorRT-LLM, LMDeploy, MLX
    CHECK(ev.memory.total_bytes == 0);
}
