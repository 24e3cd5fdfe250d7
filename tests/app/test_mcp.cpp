// The MCP server driven through string streams: the lifecycle (initialize, initialized, ping,
// end of input), tools/list and its schema, tools/call on a scripted repository (text and
// structured content agree with the CLI), bad input as isError results, and JSON-RPC errors.
// The server reads only inside the client's roots (test_mcp_roots.cpp): calls on fixtures
// come from a client that declares theirs.
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "context_pack/app/mcp.hpp"
#include "support/catch.hpp"
#include "support/fixture.hpp"

using cptest::numbered;
using cptest::q;
using cptest::Repo;
using Json = nlohmann::json;

namespace {

struct Session {
    int status = -1;
    std::vector<std::string> lines;  // what the server wrote, one message a line
    std::vector<Json> replies;
    std::string err;
};

Session run_session(const std::string& input) {
    std::istringstream in(input);
    std::ostringstream out, err;
    Session s;
    s.status = cp::mcp::serve(in, out, err);
    s.err = err.str();
    std::istringstream lines(out.str());
    for (std::string line; std::getline(lines, line);) {
        s.lines.push_back(line);
        s.replies.push_back(Json::parse(line));
    }
    return s;
}

Session run_session(const std::vector<std::string>& messages) {
    std::string input;
    for (const auto& m : messages) input += m + "\n";
    return run_session(input);
}

std::string request(int id, const std::string& method, const Json& params = Json::object()) {
    return Json{{"jsonrpc", "2.0"}, {"id", id}, {"method", method}, {"params", params}}.dump();
}

std::string initialize(int id, const std::string& version = "2025-06-18") {
    return request(id, "initialize",
                   Json{{"protocolVersion", version},
                        {"capabilities", Json::object()},
                        {"clientInfo", {{"name", "test"}, {"version", "0"}}}});
}

const std::string kInitialized = R"({"jsonrpc":"2.0","method":"notifications/initialized"})";

// A session's opening by a client that declares roots and answers the server's first
// roots/list with these directories (/tmp/cp-test-* paths: no escapes needed), then
// `messages`. The server writes its roots/list as a line of its own.
std::vector<std::string> in_roots(const std::vector<std::string>& dirs,
                                  const std::vector<std::string>& messages) {
    Json roots = Json::array();
    for (const auto& dir : dirs) roots.push_back({{"uri", "file://" + dir}});
    std::vector<std::string> input = {
        request(0, "initialize",
                Json{{"protocolVersion", "2025-06-18"},
                     {"capabilities", {{"roots", Json::object()}}},
                     {"clientInfo", {{"name", "test"}, {"version", "0"}}}}),
        kInitialized,
        Json{
            {"jsonrpc", "2.0"}, {"id", "context-pack:roots/list:1"}, {"result", {{"roots", roots}}}}
            .dump()};
    input.insert(input.end(), messages.begin(), messages.end());
    return input;
}

std::string call(int id, const Json& arguments) {
    return request(id, "tools/call", Json{{"name", "context_pack"}, {"arguments", arguments}});
}

// The one reply whose id is `id`.
const Json& reply(const Session& s, int id) {
    for (const Json& r : s.replies)
        if (r.contains("id") && r["id"] == id) return r;
    FAIL("no reply with id " << id);
    throw;  // unreachable
}

std::string text_of(const Json& result) {
    REQUIRE(result["content"].is_array());
    REQUIRE(result["content"].size() == 1);
    CHECK(result["content"][0]["type"] == "text");
    return result["content"][0]["text"].get<std::string>();
}

// A repository whose working tree moved a.c's lines down by one and deleted b.c.
struct Drifted {
    Repo repo;
    std::string base;
    cptest::TempDir specs;

    Drifted() {
        repo.write("a.c", numbered(20));
        repo.write("b.c", "int b;\n");
        base = repo.commit();
        repo.write("a.c", "// new\n" + numbered(20));
        repo.remove("b.c");
    }

    Json spec() const {
        return Json::parse(R"({"id": "plan", "base": ")" + base + R"(",
            "file_changes": [{"location": {"path": "a.c", "line": 3, "end_line": 4, "symbol": "L3"},
                              "change": "edit it"}],
            "reads": [{"location": {"path": "b.c", "line": 1}, "why": "gone"}]})");
    }

    std::string spec_file(const std::string& name, const std::string& body) const {
        auto path = specs.path() + "/" + name;
        cptest::sh("cat > " + q(path), body);
        return path;
    }
};

}  // namespace

