// The one app state of the llmsim UI, owned by the platform's main() and passed by reference to every panel.
// Everything that defines a view lives in `Scenario` (and round-trips through the URL hash, see url_state.h);
// the rest is UI-only (filters, open popups, caches derived from the scenario).
//
//   AppState app;
//   init_app(app);                      // loads the embedded catalog, applies defaults
//   apply_url_state(app, "model=Qwen/Qwen2.5-7B-Instruct&quant=Q4_K_M", err);
//   draw_app(app);                      // once per frame, between ImGui::NewFrame and ImGui::Render
#pragma once
#include <cstdint>
#include <array>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "catalog/catalog.h"
#include "rig/detect.h"
#include "derived.h"
#include "speed/device_profile.h"
#include "panel_accuracy.h"
#include "panel_import.h"
#include "panel_leaderboard.h"
#include "panel_contributed.h"
#include "panel_my_runs.h"
#include "panel_quants.h"
#include "panel_serving.h"
#include "panel_lora.h"
#include "panel_spec.h"
#include "panel_mlx.h"
#include "panel_train.h"
#include "panel_vision.h"
#include "panel_audio.h"
#include "panel_embed.h"
#include "panel_best_models.h"
#include "panel_serving_search.h"

struct ImFont;

struct Scenario {
    std::string model = "Qwen/Qwen2.5-7B-Instruct";   // HF id
    std::string hardware = "rtx-4090";                 // catalog device id, a rig id ("rtx-5080+rtx-5060-ti-16gb",
                                                       // rig/rig.h), or "custom" (the custom_* keys)
    int gpus = 0;                                      // GPUs of that card (0 = as the catalog lists it; >1 = a rig)
    double custom_bw_gbs = 1000;                       // custom device: memory bandwidth, GB/s
    double custom_tflops = 100;                        // custom device: dense FP16 tensor TFLOPS
    double custom_mem_gib = 24;                        // custom device: memory per GPU, GiB
    std::string quant = "Q4_K_M";                      // llama.cpp file type or non-GGUF format
    int64_t ctx_tokens = 32768;                        // -c
    std::string kv_type = "f16";                       // -ctk/-ctv
    bool flash_attn = true;                            // -fa
    int gpu_layers = -1;                               // -ngl; -1 = all layers
    int cpu_moe_layers = 0;                            // --n-cpu-moe
    int parallel = 1;                                  // -np
    int64_t prompt_tokens = 4096;                      // TTFT prompt length
    int64_t gen_tokens = 512;                          // reply length
    int64_t ctx_b_tokens = 8192;                       // second context column of the quant table
    // the user's machine (rig/rig.h): host RAM for offload, split over several GPUs
    double host_ram_gib = 0;                           // system RAM, GiB (0 = the catalog's / none)
    double host_bw_gbs = 0;                            // system RAM bandwidth, GB/s (0 = the catalog's, else 60)
    std::string split_mode = "layer";                  // -sm layer|row|none
    int main_gpu = 0;                                  // -mg
    std::string tensor_split = "";                     // -ts "3,1" (empty = llama.cpp's default)
    // cost inputs
    double hours_per_month = 166.5;
    double mtok_per_month = 60.0;                      // million tokens per month (in + out)
    double kwh_price_usd = 0.17;
    int amortize_months = 36;
    double price_usd = -1;                             // purchase price override, USD (-1 = catalog)
    double rent_usd_per_hour = -1;                     // cloud price override, USD/hour for the whole device (-1 = catalog)
    double api_in_usd = -1, api_out_usd = -1;          // serverless API overrides, USD per 1M tokens (-1 = catalog)
    double rec_min_tps = llmsim::kUsableMinDecodeTps;  // recommend: at least this decode tok/s at the full context
    double rec_max_ttft_s = llmsim::kUsableMaxTtftS;   // recommend: first token of the prompt within this, s (0 = any)
    double rec_max_price = 0;                          // recommend: at most this purchase price, USD (0 = any)
    std::string bm_task = "general";                   // best models: the task whose published score ranks them
    // serving (panel_serving.cpp): the engine, its flags and the load; the scenario's model and device
    std::string sv_engine = "vllm";                    // serve_engines(): vllm, sglang, llamacpp, trtllm, lmdeploy
    std::string sv_precision;                          // checkpoint format ("" = as published, release_precision);
                                                       // llamacpp: a GGUF file type ("" = quant)
    std::string sv_kv = "auto";                        // KV dtype: auto (= model dtype) | fp8 (llamacpp: q8_0 | q4_0)
    int sv_gpus = 0;                                   // GPUs used (0 = the scenario device's count)
    int sv_tp = 0;                                     // --tensor-parallel-size (0 = all GPUs / pp)
    int sv_pp = 1;                                     // --pipeline-parallel-size
    std::string sv_net = "";                           // fabric between nodes past 8 GPUs, "ib-ndr-x8" (serve_network.h; "" = ib-ndr assumed)
    int64_t sv_max_len = 0;                            // --max-model-len, tokens (0 = the model's native context)
    double sv_gmu = 0;                                 // --gpu-memory-utilization / --mem-fraction-static (0 = engine default)
    int64_t sv_in = 1024, sv_out = 128;                // prompt / generated tokens per request
    int sv_conc = 32;                                  // closed loop: requests in flight (--max-concurrency)
    double sv_rate = 0;                                // open loop: Poisson requests/s (> 0 wins over sv_conc)
    double sv_ttft_ms = 1000, sv_tpot_ms = 50;         // SLA: TTFT p90 and TPOT p90 targets, ms (0 = none)
    // prefix caching and multi-turn sessions, KV offload tiers (serving.h ServeWorkload / ServeRequest::kv_offload)
    int64_t sv_prefix = 0;                             // tokens every prompt shares (0 = none)
    int sv_turns = 1;                                  // turns per session (1 = plain requests)
    double sv_think_s = 0;                             // think time between turns, s
    double sv_cpu_gib = 0, sv_nvme_gib = 0;            // offload tiers per replica, GiB (vLLM + LMCache, SGLang HiCache)
    int sv_groups = 1;                                 // prefix groups: distinct shared prefixes of sv_prefix tokens each
    int sv_ppg = 0;                                    // prompts per group: a fixed pool of groups x sv_ppg prompts (0 = every prompt new)
    std::string sv_stages;                             // staged arrivals "rate:seconds,..." (requests/s for s; "" = one rate;
                                                       // parse_rate_stages_text); when set it drives the load
    int sv_loras = 0;                                  // vLLM --enable-lora --max-loras: adapter slots (0 = LoRA off)
    int sv_lora_rank = 16;                             // vLLM --max-lora-rank (vLLM's default 16)
    bool sv_ep = false;                                // expert parallel (vLLM --enable-expert-parallel, SGLang --ep-size,
                                                       // TRT-LLM --ep_size = TP); used for MoE models on those engines only
    int sv_pd_p = 0, sv_pd_d = 1;                      // prefill/decode disaggregation: GPUs of each pool (sv_pd_p 0 = off)
    int sv_pd_ptp = 1, sv_pd_dtp = 1;                  // each pool's --tensor-parallel-size
    std::string sv_pd_link = "";                       // the KV path: nvlink | a fabric ("" = nvlink in one node, else ib-ndr)
    // speculative decoding (panel_spec.cpp): the draft model and its llama-server flags; "" = no draft (-md off)
    std::string sp_draft = "";                         // -md: catalog id of the draft model ("" = none)
    std::string sp_draft_quant = "Q8_0";               // the draft GGUF's file type
    int sp_draft_max = 16;                             // --draft-max, tokens per round
    int sp_draft_min = 0;                              // --draft-min
    double sp_accept = 0.7;                            // per-token acceptance rate (0..1), a user estimate
    int64_t sp_draft_ctx = 0;                          // -cd, tokens (0 = the target's context per sequence)
    int sp_draft_ngl = -1;                             // -ngld (-1 = all)
    int sp_mtp = 0;                                    // 1: the model's own MTP heads are the draft (--spec-type draft-mtp)
    // LoRA adapters at inference (panel_lora.cpp); lora_n = 0: no --lora in the command
    int lora_n = 0;                                    // adapters loaded (--lora per file)
    int lora_rank = 16;                                // r
    std::string lora_targets = "q,k,v,o";              // PEFT target modules (q,k,v,o,gate,up,down | attn | mlp | all)
    std::string lora_type = "f16";                     // convert_lora_to_gguf --outtype: f32, f16, bf16, q8_0
    // fine-tuning memory (panel_train.cpp)
    std::string tr_method = "lora";                    // full | lora | qlora
    std::string tr_optimizer = "adamw";                // adamw | adamw8bit | adafactor
    int64_t tr_seq = 2048;                             // tokens per sequence
    int tr_micro_batch = 1;                            // sequences per GPU per step
    int tr_gpus = 1;                                   // data-parallel GPUs
    int tr_zero = 0;                                   // ZeRO stage 0-3
    bool tr_grad_ckpt = true;                          // gradient checkpointing
    int tr_rank = 16;                                  // LoRA / QLoRA rank
    std::string tr_targets = "all";                    // LoRA / QLoRA target modules
    double tr_mfu = 0.40;                              // model FLOPs utilisation assumed for tokens/s
    // vision projector (panel_vision.cpp); vi_images = 0: no --mmproj in the command
    int vi_images = 0;                                 // images per request
    int vi_w = 0, vi_h = 0;                            // image size in px (0 = the encoder's native size)
    int au_s = 0;                                      // seconds of audio per request (panel_audio.cpp); 0 = none
    // embedding / reranker model (panel_embed.cpp) on the device above
    std::string em_model = "BAAI/bge-m3";              // an id of engine/embed's table
    std::string em_quant = "F16";                      // F32, F16, BF16, Q8_0
    int em_batch = 32;                                 // documents per batch
    int64_t em_doc = 512;                              // tokens per document
    // the cheapest-configuration search (panel_serving_search.cpp) at the load and SLA above
    std::string sv_s_dev = "datacenter";               // datacenter (+ workstation) | all (every NVIDIA / AMD device)
    std::string sv_s_eng = "vllm,sglang";              // engines searched, comma-separated
    std::string sv_s_prec = "bf16,fp8";                // precisions searched
    std::string sv_s_gpus = "1,2,4,8";                 // GPUs per replica (TP) searched
    bool sv_s_pd = false;                              // search the P:D splits of this device's GPUs (disaggregation) instead
    std::string compare = "";                          // setups side by side: "model~hardware~quant,..." (empty part = current)
    std::string section = "";                          // section to scroll to / embed
    std::string embed = "";                            // embed mode: the one section shown
    std::string theme = "dark";
};

