// load_embedded_catalog: the catalog compiled into this binary (see engine/core/assets.h). Native builds embed the
// JSON and parse it; the web page embeds catalog/catalog.bin (catalog_binary.h), written at build time from the same
// JSON by this parser, and is built with LLMSIM_CATALOG_BINARY so the JSON catalog parser is not in its wasm.
#include "core/assets.h"
#include "catalog/catalog.h"
#include "catalog/catalog_binary.h"

namespace llmsim {

const char* version() { return LLMSIM_VERSION; }

bool load_embedded_catalog(Catalog& out, std::string& err) {
#ifdef LLMSIM_CATALOG_BINARY
    const std::string_view bin = embedded_asset("catalog/catalog.bin");
    if (bin.empty()) {
        err = "embedded catalog is missing (this build was made without catalog/catalog.bin)";
        return false;
    }
    return catalog_from_binary(bin, out, err);
#else
    const std::string_view models = embedded_asset("catalog/models.json");
    const std::string_view hardware = embedded_asset("catalog/hardware.json");
    const std::string_view quants = embedded_asset("catalog/quants.json");
    if (models.empty() || hardware.empty() || quants.empty()) {
        err = "embedded catalog is missing (this build was made without assets/catalog/*.json)";
        return false;
    }
    return parse_catalog(std::string(models), std::string(hardware), std::string(quants), out, err);
#endif
}

const Catalog* embedded_catalog(std::string* err) {
    struct Loaded { Catalog cat; std::string err; bool ok = false; };
    static const Loaded loaded = [] { Loaded l; l.ok = load_embedded_catalog(l.cat, l.err); return l; }();
    if (!loaded.ok && err) *err = loaded.err;
    return loaded.ok ? &loaded.cat : nullptr;
}

}  // namespace llmsim
