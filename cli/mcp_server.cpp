// llmsim-cli mcp's protocol layer (mcp_server.h): JSON-RPC 2.0 framing, the MCP lifecycle and the tools/* methods.
#include "mcp_server.h"

#include "core/assets.h"
#include "core/input_limits.h"
#include "core/json_diag.h"

namespace llmsim::mcp {

namespace {
using json = nlohmann::json;

// JSON-RPC 2.0 error codes (jsonrpc.org/specification section 5.1), as MCP uses them
constexpr int kParseError = -32700, kInvalidRequest = -32600, kMethodNotFound = -32601, kInvalidParams = -32602,
              kInternalError = -32603;

std::string line_of(const json& j) { return j.dump(-1, ' ', false, json::error_handler_t::replace); }
std::string error_line(const json& id, int code, const std::string& message) {
    return line_of({{"jsonrpc", "2.0"}, {"id", id}, {"error", {{"code", code}, {"message", sanitize_utf8(message)}}}});
}
std::string result_line(const json& id, const json& result) {
    return line_of({{"jsonrpc", "2.0"}, {"id", id}, {"result", result}});
}

const Tool* find_tool(const std::string& name) {
    for (const Tool& t : tools())
        if (name == t.name) return &t;
    return nullptr;
}
std::string tool_names() {
    std::string s;
    for (const Tool& t : tools()) s += (s.empty() ? "" : ", ") + std::string(t.name);
    return s;
}

// lifecycle: the client's protocolVersion if this server speaks it, else the newest this server speaks (the client
// then decides whether it can go on: basic/lifecycle "Version Negotiation")
std::string initialize(Session& s, const json& id, const json& params) {
    if (!params.is_object() || !params.contains("protocolVersion") || !params["protocolVersion"].is_string())
        return error_line(id, kInvalidParams, "initialize: params.protocolVersion (a string such as \"" +
                                                  protocol_versions().front() + "\") is required");
    const std::string asked = params["protocolVersion"].get<std::string>();
    std::string version = protocol_versions().front();
    for (const std::string& v : protocol_versions())
        if (v == asked) version = v;
    s.protocol_version = version;
    json result{{"protocolVersion", version},
                {"capabilities", {{"tools", {{"listChanged", false}}}}},
                {"serverInfo", {{"name", "llmsim"}, {"title", "llmsim: does an LLM fit, how fast, what will it cost"},
                                {"version", llmsim::version()}}},
                {"instructions",
                 "llmsim estimates LLM inference on given hardware from a catalog: memory / fit (memory), tokens per "
                 "second (predict), devices for a model (recommend_hardware), models for a device (recommend_models), "
                 "serving many users with vLLM / SGLang / llama-server (serve) and monthly cost (cost). Models: catalog "
                 "ids (\"Qwen/Qwen2.5-7B-Instruct\"), Ollama tags (\"qwen2.5:7b\") or hf.co/org/repo:QUANT; hardware: "
                 "catalog ids (\"rtx-4090\", \"m4-max-128\", \"2x-rtx-3090\"). Sizes are bytes, speeds tokens per second."}};
    return result_line(id, result);
}

std::string list_tools(const Session& s, const json& id) {
    json list = json::array();
    for (const Tool& t : tools())
        list.push_back({{"name", t.name}, {"title", t.title}, {"description", t.description},
                        {"inputSchema", t.input_schema(*s.catalog)}});
    return result_line(id, {{"tools", list}});   // one page: no nextCursor
}

std::string call(const Session& s, const json& id, const json& params) {
    if (!params.is_object() || !params.contains("name") || !params["name"].is_string())
        return error_line(id, kInvalidParams, "tools/call: params.name (one of " + tool_names() + ") is required");
    const std::string name = params["name"].get<std::string>();
    const Tool* tool = find_tool(name);
    if (!tool) return error_line(id, kInvalidParams, "Unknown tool: '" + name + "' (tools: " + tool_names() + ")");
    json args = json::object();
    if (params.contains("arguments") && !params["arguments"].is_null()) {
        if (!params["arguments"].is_object())
            return error_line(id, kInvalidParams, "tools/call: params.arguments must be an object (the tool's inputSchema)");
        args = params["arguments"];
    }
    return result_line(id, call_tool(*s.catalog, *tool, args));
}

// a request (it has an id): its response line
std::string answer_request(Session& s, const json& id, const std::string& method, const json& params) {
    if (method == "initialize") return initialize(s, id, params);
    if (method == "ping") return result_line(id, json::object());
    if (method == "tools/list") return list_tools(s, id);
    if (method == "tools/call") return call(s, id, params);
    return error_line(id, kMethodNotFound, "Method not found: '" + method + "' (this server answers initialize, ping, "
                                           "tools/list and tools/call)");
}

std::string handle_message(Session& s, const json& msg) {
    if (msg.is_array()) return error_line(nullptr, kInvalidRequest, "JSON-RPC batches are not supported (MCP removed them in 2025-06-18): send one message per line");
    if (!msg.is_object()) return error_line(nullptr, kInvalidRequest, "a message must be a JSON-RPC 2.0 object");
    const bool has_id = msg.contains("id");
    const json id = has_id && (msg["id"].is_string() || msg["id"].is_number_integer()) ? msg["id"] : json(nullptr);
    if (!msg.contains("method")) {
        if (has_id && (msg.contains("result") || msg.contains("error"))) return "";   // a response: this server sends no requests
        return error_line(id, kInvalidRequest, "a message needs \"method\" (a request or notification)");
    }
    if (!msg["method"].is_string()) return has_id ? error_line(id, kInvalidRequest, "\"method\" must be a string") : "";
    const std::string method = msg["method"].get<std::string>();
    if (!has_id) {   // a notification: never answered (JSON-RPC 2.0 section 4.1)
        if (method == "notifications/initialized") s.initialized = true;
        return "";
    }
    if (id.is_null()) return error_line(nullptr, kInvalidRequest, "\"id\" must be a string or an integer (MCP: not null)");
    if (!msg.contains("jsonrpc") || msg["jsonrpc"] != "2.0") return error_line(id, kInvalidRequest, "\"jsonrpc\" must be \"2.0\"");
    const json params = msg.contains("params") ? msg["params"] : json::object();
    if (!params.is_object()) return error_line(id, kInvalidParams, "\"params\" must be an object");
    return answer_request(s, id, method, params);
}
}  // namespace

const std::vector<std::string>& protocol_versions() {
    static const std::vector<std::string> versions = {"2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"};
    return versions;
}

json call_tool(const Catalog& cat, const Tool& tool, const json& arguments) {
    const std::string text = tool.call(cat, arguments.dump(-1, ' ', false, json::error_handler_t::replace));
    const json answer = json::parse(text, nullptr, false);
    // a refused request: {"error": ...}; serve() answers with "ok": false and "error" beside its plan (an unknown engine,
    // a deployment that does not fit), which `serve --json` exits 2 on, so that is a tool error too, the plan kept
    if (answer.is_object() && answer.contains("error") && !(answer.contains("ok") && answer["ok"] == true)) {
        const std::string why = answer["error"].is_string() ? answer["error"].get<std::string>() : line_of(answer["error"]);
        json result{{"content", {{{"type", "text"}, {"text", std::string(tool.name) + ": " + why}}}}, {"isError", true}};
        if (answer.contains("ok")) result["structuredContent"] = answer;
        return result;
    }
    // the text content is the answer on one line (serve() pretty-prints it): the same JSON, fewer tokens
    json result{{"content", {{{"type", "text"}, {"text", answer.is_discarded() ? text : line_of(answer)}}}}, {"isError", false}};
    if (answer.is_object()) result["structuredContent"] = answer;
    return result;
}

std::string handle_line(Session& s, const std::string& raw) {
    try {
        std::string line = raw;
        if (!line.empty() && line.back() == '\r') line.pop_back();
        if (line.find_first_not_of(" \t") == std::string::npos) return "";
        if (line.size() > kMcpMaxMessageBytes)
            return error_line(nullptr, kInvalidRequest, "message longer than " + std::to_string(kMcpMaxMessageBytes >> 10) +
                                                            " KiB (the limit of one MCP message here)");
        const int depth = json_nesting_depth(line);
        if (depth > kMcpMaxJsonDepth)
            return error_line(nullptr, kParseError, "Parse error: JSON nested " + std::to_string(depth) + " levels deep (limit " +
                                                        std::to_string(kMcpMaxJsonDepth) + ")");
        const json msg = json::parse(line, nullptr, false);
        if (msg.is_discarded()) return error_line(nullptr, kParseError, "Parse error: " + describe_json_error(line));
        Session next = s;   // a request that fails half-way changes nothing
        std::string out = handle_message(next, msg);
        s = next;
        return out;
    } catch (const std::exception& e) {
        return error_line(nullptr, kInternalError, std::string("Internal error: ") + e.what());
    } catch (...) {
        return error_line(nullptr, kInternalError, "Internal error");
    }
}

}  // namespace llmsim::mcp
