// The command line as a new user meets it: options on either side of the spec, the help
// text, colour, grep's habits, and the caps a reader can see and lift by following the
// command each cut prints.
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>

#include "context_pack/output/quickfix.hpp"
#include "support/catch.hpp"
#include "support/fixture.hpp"
#include "support/outcome.hpp"

using cptest::context_pack;
using cptest::q;
using cptest::Repo;

namespace {

// A plan over a long function, a long line and a symbol with many callers.
struct Plan {
    Repo repo;
    std::string base;

    Plan() {
        std::string body = "int widget(void) {\n";
        for (int i = 1; i <= 616; ++i) body += "    step(" + std::to_string(i) + ");\n";
        body += "}\n";
        repo.write("big.c", body);
        repo.write("long.c", "int wide = 0; /* " + std::string(700, 'x') + " */\n");
        std::string calls;
        for (int i = 0; i < 70; ++i) calls += "    widget();\n";
        repo.write("calls.c", calls);
        base = repo.commit();
        repo.write("plan.json", R"({"id": "p", "base": ")" + base + R"(", "file_changes": [
            {"location": {"path": "big.c", "line": 1, "end_line": 618, "symbol": "widget"}},
            {"location": {"path": "long.c", "line": 1}}]})");
    }
    cptest::Output run(const std::string& args, const std::string& env = "") const {
        // Colour decided by the options and `env` alone, whatever the test runner sets.
        return cptest::sh("cd " + q(repo.dir()) +
                          " && env -u NO_COLOR -u CLICOLOR_FORCE -u FORCE_COLOR "
                          "-u GIT_PAGER_IN_USE TERM=xterm " +
                          env + " " + q(cptest::binary()) + " " + args);
    }
    // Runs a command the pack printed, as a reader would paste it.
    cptest::Output follow(const std::string& command) const {
        REQUIRE(command.starts_with("context-pack "));
        return cptest::sh("cd " + q(repo.dir()) + " && NO_COLOR=1 " + q(cptest::binary()) +
                          command.substr(std::string("context-pack").size()));
    }
};

// The command a pointer line names: from "context-pack" up to the words that end it.
std::string command_in(const std::string& out, const std::string& marker, const std::string& ends) {
    auto at = out.find(marker);
    REQUIRE(at != std::string::npos);
    auto line_start = out.rfind('\n', at) + 1;
    auto line = out.substr(line_start, out.find('\n', at) - line_start);
    auto from = line.find("context-pack ");
    auto to = line.rfind(ends);
    REQUIRE(from != std::string::npos);
    REQUIRE(to != std::string::npos);
    return line.substr(from, to - from);
}

// The pack without the lines that quote its own command line, which follows the order typed.
std::string without_pointers(const std::string& out) {
    std::string kept;
    std::istringstream in(out);
    for (std::string line; std::getline(in, line);)
        if (line.find("context-pack ") == std::string::npos) kept += line + "\n";
    return kept;
}

}  // namespace

TEST_CASE("every option takes its value and leaves the spec a spec, before or after it") {
    Plan p;
    const std::vector<std::string> options = {"-C .",
                                              "--base HEAD",
                                              "--target HEAD",
                                              "--at-base",
                                              "--since HEAD",
                                              "--only 1",
                                              "--only 1 --only 2",
                                              "--format json",
                                              "--table",
                                              "--context 5",
                                              "--max-lines 40",
                                              "--max-file-mib 4",
                                              "--cache-mib 0",
                                              "--jobs 1",
                                              "--color never",
                                              "--no-color",
                                              "--max-window-lines 7",
                                              "--max-callers 3",
                                              "--max-line-bytes 40",
                                              "--callers-in calls.c",
                                              "--callers-in . --callers-in '*.c'",
                                              "--anchor big.c:2 --base HEAD"};
    for (const auto& option : options) {
        INFO(option);
        auto before = p.run(option + " plan.json");
        auto after = p.run("plan.json " + option);
        INFO(before.err << after.err);
        CHECK(before.status <= 1);
        CHECK(before.out.find("plan.json") != std::string::npos);  // the spec was read
        CHECK(without_pointers(before.out) == without_pointers(after.out));
        CHECK(before.status == after.status);
    }
}

