// The staged arrival ladder's text form (serving_stages.h).
#include "serving_stages.h"

#include <cmath>
#include <locale>
#include <sstream>

namespace {

// a whole string as a finite number, locale-independent (STYLE.md: a comma-decimal desktop computes what the browser does)
bool stage_number(const std::string& text, double& v) {
    std::istringstream in(text);
    in.imbue(std::locale::classic());
    in >> v;
    return !text.empty() && !in.fail() && in.eof() && std::isfinite(v);
}

std::string trimmed(const std::string& t) {
    const size_t a = t.find_first_not_of(" \t"), b = t.find_last_not_of(" \t");
    return a == std::string::npos ? std::string() : t.substr(a, b - a + 1);
}

}  // namespace

bool parse_rate_stages_text(const std::string& text, std::vector<llmsim::ServeWorkload::RateStage>& out, std::string& err) {
    out.clear();
    if (trimmed(text).empty()) return true;
    const char* example = " (e.g. 3:50,10:20 = 3 requests/s for 50 s, then 10 requests/s for 20 s)";
    std::vector<llmsim::ServeWorkload::RateStage> stages;
    double requests = 0;
    size_t start = 0;
    while (start <= text.size()) {
        const size_t end = std::min(text.find(',', start), text.size());
        const std::string item = trimmed(text.substr(start, end - start));
        start = end + 1;
        const std::string which = "stage " + std::to_string(stages.size() + 1);
        const size_t colon = item.find(':');
        llmsim::ServeWorkload::RateStage sg;
        if (colon == std::string::npos || !stage_number(trimmed(item.substr(0, colon)), sg.rate) ||
            !stage_number(trimmed(item.substr(colon + 1)), sg.duration_s)) {
            err = which + ": '" + item + "' is not rate:seconds" + example;
            return false;
        }
        if (sg.rate <= 0 || sg.rate > 100000) { err = which + ": rate " + trimmed(item.substr(0, colon)) + " must be above 0 and at most 100000 requests/s"; return false; }
        if (sg.duration_s <= 0 || sg.duration_s > 86400) { err = which + ": " + trimmed(item.substr(colon + 1)) + " s must be above 0 and at most 86400 s"; return false; }
        stages.push_back(sg);
        requests += std::floor(sg.rate * sg.duration_s);
        if ((int)stages.size() > kMaxStages) { err = "at most " + std::to_string(kMaxStages) + " stages"; return false; }
    }
    if (requests > kMaxStagedRequests) {
        err = std::to_string((long long)requests) + " requests in all (int(rate x seconds) per stage); the page simulates at most " +
              std::to_string(kMaxStagedRequests) + ": use llmsim-cli serve --request for longer ladders";
        return false;
    }
    if (requests < 1) { err = "every stage sends int(rate x seconds) = 0 requests: nothing to simulate"; return false; }
    out = stages;
    return true;
}

std::string rate_stages_text(const std::vector<llmsim::ServeWorkload::RateStage>& stages) {
    std::ostringstream o;
    o.imbue(std::locale::classic());
    for (size_t k = 0; k < stages.size(); ++k) o << (k ? "," : "") << stages[k].rate << ':' << stages[k].duration_s;
    return o.str();
}

