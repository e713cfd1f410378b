#include "derived.h"

#include <algorithm>
#include <cctype>
#include <chrono>

#include "api/api.h"
#include "catalog/model_names.h"
#include "app_state.h"
#include "runtime/command.h"
#include "core/assets.h"
#include "core/input_limits.h"
#include "panels.h"
#include "core/format.h"
#include "quant/quant_rules.h"
#include "sim/speed_labels.h"
#include "rig/resolve_device.h"

// a -ts proportion "3" or "0.5" (digits and one '.', locale-independent); ok = false otherwise
static double parse_proportion(const std::string& t, bool& ok) {
    double v = 0, scale = 0;
    ok = ok && !t.empty() && t.size() <= 12;
    for (char c : t) {
        if (c == '.' && scale == 0) { scale = 1; continue; }
        if (!std::isdigit((unsigned char)c)) { ok = false; break; }
        if (scale > 0) { scale /= 10; v += (c - '0') * scale; } else { v = v * 10 + (c - '0'); }
    }
    return v;
}

// "rtx-5080 rtx-5060-ti-16gb" (a URL's '+' form-decoded to ' ') back to a rig id: spaces between two ids are '+',
// a space after a count ("2x rtx-3090") stays
static std::string rig_id_from_url_spaces(const std::string& s) {
    std::string out;
    for (size_t i = 0; i < s.size(); ++i) {
        const bool after_count = i >= 2 && (s[i - 1] == 'x' || s[i - 1] == 'X') && std::isdigit((unsigned char)s[i - 2]) &&
                                 (i < 3 || !std::isalnum((unsigned char)s[i - 3]));
        out += s[i] == ' ' && !after_count ? '+' : s[i];
    }
    return out;
}

// the scenario's device: a catalog entry, a rig, the custom one, or N of a single card (a layer-split rig)
static const llmsim::Hardware* resolve_scenario_hardware(AppState& app) {
    const Scenario& s = app.scenario;
    app.scenario_hardware_ok = false;
    llmsim::Hardware h;
    if (s.hardware == "custom") {
        h.id = "custom";
        h.name = "Custom device (" + llmsim::format_sig(s.custom_bw_gbs) + " GB/s, " + llmsim::format_sig(s.custom_tflops) +
                 " TFLOPS, " + llmsim::format_sig(s.custom_mem_gib) + " GiB)";
        h.vendor = "nvidia";
        h.kind = llmsim::HardwareKind::Consumer;
        h.chip_family = llmsim::ChipFamily::NvidiaConsumer;   // an NVIDIA GPU of no particular generation
        h.backends = {llmsim::Backend::Cuda};
        h.memory_bytes = (int64_t)(s.custom_mem_gib * (double)llmsim::kGiB);
        h.bandwidth_gbs = s.custom_bw_gbs;
        h.fp16_tflops = s.custom_tflops;
        h.fp16_tflops_basis = "entered by the user";
    } else if (const llmsim::Hardware* c = llmsim::resolve_device(app.catalog, s.hardware)) {
        h = *c;
    } else if (const llmsim::Hardware* r = llmsim::resolve_device(app.catalog, rig_id_from_url_spaces(s.hardware))) {
        h = *r;   // a typed link "hardware=rtx-5080+rtx-5060-ti-16gb" arrives with '+' decoded as ' '
    } else {
        return nullptr;
    }
    if (s.gpus > 0 && s.gpus != h.gpu_count && h.rig.empty() && !h.unified_memory() && h.kind != llmsim::HardwareKind::Cpu) {
        const int base = std::max(1, h.gpu_count);
        if (h.price_usd > 0) h.price_usd = h.price_usd / base * s.gpus;      // catalog prices whole rigs
        if (h.price_used_usd > 0) h.price_used_usd = h.price_used_usd / base * s.gpus;
        h.gpu_count = s.gpus;
        h.name = std::to_string(s.gpus) + "x " + h.name;
        if (h.link.empty() && s.gpus > 1) { h.link = "pcie"; h.link_gbs = llmsim::kDefaultPcieGbs; }   // assumed, as the engine
    }
    app.scenario_hardware = h;
    app.scenario_hardware_ok = true;
    return &app.scenario_hardware;
}