TEST_CASE("help names the MCP server and says what each value is") {
    auto o = context_pack(".", "--help");
    REQUIRE(o.status == 0);
    CHECK(o.out.find("context-pack mcp") != std::string::npos);
    CHECK(o.out.find("Usage: context-pack [OPTIONS] [SPEC...]") != std::string::npos);
    for (const char* metavar :
         {"--base REV", "-C DIR", "--only ROW", "--context N", "--anchor PATH:LINE[-END][@SYMBOL]",
          "--format FORMAT", "--color WHEN", "--no-color", "--max-window-lines N",
          "--max-callers N", "--max-line-bytes N"})
        CHECK(o.out.find(metavar) != std::string::npos);
    // CLI11's own type names and ranges are not a user's words.
    for (const char* raw : {"TEXT", "UINT", "INT:", ":{", "[1 - "}) {
        INFO(raw);
        CHECK(o.out.find(raw) == std::string::npos);
    }
}

TEST_CASE("colour: off with --no-color, on under git's pager, NO_COLOR first") {
    Plan p;
    const std::string bold = "\x1b[1m";
    CHECK(p.run("plan.json").out.find(bold) == std::string::npos);  // not a terminal
    CHECK(p.run("plan.json", "GIT_PAGER_IN_USE=true").out.find(bold) != std::string::npos);
    CHECK(p.run("plan.json", "GIT_PAGER_IN_USE=0").out.find(bold) == std::string::npos);
    CHECK(p.run("--no-color plan.json", "GIT_PAGER_IN_USE=1").out.find(bold) == std::string::npos);
    CHECK(p.run("plan.json", "NO_COLOR=1 GIT_PAGER_IN_USE=1").out.find(bold) == std::string::npos);
    // The last of --color and --no-color wins, as in git.
    CHECK(p.run("--no-color --color always plan.json").out.find(bold) != std::string::npos);
    CHECK(p.run("--color always --no-color plan.json").out.find(bold) == std::string::npos);
}

TEST_CASE("a number given as -C that names no directory points at --context") {
    Plan p;
    cptest::usage_error(p.run("-C 5 plan.json"),
                        "-C 5 names no directory: -C is the repository to read (as in git -C); "
                        "for 5 lines of context around each window, give --context 5");
    // A directory that is a number is a directory.
    cptest::sh("mkdir " + q(p.repo.at("7")));
    auto o = p.run("-C 7 --base HEAD --anchor big.c:1");
    CHECK(o.status == 0);
}

TEST_CASE("a window cut at --max-window-lines names the command that shows it whole") {
    Plan p;
    auto o = p.run("plan.json", "NO_COLOR=1");
    REQUIRE(o.status == 0);
    CHECK(o.out.find("> 100 |     step(99);") != std::string::npos);
    CHECK(o.out.find("> 101 |") == std::string::npos);
    auto command = command_in(o.out, "--max-window-lines", " shows them");
    CHECK(command.find("--only 1") != std::string::npos);
    auto whole = p.follow(command);
    INFO(command << "\n" << whole.err);
    REQUIRE(whole.status == 0);
    CHECK(whole.out.find("> 618 | }") != std::string::npos);
    CHECK(whole.out.find("lines (big.c") == std::string::npos);  // nothing cut
    // --only asks for those anchors whole: the pack's own line cap steps aside.
    auto only = p.run("--only 1 --max-window-lines 1000 plan.json");
    CHECK(only.out.find("> 618 | }") != std::string::npos);
    auto capped = p.run("--only 1 --max-window-lines 1000 --max-lines 50 plan.json");
    CHECK(capped.out.find("> 618 | }") == std::string::npos);
    CHECK(capped.out.find("not shown (over --max-lines 50)") != std::string::npos);
}

