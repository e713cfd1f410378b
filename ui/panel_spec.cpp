// Speculative decoding (llama-server -md DRAFT --draft-max K, or the model's own MTP heads with --spec-type
// draft-mtp when it has them): memory of target + draft on the scenario's device,
// the expected decode speed-up at an acceptance rate the user sets, the break-even acceptance, and a plot of the
// speed-up against the acceptance. Numbers from engine/spec (not changed here), request parsed as the JS API does.
// [SECTION] request and compute
// [SECTION] explanations
// [SECTION] inputs
// [SECTION] results
// [SECTION] JSON
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include <nlohmann/json.hpp>

#include "api/api_extras.h"
#include "core/format.h"
#include "panels.h"
#include "plot.h"
#include "theme.h"
#include "runtime/command.h"
#include "widgets.h"
#include "rig/resolve_device.h"

namespace {
std::string spec_ms(double s) { return llmsim::format_sig(s * 1e3) + " ms"; }
double model_size(const llmsim::Model& m) {   // params when published, else a width x depth proxy
    return m.published_params_b > 0 ? m.published_params_b * 1e9 : (double)m.hidden_size * m.hidden_size * 12 * m.n_layers;
}
}  // namespace

// [SECTION] request and compute -------------------------------------------------------------------------------

bool scenario_catalog_hardware(const AppState& app, std::string& id, std::string& err) {
    const Scenario& s = app.scenario;
    if (!app.scenario_hardware_ok) { err = "no device: pick one in the top bar"; return false; }
    if (s.hardware == "custom" || s.gpus > 0 || !llmsim::resolve_device(app.catalog, s.hardware)) {
        err = "this section takes a catalog device (the CLI's and JS API's --hardware ID), not a custom device, N cards or a "
              "mixed rig: pick one in the top bar";
        return false;
    }
    id = s.hardware;
    return true;
}

bool scenario_model_and_hardware(const AppState& app, std::string& id, std::string& err) {
    if (!app.derived.model) { err = "no model: pick one in the top bar"; return false; }
    return scenario_catalog_hardware(app, id, err);
}

std::vector<const llmsim::Model*> spec_draft_candidates(const AppState& app, const llmsim::Model& target) {
    std::vector<const llmsim::Model*> out;
    for (const llmsim::Model& m : app.catalog.models)
        if (&m != &target && std::llabs(m.vocab_size - target.vocab_size) <= 128 && model_size(m) < model_size(target)) out.push_back(&m);
    std::stable_sort(out.begin(), out.end(), [](const llmsim::Model* a, const llmsim::Model* b) { return model_size(*a) < model_size(*b); });
    return out;
}

