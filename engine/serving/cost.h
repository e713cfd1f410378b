// Buy vs rent vs serverless API: monthly cost of serving a workload three ways, and when owning pays back.
//
//   CostInputs in;                         // every price editable; defaults come from the catalog (sourced)
//   in.hardware_price_usd = 1599; in.amortize_months = 36; in.device_power_w = 450; in.kwh_price_usd = 0.17;
//   in.cloud_usd_per_hour = 0.69; in.api_in_usd_per_mtok = 0.04; in.api_out_usd_per_mtok = 0.10;
//   in.input_mtok_per_month = 40; in.output_mtok_per_month = 10;
//   in.prefill_tokens_per_s = 5000; in.decode_tokens_per_s = 120;     // from the speed model
//   CostResult r = estimate_cost(in);     // r.own_usd_per_month, r.rent_usd_per_month, r.api_usd_per_month, ...
//
// The hours the load needs are input tokens at prefill speed plus output tokens at decode speed (one stream,
// unless the caller passes aggregate speeds for parallel serving). A month has 730 hours (365.25 × 24 / 12),
// so one device's capacity is what it processes in 730 h at the load's input/output mix. A load above it is
// spread over N = ceil(hours needed / 730) devices, each active hours needed / N ≤ 730 h: owning pays N
// amortised prices plus power for the hours each device is active (device draw) and idle (idle draw);
// renting pays the cloud rate for the N devices' active hours; the API pays per token. `capacity_note` says
// it in words ("needs 2.3× this device's time: 3 devices, or 43 % of the load"); `explain_cost` shows the work.
#pragma once
#include <cstdint>
#include <optional>
#include <string>

namespace llmsim {

struct CostInputs {
    double input_mtok_per_month = 0;    // prompt tokens per month, millions
    double output_mtok_per_month = 0;   // generated tokens per month, millions
    double prefill_tokens_per_s = 0;    // speed on the hardware (from the speed model)
    double decode_tokens_per_s = 0;
    std::optional<double> hours_per_month_override;  // the load needs these device hours (unset: tokens / speed)
    // owning
    double hardware_price_usd = 0;      // purchase price (new or used)
    double amortize_months = 36;
    double device_power_w = 0;          // draw while generating (TDP of the GPUs, whole system if known)
    double idle_power_w = 0;            // draw while idle (0 = switched off)
    double kwh_price_usd = 0.17;
    // renting
    double cloud_usd_per_hour = 0;      // 0 = not rentable
    // serverless API
    std::optional<double> api_in_usd_per_mtok;   // unset: no API offers this model
    std::optional<double> api_out_usd_per_mtok;
};

constexpr double kHoursPerMonth = 730.0;   // 365.25 × 24 / 12: the average month

struct CostResult {
    double hours_needed_per_month = 0;  // device hours the load needs on one device (may exceed 730)
    double load_over_capacity = 0;      // hours needed / 730: 2.3 = the load needs 2.3× one device's month
    int64_t devices_needed = 1;         // ceil(load_over_capacity), at least 1: the setup priced below
    double active_hours_per_month = 0;  // per device: hours needed / devices_needed, never above 730
    double utilisation = 0;             // active hours per device / 730 (0..1)
    double capacity_mtok_per_month = -1;  // tokens one device processes in 730 h at this mix, millions; -1 = unknown
    double served_share = 1;            // share of the load one device can serve (0..1)
    double own_usd_per_month = 0;       // amortisation + power, all devices
    double own_amortization_usd_per_month = 0;   // devices_needed × price / months
    double own_power_usd_per_month = 0;
    double rent_usd_per_month = -1;     // -1 = not rentable; devices_needed × active hours × rate
    double api_usd_per_month = -1;      // -1 = no API price
    double payback_months = -1;         // months until buying the devices beats the cheaper of rent/API; -1 = never
    std::string cheapest;               // "own", "rent" or "api"
    std::string error;                  // non-empty when an input is impossible (then the numbers are 0)
};

// monthly cost of owning, renting and using an API for the workload; fills error on impossible inputs
CostResult estimate_cost(const CostInputs& in);
// "" when one device serves the load, else "needs 2.3× this device's time: 3 devices, or 43 % of the load"
std::string capacity_note(const CostResult& r);
// how each number of `r` is made, one line per figure (hours, capacity, utilisation, own, rent, API, payback)
std::string explain_cost(const CostInputs& in, const CostResult& r);

}  // namespace llmsim
