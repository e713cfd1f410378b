// What a user sees when an input is wrong: the exact message for invalid inputs of every kind llmsim reads
// (catalog JSON, config.json, GGUF headers, URL state, the JSON memory API), each naming the field, what was
// wrong and what would be valid. And no NaN or infinity at slider extremes: api_memory and evaluate() at
// 1 and 10 M tokens of context, 1 and 1024 GPUs, 0.1 GB/s to 100 TB/s, 1 to 1024 parallel sequences give
// finite numbers or a clear "out of range" error.
//
// Built into llmsim_message_tests together with ui/url_state.cpp (which needs only engine headers).
//
// [SECTION] helpers
// [SECTION] catalog JSON
// [SECTION] config.json
// [SECTION] GGUF
// [SECTION] URL state
// [SECTION] memory API JSON
// [SECTION] slider extremes
#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "api/api.h"
#include "core/assets.h"
#include "catalog/catalog.h"
#include "io/gguf.h"
#include "model/hf_config.h"
#include "sim/simulate.h"
#include "url_state.h"
#include "test_support.h"

using namespace llmsim;
using nlohmann::json;

namespace {

// [SECTION] helpers --------------------------------------------------------------------------------------

// an asset's JSON as embedded; the web build embeds the catalog as catalog.bin instead of its three JSON files, so
// those come from the source tree there (the same files the native programs embed)
json asset(const char* name) {
    const std::string_view v = embedded_asset(name);
    if (!v.empty()) return json::parse(v.begin(), v.end());
    const std::string text = read_source_file(std::string("assets/") + name);
    REQUIRE(!text.empty());
    return json::parse(text);
}

// parse_catalog with one of the three embedded documents edited
std::string catalog_error(const char* which, const std::function<void(json&)>& edit) {
    json m = asset("catalog/models.json"), h = asset("catalog/hardware.json"), q = asset("catalog/quants.json");
    json& doc = !std::strcmp(which, "models") ? m : !std::strcmp(which, "hardware") ? h : q;
    edit(doc);
    Catalog c;
    std::string err;
    if (parse_catalog(m.dump(), h.dump(), q.dump(), c, err)) return "(accepted)";
    return err;
}

std::string catalog_text_error(const std::string& models_text) {
    Catalog c;
    std::string err;
    if (parse_catalog(models_text, asset("catalog/hardware.json").dump(), asset("catalog/quants.json").dump(), c, err))
        return "(accepted)";
    return err;
}

const json kLlama = {{"model_type", "llama"},           {"hidden_size", 2048},      {"intermediate_size", 8192},
                     {"num_hidden_layers", 16},         {"num_attention_heads", 32}, {"num_key_value_heads", 8},
                     {"max_position_embeddings", 8192}, {"vocab_size", 128256}};

std::string config_error(const std::string& text) {
    Model m;
    std::string err;
    return model_from_hf_config(text, "test/model", m, err) ? "(accepted)" : err;
}
std::string config_error(const std::function<void(json&)>& edit) {
    json j = kLlama;
    edit(j);
    return config_error(j.dump());
}

// GGUF bytes: "GGUF", version 3, tensor count, kv count, then `rest`
std::vector<uint8_t> gguf(uint64_t n_tensors, uint64_t n_kv, const std::string& rest = "") {
    std::vector<uint8_t> b = {'G', 'G', 'U', 'F', 3, 0, 0, 0};
    for (int i = 0; i < 8; ++i) b.push_back(uint8_t(n_tensors >> (8 * i)));
    for (int i = 0; i < 8; ++i) b.push_back(uint8_t(n_kv >> (8 * i)));
    b.insert(b.end(), rest.begin(), rest.end());
    return b;
}
std::string le64(uint64_t v) {
    std::string s;
    for (int i = 0; i < 8; ++i) s += char(v >> (8 * i));
    return s;
}
std::string le32(uint32_t v) {
    std::string s;
    for (int i = 0; i < 4; ++i) s += char(v >> (8 * i));
    return s;
}
std::string kv_u32(const std::string& key, uint32_t v) { return le64(key.size()) + key + le32(4) + le32(v); }
std::string kv_str(const std::string& key, const std::string& v) {
    return le64(key.size()) + key + le32(8) + le64(v.size()) + v;
}

std::string gguf_error(const std::vector<uint8_t>& bytes) {
    GgufInfo info;
    std::string err;
    if (!read_gguf_buffer(bytes.data(), bytes.size(), info, err)) return err;
    Model m;
    return model_from_gguf(info, m, err) ? "(accepted)" : err;
}

// the llama keys model_from_gguf needs, with `skip` left out and `extra` appended
std::vector<uint8_t> llama_gguf(const std::string& extra_kv = "", int n_extra = 0, uint32_t kv_heads = 2) {
    std::string kv = kv_str("general.architecture", "llama") + kv_u32("llama.block_count", 2) +
                     kv_u32("llama.context_length", 2048) + kv_u32("llama.embedding_length", 16) +
                     kv_u32("llama.feed_forward_length", 32) + kv_u32("llama.attention.head_count", 4) +
                     kv_u32("llama.attention.head_count_kv", kv_heads) + kv_u32("llama.vocab_size", 32) + extra_kv;
    return gguf(0, 8 + n_extra, kv);
}

std::string url_error(const std::string& hash) {
    Scenario s;
    std::string err;
    return decode_url_state(hash, s, err) ? "(accepted)" : err;
}

std::string api_error(const std::string& request) {
    const json j = json::parse(api_memory(cat(), request));
    return j.contains("error") ? j["error"].get<std::string>() : "(accepted)";
}

// every number in a JSON answer is finite
bool json_finite(const json& j) {
    if (j.is_number_float()) return std::isfinite(j.get<double>());
    if (j.is_structured())
        for (const auto& e : j)
            if (!json_finite(e)) return false;
    return true;
}

bool speed_finite(const SpeedView& s) {
    for (double v : {s.decode_tps, s.decode_low, s.decode_high, s.prefill_tps, s.prefill_low, s.prefill_high, s.ttft_s,
                     s.ttft_low, s.ttft_high, s.reply_s, s.aggregate_tps, s.per_user_tps, s.decode_intensity,
                     s.decode_flops, s.prefill_intensity, s.prefill_flops, s.peak_flops, s.peak_bytes_per_s})
        if (!std::isfinite(v) || v < 0) return false;
    return true;
}

}  // namespace

