// Resolution end to end on scripted fixture repositories: every status and flag of SPEC §3,
// commit targets and the working tree (staged, unstaged, untracked), and odd files.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <filesystem>
#include <map>
#include <random>
#include <set>
#include <sstream>

#include "context_pack/output/json_output.hpp"
#include "context_pack/resolve/resolve.hpp"
#include "support/catch.hpp"
#include "support/fixture.hpp"

using cp::Status;
using cptest::numbered;
using cptest::Repo;

namespace {

cp::Result<cp::Report> resolve_in(const Repo& repo, const cp::Spec& spec,
                                  const cp::ResolveOptions& options = {}) {
    auto opened = cp::git::Repository::open(repo.dir());
    REQUIRE(opened.ok());
    cp::Content content(opened.value());
    return cp::resolve(content, {spec}, options);
}

cp::ResolveOptions with_target(const std::string& target) {
    cp::ResolveOptions o;
    o.target = target;
    return o;
}

struct Probe {
    const Repo& repo;
    std::string base;
    std::optional<std::string> target;  // nullopt: the working tree

    // Resolves `--anchor`-style anchors; returns one result per anchor.
    std::vector<cp::AnchorResult> run(const std::vector<std::string>& anchors) const {
        cp::Spec spec;
        spec.source = "test";
        spec.base = base;
        spec.target = target;
        for (const auto& text : anchors) {
            auto a = cp::parse_anchor_arg(text);
            REQUIRE(a.ok());
            spec.anchors.push_back(std::move(a).value());
        }
        auto report = resolve_in(repo, spec);
        INFO((report.ok() ? "" : report.error().message));
        REQUIRE(report.ok());
        return report->specs.at(0).anchors;
    }

    cp::AnchorResult one(const std::string& anchor) const { return run({anchor}).at(0); }
};

void check_at(const cp::AnchorResult& r, Status status, const std::string& path, int line,
              int end_line, bool renamed = false) {
    INFO(r.anchor.path << ":" << r.anchor.line << " -> " << r.status_label() << " "
                       << r.reason.value_or(""));
    CHECK(r.status == status);
    CHECK(r.renamed == renamed);
    REQUIRE(r.to.has_value());
    CHECK(r.to->path == path);
    CHECK(r.to->line == line);
    CHECK(r.to->end_line == end_line);
}

std::string with_lines_changed(int n, int insert_after, int count, int edited) {
    std::string out;
    for (int i = 1; i <= n; ++i) {
        out += (i == edited ? "edited " : "L") + std::to_string(i) + "\n";
        if (i == insert_after)
            for (int k = 0; k < count; ++k) out += "inserted " + std::to_string(k) + "\n";
    }
    return out;
}

}  // namespace

TEST_CASE("seed B5 at a commit and in the working tree") {
    Repo repo;
    repo.write("briefs.md", numbered(400));
    auto base = repo.commit();
    repo.write("briefs.md", with_lines_changed(400, 99, 2, 185));

    for (bool committed : {false, true}) {
        INFO("committed: " << committed);
        std::optional<std::string> target;
        if (committed) target = repo.commit();
        auto r = Probe{repo, base, target}.run(
            {"briefs.md:50-60", "briefs.md:180-190", "briefs.md:300-310"});
        check_at(r[0], Status::Same, "briefs.md", 50, 60);
        check_at(r[1], Status::Touched, "briefs.md", 182, 192);
        check_at(r[2], Status::Moved, "briefs.md", 302, 312);
        CHECK_FALSE(r[1].lines_deleted);
    }
}

TEST_CASE("a fully deleted range is TOUCHED with lines_deleted and an empty range") {
    Repo repo;
    repo.write("a.txt", numbered(10));
    auto base = repo.commit();
    repo.write("a.txt", "L1\nL2\nL3\nL7\nL8\nL9\nL10\n");
    auto r = Probe{repo, base, std::nullopt}.one("a.txt:4-6");
    check_at(r, Status::Touched, "a.txt", 4, 3);
    CHECK(r.lines_deleted);
}

TEST_CASE("GONE: deleted at a commit, by a staged git rm, or from disk") {
    Repo repo;
    repo.write("keep.txt", numbered(5));
    repo.write("gone.txt", "only here\n");
    auto base = repo.commit();
    Probe worktree{repo, base, std::nullopt};

    repo.remove("gone.txt");  // unstaged
    CHECK(worktree.one("gone.txt:1").status == Status::Gone);
    repo.git("rm -q --cached gone.txt");  // staged, file already gone from disk
    CHECK(worktree.one("gone.txt:1").status == Status::Gone);
    auto target = repo.commit();
    auto r = Probe{repo, base, target}.one("gone.txt:1");
    CHECK(r.status == Status::Gone);
    CHECK_FALSE(r.to.has_value());
    CHECK(r.reason.value_or("").find("deleted") != std::string::npos);
    CHECK_FALSE(r.ok());
}

