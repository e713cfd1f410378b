// Fine-tuning memory per GPU and tokens/s (full, LoRA, QLoRA; AdamW, 8-bit Adam, Adafactor; ZeRO 0-3; gradient
// checkpointing) for the scenario's model on the scenario's device (engine/train), with the breakdown as stacked
// bars against micro-batch or sequence length next to the GPU's usable memory.
// [SECTION] request and compute
// [SECTION] explanations
// [SECTION] inputs
// [SECTION] results
// [SECTION] JSON
#include <imgui.h>

#include <algorithm>
#include <cmath>

#include <nlohmann/json.hpp>

#include "api/api_extras.h"
#include "core/format.h"
#include "panels.h"
#include "theme.h"
#include "widgets.h"

namespace {
// the bars: powers of two from a quarter of the chosen value to four times it (the chosen value itself among them),
// so the chosen bar stays readable next to its neighbours
std::vector<int64_t> bar_values(int64_t chosen, int64_t lo, int64_t hi) {
    std::vector<int64_t> v;
    int64_t p = 1;
    while (p * 2 <= std::max<int64_t>(lo, chosen / 4)) p *= 2;
    for (; p <= std::min<int64_t>(hi, chosen * 4); p *= 2) if (p >= lo) v.push_back(p);
    if (std::find(v.begin(), v.end(), chosen) == v.end()) { v.push_back(chosen); std::sort(v.begin(), v.end()); }
    return v;
}

struct Part { const char* name; uint64_t llmsim::TrainMemory::*field; Ink ink; const char* key; };
const Part kParts[] = {
    {"weights", &llmsim::TrainMemory::weights_bytes, Ink::Weights, "train_weights"},
    {"gradients", &llmsim::TrainMemory::grads_bytes, Ink::Good, "train_grads"},
    {"optimizer", &llmsim::TrainMemory::optimizer_bytes, Ink::KvCache, "train_optimizer"},
    {"activations", &llmsim::TrainMemory::activations_bytes, Ink::Compute, "train_activations"},
    {"logits", &llmsim::TrainMemory::logits_bytes, Ink::Warn, "train_logits"},
    {"ZeRO-3 gather", &llmsim::TrainMemory::zero3_gather_bytes, Ink::Uma, "train_overheads"},
    {"DDP buckets", &llmsim::TrainMemory::ddp_bucket_bytes, Ink::Offload, "train_overheads"},
    {"CUDA context", &llmsim::TrainMemory::cuda_context_bytes, Ink::Overhead, "train_overheads"},
    {"fragmentation", &llmsim::TrainMemory::fragmentation_bytes, Ink::Unknown, "train_overheads"},
};

void build_train_explanations(TrainState& st);

std::string train_request_json(const AppState& app, const std::string& hw) {
    const Scenario& s = app.scenario;
    return nlohmann::json({{"model", s.model}, {"method", s.tr_method}, {"optimizer", s.tr_optimizer}, {"seq", s.tr_seq},
                           {"micro_batch", s.tr_micro_batch}, {"gpus", s.tr_gpus}, {"zero", s.tr_zero}, {"grad_ckpt", s.tr_grad_ckpt},
                           {"rank", s.tr_rank}, {"targets", s.tr_targets}, {"hardware", hw}, {"mfu", s.tr_mfu}}).dump();
}

}  // namespace

// [SECTION] request and compute -------------------------------------------------------------------------------

void update_train(AppState& app) {
    TrainState& st = app.train;
    if (!st.memo.inputs_moved(app.state_version, app.derived.version)) return;
    std::string hw, err;
    const bool ok = scenario_model_and_hardware(app, hw, err);
    const std::string req = ok ? train_request_json(app, hw) : "";
    const std::string key = (ok ? req : "error:" + err) + (st.bars_by_seq ? "|seq" : "|mb");
    if (!st.memo.key_changed(key)) return;
    const bool by_seq = st.bars_by_seq;
    reset_section(st);
    st.bars_by_seq = by_seq;
    st.request_json = req;
    if (!ok) { st.error = err; return; }
    llmsim::TrainCall c;
    if (!llmsim::parse_train_request(app.catalog, req, c, err) || !llmsim::estimate_training(*c.model, c.req, st.memory, err)) { st.error = err; return; }
    st.model = c.model;
    st.request = c.req;
    for (int64_t x : by_seq ? bar_values(c.req.seq, 128, 1 << 20) : bar_values(c.req.micro_batch, 1, 4096)) {
        llmsim::TrainRequest r = c.req;
        if (by_seq) r.seq = x; else r.micro_batch = (int)x;
        TrainBar b{x, {}};
        if (llmsim::estimate_training(*c.model, r, b.memory, err)) st.bars.push_back(std::move(b));
    }
    build_train_explanations(st);
}

