// Rows of docs/bad-input.md for objects the store cannot give (issue 13): damaged loose and
// packed objects, a damaged or missing base and target, and a partial clone's missing blobs.
// Each fixture is built with the git CLI; the anchors that need what is lost are UNRESOLVED
// with the diagnosis and the mend, and the rest of the pack is printed.
#include <chrono>
#include <filesystem>
#include <sstream>
#include <string>

#include "support/catch.hpp"
#include "support/fixture.hpp"
#include "support/outcome.hpp"

using cptest::context_pack;
using cptest::Output;
using cptest::q;
using cptest::Repo;
using cptest::sh;
using cptest::unresolved;
using cptest::usage_error;

namespace {

bool has(const Output& o, const std::string& text) {
    return o.out.find(text) != std::string::npos;
}

std::string trimmed(std::string s) {
    while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.pop_back();
    return s;
}

std::string id_of(const Repo& repo, const std::string& rev) {
    return trimmed(repo.git("rev-parse " + q(rev)));
}

std::string short_id(const std::string& id) {
    return id.substr(0, 10);
}

// The loose object file of `id`, made writable.
std::string loose_file(const Repo& repo, const std::string& id) {
    auto file = repo.at(".git/objects/" + id.substr(0, 2) + "/" + id.substr(2));
    REQUIRE(sh("chmod u+w " + q(file)).status == 0);
    return file;
}

// The ways a loose object file is damaged: cut short (libgit2 1.5 would loop forever on it),
// overwritten with bytes that are no zlib stream, and replaced by another object's file
// (well-formed, so only its id tells).
enum class Damage { Truncated, Garbage, Swapped };

void damage(const Repo& repo, const std::string& id, Damage how, const std::string& other = "") {
    auto file = loose_file(repo, id);
    std::string command;
    switch (how) {
        case Damage::Truncated:
            command = "head -c " + std::to_string(std::filesystem::file_size(file) / 2) + " " +
                      q(file) + " > " + q(file + ".cut") + " && mv " + q(file + ".cut") + " " +
                      q(file);
            break;
        case Damage::Garbage:
            command = "echo garbage > " + q(file);
            break;
        case Damage::Swapped:
            command = "cp " +
                      q(repo.at(".git/objects/" + other.substr(0, 2) + "/" + other.substr(2))) +
                      " " + q(file);
            break;
    }
    REQUIRE(sh(command).status == 0);
}

Output run(const Repo& repo, const std::string& args) {
    return context_pack(repo.dir(), "--table " + args);
}

// A spec on stdin whose own base is `base`, reading line 1 of each of `paths` (a base that
// cannot be read is the spec's UNRESOLVED; typed as --base it would be exit 2).
Output run_spec(const Repo& repo, const std::string& base, const std::string& args,
                const std::vector<std::string>& paths) {
    std::string reads;
    for (const auto& p : paths)
        reads += std::string(reads.empty() ? "" : ", ") + R"({"location": {"path": ")" + p +
                 R"(", "line": 1}})";
    return context_pack(repo.dir(), "--table " + args + " -",
                        R"({"base": ")" + base + R"(", "reads": [)" + reads + "]}");
}

// A repository with a.c, b.c and dir/x.c at base.
struct Simple {
    Repo repo;
    std::string base;
    Simple() {
        repo.write("a.c", cptest::numbered(20, "alpha "));
        repo.write("b.c", cptest::numbered(5, "beta "));
        repo.write("dir/x.c", cptest::numbered(6, "ex "));
        repo.write("dir/y.c", "y\n");
        base = repo.commit("base");
    }
};

