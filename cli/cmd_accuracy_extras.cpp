// llmsim-cli accuracy --extras [FILE]: the beyond-chat models (fine-tuning, vision encode, LoRA, speculative
// decoding, embeddings) against published measurements (tools/calibration/extras_accuracy.h).
#include <cstdio>

#include "commands.h"
#include "calibration/extras_accuracy.h"

namespace llmsim::cli {

int cmd_accuracy_extras(const Args& a) {
    std::string path = a.positional.empty() ? "assets/calibration/extras_measured.jsonl" : a.positional[0];
    std::string text, err;
    if (!read_text_file(path, 16u << 20, text, err)) return fail("accuracy --extras: " + err);
    std::vector<ExtraRow> rows;
    if (!parse_extra_rows(text, rows, err)) return fail("accuracy --extras: " + path + ": " + err);
    Catalog cat;
    if (!load_catalog(cat)) return 1;
    ExtrasReport rep = score_extra_rows(cat, rows);
    printf("%zu published measurements (%s); error = predicted / measured - 1; memory in GiB (2^30 bytes)\n\n",
           rows.size(), path.c_str());
    printf("%s", format_extras_report(rep).c_str());
    printf("\nHeld-out rows were not used to choose any rule; guided rows were looked at while a rule was chosen\n"
           "(regression guard only). Each row's setup, framework and caveats are in the file's notes.\n");
    return 0;
}

}  // namespace llmsim::cli
