// Fine-tuning memory per GPU and training speed (PyTorch + Hugging Face Trainer / PEFT / bitsandbytes / DeepSpeed).
//
// Bytes per parameter (Rajbhandari et al. 2020, "ZeRO: Memory Optimizations Toward Training Trillion Parameter
// Models", sec. 3.1: mixed-precision Adam keeps 2 B fp16/bf16 weights + 2 B gradients + K = 12 B optimizer state:
// fp32 master weights, momentum and variance):
//   full  AdamW      2 weights + 2 grads + 4 master + 4 m + 4 v
//         8-bit Adam 2 + 2 + 4 master + 1 m + 1 v + 2 fp32 absmax per 2048-value block per state (Dettmers et al. 2022,
//                    "8-bit Optimizers via Block-wise Quantization", block size 2048)
//         Adafactor  2 + 2 + 4 master + factored second moment: 4 (rows + cols) per matrix, no momentum (Shazeer &
//                    Stern 2018; Hugging Face Adafactor's default beta1 = None)
//   lora  frozen base in bf16 (2 B/param); adapters in fp32 (PEFT autocast_adapter_dtype) with fp32 grads + the
//         optimizer state of the adapter parameters; no master copy (they already are fp32)
//   qlora the base's linears in NF4 with double quantisation: 4 bits + 8-bit absmax per 64 + fp32 per 256 absmax
//         = 4.127 bits/param (Dettmers et al. 2023, "QLoRA", sec. 2-3); embeddings, lm_head and norms stay bf16
// ZeRO stages (same paper, fig. 1): 1 shards optimizer state (with the master weights), 2 + gradients, 3 + the
// bf16 weights; FSDP FULL_SHARD = stage 3, SHARD_GRAD_OP = stage 2 (Zhao et al. 2023, PyTorch FSDP).
// Activations per layer per token (Korthikanti et al. 2022, "Reducing Activation Recomputation in Large Transformer
// Models", sec. 4.1: s b h (34 + 5 a s / h) for a GPT block with dropout, 4h GeLU MLP, 16-bit activations, no
// tensor parallelism) computed term by term on the model's real widths (GQA K/V, SwiGLU, MoE experts), dropout masks
// only when dropout is on (modern LLMs train with 0), the 5as term replaced by FlashAttention's fp32 logsumexp (4 a
// bytes) when flash attention is on. Full recomputation (HF gradient checkpointing per decoder layer) keeps the
// 2 s b h layer input per layer plus one layer's full activations during its backward.
// Training FLOPs per token (Chowdhery et al. 2022, PaLM, appendix B): 6 N + 12 L H Q T (N matmul parameters, L layers,
// H heads, Q head size, T sequence); checkpointing adds one forward (8 N + 16 L H Q T); LoRA skips the frozen
// weights' gradient matmuls (4 N + 12 L H Q T + 6 N_adapter). tokens/s = GPUs x FP16 FLOP/s x utilisation / FLOPs.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "adapter/lora.h"
#include "catalog/catalog.h"

namespace llmsim {

enum class TrainMethod { Full, Lora, Qlora };
enum class TrainOptimizer { AdamW, AdamW8bit, Adafactor };
bool parse_train_method(const std::string& s, TrainMethod& out);        // "full", "lora", "qlora"
bool parse_train_optimizer(const std::string& s, TrainOptimizer& out);  // "adamw", "adamw8bit", "adafactor"
const char* to_string(TrainMethod m);
const char* to_string(TrainOptimizer o);

// framework overheads (estimates, named)
// CUDA context + PyTorch's kernels after the first CUDA op: 1343 MB in nvidia-smi in Hugging Face's "Model training
// anatomy" (transformers docs, model_memory_anatomy.md), measured on their machine; varies with GPU and versions
constexpr uint64_t kTorchCudaContextBytes = 1343ull * 1024 * 1024;
// PyTorch caching allocator fragmentation (reserved - allocated): estimate, no published figure; expandable_segments
// reduces it
constexpr double kAllocatorFragmentation = 0.10;

struct TrainRequest {
    TrainMethod method = TrainMethod::Full;
    TrainOptimizer optimizer = TrainOptimizer::AdamW;
    int64_t seq = 2048;                  // tokens per sequence
    int micro_batch = 1;                 // sequences per GPU per step
    int gpus = 1;                        // data-parallel GPUs
    int zero = 0;                        // ZeRO stage 0-3
    bool grad_ckpt = false;              // gradient checkpointing (full recomputation per decoder layer)
    bool flash_attn = true;              // FlashAttention / SDPA: no s x s score matrix stored
    bool dropout = false;                // attention / MLP dropout masks stored
    bool ddp_bucket_view = false;        // DDP gradient_as_bucket_view (zero 0, gpus > 1): no bucket copy of grads
    LoraSpec lora;                       // rank and targets for lora / qlora (its `type` is ignored: fp32 adapters)
    const Hardware* hardware = nullptr;  // for usable memory and tokens/s (optional)
    double utilisation = 0.40;           // model FLOPs utilisation (assumption; PaLM reports 46 % on TPU v4)
};

struct TrainMemory {                     // bytes per GPU
    uint64_t weights_bytes = 0;          // bf16 / NF4 base (+ fp32 adapters)
    uint64_t grads_bytes = 0;
    uint64_t optimizer_bytes = 0;        // moments (+ fp32 master weights for full fine-tunes)
    uint64_t activations_bytes = 0;
    uint64_t logits_bytes = 0;           // bf16 logits + fp32 upcast for the loss + its gradient (estimate: 10 B x vocab)
    uint64_t zero3_gather_bytes = 0;     // ZeRO-3: one gathered layer being computed + one prefetched (estimate)
    uint64_t ddp_bucket_bytes = 0;       // DDP's gradient buckets (a second copy of the gradients by default)
    uint64_t cuda_context_bytes = 0;
    uint64_t fragmentation_bytes = 0;
    uint64_t total_bytes = 0;
    uint64_t usable_bytes = 0;           // per GPU (0 = no hardware)
    bool fits = false;
    // details
    uint64_t params = 0, trainable_params = 0;
    uint64_t adapter_bytes = 0;          // fp32 LoRA weights (in weights_bytes)
    uint64_t quant_constant_bytes = 0;   // QLoRA: the NF4 absmax constants (in weights_bytes; ~0.127 bits/param)
    uint64_t activation_bytes_per_layer_token = 0;   // without checkpointing
    double flops_per_token = 0;
    double tokens_per_s = 0;             // all GPUs (0 = no hardware)
    std::vector<std::string> notes;
};

// per-layer activation bytes per token of layer il under Korthikanti's accounting (without checkpointing),
// at sequence length seq
uint64_t activation_bytes_per_token(const Model& m, int il, int64_t seq, bool flash_attn, bool dropout);
// memory per GPU and speed; false + err on bad input (stage, GPUs, sequence, a model with no shapes)
bool estimate_training(const Model& m, const TrainRequest& req, TrainMemory& out, std::string& err);

}  // namespace llmsim
