// The side files libgit2 opens by itself (.gitattributes, .gitignore, info/attributes,
// info/exclude): one in the work tree that is a symlink is passed by, as git passes it, with
// the libgit2 built here (refused on one line with a system libgit2, which would follow it);
// a FIFO or a device is refused on one line; none is followed out of the tree or waited on;
// regular ones work as before. Rows B50-B54 of docs/bad-input.md. Every run has a 20-second
// limit, so a blocking open fails the test.
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <fstream>

#include "context_pack/git/build_config.hpp"
#include "support/catch.hpp"
#include "support/fixture.hpp"

using cptest::Output;
using cptest::q;
using cptest::Repo;

namespace {

// A repository beside a directory outside it (`outside`), whose files hostile links name.
struct Fixture {
    cptest::TempDir outside;
    Repo repo;
    std::string base;

    Fixture() {
        repo.write("a.c", cptest::numbered(10));
        repo.write("dir/b.c", cptest::numbered(10, "B"));
        write_outside("rules", "* -diff\n*.c -diff\n* export-ignore\n");
        write_outside("ignore-all", "*\n");
        base = repo.commit();
    }
    void write_outside(const std::string& name, const std::string& text) const {
        std::ofstream(outside.path() + "/" + name) << text;
    }
    void link(const std::string& rel, const std::string& target) const {
        cptest::sh("cd " + q(repo.dir()) + " && ln -s " + q(target) + " " + q(rel));
    }
    void fifo(const std::string& path) const { ::mkfifo(path.c_str(), 0600); }
    Output run(const std::string& args) const {
        return cptest::sh("cd " + q(repo.dir()) + " && " + q(cptest::binary()) +
                              " --table --base " + base + " " + args,
                          "", std::chrono::seconds(20));
    }
};

// One line on stderr, exit 2, nothing printed: never a hang (the limit's 124), never a binary.
void refused(const Output& o, const std::string& message) {
    INFO(o.out << o.err);
    CHECK(o.status == 2);
    CHECK(o.out.empty());
    CHECK(o.err.find(message) != std::string::npos);
    CHECK(std::count(o.err.begin(), o.err.end(), '\n') == 1);
    CHECK(o.err.find("binary") == std::string::npos);
}

void touched(const Output& o, const std::string& anchor) {
    INFO(o.out << o.err);
    CHECK(o.status == 0);
    CHECK(o.out.find("read  " + anchor) != std::string::npos);
    CHECK(o.out.find("TOUCHED") != std::string::npos);
    CHECK(o.out.find("binary") == std::string::npos);
}

// A symlinked .gitattributes passed by: the anchor read as text (TOUCHED, never "binary" from
// the rules it leads to), with a note naming the link; or, with a system libgit2, `refusal`.
void passed_by(const Output& o, const std::string& anchor, const std::string& link,
               const std::string& refusal) {
    if (!CONTEXT_PACK_TREE_SYMLINKS_IGNORED) return refused(o, refusal);
    touched(o, anchor);
    CHECK(o.out.find(link + " is a symlink, which git passes by since 2.32: its rules were not "
                            "read") != std::string::npos);
}

}  // namespace

TEST_CASE("bad input B50: a committed .gitattributes that is a symlink out of the tree") {
    Fixture f;
    f.link(".gitattributes", f.outside.path() + "/rules");
    f.repo.commit();
    f.base = f.repo.head();
    f.repo.write("a.c", "L1\nL2\nthree\nL4\nL5\nL6\nL7\nL8\nL9\nL10\n");
    const std::string why =
        ".gitattributes is a symlink; git ignores such a .gitattributes "
        "since 2.32, libgit2 would follow it: remove it from the work tree "
        "(rm .gitattributes) or make it a regular file";
    // git reads the change as text too: the outside rules' -diff is not obeyed.
    CHECK(f.repo.git("diff --numstat -- a.c").starts_with("1\t1\t"));
    passed_by(f.run("--anchor a.c:2-4"), "a.c:2-4", ".gitattributes", why);
    // Between two commits the work tree's attributes still count, as in git diff A B: passed
    // by (or refused) the same.
    f.repo.commit();
    passed_by(f.run("--target HEAD --anchor a.c:2-4"), "a.c:2-4", ".gitattributes", why);
    // An anchor in a file unchanged is noted too; with the link gone, no note.
    if (CONTEXT_PACK_TREE_SYMLINKS_IGNORED) {
        auto same = f.run("--target HEAD --anchor dir/b.c:2");
        CHECK(same.status == 0);
        CHECK(same.out.find(".gitattributes is a symlink") != std::string::npos);
    }
    f.repo.remove(".gitattributes");
    auto o = f.run("--target HEAD --anchor a.c:2-4");
    touched(o, "a.c:2-4");
    CHECK(o.out.find("is a symlink") == std::string::npos);

    SECTION("in a directory on the way, untracked") {
        f.link("dir/.gitattributes", "../../rules-elsewhere");
        f.repo.write("dir/b.c", "B1\nchanged\nB3\nB4\nB5\nB6\nB7\nB8\nB9\nB10\n");
        passed_by(f.run("--anchor dir/b.c:2"), "dir/b.c:2", "dir/.gitattributes",
                  "dir/.gitattributes is a symlink");
        // It concerns the files beneath its directory alone.
        auto outside_dir = f.run("--anchor a.c:2");
        CHECK(outside_dir.out.find("is a symlink") == std::string::npos);
    }
}