TEST_CASE("NEW: a path absent at base, and whether the target has it") {
    Repo repo;
    repo.write("a.txt", "a\n");
    auto base = repo.commit();
    Probe worktree{repo, base, std::nullopt};
    auto r = worktree.one("new.c:1-3");
    CHECK(r.status == Status::New);
    CHECK(r.exists_at_target == false);
    CHECK(r.ok());

    repo.write("new.c", "int x;\n");  // untracked
    CHECK(worktree.one("new.c:1").exists_at_target == true);
    repo.write(".gitignore", "ignored.c\n");
    repo.write("ignored.c", "int y;\n");  // on disk, though git does not show it
    CHECK(worktree.one("ignored.c:1").exists_at_target == true);
    auto target = repo.commit();
    CHECK(Probe{repo, base, target}.one("new.c:1").exists_at_target == true);
    CHECK(Probe{repo, base, base}.one("new.c:1").exists_at_target == false);
}

TEST_CASE("NEW in a file at the target: its range there, clamped, or the file's first lines") {
    Repo repo;
    repo.write("a.txt", "a\n");
    auto base = repo.commit();
    repo.write("new.c", numbered(5));  // untracked
    repo.write("empty.c", "");
    repo.write("bin.dat", std::string("\0\1\2\n", 4));
    for (bool committed : {false, true}) {
        INFO("committed: " << committed);
        std::optional<std::string> target;
        if (committed) target = repo.commit();
        auto r = Probe{repo, base, target}.run(
            {"new.c:2-3", "new.c:4-9", "new.c:8-10", "empty.c:1", "bin.dat:1", "none.c:1"});
        check_at(r[0], Status::New, "new.c", 2, 3);
        check_at(r[1], Status::New, "new.c", 4, 5);  // clamped to the file's 5 lines
        check_at(r[2], Status::New, "new.c", 1, 3);  // past the end: its first 3 lines
        CHECK(r[2].reason.value_or("").find("past its end (5 lines)") != std::string::npos);
        CHECK_FALSE(r[3].to.has_value());
        CHECK(r[3].reason.value_or("").find("empty at target") != std::string::npos);
        CHECK_FALSE(r[4].to.has_value());
        CHECK(r[4].binary);
        CHECK_FALSE(r[5].to.has_value());
        for (const auto& a : r) CHECK(a.ok());
    }
}

TEST_CASE("provenance: HEAD for the working tree, blob ids at base and at the target") {
    Repo repo;
    repo.write(".gitattributes", "*.txt text eol=lf\n");
    repo.write("crlf.txt", "one\ntwo\n");
    repo.write("old.c", numbered(30, "line "));
    repo.write("gone.c", "gone\n");
    auto base = repo.commit();
    auto rev = [&](const std::string& what) {
        auto id = repo.git("rev-parse " + cptest::q(what));
        return id.substr(0, id.find('\n'));
    };
    repo.write("crlf.txt", "one\r\ntwo\r\nthree\r\n");  // CRLF on disk, stored as LF
    repo.git("mv old.c new.c");
    repo.remove("gone.c");
    repo.write("fresh.c", "int fresh;\n");  // untracked
    const std::vector<std::string> anchors{"crlf.txt:1", "old.c:3", "gone.c:1", "fresh.c:1"};
    auto objects = repo.git("count-objects -v");

    cp::Spec spec;
    spec.source = "test";
    spec.base = base;
    for (const auto& text : anchors) spec.anchors.push_back(cp::parse_anchor_arg(text).value());
    auto report = resolve_in(repo, spec);
    REQUIRE(report.ok());
    const auto& worktree = report->specs.at(0);
    CHECK(worktree.head == std::optional<std::string>(repo.head()));
    const auto& r = worktree.anchors;
    CHECK(r[0].base_blob == rev(base + ":crlf.txt"));
    auto stored = repo.git("hash-object --path crlf.txt crlf.txt");  // as git add would store it
    CHECK(r[0].target_blob == stored.substr(0, stored.find('\n')));
    auto raw = repo.git("hash-object --no-filters crlf.txt");
    CHECK(r[0].target_blob != raw.substr(0, raw.find('\n')));
    CHECK(r[1].base_blob == rev(base + ":old.c"));
    CHECK(r[1].target_blob == rev(base + ":old.c"));  // renamed, unchanged: new.c's blob
    CHECK(r[2].base_blob == rev(base + ":gone.c"));
    CHECK_FALSE(r[2].target_blob.has_value());
    CHECK_FALSE(r[3].base_blob.has_value());
    auto fresh = repo.git("hash-object fresh.c");
    CHECK(r[3].target_blob == fresh.substr(0, fresh.find('\n')));
    CHECK(repo.git("count-objects -v") == objects);  // hashed, never written

    auto target = repo.commit();
    spec.target = target;
    auto at_commit = resolve_in(repo, spec);
    REQUIRE(at_commit.ok());
    const auto& c = at_commit->specs.at(0);
    CHECK_FALSE(c.head.has_value());  // a commit target is named by itself
    CHECK(c.anchors[0].target_blob == rev(target + ":crlf.txt"));
    CHECK(c.anchors[0].target_blob == r[0].target_blob);
    CHECK(c.anchors[1].target_blob == rev(target + ":new.c"));
    CHECK(c.anchors[3].target_blob == rev(target + ":fresh.c"));

    repo.git("checkout -q --orphan unborn");  // HEAD names no commit yet
    spec.target.reset();
    auto unborn = resolve_in(repo, spec);
    REQUIRE(unborn.ok());
    CHECK(unborn->specs.at(0).target == cp::Target::working_tree());
    CHECK_FALSE(unborn->specs.at(0).head.has_value());
}

