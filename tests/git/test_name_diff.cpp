// The name-level diff with renames against `git diff -M --name-status`: hand-written
// scenarios at a commit and staged in the working tree, git's R100, and random histories of
// renames with edits, copies, deletes and shared basenames (working tree unstaged and staged,
// and at a commit), each pair's hunks compared with `git diff -M -U0`'s, and each diff made
// again with renames looked for from some base paths alone, compared with the whole one.
#include <algorithm>
#include <cstdint>
#include <iterator>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "context_pack/git/rename.hpp"
#include "context_pack/git/repository.hpp"
#include "support/catch.hpp"
#include "support/fixture.hpp"
#include "support/git_diff.hpp"
#include "support/random_text.hpp"

namespace {

namespace rename = cp::rename;
using cp::git::Change;
using cptest::body;
using cptest::diff_of;
using cptest::edited;
using cptest::Gen;
using cptest::git_patch_sections;
using cptest::git_worktree_view;
using cptest::letter;
using cptest::NameSet;
using cptest::open_repo;
using cptest::ours_names;
using cptest::parse_name_status;
using cptest::q;
using cptest::rename_file;
using cptest::Repo;
using cptest::seed_from_env;
using cptest::show;
using cptest::split_lines;
using cptest::TextFile;
using cptest::visible;

struct NameCase {
    const char* what;
    std::vector<std::pair<std::string, std::string>> base_files;
    void (*change)(const Repo&);
    NameSet expected;  // what git prints, written down by hand and checked against git
};

// Compares ours with git's for a (base, target) pair and every delta's hunks with git -M -U0.
void compare_names(const Repo& repo, const cp::git::Diff& diff, const std::string& range,
                   const NameSet& expected) {
    auto git_names = parse_name_status(repo.git("diff -M --name-status " + range));
    NameSet ours = ours_names(diff);
    CHECK(show(git_names) == show(expected));
    CHECK(show(ours) == show(git_names));

    auto sections = git_patch_sections(repo.git("diff -M -U0 --no-color --no-ext-diff " + range));
    for (const auto& d : diff.deltas()) {
        INFO("delta " << letter(d.change) << " " << d.old_path << " -> " << d.new_path);
        if (d.change == Change::Renamed) {
            CHECK(d.similarity >= 50);
            CHECK(d.similarity <= 100);
        }
        auto it = sections.find({d.old_path, d.new_path});
        REQUIRE(it != sections.end());
        // git prints a type change as a deletion and an addition; no line hunks to compare.
        if (d.change == Change::TypeChanged) continue;
        auto ours_hunks = diff.hunks(d);
        REQUIRE(ours_hunks.ok());
        CHECK(show(ours_hunks->hunks) == show(it->second.hunks));
        // find_old / find_new lead back to this delta.
        if (d.change != Change::Added) {
            REQUIRE(diff.find_old(d.old_path) != nullptr);
            CHECK(diff.find_old(d.old_path)->new_path == d.new_path);
        } else {
            CHECK(diff.find_old(d.old_path) == nullptr);
        }
        if (d.change != Change::Deleted) {
            REQUIRE(diff.find_new(d.new_path) != nullptr);
            CHECK(diff.find_new(d.new_path)->old_path == d.old_path);
        } else {
            CHECK(diff.find_new(d.new_path) == nullptr);
        }
    }
}

}  // namespace