// [SECTION] explanations --------------------------------------------------------------------------------------

namespace {

void build_train_explanations(TrainState& st) {
    const llmsim::TrainMemory& t = st.memory;
    const llmsim::TrainRequest& r = st.request;
    auto add = [&](const char* key, uint64_t bytes, std::string text, std::vector<std::string> inputs) {
        st.explanations.push_back({key, gib_text(bytes), std::move(text), std::move(inputs)});
    };
    const std::string shard = r.zero > 0 ? " / " + std::to_string(r.gpus) + " GPUs where ZeRO-" + std::to_string(r.zero) + " shards it" : "";
    add("train_weights", t.weights_bytes,
        std::string(r.method == llmsim::TrainMethod::Qlora ? "NF4 base (4.127 bits per parameter with double quantisation, QLoRA sec. 2-3) + bf16 "
                    "embeddings and norms" : "bf16 weights, 2 bytes per parameter") + (r.method != llmsim::TrainMethod::Full ? " + fp32 adapters" : "") + shard,
        {std::to_string(t.params) + " parameters, " + std::to_string(t.trainable_params) + " trainable",
         "adapters " + gib_text(t.adapter_bytes) + ", NF4 constants " + gib_text(t.quant_constant_bytes)});
    add("train_grads", t.grads_bytes, "gradients of the trainable parameters (bf16 for a full fine-tune, fp32 for adapters)" + shard,
        {"ZeRO stage 2 and 3 shard gradients (Rajbhandari et al. 2020, fig. 1)"});
    add("train_optimizer", t.optimizer_bytes,
        std::string("optimizer state: ") + llmsim::to_string(r.optimizer) + " (AdamW: fp32 master + m + v = 12 bytes per parameter; 8-bit Adam: "
        "1 + 1 byte + block absmax; Adafactor: factored second moment)" + shard,
        {"ZeRO stage 1+ shards it"});
    add("train_activations", t.activations_bytes,
        "activations kept for the backward: " + std::string(r.grad_ckpt ? "with checkpointing, the 2 s b h input of each decoder layer + one "
        "layer's full activations" : "every layer's activations") + " at seq " + std::to_string(r.seq) + " x micro-batch " +
            std::to_string(r.micro_batch) + " (Korthikanti et al. 2022 sec. 4.1, term by term on the model's widths)",
        {"one layer, one token, no checkpointing: " + std::to_string(t.activation_bytes_per_layer_token) + " bytes",
         "physics only: no published activation measurement was matched"});
    add("train_logits", t.logits_bytes, "bf16 logits + the fp32 upcast for the loss + its gradient: about 10 bytes x vocabulary per token (estimate)", {});
    add("train_overheads", t.cuda_context_bytes + t.fragmentation_bytes + t.zero3_gather_bytes + t.ddp_bucket_bytes,
        "CUDA context " + gib_text(t.cuda_context_bytes) + " (1343 MB measured in Hugging Face's model training anatomy) + caching-allocator "
        "fragmentation " + gib_text(t.fragmentation_bytes) + " (10 %, an estimate) + ZeRO-3 gather " + gib_text(t.zero3_gather_bytes) + " + DDP buckets " +
            gib_text(t.ddp_bucket_bytes), t.notes);
    add("train_total", t.total_bytes, "per GPU: the sum of the parts above" + std::string(t.usable_bytes ? ", against " + gib_text(t.usable_bytes) + " usable" : ""),
        {"validated on one measurement only: the QLoRA 7B base (5.443 GB against 5.44 GB reported); the rest is physics"});
    if (t.tokens_per_s > 0)
        st.explanations.push_back({"train_speed", llmsim::format_sig(t.tokens_per_s) + " tok/s",
            "tokens/s = GPUs x FP16 FLOP/s x utilisation / FLOPs per token = " + std::to_string(r.gpus) + " x peak x " + llmsim::format_sig(r.utilisation) +
                " / " + llmsim::format_sig(t.flops_per_token / 1e9) + " GFLOP (6 N + attention, PaLM appendix B; + a forward with checkpointing)",
            {"utilisation is an assumption (PaLM reports 46 % on TPU v4); physics only"}});
}

// [SECTION] inputs --------------------------------------------------------------------------------------------

bool combo(const char* label, std::string& v, std::initializer_list<const char*> items) {
    bool changed = false;
    if (ImGui::BeginCombo(label, v.c_str())) {
        for (const char* it : items) if (ImGui::Selectable(it, v == it)) { v = it; changed = true; }
        ImGui::EndCombo();
    }
    return changed;
}

bool draw_train_inputs(AppState& app) {
    Scenario& s = app.scenario;
    bool changed = false;
    ImGui::PushItemWidth(std::min(ImGui::GetContentRegionAvail().x * 0.55f, ImGui::GetFontSize() * 16));
    changed |= combo("Method", s.tr_method, {"full", "lora", "qlora"});
    note_widget(app, "train-method");
    changed |= combo("Optimizer", s.tr_optimizer, {"adamw", "adamw8bit", "adafactor"});
    int seq = (int)std::min<int64_t>(s.tr_seq, 1 << 20);
    if (ImGui::SliderInt("Sequence length (tokens)", &seq, 128, 131072, "%d", ImGuiSliderFlags_Logarithmic)) { s.tr_seq = seq; changed = true; }
    changed |= ImGui::SliderInt("Micro-batch (seqs / GPU)", &s.tr_micro_batch, 1, 64, "%d", ImGuiSliderFlags_Logarithmic);
    note_widget(app, "train-mb");
    changed |= ImGui::SliderInt("GPUs (data parallel)", &s.tr_gpus, 1, 64, "%d", ImGuiSliderFlags_Logarithmic);
    changed |= ImGui::SliderInt("ZeRO stage", &s.tr_zero, 0, 3);
    changed |= ImGui::Checkbox("Gradient checkpointing", &s.tr_grad_ckpt);
    note_widget(app, "train-ckpt");
    if (s.tr_method != "full") {
        changed |= ImGui::SliderInt("LoRA rank", &s.tr_rank, 1, 256, "%d", ImGuiSliderFlags_Logarithmic);
        changed |= combo("LoRA targets", s.tr_targets, {"all", "q,k,v,o", "q,v", "mlp"});
    }
    float mfu = (float)s.tr_mfu;
    if (ImGui::SliderFloat("MFU (assumed)", &mfu, 0.05f, 0.8f, "%.2f")) { s.tr_mfu = std::round(mfu * 100) / 100; changed = true; }
    ImGui::PopItemWidth();
    return changed;
}

// [SECTION] results -------------------------------------------------------------------------------------------

void draw_breakdown(AppState& app) {
    const llmsim::TrainMemory& t = app.train.memory;
    ImGui::PushFont(app.font_bold); ImGui::TextUnformatted("Memory per GPU (GiB = 2^30 bytes)"); ImGui::PopFont();
    if (!ImGui::BeginTable("train-mem", 2, ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_SizingFixedFit)) return;
    for (const Part& p : kParts) {
        if (t.*(p.field) == 0 && p.field != &llmsim::TrainMemory::grads_bytes) continue;
        ImGui::TableNextRow();
        ImGui::TableNextColumn(); ImGui::TextUnformatted(p.name);
        ImGui::TableNextColumn(); text_right(gib_text(t.*(p.field)).c_str()); explain_item(app, p.key);
    }
    ImGui::TableNextRow();
    ImGui::TableNextColumn(); ImGui::PushFont(app.font_bold); ImGui::TextUnformatted("total"); ImGui::PopFont();
    ImGui::TableNextColumn(); text_right((gib_text(t.total_bytes) + (t.usable_bytes ? " / " + gib_text(t.usable_bytes) : std::string(""))).c_str());
    explain_item(app, "train_total");
    note_widget(app, "train-total");
    if (t.tokens_per_s > 0) {
        ImGui::TableNextRow();
        ImGui::TableNextColumn(); ImGui::TextUnformatted("training speed (all GPUs)");
        ImGui::TableNextColumn(); text_right((llmsim::format_sig(t.tokens_per_s) + " tok/s").c_str()); explain_item(app, "train_speed");
        note_widget(app, "train-speed");
    }
    ImGui::EndTable();
    if (t.usable_bytes)
        ImGui::TextColored(t.fits ? ink_vec4(Ink::Good) : ink_vec4(Ink::Bad), "%s", t.fits ? "+ fits on each GPU" : "x does not fit on each GPU");
}

void draw_bars(AppState& app) {
    TrainState& st = app.train;
    ImGui::PushFont(app.font_bold); ImGui::TextUnformatted("Memory per GPU against"); ImGui::PopFont();
    same_line_if_fits(button_width("micro-batch") + ImGui::GetFrameHeight());
    if (ImGui::RadioButton("micro-batch", !st.bars_by_seq)) { st.bars_by_seq = false; st.memo.invalidate(); update_train(app); }
    same_line_if_fits(button_width("sequence length") + ImGui::GetFrameHeight());
    if (ImGui::RadioButton("sequence length", st.bars_by_seq)) { st.bars_by_seq = true; st.memo.invalidate(); update_train(app); }
    note_widget(app, "train-bars-axis");
    if (st.bars.empty()) return;
    double top = (double)st.memory.usable_bytes;
    for (const TrainBar& b : st.bars) top = std::max(top, (double)b.memory.total_bytes);
    top *= 1.08;
    const float fs = ImGui::GetFontSize(), w = ImGui::GetContentRegionAvail().x, h = fs * 12, axis_w = fs * 3.5f, label_h = fs * 1.4f;
    const ImVec2 p0 = ImGui::GetCursorScreenPos();
    ImGui::InvisibleButton("train-bars", ImVec2(w, h + label_h));
    note_widget(app, "train-bars");
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const ImU32 text = ImGui::GetColorU32(ImGuiCol_Text), grid = ImGui::GetColorU32(ImGuiCol_TextDisabled, 0.35f);
    auto ypix = [&](double bytes) { return p0.y + h - (float)(bytes / top) * h; };
    for (int i = 0; i <= 4; ++i) {   // GiB grid
        const double b = top * i / 4;
        dl->AddLine(ImVec2(p0.x + axis_w, ypix(b)), ImVec2(p0.x + w, ypix(b)), grid);
        dl->AddText(ImVec2(p0.x, ypix(b) - fs * 0.5f), text, (llmsim::format_sig(b / (double)llmsim::kGiB, 3) + " GiB").c_str());
    }
    const float slot = (w - axis_w) / st.bars.size(), bw = slot * 0.6f;
    int hovered = -1;
    for (size_t i = 0; i < st.bars.size(); ++i) {
        const TrainBar& b = st.bars[i];
        const float x0 = p0.x + axis_w + slot * i + (slot - bw) * 0.5f;
        double acc = 0;
        for (const Part& p : kParts) {
            const double v = (double)(b.memory.*(p.field));
            if (v <= 0) continue;
            dl->AddRectFilled(ImVec2(x0, ypix(acc + v)), ImVec2(x0 + bw, ypix(acc)), ink_u32(p.ink));
            acc += v;
        }
        const bool chosen = st.bars_by_seq ? b.x == st.request.seq : b.x == st.request.micro_batch;
        const std::string lab = st.bars_by_seq ? llmsim::format_tokens(b.x) : std::to_string(b.x);
        const ImVec2 ts = ImGui::CalcTextSize(lab.c_str());
        dl->AddText(ImVec2(x0 + (bw - ts.x) * 0.5f, p0.y + h + fs * 0.2f), text, lab.c_str());
        if (chosen) dl->AddRect(ImVec2(x0 - 2, ypix(acc) - 2), ImVec2(x0 + bw + 2, p0.y + h + 1), text, 0, 0, 1.5f);
        if (ImGui::IsItemHovered() && ImGui::GetIO().MousePos.x >= x0 - (slot - bw) * 0.5f && ImGui::GetIO().MousePos.x < x0 + bw + (slot - bw) * 0.5f) hovered = (int)i;
    }
    if (st.memory.usable_bytes) {
        const float y = ypix((double)st.memory.usable_bytes);
        dl->AddLine(ImVec2(p0.x + axis_w, y), ImVec2(p0.x + w, y), ink_u32(Ink::Hard), 2.0f);
        dl->AddText(ImVec2(p0.x + axis_w + 4, y - fs * 1.1f), ink_u32(Ink::Hard), ("usable " + gib_text(st.memory.usable_bytes)).c_str());
    }
    if (hovered >= 0) {
        const TrainBar& b = st.bars[hovered];
        ImGui::BeginTooltip();
        ImGui::Text("%s %lld: %s per GPU", st.bars_by_seq ? "sequence length" : "micro-batch", (long long)b.x, gib_text(b.memory.total_bytes).c_str());
        for (const Part& p : kParts) if (b.memory.*(p.field)) ImGui::Text("  %s %s", p.name, gib_text(b.memory.*(p.field)).c_str());
        ImGui::EndTooltip();
    }
    // legend, wrapping at phone width
    for (const Part& p : kParts) {
        const float item = fs * 1.2f + ImGui::CalcTextSize(p.name).x;
        same_line_if_fits(item);
        const ImVec2 q = ImGui::GetCursorScreenPos();
        dl->AddRectFilled(ImVec2(q.x, q.y + fs * 0.2f), ImVec2(q.x + fs * 0.8f, q.y + fs), ink_u32(p.ink));
        ImGui::Dummy(ImVec2(fs, fs));
        ImGui::SameLine(0, 2);
        ImGui::TextUnformatted(p.name);
    }
}

}  // namespace

