// The MCP server reads only inside the client's roots (roots/list), or, for a client that
// declares none, the directory it was started in: spec paths, repo and the repository git
// finds there, symlinks and .. resolved. Rows B65-B69 of docs/bad-input.md, and the protocol:
// roots/list after initialized, calls held until the answer, list_changed asked again.
#include <chrono>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "context_pack/app/mcp.hpp"
#include "support/catch.hpp"
#include "support/fixture.hpp"

using cptest::q;
using cptest::TempDir;
using Json = nlohmann::json;

namespace {

std::string request(const Json& id, const std::string& method,
                    const Json& params = Json::object()) {
    return Json{{"jsonrpc", "2.0"}, {"id", id}, {"method", method}, {"params", params}}.dump();
}

std::string call(int id, const Json& arguments) {
    return request(id, "tools/call", Json{{"name", "context_pack"}, {"arguments", arguments}});
}

std::string initialize(bool roots) {
    Json capabilities = Json::object();
    if (roots) capabilities["roots"] = {{"listChanged", true}};
    return request(0, "initialize",
                   Json{{"protocolVersion", "2025-06-18"},
                        {"capabilities", capabilities},
                        {"clientInfo", {{"name", "test"}, {"version", "0"}}}});
}

const std::string kInitialized = R"({"jsonrpc":"2.0","method":"notifications/initialized"})";
const std::string kRootsChanged =
    R"({"jsonrpc":"2.0","method":"notifications/roots/list_changed"})";

// The id of the server's n-th roots/list.
std::string asked(int n) {
    return "context-pack:roots/list:" + std::to_string(n);
}

// A file:// URI of a local path, escaped as a client escapes it (RFC 3986: all but the
// unreserved bytes and '/').
std::string uri_of(const std::string& path) {
    std::string out = "file://";
    for (unsigned char c : path) {
        if (std::isalnum(c) || c == '/' || c == '-' || c == '.' || c == '_' || c == '~')
            out += char(c);
        else
            out += "%" + std::string(1, "0123456789ABCDEF"[c >> 4]) + "0123456789ABCDEF"[c & 15];
    }
    return out;
}

std::string answer(const std::string& id, const std::vector<std::string>& dirs) {
    Json roots = Json::array();
    for (const auto& d : dirs) roots.push_back({{"uri", uri_of(d)}, {"name", "a root"}});
    return Json{{"jsonrpc", "2.0"}, {"id", id}, {"result", {{"roots", roots}}}}.dump();
}

// A session whose client declares `dirs` as its roots and answers the first roots/list
// with them, then sends `messages`.
std::vector<std::string> rooted(const std::vector<std::string>& dirs,
                                const std::vector<std::string>& messages) {
    std::vector<std::string> input = {initialize(true), kInitialized, answer(asked(1), dirs)};
    input.insert(input.end(), messages.begin(), messages.end());
    return input;
}

struct Session {
    int status = -1;
    std::vector<Json> lines;  // every message the server wrote, in order
    std::string err;

