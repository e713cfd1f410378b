// One draw function per section of the page; each lives in its own ui/panel_*.cpp and reads/writes AppState.
#pragma once
#include <string>
#include <vector>

#include "app_state.h"

struct SectionInfo {
    const char* key;        // URL/embed key: section=leaderboard, embed=leaderboard
    const char* title;      // collapsing-header label
    void (*draw)(AppState&);
    bool first_view = false;   // draws from what update_derived computes on the web page's first frame alone
};

void draw_top_bar(AppState& app);        // panel_top_bar.cpp: the scenario (model, hardware, quant, context)
void draw_model_header(AppState& app);   // panel_model.cpp: model facts
void draw_verdict(AppState& app);        // panel_verdict.cpp: fit and speed in words
void draw_simulator(AppState& app);      // panel_simulator.cpp: knobs, memory bar, speeds, roofline
void draw_quants(AppState& app);         // panel_quants.cpp: quantization footprint table
void draw_leaderboard(AppState& app);    // panel_leaderboard.cpp: every device
void draw_context(AppState& app);        // panel_context.cpp: KV / total / decode vs context
void draw_command(AppState& app);        // panel_command.cpp: llama-server command
void draw_cost(AppState& app);           // panel_cost.cpp: buy vs cloud vs API
void draw_serving_search(AppState& app); // panel_serving_search.cpp: the cheapest configuration (in the Serving section)
void draw_serving(AppState& app);        // panel_serving.cpp: many users under vLLM, SGLang, llama-server ...
void draw_spec(AppState& app);           // panel_spec.cpp: speculative decoding with a draft model (-md)
void draw_lora(AppState& app);           // panel_lora.cpp: LoRA adapters at inference (--lora)
void draw_train(AppState& app);          // panel_train.cpp: fine-tuning memory and speed
void draw_vision(AppState& app);         // panel_vision.cpp: a VLM's projector (--mmproj): image tokens, memory, encode
void draw_embed(AppState& app);          // panel_embed.cpp: embedding / reranker models (--embedding, --reranking)
void draw_faq(AppState& app);            // panel_faq.cpp: generated answers
void draw_import(AppState& app);         // panel_import.cpp: config.json / .gguf import
void draw_compare(AppState& app);        // panel_compare.cpp: setups side by side
void draw_recommend(AppState& app);      // panel_recommend.cpp: what to buy, cheapest first
void draw_best_models(AppState& app);    // panel_best_models.cpp: the models this device runs, by published score
void draw_accuracy(AppState& app);       // panel_accuracy.cpp: predicted vs measured, LODO errors
void draw_accuracy_serving(AppState& app); // panel_accuracy_serving.cpp: the serving engines held out by source
void draw_my_runs(AppState& app);        // panel_my_runs.cpp: your llama-bench rows next to ours, device profile, export
void draw_contributed(AppState& app);    // panel_contributed.cpp: others' runs (a contributed-runs file) beside ours
void draw_machine_offer(AppState& app);  // panel_detect.cpp: "Is this your machine? [Use it] [Pick another]"
// panel_detect.cpp: the platform's reading of this machine's GPU -> app.machine (matched against the catalog)
void offer_machine(AppState& app, const llmsim::BrowserGpuInfo& info, const std::string& source);

// table exports (Markdown or CSV) used by the copy buttons and the JS API
std::string quants_table_text(const AppState& app, bool csv);
std::string leaderboard_text(const AppState& app, bool csv);

// panel_my_runs.cpp: its rows and the profile in use, as JSON (results().my_runs); a kept profile file
// (localStorage) put back in use, false + err on a bad one (nothing changes)
std::string my_runs_json(const AppState& app);
bool my_runs_restore(AppState& app, const std::string& profile_json, std::string& err);
// panel_contributed.cpp: read a contributed-runs file (pasted, opened, dropped or via llmsim.loadContributedRuns);
// false with the message naming the line, and the rows read before stay; its summary as JSON (results().contributed)
bool load_contributed_runs(AppState& app, const std::string& text, const std::string& name);
std::string contributed_json(const AppState& app);

// panel_command.cpp: the llama-server command of the scenario, with the draft's (-md), the adapters' (--lora)
// and the projector's (--mmproj) flags when the scenario sets them (call update_spec / update_lora / update_vision first)
std::string page_command(const AppState& app);

// every section in page order
const std::vector<SectionInfo>& sections();