TEST_CASE(
    "a token budget (--max-tokens) keeps the text or JSON within it, cutting code, then rows, "
    "each named with the command that shows it, and --only takes ranges of rows") {
    Repo repo;
    repo.write("a.c", cptest::numbered(400));
    const std::string base = repo.commit();
    nlohmann::json reads = nlohmann::json::array();
    for (int k = 0; k < 300; ++k)
        reads.push_back({{"location", {{"path", "a.c"}, {"line", 1 + k}, {"end_line", 30 + k}}},
                         {"why", "read number " + std::to_string(k)}});
    cptest::TempDir dir;
    const std::string spec = dir.path() + "/plan.json";
    cptest::sh("cat > " + q(spec), nlohmann::json{{"base", base}, {"reads", reads}}.dump());

    auto text = context_pack(repo.dir(), "--max-tokens 2000 --color never " + q(spec));
    REQUIRE(text.status == 0);
    CHECK(text.out.size() <= 2000 * 4);
    const std::regex more(
        "… (\\d+) more rows not shown \\(over --max-tokens 2000\\); (.*) shows them");
    std::smatch m;
    REQUIRE(std::regex_search(text.out, m, more));
    const std::string rest = m[2].str();
    INFO(rest);
    CHECK(rest.find("--only " + std::to_string(301 - std::stoi(m[1].str())) + "-300") !=
          std::string::npos);
    CHECK(text.out.find("the code and callers are not shown (over --max-tokens 2000)") !=
          std::string::npos);
    // The ranges of rows: the rows asked for, and those alone.
    auto two = context_pack(repo.dir(), "--table --only 2-3 --only 7 --color never " + q(spec));
    REQUIRE(two.status == 0);
    std::vector<std::string> shown;
    std::istringstream table(two.out);
    for (std::string line; std::getline(table, line);) {
        std::smatch row;
        if (std::regex_search(line, row, std::regex("^ *(\\d+)  read"))) shown.push_back(row[1]);
    }
    CHECK(shown == std::vector<std::string>{"2", "3", "7"});

    auto json = context_pack(repo.dir(), "--format json --max-tokens 3000 " + q(spec));
    REQUIRE(json.status == 0);
    CHECK(json.out.size() <= 3000 * 4);
    auto doc = nlohmann::json::parse(json.out);
    CHECK(doc["max_tokens"] == 3000);
    const auto& s = doc["specs"][0];
    REQUIRE(s["rows_more"].is_object());
    CHECK(s["rows_more"]["count"].get<std::size_t>() + s["anchors"].size() == 300);

    // A batch whose tables' headers alone are over it: said, not cut silently.
    const std::string batch = dir.path() + "/batch.jsonl";
    std::string lines;
    for (int k = 0; k < 100; ++k)
        lines +=
            nlohmann::json{
                {"id", "spec" + std::to_string(k)}, {"base", base}, {"reads", {reads[k]}}}
                .dump() +
            "\n";
    cptest::sh("cat > " + q(batch), lines);
    auto many = context_pack(repo.dir(), "--table --max-tokens 1000 --color never " + q(batch));
    REQUIRE(many.status == 0);
    CHECK(many.out.find("… still over --max-tokens 1000: the headers of the 100 specs' tables "
                        "alone are; ask for fewer specs at once") != std::string::npos);

    auto refused = context_pack(repo.dir(), "--format quickfix --max-tokens 2000 " + q(spec));
    CHECK(refused.status == 2);
    CHECK(refused.err ==
          "context-pack: --max-tokens bounds the pack as text or JSON; drop it with --format "
          "quickfix\n");
}

TEST_CASE(
    "only (--only) names anchors by path and symbol too, and one that names none is refused before "
    "the work, with the rows and labels there are") {
    Repo repo;
    repo.write("a.c", cptest::numbered(40));
    repo.write("b.c", cptest::numbered(40, "B"));
    const std::string base = repo.commit();
    cptest::TempDir dir;
    const std::string spec = dir.path() + "/plan.json";
    cptest::sh("cat > " + q(spec), R"({"base": ")" + base + R"(",
        "file_changes": [{"location": {"path": "a.c", "line": 3, "symbol": "L3"}, "change": "x"}],
        "reads": [{"location": {"path": "b.c", "line": 5}, "why": "y"},
                  {"location": {"path": "a.c", "line": 9}, "why": "z"}]})");
    auto rows = [&](const std::string& only) {
        auto o = context_pack(repo.dir(), "--table --color never " + only + " " + q(spec));
        INFO(o.err);
        REQUIRE(o.status == 0);
        std::vector<std::string> shown;
        std::istringstream lines(o.out);
        for (std::string line; std::getline(lines, line);) {
            std::smatch m;
            if (std::regex_search(line, m, std::regex("^ *(\\d+)  (edit|read)")))
                shown.push_back(m[1]);
        }
        return shown;
    };
    CHECK(rows("--only a.c") == std::vector<std::string>{"1", "3"});
    CHECK(rows("--only L3") == std::vector<std::string>{"1"});
    CHECK(rows("--only 2-3") == std::vector<std::string>{"2", "3"});
    auto none = context_pack(repo.dir(), "--only parse " + q(spec));
    CHECK(none.status == 2);
    CHECK(none.err ==
          "context-pack: --only matches no anchor of the plan, whose table has rows 1-3 "
          "(file_changes[0]-[0], reads[0]-[1]); give a row, a range of rows (4-9), a label, an "
          "anchor's path or its symbol\n");
}