uint64_t hub_exact_bytes(const AppState& app, const std::string& model, const std::string& file_type) {
    auto m = app.hub_tensor_bytes.find(model);
    if (m == app.hub_tensor_bytes.end()) return 0;
    auto f = m->second.find(file_type);
    return f == m->second.end() ? 0 : f->second;
}

llmsim::SimRequest request_from_scenario(const AppState& app) {
    const Scenario& s = app.scenario;
    llmsim::SimRequest r;
    r.memory.file_type = s.quant;
    if (const uint64_t b = hub_exact_bytes(app, s.model, s.quant)) r.memory.tensor_data_bytes_exact = b;
    r.memory.n_ctx = s.ctx_tokens;
    if (auto t = llmsim::parse_tensor_type(s.kv_type)) { r.memory.kv_type_k = *t; r.memory.kv_type_v = *t; }
    r.memory.flash_attn = s.flash_attn;
    r.memory.n_parallel = s.parallel;
    r.memory.n_gpu_layers = s.gpu_layers;
    r.memory.n_cpu_moe = s.cpu_moe_layers;
    r.memory.hardware = app.scenario_hardware_ok ? &app.scenario_hardware : nullptr;
    if (s.host_ram_gib > 0) r.memory.host_ram_bytes = (uint64_t)(s.host_ram_gib * (double)llmsim::kGiB);
    if (s.host_bw_gbs > 0) r.memory.host_ram_bandwidth_gbs = s.host_bw_gbs;
    if (auto m = llmsim::parse_split_mode(s.split_mode)) r.memory.split_mode = *m;
    r.memory.main_gpu = s.main_gpu;
    if (!s.tensor_split.empty()) {   // "3,1"; a malformed list is ignored (llama.cpp's default split)
        std::vector<double> ts;
        bool ok = true;
        size_t start = 0;
        for (size_t i = 0; i <= s.tensor_split.size() && ok; ++i)
            if (i == s.tensor_split.size() || s.tensor_split[i] == ',') {
                ts.push_back(parse_proportion(s.tensor_split.substr(start, i - start), ok));
                start = i + 1;
            }
        if (ok) r.memory.tensor_split = ts;
    }
    r.prompt_tokens = s.prompt_tokens;
    r.gen_tokens = s.gen_tokens;
    if (app.device_profile_on) r.device_profile = &app.device_profile;   // applied only to the device it was fitted on
    return r;
}

llmsim::CostInputs cost_inputs_from_scenario(const AppState& app) {
    const Scenario& s = app.scenario;
    llmsim::CostScenario cs;
    cs.mtok_per_month = s.mtok_per_month;
    cs.kwh_price_usd = s.kwh_price_usd;
    cs.amortize_months = s.amortize_months;
    cs.price_usd = s.price_usd;
    cs.rent_usd_per_hour = s.rent_usd_per_hour;
    cs.api_in_usd = s.api_in_usd;
    cs.api_out_usd = s.api_out_usd;
    return llmsim::cost_inputs(app.derived.model, app.derived.hardware, app.derived.eval.speed, cs);
}

void apply_model_defaults(AppState& app, bool quant, bool ctx) {
    const llmsim::Model* m = app.catalog.find_model(app.scenario.model);
    if (!m) return;
    if (quant) app.scenario.quant = llmsim::default_file_type(*m);
    if (ctx) {
        resolve_scenario_hardware(app);
        app.scenario.ctx_tokens = llmsim::default_context_tokens(app.catalog, *m, request_from_scenario(app).memory);
    }
}

void apply_model_defaults_for_keys(AppState& app, const std::string& model_before, const std::vector<std::string>& keys) {
    if (app.scenario.model == model_before) return;
    auto named = [&](const char* k) { return std::find(keys.begin(), keys.end(), k) != keys.end(); };
    // a link or setState may name the model as people type it ("qwen2.5:7b", "hf.co/org/repo-GGUF:Q8_0"):
    // the state keeps the catalog id, and the quant the name implies unless the link names one itself
    const auto r = llmsim::resolve_model_name_quiet(app.catalog, app.scenario.model);
    if (r && r->model->id != app.scenario.model) app.scenario.model = r->model->id;
    apply_model_defaults(app, !named("quant"), !named("ctx"));
    if (r && !r->file_type.empty() && (!named("quant") || r->file_type_named)) app.scenario.quant = r->file_type;
}

