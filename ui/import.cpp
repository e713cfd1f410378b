#include "import.h"

#include <cstdio>
#include <vector>

#include "core/format.h"
#include "io/gguf.h"
#include "model/hf_config.h"
#include "vision/vision.h"

namespace {

void add_model(AppState& app, llmsim::Model m, uint64_t file_bytes) {
    for (auto& existing : app.catalog.models)
        if (existing.id == m.id) { existing = m; goto done; }
    app.catalog.models.push_back(m);
done:
    app.scenario.model = m.id;
    app.imported_file_bytes[m.id] = file_bytes;
    mark_changed(app);
}

// the Vision section asked for an mmproj and got something else: say so there and in the Import section, import
// nothing (the picker is shared, so a text model opened from the Vision button must not replace the top bar's model)
bool refuse_for_vision(AppState& app, const std::string& message) {
    app.vision_file.expect_mmproj = false;
    app.vision_file.ok = false;
    app.vision_file.message = message;
    app.import.ok = false;
    app.import.message = message;
    request_frames(app);
    return false;
}

}  // namespace

bool import_not_gguf_for_vision(AppState& app, const std::string& file_name) {
    if (!app.vision_file.expect_mmproj) return false;
    refuse_for_vision(app, file_name + " not used: not a GGUF file (no GGUF magic), so not an mmproj");
    return true;
}

bool import_hf_config(AppState& app, const std::string& json_text, const std::string& id_in) {
    llmsim::Model m;
    std::string err;
    std::vector<std::string> warnings;
    std::string id = id_in.empty() ? "imported/config" : id_in;
    if (!llmsim::model_from_hf_config(json_text, id, m, err, &warnings)) {
        app.import.message = "config.json not imported: " + err;
        app.import.ok = false;
        return false;
    }
    if (m.name.empty()) m.name = id;
    if (m.family.empty()) m.family = "imported";
    add_model(app, m, 0);
    app.import.ok = true;
    app.import.message = "Imported " + id + " (" + m.arch + ", " + std::to_string(m.n_layers) + " layers)";
    for (const auto& w : warnings) app.import.message += "\nnote: " + w;
    return true;
}

int import_gguf_prefix(AppState& app, const void* data, size_t size, uint64_t file_size, const std::string& file_name,
                       uint64_t* need_bytes) {
    llmsim::GgufInfo info;
    std::string err;
    uint64_t need = 0;
    const bool whole = file_size > 0 && size >= file_size;
    if (!llmsim::read_gguf_buffer(data, size, info, err, whole ? nullptr : &need)) {
        if (need > size && need_bytes) { *need_bytes = need; return -1; }
        app.import.message = file_name + " not imported: " + err;
        app.import.ok = false;
        if (app.vision_file.expect_mmproj) refuse_for_vision(app, file_name + " not used: " + err);
        return 0;
    }
    // an mmproj (vision projector) is no language model: the Vision section takes it (panel_vision.h)
    if (info.architecture == "clip" || app.vision_file.expect_mmproj) {
        app.vision_file.expect_mmproj = false;
        const bool ok = load_vision_file(app, info, file_name);
        app.import.ok = ok;
        app.import.message = app.vision_file.message + (ok ? " — used by the Vision section" : "");
        return ok ? 1 : 0;
    }
    llmsim::Model m;
    if (!llmsim::model_from_gguf(info, m, err)) {
        app.import.message = file_name + " not imported: " + err;
        app.import.ok = false;
        return 0;
    }
    if (m.id.empty()) m.id = "gguf/" + file_name;
    if (m.name.empty()) m.name = file_name;
    if (m.family.empty()) m.family = "imported";
    add_model(app, m, info.tensor_data_bytes);
    app.import.ok = true;
    app.import.message = "Imported " + file_name + ": " + m.arch + ", " + std::to_string(m.n_layers) + " layers, weights " +
                         llmsim::format_gib((double)info.tensor_data_bytes) + " (header read: " +
                         llmsim::format_sig((double)info.data_offset / 1048576.0) + " MiB of the file)";
    return 1;
}

void import_hub_result(AppState& app, const llmsim::HubResult& r) {
    std::map<std::string, uint64_t>& files = app.hub_tensor_bytes[r.model.id];
    files.clear();
    std::string chosen_type;
    for (size_t i = 0; i < r.variants.size(); ++i) {
        const llmsim::HubGgufVariant& v = r.variants[i];
        const std::string ft = llmsim::hub_variant_file_type(v);
        if (!v.header_read || ft.empty() || files.count(ft)) continue;   // one file per type: the first listed
        files[ft] = v.tensor_data_bytes;
        if ((int)i == r.chosen) chosen_type = ft;
    }
    if (files.empty()) app.hub_tensor_bytes.erase(r.model.id);   // safetensors: the rules size each quant
    add_model(app, r.model, 0);
    if (!chosen_type.empty()) app.scenario.quant = chosen_type;
    app.hub_ok = true;
    app.hub_status = r.model.id + ": " + llmsim::hub_read_summary(r) +
                     (files.empty() ? "" : "; " + std::to_string(files.size()) + " GGUF files sized from their headers") +
                     "; licence " + (r.license.empty() ? std::string("not stated on the model card") : r.license);
    if (r.format == "safetensors")
        app.hub_status += "; safetensors weights " + llmsim::format_gib((double)r.safetensors_bytes) + " (" +
                          std::to_string(r.safetensors_bytes) + " bytes)";
    mark_changed(app);
}

bool import_path(AppState& app, const std::string& path) {
    FILE* f = fopen(path.c_str(), "rb");
    if (!f) { app.import.message = "cannot open " + path; app.import.ok = false; return false; }
    fseek(f, 0, SEEK_END);
    long long file_size = ftell(f);
    fseek(f, 0, SEEK_SET);
    std::string name = path.substr(path.find_last_of("/\\") + 1);
    char magic[4] = {0, 0, 0, 0};
    size_t got = fread(magic, 1, 4, f);
    fseek(f, 0, SEEK_SET);
    if (got == 4 && magic[0] == 'G' && magic[1] == 'G' && magic[2] == 'U' && magic[3] == 'F') {
        // read the header only: grow the prefix until the reader is satisfied (capped by GgufLimits)
        uint64_t want = 1 << 20;
        for (int attempt = 0; attempt < 8; ++attempt) {
            std::vector<unsigned char> buf((size_t)std::min<uint64_t>(want, (uint64_t)file_size));
            fseek(f, 0, SEEK_SET);
            size_t n = fread(buf.data(), 1, buf.size(), f);
            uint64_t need = 0;
            int rc = import_gguf_prefix(app, buf.data(), n, (uint64_t)file_size, name, &need);
            if (rc != -1) { fclose(f); return rc == 1; }
            want = need;
        }
        fclose(f);
        app.import.message = name + " not imported: header larger than the limit";
        return false;
    }
    if (import_not_gguf_for_vision(app, name)) { fclose(f); return false; }
    if (file_size > (long long)llmsim::kHfConfigMaxBytes) {
        fclose(f);
        app.import.message = name + " is neither a GGUF file (no GGUF magic) nor a config.json (larger than 4 MiB)";
        app.import.ok = false;
        return false;
    }
    std::string text((size_t)file_size, '\0');
    size_t n = fread(text.data(), 1, text.size(), f);
    fclose(f);
    text.resize(n);
    return import_hf_config(app, text, "imported/" + name);
}