TEST_CASE("mcp initialize answers with a supported protocol version and names the server",
          "[mcp]") {
    struct Case {
        std::string asked, answered;
    };
    for (const Case& c : {Case{"2025-06-18", "2025-06-18"}, Case{"2025-03-26", "2025-03-26"},
                          Case{"2024-11-05", "2024-11-05"}, Case{"2025-11-25", "2025-11-25"},
                          Case{"1999-01-01", "2025-11-25"}}) {
        INFO(c.asked);
        auto s = run_session({initialize(1, c.asked), kInitialized, request(2, "ping")});
        CHECK(s.status == 0);
        REQUIRE(s.replies.size() == 2);  // the notification is not answered
        const Json& init = reply(s, 1);
        CHECK(init["jsonrpc"] == "2.0");
        CHECK(init["result"]["protocolVersion"] == c.answered);
        CHECK(init["result"]["serverInfo"]["name"] == "context-pack");
        CHECK(init["result"]["serverInfo"]["version"] == CONTEXT_PACK_VERSION);
        CHECK(init["result"]["capabilities"]["tools"].is_object());
        CHECK(reply(s, 2)["result"] == Json::object());
    }
    auto s = run_session({request(1, "initialize", Json::object())});
    CHECK(reply(s, 1)["result"]["protocolVersion"] == cp::mcp::kProtocolVersions.front());
}

TEST_CASE("mcp tools/list describes context_pack and its input schema", "[mcp]") {
    auto s = run_session({initialize(1), kInitialized, request(2, "tools/list")});
    const Json& tools = reply(s, 2)["result"]["tools"];
    REQUIRE(tools.size() == 1);
    const Json& tool = tools[0];
    CHECK(tool["name"] == "context_pack");
    CHECK(!tool["description"].get<std::string>().empty());
    const Json& schema = tool["inputSchema"];
    CHECK(schema["type"] == "object");
    CHECK(schema["required"] == Json::array({"spec"}));
    CHECK(schema["additionalProperties"] == false);
    std::vector<std::string> keys;
    for (const auto& item : schema["properties"].items()) keys.push_back(item.key());
    std::sort(keys.begin(), keys.end());
    CHECK(keys == std::vector<std::string>{"at_base", "base", "callers_in", "context",
                                           "max_file_mib", "max_lines", "only", "repo", "since",
                                           "spec", "table_only", "target"});
    const Json& props = schema["properties"];
    CHECK(props["spec"]["anyOf"][0]["type"] == "object");
    CHECK(props["spec"]["anyOf"][1]["type"] == "string");
    CHECK(props["spec"]["anyOf"][0]["properties"]["file_changes"]["items"]["properties"]["location"]
               ["required"] == Json::array({"path", "line"}));
    CHECK(props["at_base"]["type"] == "boolean");
    CHECK(props["table_only"]["type"] == "boolean");
    CHECK(props["context"]["type"] == "integer");
    CHECK(props["max_lines"]["type"] == "integer");
    CHECK(props["max_file_mib"]["type"] == "integer");
    CHECK(props["only"]["items"]["type"] == "string");
    for (const char* key : {"repo", "target", "since", "base"})
        CHECK(props[key]["type"] == "string");
    CHECK(tool["outputSchema"]["required"] ==
          Json::array({"format_version", "exit_status", "specs"}));
    // A spec whose own target does not resolve reports a null target.
    CHECK(tool["outputSchema"]["properties"]["specs"]["items"]["properties"]["target"]["type"] ==
          Json::array({"string", "null"}));

    // outputSchema arrived in 2025-06-18; an older session is not shown one.
    auto old = run_session({initialize(1, "2025-03-26"), request(2, "tools/list")});
    CHECK_FALSE(reply(old, 2)["result"]["tools"][0].contains("outputSchema"));
}

TEST_CASE("mcp tools/call returns the pack as text and the report as structured content", "[mcp]") {
    Drifted d;
    auto s = run_session(
        in_roots({d.repo.dir()}, {call(2, {{"spec", d.spec()}, {"repo", d.repo.dir()}})}));
    CHECK(s.status == 0);
    const Json& result = reply(s, 2)["result"];
    // Exit status 1 (a GONE anchor) is data, not a tool error.
    CHECK(result["isError"] == false);
    auto text = text_of(result);
    CHECK(text.find("plan (spec): base ") == 0);
    CHECK(text.find("1 MOVED") != std::string::npos);
    CHECK(text.find("a.c:4-5") != std::string::npos);
    CHECK(text.find("GONE") != std::string::npos);
    CHECK(text.find("\x1b[") == std::string::npos);  // no colour
    const Json& doc = result["structuredContent"];
    CHECK(doc["exit_status"] == 1);
    REQUIRE(doc["specs"].size() == 1);
    const Json& anchors = doc["specs"][0]["anchors"];
    REQUIRE(anchors.size() == 2);
    CHECK(anchors[0]["status"] == "MOVED");
    CHECK(anchors[0]["to"]["line"] == 4);
    CHECK(anchors[0]["symbol_found"] == true);
    CHECK(anchors[1]["status"] == "GONE");
    CHECK(doc["specs"][0]["base"] == d.base);
}

