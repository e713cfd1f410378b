// Vision (llama-server --mmproj): the projector of the top bar's model when it is a catalog VLM, the image tokens
// per image, the mmproj weights, clip's compute buffer, the share of the KV cache the images fill and the encode
// time per image (engine/vision).
// [SECTION] request and compute
// [SECTION] explanations
// [SECTION] panel
// [SECTION] JSON
#include <imgui.h>

#include <algorithm>

#include <nlohmann/json.hpp>

#include <imgui_stdlib.h>

#include "api/api_extras.h"
#include "core/format.h"
#include "import.h"
#include "panels.h"
#include "runtime/command.h"
#include "theme.h"
#include "widgets.h"

namespace {
void build_vision_explanations(VisionState& st);
}  // namespace

// [SECTION] request and compute -------------------------------------------------------------------------------

void update_vision(AppState& app) {
    VisionState& st = app.vision;
    if (!st.memo.inputs_moved(app.state_version, app.derived.version)) return;
    const Scenario& s = app.scenario;
    std::string hw, err;
    const bool ok = scenario_model_and_hardware(app, hw, err);
    std::string req;
    if (ok) {   // the panel sizes one image while none is sent (vi_images = 0: no --mmproj in the command)
        nlohmann::json j = {{"model", s.model}, {"images", std::max(1, s.vi_images)}, {"hardware", hw}, {"quant", s.quant},
                            {"ctx", s.ctx_tokens}};
        if (s.vi_w > 0) j["image_w"] = s.vi_w;
        if (s.vi_h > 0) j["image_h"] = s.vi_h;
        req = j.dump();
    }
    const VisionFile& file = app.vision_file;   // an opened mmproj replaces the table's encoder
    const std::string key = (ok ? req : "error:" + err) + (file.loaded ? "|mmproj " + std::to_string(file.version) : "");
    if (!st.memo.key_changed(key)) return;
    reset_section(st);
    st.request_json = req;
    if (!ok) { st.error = err; return; }
    llmsim::VisionCall c;
    llmsim::VisionEncoder enc;
    if (!llmsim::parse_vision_request(app.catalog, req, c, err)) { st.error = err; return; }
    if (file.loaded) enc = file.encoder;
    else if (!llmsim::vision_encoder_for_model(*c.model, enc, err)) { st.error = err; st.not_vlm = true; return; }
    if (!llmsim::estimate_vision(app.catalog, *c.model, enc, c.req, st.estimate, err)) { st.error = err; return; }
    st.model = c.model;
    st.request = c.req;
    st.command = llmsim::llama_server_command(app.catalog, *c.model, c.req.text) +
                 (file.loaded ? " --mmproj " + file.file_name : llmsim::vision_mmproj_flags(*c.model));
    build_vision_explanations(st);
}

std::string vision_command_flags(const AppState& app) {
    const VisionState& st = app.vision;
    // one --mmproj file holds the model's vision and/or audio towers (Qwen2.5-Omni's holds both)
    if (app.scenario.vi_images <= 0 || !st.error.empty() || !st.model) return audio_command_flags(app);
    if (app.vision_file.loaded) return " --mmproj " + app.vision_file.file_name;
    return llmsim::vision_mmproj_flags(*st.model);
}

bool load_vision_file(AppState& app, const llmsim::GgufInfo& info, const std::string& file_name) {
    VisionFile& f = app.vision_file;
    llmsim::VisionEncoder enc;
    std::string err;
    if (!llmsim::vision_encoder_from_gguf(info, enc, err)) {
        f.ok = false;
        f.message = file_name + " not used: " + err;
        return false;
    }
    f.loaded = f.ok = true;
    f.encoder = enc;
    f.file_name = file_name;
    f.tensor_bytes = info.tensor_data_bytes;
    ++f.version;
    f.message = "Read " + file_name + ": projector " + llmsim::projector_type_info(enc.projector).gguf_name + ", " +
                std::to_string(enc.n_layer) + " layers, weights " + mib_text(enc.weights_bytes) + " (" + enc.weights_types +
                "; header read: " + (info.data_offset < 1048576 ? std::to_string(info.data_offset) + " bytes"
                                                                 : llmsim::format_sig((double)info.data_offset / 1048576.0) + " MiB") + " of the file)";
    mark_changed(app);
    return true;
}

void clear_vision_file(AppState& app) {
    const uint64_t v = app.vision_file.version;
    app.vision_file = VisionFile();
    app.vision_file.version = v + 1;
    mark_changed(app);
}

// [SECTION] explanations --------------------------------------------------------------------------------------