namespace {

std::string spec_request_json(const AppState& app, const std::string& hardware, const std::string& draft) {
    const Scenario& s = app.scenario;
    if (s.sp_mtp)   // the MTP request: no draft model, its flags do not apply
        return nlohmann::json{{"model", s.model}, {"mtp", true}, {"hardware", hardware}, {"quant", s.quant},
                              {"ctx", s.ctx_tokens}, {"parallel", s.parallel}, {"draft_max", s.sp_draft_max},
                              {"accept", s.sp_accept}}.dump();
    nlohmann::json j = {{"model", s.model}, {"draft", draft}, {"hardware", hardware}, {"quant", s.quant},
                        {"draft_quant", s.sp_draft_quant}, {"ctx", s.ctx_tokens}, {"parallel", s.parallel},
                        {"draft_max", s.sp_draft_max}, {"draft_min", s.sp_draft_min}, {"accept", s.sp_accept},
                        {"draft_ctx", s.sp_draft_ctx}, {"draft_ngl", s.sp_draft_ngl}};
    return j.dump();
}

void build_spec_explanations(SpecState& st);
void build_mtp_explanations(SpecState& st);

void fill_curve(SpecState& st) {
    // tokens/s = E(a, k) / round time, and the round (k draft steps + one verify step) does not depend on a
    for (int i = 0; i <= 40; ++i) {
        const double a = std::min(0.995, i / 40.0);
        st.curve.push_back({a, llmsim::expected_accepted_tokens(a, st.speed.k) / st.speed.round_s / st.speed.plain_tokens_per_s});
    }
}

// the MTP heads as the draft: the engine's MTP breakdown, shown in the same table as a draft model's
void compute_mtp(AppState& app, SpecState& st, const llmsim::SpecCall& call) {
    std::string err;
    if (!llmsim::estimate_mtp_memory(app.catalog, *call.target, call.req, st.mtp_memory, err)) { st.error = err; return; }
    const llmsim::MtpMemory& mm = st.mtp_memory;
    st.memory.target = mm.target;
    st.memory.devices = mm.devices;
    st.memory.total_bytes = mm.total_bytes;
    st.memory.draft_extra_bytes = mm.mtp_extra_bytes;
    st.memory.fits = mm.fits;
    st.memory.known_limit = mm.known_limit;
    st.has_speed = mm.support.runs;
    if (st.has_speed && !llmsim::estimate_mtp_speed(app.catalog, *call.target, call.req, st.speed, err)) { st.error = err; return; }
    st.command = llmsim::llama_server_command(app.catalog, *call.target, call.req.target) +
                 (st.has_speed ? llmsim::mtp_server_flags(call.req) : std::string());
    if (st.has_speed) fill_curve(st);
    build_mtp_explanations(st);
}

void compute(AppState& app, SpecState& st) {
    std::string err;
    llmsim::SpecCall call;
    if (!llmsim::parse_spec_request(app.catalog, st.request_json, call, err)) { st.error = err; return; }
    st.target = call.target;
    st.draft = call.draft;
    st.request = call.req;
    st.mtp = call.mtp;
    if (call.mtp) { compute_mtp(app, st, call); return; }
    if (!llmsim::estimate_spec_memory(app.catalog, *call.target, *call.draft, call.req, st.memory, err) ||
        !llmsim::estimate_spec_speed(app.catalog, *call.target, *call.draft, call.req, st.speed, err)) { st.error = err; return; }
    st.command = llmsim::llama_server_command(app.catalog, *call.target, call.req.target) + llmsim::spec_server_flags(*call.draft, call.req);
    fill_curve(st);
    build_spec_explanations(st);
}

}  // namespace

void update_spec(AppState& app) {
    SpecState& st = app.spec;
    if (!st.memo.inputs_moved(app.state_version, app.derived.version)) return;
    std::string hw, err, draft = app.scenario.sp_draft;
    const llmsim::Model* target = app.derived.model;
    bool ok = target && scenario_catalog_hardware(app, hw, err);
    if (!target) err = "no model: pick one in the top bar";
    if (ok && app.scenario.sp_mtp && target->nextn_layers <= 0) {
        ok = false;
        err = target->name + " has no MTP heads (no num_nextn_predict_layers): switch the draft back to a draft model";
    }
    if (app.scenario.sp_mtp) draft.clear();
    if (ok && !app.scenario.sp_mtp && draft.empty()) {   // no draft chosen: the smallest compatible one, as a suggestion
        const auto c = spec_draft_candidates(app, *target);
        if (c.empty()) { ok = false; err = "no catalog model shares " + target->name + "'s vocabulary (within 128 tokens): no draft to suggest"; }
        else draft = c.front()->id;
    }
    const std::string req = ok ? spec_request_json(app, hw, draft) : "";
    const std::string key = ok ? req : "error:" + err;
    if (!st.memo.key_changed(key)) return;
    reset_section(st);
    st.request_json = req;
    st.draft_id = draft;
    st.draft_suggested = app.scenario.sp_draft.empty() && !app.scenario.sp_mtp;
    if (!ok) { st.error = err; return; }
    compute(app, st);
}

std::string spec_command_flags(const AppState& app) {
    const SpecState& st = app.spec;
    if (app.scenario.sp_mtp) return st.error.empty() && st.mtp && st.has_speed ? llmsim::mtp_server_flags(st.request) : "";
    if (app.scenario.sp_draft.empty() || st.draft_suggested || !st.error.empty() || !st.draft) return "";
    return llmsim::spec_server_flags(*st.draft, st.request);
}

// [SECTION] explanations --------------------------------------------------------------------------------------

