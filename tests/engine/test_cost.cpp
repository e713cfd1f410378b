// Cost model: hand-checkable cases (USD, hours, watts).
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

#include "catalog/catalog.h"
#include "serving/cost.h"
#include "sim/simulate.h"

using namespace llmsim;

TEST_CASE("owning = amortised price + power for active hours", "[cost]") {
    CostInputs in;
    in.hardware_price_usd = 3600; in.amortize_months = 36;       // 100 USD/month
    in.device_power_w = 500; in.kwh_price_usd = 0.20;
    in.input_mtok_per_month = 0; in.output_mtok_per_month = 3.6;  // 3.6M tokens at 100 tok/s = 10 h
    in.decode_tokens_per_s = 100;
    CostResult r = estimate_cost(in);
    REQUIRE(r.error.empty());
    CHECK(r.active_hours_per_month == Approx(10.0));
    CHECK(r.own_amortization_usd_per_month == Approx(100.0));
    CHECK(r.own_power_usd_per_month == Approx(0.5 * 10 * 0.20));  // 0.5 kW × 10 h × 0.20 USD/kWh = 1 USD
    CHECK(r.own_usd_per_month == Approx(101.0));
    CHECK(r.rent_usd_per_month == -1);   // not rentable
    CHECK(r.api_usd_per_month == -1);    // no API
    CHECK(r.cheapest == "own");
}

TEST_CASE("prefill and decode hours add up; API and rent compared; payback", "[cost]") {
    CostInputs in;
    in.input_mtok_per_month = 36; in.output_mtok_per_month = 3.6;
    in.prefill_tokens_per_s = 2000;   // 36e6 / 2000 = 18000 s = 5 h
    in.decode_tokens_per_s = 50;      // 3.6e6 / 50 = 72000 s = 20 h
    in.hardware_price_usd = 2000; in.amortize_months = 24; in.device_power_w = 400; in.kwh_price_usd = 0.25;
    in.cloud_usd_per_hour = 2.0;
    in.api_in_usd_per_mtok = 0.5; in.api_out_usd_per_mtok = 1.5;
    CostResult r = estimate_cost(in);
    REQUIRE(r.error.empty());
    CHECK(r.active_hours_per_month == Approx(25.0));
    CHECK(r.rent_usd_per_month == Approx(50.0));           // 25 h × 2 USD
    CHECK(r.api_usd_per_month == Approx(36 * 0.5 + 3.6 * 1.5));  // 18 + 5.4 = 23.4 USD
    CHECK(r.own_usd_per_month == Approx(2000.0 / 24 + 0.4 * 25 * 0.25));
    CHECK(r.cheapest == "api");
    // saving vs the API = 23.4 − 2.5 (power) = 20.9 USD/month → 2000 / 20.9 months
    CHECK(r.payback_months == Approx(2000.0 / (23.4 - 2.5)));
}

TEST_CASE("impossible cost inputs give a message, not a number", "[cost]") {
    CostInputs in;
    in.hardware_price_usd = -5;
    CHECK_FALSE(estimate_cost(in).error.empty());
    CostInputs in2;
    in2.output_mtok_per_month = 1;
    in2.decode_tokens_per_s = 0;   // does not run
    CostResult r = estimate_cost(in2);
    CHECK(r.error.find("does not run") != std::string::npos);
    CostInputs in3;
    in3.amortize_months = 0;
    CHECK_FALSE(estimate_cost(in3).error.empty());
}

// [SECTION] capacity: a month has 730 hours (issue 18). Expected values are worked by hand from
// hours = tokens / rate (prefill for the input share, decode for the output share), N = ceil(hours / 730).