TEST_CASE("mcp tools/call with a spec file gives the CLI's text and JSON", "[mcp]") {
    Drifted d;
    auto path = d.spec_file("plan.json", d.spec().dump());
    const std::vector<std::string> roots = {d.repo.dir(), d.specs.path()};
    auto s = run_session(in_roots(roots, {call(1, {{"spec", path}, {"repo", d.repo.dir()}})}));
    const Json& result = reply(s, 1)["result"];
    CHECK(result["isError"] == false);
    auto text = cptest::context_pack(d.repo.dir(), q(path) + " --color never");
    CHECK(text.status == 1);
    CHECK(text_of(result) == text.out);
    auto json = cptest::context_pack(d.repo.dir(), q(path) + " --format json");
    CHECK(result["structuredContent"] == Json::parse(json.out));

    // A .jsonl file: one spec a line, one table each.
    auto jsonl = d.spec_file("drift.jsonl", d.spec().dump() + "\n\n" + d.spec().dump() + "\n");
    auto many = run_session(in_roots(
        roots, {call(1, {{"spec", jsonl}, {"repo", d.repo.dir()}, {"table_only", true}})}));
    CHECK(reply(many, 1)["result"]["structuredContent"]["specs"].size() == 2);
    CHECK(text_of(reply(many, 1)["result"]).find("drift.jsonl:3") != std::string::npos);
}

TEST_CASE("mcp tools/call options reach the pipeline", "[mcp]") {
    Drifted d;
    auto spec = d.spec();
    auto result_of = [&](Json args) {
        args["spec"] = spec;
        args["repo"] = d.repo.dir();
        auto s = run_session(in_roots({d.repo.dir()}, {call(7, args)}));
        Json r = reply(s, 7)["result"];
        INFO(r.dump());
        CHECK(r["isError"] == false);
        return r;
    };
    SECTION("table_only") {
        auto r = result_of({{"table_only", true}});
        CHECK(text_of(r).find("L2") == std::string::npos);  // no code: L2 is only a context line
        CHECK(r["structuredContent"]["specs"][0]["anchors"][0]["window"].is_null());
    }
    SECTION("at_base") {
        auto r = result_of({{"at_base", true}, {"only", Json::array({"file_changes[0]"})}});
        CHECK(r["structuredContent"]["specs"][0]["anchors"].size() == 1);
        CHECK(r["structuredContent"]["specs"][0]["anchors"][0]["status"] == "SAME");
        CHECK(r["structuredContent"]["exit_status"] == 0);
    }
    SECTION("target and only by row") {
        auto r = result_of({{"target", "HEAD"}, {"only", Json::array({"2"})}});
        const Json& anchors = r["structuredContent"]["specs"][0]["anchors"];
        REQUIRE(anchors.size() == 1);
        CHECK(anchors[0]["row"] == 2);
        CHECK(anchors[0]["status"] == "SAME");  // b.c is still there at HEAD
    }
    SECTION("base overrides the spec's") {
        spec.erase("base");
        auto r = result_of({{"base", d.base}, {"context", 0}});
        CHECK(r["structuredContent"]["specs"][0]["base"] == d.base);
        const Json& spec0 = r["structuredContent"]["specs"][0];
        REQUIRE(spec0["anchors"][0]["window"].is_number());
        const Json& window = spec0["windows"][spec0["anchors"][0]["window"].get<std::size_t>()];
        CHECK(window["line"] == 4);  // no context lines
        CHECK(window["end_line"] == 5);
    }
    SECTION("since") {
        auto r = result_of({{"since", "HEAD"}, {"only", Json::array({"1"})}});
        CHECK(r["structuredContent"]["specs"][0]["since"] == d.base);
    }
    SECTION("max_lines names what it skipped with an honest command") {
        auto r = result_of({{"max_lines", 1}, {"context", 5}});
        auto text = text_of(r);
        INFO(text);
        CHECK(text.find("context-pack -C " + d.repo.dir() + " --context 5 SPEC --only 1") !=
              std::string::npos);
    }
}

