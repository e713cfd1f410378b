// The CLI's Hub lookups (hub.h): engine/hub's plan over the shared libcurl transport (net/hub_curl.h), cached per
// process, with progress and what was read on stderr.
#include <cstdio>
#include <cstdlib>
#include <map>

#include "commands.h"
#include "core/format.h"
#include "hub.h"
#include "hub_curl.h"
#include "quant/quant_types.h"

namespace llmsim::cli {

namespace {

std::map<std::string, HubResult>& cache() {
    static std::map<std::string, HubResult> c;  // per process: one lookup per reference and option set
    return c;
}

}  // namespace

bool hub_lookup(const HubRef& ref, const HubLookupOptions& opt, HubResult& out, std::string& err) {
    const std::string key = hub_ref_text(ref) + "#" + opt.prefer_quant + (opt.all_headers ? "#all" : "");
    auto it = cache().find(key);
    if (it != cache().end()) { out = it->second; return true; }
    HubLookupOptions o = opt;
    o.endpoint = net::hub_endpoint_from_env();
    if (!net::check_hub_endpoint(o.endpoint, err)) return false;
    fprintf(stderr, "hub: looking up %s on %s\n", hub_ref_text(ref).c_str(), o.endpoint.c_str());
    HubLookup look(ref, o);
    if (!net::run_hub_lookup_curl(look, o.endpoint, net::hub_token_from_env(),
                                  [](const std::string& p) { fprintf(stderr, "hub: %s\n", p.c_str()); }, nullptr, err))
        return false;
    if (look.failed()) { err = look.error(); return false; }
    out = look.result();
    fprintf(stderr, "hub: %s\n", hub_read_summary(out).c_str());
    cache()[key] = out;
    return true;
}

int model_from_hub(const std::string& id, const std::string* quant, const char* cmd, Model& model, MemoryRequest& req) {
    HubRef ref;
    std::string err;
    if (!parse_hub_ref(id, ref, err)) return fail(std::string(cmd) + ": unknown model '" + id + "': " + err);
    HubLookupOptions opt;
    if (quant) opt.prefer_quant = *quant;
    HubResult r;
    if (!hub_lookup(ref, opt, r, err)) return fail(std::string(cmd) + ": " + err);
    for (const std::string& w : r.warnings) fprintf(stderr, "hub: note: %s\n", w.c_str());
    model = r.model;
    fprintf(stderr, "hub: %s licence: %s\n", ref.repo.c_str(), r.license.empty() ? "not stated on the model card" : r.license.c_str());
    if (r.format == "safetensors") {
        fprintf(stderr, "hub: %s: safetensors checkpoint of %s bytes (%s); llama.cpp memory below is for --quant %s by the rules\n",
                ref.repo.c_str(), std::to_string(r.safetensors_bytes).c_str(), format_gib((double)r.safetensors_bytes).c_str(),
                quant ? quant->c_str() : req.file_type.c_str());
        if (quant) req.file_type = *quant;
        return 0;
    }
    const HubGgufVariant& v = r.variants[(size_t)r.chosen];
    // the per-tensor rules that spread the file's bytes over layers: the header's file type, else the name's
    const std::string ft = hub_variant_file_type(v);
    if (!ft.empty()) req.file_type = ft;
    else fprintf(stderr, "hub: note: %s is no llama.cpp file type; its bytes are spread over the tensors as %s\n", v.quant.c_str(), req.file_type.c_str());
    req.tensor_data_bytes_exact = v.tensor_data_bytes;
    fprintf(stderr, "hub: %s %s (%s): weights %s bytes from %llu tensors in the header%s\n", ref.repo.c_str(), v.quant.c_str(),
            v.files[0].c_str(), std::to_string(v.tensor_data_bytes).c_str(), (unsigned long long)v.n_tensors,
            v.files.size() > 1 ? (", " + std::to_string(v.files.size()) + " split files").c_str() : "");
    return 0;
}

}  // namespace llmsim::cli