// [SECTION] catalog JSON ---------------------------------------------------------------------------------

TEST_CASE("messages: catalog JSON", "[messages]") {
    CHECK(catalog_text_error("{\"schema\": \"llmsim-models/1\", \"models\": [],}") ==
          "models.json: not valid JSON: line 1, column 44: syntax error while parsing object key - unexpected '}'; "
          "expected string literal (a trailing comma? JSON allows none before '}' or ']')");
    CHECK(catalog_error("hardware", [](json& h) { h["devices"][0]["id"] = "test-gpu", h["devices"][0]["bandwidth_gbs"] = 0; }) ==
          "hardware.json: device 'test-gpu': bandwidth_gbs must be > 0 (got 0)");
    CHECK(catalog_error("hardware", [](json& h) { h["devices"][0]["id"] = "test-gpu", h["devices"][0]["kind"] = "laptop"; }) ==
          "hardware.json: device 'test-gpu': kind \"laptop\" is unknown (valid: consumer, workstation, datacenter, apple, apu, cpu)");
    CHECK(catalog_error("models", [](json& m) { m["models"][0]["id"] = "test/model", m["models"][0]["n_heads"] = 32, m["models"][0]["n_kv_heads"] = 5; }) ==
          "models.json: model 'test/model': n_kv_heads must divide n_heads (got 32 / 5)");
    CHECK(catalog_error("models", [](json& m) { m["models"][0]["id"] = "test/model", m["models"][0]["n_layers"] = "28"; }) ==
          "models.json: model 'test/model': n_layers must be a whole number, got a string");
    CHECK_THAT(catalog_error("quants", [](json& q) { q["file_types"][0]["name"] = "TEST", q["file_types"][0]["base_type"] = "Q9_K"; }),
               Catch::StartsWith("quants.json: file type 'TEST': base_type \"Q9_K\" is not a ggml type in this file (valid: F32, F16,"));
}

// [SECTION] config.json ----------------------------------------------------------------------------------

