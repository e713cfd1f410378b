// llmsim-cli spec: speculative decoding with a draft model (engine/spec/spec.h): memory of the pair, expected
// decode speed at an acceptance rate, the break-even acceptance and the llama-server command with -md.
#include <algorithm>
#include <cstdio>

#include "api/api_extras.h"
#include "commands.h"
#include "core/format.h"
#include "core/units.h"
#include "runtime/command.h"
#include "spec/mtp.h"
#include "spec/spec.h"
#include "rig/resolve_device.h"

namespace llmsim::cli {

namespace {

const char* kSpecUsage =
    "usage: llmsim-cli spec --model ID --draft ID --hardware ID [--quant Q4_K_M] [--draft-quant Q8_0]\n"
    "                       [--ctx N] [--parallel N] [--draft-max K] [--draft-min N] [--accept A]\n"
    "                       [--draft-ctx N] [--draft-ngl N] [--depth N] [--json]\n"
    "       llmsim-cli spec --mtp --model ID --hardware ID [--quant Q] [--ctx N] [--parallel N] [--draft-max K]\n"
    "                       [--accept A] [--depth N] [--json]\n"
    "Speculative decoding as llama-server runs it (-md): memory of target + draft (the draft gets the target's\n"
    "context per sequence unless --draft-ctx, one draft KV cache and compute buffer per -np slot), and the\n"
    "expected decode speed: E = (1 - a^(k+1)) / (1 - a) tokens per round (Leviathan et al. 2023) over k draft\n"
    "steps + one target step of k+1 tokens, both from the speed model. Defaults: --draft-max 16, --accept 0.7.\n"
    "Acceptance is a per-token rate you set; typical ranges (estimates) are printed.\n"
    "--mtp: the model's own multi-token-prediction heads are the draft (llama-server --spec-type draft-mtp\n"
    "--spec-draft-n-max K): the NextN block's weights (loaded only then), the MTP context's KV cache (the NextN\n"
    "layer only) and compute buffer; speed only where llama.cpp runs the heads. Defaults: --draft-max 3, --accept 0.75.\n";


// the per-device rows under a memory table's header (the same columns for a draft model and MTP heads)
void print_device_rows(const std::vector<SpecDevice>& devices) {
    printf("|---|---:|---:|---:|---:|---:|---:|\n");
    for (const SpecDevice& d : devices)
        printf("| %s | %.2f | %.2f | %.2f | %.2f | %.2f | %s |\n", d.name.c_str(), to_gib(d.target_bytes), to_gib(d.draft_weights_bytes),
               to_gib(d.draft_kv_bytes), to_gib(d.draft_compute_bytes), to_gib(d.total_bytes),
               d.usable_bytes ? format_sig(to_gib(d.usable_bytes)).c_str() : "-");
}

// one speculative round: its steps, the speed-up, break-even and the best k; `draft` names the draft's step,
// `mode` the speculative speed ("speculative", "MTP")
void print_round(const SpecSpeed& sp, int64_t depth, const char* draft, const char* mode) {
    printf("\ndecode at depth %lld, k = %d, acceptance %.2f: E = %.2f tokens per round\n", (long long)depth, sp.k,
           sp.acceptance, sp.expected_tokens);
    printf("  target step %.2f ms, %s step %.2f ms, verify step (%d tokens) %.2f ms, round %.2f ms\n",
           sp.target_step_s * 1e3, draft, sp.draft_step_s * 1e3, sp.k + 1, sp.verify_step_s * 1e3, sp.round_s * 1e3);
    printf("  plain %.1f tok/s -> %s %.1f tok/s per sequence (x%.2f)\n", sp.plain_tokens_per_s, mode,
           sp.spec_tokens_per_s, sp.speedup);
    if (sp.break_even_acceptance <= 1) printf("  break-even acceptance at k = %d: %.3f\n", sp.k, sp.break_even_acceptance);
    else printf("  break-even: never pays off at k = %d (even a = 1 is slower)\n", sp.k);
    printf("  best k at this acceptance: %d (x%.2f)\n", sp.best_k, sp.best_k_speedup);
}

int print_spec(const Model& tm, const Model& dm, const SpecRequest& r, const SpecMemory& mem, const SpecSpeed& sp,
               const std::string& command, bool as_json) {
    int n_ranges = 0;
    const AcceptanceRange* ranges = acceptance_ranges(n_ranges);
    if (as_json) {
        printf("%s\n", spec_to_json(tm, dm, r, mem, sp, command).dump(2).c_str());
        return 0;
    }
    printf("target %s (%s) + draft %s (%s), draft context %lld tokens x %d slot(s)\n\n", tm.id.c_str(),
           r.target.memory.file_type.c_str(), dm.id.c_str(), r.draft_file_type.c_str(), (long long)mem.draft_ctx, mem.slots);
    printf("| device | target GiB | draft weights GiB | draft KV GiB | draft compute GiB | total GiB | usable GiB |\n");
    print_device_rows(mem.devices);
    printf("\ntotal %.2f GiB (draft adds %.2f GiB): %s\n", to_gib(mem.total_bytes), to_gib(mem.draft_extra_bytes),
           mem.fits ? "fits" : "does NOT fit");
    print_round(sp, r.depth, "draft", "speculative");
    printf("  steps include host sampling, %.3f ms per target position (vocabulary-proportional estimate)\n", sp.sample_s * 1e3);
    printf("  on CUDA the verify batch is still under-priced (README): read the speed-up as an upper bound\n");
    printf("  MTP heads instead of a draft model: llmsim-cli spec --mtp (models with num_nextn_predict_layers)\n");
    printf("\ntypical per-token acceptance (estimates):\n");
    for (int i = 0; i < n_ranges; ++i)
        printf("  %-48s %.2f-%.2f  (%s)\n", ranges[i].task, ranges[i].low, ranges[i].high, ranges[i].source);
    printf("\n%s\n", command.c_str());
    return 0;
}

void print_mtp_speed(const SpecSpeed& sp, int64_t depth) {
    print_round(sp, depth, "MTP draft", "MTP");
    printf("  %s\n", kMtpSpeedCaveat);
}

int print_mtp(const Model& tm, const SpecRequest& r, const MtpMemory& mem, const SpecSpeed* sp, const std::string& command,
              bool as_json) {
    if (as_json) {
        printf("%s\n", mtp_to_json(tm, r, mem, sp, command).dump(2).c_str());
        return 0;
    }
    printf("target %s (%s) + its MTP heads: %s\n\n", tm.id.c_str(), r.target.memory.file_type.c_str(), mem.support.message.c_str());
    printf("| device | target GiB | NextN weights GiB | MTP KV GiB | MTP compute GiB | total GiB | usable GiB |\n");
    print_device_rows(mem.devices);
    printf("\ntotal %.2f GiB (MTP adds %.2f GiB): %s\n", to_gib(mem.total_bytes), to_gib(mem.mtp_extra_bytes),
           mem.fits ? "fits" : "does NOT fit");
    printf("  MTP KV: %lld cells x %d NextN layer(s) = %.3f GiB", (long long)mem.mtp_cells, mem.support.nextn_layers, to_gib(mem.mtp_kv_bytes));
    if (mem.mtp_kv_unfiltered_bytes != mem.mtp_kv_bytes)
        printf("; a build before %s caches every layer: %.2f GiB", mem.support.kv_filter_since.c_str(), to_gib(mem.mtp_kv_unfiltered_bytes));
    printf("\n  without --spec-type draft-mtp the NextN weights are not loaded (ggml-org/llama.cpp#26296)\n");
    if (sp) print_mtp_speed(*sp, r.depth);
    else printf("\nno speed: llama.cpp cannot run these heads as a draft (memory only)\n");
    int n = 0;
    const AcceptanceRange* ranges = mtp_acceptance_ranges(n);
    printf("\nreported MTP acceptance (per drafted token):\n");
    for (int i = 0; i < n; ++i) printf("  %-46s %.2f-%.2f  (%s)\n", ranges[i].task, ranges[i].low, ranges[i].high, ranges[i].source);
    printf("\n%s\n", command.c_str());
    return 0;
}

// spec --mtp: the model's own heads are the draft
int run_mtp(const Catalog& cat, const Model& tm, SpecRequest& r, bool as_json) {
    std::string err;
    MtpMemory mem;
    if (!estimate_mtp_memory(cat, tm, r, mem, err)) return fail("spec: " + err);
    SpecSpeed sp;
    if (mem.support.runs && !estimate_mtp_speed(cat, tm, r, sp, err)) return fail("spec: " + err);
    const std::string command = llama_server_command(cat, tm, r.target) + (mem.support.runs ? mtp_server_flags(r) : std::string());
    return print_mtp(tm, r, mem, mem.support.runs ? &sp : nullptr, command, as_json);
}

}  // namespace

int cmd_spec(int argc, char** argv) {
    Args a = parse_args(argc, argv, {"help", "json", "mtp"});
    if (a.has("help")) { printf("%s", kSpecUsage); return 0; }
    static const char* known[] = {"model", "draft", "hardware", "quant", "draft-quant", "ctx", "parallel", "draft-max",
                                  "draft-min", "accept", "draft-ctx", "draft-ngl", "depth", "json", "help", "mtp"};
    for (const auto& kv : a.options) {
        bool ok = false;
        for (const char* k : known) ok |= kv.first == k;
        if (!ok) return fail("spec: unknown option --" + kv.first + " (try llmsim-cli spec --help)");
    }
    if (!a.positional.empty()) return fail("spec: unexpected argument '" + a.positional[0] + "'");
    Catalog cat;
    if (!load_catalog(cat)) return 1;
    const bool mtp = a.has("mtp");
    const std::string *mid = a.get("model"), *did = a.get("draft"), *hid = a.get("hardware");
    if (mtp && did) return fail("spec: --mtp uses the model's own heads as the draft; drop --draft");
    if (mtp && (a.get("draft-quant") || a.get("draft-ctx") || a.get("draft-ngl") || a.get("draft-min")))
        return fail("spec: --draft-quant, --draft-ctx, --draft-ngl and --draft-min are for a draft model, not --mtp");
    if (!mid || (!did && !mtp) || !hid)
        return fail(mtp ? "spec: --model ID and --hardware ID are required" : "spec: --model ID, --draft ID and --hardware ID are required");
    const Model* tm = cat.find_model(*mid);
    if (!tm) return fail("spec: " + unknown_model_message(cat, *mid));
    const Model* dm = mtp ? nullptr : cat.find_model(*did);
    if (!mtp && !dm) return fail("spec: draft: " + unknown_model_message(cat, *did));
    const Hardware* hw = resolve_device(cat, *hid);
    if (!hw) return fail("spec: unknown hardware '" + *hid + "' (llmsim-cli catalog --hardware lists them)");
    SpecRequest r;
    r.target.memory.hardware = hw;
    if (const std::string* q = a.get("quant")) r.target.memory.file_type = *q;
    if (const std::string* q = a.get("draft-quant")) r.draft_file_type = *q;
    for (const std::string* q : {&r.target.memory.file_type, &r.draft_file_type})
        if (!cat.find_file_type(*q)) return fail("spec: unknown quant '" + *q + "' (llmsim-cli catalog --quants lists them)");
    double ctx = 8192, np = 1, kmax = mtp ? 3 : 16, kmin = 0, acc = mtp ? 0.75 : 0.7, dctx = 0, dngl = -1, depth = -1;
    std::string err;
    if (!option_number(a, "spec", "ctx", 1, 1e7, ctx, err) || !option_number(a, "spec", "parallel", 1, 1024, np, err) ||
        !option_number(a, "spec", "draft-max", 1, 256, kmax, err) || !option_number(a, "spec", "draft-min", 0, 256, kmin, err) ||
        !option_number(a, "spec", "accept", 0, 1, acc, err) || !option_number(a, "spec", "draft-ctx", 0, 1e7, dctx, err) ||
        !option_number(a, "spec", "draft-ngl", -1, 1000, dngl, err) || !option_number(a, "spec", "depth", 0, 1e7, depth, err))
        return fail(err);
    r.target.memory.n_ctx = (int64_t)ctx;
    r.target.memory.n_parallel = (int)np;
    r.draft_max = (int)kmax;
    r.draft_min = (int)kmin;
    r.acceptance = acc;
    r.draft_ctx = (int64_t)dctx;
    r.draft_gpu_layers = (int)dngl;
    r.depth = depth >= 0 ? (int64_t)depth : std::min<int64_t>(r.target.memory.n_ctx / r.target.memory.n_parallel / 2, 4096);
    if (mtp) return run_mtp(cat, *tm, r, a.has("json"));
    SpecMemory mem;
    if (!estimate_spec_memory(cat, *tm, *dm, r, mem, err)) return fail("spec: " + err);
    SpecSpeed sp;
    if (!estimate_spec_speed(cat, *tm, *dm, r, sp, err)) return fail("spec: " + err);
    std::string command = llama_server_command(cat, *tm, r.target) + spec_server_flags(*dm, r);
    return print_spec(*tm, *dm, r, mem, sp, command, a.has("json"));
}

}  // namespace llmsim::cli
