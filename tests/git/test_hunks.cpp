// -U0 hunks of the git layer against `git diff -U0`: random histories (random text files
// edited at a committed target, then staged, unstaged or undone in the working tree, with and
// without a CRLF filter), and hand-picked shapes where git's choices show (the indent
// heuristic, runs of one line, final newlines, CRLF, the 1 KiB common-tail trim); and the
// direct xdiff call against libgit2's public API, on random text pairs and the fixtures.
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "context_pack/git/repository.hpp"
#include "support/catch.hpp"
#include "support/fixture.hpp"
#include "support/git_diff.hpp"
#include "support/random_text.hpp"

namespace {

using cp::git::DiffAttribute;
using cp::git::HunkInput;
using cp::git::line_hunks;
using cp::git::XdiffCall;
using cptest::compare_hunks;
using cptest::describe;
using cptest::diff_of;
using cptest::Gen;
using cptest::numbered;
using cptest::open_repo;
using cptest::ours_names;
using cptest::Output;
using cptest::parse_name_status;
using cptest::q;
using cptest::Repo;
using cptest::seed_from_env;
using cptest::sh;
using cptest::show;
using cptest::system_attributes;
using cptest::TempDir;
using cptest::TextFile;

// One random history: `count` files at base, edited at a committed target, then edited again
// in the working tree (staged, unstaged, both, or undone); hunks compared with git each time.
// `attributes` is a .gitattributes line (the CRLF filter at work), or empty.
void random_history(std::uint64_t seed, int count, const std::string& attributes, int& compared) {
    INFO("seed " << seed << " .gitattributes '" << attributes << "'");
    Gen gen(seed);
    Repo repo;
    if (!attributes.empty()) repo.write(".gitattributes", attributes + "\n");
    const bool text_auto = attributes.find("auto") != std::string::npos;

    std::vector<std::string> paths;
    std::vector<TextFile> files;
    for (int i = 0; i < count; ++i) {
        std::string dir = i % 7 == 3 ? "d" + std::to_string(i % 3) + "/" : "";
        paths.push_back(dir + "f" + std::to_string(i) + ".txt");
        files.push_back(gen.file());
    }
    files[0].lines.clear();  // always an empty file at base
    std::map<std::string, std::string> base_text, target_text, disk_text;
    for (std::size_t i = 0; i < paths.size(); ++i) {
        base_text[paths[i]] = files[i].text(text_auto);
        repo.write(paths[i], base_text[paths[i]]);
    }
    auto base = repo.commit("base");

    for (std::size_t i = 0; i < paths.size(); ++i) {
        if (i == 0)
            files[i].lines = gen.fresh(files[i], 5);  // the empty one filled
        else if (i == 1)
            files[i].lines.clear();  // always a file emptied
        else if (gen.chance(0.85))
            gen.edit(files[i]);
        target_text[paths[i]] = files[i].text(text_auto);
        repo.write(paths[i], target_text[paths[i]]);
    }
    auto target = repo.commit("target");

    auto opened = open_repo(repo);
    {
        auto diff = diff_of(opened, base, target);
        INFO("commit target");
        compare_hunks(repo, diff, base + " " + target, paths, base_text, target_text, compared);
        // Every path git names is a delta of ours and the other way round.
        auto listed = repo.git("diff --name-status --no-renames " + base + " " + target);
        CHECK(show(ours_names(diff)) == show(parse_name_status(listed)));
    }

    // Working tree: 0 untouched, 1 unstaged edit, 2 staged edit, 3 staged then edited again,
    // 4 staged edit undone on disk, 5 disk put back to the base content, 6 emptied on disk.
    static const char* const what[] = {
        "untouched",          "unstaged edit",     "staged edit",    "staged edit, edited again",
        "staged edit undone", "disk back to base", "emptied on disk"};
    std::map<std::string, std::string> notes;
    std::vector<int> action(paths.size());
    std::vector<std::string> to_stage;
    for (std::size_t i = 0; i < paths.size(); ++i) {
        action[i] = gen.uniform(0, 6);
        if (i == 1) action[i] = 1;  // the emptied file gets content back, unstaged
        if (action[i] == 2 || action[i] == 3 || action[i] == 4) {
            TextFile staged = files[i];
            gen.edit(staged);
            repo.write(paths[i], staged.text(text_auto));
            to_stage.push_back(paths[i]);
        }
    }
    if (!to_stage.empty()) {
        std::string args = "add --";
        for (const auto& p : to_stage) args += " " + q(p);
        repo.git(args);
    }
    for (std::size_t i = 0; i < paths.size(); ++i) {
        std::string text = target_text[paths[i]];
        if (action[i] == 1 || action[i] == 3) {
            TextFile disk = files[i];
            gen.edit(disk);
            text = disk.text();  // a lone CR on disk is fine; in the index it is not
        } else if (action[i] == 2) {
            text = repo.read(paths[i]);
        } else if (action[i] == 5) {
            text = base_text[paths[i]];
        } else if (action[i] == 6) {
            text.clear();
        }
        repo.write(paths[i], text);
        disk_text[paths[i]] = text;
        notes[paths[i]] = std::string("[") + what[action[i]] + "]";
    }
    {
        auto diff = diff_of(opened, base, std::nullopt);
        INFO("working-tree target");
        compare_hunks(repo, diff, base, paths, base_text, disk_text, compared, notes);
        // Path by path, where nothing converts files: the same deltas and hunks.
        auto partial = opened.worktree_diff_of(base, paths);
        INFO((partial ? std::string() : partial.error().message));
        REQUIRE(partial.ok());
        if (attributes.empty() && !system_attributes()) {
            REQUIRE(partial.value().has_value());
            CHECK(partial.value()->partial());
            CHECK(describe(*partial.value()) == describe(diff));
            compare_hunks(repo, *partial.value(), base, paths, base_text, disk_text, compared,
                          notes);
        } else {
            CHECK_FALSE(partial.value().has_value());  // attributes may convert: the whole way
        }
    }
}

// Shapes where git's choices are visible: a function inserted between two others (the indent
// heuristic), a repeated line added to a run of it, a final newline taken away or added, CRLF
// content, an empty file filled and a file emptied, a binary file, and runs longer than git's
// 1 KiB tail trim.
struct Shape {
    const char* name;
    std::string before, after;
};
std::vector<Shape> hand_picked_shapes() {
    const std::string f1 = "int f1() {\n    return 1;\n}\n\n";
    const std::string f2 = "int f2() {\n    return 2;\n}\n\n";
    const std::string f3 = "int f3() {\n    return 3;\n}\n\n";
    auto long_run = [](int n) {
        std::string out;
        for (int i = 0; i < n; ++i) out += "a\n";
        return out;
    };
    auto blocks = [](int n) {
        std::string out;
        for (int i = 0; i < n; ++i) out += "    if (x) {\n        y();\n    }\n\n";
        return out;
    };
    std::string runs, runs_plus;
    for (int i = 0; i < 30; ++i) runs += "same\n";
    runs_plus = runs + "same\n";
    return {
        {"function inserted between two", f1 + f3, f1 + f2 + f3},
        {"function appended", f1 + f2, f1 + f2 + f3},
        {"function removed from the middle", f1 + f2 + f3, f1 + f3},
        {"nested block inserted", "void g() {\n    if (a) {\n        x();\n    }\n}\n",
         "void g() {\n    if (a) {\n        x();\n    }\n    if (b) {\n        x();\n    }\n}\n"},
        {"a repeated line added to a run of it", "top\n" + runs + "bottom\n",
         "top\n" + runs_plus + "bottom\n"},
        {"final newline removed", "a\nb\nc\n", "a\nb\nc"},
        {"final newline added", "a\nb\nc", "a\nb\nc\n"},
        {"no final newline, last line edited", "a\nb\nc", "a\nb\nd"},
        {"CRLF line edited", "a\r\nb\r\nc\r\n", "a\r\nB\r\nc\r\n"},
        {"CRLF to LF", "a\r\nb\r\nc\r\n", "a\nb\nc\n"},
        {"empty file filled", "", "x\ny\n"},
        {"file emptied", "x\ny\n", ""},
        {"whole rewrite", numbered(10, "old "), numbered(7, "new ")},
        {"insert at top", numbered(5), "new\n" + numbered(5)},
        {"insert at bottom", numbered(5), numbered(5) + "new\n"},
        {"blank lines and braces shuffled", "{\n}\n\n{\n}\n\n{\n}\n", "{\n}\n{\n\n}\n\n}\n{\n"},
        {"binary content", std::string("a\0b\n", 4), std::string("a\0c\n", 4)},
        // git diff -U0 (and only -U0) first trims the common tail in 1 KiB blocks
        // (xdiff-interface.c, trim_common_tail), so a line added to a long run lands inside
        // the untrimmed part: git says "-490,0 +491" where a plain xdiff says "-1001,0 +1002".
        {"a line added to a run longer than 1 KiB", "x\n" + long_run(1000), "x\n" + long_run(1001)},
        {"a block repeated across more than 1 KiB, one more copy", "head\n" + blocks(60),
         "head\n" + blocks(61)},
    };
}

// The hunks of `old_text` -> `new_text` (a side absent when its pointer is null) by the direct
// xdiff call and by libgit2's public API, which must agree; true when both gave line hunks.
bool same_both_ways(const std::string* old_text, const std::string* new_text,
                    DiffAttribute attribute = DiffAttribute::Unset) {
    static const std::string nothing;
    HunkInput in;
    in.old_path = in.new_path = "f.txt";
    in.has_old = old_text != nullptr;
    in.has_new = new_text != nullptr;
    in.given_old = old_text ? old_text : &nothing;
    in.given_new = new_text ? new_text : &nothing;
    auto direct = line_hunks(in, attribute, attribute, XdiffCall::Direct);
    auto library = line_hunks(in, attribute, attribute, XdiffCall::Library);
    INFO((direct ? std::string() : direct.error().message));
    INFO((library ? std::string() : library.error().message));
    REQUIRE(direct.ok());
    REQUIRE(library.ok());
    CHECK(direct.value().binary == library.value().binary);
    CHECK(show(direct.value().hunks) == show(library.value().hunks));
    return !direct.value().binary;
}

}  // namespace

