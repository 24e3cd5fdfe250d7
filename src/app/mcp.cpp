#include "context_pack/app/mcp.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <exception>
#include <filesystem>
#include <istream>
#include <optional>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "context_pack/app/exit_status.hpp"
#include "context_pack/core/text.hpp"
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

// A message that gets no reply: a notification, or a response to the server's own request.
bool unanswered(const Json& m) {
    if (!m.is_object()) return false;
    return m.contains("method") ? !m.contains("id") : m.contains("result") || m.contains("error");
}

bool is_tool_call(const Json& m) {
    return m.is_object() && m.contains("id") && m.value("method", Json()) == "tools/call";
}

// The directory the server was started in: where relative paths lead, and the one root of a
// client that declares none. Empty when it is gone.
std::string start_directory() {
    std::error_code ec;
    auto dir = std::filesystem::current_path(ec);
    return ec ? std::string() : dir.string();
}

class Server {
  public:
    explicit Server(std::ostream& err)
        : err_(err),
          start_dir_(start_directory()),
          roots_(Roots::start_dir(start_dir_, "the client declares no roots")) {}

    // What to write after one line, in order: its reply, if it needs one; the server's own
    // requests (roots/list); the replies of calls that waited for the roots and may now run.
    std::vector<std::string> handle_line(const std::string& line) {
        auto parsed = parse_ordered_json(line);  // nesting bounded: copies below recurse
        if (!parsed)
            emit(error_reply(nullptr, kParseError,
                             fmt::format("Parse error: {}", parsed.error().message)));
        else if (!parsed.value().is_array())
            take(std::move(parsed).value());
        else
            take_batch(std::move(parsed).value());
        return std::exchange(out_, {});
    }

    // At end of input: calls still waiting for the client's roots are answered under the
    // server's directory, as no answer can come now.
    std::vector<std::string> finish() {
        if (!held_.empty())
            know_roots(Roots::start_dir(start_dir_,
                                        "the client's input ended before it answered roots/list"));
        return std::exchange(out_, {});
    }

  private:
    static std::string dump(const Json& j) {
        // One line (strings escape their newlines); bytes that are not UTF-8 are replaced.
        return j.dump(-1, ' ', false, Json::error_handler_t::replace);
    }

    void emit(const Json& message) { out_.push_back(dump(message)); }

    // While the roots are awaited, a tools/call waits for them; everything else is answered
    // at once.
    void take(Json message) {
        if (roots_awaited_ && is_tool_call(message)) {
            hold(std::move(message));
            return;
        }
        if (auto reply = handle(message)) emit(*reply);
    }

    // A call before the client said it is initialized asks for the roots itself: a client
    // that calls is past waiting for the handshake, and would wait on the call's reply.
    void hold(Json message) {
        if (!asked_) ask_roots();
        held_.push_back(std::move(message));
    }

    // A batch: its notifications and responses first, since an answer to roots/list or a
    // change of roots decides when its calls may run; then its requests, answered together
    // (JSON-RPC lets a batch be taken in any order), or held together while the roots are
    // awaited.
    void take_batch(Json batch) {
        if (batch.empty()) {  // JSON-RPC batches (2025-03-26) must not be empty
            emit(error_reply(nullptr, kInvalidRequest, "Invalid Request: empty batch"));
            return;
        }
        Json requests = Json::array();
        for (Json& m : batch)
            if (unanswered(m))
                handle(m);
            else
                requests.push_back(std::move(m));
        if (requests.empty()) return;
        if (roots_awaited_ && std::any_of(requests.begin(), requests.end(), is_tool_call)) {
            hold(std::move(requests));
            return;
        }
        answer_batch(requests);
    }

    void answer_batch(const Json& requests) {
        Json replies = Json::array();
        for (const Json& m : requests)
            if (auto reply = handle(m)) replies.push_back(std::move(*reply));
        if (!replies.empty()) emit(replies);
    }

    // roots/list, with an id of the server's own; only the answer to the latest one counts.
    void ask_roots() {
        asked_ = Json(fmt::format("context-pack:roots/list:{}", ++asks_));
        emit(Json{{"jsonrpc", "2.0"}, {"id", *asked_}, {"method", "roots/list"}});
    }

    // The roots from now on; the calls that waited for them run, in the order they came.
    void know_roots(Roots roots) {
        roots_ = std::move(roots);
        roots_awaited_ = false;
        asked_.reset();
        auto held = std::exchange(held_, {});
        for (const Json& m : held)
            if (m.is_array())
                answer_batch(m);
            else if (auto reply = handle(m))
                emit(*reply);
    }

    // A response from the client: the answer to roots/list, or else ignored.
    void take_response(const Json& m) {
        auto id = m.find("id");
        if (!asked_ || id == m.end() || *id != *asked_) return;  // not the latest roots/list
        if (auto result = m.find("result"); result != m.end()) {
            if (auto roots = Roots::of_client(*result)) {
                know_roots(std::move(*roots));
                return;
            }
            know_roots(Roots::start_dir(start_dir_,
                                        "the client's roots/list answer holds no roots array"));
            return;
        }
        std::string said;
        if (auto error = m.find("error"); error != m.end() && error->is_object())
            if (auto message = error->find("message");
                message != error->end() && message->is_string())
                said = message->get<std::string>();
        if (said.size() > 200) said = said.substr(0, 200) + "...";
        know_roots(Roots::start_dir(
            start_dir_, said.empty() ? "the client answered roots/list with an error"
                                     : fmt::format("the client answered roots/list with an "
                                                   "error: {}",
                                                   text::printable(said))));
    }

