// llmsim-cli recommend: the hardware that meets a model's speed/budget constraints, cheapest first, with the
// reason each rejected option fails — or, with --hardware, the best models that device runs.
#include <cstdio>
#include <cstdlib>

#include <nlohmann/json.hpp>

#include "api/api.h"
#include "api/api_recommend.h"
#include "commands.h"
#include "core/format.h"
#include "sim/recommend.h"
#include "sim/speed_labels.h"
#include "rig/resolve_device.h"

namespace llmsim::cli {

namespace {
bool number(const Args& a, const char* key, double lo, double hi, double& out, std::string& err) {
    return option_number(a, "recommend", key, lo, hi, out, err);
}

std::string rent_cell(const Candidate& c, bool with_load) {
    std::string cell = "$" + format_fixed(c.cloud_usd_per_hour, 2) + "/h";
    const CostResult& lc = c.load_cost;
    if (!with_load || !lc.error.empty() || lc.rent_usd_per_month < 0) return cell;
    if (lc.devices_needed > 1) cell += " x " + std::to_string(lc.devices_needed) + " devices";
    return cell + " = $" + format_fixed(lc.rent_usd_per_month, 2) + "/month (" + format_sig(lc.active_hours_per_month) +
           (lc.devices_needed > 1 ? " h each)" : " h active)");
}
}  // namespace

namespace {
void print_recommend_help() {
    printf("usage: llmsim-cli recommend --model ID --ctx N [--min-decode TOK_S] [--max-ttft S] [--max-price USD]\n"
           "                            [--max-watts W] [--max-rent USD_PER_HOUR] [--quant Q4_K_M] [--prompt N]\n"
           "                            [--decode-depth N] [--usable] [--device-profile profile.json]\n"
           "                            [--tokens-per-month N [--input-share F]] [--format md|json] [--all]\n"
           "       llmsim-cli recommend --hardware ID --ctx N --min-decode TOK_S [--format md|json]\n"
           "Ranks catalog devices and multi-GPU combinations (2x, 4x, 8x of a card; their ids such as 2x-arc-b580\n"
           "work in predict, memory and fit too) that fit the model at that context and meet the constraints,\n"
           "cheapest first (by $/hour with --max-rent). --min-decode holds at the full --ctx context (the worst\n"
           "case) unless --decode-depth says another depth. --usable sets the usable floor (>= 10 tok/s decode,\n"
           "first token under 10 s for a 4k prompt) where --min-decode / --max-ttft are not given. --all also lists\n"
           "the rejected options with the reason. With --hardware: the largest models the device runs at that\n"
           "speed at the full context.\n"
           "With --max-rent and --tokens-per-month, each option is as many devices as the load needs in a 730-hour\n"
           "month (the cost command's rule); the limit applies to their $/hour together, ranked by monthly rent.\n");
}


// every option of recommend, read and range-checked (the --usable floor applied)
struct RecommendOptions : RecommendLimits {   // depth -1: --decode-depth not given
    bool usable = false;
    DeviceProfile profile;
    bool with_profile = false;
    std::string format = "md";
    std::string quant = "Q4_K_M";
};

// read the options; fills err (the message to print) and returns false on a bad value
bool parse_recommend_options(const Args& a, const Catalog& cat, RecommendOptions& o, std::string& err) {
    if (!number(a, "ctx", 1, 1e8, o.ctx, err) || !number(a, "min-decode", 0, 1e7, o.min_decode, err) ||
        !number(a, "max-ttft", 0, 1e7, o.max_ttft, err) || !number(a, "max-price", 0, 1e9, o.max_price, err) ||
        !number(a, "max-watts", 0, 1e7, o.max_watts, err) || !number(a, "max-rent", 0, 1e6, o.max_rent, err) ||
        !number(a, "prompt", 1, 1e8, o.prompt, err) || !number(a, "tokens-per-month", 0, 1e15, o.tokens, err) ||
        !number(a, "input-share", 0, 1, o.share, err))
        return false;
    if (!number(a, "decode-depth", 0, 1e8, o.depth, err)) return false;
    if (o.depth > o.ctx) {
        err = "recommend: --decode-depth must be at most --ctx (" + format_sig(o.ctx, 8) + ")";
        return false;
    }
    o.usable = a.has("usable");
    if (o.usable) {   // the usable floor, unless the user set that constraint
        if (!a.get("min-decode")) o.min_decode = kUsableMinDecodeTps;
        if (!a.get("max-ttft")) o.max_ttft = kUsableMaxTtftS;
        if (!a.get("prompt")) o.prompt = (double)kUsablePromptTokens;
    }
    if (!read_device_profile(a, "recommend", o.profile, o.with_profile, err)) return false;
    if (a.get("format")) o.format = *a.get("format");
    if (o.format != "md" && o.format != "json") {
        err = "recommend: --format must be md or json";
        return false;
    }
    if (a.get("quant")) o.quant = *a.get("quant");
    if (!cat.find_file_type(o.quant)) {
        err = "recommend: unknown quant '" + o.quant + "'";
        return false;
    }
    return true;
}

// the inverse question (--hardware): the largest models the device runs at the speed floor
void print_models_for_hardware(const Catalog& cat, const Hardware& hw, const RecommendOptions& o) {
    auto list = best_models_for(cat, hw, (int64_t)o.ctx, o.min_decode, recommend_model_quants());
    if (o.format == "json") {
        printf("%s\n", models_for_hardware_to_json(list).dump(1).c_str());
        return;
    }
    printf("Models %s runs at %s context with >= %s tok/s decode (largest first):\n\n", hw.name.c_str(),
           format_tokens((int64_t)o.ctx).c_str(), format_sig(o.min_decode).c_str());
    printf("| Model | Quant | Params | Total | Decode (empty → %s context) | Status |\n|---|---|---|---|---|---|\n",
           format_tokens((int64_t)o.ctx).c_str());
    for (auto& c : list)
        printf("| %s | %s | %sB | %s | %s | %s |\n", c.model->id.c_str(), c.quant.c_str(),
               format_sig(c.eval.params.total / 1e9).c_str(), format_gib((double)c.eval.memory.total_bytes).c_str(),
               c.eval.speed.ok ? (format_sig(c.eval.speed.decode_empty_tps) + " → " + format_sig(c.eval.speed.decode_full_tps) + " tok/s").c_str() : "—",
               to_string(c.eval.memory.status));
}

RecommendQuery make_query(const Model* model, const RecommendOptions& o) {
    RecommendQuery q = recommend_query(model, o.quant, o);
    q.device_profile = o.with_profile ? &o.profile : nullptr;
    return q;
}

void print_recommend_json(const RecommendQuery& q, const RecommendResult& r, bool all, bool with_load) {
    printf("%s\n", recommend_to_json(q, r, all, with_load).dump(1).c_str());
}

void print_recommend_table(const RecommendQuery& q, const RecommendResult& r, const RecommendOptions& o, bool all,
                           bool with_load) {
    printf("%s %s at %s context: %zu options meet the constraints (cheapest first)\n\n", q.model->id.c_str(), q.quant.c_str(),
           format_tokens(q.ctx_tokens).c_str(), r.accepted.size());
    if (q.min_decode_tps > 0 || q.max_ttft_s > 0)
        printf("%s%s\n\n", o.usable ? "Usable floor: " : "Constraints: ",
               ((q.min_decode_tps > 0 ? ">= " + format_sig(q.min_decode_tps) + " tok/s " +
                 decode_label(q.decode_depth.value_or(q.ctx_tokens)) : std::string()) +
                (q.min_decode_tps > 0 && q.max_ttft_s > 0 ? ", " : "") +
                (q.max_ttft_s > 0 ? "first token under " + format_sig(q.max_ttft_s) + " s for a " + format_tokens(q.prompt_tokens) + " prompt"
                                  : std::string())).c_str());
    if (o.with_profile) printf("%s on %s\n\n", calibrated_label(o.profile).c_str(), o.profile.hardware_id.c_str());
    printf("| Hardware | Id | Price | Rent | Decode (empty → %s context) | TTFT (%s prompt) | Memory | Status |\n"
           "|---|---|---|---|---|---|---|---|\n", format_tokens(q.ctx_tokens).c_str(), format_tokens(q.prompt_tokens).c_str());
    for (auto& c : r.accepted)
        printf("| %s | %s | %s | %s | %s | %s | %s / %s | %s |\n", c.hardware.name.c_str(), c.hardware.id.c_str(),
               c.price_usd > 0 ? ("$" + format_sig(c.price_usd, 4)).c_str() : "—",
               c.cloud_usd_per_hour > 0 ? rent_cell(c, with_load).c_str() : "—",
               c.eval.speed.ok ? (format_sig(c.eval.speed.decode_empty_tps) + " → " + format_sig(c.eval.speed.decode_full_tps) + " tok/s" +
                                  (c.eval.speed.calibrated.empty() ? "" : " calibrated")).c_str() : "—",
               c.eval.speed.ok ? (format_sig(c.eval.speed.ttft_s) + " s").c_str() : "—",
               format_gib((double)c.eval.memory.total_bytes).c_str(), format_gib((double)c.eval.memory.usable_bytes).c_str(),
               to_string(c.eval.memory.status));
    if (all) {
        printf("\nRejected:\n\n| Hardware | Why |\n|---|---|\n");
        for (auto& c : r.rejected) printf("| %s | %s |\n", c.hardware.name.c_str(), c.reason.c_str());
    }
}
}  // namespace

int cmd_recommend(int argc, char** argv) {
    Args a = parse_args(argc, argv, {"help", "all", "usable"});
    if (a.has("help")) {
        print_recommend_help();
        return 0;
    }
    const std::string unknown = first_unknown_option(a, {"model", "ctx", "min-decode", "max-ttft", "max-price", "max-watts", "max-rent", "quant",
                                  "prompt", "format", "all", "hardware", "decode-depth", "usable", "device-profile",
                                  "tokens-per-month", "input-share"});
    if (!unknown.empty()) return fail("recommend: unknown option --" + unknown + " (try llmsim-cli recommend --help)");
    Catalog cat;
    if (!load_catalog(cat)) return 1;
    RecommendOptions o;
    std::string err;
    if (!parse_recommend_options(a, cat, o, err)) return fail(err);

    if (const std::string* hid = a.get("hardware")) {   // inverse: best models on this device
        const Hardware* hw = resolve_device(cat, *hid);
        if (!hw) return fail("recommend: unknown hardware '" + *hid + "' (llmsim-cli catalog --hardware lists them)");
        print_models_for_hardware(cat, *hw, o);
        return 0;
    }

    const std::string* mid = a.get("model");
    if (!mid) return fail("recommend: --model ID is required (or --hardware ID for the inverse question)");
    const Model* model = cat.find_model(*mid);
    if (!model) return fail("recommend: " + unknown_model_message(cat, *mid));
    const RecommendQuery q = make_query(model, o);
    const bool with_load = o.tokens > 0;
    RecommendResult r = recommend_hardware(cat, q);
    if (!r.error.empty()) return fail("recommend: " + r.error);
    if (o.format == "json")
        print_recommend_json(q, r, a.has("all"), with_load);
    else
        print_recommend_table(q, r, o, a.has("all"), with_load);
    return 0;
}

}  // namespace llmsim::cli