TEST_CASE("RENAMED combines with the line status") {
    Repo repo;
    repo.write("src/old.c", numbered(30, "line "));
    repo.write("src/other.c", numbered(30, "other "));
    auto base = repo.commit();
    Probe worktree{repo, base, std::nullopt};

    SECTION("a staged git mv") {
        repo.git("mv src/old.c src/new.c");
        check_at(worktree.one("src/old.c:10-12"), Status::Same, "src/new.c", 10, 12, true);
    }
    SECTION("an unstaged delete plus an untracked file of similar content") {
        auto text = repo.read("src/old.c");
        repo.remove("src/old.c");
        repo.write("src/moved.c", "// header\n" + text);
        check_at(worktree.one("src/old.c:10-12"), Status::Moved, "src/moved.c", 11, 13, true);
    }
    SECTION("into a new untracked directory, with an edit inside the range") {
        auto text = repo.read("src/old.c");
        repo.remove("src/old.c");
        auto pos = text.find("line 11\n");
        text.replace(pos, 8, "line eleven\n");
        repo.write("lib/deep/moved.c", text);
        check_at(worktree.one("src/old.c:10-12"), Status::Touched, "lib/deep/moved.c", 10, 12,
                 true);
    }
    SECTION("committed, with lines inserted above") {
        auto text = repo.read("src/old.c");
        repo.git("rm -q src/old.c");
        repo.write("src/renamed.c", "a\nb\n" + text);
        auto target = repo.commit();
        check_at(Probe{repo, base, target}.one("src/old.c:1-30"), Status::Moved, "src/renamed.c", 3,
                 32, true);
    }
    SECTION("an unrelated new file is no rename") {
        repo.remove("src/old.c");
        repo.write("src/unrelated.c", numbered(30, "something else entirely "));
        CHECK(worktree.one("src/old.c:1").status == Status::Gone);
    }
}

TEST_CASE("UNRESOLVED: bad ranges, with a one-line reason each") {
    Repo repo;
    repo.write("a.txt", numbered(10));
    repo.write("empty.txt", "");
    repo.write("dir/x.txt", "x\n");
    auto base = repo.commit();
    Probe p{repo, base, std::nullopt};
    auto reason = [&](const std::string& anchor) {
        auto r = p.one(anchor);
        CHECK(r.status == Status::Unresolved);
        CHECK_FALSE(r.to.has_value());
        CHECK_FALSE(r.ok());
        return r.reason.value_or("");
    };
    CHECK(reason("a.txt:0") == "line 0 is before the first line: lines count from 1");
    CHECK(reason("a.txt:5-4") == "end_line 4 is before line 5");
    CHECK(reason("a.txt:8-11") == "a.txt:8-11 is past the end of the file at base (10 lines)");
    CHECK(reason("a.txt:11") == "a.txt:11-11 is past the end of the file at base (10 lines)");
    CHECK(reason("empty.txt:1").find("(0 lines)") != std::string::npos);
    CHECK(reason("dir:1") == "dir is a directory at base, not a file");
    CHECK(reason("../a.txt:1").find("leaves the repository") != std::string::npos);
    CHECK(reason("/etc/passwd:1").find("is absolute") != std::string::npos);
    CHECK(reason("dir//x.txt:1").find("empty or '.' component") != std::string::npos);
    CHECK(reason(".git/config:1").find("points into .git") != std::string::npos);
    check_at(p.one("a.txt:10"), Status::Same, "a.txt", 10, 10);  // the last line is in range
}

TEST_CASE("UNRESOLVED: a base that is not in the repository names the mend") {
    Repo repo;
    repo.write("a.txt", "a\n");
    repo.commit();
    const std::string missing = "0123456789abcdef0123456789abcdef01234567";
    auto r = Probe{repo, missing, std::nullopt}.run({"a.txt:1", "b.txt:2"});
    for (const auto& a : r) {
        CHECK(a.status == Status::Unresolved);
        CHECK(a.reason ==
              "base " + missing + " not in this repository: git fetch origin " + missing);
    }
    auto invalid = Probe{repo, "HEAD~~~~~~~9", std::nullopt}.one("a.txt:1");
    CHECK(invalid.status == Status::Unresolved);
    auto tree = repo.git("rev-parse HEAD^{tree}").substr(0, 40);
    auto not_commit = Probe{repo, tree, std::nullopt}.one("a.txt:1");
    CHECK(not_commit.reason.value_or("").find("not a commit") != std::string::npos);
}

