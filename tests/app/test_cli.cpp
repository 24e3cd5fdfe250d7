// The binary as a user runs it: inputs (files, .jsonl, stdin, --anchor), options, output
// formats, and SPEC §5's exit statuses with one-line messages on stderr.
#include <unistd.h>

#include "support/catch.hpp"
#include "support/fixture.hpp"

using cptest::context_pack;
using cptest::numbered;
using cptest::q;
using cptest::Repo;

namespace {

// A repository whose working tree moved one anchor and deleted another file.
struct Drifted {
    Repo repo;
    std::string base;
    cptest::TempDir specs;

    Drifted() {
        repo.write("a.c", numbered(20));
        repo.write("b.c", "int b;\n");
        base = repo.commit();
        repo.write("a.c", "// new\n" + numbered(20));
    }

    std::string spec(const std::string& name, const std::string& body) const {
        auto path = specs.path() + "/" + name;
        cptest::sh("cat > " + q(path), body);
        return path;
    }

    std::string ok_spec() const {
        return R"({"id": "ok", "base": ")" + base +
               R"(", "file_changes": [{"location": {"path": "a.c", "line": 3, "end_line": 4,
                 "symbol": "L3"}, "change": "c"}]})";
    }
};

}  // namespace

TEST_CASE("exit 0: every anchor resolved and every symbol found") {
    Drifted d;
    auto o = context_pack(d.repo.dir(), q(d.spec("p.json", d.ok_spec())));
    INFO(o.err);
    CHECK(o.status == 0);
    CHECK(o.err.empty());
    CHECK(o.out.find("ok (") == 0);
    CHECK(o.out.find("1 MOVED") != std::string::npos);
    CHECK(o.out.find("a.c:3-4") != std::string::npos);
    CHECK(o.out.find("a.c:4-5") != std::string::npos);
}

TEST_CASE("a NEW anchor in a file at the target has a window and coordinates in every format") {
    Drifted d;
    d.repo.write("n.c", numbered(4, "new "));  // untracked
    std::string args = "--base " + d.base + " --anchor n.c:2-3";
    auto text = context_pack(d.repo.dir(), args);
    INFO(text.err);
    CHECK(text.status == 0);
    CHECK(text.out.find("== n.c:1-4 ==") != std::string::npos);
    CHECK(text.out.find("#1 --anchor[0] NEW n.c:2-3, at base n.c:2-3") != std::string::npos);
    CHECK(text.out.find("> 2 | new 2") != std::string::npos);
    auto json = context_pack(d.repo.dir(), args + " --format json");
    CHECK(json.out.find(R"("to": {
            "path": "n.c",
            "line": 2,
            "end_line": 3
          })") != std::string::npos);
    CHECK(json.out.find(R"("window": 0)") != std::string::npos);
    auto jsonl = context_pack(d.repo.dir(), args + " --format jsonl");
    CHECK(jsonl.out.find(R"("to":{"path":"n.c","line":2,"end_line":3})") != std::string::npos);
    auto qf = context_pack(d.repo.dir(), args + " --format quickfix");
    CHECK(qf.out.find("n.c:2:1: note: NEW --anchor[0] (spec ; at base n.c:2-3; now n.c:2-3)") == 0);
}

TEST_CASE("exit 1: the table is printed and an anchor is GONE, UNRESOLVED or SYMBOL_MISSING") {
    Drifted d;
    d.repo.remove("b.c");
    for (const char* anchor : {"b.c:1", "a.c:30", "a.c:3@nothere"}) {
        INFO(anchor);
        auto o = context_pack(d.repo.dir(), "--base " + d.base + " --anchor " + q(anchor));
        CHECK(o.status == 1);
        CHECK(o.err.empty());
        CHECK(o.out.find(std::string(anchor).substr(0, 3)) != std::string::npos);
    }
}

