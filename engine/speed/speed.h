// llmsim speed model: decode tok/s, prefill tok/s, time to first token and reply time for llama.cpp on one
// device or a layer-split rig, as a breakdown of named time terms. Pure arithmetic, no UI, no exceptions.
//
// The physics (docs/speed-model.md has every term and the fitted numbers):
//   decode  time/token = weights read / (BW x share) + KV read / (BW x share / kv factor) + per-weight ALU work
//                        + fixed launch/sync cost per layer + per-GPU hand-off
//   prefill time/ubatch = max(2 x active params x tokens / effective FLOP/s, weights read once / BW)
//                        + MoE routing (a fixed cost per token and MoE layer)
//                        + causal attention (FLOPs with flash attention, score-matrix bytes without)
//                        + fixed per-ubatch overhead; several GPUs pipeline the ubatches of a batch.
// The few fitted numbers live in assets/calibration/speed_params.json (fit: calibrate.h), per memory type,
// backend, hardware class and weight type; low/high bands are the measured leave-one-device-out errors.
//
//   llmsim::SpeedParams params;
//   std::string err;
//   if (!llmsim::parse_speed_params(json_text, params, err)) { ... }        // or builtin_speed_params()
//   llmsim::SpeedScenario s;
//   s.weight_bytes = 4.92e9; s.weight_bytes_per_token = 4.60e9; s.active_params = 7.50e9; s.n_layers = 32;
//   s.n_heads = 32; s.head_dim_qk = s.head_dim_v = 128; s.full_attn_layers = 32;
//   s.kv_bytes_per_token_full = 32 * 2 * 8 * 128 * 2.0;                     // f16 K+V, 8 KV heads
//   s.bandwidth_gbs = 1008; s.fp16_tflops = 330.3; s.kind = llmsim::HardwareKind::Consumer;
//   s.test = llmsim::SpeedTest::Decode; s.tokens = 128; s.depth = 4096;
//   llmsim::SpeedResult r = llmsim::estimate_speed(s, params);   // r.tokens_per_s, r.low, r.high, r.weight_time_s ...
//
// [SECTION] Inputs
// [SECTION] Parameters
// [SECTION] Results
// [SECTION] Estimates
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "catalog/catalog.h"
#include "quant/quant_types.h"