    // The reply whose id is `id`.
    const Json& reply(int id) const {
        for (const Json& l : lines)
            if (l.is_object() && l.contains("id") && l["id"] == id && !l.contains("method"))
                return l;
        FAIL("no reply with id " << id);
        throw;  // unreachable
    }
    // The ids of the server's own requests (roots/list), in order.
    std::vector<std::string> requests() const {
        std::vector<std::string> ids;
        for (const Json& l : lines)
            if (l.is_object() && l.value("method", "") == "roots/list") {
                CHECK(l["jsonrpc"] == "2.0");
                ids.push_back(l["id"].get<std::string>());
            }
        return ids;
    }
    // The position of the line answering `id`, or of the server's request `asked`.
    std::size_t position(const Json& id) const {
        for (std::size_t i = 0; i < lines.size(); ++i)
            if (lines[i].is_object() && lines[i].contains("id") && lines[i]["id"] == id) return i;
        FAIL("no line with id " << id.dump());
        throw;
    }
};

Session parse(int status, const std::string& out, std::string err) {
    Session s;
    s.status = status;
    s.err = std::move(err);
    std::istringstream lines(out);
    for (std::string line; std::getline(lines, line);) s.lines.push_back(Json::parse(line));
    return s;
}

std::string joined(const std::vector<std::string>& messages) {
    std::string input;
    for (const auto& m : messages) input += m + "\n";
    return input;
}

// The server in this process (its start directory: the test's, which holds no fixture).
Session serve(const std::vector<std::string>& messages) {
    std::istringstream in(joined(messages));
    std::ostringstream out, err;
    int status = cp::mcp::serve(in, out, err);
    return parse(status, out.str(), err.str());
}

// The binary started in `dir`, with `env` (VAR=value words) before it, with a 20-second
// limit (status 124 when it hangs).
Session serve_in(const std::string& dir, const std::vector<std::string>& messages,
                 const std::string& env = "") {
    auto o = cptest::sh("cd " + q(dir) + " && " + env + " " + q(cptest::binary()) + " mcp",
                        joined(messages), std::chrono::seconds(20));
    return parse(o.status, o.out, o.err);
}

std::string text_of(const Json& reply) {
    REQUIRE(reply.contains("result"));
    return reply["result"]["content"][0]["text"].get<std::string>();
}

// A call that ran: its one table row's status.
std::string status_of(const Json& reply) {
    INFO(reply.dump());
    REQUIRE(reply["result"]["isError"] == false);
    return reply["result"]["structuredContent"]["specs"][0]["anchors"][0]["status"];
}

// A refused call: one line, no report.
std::string refusal(const Json& reply) {
    INFO(reply.dump());
    REQUIRE(reply["result"]["isError"] == true);
    CHECK_FALSE(reply["result"].contains("structuredContent"));
    auto text = text_of(reply);
    CHECK(text.find('\n') == std::string::npos);
    return text;
}

void make_repo(const std::string& dir) {
    std::filesystem::create_directories(dir);
    REQUIRE(cptest::sh("cd " + q(dir) +
                       " && git init -q && printf 'int a;\\nint b;\\n' > a.c && "
                       "git add a.c && git commit -q -m base")
                .status == 0);
}

void write(const std::string& path, const std::string& text) {
    std::filesystem::create_directories(std::filesystem::path(path).parent_path());
    REQUIRE(cptest::sh("cat > " + q(path), text).status == 0);
}

void symlink(const std::string& target, const std::string& link) {
    std::filesystem::create_directories(std::filesystem::path(link).parent_path());
    std::filesystem::create_symlink(target, link);
}

// The client's root holds project/ (a repository) and plans/ (spec files); outside it are
// other/ (a repository with the same commit: fixed dates and identity) and plan.json. A spec
// that reads a.c:1 at that commit is SAME in either repository, so a refusal is the only
// thing that keeps a call from running.
struct Layout {
    TempDir root_dir, outside_dir;
    std::string root = root_dir.path(), outside = outside_dir.path();
    std::string project = root + "/project", other = outside + "/other";
    std::string base;
    const std::string secret = "hunter2-SECRET";

    Layout() {
        make_repo(project);
        make_repo(other);
        base = cptest::sh("git -C " + q(project) + " rev-parse HEAD").out.substr(0, 40);
        REQUIRE(cptest::sh("git -C " + q(other) + " rev-parse HEAD").out.substr(0, 40) == base);
        write(root + "/plans/plan.json", spec_text("plan"));
        write(outside + "/plan.json", spec_text(secret));
    }
    std::string spec_text(const std::string& id) const { return spec(id).dump(); }
    Json spec(const std::string& id = "plan") const {
        return {{"id", id},
                {"base", base},
                {"reads", {{{"location", {{"path", "a.c"}, {"line", 1}}}}}}};
    }
    // The other TempDir's path from the root's project/plans/..: a "../" escape.
    std::string escape(const std::string& rest) const {
        return root + "/plans/../../" + std::filesystem::path(outside).filename().string() + rest;
    }
};

}  // namespace