TEST_CASE("a load above one device's month is priced on the devices it takes", "[cost][capacity]") {
    // the setup (RTX 4090: $1599, 450 W, $0.40/h; $0.17/kWh, 36 months; 50M tokens, 75 % input) at
    // round speeds: 37.5e6 / 2500 tok/s = 15000 s, 12.5e6 / 2 tok/s = 6250000 s → 6265000 s = 1740.28 h
    CostInputs in;
    in.input_mtok_per_month = 37.5; in.output_mtok_per_month = 12.5;
    in.prefill_tokens_per_s = 2500; in.decode_tokens_per_s = 2;
    in.hardware_price_usd = 1599; in.amortize_months = 36; in.device_power_w = 450; in.kwh_price_usd = 0.17;
    in.cloud_usd_per_hour = 0.40;
    CostResult r = estimate_cost(in);
    REQUIRE(r.error.empty());
    const double hours = 6265000.0 / 3600;                      // 1740.28 h
    CHECK(r.hours_needed_per_month == Approx(hours));
    CHECK(r.load_over_capacity == Approx(hours / 730));         // 2.384
    CHECK(r.devices_needed == 3);
    CHECK(r.active_hours_per_month == Approx(hours / 3));       // 580.09 h each, never above 730
    CHECK(r.active_hours_per_month <= 730);
    CHECK(r.utilisation == Approx(hours / 3 / 730));            // 79.5 %
    // capacity: 730 h × 3600 s / (0.75 / 2500 + 0.25 / 2) s per token = 2628000 / 0.1253 = 20.97M tokens
    CHECK(r.capacity_mtok_per_month == Approx(2628000.0 / 0.1253 / 1e6));
    CHECK(r.served_share == Approx(730 / hours));               // 41.9 %
    // own: 3 × 1599 / 36 = 133.25 USD + 0.45 kW × 1740.28 h × 0.17 USD/kWh = 133.13 USD → 266.38 USD
    CHECK(r.own_amortization_usd_per_month == Approx(133.25));
    CHECK(r.own_power_usd_per_month == Approx(133.13125));
    CHECK(r.own_usd_per_month == Approx(266.38125));
    // rent: 3 devices × 580.09 h × 0.40 USD = 696.11 USD
    CHECK(r.rent_usd_per_month == Approx(696.1111111));
    CHECK(r.cheapest == "own");
    // payback: 3 × 1599 USD / (696.11 − 133.13 USD a month) = 8.52 months
    CHECK(r.payback_months == Approx(4797.0 / (696.1111111 - 133.13125)));
    CHECK(capacity_note(r) == "needs 2.4× this device's time: 3 devices, or 42 % of the load");
    const std::string ex = explain_cost(in, r);
    CHECK(ex.find("= 1740 h") != std::string::npos);
    CHECK(ex.find("capacity = tokens one device processes in a 730 h month at this mix = 21.0 M tokens/month") != std::string::npos);
    CHECK(ex.find("580 h each; utilisation 79.5 % of 730 h") != std::string::npos);
    CHECK(ex.find("own = 3 × $1599 / 36 months + 3 × 450 W × 580 h") != std::string::npos);
    CHECK(ex.find("rent = $0.40/hour × 3 devices × 580 h = $696.11") != std::string::npos);
    CHECK(ex.find("payback = 3 × $1599") != std::string::npos);
}

TEST_CASE("a load of exactly 730 hours is one device at full utilisation; a token more needs two", "[cost][capacity]") {
    // 262.8M output tokens at 100 tok/s = 2628000 s = 730 h
    CostInputs in;
    in.output_mtok_per_month = 262.8; in.decode_tokens_per_s = 100;
    in.hardware_price_usd = 3650; in.amortize_months = 36; in.device_power_w = 300; in.idle_power_w = 50;
    in.kwh_price_usd = 0.20; in.cloud_usd_per_hour = 1.5;
    CostResult r = estimate_cost(in);
    REQUIRE(r.error.empty());
    CHECK(r.hours_needed_per_month == Approx(730));
    CHECK(r.devices_needed == 1);
    CHECK(r.active_hours_per_month == Approx(730));
    CHECK(r.utilisation == Approx(1));
    CHECK(r.capacity_mtok_per_month == Approx(262.8));
    CHECK(r.served_share == Approx(1));
    CHECK(capacity_note(r).empty());
    // own: 3650 / 36 = 101.39 USD + 0.3 kW × 730 h × 0.20 = 43.80 USD (no idle hours left) → 145.19 USD
    CHECK(r.own_power_usd_per_month == Approx(43.8));
    CHECK(r.own_usd_per_month == Approx(3650.0 / 36 + 43.8));
    CHECK(r.rent_usd_per_month == Approx(1095.0));          // 730 h × 1.50 USD
    CHECK(r.payback_months == Approx(3650.0 / (1095.0 - 43.8)));   // 3.47 months

    // 262.9M tokens = 2629000 s = 730.28 h: two devices, 365.14 h each
    in.output_mtok_per_month = 262.9;
    r = estimate_cost(in);
    REQUIRE(r.error.empty());
    CHECK(r.devices_needed == 2);
    CHECK(r.active_hours_per_month == Approx(2629000.0 / 3600 / 2));
    // own: 2 × 101.39 USD + 0.3 kW × 730.28 h × 0.20 + idle 0.05 kW × (2 × 730 − 730.28 h) × 0.20 = 253.89 USD
    const double hours = 2629000.0 / 3600;
    CHECK(r.own_usd_per_month == Approx(2 * 3650.0 / 36 + 0.3 * hours * 0.2 + 0.05 * (1460 - hours) * 0.2));
    CHECK(r.rent_usd_per_month == Approx(1.5 * hours));
    CHECK(r.payback_months == Approx(2 * 3650.0 / (1.5 * hours - (0.3 * hours * 0.2 + 0.05 * (1460 - hours) * 0.2))));
    CHECK(capacity_note(r) == "needs 1.00× this device's time: 2 devices, or 99.9 % of the load");
}

