// The desktop app's Hub transport (net/hub_worker.h) driven the way platform_native.cpp drives it: started, then
// polled from this (the "frame") thread every 10 ms until it ends. Prints one JSON line for test_worker_hub.py.
//   HF_ENDPOINT=http://127.0.0.1:PORT hub_worker_check lookup org/new-model:Q4_K_M
//   HF_ENDPOINT=... hub_worker_check cancel org/slow-model 500      cancel after 500 ms
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>

#include <nlohmann/json.hpp>

#include "hub/hub_ref.h"
#include "hub_curl.h"
#include "hub_worker.h"

int main(int argc, char** argv) {
    if (argc < 3) { fprintf(stderr, "usage: hub_worker_check lookup|cancel ID [MS]\n"); return 2; }
    const std::string mode = argv[1];
    llmsim::HubRef ref;
    std::string err;
    if (!llmsim::parse_hub_ref(argv[2], ref, err)) { fprintf(stderr, "%s\n", err.c_str()); return 2; }
    llmsim::HubLookupOptions opt;
    opt.all_headers = true;   // as the desktop app asks
    opt.endpoint = llmsim::net::hub_endpoint_from_env();
    llmsim::net::HubWorker w;
    using clock = std::chrono::steady_clock;
    const auto t0 = clock::now();
    if (!w.start(ref, opt, llmsim::net::hub_token_from_env())) { fprintf(stderr, "start refused\n"); return 1; }
    const bool second = w.start(ref, opt, "");   // a second start while one runs is refused
    int polls_while_running = 0, progress_changes = 0;
    std::string last;
    const int cancel_ms = mode == "cancel" && argc > 3 ? std::atoi(argv[3]) : -1;
    double cancel_at_ms = -1;
    while (!w.finished()) {
        ++polls_while_running;
        const std::string p = w.progress();
        if (p != last) { ++progress_changes; last = p; }
        const double ms = std::chrono::duration<double, std::milli>(clock::now() - t0).count();
        if (cancel_ms >= 0 && cancel_at_ms < 0 && ms >= cancel_ms) { w.cancel(); cancel_at_ms = ms; }
        if (ms > 120000) { fprintf(stderr, "the lookup did not end in 120 s\n"); return 1; }
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    const double end_ms = std::chrono::duration<double, std::milli>(clock::now() - t0).count();
    const int requests = w.requests_started();
    llmsim::net::HubWorker::Outcome o = w.take();
    static const char* const kState[] = {"idle", "running", "done", "failed", "cancelled"};
    nlohmann::json j;
    j["state"] = kState[(int)o.state];
    j["error"] = o.error;
    j["second_start_refused"] = !second;
    j["idle_after_take"] = w.state() == llmsim::net::HubWorker::State::Idle;
    j["polls_while_running"] = polls_while_running;
    j["progress_changes"] = progress_changes;
    j["requests"] = requests;
    j["ms"] = end_ms;
    if (cancel_at_ms >= 0) j["ms_after_cancel"] = end_ms - cancel_at_ms;
    j["license"] = o.result.license;
    j["tree_pages"] = o.result.tree_pages;
    j["bytes_read"] = o.result.bytes_read;
    if (o.result.chosen >= 0 && (size_t)o.result.chosen < o.result.variants.size()) {
        const llmsim::HubGgufVariant& v = o.result.variants[(size_t)o.result.chosen];
        j["quant"] = v.quant;
        j["tensor_bytes"] = v.tensor_data_bytes;
    }
    j["variants_read"] = 0;
    for (const auto& v : o.result.variants) j["variants_read"] = j["variants_read"].get<int>() + (v.header_read ? 1 : 0);
    printf("%s\n", j.dump().c_str());
    return 0;
}