TEST_CASE("mcp asks a client that declares roots for them once it is initialized", "[mcp]") {
    Layout l;
    auto s = serve({initialize(true), request(1, "ping"), kInitialized, request(2, "ping"),
                    answer(asked(1), {l.root}),
                    call(3, {{"spec", l.root + "/plans/plan.json"}, {"repo", l.project}})});
    CHECK(s.status == 0);
    CHECK(s.err.empty());
    REQUIRE(s.requests() == std::vector<std::string>{asked(1)});
    // Sent once the client said it is initialized, as the lifecycle asks; no params.
    CHECK(s.position(1) < s.position(asked(1)));
    CHECK(s.position(asked(1)) < s.position(2));
    CHECK_FALSE(s.lines[s.position(asked(1))].contains("params"));
    CHECK(status_of(s.reply(3)) == "SAME");

    // A client without the capability is never asked, and its calls run at once.
    auto plain = serve({initialize(false), kInitialized, request(1, "ping"), kRootsChanged});
    CHECK(plain.requests().empty());
    CHECK(plain.lines.size() == 2);
}

TEST_CASE("mcp holds a tools/call that comes before the roots are known", "[mcp]") {
    Layout l;
    const Json args = {{"spec", l.root + "/plans/plan.json"}, {"repo", l.project}};
    // The call comes first; a ping after it is answered at once, the call once the roots are.
    auto s = serve({initialize(true), kInitialized, call(1, args), request(2, "ping"),
                    answer(asked(1), {l.root}), request(3, "ping")});
    CHECK(s.status == 0);
    CHECK(s.position(2) < s.position(1));
    // (Once released, the call runs on a thread of its own: ping 3 may be answered first.)
    CHECK(s.position(asked(1)) < s.position(1));
    CHECK(status_of(s.reply(1)) == "SAME");

    // Held, it is answered by the roots that came, not by the server's directory: here the
    // answered root does not hold the repository.
    auto narrow = serve(
        {initialize(true), kInitialized, call(1, args), answer(asked(1), {l.root + "/plans"})});
    CHECK_THAT(refusal(narrow.reply(1)), Catch::Contains("outside the client's roots"));

    // A batch holding a call waits whole and is answered as one array; its notifications
    // and responses are taken first, so a batch may carry the answer itself.
    auto batch =
        serve({initialize(true), kInitialized, "[" + call(4, args) + "," + request(5, "ping") + "]",
               "[" + answer(asked(1), {l.root}) + "," + call(6, args) + "]"});
    std::vector<Json> arrays;
    for (const Json& line : batch.lines)
        if (line.is_array()) arrays.push_back(line);
    REQUIRE(arrays.size() == 2);
    REQUIRE(arrays[0].size() == 2);
    CHECK(arrays[0][0]["id"] == 4);
    CHECK(arrays[0][1]["id"] == 5);
    CHECK(status_of(arrays[0][0]) == "SAME");
    REQUIRE(arrays[1].size() == 1);
    CHECK(status_of(arrays[1][0]) == "SAME");

    // A held call the client cancels is never answered; the others are.
    auto cancelled =
        serve({initialize(true), kInitialized, call(1, args), call(2, args),
               "[" + call(3, args) + "," + call(4, args) + "]",
               R"({"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}})",
               R"({"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":3}})",
               answer(asked(1), {l.root})});
    for (const Json& line : cancelled.lines) {
        CHECK_FALSE((line.is_object() && line["id"] == 1));
        if (line.is_array()) {
            REQUIRE(line.size() == 1);
            CHECK(line[0]["id"] == 4);
        }
    }
    CHECK(status_of(cancelled.reply(2)) == "SAME");

    // A client that calls before it says it is initialized is asked for the roots then.
    auto early = serve({initialize(true), call(1, args), answer(asked(1), {l.root})});
    CHECK(early.requests() == std::vector<std::string>{asked(1)});
    CHECK(status_of(early.reply(1)) == "SAME");
}

