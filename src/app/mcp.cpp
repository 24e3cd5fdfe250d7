#include "context_pack/app/mcp.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <exception>
#include <filesystem>
#include <istream>
#include <list>
#include <memory>
#include <mutex>
#include <optional>
#include <ostream>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "context_pack/app/exit_status.hpp"
#include "context_pack/app/options.hpp"
#include "context_pack/app/spec_input.hpp"
#include "context_pack/core/text.hpp"
#include "context_pack/model/json_text.hpp"
#include "context_pack/sys/memory.hpp"
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

// The most tools/call requests run at once; one more is refused (an isError result) until
// one of them is answered or cancelled. Nothing waits in a queue.
constexpr std::size_t kMaxCalls = 8;

std::string dump(const Json& j) {
    // One line (strings escape their newlines); bytes that are not UTF-8 are replaced.
    return j.dump(-1, ' ', false, Json::error_handler_t::replace);
}

// Standard output, shared by the reading thread and the calls' threads: one message a line,
// each written whole and flushed under the lock.
class Output {
  public:
    Output(std::ostream& out, std::ostream& err) : out_(out), err_(err) {}

    // False, said once on `err`, when the lines cannot be written (then or before).
    bool write(const std::vector<std::string>& lines) {
        std::lock_guard lock(mutex_);
        for (const auto& line : lines) {
            if (failed_) return false;
            errno = 0;
            out_ << line << '\n';
            out_.flush();
            if (!out_) {  // the client is gone, or the descriptor is full: nobody hears a reply
                err_ << "context-pack mcp: cannot write to standard output: "
                     << (errno ? std::strerror(errno) : "write error") << "; stopping\n";
                failed_ = true;
            }
        }
        return !failed_;
    }

    bool failed() {
        std::lock_guard lock(mutex_);
        return failed_;
    }

  private:
    std::mutex mutex_;
    std::ostream& out_;
    std::ostream& err_;
    bool failed_ = false;
};

// A tools/call running on a thread of its own, while the reading thread answers the rest.
struct Running {
    Json id;
    std::atomic<bool> cancelled{false};
    std::atomic<bool> done{false};
    std::thread thread;
};

class Server {
  public:
    Server(Output& output, std::ostream& err)
        : output_(output),
          err_(err),
          start_dir_(start_directory()),
          roots_(Roots::start_dir(start_dir_, "the client declares no roots")) {}

    // Calls still running when the server stops (its output failed) are not wanted.
    ~Server() {
        for (auto& r : running_) r->cancelled = true;
        wait_for_calls();
    }

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

    // Whether calls wait for an answer to roots/list.
    bool waiting_for_roots() const { return !held_.empty() && asked_.has_value(); }

    // The client did not answer roots/list in time: the calls that waited run under the
    // server's directory, as at the end of input, and a later answer counts no more.
    std::vector<std::string> roots_not_answered(std::chrono::seconds waited) {
        know_roots(Roots::start_dir(
            start_dir_,
            fmt::format("the client did not answer roots/list within {} s", waited.count())));
        return std::exchange(out_, {});
    }

    // At end of input: calls still waiting for the client's roots are answered under the
    // server's directory, as no answer can come now.
    // The calls running then are answered before the server ends.
    std::vector<std::string> finish() {
        if (!held_.empty())
            know_roots(Roots::start_dir(start_dir_,
                                        "the client's input ended before it answered roots/list"));
        auto lines = std::exchange(out_, {});
        output_.write(lines);
        wait_for_calls();
        return {};
    }

  private:
    void wait_for_calls() {
        for (auto& r : running_)
            if (r->thread.joinable()) r->thread.join();
        running_.clear();
    }

    // Joins the calls that have finished.
    void reap() {
        for (auto it = running_.begin(); it != running_.end();)
            if ((*it)->done) {
                (*it)->thread.join();
                it = running_.erase(it);
            } else {
                ++it;
            }
    }

