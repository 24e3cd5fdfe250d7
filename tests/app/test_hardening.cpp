// Promises that hold in repositories other people control: the tool never writes to the
// repository, never runs anything the repository names, and never reads outside it.
#include "support/catch.hpp"
#include "support/fixture.hpp"

using cptest::q;
using cptest::Repo;

namespace {

// Every mode the tool has, against one repository.
const char* const kModes[] = {
    "",  // orient: the working tree, windows and callers
    "--format json",
    "--table",
    "--target HEAD",
    "--since HEAD",
    "--at-base",
    "--only 1",
};

struct Hostile {
    Repo repo;
    cptest::TempDir outside;
    std::string marker;
    std::string base;

    Hostile() : marker(outside.path() + "/ran") {
        repo.write("a.c", cptest::numbered(20) + "int widget;\n");
        repo.write("b.c", "call widget;\n");
        base = repo.commit();
        repo.write("a.c", "top\n" + cptest::numbered(20) + "int widget;\n");
        repo.git("add a.c");
        repo.write("b.c", "call widget again;\n");
        repo.write("new.c", "int fresh;\n");

        // Every program a repository can name, each leaving a marker if anything runs it.
        auto script = outside.path() + "/evil.sh";
        cptest::sh("printf '#!/bin/sh\\ntouch %s\\ncat\\n' " + q(marker) + " > " + q(script) +
                   " && chmod +x " + q(script));
        for (const char* key :
             {"core.fsmonitor", "core.hooksPath", "core.pager", "core.sshCommand", "core.editor",
              "core.askPass", "diff.external", "diff.evil.textconv", "diff.evil.command",
              "filter.evil.clean", "filter.evil.smudge", "filter.evil.process", "gpg.program",
              "credential.helper", "pager.diff", "sequence.editor", "merge.evil.driver"})
            repo.git(std::string("config ") + key + " " + q(script));
        repo.git("config filter.evil.required true");
        cptest::sh("mkdir -p " + q(repo.at(".git/hooks")) +
                   " && for h in pre-commit "
                   "post-checkout post-index-change reference-transaction fsmonitor-watchman; "
                   "do cp " +
                   q(script) + " " + q(repo.at(".git/hooks/")) + "$h; done");
        repo.write(".gitattributes", "* filter=evil diff=evil merge=evil\n");
    }
};

}  // namespace

TEST_CASE("never executes: hooks, fsmonitor, filters, textconv, external diff, pagers") {
    Hostile h;
    // The fixture is really hostile: the git CLI runs its programs.
    h.repo.git_status("diff " + h.base + " -- a.c");
    REQUIRE(cptest::sh("test -e " + q(h.marker)).status == 0);
    cptest::sh("rm -f " + q(h.marker));

    for (const char* mode : kModes) {
        INFO("mode: " << mode);
        auto o = cptest::context_pack(h.repo.dir(), std::string(mode) + " --base " + h.base +
                                                        " --anchor a.c:2-4@L3 --anchor b.c:1@widget"
                                                        " --anchor new.c:1");
        INFO(o.err);
        CHECK(o.status <= 1);
        CHECK(cptest::sh("test -e " + q(h.marker)).status != 0);
    }
}

TEST_CASE("never writes: every mode leaves .git and the work tree as they were") {
    Hostile h;
    for (bool locked : {false, true}) {
        INFO("index.lock held: " << locked);
        if (locked) cptest::sh("echo held > " + q(h.repo.at(".git/index.lock")));
        auto before = cptest::tree_snapshot(h.repo.dir());
        for (const char* mode : kModes) {
            INFO("mode: " << mode);
            auto o = cptest::context_pack(h.repo.dir(), std::string(mode) + " --base " + h.base +
                                                            " --anchor a.c:2-4@L3 --anchor b.c:1");
            CHECK(o.status <= 1);
        }
        CHECK(cptest::tree_snapshot(h.repo.dir()) == before);
    }
}

TEST_CASE("stays inside: paths that leave the repository are refused per anchor") {
    Repo repo;
    cptest::TempDir outside;
    cptest::sh("printf 'secret\\n' > " + q(outside.path() + "/s.c"));
    repo.write("d/f.c", "a\nb\n");
    repo.write("top.c", "x\n");
    repo.write("keep.c", "k\n");
    auto base = repo.commit();
    // The tree is turned into links that point outside.
    cptest::sh("cd " + q(repo.dir()) + " && rm -rf d && ln -s " + q(outside.path()) + " d && cp " +
               q(outside.path() + "/s.c") + " " + q(outside.path() + "/f.c") + " && ln -sf " +
               q(outside.path() + "/s.c") + " top.c");
    auto o = cptest::context_pack(
        repo.dir(), "--format json --base " + base +
                        " --anchor d/f.c:1@secret --anchor top.c:1@secret --anchor ../s.c:1"
                        " --anchor /etc/hostname:1 --anchor keep.c:1");
    INFO(o.err);
    REQUIRE(o.status == 1);
    CHECK(o.out.find("\"text\": \"secret\"") == std::string::npos);  // nothing outside was read
    auto count = [&](const std::string& what) {
        std::size_t n = 0;
        for (auto pos = o.out.find(what); pos != std::string::npos; pos = o.out.find(what, pos + 1))
            ++n;
        return n;
    };
    CHECK(count("\"status\": \"UNRESOLVED\"") == 4);
    CHECK(count("through the symlink") == 2);
    CHECK(o.out.find("\"status\": \"SAME\"") != std::string::npos);  // the rest still resolves
}

TEST_CASE("signals and pipes: a closed pipe ends quietly, SIGINT exits 130") {
    Repo repo;
    std::string big;
    for (int i = 0; i < 3000; ++i) big += "int widget" + std::to_string(i) + ";\n";
    repo.write("a.c", big);
    auto base = repo.commit();
    auto piped =
        cptest::sh("cd " + q(repo.dir()) + " && " + q(cptest::binary()) +
                   " --max-lines 100000 --base " + base + " --anchor a.c:1-2999 | head -1");
    CHECK(piped.status == 0);
    CHECK(piped.err.empty());  // no "broken pipe" complaint
    CHECK(piped.out.find("--anchor: base") == 0);

    // A process that is interrupted before it finishes exits 130 and leaves nothing behind.
    auto before = cptest::tree_snapshot(repo.dir());
    // The spec comes on standard input from a FIFO that stays open (a FIFO named as a spec
    // file is refused), so the process is still running when the signal arrives. The tool
    // runs in the foreground, where SIGINT keeps its default action (a shell's background job
    // starts with it ignored), started by a shell that writes its pid and execs it; a
    // background job sends the signal 0.3 s after the pid is there.
    cptest::TempDir io;
    auto fifo = io.path() + "/spec", pid = io.path() + "/pid";
    const std::string tool = "sh -c 'echo $$ > \"$1\"; exec \"$2\" - < \"$3\"' sh " + q(pid) + " " +
                             q(cptest::binary()) + " " + q(fifo);
    const std::string interrupt = "{ until [ -s " + q(pid) + " ]; do sleep 0.1; done; sleep 0.3; " +
                                  "kill -INT \"$(cat " + q(pid) + ")\"; }";
    auto interrupted = cptest::sh("mkfifo " + q(fifo) + " && cd " + q(repo.dir()) +
                                  " && { sleep 5 > " + q(fifo) + " & holder=$!; " + interrupt +
                                  " & " + tool + "; echo \"status $?\"; kill $holder; }");
    CHECK(interrupted.out == "status 130\n");
    CHECK(cptest::tree_snapshot(repo.dir()) == before);
}
