#include "widgets.h"
#include "catalog/model_names.h"
#include "core/format.h"
#include "core/text.h"
#include "rig/rig.h"
#include "rig/resolve_device.h"

#include <imgui.h>
#include <imgui_internal.h>   // ImGuiTable / ImGuiWindow: sort-arrow room and the auto-fit extent of aligned cells
#include <imgui_stdlib.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <functional>

bool matches_query(const std::string& text, const std::string& query) {
    const std::string t = llmsim::lower_ascii(text), q = llmsim::lower_ascii(query);
    size_t start = 0;
    while (start < q.size()) {
        size_t end = q.find(' ', start);
        if (end == std::string::npos) end = q.size();
        if (end > start && t.find(q.substr(start, end - start)) == std::string::npos) return false;
        start = end + 1;
    }
    return true;
}

namespace {
template <class Item, class Label, class Haystack, class Select>
bool search_combo(const char* id, const std::string& preview, std::string& query, const std::vector<Item>& items,
                  float width, Label label, Haystack haystack, Select select, const std::function<bool()>& extra = nullptr,
                  const std::vector<Item>* more = nullptr, const char* more_title = nullptr) {
    bool changed = false;
    ImGui::SetNextItemWidth(width);
    if (ImGui::BeginCombo(id, preview.c_str(), ImGuiComboFlags_HeightLarge)) {
        if (ImGui::IsWindowAppearing()) { ImGui::SetKeyboardFocusHere(); query.clear(); }
        ImGui::SetNextItemWidth(-1);
        ImGui::InputTextWithHint("##search", "type to search", &query);
        // keyboard: Enter in the search field picks the first match, Enter on a row (arrow keys) picks it, Esc closes
        const bool left_field = ImGui::IsItemDeactivated();
        bool take_first = left_field && ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Enter));
        if (left_field && ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape))) ImGui::CloseCurrentPopup();
        if (extra && extra()) changed = true;
        auto row = [&](const Item& it) {
            bool picked = ImGui::Selectable(label(it).c_str(), false);
            if (!picked && (take_first || (ImGui::IsItemFocused() && ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Enter))))) {
                picked = true;
                ImGui::CloseCurrentPopup();
            }
            take_first = false;
            if (picked) { select(it); changed = true; }
        };
        for (const Item& it : items)
            if (matches_query(haystack(it), query)) row(it);
        if (more && !more->empty()) {   // a second list under its own heading (the hardware picker's multi-GPU rigs)
            ImGui::Separator();
            if (more_title) ImGui::TextDisabled("%s", more_title);
            for (const Item& it : *more)
                if (matches_query(haystack(it), query)) row(it);
        }
        ImGui::EndCombo();
    }
    return changed;
}
}  // namespace

// the picker's Hub row: a typed id that is not in the catalog can be looked up on Hugging Face (only on this click;
// the token field is for gated repos and stays in memory)
static void hub_lookup_row(AppState& app) {
    const std::string q = app.model_search;
    if (!app.hub_lookup || q.find('/') == std::string::npos || app.catalog.find_model(q)) return;
    if (app.hub_busy) {
        ImGui::TextDisabled("%s", app.hub_status.c_str());
        if (app.hub_cancel && ImGui::SmallButton("Cancel the lookup")) app.hub_cancel();
        return;
    }
    if (ImGui::Selectable(("Look up " + q + " on Hugging Face").c_str())) {
        app.hub_lookup(q);
        ImGui::CloseCurrentPopup();
    }
    note_widget(app, "hub-lookup");
    ImGui::SetNextItemWidth(-1);
    ImGui::InputTextWithHint("##hftoken", "token for a gated repo (memory only)", &app.hub_token,
                             ImGuiInputTextFlags_Password);
    note_widget(app, "hub-token");
    ImGui::Separator();
}

// the picker's row for a name people type (Ollama tag, hf.co/ or GGUF repo, catalog/model_names.h): picks the model at
// the quant the name implies; a name that resolves to nothing shows why (close matches, a quant the catalog lacks)
static bool typed_name_row(AppState& app, std::string& name_quant) {
    const std::string q = llmsim::trim_space(app.model_search);
    if (q.size() < 3 || (q.find(':') == std::string::npos && !llmsim::ends_with_ci(q, "-GGUF"))) return false;
    std::string err;
    const auto r = llmsim::resolve_model_name(app.catalog, q, err);
    if (!r) {
        ImGui::TextDisabled("%s", err.c_str());
        return false;
    }
    const std::string label = q + " = " + r->model->id + (r->file_type.empty() ? "" : " " + r->file_type) + "##typed-name";
    if (!ImGui::Selectable(label.c_str())) return false;
    app.scenario.model = r->model->id;
    name_quant = r->file_type;
    return true;
}