TEST_CASE("mcp asks for the roots again when the client says they changed", "[mcp]") {
    Layout l;
    const Json inside = {{"spec", l.spec()}, {"repo", l.project}};
    auto s = serve({initialize(true), kInitialized, answer(asked(1), {l.root}), call(1, inside),
                    kRootsChanged, call(2, inside),
                    // The first answer again (a stale id) counts for nothing: call 2 waits on.
                    answer(asked(1), {l.root}), request(3, "ping"), answer(asked(2), {l.outside}),
                    call(4, {{"spec", l.spec()}, {"repo", l.other}}), kRootsChanged, kRootsChanged,
                    answer(asked(3), {l.outside}), call(5, inside), answer(asked(4), {l.root}),
                    call(6, inside)});
    CHECK(s.status == 0);
    CHECK(s.requests() == std::vector<std::string>{asked(1), asked(2), asked(3), asked(4)});
    CHECK(status_of(s.reply(1)) == "SAME");
    CHECK(s.position(3) < s.position(2));  // held past the stale answer
    CHECK_THAT(refusal(s.reply(2)),
               Catch::Contains("repo " + l.project + " is outside the client's roots (" +
                               l.outside + ")"));
    CHECK(status_of(s.reply(4)) == "SAME");
    // Two changes in a row: only the answer to the latest roots/list lets call 5 run.
    CHECK(s.position(asked(4)) < s.position(5));
    CHECK(status_of(s.reply(5)) == "SAME");
    CHECK(status_of(s.reply(6)) == "SAME");
}

TEST_CASE("bad input B65: a spec path outside the roots") {
    Layout l;
    symlink(l.outside + "/plan.json", l.root + "/plans/link.json");
    symlink(l.outside, l.root + "/plans/out");
    symlink(l.root + "/plans/plan.json", l.root + "/plans/inner.json");
    write(l.root + "/batch/a.json", l.spec_text("a"));
    symlink(l.outside + "/plan.json", l.root + "/batch/b.json");
    write(l.root + "/good/a.json", l.spec_text("a"));

    struct Case {
        std::string spec, says;
    };
    const std::string roots = ", outside the client's roots (" + l.root + "); give a path " +
                              "inside a root, or have the client declare a root that holds it";
    const std::vector<Case> refused = {
        {l.outside + "/plan.json", "spec " + l.outside + "/plan.json is" + roots.substr(1)},
        {l.escape("/plan.json"),
         "spec " + l.escape("/plan.json") + " resolves to " + l.outside + "/plan.json" + roots},
        {l.root + "/plans/link.json",
         "spec " + l.root + "/plans/link.json resolves to " + l.outside + "/plan.json" + roots},
        {l.root + "/plans/out/plan.json", "resolves to " + l.outside + "/plan.json" + roots},
        // A folder's entry that leads outside refuses the folder's specs, not just itself.
        {l.root + "/batch",
         "spec " + l.root + "/batch/b.json resolves to " + l.outside + "/plan.json" + roots},
        // Missing or special, a path outside is refused alike, before it is opened.
        {l.outside + "/missing.json", "spec " + l.outside + "/missing.json is outside"},
        {"/etc/passwd", "spec /etc/passwd is outside the client's roots"},
        {"/dev/zero", "spec /dev/zero is outside the client's roots"},
    };
    std::vector<std::string> calls;
    for (std::size_t i = 0; i < refused.size(); ++i)
        calls.push_back(call(int(10 + i), {{"spec", refused[i].spec}, {"repo", l.project}}));
    auto s = serve(rooted({l.root}, calls));
    CHECK(s.status == 0);
    for (std::size_t i = 0; i < refused.size(); ++i) {
        INFO(refused[i].spec);
        auto text = refusal(s.reply(int(10 + i)));
        CHECK_THAT(text, Catch::Contains(refused[i].says));
        CHECK_THAT(text, !Catch::Contains(l.secret) && !Catch::Contains("root:"));
    }

    // Inside, through a symlink that stays inside, a folder, dot steps: read.
    auto ok = serve(
        rooted({l.root},
               {call(1, {{"spec", l.root + "/plans/plan.json"}, {"repo", l.project}}),
                call(2, {{"spec", l.root + "/plans/inner.json"}, {"repo", l.project}}),
                call(3, {{"spec", l.root + "/good"}, {"repo", l.project}}),
                call(4, {{"spec", l.root + "/plans/../plans/plan.json"}, {"repo", l.project}})}));
    for (int id : {1, 2, 3, 4}) CHECK(status_of(ok.reply(id)) == "SAME");

    // A client without roots: the server's directory is the one root, and relative paths
    // lead from it as before.
    write(l.project + "/plan.json", l.spec_text("here"));
    auto plain = serve_in(
        l.project,
        {call(1, {{"spec", "plan.json"}}), call(2, {{"spec", "../plans/plan.json"}}),
         call(3, {{"spec", "../../" + std::filesystem::path(l.outside).filename().string() +
                               "/plan.json"}})});
    CHECK(plain.status == 0);
    CHECK(status_of(plain.reply(1)) == "SAME");
    CHECK(refusal(plain.reply(2)) ==
          "spec ../plans/plan.json resolves to " + l.root + "/plans/plan.json, outside the " +
              "server's directory " + l.project + " (the client declares no roots); give a " +
              "path inside it, or start the server in a directory that holds it");
    CHECK_THAT(refusal(plain.reply(3)), Catch::Contains("resolves to " + l.outside +
                                                        "/plan.json, outside the server's "
                                                        "directory " +
                                                        l.project));
}

