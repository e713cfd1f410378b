// The audio part of the Vision & audio section (panel_audio.h): seconds of audio per request through the top bar's
// model's audio projector (engine/audio).
// [SECTION] request and compute
// [SECTION] explanations
// [SECTION] panel
// [SECTION] JSON
#include <imgui.h>

#include <algorithm>

#include <nlohmann/json.hpp>

#include "api/api_extras.h"
#include "core/format.h"
#include "panels.h"
#include "runtime/command.h"
#include "theme.h"
#include "widgets.h"

namespace {
void build_audio_explanations(AudioState& st);
}  // namespace

// [SECTION] request and compute -------------------------------------------------------------------------------

void update_audio(AppState& app) {
    AudioState& st = app.audio;
    if (!st.memo.inputs_moved(app.state_version, app.derived.version)) return;
    const Scenario& s = app.scenario;
    std::string hw, err;
    const bool ok = scenario_model_and_hardware(app, hw, err);
    std::string req;
    if (ok) {   // the part sizes one 30 s clip while no audio is sent (au_s = 0: no --mmproj for audio)
        nlohmann::json j = {{"model", s.model}, {"seconds", s.au_s > 0 ? s.au_s : 30}, {"clips", 1}, {"hardware", hw},
                            {"quant", s.quant}, {"ctx", s.ctx_tokens}};
        req = j.dump();
    }
    const std::string key = ok ? req : "error:" + err;
    if (!st.memo.key_changed(key)) return;
    reset_section(st);
    st.request_json = req;
    if (!ok) { st.error = err; return; }
    llmsim::AudioCall c;
    llmsim::AudioEncoder enc;
    if (!llmsim::parse_audio_request(app.catalog, req, c, err)) { st.error = err; return; }
    if (!llmsim::audio_encoder_for_model(*c.model, enc, err)) { st.error = err; st.no_audio = true; return; }
    if (!llmsim::estimate_audio(app.catalog, *c.model, enc, c.req, st.estimate, err)) { st.error = err; return; }
    st.model = c.model;
    st.request = c.req;
    st.command = llmsim::llama_server_command(app.catalog, *c.model, c.req.text) + " --mmproj " + enc.mmproj_file;
    build_audio_explanations(st);
}

std::string audio_command_flags(const AppState& app) {
    const AudioState& st = app.audio;
    if (app.scenario.au_s <= 0 || !st.error.empty() || !st.model) return "";
    return " --mmproj " + st.estimate.encoder.mmproj_file;
}

// [SECTION] explanations --------------------------------------------------------------------------------------

namespace {

void build_audio_explanations(AudioState& st) {
    const llmsim::AudioEstimate& a = st.estimate;
    const llmsim::AudioEncoder& e = a.encoder;
    const llmsim::AudioProjectorInfo& pt = llmsim::audio_projector_info(e.projector);
    auto add = [&](const char* key, std::string value, std::string text, std::vector<std::string> inputs) {
        st.explanations.push_back({key, std::move(value), std::move(text), std::move(inputs)});
    };
    add("audio_tokens", std::to_string(a.plan.tokens) + " tokens",
        llmsim::format_sig(a.plan.seconds) + " s at 16 kHz = " + std::to_string(a.plan.mel_frames) + " mel frames (100 per second, "
        "padded to 31 s + 30 s of silence) = " + std::to_string(a.plan.chunks) + " chunk(s) of " + std::to_string(a.plan.frames_per_chunk) +
        " frames, " + std::to_string(a.plan.tokens_per_chunk) + " tokens each (" + pt.gguf_name + ": " + pt.token_rule + "); " +
        llmsim::format_sig(a.plan.tokens_per_s) + " tokens per second of audio",
        {"mtmd-audio.cpp (whisper preprocessor) and clip_n_output_tokens at llama.cpp 0024aa74"});
    add("audio_weights", mib_text(e.weights_bytes),
        "the mmproj file's tensors (" + e.weights_types + "): " + llmsim::format_sig(e.n_params / 1e6) + " M parameters, " +
            std::to_string(e.n_layer) + " audio encoder layers of width " + std::to_string(e.n_embd) + "; loaded on " + a.device,
        {e.source});
    add("audio_compute", mib_text(a.gpu_compute_bytes + a.vision_compute_bytes),
        "clip's compute buffer for the audio encoder: the graph of one 3000-frame chunk (its warm-up; every chunk has that size) = " +
            mib_text(a.gpu_compute_bytes) + (a.vision_compute_bytes ? ", + the same file's vision tower warm-up " + mib_text(a.vision_compute_bytes) : "") +
            "; the host keeps " + mib_text(a.cpu_compute_bytes) + " for the f32 mel",
        {"estimate: the vision transformer rule over 1500 positions; no audio load log checked"});
    add("audio_kv", mib_text(a.audio_kv_bytes),
        std::to_string(a.audio_tokens_total) + " audio tokens of the " + std::to_string(a.n_ctx) + "-token context; the KV cache (" +
            mib_text(a.kv_cache_bytes) + ") is allocated at -c either way, the audio fills this share of it",
        {});
    if (a.encode_ok)
        add("audio_encode", llmsim::format_sig(a.encode_s * 1000) + " ms",
            "the clip's " + std::to_string(a.plan.chunks) + " chunk(s): " + llmsim::format_sig(a.encode_gflop) +
                " GFLOP of encoder through the speed model's prefill rate",
            {"physics only: not checked against a measured encode time"});
}

}  // namespace

