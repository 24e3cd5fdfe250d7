// The MCP server driven through string streams: the lifecycle (initialize, initialized, ping,
// end of input), tools/list and its schema, tools/call on a scripted repository (text and
// structured content agree with the CLI), bad input as isError results, and JSON-RPC errors.
// The server reads only inside the client's roots (test_mcp_roots.cpp): calls on fixtures
// come from a client that declares theirs.
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "context_pack/app/mcp.hpp"
#include "context_pack/output/text_output.hpp"
#include "support/catch.hpp"
#include "support/fixture.hpp"
#include "support/mcp_session.hpp"

using cptest::call;
using cptest::initialize;
using cptest::kInitialized;
using cptest::numbered;
using cptest::q;
using cptest::reply;
using cptest::Repo;
using cptest::request;
using cptest::run_session;
using cptest::Session;
using Json = nlohmann::json;

namespace {

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
    CHECK_FALSE(schema.contains("required"));  // spec, or anchor with base
    CHECK(schema["additionalProperties"] == false);
    std::vector<std::string> keys;
    for (const auto& item : schema["properties"].items()) keys.push_back(item.key());
    std::sort(keys.begin(), keys.end());
    CHECK(keys == std::vector<std::string>{"anchor",
                                           "at_base",
                                           "base",
                                           "callers_in",
                                           "context",
                                           "full",
                                           "history",
                                           "max_callers",
                                           "max_file_mib",
                                           "max_line_bytes",
                                           "max_lines",
                                           "max_tokens",
                                           "max_window_lines",
                                           "only",
                                           "prose",
                                           "repin",
                                           "repo",
                                           "since",
                                           "spec",
                                           "table_only",
                                           "target"});
    // mcp --help names every argument.
    std::ostringstream help_text, no_err;
    const char* argv[] = {"context-pack", "mcp", "--help"};
    std::istringstream no_input;
    REQUIRE(cp::mcp::run(3, const_cast<char**>(argv), no_input, help_text, no_err) == 0);
    std::string help = help_text.str();
    std::replace(help.begin(), help.end(), '\n', ' ');
    for (const std::string& key : keys) {
        INFO(key);
        CHECK(std::regex_search(help, std::regex("[ (,]" + key + "[ ,)]")));
    }
    const Json& props = schema["properties"];
    // The spec's object form is docs/spec.schema.json itself, compiled in at build time, less
    // the keys of a schema document and its titles and descriptions; then its string form.
    REQUIRE(props["spec"]["anyOf"].size() == 2);
    Json file = Json::parse(cptest::slurp(cptest::source_dir() + "/docs/spec.schema.json"));
    CHECK(file["$schema"] == "https://json-schema.org/draft/2020-12/schema");
    file.erase("$schema");
    file.erase("$id");
    auto strip = [](auto& self, Json& node, bool named) -> void {
        if (node.is_array())
            for (Json& item : node) self(self, item, false);
        if (!node.is_object()) return;
        if (!named) node.erase("title"), node.erase("description");
        for (auto& [key, value] : node.items()) self(self, value, !named && key == "properties");
    };
    CHECK(file["properties"]["file_changes"].contains("description"));
    strip(strip, file, false);
    CHECK(props["spec"]["anyOf"][0] == file);
    // A host sends the whole tool to the model on every turn.
    CHECK(reply(s, 2)["result"].dump().size() < 6000);
    CHECK(props["spec"]["anyOf"][0]["type"] == "object");
    CHECK(props["spec"]["anyOf"][0]["properties"]["file_changes"]["items"]["properties"]["location"]
               ["required"] == Json::array({"path", "line"}));
    CHECK(
        props["spec"]["anyOf"][1] ==
        Json{{"type", "string"}, {"description", "a path of a spec file, or a JSON text of one"}});
    CHECK(props["at_base"]["type"] == "boolean");
    CHECK(props["table_only"]["type"] == "boolean");
    CHECK(props["context"]["type"] == "integer");
    CHECK(props["max_lines"]["type"] == "integer");
    CHECK(props["max_file_mib"]["type"] == "integer");
    // The caps' bounds are the command line's.
    CHECK(props["max_window_lines"]["minimum"] == 1);
    CHECK(props["max_callers"]["minimum"] == 0);
    CHECK(props["max_line_bytes"]["minimum"] == 16);
    CHECK(props["anchor"]["items"]["type"] == "string");
    CHECK(props["only"]["items"]["type"] == "string");
    for (const char* key : {"repo", "target", "since", "base"})
        CHECK(props[key]["type"] == "string");
    CHECK(tool["outputSchema"]["required"] ==
          Json::array({"format_version", "exit_status", "caps", "cut", "specs"}));
    CHECK(tool["outputSchema"]["properties"]["specs"]["items"]["properties"]["id"]["type"] ==
          Json::array({"string", "null"}));
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
    // The tool's max_lines is always applied (1500 by default): --max-lines on the CLI. With
    // full, the whole document; by default the compact one.
    auto json = cptest::context_pack(
        d.repo.dir(), q(path) + " --format json --max-lines 1500 --max-tokens 25000");
    Json whole = Json::parse(json.out);
    auto full = run_session(
        in_roots(roots, {call(1, {{"spec", path}, {"repo", d.repo.dir()}, {"full", true}})}));
    CHECK(reply(full, 1)["result"]["structuredContent"] == whole);
    whole["compact"] = true;
    for (Json& anchor : whole["specs"][0]["anchors"]) anchor["line_map"] = nullptr;
    for (Json& list : whole["specs"][0]["callers"]) list["per_file_more"] = 0;
    CHECK(result["structuredContent"] == whole);