TEST_CASE("mcp max_file_mib leaves larger files unread and names itself as the mend", "[mcp]") {
    Repo repo;
    std::string big;
    for (int i = 0; i < 40000; ++i) big += "int huge_" + std::to_string(i) + ";\n";  // ~0.6 MiB
    repo.write("big.c", big + big + big);
    auto base = repo.commit();
    Json spec = {{"id", "big"},
                 {"base", base},
                 {"file_changes", {{{"location", {{"path", "big.c"}, {"line", 2}}}}}}};
    auto status_of = [&](const Json& extra) {
        Json args = {{"spec", spec}, {"repo", repo.dir()}, {"table_only", true}};
        args.update(extra);
        auto s = run_session(in_roots({repo.dir()}, {call(1, args)}));
        const Json& result = reply(s, 1)["result"];
        INFO(result.dump());
        CHECK(result["isError"] == false);
        return result["structuredContent"]["specs"][0]["anchors"][0];
    };
    auto limited = status_of({{"max_file_mib", 1}});
    CHECK(limited["status"] == "UNRESOLVED");
    CHECK(limited["reason"] ==
          "big.c is 1 MiB at base, over the 1 MiB the tool reads; raise max_file_mib to carry it");
    CHECK(status_of(Json::object())["status"] == "SAME");
}

TEST_CASE("mcp bad input is a tool result with isError and the server keeps answering", "[mcp]") {
    Drifted d;
    cptest::TempDir not_repo;
    auto bad_line = d.spec();
    bad_line["file_changes"][0]["location"]["line"] = "three";
    auto no_base = d.spec();
    no_base.erase("base");
    struct Case {
        Json arguments;
        std::string message;
    };
    const std::vector<Case> cases = {
        {{{"spec", bad_line}, {"repo", d.repo.dir()}},
         "spec: file_changes[0].location.line must be an integer, not a string"},
        {{{"spec", "{\"base\": 1}"}, {"repo", d.repo.dir()}}, "spec: base must be a string"},
        {{{"spec", d.specs.path() + "/missing.json"}, {"repo", d.repo.dir()}},
         "cannot read spec file"},
        {{{"spec", d.specs.path()}, {"repo", d.repo.dir()}}, "is a folder with no"},
        {{{"spec", "-"}}, "standard input"},
        {{{"spec", d.spec()}, {"repo", not_repo.path()}}, "not a git repository"},
        {{{"spec", d.spec()}, {"repo", not_repo.path()}}, "pass repo"},
        {{{"spec", d.spec()}, {"repo", d.repo.dir()}, {"target", "nope"}},
         "target nope not in this repository"},
        {{{"spec", d.spec()}, {"repo", d.repo.dir()}, {"since", "nope"}}, "since nope"},
        {{{"spec", d.spec()}, {"repo", d.repo.dir()}, {"only", Json::array({"9"})}},
         "only matches no anchor"},
        {{{"spec", d.spec()}, {"at_base", true}, {"target", "HEAD"}}, "at_base and target"},
        {{{"spec", no_base}, {"repo", d.repo.dir()}}, "spec: the spec has no base"},
        {{{"spec", d.spec()}, {"context", -1}}, "context must be between 0 and 1000"},
        {{{"spec", d.spec()}, {"max_lines", "many"}}, "max_lines must be an integer"},
        {{{"spec", d.spec()}, {"max_file_mib", 0}}, "max_file_mib must be between 1 and 1048576"},
        {{{"spec", d.spec()}, {"table_only", "yes"}}, "table_only must be a boolean"},
        {{{"spec", d.spec()}, {"table", true}}, "unknown argument 'table'"},
        {{{"spec", 42}}, "spec must be a spec object or the path"},
        {{{"spec", Json::object()}}, "the spec has no base"},
        {Json::object(), "spec is required"},
    };
    std::vector<std::string> input;
    for (std::size_t i = 0; i < cases.size(); ++i)
        input.push_back(call(int(100 + i), cases[i].arguments));
    input.push_back(request(2, "ping"));
    input.push_back(call(3, {{"spec", d.spec()}, {"repo", d.repo.dir()}, {"table_only", true}}));
    auto s = run_session(in_roots({d.repo.dir(), d.specs.path(), not_repo.path()}, input));
    CHECK(s.status == 0);
    CHECK(s.replies.size() == cases.size() + 4);  // and initialize's, and the server's roots/list
    for (std::size_t i = 0; i < cases.size(); ++i) {
        INFO(cases[i].arguments.dump());
        const Json& r = reply(s, int(100 + i));
        REQUIRE(r.contains("result"));
        CHECK(r["result"]["isError"] == true);
        CHECK_FALSE(r["result"].contains("structuredContent"));
        auto text = text_of(r["result"]);
        CHECK_THAT(text, Catch::Contains(cases[i].message));
        CHECK(text.find('\n') == std::string::npos);
    }
    CHECK(reply(s, 2)["result"] == Json::object());
    CHECK(reply(s, 3)["result"]["isError"] == false);
}

