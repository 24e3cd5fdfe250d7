// Rows of docs/bad-input.md where the tool once gave a wrong answer or a wrong diagnosis
// (issue 13): each fixture is built with the git CLI and the answer compared with git's.
#include <string>

#include "support/catch.hpp"
#include "support/fixture.hpp"

using cptest::context_pack;
using cptest::Output;
using cptest::q;
using cptest::Repo;

namespace {

Output anchor(const Repo& repo, const std::string& base, const std::string& anchor,
              const std::string& extra = "") {
    return context_pack(repo.dir(), extra + " --table --base " + base + " --anchor " + q(anchor));
}

bool has(const Output& o, const std::string& text) {
    return o.out.find(text) != std::string::npos;
}

// Writes `count` files dir/<prefix>N.c of distinct content, all in one shell call.
void write_many(const Repo& repo, const std::string& dir, const std::string& prefix, int count) {
    auto made = cptest::sh("cd " + q(repo.dir()) + " && mkdir -p " + dir +
                           " && i=0; while [ $i -lt " + std::to_string(count) + " ]; do printf '" +
                           prefix + " %s\\nsecond line of %s\\n' $i $i > " + dir + "/" + prefix +
                           "$i.c; i=$((i+1)); done");
    REQUIRE(made.status == 0);
}

}  // namespace

TEST_CASE("bad input B60: rename detection over diff.renameLimit") {
    Repo repo;
    repo.write("a.c", cptest::numbered(10));
    repo.write("e.txt", cptest::numbered(6, "E"));
    for (int i = 1; i <= 3; ++i)
        repo.write("x" + std::to_string(i) + ".c", cptest::numbered(8, "X" + std::to_string(i)));
    auto base = repo.commit("base");
    repo.git("config diff.renameLimit 2");
    // a.c renamed with lines 2-3 edited (so only rename detection can find it), e.txt renamed
    // as it is, three unrelated files replaced by three others: 4 x 4 candidates over 2 x 2.
    repo.git("mv a.c moved.c");
    repo.write("moved.c", "L1\nl2 edited\nl3 edited\nL4\nL5\nL6\nL7\nL8\nL9\nL10\n");
    repo.git("mv e.txt f.txt");
    for (int i = 1; i <= 3; ++i) {
        repo.remove("x" + std::to_string(i) + ".c");
        repo.write("y" + std::to_string(i) + ".c", cptest::numbered(8, "Y" + std::to_string(i)));
    }
    repo.git("add -A");

    // git skips inexact detection and advises 4; it still finds the exact rename.
    auto git = repo.git_status("diff -M --name-status " + base + " 2>&1");
    CHECK(git.out.find("D\ta.c") != std::string::npos);
    CHECK(git.out.find("R100\te.txt\tf.txt") != std::string::npos);
    CHECK(git.out.find("diff.renameLimit variable to at least 4") != std::string::npos);

    auto o = anchor(repo, base, "a.c:2-3");
    INFO(o.out << o.err);
    CHECK(has(o, "GONE"));
    CHECK(has(o,
              "rename detection was skipped, as 4 deleted x 4 added files are over "
              "diff.renameLimit 2 squared"));
    CHECK(has(o, "git config diff.renameLimit 4"));
    CHECK(!has(o, "no file of similar content found"));
    auto exact = anchor(repo, base, "e.txt:2");
    INFO(exact.out);
    CHECK(has(exact, "f.txt:2"));

    // Between two commits, whichever handle reads them, the same.
    auto target = repo.commit("renamed");
    auto committed = anchor(repo, base, "a.c:2-3", "--target " + target);
    INFO(committed.out << committed.err);
    CHECK(has(committed, "are over diff.renameLimit 2 squared"));
    CHECK(has(committed, "git config diff.renameLimit 4"));

    // The advised limit suffices, for git and for the tool; 0 is no limit, as in git.
    for (const char* limit : {"4", "0"}) {
        repo.git(std::string("config diff.renameLimit ") + limit);
        auto renamed = repo.git_status("diff -M --name-status " + base + " 2>&1");
        CHECK(renamed.out.find("\ta.c\tmoved.c") != std::string::npos);
        auto carried = anchor(repo, base, "a.c:2-3");
        INFO(limit << ": " << carried.out);
        CHECK(has(carried, "moved.c:2-3"));
        CHECK(!has(carried, "GONE"));
    }
}

TEST_CASE("bad input B61: rename detection over the default limit of 1000") {
    Repo repo;
    write_many(repo, "d", "f", 1001);
    auto base = repo.commit("base");
    repo.git("rm -q -r d");
    write_many(repo, "g", "h", 1001);
    repo.commit("replaced");
    auto git = repo.git_status("diff -M --name-status " + base + " HEAD 2>&1");
    CHECK(git.out.find("diff.renameLimit variable to at least 1001") != std::string::npos);

    auto o = anchor(repo, base, "d/f7.c:1", "--target HEAD");
    INFO(o.out << o.err);
    CHECK(has(o, "GONE"));
    CHECK(has(o, "as 1001 deleted x 1001 added files are over diff.renameLimit 1000 squared"));
    CHECK(has(o, "git config diff.renameLimit 1001"));
}

