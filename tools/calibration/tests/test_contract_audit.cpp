// Audit of issues 12 and 14's "Done when" rules that are not accuracy targets, each checked through a second path:
// inline devices named as nvidia-smi prints them vs the catalog id, recommend's accepted rigs re-checked with
// predict at the full context (several models and contexts, combination ids among them), a combination id vs the
// single card with "gpus", and the SLA search's cheapest answer re-checked with a predict serving line.
#include <catch2/catch.hpp>

#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>

#include <nlohmann/json.hpp>

#include "api/predict.h"
#include "catalog/catalog.h"
#include "report/sections.h"
#include "serving/serving.h"
#include "sim/recommend.h"
#include "calibration/calibrate.h"
#include "calibration/profile_validation.h"
#include "runtime/speed_glue.h"
#include "test_support.h"

using namespace llmsim;
using nlohmann::json;

namespace {
json run(const std::string& line) { return json::parse(predict_line(cat(), default_speed_params(), line)); }
}  // namespace

TEST_CASE("audit: nvidia-smi names with fp16_tflops null get the catalog device's prediction (+-1 %)", "[predict][audit]") {
    // the strings nvidia-smi --query-gpu=name prints; SXM parts do not say SXM, sizes are in the name
    struct Case { const char* id; const char* name; };
    const Case cases[] = {{"h100-sxm", "NVIDIA H100 80GB HBM3"}, {"h200-sxm", "NVIDIA H200"},
                          {"a100-sxm-80gb", "NVIDIA A100-SXM4-80GB"}, {"a100-sxm-40gb", "NVIDIA A100-SXM4-40GB"},
                          {"a100-pcie-80gb", "NVIDIA A100 80GB PCIe"}, {"l40s", "NVIDIA L40S"}, {"mi300x", "AMD Instinct MI300X"}};
    for (const Case& c : cases)
        for (const char* kind : {"prefill", "decode"}) {
            const std::string test = std::string(R"(,"quant":"Q8_0","test":{"kind":")") + kind + R"(","tokens":512,"depth":0}})";
            json a = run(std::string(R"({"model":"meta-llama/Llama-3.1-8B-Instruct","hardware":")") + c.id + "\"" + test);
            json b = run(std::string(R"({"model":"meta-llama/Llama-3.1-8B-Instruct","hardware":{"name":")") + c.name +
                         R"(","fp16_tflops":null})" + test);
            INFO(c.name << " " << kind << ": " << b.dump());
            REQUIRE(a.contains("tokens_per_s"));
            REQUIRE(b.contains("tokens_per_s"));
            CHECK(b["tokens_per_s"].get<double>() == Approx(a["tokens_per_s"].get<double>()).epsilon(0.01));
            CHECK(b["note"].get<std::string>().find(std::string("matched catalog device '") + c.id + "'") != std::string::npos);
        }
    // the PCIe part is never taken for the SXM one, and a V100 SXM2 (not in the catalog) is not matched to the PCIe card
    CHECK(run(R"({"model":"meta-llama/Llama-3.1-8B-Instruct","hardware":{"name":"NVIDIA H100 PCIe"},"test":{"kind":"decode","tokens":1}})")["note"]
              .get<std::string>().find("'h100-pcie'") != std::string::npos);
    CHECK(run(R"({"model":"meta-llama/Llama-3.1-8B-Instruct","hardware":{"name":"Tesla V100-SXM2-16GB"},"test":{"kind":"decode","tokens":1}})")
              .contains("error"));
}

TEST_CASE("audit: recommend's accepted rigs meet --min-decode in predict at the full context, combination ids included", "[recommend][audit]") {
    struct Case { const char* model; int64_t ctx; double min_decode; };
    const Case cases[] = {{"Qwen/Qwen2.5-7B-Instruct", 32768, 60}, {"meta-llama/Llama-3.1-8B-Instruct", 8192, 30},
                          {"Qwen/Qwen2.5-32B-Instruct", 16384, 20}, {"meta-llama/Llama-3.1-70B-Instruct", 8192, 10}};
    int combos = 0, checked = 0;
    for (const Case& k : cases) {
        RecommendQuery q;
        q.model = cat().find_model(k.model);
        REQUIRE(q.model);
        q.ctx_tokens = k.ctx;
        q.min_decode_tps = k.min_decode;
        RecommendResult r = recommend_hardware(cat(), q);
        REQUIRE(r.error.empty());
        REQUIRE_FALSE(r.accepted.empty());
        for (const Candidate& c : r.accepted) {
            INFO(k.model << " ctx " << k.ctx << " on " << c.hardware.id);
            const json in = {{"model", q.model->id}, {"quant", q.quant}, {"hardware", c.hardware.id}, {"flash_attn", true},
                             {"test", {{"kind", "decode"}, {"tokens", 128}, {"depth", k.ctx}}}};
            const json out = run(in.dump());
            REQUIRE(out.contains("tokens_per_s"));
            CHECK(out["tokens_per_s"].get<double>() >= k.min_decode);
            combos += c.hardware.id.find("x-") == 1;
            ++checked;
        }
    }
    CHECK(checked > 20);
    CHECK(combos > 0);   // "2x-arc-b580"-style rigs are among the answers and re-check like any id
}

