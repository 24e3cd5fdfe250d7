// git's repository environment (GIT_DIR, GIT_WORK_TREE, GIT_INDEX_FILE, the object
// directories, GIT_CEILING_DIRECTORIES), set for one command at a time and compared with
// what git says in the same environment: rows of docs/bad-input.md.
#include <string>

#include "context_pack/git/repository.hpp"
#include "support/catch.hpp"
#include "support/fixture.hpp"
#include "support/outcome.hpp"

using cptest::context_pack;
using cptest::Output;
using cptest::q;
using cptest::sh;
using cptest::usage_error;

namespace {

// context-pack run in `dir` with `env` ("NAME=value ...", already quoted) for it alone.
Output with_env(const std::string& dir, const std::string& env, const std::string& args) {
    return sh("cd " + q(dir) + " && env " + env + " " + q(cptest::binary()) + " " + args);
}

// A working tree whose git dir is elsewhere (git init --separate-git-dir), a commit with
// a.c of three lines, then a line added on top of it in the working tree; and another
// repository, where the commands run from.
struct Separated {
    cptest::TempDir root;
    std::string work = root.path() + "/wt", git_dir = root.path() + "/sep.git",
                other = root.path() + "/other";
    std::string base;
    Separated() {
        auto made = sh("git init -q --separate-git-dir " + q(git_dir) + " " + q(work) + " && cd " +
                       q(work) + " && printf '1\\n2\\n3\\n' > a.c && git add a.c" +
                       " && git commit -qm base && printf '0\\n1\\n2\\n3\\n' > a.c" +
                       " && git init -q " + q(other) + " && cd " + q(other) +
                       " && echo z > a.c && git add a.c && git commit -qm other");
        REQUIRE(made.status == 0);
        base = sh("git --git-dir=" + q(git_dir) + " rev-parse HEAD").out.substr(0, 40);
    }
    std::string anchor(const std::string& extra = "") const {
        return "--table --base " + base + " --anchor a.c:2" + extra;
    }
};

}  // namespace

TEST_CASE("bad input B55: GIT_DIR and GIT_WORK_TREE name the repository") {
    Separated s;
    const std::string env = "GIT_DIR=" + q(s.git_dir) + " GIT_WORK_TREE=" + q(s.work);
    // git, in the same environment, sees the line added in that working tree.
    CHECK(sh("cd " + q(s.other) + " && env " + env + " git diff --numstat").out == "1\t0\ta.c\n");
    auto o = with_env(s.other, env, s.anchor());
    INFO(o.out << o.err);
    CHECK(o.status == 0);
    CHECK(o.out.find("MOVED   a.c:3") != std::string::npos);
    // Without it, the repository of the current directory, which has no such base.
    CHECK(context_pack(s.other, s.anchor()).err.find("not in this repository") !=
          std::string::npos);

    // GIT_DIR alone: the working tree is where the command runs, as git takes it.
    o = with_env(s.work, "GIT_DIR=" + q(s.git_dir), s.anchor());
    CHECK(o.out.find("MOVED   a.c:3") != std::string::npos);
    // -C DIR first, then a relative GIT_DIR from there (git -C DIR).
    o = with_env(s.root.path(), "GIT_DIR=../sep.git", "-C wt " + s.anchor());
    INFO(o.out << o.err);
    CHECK(o.out.find("MOVED   a.c:3") != std::string::npos);

    usage_error(with_env(s.other, "GIT_DIR=" + q(s.root.path() + "/none"), s.anchor()),
                "GIT_DIR names " + s.root.path() +
                    "/none, which is not a git repository; "
                    "unset it or fix it");
    usage_error(with_env(s.other, env + " GIT_WORK_TREE=" + q(s.root.path() + "/none"), s.anchor()),
                "GIT_WORK_TREE names " + s.root.path() + "/none, which is not a directory");
}