namespace {

void build_vision_explanations(VisionState& st) {
    const llmsim::VisionEstimate& v = st.estimate;
    const llmsim::VisionEncoder& e = v.encoder;
    const llmsim::ProjectorTypeInfo& pt = llmsim::projector_type_info(e.projector);
    auto add = [&](const char* key, std::string value, std::string text, std::vector<std::string> inputs) {
        st.explanations.push_back({key, std::move(value), std::move(text), std::move(inputs)});
    };
    add("vision_tokens", std::to_string(v.plan.tokens) + " tokens",
        std::string("tokens one image becomes (") + pt.gguf_name + "): " + pt.token_rule + "; the image is encoded at " +
            std::to_string(v.plan.encoded_w) + "x" + std::to_string(v.plan.encoded_h) + " px in " + std::to_string(v.plan.tiles) + " tile(s)",
        {"input " + std::to_string(v.plan.input_w) + "x" + std::to_string(v.plan.input_h) + " px",
         "patch " + std::to_string(e.patch_size) + " px, merge " + std::to_string(e.n_merge)});
    add("vision_weights", mib_text(e.weights_bytes),
        "the mmproj file's tensors (" + e.weights_types + "): " + llmsim::format_sig(e.n_params / 1e6) + " M parameters, " +
            std::to_string(e.n_layer) + " encoder layers of width " + std::to_string(e.n_embd) + "; loaded on " + v.device,
        {e.source});
    add("vision_compute", mib_text(v.gpu_compute_bytes),
        "clip's compute buffer: the graph of its warm-up image (" + std::to_string(v.warmup_size_px) + " px), or of this image when "
        "larger; the host keeps " + mib_text(v.cpu_compute_bytes) + " for the f32 input image",
        {"the rule reproduces one published log (Gemma 3 4B), an estimate elsewhere"});
    add("vision_kv", mib_text(v.image_kv_bytes),
        std::to_string(st.request.images) + " image(s) x " + std::to_string(v.plan.tokens) + " tokens = " +
            std::to_string(v.image_tokens_total) + " of the " + std::to_string(v.n_ctx) + "-token context; the KV cache (" +
            mib_text(v.kv_cache_bytes) + ") is allocated at -c either way, the images fill this share of it",
        {});
    if (v.encode_ok)
        add("vision_encode", llmsim::format_sig(v.encode_s * 1000) + " ms",
            "one image: " + llmsim::format_sig(v.encode_gflop) + " GFLOP of encoder through the speed model's prefill rate",
            {"physics only: not checked against a measured encode time"});
}

// [SECTION] panel ---------------------------------------------------------------------------------------------

bool draw_vision_inputs(AppState& app) {
    Scenario& s = app.scenario;
    bool changed = false;
    ImGui::PushItemWidth(std::min(ImGui::GetContentRegionAvail().x * 0.55f, ImGui::GetFontSize() * 16));
    changed |= ImGui::SliderInt("Images per request", &s.vi_images, 0, 64, s.vi_images == 0 ? "none" : "%d");
    note_widget(app, "vision-images");
    changed |= ImGui::SliderInt("Image width (px)", &s.vi_w, 0, 4096, s.vi_w == 0 ? "native" : "%d");
    note_widget(app, "vision-w");
    changed |= ImGui::SliderInt("Image height (px)", &s.vi_h, 0, 4096, s.vi_h == 0 ? "native" : "%d");
    ImGui::PopItemWidth();
    return changed;
}

// the mmproj file: web, the browser's picker (read locally, header only: llmsim-page.js importFile); desktop, a
// typed path through import_path. Both end in import_gguf_prefix -> load_vision_file, as the Import section does.
void draw_mmproj_file(AppState& app) {
    VisionFile& f = app.vision_file;
    if (app.open_file_dialog) {
        if (ImGui::Button("Open mmproj .gguf…")) { f.expect_mmproj = true; app.open_file_dialog(); }
        note_widget(app, "vision-open-mmproj");
        text_disabled_after("read on this machine, header only; nothing is uploaded");
    } else {
        ImGui::SetNextItemWidth(std::min(ImGui::GetContentRegionAvail().x * 0.55f, ImGui::GetFontSize() * 18));
        ImGui::InputTextWithHint("##mmproj-path", "/path/to/mmproj.gguf", &f.path_text);
        ImGui::SameLine();
        if (ImGui::Button("Open mmproj")) {
            f.expect_mmproj = true;
            const uint64_t before = f.version;
            const std::string msg = f.message;
            // a path that cannot be opened never reaches the GGUF reader: its message is the Import section's
            if (!import_path(app, f.path_text) && f.version == before && f.message == msg) { f.ok = false; f.message = app.import.message; }
            f.expect_mmproj = false;
        }
        note_widget(app, "vision-open-mmproj");
    }
    if (f.loaded) {
        ImGui::TextDisabled("Sizing %s (its own tensor types).", f.file_name.c_str());
        same_line_if_fits(button_width("Use the built-in table"));   // phone width: the button on the next line
        if (ImGui::SmallButton("Use the built-in table")) clear_vision_file(app);
        note_widget(app, "vision-clear-mmproj");
    }
    if (!f.message.empty()) {
        ImGui::PushTextWrapPos(0.0f);
        ImGui::TextColored(ink_vec4(f.ok ? Ink::Good : Ink::Bad), "%s", f.message.c_str());
        ImGui::PopTextWrapPos();
        note_widget(app, "vision-mmproj-message");
    }
}

}  // namespace