    // A .jsonl file: one spec a line, one table each.
    auto jsonl = d.spec_file("drift.jsonl", d.spec().dump() + "\n\n" + d.spec().dump() + "\n");
    auto many = run_session(in_roots(
        roots, {call(1, {{"spec", jsonl}, {"repo", d.repo.dir()}, {"table_only", true}})}));
    CHECK(reply(many, 1)["result"]["structuredContent"]["specs"].size() == 2);
    CHECK(text_of(reply(many, 1)["result"]).find("drift.jsonl:3") != std::string::npos);
}

TEST_CASE(
    "mcp structuredContent is compact unless full is asked: no line maps, the caller files "
    "the text names",
    "[mcp]") {
    Repo repo;
    repo.write("a.c", "int shared(void) {\n  return 1;\n}\n" + numbered(10));
    for (int k = 0; k < 30; ++k)
        repo.write("use" + std::to_string(k) + ".c",
                   "int f" + std::to_string(k) + "(void) { return shared(); }\n");
    const std::string base = repo.commit();
    repo.write("a.c", "int shared(void) {\n  return 2;\n}\n" + numbered(10));
    const Json spec = Json::parse(R"({"base": ")" + base + R"(",
        "file_changes": [{"location": {"path": "a.c", "line": 1, "end_line": 3,
                                       "symbol": "shared"}, "change": "x"}]})");
    auto doc = [&](bool full) {
        Json args{{"spec", spec}, {"repo", repo.dir()}};
        if (full) args["full"] = true;
        auto s = run_session(in_roots({repo.dir()}, {call(1, args)}));
        Json r = reply(s, 1)["result"];
        INFO(r.dump());
        REQUIRE(r["isError"] == false);
        return r["structuredContent"];
    };
    const Json compact = doc(false), whole = doc(true);
    const Json& anchor = compact["specs"][0]["anchors"][0];
    CHECK(anchor["status"] == "TOUCHED");
    CHECK(compact["compact"] == true);
    CHECK(anchor["line_map"].is_null());
    CHECK(anchor["best"].is_object());
    CHECK(whole["specs"][0]["anchors"][0]["line_map"].size() == 3);
    CHECK_FALSE(whole.contains("compact"));
    const Json& callers = compact["specs"][0]["callers"][0];
    CHECK(callers["total"] == 30);
    CHECK(callers["per_file"].size() == cp::kFilesCounted);
    CHECK(callers["per_file_more"] == 30 - cp::kFilesCounted);
    CHECK(whole["specs"][0]["callers"][0]["per_file"].size() == 30);
}

