// A Hub lookup on a worker thread (hub_worker.h).
#include "hub_worker.h"

#include "hub_curl.h"

namespace llmsim::net {

HubWorker::~HubWorker() {
    cancel();
    join();
}

void HubWorker::join() {
    if (thread_.joinable()) thread_.join();
}

bool HubWorker::start(const HubRef& ref, const HubLookupOptions& opt, const std::string& token) {
    {
        std::lock_guard<std::mutex> lk(mu_);
        if (state_ != State::Idle) return false;
    }
    join();  // a finished, taken thread
    cancel_ = false;
    {
        std::lock_guard<std::mutex> lk(mu_);
        state_ = State::Running;
        progress_ = "looking up " + hub_ref_text(ref) + " on " + opt.endpoint;
        requests_ = 0;
        outcome_ = Outcome();
    }
    thread_ = std::thread([this, ref, opt, token = std::string(token)]() mutable {
        HubLookup look(ref, opt);
        std::string err;
        const bool ran = run_hub_lookup_curl(look, opt.endpoint, token, [this](const std::string& p) {
            std::lock_guard<std::mutex> lk(mu_);
            progress_ = p;
            ++requests_;
        }, &cancel_, err);
        token.assign(token.size(), '\0');  // the copy this thread held
        Outcome o;
        o.result = look.result();
        if (!ran) {
            o.state = cancel_ ? State::Cancelled : State::Failed;
            o.error = cancel_ ? "lookup of " + hub_ref_text(ref) + " cancelled" : err;
        } else if (look.failed()) {
            o.state = State::Failed;
            o.error = look.error();
            o.kind = look.error_kind();
            o.retry_after_s = look.retry_after_s();
        } else {
            o.state = State::Done;
        }
        std::lock_guard<std::mutex> lk(mu_);
        state_ = o.state;
        progress_ = o.state == State::Done ? look.progress() : o.error;
        outcome_ = std::move(o);
    });
    return true;
}

void HubWorker::cancel() { cancel_ = true; }

HubWorker::State HubWorker::state() const {
    std::lock_guard<std::mutex> lk(mu_);
    return state_;
}

bool HubWorker::finished() const {
    const State s = state();
    return s == State::Done || s == State::Failed || s == State::Cancelled;
}

std::string HubWorker::progress() const {
    std::lock_guard<std::mutex> lk(mu_);
    return progress_;
}

int HubWorker::requests_started() const {
    std::lock_guard<std::mutex> lk(mu_);
    return requests_;
}

HubWorker::Outcome HubWorker::take() {
    if (!finished()) return Outcome();
    join();
    std::lock_guard<std::mutex> lk(mu_);
    Outcome o = std::move(outcome_);
    outcome_ = Outcome();
    state_ = State::Idle;
    return o;
}

}  // namespace llmsim::net
