#include "speed_glue.h"

namespace llmsim {
void estimate_speed_view(const Catalog&, const Model&, const SimRequest&, Evaluation& out) {
    out.speed = SpeedView();
    out.speed.error = "speed model not built yet";
}
}  // namespace llmsim