llmsim::SimRequest command_request(const AppState& app) {
    llmsim::SimRequest r = request_from_scenario(app);
    const llmsim::MemoryBreakdown& mb = app.derived.eval.memory;
    if (app.scenario.gpu_layers < 0 && app.derived.eval_ok && mb.status == llmsim::FitStatus::PartialOffload)
        r.memory.n_gpu_layers = mb.gpu_layers;
    return r;
}

std::vector<std::array<std::string, 3>> parse_compare(const std::string& compare) {
    std::vector<std::array<std::string, 3>> out;
    size_t start = 0;
    while (start <= compare.size() && out.size() < 4) {
        size_t end = compare.find(',', start);
        if (end == std::string::npos) end = compare.size();
        std::string item = compare.substr(start, end - start);
        start = end + 1;
        if (item.empty()) { if (end == compare.size()) break; continue; }
        std::array<std::string, 3> parts;
        size_t a = item.find('~'), b = a == std::string::npos ? std::string::npos : item.find('~', a + 1);
        if (a == std::string::npos) parts = {"", item, ""};   // a bare id is a device
        else parts = {item.substr(0, a), b == std::string::npos ? item.substr(a + 1) : item.substr(a + 1, b - a - 1),
                      b == std::string::npos ? "" : item.substr(b + 1)};
        out.push_back(parts);
        if (end == compare.size()) break;
    }
    return out;
}

std::string format_compare(const std::vector<std::array<std::string, 3>>& setups) {
    std::string s;
    for (const auto& p : setups) s += (s.empty() ? "" : ",") + p[0] + "~" + p[1] + "~" + p[2];
    return s;
}

namespace {

// recommendation for the scenario's model, quant and context
void derive_recommend(const AppState& app, Derived& d) {
    const Scenario& s = app.scenario;
    llmsim::RecommendQuery q;
    q.model = d.model;
    q.quant = s.quant;
    q.ctx_tokens = s.ctx_tokens;
    q.prompt_tokens = s.prompt_tokens;
    q.device_profile = app.device_profile_on ? &app.device_profile : nullptr;
    q.min_decode_tps = s.rec_min_tps;     // at the full chosen context (decode_depth unset)
    q.max_ttft_s = s.rec_max_ttft_s;
    q.max_price_usd = s.rec_max_price;
    d.recommend = llmsim::recommend_hardware(app.catalog, q);
    // the FAQ's "cheapest hardware that runs it": the usable floor, not merely "fits"
    d.cheapest_usable = llmsim::cheapest_usable(app.catalog, *d.model, s.quant, s.ctx_tokens, q.device_profile);
}

// the FAQ's answers from the numbers the other sections show (needs the current evaluation)
void derive_faq(const AppState& app, Derived& d) {
    if (!d.eval_ok) return;
    const Scenario& s = app.scenario;
    const llmsim::CostInputs in = cost_inputs_from_scenario(app);
    const llmsim::CostResult cost = llmsim::estimate_cost(in);
    llmsim::FaqInputs fi;
    fi.model = d.model;
    fi.quant = s.quant;
    fi.kv_type = s.kv_type;
    fi.ctx_tokens = s.ctx_tokens;
    fi.memory = &d.eval.memory;
    fi.cheapest = llmsim::first_priced(d.cheapest_usable);
    fi.context = &d.context;
    fi.hardware = d.hardware;
    fi.cost = &cost;
    fi.mtok_per_month = s.mtok_per_month;
    fi.amortize_months = s.amortize_months;
    fi.app_hints = true;
    d.faq = llmsim::faq_entries(fi);
}

// compare: each setup on its own
void derive_compare(const AppState& app, const llmsim::SimRequest& base, Derived& d) {
    const Scenario& s = app.scenario;
    for (const auto& parts : parse_compare(s.compare)) {
        CompareColumn col;
        col.model_id = parts[0].empty() ? s.model : parts[0];
        col.hardware_id = parts[1].empty() ? s.hardware : parts[1];
        col.quant = parts[2].empty() ? s.quant : parts[2];
        col.model = app.catalog.find_model(col.model_id);
        col.hardware = llmsim::resolve_device(app.catalog, col.hardware_id);
        if (!col.model) col.error = "unknown model '" + col.model_id + "'";
        else if (!col.hardware) col.error = "unknown hardware '" + col.hardware_id + "'";
        else if (!app.catalog.find_file_type(col.quant)) col.error = "unknown quant '" + col.quant + "'";
        if (col.error.empty()) {
            llmsim::SimRequest r = base;
            r.memory.hardware = col.hardware;
            r.memory.file_type = col.quant;
            r.memory.n_gpu_layers = llmsim::kAllGpuLayers;
            r.memory.n_cpu_moe = 0;
            std::string e;
            if (!llmsim::evaluate(app.catalog, *col.model, r, col.eval, e)) col.error = e;
        }
        d.compare.push_back(col);
    }
}

}  // namespace

