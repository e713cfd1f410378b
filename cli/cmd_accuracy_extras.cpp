// llmsim-cli accuracy --extras [FILE]: the beyond-chat models (fine-tuning, vision encode, LoRA, speculative
// decoding, embeddings) against published measurements (tools/calibration/extras_accuracy.h). accuracy --mlx [FILE]:
// the MLX speed model fitted and scored leave-one-source-out on published mlx_lm rows (tools/calibration/mlx_fit.h).
#include <cstdio>

#include "commands.h"
#include "calibration/extras_accuracy.h"
#include "calibration/mlx_fit.h"

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

int cmd_accuracy_mlx(const Args& a) {
    std::string path = a.positional.empty() ? "assets/calibration/mlx_speed.jsonl" : a.positional[0];
    std::string text, err;
    if (!read_text_file(path, 16u << 20, text, err)) return fail("accuracy --mlx: " + err);
    std::vector<MlxRow> rows;
    if (!parse_mlx_rows(text, rows, err)) return fail("accuracy --mlx: " + path + ": " + err);
    Catalog cat;
    if (!load_catalog(cat)) return 1;
    MlxReport rep = mlx_report(cat, rows);
    printf("%zu published mlx_lm measurements (%s); error = predicted / measured - 1\n\n", rows.size(), path.c_str());
    printf("%s", format_mlx_report(rep).c_str());
    printf("\nEach held-out prediction uses parameters fitted without its source; a row's band comes from the other\n"
           "sources' held-out errors. The shipped parameters (the MLX engine row) are the fit on every row.\n");
    return 0;
}

}  // namespace llmsim::cli
