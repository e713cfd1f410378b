#include "cost.h"

#include <cmath>

namespace llmsim {

namespace {
bool bad(double v) { return !std::isfinite(v) || v < 0; }
}  // namespace

CostResult estimate_cost(const CostInputs& in) {
    CostResult r;
    if (bad(in.input_mtok_per_month) || bad(in.output_mtok_per_month)) { r.error = "tokens per month must be ≥ 0"; return r; }
    if (bad(in.hardware_price_usd)) { r.error = "hardware price must be ≥ 0 USD"; return r; }
    if (!(in.amortize_months >= 1) || !std::isfinite(in.amortize_months)) { r.error = "amortisation must be at least 1 month"; return r; }
    if (bad(in.device_power_w) || bad(in.idle_power_w)) { r.error = "power draw must be ≥ 0 W"; return r; }
    if (bad(in.kwh_price_usd)) { r.error = "electricity price must be ≥ 0 USD/kWh"; return r; }
    if (bad(in.cloud_usd_per_hour)) { r.error = "cloud price must be ≥ 0 USD/hour"; return r; }

    constexpr double kHoursPerMonth = 730.0;   // 365.25 × 24 / 12
    double hours = 0;
    if (in.hours_per_month_override >= 0) {
        hours = in.hours_per_month_override;
    } else {
        double tokens_in = in.input_mtok_per_month * 1e6, tokens_out = in.output_mtok_per_month * 1e6;
        if ((tokens_in > 0 && !(in.prefill_tokens_per_s > 0)) || (tokens_out > 0 && !(in.decode_tokens_per_s > 0))) {
            r.error = "the model does not run on this hardware, so the hours it would need are unknown";
            return r;
        }
        double seconds = (tokens_in > 0 ? tokens_in / in.prefill_tokens_per_s : 0) +
                         (tokens_out > 0 ? tokens_out / in.decode_tokens_per_s : 0);
        hours = seconds / 3600.0;
    }
    r.active_hours_per_month = hours;
    double idle_hours = hours < kHoursPerMonth ? kHoursPerMonth - hours : 0;
    r.own_amortization_usd_per_month = in.hardware_price_usd / in.amortize_months;
    r.own_power_usd_per_month = (in.device_power_w * hours + in.idle_power_w * idle_hours) / 1000.0 * in.kwh_price_usd;
    r.own_usd_per_month = r.own_amortization_usd_per_month + r.own_power_usd_per_month;
    if (in.cloud_usd_per_hour > 0) r.rent_usd_per_month = in.cloud_usd_per_hour * hours;
    if (in.api_in_usd_per_mtok >= 0 && in.api_out_usd_per_mtok >= 0)
        r.api_usd_per_month = in.api_in_usd_per_mtok * in.input_mtok_per_month + in.api_out_usd_per_mtok * in.output_mtok_per_month;

    r.cheapest = "own";
    double best = r.own_usd_per_month;
    if (r.rent_usd_per_month >= 0 && r.rent_usd_per_month < best) { best = r.rent_usd_per_month; r.cheapest = "rent"; }
    if (r.api_usd_per_month >= 0 && r.api_usd_per_month < best) { best = r.api_usd_per_month; r.cheapest = "api"; }

    // payback: the purchase price over the monthly saving against the cheapest alternative (running cost only)
    double alt = -1;
    if (r.rent_usd_per_month >= 0) alt = r.rent_usd_per_month;
    if (r.api_usd_per_month >= 0 && (alt < 0 || r.api_usd_per_month < alt)) alt = r.api_usd_per_month;
    double saving = alt - r.own_power_usd_per_month;
    if (alt >= 0 && saving > 0 && in.hardware_price_usd > 0) r.payback_months = in.hardware_price_usd / saving;
    return r;
}

}  // namespace llmsim
