// The CLI built without libcurl (-DLLMSIM_HUB_CURL=OFF): the host tool the web build compiles only to write the
// static site (cmake/site.cmake) needs no network. A Hub id then gets a clear message instead of a lookup.
#include "../hub.h"

#include <cstdio>

namespace llmsim::cli {

static const char* kNoCurl =
    "this llmsim-cli was built without libcurl (-DLLMSIM_HUB_CURL=OFF), so it cannot look models up on the Hub; "
    "build it with libcurl4-openssl-dev installed (scripts/setup.sh desktop)";

bool hub_lookup(const HubRef&, const HubLookupOptions&, HubResult&, std::string& err) {
    err = kNoCurl;
    return false;
}

int model_from_hub(const std::string& id, const std::string*, const char* cmd, Model&, MemoryRequest&) {
    fprintf(stderr, "llmsim-cli %s: '%s' is not in the catalog, and %s\n", cmd, id.c_str(), kNoCurl);
    return 2;
}

}  // namespace llmsim::cli
