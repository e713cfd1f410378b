// Cost model: hand-checkable cases (USD, hours, watts).
#include <catch2/catch.hpp>

#include "cost.h"

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