TEST_CASE("name-level diff with renames equals git diff -M --name-status", "[git]") {
    const std::vector<NameCase> cases = {
        {"pure rename",
         {{"a.txt", body("alpha")}, {"keep.txt", body("keep")}},
         [](const Repo& r) { rename_file(r, "a.txt", "b.txt"); },
         {{'R', "a.txt", "b.txt"}}},
        {"rename with a small edit",
         {{"a.txt", body("alpha")}, {"keep.txt", body("keep")}},
         [](const Repo& r) {
             r.remove("a.txt");
             r.write("b.txt", edited("alpha"));
         },
         {{'R', "a.txt", "b.txt"}}},
        {"a delete",
         {{"gone.txt", body("gone")}, {"keep.txt", body("keep")}},
         [](const Repo& r) { r.remove("gone.txt"); },
         {{'D', "gone.txt", "gone.txt"}}},
        {"an add",
         {{"keep.txt", body("keep")}},
         [](const Repo& r) { r.write("new.txt", body("new")); },
         {{'A', "new.txt", "new.txt"}}},
        {"an edit",
         {{"m.txt", body("em")}},
         [](const Repo& r) { r.write("m.txt", edited("em")); },
         {{'M', "m.txt", "m.txt"}}},
        {"rename into a new directory",
         {{"x.txt", body("ex")}, {"keep.txt", body("keep")}},
         [](const Repo& r) { rename_file(r, "x.txt", "newdir/deeper/x.txt"); },
         {{'R', "x.txt", "newdir/deeper/x.txt"}}},
        {"rename out of a directory that disappears",
         {{"old/dir/y.txt", body("why")}, {"keep.txt", body("keep")}},
         [](const Repo& r) { rename_file(r, "old/dir/y.txt", "y.txt"); },
         {{'R', "old/dir/y.txt", "y.txt"}}},
        {"several files renamed at once",
         {{"one.txt", body("one")},
          {"two.txt", body("two")},
          {"three.txt", body("three")},
          {"src/four.c", body("four")},
          {"src/five.c", body("five")}},
         [](const Repo& r) {
             rename_file(r, "one.txt", "uno.txt");
             rename_file(r, "two.txt", "lib/dos.txt");
             r.remove("three.txt");
             r.write("tres.txt", edited("three", 20, 20));
             rename_file(r, "src/four.c", "src/cuatro.c");
             r.remove("src/five.c");
             r.write("cinco/five.c", edited("five", 20, 1));
         },
         {{'R', "one.txt", "uno.txt"},
          {'R', "two.txt", "lib/dos.txt"},
          {'R', "three.txt", "tres.txt"},
          {'R', "src/four.c", "src/cuatro.c"},
          {'R', "src/five.c", "cinco/five.c"}}},
        {"renamed while a file with the same content remains",
         {{"a.txt", body("twin")}, {"twin.txt", body("twin")}},
         [](const Repo& r) { rename_file(r, "a.txt", "moved.txt"); },
         {{'R', "a.txt", "moved.txt"}}},
        {"renamed away and a different file put at the old name",
         {{"a.txt", body("alpha")}},
         [](const Repo& r) {
             rename_file(r, "a.txt", "b.txt");
             r.write("a.txt", body("other"));
         },
         {{'M', "a.txt", "a.txt"}, {'A', "b.txt", "b.txt"}}},
        {"a file replaced by a symlink",
         {{"a.txt", body("alpha")}, {"b.txt", body("beta")}},
         [](const Repo& r) {
             r.remove("a.txt");
             REQUIRE(cptest::sh("ln -s b.txt " + q(r.at("a.txt"))).status == 0);
         },
         {{'T', "a.txt", "a.txt"}}},
        {"everything at once",
         {{"r.txt", body("ar")},
          {"d.txt", body("de")},
          {"m.txt", body("em")},
          {"k.txt", body("kay")}},
         [](const Repo& r) {
             rename_file(r, "r.txt", "moved/r.txt");
             r.remove("d.txt");
             r.write("m.txt", edited("em", 20, 20));
             r.write("n.txt", body("en"));
         },
         {{'R', "r.txt", "moved/r.txt"},
          {'D', "d.txt", "d.txt"},
          {'M', "m.txt", "m.txt"},
          {'A', "n.txt", "n.txt"}}},
    };
    for (const auto& c : cases) {
        INFO("case: " << c.what);
        Repo repo;
        for (const auto& [path, text] : c.base_files) repo.write(path, text);
        auto base = repo.commit("base");
        c.change(repo);
        repo.git("add -A");
        auto opened = open_repo(repo);
        {
            INFO("working tree, staged");
            compare_names(repo, diff_of(opened, base, std::nullopt), base, c.expected);
        }
        auto target = repo.commit("target");
        {
            INFO("commit target");
            compare_names(repo, diff_of(opened, base, target), base + " " + target, c.expected);
        }
    }
}

