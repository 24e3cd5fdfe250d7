// The side files libgit2 opens by itself (.gitattributes, .gitignore, info/attributes,
// info/exclude): one that is a symlink, a FIFO or a device is refused on one line, never
// followed out of the tree, never waited on; regular ones work as before. Rows B50-B54 of
// docs/bad-input.md. Every run has a 20-second limit, so a blocking open fails the test.
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <fstream>

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
    refused(f.run("--anchor a.c:2-4"), why);
    // Between two commits the work tree's attributes still count, as in git diff A B: the
    // same refusal, whose mend holds for both.
    f.repo.commit();
    refused(f.run("--target HEAD --anchor a.c:2-4"), why);
    // The mend: without it on disk, the outside file's rules are not obeyed.
    f.repo.remove(".gitattributes");
    touched(f.run("--target HEAD --anchor a.c:2-4"), "a.c:2-4");

    SECTION("in a directory on the way, untracked") {
        f.link("dir/.gitattributes", "../../rules-elsewhere");
        f.repo.write("dir/b.c", cptest::numbered(10, "b"));
        refused(f.run("--anchor dir/b.c:2"), "dir/.gitattributes is a symlink");
    }
}

TEST_CASE("bad input B51: a .gitattributes that is, or points at, a FIFO") {
    Fixture f;
    f.fifo(f.outside.path() + "/pipe");
    f.repo.write("dir/b.c", cptest::numbered(10, "b"));

    SECTION("a committed symlink to a FIFO outside") {
        f.link(".gitattributes", f.outside.path() + "/pipe");
        f.repo.commit();
        refused(f.run("--anchor dir/b.c:2"), ".gitattributes is a symlink");
        refused(f.run("--target HEAD --anchor dir/b.c:2"), ".gitattributes is a symlink");
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
        refused(f.run("--anchor a.c:2-4"), why);
        // libgit2's own diff (which the scan leaves to it with core.ignorecase) checks first.
        f.repo.git("config core.ignorecase true");
        refused(f.run("--anchor a.c:2-4"), why);
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
