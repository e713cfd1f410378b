// Embeddings (llama-server --embedding / --reranking): an embedding or reranker model of engine/embed's table on
// the app's device: weights, compute buffer, total against the device's usable memory, tokens/s and documents/s
// for a batch of documents, and the llama-server command.
// [SECTION] request and compute
// [SECTION] explanations
// [SECTION] panel
// [SECTION] JSON
#include <imgui.h>

#include <algorithm>

#include <nlohmann/json.hpp>

#include "api/api_extras.h"
#include "core/format.h"
#include "memory/memory.h"
#include "panels.h"
#include "theme.h"
#include "widgets.h"

namespace {
void build_embed_explanations(EmbedState& st);
}  // namespace

// [SECTION] request and compute -------------------------------------------------------------------------------

void update_embed(AppState& app) {
    EmbedState& st = app.embed;
    if (!st.memo.inputs_moved(app.state_version, app.derived.version)) return;
    const Scenario& s = app.scenario;
    std::string hw, err;
    const bool ok = scenario_catalog_hardware(app, hw, err);
    std::string req;
    if (ok)
        req = nlohmann::json({{"model", s.em_model}, {"quant", s.em_quant}, {"batch", s.em_batch}, {"doc_tokens", s.em_doc},
                              {"hardware", hw}}).dump();
    const std::string key = ok ? req : "error:" + err;
    if (!st.memo.key_changed(key)) return;
    reset_section(st);
    st.request_json = req;
    if (!ok) { st.error = err; return; }
    llmsim::EmbedCall c;
    if (!llmsim::parse_embed_request(app.catalog, req, c, err) ||
        !llmsim::estimate_embedding(app.catalog, *c.model, c.req, st.estimate, err)) { st.error = err; return; }
    st.model = c.model;
    st.request = c.req;
    if (c.req.hardware) st.usable_bytes = llmsim::usable_gpu_bytes(*c.req.hardware, llmsim::MemoryRequest());
    build_embed_explanations(st);
}

// [SECTION] explanations --------------------------------------------------------------------------------------