TEST_CASE("messages: config.json", "[messages]") {
    CHECK(config_error(std::string("{\"model_type\": \"ll\xff" "ama\"}")) ==
          "config.json: not valid UTF-8 at line 1, column 19 (byte 18): byte 0xFF (JSON must be UTF-8; was the file saved as Latin-1 or Windows-1252?)");
    CHECK(config_error("{\"model_type\": \"llama\", \"hidden_size\": 4096,}") ==
          "config.json: not valid JSON: line 1, column 45: syntax error while parsing object key - unexpected '}'; expected string literal (a trailing comma? JSON allows none before '}' or ']')");
    CHECK(config_error([](json& j) { j["num_hidden_layers"] = "16"; }) ==
          "config.json: num_hidden_layers must be a whole number, got a string");
    CHECK(config_error([](json& j) { j["num_key_value_heads"] = 5; }) ==
          "config.json: num_key_value_heads must divide num_attention_heads (got 32 / 5)");
    CHECK(config_error([](json& j) { j["num_local_experts"] = 8, j["num_experts_per_tok"] = 9; }) ==
          "config.json: num_experts_per_tok must be <= num_local_experts (got 9 > 8)");
    CHECK(config_error([](json& j) { j["rope_scaling"] = {{"rope_type", "yarn"}, {"factor", 1e9}}; }) ==
          "config.json: rope_scaling.factor must be in (0, 1024] (got 1000000000)");
    CHECK(config_error([](json& j) { j["max_position_embeddings"] = 0; }) ==
          "config.json: max_position_embeddings must be in [1, 17179869184] (got 0)");
    CHECK(config_error("{\"added_tokens\": [], \"model\": {\"type\": \"BPE\"}, \"normalizer\": null}") ==
          "config.json: this is a tokenizer.json, not a config.json; import the config.json next to it");
}

// [SECTION] GGUF -----------------------------------------------------------------------------------------

TEST_CASE("messages: GGUF", "[messages]") {
    const std::vector<uint8_t> not_gguf = {'P', 'K', 3, 4, 0, 0, 0, 0, 0};
    CHECK(gguf_error(not_gguf) ==
          "GGUF: not a GGUF file (the first bytes are 50 4b 03 04, a GGUF file starts with 'GGUF')");
    std::vector<uint8_t> cut = llama_gguf();
    cut.resize(60);
    CHECK(gguf_error(cut) ==
          "GGUF: the file ends inside metadata 'general.architecture' length (at byte 56); it is truncated - download it again");
    CHECK(gguf_error(gguf(1ull << 40, 0)) ==
          "GGUF: the header claims 1099511627776 tensors (limit 1048576); the file is corrupt");
    CHECK(gguf_error(gguf(0, 1, le64(8) + "bos_flag" + le32(7) + "\x07")) ==
          "GGUF: metadata 'bos_flag' is a bool with byte value 7 (must be 0 or 1)");
    CHECK(gguf_error(gguf(0, 1, le64(20) + "general.architecture" + le32(6) + le32(0x3fc00000))) ==
          "GGUF: general.architecture must be a non-empty string such as \"llama\" (got a float32)");
    CHECK(gguf_error(llama_gguf("", 0, 3)) ==
          "GGUF: llama.attention.head_count_kv must divide attention.head_count (got 4 / 3)");
    CHECK(gguf_error(llama_gguf(kv_u32("llama.expert_count", 4) + kv_u32("llama.expert_used_count", 8), 2)) ==
          "GGUF: llama.expert_used_count must be in [1, expert_count = 4] (got 8)");
}

// [SECTION] URL state ------------------------------------------------------------------------------------

TEST_CASE("messages: URL state", "[messages]") {
    CHECK(url_error("ctx=0") ==
          "ctx: 0 is out of range (1 to 10000000 tokens)");
    CHECK(url_error("ctx=20000000") ==
          "ctx: 20000000 is out of range (1 to 10000000 tokens)");
    CHECK(url_error("fa=maybe") ==
          "fa: 'maybe' is not on/off (use on, off, 1 or 0)");
    CHECK(url_error("np=1.5") ==
          "np: '1.5' must be a whole number");
    CHECK_THAT(url_error("colour=red"), Catch::StartsWith("unknown key 'colour' (known: model, hardware, quant, "));
    CHECK(url_error("model=%zz") ==
          "model: malformed percent-encoding in '%zz'");
    CHECK(url_error("quant=Q4_K%A2") ==
          "quant: the value is not UTF-8 text (byte 5 of the decoded value); percent-encode UTF-8, e.g. %C3%A9 for é");
    CHECK(url_error("ctx=lots") ==
          "ctx: 'lots' is not a number (valid: 1 to 10000000 tokens; 32k and 1M work too)");
}

