// "Is this your machine? [Use it] [Pick another]": the GPU the browser (WebGPU adapter info, WebGL unmasked
// renderer) or the desktop (GL_RENDERER, SDL_GetSystemRAM) reveals, matched to the catalog by the engine
// (rig/detect.h). An offer only: nothing changes until the user presses "Use it". When the source hides the GPU
// ("Apple GPU", "WebKit WebGL", a software renderer) the panel says so and asks for the device and its memory.
#include <imgui.h>

#include <cstdio>

#include "core/format.h"
#include "panels.h"
#include "widgets.h"

void offer_machine(AppState& app, const llmsim::BrowserGpuInfo& info, const std::string& source) {
    MachineOffer& o = app.machine;
    o.probed = true;
    o.info = info;
    o.source = source;
    o.match = llmsim::match_browser_gpu(app.catalog, info);
    o.answered = false;
    o.message.clear();
    request_frames(app);
}

namespace {

void use_device(AppState& app, const llmsim::Hardware& h) {
    app.scenario.hardware = h.id;
    app.scenario.gpus = 0;
    app.machine.answered = true;
    mark_changed(app);
}

// the browser's own hints, in words: navigator.deviceMemory is capped at 8 (GiB) by the spec, so it is a floor
std::string hints(const MachineOffer& o) {
    std::string s;
    if (o.info.device_memory_gib > 0)
        s += "the browser reports " + std::string(o.info.device_memory_gib >= 8 ? "at least " : "") +
             llmsim::format_sig(o.info.device_memory_gib) + " GiB of RAM (browsers stop at 8)";
    if (o.info.hardware_concurrency > 0) s += std::string(s.empty() ? "" : ", ") + std::to_string(o.info.hardware_concurrency) + " CPU threads";
    return s;
}

}  // namespace

void draw_machine_offer(AppState& app) {
    MachineOffer& o = app.machine;
    if (!o.probed || o.answered) return;
    const llmsim::HardwareMatch& m = o.match;
    ImGui::PushID("machine-offer");
    ImGui::Separator();
    // plain wrapped lines (ImGui 1.86 has no auto-sizing child): the block is as tall as its text at any width
    if (m.hardware) {
        text_wrapped_words("Is this your machine? %s", m.hardware->name.c_str());
        ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
        text_wrapped_words("%s reports '%s' (match %.0f %%)%s%s", o.source.c_str(), m.detected.c_str(), m.confidence * 100,
                           hints(o).empty() ? "" : "; ", hints(o).c_str());
        ImGui::PopStyleColor();
    } else if (m.gpu_hidden) {
        text_wrapped_words("Your browser hides which GPU this is%s. Pick your device in the Hardware list, and its memory size.",
                           m.detected.empty() ? "" : (" (it reports '" + m.detected + "')").c_str());
        if (!hints(o).empty()) {
            ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
            text_wrapped_words("%s", hints(o).c_str());
            ImGui::PopStyleColor();
        }
    } else {
        text_wrapped_words("%s reports '%s': %s", o.source.c_str(), m.detected.c_str(), m.reason.c_str());
    }
    if (m.ask_memory && (m.hardware || !m.alternatives.empty())) {
        ImGui::SetNextItemWidth(ImGui::GetFontSize() * 7);
        ImGui::InputFloat("GiB (which size?)", &o.memory_gib, 0, 0, "%.0f");
        note_widget(app, "machine-offer-memory");
    }
    if (m.hardware) {
        if (ImGui::Button("Use it")) {
            if (m.ask_memory && o.memory_gib > 0) {   // the typed size picks among the sizes of the chip
                llmsim::BrowserGpuInfo sized = o.info;
                sized.memory_bytes = (uint64_t)((double)o.memory_gib * (double)llmsim::kGiB);
                const llmsim::HardwareMatch again = llmsim::match_browser_gpu(app.catalog, sized);
                if (again.hardware) use_device(app, *again.hardware);
                else o.message = again.reason;
            } else {
                use_device(app, *m.hardware);
            }
        }
        note_widget(app, "machine-offer-use");
        ImGui::SameLine();
    }
    if (ImGui::Button(m.hardware ? "Pick another" : "Close")) o.answered = true;
    note_widget(app, "machine-offer-other");
    if (!o.message.empty()) ImGui::TextColored(ink_vec4(Ink::Bad), "%s", o.message.c_str());
    ImGui::Separator();
    ImGui::PopID();
}