namespace {

void build_spec_explanations(SpecState& st) {
    const llmsim::SpecSpeed& sp = st.speed;
    const llmsim::SpecMemory& m = st.memory;
    auto add = [&](const char* key, std::string value, std::string text, std::vector<std::string> inputs) {
        st.explanations.push_back({key, std::move(value), std::move(text), std::move(inputs)});
    };
    add("spec_memory", gib_text(m.total_bytes),
        "total = target alone " + gib_text(m.target.total_bytes) + " + what the draft adds " + gib_text(m.draft_extra_bytes) +
            ": its weights, and one draft KV cache and compute buffer per slot (" + std::to_string(m.slots) + " slot(s), -np); the CUDA "
            "context is counted once (llama-server loads the draft in the same process: server_context::load_model)",
        {"draft context = " + std::to_string(m.draft_ctx) + " tokens (-cd, or the target's context per sequence when -cd is 0)",
         "draft weights = " + gib_text(m.draft.weights_bytes) + ", draft KV per slot = " + gib_text(m.draft.kv_cache_bytes),
         std::string("fits: ") + (m.fits ? "yes" : "no") + " (every GPU within its usable memory)"});
    add("spec_expected", llmsim::format_fixed(sp.expected_tokens, 2) + " tokens",
        "tokens per round E = (1 - a^(k+1)) / (1 - a) = (1 - " + llmsim::format_sig(sp.acceptance) + "^" + std::to_string(sp.k + 1) +
            ") / (1 - " + llmsim::format_sig(sp.acceptance) + ") (Leviathan et al. 2023, eq. 1): the accepted drafts plus the target's own token",
        {"a = " + llmsim::format_sig(sp.acceptance) + " per-token acceptance (your estimate; typical ranges below)",
         "k = " + std::to_string(sp.k) + " = --draft-max (llama.cpp also stops a draft early under --draft-p-min, not modelled)"});
    add("spec_round", spec_ms(sp.round_s),
        "round = k draft steps + one target step over k + 1 tokens = " + std::to_string(sp.k) + " x " + spec_ms(sp.draft_step_s) + " + " +
            spec_ms(sp.verify_step_s),
        {"draft step = the draft's calibrated decode step at this depth, plus host sampling of the drafted token",
         "verify step, up to 8 columns on llama.cpp's small-batch kernels (dense target; CUDA MMVQ for quantized weights, "
         "Metal mul_mv_ext / mul_mv) = the decode step with those kernels' weight passes and per-column dequant/dot work; "
         "otherwise the larger of the target's batched decode step and the prefill model's whole time for the k + 1 "
         "tokens (MoE: the experts all k + 1 tokens route to); plus host sampling at every verified position",
         "plain target step = " + spec_ms(sp.target_step_s)});
    add("spec_speed", llmsim::format_sig(sp.spec_tokens_per_s) + " tok/s",
        "speculative tok/s = E / round = " + llmsim::format_fixed(sp.expected_tokens, 2) + " / " + spec_ms(sp.round_s) + "; plain = 1 / target step = " +
            llmsim::format_sig(sp.plain_tokens_per_s) + " tok/s; speed-up x" + llmsim::format_fixed(sp.speedup, 2),
        {"against three llama.cpp measurements (RTX 3060 k = 5, M4 Pro k = 16, M1 Pro k = 3; the verify and sampling rules "
         "were set from them): +6.6 %, +5 %, -0.4 %; on CUDA a step over 2-8 tokens is 6-28 % under-priced and over 9-11 "
         "tokens far more (A100 llama-bench): read it as an upper bound"});
    add("spec_break_even", sp.break_even_acceptance <= 1 ? llmsim::format_fixed(sp.break_even_acceptance, 3) : std::string("never"),
        "break-even acceptance: the a at which E(a, k) = round / plain step = " + llmsim::format_sig(sp.round_s / sp.target_step_s) +
            "; below it the draft slows decoding down" + (sp.break_even_acceptance > 1 ? " (here even a = 1 is slower)" : ""),
        {"best k at this acceptance = " + std::to_string(sp.best_k) + " (x" + llmsim::format_fixed(sp.best_k_speedup, 2) + ")",
         "large -np batches and MoE targets (the verify step reads more experts) move it up"});
}

// the MTP mode's memory line and the same speed lines as a draft model's (the NextN block is the draft)
void build_mtp_explanations(SpecState& st) {
    const llmsim::MtpMemory& m = st.mtp_memory;
    std::vector<std::string> in = {
        "NextN weights = " + gib_text(m.nextn_weights_bytes) + ": the block(s) in the target's file and quant, loaded only "
        "with --spec-type draft-mtp (ggml-org/llama.cpp#26296)",
        "MTP KV = " + std::to_string(m.mtp_cells) + " cells x " + std::to_string(m.support.nextn_layers) + " NextN layer(s) = " +
            gib_text(m.mtp_kv_bytes) + " (-ctkd/-ctvd f16)",
        "MTP compute buffer = " + gib_text(m.mtp_compute_bytes) + " (reserved at the target's -ub, llama.cpp#22673)",
        m.support.message};
    if (m.mtp_kv_unfiltered_bytes != m.mtp_kv_bytes)
        in.push_back("a build before " + m.support.kv_filter_since + " caches every layer: " + gib_text(m.mtp_kv_unfiltered_bytes));
    st.explanations.push_back({"spec_memory", gib_text(m.total_bytes),
        "total = target alone " + gib_text(m.target.total_bytes) + " + what the MTP heads add " + gib_text(m.mtp_extra_bytes) +
            ": the NextN weights, and the MTP context's KV cache and compute buffer (a second context on the same model: "
            "no second copy of the weights, llama.cpp#22673)", in});
    if (!st.has_speed) return;
    build_spec_explanations(st);   // the speed lines; its memory line is replaced by the one above
    auto it = std::find_if(st.explanations.begin() + 1, st.explanations.end(),
                           [](const llmsim::Explanation& e) { return e.key == "spec_memory"; });
    if (it != st.explanations.end()) st.explanations.erase(it);
    for (llmsim::Explanation& e : st.explanations)
        if (e.key == "spec_speed") e.inputs = {llmsim::kMtpSpeedCaveat};
}

// [SECTION] inputs --------------------------------------------------------------------------------------------

bool draft_picker(AppState& app, float w) {
    Scenario& s = app.scenario;
    SpecState& st = app.spec;
    const llmsim::Model* chosen = st.draft_id.empty() ? nullptr : app.catalog.find_model(st.draft_id);
    std::string shown = chosen ? chosen->name : st.draft_id;
    if (st.draft_suggested) shown += " (suggested)";
    bool changed = false;
    ImGui::SetNextItemWidth(w);
    if (ImGui::BeginCombo("Draft model (-md)", shown.c_str())) {
        if (ImGui::Selectable("none (suggest one)", s.sp_draft.empty())) { s.sp_draft.clear(); changed = true; }
        if (app.derived.model)
            for (const llmsim::Model* m : spec_draft_candidates(app, *app.derived.model))
                if (ImGui::Selectable(m->name.c_str(), m->id == s.sp_draft)) { s.sp_draft = m->id; changed = true; }
        ImGui::EndCombo();
    }
    note_widget(app, "spec-draft");
    if (st.draft_suggested && !st.draft_id.empty()) {
        same_line_if_fits(button_width("Use it"));
        if (ImGui::SmallButton("Use it##spec")) { s.sp_draft = st.draft_id; changed = true; }
        note_widget(app, "spec-use-draft");
    }
    return changed;
}

// the MTP mode switch, shown when the model has MTP heads (or the mode is on); turning it on sets the lengths and
// acceptance llama.cpp#22673 reports (3 tokens, 0.75)
bool mtp_switch(AppState& app) {
    Scenario& s = app.scenario;
    const llmsim::Model* m = app.derived.model;
    if (!s.sp_mtp && !(m && m->nextn_layers > 0)) return false;
    bool on = s.sp_mtp != 0;
    if (!ImGui::Checkbox("Draft: the model's MTP heads (--spec-type draft-mtp)", &on)) { note_widget(app, "spec-mtp"); return false; }
    note_widget(app, "spec-mtp");
    s.sp_mtp = on ? 1 : 0;
    if (on) { s.sp_draft_max = 3; s.sp_accept = 0.75; }
    return true;
}

bool draw_mtp_inputs(AppState& app, float w) {
    Scenario& s = app.scenario;
    ImGui::PushItemWidth(w);
    bool changed = ImGui::SliderInt("--spec-draft-n-max (tokens)", &s.sp_draft_max, 1, 16);
    note_widget(app, "spec-k");
    float acc = (float)s.sp_accept;
    if (ImGui::SliderFloat("Acceptance rate", &acc, 0.0f, 0.99f, "%.2f")) { s.sp_accept = std::round(acc * 100) / 100; changed = true; }
    note_widget(app, "spec-accept");
    ImGui::PopItemWidth();
    return changed;
}

bool draw_spec_inputs(AppState& app) {
    Scenario& s = app.scenario;
    const float w = std::min(ImGui::GetContentRegionAvail().x * 0.55f, ImGui::GetFontSize() * 16);
    if (mtp_switch(app)) return true;
    if (s.sp_mtp) return draw_mtp_inputs(app, w);
    bool changed = draft_picker(app, w);
    ImGui::PushItemWidth(w);
    if (ImGui::BeginCombo("Draft file type", s.sp_draft_quant.c_str())) {
        for (const llmsim::FileType& f : app.catalog.file_types)
            if (f.gguf && ImGui::Selectable(f.name.c_str(), f.name == s.sp_draft_quant)) { s.sp_draft_quant = f.name; changed = true; }
        ImGui::EndCombo();
    }
    changed |= ImGui::SliderInt("--draft-max (tokens)", &s.sp_draft_max, 1, 32);
    note_widget(app, "spec-k");
    changed |= ImGui::SliderInt("--draft-min (tokens)", &s.sp_draft_min, 0, std::max(0, s.sp_draft_max));
    float acc = (float)s.sp_accept;
    if (ImGui::SliderFloat("Acceptance rate", &acc, 0.0f, 0.99f, "%.2f")) { s.sp_accept = std::round(acc * 100) / 100; changed = true; }
    note_widget(app, "spec-accept");
    int cd = (int)std::min<int64_t>(s.sp_draft_ctx, 10000000);
    ImGui::InputInt("-cd (0 = target's)", &cd, 0, 0);   // applied when the field is left, as the serving inputs
    if (ImGui::IsItemDeactivatedAfterEdit()) { s.sp_draft_ctx = std::clamp(cd, 0, 10000000); changed = true; }
    if (ImGui::SliderInt("-ngld (draft layers)", &s.sp_draft_ngl, -1, 200, s.sp_draft_ngl < 0 ? "all" : "%d")) changed = true;
    ImGui::PopItemWidth();
    return changed;
}

// [SECTION] results -------------------------------------------------------------------------------------------

// phone width: one column per device, one row per part (six columns do not fit)
void draw_memory_narrow(AppState& app) {
    const SpecState& st = app.spec;
    const int n = (int)st.memory.devices.size();
    if (n == 0 || !ImGui::BeginTable("spec-mem-narrow", n + 1, ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_SizingFixedFit)) return;
    ImGui::TableSetupColumn("");
    for (const llmsim::SpecDevice& d : st.memory.devices) ImGui::TableSetupColumn(d.name.c_str());
    table_header_row(app, "spec-mem-narrow", ("l" + std::string(n, 'r')).c_str());
    const char* names[] = {"target", st.mtp ? "NextN weights" : "draft weights", st.mtp ? "MTP KV" : "draft KV",
                           st.mtp ? "MTP compute" : "draft compute", "total", "usable"};
    for (int row = 0; row < 6; ++row) {
        ImGui::TableNextRow();
        ImGui::TableNextColumn(); ImGui::TextUnformatted(names[row]);
        for (const llmsim::SpecDevice& d : st.memory.devices) {
            const uint64_t v[] = {d.target_bytes, d.draft_weights_bytes, d.draft_kv_bytes, d.draft_compute_bytes, d.total_bytes, d.usable_bytes};
            ImGui::TableNextColumn();
            text_right(row == 5 && v[row] == 0 ? "-" : gib_text(v[row]).c_str());
            explain_item(app, "spec_memory");
        }
    }
    ImGui::EndTable();
}

void draw_memory(AppState& app) {
    const SpecState& st = app.spec;
    ImGui::PushFont(app.font_bold);
    ImGui::TextUnformatted(st.mtp ? "Memory of target + its MTP heads (GiB = 2^30 bytes)" : "Memory of target + draft (GiB = 2^30 bytes)");
    ImGui::PopFont();
    if (ImGui::GetContentRegionAvail().x < ImGui::GetFontSize() * 36) draw_memory_narrow(app);
    else if (ImGui::BeginTable("spec-mem", 6, ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_SizingFixedFit)) {
        ImGui::TableSetupColumn("device"); ImGui::TableSetupColumn("target");
        ImGui::TableSetupColumn(st.mtp ? "NextN weights" : "draft weights");
        ImGui::TableSetupColumn(st.mtp ? "MTP KV" : "draft KV"); ImGui::TableSetupColumn(st.mtp ? "MTP compute" : "draft compute");
        ImGui::TableSetupColumn("total / usable");
        table_header_row(app, "spec-mem", "lrrrrr");
        for (const llmsim::SpecDevice& d : st.memory.devices) {
            ImGui::TableNextRow();
            ImGui::TableNextColumn(); ImGui::TextUnformatted(d.name.c_str());
            for (uint64_t b : {d.target_bytes, d.draft_weights_bytes, d.draft_kv_bytes, d.draft_compute_bytes}) {
                ImGui::TableNextColumn(); text_right(gib_text(b).c_str()); explain_item(app, "spec_memory");
            }
            ImGui::TableNextColumn();
            text_right((gib_text(d.total_bytes) + (d.usable_bytes ? " / " + gib_text(d.usable_bytes) : std::string(""))).c_str());
            explain_item(app, "spec_memory");
        }
        ImGui::EndTable();
    }
    ImGui::TextColored(st.memory.fits ? ink_vec4(Ink::Good) : ink_vec4(Ink::Bad), "%s total %s, %s adds %s",
                       st.memory.fits ? "+ fits:" : "x does not fit:", gib_text(st.memory.total_bytes).c_str(),
                       st.mtp ? "MTP" : "the draft", gib_text(st.memory.draft_extra_bytes).c_str());
    explain_item(app, "spec_memory");
    note_widget(app, "spec-memory");
}

void draw_spec_speed(AppState& app) {
    const llmsim::SpecSpeed& sp = app.spec.speed;
    ImGui::PushFont(app.font_bold); ImGui::TextUnformatted("Decode speed per sequence"); ImGui::PopFont();
    if (!ImGui::BeginTable("spec-speed", 2, ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_SizingFixedFit)) return;
    explained_row(app, "tokens per round (E)", llmsim::format_fixed(sp.expected_tokens, 2), "spec_expected");
    explained_row(app, "round: k draft steps + verify", spec_ms(sp.round_s), "spec_round");
    explained_row(app, "plain decode", llmsim::format_sig(sp.plain_tokens_per_s) + " tok/s", "spec_speed");
    explained_row(app, "with the draft", llmsim::format_sig(sp.spec_tokens_per_s) + " tok/s", "spec_speed");
    note_widget(app, "spec-speed");
    explained_row(app, "speed-up", "x" + llmsim::format_fixed(sp.speedup, 2), "spec_speed");
    explained_row(app, "break-even acceptance", sp.break_even_acceptance <= 1 ? llmsim::format_fixed(sp.break_even_acceptance, 3) : "never (k = " + std::to_string(sp.k) + ")", "spec_break_even");
    note_widget(app, "spec-break-even");
    explained_row(app, "best k here", std::to_string(sp.best_k) + " (x" + llmsim::format_fixed(sp.best_k_speedup, 2) + ")", "spec_break_even");
    ImGui::EndTable();
}

void draw_curve(AppState& app) {
    const SpecState& st = app.spec;
    if (st.curve.empty()) return;
    PlotAxis x{"acceptance rate", "", 0, 1, false};
    x.format = [](double v) { return llmsim::format_fixed(v, 2); };
    double hi = 1.2;
    for (const SpecCurvePoint& p : st.curve) hi = std::max(hi, p.speedup * 1.1);
    PlotAxis y{"speed-up", "x plain decode", 0, hi, false};
    PlotSeries c{"speed-up at k = " + std::to_string(st.speed.k), {}, {}, ink_u32(Ink::Weights)};
    for (const SpecCurvePoint& p : st.curve) { c.x.push_back(p.acceptance); c.y.push_back(p.speedup); }
    std::vector<PlotSeries> series = {c, {"break-even (x1)", {0, 1}, {1, 1}, ink_u32(Ink::Hard)},
                                      {"chosen", {st.speed.acceptance}, {st.speed.speedup}, ink_u32(Ink::Limit), true}};
    std::vector<PlotVLine> lines = {{st.speed.acceptance, "a = " + llmsim::format_fixed(st.speed.acceptance, 2)}};
    if (st.speed.break_even_acceptance <= 1)
        lines.push_back({st.speed.break_even_acceptance, "pays off above " + llmsim::format_fixed(st.speed.break_even_acceptance, 2), ink_u32(Ink::Good)});
    draw_plot("spec-plot", ImVec2(-1, ImGui::GetFontSize() * 12), x, y, series, lines);
    note_widget(app, "spec-plot");
    int n = 0;
    const llmsim::AcceptanceRange* r = st.mtp ? llmsim::mtp_acceptance_ranges(n) : llmsim::acceptance_ranges(n);
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextDisabled(st.mtp ? "Reported MTP acceptance per drafted token (other models, not this one):"
                               : "Typical per-token acceptance (estimates, not measurements of this pair):");
    for (int i = 0; i < n; ++i) ImGui::TextDisabled("  %s: %.2f-%.2f (%s)", r[i].task, r[i].low, r[i].high, r[i].source);
    ImGui::PopTextWrapPos();
}

void wrapped_note(const char* text) {
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextDisabled("%s", text);
    ImGui::PopTextWrapPos();
}

}  // namespace