TEST_CASE("callers cut at --max-callers and lines cut at --max-line-bytes name their commands") {
    Plan p;
    auto o = p.run("plan.json", "NO_COLOR=1");
    REQUIRE(o.status == 0);
    // Not plan.json, untracked in the work tree: the plan names the symbols, it calls none.
    CHECK(o.out.find("… +20 more hits") != std::string::npos);
    CHECK(o.out.find("plan.json:") == std::string::npos);
    auto callers = p.follow(command_in(o.out, "--max-callers", " lists them all"));
    CHECK(callers.out.find("calls.c:70:") != std::string::npos);
    CHECK(callers.out.find("more hits") == std::string::npos);

    CHECK(o.out.find("… (+") != std::string::npos);
    auto lines = p.follow(command_in(o.out, "--max-line-bytes", " shows them whole"));
    CHECK(lines.out.find(std::string(700, 'x') + " */") != std::string::npos);
    CHECK(lines.out.find("… (+") == std::string::npos);

    // Fewer than the defaults, and 0 callers: counts only.
    auto few = p.run("--max-callers 0 --max-line-bytes 20 plan.json", "NO_COLOR=1");
    CHECK(few.out.find("calls.c:1:") == std::string::npos);
    CHECK(few.out.find("… +70 more hits; per file: calls.c 70\n") != std::string::npos);
    CHECK(few.out.find("cut where marked (+N bytes)") != std::string::npos);
    cptest::usage_error(p.run("--max-window-lines 0 plan.json"), "--max-window-lines");
    cptest::usage_error(p.run("--max-line-bytes 3 plan.json"), "--max-line-bytes");
}

TEST_CASE("quickfix format: one path:line:column: kind: STATUS line an anchor, where it is now") {
    Repo repo;
    repo.write("a.c", cptest::numbered(10));
    repo.write("gone.c", "int gone;\n");
    repo.write("del.c", "keep\ncut1\ncut2\nkeep2\n");
    auto base = repo.commit();
    repo.write("a.c", "top\n" + cptest::numbered(10));
    repo.write("del.c", "keep\nkeep2\n");
    repo.remove("gone.c");
    repo.write("new.c", "int fresh;\n");
    repo.write("e\x1b.c", "int e;\n");
    auto o = context_pack(repo.dir(), "--format quickfix --base " + base +
                                          " --anchor a.c:3-4@L3 --anchor gone.c:1 --anchor new.c:1"
                                          " --anchor del.c:2-3 --anchor 'e\x1b.c:1'");
    INFO(o.out << o.err);
    REQUIRE(o.status == 1);
    std::istringstream in(o.out);
    std::vector<std::string> lines;
    for (std::string line; std::getline(in, line);) lines.push_back(line);
    REQUIRE(lines.size() == 5);
    // at the target, at its symbol
    CHECK(lines[0].starts_with("a.c:4:1: note: MOVED --anchor[0] L3 found (spec "));
    CHECK(lines[1].starts_with("gone.c:1:1: error: GONE "));  // at base
    CHECK(lines[2].starts_with("new.c:1:1: note: NEW "));
    CHECK(lines[3].starts_with("del.c:2:1: warning: TOUCHED "));  // the gap its lines left, never 0
    CHECK(lines[4].starts_with("e\\x1b.c:1:1: note: NEW "));  // bytes a terminal acts on, escaped
    for (const auto& line : lines)
        CHECK(std::regex_search(
            line, std::regex(R"(^[^:]+:[1-9]\d*:[1-9]\d*: (error|warning|note): [A-Z_+]+ )")));
}