// A source repository that serves partial clones, and a blob:none clone of it.
struct PartialClone {
    Repo source;
    cptest::TempDir dir;
    std::string base, clone;
    PartialClone() {
        source.git("config uploadpack.allowFilter true");
        source.write("a.c", cptest::numbered(20, "alpha "));
        source.write("b.c", "int callme;\n");
        source.write("c.c", "callme();\n");
        source.write("gone.c", cptest::numbered(12, "gone line "));
        source.write("other.c", cptest::numbered(12, "other line "));
        base = source.commit("base");
        // a.c edited; gone.c renamed to kept.c with an edit; other.c deleted.
        source.write("a.c", "new first\n" + cptest::numbered(20, "alpha "));
        source.remove("gone.c");
        source.write("kept.c", cptest::numbered(11, "gone line ") + "an edit\n");
        source.remove("other.c");
        source.commit("change");
        clone = dir.path() + "/clone";
        auto cloned =
            sh("git clone -q --filter=blob:none file://" + source.dir() + " " + q(clone) + " 2>&1");
        INFO(cloned.out);
        REQUIRE(cloned.status == 0);
    }
    Output run(const std::string& args) const { return context_pack(clone, "--table " + args); }
    Output git(const std::string& args) const {
        return sh("cd " + q(clone) + " && GIT_NO_LAZY_FETCH=1 git " + args + " 2>&1");
    }
    bool missing(const std::string& id) const {
        return git("rev-list --objects --missing=print " + base).out.find("?" + id) !=
               std::string::npos;
    }
    std::string blob_at_base(const std::string& path) const {
        return trimmed(source.git("rev-parse " + base + ":" + path));
    }
};

// The `git fetch …` command at the end of a reason, up to the end of its line.
std::string mend_in(const Output& o) {
    auto at = o.out.find("git fetch ");
    if (at == std::string::npos) return {};
    return trimmed(o.out.substr(at, o.out.find('\n', at) - at));
}

}  // namespace