TEST_CASE("hunks equal git diff -U0 on random edit scripts", "[git]") {
    int compared = 0;
    const std::uint64_t seed = seed_from_env(20260101);
    for (std::uint64_t s = seed; s < seed + std::uint64_t(cptest::scaled(3)); ++s)
        random_history(s, cptest::scaled(90), "", compared);
    random_history(seed + 100, 40, "* text=auto", compared);
    random_history(seed + 200, 30, "* text eol=crlf", compared);
    INFO("hunk lists compared: " << compared);
    CHECK(compared > cptest::scaled(300));
}

TEST_CASE("hunks equal git diff -U0 on hand-picked shapes", "[git]") {
    // Each shape (hand_picked_shapes) in the working tree (unstaged, then staged) and at a
    // commit.
    const auto shapes = hand_picked_shapes();
    Repo repo;
    std::vector<std::string> paths;
    std::map<std::string, std::string> before, after;
    for (std::size_t i = 0; i < shapes.size(); ++i) {
        std::string p = "shape" + std::to_string(i) + ".txt";
        paths.push_back(p);
        before[p] = shapes[i].before;
        after[p] = shapes[i].after;
        repo.write(p, shapes[i].before);
    }
    auto base = repo.commit("base");
    for (const auto& p : paths) repo.write(p, after[p]);
    auto opened = open_repo(repo);
    int compared = 0;
    {
        INFO("working tree, unstaged");
        auto diff = diff_of(opened, base, std::nullopt);
        compare_hunks(repo, diff, base, paths, before, after, compared);
    }
    {
        INFO("working tree, staged");
        repo.git("add -A");
        auto diff = diff_of(opened, base, std::nullopt);
        compare_hunks(repo, diff, base, paths, before, after, compared);
    }
    auto target = repo.commit("target");
    {
        INFO("commit target");
        auto diff = diff_of(opened, base, target);
        compare_hunks(repo, diff, base + " " + target, paths, before, after, compared);
    }
    CHECK(compared == 3 * static_cast<int>(shapes.size()));
}