namespace llmsim {

// [SECTION] Inputs ---------------------------------------------------------------------------------------

// (WeightClass, the kernel family of a file type, weight_class_of and its names are in quant_types.h)

enum class MemoryKind { Gddr, Hbm, Unified };
constexpr int kMemoryKindCount = 3;
const char* to_string(MemoryKind m);
// memory technology when the catalog does not say: Apple/APU = unified LPDDR; datacenter parts with >= 1200 GB/s
// per GPU = HBM (A100, H100, MI300 ...); everything else GDDR (L40S, P40, GeForce, RTX workstation cards)
MemoryKind guess_memory_kind(HardwareKind kind, double bandwidth_gbs);
// dense FP16 TFLOPS to use when a device has none published: the chip family's TFLOPS per GB/s of bandwidth,
// taken from the catalog's devices with a published figure (table in speed.cpp, checked against the catalog by
// tests/engine/test_speed.cpp). The family is the device's chip_family (catalog/chip_family.h: NVIDIA Ada GeForce
// 0.30 TFLOPS per GB/s); the vendor/class rows are medians. An estimate: results that use it carry
// fp16_tflops_estimated and the wider band measured for it (SpeedParams::band_fp16_estimated).
struct Fp16Estimate {
    double tflops = 0;
    double tflops_per_gbs = 0;
    std::string family;                 // "nvidia-ada-geforce", ... or "nvidia-workstation" (vendor/class median)
};
Fp16Estimate estimate_fp16_tflops(ChipFamily family, double bandwidth_gbs);
// the same for a device of unknown family: the class median (class_chip_family)
double estimate_fp16_tflops(HardwareKind kind, double bandwidth_gbs);
// one chip family's rates: a row of the family table (speed.cpp), indexed by ChipFamily
struct ChipFamilyRates {
    ChipFamily family;
    double tflops_per_gbs;
    // share of the rated dense FP16 tensor rate that llama.cpp's CUDA matmuls can issue: they use mma.sync
    // (ggml-cuda/mma.cuh), which on Hopper reaches about 2/3 of the wgmma peak the datasheet rates (FlashAttention-3,
    // Shah et al. 2024, arXiv:2407.08608, sec. 1); 1 elsewhere
    double mma_share = 1.0;
    // rate of llama.cpp's quantised-weight matmuls (CUDA mul_mat_q) relative to fp16_tflops x mma_share, over what
    // it is on a tensor-core part: every tensor-core part in the catalog rates INT8 at 2x its FP16 figure (int8_tops),
    // and MMQ's int8 tiles run at that ratio; Pascal sm_61 (P40, GTX 10) has no tensor cores and its figure is the
    // FP32 rate, while MMQ runs DP4A (4 int8 products per FP32 lane: P40 47 INT8 TOPS = 4 x 11.76), i.e. 2x that
    // ratio; 1 elsewhere (P100, sm_60, has no DP4A)
    double mmq_rate = 1.0;
    // share of fp16_tflops (a tensor rate) that ggml-vulkan's matmuls can issue on the family: where Vulkan gets no
    // cooperative matrix they run the scalar mul_mm shaders on the vector ALUs. ggml_vk_khr_cooperative_matrix_support
    // (ggml-vulkan.cpp) enables KHR coopmat on Intel for Xe2 only ("some older hardware (ex. Arc A770) has performance
    // regressions"), so Alchemist runs its vector engines: per Xe-core 16 XVE x 32 FP16 ops/clk against 16 XMX x 128
    // (Intel, introduction-to-the-xe-hpg-architecture), 1/4 of the XMX figure; 1 elsewhere
    double vulkan_mm_rate = 1.0;
    // ggml-vulkan runs its coopmat2 shaders here (VK_NV_cooperative_matrix2: NVIDIA's driver on tensor-core parts):
    // matmul, MUL_MAT_ID and flash attention each get their own coopmat2 path; everywhere else (AMD, Intel, Apple
    // via MoltenVK) they run the KHR-coopmat or scalar shaders (SpeedParams::vulkan_cm2_compute, vulkan_scalar_moe)
    bool vulkan_coopmat2 = false;
    // llama.cpp's CUDA MMQ runs MXFP4 weights on the FP4 tensor instruction (m16n8k64, twice the int8 rate) with the
    // activations quantised to MXFP4 too: ggml-org/llama.cpp#17906 "CUDA: experimental native mxfp4 support for
    // blackwell", merged 2025-12-24 (b7536; kNativeFp4Build), for sm_120/121 (GeForce RTX 50, RTX PRO 6000: its
    // CMake builds "12Xa"). Measured there on an RTX PRO 6000: gpt-oss-20b pp512 10,561 -> 13,305 t/s, x1.26
    // (kNativeFp4Speedup); B200 (sm_100) is not the PR's target and keeps the int8 path (SpeedScenario::kind)
    bool native_fp4_mma = false;
    // share of the matrix rate (fp16_tflops x mma_share) that ggml-cuda's flash-attention tile kernel (fattn-tile,
    // FP32 math on the vector ALUs) reaches where HIP gives the family no matrix FA kernel (rocm_fa_tile_kernel):
    // RDNA4 issues 256 FP32 FLOP per clock and CU (2 x SIMD32, dual issue) against 1024 dense FP16 WMMA FLOP (Radeon AI
    // PRO R9700: 47.8 FP32 and 191 FP16 matrix TFLOPS, AMD's spec sheet; RX 9070 XT 48.7 and 194.7), so 1/4; 1 (not
    // used) elsewhere
    double fa_tile_share = 1.0;
};
// the family's row; a family that is not set (ChipFamily::Count) is not a row: callers pass class_chip_family()
const ChipFamilyRates& chip_family_rates(ChipFamily family);
// the family's mma_share, mmq_rate and vulkan_mm_rate
double mma_share_of(ChipFamily family);
double mmq_rate_of(ChipFamily family);
double vulkan_mm_rate_of(ChipFamily family);
// llama.cpp's SYCL/Vulkan kernels reach lower shares on Intel GPUs (SpeedParams intel_bw/compute): the Intel families
bool is_intel_gpu(ChipFamily family);
struct SpeedScenario;
// the family's instruction-path rates (mma_share, mmq_rate, vulkan_mm_rate, vulkan_coopmat2) into a scenario: one
// lookup, the one place the scenario builders (speed_glue, rig_speed) take them from
void set_family_rates(SpeedScenario& s, ChipFamily family);

enum class SpeedTest { Prefill, Decode };

struct SpeedScenario {
    // -- model: bytes and FLOPs (the memory model's tensor list gives these for catalog models)
    double weight_bytes = 0;             // all weight bytes (file tensor data), summed over GPUs and host
    double weight_bytes_per_token = 0;   // read per decoded token: non-expert weights without the token-embedding
                                         // table (a row lookup) + active experts (MoE)
    double active_params = 0;            // parameters in matmuls per token (2 FLOP each), token embedding excluded
    int n_layers = 0;
    int n_heads = 0;                     // query heads
    int head_dim_qk = 0;                 // Q/K head size (MLA: nope + rope dims)
    int head_dim_v = 0;                  // V head size (0 = head_dim_qk)
    int full_attn_layers = 0;            // layers attending to the whole context (0 with n_layers set = all of them
                                         // minus swa_layers)
    int swa_layers = 0;                  // sliding-window layers
    int64_t swa_window = 0;              // tokens a sliding-window layer attends to
    double kv_bytes_per_token_full = 0;  // K+V cache bytes per cached token summed over full-attention layers
                                         // (MLA: latent + rope only; KV type already applied)
    double kv_bytes_per_token_swa = 0;   // the same over sliding-window layers (cached tokens capped at swa_window)
    double recurrent_state_bytes = 0;    // hybrid models: one sequence's f32 recurrent state summed over the recurrent
                                         // (Mamba / gated DeltaNet) layers; decode reads and writes it every token
    WeightClass weight_class = WeightClass::KQuant;
    // -- mixture of experts (0 = dense): a ubatch of n tokens sends n x k rows to E experts, so each expert's
    // matmul sees about n k / E tokens (small matmuls run below the dense rate) and, at large n, nearly every
    // expert is read (1 - (1 - k/E)^n of them)
    int moe_experts = 0;                 // routed experts per MoE layer (E)
    int moe_experts_active = 0;          // routed experts per token (k)
    double moe_expert_bytes = 0;         // all routed-expert weight bytes (of weight_bytes)