bool model_picker(AppState& app, const char* id, float width) {
    const llmsim::Model* cur = app.catalog.find_model(app.scenario.model);
    std::string preview = cur ? cur->id : app.scenario.model + " (unknown)";
    std::string name_quant;   // the quant a typed Ollama tag or GGUF repo implies
    bool changed = search_combo(id, preview, app.model_search, app.catalog.models, width,
        [](const llmsim::Model& m) { return m.id; },
        [](const llmsim::Model& m) {
            std::string h = m.id + " " + m.name + " " + m.family + " " + m.arch;
            for (const llmsim::OllamaTag& t : m.ollama_tags) h += " " + t.tag;   // "qwen2.5:7b" finds Qwen2.5 7B
            return h;
        },
        [&](const llmsim::Model& m) { app.scenario.model = m.id; },
        [&]() {
            if (typed_name_row(app, name_quant)) return true;
            hub_lookup_row(app);
            return false;
        });
    if (changed) {
        apply_model_defaults(app);
        if (!name_quant.empty()) app.scenario.quant = name_quant;
        mark_changed(app);
    }
    return changed;
}

bool hardware_picker(AppState& app, const char* id, float width) {
    const llmsim::Hardware* cur = app.scenario_hardware_ok ? &app.scenario_hardware : nullptr;
    std::string preview = cur ? cur->name : app.scenario.hardware + " (unknown)";
    bool changed = search_combo(id, preview, app.hardware_search, app.catalog.hardware, width,
        [](const llmsim::Hardware& h) { return h.name + "##" + h.id; },
        [](const llmsim::Hardware& h) {
            return h.name + " " + h.id + " " + h.vendor + " " + llmsim::to_string(h.kind) + " " +
                   std::to_string((long long)(h.memory_bytes * (int64_t)h.gpu_count / 1000000000)) + "gb";
        },
        [&](const llmsim::Hardware& h) { app.scenario.hardware = h.id; app.scenario.gpus = 0; },
        [&]() {
            // a typed rig id ("rtx-5080+rtx-5060-ti-16gb", "m2-ultra-192+m2-ultra-192@10gbe"): rig/rig.h
            if (llmsim::looks_like_rig(app.hardware_search)) {
                if (const llmsim::Hardware* r = llmsim::resolve_device(app.catalog, app.hardware_search)) {
                    if (ImGui::Selectable(("Rig: " + r->name + "##typed-rig").c_str())) {
                        app.scenario.hardware = r->id;
                        app.scenario.gpus = 0;
                        return true;
                    }
                } else {
                    llmsim::Hardware probe;
                    std::string err;
                    llmsim::build_rig(app.catalog, app.hardware_search, probe, err);
                    ImGui::TextDisabled("%s", err.c_str());
                }
            }
            if (!ImGui::Selectable("Custom device… (bandwidth, TFLOPS, memory)", app.scenario.hardware == "custom")) return false;
            app.scenario.hardware = "custom";
            return true;
        },
        &app.catalog.combinations, "Multi-GPU combinations (2x-, 4x-, 8x- ids, PCIe layer split)");
    if (changed) mark_changed(app);
    return changed;
}

bool quant_picker(AppState& app, const char* id, float width) {
    bool changed = false;
    ImGui::SetNextItemWidth(width);
    if (ImGui::BeginCombo(id, app.scenario.quant.c_str(), ImGuiComboFlags_HeightLarge)) {
        for (const llmsim::FileType& f : app.catalog.file_types) {
            if (ImGui::Selectable(f.name.c_str(), f.name == app.scenario.quant)) {
                app.scenario.quant = f.name;
                changed = true;
            }
        }
        ImGui::EndCombo();
    }
    if (changed) mark_changed(app);
    return changed;
}

namespace {
// room TableHeader keeps at the right of a sortable column's label for the sort arrow (imgui_tables.cpp 1.86,
// TableHeader: w_arrow = floor(FontSize * 0.65 + FramePadding.x)); numbers end where the label ends
float sort_arrow_room() {
    const ImGuiTable* t = ImGui::GetCurrentTable();
    if (!t || !(t->Flags & ImGuiTableFlags_Sortable) || t->CurrentColumn < 0) return 0;
    if (t->Columns[t->CurrentColumn].Flags & ImGuiTableColumnFlags_NoSort) return 0;
    return std::floor(ImGui::GetFontSize() * 0.65f + ImGui::GetStyle().FramePadding.x);
}
}  // namespace

