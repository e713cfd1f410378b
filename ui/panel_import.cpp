// Import a model: paste a Hugging Face config.json, or open/drop a .gguf (only its header is read; nothing is
// uploaded). The imported model then works in every section.
#include <imgui.h>
#include <imgui_stdlib.h>

#include "import.h"
#include "panels.h"
#include "widgets.h"

void draw_import(AppState& app) {
    ImGui::TextWrapped("Paste a Hugging Face config.json (from the model's Files tab), or open a .gguf file — "
                       "only its header is read, on this machine; nothing is uploaded.");
    ImGui::InputTextMultiline("##config", &app.import.text, ImVec2(-1, ImGui::GetTextLineHeight() * 7));
    note_widget(app, "import-text");
    if (ImGui::Button("Import config.json")) import_hf_config(app, app.import.text, "");
    note_widget(app, "import-button");
    same_line_if_fits(button_width("Open .gguf or config.json file…"));
    if (app.open_file_dialog) {
        if (ImGui::Button("Open .gguf or config.json file…")) { app.vision_file.expect_mmproj = false; app.open_file_dialog(); }
        text_disabled_after("or drop a file on the page");
    } else {
        ImGui::SetNextItemWidth(ImGui::GetFontSize() * 18);
        ImGui::InputTextWithHint("##path", "/path/to/model.gguf or config.json", &app.import.path);
        ImGui::SameLine();
        if (ImGui::Button("Open file")) { app.vision_file.expect_mmproj = false; import_path(app, app.import.path); }
        ImGui::SameLine();
        ImGui::TextDisabled("or drop a file on the window");
    }
    if (!app.import.message.empty())
        ImGui::TextColored(ink_vec4(app.import.ok ? Ink::Good : Ink::Bad), "%s", app.import.message.c_str());
}