TEST_CASE("mcp malformed JSON gets a parse error and the next message is answered", "[mcp]") {
    auto s =
        run_session({initialize(1), "{\"jsonrpc\": \"2.0\", \"id\": 2, \"method\":", "not json",
                     request(3, "ping")});
    CHECK(s.status == 0);
    REQUIRE(s.replies.size() == 4);
    for (int i : {1, 2}) {
        CHECK(s.replies[i]["error"]["code"] == -32700);
        CHECK(s.replies[i]["id"].is_null());
    }
    CHECK(reply(s, 3)["result"] == Json::object());
}

TEST_CASE("mcp unknown methods and tools are JSON-RPC errors and notifications are never answered",
          "[mcp]") {
    auto s = run_session({
        initialize(1),
        request(2, "resources/list"),
        R"({"jsonrpc":"2.0","method":"notifications/whatever","params":{}})",
        R"({"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":9}})",
        request(3, "tools/call", Json{{"name", "other_tool"}, {"arguments", Json::object()}}),
        request(4, "tools/call", Json{{"arguments", Json::object()}}),
        R"({"jsonrpc":"2.0","id":5})",
        R"({"id":6,"method":"ping"})",
        R"({"jsonrpc":"2.0","id":7,"result":{}})",  // a response from the client: ignored
        R"([{"jsonrpc":"2.0","id":8,"method":"ping"},)"
        R"({"jsonrpc":"2.0","method":"notifications/initialized"},)"
        R"({"jsonrpc":"2.0","id":9,"method":"nope"}])",
        "[]",
        request(10, "ping"),
    });
    CHECK(s.status == 0);
    REQUIRE(s.lines.size() == 9);
    CHECK(reply(s, 2)["error"]["code"] == -32601);
    CHECK(reply(s, 3)["error"]["code"] == -32602);
    CHECK_THAT(reply(s, 3)["error"]["message"].get<std::string>(), Catch::Contains("other_tool"));
    CHECK(reply(s, 4)["error"]["code"] == -32602);
    CHECK(reply(s, 5)["error"]["code"] == -32600);
    CHECK(reply(s, 6)["error"]["code"] == -32600);
    const Json& batch = s.replies[6];  // a batch is answered with an array, minus notifications
    REQUIRE(batch.is_array());
    REQUIRE(batch.size() == 2);
    CHECK(batch[0]["id"] == 8);
    CHECK(batch[0]["result"] == Json::object());
    CHECK(batch[1]["error"]["code"] == -32601);
    CHECK(s.replies[7]["error"]["code"] == -32600);
    CHECK(reply(s, 10)["result"] == Json::object());
}

TEST_CASE("mcp end of input ends the server with status 0", "[mcp]") {
    auto empty = run_session(std::string());
    CHECK(empty.status == 0);
    CHECK(empty.lines.empty());
    CHECK(empty.err.empty());

    // A last message without its newline is still answered; blank lines and CRLF are fine.
    auto s = run_session(initialize(1) + "\r\n\n   \n" + request(2, "ping"));
    CHECK(s.status == 0);
    REQUIRE(s.replies.size() == 2);
    CHECK(reply(s, 2)["result"] == Json::object());
}

TEST_CASE("mcp through the binary: context-pack mcp serves stdin and exits 0", "[mcp]") {
    Drifted d;
    auto input = initialize(1) + "\n" + kInitialized + "\n" +
                 call(2, {{"spec", d.spec()}, {"table_only", true}}) + "\n";
    auto o = cptest::context_pack(d.repo.dir(), "mcp", input);  // repo: the server's directory
    CHECK(o.status == 0);
    CHECK(o.err.empty());
    std::istringstream lines(o.out);
    std::vector<Json> replies;
    for (std::string line; std::getline(lines, line);) replies.push_back(Json::parse(line));
    REQUIRE(replies.size() == 2);
    CHECK(replies[1]["result"]["structuredContent"]["specs"][0]["anchors"][0]["status"] == "MOVED");

    auto usage = cptest::context_pack(d.repo.dir(), "mcp plan.json");
    CHECK(usage.status == 2);
    CHECK_THAT(usage.err, Catch::Contains("mcp takes no arguments"));
    auto help = cptest::context_pack(d.repo.dir(), "mcp --help");
    CHECK(help.status == 0);
    CHECK_THAT(help.out, Catch::Contains("claude mcp add context-pack -- context-pack mcp"));
}
