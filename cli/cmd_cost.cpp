// llmsim-cli cost: monthly cost of owning vs renting vs a serverless API for a model on a device.
#include <cstdio>
#include <cstdlib>

#include <nlohmann/json.hpp>

#include "api/api.h"
#include "api/api_recommend.h"
#include "commands.h"
#include "serving/cost.h"
#include "core/format.h"
#include "rig/resolve_device.h"

namespace llmsim::cli {

namespace {
bool number(const Args& a, const char* key, double lo, double hi, double& out, std::string& err) {
    return option_number(a, "cost", key, lo, hi, out, err);
}
}  // namespace

int cmd_cost(int argc, char** argv) {
    Args a = parse_args(argc, argv, {"help", "json", "explain"});
    if (a.has("help")) {
        printf("usage: llmsim-cli cost --model ID --hardware ID --quant Q [--ctx N] [--tokens-per-month N]\n"
               "                       [--input-share F] [--hours-per-month H] [--kwh-price P] [--months M]\n"
               "                       [--price USD] [--rent USD_PER_HOUR] [--api-in USD] [--api-out USD] [--json] [--explain]\n"
               "Monthly cost of owning the device (price amortised over M months + power at its TDP for the active\n"
               "hours), renting it (cloud $/hour x active hours) and a serverless API ($/1M tokens in and out).\n"
               "The hours the load needs come from the speed model (input tokens at prefill speed, output at decode\n"
               "speed, one stream) unless --hours-per-month is given. A month has 730 hours: a load that needs more\n"
               "is priced on as many devices as it takes (each active at most 730 h), and says so. Defaults: 50M\n"
               "tokens/month, 75 %% input, $0.17/kWh, 36 months; prices from the catalog (sourced), each overridable.\n"
               "--explain prints how each figure is made.\n");
        return 0;
    }
    static const char* known[] = {"model", "hardware", "quant", "ctx", "tokens-per-month", "input-share", "hours-per-month",
                                  "kwh-price", "months", "price", "rent", "api-in", "api-out", "json", "explain"};
    for (const auto& kv : a.options) {
        bool ok = false;
        for (const char* k : known) ok |= kv.first == k;
        if (!ok) return fail("cost: unknown option --" + kv.first + " (try llmsim-cli cost --help)");
    }
    Catalog cat;
    if (!load_catalog(cat)) return 1;
    const std::string* mid = a.get("model");
    const std::string* hid = a.get("hardware");
    if (!mid || !hid) return fail("cost: --model ID and --hardware ID are required");
    const Model* m = cat.find_model(*mid);
    if (!m) return fail("cost: " + unknown_model_message(cat, *mid));
    const Hardware* hw = resolve_device(cat, *hid);
    if (!hw) return fail("cost: unknown hardware '" + *hid + "' (llmsim-cli catalog --hardware lists them)");
    std::string quant = a.get("quant") ? *a.get("quant") : "Q4_K_M";
    if (!cat.find_file_type(quant)) return fail("cost: unknown quant '" + quant + "'");
    std::string err;
    CostOptions o;   // prices: the catalog's (sourced) unless an option overrides them
    if (!number(a, "ctx", 1, 1e8, o.ctx, err) || !number(a, "tokens-per-month", 0, 1e15, o.tokens_per_month, err) ||
        !number(a, "input-share", 0, 1, o.input_share, err) || !number(a, "hours-per-month", 0, 744, o.hours_per_month, err) ||
        !number(a, "kwh-price", 0, 10, o.kwh_price_usd, err) || !number(a, "months", 1, 240, o.months, err) ||
        !number(a, "price", 0, 1e9, o.price_usd, err) || !number(a, "rent", 0, 1e5, o.rent_usd_per_hour, err) ||
        !number(a, "api-in", 0, 1e4, o.api_in_usd_per_mtok, err) || !number(a, "api-out", 0, 1e4, o.api_out_usd_per_mtok, err))
        return fail(err);
    CostInputs in;
    CostResult r;
    if (!compute_cost(cat, *m, *hw, quant, o, in, r, err)) return fail("cost: " + err);
    const double tokens = o.tokens_per_month, share = o.input_share, months = o.months, kwh = o.kwh_price_usd;
    const double rent = in.cloud_usd_per_hour;
    const double api_in = in.api_in_usd_per_mtok.value_or(-1), api_out = in.api_out_usd_per_mtok.value_or(-1);
    const std::string note = capacity_note(r);
    if (a.has("json")) {
        nlohmann::json j = cost_to_json(r);
        j["model"] = m->id;
        j["hardware"] = hw->id;
        j["quant"] = quant;
        if (a.has("explain")) j["explanation"] = explain_cost(in, r);
        printf("%s\n", j.dump(1).c_str());
        return 0;
    }
    const bool many = r.devices_needed > 1;
    const std::string n = std::to_string(r.devices_needed);
    printf("%s %s on %s, %s tokens/month (%s%% input): %s h of device time a month\n", m->id.c_str(), quant.c_str(), hw->name.c_str(),
           format_sig(tokens, 3).c_str(), format_sig(share * 100).c_str(), format_sig(r.hours_needed_per_month).c_str());
    printf("  capacity: %s tokens/month per device (730 h at this mix); %s\n",
           r.capacity_mtok_per_month >= 0 ? (format_sig(r.capacity_mtok_per_month) + "M").c_str() : "unknown",
           many ? (note + " (priced below: " + n + " devices, " + format_sig(r.active_hours_per_month) + " active hours each, " +
                   format_sig(r.utilisation * 100) + " % utilisation)").c_str()
                : (format_sig(r.active_hours_per_month) + " active hours, " + format_sig(r.utilisation * 100) + " % utilisation").c_str());
    printf("  own:   $%s/month (%s$%s amortised over %s months + $%s power at %s%s W, $%s/kWh)\n",
           format_fixed(r.own_usd_per_month, 2).c_str(), many ? (n + " devices: ").c_str() : "",
           format_fixed(r.own_amortization_usd_per_month, 2).c_str(), format_sig(months).c_str(),
           format_fixed(r.own_power_usd_per_month, 2).c_str(), many ? (n + " x ").c_str() : "",
           format_sig(hw->tdp_w * hw->gpu_count).c_str(), format_fixed(kwh, 3).c_str());
    printf("  rent:  %s\n", r.rent_usd_per_month >= 0 ? ("$" + format_fixed(r.rent_usd_per_month, 2) + "/month at $" + format_fixed(rent, 2) +
                                                           "/hour" + (many ? " x " + n + " devices" : "") + " x " +
                                                           format_sig(r.active_hours_per_month) + " h").c_str()
                                                      : "not rentable (no sourced cloud price)");
    printf("  api:   %s\n", r.api_usd_per_month >= 0 ? ("$" + format_fixed(r.api_usd_per_month, 2) + "/month at $" +
                                                          format_fixed(api_in, 2) + " in / $" + format_fixed(api_out, 2) + " out per 1M").c_str()
                                                     : "no API price for this model");
    printf("  cheapest: %s; payback of buying%s: %s\n", r.cheapest.c_str(), many ? (" " + n + " devices").c_str() : "",
           r.payback_months > 0 ? (format_sig(r.payback_months) + " months").c_str() : "never at this usage");
    if (a.has("explain")) printf("\nHow each figure is made:\n%s\n", explain_cost(in, r).c_str());
    return 0;
}

}  // namespace llmsim::cli
