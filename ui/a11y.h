// The app as a web citizen, platform-independent parts: the words a screen reader hears (the verdict, memory and
// speed figures, the selected device's status), the page title for the scenario, the static page of the model, and
// keyboard use like a web page (Tab / Shift-Tab through the top bar, Ctrl/Cmd-K model search, Esc, Page Up/Down,
// Home/End and Space scroll the sections). The web platform mirrors the words into an aria-live region.
//   top_bar_tab_stop(app);            // after each top-bar control
//   handle_top_bar_keys(app);         // at the end of the top bar
//   scroll_sections_with_keys(app);   // inside the sections' child window
#pragma once
#include <string>

#include "app_state.h"

// "Qwen2.5 72B Instruct Q4_K_M on NVIDIA GeForce RTX 4090 — llmsim"
std::string scenario_title(const AppState& app);
// one paragraph for the aria-live region: verdict, memory, speed, the selected device's status
std::string spoken_summary(const AppState& app);
// the model's static page relative to the app: "models/Qwen/Qwen2.5-72B-Instruct/" ("" for an imported model)
std::string model_page_path(const AppState& app);
// register the control with this label (its ImGui id in the current window) as the next stop of the top bar's Tab order
void top_bar_tab_stop(AppState& app, const char* label);
// open the popup of the combo with this label now (Ctrl/Cmd-K: the model search)
void open_popup_of_combo(const char* label);
// Tab / Shift-Tab move the keyboard focus (visible) through the top bar; Ctrl/Cmd-K opens the model search
void handle_top_bar_keys(AppState& app);
// Page Up/Down, Space / Shift-Space, Home/End scroll the current window (the sections) when no text field has the keys
void scroll_sections_with_keys(AppState& app);