void text_right(const char* text) {
    ImGuiWindow* win = ImGui::GetCurrentWindow();
    const float w = ImGui::CalcTextSize(text).x, room = sort_arrow_room();
    const float start_x = ImGui::GetCursorScreenPos().x, max_x_before = win->DC.CursorMaxPos.x;
    const float shift = ImGui::GetContentRegionAvail().x - room - w;
    if (shift > 0) ImGui::SetCursorPosX(ImGui::GetCursorPosX() + shift);
    ImGui::TextUnformatted(text);
    // the table sizes a column from where its content ends: report the unshifted extent, else a right-aligned
    // cell would claim the whole current width and the column could never shrink to its content
    win->DC.CursorMaxPos.x = std::max(max_x_before, start_x + w + room);
}

void table_header_row(AppState& app, const char* table, const char* align, const char* const* tooltips) {
    ImGui::TableNextRow(ImGuiTableRowFlags_Headers);
    const int n = ImGui::TableGetColumnCount();
    const size_t n_align = std::strlen(align);
    for (int i = 0; i < n; ++i) {
        const std::string key = std::string(table) + "-head-" + std::to_string(i);
        if (!ImGui::TableSetColumnIndex(i)) { app.widget_rects.erase(key); continue; }   // clipped: no stale rect
        const char* name = ImGui::TableGetColumnName(i);
        const float label_w = ImGui::CalcTextSize(name, nullptr, true).x, room = sort_arrow_room();
        const float start_x = ImGui::GetCursorScreenPos().x;
        const bool right = (size_t)i < n_align && align[i] == 'r';
        const float shift = right ? ImGui::GetContentRegionAvail().x - room - label_w : 0;
        if (shift > 0) ImGui::SetCursorPosX(ImGui::GetCursorPosX() + shift);
        const ImVec2 label_min = ImGui::GetCursorScreenPos();
        ImGuiTableColumn& column = ImGui::GetCurrentTable()->Columns[i];
        const float ideal_before = column.ContentMaxXHeadersIdeal;
        ImGui::PushID(i);
        ImGui::TableHeader(name);
        if (tooltips && tooltips[i] && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", tooltips[i]);
        ImGui::PopID();
        // TableHeader fed the shifted label end to the column's auto-fit; feed the unshifted one (as text_right)
        column.ContentMaxXHeadersIdeal = std::max(ideal_before, start_x + label_w + room);
        app.widget_rects[key] = {label_min.x, label_min.y, label_min.x + label_w,
                                                                             label_min.y + ImGui::GetTextLineHeight()};
    }
}

void note_cell(AppState& app, const char* table, int row, int col) {
    if (row >= 4) return;
    const std::string key = std::string(table) + "-r" + std::to_string(row) + "-c" + std::to_string(col);
    // a column scrolled out of view draws nothing: the last item would be another cell's
    if (!(ImGui::TableGetColumnFlags(col) & ImGuiTableColumnFlags_IsVisible)) { app.widget_rects.erase(key); return; }
    note_widget(app, key.c_str());
}

void same_line_if_fits(float width) {
    const float right = ImGui::GetWindowContentRegionMax().x + ImGui::GetWindowPos().x;
    const float x = ImGui::GetItemRectMax().x + ImGui::GetStyle().ItemSpacing.x;
    if (x + width <= right) ImGui::SameLine();
}

void text_disabled_after(const char* text) {
    same_line_if_fits(ImGui::CalcTextSize(text).x);
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextDisabled("%s", text);
    ImGui::PopTextWrapPos();
}

std::string mib_text(uint64_t bytes) { return llmsim::format_fixed(bytes / 1048576.0, 1) + " MiB"; }
std::string gib_text(uint64_t bytes) { return llmsim::format_fixed(bytes / (double)llmsim::kGiB, 2) + " GiB"; }

void explained_row(AppState& app, const char* name, const std::string& value, const char* key) {
    ImGui::TableNextRow();
    ImGui::TableNextColumn(); ImGui::TextUnformatted(name);
    ImGui::TableNextColumn(); text_right(value.c_str());
    if (key) explain_item(app, key);
}

bool section_error(AppState& app, const std::string& error, const char* name) {
    if (error.empty()) return false;
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextColored(ink_vec4(Ink::Bad), "%s", error.c_str());
    ImGui::PopTextWrapPos();
    note_widget(app, name);
    return true;
}

void text_wrapped_words(const char* fmt, ...) {
    char buf[2048];
    va_list args;
    va_start(args, fmt);
    vsnprintf(buf, sizeof buf, fmt, args);
    va_end(args);
    // break only between words: ImGui's TextWrapped also breaks after '.', splitting "0.647 s" into "0." and "647 s"
    const float width = std::max(ImGui::GetContentRegionAvail().x, ImGui::GetFontSize() * 4);
    const float space_w = ImGui::CalcTextSize(" ").x;
    std::string out;
    float line_w = 0;
    for (const char* p = buf; *p;) {
        const char* end = p;
        while (*end && *end != ' ' && *end != '\n') ++end;
        const float w = ImGui::CalcTextSize(p, end).x;
        if (line_w > 0 && line_w + space_w + w > width) { out += '\n'; line_w = 0; }
        else if (line_w > 0) { out += ' '; line_w += space_w; }
        out.append(p, end);
        line_w += w;
        if (*end == '\n') { out += '\n'; line_w = 0; }
        p = *end ? end + 1 : end;
    }
    ImGui::TextUnformatted(out.c_str());
}

float button_width(const char* label) {
    return ImGui::CalcTextSize(label, nullptr, true).x + ImGui::GetStyle().FramePadding.x * 2;
}

void help_marker(const char* text) {
    ImGui::TextDisabled("(?)");
    if (ImGui::IsItemHovered()) {
        ImGui::BeginTooltip();
        ImGui::PushTextWrapPos(ImGui::GetFontSize() * 32.0f);
        ImGui::TextUnformatted(text);
        ImGui::PopTextWrapPos();
        ImGui::EndTooltip();
    }
}

void note_widget(AppState& app, const char* name) {
    ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
    app.widget_rects[name] = {a.x, a.y, b.x, b.y};
}

ImVec4 status_color(llmsim::FitStatus s) {
    switch (s) {
    case llmsim::FitStatus::Comfortable: return ink_vec4(Ink::Good);
    case llmsim::FitStatus::Tight: return ink_vec4(Ink::Warn);
    case llmsim::FitStatus::TunableUma: return ink_vec4(Ink::Uma);
    case llmsim::FitStatus::PartialOffload: return ink_vec4(Ink::Offload);
    case llmsim::FitStatus::Oom: return ink_vec4(Ink::Bad);
    default: return ink_vec4(Ink::Unknown);
    }
}

void status_badge(llmsim::FitStatus s) {
    const char* sym = s == llmsim::FitStatus::Oom ? "x" : s == llmsim::FitStatus::Comfortable ? "+" : s == llmsim::FitStatus::Unknown ? "?" : "~";
    ImGui::TextColored(status_color(s), "%s %s", sym, llmsim::to_string(s));
}

bool stacked_row_cell(AppState& app, const std::string& row_widget, const std::string& name, const llmsim::FitStatus* status,
                      const std::string& details, bool selected, const std::string& menu_widget) {
    const ImGuiStyle& style = ImGui::GetStyle();
    const float x0 = ImGui::GetCursorPosX(), y0 = ImGui::GetCursorPosY();
    const float button_w = menu_widget.empty() ? 0 : ImGui::CalcTextSize("…").x + style.FramePadding.x * 2 + style.ItemSpacing.x;
    const float wrap_w = std::max(ImGui::GetFontSize() * 4, ImGui::GetContentRegionAvail().x - button_w);
    const float h = ImGui::CalcTextSize(name.c_str(), nullptr, false, wrap_w).y + (status ? ImGui::GetTextLineHeight() + style.ItemSpacing.y : 0) +
                    (details.empty() ? 0 : ImGui::CalcTextSize(details.c_str(), nullptr, false, wrap_w).y + style.ItemSpacing.y);
    const bool clicked = ImGui::Selectable("##row", selected, ImGuiSelectableFlags_SpanAllColumns | ImGuiSelectableFlags_AllowItemOverlap, ImVec2(0, h));
    note_widget(app, row_widget.c_str());
    if (!menu_widget.empty()) ImGui::OpenPopupOnItemClick("row-menu", ImGuiPopupFlags_MouseButtonRight);
    ImGui::SetCursorPos(ImVec2(x0, y0));
    ImGui::PushTextWrapPos(x0 + wrap_w);
    ImGui::TextUnformatted(name.c_str());
    if (status) status_badge(*status);
    if (!details.empty()) ImGui::TextDisabled("%s", details.c_str());
    ImGui::PopTextWrapPos();
    if (!menu_widget.empty()) {
        ImGui::SetCursorPos(ImVec2(x0 + wrap_w + style.ItemSpacing.x, y0));
        if (ImGui::SmallButton("…")) ImGui::OpenPopup("row-menu");
        note_widget(app, menu_widget.c_str());
    }
    return clicked;
}

const char* status_words(llmsim::FitStatus s) {
    switch (s) {
    case llmsim::FitStatus::Comfortable: return "fits comfortably";
    case llmsim::FitStatus::Tight: return "fits, with little headroom";
    case llmsim::FitStatus::TunableUma: return "fits after raising the GPU memory limit";
    case llmsim::FitStatus::PartialOffload: return "runs only with some layers in system RAM";
    case llmsim::FitStatus::Oom: return "does not fit";
    default: return "unknown";
    }
}

bool copy_button(AppState& app, const char* label, const std::string& text) {
    return copy_button(app, label, [&] { return text; });
}

bool copy_button(AppState& app, const char* label, const std::function<std::string()>& make_text) {
    bool clicked = ImGui::Button(label);
    if (clicked) {
        const std::string text = make_text();
        if (app.copy_to_clipboard) app.copy_to_clipboard(text);
        else ImGui::SetClipboardText(text.c_str());
        app.copied_at = ImGui::GetTime();
        app.copied_label = label;
    }
    if (app.copied_label == label && ImGui::GetTime() - app.copied_at < 1.5) {
        ImGui::SameLine();
        ImGui::TextDisabled("copied");
    }
    return clicked;
}

namespace {
const llmsim::Explanation* find_explanation(const AppState& app, const std::string& key) {
    for (const llmsim::Explanation& e : app.derived.explanations)
        if (e.key == key) return &e;
    for (const llmsim::Explanation& e : app.serving.explanations)   // the Serving section's "serve_*" numbers
        if (e.key == key) return &e;
    for (const auto* list : {&app.spec.explanations, &app.lora.explanations, &app.train.explanations,   // spec_*, lora_*, train_*
                             &app.vision.explanations, &app.audio.explanations, &app.embed.explanations})   // vision_*, audio_*, embed_*
        for (const llmsim::Explanation& e : *list)
            if (e.key == key) return &e;
    return nullptr;
}
void explanation_body(const llmsim::Explanation& e) {
    // 34 em, or the screen less a margin at phone width (a tooltip wider than the screen is cut off)
    ImGui::PushTextWrapPos(std::min(ImGui::GetFontSize() * 34.0f, ImGui::GetIO().DisplaySize.x - ImGui::GetFontSize() * 3.0f));
    ImGui::Text("%s = %s", e.key.c_str(), e.value.c_str());
    ImGui::Separator();
    ImGui::TextUnformatted(e.text.c_str());
    for (const std::string& in : e.inputs) { ImGui::Bullet(); ImGui::TextWrapped("%s", in.c_str()); }   // long inputs wrap
    ImGui::PopTextWrapPos();
}
}  // namespace

void explain_item(AppState& app, const char* key) {
    const llmsim::Explanation* e = find_explanation(app, key);
    if (!e) return;
    if (ImGui::IsItemHovered()) {
        ImGui::BeginTooltip();
        explanation_body(*e);
        ImGui::TextDisabled("click to keep this open");
        ImGui::EndTooltip();
    }
    if (ImGui::IsItemClicked()) app.pinned_explanation = key;
    note_widget(app, (std::string("explain-") + key).c_str());
}

void draw_pinned_explanation(AppState& app) {
    if (app.pinned_explanation.empty()) return;
    const llmsim::Explanation* e = find_explanation(app, app.pinned_explanation);
    if (!e) { app.pinned_explanation.clear(); return; }
    bool open = true;
    ImGui::SetNextWindowSize(ImVec2(ImGui::GetFontSize() * 36, 0), ImGuiCond_Appearing);
    ImGui::SetNextWindowPos(ImVec2(ImGui::GetIO().DisplaySize.x * 0.5f, ImGui::GetIO().DisplaySize.y * 0.5f), ImGuiCond_Appearing, ImVec2(0.5f, 0.5f));
    if (ImGui::Begin("How this number is made", &open, ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_AlwaysAutoResize)) {
        explanation_body(*e);
        if (ImGui::Button("Copy")) {
            std::string t = e->key + " = " + e->value + "\n" + e->text + "\n";
            for (const std::string& in : e->inputs) t += "- " + in + "\n";
            if (app.copy_to_clipboard) app.copy_to_clipboard(t); else ImGui::SetClipboardText(t.c_str());
        }
    }
    ImGui::End();
    // Dear ImGui 1.86: IsKeyPressed takes the platform key index, GetKeyIndex maps ImGuiKey_Escape to it
    if (!open || ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape))) app.pinned_explanation.clear();
}
