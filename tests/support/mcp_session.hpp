// An MCP session driven through string streams: the messages a client sends, the server's
// replies parsed a line each. Shared by the tests of the server and of its tool's arguments.
#pragma once

#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "context_pack/app/mcp.hpp"
#include "support/catch.hpp"

namespace cptest {

struct Session {
    int status = -1;
    std::vector<std::string> lines;  // what the server wrote, one message a line
    std::vector<nlohmann::json> replies;
    std::string err;
};

inline Session run_session(const std::string& input) {
    std::istringstream in(input);
    std::ostringstream out, err;
    Session s;
    s.status = cp::mcp::serve(in, out, err);
    s.err = err.str();
    std::istringstream lines(out.str());
    for (std::string line; std::getline(lines, line);) {
        s.lines.push_back(line);
        s.replies.push_back(nlohmann::json::parse(line));
    }
    return s;
}

inline Session run_session(const std::vector<std::string>& messages) {
    std::string input;
    for (const auto& m : messages) input += m + "\n";
    return run_session(input);
}

inline std::string request(int id, const std::string& method,
                           const nlohmann::json& params = nlohmann::json::object()) {
    return nlohmann::json{{"jsonrpc", "2.0"}, {"id", id}, {"method", method}, {"params", params}}
        .dump();
}

inline std::string initialize(int id, const std::string& version = "2025-06-18") {
    return request(id, "initialize",
                   nlohmann::json{{"protocolVersion", version},
                                  {"capabilities", nlohmann::json::object()},
                                  {"clientInfo", {{"name", "test"}, {"version", "0"}}}});
}

inline const std::string kInitialized = R"({"jsonrpc":"2.0","method":"notifications/initialized"})";

inline std::string call(int id, const nlohmann::json& arguments) {
    return request(id, "tools/call",
                   nlohmann::json{{"name", "context_pack"}, {"arguments", arguments}});
}

// The one reply whose id is `id`.
inline const nlohmann::json& reply(const Session& s, int id) {
    for (const nlohmann::json& r : s.replies)
        if (r.contains("id") && r["id"] == id) return r;
    FAIL("no reply with id " << id);
    throw;  // unreachable
}

}  // namespace cptest
