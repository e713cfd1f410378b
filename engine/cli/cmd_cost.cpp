// placeholder until the cost model lands (issue 4)
#include "commands.h"
namespace llmsim::cli {
int cmd_cost(int, char**) { return fail("cost: not available in this build yet"); }
}  // namespace llmsim::cli