TEST_CASE("UNRESOLVED: an ambiguous short base lists its candidates") {
    Repo repo;
    repo.write("a.txt", "a\n");
    repo.commit();
    // Enough blobs that two share a 4-digit prefix (birthday bound over 65,536 prefixes).
    std::string files;
    for (int i = 1; i <= 1500; ++i) {
        repo.write("blobs/" + std::to_string(i), std::to_string(i) + "\n");
        files += "blobs/" + std::to_string(i) + "\n";
    }
    auto hashes =
        cptest::sh("cd " + cptest::q(repo.dir()) + " && git hash-object -w --stdin-paths", files);
    REQUIRE(hashes.status == 0);
    std::map<std::string, int> prefixes;
    std::string ambiguous;
    for (size_t pos = 0; pos + 40 <= hashes.out.size(); pos += 41)
        if (++prefixes[hashes.out.substr(pos, 4)] == 2) ambiguous = hashes.out.substr(pos, 4);
    REQUIRE_FALSE(ambiguous.empty());
    auto r = Probe{repo, ambiguous, std::nullopt}.one("a.txt:1");
    CHECK(r.status == Status::Unresolved);
    CHECK(r.reason.value_or("").starts_with("base " + ambiguous + " is ambiguous ("));
    CHECK(r.reason.value_or("").find(" blob") != std::string::npos);
    CHECK(r.reason.value_or("").ends_with("; give more hex digits"));
}

TEST_CASE("symbols: a whole word inside the lines at target") {
    Repo repo;
    repo.write("a.c", "int parse_args(void);\nint other;\nint parse_args2;\n");
    auto base = repo.commit();
    repo.write("a.c", "// top\nint parse_args(void);\nint other;\nint parse_args2;\n");
    Probe p{repo, base, std::nullopt};
    auto r = p.run({"a.c:1@parse_args", "a.c:3@parse_args", "a.c:2-3@other", "a.c:1"});
    CHECK(r[0].symbol_found == true);
    CHECK(r[0].ok());
    CHECK(r[1].symbol_found == false);  // only parse_args2 there
    CHECK_FALSE(r[1].ok());
    CHECK(r[2].symbol_found == true);
    CHECK_FALSE(r[3].symbol_found.has_value());
}

TEST_CASE("a symbol in a range whose lines were deleted is missing") {
    Repo repo;
    repo.write("a.c", "a\nint f;\nb\n");
    auto base = repo.commit();
    repo.write("a.c", "a\nb\n");
    auto r = Probe{repo, base, std::nullopt}.one("a.c:2@f");
    CHECK(r.lines_deleted);
    CHECK(r.symbol_found == false);
}

TEST_CASE("binary files: unchanged is SAME, changed cannot be carried") {
    Repo repo;
    repo.write("img.bin", std::string("\x89PNG\0\0\x01\n\x02\n", 11));
    auto base = repo.commit();
    Probe p{repo, base, std::nullopt};
    auto same = p.one("img.bin:1");
    CHECK(same.status == Status::Same);
    CHECK(same.binary);
    repo.write("img.bin", std::string("\x89PNG\0\0\x03\n\x04\n", 11));
    auto changed = p.one("img.bin:1");
    CHECK(changed.status == Status::Unresolved);
    CHECK(changed.binary);
    CHECK(changed.reason.value_or("").find("binary") != std::string::npos);
}

TEST_CASE("CRLF files map by lines, with and without core.autocrlf") {
    Repo repo;
    auto autocrlf = GENERATE(false, true);
    INFO("core.autocrlf " << autocrlf);
    if (autocrlf) repo.git("config core.autocrlf true");  // stored as LF, CRLF on disk
    repo.write("w.txt", "a\r\nb\r\nc\r\nd\r\n");
    auto base = repo.commit();
    repo.write("w.txt", "new\r\na\r\nb\r\nC\r\nd\r\n");
    auto r = Probe{repo, base, std::nullopt}.run({"w.txt:1-2", "w.txt:3", "w.txt:4@d"});
    check_at(r[0], Status::Moved, "w.txt", 2, 3);
    check_at(r[1], Status::Touched, "w.txt", 4, 4);
    CHECK(r[2].symbol_found == true);  // the '\r' is not part of the word's neighbourhood
}

TEST_CASE("an emptied file under a CRLF filter is diffed without crashing") {
    Repo repo;
    repo.git("config core.autocrlf true");
    repo.write("a.txt", "one\ntwo\n");
    auto base = repo.commit();
    repo.write("a.txt", "");
    auto r = Probe{repo, base, std::nullopt}.one("a.txt:1-2");
    check_at(r, Status::Touched, "a.txt", 1, 0);
    CHECK(r.lines_deleted);
}

TEST_CASE("files without a final newline and empty files") {
    Repo repo;
    repo.write("n.txt", "a\nb");
    repo.write("e.txt", "");
    auto base = repo.commit();
    repo.write("n.txt", "a\nb\nc\n");  // git shows the last line as changed
    repo.write("e.txt", "x\n");
    auto r = Probe{repo, base, std::nullopt}.run({"n.txt:1", "n.txt:2"});
    check_at(r[0], Status::Same, "n.txt", 1, 1);
    check_at(r[1], Status::Touched, "n.txt", 2, 3);
}