TEST_CASE("bad input B70: a damaged loose object an anchor needs") {
    SECTION("cut short, garbage, or another object's file") {
        for (Damage how : {Damage::Truncated, Damage::Garbage, Damage::Swapped}) {
            Simple s;
            const std::string blob = id_of(s.repo, "HEAD:a.c");
            damage(s.repo, blob, how, id_of(s.repo, "HEAD:b.c"));
            // git itself calls it damaged.
            CHECK(s.repo.git_status("fsck --full 2>&1").status != 0);
            for (const std::string& target : {std::string(" --target HEAD"), std::string()}) {
                auto o =
                    run(s.repo, "--base " + s.base + target + " --anchor a.c:2 --anchor b.c:1");
                INFO(int(how) << target);
                unresolved(
                    o, "blob " + short_id(blob) + " of a.c at base is damaged in the object store");
                CHECK(has(o, "git fsck names what is broken; restore it from a good clone"));
                CHECK_FALSE(has(o, "git fetch"));
                CHECK(has(o, "2  read  b.c:1    SAME        b.c:1"));
            }
        }
    }
    SECTION("each way says what is wrong with it") {
        Simple s;
        const std::string blob = id_of(s.repo, "HEAD:a.c");
        auto says = [&](Damage how, const std::string& what) {
            damage(s.repo, blob, how, id_of(s.repo, "HEAD:b.c"));
            auto o = run(s.repo, "--base " + s.base + " --anchor a.c:2");
            INFO(o.out);
            CHECK(has(o, what));
        };
        says(Damage::Truncated, "the file is cut short: its zlib stream ends early");
        says(Damage::Swapped, "its content is that of " + id_of(s.repo, "HEAD:b.c"));
    }
    SECTION("the blob at the target, and a blob missing from a full clone") {
        Simple s;
        s.repo.write("a.c", cptest::numbered(21, "alpha "));
        auto target = s.repo.commit("edit");
        const std::string blob = id_of(s.repo, "HEAD:a.c");
        damage(s.repo, blob, Damage::Garbage);
        auto o = run(s.repo, "--base " + s.base + " --target HEAD --anchor a.c:2 --anchor b.c:1");
        unresolved(o, "a.c at target: blob " + short_id(blob) + " is damaged in the object store");
        CHECK(has(o, "SAME        b.c:1"));
        REQUIRE(sh("rm " + q(loose_file(s.repo, blob))).status == 0);
        o = run(s.repo, "--base " + s.base + " --target HEAD --anchor a.c:2 --anchor b.c:1");
        unresolved(o, "a.c at target: blob " + short_id(blob) +
                          " is missing from the object store: git fsck names what is broken");
        CHECK(has(o, "SAME        b.c:1"));
    }
    SECTION("a file relocation would search") {
        Simple s;
        s.repo.write("other.c", "unrelated\n");
        s.repo.write("r.c", cptest::numbered(8, "a relocatable line "));
        s.base = s.repo.commit("other");
        // r.c loses lines 3-5, so relocation looks for them; other.c changes, and its new
        // blob is damaged.
        s.repo.write("r.c",
                     "a relocatable line 1\na relocatable line 2\na relocatable line 6\n"
                     "a relocatable line 7\na relocatable line 8\n");
        s.repo.write("other.c", "changed\n");
        s.repo.commit("change");
        const std::string blob = id_of(s.repo, "HEAD:other.c");
        damage(s.repo, blob, Damage::Garbage);
        auto o = context_pack(s.repo.dir(), "--base " + s.base + " --target HEAD --anchor r.c:3-5");
        INFO(o.out << o.err);
        CHECK(o.status == 1);  // its lines all deleted: the pack is printed, the run fails
        CHECK(has(o,
                  "its lines were not looked for where the object store could not give the "
                  "files: blob " +
                      short_id(blob) + " of other.c at target is damaged"));
    }
    SECTION("the state --since compares with") {
        Simple s;
        s.repo.write("b.c", "beta 0\n" + cptest::numbered(5, "beta "));
        auto since = s.repo.commit("since");
        s.repo.write("b.c", "beta 0\n" + cptest::numbered(5, "beta ") + "beta 6\n");
        s.repo.commit("target");
        const std::string then = id_of(s.repo, since + ":b.c");
        damage(s.repo, then, Damage::Garbage);
        // b.c is carried onto the target; whether an edit since touched it is not known.
        auto o = run(s.repo, "--base " + s.base + " --since " + since +
                                 " --target HEAD --anchor b.c:2 --anchor a.c:1");
        INFO(o.out << o.err);
        CHECK(o.status == 0);
        CHECK(has(o, "MOVED   b.c:3"));
        CHECK(has(o, "whether it was edited since " + since +
                         " cannot be told: b.c at target: "
                         "blob " +
                         short_id(then) + " is damaged in the object store"));
    }
    SECTION("its window and its callers") {
        Simple s;
        s.repo.write("callers.c", "alpha 3 is used here\n");
        s.base = s.repo.commit("callers");
        const std::string blob = id_of(s.repo, "HEAD:callers.c");
        damage(s.repo, blob, Damage::Garbage);
        // A window is printed, a file the scan cannot read is named, and the run goes on.
        auto o = context_pack(s.repo.dir(),
                              "--base " + s.base + " --target HEAD --anchor 'a.c:3@alpha'");
        INFO(o.out << o.err);
        CHECK(o.status == 0);
        CHECK(has(o,
                  "callers were not searched in 1 tracked path the object store could not "
                  "give; the first: blob " +
                      short_id(blob) + " of callers.c is damaged"));
        CHECK(has(o, "> 3 | alpha 3"));
    }
}

