// libFuzzer target: the MCP server's request path (cli/mcp_server.h, `llmsim-cli mcp`), a front door for strangers'
// bytes. The input is split into lines like the stdio transport does, each handed to handle_line on one session (so
// initialize followed by tools/call is reachable). Every answer must be empty (a notification) or one JSON-RPC 2.0
// object on one line with exactly one of result / error, and a tool result's numbers finite. Calls of the serve tool
// are left out: its load simulation runs up to workload.num_prompts = 10 M requests by design (a minute natively), which
// libFuzzer would report as a hang; the protocol path up to the tool is the same for every tool.
#include <cmath>
#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "catalog/catalog.h"
#include "fuzz_support.h"
#include "mcp_server.h"

namespace {
void check_reply(const std::string& out) {
    if (out.empty()) return;
    if (out.find('\n') != std::string::npos) __builtin_trap();   // stdio framing: one message per line
    const nlohmann::json j = nlohmann::json::parse(out, nullptr, false);
    if (j.is_discarded() || !j.is_object() || j.value("jsonrpc", "") != "2.0") __builtin_trap();
    if (j.contains("result") == j.contains("error")) __builtin_trap();
    if (j.contains("error") && (!j["error"].is_object() || !j["error"]["code"].is_number_integer())) __builtin_trap();
    if (j.contains("result")) check_finite(j["result"]);
}

bool calls_serve(const std::string& line) {
    const nlohmann::json j = nlohmann::json::parse(line, nullptr, false);
    return j.is_object() && j.contains("params") && j["params"].is_object() && j["params"].contains("name") &&
           j["params"]["name"] == "serve";
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size > 1 << 16) return 0;
    const std::string input(reinterpret_cast<const char*>(data), size);
    llmsim::mcp::Session session;
    session.catalog = &fuzz_catalog();
    size_t start = 0;
    while (start <= input.size()) {
        size_t end = input.find('\n', start);
        if (end == std::string::npos) end = input.size();
        const std::string line = input.substr(start, end - start);
        if (!calls_serve(line)) check_reply(llmsim::mcp::handle_line(session, line));
        start = end + 1;
    }
    return 0;
}
