// The section builders of a model's report (engine/report/sections.h), which the app and the static pages share.
// The FAQ's expected words are written out by hand: the KV figures from the models' shapes (layers × KV heads ×
// head_dim × 2 (K and V) × 2 bytes × tokens), the cost figures from a CostResult whose numbers are set here.
#include <catch2/catch.hpp>

#include "report/sections.h"
#include "test_support.h"

using namespace llmsim;

namespace {
SimRequest request(const std::string& quant, int64_t ctx) {
    SimRequest r;
    r.memory.file_type = quant;
    r.memory.n_ctx = ctx;
    r.memory.with_notes = false;
    return r;
}
}  // namespace

TEST_CASE("FAQ: VRAM and KV answers for Qwen2.5-7B-Instruct Q4_K_M at 32k, f16, on an Arc B580", "[report]") {
    const Model* m = cat().find_model("Qwen/Qwen2.5-7B-Instruct");
    REQUIRE(m);
    SimRequest r = request("Q4_K_M", 32768);
    r.memory.hardware = cat().find_hardware("arc-b580");   // the model page's device: its compute buffers are in the total
    REQUIRE(r.memory.hardware);
    Evaluation ev;
    std::string err;
    REQUIRE(evaluate(cat(), *m, r, ev, err));
    const std::vector<ContextPoint> ctx = context_rows(cat(), *m, request("Q4_K_M", 32768));
    FaqInputs in;
    in.model = m;
    in.quant = "Q4_K_M";
    in.ctx_tokens = 32768;
    in.memory = &ev.memory;
    in.context = &ctx;
    const std::vector<FaqEntry> faq = faq_entries(in);
    REQUIRE(faq.size() == 3);   // no device: no cost question
    // weights: 4.36 GiB = the 4.68 GB Q4_K_M file of Qwen/Qwen2.5-7B-Instruct-GGUF; KV: 28 × 4 × 128 × 2 × 2 B × 32768
    // = 1.75 GiB; the total adds the compute buffers and overhead (the memory tests pin those)
    CHECK(faq[0].question == "How much VRAM does Qwen2.5 7B Instruct require in Q4_K_M?");
    CHECK(faq[0].answer == "Qwen2.5 7B Instruct weights take 4.36 GiB in Q4_K_M (4.91 bits per weight). With a 32k f16 KV cache (1.75 GiB), "
                           "compute buffers and runtime overhead, the total is 6.91 GiB (7.42 GB).");
    CHECK(faq[1].question == "What is the cheapest hardware that runs Qwen2.5 7B Instruct?");
    // 28 × 4 × 128 × 2 × 2 B = 57344 B per token: 8k 0.4375 GiB, 32k 1.75 GiB, 128k (YaRN) 7.00 GiB
    CHECK(faq[2].question == "How does Qwen2.5 7B Instruct's KV cache scale with context?");
    CHECK(faq[2].answer == "Qwen2.5 7B Instruct uses GQA with 4 KV heads of 128 dims across 28 layers. In f16 the KV cache is 0.44 GiB at 8k, "
                           "1.75 GiB at 32k, 7.00 GiB at 128k; q8_0 halves it, at a small quality cost.");
    in.kv_type = "q8_0";   // the words follow the scenario's KV type
    CHECK(faq_entries(in)[0].answer.find("With a 32k q8_0 KV cache") != std::string::npos);
}

TEST_CASE("FAQ: Qwen2.5-72B-Instruct's KV answer (the seed's GQA shape)", "[report]") {
    const Model* m = cat().find_model("Qwen/Qwen2.5-72B-Instruct");
    REQUIRE(m);
    Evaluation ev;
    std::string err;
    REQUIRE(evaluate(cat(), *m, request("Q4_K_M", 32768), ev, err));
    const std::vector<ContextPoint> ctx = context_rows(cat(), *m, request("Q4_K_M", 32768));
    FaqInputs in;
    in.model = m;
    in.quant = "Q4_K_M";
    in.ctx_tokens = 32768;
    in.memory = &ev.memory;
    in.context = &ctx;
    // seed: "GQA with 8 KV heads across 80 layers (128 head_dim)"; 80 × 8 × 128 × 2 × 2 B = 327680 B per token
    CHECK(faq_entries(in).back().answer == "Qwen2.5 72B Instruct uses GQA with 8 KV heads of 128 dims across 80 layers. In f16 the KV cache is "
                                           "2.50 GiB at 8k, 10.0 GiB at 32k, 40.0 GiB at 128k; q8_0 halves it, at a small quality cost.");
}

