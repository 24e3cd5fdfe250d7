// Repository::line_history against `git log -L <l>,<e>:<path> base..tip`: fixture histories
// with edits inside and outside a range, ranges that move, renames, merges that change the
// range on one side, on both, or only in the merge itself (an evil merge), an octopus and a
// criss-cross, root commits and the base boundary, then random linear and merged histories. Every
// range of a case is followed in one call, as the tool follows a pair's anchors.
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "context_pack/git/repository.hpp"
#include "support/catch.hpp"
#include "support/fixture.hpp"
#include "support/git_diff.hpp"
#include "support/random_text.hpp"

namespace {

using cptest::numbered;
using cptest::q;
using cptest::Repo;

struct Range {
    std::string path;
    int first = 0, last = 0;
};

// The commits git log -L lists for the range at `tip`, newest first.
std::vector<std::string> git_line_log(const Repo& repo, const std::string& base,
                                      const std::string& tip, const Range& r) {
    std::string out =
        repo.git("log --no-color -s --format=commit:%H -L " + std::to_string(r.first) + "," +
                 std::to_string(r.last) + ":" + q(r.path) + " " + base + ".." + tip);
    std::vector<std::string> commits;
    std::istringstream in(out);
    for (std::string line; std::getline(in, line);)
        if (line.rfind("commit:", 0) == 0) commits.push_back(line.substr(7));
    return commits;
}

// Every range followed at once, each compared with git's own answer for it alone.
void check_all(const Repo& repo, const std::string& base, const std::string& tip,
               const std::vector<Range>& ranges) {
    auto opened = cp::git::Repository::open(repo.dir());
    REQUIRE(opened);
    std::vector<cp::git::LineQuery> queries;
    for (const Range& r : ranges)
        queries.push_back({r.path, cp::line_log::range_of(r.first, r.last)});
    auto found = opened->line_history(base, tip, queries);
    if (!found) FAIL(found.error().message);
    for (std::size_t i = 0; i < ranges.size(); ++i) {
        std::vector<std::string> mine;
        for (const auto& c : found.value()[i]) mine.push_back(c.commit);
        INFO("-L " << ranges[i].first << "," << ranges[i].last << ":" << ranges[i].path << " "
                   << base << ".." << tip);
        if (base == tip)  // git log -L refuses base..base: nothing to walk
            CHECK(mine.empty());
        else
            CHECK(mine == git_line_log(repo, base, tip, ranges[i]));
    }
}

// Every range of up to `span` lines of each file at `tip`, a sample when there are many.
std::vector<Range> ranges_of(const Repo& repo, const std::string& tip,
                             const std::vector<std::string>& paths, std::mt19937& rng,
                             std::size_t most = 40) {
    std::vector<Range> out;
    for (const std::string& path : paths) {
        auto shown = repo.git_status("show " + tip + ":" + q(path));
        if (shown.status != 0) continue;
        int lines = 0;
        for (char c : shown.out) lines += c == '\n';
        if (lines == 0) continue;
        std::vector<Range> all;
        for (int a = 1; a <= lines; ++a)
            for (int b = a; b <= lines && b < a + 6; ++b) all.push_back({path, a, b});
        std::shuffle(all.begin(), all.end(), rng);
        if (all.size() > most) all.resize(most);
        out.insert(out.end(), all.begin(), all.end());
    }
    return out;
}

// A file of `n` numbered lines with `tag` in each, so that lines are told apart.
std::string lines_of(int n, const std::string& tag) {
    return numbered(n, tag);
}

}  // namespace