TEST_CASE("audit: a combination id predicts as the single card with gpus N; a contradicting gpus is refused", "[predict][audit]") {
    for (const char* kind : {"prefill", "decode"}) {
        const std::string test = std::string(R"(,"test":{"kind":")") + kind + R"(","tokens":512,"depth":4096}})";
        json combo = run(R"({"model":"Qwen/Qwen2.5-14B-Instruct","hardware":"4x-rtx-3060-12gb")" + test);
        json single = run(R"({"model":"Qwen/Qwen2.5-14B-Instruct","hardware":"rtx-3060-12gb","gpus":4)" + test);
        REQUIRE(combo.contains("tokens_per_s"));
        CHECK(combo["tokens_per_s"].get<double>() == Approx(single["tokens_per_s"].get<double>()).epsilon(1e-9));
        CHECK(run(R"({"model":"Qwen/Qwen2.5-14B-Instruct","hardware":"4x-rtx-3060-12gb","gpus":4)" + test).contains("tokens_per_s"));
    }
    json bad = run(R"({"id":"g","model":"Qwen/Qwen2.5-7B-Instruct","hardware":"2x-arc-b580","gpus":4,"test":{"kind":"decode","tokens":128}})");
    CHECK(bad["id"] == "g");
    CHECK(bad["error"] == "gpus 4 contradicts hardware '2x-arc-b580' (2 GPUs); drop gpus or use the single card's id with gpus");
}

TEST_CASE("audit: the SLA search's cheapest answer re-checks with a predict serving line", "[serving][search][audit]") {
    ServeRequest r;
    r.engine = "vllm"; r.model = "meta-llama/Llama-3.1-8B-Instruct"; r.hardware = "h100-sxm"; r.precision = "bf16";
    r.max_model_len = 4096;
    r.workload.input_len = 1024; r.workload.output_len = 128; r.workload.concurrency = 16;
    r.sla.ttft_p90_ms = 1000; r.sla.tpot_p90_ms = 50;
    SlaSearch space;   // every catalog datacenter/workstation device x 1/2/4/8 x vLLM/SGLang x BF16/FP8
    space.limit = 3;
    std::vector<SlaPoint> pts = sla_search(cat(), r, space, nullptr);
    REQUIRE_FALSE(pts.empty());
    for (const SlaPoint& p : pts) {
        INFO(p.engine << " " << p.hardware << " x" << p.gpus << " tp " << p.tp << " " << p.precision << " at C=" << p.max_concurrency);
        REQUIRE(p.max_concurrency >= r.workload.concurrency);
        const json line = {{"id", "sla"}, {"engine", p.engine}, {"model", r.model}, {"precision", p.precision},
                           {"hardware", p.hardware}, {"gpus", p.gpus}, {"tp", p.tp}, {"pp", p.pp}, {"max_model_len", r.max_model_len},
                           {"test", {{"kind", "serving"}, {"input_len", 1024}, {"output_len", 128}, {"concurrency", r.workload.concurrency},
                                     {"request_rate", "inf"}, {"num_prompts", 8 * r.workload.concurrency}}}};
        const json o = run(line.dump());
        REQUIRE(o.contains("ttft_ms"));
        CHECK(o["ttft_ms"]["p90"].get<double>() <= r.sla.ttft_p90_ms);
        CHECK(o["tpot_ms"]["p90"].get<double>() <= r.sla.tpot_p90_ms);
        CHECK(o["output_tok_s"].get<double>() > 0);
    }
    // Qwen2.5-7B has 28 attention heads: vLLM refuses tp 8 at startup, so serve() must too
    ServeRequest q = r;
    q.model = "Qwen/Qwen2.5-7B-Instruct"; q.tp = 8; q.gpus = 8;
    ServeResult s = serve(cat(), q);
    CHECK_FALSE(s.ok);
    CHECK(s.error.find("28 attention heads are not divisible by tp 8") != std::string::npos);
}

// profile_validation.h: the held-out split behind "given llama-bench output for one model on a device, predictions
// for other models on that device get closer" (issue 12 done-when)
TEST_CASE("audit: a device profile fitted on one model corrects the other models on that device (held out)", "[device_profile][audit]") {
    // synthetic rows whose answer is known by hand: on the RTX 4090 every decode runs at 0.7x our prediction and
    // every prefill at 1.0x, for two models; calibrated on either model, the other's decode error goes from
    // |1/0.7 - 1| = 42.86 % to 0 and its prefill stays at 0
    std::string jsonl;
    for (const char* model : {"Qwen/Qwen2.5-7B-Instruct", "meta-llama/Llama-3.1-8B-Instruct"})
        for (const char* t : {R"("decode","tokens":128,"depth":0)", R"("decode","tokens":128,"depth":4096)", R"("prefill","tokens":512,"depth":0)",
                              R"("prefill","tokens":512,"depth":4096)"}) {
            json line = json::parse(std::string(R"({"model":")") + model + R"(","quant":"Q4_K_M","hardware":"rtx-4090","flash_attn":true,"test":{"kind":)" + t + "}}");
            const json pred = run(line.dump());
            REQUIRE(pred.contains("tokens_per_s"));
            const bool decode = line["test"]["kind"] == "decode";
            line["measured_tokens_per_s"] = pred["tokens_per_s"].get<double>() * (decode ? 0.7 : 1.0);
            jsonl += line.dump() + "\n";
        }
    HoldoutReport rep;
    std::string err;
    REQUIRE(profile_holdout(cat(), jsonl, default_speed_params(), rep, err));
    CHECK(rep.devices == 1);
    CHECK(rep.splits == 2);
    CHECK(rep.before[0].rows == 4);
    CHECK(rep.before[0].mdape == Approx(1 / 0.7 - 1).epsilon(1e-6));
    CHECK(rep.after[0].mdape < 1e-6);
    CHECK(rep.before[1].mdape < 1e-6);
    CHECK(rep.after[1].mdape < 1e-6);
    // the published 2025-26 rows (10 devices with >= 2 models) on a model that never saw them: fitted on the 2024
    // rows only, from the physical priors (the shipped fit saw the 2025-26 rows, so its residuals there are in-sample
    // and a profile from one model mostly adds that model's noise). The user's case is a device the model got wrong:
    // decode and prefill of the other models get closer with the profile than without
    auto slurp = [](const char* name) {
        std::ifstream f(std::string(LLMSIM_SOURCE_DIR) + "/assets/calibration/" + name, std::ios::binary);
        REQUIRE(f);
        return std::string((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
    };
    std::vector<CalibrationRow> rows_2024;
    REQUIRE(parse_calibration_jsonl(slurp("llamacpp_speed.jsonl"), rows_2024, err));
    FitOptions opt;
    opt.from_priors = true;
    const SpeedParams fit_2024 = fit_speed_params(rows_2024, default_speed_params(), opt);
    REQUIRE(profile_holdout(cat(), slurp("llamacpp_speed_2025.jsonl"), fit_2024, rep, err));
    CHECK(rep.splits >= 20);
    for (int k : {0, 1}) {
        INFO((k == 0 ? "decode" : "prefill") << ": MdAPE " << rep.before[k].mdape << " -> " << rep.after[k].mdape);
        CHECK(rep.after[k].mdape < rep.before[k].mdape);
        CHECK(rep.after[k].within25 > rep.before[k].within25);
    }
    // one model's line on a device with no second model: nothing to hold out, said so
    CHECK_FALSE(profile_holdout(cat(), jsonl.substr(0, jsonl.find('\n') + 1), default_speed_params(), rep, err));
    CHECK(err == "no device has measured rows of two models: nothing to hold out");
}

// the honest version (profile_validation.h profile_holdout_refit): each device refit out of the speed model (the
// accuracy command's device-out folds), a profile from one model's rows of a setup (device x GPUs x publication),
// the setup's other models scored; the shrinkage prior (tau^2, sigma^2) from the other devices only. Cheap version:
// the 3 devices with the most multi-model setups (`llmsim-cli calibrate-device --holdout` runs all 17, about a
// minute). Measured when pinned (MdAPE without / full weight / shrunk): unseen decode 4.0 / 3.6 / 3.5 %, prefill
// 15.6 / 20.9 / 15.6 %; in-sample decode 3.3 / 3.4 / 2.9 %, prefill 13.4 / 19.8 / 13.3 %
TEST_CASE("audit: a shrunk device profile helps on unseen devices and does not hurt on seen ones (refit held out)",
          "[device_profile][audit][.slow]") {
    std::string err;
    std::vector<CalibrationRow> rows, part;
    for (const char* f : {"assets/calibration/llamacpp_speed.jsonl", "assets/calibration/llamacpp_speed_2025.jsonl"}) {
        REQUIRE(parse_calibration_jsonl(read_source_file(f), part, err));
        rows.insert(rows.end(), part.begin(), part.end());
    }
    ProfileHoldoutOptions opt;
    opt.max_devices = 3;
    ProfileHoldoutReport rep;
    REQUIRE(profile_holdout_refit(rows, default_speed_params(), opt, rep, err));
    printf("device profile refit holdout (%d devices): %.1f s\n%s", rep.devices_refit, rep.wall_s, format_profile_holdout(rep).c_str());
    CHECK(rep.devices_refit == 3);
    CHECK(rep.unseen.splits >= 40);
    for (int k : {0, 1})
        for (const ProfileHoldoutCase* c : {&rep.unseen, &rep.seen}) {
            INFO((k == 0 ? "decode" : "prefill") << (c == &rep.unseen ? " unseen" : " seen") << ": MdAPE " << c->without[k].mdape
                 << " / full " << c->full_weight[k].mdape << " / shrunk " << c->shrunk[k].mdape);
            // at worst it does not hurt (within half a point on these 3 devices): the full run (calibrate-device
            // --holdout, 17 devices, 140 splits) prints unseen decode 9.4 -> 6.2 %, prefill 17.3 -> 14.7 % and seen decode
            // 5.6 -> 5.1 %, prefill 11.9 -> 12.6 % (14.8 % unshrunk); on these 3 the unseen prefill is 15.46 / 15.65 %
            CHECK(c->shrunk[k].mdape <= c->without[k].mdape + 0.005);
            CHECK(c->shrunk[k].coverage >= 0.7);                        // the narrowed band still holds
        }
    CHECK(rep.unseen.shrunk[0].mdape < rep.unseen.without[0].mdape);   // unseen decode: closer
    CHECK(rep.seen.shrunk[0].mdape < rep.seen.without[0].mdape);
    // prefill: one model's rows at full weight add that model's noise (+5 points); the shrinkage removes it
    CHECK(rep.unseen.shrunk[1].mdape < rep.unseen.full_weight[1].mdape - 0.03);
    CHECK(rep.seen.shrunk[1].mdape < rep.seen.full_weight[1].mdape - 0.03);
}

// issue 12 item 4: "the cheapest hardware that runs X" is the cheapest priced rig over a usable floor, the answer
// states the floor, and the rig it names re-checks with predict (decode at the full 32k context, a 4k prompt's prefill)
TEST_CASE("audit: the FAQ's cheapest hardware meets its stated floor when re-checked with predict", "[report][audit]") {
    for (const char* id : {"Qwen/Qwen2.5-72B-Instruct", "meta-llama/Llama-3.1-70B-Instruct", "Qwen/Qwen2.5-32B-Instruct", "Qwen/Qwen2.5-7B-Instruct"}) {
        const Model* m = cat().find_model(id);
        REQUIRE(m);
        const RecommendResult rr = cheapest_usable(cat(), *m, "Q4_K_M", 32768);
        const Candidate* c = first_priced(rr);
        REQUIRE(c);
        INFO(id << " -> " << c->hardware.id);
        const std::string hw = c->hardware.id;
        const json dec = run(R"({"model":")" + m->id + R"(","hardware":")" + hw + R"(","flash_attn":true,"test":{"kind":"decode","tokens":128,"depth":32768}})");
        const json pre = run(R"({"model":")" + m->id + R"(","hardware":")" + hw + R"(","flash_attn":true,"test":{"kind":"prefill","tokens":4096,"depth":0}})");
        REQUIRE(dec.contains("tokens_per_s"));
        REQUIRE(pre.contains("tokens_per_s"));
        CHECK(dec["tokens_per_s"].get<double>() >= kUsableMinDecodeTps);
        CHECK(4096 / pre["tokens_per_s"].get<double>() <= kUsableMaxTtftS);
        CHECK(kUsableMinDecodeTps == 10.0);   // the floors the issue names: >= 10 tok/s, first token of 4k within ~10 s
        CHECK(kUsableMaxTtftS == 10.0);
        MemoryBreakdown mb;
        FaqInputs in;
        in.model = m; in.quant = "Q4_K_M"; in.ctx_tokens = 32768; in.memory = &mb; in.cheapest = c;
        const std::string answer = faq_entries(in)[1].answer;
        CHECK(answer.find(c->hardware.name) == 0);
        CHECK(answer.find("at least 10.0 tok/s decode at 32k context and the first token of a 4k prompt within 10.0 s") != std::string::npos);
    }
}
