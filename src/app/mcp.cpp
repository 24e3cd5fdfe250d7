#include "context_pack/app/mcp.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <exception>
#include <istream>
#include <optional>
#include <ostream>
#include <string>
#include <utility>

#include "context_pack/app/exit_status.hpp"
#include "context_pack/model/json_text.hpp"
#include "mcp_tool.hpp"

namespace cp::mcp {
namespace {

// JSON-RPC 2.0 error codes.
constexpr int kParseError = -32700;
constexpr int kInvalidRequest = -32600;
constexpr int kMethodNotFound = -32601;
constexpr int kInvalidParams = -32602;
constexpr int kInternalError = -32603;

Json error_reply(const Json& id, int code, const std::string& message) {
    return Json{{"jsonrpc", "2.0"}, {"id", id}, {"error", {{"code", code}, {"message", message}}}};
}

Json result_reply(const Json& id, Json result) {
    return Json{{"jsonrpc", "2.0"}, {"id", id}, {"result", std::move(result)}};
}

class Server {
  public:
    explicit Server(std::ostream& err) : err_(err) {}

    // The reply to one line, or nullopt when it needs none (notifications, responses).
    std::optional<std::string> handle_line(const std::string& line) {
        auto parsed = parse_ordered_json(line);  // nesting bounded: copies below recurse
        if (!parsed)
            return dump(error_reply(nullptr, kParseError,
                                    fmt::format("Parse error: {}", parsed.error().message)));
        const Json& message = parsed.value();
        if (!message.is_array()) {
            auto reply = handle(message);
            return reply ? std::optional(dump(*reply)) : std::nullopt;
        }
        if (message.empty())  // JSON-RPC batches (2025-03-26) must not be empty
            return dump(error_reply(nullptr, kInvalidRequest, "Invalid Request: empty batch"));
        Json replies = Json::array();
        for (const Json& m : message)
            if (auto reply = handle(m)) replies.push_back(std::move(*reply));
        return replies.empty() ? std::nullopt : std::optional(dump(replies));
    }

  private:
    static std::string dump(const Json& j) {
        // One line (strings escape their newlines); bytes that are not UTF-8 are replaced.
        return j.dump(-1, ' ', false, Json::error_handler_t::replace);
    }

    std::optional<Json> handle(const Json& m) {
        if (!m.is_object())
            return error_reply(nullptr, kInvalidRequest, "Invalid Request: not a JSON object");
        auto id_it = m.find("id");
        bool has_id = id_it != m.end();
        bool id_ok = has_id && (id_it->is_string() || id_it->is_number_integer());
        Json id = id_ok ? *id_it : Json(nullptr);
        auto method = m.find("method");
        if (method == m.end()) {
            if (m.contains("result") || m.contains("error")) return std::nullopt;  // a response
            return error_reply(id, kInvalidRequest, "Invalid Request: no method");
        }
        if (!has_id) return std::nullopt;  // a notification: never answered, whatever it says
        if (!id_ok)
            return error_reply(nullptr, kInvalidRequest,
                               "Invalid Request: id must be a string or an integer");
        if (m.value("jsonrpc", Json()) != "2.0")
            return error_reply(id, kInvalidRequest, "Invalid Request: jsonrpc must be \"2.0\"");
        if (!method->is_string())
            return error_reply(id, kInvalidRequest, "Invalid Request: method must be a string");
        Json params = m.value("params", Json::object());
        if (params.is_null()) params = Json::object();
        if (!params.is_object())
            return error_reply(id, kInvalidParams, "Invalid params: params must be an object");
        try {
            return dispatch(id, method->get<std::string>(), params);
        } catch (const std::exception& e) {
            err_ << "context-pack mcp: internal error: " << e.what() << '\n';
            return error_reply(id, kInternalError, fmt::format("Internal error: {}", e.what()));
        }
    }

    Json dispatch(const Json& id, const std::string& method, const Json& params) {
        if (method == "initialize") {
            auto requested = params.find("protocolVersion");
            protocol_ = kProtocolVersions.front();
            if (requested != params.end() && requested->is_string() &&
                std::find(kProtocolVersions.begin(), kProtocolVersions.end(),
                          requested->get<std::string>()) != kProtocolVersions.end())
                protocol_ = requested->get<std::string>();
            return result_reply(
                id,
                Json{{"protocolVersion", protocol_},
                     {"capabilities", {{"tools", Json::object()}}},
                     {"serverInfo", {{"name", "context-pack"}, {"version", CONTEXT_PACK_VERSION}}},
                     {"instructions", kInstructions}});
        }
        if (method == "ping") return result_reply(id, Json::object());
        if (method == "tools/list")
            return result_reply(id, Json{{"tools", Json::array({tool_description(protocol_)})}});
        if (method == "tools/call") {
            auto name = params.find("name");
            if (name == params.end() || !name->is_string())
                return error_reply(id, kInvalidParams,
                                   "Invalid params: tools/call needs a tool name");
            if (name->get<std::string>() != kToolName)
                return error_reply(id, kInvalidParams,
                                   fmt::format("Unknown tool: {}; this server has {}",
                                               name->get<std::string>(), kToolName));
            Json arguments = params.value("arguments", Json::object());
            if (arguments.is_null()) arguments = Json::object();
            try {
                return result_reply(id, call_tool(arguments));
            } catch (const std::exception& e) {
                return result_reply(id, tool_error(fmt::format("internal error: {}", e.what())));
            }
        }
        return error_reply(id, kMethodNotFound, fmt::format("Method not found: {}", method));
    }

    std::ostream& err_;
    std::string protocol_{kProtocolVersions.front()};  // until initialize says otherwise
};

constexpr const char* kHelp =
    "Usage: context-pack mcp\n\n"
    "Serve the Model Context Protocol on standard input and output (JSON-RPC 2.0, one message\n"
    "a line) until end of input. One tool, context_pack, takes a spec (an object, or the path\n"
    "of a .json or .jsonl spec file) plus repo, base, target, at_base, since, table_only, only,\n"
    "context, max_lines and max_file_mib, and returns the pack as text and the report as\n"
    "structured JSON.\n\n"
    "Register it with an agent, e.g.:\n"
    "  claude mcp add context-pack -- context-pack mcp\n";

}  // namespace

int serve(std::istream& in, std::ostream& out, std::ostream& err) {
    Server server(err);
    std::string line;
    while (std::getline(in, line)) {
        if (!line.empty() && line.back() == '\r') line.pop_back();
        if (line.find_first_not_of(" \t") == std::string::npos) continue;
        auto reply = server.handle_line(line);
        if (!reply) continue;
        errno = 0;
        out << *reply << '\n';
        out.flush();
        if (!out) {  // the client is gone, or the descriptor is full: nobody hears a reply
            err << "context-pack mcp: cannot write to standard output: "
                << (errno ? std::strerror(errno) : "write error") << "; stopping\n";
            return kExitCannotRun;
        }
    }
    return kExitOk;
}

int run(int argc, char** argv, std::istream& in, std::ostream& out, std::ostream& err) {
    if (argc > 2) {
        std::string_view arg = argv[2];
        if (argc == 3 && (arg == "--help" || arg == "-h")) {
            out << kHelp;
            return kExitOk;
        }
        err << "context-pack: mcp takes no arguments (the client passes them to the tool); "
               "see context-pack mcp --help\n";
        return kExitCannotRun;
    }
    return serve(in, out, err);
}

}  // namespace cp::mcp