TEST_CASE("line history: linear edits inside, outside and around a range", "[line_history]") {
    Repo repo;
    repo.write("a.c", lines_of(20, "a"));
    repo.write("other.c", lines_of(5, "o"));
    const std::string root = repo.commit("root");
    std::string text = lines_of(20, "a");
    // Edit inside lines 5-8.
    text.replace(text.find("a6\n"), 3, "a6 changed\n");
    repo.write("a.c", text);
    const std::string inside = repo.commit("inside");
    // Lines inserted above: the range moves down.
    repo.write("a.c", "new1\nnew2\n" + text);
    const std::string above = repo.commit("above");
    // An edit below the range, and one in another file.
    std::string moved = "new1\nnew2\n" + text;
    moved.replace(moved.find("a18\n"), 4, "a18 x\n");
    repo.write("a.c", moved);
    repo.write("other.c", lines_of(6, "o"));
    const std::string below = repo.commit("below");
    // A line appended right after the range's last line and one deleted right before it.
    std::string edge = moved;
    edge.replace(edge.find("a9\n"), 3, "a9\ninserted\n");
    edge.erase(edge.find("a4\n"), 3);
    repo.write("a.c", edge);
    const std::string tip = repo.commit("edges");
    std::mt19937 rng(1);
    check_all(repo, root, tip, ranges_of(repo, tip, {"a.c", "other.c"}, rng, 200));
    check_all(repo, inside, tip, ranges_of(repo, tip, {"a.c"}, rng));
    check_all(repo, tip, tip, ranges_of(repo, tip, {"a.c"}, rng, 5));  // base..base: nothing
}

TEST_CASE("line history: the root commit, when base is not its ancestor", "[line_history]") {
    Repo repo;
    repo.write("a.c", lines_of(8, "a"));
    const std::string root = repo.commit("root");
    repo.write("a.c", lines_of(9, "a"));
    repo.commit("grow");
    // An unrelated history as base: every commit of the tip's is in base..tip, root too.
    std::string branch = repo.git("symbolic-ref --short HEAD");
    branch.pop_back();
    repo.git("checkout -q --orphan other");
    repo.git("rm -rqf .");
    repo.write("b.c", "b\n");
    const std::string unrelated = repo.commit("unrelated");
    repo.git("checkout -q " + branch);
    const std::string tip = repo.head();
    std::mt19937 rng(2);
    check_all(repo, unrelated, tip, ranges_of(repo, tip, {"a.c"}, rng, 45));
    check_all(repo, root, tip, ranges_of(repo, tip, {"a.c"}, rng, 45));
}

TEST_CASE("line history: renames followed, with edits on the way", "[line_history]") {
    Repo repo;
    repo.write("src/a.c", lines_of(30, "a"));
    repo.write("src/b.c", lines_of(30, "b"));
    const std::string root = repo.commit("root");
    std::string text = lines_of(30, "a");
    text.replace(text.find("a10\n"), 4, "a10 edited\n");
    repo.write("src/a.c", text);
    repo.commit("edit a");
    // Renamed with a small edit, and b deleted in the same commit (another rename source).
    repo.remove("src/a.c");
    text.replace(text.find("a20\n"), 4, "a20 moved\n");
    repo.write("lib/renamed.c", text);
    repo.remove("src/b.c");
    repo.commit("rename a, delete b");
    text.replace(text.find("a5\n"), 3, "a5 later\n");
    repo.write("lib/renamed.c", text);
    // A file added that is no rename.
    repo.write("lib/new.c", lines_of(10, "n"));
    const std::string tip = repo.commit("edit renamed, add new");
    std::mt19937 rng(3);
    check_all(repo, root, tip, ranges_of(repo, tip, {"lib/renamed.c", "lib/new.c"}, rng, 120));
    // diff.renames false: git log -L stops at the rename, as an addition.
    repo.git("config diff.renames false");
    check_all(repo, root, tip, ranges_of(repo, tip, {"lib/renamed.c"}, rng, 30));
}