void draw_spec(AppState& app) {
    wrapped_note(app.scenario.sp_mtp
        ? "The model's own MTP (NextN) heads propose k tokens, the model checks them in one step (llama-server --spec-type "
          "draft-mtp). The verify step follows llama.cpp's small-batch kernels; the one MTP measurement guided that rule."
        : "A small draft model proposes k tokens, the target checks them in one step (llama-server -md). The verify step "
          "follows llama.cpp's small-batch kernels; on CUDA it is still under-priced, so read the speed-up as an upper bound.");
    update_spec(app);
    if (draw_spec_inputs(app)) { mark_changed(app); update_spec(app); }
    const SpecState& st = app.spec;
    if (section_error(app, st.error, "spec-error")) return;
    if (st.draft_suggested) text_disabled_after("Suggested draft: not in the command until you pick it (Use it).");
    if (st.mtp) wrapped_note(st.mtp_memory.support.message.c_str());
    draw_memory(app);
    if (st.mtp && !st.has_speed) { wrapped_note("No speed: llama.cpp cannot run these heads as a draft (memory only)."); return; }
    draw_spec_speed(app);
    if (st.mtp) wrapped_note(llmsim::kMtpSpeedCaveat);
    draw_curve(app);
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextDisabled("Target as `llmsim-cli spec` runs it: the top bar's quant, context and -np, f16 KV cache, every layer on the GPU; decode at depth %lld.",
                        (long long)st.request.depth);
    ImGui::PopTextWrapPos();
}

