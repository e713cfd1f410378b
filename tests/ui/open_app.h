// The app as a shared link opens it (platform_web.cpp llmsim_set_hash): one helper for the native UI and page tests.
#pragma once
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "app_state.h"
#include "derived.h"
#include "url_state.h"

namespace llmsim::test {

inline void open_app(AppState& app, const std::string& hash) {
    init_app(app);
    REQUIRE(app.catalog_error.empty());
    Scenario s;
    std::string err;
    std::vector<std::string> keys;
    REQUIRE(decode_url_state(hash, s, err, &keys));
    app.scenario = s;
    apply_model_defaults_for_keys(app, Scenario().model, keys);
    ++app.state_version;
    update_derived(app);
}

}  // namespace llmsim::test
