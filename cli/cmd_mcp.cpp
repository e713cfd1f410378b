// llmsim-cli mcp: the engine as a Model Context Protocol server on stdio, for launchers and coding agents. Reads one
// JSON-RPC message per line from stdin, writes each response as one line on stdout, logs on stderr only (the stdio
// transport's rules: mcp_server.h). The protocol is in mcp_server.cpp, the tools in mcp_tools.cpp.
#include <cstdio>

#include "commands.h"
#include "core/input_limits.h"
#include "mcp_server.h"

namespace llmsim::cli {

namespace {
// one line without its '\n' (and at most max + 1 of its bytes: a longer line is read to its end and dropped, so the
// server answers it with an error and goes on); false at the end of input
bool read_line(FILE* in, std::string& line, size_t max) {
    line.clear();
    bool any = false;
    for (int c; (c = getc(in)) != EOF;) {
        any = true;
        if (c == '\n') return true;
        if (line.size() <= max) line.push_back((char)c);
    }
    return any;
}
}  // namespace

int cmd_mcp(int argc, char** argv) {
    Args a = parse_args(argc, argv, {"help"});
    if (a.has("help")) {
        printf("usage: llmsim-cli mcp\n"
               "Serves the engine over the Model Context Protocol (MCP 2025-11-25) on stdin/stdout: one JSON-RPC\n"
               "message per line. Tools: memory, predict, recommend_hardware, recommend_models, serve, cost.\n"
               "Register it in an MCP client as the command \"llmsim-cli\" with the argument \"mcp\" (docs/mcp.md).\n");
        return 0;
    }
    if (!a.options.empty() || !a.positional.empty())
        return fail("mcp: takes no options (try llmsim-cli mcp --help)");
    Catalog cat;
    if (!load_catalog(cat)) return 1;
    mcp::Session session;
    session.catalog = &cat;
    fprintf(stderr, "llmsim-cli mcp: serving %zu tools on stdio (MCP %s)\n", mcp::tools().size(),
            mcp::protocol_versions().front().c_str());
    std::string line;
    while (read_line(stdin, line, kMcpMaxMessageBytes)) {
        const std::string reply = mcp::handle_line(session, line);
        if (reply.empty()) continue;
        fwrite(reply.data(), 1, reply.size(), stdout);
        fputc('\n', stdout);
        fflush(stdout);
    }
    return 0;
}

}  // namespace llmsim::cli
