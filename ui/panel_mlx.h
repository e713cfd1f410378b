// The MLX view's own state (next to its panel): on an Apple Silicon device, the scenario's model under MLX (mlx-lm)
// beside llama.cpp at the same bit width (engine/sim/side_by_side.h): memory against each engine's limit, decode
// and prefill, the mlx_lm command. Drawn inside "Run it" (panel_command.cpp) where the runtimes' commands are.
// Recomputed only when the scenario changes.
//   update_mlx(app);
//   if (app.mlx.shown) show(app.mlx.result.mlx.ev.speed.decode_tps);
#pragma once
#include <string>

#include "section_memo.h"
#include "sim/side_by_side.h"

struct AppState;

struct MlxState {
    SectionMemo memo;            // the inputs and request the result is from
    bool shown = false;          // the scenario's device is Apple Silicon and a column evaluated
    llmsim::SideBySide result;
};

// recompute app.mlx when the scenario moved (cheap when nothing changed)
void update_mlx(AppState& app);
// the side-by-side table and the mlx_lm command (nothing on other devices)
void draw_mlx(AppState& app);
