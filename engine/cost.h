// Buy vs rent vs serverless API: monthly cost of serving a workload three ways, and when owning pays back.
//
//   CostInputs in;                         // every price editable; defaults come from the catalog (sourced)
//   in.hardware_price_usd = 1599; in.amortize_months = 36; in.device_power_w = 450; in.kwh_price_usd = 0.17;
//   in.cloud_usd_per_hour = 0.69; in.api_in_usd_per_mtok = 0.04; in.api_out_usd_per_mtok = 0.10;
//   in.input_mtok_per_month = 40; in.output_mtok_per_month = 10;
//   in.prefill_tokens_per_s = 5000; in.decode_tokens_per_s = 120;     // from the speed model
//   CostResult r = estimate_cost(in);     // r.own_usd_per_month, r.rent_usd_per_month, r.api_usd_per_month, ...
//
// Active hours are what the workload needs on this hardware: input tokens at prefill speed plus output tokens
// at decode speed (at batch 1 unless the caller passes aggregate speeds for parallel serving). Owning pays the
// amortised price every month plus power for the active hours (device draw) and idle hours (idle draw);
// renting pays the cloud rate for the active hours (rounded up to whole hours per billing day when
// `rent_billing_granularity_hours` is set); the API pays per token.
#pragma once
#include <string>

namespace llmsim {

struct CostInputs {
    double input_mtok_per_month = 0;    // prompt tokens per month, millions
    double output_mtok_per_month = 0;   // generated tokens per month, millions
    double prefill_tokens_per_s = 0;    // speed on the hardware (from the speed model)
    double decode_tokens_per_s = 0;
    double hours_per_month_override = -1;  // >= 0: use these active hours instead of deriving them from tokens
    // owning
    double hardware_price_usd = 0;      // purchase price (new or used)
    double amortize_months = 36;
    double device_power_w = 0;          // draw while generating (TDP of the GPUs, whole system if known)
    double idle_power_w = 0;            // draw while idle (0 = switched off)
    double kwh_price_usd = 0.17;
    // renting
    double cloud_usd_per_hour = 0;      // 0 = not rentable
    // serverless API
    double api_in_usd_per_mtok = -1;    // -1 = no API offers this model
    double api_out_usd_per_mtok = -1;
};

struct CostResult {
    double active_hours_per_month = 0;
    double own_usd_per_month = 0;       // amortisation + power
    double own_amortization_usd_per_month = 0;
    double own_power_usd_per_month = 0;
    double rent_usd_per_month = -1;     // -1 = not rentable
    double api_usd_per_month = -1;      // -1 = no API price
    double payback_months = -1;         // months until buying beats the cheaper of rent/API; -1 = never
    std::string cheapest;               // "own", "rent" or "api"
    std::string error;                  // non-empty when an input is impossible (then the numbers are 0)
};

// monthly cost of owning, renting and using an API for the workload; fills error on impossible inputs
CostResult estimate_cost(const CostInputs& in);

}  // namespace llmsim