    // A tools/call outside a batch: refused at once when its arguments are bad or too many
    // calls run, else run on a thread of its own, which writes its result (unless the call
    // is cancelled) and the progress notifications the client asked for with a
    // progressToken. nullopt: the reply comes from that thread.
    std::optional<Json> start_call(const Json& id, const Json& arguments, const Json& params) {
        auto call = prepare_call(arguments, roots_);
        if (call.refused) return result_reply(id, std::move(*call.refused));
        reap();
        if (running_.size() >= kMaxCalls)
            return result_reply(
                id, tool_error(fmt::format(
                        "{} calls are running already, the most this server runs at once; wait "
                        "for one of their results (or cancel one) and call again",
                        kMaxCalls)));
        std::optional<Json> token;
        if (auto meta = params.find("_meta"); meta != params.end() && meta->is_object())
            if (auto t = meta->find("progressToken");
                t != meta->end() && (t->is_string() || t->is_number_integer()))
                token = *t;
        auto running = std::make_unique<Running>();
        running->id = id;
        Running* r = running.get();
        Output& output = output_;
        r->thread = std::thread([r, &output, token, run = std::move(call.run)] {
            sys::huge_pages_for_this_thread();
            CallHooks hooks;
            hooks.cancelled = [r] { return r->cancelled.load(); };
            // At most one notification a percent of the anchors, and one at the last.
            std::optional<std::size_t> shown;  // the percent last notified
            if (token)
                hooks.on_progress = [r, &output, &token, &shown](std::size_t done,
                                                                 std::size_t total) {
                    if (r->cancelled || total == 0) return;
                    std::size_t percent = done * 100 / total;
                    if (done < total && shown && percent <= *shown) return;
                    shown = percent;
                    output.write({dump(Json{
                        {"jsonrpc", "2.0"},
                        {"method", "notifications/progress"},
                        {"params",
                         {{"progressToken", *token},
                          {"progress", done},
                          {"total", total},
                          {"message", fmt::format("{} of {} anchors resolved", done, total)}}}})});
                };
            Json result;
            try {
                result = run(hooks);
            } catch (const std::bad_alloc&) {
                result = tool_error(
                    "out of memory: the call needed more than this machine or the server's "
                    "limit gives; resolve fewer specs in one call, or give a smaller "
                    "max_file_mib");
            } catch (const std::exception& e) {
                result = tool_error(fmt::format("internal error: {}", e.what()));
            }
            if (!r->cancelled) output.write({dump(result_reply(r->id, std::move(result)))});
            result = Json();
            sys::release_freed_memory();  // the call's memory, not kept for the server's life
            r->done = true;
        });
        running_.push_back(std::move(running));
        return std::nullopt;
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

    // A batch is answered as one array: its calls run in turn on the reading thread.
    void answer_batch(const Json& requests) {
        Json replies = Json::array();
        in_batch_ = true;
        for (const Json& m : requests)
            if (auto reply = handle(m)) replies.push_back(std::move(*reply));
        in_batch_ = false;
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
            for (auto& r : running_)  // a running call stops, and sends no result
                if (r->id == id) r->cancelled = true;
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

    std::optional<Json> dispatch(const Json& id, const std::string& method, const Json& params) {
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
            if (!in_batch_) return start_call(id, arguments, params);
            try {
                return result_reply(id, call_tool(arguments, roots_));
            } catch (const std::exception& e) {
                return result_reply(id, tool_error(fmt::format("internal error: {}", e.what())));
            }
        }
        return error_reply(id, kMethodNotFound, fmt::format("Method not found: {}", method));
    }

    Output& output_;
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
    bool in_batch_ = false;   // answering a batch: its calls run here, in turn
    std::list<std::unique_ptr<Running>> running_;  // at most kMaxCalls
};

// `mcp --help`: what the server does, then the tool's arguments from the options table.
std::string help_text() {
    std::string out =
        "Usage: context-pack mcp\n\n"
        "Serve the Model Context Protocol on standard input and output (JSON-RPC 2.0, one message\n"
        "a line) until end of input. One tool, context_pack, takes a spec (an object, or the path\n"
        "of a .json or .jsonl spec file) or ad hoc anchors (anchor, with base), and the\n"
        "arguments below, and returns the pack as text and the report as structured JSON, both\n"
        "cut by the same caps (repin: the revised plan instead); the JSON is compact (no\n"
        "per-line maps, caller counts for the files the text names) unless full is given. The\n"
        "whole result keeps within max_tokens (a token counted as 4 bytes, the text within half\n"
        "of it): code, then table rows, are left out to fit, each cut named with the arguments\n"
        "that show it. Each call runs on a thread of its own (at most 8 at once), so ping is\n"
        "answered meanwhile; notifications/cancelled stops a call, and a progressToken brings\n"
        "notifications/progress as anchors are resolved. It reads only inside the client's\n"
        "roots (MCP roots/list) or, for a client that declares none, the directory the server\n"
        "was started in: spec files, repo, and the repository git finds there, symlinks and ..\n"
        "resolved.\n\n"
        "Arguments:\n";
    constexpr std::size_t kIndent = 20, kWidth = 90;  // each description beside its name
    for (const options::Option& o : options::all()) {
        if (o.tool.empty()) continue;
        const auto lines = text::wrapped(options::brief_of(o), kWidth - kIndent);
        for (std::size_t i = 0; i < lines.size(); ++i)
            out += fmt::format("  {:<{}}{}\n", i ? "" : o.tool, kIndent - 2, lines[i]);
    }
    out +=
        "\nRegister it with an agent, e.g.:\n"
        "  claude mcp add context-pack -- context-pack mcp\n";
    return out;
}

// A message is a spec with room for its envelope: bounded as specs are.
constexpr std::size_t kMaxMessageBytes = kMaxSpecBytes + (std::size_t{1} << 20);

// One line of `in` into `line` (its newline left out), at most `limit` bytes of it kept:
// `over` when it had more, which were read and dropped. False at the end of the input.
bool read_line(std::istream& in, std::string& line, std::size_t limit, bool& over) {
    line.clear();
    over = false;
    std::streambuf* from = in.rdbuf();
    bool any = false;
    for (;;) {
        const int c = from->sbumpc();
        if (c == std::char_traits<char>::eof()) return any;
        any = true;
        if (c == '\n') return true;
        if (line.size() < limit)
            line.push_back(char(c));
        else
            over = true;
    }
}

}  // namespace