// the Serving section's keys (ui/panel_serving.cpp): a link with every one of them decodes to those values and
// encodes back to the same pairs; out-of-range values are refused with the key, the value and the valid range
TEST_CASE("messages: URL state round-trips the serving keys", "[messages]") {
    const std::string pairs = "sv_engine=sglang&sv_prec=fp8&sv_kv=fp8&sv_gpus=4&sv_tp=2&sv_pp=2&sv_len=16384&sv_gmu=0.85"
                              "&sv_in=2048&sv_out=256&sv_c=64&sv_rate=2.5&sv_ttft=1500&sv_tpot=40";
    Scenario s;
    std::string err;
    REQUIRE(decode_url_state("model=Qwen/Qwen2.5-7B-Instruct&quant=Q4_K_M&ctx=8192&" + pairs, s, err));
    CHECK(s.sv_engine == "sglang");
    CHECK(s.sv_precision == "fp8");
    CHECK(s.sv_kv == "fp8");
    CHECK(s.sv_gpus == 4);
    CHECK(s.sv_tp == 2);
    CHECK(s.sv_pp == 2);
    CHECK(s.sv_max_len == 16384);
    CHECK(s.sv_gmu == 0.85);
    CHECK(s.sv_in == 2048);
    CHECK(s.sv_out == 256);
    CHECK(s.sv_conc == 64);
    CHECK(s.sv_rate == 2.5);
    CHECK(s.sv_ttft_ms == 1500);
    CHECK(s.sv_tpot_ms == 40);
    const std::string back = encode_url_state(s);
    CHECK(back.find(pairs) != std::string::npos);
    Scenario again;
    REQUIRE(decode_url_state(back, again, err));
    CHECK(encode_url_state(again) == back);
    CHECK(encode_url_state(Scenario()).find("sv_") == std::string::npos);   // defaults stay out of links
    CHECK(url_error("sv_c=0") == "sv_c: 0 is out of range (1 to 4096 requests in flight)");
    CHECK(url_error("sv_gmu=1.5") == "sv_gmu: 1.5 is out of range (0 to 1 share of GPU memory (0 = engine default))");
    CHECK(url_error("sv_tp=65") == "sv_tp: 65 is out of range (0 to 64 GPUs (0 = all / pp))");
    CHECK(url_error("sv_in=lots") == "sv_in: 'lots' is not a number (valid: 1 to 10000000 tokens; 32k and 1M work too)");
}

// the Spec section's MTP mode (ui/panel_spec.cpp): 1 = the model's own MTP heads are the draft
TEST_CASE("messages: URL key sp_mtp", "[messages][mtp]") {
    Scenario s;
    std::string err;
    REQUIRE(decode_url_state("model=zai-org/GLM-4.5-Air&sp_mtp=1", s, err));
    CHECK(s.sp_mtp == 1);
    CHECK(url_error("sp_mtp=2") == "sp_mtp: 2 is out of range (0 to 1 (0 = a draft model, 1 = the model's MTP heads))");
}