TEST_CASE("quickfix format: a TOUCHED anchor jumps to its lines as best places them") {
    // Line 3 is edited and two lines come before it: the union rule's range starts at the
    // first new line, the anchor's own lines are 5-6. The jump and the note are JSON's best.
    Repo repo;
    repo.write("a.c", cptest::numbered(10, "int value_"));
    auto base = repo.commit();
    std::string edited = cptest::numbered(10, "int value_");
    edited.replace(edited.find("int value_3\n"), 12, "fresh(1);\nfresh(2);\nint value_3 = 3;\n");
    repo.write("a.c", edited);
    const std::string args = "--base " + base + " --anchor a.c:3-4";
    auto json = context_pack(repo.dir(), "--format json " + args);
    INFO(json.out << json.err);
    auto doc = nlohmann::json::parse(json.out);
    const auto& a = doc["specs"][0]["anchors"][0];
    REQUIRE(a["status"] == "TOUCHED");
    REQUIRE(a["to"]["line"] == 3);
    REQUIRE(a["best"]["line"] == 5);
    REQUIRE(a["best"]["end_line"] == 6);
    auto qf = context_pack(repo.dir(), "--format quickfix " + args);
    INFO(qf.out << qf.err);
    CHECK(qf.out.starts_with("a.c:5:1: warning: TOUCHED "));
    CHECK(qf.out.find("; now a.c:3-6; best a.c:5-6 (") != std::string::npos);
    auto table = context_pack(repo.dir(), "--table " + args);
    CHECK(table.out.find("best a.c:5-6 (") != std::string::npos);
}

TEST_CASE("quickfix format: paths from the current directory, columns at the symbol") {
    Repo repo;
    repo.write("top.c", "int a;\nint b;\n");
    repo.write("sub/deep.c", "x\n  int find_me(void);\n");
    auto base = repo.commit();
    const std::string anchors = " --base " + base +
                                " --anchor top.c:1-2 --anchor sub/deep.c:1-2@find_me"
                                " --anchor sub/deep.c:1@nothere";
    auto lines_of = [](const std::string& out) {
        std::istringstream in(out);
        std::vector<std::string> lines;
        for (std::string line; std::getline(in, line);) lines.push_back(line);
        return lines;
    };
    // At the top: the repository's paths; the symbol's line and column; a missing symbol is an
    // error.
    auto top = lines_of(context_pack(repo.dir(), "--format quickfix" + anchors).out);
    REQUIRE(top.size() == 3);
    CHECK(top[0].starts_with("top.c:1:1: note: SAME "));
    CHECK(top[1].starts_with("sub/deep.c:2:7: note: SAME "));
    CHECK(top[2].starts_with("sub/deep.c:1:1: error: SAME "));
    // Below the top, as git grep prints them.
    auto below = lines_of(context_pack(repo.dir() + "/sub", "--format quickfix" + anchors).out);
    REQUIRE(below.size() == 3);
    CHECK(below[0].starts_with("../top.c:1:1: "));
    CHECK(below[1].starts_with("deep.c:2:7: "));
    // With -C from elsewhere: from where the command ran, so that an editor started there
    // opens them.
    cptest::TempDir elsewhere;
    auto away = lines_of(
        context_pack(elsewhere.path(), "-C " + q(repo.dir()) + " --format quickfix" + anchors).out);
    REQUIRE(away.size() == 3);
    const std::string real = std::filesystem::canonical(repo.dir()).generic_string();
    const std::string from = std::filesystem::canonical(elsewhere.path()).generic_string();
    CHECK(away[1].starts_with(cp::path_from(from, real, "sub/deep.c") + ":2:7: "));
    CHECK(std::filesystem::exists(std::filesystem::path(elsewhere.path()) /
                                  cp::path_from(from, real, "sub/deep.c")));
    // The text pack keeps the repository's paths and says so below the top.
    auto text = context_pack(repo.dir() + "/sub", "--table" + anchors);
    CHECK(text.out.starts_with("Paths are relative to the repository's top, " + real + "\n"));
    CHECK(context_pack(repo.dir(), "--table" + anchors).out.find("Paths are relative") ==
          std::string::npos);
}

