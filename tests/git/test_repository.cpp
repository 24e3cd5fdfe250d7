// The repository layer against the git CLI: revisions resolved as `git rev-parse` resolves
// them (names, tags, short and ambiguous hashes, objects that are not commits), paths looked
// up at a commit as `git ls-tree` lists them (stopping at submodules and symlinks), and
// libgit2's init without its network set-up.
#include <git2.h>

#if defined(__linux__)
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#endif

#include <fstream>
#include <map>
#include <new>
#include <set>
#include <string>
#include <vector>

#include "context_pack/git/build_config.hpp"
#include "context_pack/git/repository.hpp"
#include "support/catch.hpp"
#include "support/fixture.hpp"
#include "support/git_diff.hpp"

namespace {

using cp::git::EntryKind;
using cp::git::Revision;
using cptest::open_repo;
using cptest::q;
using cptest::Repo;
using cptest::split_lines;
using cptest::trim;

std::string rev_parse(const Repo& repo, const std::string& rev) {
    return trim(repo.git("rev-parse --verify --quiet " + q(rev)));
}

EntryKind kind_of_mode(const std::string& mode) {
    if (mode == "120000") return EntryKind::Symlink;
    if (mode == "160000") return EntryKind::Submodule;
    if (mode == "040000") return EntryKind::Directory;
    return EntryKind::File;
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// resolve_commit

TEST_CASE("resolve_commit agrees with git rev-parse", "[git]") {
    Repo repo;
    repo.write("a.txt", "one\n");
    auto c1 = repo.commit("one");
    repo.write("a.txt", "two\n");
    auto c2 = repo.commit("two");
    repo.git("branch feature");
    repo.write("a.txt", "three\n");
    auto c3 = repo.commit("three");
    repo.git("tag light " + c1);
    repo.git("tag -a -m annotated annot " + c2);
    auto tree = rev_parse(repo, "HEAD^{tree}");
    auto blob = rev_parse(repo, "HEAD:a.txt");
    repo.git("tag treetag " + tree);
    repo.git("tag -a -m blob blobtag " + blob);
    auto opened = open_repo(repo);

    // Revisions that name a commit: ours must be what `git rev-parse REV^{commit}` says.
    for (std::string rev :
         {c3, c1, c2.substr(0, 7), c1.substr(0, 12), std::string("HEAD"), std::string("main"),
          std::string("feature"), std::string("HEAD~1"), std::string("HEAD^^"),
          std::string("main~2"), std::string("light"), std::string("annot"),
          std::string("refs/tags/annot"), std::string("feature^")}) {
        INFO("rev " << rev);
        auto expected = rev_parse(repo, rev + "^{commit}");
        REQUIRE(expected.size() == 40);
        auto r = opened.resolve_commit(rev);
        CHECK(r.outcome == Revision::Outcome::Commit);
        CHECK(r.oid == expected);
    }
    // Sanity: the annotated tag is a tag object that peels to c2.
    CHECK(rev_parse(repo, "annot") != c2);
    CHECK(opened.resolve_commit("annot").oid == c2);

    // A missing full hash and a missing short one (git agrees they are missing).
    std::string missing = c3;
    missing[39] = missing[39] == '0' ? '1' : '0';
    missing[38] = missing[38] == '0' ? '1' : '0';
    for (const std::string& rev :
         {missing, std::string("0000000"), std::string("no-such-branch"), std::string("HEAD~9")}) {
        INFO("rev " << rev);
        CHECK(repo.git_status("rev-parse --verify --quiet " + q(rev + "^{object}")).status != 0);
        CHECK(opened.resolve_commit(rev).outcome == Revision::Outcome::NotFound);
    }

    // Objects that are not commits: a tree, a blob, tags of each.
    for (const std::string& rev : {tree, blob, std::string("treetag"), std::string("blobtag"),
                                   std::string("HEAD^{tree}"), std::string("HEAD:a.txt")}) {
        INFO("rev " << rev);
        CHECK(repo.git_status("rev-parse --verify --quiet " + q(rev + "^{commit}")).status != 0);
        auto r = opened.resolve_commit(rev);
        CHECK(r.outcome == Revision::Outcome::NotACommit);
        CHECK(r.oid == rev_parse(repo, rev));
    }

    // Not a revision at all.
    CHECK(opened.resolve_commit("").outcome == Revision::Outcome::Invalid);
}

#if defined(CP_TEST_ADDRESS_LIMIT) && defined(__linux__)
TEST_CASE("resolve_commit: a pack that cannot be mapped for want of memory is no absent commit",
          "[git]") {
    // libgit2 calls a commit in a pack whose index it could not map "not found": under an
    // address-space limit the run said every base was "not in this repository: git fetch".
    Repo repo;
    repo.write("a.txt", "one\n");
    const std::string commit = repo.commit();
    repo.git("repack -adq");
    repo.git("prune-packed");
    auto opened = open_repo(repo);
    const pid_t pid = ::fork();
    REQUIRE(pid >= 0);
    if (pid == 0) {
        // The limit a little above what the process holds, then every byte of it reserved.
        long pages = 0;
        std::ifstream("/proc/self/statm") >> pages;
        const rlim_t held = rlim_t(pages) * rlim_t(::sysconf(_SC_PAGESIZE));
        const rlimit limit{held + (rlim_t{256} << 20), held + (rlim_t{256} << 20)};
        if (::setrlimit(RLIMIT_AS, &limit) != 0) ::_exit(6);
        for (std::size_t chunk = std::size_t{1} << 20; chunk >= 4096;)
            if (::mmap(nullptr, chunk, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0) == MAP_FAILED)
                chunk /= 2;
        try {
            const auto r = opened.resolve_commit(commit);
            ::_exit(r.outcome == Revision::Outcome::Commit ? 3 : 4);
        } catch (const std::bad_alloc&) {
            ::_exit(0);
        }
    }
    int status = 0;
    REQUIRE(::waitpid(pid, &status, 0) == pid);
    REQUIRE(WIFEXITED(status));
    // 0: said as memory; 4: reported absent or damaged (the old answer); 3: read after all,
    // which the reserved address space should not allow.
    CHECK(WEXITSTATUS(status) == 0);
}
#endif

TEST_CASE("resolve_commit: an ambiguous short hash lists its candidates", "[git]") {
    Repo repo;
    repo.write("a.txt", "a\n");
    auto c1 = repo.commit();
    // Deterministic blobs until two objects share a 4-hex prefix: "blob 96" and "blob 262"
    // do (59b7...), so 400 of them always hold a pair, and a cheap one to write.
    auto o = cptest::sh("cd " + q(repo.dir()) +
                        " && d=$(mktemp -d) && for i in $(seq 1 400); do echo \"blob $i\" > "
                        "\"$d/$i\"; echo \"$d/$i\"; done | git hash-object -w --stdin-paths && "
                        "rm -rf \"$d\"");
    REQUIRE(o.status == 0);
    auto all = split_lines(repo.git("rev-list --objects --all --no-object-names") + o.out);
    std::map<std::string, std::set<std::string>> by_prefix;
    for (const auto& h : all)
        if (h.size() == 40) by_prefix[h.substr(0, 4)].insert(h);
    std::string prefix;
    for (const auto& [p, set] : by_prefix)
        if (set.size() >= 2) {
            prefix = p;
            break;
        }
    REQUIRE_FALSE(prefix.empty());
    INFO("prefix " << prefix);

    // git calls it ambiguous and lists the objects.
    auto git = repo.git_status("rev-parse --verify --quiet " + prefix);
    CHECK(git.status != 0);
    std::set<std::string> git_candidates;
    for (const auto& l : split_lines(repo.git("rev-parse --disambiguate=" + prefix)))
        if (!l.empty()) git_candidates.insert(l);
    CHECK(git_candidates.size() >= 2);

    auto opened = open_repo(repo);
    auto r = opened.resolve_commit(prefix);
    CHECK(r.outcome == Revision::Outcome::Ambiguous);
    std::set<std::string> ours;
    for (const auto& c : r.candidates) {
        auto sp = c.find(' ');
        REQUIRE(sp == 40);
        ours.insert(c.substr(0, sp));
        auto type = trim(repo.git("cat-file -t " + c.substr(0, sp)));
        CHECK(c.substr(sp + 1) == type);
    }
    CHECK(ours == git_candidates);
    // A longer prefix of each is no longer ambiguous: a commit, or an object that is not one.
    for (const auto& one : git_candidates) {
        if (repo.git_status("rev-parse --verify --quiet " + one.substr(0, 12)).status != 0)
            continue;  // still ambiguous at 12 digits (never in practice)
        bool commit = trim(repo.git("cat-file -t " + one)) == "commit";
        auto longer = opened.resolve_commit(one.substr(0, 12));
        CHECK(longer.outcome ==
              (commit ? Revision::Outcome::Commit : Revision::Outcome::NotACommit));
        CHECK(longer.oid == one);
    }
    // The commit's own short hash still resolves (its 4-digit prefix is not the shared one).
    if (c1.substr(0, 4) != prefix) CHECK(opened.resolve_commit(c1.substr(0, 7)).oid == c1);
}
// ---------------------------------------------------------------------------------------------
// lookup

TEST_CASE("lookup agrees with git ls-tree and stops at submodules and symlinks", "[git]") {
    Repo repo;
    repo.write("a.txt", "a\n");
    repo.write("dir/b.txt", "b\n");
    repo.write("dir/inner/c.txt", "c\n");
    repo.write("run.sh", "#!/bin/sh\n");
    REQUIRE(cptest::sh("chmod +x " + q(repo.at("run.sh"))).status == 0);
    REQUIRE(cptest::sh("ln -s a.txt " + q(repo.at("link"))).status == 0);
    REQUIRE(cptest::sh("ln -s dir " + q(repo.at("dirlink"))).status == 0);
    auto first = repo.commit("files");
    repo.git("update-index --add --cacheinfo 160000," + first + ",sub");
    repo.git("update-index --add --cacheinfo 160000," + first + ",dir/nested");
    repo.git("commit -q -m gitlinks");
    auto commit = repo.head();
    REQUIRE(trim(repo.git("ls-tree " + commit + " sub")).rfind("160000 commit", 0) == 0);

    auto opened = open_repo(repo);
    const std::vector<std::string> paths = {"a.txt",
                                            "dir",
                                            "dir/b.txt",
                                            "dir/inner",
                                            "dir/inner/c.txt",
                                            "run.sh",
                                            "link",
                                            "dirlink",
                                            "sub",
                                            "dir/nested",
                                            "missing.txt",
                                            "dir/missing.txt",
                                            "missing/x.txt",
                                            "sub/x",
                                            "sub/deep/x/y.c",
                                            "dir/nested/file",
                                            "link/x",
                                            "dirlink/b.txt",
                                            "a.txt/x",
                                            "dir/inner/c.txt/more"};
    for (const auto& path : paths) {
        INFO("path " << path);
        auto r = opened.lookup(commit, path);
        INFO((r ? std::string() : r.error().message));
        REQUIRE(r.ok());

        // Oracle: ls-tree of the path and of each of its ancestors.
        std::string blocked;
        EntryKind blocked_kind = EntryKind::File;
        for (std::size_t slash = path.find('/'); slash != std::string::npos;
             slash = path.find('/', slash + 1)) {
            auto line = trim(repo.git("ls-tree " + commit + " -- " + q(path.substr(0, slash))));
            if (line.empty()) break;
            auto mode = line.substr(0, 6);
            if (mode == "160000" || mode == "120000") {
                blocked = path.substr(0, slash);
                blocked_kind = kind_of_mode(mode);
                break;
            }
            if (mode != "040000") break;  // a file where a directory would be
        }
        auto line = blocked.empty() ? trim(repo.git("ls-tree " + commit + " -- " + q(path)))
                                    : std::string();
        CHECK(r->blocked_by == blocked);
        if (!blocked.empty()) CHECK(r->blocked_kind == blocked_kind);
        if (line.empty()) {
            CHECK_FALSE(r->entry.has_value());
            continue;
        }
        // "<mode> <type> <oid>\t<path>"
        REQUIRE(line.size() > 53);
        REQUIRE(r->entry.has_value());
        CHECK(r->entry->kind == kind_of_mode(line.substr(0, 6)));
        CHECK(r->entry->oid == line.substr(line.find('\t') - 40, 40));
    }

    // The cases the brief names, spelled out.
    CHECK(opened.lookup(commit, "sub/x")->blocked_by == "sub");
    CHECK(opened.lookup(commit, "sub/x")->blocked_kind == EntryKind::Submodule);
    CHECK(opened.lookup(commit, "link/x")->blocked_kind == EntryKind::Symlink);
    CHECK(opened.lookup(commit, "link")->entry.value().kind == EntryKind::Symlink);
    CHECK(opened.lookup(commit, "dir")->entry.value().kind == EntryKind::Directory);
    CHECK(opened.lookup(commit, "a.txt")->entry.value().kind == EntryKind::File);
    CHECK_FALSE(opened.lookup(commit, "missing.txt")->entry.has_value());
    // At the first commit the gitlinks do not exist yet.
    CHECK_FALSE(opened.lookup(first, "sub")->entry.has_value());
    CHECK(opened.lookup(first, "sub/x")->blocked_by.empty());
}

TEST_CASE("the libgit2 built here has no network transport to set up", "[git]") {
    // cmake/Libgit2.cmake builds libgit2 without HTTPS and SSH: nothing of TLS or ssh is set
    // up at start or linked in (the test loads_no_network_library checks the binary). A
    // system's shared libgit2 is as its distribution built it.
    const int features = git_libgit2_features();
    if (CONTEXT_PACK_DIRECT_XDIFF) {
        CHECK((features & GIT_FEATURE_HTTPS) == 0);
        CHECK((features & GIT_FEATURE_SSH) == 0);
    }
    CHECK((features & GIT_FEATURE_THREADS) != 0);
}

TEST_CASE("packed objects read through libdeflate give zlib's bytes", "[git]") {
    // With the libgit2 built here, a pack's whole stream is inflated by libdeflate
    // (patches/libgit2/); a small output (under 512 bytes) stays with zlib. Either way the
    // blob is git's: whole objects and deltas against them, compared with git cat-file.
    Repo repo;
    std::string text;
    for (int i = 0; i < 300; ++i) text += "line " + std::to_string(i * 7919 % 1000) + " of text\n";
    repo.write("big.txt", text);
    repo.write("small.txt", "a\n");
    repo.commit();
    repo.write("big.txt", text + "one more line\n");
    repo.commit();
    repo.git("repack -adq");
    repo.git("prune-packed");
    auto opened = open_repo(repo);
    auto id = [&](const std::string& rev) { return trim(repo.git("rev-parse " + q(rev))); };
    for (const char* rev : {"HEAD:big.txt", "HEAD~1:big.txt"}) {
        auto bytes = opened.blob(id(rev));
        REQUIRE(bytes.ok());
        CHECK(bytes.value() == repo.git("cat-file blob " + q(rev)));
    }
    auto small = opened.blob(id("HEAD:small.txt"));
    REQUIRE(small.ok());
    CHECK(small.value() == "a\n");
}
