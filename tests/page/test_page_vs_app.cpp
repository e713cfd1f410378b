// The static page (cli/page.h build_page) and the app (ui/derived.cpp update_derived) at the page's own scenario
// (the app opened by the page's "Open in the simulator" hash) derive the same rows and the same FAQ: both build
// them with engine/report/sections.h, and this test fails if either side starts choosing differently. The web
// test (tests/e2e/site_e2e.mjs) checks the same tables in the browser; this one runs natively and covers the FAQ.
#include <catch2/catch.hpp>

#include "app_state.h"
#include "derived.h"
#include "page.h"
#include "url_state.h"
#include "../ui/open_app.h"

using namespace llmsim;

namespace {

using llmsim::test::open_app;

// the app's answer with its hint at the Recommended hardware section taken out is the page's
std::string without_app_hints(std::string a) {
    for (const char* hint : {" The Recommended hardware section ranks the rest by price; its floor is editable there.",
                             ", or lower the floor in the Recommended hardware section."}) {
        const size_t at = a.find(hint);
        if (at != std::string::npos) a.replace(at, std::string(hint).size(), hint[0] == ',' ? "." : "");
    }
    return a;
}

void check_model(const Catalog& cat, const std::string& id) {
    INFO(id);
    const Model* m = cat.find_model(id);
    REQUIRE(m);
    cli::PageData page;
    std::string err;
    REQUIRE(cli::build_page(cat, *m, page, err));
    AppState app;
    open_app(app, cli::page_hash(page));
    const Derived& d = app.derived;
    REQUIRE(d.eval_ok);
    REQUIRE(d.hardware);
    CHECK(d.hardware->id == page.hardware->id);
    CHECK(d.eval.memory.total_bytes == page.current.memory.total_bytes);

    const std::vector<QuantRow> q = common_quant_rows(d.quants);
    REQUIRE(q.size() == page.quants.size());
    for (size_t i = 0; i < q.size(); ++i) {
        CHECK(q[i].file_type->name == page.quants[i].file_type->name);
        CHECK(q[i].weights_bytes == page.quants[i].weights_bytes);
        CHECK(q[i].total_a_bytes == page.quants[i].total_a_bytes);
        CHECK(q[i].total_b_bytes == page.quants[i].total_b_bytes);
    }
    const std::vector<DeviceRow> lb = seed_ordered_device_rows(d.devices);
    REQUIRE(lb.size() == page.devices.size());
    for (size_t i = 0; i < lb.size(); ++i) {
        const DeviceRow& p = page.devices[i].row;
        CHECK(lb[i].hardware->id == p.hardware->id);
        CHECK(lb[i].eval.memory.status == p.eval.memory.status);
        CHECK(lb[i].eval.memory.total_bytes == p.eval.memory.total_bytes);
        CHECK(lb[i].eval.memory.max_context == p.eval.memory.max_context);
        CHECK(lb[i].eval.speed.decode_full_tps == p.eval.speed.decode_full_tps);
    }
    size_t matched = 0;
    for (const ContextPoint& c : d.context) {
        if (!is_power_of_two_context(c.ctx_tokens)) continue;
        REQUIRE(matched < page.context.size());
        CHECK(c.ctx_tokens == page.context[matched].ctx_tokens);
        CHECK(c.kv_bytes == page.context[matched].kv_bytes);
        CHECK(c.total_bytes == page.context[matched].total_bytes);
        CHECK(c.decode_tokens_per_s == page.context[matched].decode_tokens_per_s);
        ++matched;
    }
    CHECK(matched == page.context.size());
    const CostResult cost = estimate_cost(cost_inputs_from_scenario(app));
    CHECK(cost.own_usd_per_month == page.cost.own_usd_per_month);
    CHECK(cost.rent_usd_per_month == page.cost.rent_usd_per_month);
    CHECK(cost.api_usd_per_month == page.cost.api_usd_per_month);

    // the FAQ: the same questions and words; the page's cheapest answer names the page's own device
    REQUIRE(d.faq.size() == page.faq.size());
    REQUIRE(page.faq.size() == 4);
    for (size_t i = 0; i < page.faq.size(); ++i) {
        CHECK(d.faq[i].question == page.faq[i].question);
        CHECK(without_app_hints(d.faq[i].answer) == page.faq[i].answer);
    }
    const Candidate* cheapest = first_priced(d.cheapest_usable);
    if (cheapest) CHECK(cheapest->hardware.id == page.hardware->id);
    if (cheapest) CHECK(page.faq[1].answer.rfind(page.hardware->name + " (about $", 0) == 0);
}

}  // namespace

TEST_CASE("the page and the app derive the same rows and FAQ at the page's scenario", "[page]") {
    Catalog cat;
    std::string err;
    REQUIRE(load_embedded_catalog(cat, err));
    // dense GQA (its cheapest answer is a multi-GPU combination), a small dense model, MoE, MLA
    for (const char* id : {"Qwen/Qwen2.5-72B-Instruct", "Qwen/Qwen2.5-7B-Instruct", "Qwen/Qwen3-30B-A3B", "deepseek-ai/DeepSeek-V3"})
        if (cat.find_model(id)) check_model(cat, id);
        else FAIL_CHECK(std::string("not in the catalog: ") + id);
}