    // -- hardware, per GPU
    double bandwidth_gbs = 0;            // vendor spec, decimal GB/s
    double fp16_tflops = 0;              // dense FP16 tensor TFLOPS; 0 = unknown (estimated, see estimate_fp16_tflops)
    double mma_share = 1.0;              // share of fp16_tflops llama.cpp's tensor instructions reach (ChipFamilyRates)
    double mmq_rate = 1.0;               // its quantised matmuls' rate over a tensor-core part's (ChipFamilyRates)
    double vulkan_mm_rate = 1.0;         // share of fp16_tflops ggml-vulkan's matmuls issue (ChipFamilyRates)
    bool vulkan_coopmat2 = false;        // ggml-vulkan's coopmat2 shaders run here (ChipFamilyRates)
    bool native_fp4_mma = false;         // MXFP4 on the FP4 tensor instruction from kNativeFp4Build (ChipFamilyRates)
    double fa_tile_share = 1.0;          // flash attention's rate where HIP runs the tile kernel (ChipFamilyRates)
    bool fp16_tflops_estimated = false;  // fp16_tflops came from estimate_fp16_tflops (the band widens)
    HardwareKind kind = HardwareKind::Consumer;
    Backend backend = Backend::Cuda;
    bool intel_gpu = false;              // Intel Arc: llama.cpp's SYCL/Vulkan kernels reach lower shares there
                                         // than the same backend on other vendors (SpeedParams intel_bw/compute)
    MemoryKind memory = MemoryKind::Gddr;   // guess_memory_kind() when the catalog does not say
    int sm_count = 0;                    // NVIDIA SMs per GPU and their boost clock (catalog); 0 = not stated, no
    double sm_clock_mhz = 0;             // per-SM decode read limit (SpeedParams::mmvq_sm_bytes_per_clk); a CPU: its
                                         // clock (the per-core rate below)
    // -- a CPU run (backend cpu): llama-bench's -t and the core's facts (0 = not stated). FLOP/s = min(threads, cores)
    // x the core's FP32 FMA peak (cpu_core_flops_per_clk x sm_clock_mhz); without the core's facts threads x
    // kCpuCoreFp32Gflops; without -t all cores, else fp16_tflops or the class estimate (cpu_tflops in speed.cpp)
    int cpu_threads = 0;
    int cpu_cores = 0;                   // physical cores (threads above them are SMT siblings: no more FMA pipes)
    int cpu_core_flops_per_clk = 0;      // FP32 FLOP per clock of one core: SIMD lanes x 2 (FMA) x FMA pipes
    int gpus = 1;                        // llama.cpp layer split over this many identical GPUs
    double link_gbs = 0;                 // GPU-to-GPU (PCIe/NVLink) per direction; 0 = kDefaultPcieGbs (limits.h)

    // -- offload: a fraction of the layers' weights stays in host RAM (-ngl below the layer count)
    double offload_fraction = 0;         // 0..1 of weight_bytes kept on the host
    double offload_token_fraction = -1;  // 0..1 of a decoded token's weight reads served from the host (a routed
                                         // expert left there by --n-cpu-moe / -ot is read k/E per token, not whole);
                                         // < 0: offload_fraction (whole layers, dense models)
    double host_bandwidth_gbs = 0;       // system RAM bandwidth (decode reads offloaded weights from here)
    double host_link_gbs = 0;            // host->GPU copy rate for prefill (0 = link_gbs or PCIe 4.0 x16)