TEST_CASE("the direct xdiff call and libgit2's public API give the same hunks", "[git]") {
    // The direct call (a static libgit2 1.5 to 1.9) declares xdiff's structs by hand; a field
    // out of place would shift or drop hunks. Where this build has it, every text pair is
    // diffed both ways: random files under random edits, the hand-picked shapes, and every
    // changed path of the fixture repositories between each pair of their commits and to
    // their working trees.
    if (cp::git::default_xdiff_call() != XdiffCall::Direct) {
        HunkInput in;
        in.owned_old = "a\n";
        in.owned_new = "b\n";
        CHECK_FALSE(line_hunks(in, DiffAttribute::Unset, DiffAttribute::Unset, XdiffCall::Direct));
        WARN("this build calls xdiff through libgit2's API only: nothing to compare");
        return;
    }
    int random_pairs = 0, shape_pairs = 0, fixture_pairs = 0;
    const std::uint64_t seed = seed_from_env(20260303);
    for (std::uint64_t s = seed; s < seed + 400; ++s) {
        INFO("seed " << s);
        Gen gen(s);
        TextFile file = gen.file();
        const std::string before = file.text();
        gen.edit(file);
        const std::string after = file.text();
        random_pairs += same_both_ways(&before, &after);
        if (s % 20 == 0) {  // added and deleted files, and the diff attribute's text
            same_both_ways(nullptr, &after);
            same_both_ways(&before, nullptr);
            same_both_ways(&before, &after, DiffAttribute::Text);
        }
    }
    for (const auto& shape : hand_picked_shapes()) {
        INFO("shape: " << shape.name);
        shape_pairs += same_both_ways(&shape.before, &shape.after);
        shape_pairs += same_both_ways(&shape.before, &shape.after, DiffAttribute::Text);
    }
    for (const char* script : {"fixtures/demo.sh", "tests/fixtures/edges.sh"}) {
        INFO("fixture " << script);
        TempDir dir;
        Output made =
            sh(q(cptest::source_dir() + "/" + script) + " " + q(dir.path()) + " >/dev/null");
        INFO(made.err);
        REQUIRE(made.status == 0);
        const std::string repo_dir = dir.path() + "/repo";
        auto opened = cp::git::Repository::open(repo_dir);
        REQUIRE(opened.ok());
        std::vector<std::string> commits;
        for (const auto& line :
             cptest::split_lines(sh("git -C " + q(repo_dir) + " rev-list --reverse HEAD").out))
            commits.push_back(line);
        REQUIRE(commits.size() >= 2);
        auto each_path = [&](const std::string& base, const std::optional<std::string>& target) {
            auto diff = diff_of(opened.value(), base, target);
            for (const auto& delta : diff.deltas()) {
                INFO(base << " " << target.value_or("the working tree") << ": " << delta.new_path);
                auto sides = diff.read_sides(delta);
                REQUIRE(sides.ok());
                const auto& in = sides.value();
                fixture_pairs += same_both_ways(in.has_old ? &in.owned_old : nullptr,
                                                in.has_new ? &in.owned_new : nullptr);
            }
        };
        for (std::size_t i = 0; i < commits.size(); ++i) {
            for (std::size_t j = i + 1; j < commits.size(); ++j) each_path(commits[i], commits[j]);
            each_path(commits[i], std::nullopt);
        }
    }
    INFO("text pairs compared: " << random_pairs << " random, " << shape_pairs << " shapes, "
                                 << fixture_pairs << " fixture paths");
    CHECK(random_pairs > 350);
    CHECK(shape_pairs == 2 * int(hand_picked_shapes().size()) - 1);  // one binary, unless Text
    CHECK(fixture_pairs > 10);
}