// The input's lines, read on a thread of their own, so that the server can stop waiting for an
// answer that does not come: the next line, the end, or nothing within a time. A few lines are
// read ahead at most.
class Lines {
  public:
    explicit Lines(std::istream& in) : reader_([this, &in] { read(in); }) {}
    ~Lines() {
        {
            const std::lock_guard lock(mutex_);
            stopping_ = true;
        }
        changed_.notify_all();
        reader_.join();  // the reader ends at the input's end (a client gone closes it)
    }
    Lines(const Lines&) = delete;
    Lines& operator=(const Lines&) = delete;

    enum class Got { Line, End, Nothing };
    // The next line (`over`: it was longer than kMaxMessageBytes, its rest dropped).
    Got next(std::string& line, bool& over, std::optional<std::chrono::seconds> within) {
        std::unique_lock lock(mutex_);
        auto ready = [&] { return !queue_.empty() || ended_; };
        if (!within)
            changed_.wait(lock, ready);
        else if (!changed_.wait_for(lock, *within, ready))
            return Got::Nothing;
        if (queue_.empty()) return Got::End;
        line = std::move(queue_.front().first);
        over = queue_.front().second;
        queue_.pop_front();
        changed_.notify_all();
        return Got::Line;
    }

  private:
    static constexpr std::size_t kAhead = 16;

    void read(std::istream& in) {
        std::string line;
        bool over = false;
        while (read_line(in, line, kMaxMessageBytes, over)) {
            std::unique_lock lock(mutex_);
            changed_.wait(lock, [&] { return queue_.size() < kAhead || stopping_; });
            if (stopping_) return;
            queue_.emplace_back(std::move(line), over);
            changed_.notify_all();
        }
        const std::lock_guard lock(mutex_);
        ended_ = true;
        changed_.notify_all();
    }

    std::mutex mutex_;
    std::condition_variable changed_;
    std::deque<std::pair<std::string, bool>> queue_;
    bool ended_ = false, stopping_ = false;
    std::thread reader_;  // last: it starts once the rest is made
};

// How long calls wait for the client's answer to roots/list.
constexpr std::chrono::seconds kRootsWait{10};

int serve(std::istream& in, std::ostream& out, std::ostream& err) {
    Output output(out, err);
    Server server(output, err);
    Lines lines(in);
    std::string line;
    bool over = false;
    for (;;) {
        const auto got =
            lines.next(line, over,
                       server.waiting_for_roots() ? std::optional<std::chrono::seconds>(kRootsWait)
                                                  : std::nullopt);
        if (got == Lines::Got::End) break;
        if (got == Lines::Got::Nothing) {
            if (!output.write(server.roots_not_answered(kRootsWait))) return kExitCannotRun;
            continue;
        }
        if (over) {  // its bytes past the bound were read and dropped: answered, and on
            const std::string refused = dump(error_reply(
                nullptr, kInvalidRequest,
                fmt::format("Invalid Request: a message of over {} MiB; a spec is bounded at "
                            "{} MiB: give a large one as the path of its file",
                            kMaxMessageBytes >> 20, kMaxSpecBytes >> 20)));
            if (!output.write(std::vector<std::string>{refused})) return kExitCannotRun;
            continue;
        }
        if (!line.empty() && line.back() == '\r') line.pop_back();
        if (line.find_first_not_of(" \t") == std::string::npos) continue;
        if (!output.write(server.handle_line(line))) return kExitCannotRun;
    }
    server.finish();
    return output.failed() ? kExitCannotRun : kExitOk;
}

int run(int argc, char** argv, std::istream& in, std::ostream& out, std::ostream& err) {
    if (argc > 2) {
        std::string_view arg = argv[2];
        if (argc == 3 && (arg == "--help" || arg == "-h")) {
            out << help_text();
            return kExitOk;
        }
        err << "context-pack: mcp takes no arguments (the client passes them to the tool); "
               "see context-pack mcp --help\n";
        return kExitCannotRun;
    }
    return serve(in, out, err);
}

}  // namespace cp::mcp