TEST_CASE("a pure rename has similarity 100 as git's R100", "[git]") {
    Repo repo;
    repo.write("a.txt", body("alpha"));
    repo.write("b.txt", body("beta"));
    auto base = repo.commit();
    rename_file(repo, "a.txt", "c.txt");
    repo.remove("b.txt");
    repo.write("d.txt", edited("beta"));
    auto target = repo.commit();
    auto git_lines = split_lines(repo.git("diff -M --name-status " + base + " " + target));
    std::map<std::string, std::string> git_status_of;  // new path -> "R100" etc.
    for (const auto& l : git_lines)
        git_status_of[l.substr(l.rfind('\t') + 1)] = l.substr(0, l.find('\t'));
    auto opened = open_repo(repo);
    auto diff = diff_of(opened, base, target);
    const auto* pure = diff.find_new("c.txt");
    const auto* partial = diff.find_new("d.txt");
    REQUIRE(pure != nullptr);
    REQUIRE(partial != nullptr);
    CHECK(git_status_of["c.txt"] == "R100");
    CHECK(pure->similarity == 100);
    CHECK(git_status_of["d.txt"] != "R100");
    CHECK(partial->change == Change::Renamed);
    CHECK(partial->similarity < 100);
}

// A diff whose renames are looked for from some base paths alone (Repository::diff's
// rename_sources) against the whole one: the listed paths' deltas are the same, and every
// lookup it says it answers (Diff::answers_for) is the whole diff's; it pairs nothing else.
void check_restricted(const cp::git::Repository& repo, const std::string& base,
                      const std::optional<std::string>& target,
                      const std::map<std::string, TextFile>& base_files, Gen& gen,
                      int& restricted_renames) {
    std::vector<std::string> listed;
    for (const auto& [path, f] : base_files)
        if (gen.chance(0.3)) listed.push_back(path);
    auto whole = repo.diff(base, target);
    auto some = repo.diff(base, target, nullptr, nullptr, &listed);
    REQUIRE(whole.ok());
    REQUIRE(some.ok());
    auto same = [](const cp::git::Delta* a, const cp::git::Delta* b) {
        if (!a || !b) return a == b;
        return a->change == b->change && a->old_path == b->old_path && a->new_path == b->new_path &&
               a->similarity == b->similarity;
    };
    for (const auto& path : listed) {
        INFO("listed " << path);
        CHECK(some->answers_for(path));
        CHECK(same(some->find_old(path), whole->find_old(path)));
        if (const auto* d = some->find_old(path))
            restricted_renames += d->change == Change::Renamed;
    }
    std::vector<std::string> paths;
    for (const auto& d : whole->deltas()) {
        paths.push_back(d.old_path);
        paths.push_back(d.new_path);
    }
    for (const auto& path : paths) {
        INFO("path " << path);
        if (!some->answers_for(path)) continue;
        CHECK(same(some->find_old(path), whole->find_old(path)));
        CHECK(same(some->find_new(path), whole->find_new(path)));
    }
    for (const auto& d : some->deltas())
        if (d.change == Change::Renamed)
            CHECK(std::binary_search(listed.begin(), listed.end(), d.old_path));
    // The same paths changed either way, in target path order.
    std::vector<std::string> a, b;
    for (const auto* d : some->by_new_path())
        if (d->change != Change::Deleted) a.push_back(d->new_path);
    for (const auto* d : whole->by_new_path())
        if (d->change != Change::Deleted) b.push_back(d->new_path);
    CHECK(a == b);
}