void draw_vision(AppState& app) {
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextDisabled("Images and audio through the top bar's model's projector (llama-server --mmproj). MiB = 2^20 bytes.");
    ImGui::PopTextWrapPos();
    update_vision(app);
    if (draw_vision_inputs(app)) { mark_changed(app); update_vision(app); }
    draw_mmproj_file(app);
    update_vision(app);
    const VisionState& st = app.vision;
    if (!st.error.empty()) {
        ImGui::PushTextWrapPos(0.0f);
        if (st.not_vlm) ImGui::TextColored(ink_vec4(Ink::Warn), "%s is not a vision model (VLM): it takes no images.", app.scenario.model.c_str());
        if (st.not_vlm) ImGui::TextDisabled("%s", st.error.c_str());
        else ImGui::TextColored(ink_vec4(Ink::Bad), "%s", st.error.c_str());
        ImGui::PopTextWrapPos();
        note_widget(app, "vision-error");
        draw_audio_part(app);
        return;
    }
    const llmsim::VisionEstimate& v = st.estimate;
    if (ImGui::BeginTable("vision-table", 2, ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_SizingFixedFit)) {
        explained_row(app, "projector", llmsim::projector_type_info(v.encoder.projector).gguf_name, "vision_weights");
        explained_row(app, "tokens per image", std::to_string(v.plan.tokens), "vision_tokens");
        note_widget(app, "vision-tokens");
        explained_row(app, "mmproj weights", mib_text(v.encoder.weights_bytes), "vision_weights");
        explained_row(app, "compute buffer", mib_text(v.gpu_compute_bytes), "vision_compute");
        const double share = v.kv_cache_bytes ? 100.0 * (double)v.image_kv_bytes / (double)v.kv_cache_bytes : 0.0;
        explained_row(app, (std::to_string(st.request.images) + " image(s) in the KV cache").c_str(),
             mib_text(v.image_kv_bytes) + " (" + llmsim::format_sig(share) + " % of " + mib_text(v.kv_cache_bytes) + ")", "vision_kv");
        if (v.encode_ok) {
            explained_row(app, "encode time per image", llmsim::format_sig(v.encode_s * 1000) + " ms", "vision_encode");
            note_widget(app, "vision-encode");
        }
        ImGui::EndTable();
    }
    ImGui::PushTextWrapPos(0.0f);
    for (const std::string& w : v.warnings) ImGui::TextColored(ink_vec4(Ink::Warn), "%s", w.c_str());
    if (app.scenario.vi_images == 0) ImGui::TextDisabled("Sizes are for one image; --mmproj is not in the command until Images per request is 1 or more.");
    else if (app.vision_file.loaded) ImGui::TextDisabled("The command section adds --mmproj %s.", app.vision_file.file_name.c_str());
    else ImGui::TextDisabled("The command section adds --mmproj (the file name is the usual mmproj-<model>-f16.gguf).");
    ImGui::PopTextWrapPos();
    draw_audio_part(app);
}

// [SECTION] JSON ----------------------------------------------------------------------------------------------

std::string vision_state_json(const AppState& app) {
    const VisionState& st = app.vision;
    nlohmann::json j;
    j["request"] = st.request_json.empty() ? nlohmann::json() : nlohmann::json::parse(st.request_json);
    j["error"] = st.error;
    j["not_vlm"] = st.not_vlm;
    const VisionFile& f = app.vision_file;   // the opened mmproj (not part of the JS request: vision() takes no file)
    j["mmproj"] = {{"loaded", f.loaded}, {"file", f.file_name}, {"tensor_bytes", f.tensor_bytes}, {"message", f.message}, {"ok", f.ok}};
    if (st.error.empty() && st.model) {
        j["result"] = llmsim::vision_to_json(*st.model, st.request, st.estimate, st.command);
        nlohmann::json ex = nlohmann::json::array();
        for (const llmsim::Explanation& e : st.explanations) ex.push_back({{"key", e.key}, {"value", e.value}, {"text", e.text}, {"inputs", e.inputs}});
        j["explanations"] = ex;
        j["shown"] = {{"weights", mib_text(st.estimate.encoder.weights_bytes)}, {"compute", mib_text(st.estimate.gpu_compute_bytes)}};
    }
    return j.dump();
}