TEST_CASE("bad input B66: a repo outside the roots, or a repository found beyond them") {
    Layout l;
    symlink(l.other, l.root + "/link");
    std::filesystem::create_directories(l.project + "/sub");
    // A .git file in the root that names a git directory outside it.
    write(l.root + "/fake/.git", "gitdir: " + l.other + "/.git\n");
    const Json spec = l.spec();
    auto s =
        serve(rooted({l.root}, {
                                   call(1, {{"spec", spec}, {"repo", l.other}}),
                                   call(2, {{"spec", spec}, {"repo", l.escape("/other")}}),
                                   call(3, {{"spec", spec}, {"repo", l.root + "/link"}}),
                                   call(4, {{"spec", spec}, {"repo", l.root + "/fake"}}),
                                   call(5, {{"spec", spec}, {"repo", l.project}}),
                                   call(6, {{"spec", spec}, {"repo", l.project + "/sub"}}),
                                   call(7, {{"spec", spec}}),  // no repo: the client's only root
                               }));
    CHECK(s.status == 0);
    const std::string roots = " outside the client's roots (" + l.root + ")";
    CHECK(refusal(s.reply(1)) == "repo " + l.other + " is" + roots +
                                     "; give a path inside a root, or have the client declare "
                                     "a root that holds it");
    CHECK_THAT(refusal(s.reply(2)), Catch::Contains("repo " + l.escape("/other") + " resolves to " +
                                                    l.other + "," + roots));
    CHECK_THAT(refusal(s.reply(3)),
               Catch::Contains("repo " + l.root + "/link resolves to " + l.other + "," + roots));
    CHECK(refusal(s.reply(4)) == "repo " + l.root + "/fake opens a repository whose git " +
                                     "directory " + l.other + "/.git is" + roots +
                                     "; give a path inside a root, or have the client declare "
                                     "a root that holds the whole repository");
    CHECK(status_of(s.reply(5)) == "SAME");
    CHECK(status_of(s.reply(6)) == "SAME");
    // The server runs outside the roots (in the test's directory): a call without repo reads
    // the client's only root, which is no repository here, and says so naming it.
    CHECK(refusal(s.reply(7)) == "not a git repository (or any parent up to /): " + l.root +
                                     "; run inside one or pass repo");

    // A root inside the repository: git finds the repository above it, whose working tree
    // holds files beyond the root.
    auto inner = serve(
        rooted({l.project + "/sub"}, {call(1, {{"spec", spec}, {"repo", l.project + "/sub"}})}));
    CHECK_THAT(
        refusal(inner.reply(1)),
        Catch::Contains("repo " + l.project +
                        "/sub opens a repository whose working "
                        "tree " +
                        l.project + " is outside the client's roots (" + l.project + "/sub)"));

    // Without roots: the server's directory.
    auto plain =
        serve_in(l.project, {call(1, {{"spec", spec}}), call(2, {{"spec", spec}, {"repo", "sub"}}),
                             call(3, {{"spec", spec}, {"repo", "../link"}})});
    CHECK(status_of(plain.reply(1)) == "SAME");
    CHECK(status_of(plain.reply(2)) == "SAME");
    // The link is outside the server's directory itself, so it is not even read: the refusal
    // names the link, not where it leads.
    CHECK(refusal(plain.reply(3)) == "repo ../link resolves to " + l.root + "/link" +
                                         ", outside the server's directory " + l.project +
                                         " (the client declares no roots); give a path inside "
                                         "it, or start the server in a directory that holds it");
    // Started in a subdirectory of the repository, the server's directory holds only part of
    // it: refused as with a root there.
    auto below = serve_in(l.project + "/sub", {call(1, {{"spec", spec}})});
    CHECK_THAT(refusal(below.reply(1)),
               Catch::Contains("repo . opens a repository whose working tree " + l.project +
                               " is outside the server's directory " + l.project + "/sub"));
}