TEST_CASE("line history: merges, one side, both sides, and an evil merge", "[line_history]") {
    Repo repo;
    repo.write("a.c", lines_of(40, "a"));
    const std::string root = repo.commit("root");
    repo.git("checkout -q -b side");
    std::string side = lines_of(40, "a");
    side.replace(side.find("a5\n"), 3, "a5 side\n");
    side.replace(side.find("a30\n"), 4, "a30 side\n");
    repo.write("a.c", side);
    repo.commit("side edits 5 and 30");
    repo.git("checkout -q -");
    std::string main = lines_of(40, "a");
    main.replace(main.find("a20\n"), 4, "a20 main\n");
    main.replace(main.find("a30\n"), 4, "a30 main\n");
    repo.write("a.c", main);
    repo.commit("main edits 20 and 30");
    // Merged by hand: 5 from side, 20 from main, 30 from both, and line 35 new in the merge.
    std::string merged = main;
    merged.replace(merged.find("a5\n"), 3, "a5 side\n");
    merged.replace(merged.find("a30 main\n"), 9, "a30 both\n");
    merged.replace(merged.find("a35\n"), 4, "a35 evil\n");
    repo.git_status("merge -q --no-ff --no-commit -s ours side");
    repo.write("a.c", merged);
    const std::string merge = repo.commit("merge side");
    std::string after = merged;
    after.replace(after.find("a1\n"), 3, "a1 after\n");
    repo.write("a.c", after);
    const std::string tip = repo.commit("after the merge");
    std::mt19937 rng(4);
    check_all(repo, root, tip, ranges_of(repo, tip, {"a.c"}, rng, 250));
    check_all(repo, root, merge, ranges_of(repo, merge, {"a.c"}, rng, 60));
    // The base on one side: that side's commits are excluded.
    std::string side_tip = repo.git("rev-parse side");
    side_tip.pop_back();
    check_all(repo, side_tip, tip, ranges_of(repo, tip, {"a.c"}, rng, 60));
}

TEST_CASE("line history: a rename on one side of a merge", "[line_history]") {
    Repo repo;
    repo.write("a.c", lines_of(30, "a"));
    const std::string root = repo.commit("root");
    repo.git("checkout -q -b side");
    repo.git("mv a.c moved.c");
    std::string side = lines_of(30, "a");
    side.replace(side.find("a3\n"), 3, "a3 side\n");
    repo.write("moved.c", side);
    repo.commit("side renames and edits");
    repo.git("checkout -q -");
    std::string main = lines_of(30, "a");
    main.replace(main.find("a25\n"), 4, "a25 main\n");
    repo.write("a.c", main);
    repo.commit("main edits");
    repo.git_status("merge -q --no-ff --no-commit -s ours side");
    std::string merged = side;
    merged.replace(merged.find("a25\n"), 4, "a25 main\n");
    repo.remove("a.c");
    repo.write("moved.c", merged);
    const std::string tip = repo.commit("merge");
    std::mt19937 rng(5);
    check_all(repo, root, tip, ranges_of(repo, tip, {"moved.c"}, rng, 200));
}

namespace {

// A random edit of `text`'s lines: a block replaced, inserted or deleted.
std::vector<std::string> edited(std::vector<std::string> lines, std::mt19937& rng, int& serial) {
    int ops = 1 + int(rng() % 3);
    for (int o = 0; o < ops; ++o) {
        std::size_t at = lines.empty() ? 0 : rng() % (lines.size() + 1);
        std::size_t n = rng() % 4;
        switch (rng() % 3) {
            case 0:  // insert
                for (std::size_t i = 0; i < n + 1; ++i)
                    lines.insert(lines.begin() + std::ptrdiff_t(at),
                                 "x" + std::to_string(serial++));
                break;
            case 1:  // delete
                for (std::size_t i = 0; i < n && at < lines.size(); ++i)
                    lines.erase(lines.begin() + std::ptrdiff_t(at));
                break;
            default:  // replace
                for (std::size_t i = 0; i < n + 1 && at + i < lines.size(); ++i)
                    lines[at + i] = "r" + std::to_string(serial++);
        }
    }
    // Now and then a line that repeats another, so that the diff has choices.
    if (!lines.empty() && rng() % 4 == 0) lines.insert(lines.begin(), lines[rng() % lines.size()]);
    return lines;
}

std::string joined(const std::vector<std::string>& lines) {
    std::string s;
    for (const auto& l : lines) s += l + "\n";
    return s;
}

}  // namespace