TEST_CASE("rename pairing equals git's on random renames with edits and deletes", "[git]") {
    // Not only clear-cut cases: renames with edits of every size, identical copies, empty
    // files, the same basename in several directories. Only the pairing is compared (the
    // letters and both paths), never the percentages.
    const std::uint64_t seed0 = seed_from_env(20260301);
    int renames_seen = 0, restricted_renames = 0;
    for (std::uint64_t seed = seed0; seed < seed0 + 12; ++seed) {
        INFO("seed " << seed);
        Gen gen(seed);
        Repo repo;
        static const std::vector<std::string> dirs = {"", "src/", "lib/", "docs/old/"};
        static const std::vector<std::string> names = {"util.c", "main.c", "notes.md", "a.txt",
                                                       "b.txt",  "c.txt",  "readme"};
        std::map<std::string, TextFile> files;
        while (files.size() < 24) {
            std::string path =
                gen.pick(dirs) + (gen.chance(0.5)
                                      ? gen.pick(names)
                                      : "f" + std::to_string(gen.uniform(0, 99)) + ".txt");
            if (files.count(path)) continue;
            TextFile f = gen.file();
            if (gen.chance(0.12) && !files.empty()) {  // an identical copy of another file
                int other = gen.uniform(0, static_cast<int>(files.size()) - 1);
                f = std::next(files.begin(), other)->second;
            }
            if (gen.chance(0.05)) f.lines.clear();
            files[path] = f;
        }
        for (const auto& [path, f] : files) repo.write(path, f.text());
        auto base = repo.commit("base");

        std::map<std::string, TextFile> next;
        for (const auto& [path, f] : files) {
            int what = gen.uniform(0, 99);
            TextFile g = f;
            if (what < 40) {
                next[path] = g;  // kept
            } else if (what < 55) {
                gen.edit(g);
                next[path] = g;
            } else if (what < 65) {
                // deleted
            } else {
                int edits = gen.uniform(0, 9);
                if (edits >= 4 && edits < 8) gen.edit_once(g);
                if (edits >= 8)
                    for (int i = 0; i < 6; ++i) gen.edit_once(g);
                std::string to;
                do {
                    to = gen.chance(0.5) ? gen.pick(dirs) + std::string(rename::basename(path))
                                         : gen.pick(dirs) + "moved/" +
                                               std::to_string(gen.uniform(0, 99)) + ".txt";
                } while (files.count(to) || next.count(to));
                next[to] = g;
            }
        }
        for (int i = 0, n = gen.uniform(0, 4); i < n; ++i) {
            std::string to = "new/" + std::to_string(gen.uniform(0, 99)) + ".txt";
            if (files.count(to) || next.count(to)) continue;
            next[to] = gen.chance(0.3) ? files.begin()->second : gen.file();  // maybe a copy
        }
        for (const auto& [path, f] : files)
            if (!next.count(path)) repo.remove(path);
        for (const auto& [path, f] : next) repo.write(path, f.text());

        auto opened = open_repo(repo);
        {
            INFO("working tree, nothing staged (untracked files are targets)");
            auto ours = ours_names(diff_of(opened, base, std::nullopt));
            auto git = parse_name_status(git_worktree_view(repo, "-M --name-status " + base));
            std::string why;  // the bytes behind any difference, and the index's stat data
            for (const auto& [l, a, b] : ours)
                if (!git.count({l, a, b}))
                    why += a + ": base " +
                           (files.count(a) ? visible(files.at(a).text(), 200) : "-") + " | disk " +
                           visible(repo.read(b), 200) + "\n" +
                           repo.git("ls-files --debug -- " + q(a));
            INFO(why);
            CHECK(show(ours) == show(git));
            check_restricted(opened, base, std::nullopt, files, gen, restricted_renames);
        }
        repo.git("add -A");
        {
            INFO("working tree, all staged");
            auto ours = ours_names(diff_of(opened, base, std::nullopt));
            CHECK(show(ours) == show(parse_name_status(repo.git("diff -M --name-status " + base))));
        }
        auto target = repo.commit("target");
        {
            INFO("commit target");
            auto diff = diff_of(opened, base, target);
            check_restricted(opened, base, target, files, gen, restricted_renames);
            auto ours = ours_names(diff);
            CHECK(show(ours) == show(parse_name_status(
                                    repo.git("diff -M --name-status " + base + " " + target))));
            // Each pair's hunks, taken between its two names, are git's.
            auto sections = git_patch_sections(
                repo.git("diff -M -U0 --no-color --no-ext-diff " + base + " " + target));
            for (const auto& d : diff.deltas()) {
                renames_seen += d.change == Change::Renamed;
                INFO("delta " << letter(d.change) << " " << d.old_path << " -> " << d.new_path);
                auto it = sections.find({d.old_path, d.new_path});
                if (it == sections.end()) continue;  // the name-level check has failed already
                auto h = diff.hunks(d);
                REQUIRE(h.ok());
                CHECK(h->binary == it->second.binary);
                CHECK(show(h->hunks) == show(it->second.hunks));
            }
        }
    }
    CHECK(renames_seen > 30);
    CHECK(restricted_renames > 10);
}