// the speculative decoding, LoRA and fine-tuning sections' keys (ui/panel_spec.cpp, panel_lora.cpp, panel_train.cpp)
TEST_CASE("messages: URL state round-trips the spec, lora and train keys", "[messages]") {
    const std::string pairs = "sp_draft=Qwen/Qwen2.5-0.5B-Instruct&sp_dq=Q4_K_M&sp_k=8&sp_kmin=2&sp_acc=0.8&sp_cd=4096&sp_ngld=10"
                              "&lora_n=2&lora_r=8&lora_t=q,v&lora_type=q8_0&tr_method=qlora&tr_opt=adamw8bit&tr_seq=4096&tr_mb=4"
                              "&tr_gpus=8&tr_zero=3&tr_ckpt=off&tr_r=64&tr_t=mlp&tr_mfu=0.35";
    Scenario s;
    std::string err;
    REQUIRE(decode_url_state("model=Qwen/Qwen2.5-7B-Instruct&quant=Q4_K_M&ctx=8192&" + pairs, s, err));
    CHECK(s.sp_draft == "Qwen/Qwen2.5-0.5B-Instruct");
    CHECK(s.sp_draft_quant == "Q4_K_M");
    CHECK(s.sp_draft_max == 8);
    CHECK(s.sp_draft_min == 2);
    CHECK(s.sp_accept == 0.8);
    CHECK(s.sp_draft_ctx == 4096);
    CHECK(s.sp_draft_ngl == 10);
    CHECK(s.lora_n == 2);
    CHECK(s.lora_rank == 8);
    CHECK(s.lora_targets == "q,v");
    CHECK(s.lora_type == "q8_0");
    CHECK(s.tr_method == "qlora");
    CHECK(s.tr_optimizer == "adamw8bit");
    CHECK(s.tr_seq == 4096);
    CHECK(s.tr_micro_batch == 4);
    CHECK(s.tr_gpus == 8);
    CHECK(s.tr_zero == 3);
    CHECK_FALSE(s.tr_grad_ckpt);
    CHECK(s.tr_rank == 64);
    CHECK(s.tr_targets == "mlp");
    CHECK(s.tr_mfu == 0.35);
    const std::string back = encode_url_state(s);
    CHECK(back.find(pairs) != std::string::npos);
    Scenario again;
    REQUIRE(decode_url_state(back, again, err));
    CHECK(encode_url_state(again) == back);
    const std::string defaults = encode_url_state(Scenario());   // defaults stay out of links
    for (const char* k : {"sp_", "lora_", "tr_"}) CHECK(defaults.find(k) == std::string::npos);
    CHECK(url_error("sp_acc=1.5") == "sp_acc: 1.5 is out of range (0 to 1 acceptance rate)");
    CHECK(url_error("sp_k=0") == "sp_k: 0 is out of range (1 to 256 tokens)");
    CHECK(url_error("tr_zero=4") == "tr_zero: 4 is out of range (0 to 3 ZeRO stage)");
    CHECK(url_error("lora_n=-1") == "lora_n: -1 is out of range (0 to 1024 adapters (0 = none))");
    CHECK(url_error("tr_ckpt=maybe") == "tr_ckpt: 'maybe' is not on/off (use on, off, 1 or 0)");
}

// the vision and embeddings sections' keys (ui/panel_vision.cpp, panel_embed.cpp)
TEST_CASE("messages: URL state round-trips the vision and embeddings keys", "[messages]") {
    const std::string pairs = "vi_n=3&vi_w=1920&vi_h=1080&em_model=Qwen/Qwen3-Reranker-0.6B&em_q=Q8_0&em_batch=64&em_doc=2048";
    Scenario s;
    std::string err;
    REQUIRE(decode_url_state("model=google/gemma-3-4b-it&quant=Q4_K_M&" + pairs, s, err));
    CHECK(s.vi_images == 3);
    CHECK(s.vi_w == 1920);
    CHECK(s.vi_h == 1080);
    CHECK(s.em_model == "Qwen/Qwen3-Reranker-0.6B");
    CHECK(s.em_quant == "Q8_0");
    CHECK(s.em_batch == 64);
    CHECK(s.em_doc == 2048);
    const std::string back = encode_url_state(s);
    CHECK(back.find(pairs) != std::string::npos);
    Scenario again;
    REQUIRE(decode_url_state(back, again, err));
    CHECK(encode_url_state(again) == back);
    const std::string defaults = encode_url_state(Scenario());   // defaults stay out of links
    for (const char* k : {"vi_", "em_"}) CHECK(defaults.find(k) == std::string::npos);
    CHECK(url_error("vi_n=-1") == "vi_n: -1 is out of range (0 to 10000 images (0 = none))");
    CHECK(url_error("em_batch=0") == "em_batch: 0 is out of range (1 to 4096 documents)");
    CHECK(url_error("vi_w=wide").rfind("vi_w: ", 0) == 0);
}