TEST_CASE("a bare repository's default target is HEAD") {
    Repo work;
    work.write("a.txt", numbered(5));
    auto base = work.commit();
    work.write("a.txt", "top\n" + numbered(5));
    auto head = work.commit();
    Repo bare(true);
    work.git("push -q " + cptest::q(bare.dir()) + " main");
    auto opened = cp::git::Repository::open(bare.dir());
    REQUIRE(opened.ok());
    CHECK(opened->is_bare());
    auto r = Probe{bare, base, std::nullopt}.one("a.txt:2-3");
    check_at(r, Status::Moved, "a.txt", 3, 4);
    cp::Spec spec;
    spec.base = base;
    auto report = resolve_in(bare, spec);
    REQUIRE(report.ok());
    CHECK(report->specs[0].target == cp::Target::at(head));
}

TEST_CASE("symlinks and submodules get their own answers") {
    Repo repo;
    repo.write("real.txt", "x\n");
    cptest::sh("ln -s real.txt " + cptest::q(repo.at("link.txt")));
    auto base = repo.commit();
    repo.git("update-index --add --cacheinfo 160000," + base + ",vendor/lib");
    repo.git("commit -q -m submodule");
    auto with_sub = repo.head();
    Probe p{repo, with_sub, std::nullopt};
    auto link = p.one("link.txt:1");
    CHECK(link.status == Status::Unresolved);
    CHECK(link.reason == "link.txt is a symlink at base, not a file");
    auto inside = p.one("vendor/lib/src/a.c:1");
    CHECK(inside.status == Status::Unresolved);
    CHECK(inside.reason ==
          "vendor/lib/src/a.c lies inside submodule vendor/lib at base; anchor files of this "
          "repository");
    CHECK(p.one("vendor/lib:1").reason == "vendor/lib is a submodule at base, not a file");
}

TEST_CASE("the target option and a spec's own target pick the commit") {
    Repo repo;
    repo.write("a.txt", numbered(5));
    auto base = repo.commit();
    repo.write("a.txt", "x\n" + numbered(5));
    auto t1 = repo.commit();
    repo.write("a.txt", "x\ny\n" + numbered(5));
    repo.commit();
    cp::Spec spec;
    spec.base = base;
    spec.target = t1;
    spec.anchors.push_back(cp::parse_anchor_arg("a.txt:1").value());
    auto own = resolve_in(repo, spec);
    REQUIRE(own.ok());
    check_at(own->specs[0].anchors[0], Status::Moved, "a.txt", 2, 2);
    auto overridden = resolve_in(repo, spec, with_target("HEAD"));
    REQUIRE(overridden.ok());
    check_at(overridden->specs[0].anchors[0], Status::Moved, "a.txt", 3, 3);
    auto missing = resolve_in(repo, spec, with_target("nope"));
    REQUIRE(missing.ok());
    CHECK(missing->specs[0].anchors[0].reason ==
          "target nope not in this repository; if it is on the remote, fetch it (git fetch "
          "origin) or give its full commit id");
}

TEST_CASE("a case-only rename is a rename") {
    Repo repo;
    repo.write("readme.md", numbered(4));
    auto base = repo.commit();
    repo.git("mv readme.md README.md");
    check_at(Probe{repo, base, std::nullopt}.one("readme.md:2"), Status::Same, "README.md", 2, 2,
             true);
}

