// llmsim-cli memory --engine mlx: mlx-lm on an Apple Silicon Mac: the memory breakdown against the wired limit, the
// MLX speed model's decode and prefill, the mlx_lm commands, and llama.cpp beside it on the same Mac
// (engine/sim/side_by_side.h).
#include <cstdio>

#include <nlohmann/json.hpp>

#include "commands.h"
#include "core/format.h"
#include "quant/mlx_quant.h"
#include "sim/side_by_side.h"
#include "sim/simulate.h"

namespace llmsim::cli {

namespace {

using json = nlohmann::json;

json column_json(const EngineColumn& c) {
    if (!c.ok) return json{{"engine", engine_row(c.engine).name}, {"quant", c.quant}, {"error", c.error}};
    const MemoryBreakdown& m = c.ev.memory;
    const SpeedView& v = c.ev.speed;
    json j = {{"engine", engine_row(c.engine).name}, {"quant", c.quant}, {"status", to_string(m.status)},
              {"weights_bytes", m.weights_bytes}, {"kv_cache_bytes", m.kv_cache_bytes}, {"compute_bytes", m.compute_bytes},
              {"overhead_bytes", m.overhead_bytes}, {"total_bytes", m.total_bytes}, {"usable_bytes", m.usable_bytes},
              {"max_context", m.max_context}, {"command", c.command}};
    if (v.ok) {
        j["decode_tokens_per_s"] = v.decode_tps;
        j["decode_low"] = v.decode_low;
        j["decode_high"] = v.decode_high;
        j["prefill_tokens_per_s"] = v.prefill_tps;
    } else {
        j["speed_error"] = v.error;
    }
    return j;
}

void print_column(const EngineColumn& c) {
    printf("  %-14s %-13s ", engine_row(c.engine).display_name, c.quant.c_str());
    if (!c.ok) { printf("%s\n", c.error.c_str()); return; }
    const MemoryBreakdown& m = c.ev.memory;
    printf("%9s  %-12s", format_gib((double)m.total_bytes).c_str(), to_string(m.status));
    if (c.ev.speed.ok)
        printf("  decode %s tok/s (%s-%s)  prefill %s tok/s\n", format_sig(c.ev.speed.decode_tps).c_str(),
               format_sig(c.ev.speed.decode_low).c_str(), format_sig(c.ev.speed.decode_high).c_str(),
               format_sig(c.ev.speed.prefill_tps).c_str());
    else
        printf("  %s\n", c.ev.speed.error.c_str());
}

}  // namespace

int print_mlx_memory(const Catalog& cat, const Model& model, const MemoryRequest& req, bool as_json) {
    SimRequest sr;
    sr.memory = req;
    if (!looks_like_mlx_quant(req.file_type)) sr.memory.file_type = mlx_quant_beside(req.file_type);
    sr.engine = EngineId::Mlx;
    sr.with_speed = req.hardware != nullptr;
    Evaluation ev;
    std::string err;
    if (!evaluate(cat, model, sr, ev, err)) return fail("memory: " + err);
    SideBySide sbs;
    const bool both = req.hardware && mlx_side_by_side(cat, model, sr, sbs);
    if (as_json) {
        json j = {{"model", model.id}, {"engine", "mlx"}, {"n_ctx", req.n_ctx}};
        j["mlx"] = both ? column_json(sbs.mlx) : json{{"quant", sr.memory.file_type}, {"total_bytes", ev.memory.total_bytes}};
        if (both) j["llamacpp"] = column_json(sbs.llamacpp);
        printf("%s\n", j.dump(1).c_str());
        return 0;
    }
    const MemoryBreakdown& mb = ev.memory;
    printf("%s  %s  ctx %s  (%s bpw, %sB params)  engine %s\n", model.id.c_str(), sr.memory.file_type.c_str(),
           format_tokens(req.n_ctx).c_str(), format_fixed(mb.bits_per_weight, 2).c_str(),
           format_sig((double)mb.params / 1e9, 3).c_str(), engine_row(EngineId::Mlx).display_name);
    printf("  %-8s %12s %12s %12s %12s %12s\n", "device", "weights", "KV cache", "compute", "overhead", "total");
    for (const DeviceMemory& d : mb.devices)
        printf("  %-8s %12s %12s %12s %12s %12s\n", d.name.c_str(), format_gib((double)d.weights_bytes).c_str(),
               format_gib((double)d.kv_cache_bytes).c_str(), format_gib((double)d.compute_bytes).c_str(),
               format_gib((double)d.overhead_bytes).c_str(), format_gib((double)d.total_bytes).c_str());
    if (req.hardware)
        printf("on %s: %s, wired limit %s (raised: %s), max safe context %s\n", req.hardware->name.c_str(),
               to_string(mb.status), format_gib((double)mb.usable_bytes).c_str(),
               format_gib((double)mb.usable_raised_bytes).c_str(),
               mb.max_context > 0 ? format_tokens(mb.max_context).c_str() : "none");
    for (const std::string& n : mb.notes) printf("note: %s\n", n.c_str());
    if (both) {
        printf("\nside by side on the same Mac (ctx %s, decode at %s tokens of context, %s-token prompt):\n",
               format_tokens(req.n_ctx).c_str(), format_tokens(sr.prompt_tokens).c_str(),
               format_tokens(sr.prompt_tokens).c_str());
        print_column(sbs.mlx);
        print_column(sbs.llamacpp);
    }
    printf("command:\n%s\n", runtime(EngineId::Mlx)->command_line(cat, model, sr, 8080).c_str());
    return 0;
}

}  // namespace llmsim::cli
