// A Hub lookup on a worker thread, so a UI never blocks on the network (the desktop app polls it each frame).
//
//   llmsim::net::HubWorker w;
//   w.start(ref, opt, token);                  // opt.endpoint: where to ask (hub_endpoint_from_env())
//   each frame: if (w.state() == HubWorker::State::Running) show(w.progress());
//               else if (w.finished()) { HubWorker::Outcome o = w.take(); ... }
//   a Cancel button: w.cancel();                // the transfer is aborted, take() says "cancelled"
#pragma once
#include <atomic>
#include <mutex>
#include <string>
#include <thread>

#include "hub/hub_lookup.h"

namespace llmsim::net {

class HubWorker {
public:
    enum class State { Idle, Running, Done, Failed, Cancelled };
    struct Outcome {
        State state = State::Idle;
        HubResult result;                 // Done: the model and its files; otherwise what was read so far
        std::string error;                // Failed / Cancelled: the lookup's message
        HubErrorKind kind = HubErrorKind::None;
        int retry_after_s = -1;
    };

    HubWorker() = default;
    ~HubWorker();                         // cancels a running lookup and waits for the thread
    HubWorker(const HubWorker&) = delete;
    HubWorker& operator=(const HubWorker&) = delete;

    // look `ref` up on a new thread; false when one is still running or finished and not taken
    bool start(const HubRef& ref, const HubLookupOptions& opt, const std::string& token);
    void cancel();                        // no-op when nothing runs
    State state() const;
    bool finished() const;                // Done, Failed or Cancelled, waiting for take()
    std::string progress() const;         // "reading the header of x.gguf (2.1 MB so far)"
    int requests_started() const;         // requests sent so far (progress callbacks)
    Outcome take();                       // the finished lookup; the worker is Idle again

private:
    void join();
    mutable std::mutex mu_;
    std::thread thread_;
    std::atomic<bool> cancel_{false};
    State state_ = State::Idle;
    std::string progress_;
    int requests_ = 0;
    Outcome outcome_;
};

}  // namespace llmsim::net
