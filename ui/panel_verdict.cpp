// The verdict first, in words a person can repeat; then the headline numbers.
#include <imgui.h>

#include "core/format.h"
#include "panels.h"
#include "sim/speed_labels.h"
#include "widgets.h"

void draw_verdict(AppState& app) {
    const Derived& d = app.derived;
    if (!d.error.empty()) { ImGui::TextColored(ink_vec4(Ink::Bad), "%s", d.error.c_str()); return; }
    const llmsim::MemoryBreakdown& mb = d.eval.memory;
    const char* hw = d.hardware ? d.hardware->name.c_str() : "no device";
    ImGui::PushFont(app.font_bold);
    ImGui::TextColored(status_color(mb.status), "%s", llmsim::to_string(mb.status));
    ImGui::PopFont();
    ImGui::SameLine();
    std::string total = llmsim::format_gib((double)llmsim::limit_side_bytes(mb)), usable = llmsim::format_gib((double)mb.usable_bytes);
    switch (mb.status) {
    case llmsim::FitStatus::Comfortable:
    case llmsim::FitStatus::Tight:
        text_wrapped_words("%s %s on %s: %s of %s usable.", d.model->name.c_str(), status_words(mb.status), hw, total.c_str(), usable.c_str());
        break;
    case llmsim::FitStatus::TunableUma:
        text_wrapped_words("%s needs %s; macOS/driver default allows %s, the raised limit %s. Raise it: "
                           "sudo sysctl iogpu.wired_limit_mb=%lld", d.model->name.c_str(), total.c_str(), usable.c_str(),
                           llmsim::format_gib((double)mb.usable_raised_bytes).c_str(),
                           (long long)(mb.usable_raised_bytes / (1024 * 1024)));
        break;
    case llmsim::FitStatus::PartialOffload:
        text_wrapped_words("Runs with %d of %d layers on the GPU (-ngl %d); the rest run from system RAM, much slower.",
                           mb.gpu_layers, mb.n_layers, mb.gpu_layers);
        break;
    case llmsim::FitStatus::Oom:
        text_wrapped_words("Does not fit: needs %s, %s has %s usable.%s", total.c_str(), hw, usable.c_str(),
                           mb.fit_gpu_layers > 0 ? (" With -ngl " + std::to_string(mb.fit_gpu_layers) + " it would run partly on the CPU.").c_str() : "");
        break;
    default:
        text_wrapped_words("Needs %s. Pick a device to see whether it fits.", total.c_str());
    }
    const llmsim::SpeedView& sp = d.eval.speed;
    if (sp.ok) {
        // the decode range a chat lives through, then the prompt's numbers, each with its conditions (speed_labels.h)
        text_wrapped_words("Decode %s · TTFT %s s, %s tok/s (%s)", llmsim::decode_range_text(sp).c_str(),
                           llmsim::format_sig(sp.ttft_s).c_str(), llmsim::format_sig(sp.prefill_tps).c_str(),
                           llmsim::prefill_label(sp.prompt_tokens, sp.flash_attn).c_str());
        note_widget(app, "verdict-speed");
        if (!sp.calibrated.empty()) ImGui::TextColored(status_color(llmsim::FitStatus::Comfortable), "%s", sp.calibrated.c_str());
    } else if (!sp.error.empty()) {
        ImGui::TextDisabled("Speed: %s", sp.error.c_str());
    }
    if (mb.max_context >= 0)
        ImGui::Text("Max safe context: %s tokens%s", llmsim::format_tokens(mb.max_context).c_str(),
                    mb.max_context_extended ? " (beyond native, with RoPE extension)" : "");
}