TEST_CASE("exit 1: an anchor whose lines were all deleted, though TOUCHED") {
    Drifted d;
    std::string text = numbered(20);
    text.erase(text.find("L5\n"), std::string("L5\nL6\n").size());  // lines 5-6 deleted
    text.replace(text.find("L9\n"), 3, "L9 edited\n");              // line 9 edited
    d.repo.write("a.c", text);
    auto deleted = context_pack(d.repo.dir(), "--table --base " + d.base + " --anchor a.c:5-6");
    INFO(deleted.out);
    CHECK(deleted.out.find("TOUCHED") != std::string::npos);
    CHECK(deleted.status == 1);
    auto edited = context_pack(d.repo.dir(), "--table --base " + d.base + " --anchor a.c:8-10");
    CHECK(edited.out.find("TOUCHED") != std::string::npos);
    CHECK(edited.status == 0);
}

TEST_CASE("exit 2 with one line on stderr: the command could not run") {
    Drifted d;
    cptest::TempDir not_repo;
    struct Case {
        std::string dir, args, input, message;
    };
    const std::vector<Case> cases = {
        {d.repo.dir(), "", "", "nothing to resolve"},
        {d.repo.dir(), "--no-such-flag", "", "see context-pack --help"},
        {d.repo.dir(), "--format yaml x.json", "", "--format"},
        {d.repo.dir(), "missing.json", "", "cannot read spec file missing.json"},
        {d.repo.dir(), q(d.specs.path()), "", "is a folder with no .json or .jsonl spec files"},
        {d.repo.dir(), "-", "{", "<stdin>: invalid JSON"},
        {d.repo.dir(), "-", R"({"file_changes": []})", "the spec has no base"},
        {d.repo.dir(), "--anchor a.c:1", "", "--anchor needs --base"},
        {d.repo.dir(), "--base HEAD --anchor a.c", "", "--anchor 'a.c': no :LINE"},
        {d.repo.dir(), "--base HEAD --anchor a.c:1 --target nope", "", "--target nope"},
        {not_repo.path(), "--base HEAD --anchor a.c:1", "", "not a git repository"},
        {d.repo.dir(), "-C " + q(not_repo.path()) + " --base HEAD --anchor a.c:1", "",
         "not a git repository"},
    };
    for (const auto& c : cases) {
        INFO(c.args);
        auto o = context_pack(c.dir, c.args, c.input);
        INFO(o.err);
        CHECK(o.status == 2);
        CHECK(o.out.empty());
        CHECK(o.err.starts_with("context-pack: "));
        CHECK(o.err.find(c.message) != std::string::npos);
        CHECK(std::count(o.err.begin(), o.err.end(), '\n') == 1);
    }
}

TEST_CASE("several spec files, .jsonl and stdin make one report in input order") {
    Drifted d;
    auto one = d.spec("one.json", d.ok_spec());
    auto many = d.spec("many.jsonl", "{\"id\": \"j1\", \"base\": \"" + d.base +
                                         "\", \"reads\": [{\"location\": {\"path\": \"b.c\", "
                                         "\"line\": 1}}]}\n\n{\"id\": \"j2\", \"base\": \"" +
                                         d.base + "\"}\n");
    auto o = context_pack(d.repo.dir(), q(one) + " " + q(many) + " - --format json",
                          R"({"id": "stdin", "base": "HEAD"})");
    INFO(o.err);
    REQUIRE(o.status == 0);
    auto ids = std::vector<std::string>{"\"ok\"", "\"j1\"", "\"j2\"", "\"stdin\""};
    std::size_t last = 0;
    for (const auto& id : ids) {
        auto pos = o.out.find("\"id\": " + id);
        CHECK(pos != std::string::npos);
        CHECK(pos >= last);
        last = pos;
    }
    CHECK(o.out.find(many + ":3") != std::string::npos);  // a jsonl spec names its line
}

TEST_CASE("option C picks the repository and spec paths stay relative to the caller") {
    Drifted d;
    auto path = d.spec("p.json", d.ok_spec());
    auto o = cptest::sh("cd " + q(d.specs.path()) + " && " + q(cptest::binary()) + " -C " +
                        q(d.repo.dir()) + " p.json");
    INFO(o.err);
    CHECK(o.status == 0);
    CHECK(o.out.find("MOVED") != std::string::npos);
}