    // -- the run (llama-bench semantics)
    bool flash_attn = true;
    SpeedTest test = SpeedTest::Decode;
    int64_t tokens = 128;                // ppN prompt tokens or tgN generated tokens
    int64_t depth = 0;                   // tokens already in the context (-d)
    int ubatch = 512;                    // -ub
    int batch = 2048;                    // -b (pipeline parallelism works within one batch)
    int parallel = 1;                    // sequences decoded together (-np); estimate_concurrency
    int llama_build = 0;                 // llama.cpp build (the b-number llama-bench prints, "(6413)"); 0 = a current one
};
// the first llama.cpp build with native MXFP4 on Blackwell (ChipFamilyRates::native_fp4_mma), and the rate of the
// MXFP4 weights' matmuls there over the int8 path. The PR measured the whole model: gpt-oss-20b pp512..pp8192 x1.26..
// 1.27 on an RTX PRO 6000. In this model's split of that run (pp512, flash attention) the weight matmuls are 68 % of
// the time, so x1.43 on them gives the measured x1.26 (the FP4 instruction's own 2x is not reached: the activations'
// FP4 quantisation and the tiles' loads stay)
constexpr int kNativeFp4Build = 7536;
constexpr double kNativeFp4Speedup = 1.43;
// ROCm on RDNA4: ggml_cuda_get_best_fattn_kernel (ggml-cuda/fattn.cu) had no matrix flash-attention kernel for gfx12
// until ggml-org/llama.cpp#18481 "HIP: add fattn-mma-f16 for RDNA4" (commit ea4a321f2; approved 2026-01-07, after
// master b7600 of December 2025, the baseline column of #18537): before it prefill attention ran the tile kernel,
// and so it still does for head sizes above 128 (the WMMA instances are compiled out for DKQ > 128 on AMD:
// llama.cpp#26220, #26419, #28529; b9158's tuning kept the tile kernel there). kRdna4MmaFaBuild is the last build
// known to precede the merge (its own build number is not in our sources): builds up to it take the tile kernel
constexpr int kRdna4MmaFaBuild = 7600;
constexpr int kRdna4MmaFaMaxHead = 128;
// prefill's flash attention runs ggml-cuda's tile kernel (ChipFamilyRates::fa_tile_share) under ROCm on a family
// without a matrix FA kernel for this build and head size
bool rocm_fa_tile_kernel(const SpeedScenario& s);

// the share of a decoded token's weight reads served from host RAM: offload_token_fraction where the scenario
// builder set it (routed experts in host RAM are read k/E per token), else the size share offload_fraction
inline double host_read_fraction(const SpeedScenario& s) {
    return s.offload_token_fraction >= 0 ? s.offload_token_fraction : s.offload_fraction;
}

// [SECTION] Parameters -----------------------------------------------------------------------------------
// Every share is a fraction of the vendor spec; factors are relative to the reference (CUDA, F16, GDDR).

constexpr int kBackendCount = 6;          // indexed by (int)Backend
constexpr int kHardwareKindCount = 6;     // indexed by (int)HardwareKind

struct SpeedBand {                        // held-out relative errors of one hardware class and build era
    int rows = 0;
    double low = 0, high = 0;             // band tails of predicted/measured - 1 (e.g. -0.12, +0.15): the class
                                          // bands' 10th / 90th percentile before the 2025-10 builds, 5th / 95th
                                          // from them on (calibrate.cpp band_tails)
    double mdape = 0;                     // median |error|, fraction
    double within25 = 0;                  // share of rows within +-25 %
    double coverage = 0;                  // share of leave-one-source-out rows inside the band (0 = not measured)
    std::string from;                     // the held-out scheme the band was taken from ("leave-one-source-out")
};

struct SpeedParams {
    // decode
    double bw_share[kMemoryKindCount] = {0.9148, 0.5648, 0.7767};   // weight-read share of spec bandwidth by memory type
    double backend_bw[kBackendCount] = {1, 0.8646, 1.148, 1.168, 1, 1};  // x per backend (CUDA 1)
    double weight_bw[kWeightClassCount] = {1, 1.027, 1.318, 1.022, 0.7738, 1.307};  // x per weight class (F16 1)
    double kv_factor = 1.339;               // KV bytes cost this many weight bytes (strided, f16, small tensors)
    double no_fa_kv[kBackendCount] = {1.959, 3.331, 3.206, 1.959, 1.959, 1.959};  // extra KV cost without flash attention
    double fixed_ms_per_layer = 0.08245;    // kernel launches + syncs per layer per token
    double gpu_hop_ms = 0.2846;            // per extra GPU per token (layer split hand-off)
    double alu_flops_per_param = 38.16;    // dequant + dot work per weight, in FP16-tensor-FLOP equivalents
    double alu_weight[kWeightClassCount] = {1, 1, 1, 1, 1.993, 1};  // x per weight class (F16 1)
    double alu_unified = 0.7815;              // x on Apple/APU (their fp16_tflops is a vector rate)
    // decode on the CPU backend: dequant + dot work per weight in FP32 FLOP equivalents of the cores' FMA peak
    // (cpu_tflops in speed.cpp), instead of the GPU term above. Prior 4: AVX2 ggml_vec_dot_q4_0_q8_0
    // (ggml/src/ggml-cpu/arch/x86/quants.c) spends ~16 256-bit ops per 32-weight block (load and unpack the nibbles,
    // subtract 8, the signed maddubs/madd pair, cvt, the fp16 scales, fma): 0.5 op = 8 FLOP slots of a 2 x 256-bit FMA
    // core per weight, about half of them integer ops that issue beside the FP pipes; fitted on the CPU rows alone
    double alu_cpu_flops_per_param = 4;
    // prefill
    double compute_share = 0.3889;          // of fp16_tflops at the reference point (100 TFLOPS)
    // x per hardware class: 1 for the discrete GPUs (consumer, workstation, datacenter), whose fp16_tflops are all
    // dense tensor rates and share compute_share — a factor per class was fitted on whichever few devices of the
    // class a held-out fold kept (with XiongjieDai's rows out, the datacenter one came from a throttled T4 and a
    // Tesla P40 alone and put A100/H100 prefill 36-38 % slow); fitted for Apple and APU, whose figures are
    // vector-ALU rates, and for CPU, whose figure is the cpu class estimate (0.025 TFLOPS per GB/s; 11 CPU-only
    // prefill rows on 4 CPUs since the thirteenth session: source out 78 -> 38 % MdAPE)
    double compute_kind[kHardwareKindCount] = {1, 1, 1, 1.774, 0.2061, 1};
    double compute_backend[kBackendCount] = {1, 1, 1, 1.232, 1, 1};  // x per backend
    double compute_weight[kWeightClassCount] = {1, 0.9601, 0.8677, 0.7872, 0.6412, 1.723};  // x per weight class
    double tflops_exponent = -0.2928;       // share ~ (TFLOPS/100)^exponent: big tensor units are fed less well
    double fa_attn_factor = 0.5935;         // flash-attention FLOPs cost this x the linear FLOPs (CUDA)
    double fa_attn_backend[kBackendCount] = {1, 1, 1, 1, 1, 1};  // x per backend: each has its own flash-attention
                                          // kernels (CUDA mma, ROCm rocWMMA/vec, Metal simdgroup, Vulkan scalar/coopmat)
    double no_fa_score_bytes = 22.27;       // without flash attention: bytes per (head x context token) per layer
                                          // for the f32 score matrix (write, softmax, read)
    double pipeline_hop_ms = 0.0001298;        // per ubatch per GPU boundary on top of the activation copy
    double host_share = 0.6;              // offloaded weights: share of host RAM bandwidth reached (not fitted)
    double intel_compute = 1;               // prefill: x on Intel Arc GPUs
    double moe_compute = 1;                 // prefill: routed-expert matmuls run at this x the dense rate on top of
                                          // their smaller size (mul_mat_id: sorting rows by expert, gather/scatter)
    // prefill under Vulkan, by shader path (ChipFamilyRates::vulkan_coopmat2). The coopmat2 shaders (NVIDIA) run the
    // matmuls at vulkan_cm2_compute x compute_backend[vulkan]; elsewhere (KHR coopmat or scalar mul_mm.comp) the
    // routed-expert matmuls (MUL_MAT_ID: ggml_vk_matmul_id dispatches every expert over the whole ubatch's columns,
    // each workgroup gathering its expert's rows from the id list, and ggml_vk_guess_matmul_id_pipeline picks the
    // tile from the ubatch, not the expert's share) run at vulkan_scalar_moe x the expert rate
    double vulkan_cm2_compute = 1;
    double vulkan_scalar_moe = 1;
    double moe_route_ns = 2350;             // prefill: ns per token per MoE layer for the routing chain around
                                          // the expert matmuls (router top-k, row gather by expert id, per-expert
                                          // activation quantisation, weighting and summing the k outputs): small
                                          // latency-bound kernels whose time does not shrink with tensor TFLOPS
    double matmul_half_tokens = 16;         // a matmul over n tokens runs at n / (n + this) of the large-n rate
                                          // (dense: n = ubatch; MoE experts: n = ubatch x k / E)
    double intel_bw = 1;                    // decode: x on Intel Arc GPUs
    double intel_vulkan_bw = 1;             // decode: x on Intel Arc GPUs under Vulkan, on top of intel_bw and
                                          // backend_bw[vulkan]. The Arc Pro B70 reads 33-38 % of its 608 GB/s under
                                          // Vulkan (Mesa ANV) and ~2x that under SYCL, A770 Vulkan likewise: the
                                          // Vulkan pipelines' default subgroup/block sizes do not suit Xe (llama.cpp
                                          // PR #17374 retunes them for Xe2, unmerged as of b9837); one intel_bw for
                                          // both backends left Vulkan 2x too fast. Fitted; 1 without such rows
    double mmvq_sm_bytes_per_clk = 16;      // decode (batch <= 8): bytes per SM and clock cycle llama.cpp's CUDA
                                          // matrix-vector kernels (mul_mat_vec_q: one block of 4 warps per row) keep
                                          // in flight per DRAM latency; by Little's law the SMs sustain at most SMs x
                                          // boost clock x this, and a byte costs 1/(spec x share) + 1/(that)
                                          // (decode_read_share in speed.cpp). HBM parts have 10-18 bytes of spec
                                          // bandwidth per SM-clock (A100 PCIe 80GB 12.7, H100 PCIe 10.0, H200 18.4).
                                          // HBM parts whose catalog entry states sm_count and boost_clock_mhz only;
                                          // prefill (mul_mat_q tiles) and batches > 8 do not use it. 0 = off;
                                          // default = the prior
    double moe_bw = 1;                      // decode: routed-expert bytes are read at this x the dense share
                                          // (many small matrices gathered by expert id, mul_mat_id)
    double moe_layer_us = 25;               // decode: us per MoE layer per token for the routing chain (router
                                          // top-k, expert-id gather, the k outputs weighted and summed: ~6-8 small
                                          // latency-bound kernels of a few us each), the same on a fast GPU as on
                                          // a slow one. With moe_bw alone the whole MoE cost scaled with bytes.
                                          // Prior 25, fitted 23 (moe_bw 0.79 -> 0.89); 2025-26 decode source out
                                          // 23.0 -> 20.9 % MdAPE (DGX Spark MoE -28 -> -25 %, still slow)
    double sycl_expert_call_us = 20;        // SYCL MoE, decode and prefill: us per expert matmul call. The SYCL backend's
                                          // ggml_sycl_mul_mat_id copies the expert ids to the host, waits, and loops on
                                          // the host: one mul_mat per selected expert (one token), or per expert with
                                          // rows a gather + mul_mat + scatter (a ubatch); 3 such nodes per MoE layer.
                                          // CUDA, ROCm and Vulkan run one grouped kernel (fitted with decode)
    // bands, [0] decode [1] prefill, by hardware class, from the held-out errors of a whole publication left out
    // with every device it measured (calibrate.h HoldOut::SourceDevices). band: a current llama.cpp build (llama_build
    // 0 or >= kFreshBandFirstBuild), the product's case; band_older: an older build (a pasted run's, a calibration
    // row's). band_older with no rows (an older asset) falls back to band
    SpeedBand band[2][kHardwareKindCount];
    SpeedBand band_older[2][kHardwareKindCount];
    // [0] decode [1] prefill with an estimated fp16_tflops: errors of held-out rows re-predicted with the figure
    // replaced by estimate_fp16_tflops (used instead of the class band when wider)
    SpeedBand band_fp16_estimated[2];
    // [0] decode [1] prefill: the 2025-26 builds alone (calibrate.h recent_build), every class, with a whole
    // publication held out — shown next to the bands, not used by them
    SpeedBand recent_builds[2];
    // provenance of the fit
    int fit_rows_decode = 0, fit_rows_prefill = 0, fit_devices = 0;
    std::string fit_source;
};

// the embedded assets/calibration/speed_params.json (the web page: speed_params.bin written from it at build time,
// speed_binary.h); false + err when it is missing or does not parse (then `out` is the struct defaults). A broken
// asset is a build defect: tests/engine/test_speed.cpp and test_speed_binary.cpp fail on it.
bool load_builtin_speed_params(SpeedParams& out, std::string& err);
// the embedded fit (load_builtin_speed_params; asserts in debug builds that it loaded)
SpeedParams builtin_speed_params();
// parse speed_params.json; false + err naming the field on bad input
bool parse_speed_params(const std::string& json_text, SpeedParams& out, std::string& err);
// serialise to the speed_params.json layout (locale-independent numbers)
std::string speed_params_to_json(const SpeedParams& p);

// [SECTION] Results --------------------------------------------------------------------------------------

// which term dominates a speed: an id, not a word, so that a sweep's results and views carry it without a string
// compare or copy per evaluation (to_string gives the word: "memory", "compute"; None: "", a view without speeds)
enum class Bound : uint8_t { None, Memory, Compute };
const char* to_string(Bound b);

struct SpeedResult {
    bool ok = false;
    std::string error;                    // why there is no estimate (no bandwidth, no layers ...)
    double tokens_per_s = 0;
    double low = 0, high = 0;             // tokens/s band from the measured LODO errors of this hardware class
    double time_s = 0;                    // whole test: N prompt tokens (prefill) or N generated tokens (decode)
    // decode terms, seconds per token (averaged over the N tokens)
    double weight_time_s = 0;             // weights read from GPU memory
    double kv_time_s = 0;                 // KV cache read
    double alu_time_s = 0;                // dequant/dot work that does not overlap the reads
    double fixed_time_s = 0;              // launches and syncs per layer
    double sync_time_s = 0;               // GPU-to-GPU hand-offs (decode: per token; prefill: per ubatch, per token)
    double offload_time_s = 0;            // host-RAM weights (decode: CPU reads them; prefill: copied to the GPU)
    // prefill terms, seconds per token
    double compute_time_s = 0;            // 2 x active params FLOPs (or the weight-read floor when larger)
    double attention_time_s = 0;          // causal attention at this depth
    double overhead_time_s = 0;           // per-ubatch fixed overhead
    bool fp16_tflops_estimated = false;   // the device had no fp16_tflops; estimate_fp16_tflops() was used
    Bound bound = Bound::Memory;          // which term dominates (to_string: "memory" or "compute")
    // roofline point
    double flops_per_token = 0, bytes_per_token = 0;
};

struct ReplyTime {
    bool ok = false;
    std::string error;
    double ttft_s = 0, ttft_low_s = 0, ttft_high_s = 0;   // prompt processing (first token comes from its logits)
    double generate_s = 0;                // gen_tokens decoded from depth = prompt
    double total_s = 0, total_low_s = 0, total_high_s = 0;
    double decode_tokens_per_s = 0;       // average over the reply
};

struct ConcurrencyResult {
    bool ok = false;
    std::string error;
    int parallel = 1;
    double step_time_s = 0;               // one decode step for all sequences
    double aggregate_tokens_per_s = 0;    // all sequences together
    double per_user_tokens_per_s = 0;     // each sequence
    const char* bound = "memory";
};

// [SECTION] Estimates ------------------------------------------------------------------------------------

// the test s.test with s.tokens at s.depth (llama-bench ppN / tgN); fills error when the scenario is unusable
SpeedResult estimate_speed(const SpeedScenario& s, const SpeedParams& p);
// decode: average tokens/s generating n_tokens starting with depth tokens in the context
SpeedResult estimate_decode(const SpeedScenario& s, const SpeedParams& p, int64_t depth, int64_t n_tokens);
// the same for `count` tests on one scenario (out[i] = estimate_decode(s, p, depths[i], n_tokens[i]), bit for bit),
// the position-independent terms computed once: a view's decode at the prompt, the empty and the full context
void estimate_decode_depths(const SpeedScenario& s, const SpeedParams& p, int count, const int64_t* depths,
                            const int64_t* n_tokens, SpeedResult* out);
// the position-independent terms of estimate_decode_depths, kept by a caller that decodes one scenario at depths it
// learns later (a sweep's contexts): check(s) and the weight / ALU / launch / hand-off / offload terms
struct DecodePlan {
    bool ok = false;
    std::string error;                  // why the scenario has no decode (check)
    struct Fixed {
        SpeedResult r;                  // weight / alu / fixed / sync / offload times, fp16_tflops_estimated
        double bw = 0, share = 0, kv_cost = 0, alu = 0;
        double state_rw_bytes = 0;      // recurrent state read + written per token (kv_time_s carries it)
        // the band's divisors of the scenario's class (they depend on neither the depth nor the token count): the
        // low end is tokens/s / low_den, the high end tokens/s / high_den
        double low_den = 1, high_den = 1;
    } fixed;
};
void plan_decode(const SpeedScenario& s, const SpeedParams& p, DecodePlan& plan);
// estimate_decode(s, p, depth, n_tokens) bit for bit, on a plan_decode(s, p) of the same s and p
void estimate_decode_planned(const SpeedScenario& s, const SpeedParams& p, const DecodePlan& plan, int64_t depth,
                             int64_t n_tokens, SpeedResult& out);
// the terms of a decode over positions [depth, depth + n_tokens] that come from the model's part of a scenario alone
// (its KV bytes per token and attention shape, speed_glue.h speed_model_inputs): the KV bytes, bytes and FLOPs read per
// token. Scenarios that share the model's part (a grid's devices) share them
struct DecodeDepth {
    int64_t depth = -1, n_tokens = 0;
    double kv = 0, bytes_per_token = 0, flops_per_token = 0;
};
void plan_decode_depth(const SpeedScenario& s, int64_t depth, int64_t n_tokens, DecodeDepth& out);
// estimate_decode(s, p, depth.depth, depth.n_tokens) bit for bit, on a plan_decode(s, p) and a plan_decode_depth of a
// scenario with the same model's part
void estimate_decode_planned(const SpeedScenario& s, const SpeedParams& p, const DecodePlan& plan,
                             const DecodeDepth& depth, SpeedResult& out);
// prefill: tokens/s processing an n_tokens prompt on top of depth cached tokens
SpeedResult estimate_prefill(const SpeedScenario& s, const SpeedParams& p, int64_t n_tokens, int64_t depth);
// a prefill's terms that come from the model's part of a scenario alone (speed_glue.h speed_model_inputs): each
// ubatch's size, its attention over the cells it runs over (ubatch_layer_ctx) and, MoE, the experts it touches, the
// routing around them and MMQ's tile padding; the prompt's roofline FLOPs and bytes per token. Scenarios that share
// the model's part (a grid's devices) share them: what is left per device is its rates and one pass of additions
struct PrefillUbatch {
    double n = -1;                          // tokens
    double attn_flops = 0, attn_fa = 0;     // attention FLOPs; x fa_attn_factor (flash attention)
    double scores = 0;                      // f32 KQ score bytes (no flash attention)
    double touched = 1, route = 0, pad_tiled = 1;   // share of experts touched, routing seconds, CUDA/ROCm tile padding
};
struct PrefillPlan {
    std::string error;                      // the prompt's or the batch sizes' ("" = none)
    int64_t n_tokens = 0, depth = 0;
    std::vector<PrefillUbatch> ubatches;    // in the order they run
    double flops_per_token = 0, bytes_per_token = 0;
};
void plan_prefill(const SpeedScenario& s, const SpeedParams& p, int64_t n_tokens, int64_t depth, PrefillPlan& out);
// estimate_prefill(s, p, plan.n_tokens, plan.depth) bit for bit, into out (its buffers kept), on a plan_prefill of a
// scenario with the same model's part
void estimate_prefill_planned(const SpeedScenario& s, const SpeedParams& p, const PrefillPlan& plan, SpeedResult& out);
// seconds from sending an n-token prompt (empty cache) to the first generated token
double time_to_first_token_s(const SpeedScenario& s, const SpeedParams& p, int64_t prompt_tokens);
// prompt processing + gen_tokens generated after it
ReplyTime estimate_reply(const SpeedScenario& s, const SpeedParams& p, int64_t prompt_tokens, int64_t gen_tokens);
// n_parallel sequences each at `depth` decoding together (llama-server -np): one step reads the weights once
// and every sequence's KV; MoE steps touch more experts (1 - (1 - k/E)^B of them, from moe_experts)
ConcurrencyResult estimate_concurrency(const SpeedScenario& s, const SpeedParams& p, int n_parallel, int64_t depth,
                                       int moe_experts = 0, int moe_experts_active = 0, double expert_bytes = 0);

// MoE prefill, MUL_MAT_ID: the column tile (tokens) of the expert kernel for a ubatch of n tokens (CUDA/ROCm
// quantised experts: MMQ's mmq_x picked from n by mul_mat_q_case, ggml-cuda/mmq.cuh), 0 where the model does not
// pad (F16 experts on cuBLAS/mmf; Metal, Vulkan, SYCL, CPU: experts at n k / E tokens each, no padding)
int moe_tile_tokens(const SpeedScenario& s, double n);
// columns computed per routed row: E x E[ceil(t / tile)] x tile / (n k), t ~ Binomial(n, k / E); 1 = no padding
double moe_tile_padding(const SpeedScenario& s, double n);

// the first llama.cpp build of the bands' current era: the calibration rows dated 2025-09 reach b6645 and those dated
// 2025-10 start at b6824; an independent check's fresh set is 2025-10..2026-09 builds, whose prefill spreads wider
constexpr int kFreshBandFirstBuild = 6700;
// set r.low / r.high around r.tokens_per_s from p's measured band for this test kind, hardware class and build era
// (llama_build as in SpeedScenario: 0 = a current build; older builds take band_older) and the fp16-estimated band
// where r.fp16_tflops_estimated and it is wider; estimate_speed calls it
void apply_speed_band(SpeedResult& r, const SpeedParams& p, SpeedTest test, HardwareKind kind, int llama_build = 0);

// the seed formula the project started from: decode = 0.84 x BW / (weights + KV), prefill = 0.65 x TFLOPS / (2 x params)
double seed_tokens_per_s(const SpeedScenario& s, double total_params);

}  // namespace llmsim