void draw_train(AppState& app) {
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextDisabled("Fine-tuning the top bar's model on the top bar's device (PyTorch + Hugging Face Trainer / PEFT / bitsandbytes / DeepSpeed).");
    ImGui::PopTextWrapPos();
    update_train(app);
    if (draw_train_inputs(app)) { mark_changed(app); update_train(app); }
    const TrainState& st = app.train;
    if (section_error(app, st.error, "train-error")) return;
    draw_breakdown(app);
    draw_bars(app);
    for (const std::string& n : st.memory.notes) { ImGui::PushTextWrapPos(0.0f); ImGui::TextDisabled("note: %s", n.c_str()); ImGui::PopTextWrapPos(); }
}

// [SECTION] JSON ----------------------------------------------------------------------------------------------

std::string train_state_json(const AppState& app) {
    const TrainState& st = app.train;
    nlohmann::json j;
    j["request"] = st.request_json.empty() ? nlohmann::json() : nlohmann::json::parse(st.request_json);
    j["error"] = st.error;
    if (st.error.empty() && st.model) {
        j["result"] = llmsim::train_to_json(*st.model, st.request, st.memory);
        nlohmann::json bars = nlohmann::json::array();
        for (const TrainBar& b : st.bars) bars.push_back({{"x", b.x}, {"total_bytes", b.memory.total_bytes}, {"activations_bytes", b.memory.activations_bytes}});
        j["bars"] = {{"axis", st.bars_by_seq ? "seq" : "micro_batch"}, {"points", bars}};
        nlohmann::json ex = nlohmann::json::array();
        for (const llmsim::Explanation& e : st.explanations) ex.push_back({{"key", e.key}, {"value", e.value}, {"text", e.text}, {"inputs", e.inputs}});
        j["explanations"] = ex;
        j["shown"] = {{"total", gib_text(st.memory.total_bytes)}};
    }
    return j.dump();
}
