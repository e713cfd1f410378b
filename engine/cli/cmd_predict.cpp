// placeholder until the speed model lands (issue 4)
#include "commands.h"
namespace llmsim::cli {
int cmd_predict(int, char**) { return fail("predict: not available in this build yet"); }
int cmd_accuracy(int, char**) { return fail("accuracy: not available in this build yet"); }
int cmd_calibrate(int, char**) { return fail("calibrate: not available in this build yet"); }
}  // namespace llmsim::cli