TEST_CASE("FAQ: no usable hardware, with and without the app's hints", "[report]") {
    const Model* m = cat().find_model("Qwen/Qwen2.5-7B-Instruct");
    REQUIRE(m);
    MemoryBreakdown mb;
    FaqInputs in;
    in.model = m;
    in.quant = "Q4_K_M";
    in.ctx_tokens = 32768;
    in.memory = &mb;
    const std::string base = "No catalog device or multi-GPU combination with a known price runs Qwen2.5 7B Instruct Q4_K_M at 32k context "
                             "usably (at least 10.0 tok/s decode at 32k context and the first token of a 4k prompt within 10.0 s); try a "
                             "smaller quant or context";
    CHECK(faq_entries(in)[1].answer == base + ".");
    in.app_hints = true;
    CHECK(faq_entries(in)[1].answer == base + ", or lower the floor in the Recommended hardware section.");
    in.model = nullptr;
    CHECK(faq_entries(in).empty());
}

TEST_CASE("FAQ: the cost answer, one device and a load that needs two", "[report]") {
    const Model* m = cat().find_model("Qwen/Qwen2.5-7B-Instruct");
    REQUIRE(m);
    MemoryBreakdown mb;
    Hardware hw;
    hw.name = "NVIDIA GeForce RTX 4090";
    CostResult r;   // one device: 365 of its 730 hours
    r.hours_needed_per_month = 365;
    r.capacity_mtok_per_month = 120;
    r.devices_needed = 1;
    r.utilisation = 0.5;
    r.active_hours_per_month = 365;
    r.own_usd_per_month = 134.24;
    r.rent_usd_per_month = 547.5;
    r.api_usd_per_month = -1;
    FaqInputs in;
    in.model = m;
    in.quant = "Q4_K_M";
    in.ctx_tokens = 32768;
    in.memory = &mb;
    in.hardware = &hw;
    in.cost = &r;
    in.mtok_per_month = 60;
    in.amortize_months = 36;
    std::vector<FaqEntry> faq = faq_entries(in);
    REQUIRE(faq.size() == 4);   // VRAM, cheapest, cost, KV: the app's order
    CHECK(faq[2].question == "What does it cost to serve 60.0 M tokens a month of Qwen2.5 7B Instruct on NVIDIA GeForce RTX 4090?");
    CHECK(faq[2].answer == "At one stream (3:1 input:output) the load needs 365 h of device time a month; one device has 730 h and serves about "
                           "120 M tokens a month (50.0 % used). Owning it costs $134.24/month (amortised over 36 months, plus power for 365 "
                           "active hours), renting it $547.50; no API price is known. The Buy vs cloud vs API section shows the work.");
    // 1000 h: 1000 / 730 = 1.37 devices' time, 2 devices of 500 h each, one serves 73 % (43.8 M of the 60 M tokens)
    r.hours_needed_per_month = 1000;
    r.load_over_capacity = 1000.0 / 730.0;
    r.served_share = 730.0 / 1000.0;
    r.capacity_mtok_per_month = 43.8;
    r.devices_needed = 2;
    r.utilisation = 500.0 / 730.0;
    r.active_hours_per_month = 500;
    r.own_usd_per_month = 300;
    r.rent_usd_per_month = 1500;
    r.api_usd_per_month = 22.2;
    CHECK(faq_entries(in)[2].answer == "At one stream (3:1 input:output) the load needs 1000 h of device time a month; one device has 730 h and "
                                       "serves about 43.8 M tokens a month, so it needs 1.4× this device's time: 2 devices, or 73 % of the "
                                       "load. Owning 2 costs $300.00/month (amortised over 36 months, plus power for 500 active hours each), "
                                       "renting them $1500.00, a serverless API $22.20. The Buy vs cloud vs API section shows the work.");
    r.error = "the price is negative";
    CHECK(faq_entries(in)[2].answer == "Unknown: the price is negative.");
}