TEST_CASE(
    "mcp a 2,000-anchor spec stays within the default budget, and its pointers show the "
    "rest",
    "[mcp]") {
    Repo repo;
    repo.write("a.c", numbered(400));
    const std::string base = repo.commit();
    repo.write("a.c", "// one more\n" + numbered(400));
    Json reads = Json::array();
    for (int k = 0; k < 2000; ++k)
        reads.push_back(
            {{"location", {{"path", "a.c"}, {"line", 1 + k % 390}, {"end_line", 10 + k % 390}}},
             {"why", "the lines the plan reads, number " + std::to_string(k)}});
    const Json spec{{"base", base}, {"reads", reads}};
    auto result_of = [&](Json args) {
        args["spec"] = spec;
        args["repo"] = repo.dir();
        auto s = run_session(in_roots({repo.dir()}, {call(1, args)}));
        for (const std::string& line : s.lines)
            if (line.find("\"id\":1,") != std::string::npos) {
                INFO(line.substr(0, 300));
                CHECK(line.size() <= args.value("max_tokens", std::size_t{25000}) * 4);  // whole
            }
        Json r = reply(s, 1)["result"];
        REQUIRE(r["isError"] == false);
        return r;
    };
    const Json r = result_of(Json::object());
    const std::string text = text_of(r);
    CHECK(text.size() <= 50000);
    const Json& doc = r["structuredContent"];
    CHECK(doc["max_tokens"] == 25000);
    CHECK(doc["cut"] == true);
    const Json& s = doc["specs"][0];
    // Rows were left out, and the code: each named with what shows it.
    REQUIRE(s["rows_more"].is_object());
    const std::size_t shown = s["anchors"].size();
    CHECK(shown > 50);
    CHECK(s["rows_more"]["count"] == 2000 - shown);
    const std::string rest = std::to_string(shown + 1) + "-2000";
    CHECK(s["rows_more"]["lift"] == Json{{"only", {rest}}});
    CHECK(text.find(std::to_string(2000 - shown) +
                    " more rows not shown (over max_tokens 25000); same call with only: [\"" +
                    rest + "\"] shows them") != std::string::npos);
    CHECK(s["code_cut"]["lift"] == Json{{"only", {"1-10"}}});
    CHECK(s["windows"].empty());
    CHECK(text.find("the code and callers are not shown (over max_tokens 25000); same call with "
                    "only: [\"1-10\"] shows them for rows 1-10") != std::string::npos);
    // The pointer's call gives the next rows.
    const Json next = result_of({{"only", {rest}}});
    CHECK(next["structuredContent"]["specs"][0]["anchors"][0]["row"] == shown + 1);
    // The code of ten rows fits: windows, and no cut of the budget.
    const Json ten = result_of({{"only", {"1-10"}}});
    CHECK(ten["structuredContent"]["specs"][0]["code_cut"].is_null());
    CHECK(ten["structuredContent"]["specs"][0]["rows_more"].is_null());
    CHECK_FALSE(ten["structuredContent"]["specs"][0]["windows"].empty());
    // A larger budget shows more.
    const Json more = result_of({{"max_tokens", 60000}});
    CHECK(more["structuredContent"]["specs"][0]["anchors"].size() > shown);
}

