// Interactive simulator: every knob of the scenario, the memory bar against the usable and physical limits,
// the speeds with their bands, and a roofline with the current prefill and decode points.
// [SECTION] controls
// [SECTION] memory bar
// [SECTION] speed tiles
// [SECTION] roofline
#include <imgui.h>

#include <algorithm>
#include <cmath>

#include "core/format.h"
#include "panels.h"
#include "plot.h"
#include "sim/speed_labels.h"
#include "widgets.h"
#include "rig/rig.h"
#include "rig/resolve_device.h"

#include <cstdio>

namespace {

// [SECTION] controls -------------------------------------------------------------------------------------

bool slider_pow2(const char* label, int64_t& value, int64_t lo, int64_t hi) {
    // context slides in powers of two (and accepts any typed value via ctrl+click)
    double v = std::log2((double)std::max<int64_t>(value, 1));
    float f = (float)v;
    std::string shown = llmsim::format_tokens(value) + " tokens";
    bool changed = ImGui::SliderFloat(label, &f, (float)std::log2((double)lo), (float)std::log2((double)hi), shown.c_str());
    if (changed) {
        int64_t nv = (int64_t)std::llround(std::pow(2.0, std::round(f)));
        if (nv != value) { value = nv; return true; }
    }
    return false;
}

// a typed rig id: several different GPUs, or hosts joined over the network (rig/rig.h grammar)
void draw_rig_controls(AppState& app, float w) {
    Scenario& s = app.scenario;
    ImGui::SetNextItemWidth(w);
    char buf[256];
    std::snprintf(buf, sizeof buf, "%s", app.rig_text.c_str());
    const bool enter = ImGui::InputTextWithHint("Rig (typed id)", "rtx-5080+rtx-5060-ti-16gb", buf, sizeof buf,
                                                ImGuiInputTextFlags_EnterReturnsTrue);
    app.rig_text = buf;
    note_widget(app, "rig-input");
    if (enter && !app.rig_text.empty()) {
        llmsim::Hardware probe;
        std::string err;
        if (llmsim::looks_like_rig(app.rig_text) && !llmsim::build_rig(app.catalog, app.rig_text, probe, err)) {
            app.rig_error = err;
        } else if (const llmsim::Hardware* h = llmsim::resolve_device(app.catalog, app.rig_text)) {
            s.hardware = h->id;
            s.gpus = 0;
            app.rig_error.clear();
            mark_changed(app);
        } else {
            app.rig_error = "unknown device '" + app.rig_text + "'";
        }
    }
    if (!app.rig_error.empty()) ImGui::TextColored(ink_vec4(Ink::Bad), "%s", app.rig_error.c_str());
    const llmsim::Hardware* hw = app.derived.hardware;
    if (!hw || hw->rig.size() < 2) return;
    bool changed = false;
    const char* modes[] = {"layer", "row", "none"};
    ImGui::SetNextItemWidth(w);
    if (ImGui::BeginCombo("Split mode (-sm)", s.split_mode.c_str())) {
        for (const char* m : modes)
            if (ImGui::Selectable(m, s.split_mode == m)) { s.split_mode = m; changed = true; }
        ImGui::EndCombo();
    }
    if (s.split_mode != "layer") {
        ImGui::SetNextItemWidth(w);
        changed |= ImGui::SliderInt("Main GPU (-mg)", &s.main_gpu, 0, (int)hw->rig.size() - 1);
    }
    if (changed) mark_changed(app);
}

// system RAM and its bandwidth: where offloaded layers and --n-cpu-moe experts are read from
bool draw_host_memory(AppState& app) {
    Scenario& s = app.scenario;
    const llmsim::Hardware* hw = app.derived.hardware;
    if (hw && hw->unified_memory()) return false;
    bool changed = false;
    float ram = (float)s.host_ram_gib, bw = (float)s.host_bw_gbs;
    const std::string ram_shown = s.host_ram_gib > 0 ? "%.0f GiB" : "catalog (" + llmsim::format_gib(hw ? (double)hw->system_ram_bytes : 0) + ")";
    if (ImGui::DragFloat("Host RAM (GiB)", &ram, 1.0f, 0.0f, 4096.0f, ram_shown.c_str())) { s.host_ram_gib = std::max(0.0f, ram); changed = true; }
    note_widget(app, "host-ram");
    const double cat_bw = hw && hw->system_ram_bandwidth_gbs > 0 ? hw->system_ram_bandwidth_gbs : llmsim::kDefaultHostRamGbs;
    const std::string bw_shown = s.host_bw_gbs > 0 ? "%.0f GB/s" : "default " + llmsim::format_sig(cat_bw) + " GB/s";
    if (ImGui::DragFloat("Host RAM bandwidth", &bw, 1.0f, 0.0f, 2000.0f, bw_shown.c_str())) { s.host_bw_gbs = std::max(0.0f, bw); changed = true; }
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("peak GB/s = MT/s x 8 bytes x channels: DDR5-6000 dual channel = 96 GB/s, DDR4-3200 dual = 51.2 GB/s");
    return changed;
}

void draw_controls(AppState& app) {
    Scenario& s = app.scenario;
    const Derived& d = app.derived;
    bool changed = false;
    // controls get what is left after the longest label, so labels are never cut at phone width
    const float label_w = ImGui::CalcTextSize("Experts on CPU (--n-cpu-moe)").x + ImGui::GetStyle().ItemInnerSpacing.x * 2;
    const float w = std::max(ImGui::GetFontSize() * 6, std::min(ImGui::GetContentRegionAvail().x - label_w, ImGui::GetFontSize() * 13));
    ImGui::PushItemWidth(w);
    // the device's name is long ("NVIDIA GeForce RTX 4090") and its label short: give it the rest of the row
    hardware_picker(app, "Hardware", std::max(w, ImGui::GetContentRegionAvail().x - ImGui::CalcTextSize("Hardware").x -
                                                  ImGui::GetStyle().ItemInnerSpacing.x * 2));
    if (s.hardware == "custom") {
        float bw = (float)s.custom_bw_gbs, tf = (float)s.custom_tflops, mem = (float)s.custom_mem_gib;
        if (ImGui::DragFloat("Bandwidth (GB/s)", &bw, 5.0f, 0.1f, 100000.0f, "%.0f", ImGuiSliderFlags_Logarithmic)) { s.custom_bw_gbs = bw; changed = true; }
        if (ImGui::DragFloat("FP16 tensor (TFLOPS)", &tf, 1.0f, 0.01f, 100000.0f, "%.1f", ImGuiSliderFlags_Logarithmic)) { s.custom_tflops = tf; changed = true; }
        if (ImGui::DragFloat("Memory per GPU (GiB)", &mem, 0.5f, 0.5f, 100000.0f, "%.1f", ImGuiSliderFlags_Logarithmic)) { s.custom_mem_gib = mem; changed = true; }
    }
    draw_machine_offer(app);   // under the picker it answers: "Is this your machine?"
    draw_rig_controls(app, w);
    changed |= draw_host_memory(app);
    if ((!d.hardware || !d.hardware->unified_memory()) && (!d.hardware || d.hardware->rig.empty())) {
        int gpus = s.gpus > 0 ? s.gpus : (d.hardware ? d.hardware->gpu_count : 1);
        if (ImGui::SliderInt("GPUs (layer split)", &gpus, 1, 8)) { s.gpus = gpus; changed = true; }
    }
    quant_picker(app, "Quantization", w);
    // bpw slider snapping to real file types, ordered by bits per weight
    {
        std::vector<std::pair<double, std::string>> by_bpw;
        for (const QuantRow& q : d.quants)
            if (q.error.empty() && q.file_type->name != "F32") by_bpw.push_back({q.bits_per_weight, q.file_type->name});
        std::sort(by_bpw.begin(), by_bpw.end());
        int idx = 0;
        for (size_t i = 0; i < by_bpw.size(); ++i) if (by_bpw[i].second == s.quant) idx = (int)i;
        if (!by_bpw.empty()) {
            std::string shown = llmsim::format_fixed(by_bpw[idx].first, 2) + " bpw (" + by_bpw[idx].second + ")";
            if (ImGui::SliderInt("Bits per weight", &idx, 0, (int)by_bpw.size() - 1, shown.c_str())) {
                s.quant = by_bpw[idx].second;
                changed = true;
            }
        }
    }
    int64_t max_ctx = d.model ? std::max(d.model->native_context, d.model->extended_context) : 131072;
    changed |= slider_pow2("Context (-c)", s.ctx_tokens, 512, std::max<int64_t>(max_ctx, 1024));
    const char* kv_types[] = {"f16", "bf16", "q8_0", "q5_1", "q5_0", "q4_1", "q4_0", "iq4_nl", "f32"};
    if (ImGui::BeginCombo("KV cache type", s.kv_type.c_str())) {
        for (const char* t : kv_types)
            if (ImGui::Selectable(t, s.kv_type == t)) { s.kv_type = t; changed = true; }
        ImGui::EndCombo();
    }
    changed |= ImGui::Checkbox("Flash attention (-fa)", &s.flash_attn);
    int n_layers = d.model ? d.model->n_layers : 1;
    // auto (-1): the placement the estimate chose, and the -ngl the command will carry (command_request)
    const int auto_ngl = d.eval_ok ? std::min(d.eval.memory.gpu_layers, n_layers + 1) : n_layers + 1;
    const int cmd_ngl = command_request(app).memory.n_gpu_layers;
    int ngl = s.gpu_layers < 0 ? auto_ngl : s.gpu_layers;
    std::string ngl_label = s.gpu_layers >= 0 ? ("%d of " + std::to_string(n_layers + 1))
                          : cmd_ngl >= 0 ? "auto: " + std::to_string(auto_ngl) + " (-ngl " + std::to_string(cmd_ngl) + ")"
                                         : "auto: all (-ngl 99)";
    if (ImGui::SliderInt("GPU layers (-ngl)", &ngl, 0, n_layers + 1, ngl_label.c_str())) {
        s.gpu_layers = ngl >= n_layers + 1 ? -1 : ngl;
        changed = true;
    }
    if (d.model && d.model->is_moe())
        changed |= ImGui::SliderInt("Experts on CPU (--n-cpu-moe)", &s.cpu_moe_layers, 0, n_layers);
    changed |= ImGui::SliderInt("Parallel sequences (-np)", &s.parallel, 1, 64);
    changed |= slider_pow2("Prompt length", s.prompt_tokens, 16, 1048576);
    ImGui::PopItemWidth();
    if (changed) mark_changed(app);
}

// [SECTION] memory bar -----------------------------------------------------------------------------------

void draw_memory_bar(AppState& app) {
    const llmsim::MemoryBreakdown& mb = app.derived.eval.memory;
    struct Part { const char* name; double bytes; Ink ink; const char* key; };
    uint64_t gpu_weights = 0, gpu_kv = 0, gpu_compute = 0, gpu_overhead = 0;
    for (const auto& dev : mb.devices) {
        if (dev.name == "host" && app.derived.hardware && !app.derived.hardware->unified_memory()) continue;
        gpu_weights += dev.weights_bytes; gpu_kv += dev.kv_cache_bytes; gpu_compute += dev.compute_bytes; gpu_overhead += dev.overhead_bytes;
    }
    const Part parts[] = {{"Weights", (double)gpu_weights, Ink::Weights, "weights"},
                          {"KV cache", (double)gpu_kv, Ink::KvCache, "kv_cache"},
                          {"Compute", (double)gpu_compute, Ink::Compute, "compute"},
                          {"Overhead", (double)gpu_overhead, Ink::Overhead, "overhead"}};
    double used = 0;
    for (const Part& p : parts) used += p.bytes;
    const llmsim::Hardware* hw = app.derived.hardware;
    double physical = hw ? (double)hw->memory_bytes * hw->gpu_count : 0;
    double usable = (double)mb.usable_bytes;
    double scale_max = std::max({used, physical, usable, 1.0}) * 1.02;
    ImDrawList* dl = ImGui::GetWindowDrawList();
    ImGui::Dummy(ImVec2(1, ImGui::GetFontSize()));   // room for the "physical" label above the bar
    ImVec2 p0 = ImGui::GetCursorScreenPos();
    float width = ImGui::GetContentRegionAvail().x, height = ImGui::GetFontSize() * 1.6f;
    ImGui::InvisibleButton("membar", ImVec2(width, height));
    bool hovered = ImGui::IsItemHovered();
    dl->AddRectFilled(p0, ImVec2(p0.x + width, p0.y + height), ImGui::GetColorU32(ImGuiCol_FrameBg), 3);
    float x = p0.x;
    for (const Part& p : parts) {
        float pw = (float)(p.bytes / scale_max) * width;
        dl->AddRectFilled(ImVec2(x, p0.y), ImVec2(x + pw, p0.y + height), ink_u32(p.ink));
        x += pw;
    }
    auto marker = [&](double bytes, const char* label, ImU32 col, bool right) {
        if (bytes <= 0) return;
        float mx = p0.x + (float)(bytes / scale_max) * width;
        dl->AddLine(ImVec2(mx, p0.y - 3), ImVec2(mx, p0.y + height + 3), col, 2.0f);
        // usable below the bar, physical above it, so the two never overlap
        float tx = std::min(mx - ImGui::CalcTextSize(label).x / 2, p0.x + width - ImGui::CalcTextSize(label).x);
        dl->AddText(ImVec2(std::max(p0.x, tx), right ? p0.y - ImGui::GetFontSize() - 3 : p0.y + height + 2), col, label);
    };
    marker(usable, "usable", ink_u32(Ink::Limit), false);
    marker(physical, "physical", ink_u32(Ink::Hard), true);
    ImGui::Dummy(ImVec2(1, ImGui::GetFontSize() * 1.1f));
    // legend, wrapping at narrow widths
    const float right_edge = ImGui::GetCursorScreenPos().x + ImGui::GetContentRegionAvail().x;
    bool first = true;
    for (const Part& p : parts) {
        std::string text = std::string(p.name) + " " + llmsim::format_gib(p.bytes);
        float item_w = 16 + ImGui::CalcTextSize(text.c_str()).x;
        if (!first) {
            ImGui::SameLine(0, 18);
            if (ImGui::GetCursorScreenPos().x + item_w > right_edge) ImGui::NewLine();
        }
        first = false;
        ImGui::ColorButton(p.name, ink_vec4(p.ink), ImGuiColorEditFlags_NoTooltip, ImVec2(10, 10));
        ImGui::SameLine();
        ImGui::TextUnformatted(text.c_str());
        explain_item(app, p.key);
    }
    ImGui::Text("Headroom %s", usable > 0 ? llmsim::format_gib(usable - used).c_str() : "—");
    ImGui::Text("Total %s", llmsim::format_gib(used).c_str());
    explain_item(app, "total");
    ImGui::SameLine(0, 0);
    ImGui::Text(" / %s usable", usable > 0 ? llmsim::format_gib(usable).c_str() : "—");
    explain_item(app, "usable");
    ImGui::SameLine(0, 0);
    ImGui::Text(" (%s physical)", physical > 0 ? llmsim::format_gib(physical).c_str() : "—");
    if (hovered) {
        ImGui::BeginTooltip();
        for (const auto& dev : mb.devices)
            ImGui::Text("%-6s weights %s · KV %s · compute %s · overhead %s = %s", dev.name.c_str(),
                        llmsim::format_gib((double)dev.weights_bytes).c_str(), llmsim::format_gib((double)dev.kv_cache_bytes).c_str(),
                        llmsim::format_gib((double)dev.compute_bytes).c_str(), llmsim::format_gib((double)dev.overhead_bytes).c_str(),
                        llmsim::format_gib((double)dev.total_bytes).c_str());
        for (const auto& n : mb.notes) ImGui::TextDisabled("%s", n.c_str());
        ImGui::EndTooltip();
    }
}

// [SECTION] speed tiles ----------------------------------------------------------------------------------

void tile(AppState& app, const char* title, const std::string& value, const std::string& unit, const std::string& sub,
          const std::string& sub2 = "", const std::string& sub3 = "") {
    ImGui::BeginGroup();
    ImGui::TextDisabled("%s", title);
    ImGui::PushFont(app.font_bold);
    ImGui::Text("%s", value.c_str());
    ImGui::PopFont();
    ImGui::SameLine();
    ImGui::TextUnformatted(unit.c_str());
    ImGui::TextDisabled("%s", sub.c_str());
    if (!sub2.empty()) ImGui::TextDisabled("%s", sub2.c_str());
    if (!sub3.empty()) ImGui::TextDisabled("%s", sub3.c_str());
    ImGui::EndGroup();
}

void draw_speed(AppState& app) {
    const Derived& d = app.derived;
    const llmsim::SpeedView& sp = d.eval.speed;
    const float col = ImGui::GetFontSize() * 11;
    const int per_row = std::max(1, (int)(ImGui::GetContentRegionAvail().x / col));   // tiles wrap at phone width
    int tile_index = 0;
    auto next_tile = [&] { ++tile_index; if (tile_index % per_row != 0) ImGui::SameLine(col * (tile_index % per_row)); };
    if (sp.ok) {
        // decode: the range a chat lives through (empty → full context); the band is the full-context one
        tile(app, "Decode", llmsim::format_sig(sp.decode_empty_tps) + " \u2192 " + llmsim::format_sig(sp.decode_full_tps), "tok/s",
             "empty \u2192 " + llmsim::context_words(sp.decode_full_depth),
             llmsim::format_sig(sp.decode_full_low) + "–" + llmsim::format_sig(sp.decode_full_high) + " band at full", std::string(llmsim::to_string(sp.decode_bound)) + "-bound");
        explain_item(app, "decode");
        next_tile();
        tile(app, "Prefill", llmsim::format_sig(sp.prefill_tps), "tok/s",
             llmsim::format_tokens(sp.prompt_tokens) + " prompt, FA " + (sp.flash_attn ? "on" : "off"),
             llmsim::format_sig(sp.prefill_low) + "–" + llmsim::format_sig(sp.prefill_high) + " band", std::string(llmsim::to_string(sp.prefill_bound)) + "-bound");
        explain_item(app, "prefill");
        next_tile();
        tile(app, "TTFT", llmsim::format_sig(sp.ttft_s), "s", "for " + llmsim::format_tokens(app.scenario.prompt_tokens) + " tokens");
        explain_item(app, "ttft");
        next_tile();
        tile(app, "Reply", llmsim::format_sig(sp.reply_s), "s", "prompt + " + std::to_string(app.scenario.gen_tokens) + " tokens");
        // the conditions of every number above, in the shared words, and the llama-bench run that measures them
        ImGui::PushTextWrapPos(0.0f);
        ImGui::TextDisabled("%s", llmsim::speed_conditions(sp).c_str());
        note_widget(app, "speed-conditions");
        ImGui::PopTextWrapPos();
        if (d.model) {
            const std::string bench = llmsim::llama_bench_command(*d.model, request_from_scenario(app));
            ImGui::TextDisabled("measure it:");
            ImGui::SameLine();
            ImGui::PushFont(app.font_mono);
            ImGui::PushTextWrapPos(0.0f);
            ImGui::TextUnformatted(bench.c_str());
            ImGui::PopTextWrapPos();
            ImGui::PopFont();
            copy_button(app, "Copy##bench", bench);
        }
        if (app.scenario.parallel > 1)
            ImGui::Text("%d parallel sequences: %s tok/s each, %s tok/s in total", app.scenario.parallel,
                        llmsim::format_sig(sp.per_user_tps).c_str(), llmsim::format_sig(sp.aggregate_tps).c_str());
    } else {
        ImGui::TextDisabled("Speed: %s", sp.error.empty() ? "—" : sp.error.c_str());
    }
    if (app.evidence_deferred) ImGui::TextDisabled("Measured on this device: %s", evidence_wait_text(app).c_str());
    if (!d.evidence.empty() && ImGui::TreeNode("evidence", "Measured on this device (%zu rows)", d.evidence.size())) {
        for (const llmsim::EvidenceRow& e : d.evidence) {
            const llmsim::CalibrationRow& r = *e.row;
            bool inside = r.measured_tokens_per_s >= e.low && r.measured_tokens_per_s <= e.high;
            ImGui::BulletText("%s%s %s %s: measured %s tok/s; we predict %s (%s–%s)%s", r.contributed ? "[contributed] " : "",
                              r.model.c_str(), r.quant.c_str(), e.test.c_str(),
                              llmsim::format_sig(r.measured_tokens_per_s).c_str(), llmsim::format_sig(e.predicted).c_str(),
                              llmsim::format_sig(e.low).c_str(), llmsim::format_sig(e.high).c_str(), inside ? "" : " — outside the band");
            if (ImGui::IsItemHovered()) ImGui::SetTooltip("source: %s", r.source.c_str());
        }
        ImGui::TreePop();
    }
    ImGui::Text("Active parameters: %sB of %sB total", llmsim::format_sig(d.params.active / 1e9).c_str(),
                llmsim::format_sig(d.params.total / 1e9).c_str());
}

// [SECTION] roofline -------------------------------------------------------------------------------------

void draw_roofline(AppState& app) {
    const llmsim::SpeedView& sp = app.derived.eval.speed;
    if (!sp.ok || sp.peak_flops <= 0 || sp.peak_bytes_per_s <= 0) return;
    PlotAxis x{"arithmetic intensity", "FLOP/byte", 0.1, 10000, true};
    PlotAxis y{"attainable", "TFLOP/s", 0, 0, true};
    const double peak_t = sp.peak_flops / 1e12, bw = sp.peak_bytes_per_s;
    y.min = std::max(1e-3, std::min({peak_t / 1e4, sp.decode_flops / 1e12 / 3, sp.prefill_flops / 1e12 / 3}));
    y.max = peak_t * 2;
    PlotSeries roof{"roof (spec)", {}, {}, ink_u32(Ink::Reference)};
    for (double ai = x.min; ai <= x.max * 1.001; ai *= 1.25) {
        roof.x.push_back(ai);
        roof.y.push_back(std::min(peak_t, ai * bw / 1e12));
    }
    PlotSeries dec{"decode", {sp.decode_intensity}, {sp.decode_flops / 1e12}, ink_u32(Ink::Good), true};
    PlotSeries pre{"prefill", {sp.prefill_intensity}, {sp.prefill_flops / 1e12}, ink_u32(Ink::Compute), true};
    draw_plot("roofline", ImVec2(-1, ImGui::GetFontSize() * 15), x, y, {roof, dec, pre},
              {{peak_t * 1e12 / bw, "ridge " + llmsim::format_sig(peak_t * 1e12 / bw) + " FLOP/B"}});
}

}  // namespace

void draw_simulator(AppState& app) {
    if (!app.derived.model) { ImGui::TextDisabled("Pick a model first."); return; }
    const bool wide = ImGui::GetContentRegionAvail().x > ImGui::GetFontSize() * 45;
    if (wide) {
        ImGui::BeginTable("sim", 2, ImGuiTableFlags_SizingStretchProp);
        ImGui::TableSetupColumn("controls", ImGuiTableColumnFlags_WidthFixed, ImGui::GetFontSize() * 23);
        ImGui::TableSetupColumn("results", ImGuiTableColumnFlags_WidthStretch);
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
    }
    draw_controls(app);
    if (wide) ImGui::TableNextColumn();
    status_badge(app.derived.eval.memory.status);
    draw_memory_bar(app);
    ImGui::Spacing();
    draw_speed(app);
    draw_roofline(app);
    if (wide) ImGui::EndTable();
}