TEST_CASE("bad input B50: a committed .gitattributes link whose target reads as rules") {
    // A symlink's blob is the path it names, here "* -diff". git diff passes by the link on
    // disk and reads the index's blob instead, as rules: a.c is binary to it. The tool
    // agrees, as its diff does what git's does, and still notes the link.
    Fixture f;
    f.link(".gitattributes", "* -diff");
    f.base = f.repo.commit();
    f.repo.write("a.c", "L1\nL2\nthree\nL4\nL5\nL6\nL7\nL8\nL9\nL10\n");
    CHECK(f.repo.git("diff --numstat -- a.c").starts_with("-\t-\t"));
    auto o = f.run("--anchor a.c:2-4");
    if (!CONTEXT_PACK_TREE_SYMLINKS_IGNORED)
        return refused(o, ".gitattributes is a symlink; git ignores such a .gitattributes");
    INFO(o.out << o.err);
    CHECK(o.status == 1);
    CHECK(o.out.find("binary file a.c changed") != std::string::npos);
    CHECK(o.out.find(".gitattributes is a symlink, which git passes by") != std::string::npos);
}

TEST_CASE("bad input B51: a .gitattributes that is, or points at, a FIFO") {
    Fixture f;
    f.fifo(f.outside.path() + "/pipe");
    f.repo.write("dir/b.c", cptest::numbered(10, "b"));

    SECTION("a committed symlink to a FIFO outside") {
        f.link(".gitattributes", f.outside.path() + "/pipe");
        f.repo.commit();
        // Passed by without an open (or refused): never waited on.
        passed_by(f.run("--anchor dir/b.c:2"), "dir/b.c:2", ".gitattributes",
                  ".gitattributes is a symlink");
        passed_by(f.run("--target HEAD --anchor dir/b.c:2"), "dir/b.c:2", ".gitattributes",
                  ".gitattributes is a symlink");
    }
    SECTION("a FIFO in a nested directory of the work tree") {
        f.repo.write("dir/deep/c.c", "int c;\n");
        f.base = f.repo.commit();
        f.repo.write("dir/deep/c.c", "int d;\n");
        f.fifo(f.repo.at("dir/deep/.gitattributes"));
        refused(f.run("--anchor dir/deep/c.c:1"),
                "dir/deep/.gitattributes is a FIFO, which libgit2 would open as a "
                ".gitattributes and wait on forever: remove it (rm dir/deep/.gitattributes)");
        // A path whose directories hold no such file is not refused.
        f.repo.write("a.c", cptest::numbered(9));
        CHECK(f.run("--anchor a.c:2").status == 0);
    }
}

TEST_CASE("bad input B51: a directory on the way that is a symlink to a .gitattributes FIFO") {
    Fixture f;
    f.fifo(f.outside.path() + "/.gitattributes");
    const std::string first = f.base;
    f.repo.write("dir/b.c", cptest::numbered(10, "b"));
    f.repo.commit();
    cptest::sh("rm -r " + q(f.repo.at("dir")));
    f.link("dir", f.outside.path());
    // Between commits, the work tree's attributes would be read through it.
    f.base = first;
    refused(f.run("--target HEAD --anchor dir/b.c:2"),
            "dir is a symlink in the work tree, through which libgit2 would read "
            "dir/.gitattributes: remove it (rm dir)");
    // In the working tree, the path is reached through a symlink, as before; nothing is read.
    auto o = f.run("--anchor dir/b.c:2");
    INFO(o.out << o.err);
    CHECK(o.status == 1);
    CHECK(o.out.find("reached through the symlink dir") != std::string::npos);
    f.repo.git("config core.ignorecase true");  // libgit2's own diff: the same
    o = f.run("--anchor dir/b.c:2");
    CHECK(o.status == 1);
    CHECK(o.out.find("reached through the symlink dir") != std::string::npos);
}