TEST_CASE("bad input B71: a damaged tree on an anchor's way, and a damaged pack entry") {
    SECTION("a tree at base the diff does not read, and one it does") {
        Simple s;
        s.repo.write("dir/y.c", "y changed\n");
        s.repo.write("a.c", cptest::numbered(20, "alpha ") + "more\n");
        auto target = s.repo.commit("edit");
        const std::string base_dir = id_of(s.repo, s.base + ":dir");
        damage(s.repo, base_dir, Damage::Garbage);
        for (const std::string& to : {" --target " + target, std::string()}) {
            auto o = run(s.repo, "--base " + s.base + to + " --anchor dir/x.c:2 --anchor a.c:2");
            INFO(to);
            unresolved(o, "dir/x.c at base: tree " + short_id(base_dir) +
                              " of dir is damaged in the object store");
            CHECK(has(o, "2  read  a.c:2      SAME        a.c:2"));
        }
    }
    SECTION("a tree at the target: what lies beneath is not known, nor where a file went") {
        Simple s;
        s.repo.write("dir/y.c", "y changed\n");
        s.repo.remove("b.c");
        auto target = s.repo.commit("edit");
        const std::string target_dir = id_of(s.repo, target + ":dir");
        damage(s.repo, target_dir, Damage::Truncated);
        auto o = run(s.repo, "--base " + s.base + " --target " + target +
                                 " --anchor dir/x.c:2 --anchor b.c:1 --anchor a.c:2");
        unresolved(o, "dir/x.c lies beneath what the diff could not read: tree " +
                          short_id(target_dir) + " of dir at target is damaged");
        // b.c may have moved into dir/: its deletion is not taken for a GONE.
        CHECK(has(o,
                  "b.c deleted at target; whether it was renamed cannot be told, as rename "
                  "detection could not read all it compares: tree " +
                      short_id(target_dir)));
        CHECK_FALSE(has(o, "GONE"));
        CHECK(has(o, "3  read  a.c:2      SAME        a.c:2"));
    }
    SECTION("a packed blob whose compressed bytes are damaged") {
        Simple s;
        s.repo.write("big.c", cptest::numbered(400, "a line of the packed file, number "));
        s.base = s.repo.commit("big");
        s.repo.git("repack -adq");
        s.repo.git("prune-packed");
        const std::string blob = id_of(s.repo, "HEAD:big.c");
        // verify-pack: "<id> blob <size> <size in pack> <offset>"
        auto listed = sh("cd " + q(s.repo.dir()) +
                         " && git verify-pack -v .git/objects/pack/*.idx | grep '^" + blob + "'");
        REQUIRE(listed.status == 0);
        std::string id, type;
        long size = 0, packed = 0, offset = 0;
        std::istringstream(listed.out) >> id >> type >> size >> packed >> offset;
        REQUIRE(packed > 40);
        auto flip = sh("cd " + q(s.repo.dir()) +
                       " && p=$(ls .git/objects/pack/*.pack) && chmod u+w $p && printf 'XXXX' | "
                       "dd of=$p bs=1 seek=" +
                       std::to_string(offset + packed / 2) + " conv=notrunc");
        REQUIRE(flip.status == 0);
        CHECK(s.repo.git_status("fsck --full 2>&1").status != 0);
        auto o = run(s.repo, "--base " + s.base + " --target HEAD --anchor big.c:2 --anchor a.c:1");
        unresolved(o,
                   "blob " + short_id(blob) + " of big.c at base is damaged in the object store");
        CHECK(has(o, "git fsck names what is broken"));
        CHECK(has(o, "SAME        a.c:1"));
    }
}

TEST_CASE("bad input B72: a damaged or missing base or target commit") {
    Simple s;
    s.repo.write("a.c", cptest::numbered(21, "alpha "));
    auto target = s.repo.commit("edit");
    s.repo.git("branch old " + s.base);
    const std::string commit_file = loose_file(s.repo, s.base);
    REQUIRE(sh("cp " + q(commit_file) + " " + q(commit_file + ".good")).status == 0);
    auto restore = [&] {
        REQUIRE(sh("cp " + q(commit_file + ".good") + " " + q(commit_file)).status == 0);
    };
    damage(s.repo, s.base, Damage::Garbage);
    // Damaged, by id or by a branch: every anchor of the spec says so, with git fsck; no fetch.
    // Typed as --base, the same words end the run (exit 2).
    usage_error(run(s.repo, "--base " + s.base + " --anchor a.c:1"),
                "--base " + s.base + ": object " + short_id(s.base) + " is damaged");
    for (const std::string& base : {s.base, std::string("old")}) {
        auto o = run_spec(s.repo, base, "--target HEAD", {"a.c", "b.c"});
        INFO(base);
        unresolved(
            o, "base " + base + ": object " + short_id(s.base) + " is damaged in the object store");
        CHECK(has(o, "git fsck names what is broken"));
        CHECK_FALSE(has(o, "git fetch"));
    }
    // As the target on the command line, it is a usage error, as any --target that names no
    // commit.
    usage_error(run(s.repo, "--base HEAD --target " + s.base + " --anchor a.c:1"),
                "--target " + s.base + ": object " + short_id(s.base) + " is damaged");
    // Its tree damaged: the commit is as unusable.
    restore();
    const std::string tree = id_of(s.repo, s.base + "^{tree}");
    damage(s.repo, tree, Damage::Truncated);
    unresolved(run_spec(s.repo, s.base, "--target HEAD", {"a.c"}),
               "base " + s.base + ": tree " + short_id(tree) + " of commit " + short_id(s.base) +
                   " is damaged in the object store");
    usage_error(
        run(s.repo, "--base HEAD --target old --anchor a.c:1"),
        "--target old: tree " + short_id(tree) + " of commit " + short_id(s.base) + " is damaged");
    // Missing is not damaged: a fetch may bring it (B04), and a branch naming it says so.
    REQUIRE(sh("rm " + q(commit_file)).status == 0);
    unresolved(run_spec(s.repo, s.base, "", {"a.c"}),
               "base " + s.base + " not in this repository: git fetch origin " + s.base);
    unresolved(run_spec(s.repo, "old", "", {"a.c"}),
               "base old: object " + short_id(s.base) + " is missing from the object store");
}