// a link may name a multi-GPU combination ("2x-rtx-3090", gpu_combos.h): the key keeps the id as written and the
// catalog resolves it to the two-card rig the recommender proposes; the recommender's TTFT floor has its own key
TEST_CASE("messages: URL state takes combination ids and rec_ttft", "[messages]") {
    Scenario s;
    std::string err;
    REQUIRE(decode_url_state("model=Qwen/Qwen2.5-72B-Instruct&hardware=2x-rtx-3090&rec_ttft=5&ctx=8192", s, err));
    CHECK(s.hardware == "2x-rtx-3090");
    CHECK(s.rec_max_ttft_s == 5);
    CHECK(encode_url_state(s).find("hardware=2x-rtx-3090") != std::string::npos);
    const Hardware* h = cat().find_hardware(s.hardware);
    REQUIRE(h);
    CHECK(h->gpu_count == 2);
    CHECK(h->memory_bytes == cat().find_hardware("rtx-3090")->memory_bytes);   // per GPU, as the card
    // 72B Q4_K_M at 8k does not fit one 24 GiB card but fits the pair (22.7 + 22.6 GiB, `llmsim-cli memory`)
    SimRequest req;
    req.memory.n_ctx = s.ctx_tokens;
    req.memory.hardware = h;
    Evaluation ev;
    REQUIRE(evaluate(cat(), *cat().find_model(s.model), req, ev, err));
    CHECK(ev.memory.status != FitStatus::Oom);
    int gpus = 0;   // CUDA0 and CUDA1 (the host's share is listed too)
    for (const auto& dev : ev.memory.devices) gpus += dev.name.rfind("CUDA", 0) == 0;
    CHECK(gpus == 2);
    CHECK(url_error("rec_ttft=-1") == "rec_ttft: -1 is out of range (0 to 1000000 seconds (0 = any))");
    CHECK(Scenario().rec_max_ttft_s == kUsableMaxTtftS);   // the recommender opens at the usable floor
    CHECK(Scenario().rec_min_tps == kUsableMinDecodeTps);
}

// [SECTION] memory API JSON ------------------------------------------------------------------------------

TEST_CASE("messages: memory API JSON", "[messages]") {
    CHECK(api_error("[1, 2]") ==
          "request must be a JSON object, e.g. {\"model\": \"Qwen/Qwen2.5-7B-Instruct\", \"quant\": \"Q4_K_M\", \"ctx\": 8192}");
    CHECK(api_error("not json").rfind("request is not valid JSON: ", 0) == 0);
    // found by fuzz_api_memory: invalid UTF-8 inside broken JSON must not make the error itself unprintable
    CHECK(api_error("{\xde\x92\xd1\x91" "del\":5,\"ct\"Dx:\"big\",\"hardware\":[]}").rfind("request is not valid JSON: ", 0) == 0);
    CHECK(api_error(R"({"model":"Qwen/Qwen2.5-7B-Instruct","ctx":0})") ==
          "ctx must be a whole number from 1 to 10000000");
    CHECK(api_error(R"({"model":"Qwen/Qwen2.5-7B-Instruct","parallel":2000})") ==
          "parallel must be a whole number from 1 to 1024");
    CHECK(api_error(R"({"model":"no/such-model"})") ==
          "unknown model 'no/such-model' (not in the catalog; pass its config.json as \"config\")");
    CHECK(api_error(R"({"model":"Qwen/Qwen2.5-7B-Instruct","kv_type":"q3"})") ==
          "kv_type must be f16, bf16, f32, q8_0, q5_1, q5_0, q4_1, q4_0 or iq4_nl");
    CHECK(api_error(R"({"model":"Qwen/Qwen2.5-7B-Instruct","hardware":4090})") ==
          "hardware must be a catalog id string such as \"rtx-4090\"");
    CHECK(api_error(R"({"model":"Qwen/Qwen2.5-7B-Instruct","quant":"Q9_X"})") ==
          "unknown quantization 'Q9_X' (try Q4_K_M, Q8_0, F16, or a format from the catalog)");
    CHECK(api_error(R"({"model":"x/y","config":{"model_type":"llama","num_hidden_layers":-1}})") ==
          "config: config.json: num_hidden_layers must be in [1, 10000] (got -1)");
}