namespace {

void build_embed_explanations(EmbedState& st) {
    const llmsim::EmbedEstimate& e = st.estimate;
    const llmsim::EmbeddingModel& m = *st.model;
    auto add = [&](const char* key, std::string value, std::string text, std::vector<std::string> inputs) {
        st.explanations.push_back({key, std::move(value), std::move(text), std::move(inputs)});
    };
    add("embed_weights", mib_text(e.weights_bytes),
        std::to_string(e.params) + " parameters in " + st.request.file_type + " (" + m.arch + ", " + std::to_string(m.n_layer) +
            " layers of width " + std::to_string(m.n_embd) + ")",
        {m.source});
    add("embed_compute", mib_text(e.compute_bytes),
        "one ubatch's graph at -ub " + std::to_string(e.n_ubatch) + " (the smallest llama-server accepts here: " +
            std::to_string(e.min_ubatch) + "); a document must fit in one ubatch",
        {"KV cache " + mib_text(e.kv_cache_bytes) + (m.causal ? " (decoder embedder)" : " (encoders keep none)"),
         "pooled outputs " + mib_text(e.output_bytes)});
    add("embed_total", mib_text(e.total_bytes),
        "weights + KV cache + compute buffer + pooled outputs" +
            (st.usable_bytes ? ", against " + mib_text(st.usable_bytes) + " usable on the device" : std::string()),
        {});
    if (e.speed_ok)
        add("embed_speed", llmsim::format_sig(e.docs_per_s) + " docs/s",
            std::to_string(st.request.batch_docs) + " documents x " + std::to_string(st.request.doc_tokens) + " tokens in " +
                llmsim::format_sig(e.batch_s * 1000) + " ms = " + llmsim::format_sig(e.tokens_per_s) + " tok/s",
            {"physics: the speed model's prefill rate, not validated for embedding models"});
}

// [SECTION] panel ---------------------------------------------------------------------------------------------

bool draw_embed_inputs(AppState& app) {
    Scenario& s = app.scenario;
    bool changed = false;
    ImGui::PushItemWidth(std::min(ImGui::GetContentRegionAvail().x * 0.55f, ImGui::GetFontSize() * 16));
    if (ImGui::BeginCombo("Model", s.em_model.c_str())) {
        int n = 0;
        const llmsim::EmbeddingModel* rows = llmsim::embedding_models(n);
        for (int i = 0; i < n; ++i) {
            const std::string label = std::string(rows[i].id) + " (" + rows[i].kind + ")";
            if (ImGui::Selectable(label.c_str(), s.em_model == rows[i].id)) { s.em_model = rows[i].id; changed = true; }
        }
        ImGui::EndCombo();
    }
    note_widget(app, "embed-model");
    static const char* const kTypes[] = {"F32", "F16", "BF16", "Q8_0"};
    if (ImGui::BeginCombo("Quant", s.em_quant.c_str())) {
        for (const char* t : kTypes) if (ImGui::Selectable(t, s.em_quant == t)) { s.em_quant = t; changed = true; }
        ImGui::EndCombo();
    }
    changed |= ImGui::SliderInt("Documents per batch", &s.em_batch, 1, 512, "%d", ImGuiSliderFlags_Logarithmic);
    note_widget(app, "embed-batch");
    int doc = (int)s.em_doc;
    if (ImGui::SliderInt("Tokens per document", &doc, 1, 32768, "%d", ImGuiSliderFlags_Logarithmic)) { s.em_doc = doc; changed = true; }
    ImGui::PopItemWidth();
    return changed;
}

void draw_embed_results(AppState& app, const EmbedState& st) {
    const llmsim::EmbedEstimate& e = st.estimate;
    if (ImGui::BeginTable("embed-table", 2, ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_SizingFixedFit)) {
        explained_row(app, "weights", mib_text(e.weights_bytes), "embed_weights");
        if (e.kv_cache_bytes > 0)   // decoder embedders keep a KV cache of -c tokens; encoders have none
            explained_row(app, ("KV cache (-c " + std::to_string(e.n_ctx) + ")").c_str(), mib_text(e.kv_cache_bytes), "embed_total");
        explained_row(app, "compute buffer", mib_text(e.compute_bytes), "embed_compute");
        if (e.output_bytes > 0) explained_row(app, "pooled outputs (f32)", mib_text(e.output_bytes), "embed_total");
        explained_row(app, "total / usable", mib_text(e.total_bytes) + " / " + (st.usable_bytes ? mib_text(st.usable_bytes) : std::string("-")), "embed_total");
        note_widget(app, "embed-total");
        if (e.speed_ok) {
            explained_row(app, "tokens/s", llmsim::format_sig(e.tokens_per_s), "embed_speed");
            explained_row(app, "documents/s", llmsim::format_sig(e.docs_per_s), "embed_speed");
            note_widget(app, "embed-speed");
        }
        ImGui::EndTable();
    }
    ImGui::PushTextWrapPos(0.0f);
    if (st.usable_bytes && e.total_bytes > st.usable_bytes) ImGui::TextColored(ink_vec4(Ink::Bad), "Does not fit: the total is above the device's usable memory.");
    for (const std::string& w : e.warnings) ImGui::TextColored(ink_vec4(Ink::Warn), "%s", w.c_str());
    ImGui::PopTextWrapPos();
    ImGui::PushFont(app.font_mono);
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextUnformatted(e.command.c_str());
    ImGui::PopTextWrapPos();
    ImGui::PopFont();
    copy_button(app, "Copy embedding command", e.command);
    note_widget(app, "embed-copy");
}

}  // namespace

void draw_embed(AppState& app) {
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextDisabled("An embedding or reranker model on the top bar's device (llama-server --embedding / --reranking). MiB = 2^20 bytes.");
    ImGui::PopTextWrapPos();
    update_embed(app);
    if (draw_embed_inputs(app)) { mark_changed(app); update_embed(app); }
    const EmbedState& st = app.embed;
    if (section_error(app, st.error, "embed-error")) return;
    draw_embed_results(app, st);
}

// [SECTION] JSON ----------------------------------------------------------------------------------------------

std::string embed_state_json(const AppState& app) {
    const EmbedState& st = app.embed;
    nlohmann::json j;
    j["request"] = st.request_json.empty() ? nlohmann::json() : nlohmann::json::parse(st.request_json);
    j["error"] = st.error;
    if (st.error.empty() && st.model) {
        j["result"] = llmsim::embed_to_json(*st.model, st.request, st.estimate);
        j["usable_bytes"] = st.usable_bytes ? nlohmann::json(st.usable_bytes) : nlohmann::json();
        nlohmann::json ex = nlohmann::json::array();
        for (const llmsim::Explanation& e : st.explanations) ex.push_back({{"key", e.key}, {"value", e.value}, {"text", e.text}, {"inputs", e.inputs}});
        j["explanations"] = ex;
    }
    return j.dump();
}
