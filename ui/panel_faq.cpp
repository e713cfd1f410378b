// FAQ: the seed page's questions, answered from the same numbers the other sections show (generated, not
// written per model; the words are the engine's, report/sections.h faq_entries, the same as the static pages').
#include <imgui.h>

#include "derived.h"
#include "panels.h"

namespace {
void qa(AppState& app, const std::string& q, const std::string& a) {
    ImGui::PushFont(app.font_bold);
    ImGui::TextWrapped("%s", q.c_str());
    ImGui::PopFont();
    ImGui::TextWrapped("%s", a.c_str());
    ImGui::Spacing();
}
}  // namespace

void draw_faq(AppState& app) {
    const Derived& d = app.derived;
    if (!d.model || !d.eval_ok) return;
    for (const llmsim::FaqEntry& e : d.faq) qa(app, e.question, e.answer);
}