void update_derived(AppState& app) {
    Derived& d = app.derived;
    if (d.version == app.state_version) return;
    auto t0 = std::chrono::steady_clock::now();
    d = Derived();
    d.version = app.state_version;
    const Scenario& s = app.scenario;
    d.model = app.catalog.find_model(s.model);
    d.hardware = resolve_scenario_hardware(app);
    if (!d.model) { d.error = "unknown model '" + s.model + "' — pick one from the list or import a config.json"; return; }
    if (!llmsim::parse_tensor_type(s.kv_type)) { d.error = "unknown KV cache type '" + s.kv_type + "' (f16, bf16, q8_0, q4_0 ...)"; return; }
    std::string err;
    llmsim::count_params(*d.model, d.params, err);
    llmsim::SimRequest base = request_from_scenario(app);
    base.memory.with_notes = false;   // only the current scenario shows its notes

    // the current scenario, with what its explanations need (made by finish_derived: a hover or a click asks for one)
    llmsim::SimRequest current = base;
    current.with_explain = true;
    current.memory.with_notes = true;
    d.eval_ok = llmsim::evaluate(app.catalog, *d.model, current, d.eval, err);
    if (!d.eval_ok) d.error = err;

    auto hub = app.hub_tensor_bytes.find(s.model);
    d.quants = llmsim::quant_rows(app.catalog, *d.model, base, s.ctx_b_tokens,
                                  hub == app.hub_tensor_bytes.end() ? nullptr : &hub->second);
    if (d.hardware && !app.evidence_deferred)
        d.evidence = llmsim::find_evidence(app.catalog, *d.model, *d.hardware, s.quant, 8,
                                           app.contributed.rows.empty() ? nullptr : &app.contributed.rows);
    d.compute_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    d.rest_pending = true;
    if (!app.first_view_light) finish_derived(app);
}