TEST_CASE("the answers never depend on the threads that read and diff, nor on the cache") {
    // A history where every kind of outcome occurs across several (base, target) pairs and the
    // working tree: edits, renames, deletions, additions, a binary file, a file over the size
    // limit, lost lines found again by content. Resolving on the main thread alone (jobs 1)
    // and with pools of several sizes (--jobs), and with content caches too small to keep
    // anything (--cache-mib), must print the same report, byte for byte. Specs on one pair are
    // not next to each other: they are resolved pair by pair, and reported in input order.
    Repo repo;
    std::mt19937 gen(20261130);
    auto pick = [&](int n) { return int(gen() % unsigned(n)); };
    std::map<std::string, std::vector<std::string>> files;
    for (int i = 0; i < 24; ++i) {
        std::vector<std::string> lines;
        for (int n = 0, count = 30 + pick(90); n < count; ++n)
            lines.push_back(fmt::format("int f{}_{}(void) {{ return {}; }}", i, n, pick(1000)));
        files[fmt::format("{}f{}.c", i % 4 == 0 ? "src/" : "", i)] = lines;
    }
    auto write_all = [&] {
        for (const auto& [path, lines] : files) {
            std::string text;
            for (const auto& l : lines) text += l + "\n";
            repo.write(path, text);
        }
    };
    write_all();
    repo.write("logo.bin", std::string("\0\1\2binary", 9));
    repo.write("big.txt", std::string(6000, 'x') + "\n");
    auto table = [&](int c) {
        repo.write("table.gen",
                   numbered(29, "row") + fmt::format("version {}\n", c) + numbered(30, "more"));
    };
    table(0);
    std::vector<std::string> commits{repo.commit("c0")};
    for (int c = 1; c <= 4; ++c) {
        for (int e = 0; e < 12; ++e) {  // edits: insert, delete, change, move a block away
            auto it = std::next(files.begin(), pick(int(files.size())));
            auto& lines = it->second;
            int at = pick(int(lines.size()));
            switch (pick(4)) {
                case 0:
                    lines.insert(lines.begin() + at, fmt::format("// c{} e{}", c, e));
                    break;
                case 1:
                    lines.erase(lines.begin() + at);
                    break;
                case 2:
                    lines[at] += " /* edited */";
                    break;
                default: {
                    int n = std::min(4, int(lines.size()) - at);
                    std::vector<std::string> block(lines.begin() + at, lines.begin() + at + n);
                    lines.erase(lines.begin() + at, lines.begin() + at + n);
                    lines.insert(lines.begin() + pick(int(lines.size()) + 1), block.begin(),
                                 block.end());
                }
            }
        }
        write_all();
        auto moved = std::next(files.begin(), pick(int(files.size())));  // a rename
        std::string to = "moved_c" + std::to_string(c) + ".c";
        repo.git("mv " + cptest::q(moved->first) + " " + to);
        files[to] = moved->second;
        files.erase(moved);
        auto gone = std::next(files.begin(), pick(int(files.size())));  // a deletion
        repo.remove(gone->first);
        files.erase(gone);
        files[fmt::format("new{}.c", c)] = {"int added(void) { return 0; }"};
        write_all();
        repo.write("logo.bin", std::string("\0\1\2binary", 9) + std::to_string(c));
        table(c);
        commits.push_back(repo.commit("c" + std::to_string(c)));
    }
    // Text that the working tree's attributes make binary, in a .gitattributes no commit or
    // index has: a pool thread's reader must ask them as the main handle does.
    repo.write(".gitattributes", "*.gen -diff\n");
    // The working tree: an unstaged edit, a staged rename with an edit on top, an untracked copy.
    files.begin()->second.insert(files.begin()->second.begin() + 2, "// uncommitted");
    write_all();
    repo.git("mv " + cptest::q(std::next(files.begin(), 3)->first) + " staged.c");
    repo.write("staged.c", repo.read("staged.c") + "// on top\n");
    repo.write("untracked.c", repo.read(std::next(files.begin(), 5)->first));
    repo.remove(std::next(files.begin(), 5)->first);

    std::vector<cp::Spec> specs;
    std::vector<std::pair<int, int>> pairs{{0, 4},  {1, 3},  {0, 2}, {2, 4}, {4, 4},
                                           {0, -1}, {3, -1}, {1, 3}, {0, 4}, {0, -1}};
    for (auto [b, t] : pairs) {
        cp::Spec spec;
        spec.source = "spec " + std::to_string(specs.size());
        spec.base = commits[std::size_t(b)];
        if (t >= 0) spec.target = commits[std::size_t(t)];
        auto listing = repo.git("ls-tree -r --name-only " + commits[std::size_t(b)]);
        std::istringstream names(listing);
        for (std::string path; std::getline(names, path);) {
            for (int k = 0; k < 3; ++k) {
                cp::Anchor a;
                a.path = path;
                a.line = 1 + pick(40);
                a.end_line = a.line + pick(6);
                if (pick(2)) a.symbol = fmt::format("f{}", pick(30));
                spec.anchors.push_back(a);
            }
        }
        spec.anchors.push_back(cp::parse_anchor_arg("absent/at/base.c:3").value());
        specs.push_back(spec);
    }

    auto report_with = [&](unsigned jobs, std::uint64_t cache_bytes = cp::kDefaultCacheBytes,
                           const cp::ResolveOptions& asked = {}) {
        auto opened = cp::git::Repository::open(repo.dir());
        REQUIRE(opened.ok());
        opened->set_max_file_bytes(4096);  // big.txt is over it
        cp::Content content(opened.value(), cache_bytes);
        auto pool = cp::Pool::start(opened.value(), jobs);
        CHECK((pool ? pool->size() : 1) == jobs);
        cp::ResolveOptions options = asked;
        std::vector<std::string> told;
        options.on_spec = [&](const cp::SpecReport& s) { told.push_back(s.source); };
        auto report = cp::resolve(content, specs, options, pool.get());
        INFO((report.ok() ? "" : report.error().message));
        REQUIRE(report.ok());
        REQUIRE(told.size() == specs.size());
        for (std::size_t i = 0; i < specs.size(); ++i) CHECK(told[i] == specs[i].source);
        CHECK(content.kept_bytes() <= std::max<std::uint64_t>(cache_bytes, 4096));
        std::ostringstream out;
        cp::print_json(out, report.value());
        return std::make_pair(out.str(), report.value());
    };
    auto [alone, report] = report_with(1);
    std::set<std::string> outcomes;
    for (const auto& s : report.specs)
        for (const auto& a : s.anchors) outcomes.insert(a.status_label());
    INFO("outcomes: " << fmt::format("{}", fmt::join(outcomes, ", ")));
    CHECK(outcomes.size() >= 8);   // the fixture is varied enough to mean something
    std::size_t by_attribute = 0;  // table.gen's anchors, binary by .gitattributes alone
    for (const auto& s : report.specs)
        for (const auto& a : s.anchors)
            by_attribute += a.anchor.path == "table.gen" && a.binary && a.reason &&
                            a.reason->find("binary file table.gen changed") != std::string::npos;
    CHECK(by_attribute > 0);
    for (unsigned jobs : {2u, 3u, 8u}) {
        INFO("jobs " << jobs);
        CHECK(report_with(jobs).first == alone);
    }
    for (unsigned jobs : {1u, 2u}) {
        for (std::uint64_t cache : {std::uint64_t{0}, std::uint64_t{2000}}) {
            INFO("jobs " << jobs << ", cache of " << cache << " bytes");
            CHECK(report_with(jobs, cache).first == alone);
        }
    }
    // --history and --since, which a pool thread answers for the pairs it resolves.
    cp::ResolveOptions deeper;
    deeper.history = true;
    deeper.since = commits[1];
    auto [followed, with_history] = report_with(1, cp::kDefaultCacheBytes, deeper);
    std::size_t histories = 0, edited = 0;
    for (const auto& s : with_history.specs)
        for (const auto& a : s.anchors) {
            histories += a.history && !a.history->empty();
            edited += a.edited_since == true;
        }
    CHECK(histories > 0);
    CHECK(edited > 0);
    for (unsigned jobs : {2u, 3u}) {
        INFO("jobs " << jobs << ", --history and --since");
        CHECK(report_with(jobs, cp::kDefaultCacheBytes, deeper).first == followed);
    }
}

