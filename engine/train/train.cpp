// Fine-tuning memory and speed (train.h has every rule and its source).
#include "train/train.h"

#include <algorithm>
#include <cmath>

#include "core/units.h"
#include "model/model_tensors.h"

namespace llmsim {

namespace {

constexpr double kNf4BytesPerParam = 0.5 + 1.0 / 64 + 4.0 / (64 * 256);   // 4.127 bits: QLoRA double quantisation
constexpr double kBnb8bitBlock = 2048;                                   // bitsandbytes 8-bit optimizer block size
constexpr uint64_t kLogitBytesPerVocab = 2 + 4 + 4;                      // bf16 logits, fp32 upcast, fp32 gradient
constexpr double kMaxTrainBytes = 1152921504606846976.0;                 // 2^60: far beyond any GPU, safe in uint64

struct ParamSplit {
    uint64_t total = 0;
    uint64_t block_linear = 0;           // matrices inside the decoder blocks (bitsandbytes quantises these)
    uint64_t factored = 0;               // Adafactor's second moment elements: rows + cols per matrix, all of a vector
    uint64_t matmul = 0;                 // parameters in matmuls per token (FLOPs)
    uint64_t layer_max = 0;              // the largest block (ZeRO-3 gather)
};

bool split_params(const Model& m, ParamSplit& p, std::string& err) {
    std::vector<TensorDesc> ts;
    if (!enumerate_tensors(m, ts, err)) return false;
    std::vector<uint64_t> per_layer(std::max(1, m.n_layers), 0);
    for (const TensorDesc& t : ts) {
        const uint64_t n = t.n_elements();
        p.total += n;
        const bool matrix = t.n_dims >= 2;
        if (t.layer >= 0 && matrix) p.block_linear += n;
        if (t.layer >= 0 && t.layer < (int)per_layer.size()) per_layer[t.layer] += n;
        p.factored += matrix ? (uint64_t)(t.ne[0] + t.ne[1]) * (uint64_t)(t.ne[2] * t.ne[3]) : n;
    }
    ParamCounts pc;
    count_params(m, ts, pc);
    p.matmul = pc.active - (m.tie_embeddings ? 0 : pc.embedding);
    p.layer_max = *std::max_element(per_layer.begin(), per_layer.end());
    return true;
}

bool check_request(const Model& m, const TrainRequest& r, std::string& err) {
    if (r.zero < 0 || r.zero > 3) { err = "train: --zero must be 0, 1, 2 or 3 (got " + std::to_string(r.zero) + ")"; return false; }
    if (r.gpus < 1 || r.gpus > 4096) { err = "train: --gpus must be from 1 to 4096"; return false; }
    if (r.seq < 1 || r.seq > 10000000) { err = "train: --seq must be from 1 to 10000000 tokens"; return false; }
    if (r.micro_batch < 1 || r.micro_batch > 4096) { err = "train: --micro-batch must be from 1 to 4096"; return false; }
    if (!(r.utilisation > 0 && r.utilisation <= 1)) { err = "train: utilisation must be above 0 and at most 1"; return false; }
    if (m.mla || m.hybrid) { err = "train: MLA and hybrid (recurrent) models are not sized yet"; return false; }
    if (m.n_layers < 1 || m.hidden_size < 1 || m.n_heads < 1 || m.head_dim < 1 || m.vocab_size < 1) {
        err = "train: the model has no layer shapes";
        return false;
    }
    return true;
}

}  // namespace

bool parse_train_method(const std::string& s, TrainMethod& out) {
    if (s == "full") out = TrainMethod::Full;
    else if (s == "lora") out = TrainMethod::Lora;
    else if (s == "qlora") out = TrainMethod::Qlora;
    else return false;
    return true;
}
bool parse_train_optimizer(const std::string& s, TrainOptimizer& out) {
    if (s == "adamw") out = TrainOptimizer::AdamW;
    else if (s == "adamw8bit") out = TrainOptimizer::AdamW8bit;
    else if (s == "adafactor") out = TrainOptimizer::Adafactor;
    else return false;
    return true;
}
const char* to_string(TrainMethod m) { return m == TrainMethod::Full ? "full" : m == TrainMethod::Lora ? "lora" : "qlora"; }
const char* to_string(TrainOptimizer o) {
    return o == TrainOptimizer::AdamW ? "adamw" : o == TrainOptimizer::AdamW8bit ? "adamw8bit" : "adafactor";
}

uint64_t activation_bytes_per_token(const Model& m, int il, int64_t seq, bool flash_attn, bool dropout) {
    const uint64_t h = (uint64_t)m.hidden_size, a = (uint64_t)m.n_heads;
    const uint64_t kvh = (uint64_t)(m.n_kv_heads > 0 ? m.n_kv_heads : m.n_heads);
    const uint64_t qd = a * m.head_dim, kd = kvh * m.head_dim, vd = kvh * m.kv_head_dim_v(), od = a * m.kv_head_dim_v();
    const uint64_t mask = dropout ? h : 0;       // 1-byte dropout mask per element (Korthikanti)
    uint64_t b = 4 * h;                          // the two norms' inputs (16-bit)
    if (layer_has_attention(m, il)) {
        b += 2 * h + 2 * qd + 2 * kd + 2 * vd + 2 * od + mask;   // QKV input, Q, K, V, output-projection input
        if (flash_attn) b += 4 * a;                              // fp32 logsumexp per head
        else b += (dropout ? 5 : 2) * a * (uint64_t)seq;         // softmax output (+ mask + dropout output)
    }
    auto mlp = [&](uint64_t f) { return m.gated_ffn ? 8 * f : 4 * f; };   // act inputs/outputs and the down input
    b += 2 * h + mask;                           // MLP input
    if (m.is_moe() && layer_is_moe(m, il)) {
        const MoeConfig& e = *m.moe;
        b += (uint64_t)e.n_experts_active * mlp((uint64_t)e.expert_ffn) + 4ull * e.n_experts;   // experts + fp32 router logits
        if (e.n_shared_experts > 0) b += (uint64_t)e.n_shared_experts * mlp((uint64_t)(e.shared_ffn > 0 ? e.shared_ffn : e.expert_ffn));
    } else {
        b += mlp((uint64_t)m.intermediate_size);
    }
    return b;
}

namespace {

// weights, gradients and optimizer state per GPU (ZeRO sharding applied)
void state_bytes(const Model&, const TrainRequest& r, const ParamSplit& p, uint64_t adapter, TrainMemory& out) {
    const double n = r.gpus;
    const double sh_opt = r.zero >= 1 ? n : 1, sh_grad = r.zero >= 2 ? n : 1, sh_w = r.zero >= 3 ? n : 1;
    const bool full = r.method == TrainMethod::Full;
    const double trained = full ? (double)p.total : (double)adapter;
    // adapters: A (r x in) and B (out x r) factor into rows + cols; sum over pairs ~ adapter / r (the 2 r per pair
    // left out)
    const double factored = full ? (double)p.factored : (double)adapter / std::max(1, r.lora.rank);
    double moments = 0;
    switch (r.optimizer) {
        case TrainOptimizer::AdamW: moments = 8 * trained; break;
        case TrainOptimizer::AdamW8bit: moments = 2 * trained + 2 * 4 * trained / kBnb8bitBlock; break;
        case TrainOptimizer::Adafactor: moments = 4 * (full ? factored : std::min(trained, factored)); break;
    }
    double base = 0;
    if (r.method == TrainMethod::Qlora) base = p.block_linear * kNf4BytesPerParam + 2.0 * (p.total - p.block_linear);
    else base = 2.0 * p.total;
    const double master = full ? 4.0 * p.total : 0;   // fp32 master copy (adapters are fp32 already)
    out.weights_bytes = (uint64_t)(base / sh_w + (full ? 0 : 4.0 * adapter / sh_w));
    out.adapter_bytes = (uint64_t)(full ? 0 : 4.0 * adapter / sh_w);
    if (r.method == TrainMethod::Qlora) out.quant_constant_bytes = (uint64_t)(p.block_linear * (kNf4BytesPerParam - 0.5) / sh_w);
    out.grads_bytes = (uint64_t)((full ? 2.0 : 4.0) * trained / sh_grad);
    out.optimizer_bytes = (uint64_t)((moments + master) / sh_opt);
    if (r.zero == 3 && r.gpus > 1) out.zero3_gather_bytes = (uint64_t)(2 * 2.0 * p.layer_max);
    if (r.zero == 0 && r.gpus > 1 && !r.ddp_bucket_view) out.ddp_bucket_bytes = out.grads_bytes;
}

}  // namespace

bool estimate_training(const Model& m, const TrainRequest& r, TrainMemory& out, std::string& err) {
    out = TrainMemory();
    if (!check_request(m, r, err)) return false;
    ParamSplit p;
    if (!split_params(m, p, err)) return false;
    uint64_t adapter = 0, adapter_flops = 0;
    if (r.method != TrainMethod::Full) {
        LoraSpec ls = r.lora;
        ls.type = TensorType::F32;
        LoraSize z;
        if (!lora_size(m, ls, z, err)) return false;
        adapter = z.params;
        adapter_flops = z.flops_per_token;
    }
    out.params = p.total + adapter;
    out.trainable_params = r.method == TrainMethod::Full ? p.total : adapter;
    state_bytes(m, r, p, adapter, out);
    const uint64_t tokens = (uint64_t)r.seq * (uint64_t)r.micro_batch;
    uint64_t per_token_all = 0, per_token_max = 0;
    for (int il = 0; il < m.n_layers; ++il) {
        const uint64_t b = activation_bytes_per_token(m, il, r.seq, r.flash_attn, r.dropout);
        per_token_all += b;
        per_token_max = std::max(per_token_max, b);
    }
    out.activation_bytes_per_layer_token = per_token_max;
    // in double first: seq x micro-batch x vocab can pass 2^64 bytes
    const double act = (double)tokens * (r.grad_ckpt ? 2.0 * m.hidden_size * m.n_layers + per_token_max : (double)per_token_all);
    const double logits = (double)tokens * kLogitBytesPerVocab * (double)m.vocab_size;
    if (act + logits > kMaxTrainBytes) {
        err = "train: seq x micro-batch needs more than 2^60 bytes of activations per GPU; out of range";
        out = TrainMemory();
        return false;
    }
    out.activations_bytes = (uint64_t)act;
    out.logits_bytes = (uint64_t)logits;
    out.cuda_context_bytes = kTorchCudaContextBytes;
    const uint64_t allocated = out.weights_bytes + out.grads_bytes + out.optimizer_bytes + out.activations_bytes +
                               out.logits_bytes + out.zero3_gather_bytes + out.ddp_bucket_bytes;
    out.fragmentation_bytes = (uint64_t)(kAllocatorFragmentation * (double)allocated);
    out.total_bytes = allocated + out.fragmentation_bytes + out.cuda_context_bytes;
    // FLOPs per token (PaLM appendix B), per GPU step
    const double N = (double)p.matmul, attn = 12.0 * m.n_layers * m.n_heads * m.head_dim * (double)r.seq;
    double fwd_mult = r.grad_ckpt ? 4.0 / 3.0 : 1.0;   // checkpointing: one more forward (2 of the 6 N)
    if (r.method == TrainMethod::Full) out.flops_per_token = (6 * N + attn) * fwd_mult;
    else out.flops_per_token = 4 * N + attn + 3.0 * adapter_flops + (r.grad_ckpt ? 2 * N + attn / 3 : 0);
    if (r.hardware) {
        const Hardware& hw = *r.hardware;
        out.usable_bytes = hw.memory_bytes > 0 ? (uint64_t)hw.memory_bytes : 0;
        out.fits = out.usable_bytes > 0 && out.total_bytes <= out.usable_bytes;
        if (hw.fp16_tflops > 0)
            out.tokens_per_s = r.gpus * hw.fp16_tflops * 1e12 * r.utilisation / out.flops_per_token;
    }
    out.notes.push_back("CUDA context + kernels: 1343 MB, Hugging Face 'Model training anatomy' (estimate; varies)");
    out.notes.push_back("allocator fragmentation: 10 % of allocated (estimate, no published figure)");
    out.notes.push_back("logits: bf16 + fp32 upcast for the loss + fp32 gradient, 10 B x vocab per token (estimate)");
    if (r.method == TrainMethod::Qlora) out.notes.push_back("QLoRA dequantisation time is not in tokens/s");
    return true;
}

}  // namespace llmsim