    // The notifications that change what the server does: the roots are asked for once the
    // client is initialized, and again whenever it says they changed; a held call the client
    // cancels is dropped, never answered (the others ran before it could be cancelled).
    void notice(const std::string& method, const Json& params) {
        if (method == "notifications/initialized") {
            initialized_ = true;
            if (roots_awaited_ && !asked_) ask_roots();
        } else if (method == "notifications/roots/list_changed" && client_roots_) {
            roots_awaited_ = true;
            if (initialized_) ask_roots();
        } else if (method == "notifications/cancelled" && params.is_object() &&
                   params.contains("requestId")) {
            const Json& id = params["requestId"];
            auto cancelled = [&](const Json& m) { return is_tool_call(m) && m["id"] == id; };
            for (Json& h : held_)
                if (h.is_array()) h.erase(std::remove_if(h.begin(), h.end(), cancelled), h.end());
            std::erase_if(held_,
                          [&](const Json& h) { return h.is_array() ? h.empty() : cancelled(h); });
        }
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
            if (m.contains("result") || m.contains("error")) {  // a response
                take_response(m);
                return std::nullopt;
            }
            return error_reply(id, kInvalidRequest, "Invalid Request: no method");
        }
        if (!has_id) {  // a notification: never answered, whatever it says
            if (method->is_string()) notice(method->get<std::string>(), m.value("params", Json()));
            return std::nullopt;
        }
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
            // A client with roots is asked for them once it is initialized; its calls wait.
            auto capabilities = params.find("capabilities");
            client_roots_ = capabilities != params.end() && capabilities->is_object() &&
                            capabilities->contains("roots") && (*capabilities)["roots"].is_object();
            initialized_ = false;
            asked_.reset();
            if (client_roots_)
                roots_awaited_ = true;
            else
                know_roots(Roots::start_dir(start_dir_, "the client declares no roots"));
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
                return result_reply(id, call_tool(arguments, roots_));
            } catch (const std::exception& e) {
                return result_reply(id, tool_error(fmt::format("internal error: {}", e.what())));
            }
        }
        return error_reply(id, kMethodNotFound, fmt::format("Method not found: {}", method));
    }

    std::ostream& err_;
    std::string protocol_{kProtocolVersions.front()};  // until initialize says otherwise
    std::vector<std::string> out_;                     // what the line taken makes to write

    // The roots calls read inside: the server's directory until a client that declares
    // roots (initialize) answers roots/list; calls wait while roots_awaited_.
    const std::string start_dir_;
    Roots roots_;
    bool client_roots_ = false;
    bool initialized_ = false;
    bool roots_awaited_ = false;
    std::optional<Json> asked_;  // the id of the latest roots/list, until it is answered
    unsigned asks_ = 0;
    std::vector<Json> held_;  // tools/call messages, or batches of requests holding one
};

constexpr const char* kHelp =
    "Usage: context-pack mcp\n\n"
    "Serve the Model Context Protocol on standard input and output (JSON-RPC 2.0, one message\n"
    "a line) until end of input. One tool, context_pack, takes a spec (an object, or the path\n"
    "of a .json or .jsonl spec file) plus repo, base, target, at_base, since, table_only, only,\n"
    "context, max_lines and max_file_mib, and returns the pack as text and the report as\n"
    "structured JSON. It reads only inside the client's roots (MCP roots/list) or, for a\n"
    "client that declares none, the directory the server was started in: spec files, repo,\n"
    "and the repository git finds there, symlinks and .. resolved.\n\n"
    "Register it with an agent, e.g.:\n"
    "  claude mcp add context-pack -- context-pack mcp\n";

}  // namespace

namespace {

// Writes the lines, each then flushed; false, said on `err`, when they cannot be written.
bool write_lines(const std::vector<std::string>& lines, std::ostream& out, std::ostream& err) {
    for (const auto& line : lines) {
        errno = 0;
        out << line << '\n';
        out.flush();
        if (!out) {  // the client is gone, or the descriptor is full: nobody hears a reply
            err << "context-pack mcp: cannot write to standard output: "
                << (errno ? std::strerror(errno) : "write error") << "; stopping\n";
            return false;
        }
    }
    return true;
}

}  // namespace

int serve(std::istream& in, std::ostream& out, std::ostream& err) {
    Server server(err);
    std::string line;
    while (std::getline(in, line)) {
        if (!line.empty() && line.back() == '\r') line.pop_back();
        if (line.find_first_not_of(" \t") == std::string::npos) continue;
        if (!write_lines(server.handle_line(line), out, err)) return kExitCannotRun;
    }
    return write_lines(server.finish(), out, err) ? kExitOk : kExitCannotRun;
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