TEST_CASE("bad input B67: the server's GIT_DIR, GIT_WORK_TREE or GIT_INDEX_FILE leads outside") {
    Layout l;
    const std::vector<std::string> input = {call(1, {{"spec", l.spec()}})};
    const std::string where = " is outside the server's directory " + l.project +
                              " (the client declares no roots); unset ";
    auto dir = serve_in(l.project, input, "GIT_DIR=" + q(l.other + "/.git"));
    CHECK(refusal(dir.reply(1)) ==
          "repo . opens a repository whose git directory " + l.other + "/.git" + where +
              "GIT_DIR in the server's environment, or give a path inside it, or start the "
              "server in a directory that holds the whole repository");
    auto tree = serve_in(l.project, input,
                         "GIT_DIR=" + q(l.project + "/.git") + " GIT_WORK_TREE=" + q(l.other));
    CHECK_THAT(refusal(tree.reply(1)),
               Catch::Contains("whose working tree " + l.other + where + "GIT_WORK_TREE"));
    auto index = serve_in(l.project, input, "GIT_INDEX_FILE=" + q(l.other + "/.git/index"));
    CHECK_THAT(refusal(index.reply(1)), Catch::Contains("whose index " + l.other + "/.git/index" +
                                                        where + "GIT_INDEX_FILE"));
    // Inside, they are taken as before; with client roots, the roots judge them.
    CHECK(status_of(serve_in(l.project, input, "GIT_DIR=.git").reply(1)) == "SAME");
    auto rooted_dir =
        serve_in(l.project, rooted({l.root, l.outside}, input), "GIT_DIR=" + q(l.other + "/.git"));
    CHECK(status_of(rooted_dir.reply(1)) == "SAME");
}

TEST_CASE("bad input B90: objects read through alternates or the environment lie in the roots") {
    Layout l;
    const std::vector<std::string> input = {call(1, {{"spec", l.spec()}})};
    const std::string where =
        " is outside the server's directory " + l.project + " (the client declares no roots); ";
    // info/alternates naming the outside repository's objects, by a relative line.
    const std::string alternates = l.project + "/.git/objects/info/alternates";
    std::filesystem::create_directories(l.project + "/.git/objects/info");
    const std::string relative =
        std::filesystem::relative(l.other + "/.git/objects", l.project + "/.git/objects")
            .generic_string();
    write(alternates, relative + "\n");
    auto through = serve_in(l.project, input);
    CHECK_THAT(refusal(through.reply(1)),
               Catch::Contains("repo . opens a repository whose alternate object directory ") &&
                   Catch::Contains(where));
    std::filesystem::remove(alternates);
    // The same named by the server's environment.
    auto named = serve_in(l.project, input,
                          "GIT_ALTERNATE_OBJECT_DIRECTORIES=" + q(l.other + "/.git/objects"));
    CHECK_THAT(refusal(named.reply(1)),
               Catch::Contains("whose alternate object directory " + l.other + "/.git/objects" +
                               where + "unset GIT_ALTERNATE_OBJECT_DIRECTORIES"));
    auto moved = serve_in(l.project, input, "GIT_OBJECT_DIRECTORY=" + q(l.other + "/.git/objects"));
    CHECK_THAT(refusal(moved.reply(1)),
               Catch::Contains("whose object directory " + l.other + "/.git/objects" + where +
                               "unset GIT_OBJECT_DIRECTORY"));
    // Inside the roots, alternates are read as git reads them.
    auto inside = serve_in(l.project, rooted({l.root, l.outside}, input),
                           "GIT_ALTERNATE_OBJECT_DIRECTORIES=" + q(l.other + "/.git/objects"));
    CHECK(status_of(inside.reply(1)) == "SAME");
}