TEST_CASE("a batch's revisions looked up on the pool give the main thread's answers") {
    // Sixteen distinct names or more are shared among the pool's threads, each asking its own
    // reader: commits by full and short id, branch, tag and ancestry, and names that fail each
    // way. Every spec's header and problem must be the main thread's alone, byte for byte.
    Repo repo;
    std::vector<std::string> commits;
    for (int c = 0; c < 6; ++c) {
        repo.write("a.c", numbered(10 + c));
        commits.push_back(repo.commit("c" + std::to_string(c)));
    }
    repo.git("tag v1 " + commits[1]);
    repo.git("tag -a -m annotated v2 " + commits[2]);
    repo.git("branch side " + commits[3]);
    std::string blob = repo.git("rev-parse HEAD:a.c");
    blob.erase(blob.find_last_not_of("\n") + 1);
    std::vector<std::string> names{"HEAD",    "HEAD~1",    "HEAD^^^",   "v1", "v2",
                                   "side",    "side~2",    "no-branch", blob, "HEAD..v1",
                                   "HEAD~99", "v2^{tree}", ""};
    for (const auto& c : commits) {
        names.push_back(c);
        names.push_back(c.substr(0, 9));
    }
    REQUIRE(names.size() >= 16);
    std::vector<cp::Spec> specs;
    for (std::size_t i = 0; i < names.size(); ++i) {
        cp::Spec spec;
        spec.source = "spec " + std::to_string(i);
        spec.base = names[i];
        spec.target = names[(i + 5) % names.size()];
        spec.anchors.push_back(cp::parse_anchor_arg("a.c:3").value());
        specs.push_back(spec);
    }
    auto report_with = [&](unsigned jobs) {
        auto opened = cp::git::Repository::open(repo.dir());
        REQUIRE(opened.ok());
        cp::Content content(opened.value());
        auto pool = cp::Pool::start(opened.value(), jobs);
        CHECK((pool ? pool->size() : 1) == jobs);
        auto report = cp::resolve(content, specs, {}, pool.get());
        REQUIRE(report.ok());
        std::ostringstream out;
        cp::print_json(out, report.value());
        return std::make_pair(out.str(), report.value());
    };
    auto [alone, report] = report_with(1);
    std::set<std::string> problems;  // the failing names' kinds, to mean something
    std::size_t resolved = 0;
    for (const auto& s : report.specs) {
        resolved += !s.base.empty();
        const auto& why = s.anchors.front().reason;
        if (why && why->find("not in this repository") != std::string::npos)
            problems.insert("missing");
        if (why && why->find("not a commit") != std::string::npos) problems.insert("not a commit");
        if (why && why->find("not a valid revision") != std::string::npos)
            problems.insert("invalid");
    }
    CHECK(resolved >= 16);
    CHECK(problems.size() == 3);
    for (unsigned jobs : {2u, 3u}) {
        INFO("jobs " << jobs);
        CHECK(report_with(jobs).first == alone);
    }
}

