// placeholder until the memory model lands (issue 3)
#include "commands.h"
namespace llmsim::cli {
int cmd_memory(int, char**) { return fail("memory: not available in this build yet"); }
int cmd_quants(int, char**) { return fail("quants: not available in this build yet"); }
int cmd_fit(int, char**) { return fail("fit: not available in this build yet"); }
}  // namespace llmsim::cli
