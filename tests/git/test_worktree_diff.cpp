// The working tree as a diff target: SPEC §3's rules against git (staged and unstaged renames,
// untracked files, undone edits, conflicts), the partial diff settled path by path and when it
// must refuse, and our scan of the tree against libgit2's index-to-workdir diff (diff_of makes
// every working-tree diff both ways) with a table of shapes that scan and shapes that step aside.
#include <ctime>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "context_pack/git/repository.hpp"
#include "support/catch.hpp"
#include "support/fixture.hpp"
#include "support/git_diff.hpp"

namespace {

using cp::git::Change;
using cptest::body;
using cptest::describe;
using cptest::diff_of;
using cptest::edited;
using cptest::git_patch_sections;
using cptest::git_patches;
using cptest::git_worktree_view;
using cptest::letter;
using cptest::NameSet;
using cptest::numbered;
using cptest::open_repo;
using cptest::ours_names;
using cptest::parse_name_status;
using cptest::parse_patch;
using cptest::q;
using cptest::Repo;
using cptest::show;
using cptest::system_attributes;
using cptest::trim;

// The small tree that the working-tree tables start from, committed as the base, then
// `setup` (shell commands) run in it. Returns the base commit.
std::string shaped(Repo& repo, const std::string& setup) {
    repo.write("a.txt", numbered(8, "a"));
    repo.write("c.txt", numbered(8, "c"));
    repo.write("d/b.txt", numbered(8, "b"));
    repo.write("e/f.md", "f\n");
    auto base = repo.commit();
    auto done = cptest::sh("cd " + q(repo.dir()) + " && " + setup);
    INFO(done.err);
    REQUIRE(done.status == 0);
    return base;
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// SPEC §3: what the working tree holds, staged or not

TEST_CASE("working tree: staged mv and rm, unstaged delete plus untracked file", "[git]") {
    Repo repo;
    repo.write("staged_old.txt", body("staged-mv"));
    repo.write("staged_edit_old.txt", body("staged-mv-edit"));
    repo.write("gone_staged.txt", body("gone-staged"));
    repo.write("gone_unstaged.txt", body("gone-unstaged"));
    repo.write("unstaged_old.txt", body("unstaged-mv"));
    repo.write("deep_old.txt", body("deep-mv"));
    repo.write("keep.txt", body("keep"));
    auto base = repo.commit("base");

    repo.git("mv staged_old.txt staged_new.txt");
    repo.git("mv staged_edit_old.txt staged_edit_new.txt");
    repo.write("staged_edit_new.txt", edited("staged-mv-edit"));  // plus an unstaged edit
    repo.git("rm -q gone_staged.txt");
    repo.remove("gone_unstaged.txt");
    repo.remove("unstaged_old.txt");
    repo.write("unstaged_new.txt", edited("unstaged-mv"));  // untracked, similar content
    repo.remove("deep_old.txt");
    repo.write("brand/new/dir/deep_new.txt", edited("deep-mv", 20, 3));  // untracked dir
    repo.write("lonely.txt", body("lonely"));  // untracked, nothing like it at base

    const NameSet expected = {
        {'R', "staged_old.txt", "staged_new.txt"},
        {'R', "staged_edit_old.txt", "staged_edit_new.txt"},
        {'D', "gone_staged.txt", "gone_staged.txt"},
        {'D', "gone_unstaged.txt", "gone_unstaged.txt"},
        {'R', "unstaged_old.txt", "unstaged_new.txt"},
        {'R', "deep_old.txt", "brand/new/dir/deep_new.txt"},
        {'A', "lonely.txt", "lonely.txt"},
    };
    // git agrees once everything on disk is added to a throwaway index ...
    CHECK(show(parse_name_status(git_worktree_view(repo, "-M --name-status " + base))) ==
          show(expected));
    // ... while plain `git diff BASE` sees only what the index knows (SPEC goes beyond it).
    CHECK(show(parse_name_status(repo.git("diff -M --name-status " + base))) ==
          show(NameSet{{'R', "staged_old.txt", "staged_new.txt"},
                       {'R', "staged_edit_old.txt", "staged_edit_new.txt"},
                       {'D', "gone_staged.txt", "gone_staged.txt"},
                       {'D', "gone_unstaged.txt", "gone_unstaged.txt"},
                       {'D', "unstaged_old.txt", "unstaged_old.txt"},
                       {'D', "deep_old.txt", "deep_old.txt"}}));

    auto opened = open_repo(repo);
    auto diff = diff_of(opened, base, std::nullopt);
    CHECK(show(ours_names(diff)) == show(expected));

    // The pairs' hunks are git's for the same pairs.
    auto sections = git_patch_sections(git_worktree_view(repo, "-M -U0 --no-color " + base));
    for (const auto& d : diff.deltas()) {
        INFO("delta " << letter(d.change) << " " << d.old_path << " -> " << d.new_path);
        auto it = sections.find({d.old_path, d.new_path});
        REQUIRE(it != sections.end());
        auto h = diff.hunks(d);
        REQUIRE(h.ok());
        CHECK(show(h->hunks) == show(it->second.hunks));
    }

    // Lookups by either side.
    REQUIRE(diff.find_old("unstaged_old.txt") != nullptr);
    CHECK(diff.find_old("unstaged_old.txt")->new_path == "unstaged_new.txt");
    REQUIRE(diff.find_new("brand/new/dir/deep_new.txt") != nullptr);
    CHECK(diff.find_new("brand/new/dir/deep_new.txt")->old_path == "deep_old.txt");
    CHECK(diff.find_old("lonely.txt") == nullptr);
    REQUIRE(diff.find_new("lonely.txt") != nullptr);
    CHECK(diff.find_new("lonely.txt")->change == Change::Added);
    REQUIRE(diff.find_old("gone_unstaged.txt") != nullptr);
    CHECK(diff.find_old("gone_unstaged.txt")->change == Change::Deleted);
    CHECK(diff.find_new("gone_unstaged.txt") == nullptr);
    CHECK(diff.find_old("keep.txt") == nullptr);
    CHECK(diff.find_new("keep.txt") == nullptr);
}

TEST_CASE("working tree: an untracked file alone is Added", "[git]") {
    Repo repo;
    repo.write("keep.txt", body("keep"));
    auto base = repo.commit();
    repo.write("solo.txt", body("solo"));
    repo.write("fresh/dir/solo2.txt", body("solo2"));
    auto opened = open_repo(repo);
    auto diff = diff_of(opened, base, std::nullopt);
    const NameSet expected = {{'A', "solo.txt", "solo.txt"},
                              {'A', "fresh/dir/solo2.txt", "fresh/dir/solo2.txt"}};
    CHECK(show(parse_name_status(git_worktree_view(repo, "-M --name-status " + base))) ==
          show(expected));
    CHECK(show(ours_names(diff)) == show(expected));
    // git diff BASE itself does not list untracked files at all.
    CHECK(trim(repo.git("diff --name-status " + base)).empty());
}

TEST_CASE("working tree: a staged edit undone on disk is no change as in git diff", "[git]") {
    Repo repo;
    repo.write("a.txt", body("alpha"));
    repo.write("b.txt", body("beta"));
    auto base = repo.commit();
    repo.write("a.txt", edited("alpha"));
    repo.git("add a.txt");
    repo.write("a.txt", body("alpha"));  // back to the base bytes, unstaged
    repo.write("b.txt", edited("beta"));
    auto opened = open_repo(repo);
    auto diff = diff_of(opened, base, std::nullopt);
    auto git_names = parse_name_status(repo.git("diff --name-status " + base));
    CHECK(show(git_names) == show(NameSet{{'M', "b.txt", "b.txt"}}));
    // Whether or not a.txt is listed, it must carry no hunks.
    if (const auto* a = diff.find_old("a.txt")) {
        auto h = diff.hunks(*a);
        REQUIRE(h.ok());
        CHECK(h->hunks.empty());
    }
    CHECK(show(ours_names(diff)) == show(git_names));
}

TEST_CASE("working tree: a conflicted file's hunks are git diff BASE's", "[git]") {
    Repo repo;
    repo.write("a.txt", numbered(10));
    repo.write("b.txt", numbered(10, "b"));
    auto base = repo.commit("base");
    repo.git("checkout -q -b other");
    repo.write("a.txt", "L1\nL2\nL3\nL4\nfive-other\nL6\nL7\nL8\nL9\nL10\n");
    repo.commit("other");
    repo.git("checkout -q main");
    repo.write("a.txt", "L1\nL2\nL3\nL4\nfive-main\nL6\nL7\nL8\nL9\nL10\n");
    repo.write("b.txt", numbered(12, "b"));
    repo.commit("main");
    CHECK(repo.git_status("merge -q other").status != 0);
    REQUIRE(trim(repo.git("status --short a.txt")) == "UU a.txt");

    auto opened = open_repo(repo);
    auto diff = diff_of(opened, base, std::nullopt);
    auto patches = git_patches(repo, base, {"a.txt", "b.txt"});
    for (const std::string path : {"a.txt", "b.txt"}) {
        INFO("path " << path << "\ngit's patch:\n" << patches.at(path));
        auto expected = parse_patch(patches.at(path));
        REQUIRE_FALSE(expected.hunks.empty());
        const auto* d = diff.find_old(path);
        REQUIRE(d != nullptr);
        INFO("change " << letter(d->change));
        auto ours = diff.hunks(*d);
        INFO((ours ? std::string() : ours.error().message));
        REQUIRE(ours.ok());
        CHECK(show(ours->hunks) == show(expected.hunks));
    }
}
// ---------------------------------------------------------------------------------------------
// Path by path, and our scan against libgit2's

TEST_CASE("working tree path by path: when each path can be settled alone, and when not", "[git]") {
    // The partial diff (Repository::worktree_diff_of) answers only when nothing could make
    // its per-path answer differ from the whole diff's; each row here is a reason to refuse.
    struct Row {
        const char* name;
        std::string setup;  // shell commands in the repository after the base commit
        bool settles;
    };
    const std::vector<Row> rows = {
        {"edits, staged and not, a mode change",
         "echo x >> a.txt && echo y >> d/b.txt && "
         "git add d/b.txt && chmod +x c.txt",
         true},
        {"a new path, absent or a directory", "mkdir new-dir", true},
        {"core.autocrlf false", "git config core.autocrlf false", true},
        {"untracked .gitattributes that converts", "echo '* text' > .gitattributes", false},
        {"untracked .gitattributes that converts one file", "echo 'c.txt ident' > .gitattributes",
         false},
        {"tracked .gitattributes that converts nothing",
         "printf '*.txt diff=cpp whitespace=trail\\n' > .gitattributes && git add .gitattributes "
         "&& echo z >> a.txt",
         true},
        {"a diff attribute above an anchored path",
         "echo '* -diff' > d/.gitattributes && echo z >> d/b.txt && echo z >> a.txt", true},
        {"text=auto above an anchored path", "echo '* text=auto' > d/.gitattributes", false},
        {"a tracked .gitattributes gone from disk",
         "echo '*.md text' > e/.gitattributes && git add e/.gitattributes && "
         "rm e/.gitattributes",
         false},
        {"a tracked .gitattributes edited on disk",
         "echo '*.md -diff' > e/.gitattributes && git add e/.gitattributes && "
         "echo '*.txt text' > e/.gitattributes",
         false},
        {"info/attributes that converts",
         "mkdir -p .git/info && echo '* eol=crlf' > .git/info/attributes", false},
        {"info/attributes that does not",
         "mkdir -p .git/info && echo 'a.txt -diff' > "
         ".git/info/attributes && echo z >> a.txt && echo z >> c.txt",
         true},
        {"core.autocrlf true", "git config core.autocrlf true", false},
        {"core.autocrlf input", "git config core.autocrlf input", false},
        {"core.attributesFile that converts",
         "echo '*.txt text' > ../attrs && git config core.attributesFile \"$PWD/../attrs\"", false},
        {"core.attributesFile that is not there", "git config core.attributesFile /nonexistent",
         true},
        {"removed from the index, kept on disk", "git rm -q --cached a.txt", false},
        {"deleted on disk", "rm a.txt", false},
        {"a symlink on disk", "rm a.txt && ln -s c.txt a.txt", false},
        {"a symlinked directory on the way", "mv d d2 && ln -s d2 d", false},
        {"skip-worktree", "git update-index --skip-worktree a.txt", false},
        {"assume-unchanged", "git update-index --assume-unchanged a.txt", false},
        {"intent to add the new path", "touch new.txt && git add -N new.txt", true},
        {"index version 4", "git update-index --index-version 4", false},
        {"a split index", "git update-index --split-index", false},
        {"a conflict",
         "git checkout -q -b other && echo theirs > a.txt && git commit -qam t && "
         "git checkout -q main && echo ours > a.txt && git commit -qam o && "
         "git merge -q other >/dev/null 2>&1; true",
         false},
        {"a new path that is a symlink", "ln -s a.txt new.txt", false},
    };
    for (const Row& row : rows) {
        INFO(row.name);
        Repo repo;
        auto base = shaped(repo, row.setup);
        auto opened = open_repo(repo);
        const std::vector<std::string> paths{"a.txt", "c.txt", "d/b.txt", "new.txt", "new-dir"};
        auto partial = opened.worktree_diff_of(base, paths);
        INFO((partial ? std::string() : partial.error().message));
        REQUIRE(partial.ok());
        if (!system_attributes()) CHECK(partial.value().has_value() == row.settles);
        if (partial.value()) {  // and its deltas are the whole diff's, for these paths
            auto whole = opened.diff(base, std::nullopt);
            REQUIRE(whole.ok());
            for (const auto& p : paths) {
                INFO(p);
                const auto* mine = partial.value()->find_old(p);
                const auto* theirs = whole->find_old(p);
                REQUIRE((mine == nullptr) == (theirs == nullptr));
                if (mine) {
                    CHECK(int(mine->change) == int(theirs->change));
                    CHECK(mine->new_path == theirs->new_path);
                    CHECK(mine->old_oid == theirs->old_oid);
                    CHECK(int(partial.value()->diff_attribute(p).value()) ==
                          int(whole->diff_attribute(p).value()));
                    auto a = partial.value()->hunks(*mine);
                    auto b = whole->hunks(*theirs);
                    REQUIRE((a.ok() && b.ok()));
                    CHECK(a->binary == b->binary);
                    CHECK(a->hunks.size() == b->hunks.size());
                }
            }
        }
    }
}

TEST_CASE("working tree scan: the same deltas as libgit2's, or it steps aside", "[git]") {
    // diff_of compares every working-tree diff made with our scan (worktree_scan.hpp) with
    // the one made by libgit2's index-to-workdir diff; each row is a shape the scan must
    // either answer as libgit2 does or refuse.
    struct Row {
        const char* name;
        std::string setup;  // shell commands in the repository after the base commit
        bool scans;
    };
    const std::vector<Row> rows = {
        {"nothing changed", "true", true},
        {"edits, staged and not, a mode change",
         "echo x >> a.txt && echo y >> d/b.txt && git add d/b.txt && chmod +x c.txt", true},
        {"touched only: stat data changed, content not", "touch -t 200101010000 a.txt", true},
        {"same size, new content, another time",
         "sed 's/a1/A1/' a.txt > a.new && mv a.new a.txt && touch -t 200101010000 a.txt", true},
        {"deleted file and deleted directory", "rm a.txt && rm -r d", true},
        {"untracked files and directories, nested",
         "echo n > new.txt && mkdir -p u/v && echo w > u/v/w.txt && echo x > d/x.txt", true},
        {"an empty untracked directory", "mkdir empty", true},
        {"ignored files, directories, negation and info/exclude",
         "printf '*.o\\nbuild/\\n!keep.o\\n' > .gitignore && echo o > d/b.o && echo k > keep.o && "
         "mkdir build && echo b > build/out && mkdir -p .git/info && echo 'secret*' >> "
         ".git/info/exclude && echo s > secret.txt && mkdir only && echo i > only/i.o",
         true},
        {"a staged removal kept on disk", "git rm -q --cached a.txt", true},
        {"a staged addition deleted from disk", "echo n > new.txt && git add new.txt && rm new.txt",
         true},
        {"a staged rename edited after", "git mv c.txt moved.txt && echo more >> moved.txt", true},
        {"converting attributes on a touched file",
         "echo '*.txt text eol=crlf' > .gitattributes && touch -t 200101010000 a.txt", true},
        {"a tracked .gitattributes unchanged, a touched file it converts",
         "echo '*.txt text eol=crlf' > .gitattributes && git add .gitattributes && "
         "git commit -qm attrs && touch -t 200101010000 a.txt",
         true},
        {"a tracked .gitattributes edited on disk, a touched file it converted",
         "printf '*.txt text eol=crlf\\n' > .gitattributes && printf 'x\\r\\ny\\r\\n' > "
         "crlf.txt && git add -A && git commit -qm crlf && echo '# none' > .gitattributes && "
         "touch -t 200101010000 crlf.txt",
         false},
        {"an untracked executable and a symlink",
         "echo x > run.sh && chmod +x run.sh && "
         "ln -s a.txt link",
         true},
        {"a tracked symlink retargeted and one touched",
         "ln -s a.txt link && ln -s c.txt link2 && git add link link2 && git commit -qm l && "
         "ln -sfn d/b.txt link && touch -h -t 200101010000 link2",
         true},
        {"core.filemode false", "git config core.filemode false && chmod +x a.txt", true},
        {"a fifo among untracked files", "mkfifo pipe", true},
        {"a submodule entry, its directory there and not",
         "git update-index --add --cacheinfo 160000,$(git rev-parse HEAD),sub && mkdir sub && "
         "git update-index --add --cacheinfo 160000,$(git rev-parse HEAD),gone",
         true},

        {"ignore negation in subdir",
         "printf '*.log\\n' > .gitignore && printf '!keep.log\\n' > d/.gitignore && "
         "echo k > d/keep.log && echo l > d/other.log && mkdir -p u && "
         "printf '!keep.log\\n' > u/.gitignore && echo k > u/keep.log",
         true},
        {"ignored tracked dir with negation",
         "printf 'd/\\n!d/keep\\n' > .gitignore && echo k > d/keep && echo o > d/other && "
         "mkdir d/sub && echo s > d/sub/s",
         true},
        {"dir pattern and symlink to dir",
         "printf 'ld/\\n' > .gitignore && ln -s e ld && ln -s nowhere dangling", true},
        {"unreadable untracked dir", "mkdir -p ur && echo x > ur/f && chmod 0444 ur", true},
        {"racy same-size edit", "sed 's/a1/A1/' a.txt > a.new && mv a.new a.txt", true},
        {"racy same-size edit after index touch",
         "git update-index --refresh >/dev/null; sed 's/a1/A1/' a.txt > a.new && mv a.new a.txt",
         true},
        {"tracked dir with nested repo",
         "git -C d init -q && echo z > d/z.txt && echo y >> d/b.txt", true},
        {"symlinks false touched link",
         "ln -s a.txt link && git add link && git commit -qm l && "
         "git config core.symlinks false && touch -h -t 200101010000 link",
         true},
        {"trustctime false",
         "git config core.trustctime false && chmod 600 a.txt && chmod 644 a.txt", true},
        {"filemode false untracked exec",
         "git config core.filemode false && echo x > x.sh && chmod +x x.sh && "
         "chmod +x c.txt",
         true},
        {"ignored dir with nested repo",
         "printf 'ig/\n' > .gitignore && mkdir ig && git -C ig init -q", true},
        {"weird names",
         "mkdir -p a-b a.b a0 && echo 1 > a-b/x && echo 2 > a.b/x && echo 3 > a0/x && "
         "echo 4 > 'a b' && printf 5 > $(printf 'h\xc3\xa9')",
         true},
        {"own gitignore star", "mkdir -p u && printf '*\n' > u/.gitignore && echo x > u/x", true},
        {"gitignore in untracked dir",
         "mkdir -p u && printf '*.o\n' > u/.gitignore && echo x > u/x.o && echo y > u/y.c", true},
        {"empty file grown",
         "printf '' > z.txt && git add z.txt && git commit -qm z && echo grown > z.txt", true},
        {"dotgit case untracked", "mkdir -p w && mkdir w/.GIT && echo x > w/f && echo y > .Git",
         true},
        {"core.ignorecase", "git config core.ignorecase true", false},
        {"a file now a directory", "rm a.txt && mkdir a.txt && echo x > a.txt/x", false},
        {"a file now a symlink", "rm a.txt && ln -s c.txt a.txt", false},
        {"a directory now a file", "rm -r d && echo d > d", false},
        {"a directory now a symlink", "mv d d2 && ln -s d2 d", false},
        {"a nested repository among untracked files",
         "mkdir nested && git -C nested init -q && echo n > nested/n.txt", false},
        {"skip-worktree", "git update-index --skip-worktree a.txt", false},
        {"assume-unchanged", "git update-index --assume-unchanged a.txt", false},
        {"intent to add", "echo n > new.txt && git add -N new.txt", false},
        {"index version 4", "git update-index --index-version 4", false},
        {"a conflict",
         "git checkout -q -b other && echo theirs > a.txt && git commit -qam t && "
         "git checkout -q main && echo ours > a.txt && git commit -qam o && "
         "git merge -q other >/dev/null 2>&1; true",
         false},
    };
    for (const Row& row : rows) {
        INFO(row.name);
        Repo repo;
        auto base = shaped(repo, row.setup);
        auto opened = open_repo(repo);
        auto diff = diff_of(opened, base, std::nullopt);  // compares with libgit2's
        CHECK(diff.scanned() == row.scans);
        INFO(describe(diff));
        auto names = cptest::sh("cd " + q(repo.dir()) + " && git diff -M --name-status " + base +
                                " && git ls-files --others --exclude-standard");
        INFO(names.out);
    }
}

TEST_CASE("working tree scan: a racily clean entry is hashed, as libgit2 and git do", "[git]") {
    // An index entry whose file was modified in the index's own moment (or, here, carries a
    // time at or after the index's) cannot vouch for the file by its stat data: same size,
    // same mtime, same inode, and with core.trustctime off the ctime does not count. Only the
    // racy-git rule makes the scan hash it. The index is written afresh (no index file
    // before), so git has no earlier timestamp to find the entry racy against and does not
    // smudge it.
    Repo repo;
    repo.write("a.txt", "x1\n");
    repo.write("b.txt", "keep\n");
    auto base = repo.commit();
    // A day ahead: at or after the index's own time (and within 32-bit seconds, as the index
    // and libgit2 keep them).
    const std::time_t later = std::time(nullptr) + 86400;
    repo.git("config core.trustctime false");
    cptest::set_times(repo.at("a.txt"), later);
    auto setup = cptest::sh("cd " + q(repo.dir()) + " && rm .git/index && git add a.txt b.txt");
    INFO(setup.err);
    REQUIRE(setup.status == 0);
    REQUIRE(repo.git("ls-files --debug a.txt").find("size: 3") != std::string::npos);
    // The same size and time, in the same inode: only the content differs from the entry,
    // which holds the base's content, so nothing but this rule finds the change.
    auto edit = cptest::sh("cd " + q(repo.dir()) + " && printf 'x3\\n' > a.txt");
    REQUIRE(edit.status == 0);
    cptest::set_times(repo.at("a.txt"), later);
    auto opened = open_repo(repo);
    auto diff = diff_of(opened, base, std::nullopt);  // compares with libgit2's
    CHECK(diff.scanned());
    const auto* a = diff.find_old("a.txt");
    REQUIRE(a != nullptr);
    CHECK(a->change == Change::Modified);
    auto hunks = diff.hunks(*a);
    REQUIRE(hunks.ok());
    REQUIRE(hunks->hunks.size() == 1);
    CHECK(repo.git("diff --name-only " + base) == "a.txt\n");
}
