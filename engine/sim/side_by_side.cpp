// MLX beside llama.cpp on the same Mac (side_by_side.h).
#include "sim/side_by_side.h"

#include "core/text.h"
#include "quant/mlx_quant.h"
#include "sim/simulate.h"

namespace llmsim {

namespace {

void fill(const Catalog& cat, const Model& model, const SimRequest& base, EngineId engine, const std::string& quant,
          EngineColumn& col) {
    col = EngineColumn{};
    col.engine = engine;
    col.quant = quant;
    SimRequest r = base;
    r.engine = engine;
    r.memory.file_type = quant;
    col.ok = evaluate(cat, model, r, col.ev, col.error);
    if (col.ok) col.command = runtime(engine)->command_line(cat, model, r, 8080);
}

}  // namespace

std::string mlx_quant_beside(const std::string& file_type) {
    const std::string u = upper_ascii(file_type);
    if (u == "F16" || u == "BF16" || u == "F32") return "mlx-bf16";
    if (u.rfind("MXFP4", 0) == 0) return "mlx-mxfp4";
    struct Pair { const char* prefix; const char* mlx; };
    static const Pair kByBits[] = {{"Q8", "mlx-8bit-g64"}, {"Q6", "mlx-6bit-g64"}, {"Q5", "mlx-5bit-g64"},
                                   {"Q4", "mlx-4bit-g64"}, {"IQ4", "mlx-4bit-g64"}, {"Q3", "mlx-3bit-g64"},
                                   {"IQ3", "mlx-3bit-g64"}, {"Q2", "mlx-2bit-g64"}, {"IQ2", "mlx-2bit-g64"}};
    for (const Pair& p : kByBits)
        if (u.rfind(p.prefix, 0) == 0) return p.mlx;
    return "mlx-4bit-g64";
}

bool mlx_side_by_side(const Catalog& cat, const Model& model, const SimRequest& req, SideBySide& out) {
    out = SideBySide{};
    if (!req.memory.hardware || req.memory.hardware->kind != HardwareKind::Apple) {
        out.mlx.error = out.llamacpp.error = "the side-by-side needs an Apple Silicon device";
        return false;
    }
    const std::optional<MlxQuant> q = parse_mlx_quant(req.memory.file_type);
    const std::string mlx = q ? mlx_quant_name(*q) : mlx_quant_beside(req.memory.file_type);
    const std::string gguf = q ? mlx_counterpart_file_type(*q) : req.memory.file_type;
    fill(cat, model, req, EngineId::Mlx, mlx, out.mlx);
    // MXFP4_MOE exists for MoE models only; a dense model's 4-bit counterpart is Q4_K_M
    fill(cat, model, req, EngineId::LlamaCpp, gguf == "MXFP4_MOE" && !model.is_moe() ? "Q4_K_M" : gguf, out.llamacpp);
    return out.mlx.ok || out.llamacpp.ok;
}

}  // namespace llmsim
