// llmsim-cli catalog [--models|--hardware|--quants] [--json]: what is embedded, with counts.
// llmsim-cli catalog --binary OUT --from DIR: the web build's catalog.bin (catalog/catalog_binary.h) from the three
// catalog JSON files in DIR, read by parse_catalog.
// llmsim-cli catalog --speed-binary OUT --from FILE: the web build's speed_params.bin (speed/speed_binary.h) from a
// speed_params.json, read by parse_speed_params and parse_profile_prior.
#include <cstdio>
#include <fstream>

#include <nlohmann/json.hpp>

#include "commands.h"
#include "catalog/catalog_binary.h"
#include "core/format.h"
#include "speed/speed_binary.h"

namespace llmsim::cli {

namespace {
// the whole file replaced by bytes; false when it cannot be written
bool write_bytes(const std::string& path, const std::string& bytes) {
    std::ofstream f(path, std::ios::binary | std::ios::trunc);
    return f.write(bytes.data(), (std::streamsize)bytes.size()) && f.flush();
}

// --binary OUT --from DIR: DIR/models.json, hardware.json and quants.json through parse_catalog, written as catalog.bin
int write_binary(const Args& a) {
    const std::string* out = a.get("binary");
    const std::string* dir = a.get("from");
    if (!out || !dir || out->empty() || dir->empty())
        return fail("catalog: --binary OUT needs --from DIR (the folder with models.json, hardware.json, quants.json)");
    if (const std::string bad = first_unknown_option(a, {"binary", "from"}); !bad.empty())
        return fail("catalog: --" + bad + " does not go with --binary");
    std::string text[3], err;
    const char* names[3] = {"models.json", "hardware.json", "quants.json"};
    for (int i = 0; i < 3; ++i)
        if (!read_text_file(*dir + "/" + names[i], 64u << 20, text[i], err)) return fail("catalog: " + err);
    Catalog cat;
    if (!parse_catalog(text[0], text[1], text[2], cat, err)) return fail("catalog: " + err);
    const std::string bin = catalog_to_binary(cat);
    if (!write_bytes(*out, bin)) return fail("catalog: cannot write '" + *out + "'");
    printf("catalog.bin: %zu models, %zu devices, %zu file types, %zu bytes -> %s\n", cat.models.size(),
           cat.hardware.size(), cat.file_types.size(), bin.size(), out->c_str());
    return 0;
}

// --speed-binary OUT --from FILE: a speed_params.json through parse_speed_calibration, written as speed_params.bin
int write_speed_binary(const Args& a) {
    const std::string* out = a.get("speed-binary");
    const std::string* from = a.get("from");
    if (!out || !from || out->empty() || from->empty())
        return fail("catalog: --speed-binary OUT needs --from FILE (a speed_params.json)");
    if (const std::string bad = first_unknown_option(a, {"speed-binary", "from"}); !bad.empty())
        return fail("catalog: --" + bad + " does not go with --speed-binary");
    std::string text, err;
    if (!read_text_file(*from, 64u << 20, text, err)) return fail("catalog: " + err);
    SpeedCalibration c;
    if (!parse_speed_calibration(text, c, err)) return fail("catalog: " + *from + ": " + err);
    const std::string bin = speed_calibration_to_binary(c);
    if (!write_bytes(*out, bin)) return fail("catalog: cannot write '" + *out + "'");
    printf("speed_params.bin: fit of %d decode and %d prefill rows, device prior %s, %zu bytes -> %s\n",
           c.params.fit_rows_decode, c.params.fit_rows_prefill, c.prior.fitted ? "fitted" : "none", bin.size(),
           out->c_str());
    return 0;
}
}  // namespace

int cmd_catalog(int argc, char** argv) {
    Args a = parse_args(argc, argv, {"models", "hardware", "quants", "json", "help"});
    if (a.has("help")) {
        printf("usage: llmsim-cli catalog [--models] [--hardware] [--quants] [--json]\n"
               "       llmsim-cli catalog --binary OUT --from DIR\n"
               "       llmsim-cli catalog --speed-binary OUT --from FILE\n"
               "Lists the embedded catalog (all three parts unless one is chosen) and prints the counts.\n"
               "--binary writes the web page's catalog.bin from DIR/models.json, hardware.json and quants.json.\n"
               "--speed-binary writes the web page's speed_params.bin from FILE (a speed_params.json).\n");
        return 0;
    }
    if (a.has("speed-binary")) return write_speed_binary(a);
    if (a.has("binary") || a.has("from")) return write_binary(a);
    for (const auto& kv : a.options)
        if (kv.first != "models" && kv.first != "hardware" && kv.first != "quants" && kv.first != "json")
            return fail("catalog: unknown option --" + kv.first + " (try llmsim-cli catalog --help)");
    Catalog cat;
    if (!load_catalog(cat)) return 1;
    bool any = a.has("models") || a.has("hardware") || a.has("quants");
    bool show_m = !any || a.has("models"), show_h = !any || a.has("hardware"), show_q = !any || a.has("quants");
    if (a.has("json")) {
        nlohmann::json j;
        if (show_m) { j["models"] = nlohmann::json::array(); for (auto& m : cat.models) j["models"].push_back(m.id); }
        if (show_h) { j["hardware"] = nlohmann::json::array(); for (auto& h : cat.hardware) j["hardware"].push_back(h.id); }
        if (show_q) { j["quants"] = nlohmann::json::array(); for (auto& f : cat.file_types) j["quants"].push_back(f.name); }
        j["counts"] = {{"models", cat.models.size()}, {"hardware", cat.hardware.size()},
                       {"ggml_types", cat.ggml_types.size()}, {"file_types", cat.file_types.size()}};
        printf("%s\n", j.dump(1).c_str());
        return 0;
    }
    if (show_m) {
        printf("Models (%zu)\n", cat.models.size());
        for (auto& m : cat.models)
            printf("  %-52s %-10s %3d layers  ctx %s\n", m.id.c_str(), m.arch.c_str(), m.n_layers,
                   format_tokens(m.native_context).c_str());
    }
    if (show_h) {
        printf("Hardware (%zu)\n", cat.hardware.size());
        for (auto& h : cat.hardware)
            printf("  %-22s %-48s %10s  %6s GB/s\n", h.id.c_str(), h.name.c_str(),
                   format_gib((double)h.memory_bytes * h.gpu_count).c_str(), format_sig(h.bandwidth_gbs, 4).c_str());
    }
    if (show_q) {
        printf("Quant types (%zu ggml block types, %zu file types)\n", cat.ggml_types.size(), cat.file_types.size());
        for (auto& f : cat.file_types) {
            const GgmlType* t = cat.find_ggml_type(f.base_type);
            printf("  %-16s %s bpw  %s\n", f.name.c_str(),
                   format_fixed(t ? t->bits_per_weight() : f.flat_bpw, 2).c_str(), f.quality_label.c_str());
        }
    }
    printf("counts: %zu models, %zu hardware, %zu ggml types, %zu file types\n", cat.models.size(), cat.hardware.size(),
           cat.ggml_types.size(), cat.file_types.size());
    return 0;
}

}  // namespace llmsim::cli