TEST_CASE("bad input B68: client roots that name no directory here, and escaped ones") {
    Layout l;
    // A directory whose name needs escapes: a space, '%', '#', '?', a non-ASCII byte.
    const std::string odd = l.root + "/sp ace%25#?\xc3\xa9";
    make_repo(odd);
    const Json garbage = {
        {{"uri", "https://example.com" + l.root}},
        {{"uri", "file://otherhost" + l.root}},
        {{"uri", "file:" + l.root}},
        {{"uri", uri_of(l.root + "/nowhere")}},
        {{"uri", "file://" + l.root + "/%zz"}},
        {{"uri", "file://" + l.root + "%00"}},
        {{"name", "no uri"}},
        {{"uri", 42}},
        "file:///",
    };
    auto s =
        serve({initialize(true), kInitialized,
               Json{{"jsonrpc", "2.0"}, {"id", asked(1)}, {"result", {{"roots", garbage}}}}.dump(),
               call(1, {{"spec", l.spec()}, {"repo", l.project}})});
    auto text = refusal(s.reply(1));
    CHECK_THAT(text, Catch::StartsWith("repo " + l.project +
                                       " is outside the client's roots (none of them is here: "
                                       "https://example.com" +
                                       l.root + " (not a local file:// URI), file://otherhost" +
                                       l.root + " (not a local file:// URI), file:" + l.root +
                                       " (not a local file:// URI) and 6 more)"));

    // Each alone, as the one root, leaves nothing to read in.
    for (const Json& root : garbage) {
        INFO(root.dump());
        auto one = serve(
            {initialize(true), kInitialized,
             Json{
                 {"jsonrpc", "2.0"}, {"id", asked(1)}, {"result", {{"roots", Json::array({root})}}}}
                 .dump(),
             call(1, {{"spec", l.spec()}, {"repo", l.project}})});
        CHECK_THAT(refusal(one.reply(1)), Catch::Contains("none of them is here"));
    }

    // Escapes are decoded, localhost is this machine, the scheme's case and a query or
    // fragment do not matter; the name undecoded is another directory.
    for (const std::string& uri :
         {uri_of(odd), "file://localhost" + uri_of(odd).substr(7),
          "FILE://" + uri_of(odd).substr(7), uri_of(odd) + "?x=1#top", uri_of(l.root)}) {
        INFO(uri);
        auto one = serve(
            {initialize(true), kInitialized,
             Json{{"jsonrpc", "2.0"}, {"id", asked(1)}, {"result", {{"roots", {{{"uri", uri}}}}}}}
                 .dump(),
             call(1, {{"spec", l.spec()}, {"repo", odd}})});
        CHECK(status_of(one.reply(1)) == "SAME");
    }
    auto raw = serve({initialize(true), kInitialized,
                      Json{{"jsonrpc", "2.0"},
                           {"id", asked(1)},
                           {"result", {{"roots", {{{"uri", "file://" + odd}}}}}}}
                          .dump(),
                      call(1, {{"spec", l.spec()}, {"repo", odd}})});
    CHECK_THAT(refusal(raw.reply(1)), Catch::Contains("none of them is here"));
}