TEST_CASE("bad input B62: a sparse checkout's files outside the cone") {
    for (const char* mode : {"--cone", "--no-cone"}) {
        INFO(mode);
        Repo repo;
        repo.write("dir/in.c", cptest::numbered(10, "D"));
        repo.write("other/out.c", "int outside_fn(void);\nint x;\nint y;\n");
        auto base = repo.commit("base");
        repo.git(std::string("sparse-checkout set ") + mode + " dir");
        repo.write("dir/in.c", "D1\nD2 edited\nD3\nD4\nD5\nD6\nD7\nD8\nD9\nD10\n");
        // Outside the cone the file is not on disk, its entry skip-worktree; git shows it
        // unchanged and the edit inside the cone alone.
        REQUIRE(cptest::slurp(repo.at("other/out.c")).empty());
        CHECK(repo.git("ls-files -t other/out.c") == "S other/out.c\n");
        CHECK(repo.git("diff --name-status " + base) == "M\tdir/in.c\n");

        auto o = context_pack(
            repo.dir(), "--table --base " + base + " --anchor other/out.c:1 --anchor dir/in.c:2",
            "");
        INFO(o.out << o.err);
        CHECK(o.out.find("1  read  other/out.c:1  SAME") != std::string::npos);
        CHECK(o.out.find("GONE") == std::string::npos);
        CHECK(o.out.find("2  read  dir/in.c:2     SAME") == std::string::npos);

        // The symbol check and the window read the entry's content, which is the base's.
        auto spec = R"({"base": ")" + base +
                    R"(", "reads": [{"location": {"path": "other/out.c", "line": 1, )"
                    R"("symbol": "outside_fn"}}]})";
        auto checked = context_pack(repo.dir(), "-", spec);
        INFO(checked.out << checked.err);
        CHECK(checked.out.find("SAME    other/out.c:1  outside_fn found") != std::string::npos);
        CHECK(checked.out.find("> 1 | int outside_fn(void);\n  2 | int x;") != std::string::npos);
        CHECK(checked.out.find("no readable file at target") == std::string::npos);
    }
}

TEST_CASE("bad input B63: a file deleted from the index but left on disk (git rm --cached)") {
    Repo repo;
    repo.write("a.c", cptest::numbered(10));
    auto base = repo.commit("base");
    repo.git("rm -q --cached a.c");
    // git diff BASE shows a deletion; git status, the deletion and the untracked file.
    CHECK(repo.git("diff --name-status " + base) == "D\ta.c\n");
    CHECK(repo.git("status --porcelain") == "D  a.c\n?? a.c\n");

    auto o = anchor(repo, base, "a.c:2");
    INFO(o.out << o.err);
    CHECK(has(o, "1  read  a.c:2    SAME    a.c:2"));
    CHECK(has(o, "a.c deleted from the index (as by git rm --cached); still on disk, untracked"));
    CHECK(!has(o, "no file of similar content found"));

    // Edited on disk as well: carried through the edit.
    repo.write("a.c", "L1\nL2\nL3\nL4\nL5 edited\nL6\nL7\nL8\nL9\nL10\n");
    auto edited = anchor(repo, base, "a.c:5");
    INFO(edited.out);
    CHECK(has(edited, "1  read  a.c:5    TOUCHED  a.c:5"));

    // Ignored, it is no longer untracked (git status does not list it): still gone.
    repo.write(".gitignore", "a.c\n");
    CHECK(repo.git("status --porcelain") == "D  a.c\n?? .gitignore\n");
    auto ignored = anchor(repo, base, "a.c:2");
    INFO(ignored.out);
    CHECK(has(ignored, "GONE"));
}

TEST_CASE("bad input B64: a diff.renameLimit that is not a number") {
    Repo repo;
    repo.write("a.c", cptest::numbered(10));
    auto base = repo.commit("base");
    repo.git("config diff.renameLimit lots");
    repo.git("mv a.c b.c");
    // git refuses to diff at all; the tool, when it has renames to look for.
    auto git = repo.git_status("diff --name-status " + base + " 2>&1");
    CHECK(git.status != 0);
    CHECK(git.out.find("bad numeric config value 'lots' for 'diff.renamelimit'") !=
          std::string::npos);
    auto o = anchor(repo, base, "a.c:2");
    INFO(o.out << o.err);
    CHECK(o.status == 2);
    CHECK(o.out.empty());
    CHECK(o.err ==
          "context-pack: diff.renameLimit is not an integer, and git refuses it too; fix it with "
          "git config diff.renameLimit 1000\n");
}