TEST_CASE("the working tree settled path by path gives the whole diff's report") {
    // Every anchored path qualifies for the partial diff (no attributes, plain index entries,
    // regular files), so resolution takes it; with it turned off, the whole diff. Lost lines
    // are found in an untracked file no anchor names (which needs the whole diff after all),
    // a mode changes, anchors name new files, present or not.
    Repo repo;
    std::string block = "int moved_away(int x) {\n    int y = x * 3 + 1;\n    return y - 7;\n}\n";
    repo.write("a.c", numbered(30, "a") + block + numbered(10, "tail"));
    repo.write("b.c", numbered(40, "b"));
    repo.write("src/c.c", numbered(25, "c"));
    repo.write("src/d.c", numbered(12, "d"));
    auto base = repo.commit();
    repo.write("src/d.c", "// committed since base\n" + numbered(12, "d"));
    repo.commit();
    repo.write("a.c", numbered(30, "a") + numbered(10, "tail"));  // the block leaves a.c
    auto span = [](const std::string& prefix, int from, int to) {
        std::string out;
        for (int i = from; i <= to; ++i) out += prefix + std::to_string(i) + "\n";
        return out;
    };
    repo.write("b.c", span("b", 1, 20) + "// edited\n" + span("b", 21, 40));
    repo.write("src/moved.c", "// new, untracked\n" + block);  // where the block went
    repo.write("src/c.c", span("c", 1, 5) + "// staged\n" + span("c", 6, 25));
    repo.git("add src/c.c");
    repo.write("src/c.c", "// unstaged\n" + repo.read("src/c.c"));
    cptest::sh("chmod +x " + cptest::q(repo.at("src/d.c")));
    repo.write("present-new.c", "int fresh;\n");

    cp::Spec spec;
    spec.source = "test";
    spec.base = base;
    for (const char* a :
         {"a.c:31-34@moved_away", "a.c:5-8", "a.c:36@tail6", "b.c:10-25", "src/c.c:3-9@c4",
          "src/c.c:20", "src/d.c:1-12@d3", "present-new.c:1", "absent-new.c:1"})
        spec.anchors.push_back(cp::parse_anchor_arg(a).value());

    auto opened = cp::git::Repository::open(repo.dir());
    REQUIRE(opened.ok());
    std::vector<std::string> paths;
    for (const auto& a : spec.anchors) paths.push_back(a.path);
    auto partial = opened->worktree_diff_of(base, paths);
    REQUIRE(partial.ok());
    REQUIRE(partial.value().has_value() != std::filesystem::exists("/etc/gitattributes"));

    auto report_with = [&](bool alone, unsigned jobs) {
        cp::Content content(opened.value());
        auto pool = cp::Pool::start(opened.value(), jobs);
        cp::ResolveOptions options;
        options.settle_paths_alone = alone;
        auto report = cp::resolve(content, {spec}, options, pool.get());
        INFO((report.ok() ? "" : report.error().message));
        REQUIRE(report.ok());
        std::ostringstream out;
        cp::print_json(out, report.value());
        return std::make_pair(out.str(), report.value());
    };
    auto [whole, report] = report_with(false, 1);
    const auto& anchors = report.specs.at(0).anchors;
    REQUIRE(anchors[0].relocation.has_value());
    // Found again in a file no anchor names, and taken: its lines are there now.
    REQUIRE(anchors[0].relocation->moved());
    CHECK(anchors[0].status == Status::Moved);
    REQUIRE(anchors[0].to.has_value());
    CHECK(anchors[0].to->path == "src/moved.c");
    CHECK(anchors[0].to->line == 2);
    CHECK(anchors[7].status == Status::New);
    CHECK(anchors[7].exists_at_target == true);
    CHECK(anchors[8].exists_at_target == false);
    CHECK(report_with(true, 1).first == whole);
    CHECK(report_with(true, 2).first == whole);
}

TEST_CASE("relocation searches more changed files than it keeps prepared, with blobs given up") {
    // Relocation prepares each target file's lines once (a haystack) and keeps at most 32
    // while their bytes are held. Here an anchor's lines are deleted and found nowhere, so both
    // passes (exact, then whitespace-blind) search its own file and 31 other changed files,
    // which fill the 32; with a content cache that keeps nothing, the second pass finds each
    // kept haystack's bytes given up, exactly when the full set is thinned. Once that freed a
    // haystack and then wrote the new one into it (a heap corruption that a batch over real
    // history met as an abort); the answer must be the default cache's.
    Repo repo;
    for (int i = 0; i < 31; ++i)
        repo.write(fmt::format("other{:02}.c", i), numbered(40, fmt::format("int other{}_", i)));
    repo.write("own.c", numbered(10, "int keep_") + "int lost_block_one(void);\n" +
                            "int lost_block_two(void);\n" + "int lost_block_three(void);\n" +
                            numbered(10, "int tail_"));
    const std::string base = repo.commit("base");
    for (int i = 0; i < 31; ++i)
        repo.write(fmt::format("other{:02}.c", i),
                   numbered(40, fmt::format("int other{}_", i)) + "int added(void);\n");
    repo.write("own.c", numbered(10, "int keep_") + numbered(10, "int tail_"));
    const std::string target = repo.commit("target");

    cp::Spec spec;
    spec.source = "test";
    spec.base = base;
    spec.target = target;
    spec.anchors.push_back(cp::parse_anchor_arg("own.c:11-13").value());
    auto run = [&](std::uint64_t cache_bytes) {
        auto opened = cp::git::Repository::open(repo.dir());
        REQUIRE(opened.ok());
        cp::Content content(opened.value(), cache_bytes);
        cp::ResolveOptions options;
        auto report = cp::resolve(content, {spec}, options);
        INFO((report.ok() ? "" : report.error().message));
        REQUIRE(report.ok());
        std::ostringstream out;
        cp::print_json(out, report.value());
        return std::make_pair(out.str(), report->specs.at(0).anchors.at(0));
    };
    auto [kept_nothing, r] = run(0);
    INFO(r.status_label() << " " << r.reason.value_or(""));
    CHECK(r.status == Status::Touched);
    CHECK(r.lines_deleted);
    CHECK_FALSE(r.relocation.has_value());  // searched everywhere, found nowhere
    CHECK(kept_nothing == run(cp::kDefaultCacheBytes).first);
}