// [SECTION] JSON ----------------------------------------------------------------------------------------------

std::string spec_state_json(const AppState& app) {
    const SpecState& st = app.spec;
    nlohmann::json j;
    j["request"] = st.request_json.empty() ? nlohmann::json() : nlohmann::json::parse(st.request_json);
    j["error"] = st.error;
    j["draft_suggested"] = st.draft_suggested;
    if (st.error.empty() && st.target && (st.draft || st.mtp)) {
        j["result"] = st.mtp ? llmsim::mtp_to_json(*st.target, st.request, st.mtp_memory, st.has_speed ? &st.speed : nullptr, st.command)
                             : llmsim::spec_to_json(*st.target, *st.draft, st.request, st.memory, st.speed, st.command);
        nlohmann::json c = nlohmann::json::array();
        for (const SpecCurvePoint& p : st.curve) c.push_back({{"acceptance", p.acceptance}, {"speedup", p.speedup}});
        j["curve"] = c;
        nlohmann::json ex = nlohmann::json::array();
        for (const llmsim::Explanation& e : st.explanations) ex.push_back({{"key", e.key}, {"value", e.value}, {"text", e.text}, {"inputs", e.inputs}});
        j["explanations"] = ex;
        j["shown"] = {{"total", gib_text(st.memory.total_bytes)}, {"speedup", "x" + llmsim::format_fixed(st.speed.speedup, 2)},
                      {"spec_tok_s", llmsim::format_sig(st.speed.spec_tokens_per_s) + " tok/s"},
                      {"break_even", st.speed.break_even_acceptance <= 1 ? llmsim::format_fixed(st.speed.break_even_acceptance, 3) : "never"}};
    }
    return j.dump();
}