TEST_CASE("quickfix paths: made relative lexically, absolute across roots") {
    CHECK(cp::path_from("/r", "/r", "a/b.c") == "a/b.c");
    CHECK(cp::path_from("/r/a", "/r/", "a/b.c") == "b.c");
    CHECK(cp::path_from("/r/a/x", "/r", "b.c") == "../../b.c");
    CHECK(cp::path_from("/elsewhere", "/r", "b.c") == "../r/b.c");
    CHECK(cp::path_from("/", "/r", "b.c") == "r/b.c");
    CHECK(cp::path_from("D:/w", "C:/r/", "b.c") == "C:/r/b.c");
    CHECK(cp::path_from("/r", "/r", "") == "");
    CHECK(cp::path_from("/r/a", "/r", "") == "../");
}

TEST_CASE("jsonl format: a compact line a spec in input order, then the end line") {
    Plan p;
    p.repo.write("two.json", R"({"id": "q", "base": ")" + p.base +
                                 R"(", "reads": [{"location": {"path": "long.c", "line": 5}}]})");
    for (const char* table : {"", "--table"}) {
        INFO(table);
        auto o = p.run(std::string("--format jsonl ") + table + " plan.json two.json");
        REQUIRE(o.status == 1);
        std::istringstream in(o.out);
        std::vector<nlohmann::json> lines;
        for (std::string line; std::getline(in, line);) {
            CHECK(line.find('\n') == std::string::npos);
            lines.push_back(nlohmann::json::parse(line));
        }
        REQUIRE(lines.size() == 3);
        CHECK(lines[0]["type"] == "spec");
        CHECK(lines[0]["id"] == "p");
        CHECK(lines[1]["id"] == "q");
        CHECK(lines[1]["anchors"][0]["status"] == "UNRESOLVED");
        CHECK(lines[0]["windows"].empty() == (std::string(table) == "--table"));
        CHECK(lines[2]["type"] == "end");
        CHECK(lines[2]["exit_status"] == 1);
        CHECK(lines[2]["summary"]["all"]["anchors"] == 3);
    }
}

TEST_CASE("a batch shows its progress on stderr only when stderr is a terminal") {
    Plan p;
    p.repo.write("two.json", R"({"id": "q", "base": ")" + p.base +
                                 R"(", "reads": [{"location": {"path": "long.c", "line": 1}}]})");
    auto quiet = p.run("--table plan.json two.json");
    CHECK(quiet.status == 0);
    CHECK(quiet.err.empty());
    // On a terminal; standard output still goes to /dev/null.
    auto shown = cptest::sh_on_terminal("cd " + q(p.repo.dir()) + " && " + q(cptest::binary()) +
                                        " --table plan.json two.json >/dev/null");
    INFO(shown.out);
    CHECK(shown.status == 0);
    CHECK(shown.out.find("anchors resolved") != std::string::npos);
    CHECK(shown.out.find("\r\x1b[K") != std::string::npos);  // erased once resolved
    CHECK(shown.out.find("2/2") == std::string::npos);
}

namespace {

// A symbol called from its own language, other code, documentation, an untracked file and an
// ignored one.
struct Callers {
    Repo repo;
    std::string base;

    Callers() {
        repo.write("src/own.c", "int target_fn(void) { return 1; }\n");
        repo.write("src/use.c", "int a(void) { return target_fn(); }\n");
        repo.write("tools/gen.py", "print('target_fn')\n");
        repo.write("docs/guide.md", "Call target_fn first.\n");
        repo.write(".gitignore", "build/\n");
        base = repo.commit();
        repo.write("src/new_use.c", "int b(void) { return target_fn(); }\n");  // untracked
        repo.write("build/gen.c", "int c(void) { return target_fn(); }\n");    // ignored
    }
    cptest::Output run(const std::string& args) const {
        return context_pack(repo.dir(),
                            "--base " + base + " --anchor src/own.c:1@target_fn " + args);
    }
    nlohmann::json callers(const std::string& args) const {
        auto o = run("--format json " + args);
        INFO(o.err);
        REQUIRE(o.status == 0);
        return nlohmann::json::parse(o.out)["specs"][0]["callers"][0];
    }
};

std::vector<std::string> hit_paths(const nlohmann::json& callers) {
    std::vector<std::string> out;
    for (const auto& h : callers["hits"]) out.push_back(h["path"].get<std::string>());
    return out;
}

}  // namespace

