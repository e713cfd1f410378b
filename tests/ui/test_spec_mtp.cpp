// The Spec section's MTP mode (ui/panel_spec.cpp, URL key sp_mtp): the section computes from the JS API's own
// request, so its result is what window.llmsim.spec returns for that request; the command gains llama.cpp's
// --spec-type draft-mtp flags; a model without MTP heads gets the section's error, not a number. Native (the
// browser e2e of this path was not run in the session that added it).
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include "api/api_extras.h"
#include "app_state.h"
#include "derived.h"
#include "panel_spec.h"
#include "url_state.h"
#include "open_app.h"

using llmsim::test::open_app;

TEST_CASE("spec section: MTP mode = the JS API, and its command flags", "[ui][mtp]") {
    AppState app;
    open_app(app, "model=zai-org/GLM-4.5-Air&quant=Q4_K_M&ctx=16384&hardware=h200-sxm&section=spec&sp_mtp=1&sp_k=3&sp_acc=0.75");
    update_spec(app);
    const SpecState& st = app.spec;
    INFO(st.error);
    REQUIRE(st.error.empty());
    CHECK(st.mtp);
    CHECK(st.has_speed);
    const nlohmann::json shown = nlohmann::json::parse(spec_state_json(app));
    const nlohmann::json api = nlohmann::json::parse(llmsim::api_spec(app.catalog, st.request_json));
    REQUIRE_FALSE(api.contains("error"));
    CHECK(shown["request"]["mtp"] == true);
    CHECK(shown["result"] == api);
    CHECK(api["speed"]["k"] == 3);
    CHECK(spec_command_flags(app) == " --spec-type draft-mtp --spec-draft-n-max 3");
    // every number the section shows has its explanation
    for (const char* key : {"spec_memory", "spec_expected", "spec_round", "spec_speed", "spec_break_even"}) {
        bool found = false;
        for (const llmsim::Explanation& e : st.explanations) found |= e.key == key;
        CHECK(found);
    }
}

TEST_CASE("spec section: MTP mode on a model without MTP heads is an error, and no flags", "[ui][mtp]") {
    AppState app;
    open_app(app, "model=Qwen/Qwen2.5-7B-Instruct&hardware=rtx-4090&section=spec&sp_mtp=1");
    update_spec(app);
    CHECK(app.spec.error.find("has no MTP heads") != std::string::npos);
    CHECK(spec_command_flags(app).empty());
}