TEST_CASE("line history: random histories against git log -L", "[line_history][random]") {
    for (unsigned seed = 1; seed <= unsigned(cptest::scaled(6)); ++seed) {
        std::mt19937 rng(seed);
        Repo repo;
        std::vector<std::string> a, b;
        int serial = 0;
        for (int i = 0; i < 30; ++i) a.push_back("a" + std::to_string(i));
        for (int i = 0; i < 12; ++i) b.push_back("b" + std::to_string(i));
        std::string path = "a.c";
        repo.write(path, joined(a));
        repo.write("b.c", joined(b));
        std::vector<std::string> commits{repo.commit("root")};
        for (int c = 0; c < 12; ++c) {
            unsigned what = rng() % 10;
            if (what == 0) {  // a rename, with or without an edit
                std::string to = "dir" + std::to_string(c) + "/a.c";
                repo.remove(path);
                path = to;
                if (rng() % 2) a = edited(a, rng, serial);
            } else if (what == 1) {  // a branch edited on both sides, merged by hand
                repo.git("checkout -q -b topic" + std::to_string(c));
                auto side = edited(a, rng, serial);
                repo.write(path, joined(side));
                commits.push_back(repo.commit("topic"));
                repo.git("checkout -q -");
                auto mine = edited(a, rng, serial);
                repo.write(path, joined(mine));
                commits.push_back(repo.commit("main"));
                repo.git_status("merge -q --no-ff --no-commit -s ours topic" + std::to_string(c));
                // The merge keeps one side, or the other, or edits further.
                unsigned pick = rng() % 3;
                a = pick == 0 ? side : pick == 1 ? mine : edited(mine, rng, serial);
            } else if (what == 2) {
                b = edited(b, rng, serial);  // another file only
            } else {
                a = edited(a, rng, serial);
            }
            repo.write(path, joined(a));
            repo.write("b.c", joined(b));
            commits.push_back(repo.commit("step " + std::to_string(c)));
        }
        const std::string tip = commits.back();
        INFO("seed " << seed);
        check_all(repo, commits[0], tip, ranges_of(repo, tip, {path}, rng, 60));
        const std::string& middle = commits[commits.size() / 2];
        check_all(repo, middle, tip, ranges_of(repo, tip, {path}, rng, 30));
    }
}

TEST_CASE("line history: the working tree's changes come last", "[line_history]") {
    Repo repo;
    repo.write("a.c", lines_of(10, "a"));
    const std::string root = repo.commit("root");
    std::string text = lines_of(10, "a");
    text.replace(text.find("a2\n"), 3, "a2 committed\n");
    repo.write("a.c", text);
    const std::string edit = repo.commit("edit 2");
    text.replace(text.find("a8\n"), 3, "a8 uncommitted\n");
    repo.write("a.c", text);
    auto opened = cp::git::Repository::open(repo.dir());
    REQUIRE(opened);
    auto found = opened->line_history(root, std::nullopt,
                                      {{"a.c", cp::line_log::range_of(1, 3)},
                                       {"a.c", cp::line_log::range_of(7, 9)},
                                       {"a.c", cp::line_log::range_of(1, 10)},
                                       {"a.c", cp::line_log::range_of(4, 6)}});
    REQUIRE(found);
    const auto& h = found.value();
    REQUIRE(h[0].size() == 1);
    CHECK(h[0][0].commit == edit);
    CHECK(h[0][0].subject == "edit 2");
    REQUIRE(h[1].size() == 1);
    CHECK(h[1][0].worktree());
    REQUIRE(h[2].size() == 2);
    CHECK(h[2][0].commit == edit);
    CHECK(h[2][1].worktree());
    CHECK(h[3].empty());
}