// [SECTION] panel ---------------------------------------------------------------------------------------------

void draw_audio_part(AppState& app) {
    ImGui::Separator();
    ImGui::PushItemWidth(std::min(ImGui::GetContentRegionAvail().x * 0.55f, ImGui::GetFontSize() * 16));
    const bool changed = ImGui::SliderInt("Audio per request (s)", &app.scenario.au_s, 0, 3600, app.scenario.au_s == 0 ? "none" : "%d s");
    note_widget(app, "audio-seconds");
    ImGui::PopItemWidth();
    if (changed) { mark_changed(app); }
    update_audio(app);
    const AudioState& st = app.audio;
    ImGui::PushTextWrapPos(0.0f);
    if (!st.error.empty()) {
        if (st.no_audio) ImGui::TextDisabled("%s takes no audio: %s", app.scenario.model.c_str(), st.error.c_str());
        else ImGui::TextColored(ink_vec4(Ink::Bad), "%s", st.error.c_str());
        ImGui::PopTextWrapPos();
        note_widget(app, "audio-error");
        return;
    }
    ImGui::PopTextWrapPos();
    const llmsim::AudioEstimate& a = st.estimate;
    if (ImGui::BeginTable("audio-table", 2, ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_SizingFixedFit)) {
        explained_row(app, "audio projector", llmsim::audio_projector_info(a.encoder.projector).gguf_name, "audio_weights");
        explained_row(app, (llmsim::format_sig(a.plan.seconds) + " s of audio").c_str(),
                      std::to_string(a.plan.tokens) + " tokens (" + std::to_string(a.plan.chunks) + " chunks of 30 s)", "audio_tokens");
        note_widget(app, "audio-tokens");
        explained_row(app, a.encoder.vision_tower_bytes ? "mmproj file (audio + vision)" : "audio mmproj weights",
                      mib_text(a.encoder.weights_bytes), "audio_weights");
        explained_row(app, "audio compute buffer", mib_text(a.gpu_compute_bytes + a.vision_compute_bytes), "audio_compute");
        const double share = a.kv_cache_bytes ? 100.0 * (double)a.audio_kv_bytes / (double)a.kv_cache_bytes : 0.0;
        explained_row(app, "audio in the KV cache",
                      mib_text(a.audio_kv_bytes) + " (" + llmsim::format_sig(share) + " % of " + mib_text(a.kv_cache_bytes) + ")", "audio_kv");
        if (a.encode_ok) explained_row(app, "audio encode time", llmsim::format_sig(a.encode_s * 1000) + " ms", "audio_encode");
        ImGui::EndTable();
    }
    ImGui::PushTextWrapPos(0.0f);
    for (const std::string& w : a.warnings) ImGui::TextColored(ink_vec4(Ink::Warn), "%s", w.c_str());
    if (app.scenario.au_s == 0) ImGui::TextDisabled("Sizes are for one 30 s clip; --mmproj is not added for audio until Seconds of audio is 1 or more.");
    ImGui::PopTextWrapPos();
}

// [SECTION] JSON ----------------------------------------------------------------------------------------------

std::string audio_state_json(const AppState& app) {
    const AudioState& st = app.audio;
    nlohmann::json j;
    j["request"] = st.request_json.empty() ? nlohmann::json() : nlohmann::json::parse(st.request_json);
    j["error"] = st.error;
    j["no_audio"] = st.no_audio;
    if (st.error.empty() && st.model) {
        j["result"] = llmsim::audio_to_json(*st.model, st.request, st.estimate, st.command);
        nlohmann::json ex = nlohmann::json::array();
        for (const llmsim::Explanation& e : st.explanations) ex.push_back({{"key", e.key}, {"value", e.value}, {"text", e.text}, {"inputs", e.inputs}});
        j["explanations"] = ex;
    }
    return j.dump();
}