// The idle policy (Tracy renders 3 frames after any input, then skips NewFrame): after an input event, a resize,
// an API call or a scenario change the platform draws kFramesAfterInput more frames, then sleeps (natively
// SDL_WaitEventTimeout; the web's requestAnimationFrame callback returns at once).
constexpr int kFramesAfterInput = 3;

// "Is this your machine?" (panel_detect.cpp): what the platform could read about the GPU (web: WebGPU / WebGL in
// web/llmsim-page.js; desktop: GL_RENDERER and SDL_GetSystemRAM in platform_native.cpp) and the catalog match
struct MachineOffer {
    bool probed = false;               // the platform reported (offer_machine)
    std::string source;                // "WebGPU", "WebGL", "OpenGL"
    llmsim::BrowserGpuInfo info;
    llmsim::HardwareMatch match;
    bool answered = false;             // Use it / Pick another / Close pressed: the offer is gone
    float memory_gib = 0;              // typed when the size decides the device
    std::string message;               // after "Use it" with a typed size that matched nothing
};

struct AppState {
    llmsim::Catalog catalog;
    std::string catalog_error;     // non-empty when the embedded catalog failed to load
    Scenario scenario;
    Derived derived;               // numbers computed from the scenario (derived.h)
    llmsim::Hardware scenario_hardware;   // the scenario's device: a catalog entry, a custom one, or N of a card
    bool scenario_hardware_ok = false;
    // UI-only state
    MachineOffer machine;
    std::string rig_text;              // the simulator's typed rig id ("rtx-5080+rtx-5060-ti-16gb")
    std::string rig_error;             // why the typed rig id was not taken
    std::string model_search;
    std::string hardware_search;
    // each panel's own view state, next to its panel (panel_*.h)
    QuantsState quants;
    LeaderboardState leaderboard;
    AccuracyState accuracy;
    // the web page does not carry the measured rows (1 MB of JSONL) and the serving accuracy report in its wasm: it
    // fetches them after its first frame (core/assets.h, platform_web.cpp), so the first view is ~85 KB gzip lighter
    // and the verdict is on screen sooner. load_deferred_evidence() (derived.h) ends the wait once they are all there;
    // until then the sections that show them say they are loading, or evidence_error says why they never came
    bool evidence_deferred = false;
    std::string evidence_error;
    // the web page's first frame computes and draws only what its viewport shows (draw_app): the sections below it
    // (and the rows only they use: finish_derived(), derived.h) wait for the next frame, so the verdict is on screen
    // sooner. The desktop app and the static pages never set it.
    bool first_view_light = false;
    MyRunsState my_runs;
    ContributedState contributed;
    ImportState import;
    ServingState serving;          // panel_serving.h
    SpecState spec;                // panel_spec.h
    LoraState lora;                // panel_lora.h
    TrainState train;              // panel_train.h
    VisionState vision;            // panel_vision.h
    VisionFile vision_file;        // panel_vision.h: an opened mmproj GGUF (session only)
    AudioState audio;              // panel_audio.h (drawn in the Vision & audio section)
    EmbedState embed;              // panel_embed.h
    MlxState mlx;                  // panel_mlx.h (drawn in the Run it section on Apple devices)
    BestModelsState best_models;   // panel_best_models.h
    ServingSearchState serving_search;   // panel_serving_search.h
    bool scroll_to_section = false;     // scroll to scenario.section on the next frame
    std::string status_line;
    std::string pinned_explanation;  // key of the explanation window the user opened ("" = none)
    std::map<std::string, uint64_t> imported_file_bytes;  // model id -> GGUF tensor bytes (0 = from the rules)
    // Hugging Face lookups (engine/hub; the web page's fetch in llmsim-page.js, platform_web.cpp). Session only.
    std::function<void(const std::string&)> hub_lookup;   // look a typed id up (explicit action); null: no transport
    std::function<void()> hub_cancel;                      // stop the running lookup; null: it cannot be cancelled
    std::string hub_token;         // optional token for gated repos: memory only, never in the URL, storage or logs
    std::string hub_status;        // progress of the running lookup, or its result / error
    bool hub_busy = false;
    bool hub_ok = false;
    // model id -> llama.cpp file type -> exact tensor bytes of that repo file (its GGUF header, read by Range)
    std::map<std::string, std::map<std::string, uint64_t>> hub_tensor_bytes;
    // the user's own device profile (panel_my_runs.cpp fits it on pasted llama-bench rows): while on, every
    // estimate for its device uses it (request_from_scenario). Session only; never in the scenario or the URL
    llmsim::DeviceProfile device_profile;
    bool device_profile_on = false;
    double copied_at = -10;        // ImGui time of the last copy button press
    std::string copied_label;       // last user-facing message (bad URL key, failed import ...)
    // frame bookkeeping
    uint64_t frames_drawn = 0;
    double last_frame_ms = 0;
    uint64_t state_version = 0;    // bumped on every scenario change; platforms sync the URL and notify listeners
    uint64_t frame_state_version = 0;   // state_version when run_frame last looked (frame.h)
    int frames_pending = kFramesAfterInput;   // idle policy: frames still to draw before sleeping (request_frames)
    std::map<std::string, std::array<float, 4>> widget_rects;  // named widgets' last rects (x0,y0,x1,y1), for e2e tests
    ImFont* font_ui = nullptr;
    ImFont* font_bold = nullptr;
    ImFont* font_mono = nullptr;
    float ui_scale = 1.0f;         // device pixel ratio x user zoom
    // platform hooks (set by platform_*.cpp)
    std::function<void(const std::string&)> copy_to_clipboard;
    std::function<void()> open_file_dialog;   // web: the browser's file picker; null natively
    // save text the user asked for as a file: web, a Blob download named `name`; desktop, written in the working
    // directory. Returns a message for the user ("saved runs.jsonl" or why not)
    std::function<std::string(const std::string& name, const std::string& text)> save_text_file;
    std::function<void(const std::string&)> keep_device_profile;   // web: profile JSON to localStorage ("" = remove); null natively
    std::function<void()> open_full_page;     // embed mode: open the whole page with the same state
    std::function<std::string(const std::string&)> share_link;  // URL (web) or command line (desktop) for a state hash
    float embed_content_height = 0;           // embed mode: height of the shown section (CSS px), for iframe sizing
    // keyboard use like a web page (a11y.h): the top bar's controls in Tab order (rebuilt every frame), Ctrl/Cmd-K,
    // the sections' scroll position; the static model page of the scenario's model
    std::vector<unsigned int> top_bar_tab_ids;
    bool open_model_search = false;
    float sections_scroll_y = 0, sections_scroll_max_y = 0;   // CSS px
    std::function<void(const std::string&)> open_model_page;  // web: open models/<org>/<name>/ (null natively)
};

// load the embedded catalog and apply defaults; sets catalog_error when the catalog is unusable
void init_app(AppState& app);
// draw the whole UI for one frame
void draw_app(AppState& app);
// note that the scenario changed (URL sync, listeners, redraw)
void mark_changed(AppState& app);
// the idle policy (kFramesAfterInput above): draw a few more frames / is a frame due
inline void request_frames(AppState& app) { app.frames_pending = kFramesAfterInput; }
inline bool frame_wanted(const AppState& app) { return app.frames_pending > 0; }
// apply the dark or light theme named in scenario.theme, at the given UI scale
void apply_theme(AppState& app, float scale);
// (re)build the font atlas from the embedded fonts at the given scale; the renderer must re-upload it
void load_fonts(AppState& app, float scale);