TEST_CASE("mcp a budget cuts windows before rows: the table stays whole while code fits", "[mcp]") {
    Repo repo;
    repo.write("a.c", numbered(3000));
    const std::string base = repo.commit();
    Json reads = Json::array();
    for (int k = 0; k < 20; ++k)
        reads.push_back(
            {{"location", {{"path", "a.c"}, {"line", 1 + 120 * k}, {"end_line", 100 + 120 * k}}},
             {"why", "x"}});
    auto s =
        run_session(in_roots({repo.dir()}, {call(1, {{"spec", {{"base", base}, {"reads", reads}}},
                                                     {"repo", repo.dir()},
                                                     {"max_tokens", 8000}})}));
    const Json& r = reply(s, 1)["result"];
    REQUIRE(r["isError"] == false);
    const Json& spec = r["structuredContent"]["specs"][0];
    CHECK(spec["anchors"].size() == 20);
    CHECK(spec["rows_more"].is_null());
    CHECK(spec["code_cut"].is_null());
    // Some windows shown, the rest cut by a lowered max_lines, each with its pointer.
    std::size_t shown = 0, cut = 0;
    for (const Json& w : spec["windows"]) (w["cut"].is_null() ? shown : cut) += 1;
    CHECK(shown > 0);
    CHECK(cut > 0);
    CHECK(r["structuredContent"]["caps"]["max_lines"] < 1500);
    CHECK(text_of(r).find("not shown (over max_lines") != std::string::npos);
    CHECK(s.lines.back().size() <= 8000 * 4);
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
    SECTION("repin: the revised plan as the command line prints it, and as structured content") {
        auto r = result_of({{"repin", true}, {"target", "HEAD"}});
        auto cli =
            cptest::context_pack(d.repo.dir(), "--repin --format jsonl --target HEAD " +
                                                   q(d.spec_file("plan.json", d.spec().dump())));
        CHECK(r["content"][0]["text"] == cli.out);
        const Json& doc = r["structuredContent"];
        REQUIRE(doc["repinned"].size() == 1);
        CHECK(doc["repinned"][0] == Json::parse(cli.out));
        CHECK(doc["repinned"][0]["base"] == d.repo.head());
        CHECK(doc["exit_status"] == cli.status);
        CHECK(doc["specs"][0]["windows"].empty());  // no pack
        auto worktree = run_session(in_roots(
            {d.repo.dir()}, {call(8, {{"spec", spec}, {"repo", d.repo.dir()}, {"repin", true}})}));
        const Json& refused = reply(worktree, 8)["result"];
        CHECK(refused["isError"] == true);
        CHECK(text_of(refused).find("repin revises a plan onto a commit") != std::string::npos);
        CHECK(text_of(refused).find("then give target (HEAD") != std::string::npos);
        auto typed = run_session(in_roots(
            {d.repo.dir()}, {call(9, {{"spec", spec}, {"repo", d.repo.dir()}, {"repin", "yes"}})}));
        CHECK(reply(typed, 9)["result"]["isError"] == true);
        CHECK(text_of(reply(typed, 9)["result"]) == "repin must be a boolean, not a string");
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
    SECTION("max_lines names what it skipped in the tool's own arguments") {
        auto r = result_of({{"max_lines", 1}, {"context", 5}});
        auto text = text_of(r);
        INFO(text);
        CHECK(text.find("not shown (over max_lines 1); print one with:\n  same call with only: "
                        "[\"1\"]") != std::string::npos);
        CHECK(text.find("--") == std::string::npos);
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

namespace {
// A function of 30 lines, one of them long, called 10 times in another file.
struct Capped {
    Repo repo;
    std::string base;
    Json spec;

    Capped() {
        std::string a = "int sym(void) {\n";
        for (int i = 2; i <= 29; ++i)
            a += i == 3 ? "    x = \"" + std::string(80, 'y') + "\";\n"
                        : "    x" + std::to_string(i) + ";\n";
        a += "}\n";
        repo.write("a.c", a);
        std::string b;
        for (int i = 0; i < 10; ++i) b += "sym();\n";
        repo.write("b.c", b);
        base = repo.commit();
        spec = {
            {"base", base},  // no id
            {"file_changes",
             {{{"location", {{"path", "a.c"}, {"line", 1}, {"end_line", 30}, {"symbol", "sym"}}},
               {"change", "edit it"}}}}};
    }

    Json call_with(const Json& extra) const {
        Json args = {{"spec", spec}, {"repo", repo.dir()}};
        args.update(extra);
        auto s = run_session(in_roots({repo.dir()}, {call(1, args)}));
        Json r = reply(s, 1)["result"];
        INFO(r.dump());
        CHECK(r["isError"] == false);
        return r;
    }
};

// The lines of the text that name a cut: none of them may speak the command line's syntax.
std::vector<std::string> cut_markers(const std::string& text) {
    std::vector<std::string> out;
    std::istringstream lines(text);
    for (std::string line; std::getline(lines, line);)
        if (line.find("same call with") != std::string::npos ||
            line.find("not shown") != std::string::npos || line.find("…") == 0)
            out.push_back(line);
    return out;
}

}  // namespace

TEST_CASE("mcp caps: the structured content is cut as the text is and names what lifts each cut",
          "[mcp]") {
    Capped c;
    SECTION("window, caller and line-byte caps") {
        auto r = c.call_with({{"max_window_lines", 5}, {"max_callers", 2}, {"max_line_bytes", 16}});
        const Json& doc = r["structuredContent"];
        CHECK(doc["caps"] == Json({{"max_lines", 1500},
                                   {"max_window_lines", 5},
                                   {"max_callers", 2},
                                   {"max_line_bytes", 16}}));
        CHECK(doc["cut"] == true);
        const Json& spec = doc["specs"][0];
        CHECK(spec["id"].is_null());  // a spec with no id
        const Json& window = spec["windows"][0];
        CHECK(window["cut"].is_null());  // shown, shortened
        REQUIRE(window["omitted"].is_object());
        auto raised = 5 + window["omitted"]["count"].get<int>();
        CHECK(window["omitted"]["lift"] == Json({{"only", {"1"}}, {"max_window_lines", raised}}));
        const Json& callers = spec["callers"][0];
        CHECK(callers["hits"].size() == 2);
        CHECK(callers["total"] == 10);
        CHECK(callers["more"] ==
              Json({{"count", 8}, {"lift", {{"only", {"1"}}, {"max_callers", 10}}}}));
        REQUIRE(spec["long_lines"].is_object());
        CHECK(spec["long_lines"]["lift"]["max_line_bytes"].get<int>() > 16);

        auto text = text_of(r);
        INFO(text);
        auto markers = cut_markers(text);
        CHECK(markers.size() >= 3);
        for (const auto& m : markers) CHECK(m.find("--") == std::string::npos);
        CHECK(text.find("same call with only: [\"1\"], max_window_lines: " +
                        std::to_string(raised) + " shows them") != std::string::npos);
        CHECK(text.find("same call with only: [\"1\"], max_callers: 10 lists them all") !=
              std::string::npos);
        CHECK(text.find("same call with max_line_bytes: " +
                        spec["long_lines"]["lift"]["max_line_bytes"].dump() +
                        " shows them whole") != std::string::npos);
    }
    SECTION("max_lines leaves windows and callers out of both") {
        auto whole = c.call_with(Json::object());
        auto r = c.call_with({{"max_lines", 1}});
        const Json& doc = r["structuredContent"];
        CHECK(doc["caps"]["max_lines"] == 1);
        CHECK(doc["cut"] == true);
        const Json& spec = doc["specs"][0];
        CHECK(spec["windows"][0]["lines"].empty());
        CHECK(spec["windows"][0]["cut"] ==
              Json({{"by", "max_lines"}, {"lift", {{"only", {"1"}}}}}));
        CHECK(spec["callers"][0]["hits"].empty());
        CHECK(spec["callers"][0]["cut"]["by"] == "max_lines");
        CHECK(spec["long_lines"].is_null());  // the cut line is not shown
        CHECK(whole["structuredContent"]["specs"][0]["windows"][0]["lines"].size() > 5);
        CHECK(r["structuredContent"].dump().size() < whole["structuredContent"].dump().size());
        for (const auto& m : cut_markers(text_of(r))) CHECK(m.find("--") == std::string::npos);
    }
    SECTION("only lifts max_lines unless it is given too, as --only does") {
        auto lifted = c.call_with({{"only", {"1"}}})["structuredContent"];
        CHECK(lifted["caps"]["max_lines"].is_null());
        CHECK(lifted["specs"][0]["windows"][0]["cut"].is_null());
        CHECK_FALSE(lifted["specs"][0]["windows"][0]["lines"].empty());
        auto capped = c.call_with({{"only", {"1"}}, {"max_lines", 1}})["structuredContent"];
        CHECK(capped["caps"]["max_lines"] == 1);
        CHECK(capped["specs"][0]["windows"][0]["cut"]["by"] == "max_lines");
    }
    SECTION("the command line's JSON carries the same cuts under --max-lines") {
        cptest::TempDir dir;
        auto path = dir.path() + "/plan.json";
        cptest::sh("cat > " + q(path), c.spec.dump());
        auto cli = cptest::context_pack(c.repo.dir(), q(path) + " --format json --max-lines 1");
        Json doc = Json::parse(cli.out);
        CHECK(doc["caps"]["max_lines"] == 1);
        CHECK(doc["specs"][0]["windows"][0]["cut"]["lift"]["only"] == Json::array({"1"}));
        auto whole = cptest::context_pack(c.repo.dir(), q(path) + " --format json");
        CHECK_FALSE(Json::parse(whole.out).contains("caps"));  // whole without --max-lines
        CHECK(Json::parse(whole.out)["specs"][0]["id"].is_null());
    }
}

TEST_CASE("mcp anchor, the caps and their bounds are arguments as on the command line", "[mcp]") {
    Drifted d;
    auto run = [&](const Json& args) {
        auto s = run_session(in_roots({d.repo.dir()}, {call(1, args)}));
        return reply(s, 1)["result"];
    };
    auto adhoc =
        run({{"anchor", {"a.c:3-4@L3", "b.c:1"}}, {"base", d.base}, {"repo", d.repo.dir()}});
    INFO(adhoc.dump());
    CHECK(adhoc["isError"] == false);
    const Json& spec = adhoc["structuredContent"]["specs"][0];
    CHECK(spec["id"].is_null());
    CHECK(spec["source"] == "anchor");
    REQUIRE(spec["anchors"].size() == 2);
    CHECK(spec["anchors"][0]["status"] == "MOVED");
    CHECK(spec["anchors"][0]["symbol_found"] == true);
    CHECK(spec["anchors"][1]["status"] == "GONE");

    // With a spec too: the spec's, then the ad hoc one.
    auto both =
        run({{"spec", d.spec()}, {"anchor", {"a.c:1"}}, {"base", d.base}, {"repo", d.repo.dir()}});
    CHECK(both["structuredContent"]["specs"].size() == 2);

    struct Case {
        Json arguments;
        std::string message;
    };
    const std::vector<Case> cases = {
        {{{"anchor", {"a.c:3"}}}, "anchor needs base"},
        {{{"anchor", "a.c:3"}, {"base", d.base}}, "anchor must be an array of strings"},
        {{{"anchor", {3}}, {"base", d.base}}, "anchor[0] must be a string, not an integer"},
        {{{"anchor", {"a.c"}}, {"base", d.base}}, "anchor[0] 'a.c': no :LINE"},
        {{{"spec", d.spec()}, {"max_window_lines", 0}}, "max_window_lines must be between 1 and"},
        {{{"spec", d.spec()}, {"max_callers", -1}}, "max_callers must be between 0 and"},
        {{{"spec", d.spec()}, {"max_line_bytes", 15}}, "max_line_bytes must be between 16 and"},
    };
    for (const auto& c : cases) {
        INFO(c.arguments.dump());
        auto r = run(c.arguments);
        CHECK(r["isError"] == true);
        CHECK_THAT(text_of(r), Catch::Contains(c.message));
    }
}

namespace {
// A plan of `n` specs, each at its own commit of a history of `commits`, in a .jsonl file:
// a call on it resolves spec after spec.
std::string many_specs(const Repo& repo, const cptest::TempDir& dir, int commits, int n) {
    std::vector<std::string> bases;
    for (int i = 0; i < commits; ++i) {
        repo.write("a.c", numbered(40 + i));
        repo.write("c" + std::to_string(i % 7) + ".c", numbered(i + 3));
        bases.push_back(repo.commit());
    }
    std::string lines;
    for (int i = 0; i < n; ++i)
        lines += Json{{"id", "s" + std::to_string(i)},
                      {"base", bases[std::size_t(i) % bases.size()]},
                      {"reads",
                       {{{"location", {{"path", "a.c"}, {"line", 1 + i % 30}, {"symbol", "L1"}}}},
                        {{"location", {{"path", "c1.c"}, {"line", 1}}}}}}}
                     .dump() +
                 "\n";
    auto path = dir.path() + "/many.jsonl";
    cptest::sh("cat > " + q(path), lines);
    return path;
}

std::string call_with_token(int id, const Json& arguments, const Json& token) {
    return Json{{"jsonrpc", "2.0"},
                {"id", id},
                {"method", "tools/call"},
                {"params",
                 {{"name", "context_pack"},
                  {"arguments", arguments},
                  {"_meta", {{"progressToken", token}}}}}}
        .dump();
}

std::string cancel(int id) {
    return Json{{"jsonrpc", "2.0"},
                {"method", "notifications/cancelled"},
                {"params", {{"requestId", id}, {"reason", "test"}}}}
        .dump();
}

}  // namespace

TEST_CASE("mcp a progressToken brings notifications/progress as anchors resolve, then the result",
          "[mcp]") {
    Repo repo;
    cptest::TempDir dir;
    auto path = many_specs(repo, dir, 3, 3);
    auto s = run_session(in_roots(
        {repo.dir(), dir.path()},
        {call_with_token(5, {{"spec", path}, {"repo", repo.dir()}, {"table_only", true}}, "tok")}));
    std::vector<Json> progress;
    std::size_t result_at = 0;
    for (std::size_t i = 0; i < s.replies.size(); ++i) {
        const Json& m = s.replies[i];
        if (m.value("method", "") == "notifications/progress") progress.push_back(m["params"]);
        if (m.contains("id") && m["id"] == 5) result_at = i;
    }
    // Two anchors a spec: one notification an anchor (each a percent or more of six).
    REQUIRE(progress.size() == 6);
    for (std::size_t i = 0; i < 6; ++i) {
        CHECK(progress[i]["progressToken"] == "tok");
        CHECK(progress[i]["progress"] == i + 1);
        CHECK(progress[i]["total"] == 6);
    }
    CHECK(progress[0]["message"] == "1 of 6 anchors resolved");
    CHECK(s.replies[result_at]["result"]["isError"] == false);
    CHECK(s.lines[result_at - 1].find("\"progress\":6") != std::string::npos);  // last before it

    // One spec of many anchors reports progress within it.
    Json reads = Json::array();
    for (int k = 0; k < 200; ++k)
        reads.push_back({{"location", {{"path", "a.c"}, {"line", 1 + k % 30}}}});
    auto one = run_session(in_roots(
        {repo.dir()}, {call_with_token(6,
                                       {{"spec", {{"base", repo.head()}, {"reads", reads}}},
                                        {"repo", repo.dir()},
                                        {"table_only", true}},
                                       "big")}));
    std::size_t within = 0;
    for (const Json& m : one.replies)
        if (m.value("method", "") == "notifications/progress" && m["params"]["total"] == 200 &&
            m["params"]["progress"] < 200)
            ++within;
    CHECK(within >= 50);

    // Without a token, no notification.
    auto plain = run_session(
        in_roots({repo.dir(), dir.path()}, {call(5, {{"spec", path}, {"repo", repo.dir()}})}));
    for (const Json& m : plain.replies) CHECK(m.value("method", "") != "notifications/progress");
}

TEST_CASE("mcp a cancelled call stops and sends no result", "[mcp]") {
    Repo repo;
    cptest::TempDir dir;
    // The call resolves 3000 specs: far longer than reading the line that follows it.
    auto path = many_specs(repo, dir, 40, 3000);
    const Json slow = {{"spec", path}, {"repo", repo.dir()}};
    // Cancelled on the line after the call: it stops, and nothing answers it.
    auto one = run_session(
        in_roots({repo.dir(), dir.path()}, {call(1, slow), cancel(1), request(2, "ping")}));
    CHECK(one.status == 0);
    CHECK(reply(one, 2)["result"] == Json::object());
    for (const Json& m : one.replies) CHECK_FALSE((m.contains("id") && m["id"] == 1));
}

TEST_CASE("mcp unknown keys: after the text pack, in structuredContent, failing only at_base",
          "[mcp]") {
    Drifted d;
    Json spec = d.spec();
    spec["file_changes"][0]["location"]["endline"] = 5;
    spec["reads"][0]["wy"] = "typo";
    const std::vector<std::string> warnings = {
        "file_changes[0].location: unknown key 'endline'; did you mean 'end_line'?",
        "reads[0]: unknown key 'wy'; did you mean 'why'?"};
    auto s = run_session(in_roots(
        {d.repo.dir()}, {call(2, {{"spec", spec}, {"repo", d.repo.dir()}}),
                         call(3, {{"spec", spec}, {"repo", d.repo.dir()}, {"at_base", true}})}));
    const Json& result = reply(s, 2)["result"];
    CHECK(result["isError"] == false);
    auto text = text_of(result);
    CHECK(text.ends_with("\nwarning: spec: " + warnings[0] + "\nwarning: spec: " + warnings[1] +
                         "\n"));
    CHECK(result["structuredContent"]["specs"][0]["warnings"] == warnings);
    CHECK(result["structuredContent"]["exit_status"] == 1);  // b.c is GONE, as without them

    // At its base every anchor is SAME: the unknown keys alone fail the check.
    const Json& checked = reply(s, 3)["result"];
    CHECK(checked["isError"] == false);
    CHECK(checked["structuredContent"]["specs"][0]["anchors"][1]["status"] == "SAME");
    CHECK(checked["structuredContent"]["exit_status"] == 1);
    CHECK(text_of(checked).ends_with(
        "\nwarning: at_base: 2 unknown keys in the plan, so the check fails (exit status 1); "
        "mend or remove them\n"));
}