TEST_CASE("line history: subjects are git's %s, author times its %at", "[line_history]") {
    Repo repo;
    repo.write("a.c", lines_of(4, "a"));
    const std::string root = repo.commit("root");
    const char* messages[] = {"one line", "two\nlines  \n  joined\n\nbody",
                              "\n  \n\nafter blank lines", "tab\tinside \r\n\nbody"};
    int n = 0;
    for (const char* m : messages) {
        repo.write("a.c", lines_of(4, "v" + std::to_string(n++)));
        repo.write("msg", m);
        repo.git("add a.c");
        repo.git("commit -q --cleanup=verbatim -F msg");
    }
    auto opened = cp::git::Repository::open(repo.dir());
    REQUIRE(opened);
    auto found = opened->line_history(root, repo.head(), {{"a.c", cp::line_log::range_of(1, 4)}});
    REQUIRE(found);
    const std::string git = repo.git("log --format=%H%x09%at%x09%s " + root + "..HEAD -- a.c");
    std::string ours;
    for (const auto& c : found.value()[0])
        ours += c.commit + "\t" + std::to_string(c.author_time) + "\t" + c.subject + "\n";
    CHECK(ours == git);
}

TEST_CASE("line history: a file renamed in the working tree is followed to HEAD's name",
          "[line_history]") {
    Repo repo;
    repo.write("old.c", lines_of(12, "a"));
    const std::string root = repo.commit("root");
    std::string text = lines_of(12, "a");
    text.replace(text.find("a3\n"), 3, "a3 committed\n");
    repo.write("old.c", text);
    const std::string edit = repo.commit("edit 3");
    // Renamed without git, line 10 edited: an unstaged delete and an untracked file.
    repo.remove("old.c");
    text.replace(text.find("a10\n"), 4, "a10 on disk\n");
    repo.write("new.c", text);
    auto opened = cp::git::Repository::open(repo.dir());
    REQUIRE(opened);
    auto found = opened->line_history(
        root, std::nullopt,
        {{"new.c", cp::line_log::range_of(2, 4)}, {"new.c", cp::line_log::range_of(9, 11)}});
    REQUIRE(found);
    const auto& h = found.value();
    REQUIRE(h[0].size() == 1);
    CHECK(h[0][0].commit == edit);
    REQUIRE(h[1].size() == 1);
    CHECK(h[1][0].worktree());
}

TEST_CASE("line history: an unborn branch has the working tree alone", "[line_history]") {
    Repo repo;
    repo.write("a.c", lines_of(3, "a"));
    repo.git("add a.c");
    auto opened = cp::git::Repository::open(repo.dir());
    REQUIRE(opened);
    auto found = opened->line_history("", std::nullopt, {{"a.c", cp::line_log::range_of(1, 2)}});
    REQUIRE(found);
    REQUIRE(found.value()[0].size() == 1);
    CHECK(found.value()[0][0].worktree());
}