void finish_derived(AppState& app) {
    Derived& d = app.derived;
    if (!d.rest_pending || !d.model || d.version != app.state_version) return;
    d.rest_pending = false;
    const auto t0 = std::chrono::steady_clock::now();
    llmsim::SimRequest base = request_from_scenario(app);   // as update_derived made it
    base.memory.with_notes = false;
    if (d.eval_ok) {
        llmsim::SimRequest current = base;
        current.with_explain = true;
        current.memory.with_notes = true;
        d.explanations = llmsim::explain(app.catalog, *d.model, current, d.eval);
    }
    d.devices = llmsim::device_rows(app.catalog, *d.model, base);
    d.context = llmsim::context_rows(app.catalog, *d.model, base);
    derive_recommend(app, d);
    derive_faq(app, d);
    derive_compare(app, base, d);
    d.compute_ms += std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

std::vector<std::string> missing_evidence_assets() {
    std::vector<std::string> out;
    for (const char* name : {"calibration/llamacpp_speed.jsonl", "calibration/llamacpp_speed_2025.jsonl",
                             "calibration/llamacpp_speed_collected.jsonl", "calibration/serving_accuracy.json"})
        if (llmsim::embedded_asset(name).empty()) out.push_back(name);
    return out;
}

std::string evidence_wait_text(const AppState& app) {
    if (!app.evidence_deferred) return "";
    return app.evidence_error.empty() ? "loading..." : app.evidence_error;
}

void load_deferred_evidence(AppState& app) {
    if (!app.evidence_deferred || !missing_evidence_assets().empty()) return;
    app.evidence_deferred = false;
    app.evidence_error.clear();
    update_derived(app);
    Derived& d = app.derived;   // the rows update_derived would have found (it stops early without a model)
    if (d.model && d.hardware && llmsim::parse_tensor_type(app.scenario.kv_type))
        d.evidence = llmsim::find_evidence(app.catalog, *d.model, *d.hardware, app.scenario.quant);
    update_accuracy_serving(app);   // the serving validation line and the accuracy section's report
    // the rows add a line to the simulator section: a link's scroll to a later section= is redone on that layout
    app.scroll_to_section = app.scroll_to_section || !app.scenario.section.empty();
    request_frames(app);
}

// the decode range (empty → full context) with its depths, as every speed in results() carries it
static void add_decode_range(nlohmann::json& j, const llmsim::SpeedView& sp) {
    if (!sp.ok) return;
    j["decode_empty_tps"] = sp.decode_empty_tps;
    j["decode_full_tps"] = sp.decode_full_tps;
    j["decode_depth"] = sp.decode_depth;
    j["decode_full_depth"] = sp.decode_full_depth;
}

std::string derived_to_json(const AppState& app) {
    using nlohmann::json;
    const Derived& d = app.derived;
    json j;
    j["error"] = d.error;
    j["import_message"] = app.import.message;
    j["evidence_loading"] = app.evidence_deferred;   // the web page: the measured rows have not arrived (yet)
    j["evidence_error"] = app.evidence_error;
    {   // "Is this your machine?" (panel_detect.cpp): what the platform revealed and what it matched
        const MachineOffer& o = app.machine;
        j["machine"] = {{"probed", o.probed}, {"source", o.source}, {"detected", o.match.detected},
                        {"match", o.match.hardware ? json(o.match.hardware->id) : json(nullptr)},
                        {"confidence", o.match.confidence}, {"gpu_hidden", o.match.gpu_hidden},
                        {"ask_memory", o.match.ask_memory}, {"reason", o.match.reason}, {"answered", o.answered}};
    }
    if (!d.model) return j.dump();
    const llmsim::SimRequest req = request_from_scenario(app);
    if (d.eval_ok) j["memory"] = llmsim::memory_to_json(*d.model, req.memory, d.eval.memory);
    const llmsim::SpeedView& sp = d.eval.speed;
    j["speed"] = sp.ok ? json{{"decode_tps", sp.decode_tps}, {"decode_low", sp.decode_low}, {"decode_high", sp.decode_high},
                              {"prefill_tps", sp.prefill_tps}, {"ttft_s", sp.ttft_s}, {"reply_s", sp.reply_s}}
                       : json{{"error", sp.error}};
    if (sp.ok) {   // the range a user lives through and the words every number is shown with (speed_labels.h)
        add_decode_range(j["speed"], sp);
        j["speed"]["decode_empty_low"] = sp.decode_empty_low;
        j["speed"]["decode_empty_high"] = sp.decode_empty_high;
        j["speed"]["decode_full_low"] = sp.decode_full_low;
        j["speed"]["decode_full_high"] = sp.decode_full_high;
        j["speed"]["prompt_tokens"] = sp.prompt_tokens;
        j["speed"]["flash_attn"] = sp.flash_attn;
        j["speed"]["decode_range_text"] = llmsim::decode_range_text(sp);
        j["speed"]["conditions"] = llmsim::speed_conditions(sp);
        j["speed"]["calibrated"] = sp.calibrated;
        j["llama_bench_command"] = llmsim::llama_bench_command(*d.model, req);
    }
    j["params"] = {{"total", d.params.total}, {"active", d.params.active}};
    json ex = json::array();
    for (const llmsim::Explanation& e : d.explanations)
        ex.push_back({{"key", e.key}, {"value", e.value}, {"text", e.text}, {"inputs", e.inputs}});
    j["explanations"] = ex;
    j["pinned_explanation"] = app.pinned_explanation;
    j["command"] = page_command(app);
    json lb = json::array();
    for (const DeviceRow& r : d.devices) {
        lb.push_back({{"hardware", r.hardware->id}, {"status", llmsim::to_string(r.eval.memory.status)},
                      {"total_bytes", r.eval.memory.total_bytes}, {"usable_bytes", r.eval.memory.usable_bytes},
                      {"max_context", r.eval.memory.max_context},
                      {"decode_tps", r.eval.speed.ok ? json(r.eval.speed.decode_tps) : json(nullptr)}});
        add_decode_range(lb.back(), r.eval.speed);
    }
    j["leaderboard"] = lb;
    json q = json::array();
    for (const QuantRow& r : d.quants)
        q.push_back({{"quant", r.file_type->name}, {"weights_bytes", r.weights_bytes}, {"total_a_bytes", r.total_a_bytes},
                     {"total_b_bytes", r.total_b_bytes}, {"bits_per_weight", r.bits_per_weight}});
    j["quants"] = q;
    json c = json::array();
    for (const ContextPoint& p : d.context)
        c.push_back({{"ctx", p.ctx_tokens}, {"kv_bytes", p.kv_bytes}, {"total_bytes", p.total_bytes},
                     {"status", llmsim::to_string(p.status)}, {"decode_tps", p.decode_tokens_per_s}});
    j["context"] = c;
    json cmp = json::array();
    for (const CompareColumn& col : d.compare) {
        cmp.push_back({{"model", col.model_id}, {"hardware", col.hardware_id}, {"quant", col.quant}, {"error", col.error},
                       {"status", llmsim::to_string(col.eval.memory.status)}, {"total_bytes", col.eval.memory.total_bytes},
                       {"decode_tps", col.eval.speed.ok ? json(col.eval.speed.decode_tps) : json(nullptr)}});
        add_decode_range(cmp.back(), col.eval.speed);
    }
    j["compare"] = cmp;
    j["compute_ms"] = d.compute_ms;
    j["my_runs"] = json::parse(my_runs_json(app));
    j["contributed"] = json::parse(contributed_json(app));
    json rec = json::array();
    for (const llmsim::Candidate& c : d.recommend.accepted) {
        rec.push_back({{"hardware", c.hardware.id}, {"price_usd", c.price_usd}, {"status", llmsim::to_string(c.eval.memory.status)},
                       {"decode_tps", c.eval.speed.ok ? json(c.eval.speed.decode_tps) : json(nullptr)},
                       {"decode_checked_tps", c.decode_checked_tps}, {"decode_checked_depth", c.decode_checked_depth},
                       {"ttft_s", c.eval.speed.ok ? json(c.eval.speed.ttft_s) : json(nullptr)}});
        add_decode_range(rec.back(), c.eval.speed);
    }
    j["recommend"] = rec;
    j["recommend_floor"] = {{"min_decode_tps", app.scenario.rec_min_tps}, {"max_ttft_s", app.scenario.rec_max_ttft_s},
                            {"max_price_usd", app.scenario.rec_max_price}};
    {   // the FAQ's "cheapest hardware that runs it" at the usable floor
        const llmsim::Candidate* c = llmsim::first_priced(d.cheapest_usable);
        j["cheapest_usable"] = c ? json{{"hardware", c->hardware.id}, {"price_usd", c->price_usd}, {"decode_checked_tps", c->decode_checked_tps},
                                        {"decode_checked_depth", c->decode_checked_depth},
                                        {"ttft_s", c->eval.speed.ok ? json(c->eval.speed.ttft_s) : json(nullptr)}}
                                 : json(nullptr);
    }
    {   // the cost section: hours capped at 730 per device, the devices the load needs, capacity (cost.h)
        const llmsim::CostInputs in = cost_inputs_from_scenario(app);
        const llmsim::CostResult r = llmsim::estimate_cost(in);
        j["cost"] = llmsim::cost_to_json(r);
        if (r.error.empty()) j["cost"]["explanation"] = llmsim::explain_cost(in, r);
        llmsim::CostInputs bin;   // the same usage at the box's batched throughput (panel_serving.h)
        if (cost_inputs_at_served_load(app, bin)) j["cost"]["batched"] = llmsim::cost_to_json(llmsim::estimate_cost(bin));
    }
    j["serving"] = json::parse(serving_to_json(app));
    j["spec"] = json::parse(spec_state_json(app));
    j["lora"] = json::parse(lora_state_json(app));
    j["train"] = json::parse(train_state_json(app));
    j["vision"] = json::parse(vision_state_json(app));
    j["audio"] = json::parse(audio_state_json(app));
    j["embed"] = json::parse(embed_state_json(app));
    j["best_models"] = json::parse(best_models_json(app));
    j["serving_search"] = json::parse(serving_search_to_json(app));
    j["accuracy"] = json::parse(accuracy_state_json(app));
    return j.dump();
}