TEST_CASE("callers in the working tree: untracked files too, ignored ones not, grouped") {
    Callers c;
    auto all = c.callers("");
    CHECK(hit_paths(all) ==
          std::vector<std::string>{"src/new_use.c", "src/use.c", "tools/gen.py", "docs/guide.md"});
    CHECK(all["language"] == nlohmann::json::array({".c", ".h"}));
    CHECK(all["groups"] == nlohmann::json::parse(R"([{"group": "language", "hits": 2, "files": 2},
        {"group": "code", "hits": 1, "files": 1}, {"group": "docs", "hits": 1, "files": 1}])"));
    CHECK(all["hits"][2]["group"] == "code");
    CHECK(all["files_searched"] == 6);  // .gitignore, 4 tracked and 1 untracked; build/ not

    auto text = c.run("");
    CHECK(text.out.find("== callers of target_fn: 4 hits in 4 files at target (same language "
                        "(.c/.h) 2, other code 1, docs and test data 1); 1 more in its own windows "
                        "==\n"
                        "-- same language (.c/.h) --\n"
                        "src/new_use.c:1: int b(void) { return target_fn(); }\n"
                        "src/use.c:1: int a(void) { return target_fn(); }\n"
                        "-- other code --\n"
                        "tools/gen.py:1: print('target_fn')\n"
                        "-- docs and test data --\n"
                        "docs/guide.md:1: Call target_fn first.\n") != std::string::npos);

    // A commit target has no untracked files.
    c.repo.write("src/new_use.c", "int b(void) { return target_fn(); }\n");
    auto at_base = c.callers("--target " + c.base);
    CHECK(hit_paths(at_base) ==
          std::vector<std::string>{"src/use.c", "tools/gen.py", "docs/guide.md"});
}

TEST_CASE("callers: definitions, declarations and comments are marked apart from uses") {
    Repo repo;
    repo.write("plan.c", "int main(void)\n{\n\treturn widget(3);\n}\n");
    repo.write("widget.c", "/* widget draws one */\nint widget(int n)\n{\n\treturn n;\n}\n");
    repo.write("widget.h", "int widget(int n);\n");
    repo.write("use.c", "void f(void)\n{\n\twidget(1);\n}\n");
    const std::string base = repo.commit();
    auto text =
        context_pack(repo.dir(), "--color never --base " + base + " --anchor plan.c:3@widget");
    REQUIRE(text.status == 0);
    CHECK(text.out.find("use.c:3: \twidget(1);") != std::string::npos);
    CHECK(text.out.find("widget.c:1: [comment] /* widget draws one */") != std::string::npos);
    CHECK(text.out.find("widget.c:2: [definition] int widget(int n)") != std::string::npos);
    CHECK(text.out.find("widget.h:1: [declaration] int widget(int n);") != std::string::npos);
    auto json =
        context_pack(repo.dir(), "--format json --base " + base + " --anchor plan.c:3@widget");
    const auto doc = nlohmann::json::parse(json.out);
    std::map<std::string, std::string> roles;
    for (const auto& h : doc["specs"][0]["callers"][0]["hits"])
        roles[h["path"].get<std::string>() + ":" + std::to_string(h["line"].get<int>())] =
            h["role"];
    CHECK(roles == std::map<std::string, std::string>{{"use.c:3", "use"},
                                                      {"widget.c:1", "comment"},
                                                      {"widget.c:2", "definition"},
                                                      {"widget.h:1", "declaration"}});
}