TEST_CASE("bad input B73: a partial clone without the blob an anchor needs") {
    PartialClone pc;
    const std::string blob = pc.blob_at_base("a.c");
    REQUIRE(pc.missing(blob));
    auto o = pc.run("--base " + pc.base + " --anchor a.c:2 --anchor b.c:1");
    unresolved(o, "blob " + short_id(blob) +
                      " of a.c at base is not in this partial clone; fetch it from its promisor "
                      "remote: git fetch origin " +
                      blob);
    CHECK(has(o, "2  read  b.c:1    SAME        b.c:1"));
    CHECK_FALSE(has(o, "git fsck"));
    // The mend brings the blob, and the anchor resolves.
    auto fetched = pc.git(mend_in(o).substr(4));
    INFO(fetched.out);
    REQUIRE(fetched.status == 0);
    CHECK_FALSE(pc.missing(blob));
    auto again = pc.run("--base " + pc.base + " --anchor a.c:2 --anchor b.c:1");
    INFO(again.out << again.err);
    CHECK(again.status == 0);
    CHECK(has(again, "1  read  a.c:2    MOVED   a.c:3"));
    SECTION("a promisor remote by another name, in extensions.partialClone") {
        REQUIRE(sh("cd " + q(pc.clone) +
                   " && git remote rename origin 'up$stream' && git config --unset "
                   "'remote.up$stream.promisor' && git config extensions.partialClone 'up$stream'")
                    .status == 0);
        auto named = pc.run("--base " + pc.base + " --anchor gone.c:2");
        unresolved(named, "git fetch 'up$stream' " + pc.blob_at_base("gone.c"));
    }
}