TEST_CASE("line history: an octopus merge and a criss-cross", "[line_history]") {
    Repo repo;
    repo.write("a.c", lines_of(30, "a"));
    const std::string root = repo.commit("root");
    std::string main = repo.git("symbolic-ref --short HEAD");
    main.pop_back();
    auto edit = [&](const std::string& branch, const std::string& line, const std::string& to) {
        repo.git("checkout -q " + branch);
        std::string text = repo.read("a.c");
        text.replace(text.find(line + "\n"), line.size() + 1, to + "\n");
        repo.write("a.c", text);
        return repo.commit(branch + ": " + to);
    };
    for (const char* b : {"one", "two", "three"}) repo.git(std::string("branch ") + b);
    edit("one", "a5", "a5 one");
    edit("two", "a15", "a15 two");
    edit("three", "a25", "a25 three");
    edit(main, "a10", "a10 main");
    // An octopus of the three, each side's edit kept, and one line of its own.
    repo.git("checkout -q " + main);
    repo.git_status("merge -q --no-ff --no-commit -s ours one two three");
    std::string merged = repo.read("a.c");
    for (auto [from, to] : {std::pair{"a5", "a5 one"}, std::pair{"a15", "a15 two"},
                            std::pair{"a25", "a25 three"}, std::pair{"a20", "a20 octopus"}})
        merged.replace(merged.find(std::string(from) + "\n"), std::string(from).size() + 1,
                       std::string(to) + "\n");
    repo.write("a.c", merged);
    const std::string octopus = repo.commit("octopus");
    CHECK(repo.git("rev-list --no-walk --parents " + octopus).size() == 5 * 41);
    // A criss-cross: x and y each merge the other's first commit, then are merged.
    repo.git("branch x");
    repo.git("branch y");
    const std::string x1 = edit("x", "a2", "a2 x");
    const std::string y1 = edit("y", "a28", "a28 y");
    repo.git("checkout -q x");
    repo.git("merge -q --no-edit " + y1);
    edit("x", "a3", "a3 x again");
    repo.git("checkout -q y");
    repo.git("merge -q --no-edit " + x1);
    edit("y", "a27", "a27 y again");
    repo.git("checkout -q x");
    repo.git_status("merge -q --no-edit y");
    const std::string tip = repo.head();
    CHECK(repo.git("rev-list --no-walk --parents " + tip).size() == 3 * 41);
    CHECK(repo.git("rev-list --merges --count " + root + ".." + tip) == "4\n");
    std::mt19937 rng(6);
    check_all(repo, root, tip, ranges_of(repo, tip, {"a.c"}, rng, 300));
}

TEST_CASE("line history: its diffs are git diff -U0 --no-indent-heuristic's, both xdiff calls",
          "[line_history]") {
    // git log -L diffs with xdiff's flags all zero: no indent heuristic, which moves hunks in
    // C-like blocks. Random code files and edits, each pair diffed by git and both ways here.
    cptest::TempDir dir;
    cptest::Gen gen(20261201);
    int compared = 0;
    for (int round = 0; round < cptest::scaled(40); ++round) {
        cptest::TextFile f = gen.file();
        for (auto& l : f.lines)  // LF files: git diff --no-index would not convert CRLF
            if (!l.empty() && l.back() == '\r') l.pop_back();
        const std::string before = f.text();
        gen.edit(f);
        for (auto& l : f.lines)
            if (!l.empty() && l.back() == '\r') l.pop_back();
        const std::string after = f.text();
        if (before.find('\0') != std::string::npos || after.find('\0') != std::string::npos)
            continue;
        std::ofstream(dir.path() + "/a", std::ios::binary) << before;
        std::ofstream(dir.path() + "/b", std::ios::binary) << after;
        auto git = cptest::sh("cd " + q(dir.path()) +
                              " && git -c core.quotepath=off diff --no-index --no-color "
                              "--no-indent-heuristic --text -U0 a b");
        auto direct = cp::git::line_log_hunks(before, after, cp::git::XdiffCall::Direct);
        auto library = cp::git::line_log_hunks(before, after, cp::git::XdiffCall::Library);
        REQUIRE(library);
        INFO(cptest::visible(before) << "\n---\n" << cptest::visible(after));
        CHECK(cptest::show(library.value()) == cptest::show(cptest::parse_patch(git.out).hunks));
        if (cp::git::default_xdiff_call() == cp::git::XdiffCall::Direct) {
            REQUIRE(direct);
            CHECK(cptest::show(direct.value()) == cptest::show(library.value()));
        }
        ++compared;
    }
    CHECK(compared > cptest::scaled(20));
}