TEST_CASE("section rows: which rows each section holds", "[report]") {
    const Model* m = cat().find_model("Qwen/Qwen2.5-7B-Instruct");
    REQUIRE(m);
    SimRequest base = request("Q4_K_M", 32768);
    base.memory.hardware = cat().find_hardware("rtx-4090");
    REQUIRE(base.memory.hardware);
    // context: 1k, 1.5k, 2k, 3k ... up to the 128k extended context, midpoints included; the page keeps the powers of two
    const std::vector<ContextPoint> ctx = context_rows(cat(), *m, base);
    REQUIRE(ctx.size() >= 3);
    CHECK(ctx[0].ctx_tokens == 1024);
    CHECK(ctx[1].ctx_tokens == 1536);
    CHECK(ctx[2].ctx_tokens == 2048);
    CHECK(ctx.back().ctx_tokens == 131072);
    CHECK(is_power_of_two_context(2048));
    CHECK_FALSE(is_power_of_two_context(1536));
    CHECK_FALSE(is_power_of_two_context(0));
    // quants: one row per catalog file type; the page's rows are the common ones without error, largest bpw first
    const std::vector<QuantRow> q = quant_rows(cat(), *m, base, 8192);
    CHECK(q.size() == cat().file_types.size());
    const std::vector<QuantRow> common = common_quant_rows(q);
    REQUIRE(!common.empty());
    for (size_t i = 0; i < common.size(); ++i) {
        CHECK(common[i].file_type->common);
        CHECK(common[i].error.empty());
        CHECK(common[i].total_b_bytes < common[i].total_a_bytes);   // 8k < 32k
        if (i) CHECK(common[i - 1].bits_per_weight >= common[i].bits_per_weight);
    }
    // leaderboard: every catalog device; the seed's order ranks by fit status first
    const std::vector<DeviceRow> dev = device_rows(cat(), *m, base);
    CHECK(dev.size() == cat().hardware.size());
    const std::vector<DeviceRow> ordered = seed_ordered_device_rows(dev);
    for (size_t i = 1; i < ordered.size(); ++i)
        CHECK(fit_status_rank(ordered[i - 1].eval.memory.status) <= fit_status_rank(ordered[i].eval.memory.status));
    CHECK(fit_status_rank(FitStatus::Comfortable) < fit_status_rank(FitStatus::Oom));
}

TEST_CASE("cost inputs: 3:1 input:output, catalog prices unless overridden", "[report]") {
    const Model* m = cat().find_model("Qwen/Qwen2.5-7B-Instruct");
    const Hardware* h = cat().find_hardware("rtx-4090");
    REQUIRE(m);
    REQUIRE(h);
    SpeedView sp;
    sp.ok = true;
    sp.prefill_tps = 1000;
    sp.decode_tps = 50;
    CostScenario s;
    CostInputs in = cost_inputs(m, h, sp, s);
    CHECK(in.input_mtok_per_month == Approx(45));
    CHECK(in.output_mtok_per_month == Approx(15));
    CHECK(in.decode_tokens_per_s == 50);
    CHECK(in.hardware_price_usd == (h->price_usd > 0 ? h->price_usd : h->price_used_usd));
    CHECK(in.api_in_usd_per_mtok == m->api_price_in_usd_per_mtok);
    s.price_usd = 1234;
    s.api_out_usd = 9;
    in = cost_inputs(m, h, sp, s);
    CHECK(in.hardware_price_usd == 1234);
    CHECK(in.api_out_usd_per_mtok == 9);
    CostResult r;
    r.cheapest = "api";
    CHECK(cost_summary(r) == "Cheapest: the serverless API. Buying never pays back at this load.");
    r.cheapest = "own";
    r.payback_months = 7.09;
    CHECK(cost_summary(r) == "Cheapest: owning the hardware. Buying pays back in 7.09 months.");
}
