// The catalog's binary form (catalog_binary.h): one field list per struct, walked by the four visitors of
// core/binary_fields.h (the writer, the reader, the fingerprint of the list itself and the text dump tests compare
// catalogs with).
//
// [SECTION] Field lists
// [SECTION] API
#include "catalog/catalog_binary.h"

#include <cstdint>

#include "catalog/gpu_combos.h"
#include "core/binary_fields.h"

namespace llmsim {

// A field added to a struct without a line below would be dropped from the page's catalog without a word: these
// sizes (64-bit libstdc++, every native build) make that a compile error. Add the field to its list, then update the size.
#if defined(__GLIBCXX__) && defined(__x86_64__)
static_assert(sizeof(MoeConfig) == 48 && sizeof(MlaConfig) == 20 && sizeof(SlidingWindow) == 40 &&
              sizeof(HybridConfig) == 72 && sizeof(OllamaTag) == 128 && sizeof(QualityScore) == 152,
              "a catalog struct changed: update its field list in catalog_binary.cpp");
static_assert(sizeof(Model) == 800 && sizeof(Hardware) == 616 && sizeof(RigDevice) == 736 && sizeof(GgmlType) == 48 &&
              sizeof(FileType) == 216 && sizeof(QualityBenchmark) == 248 && sizeof(QualityTask) == 128 &&
              sizeof(Catalog) == 184,
              "a catalog struct changed: update its field list in catalog_binary.cpp");
#endif

// [SECTION] Field lists ----------------------------------------------------------------------------------
// Order is the file's order. The writer and the dump take const catalogs through these (they never write to them).
// They live in namespace llmsim (static: this file's own), where the visitors find them by argument-dependent lookup.

template <class V> static void fields(V& v, MoeConfig& x) {
    v.f("n_experts", x.n_experts); v.f("n_experts_active", x.n_experts_active);
    v.f("n_shared_experts", x.n_shared_experts); v.f("expert_ffn", x.expert_ffn); v.f("shared_ffn", x.shared_ffn);
    v.f("first_dense_layers", x.first_dense_layers); v.f("layer_step", x.layer_step); v.f("router_bias", x.router_bias);
}
template <class V> static void fields(V& v, MlaConfig& x) {
    v.f("q_lora_rank", x.q_lora_rank); v.f("kv_lora_rank", x.kv_lora_rank); v.f("qk_rope_head_dim", x.qk_rope_head_dim);
    v.f("qk_nope_head_dim", x.qk_nope_head_dim); v.f("v_head_dim", x.v_head_dim);
}
template <class V> static void fields(V& v, SlidingWindow& x) {
    v.f("window", x.window); v.f("pattern", x.pattern); v.f("sliding_layers", x.sliding_layers);
}
template <class V> static void fields(V& v, HybridConfig& x) {
    v.f("recurrent_type", x.recurrent_type); v.f("attention_layers", x.attention_layers);
    v.f("ssm_state_bytes_per_layer", x.ssm_state_bytes_per_layer); v.f("recurrent_layer_params", x.recurrent_layer_params);
}
template <class V> static void fields(V& v, OllamaTag& x) {
    v.f("tag", x.tag); v.f("file_type", x.file_type); v.f("variants", x.variants); v.f("source", x.source);
    v.f("only_file_type", x.only_file_type);
}
template <class V> static void fields(V& v, QualityScore& x) {
    v.f("benchmark", x.benchmark); v.f("scores", x.scores); v.f("date", x.date); v.f("source", x.source);
    v.f("note", x.note);
}
template <class V> static void fields(V& v, Model& x) {
    v.f("id", x.id); v.f("name", x.name); v.f("family", x.family); v.f("license", x.license); v.f("arch", x.arch);
    v.f("n_layers", x.n_layers); v.f("hidden_size", x.hidden_size); v.f("intermediate_size", x.intermediate_size);
    v.f("n_heads", x.n_heads); v.f("n_kv_heads", x.n_kv_heads); v.f("head_dim", x.head_dim);
    v.f("head_dim_v", x.head_dim_v); v.f("vocab_size", x.vocab_size); v.f("tie_embeddings", x.tie_embeddings);
    v.f("qkv_bias", x.qkv_bias); v.f("qk_norm", x.qk_norm); v.f("gated_ffn", x.gated_ffn);
    v.f("native_context", x.native_context); v.f("extended_context", x.extended_context);
    v.f("rope_scaling", x.rope_scaling); v.f("moe", x.moe); v.f("mla", x.mla); v.f("swa", x.swa);
    v.f("hybrid", x.hybrid); v.f("nextn_layers", x.nextn_layers); v.f("published_params_b", x.published_params_b);
    v.f("published_active_params_b", x.published_active_params_b);
    v.f("api_price_in_usd_per_mtok", x.api_price_in_usd_per_mtok);
    v.f("api_price_out_usd_per_mtok", x.api_price_out_usd_per_mtok); v.f("api_price_source", x.api_price_source);
    v.f("api_price_provider", x.api_price_provider); v.f("api_price_date", x.api_price_date);
    v.f("release_weights", x.release_weights); v.f("release_file_type", x.release_file_type);
    v.f("release_source", x.release_source); v.f("sources", x.sources); v.f("notes", x.notes);
    v.f("ollama_tags", x.ollama_tags); v.f("quality", x.quality);
}
template <class V> static void fields(V& v, Hardware& x) {
    v.f("id", x.id); v.f("name", x.name); v.f("vendor", x.vendor); v.f("kind", x.kind);
    v.f("chip_family", x.chip_family); v.f("backends", x.backends); v.f("gpu_count", x.gpu_count); v.f("link", x.link);
    v.f("link_gbs", x.link_gbs); v.f("link_assumed", x.link_assumed); v.f("memory_bytes", x.memory_bytes);
    v.f("bandwidth_gbs", x.bandwidth_gbs); v.f("memory_kind", x.memory_kind); v.f("fp16_tflops", x.fp16_tflops);
    v.f("fp16_tflops_basis", x.fp16_tflops_basis); v.f("fp16_tflops_estimated", x.fp16_tflops_estimated);
    v.f("int8_tops", x.int8_tops); v.f("tdp_w", x.tdp_w); v.f("sm_count", x.sm_count); v.f("cpu_cores", x.cpu_cores);
    v.f("boost_clock_mhz", x.boost_clock_mhz); v.f("cpu_core_flops_per_clk", x.cpu_core_flops_per_clk);
    v.f("price_usd", x.price_usd); v.f("price_used_usd", x.price_used_usd);
    v.f("cloud_usd_per_hour", x.cloud_usd_per_hour); v.f("gpu_limit_default_bytes", x.gpu_limit_default_bytes);
    v.f("gpu_limit_max_bytes", x.gpu_limit_max_bytes); v.f("system_ram_bytes", x.system_ram_bytes);
    v.f("system_ram_bandwidth_gbs", x.system_ram_bandwidth_gbs); v.f("seed_aliases", x.seed_aliases);
    v.f("calibration_names", x.calibration_names); v.f("tool_names", x.tool_names);
    v.f("memory_basis", x.memory_basis); v.f("price_source", x.price_source); v.f("cloud_source", x.cloud_source);
    v.f("sources", x.sources); v.f("notes", x.notes); v.f("rig", x.rig);
}
template <class V> static void fields(V& v, RigDevice& x) {
    v.f("hw", x.hw); v.f("llama_name", x.llama_name); v.f("host", x.host); v.f("host_label", x.host_label);
    v.f("net_link", x.net_link); v.f("net_gbs", x.net_gbs); v.f("net_latency_us", x.net_latency_us);
}
template <class V> static void fields(V& v, GgmlType& x) {
    v.f("name", x.name); v.f("id", x.id); v.f("block_size", x.block_size); v.f("type_size", x.type_size);
}
template <class V> static void fields(V& v, FileType& x) {
    v.f("name", x.name); v.f("aliases", x.aliases); v.f("ftype_id", x.ftype_id); v.f("gguf", x.gguf);
    v.f("base_type", x.base_type); v.f("flat_bpw", x.flat_bpw); v.f("quality_label", x.quality_label);
    v.f("kld", x.kld); v.f("ppl_delta_pct", x.ppl_delta_pct); v.f("quality_source", x.quality_source);
    v.f("common", x.common); v.f("sources", x.sources);
}
template <class V> static void fields(V& v, QualityBenchmark& x) {
    v.f("id", x.id); v.f("name", x.name); v.f("version", x.version); v.f("url", x.url); v.f("date", x.date);
    v.f("source", x.source); v.f("caveat", x.caveat); v.f("metrics", x.metrics);
}
template <class V> static void fields(V& v, QualityTask& x) {
    v.f("task", x.task); v.f("benchmark", x.benchmark); v.f("metric", x.metric); v.f("why", x.why);
}
template <class V> static void fields(V& v, Catalog& x) {   // combinations are derived (add_gpu_combinations), not stored
    v.f("models", x.models); v.f("hardware", x.hardware); v.f("ggml_types", x.ggml_types);
    v.f("file_types", x.file_types); v.f("quality_benchmarks", x.quality_benchmarks);
    v.f("quality_tasks", x.quality_tasks);
}

// the number of values of each enum the catalog stores (a read value at or past it is corrupt)
static constexpr uint64_t enum_count(HardwareKind) { return (uint64_t)HardwareKind::Cpu + 1; }
static constexpr uint64_t enum_count(Backend) { return (uint64_t)Backend::Cpu + 1; }
static constexpr uint64_t enum_count(ChipFamily) { return (uint64_t)ChipFamily::Count + 1; }

namespace {
constexpr BinaryForm kForm{"LLMCATB1", "catalog.bin", "catalog", "llmsim-cli catalog --binary"};
}  // namespace

// [SECTION] API ------------------------------------------------------------------------------------------

std::string catalog_to_binary(const Catalog& cat) { return to_binary(kForm, cat); }

bool catalog_from_binary(std::string_view bytes, Catalog& out, std::string& err) {
    Catalog c;
    if (!from_binary(kForm, bytes, c, err)) return false;
    add_gpu_combinations(c);
    out = std::move(c);
    return true;
}

std::string catalog_fields_text(const Catalog& cat) {
    std::string out = fields_text(cat);
    for (size_t i = 0; i < cat.combinations.size(); ++i) {   // derived, not stored: compared all the same
        binary_fields::Dump d;
        d.path = "combinations[" + std::to_string(i) + "]";
        d.item(const_cast<Hardware&>(cat.combinations[i]));
        out += d.out;
    }
    return out;
}

}  // namespace llmsim