TEST_CASE("messages: the API and the URL state share one set of limits (input_limits.h)", "[messages]") {
    // -ngl was -1..10000 in the API, -1..1000 in the URL and -1..100000 in the CLI; now -1..kMaxGpuLayers everywhere
    CHECK(api_error(R"({"model":"Qwen/Qwen2.5-7B-Instruct","ngl":10001})") ==
          "ngl must be a whole number from -1 to 10000");
    CHECK(api_error(R"({"model":"Qwen/Qwen2.5-7B-Instruct","ngl":10000})") == "(accepted)");
    CHECK(url_error("ngl=10001") == "ngl: 10001 is out of range (-1 to 10000 layers (-1 = all))");
    CHECK(url_error("ngl=5000") == "(accepted)");
    CHECK(url_error("np=1025") == "np: 1025 is out of range (1 to 1024 sequences)");
    CHECK(api_error(R"({"model":"Qwen/Qwen2.5-7B-Instruct","parallel":1025})") ==
          "parallel must be a whole number from 1 to 1024");
}

// [SECTION] slider extremes ------------------------------------------------------------------------------

TEST_CASE("extremes: api_memory gives finite numbers or a clear error", "[messages][extremes]") {
    for (const char* model : {"Qwen/Qwen2.5-7B-Instruct", "deepseek-ai/DeepSeek-V3"}) {
        if (!cat().find_model(model)) continue;
        for (int64_t ctx : {int64_t(1), int64_t(256), int64_t(10000000)})
            for (int np : {1, 7, 1024})
                for (const char* hw : {"rtx-4090", "m4-max-128", ""}) {
                    json req = {{"model", model}, {"quant", "Q4_K_M"}, {"ctx", ctx}, {"parallel", np}};
                    if (*hw && cat().find_hardware(hw)) req["hardware"] = hw;
                    const json out = json::parse(api_memory(cat(), req.dump()));
                    INFO(req.dump() << " -> " << out.dump().substr(0, 300));
                    if (out.contains("error")) {
                        CHECK(!out["error"].get<std::string>().empty());
                    } else {
                        CHECK(json_finite(out));
                        CHECK(out["total_bytes"].get<uint64_t>() > 0);
                    }
                }
    }
    CHECK(api_error(R"({"model":"Qwen/Qwen2.5-7B-Instruct","ctx":10000001})") ==
          "ctx must be a whole number from 1 to 10000000");
    CHECK(api_error(R"({"model":"Qwen/Qwen2.5-7B-Instruct","parallel":0})") ==
          "parallel must be a whole number from 1 to 1024");
}

TEST_CASE("extremes: evaluate at slider extremes", "[messages][extremes]") {
    const Model* model = cat().find_model("Qwen/Qwen2.5-7B-Instruct");
    REQUIRE(model);
    const Hardware* base = cat().find_hardware("rtx-4090");
    REQUIRE(base);
    for (int gpus : {1, 2, 1024})
        for (double bw : {0.1, 1000.0, 100000.0})
            for (int64_t ctx : {int64_t(1), int64_t(10000000)})
                for (int np : {1, 1024}) {
                    Hardware hw = *base;
                    hw.id = "custom";
                    hw.gpu_count = gpus;
                    hw.bandwidth_gbs = bw;
                    SimRequest req;
                    req.memory.file_type = "Q4_K_M";
                    req.memory.n_ctx = ctx;
                    req.memory.n_parallel = np;
                    req.memory.hardware = &hw;
                    req.prompt_tokens = std::min<int64_t>(ctx, 4096);
                    Evaluation ev;
                    std::string err;
                    INFO("gpus " << gpus << " bandwidth_gbs " << bw << " ctx " << ctx << " np " << np);
                    if (!evaluate(cat(), *model, req, ev, err)) {
                        CHECK(!err.empty());
                        continue;
                    }
                    CHECK(json_finite(memory_to_json(*model, req.memory, ev.memory)));
                    CHECK(std::isfinite(ev.memory.bits_per_weight));
                    if (ev.speed.ok) {
                        CHECK(speed_finite(ev.speed));
                        CHECK(ev.speed.decode_tps > 0);
                    } else {
                        CHECK(!ev.speed.error.empty());
                    }
                }
}
