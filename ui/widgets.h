// Small UI helpers shared by the panels: search-as-you-type pickers, right-aligned numbers, help markers.
#pragma once
#include <functional>
#include <string>

#include <imgui.h>

#include "app_state.h"
#include "memory/memory.h"
#include "theme.h"   // the palette's inks: ink_u32(Ink::Weights)

// case-insensitive "every word of query occurs in text"
bool matches_query(const std::string& text, const std::string& query);
// combo with a search box listing catalog models; returns true when the selection changed
bool model_picker(AppState& app, const char* id, float width);
// combo with a search box listing catalog hardware; returns true when the selection changed
bool hardware_picker(AppState& app, const char* id, float width);
// combo of file types; returns true when the selection changed
bool quant_picker(AppState& app, const char* id, float width);
// right-aligned text in the current table cell (a number), ending where table_header_row's right-aligned label
// ends; the column still auto-fits to the text's own width
void text_right(const char* text);
// a table's header row, one letter per column in `align`: 'r' = a number column, label right-aligned over its
// values (text_right), anything else = a text column, left-aligned; tooltips[i] on hover (tooltips may be null).
// Notes each label's rectangle as "<table>-head-<i>" (e2e layout checks).
void table_header_row(AppState& app, const char* table, const char* align, const char* const* tooltips = nullptr);
// note the last item as the cell of `table` at (row, col), "<table>-r<row>-c<col>", for the first 4 rows
void note_cell(AppState& app, const char* table, int row, int col);
// remember the last item's rectangle under a name (window.llmsim._widgetRect(name) in e2e tests)
void note_widget(AppState& app, const char* name);
// SameLine() when an item `width` wide still fits on the current line, else stay on a new line (phone width)
void same_line_if_fits(float width);
// greyed text after the last item: on the same line when it fits, else wrapped on the next lines
void text_disabled_after(const char* text);
// bytes as MiB (2^20) with one decimal: "811.8 MiB"
std::string mib_text(uint64_t bytes);
// bytes as GiB (2^30) with two decimals: "12.35 GiB" (memory tables whose columns line up)
std::string gib_text(uint64_t bytes);
// a two-column table row: name, the value right-aligned, and its explanation on hover/click when key is set
void explained_row(AppState& app, const char* name, const std::string& value, const char* key);
// a section's error line: wrapped, in the theme's Bad ink, noted as widget `name` (e2e); false when error is empty
bool section_error(AppState& app, const std::string& error, const char* name);
// wrapped text (printf format) that breaks only at spaces, never inside a number ("0.647 s", "Q4_K_M")
void text_wrapped_words(const char* fmt, ...) IM_FMTARGS(1);
// the width of a button labelled `label`
float button_width(const char* label);
// "(?)" with a tooltip
void help_marker(const char* text);

// status colour (colour-blind safe pairing with a word): comfortable green, tight amber, tunable/partial blue,
// OOM red, unknown grey
ImVec4 status_color(llmsim::FitStatus s);
// "● COMFORTABLE" in the status colour
void status_badge(llmsim::FitStatus s);
// a table's width under which it shows a phone layout (fewer columns, the rest stacked in the first cell)
inline bool phone_width(float avail_x) { return avail_x < ImGui::GetFontSize() * 34; }
// phone width: a row's first cell holding the wrapped name, a fit badge (when status is given) and a details line
// (the values of the columns a phone hides), under one selectable spanning the row, noted as row_widget. With
// menu_widget, a "…" button (noted under that name) and right-click open the popup "row-menu": touch screens have
// no right-click. Returns true when the row was clicked.
bool stacked_row_cell(AppState& app, const std::string& row_widget, const std::string& name, const llmsim::FitStatus* status,
                      const std::string& details, bool selected, const std::string& menu_widget = "");
// the status in words a person can repeat ("fits comfortably")
const char* status_words(llmsim::FitStatus s);
// Copy button that puts `text` on the clipboard (the browser's, on the web); shows "copied" briefly
bool copy_button(AppState& app, const char* label, const std::string& text);
// the same, building the text only when the button is clicked (exports too costly to build every frame)
bool copy_button(AppState& app, const char* label, const std::function<std::string()>& make_text);
// after a number: hovering shows how it is made (Derived::explanations[key]); clicking pins that explanation open
void explain_item(AppState& app, const char* key);
// the pinned explanation window, drawn once per frame by draw_app
void draw_pinned_explanation(AppState& app);
