#include "serving/cost.h"

#include <cmath>

#include "core/format.h"

namespace llmsim {

namespace {
bool bad(double v) { return !std::isfinite(v) || v < 0; }

// whole numbers as written ("36 months", "$1599"), others to 3 significant figures
std::string plain(double v) { return v == std::floor(v) && std::fabs(v) < 1e9 ? std::to_string((long long)v) : format_sig(v); }

// the device hours the load needs: tokens / rate for each share (or the caller's hours); false if unknown
bool hours_needed(const CostInputs& in, double& hours, std::string& err) {
    if (in.hours_per_month_override) {
        if (!std::isfinite(*in.hours_per_month_override)) { err = "hours per month must be a finite number"; return false; }
        if (*in.hours_per_month_override < 0) { err = "hours per month must be 0 or more"; return false; }
        hours = *in.hours_per_month_override;
        return true;
    }
    double tokens_in = in.input_mtok_per_month * 1e6, tokens_out = in.output_mtok_per_month * 1e6;
    if ((tokens_in > 0 && !(in.prefill_tokens_per_s > 0)) || (tokens_out > 0 && !(in.decode_tokens_per_s > 0))) {
        err = "the model does not run on this hardware, so the hours it would need are unknown";
        return false;
    }
    double seconds = (tokens_in > 0 ? tokens_in / in.prefill_tokens_per_s : 0) +
                     (tokens_out > 0 ? tokens_out / in.decode_tokens_per_s : 0);
    hours = seconds / 3600.0;
    return true;
}

// N devices for the load, each active at most a month; utilisation and one device's capacity at this mix
void spread_over_devices(const CostInputs& in, double hours, CostResult& r) {
    r.hours_needed_per_month = hours;
    r.load_over_capacity = hours / kHoursPerMonth;
    // a load at exactly 730 h is one device: the tolerance absorbs rounding in tokens / rate
    r.devices_needed = r.load_over_capacity > 1 + 1e-9 ? (int64_t)std::ceil(r.load_over_capacity - 1e-9) : 1;
    r.active_hours_per_month = hours / (double)r.devices_needed;
    if (r.active_hours_per_month > kHoursPerMonth) r.active_hours_per_month = kHoursPerMonth;   // rounding only
    r.utilisation = r.active_hours_per_month / kHoursPerMonth;
    const double mtok = in.input_mtok_per_month + in.output_mtok_per_month;
    if (hours > 0 && mtok > 0) r.capacity_mtok_per_month = mtok * kHoursPerMonth / hours;
    r.served_share = r.load_over_capacity > 1 ? 1.0 / r.load_over_capacity : 1.0;
}
}  // namespace

CostResult estimate_cost(const CostInputs& in) {
    CostResult r;
    if (bad(in.input_mtok_per_month) || bad(in.output_mtok_per_month)) { r.error = "tokens per month must be ≥ 0"; return r; }
    if (bad(in.hardware_price_usd)) { r.error = "hardware price must be ≥ 0 USD"; return r; }
    if (!(in.amortize_months >= 1) || !std::isfinite(in.amortize_months)) { r.error = "amortisation must be at least 1 month"; return r; }
    if (bad(in.device_power_w) || bad(in.idle_power_w)) { r.error = "power draw must be ≥ 0 W"; return r; }
    if (bad(in.kwh_price_usd)) { r.error = "electricity price must be ≥ 0 USD/kWh"; return r; }
    if (bad(in.cloud_usd_per_hour)) { r.error = "cloud price must be ≥ 0 USD/hour"; return r; }

    double hours = 0;
    if (!hours_needed(in, hours, r.error)) return r;
    spread_over_devices(in, hours, r);
    const double n = (double)r.devices_needed;
    const double idle_hours = n * (kHoursPerMonth - r.active_hours_per_month);   // all devices together
    r.own_amortization_usd_per_month = n * in.hardware_price_usd / in.amortize_months;
    r.own_power_usd_per_month = (in.device_power_w * n * r.active_hours_per_month + in.idle_power_w * idle_hours) / 1000.0 *
                                in.kwh_price_usd;
    r.own_usd_per_month = r.own_amortization_usd_per_month + r.own_power_usd_per_month;
    if (in.cloud_usd_per_hour > 0) r.rent_usd_per_month = in.cloud_usd_per_hour * n * r.active_hours_per_month;
    if (in.api_in_usd_per_mtok && in.api_out_usd_per_mtok)
        r.api_usd_per_month = *in.api_in_usd_per_mtok * in.input_mtok_per_month + *in.api_out_usd_per_mtok * in.output_mtok_per_month;

    r.cheapest = "own";
    double best = r.own_usd_per_month;
    if (r.rent_usd_per_month >= 0 && r.rent_usd_per_month < best) { best = r.rent_usd_per_month; r.cheapest = "rent"; }
    if (r.api_usd_per_month >= 0 && r.api_usd_per_month < best) { best = r.api_usd_per_month; r.cheapest = "api"; }

    // payback: the purchase price of the devices over the monthly saving against the cheapest alternative
    // (running cost only)
    double alt = -1;
    if (r.rent_usd_per_month >= 0) alt = r.rent_usd_per_month;
    if (r.api_usd_per_month >= 0 && (alt < 0 || r.api_usd_per_month < alt)) alt = r.api_usd_per_month;
    double saving = alt - r.own_power_usd_per_month;
    if (alt >= 0 && saving > 0 && in.hardware_price_usd > 0) r.payback_months = n * in.hardware_price_usd / saving;
    return r;
}

std::string capacity_note(const CostResult& r) {
    if (!r.error.empty() || r.devices_needed <= 1) return "";
    const double x = r.load_over_capacity, pct = r.served_share * 100;
    // a share just under 100 % keeps a decimal, so "99.6 %" never reads as "100 %"
    std::string share = pct < 99.5 ? format_sig(pct, 2) : format_fixed(std::floor(pct * 10) / 10, 1);
    return "needs " + format_sig(x, x < 1.1 ? 3 : 2) + "× this device's time: " + std::to_string(r.devices_needed) +
           " devices, or " + share + " % of the load";
}

std::string explain_cost(const CostInputs& in, const CostResult& r) {
    if (!r.error.empty()) return r.error;
    const std::string n = std::to_string(r.devices_needed);
    const bool many = r.devices_needed > 1;
    std::string s;
    if (in.hours_per_month_override)
        s += "hours needed = " + format_sig(r.hours_needed_per_month) + " h (given)\n";
    else
        s += "hours needed = " + format_sig(in.input_mtok_per_month) + " M input tokens / " + format_sig(in.prefill_tokens_per_s) +
             " tok/s prefill + " + format_sig(in.output_mtok_per_month) + " M output tokens / " + format_sig(in.decode_tokens_per_s) +
             " tok/s decode (one stream) = " + format_sig(r.hours_needed_per_month) + " h\n";
    if (r.capacity_mtok_per_month >= 0)
        s += "capacity = tokens one device processes in a 730 h month at this mix = " + format_sig(r.capacity_mtok_per_month) +
             " M tokens/month\n";
    s += "load = " + format_sig(r.hours_needed_per_month) + " h / 730 h = " + format_sig(r.load_over_capacity * 100) + " % of one device's month";
    s += many ? ": " + capacity_note(r) + "\n" : "\n";
    s += "active hours = " + format_sig(r.hours_needed_per_month) + " h / " + n + (many ? " devices" : " device") + " = " +
         format_sig(r.active_hours_per_month) + " h each; utilisation " + format_sig(r.utilisation * 100) + " % of 730 h\n";
    s += "own = " + (many ? n + " × " : "") + "$" + plain(in.hardware_price_usd) + " / " + plain(in.amortize_months) +
         " months + " + (many ? n + " × " : "") + plain(in.device_power_w) + " W × " + format_sig(r.active_hours_per_month) +
         " h × $" + format_fixed(in.kwh_price_usd, 3) + "/kWh" + (in.idle_power_w > 0 ? " + idle draw for the other hours" : "") +
         " = $" + format_fixed(r.own_usd_per_month, 2) + "\n";
    if (r.rent_usd_per_month >= 0)
        s += "rent = $" + format_fixed(in.cloud_usd_per_hour, 2) + "/hour × " + (many ? n + " devices × " : "") +
             format_sig(r.active_hours_per_month) + " h = $" + format_fixed(r.rent_usd_per_month, 2) + "\n";
    else
        s += "rent: not rentable (no cloud price)\n";
    if (r.api_usd_per_month >= 0)
        s += "api = " + format_sig(in.input_mtok_per_month) + " M × $" + format_fixed(in.api_in_usd_per_mtok.value_or(0), 2) + " + " +
             format_sig(in.output_mtok_per_month) + " M × $" + format_fixed(in.api_out_usd_per_mtok.value_or(0), 2) + " = $" +
             format_fixed(r.api_usd_per_month, 2) + "\n";
    else
        s += "api: no API price for this model\n";
    if (r.payback_months > 0)
        s += "payback = " + (many ? n + " × " : "") + "$" + plain(in.hardware_price_usd) +
             " / (cheaper alternative − own power per month) = " + format_sig(r.payback_months) + " months";
    else
        s += "payback: never at this usage (owning's running cost is not below the alternatives)";
    return s;
}

}  // namespace llmsim
