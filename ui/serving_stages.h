// The staged arrival ladder's text form, shared by the Serving section (ui/panel_serving.cpp) and its URL key
// sv_stages (ui/url_state.cpp), which the fuzz target and the message tests compile without the panels.
#pragma once

#include <string>
#include <vector>

#include "serving/serving.h"

// a staged arrival ladder as the Serving section and its URL key sv_stages write it: "rate:seconds" pairs joined by
// commas ("3:50,10:20" = 3 requests/s for 50 s, then 10 requests/s for 20 s; inference-perf load.stages, which
// ServeWorkload::rate_stages follows). "" = no ladder. At most kMaxStages stages and kMaxStagedRequests requests in all
// (int(rate x seconds) each: the page simulates every one). Fills err naming the stage and returns false on bad text
constexpr int kMaxStages = 200, kMaxStagedRequests = 20000;
bool parse_rate_stages_text(const std::string& text, std::vector<llmsim::ServeWorkload::RateStage>& out, std::string& err);
// the same ladder written back the one way ("3:50,10:20"), so a link carries one spelling
std::string rate_stages_text(const std::vector<llmsim::ServeWorkload::RateStage>& stages);
