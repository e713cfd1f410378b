// The MLX row's serving hooks (engines.h): serve() has no model of mlx_lm.server's batching (no measurements), so
// build_shape refuses the engine before these run; they refuse too, so a caller that reaches them still gets a reason.
#include "serving/serving_internal.h"

namespace llmsim::serving {

namespace {
const char* const kNoServingModel =
    "mlx: the serving model does not cover mlx_lm.server (no batched MLX measurements); MLX runs single-stream "
    "scenarios: llmsim-cli memory --engine mlx --hardware <a Mac>";
}

bool mlx::kv_pool(const Catalog&, const ServeRequest&, const ReplicaShape&, const PoolInputs&, ServeMemoryPlan&,
                  std::string& err) {
    err = kNoServingModel;
    return false;
}

std::string mlx::command_line(const ServeRequest&, const ReplicaShape&, const ServeMemoryPlan&, int, int) {
    return std::string("# ") + kNoServingModel;
}

const char* mlx_no_serving_model() { return kNoServingModel; }

}  // namespace llmsim::serving