TEST_CASE("bad input B56: GIT_INDEX_FILE names the index") {
    Separated s;
    // An index elsewhere that no longer tracks a.c: git sees it deleted from the working tree.
    const std::string index = s.root.path() + "/other-index";
    const std::string env = "GIT_INDEX_FILE=" + q(index);
    REQUIRE(sh("cd " + q(s.work) + " && cp " + q(s.git_dir + "/index") + " " + q(index) +
               " && env " + env + " git rm -q --cached a.c")
                .status == 0);
    CHECK(sh("cd " + q(s.work) + " && env " + env + " git diff HEAD --numstat").out ==
          "0\t3\ta.c\n");
    // Through that index a.c is deleted and left on disk untracked (as by git rm --cached):
    // carried onto the file there, and the note says so (B63).
    auto o = with_env(s.work, env, s.anchor());
    INFO(o.out << o.err);
    CHECK(o.status == 0);
    CHECK(o.out.find("MOVED   a.c:3") != std::string::npos);
    CHECK(o.out.find("a.c deleted from the index") != std::string::npos);
    // The repository's own index still tracks it: no such note.
    auto own = context_pack(s.work, s.anchor());
    CHECK(own.out.find("MOVED   a.c:3") != std::string::npos);
    CHECK(own.out.find("deleted from the index") == std::string::npos);
}

TEST_CASE("bad input B57: GIT_OBJECT_DIRECTORY and GIT_ALTERNATE_OBJECT_DIRECTORIES") {
    Separated s;
    // A clone that borrowed its objects and lost its alternates file: the objects are
    // reachable only through the environment.
    const std::string clone = s.root.path() + "/clone";
    REQUIRE(sh("git clone -q --shared " + q(s.work) + " " + q(clone) + " && rm " +
               q(clone + "/.git/objects/info/alternates"))
                .status == 0);
    const std::string objects = q(s.git_dir + "/objects");
    CHECK(sh("cd " + q(clone) + " && GIT_ALTERNATE_OBJECT_DIRECTORIES=" + objects +
             " git cat-file -t " + s.base)
              .out == "commit\n");
    for (const std::string& env :
         {"GIT_ALTERNATE_OBJECT_DIRECTORIES=" + objects, "GIT_OBJECT_DIRECTORY=" + objects}) {
        auto o = with_env(clone, env, s.anchor(" --target HEAD"));
        INFO(env << "\n" << o.out << o.err);
        CHECK(o.status == 0);
        CHECK(o.out.find("SAME    a.c:2") != std::string::npos);
    }
    CHECK(context_pack(clone, s.anchor(" --target HEAD")).status == 2);
    usage_error(with_env(clone, "GIT_OBJECT_DIRECTORY=" + q(s.root.path() + "/none"),
                         s.anchor(" --target HEAD")),
                "GIT_OBJECT_DIRECTORY names " + s.root.path() + "/none, which is not a directory");
}

TEST_CASE("bad input B58: GIT_CEILING_DIRECTORIES bounds the search") {
    Separated s;
    REQUIRE(sh("mkdir " + q(s.work + "/sub")).status == 0);
    const std::string env = "GIT_CEILING_DIRECTORIES=" + q(s.work);
    CHECK(sh("cd " + q(s.work + "/sub") + " && env " + env + " git rev-parse --git-dir").status ==
          128);
    usage_error(with_env(s.work + "/sub", env, s.anchor()),
                "not a git repository (or any parent up to GIT_CEILING_DIRECTORIES)");
    CHECK(context_pack(s.work + "/sub", s.anchor()).status == 0);
}

TEST_CASE("bad input B59: a SHA-256 or reftable repository") {
    // The message names the libgit2 release that refuses: "libgit2 1.5", "libgit2 1.9".
    const std::string version = cp::git::library_version();
    const std::string tool =
        "which this tool (libgit2 " + version.substr(0, version.rfind('.')) + ") cannot read";
    cptest::TempDir root;
    const std::string sha256 = root.path() + "/sha256", reftable = root.path() + "/reftable";
    REQUIRE(sh("git init -q --object-format=sha256 " + q(sha256) + " && cd " + q(sha256) +
               " && echo a > a.c && git add a.c && git commit -qm base")
                .status == 0);
    usage_error(
        context_pack(sha256, "--base HEAD --anchor a.c:1"),
        "the repository stores objects as sha256 (extensions.objectFormat = sha256), " + tool);
    // git 2.39 cannot make a reftable repository: the extension alone is what libgit2 sees.
    REQUIRE(sh("git init -q " + q(reftable) + " && cd " + q(reftable) +
               " && echo a > a.c && git add a.c && git commit -qm base" +
               " && git config core.repositoryformatversion 1" +
               " && git config extensions.refStorage reftable")
                .status == 0);
    usage_error(
        context_pack(reftable, "--base HEAD --anchor a.c:1"),
        "the repository keeps its refs in reftable (extensions.refStorage = reftable), " + tool);
}