TEST_CASE("bad input B74: a partial clone without blobs rename detection and callers compare") {
    PartialClone pc;
    // The anchor's own blob first, then what rename detection compares it with.
    auto o = pc.run("--base " + pc.base + " --anchor gone.c:2 --anchor b.c:1");
    unresolved(o, "blob " + short_id(pc.blob_at_base("gone.c")) + " of gone.c at base");
    REQUIRE(pc.git(mend_in(o).substr(4)).status == 0);
    o = pc.run("--base " + pc.base + " --anchor gone.c:2 --anchor b.c:1");
    const std::string other = pc.blob_at_base("other.c");
    unresolved(o,
               "gone.c deleted at target; whether it was renamed cannot be told, as rename "
               "detection could not read all it compares: blob " +
                   short_id(other) + " of other.c at base is not in this partial clone");
    CHECK_FALSE(has(o, "GONE"));
    CHECK(has(o, "SAME        b.c:1"));
    REQUIRE(mend_in(o) == "git fetch origin " + other);
    REQUIRE(pc.git(mend_in(o).substr(4)).status == 0);
    // With every blob there, the rename git finds.
    auto git = pc.source.git("diff -M --name-status " + pc.base + " HEAD");
    CHECK(git.find("\tgone.c\tkept.c") != std::string::npos);
    o = pc.run("--base " + pc.base + " --anchor gone.c:2 --anchor b.c:1");
    INFO(o.out << o.err);
    CHECK(o.status == 0);
    CHECK(has(o, "1  read  gone.c:2  SAME+RENAMED  kept.c:2"));

    SECTION("callers at a commit whose blobs were never fetched") {
        auto callers = context_pack(
            pc.clone, "--base " + pc.base + " --target " + pc.base + " --anchor 'b.c:1@callme'");
        INFO(callers.out << callers.err);
        CHECK(callers.status == 0);
        CHECK(has(callers,
                  "callers were not searched in 1 tracked path the object store "
                  "could not give; the first: blob " +
                      short_id(pc.blob_at_base("a.c")) + " of a.c is not in this partial clone"));
        CHECK(has(callers, "c.c:1: callme();"));
    }

    SECTION("more than eight blobs: git's own rename detection fetches them") {
        Repo source;
        source.git("config uploadpack.allowFilter true");
        for (int i = 0; i < 10; ++i)
            source.write("del" + std::to_string(i) + ".c",
                         cptest::numbered(6, "deleted " + std::to_string(i) + " line "));
        source.write("anchor.c", cptest::numbered(8, "anchored line "));
        auto base = source.commit("base");
        for (int i = 0; i < 10; ++i) source.remove("del" + std::to_string(i) + ".c");
        source.remove("anchor.c");
        source.write("new.c", "nothing like the others\n");
        auto change = source.commit("change");
        const std::string gone = "anchor.c deleted at target: deleted in " + change.substr(0, 12) +
                                 ", with no file of similar content there";
        const std::string clone = pc.dir.path() + "/many";
        REQUIRE(
            sh("git clone -q --filter=blob:none file://" + source.dir() + " " + q(clone)).status ==
            0);
        auto in_clone = [&](const std::string& command) {
            return sh("cd " + q(clone) + " && " + command + " 2>&1");
        };
        auto anchored = trimmed(source.git("rev-parse " + base + ":anchor.c"));
        REQUIRE(in_clone("git fetch -q origin " + anchored).status == 0);
        auto many = context_pack(clone, "--table --base " + base + " --anchor anchor.c:2");
        const std::string mend = "git diff -M --name-status " + base + " >/dev/null";
        unresolved(many,
                   "10 objects are not in this partial clone; git's own rename detection "
                   "fetches what it compares: " +
                       mend);
        // That command fetches them all (in a copy); or, with two left, one fetch names both.
        REQUIRE(sh("cp -r " + q(clone) + " " + q(clone + "2")).status == 0);
        REQUIRE(sh("cd " + q(clone + "2") + " && " + mend).status == 0);
        auto fetched = context_pack(clone + "2", "--table --base " + base + " --anchor anchor.c:2");
        INFO(fetched.out << fetched.err);
        CHECK(has(fetched, gone));
        std::string eight;
        for (int i = 0; i < 8; ++i)
            eight +=
                " " + trimmed(source.git("rev-parse " + base + ":del" + std::to_string(i) + ".c"));
        REQUIRE(in_clone("git fetch -q origin" + eight).status == 0);
        auto two = context_pack(clone, "--table --base " + base + " --anchor anchor.c:2");
        unresolved(two,
                   "2 objects are not in this partial clone; fetch them from its promisor "
                   "remote: git fetch origin " +
                       trimmed(source.git("rev-parse " + base + ":del8.c")) + " " +
                       trimmed(source.git("rev-parse " + base + ":del9.c")));
        REQUIRE(in_clone(mend_in(two)).status == 0);
        two = context_pack(clone, "--table --base " + base + " --anchor anchor.c:2");
        CHECK(has(two, gone));
    }
}