TEST_CASE("target option resolves onto a commit and the table option prints the table") {
    Drifted d;
    auto o = context_pack(
        d.repo.dir(), "--table --target " + d.base + " --base " + d.base + " --anchor a.c:3-4@L3");
    CHECK(o.status == 0);
    CHECK(o.out.find("-> target " + d.base.substr(0, 10)) != std::string::npos);
    CHECK(o.out.find("SAME") != std::string::npos);
}

TEST_CASE("help and version exit 0") {
    auto help = context_pack(".", "--help");
    CHECK(help.status == 0);
    CHECK(help.out.find("--anchor") != std::string::npos);
    CHECK(help.out.find("Exit status") != std::string::npos);
    auto version = context_pack(".", "--version");
    CHECK(version.status == 0);
    CHECK(version.out.find("context-pack ") == 0);
    CHECK(version.out.find("libgit2 1.") != std::string::npos);
}

TEST_CASE("the tool never writes to the repository") {
    Drifted d;
    d.repo.git("mv b.c c.c");
    d.repo.write("untracked.c", "int b;\n");
    auto before = cptest::tree_snapshot(d.repo.dir());
    auto o = context_pack(d.repo.dir(), "--base " + d.base + " --anchor b.c:1 --anchor a.c:2");
    CHECK(o.status == 0);
    CHECK(cptest::tree_snapshot(d.repo.dir()) == before);
    CHECK_FALSE(cptest::sh("test -e " + q(d.repo.at(".git/index.lock"))).status == 0);
}

TEST_CASE(
    "repositories libgit2 needs help with: worktreeConfig, linked worktrees, a held "
    "index.lock") {
    Drifted d;
    auto run = [&](const std::string& dir) {
        return context_pack(dir, "--base " + d.base + " --anchor a.c:3");
    };
    SECTION("extensions.worktreeConfig") {
        d.repo.git("config core.repositoryformatversion 1");
        d.repo.git("config extensions.worktreeConfig true");
        auto o = run(d.repo.dir());
        INFO(o.err);
        CHECK(o.status == 0);
        CHECK(o.out.find("a.c:4") != std::string::npos);
    }
    SECTION("a linked worktree reads its own working tree") {
        cptest::TempDir parent;
        auto wt = parent.path() + "/wt";
        d.repo.git("worktree add -q " + q(wt));
        cptest::sh("printf 'x\\ny\\n' | cat - " + q(wt + "/a.c") + " > " + q(wt + "/n") +
                   " && mv " + q(wt + "/n") + " " + q(wt + "/a.c"));
        auto o = run(wt);
        INFO(o.err);
        CHECK(o.status == 0);
        CHECK(o.out.find("a.c:5") != std::string::npos);  // base + 2 lines in the worktree
        d.repo.git("worktree remove --force " + q(wt));
    }
    SECTION("index.lock held by another process is left alone") {
        cptest::sh("touch " + q(d.repo.at(".git/index.lock")));
        auto o = run(d.repo.dir());
        CHECK(o.status == 0);
        CHECK(cptest::sh("test -e " + q(d.repo.at(".git/index.lock"))).status == 0);
    }
}

TEST_CASE("a repository owned by another user is refused with the safe.directory mend") {
    if (geteuid() != 0) {
        WARN("needs root to hand a fixture to another user; run the suite as root to cover it");
        return;
    }
    Drifted d;
    REQUIRE(cptest::sh("chown -R nobody " + q(d.repo.dir())).status == 0);
    auto o = context_pack(d.repo.dir(), "--base " + d.base + " --anchor a.c:3");
    CHECK(o.status == 2);
    CHECK(o.err.find("is owned by another user") != std::string::npos);
    CHECK(o.err.find("git config --global --add safe.directory " + d.repo.dir()) !=
          std::string::npos);
}