TEST_CASE("a load below capacity: one device, idle the rest of the month", "[cost][capacity]") {
    // 131.4M output tokens at 100 tok/s = 1314000 s = 365 h: half the month
    CostInputs in;
    in.output_mtok_per_month = 131.4; in.decode_tokens_per_s = 100;
    in.hardware_price_usd = 3650; in.amortize_months = 36; in.device_power_w = 300; in.idle_power_w = 50;
    in.kwh_price_usd = 0.20; in.cloud_usd_per_hour = 1.5;
    CostResult r = estimate_cost(in);
    REQUIRE(r.error.empty());
    CHECK(r.devices_needed == 1);
    CHECK(r.active_hours_per_month == Approx(365));
    CHECK(r.utilisation == Approx(0.5));
    CHECK(r.capacity_mtok_per_month == Approx(262.8));   // 730 h × 100 tok/s × 3600 s
    CHECK(capacity_note(r).empty());
    // own: 101.39 USD + 0.3 kW × 365 h × 0.20 (21.90) + 0.05 kW × 365 idle h × 0.20 (3.65) = 126.94 USD
    CHECK(r.own_power_usd_per_month == Approx(21.9 + 3.65));
    CHECK(r.own_usd_per_month == Approx(3650.0 / 36 + 25.55));
    CHECK(r.rent_usd_per_month == Approx(547.5));        // 365 h × 1.50 USD
    CHECK(r.payback_months == Approx(3650.0 / (547.5 - 25.55)));   // 6.99 months
    CHECK(explain_cost(in, r).find("365 h each; utilisation 50.0 % of 730 h") != std::string::npos);
}

TEST_CASE("given hours above the month are spread over devices too", "[cost][capacity]") {
    CostInputs in;
    in.hours_per_month_override = 744;   // a 31-day month of one device's time: 744 / 730 = 1.02×
    in.hardware_price_usd = 1599; in.amortize_months = 36; in.device_power_w = 450; in.kwh_price_usd = 0.17;
    in.cloud_usd_per_hour = 0.40;
    CostResult r = estimate_cost(in);
    REQUIRE(r.error.empty());
    CHECK(r.devices_needed == 2);
    CHECK(r.active_hours_per_month == Approx(372));
    CHECK(r.own_usd_per_month == Approx(2 * 1599.0 / 36 + 0.45 * 744 * 0.17));   // 88.83 + 56.92 = 145.75 USD
    CHECK(r.rent_usd_per_month == Approx(0.40 * 744));                          // 297.60 USD
    CHECK(r.capacity_mtok_per_month == -1);   // no tokens given: capacity unknown
    in.hours_per_month_override = std::numeric_limits<double>::infinity();
    CHECK_FALSE(estimate_cost(in).error.empty());
}

TEST_CASE("the issue's case: Qwen2.5-72B Q4_K_M on an RTX 4090 at 50M tokens a month needs several devices", "[cost][capacity]") {
    // speeds from the speed model (an input here); the expected hours follow from them by hours = tokens / rate
    const Catalog* cat = embedded_catalog();
    REQUIRE(cat);
    const Model* m = cat->find_model("Qwen/Qwen2.5-72B-Instruct");
    const Hardware* hw = cat->find_hardware("rtx-4090");
    REQUIRE(m);
    REQUIRE(hw);
    SimRequest req;
    req.memory.file_type = "Q4_K_M";
    req.memory.n_ctx = 8192;
    req.memory.hardware = hw;
    req.memory.compute_max_context = false;
    Evaluation ev;
    std::string err;
    REQUIRE(evaluate(*cat, *m, req, ev, err));
    REQUIRE(ev.speed.ok);
    CostInputs in;
    in.input_mtok_per_month = 37.5; in.output_mtok_per_month = 12.5;
    in.prefill_tokens_per_s = ev.speed.prefill_tps; in.decode_tokens_per_s = ev.speed.decode_tps;
    in.hardware_price_usd = hw->price_usd; in.amortize_months = 36; in.device_power_w = hw->tdp_w; in.kwh_price_usd = 0.17;
    in.cloud_usd_per_hour = hw->cloud_usd_per_hour;
    CostResult r = estimate_cost(in);
    REQUIRE(r.error.empty());
    const double hours = (37.5e6 / ev.speed.prefill_tps + 12.5e6 / ev.speed.decode_tps) / 3600;
    INFO("hours needed " << hours << " at " << ev.speed.prefill_tps << " / " << ev.speed.decode_tps << " tok/s");
    REQUIRE(hours > 730);   // the premise: one device cannot serve it
    const int64_t n = (int64_t)std::ceil(hours / 730);
    CHECK(r.hours_needed_per_month == Approx(hours));
    CHECK(r.devices_needed == n);
    CHECK(r.active_hours_per_month == Approx(hours / n));
    CHECK(r.active_hours_per_month <= 730);
    CHECK(r.own_amortization_usd_per_month == Approx(n * hw->price_usd / 36));
    CHECK(r.own_power_usd_per_month == Approx(hw->tdp_w / 1000 * hours * 0.17));
    CHECK(r.rent_usd_per_month == Approx(hw->cloud_usd_per_hour * hours));
    CHECK(capacity_note(r).find(std::to_string(n) + " devices") != std::string::npos);
}
