// The serving engines' memory plans: weights per GPU for the checkpoint's format under TP/PP, and the KV pool
// each engine's own profiling leaves (vLLM, SGLang, TensorRT-LLM, LMDeploy; llama-server -np goes through the
// llama.cpp memory model, memory/memory.h). Each rule names the engine source it follows.
//
// [SECTION] Formats and shape
// [SECTION] Defaults
// [SECTION] Memory plans
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "core/units.h"
#include "memory/memory.h"
#include "memory/prepared_weights.h"
#include "model/model_tensors.h"
#include "serving/serving_internal.h"
#include "rig/resolve_device.h"

namespace llmsim::serving {

namespace {

// [SECTION] Formats and shape ----------------------------------------------------------------------------

// bytes per parameter of a linear layer stored in `precision`, scales included:
//   fp8 / int8: 1 B (per-channel or 128x128-block fp32 scales: < 0.1 %);
//   nvfp4: 4-bit E2M1 + one FP8 E4M3 scale per 16 weights (NVIDIA ModelOpt NVFP4) = 0.5625 B;
//   mxfp4: 4-bit E2M1 + one E8M0 scale per 32 (OCP MX spec; gpt-oss) = 0.53125 B;
//   int4-awq / int4-gptq: 4-bit + an fp16 scale and a 4-bit zero per group of 128 (AutoAWQ / GPTQ group_size
//   128 defaults) = 0.5195 B
double linear_bytes_per_param(const std::string& p) {
    if (p == "bf16" || p == "fp16") return 2.0;
    if (p == "fp8" || p == "int8") return 1.0;
    if (p == "nvfp4") return 0.5 + 1.0 / 16.0;
    if (p == "mxfp4") return 0.5 + 1.0 / 32.0;
    if (p == "int4-awq" || p == "int4-gptq") return 0.5 + (2.0 + 0.5) / 128.0;
    return -1;
}

bool is_blackwell(const Hardware& h) {
    const std::string& id = h.id;
    return id.find("b200") != std::string::npos || id.find("b100") != std::string::npos ||
           id.find("rtx-pro-6000") != std::string::npos || id.find("5090") != std::string::npos ||
           id.find("5080") != std::string::npos || h.name.find("Blackwell") != std::string::npos ||
           h.name.find("GB200") != std::string::npos;
}
bool has_fp8_tensor(const Hardware& h) {   // Hopper, Ada, Blackwell, CDNA3
    const std::string& id = h.id;
    for (const char* k : {"h100", "h200", "gh200", "h20", "h800", "l40", "l4", "4090", "4080", "4070", "4060",
                          "6000-ada", "mi300", "mi325", "mi350", "mi355"})
        if (id.find(k) != std::string::npos) return true;
    return is_blackwell(h) || h.name.find("H200") != std::string::npos || h.name.find("H100") != std::string::npos;
}

// the dense tensor rate at which the checkpoint's matmuls run: FP8 (W8A8) doubles the FP16 rate where the
// tensor cores have FP8; NVFP4/MXFP4 quadruple it on Blackwell; weight-only formats (AWQ/GPTQ, and FP8 on
// Ampere through Marlin) compute in FP16
double compute_tflops(const Hardware& h, const std::string& precision) {
    double f = h.fp16_tflops > 0 ? h.fp16_tflops : 0;
    if ((precision == "fp8" || precision == "int8") && has_fp8_tensor(h)) return 2 * f;
    if ((precision == "nvfp4" || precision == "mxfp4") && is_blackwell(h)) return 4 * f;
    if ((precision == "nvfp4" || precision == "mxfp4") && has_fp8_tensor(h)) return 2 * f;
    return f;
}

// GeForce parts: no GPU peer-to-peer over PCIe (datacenter and workstation parts have it)
bool is_geforce(const Hardware& h) { return h.vendor == "nvidia" && h.name.find("GeForce") != std::string::npos; }
constexpr double kNoP2pAllreduceUs = 40;
constexpr double kNoP2pLinkShare = 0.25;

// block_fp8_checkpoint: DeepSeek's own FP8 release (an MLA model at fp8, 128 x 128 weight blocks), not a ModelOpt
// export. TensorRT-LLM reads its config.json quantization_config {"quant_method": "fp8", "weight_block_size"} as
// FP8_BLOCK_SCALES for the weights alone and leaves kv_cache_quant_algo unset, so its KV cache stays in the model
// dtype (NVIDIA/TensorRT-LLM tensorrt_llm/_torch/model_config.py ModelConfig.load_hf_quant_config, the "DeepSeek V3
// FP8 ckpt" branch; only a ModelOpt hf_quant_config sets kv_cache_quant_algo)
int kv_elem_bytes(const std::string& kv, const std::string& precision, EngineId e, bool block_fp8_checkpoint) {
    if (kv == "fp8" || kv == "fp8_e4m3" || kv == "fp8_e5m2" || kv == "q8_0") return 1;
    if (kv == "fp16" || kv == "bf16" || kv == "f16") return 2;
    // "auto": the model dtype (vLLM CacheConfig cache_dtype "auto"), or FP8 for an engine whose FP8 / NVFP4
    // checkpoints quantize the KV cache too (the row's fp8_checkpoint_kv: TensorRT-LLM's ModelOpt exports)
    if (engine_row(e).fp8_checkpoint_kv && (precision == "fp8" || precision == "nvfp4") && !block_fp8_checkpoint) return 1;
    return 2;
}

}  // namespace

// vLLM multi-LoRA (vllm/lora/layers/base_linear.py BaseLinearLayerWithLoRA.create_lora_weights): at load time every
// LoRA-wrapped linear gets lora_a_stacked [max_loras, 1, max_lora_rank, input] and lora_b_stacked [max_loras, 1,
// output, max_lora_rank] per slice in lora_dtype (the activations' 16-bit type). Column-parallel layers (qkv,
// gate_up) keep the whole input in A and shard B's output by TP; row-parallel ones (o, down) shard A's input and keep
// B's whole output (fully_sharded_loras off, the default). The wrapped linears are the attention qkv/o and the dense
// FFN; routed experts are not counted. A rank-8 adapter still fills a max_lora_rank slot.
bool lora_slots(const ServeRequest& req, ReplicaShape& s, std::string& err) {
    if (req.max_loras == 0) return true;
    if (!engine_row(s.engine).multi_lora) {
        std::string with;
        for (const Engine& e : engines()) if (e.multi_lora) with += std::string(with.empty() ? "" : ", ") + e.display_name;
        err = "max_loras: multi-LoRA serving is modelled for " + with + " only";
        return false;
    }
    if (req.max_loras < 0 || req.max_loras > 1024) { err = "max_loras: must be 1 to 1024 adapter slots"; return false; }
    static const int kRanks[] = {1, 8, 16, 32, 64, 128, 256, 320, 512};   // vllm/config/lora.py MaxLoRARanks
    bool rank_ok = false;
    for (int r : kRanks) rank_ok |= req.max_lora_rank == r;
    if (!rank_ok) { err = "max_lora_rank: vLLM accepts 1, 8, 16, 32, 64, 128, 256, 320 or 512"; return false; }
    const Model& m = *s.model;
    if (m.mla.has_value()) { err = "max_loras: LoRA slots of MLA attention are not modelled"; return false; }
    const double r = req.max_lora_rank, H = (double)m.hidden_size, t = s.tp;
    const double hd = m.head_dim > 0 ? m.head_dim : H / m.n_heads;
    const double q = m.n_heads * hd, kv = (m.n_kv_heads > 0 ? m.n_kv_heads : m.n_heads) * hd;
    const double F = (double)m.intermediate_size;
    double per_layer = 3 * r * H + (q + 2 * kv) / t * r     // qkv (column parallel, 3 slices)
                     + r * q / t + H * r;                     // o (row parallel)
    if (F > 0) per_layer += (m.gated_ffn ? 2 : 1) * (r * H + F / t * r) + r * F / t + H * r;   // gate_up, down
    s.lora_slots = req.max_loras;
    s.lora_slot_bytes_gpu = per_layer * s.layers_stage * 2.0;
    return true;
}

// which collectives cross nodes: TP ranks fill a node first, PP stages follow in order (vLLM / SGLang rank order:
// tp fastest, parallel_state.py); a TP group larger than a node all-reduces over the fabric, a stage boundary
// between two nodes hands off over it
static void place_across_nodes(const FabricChoice& f, int gpn, ReplicaShape& s) {
    gpn = std::max(1, gpn);
    if (s.tp * s.pp <= gpn) return;
    s.crosses_network = true;
    if (s.tp > gpn) {
        s.tp_net = true;
        // NVLink's all-reduce bus bandwidth inside a node caps what the NICs can be fed with
        s.tp_link = cross_node_link(f, s.tp, gpn, s.link_gbs);
    }
    for (int i = 1; i < s.pp; ++i)
        if ((i * s.tp) / gpn != ((i - 1) * s.tp + s.tp - 1) / gpn) ++s.pp_net_hops;
    if (s.pp_net_hops > 0) s.pp_link = cross_node_link(f, s.tp * s.pp, gpn, 0);
    s.net_explain = describe_link(f, s.tp_net ? s.tp_link : s.pp_link);
}

// the links between the replica's GPUs: in a node and, past gpus_per_node, the fabric between nodes
static bool choose_links(const ServeRequest& req, ReplicaShape& s, std::string& err) {
    // the link: NVLink on SXM/OAM parts (NVLink 4: 450 GB/s per direction on H100/H200, NVLink 5: 900 on B200,
    // NVLink 3: 300 on A100 SXM, Infinity Fabric 448 on MI300X), PCIe 4/5 x16 otherwise; beyond a node the network
    std::string ic = req.interconnect;
    const std::string& id = s.hw->id;
    bool sxm = id.find("sxm") != std::string::npos || id.find("b200") != std::string::npos ||
               id.find("mi300") != std::string::npos || id.find("mi325") != std::string::npos ||
               id.find("gh200") != std::string::npos || s.hw->name.find("GB200") != std::string::npos ||
               s.hw->name.find("SXM") != std::string::npos;
    // a fabric name (ib-ndr, roce-200, ethernet-25, network, ...) is the link between nodes; inside a node the
    // device's own link stays (serve_network.h)
    if (!ic.empty() && ic != "nvlink" && ic != "pcie" && !is_fabric_name(ic)) {
        std::string fe;
        resolve_fabric(ic, 0, 1, fe);   // the message that lists every accepted value
        err = fe;
        return false;
    }
    if (req.gpus_per_node < 1 || req.gpus_per_node > 72) { err = "gpus_per_node: " + std::to_string(req.gpus_per_node) + " (1 to 72: an NVL72 rack is one NVLink domain)"; return false; }
    std::optional<FabricChoice> fabric;
    int gpn = req.gpus_per_node;
    const bool spans_nodes = req.tp * req.pp > req.gpus_per_node;
    if (is_fabric_name(ic) || spans_nodes) {
        // "network" without more GPUs than a node holds: the calibration rows' meaning, each GPU on its own node
        gpn = ic == "network" && !spans_nodes ? 1 : req.gpus_per_node;
        fabric = resolve_fabric(is_fabric_name(ic) ? ic : "network", req.nics_per_node, gpn, err);
        if (!fabric) return false;
        ic.clear();
    }
    // a combination's assumed PCIe link (8x-h200-sxm: gpu_combos.h) gives way to the form factor's NVLink
    if (ic.empty()) ic = s.hw->link_gbs > 0 && !(sxm && s.hw->link_assumed) ? s.hw->link : (sxm ? "nvlink" : "pcie");
    if (ic == "nvlink") {
        s.link_gbs = id.find("b200") != std::string::npos || s.hw->name.find("GB200") != std::string::npos ? 900
                   : id.find("a100") != std::string::npos ? 300 : 450;
        s.link_latency_us = 6;
    } else {
        s.link_gbs = s.hw->link_gbs > 0 ? s.hw->link_gbs : 25;
        // GeForce cards have no GPU peer-to-peer over PCIe: vLLM's custom all-reduce turns itself off
        // (distributed/device_communicators/custom_all_reduce.py: "Custom allreduce is disabled because your
        // platform lacks GPU P2P capability") and NCCL stages every all-reduce through host memory; a small
        // all-reduce then takes ~40 us (NVIDIA/nccl#1530: all_reduce_perf on 8x RTX 4090, 8 bytes, 40-42 us)
        // (the same for any GPUs whose driver or container denies P2P: req.no_p2p). Host staging also costs
        // bandwidth: NCCL's SHM transport moves every chunk into host memory and out again, both directions at
        // once through the CPU's root complex; all_reduce_perf over it reaches 3.9 GB/s bus bandwidth on two
        // GPUs on PCIe 3.0 x16 (NVIDIA/nccl#384, NCCL_P2P_DISABLE=1: a quarter of the link's 15.75 GB/s; the
        // maintainer: some CPUs handle bidirectional traffic poorly), so the link runs at a quarter
        const bool host_staged = is_geforce(*s.hw) || req.no_p2p;
        s.link_latency_us = host_staged ? kNoP2pAllreduceUs : 15;
        if (host_staged) s.link_gbs *= kNoP2pLinkShare;
    }
    if (fabric) place_across_nodes(*fabric, gpn, s);
    return true;
}

// expert parallel (vLLM --enable-expert-parallel with DP 1: EP size = tp; fused_moe/layer.py determine_expert_map puts
// E // ep experts on each rank and one more on the first E % ep, so the busiest holds ceil(E / ep)). The FusedMoE
// output is still summed with tensor_model_parallel_all_reduce (layer.py forward: reduce_results and tp_size > 1):
// with attention TP, every rank sees every token and computes its own experts' share, so the communication stays
// the TP all-reduce; the all-to-all dispatch (DeepEP, pplx) belongs to data-parallel attention, not modelled
static bool expert_parallel_shape(const ServeRequest& req, ReplicaShape& s, std::string& err) {
    s.ep = 1; s.local_experts = s.n_experts;
    if (!req.expert_parallel) return true;
    if (s.n_experts <= 0) { err = "ep: expert parallel needs a MoE model ('" + s.model->id + "' has no routed experts)"; return false; }
    if (!engine_row(s.engine).ep_flag) {
        std::vector<const char*> with;
        for (const Engine& e : engines()) if (e.ep_flag) with.push_back(e.name);
        std::string list;
        for (size_t i = 0; i < with.size(); ++i) list += std::string(i == 0 ? "" : i + 1 == with.size() ? " and " : ", ") + with[i];
        err = "ep: expert parallel is modelled for " + list + ", not " + engine_row(s.engine).name;
        return false;
    }
    s.ep = s.tp;
    s.local_experts = (s.n_experts + s.ep - 1) / s.ep;
    return true;
}

// DeepSeek's FP8 checkpoints (an MLA model at fp8) quantize every linear in 128 x 128 blocks (config.json
// quantization_config weight_block_size); their per-GPU shapes (vLLM deepseek_v2.py: q_a_proj and kv_a_proj_with_mqa
// replicated, q_b_proj column-parallel, o_proj row-parallel, the shared experts' and the dense layers' MLP as in
// Llama), for the grid-starved GEMM law (serving_internal.h kBlockFp8LaunchUs). The routed experts run fused_moe
// (expert_step) and the absorbed W_UK / W_UV products run BF16, so neither is here
static void block_fp8_linears(const Model& m, const ServeRequest& req, ReplicaShape& s) {
    s.block_fp8.clear();
    if (!m.mla || req.precision != "fp8" || (s.hw && runs_deepgemm(req, *s.hw))) return;
    const double H = (double)m.hidden_size, tp = s.tp;
    const MlaConfig& a = *m.mla;
    const double qk = (double)m.n_heads * (a.qk_nope_head_dim + a.qk_rope_head_dim);
    auto add = [&](double n, double k, int layers) { if (n > 0 && k > 0 && layers > 0) s.block_fp8.push_back({n, n * k, layers}); };
    const int L = s.layers_stage, moe = s.moe_layers_stage, dense = L - moe;
    if (a.q_lora_rank > 0) { add(a.q_lora_rank, H, L); add(qk / tp, a.q_lora_rank, L); }
    else add(qk / tp, H, L);
    add(a.kv_lora_rank + a.qk_rope_head_dim, H, L);
    add(H, (double)m.n_heads * a.v_head_dim / tp, L);
    if (m.is_moe() && m.moe->n_shared_experts > 0) {
        const double f = (double)(m.moe->shared_ffn > 0 ? m.moe->shared_ffn : m.moe->expert_ffn) * m.moe->n_shared_experts / tp;
        add(2 * f, H, moe); add(H, f, moe);
    }
    add(2.0 * m.intermediate_size / tp, H, dense); add(H, m.intermediate_size / tp, dense);
}

bool build_shape(const Catalog& cat, const ServeRequest& req, ReplicaShape& s, std::string& err, const ParamCounts* counts) {
    s = ReplicaShape{};
    const Engine* er = find_engine(req.engine);
    if (!er) {
        std::string names;   // the engines serve() models (MLX runs single-stream scenarios only)
        for (const std::string& n : serve_engines()) names += (names.empty() ? "" : ", ") + n;
        err = "engine: unknown engine '" + req.engine + "' (" + names + ")";
        return false;
    }
    if (er->weights == WeightFormat::MlxQuant) { err = mlx_no_serving_model(); return false; }
    s.engine = er->id;
    s.model = req.model_override ? req.model_override.get() : cat.find_model(req.model);
    if (!s.model) { err = "model: unknown model '" + req.model + "' (a catalog id, or give its config)"; return false; }
    s.hw = req.hardware_override ? req.hardware_override.get() : resolve_device(cat, req.hardware);
    if (!s.hw) { err = "hardware: unknown hardware '" + req.hardware + "'"; return false; }
    if (s.hw->memory_bytes <= 0 || s.hw->bandwidth_gbs <= 0) { err = "hardware: memory and bandwidth must be > 0"; return false; }
    if (req.tp < 1 || req.tp > 64) { err = "tp: " + std::to_string(req.tp) + " is out of range (1 to 64)"; return false; }
    if (req.pp < 1 || req.pp > 64) { err = "pp: " + std::to_string(req.pp) + " is out of range (1 to 64)"; return false; }
    int gpus = std::max(req.gpus, s.hw->gpu_count > 1 ? s.hw->gpu_count : 1);
    if (gpus < req.tp * req.pp || gpus > 1024) {
        err = "gpus: " + std::to_string(gpus) + " cannot hold tp x pp = " + std::to_string(req.tp * req.pp) + " (1 to 1024 GPUs)";
        return false;
    }
    const Model& m = *s.model;
    if (m.n_layers <= 0 || m.hidden_size <= 0 || m.n_heads <= 0) { err = "model: has no layers"; return false; }
    // vLLM and SGLang refuse to start otherwise (the row's tp_divides_heads; engines.cpp cites their checks)
    if (er->tp_divides_heads && m.n_heads % req.tp != 0) {
        err = "tp: " + std::to_string(m.n_heads) + " attention heads are not divisible by tp " + std::to_string(req.tp) +
              " (the engine refuses to start); pick a tp that divides " + std::to_string(m.n_heads);
        return false;
    }
    s.tp = req.tp; s.pp = req.pp; s.replicas = gpus / (req.tp * req.pp);
    s.layers_stage = (m.n_layers + s.pp - 1) / s.pp;
    if (er->weights == WeightFormat::Checkpoint) {
        s.weight_bytes_per_param = linear_bytes_per_param(req.precision);
        if (s.weight_bytes_per_param < 0) {
            err = "precision: unknown '" + req.precision + "' (bf16, fp16, fp8, nvfp4, mxfp4, int4-awq, int4-gptq, int8)";
            return false;
        }
    }
    ParamCounts pc;
    if (counts) pc = *counts;
    else if (!count_params(m, pc, err)) return false;
    // linear weights shard over TP (ColumnParallelLinear / RowParallelLinear); the embedding and the LM head
    // are vocab-parallel over TP (VocabParallelEmbedding, ParallelLMHead) and stay BF16 in every quantized
    // format above; PP puts whole layers on each stage (vLLM distributed/utils.py get_pp_indices), the
    // embedding on the first and the head on the last
    double embed = (double)pc.embedding, head = (double)(pc.output ? pc.output : pc.embedding);
    double experts = (double)pc.routed_expert;
    double linear = std::max(0.0, (double)pc.total - (double)pc.embedding - (double)pc.output - experts);
    double stage = (double)s.layers_stage / m.n_layers;
    double bpp = s.weight_bytes_per_param;
    double expert_bpp = bpp;
    if (req.precision == "mxfp4" && m.is_moe()) bpp = 2.0;   // gpt-oss: MXFP4 experts, BF16 elsewhere
    if (er->weights == WeightFormat::GgufFileType) {
        // llama-server: the GGUF file type's per-tensor rules (memory/prepared_weights.h), spread per parameter
        auto pw = prepare_weights(cat, m, req.precision, err);
        if (!pw) return false;
        double ratio = (double)pw->weights_bytes / std::max(1.0, (double)pc.total);
        bpp = expert_bpp = ratio; s.weight_bytes_per_param = ratio;
    }
    double emb_gpu = std::max(embed, head) * 2.0 / s.tp;
    s.dense_read_bytes_gpu = linear * bpp * stage / s.tp + head * 2.0 / s.tp * (s.pp == 1 ? 1.0 : 1.0);
    if (m.is_moe()) {
        s.n_experts = m.moe->n_experts; s.k_experts = m.moe->n_experts_active;
        for (int il = 0; il < s.layers_stage; ++il) s.moe_layers_stage += layer_is_moe(m, il) ? 1 : 0;
    }
    if (!expert_parallel_shape(req, s, err)) return false;
    // TP: every expert sharded 1/tp on each rank; EP: ceil(E / ep) whole experts on the busiest rank
    s.expert_bytes_gpu = s.ep > 1 ? experts * expert_bpp * stage * s.local_experts / s.n_experts : experts * expert_bpp * stage / s.tp;
    s.weight_bytes_gpu = linear * bpp * stage / s.tp + s.expert_bytes_gpu + (s.pp == 1 ? (embed + (pc.output ? head : 0)) * 2.0 / s.tp : emb_gpu);
    s.active_params_gpu = ((double)pc.active - embed) * stage / s.tp;
    if (s.n_experts > 0)
        s.expert_active_params_gpu = std::min(s.active_params_gpu, experts * s.k_experts / s.n_experts * stage / s.tp);
    s.hidden = (double)m.hidden_size; s.vocab = (double)m.vocab_size;
    s.inter_gpu = (double)m.intermediate_size / s.tp;
    // EP keeps each expert whole: fused_moe's workspace rows carry the full intermediate (w1.shape[1] = 2 x I)
    s.expert_inter_gpu = m.is_moe() ? (double)m.moe->expert_ffn / (s.ep > 1 ? 1 : s.tp) : 0;
    s.expert_params_one = s.n_experts > 0 ? experts * stage / s.n_experts : 0;
    // KV heads per GPU: max(1, n_kv / tp) — vLLM replicates a KV head when tp > n_kv
    // (config.py ModelConfig.get_num_kv_heads); MLA caches the latent once per token on every TP rank
    int attn_layers = s.layers_stage;
    if (m.hybrid) attn_layers = (int)std::ceil((double)m.hybrid->attention_layers.size() * stage);
    s.kv_elem_bytes = kv_elem_bytes(req.kv_dtype, req.precision, s.engine, m.mla.has_value() && req.precision == "fp8");
    if (m.mla) {
        s.kv_bytes_token_gpu = (double)(m.mla->kv_lora_rank + m.mla->qk_rope_head_dim) * attn_layers * s.kv_elem_bytes;
    } else {
        double kv_heads = std::max(1.0, std::floor((double)m.n_kv_heads / s.tp));
        s.kv_bytes_token_gpu = kv_heads * (m.head_dim + m.kv_head_dim_v()) * attn_layers * s.kv_elem_bytes;
    }
    double heads_gpu = std::max(1.0, (double)m.n_heads / s.tp);
    int hd = m.mla ? (m.mla->qk_nope_head_dim + m.mla->qk_rope_head_dim) : m.head_dim;
    s.attn_flops_token_ctx = 2.0 * heads_gpu * (hd + m.kv_head_dim_v()) * attn_layers;
    s.attn_flops_decode_ctx = s.attn_flops_token_ctx;
    // MLA decode is the "data-movement friendly" path (vllm/v1/attention/backends/mla/common.py; SGLang
    // DeepseekV2AttentionMLA forward_absorb): q_nope is absorbed into W_UK, so every head attends the cached latent
    // itself, scores over Lkv + R = kv_lora_rank + qk_rope_head_dim and the output over Lkv, then W_UV; per head and
    // context token 2 (Lkv + R) + 2 Lkv FLOPs (DeepSeek-V3: 2176, vs 640 for the expanded heads prefill uses). The
    // absorbed W_UK / W_UV products are kv_b_proj's parameters, counted with the matmuls already
    if (m.mla)
        s.attn_flops_decode_ctx = 2.0 * heads_gpu * (2.0 * m.mla->kv_lora_rank + m.mla->qk_rope_head_dim) * attn_layers;
    block_fp8_linears(m, req, s);
    s.layer_floor_us = early_mla_moe_layer_us(req, m);
    s.decode_kv_reads = decode_kv_reads(req, m, *s.hw, s.tp);
    s.bw_gbs = s.hw->bandwidth_gbs;
    s.tflops = compute_tflops(*s.hw, req.precision);
    if (s.tflops <= 0) s.tflops = s.bw_gbs * 0.2;   // unknown FP16 rate: a conservative 0.2 TFLOPS per GB/s
    // attention (QK^T, PV) runs on the KV cache's dtype, not the weights': FP16/BF16, or FP8 with an FP8 cache
    // on FP8 tensor cores when the matmuls run FP8 too (capped at their rate); NVFP4/MXFP4 weights do not make
    // attention 4-bit
    s.attn_tflops = s.hw->fp16_tflops > 0 ? s.hw->fp16_tflops * (s.kv_elem_bytes == 1 && has_fp8_tensor(*s.hw) ? 2.0 : 1.0)
                                          : s.tflops;
    s.attn_tflops = std::min(s.attn_tflops, s.tflops);
    if (!choose_links(req, s, err)) return false;
    return lora_slots(req, s, err);
}

// [SECTION] Defaults -------------------------------------------------------------------------------------

// the engines' batch defaults are their rows' BatchDefaults (engines.cpp cites each engine's source). vLLM keeps the
// small defaults on A100s whatever their memory (arg_utils.py: `device_memory >= 70 * GiB_bytes and "a100" not in
// device_name`, NOTE(Kuntai): a large max_num_batched_tokens on A100 reduces throughput, PR #17885; before it the
// large values were for "h100" / "h200" device names only)
bool vllm_large_defaults(const ReplicaShape& s) {
    return (double)s.hw->memory_bytes >= 70.0 * (double)kGiB && s.hw->id.find("a100") == std::string::npos &&
           s.hw->name.find("A100") == std::string::npos;
}
static bool large_gpu(LargeGpuRule rule, const ReplicaShape& s) {
    switch (rule) {
    case LargeGpuRule::Memory70GiB: return (double)s.hw->memory_bytes >= 70.0 * (double)kGiB;
    case LargeGpuRule::Memory70GiBNotA100: return vllm_large_defaults(s);
    case LargeGpuRule::None: break;
    }
    return false;
}
int default_max_num_seqs(EngineId e, const ReplicaShape& s) {
    const BatchDefaults& d = engine_row(e).batch;
    return large_gpu(d.large, s) ? d.large_max_num_seqs : d.max_num_seqs;
}
int default_max_batched_tokens(EngineId e, const ReplicaShape& s) {
    const BatchDefaults& d = engine_row(e).batch;
    return large_gpu(d.large, s) ? d.large_max_batched_tokens : d.max_batched_tokens;
}

// vLLM before v0.8 (the V0 engine) with an MLA model (DeepSeek-V2/V3/R1): VllmConfig.__post_init__ logs "MLA is
// enabled; forcing chunked prefill and prefix caching to be disabled" (config.py:3257 in v0.7.1, :3329 in v0.7.3,
// on GPUs too: the startup logs quoted in vllm-ascend issues show both lines) and sets max_num_batched_tokens =
// max(max_model_len, 2048) (the branch that vllm-project/vllm#12639, MLA with chunked prefill, later kept for
// non-GPU platforms only: vllm/platforms/hpu.py check_and_update_config). The profile run then pushes a whole
// max_model_len batch through the model, and its activation peak (fused_moe's caches at T x top-k x hidden) comes
// off the KV pool: DeepSeek-R1 at its 163,840-token default context on 8x H200 keeps ~12 GiB of KV per GPU, room for
// ~45 requests of 4,000 tokens, which is the queue dstack's runs show at 128 clients. V0's max_num_seqs is 256
// (EngineArgs before the V1 defaults of v0.8). 0 when the rule does not apply
bool vllm_v0_mla(const ServeRequest& req, const ReplicaShape& s) {
    return s.engine == EngineId::Vllm && runs_vllm_v0(req) && s.model->mla;
}
int vllm_v0_mla_batched_tokens(const ServeRequest& req, const ReplicaShape& s) {
    if (!vllm_v0_mla(req, s) || req.max_num_batched_tokens > 0) return 0;
    const int64_t mml = req.max_model_len > 0 ? req.max_model_len : (s.model->native_context > 0 ? s.model->native_context : 4096);
    return (int)std::min<int64_t>(std::max<int64_t>(mml, 2048), 1 << 30);
}
// vLLM V0 (before v0.8) with a model without MLA: its own batch defaults, not V1's (EngineArgs.create_engine_config
// in vllm/engine/arg_utils.py, 0.6.x-0.7.x). Chunked prefill is on by default only for a long context:
// `use_long_context = max_model_len > 32768`, on a GPU, without a sliding window, LoRA or prefix caching ("Chunked
// prefill is enabled by default for models with max_model_len > 32K"); SchedulerConfig then sets
// max_num_batched_tokens = 512 ("Chunked prefill is enabled with max_num_batched_tokens=512" in 0.6.3 / 0.6.4 startup
// logs), 2048 from v0.6.5 (vllm-project/vllm#10544, 2024-11-21); with chunked prefill off, max(max_model_len, 2048)
// and Scheduler._schedule_default runs waiting prompts before any decode (LoadSetup::prefill_first).
// -1: the rule does not apply (V1, another engine, MLA: vllm_v0_mla above); 0: chunked prefill off; 1: on
// The server's max_model_len decides: the request's flag, else the model's own context (a benchmark row that states
// none ran the server's default, whatever room apply_predict_defaults gives the workload).
namespace {
int64_t vllm_v0_server_max_model_len(const ServeRequest& req, const ReplicaShape& s) {
    if (req.max_model_len > 0 && !req.max_model_len_assumed) return req.max_model_len;
    return s.model->native_context > 0 ? s.model->native_context : 4096;
}
}  // namespace
int vllm_v0_dense_chunked(const ServeRequest& req, const ReplicaShape& s) {
    if (s.engine != EngineId::Vllm || !runs_vllm_v0(req) || s.model->mla) return -1;
    const int64_t mml = vllm_v0_server_max_model_len(req, s);
    const bool on = mml > 32768 && !s.model->swa && req.max_loras <= 0 && req.prefix_caching != 1;
    return on ? 1 : 0;
}
// SGLang from v0.5.3 (or no version at all: the current release; a version string that names no release, such as
// serving.jsonl's "lmsysorg/sglang docker (version not recorded; Dec 2024)", keeps the 0.4.x rule, as runs_deepgemm
// does): python/sglang/srt/server_args.py
// ServerArgs._handle_gpu_memory_settings as sgl-project/sglang#10975 wrote it (merged 2025-09-27; v0.5.2 was out by
// 2025-09-25): one if/else chain on the GPU's memory (torch's total, MiB) sets chunked_prefill_size and
// cuda_graph_max_bs, then mem_fraction_static = (gpu_mem - reserved) / gpu_mem, reserved = 512 + 1.5 x
// max(chunked_prefill_size, 2048) + 2 x cuda_graph_max_bs + tp x pp / 8 x 1024 MiB, at least 10 GiB above 60 GiB
// (DP attention's extra padding terms are not modelled: the request has no DP-attention switch)
bool sglang_memory_heuristics(const ServeRequest& req, const ReplicaShape& s) {
    if (s.engine != EngineId::Sglang) return false;
    if (req.engine_version.empty()) return true;
    return engine_version_number(req.engine_version) >= 503;
}
SglangMemoryDefaults sglang_memory_defaults(const ReplicaShape& s) {
    const double mib = (double)s.hw->memory_bytes / 1048576.0, g = 1024.0;
    SglangMemoryDefaults d;
    const bool tp4 = s.tp >= 4;
    if (mib < 20 * g) { d.chunked_prefill_size = 2048; d.cuda_graph_max_bs = 8; }                 // T4, 4080
    else if (mib < 35 * g) { d.chunked_prefill_size = 2048; d.cuda_graph_max_bs = tp4 ? 80 : 24; } // A10, 4090, 5090
    else if (mib < 60 * g) { d.chunked_prefill_size = 4096; d.cuda_graph_max_bs = tp4 ? 160 : 32; } // A100-40GB, L40
    else if (mib < 160 * g) { d.chunked_prefill_size = 8192; d.cuda_graph_max_bs = tp4 ? 512 : 256; } // H100, A100, H20, H200
    else { d.chunked_prefill_size = 16384; d.cuda_graph_max_bs = 512; }                              // B200, MI300
    double reserved = 512 + 1.5 * std::max(d.chunked_prefill_size, 2048) + 2.0 * d.cuda_graph_max_bs + s.tp * s.pp / 8.0 * 1024;
    if (mib > 60 * g) reserved = std::max(reserved, 10 * g);
    d.mem_fraction_static = std::round((mib - reserved) / mib * 1000.0) / 1000.0;
    return d;
}
int effective_max_batched_tokens(const ServeRequest& req, const ReplicaShape& s) {
    if (req.max_num_batched_tokens > 0) return req.max_num_batched_tokens;
    if (sglang_memory_heuristics(req, s)) return sglang_memory_defaults(s).chunked_prefill_size;
    const int v0_mla = vllm_v0_mla_batched_tokens(req, s);
    if (v0_mla > 0) return v0_mla;
    const int chunked = vllm_v0_dense_chunked(req, s);
    if (chunked == 1) return engine_version_number(req.engine_version) >= 605 ? 2048 : 512;
    if (chunked == 0) return (int)std::min<int64_t>(std::max<int64_t>(vllm_v0_server_max_model_len(req, s), 2048), 1 << 30);
    return default_max_batched_tokens(s.engine, s);
}
int effective_max_num_seqs(const ServeRequest& req, const ReplicaShape& s) {
    if (req.max_num_seqs > 0) return req.max_num_seqs;
    // V0's EngineArgs.max_num_seqs = 256 on every GPU (V1's larger defaults came with v0.8)
    return s.engine == EngineId::Vllm && runs_vllm_v0(req) ? 256 : default_max_num_seqs(s.engine, s);
}

// [SECTION] Memory plans ---------------------------------------------------------------------------------

namespace {

// what the engine sees as the GPU's total: cudaMemGetInfo's total is below nvidia-smi's by the driver's
// reservation; vLLM #10517's log shows total_gpu_memory=23.58GiB on a 24,576 MiB RTX 3090 (0.9825), A100-80GB
// logs 79.15 GiB of 80 GiB (0.989). An estimate: 0.985 of the catalog's driver-reported size.
constexpr double kVisibleShare = 0.985;
// vLLM's non-torch memory at TP 1 (CUDA graphs excluded; cuBLAS workspace, allocator slack): 0.35 GiB in the
// same #10517 log; NCCL and custom all-reduce buffers add to it with TP > 1 (an estimate, 0.25 GiB + 0.1 per rank)
double non_torch_bytes(const ReplicaShape& s) {
    return (0.35 + (s.tp * s.pp > 1 ? 0.25 + 0.1 * s.tp * s.pp : 0.0)) * (double)kGiB;
}

// the profile run's activation peak (vLLM gpu_model_runner.profile_run -> _dummy_run(max_num_batched_tokens) and
// _dummy_sampler_run(max_num_seqs); SGLang leaves it inside 1 - mem_fraction_static). T tokens in one forward:
// the MLP holds the residual and the normed input (2 x T x H), gate_up's output (T x 2I) and the activation
// (T x I), all BF16 -> 2 B x T x (2H + 3I/tp); an MoE layer's fused_moe caches hold T x k x (3 I_e/tp + H);
// the sampler's FP32 logits and probabilities, 2 x 4 B x max_num_seqs x vocab
double activation_peak_bytes(const ReplicaShape& s, int tokens, int seqs) {
    double T = tokens;
    double mlp = 2.0 * T * (2 * s.hidden + 3 * s.inter_gpu);
    if (s.n_experts > 0) mlp = std::max(mlp, 2.0 * T * (2 * s.hidden + s.k_experts * (3 * s.expert_inter_gpu + s.hidden)));
    double sampler = 8.0 * seqs * s.vocab;
    return mlp + sampler;
}

// captured graphs: vLLM captures 67 batch sizes (1..512, gpu_model_runner.capture_model) after the KV cache is
// allocated, so their pools come out of the 1 - gpu_memory_utilization headroom; an estimate, ~1 MiB per layer
// per captured size of workspace. Shown, not subtracted from the pool.
double cuda_graph_bytes(const ReplicaShape& s, bool on) {
    return on ? std::min(2.0 * (double)kGiB, 67.0 * s.layers_stage * 0.0625 * 1048576.0 + 0.25 * (double)kGiB) : 0.0;
}

void fill_pool(const ServeRequest& req, const ReplicaShape& s, double kv_pool, int block, ServeMemoryPlan& out) {
    out.block_size = block;
    out.kv_bytes_per_token = (uint64_t)std::llround(s.kv_bytes_token_gpu);
    out.kv_pool_bytes = kv_pool > 0 ? (uint64_t)kv_pool : 0;
    double per_block = s.kv_bytes_token_gpu * block;
    out.kv_pool_blocks = kv_pool > 0 ? (int64_t)std::floor(kv_pool / per_block) : 0;
    out.kv_pool_tokens = out.kv_pool_blocks * block;
    int64_t mml = req.max_model_len > 0 ? req.max_model_len
                : (s.model->native_context > 0 ? s.model->native_context : 4096);
    out.max_model_len = mml;
    int64_t blocks_per_req = (mml + block - 1) / block;
    // kv_cache_utils.get_max_concurrency_for_kv_cache_config: num_blocks / cdiv(max_model_len, block_size)
    out.max_concurrency = blocks_per_req > 0 ? (double)out.kv_pool_blocks / blocks_per_req : 0;
    // kv_cache_utils.estimate_max_model_len: the longest sequence whose blocks fit the pool
    out.largest_max_model_len = out.kv_pool_tokens;
    out.fits = out.kv_pool_blocks >= blocks_per_req && out.kv_pool_blocks > 0;
}

std::string gib(double b) { char t[32]; snprintf(t, sizeof t, "%.2f GiB", b / (double)kGiB); return t; }

// llama-server -np N --kv-unified -c CTX: one KV buffer of CTX cells shared by the N slots (any slot may use
// up to CTX); weights, KV, compute buffers and overhead exactly as the llama.cpp memory model sizes them
// (memory/memory.h estimate_memory), its usable limit and its largest context that fits
bool plan_llamacpp(const Catalog& cat, const ServeRequest& req, const ReplicaShape& s, int seqs, ServeMemoryPlan& out,
                   std::string& err) {
    auto pw = prepare_weights(cat, *s.model, req.precision, err);
    if (!pw) return false;
    MemoryRequest mr;
    mr.file_type = req.precision;
    mr.n_ctx = req.max_model_len > 0 ? req.max_model_len : std::min<int64_t>(s.model->native_context > 0 ? s.model->native_context : 4096, 32768);
    mr.n_parallel = seqs;
    mr.kv_unified = true;
    mr.hardware = s.hw;
    if (req.kv_dtype == "q8_0" || req.kv_dtype == "fp8") mr.kv_type_k = mr.kv_type_v = TensorType::Q8_0;
    mr.with_notes = false;
    MemoryBreakdown mb;
    if (!estimate_memory(*pw, *s.model, mr, mb, err)) return false;
    int gpus = std::max(1, s.hw->gpu_count);
    out.weights_bytes = mb.weights_bytes / (uint64_t)gpus;
    out.activation_peak_bytes = mb.compute_bytes / (uint64_t)gpus;
    out.runtime_bytes = mb.overhead_bytes / (uint64_t)gpus;
    out.cuda_graph_bytes = 0;
    out.budget_bytes = mb.usable_bytes / (uint64_t)gpus;
    out.kv_pool_bytes = mb.kv_cache_bytes / (uint64_t)gpus;
    out.block_size = 1;
    out.kv_pool_tokens = mr.n_ctx;
    out.kv_pool_blocks = mr.n_ctx;
    out.kv_bytes_per_token = mr.n_ctx > 0 ? (uint64_t)(mb.kv_cache_bytes / (uint64_t)mr.n_ctx) : 0;
    out.max_model_len = mr.n_ctx;
    out.max_concurrency = seqs;
    out.largest_max_model_len = mb.max_context > 0 ? mb.max_context : 0;
    out.fits = mb.status != FitStatus::Oom && mb.status != FitStatus::PartialOffload && mb.status != FitStatus::Unknown;
    out.rules.push_back("llama-server -np " + std::to_string(seqs) + " --kv-unified -c " + std::to_string(mr.n_ctx) +
                        ": one KV buffer of -c cells shared by all slots; status " + to_string(mb.status) +
                        " (llama.cpp memory model, memory/memory.h estimate_memory)");
    return true;
}

}  // namespace

// [SECTION] Each engine's KV-pool rule (engines.h KvPoolPlan)

bool finish_pool(const ServeRequest& req, const ReplicaShape& s, double kv, int block, ServeMemoryPlan& out) {
    fill_pool(req, s, kv, block, out);
    char t[200];
    snprintf(t, sizeof t, "weights per GPU %s (tp %d, pp %d: %d layers on the busiest stage)", gib(s.weight_bytes_gpu).c_str(),
             s.tp, s.pp, s.layers_stage);
    out.rules.insert(out.rules.begin(), t);
    if (kv <= 0) out.rules.push_back("no memory left for the KV cache: " + gib(kv));
    return true;
}

bool vllm::kv_pool(const Catalog&, const ServeRequest& req, const ReplicaShape& s, const PoolInputs& in, ServeMemoryPlan& out,
                   std::string& err) {
    const double total = in.total_bytes, act = in.act_bytes;
    double util = req.gpu_memory_utilization > 0 ? req.gpu_memory_utilization : 0.9;
    if (util > 1.0) { err = "gpu_memory_utilization: must be in (0, 1]"; return false; }
    // v1/worker/gpu_worker.py Worker.determine_available_memory: requested_memory = total x utilization;
    // available KV = requested_memory - non_kv_cache_memory (weights + torch peak increase of profile_run +
    // non-torch increase), measured by utils memory_profiling
    out.budget_bytes = (uint64_t)(total * util);
    out.lora_bytes = (uint64_t)(s.lora_slots * s.lora_slot_bytes_gpu);
    double kv = total * util - s.weight_bytes_gpu - (double)out.lora_bytes - act - non_torch_bytes(s);
    if (s.lora_slots > 0)
        out.rules.push_back("LoRA slots " + gib((double)out.lora_bytes) + " = max_loras " + std::to_string(s.lora_slots) +
                            " x A/B buffers at max_lora_rank " + std::to_string(req.max_lora_rank) +
                            " per wrapped linear, allocated with the model (vllm/lora/layers/base_linear.py create_lora_weights)");
    out.rules.push_back("budget = total " + gib(total) + " x gpu_memory_utilization " + std::to_string(util).substr(0, 4) +
                        " (vLLM v1/worker/gpu_worker.py Worker.determine_available_memory)");
    out.rules.push_back("KV pool = budget - weights" + std::string(s.lora_slots > 0 ? " - LoRA slots" : "") +
                        " - activation peak of profile_run(" + std::to_string(in.tokens) +
                        " tokens, " + std::to_string(in.seqs) + " seqs) - non-torch (gpu_worker.determine_available_memory, utils.memory_profiling)");
    if (vllm_v0_mla_batched_tokens(req, s) > 0)
        out.rules.push_back("vLLM < 0.8 with MLA: chunked prefill forced off, max_num_batched_tokens = max(max_model_len, 2048) = " +
                            std::to_string(in.tokens) + ", so the profile run's activation peak is a whole max_model_len batch "
                            "(VllmConfig.__post_init__, v0.7.x); pass --max-model-len to shrink it");
    out.rules.push_back("blocks = pool // (block_size x KV bytes per token) (v1/core/kv_cache_utils.py get_num_blocks); "
                        "max concurrency = blocks / cdiv(max_model_len, block_size) (get_max_concurrency_for_kv_cache_config)");
    out.rules.push_back("CUDA graphs are captured after the KV cache (gpu_model_runner.capture_model): they use the "
                        "1 - gpu_memory_utilization headroom, shown, not subtracted");
    return finish_pool(req, s, kv, in.block, out);
}

bool sglang::kv_pool(const Catalog&, const ServeRequest& req, const ReplicaShape& s, const PoolInputs& in, ServeMemoryPlan& out,
                     std::string& err) {
    const double total = in.total_bytes;
    // server_args.py ServerArgs.__post_init__ (0.4.x): mem_fraction_static 0.79 / 0.81 / 0.85 / 0.87 / 0.88
    // for tp >= 16 / 8 / 4 / 2 / 1; from v0.5.3 (sglang#10975) from the GPU's memory (sglang_memory_defaults)
    const bool by_memory = sglang_memory_heuristics(req, s);
    double frac = req.mem_fraction_static > 0 ? req.mem_fraction_static
                : by_memory ? sglang_memory_defaults(s).mem_fraction_static
                : s.tp >= 16 ? 0.79 : s.tp >= 8 ? 0.81 : s.tp >= 4 ? 0.85 : s.tp >= 2 ? 0.87 : 0.88;
    if (frac > 1.0) { err = "mem_fraction_static: must be in (0, 1]"; return false; }
    // model_executor/model_runner.py ModelRunner.profile_max_num_token: rest = available after loading the
    // weights - total_gpu_memory x (1 - mem_fraction_static), where total_gpu_memory is the free memory at
    // init (before the weights: total minus the CUDA context, ~0.5 GiB) -> rest = free0 x frac - weights;
    // max_total_num_tokens = rest // cell_size (cell = kv heads x head_dim x layers x 2 x dtype)
    double free0 = total - 0.5 * (double)kGiB - (s.tp > 1 ? 0.4 * (double)kGiB : 0.0);
    out.budget_bytes = (uint64_t)(free0 * frac);
    double kv = free0 * frac - s.weight_bytes_gpu;
    if (by_memory && req.mem_fraction_static <= 0)
        out.rules.push_back("mem_fraction_static " + std::to_string(frac).substr(0, 5) + " = (GPU memory - reserved) / GPU memory, reserved for "
                            "activations at chunked_prefill_size " + std::to_string(sglang_memory_defaults(s).chunked_prefill_size) +
                            " and CUDA graphs up to batch " + std::to_string(sglang_memory_defaults(s).cuda_graph_max_bs) +
                            " (SGLang v0.5.3+ server_args.py _handle_gpu_memory_settings, sglang#10975)");
    out.rules.push_back("KV pool = free memory at init x mem_fraction_static " + std::to_string(frac).substr(0, by_memory ? 5 : 4) +
                        " - weights (SGLang model_runner.py ModelRunner.profile_max_num_token); activations and CUDA graphs live in the rest");
    return finish_pool(req, s, kv, in.block, out);
}

// a fixed share of the memory free after the weights (and the activation workspace where `minus_act`)
static bool free_share_pool(const ServeRequest& req, const ReplicaShape& s, const PoolInputs& in, double share, bool minus_act,
                            const char* rule, ServeMemoryPlan& out) {
    const double total = in.total_bytes;
    double fr = total - 0.5 * (double)kGiB - s.weight_bytes_gpu - (minus_act ? in.act_bytes : 0.0) - non_torch_bytes(s);
    double kv = fr * share;
    out.budget_bytes = (uint64_t)std::max(0.0, total);
    out.rules.push_back(rule);
    return finish_pool(req, s, kv, in.block, out);
}

// TensorRT-LLM KvCacheConfig.free_gpu_memory_fraction = 0.9 (tensorrt_llm/llmapi/llm_args.py: "Default is 90%") of
// the memory free after weights and the activation workspace (_torch/pyexecutor/_util.py KvCacheCreator)
bool trtllm::kv_pool(const Catalog&, const ServeRequest& req, const ReplicaShape& s, const PoolInputs& in, ServeMemoryPlan& out,
                     std::string&) {
    return free_share_pool(req, s, in, 0.9, true,
                           "KV pool = 0.9 (free_gpu_memory_fraction) x memory free after weights and activations", out);
}

// LMDeploy TurbomindEngineConfig cache_max_entry_count = 0.8 of the free memory after the weights
bool lmdeploy::kv_pool(const Catalog&, const ServeRequest& req, const ReplicaShape& s, const PoolInputs& in, ServeMemoryPlan& out,
                       std::string&) {
    return free_share_pool(req, s, in, 0.8, false, "KV pool = 0.8 (cache_max_entry_count) x memory free after weights", out);
}

bool llamacpp::kv_pool(const Catalog& cat, const ServeRequest& req, const ReplicaShape& s, const PoolInputs& in,
                       ServeMemoryPlan& out, std::string& err) {
    return plan_llamacpp(cat, req, s, in.seqs, out, err);
}

// [SECTION] plan_memory

bool plan_memory(const Catalog& cat, const ServeRequest& req, const ReplicaShape& s, ServeMemoryPlan& out, std::string& err) {
    out = ServeMemoryPlan{};
    const Engine& er = engine_row(s.engine);
    PoolInputs in;
    in.block = req.block_size > 0 ? req.block_size : er.default_block_size;
    if (in.block < 1 || in.block > 1024) { err = "block_size: " + std::to_string(in.block) + " is out of range (1 to 1024)"; return false; }
    in.seqs = effective_max_num_seqs(req, s);
    in.tokens = effective_max_batched_tokens(req, s);
    in.total_bytes = (double)s.hw->memory_bytes * kVisibleShare;
    out.gpu_total_bytes = (uint64_t)in.total_bytes;
    out.weights_bytes = (uint64_t)s.weight_bytes_gpu;
    in.act_bytes = activation_peak_bytes(s, in.tokens, in.seqs);
    out.activation_peak_bytes = (uint64_t)in.act_bytes;
    out.runtime_bytes = (uint64_t)non_torch_bytes(s);
    out.cuda_graph_bytes = (uint64_t)cuda_graph_bytes(s, req.cuda_graphs);
    return er.kv_pool(cat, req, s, in, out, err);
}

}  // namespace llmsim::serving
