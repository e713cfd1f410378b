// libFuzzer target: the Hugging Face config.json importer (engine/model/hf_config.h) on arbitrary text, then the
// parameter count of whatever imports.
#include <cstdint>
#include <string>
#include <vector>

#include "model/hf_config.h"
#include "model/model_tensors.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    llmsim::Model m;
    std::string err;
    std::vector<std::string> warnings;
    if (llmsim::model_from_hf_config(text, "fuzz/model", m, err, &warnings)) {
        llmsim::ParamCounts pc;
        std::string perr;
        (void)llmsim::count_params(m, pc, perr);
    } else if (err.empty()) {
        __builtin_trap();
    }
    return 0;
}