TEST_CASE("bad input B52: a .gitignore that is a symlink or a FIFO, in a subdirectory") {
    Fixture f;
    // a.c moved to sub/new.c, untracked: a rename only if sub/new.c is not ignored, which
    // needs the whole diff and so the ignore rules.
    f.repo.write("sub/kept.c", "int kept;\n");
    f.base = f.repo.commit();
    f.repo.remove("a.c");
    f.repo.write("sub/new.c", cptest::numbered(10));

    SECTION("a committed symlink out of the tree") {
        f.link("sub/.gitignore", f.outside.path() + "/ignore-all");
        f.repo.git("add sub/.gitignore");
        const std::string why = "sub/.gitignore is a symlink; git ignores such a .gitignore";
        // Passed by as git passes it: sub/new.c is not ignored, and the deletion pairs with
        // it, by the tool's scan and by libgit2's own diff (which the scan leaves to it with
        // core.ignorecase) alike; with a system libgit2, refused.
        CHECK(f.repo.git("status --porcelain --untracked-files=all").find("?? sub/new.c") !=
              std::string::npos);
        for (const char* ignorecase : {"false", "true"}) {
            f.repo.git(std::string("config core.ignorecase ") + ignorecase);
            auto o = f.run("--anchor a.c:2-4");
            if (!CONTEXT_PACK_TREE_SYMLINKS_IGNORED) {
                refused(o, why);
                continue;
            }
            INFO(o.out << o.err);
            CHECK(o.status == 0);
            CHECK(o.out.find("sub/new.c:2-4") != std::string::npos);
        }
    }
    SECTION("a FIFO in a nested untracked directory") {
        f.repo.write("sub/deeper/more/x.c", "int x;\n");
        f.fifo(f.repo.at("sub/deeper/more/.gitignore"));
        refused(f.run("--anchor a.c:2-4"), "sub/deeper/more/.gitignore is a FIFO");
        // libgit2's own diff walks the untracked directories too: they are checked first.
        f.repo.git("config core.ignorecase true");
        refused(f.run("--anchor a.c:2-4"), "sub/deeper/more/.gitignore is a FIFO");
        // Beneath an ignored directory neither diff looks: nothing is refused.
        f.repo.write("sub/.gitignore", "deeper/\n");
        for (const char* ignorecase : {"true", "false"}) {
            f.repo.git(std::string("config core.ignorecase ") + ignorecase);
            auto o = f.run("--anchor a.c:2-4");
            INFO(o.out << o.err);
            CHECK(o.status != 2);
            CHECK(o.out.find("sub/new.c:2-4") != std::string::npos);
        }
    }
}

TEST_CASE("bad input B53: info/attributes or info/exclude that is a FIFO") {
    Fixture f;
    f.repo.write("a.c", "L1\nL2\nthree\nL4\nL5\nL6\nL7\nL8\nL9\nL10\n");
    cptest::sh("mkdir -p " + q(f.repo.at(".git/info")));

    SECTION("info/attributes") {
        f.fifo(f.repo.at(".git/info/attributes"));
        refused(f.run("--anchor a.c:2-4"),
                "/.git/info/attributes is a FIFO, which libgit2 would open as a info/attributes");
    }
    SECTION("info/exclude, read for the untracked files of a whole diff") {
        ::unlink(f.repo.at(".git/info/exclude").c_str());
        f.fifo(f.repo.at(".git/info/exclude"));
        f.repo.remove("a.c");
        f.repo.write("moved.c", cptest::numbered(10));
        refused(f.run("--anchor a.c:2-4"), "/.git/info/exclude is a FIFO");
    }
}

TEST_CASE("bad input B54: regular .gitattributes and .gitignore work as before") {
    Fixture f;
    f.repo.write(".gitattributes", "*.dat binary\n");
    f.repo.write("a.dat", "x\n");
    f.repo.write("sub/.gitignore", "ignored.c\n");
    f.repo.write("sub/kept.c", "int kept;\n");
    cptest::sh("mkdir -p " + q(f.repo.at("dir/.gitattributes")));  // a directory: passed by
    f.base = f.repo.commit();
    f.repo.write("a.dat", "x\ny\n");
    f.repo.write("a.c", "L1\nL2\nthree\nL4\nL5\nL6\nL7\nL8\nL9\nL10\n");
    auto o = f.run("--anchor a.c:2-4 --anchor a.dat:1 --target HEAD");
    INFO(o.out << o.err);
    CHECK(o.status == 0);  // both unchanged between base and HEAD
    o = f.run("--anchor a.c:2-4 --anchor a.dat:1 --anchor dir/b.c:1");
    INFO(o.out << o.err);
    CHECK(o.status == 1);
    CHECK(o.out.find("1 TOUCHED") != std::string::npos);
    CHECK(o.out.find("binary file a.dat changed") != std::string::npos);

    // An untracked copy of a deleted file is its rename target, unless .gitignore ignores it.
    f.repo.remove("a.c");
    f.repo.write("sub/ignored.c", cptest::numbered(10));
    o = f.run("--anchor a.c:2-4");
    INFO(o.out << o.err);
    CHECK(o.out.find("sub/ignored.c") == std::string::npos);
    f.repo.remove("sub/ignored.c");
    f.repo.write("sub/seen.c", cptest::numbered(10));
    o = f.run("--anchor a.c:2-4");
    INFO(o.out << o.err);
    CHECK(o.out.find("sub/seen.c:2-4") != std::string::npos);
}