TEST_CASE("bad input B69: roots/list answered with an error, without roots, or never") {
    Layout l;
    const std::vector<std::string> calls = {call(1, {{"spec", l.spec()}}),
                                            call(2, {{"spec", l.spec()}, {"repo", l.other}})};
    struct Case {
        std::string answer, why;
    };
    const std::vector<Case> cases = {
        {R"({"jsonrpc":"2.0","id":")" + asked(1) +
             R"(","error":{"code":-32601,"message":"Method not found"}})",
         "the client answered roots/list with an error: Method not found"},
        {R"({"jsonrpc":"2.0","id":")" + asked(1) + R"(","error":{"code":-32603}})",
         "the client answered roots/list with an error"},
        {R"({"jsonrpc":"2.0","id":")" + asked(1) + R"(","result":{"roots":"all"}})",
         "the client's roots/list answer holds no roots array"},
        {"", "the client's input ended before it answered roots/list"},
    };
    for (const Case& c : cases) {
        INFO(c.answer);
        std::vector<std::string> input = {initialize(true), kInitialized};
        input.insert(input.end(), calls.begin(), calls.end());  // held until the answer
        if (!c.answer.empty()) input.push_back(c.answer);
        auto s = serve_in(l.project, input);
        CHECK(s.status == 0);
        CHECK(s.err.empty());
        // The server's directory is the one root, as for a client without roots.
        CHECK(status_of(s.reply(1)) == "SAME");
        CHECK(refusal(s.reply(2)) == "repo " + l.other + " is outside the server's directory " +
                                         l.project + " (" + c.why +
                                         "); give a path inside it, or start the server in a "
                                         "directory that holds it");
    }
    // An empty list: no root at all, so nothing is read.
    auto none = serve_in(
        l.project,
        {initialize(true), kInitialized,
         R"({"jsonrpc":"2.0","id":")" + asked(1) + R"(","result":{"roots":[]}})", calls[0]});
    CHECK_THAT(refusal(none.reply(1)),
               Catch::Contains("outside the client's roots (it declares none)"));
}

TEST_CASE("bad input B94: a client that declares roots and never answers roots/list") {
    // Its input stays open: the calls that wait run after 10 s under the server's directory,
    // saying why, never held forever.
    Layout l;
    std::vector<std::string> input = {initialize(true), kInitialized, call(1, {{"spec", l.spec()}}),
                                      call(2, {{"spec", l.spec()}, {"repo", l.other}})};
    const auto started = std::chrono::steady_clock::now();
    auto o = cptest::sh(
        "cd " + q(l.project) + " && { cat; sleep 12; } | " + q(cptest::binary()) + " mcp",
        joined(input), std::chrono::seconds(40));
    const auto took = std::chrono::steady_clock::now() - started;
    auto s = parse(o.status, o.out, o.err);
    CHECK(status_of(s.reply(1)) == "SAME");
    CHECK(refusal(s.reply(2)) == "repo " + l.other + " is outside the server's directory " +
                                     l.project +
                                     " (the client did not answer roots/list within 10 s); give "
                                     "a path inside it, or start the server in a directory that "
                                     "holds it");
    CHECK(took >= std::chrono::seconds(10));
}

TEST_CASE("mcp started outside the roots (as from /) runs a call in the client's only root",
          "[mcp]") {
    Layout l;
    // The binary started in /, as some desktop clients start it; the client's one root is
    // the repository: no repo needed, and relative paths start there.
    write(l.project + "/plans/p.json", l.spec_text("rel"));
    auto one = serve_in("/", rooted({l.project}, {call(1, {{"spec", l.spec()}}),
                                                  call(2, {{"spec", "plans/p.json"}}),
                                                  call(3, {{"spec", l.spec()}, {"repo", "."}})}));
    CHECK(one.status == 0);
    CHECK(status_of(one.reply(1)) == "SAME");
    CHECK(status_of(one.reply(2)) == "SAME");
    CHECK(status_of(one.reply(3)) == "SAME");
    // Several roots, none holding the server's directory: which one is meant is not guessed.
    auto several = serve_in("/", rooted({l.project, l.root + "/plans"},
                                        {call(1, {{"spec", l.spec()}}),
                                         call(2, {{"spec", l.spec()}, {"repo", l.project}})}));
    CHECK_THAT(refusal(several.reply(1)),
               Catch::StartsWith("the server's directory / is in none of the client's roots (") &&
                   Catch::EndsWith("so a call has no default directory; give repo, an absolute "
                                   "path inside a root"));
    CHECK(status_of(several.reply(2)) == "SAME");
}
