// The Model Context Protocol server behind `llmsim-cli mcp`: one JSON-RPC 2.0 message in (a line read from stdin),
// at most one message out (the line to write to stdout). The protocol layer only: the tools are a registry
// (mcp_tools.cpp) whose handlers call the engine's JSON entry points (api_memory, predict_line, api_recommend,
// api_recommend_models, api_serve, api_cost), the ones the JS API and `llmsim-cli ... --json` use, so an agent gets
// the answers and keys the page and the command line give.
//
// Specification followed: MCP 2025-11-25, https://modelcontextprotocol.io/specification/2025-11-25
//   (basic/lifecycle: initialize + notifications/initialized, version negotiation; basic/transports: stdio, one
//   message per line, no embedded newlines, logs on stderr only; server/tools: tools/list, tools/call; basic/utilities/
//   ping). Older revisions a client may ask for (2025-06-18, 2025-03-26, 2024-11-05) are answered with their own
//   version: the messages this server uses are the same in all four.
// Errors (server/tools "Error Handling"): a line that is not JSON -> -32700; not a request object (or a batch, which
//   2025-06-18 removed) -> -32600; unknown method -> -32601; tools/call with an unknown tool or without a name /
//   object arguments -> -32602; arguments the engine refuses (unknown model, a value out of range) -> a tool result
//   with isError: true whose text is the engine's message (SEP-1303, 2025-11-25: input validation errors are tool
//   execution errors, so the model can correct the call).
//
//   llmsim::mcp::Session s;
//   s.catalog = &catalog;
//   std::string reply = llmsim::mcp::handle_line(s, R"({"jsonrpc":"2.0","id":1,"method":"tools/list"})");
//   if (!reply.empty()) puts(reply.c_str());
#pragma once
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "catalog/catalog.h"

namespace llmsim::mcp {

// the protocol revisions this server speaks, newest first: an initialize naming one gets it back, any other the first
const std::vector<std::string>& protocol_versions();

struct Tool {
    const char* name;           // "memory", "predict", ...
    const char* title;          // a human-readable name (2025-06-18 Tool.title)
    const char* description;    // what it answers and with which keys, for the model choosing a tool
    nlohmann::json (*input_schema)(const Catalog& cat);   // JSON Schema of the arguments (enums from the catalog)
    std::string (*call)(const Catalog& cat, const std::string& arguments_json);   // the engine's JSON entry point
};
// the tools, in the order tools/list gives them (mcp_tools.cpp)
const std::vector<Tool>& tools();

struct Session {
    const Catalog* catalog = nullptr;
    std::string protocol_version;   // negotiated by initialize; "" before
    bool initialized = false;       // notifications/initialized received
};

// answer one line (without its newline): the response line, or "" for a notification / a response from the client.
// Never throws; a bad line leaves the session as it was.
std::string handle_line(Session& s, const std::string& line);
// the tool result for tools/call of `tool` with `arguments` (an object): {"content": [{"type":"text", ...}],
// "structuredContent"?: the answer object, "isError": true when the engine refused the arguments (text: "<tool>:
// <the engine's message>"), or serve() answered "ok": false (its plan kept as structuredContent)}
nlohmann::json call_tool(const Catalog& cat, const Tool& tool, const nlohmann::json& arguments);

}  // namespace llmsim::mcp