TEST_CASE("bad input B88: files of the git directory that are not regular files are refused") {
    // libgit2 opens them blocking, or reads them without end: each would hang the run. The
    // binary runs under the fixture's 10-second limit, so a hang fails (status 124).
    Repo repo;
    repo.write("a.c", cptest::numbered(5));
    const std::string base = repo.commit();
    repo.write("a.c", "top\n" + cptest::numbered(5));
    auto limited = [&](const std::string& env, const std::string& args) {
        return sh("cd " + q(repo.dir()) + " && " + env + " " + q(cptest::binary()) + " " + args, "",
                  std::chrono::seconds(10));
    };
    const std::string args = "--table --base " + base + " --anchor a.c:2";
    auto refused = [&](const std::string& at, const std::string& says,
                       const std::string& env = "") {
        auto o = limited(env, args);
        INFO(at << ": " << o.out << o.err);
        usage_error(o, at + " is " + says);
        CHECK(o.err.find("remove it (rm ") != std::string::npos);
    };
    const std::string git = repo.at(".git");
    auto swap_for_fifo = [&](const std::string& file) {
        REQUIRE(sh("rm -f " + q(file) + " && mkfifo " + q(file)).status == 0);
    };
    SECTION("the index, also as GIT_INDEX_FILE") {
        const std::string kept = repo.at("index.kept");
        REQUIRE(sh("cp " + q(git + "/index") + " " + q(kept)).status == 0);
        swap_for_fifo(git + "/index");
        refused(git + "/index", "a FIFO, which git and libgit2 would wait on forever");
        CHECK(limited("", args).err.find("and rebuild the index from HEAD (git reset)") !=
              std::string::npos);
        REQUIRE(
            sh("rm " + q(git + "/index") + " && mv " + q(kept) + " " + q(git + "/index")).status ==
            0);
        const std::string fifo = repo.at("other-index");
        swap_for_fifo(fifo);
        refused(fifo, "a FIFO", "GIT_INDEX_FILE=" + q(fifo));
    }
    SECTION("objects/info/alternates, a FIFO or a symlink to /dev/zero") {
        REQUIRE(sh("mkdir -p " + q(git + "/objects/info")).status == 0);
        swap_for_fifo(git + "/objects/info/alternates");
        refused(git + "/objects/info/alternates", "a FIFO");
        REQUIRE(sh("rm " + q(git + "/objects/info/alternates") + " && ln -s /dev/zero " +
                   q(git + "/objects/info/alternates"))
                    .status == 0);
        refused(git + "/objects/info/alternates",
                "a device, which git and libgit2 would read without end");
    }
    SECTION("objects/pack/multi-pack-index, and a ref") {
        REQUIRE(sh("mkdir -p " + q(git + "/objects/pack")).status == 0);
        swap_for_fifo(git + "/objects/pack/multi-pack-index");
        refused(git + "/objects/pack/multi-pack-index", "a FIFO");
        REQUIRE(sh("rm " + q(git + "/objects/pack/multi-pack-index")).status == 0);
        REQUIRE(sh("mkdir -p " + q(git + "/refs/heads/deep")).status == 0);
        swap_for_fifo(git + "/refs/heads/deep/x");
        refused(git + "/refs/heads/deep/x", "a FIFO");
    }
    SECTION("a loose object the run needs") {
        const std::string blob = id_of(repo, base + ":a.c");
        const std::string file = loose_file(repo, blob);
        swap_for_fifo(file);
        auto o = limited("", args);
        INFO(o.out << o.err);
        unresolved(o, "blob " + short_id(blob) + " of a.c at base is damaged in the object store");
        CHECK(o.out.find("its path is not a regular file") != std::string::npos);
    }
}

TEST_CASE("bad input B89: a loose object whose zlib stream is followed by a hole") {
    // A valid object, then a sparse hole of 30 GiB: refused by its header's size before a byte
    // of the hole is read, never allocated (std::bad_alloc) or read whole.
    Repo repo;
    repo.write("a.c", cptest::numbered(5));
    const std::string base = repo.commit();
    const std::string blob = id_of(repo, base + ":a.c");
    const std::string file = loose_file(repo, blob);
    std::filesystem::resize_file(file, std::uintmax_t(30) << 30);
    auto o = sh("cd " + q(repo.dir()) + " && " + q(cptest::binary()) + " --table --base " + base +
                    " --anchor a.c:2",
                "", std::chrono::seconds(10));
    INFO(o.out << o.err);
    unresolved(o, "blob " + short_id(blob) + " of a.c at base is damaged in the object store");
    CHECK(o.out.find("more than the zlib stream of a") != std::string::npos);
}
