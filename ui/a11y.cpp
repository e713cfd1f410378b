// The words a screen reader hears, the page title, the model's static page, and keyboard use like a web page (a11y.h).
#include "a11y.h"

#include <imgui.h>
#include <imgui_internal.h>   // SetFocusID / OpenPopupEx / NavDisableHighlight: ImGui 1.86 tabs only between text fields

#include <algorithm>

#include "core/format.h"
#include "sim/speed_labels.h"
#include "widgets.h"

std::string scenario_title(const AppState& app) {
    const Derived& d = app.derived;
    const std::string model = d.model ? d.model->name : app.scenario.model;
    const std::string hw = d.hardware ? d.hardware->name : app.scenario.hardware;
    return model + " " + app.scenario.quant + " on " + hw + " — llmsim";
}

std::string spoken_summary(const AppState& app) {
    const Derived& d = app.derived;
    if (!d.error.empty()) return d.error;
    if (!d.model || !d.eval_ok) return "";
    const llmsim::MemoryBreakdown& mb = d.eval.memory;
    const std::string hw = d.hardware ? d.hardware->name : "no device";
    std::string s = d.model->name + " " + app.scenario.quant + " at " + llmsim::format_tokens(app.scenario.ctx_tokens) + " context on " + hw +
                    ": " + status_words(mb.status) + " (" + llmsim::to_string(mb.status) + "). ";
    s += "Memory " + llmsim::format_gib((double)llmsim::limit_side_bytes(mb)) + " of " + llmsim::format_gib((double)mb.usable_bytes) +
         " usable; weights " + llmsim::format_gib((double)mb.weights_bytes) + ", KV cache " + llmsim::format_gib((double)mb.kv_cache_bytes) + ". ";
    if (mb.status == llmsim::FitStatus::PartialOffload)
        s += std::to_string(mb.gpu_layers) + " of " + std::to_string(mb.n_layers) + " layers on the GPU. ";
    const llmsim::SpeedView& sp = d.eval.speed;
    if (sp.ok) s += "Decode " + llmsim::decode_range_text(sp) + "; first token in " + llmsim::format_sig(sp.ttft_s) + " s for a " +
                    llmsim::format_tokens(sp.prompt_tokens) + " prompt.";
    else s += "No speed: " + sp.error + ".";
    return s;
}

std::string model_page_path(const AppState& app) {
    const llmsim::Model* m = app.catalog.find_model(app.scenario.model);
    if (!m || m->id.find('/') == std::string::npos || m->id.rfind("imported/", 0) == 0) return "";
    return "models/" + m->id + "/";
}

void top_bar_tab_stop(AppState& app, const char* label) { app.top_bar_tab_ids.push_back(ImGui::GetID(label)); }

void handle_top_bar_keys(AppState& app) {
    ImGuiContext& g = *GImGui;
    const ImGuiIO& io = ImGui::GetIO();
    const std::vector<unsigned int> ids = app.top_bar_tab_ids;
    app.top_bar_tab_ids.clear();
    if (ids.empty() || io.WantTextInput || ImGui::IsPopupOpen("", ImGuiPopupFlags_AnyPopupId)) return;   // a popup owns the keys
    if (!ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Tab)) || io.KeyCtrl) return;
    auto it = std::find(ids.begin(), ids.end(), g.NavId);
    size_t next = 0;
    if (it != ids.end() && !g.NavDisableHighlight) {
        const size_t cur = (size_t)(it - ids.begin());
        next = io.KeyShift ? (cur + ids.size() - 1) % ids.size() : (cur + 1) % ids.size();
    } else if (io.KeyShift) {
        next = ids.size() - 1;
    }
    ImGui::SetFocusID(ids[next], ImGui::GetCurrentWindow());
    g.NavDisableHighlight = false;   // focus visible: ImGui draws its nav rectangle around the control
    g.NavDisableMouseHover = true;
}

void open_popup_of_combo(const char* label) {   // BeginCombo's popup id (imgui_widgets.cpp 1.86: "##ComboPopup" seeded with the combo id)
    ImGui::OpenPopupEx(ImHashStr("##ComboPopup", 0, ImGui::GetID(label)));
}

void scroll_sections_with_keys(AppState& app) {
    ImGuiContext& g = *GImGui;
    const ImGuiIO& io = ImGui::GetIO();
    app.sections_scroll_y = ImGui::GetScrollY();
    app.sections_scroll_max_y = ImGui::GetScrollMaxY();
    if (io.WantTextInput || io.KeyCtrl || io.KeyAlt || ImGui::IsPopupOpen("", ImGuiPopupFlags_AnyPopupId)) return;
    auto pressed = [](ImGuiKey k) { return ImGui::IsKeyPressed(ImGui::GetKeyIndex(k)); };
    const float page = std::max(40.0f, ImGui::GetWindowHeight() - ImGui::GetFrameHeightWithSpacing() * 2);
    float y = app.sections_scroll_y;
    // Space scrolls like a page only while no control shows keyboard focus (then Space activates that control)
    const bool space = pressed(ImGuiKey_Space) && (g.NavDisableHighlight || g.NavId == 0);
    if (pressed(ImGuiKey_PageDown) || (space && !io.KeyShift)) y += page;
    else if (pressed(ImGuiKey_PageUp) || (space && io.KeyShift)) y -= page;
    else if (pressed(ImGuiKey_Home)) y = 0;
    else if (pressed(ImGuiKey_End)) y = app.sections_scroll_max_y;
    else return;
    ImGui::SetScrollY(std::clamp(y, 0.0f, app.sections_scroll_max_y));
    request_frames(app);
}