TEST_CASE("callers: --callers-in narrows the search to directories and globs") {
    Callers c;
    CHECK(hit_paths(c.callers("--callers-in src")) ==
          std::vector<std::string>{"src/new_use.c", "src/use.c"});
    CHECK(hit_paths(c.callers("--callers-in 'tools/*' --callers-in docs/")) ==
          std::vector<std::string>{"tools/gen.py", "docs/guide.md"});
    CHECK(c.callers("--callers-in build")["hits"].empty());  // ignored stays ignored
    CHECK(c.callers("--callers-in nowhere")["files_searched"] == 0);
    // The pointer that lifts --max-callers keeps the restriction.
    auto capped = c.run("--callers-in src --max-callers 1");
    CHECK(capped.out.find("--callers-in src --only 1 --max-callers 2 lists them all") !=
          std::string::npos);
    for (const char* bad : {"':!src'", "/abs", "../up", "''"}) {
        INFO(bad);
        auto o = c.run(std::string("--callers-in ") + bad);
        CHECK(o.status == 2);
        CHECK(o.out.empty());
        CHECK(o.err.starts_with("context-pack: --callers-in "));
        CHECK(std::count(o.err.begin(), o.err.end(), '\n') == 1);
    }
}

TEST_CASE(
    "callers: listed for the anchors whose code is at the target, not for one GONE or "
    "whose lines were all deleted") {
    Repo repo;
    repo.write("a.c",
               "int alive_fn(void)\n{\n\treturn 1;\n}\n\nint dead_fn(void)\n{\n\treturn 2;\n}\n");
    repo.write("gone.c", "int gone_fn(void)\n{\n\treturn 3;\n}\n");
    repo.write("calls.c", "int c(void) { return alive_fn() + dead_fn() + gone_fn(); }\n");
    auto base = repo.commit("base");
    repo.write("a.c", "int alive_fn(void)\n{\n\treturn 1;\n}\n");
    repo.remove("gone.c");
    repo.commit("dead_fn and gone.c deleted");
    auto o = context_pack(repo.dir(), "--format json --base " + base +
                                          " --target HEAD --anchor a.c:1-4@alive_fn"
                                          " --anchor a.c:6-9@dead_fn --anchor gone.c:1-4@gone_fn");
    INFO(o.err);
    REQUIRE(o.status == 1);
    auto spec = nlohmann::json::parse(o.out)["specs"][0];
    CHECK(spec["anchors"][1]["lines_deleted"] == true);
    CHECK(spec["anchors"][2]["status"] == "GONE");
    REQUIRE(spec["callers"].size() == 1);
    CHECK(spec["callers"][0]["symbol"] == "alive_fn");
}

TEST_CASE("max lines: the JSON leaves out the windows and caller lists the text leaves out") {
    // One planning step decides the cuts for both: swept over caps from one line to past the
    // whole pack, the text's pointers and the document's cut markers name the same blocks.
    Plan p;
    std::size_t cutting = 0, whole = 0;
    for (int cap : {1, 3, 8, 20, 60, 105, 112, 118, 130, 200, 1000}) {
        INFO("--max-lines " << cap);
        const std::string caps =
            " --max-lines " + std::to_string(cap) + " --max-callers 20 --no-color plan.json";
        const auto text = p.run(caps);
        const auto json = p.run("--format json" + caps);
        const auto doc = nlohmann::json::parse(json.out);
        const auto& spec = doc["specs"][0];
        std::size_t windows_cut = 0, callers_cut = 0;
        auto by_cap = [](const nlohmann::json& block) {  // null where nothing was cut
            return block["cut"].is_object() && block["cut"]["by"] == "max_lines";
        };
        for (const auto& w : spec["windows"]) windows_cut += by_cap(w);
        for (const auto& c : spec["callers"]) callers_cut += by_cap(c);
        auto pointers = [&](const std::string& what) -> std::size_t {
            // "… 2 windows not shown (over --max-lines 8); print one with:"
            const std::regex said("… (\\d+) " + what + "s? not shown \\(over --max-lines");
            std::smatch m;
            return std::regex_search(text.out, m, said) ? std::stoul(m[1]) : 0;
        };
        CHECK(pointers("window") == windows_cut);
        CHECK(pointers("caller list") == callers_cut);
        if (windows_cut + callers_cut == 0) CHECK(text.out.find("not shown") == std::string::npos);
        ++(windows_cut + callers_cut ? cutting : whole);
    }
    CHECK(cutting >= 3);  // the sweep cut some blocks, and at its top none
    CHECK(whole >= 1);
}
