// engine/hub's lookup plan driven over libcurl (hub_curl.cpp), for the CLI and the desktop app.
//   HF_ENDPOINT  the Hub to ask (default https://huggingface.co; a mirror or the tests' stand-in)
//   HF_TOKEN     the token when the caller has none of its own
// The token goes to the endpoint only: libcurl drops the Authorization header when a redirect leaves the
// endpoint's host (CURLOPT_UNRESTRICTED_AUTH stays off), so the signed storage URLs never see it.
//
//   std::atomic<bool> stop{false};
//   llmsim::HubLookupOptions opt;  opt.endpoint = llmsim::net::hub_endpoint_from_env();
//   llmsim::HubLookup look(ref, opt);
//   std::string err;
//   if (!llmsim::net::run_hub_lookup_curl(look, opt.endpoint, token, on_progress, &stop, err)) show(err);
//   else if (look.failed()) show(look.error());
#pragma once
#include <atomic>
#include <functional>
#include <string>

#include "hub/hub_lookup.h"

namespace llmsim::net {

// HF_ENDPOINT, else https://huggingface.co; trailing '/' dropped
std::string hub_endpoint_from_env();
// HF_TOKEN, else ""
std::string hub_token_from_env();
// an endpoint must be an http:// or https:// address; false + err otherwise
bool check_hub_endpoint(const std::string& endpoint, std::string& err);

// run `look` to its end: every request to endpoint + path (Range when asked, redirects followed, the token as
// "Authorization: Bearer" to the endpoint only), on_progress(look.progress()) before each. `cancel` (may be null),
// set from another thread, aborts the transfer in progress within about a second (libcurl's progress callback).
// true when the lookup ran to its end (look.done() or look.failed()); false + err when cancelled ("cancelled") or
// libcurl could not start
bool run_hub_lookup_curl(HubLookup& look, const std::string& endpoint, const std::string& token,
                         const std::function<void(const std::string&)>& on_progress, const std::atomic<bool>* cancel,
                         std::string& err);

}  // namespace llmsim::net
