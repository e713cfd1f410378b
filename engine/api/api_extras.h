// JSON in, JSON out for speculative decoding, LoRA adapters and fine-tuning (issue 16): the entry points
// window.llmsim.spec / lora / train call, and the layouts `llmsim-cli spec|lora|train --json` print.
//   llmsim::api_train(cat, R"({"model":"Qwen/Qwen2.5-7B-Instruct","method":"qlora","seq":2048,"grad_ckpt":true})");
// Requests (every key but model optional; the CLI's defaults):
//   spec  {model, draft, hardware, quant, draft_quant, ctx, parallel, draft_max, draft_min, accept, draft_ctx,
//          draft_ngl, depth}; with "mtp": true the model's own MTP heads are the draft (no "draft"; draft_max
//          defaults to 3, accept to 0.75; engine/spec/mtp.h) and the answer is mtp_to_json's
//   lora  {model, rank, targets, lora_type, adapters, hardware, quant, ctx, depth}
//   train {model, method, optimizer, seq, micro_batch, gpus, zero, grad_ckpt, flash_attn, dropout, rank, targets,
//          hardware, mfu}
// Bad input: {"error": "..."} naming the key.
#pragma once
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "adapter/lora.h"
#include "catalog/catalog.h"
#include "spec/mtp.h"
#include "spec/spec.h"
#include "train/train.h"
#include "embed/embed.h"
#include "vision/vision.h"
#include "audio/audio.h"

namespace llmsim {
nlohmann::json spec_to_json(const Model& target, const Model& draft, const SpecRequest& req, const SpecMemory& mem,
                            const SpecSpeed& sp, const std::string& command);
// the MTP answer: support (what llama.cpp runs, from which change), memory per device, speed (null when llama.cpp
// cannot run the heads: memory only), the acceptance ranges and the command
nlohmann::json mtp_to_json(const Model& target, const SpecRequest& req, const MtpMemory& mem, const SpecSpeed* sp,
                           const std::string& command);
nlohmann::json lora_to_json(const Model& m, const LoraSpec& spec, const LoraSize& sz, const LoraCost& cost, int adapters,
                            bool with_speed, const std::string& command);
nlohmann::json train_to_json(const Model& m, const TrainRequest& req, const TrainMemory& t);
// a parsed request: the models it names and the engine request it makes (the page's sections compute from these,
// so they show what the JS API returns for the same JSON); false + err naming the key
struct SpecCall { const Model* target = nullptr; const Model* draft = nullptr; SpecRequest req; bool mtp = false; };
struct LoraCall { const Model* model = nullptr; LoraSpec spec; SimRequest req; int adapters = 1; int64_t depth = 1024; };
struct TrainCall { const Model* model = nullptr; TrainRequest req; };
bool parse_spec_request(const Catalog& cat, const std::string& request_json, SpecCall& out, std::string& err);
bool parse_lora_request(const Catalog& cat, const std::string& request_json, LoraCall& out, std::string& err);
bool parse_train_request(const Catalog& cat, const std::string& request_json, TrainCall& out, std::string& err);
// the adapter file names the command uses: adapter<i>-r<rank>.gguf, i = 0 .. n-1
std::vector<std::string> lora_adapter_files(const LoraSpec& spec, int n);
std::string api_spec(const Catalog& cat, const std::string& request_json);
std::string api_lora(const Catalog& cat, const std::string& request_json);
std::string api_train(const Catalog& cat, const std::string& request_json);
// vision {model, hardware, quant, ctx, parallel, ubatch, images, image_w, image_h, flash_attn}: the catalog VLM's
// projector (llmsim-cli vision --mmproj auto); the layout `llmsim-cli vision --json` prints
nlohmann::json vision_to_json(const Model& m, const VisionRequest& req, const VisionEstimate& v, const std::string& command);
struct VisionCall { const Model* model = nullptr; VisionRequest req; };
bool parse_vision_request(const Catalog& cat, const std::string& request_json, VisionCall& out, std::string& err);
// " --mmproj mmproj-<model>-f16.gguf": the projector flag the command gains (vision_mmproj_file_name)
std::string vision_mmproj_flags(const Model& m);
std::string api_vision(const Catalog& cat, const std::string& request_json);
// audio {model, hardware, quant, ctx, parallel, ubatch, clips, seconds, flash_attn}: the catalog model's audio
// projector (llmsim-cli audio --mmproj auto); the layout `llmsim-cli audio --json` prints
nlohmann::json audio_to_json(const Model& m, const AudioRequest& req, const AudioEstimate& a, const std::string& command);
struct AudioCall { const Model* model = nullptr; AudioRequest req; };
bool parse_audio_request(const Catalog& cat, const std::string& request_json, AudioCall& out, std::string& err);
std::string api_audio(const Catalog& cat, const std::string& request_json);
// embed {model, hardware, quant, doc_tokens, batch, ubatch, flash_attn}: an embedding/reranker model of the table
// in embed.cpp (llmsim-cli embed); the layout `llmsim-cli embed --json` prints
nlohmann::json embed_to_json(const EmbeddingModel& m, const EmbedRequest& req, const EmbedEstimate& e);
struct EmbedCall { const EmbeddingModel* model = nullptr; EmbedRequest req; };
bool parse_embed_request(const Catalog& cat, const std::string& request_json, EmbedCall& out, std::string& err);
std::string api_embed(const Catalog& cat, const std::string& request_json);
}  // namespace llmsim
