// The recommend / cost JSON entry points (api/api_recommend.h) the MCP tools call: hand-checkable answers, the
// names people type, and a clear error naming the key for every kind of bad request (nothing thrown).
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include "api/api_recommend.h"
#include "test_support.h"

using namespace llmsim;
using json = nlohmann::json;

namespace {
json ask(std::string (*api)(const Catalog&, const std::string&), const std::string& request) {
    return json::parse(api(cat(), request));
}
}  // namespace

TEST_CASE("api_cost: given hours, price and rent price out by hand", "[api_recommend]") {
    const json a = ask(api_cost, R"({"model":"Qwen/Qwen2.5-7B-Instruct","hardware":"rtx-4090","quant":"Q4_K_M",
        "hours_per_month":365,"price_usd":3650,"rent_usd_per_hour":1.5,"kwh_price_usd":0.2,"months":36})");
    REQUIRE_FALSE(a.contains("error"));
    CHECK(a["model"] == "Qwen/Qwen2.5-7B-Instruct");
    CHECK(a["active_hours_per_month"].get<double>() == Approx(365));
    CHECK(a["rent_usd_per_month"].get<double>() == Approx(365 * 1.5));          // 547.50 USD
    CHECK(a["own_amortization_usd_per_month"].get<double>() == Approx(3650.0 / 36));
    CHECK(a["devices_needed"] == 1);
}

TEST_CASE("api_cost and api_recommend take the names people type", "[api_recommend]") {
    // qwen2.5:7b is Ollama's tag for Qwen2.5-7B-Instruct at Q4_K_M (models.json ollama_tags)
    const json c = ask(api_cost, R"({"model":"qwen2.5:7b","hardware":"rtx-4090"})");
    REQUIRE_FALSE(c.contains("error"));
    CHECK(c["model"] == "Qwen/Qwen2.5-7B-Instruct");
    CHECK(c["quant"] == "Q4_K_M");
    const json r = ask(api_recommend, R"({"model":"qwen2.5:7b","ctx":8192,"min_decode_tps":20})");
    REQUIRE_FALSE(r.contains("error"));
    CHECK(r["quant"] == "Q4_K_M");
    CHECK(r["ctx"] == 8192);
    CHECK(r["rejected"].empty());   // without "all"
    REQUIRE_FALSE(r["accepted"].empty());
    for (const json& c2 : r["accepted"]) CHECK(c2["decode_checked_tps"].get<double>() >= 20);
}

TEST_CASE("api_recommend_models: every model meets the floor at the full context", "[api_recommend]") {
    const json a = ask(api_recommend_models, R"({"hardware":"rtx-4090","ctx":8192,"min_decode_tps":20})");
    REQUIRE_FALSE(a.contains("error"));
    CHECK(a["hardware"] == "rtx-4090");
    REQUIRE_FALSE(a["models"].empty());
    for (const json& m : a["models"]) CHECK(m["decode_full_tps"].get<double>() >= 20);
}

TEST_CASE("recommend and cost requests: bad input names the key", "[api_recommend]") {
    const std::pair<std::string (*)(const Catalog&, const std::string&), std::pair<const char*, const char*>> cases[] = {
        {api_cost, {"{", "not valid JSON"}},
        {api_cost, {"[1]", "must be a JSON object"}},
        {api_cost, {R"({"hardware":"rtx-4090"})", "model is required"}},
        {api_cost, {R"({"model":"nobody/none","hardware":"rtx-4090"})", "unknown model 'nobody/none'"}},
        {api_cost, {R"({"model":"Qwen/Qwen2.5-7B-Instruct"})", "hardware is required"}},
        {api_cost, {R"({"model":"Qwen/Qwen2.5-7B-Instruct","hardware":"no-such-gpu"})", "no-such-gpu"}},
        {api_cost, {R"({"model":"Qwen/Qwen2.5-7B-Instruct","hardware":"rtx-4090","quant":"Q9_X"})", "unknown quant 'Q9_X'"}},
        {api_cost, {R"({"model":"Qwen/Qwen2.5-7B-Instruct","hardware":"rtx-4090","months":0})", "months"}},
        {api_cost, {R"({"model":"Qwen/Qwen2.5-7B-Instruct","hardware":"rtx-4090","explain":"yes"})", "explain must be true or false"}},
        {api_recommend, {R"({"model":"Qwen/Qwen2.5-7B-Instruct","ctx":0})", "ctx"}},
        {api_recommend, {R"({"model":"Qwen/Qwen2.5-7B-Instruct","ctx":4096,"decode_depth":8192})", "decode_depth must be at most ctx"}},
        {api_recommend, {R"({"model":"Qwen/Qwen2.5-7B-Instruct","input_share":2})", "input_share"}},
        {api_recommend_models, {R"({"ctx":8192})", "hardware is required"}},
        {api_recommend_models, {R"({"hardware":"rtx-4090","min_decode_tps":"fast"})", "min_decode_tps"}},
    };
    for (const auto& c : cases) {
        INFO(c.second.first);
        const json a = ask(c.first, c.second.first);
        REQUIRE(a.contains("error"));
        CHECK(a["error"].get<std::string>().find(c.second.second) != std::string::npos);
    }
}
