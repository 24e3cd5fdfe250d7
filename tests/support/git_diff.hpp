// The git layer's diffs held against the git CLI, shared by the tests of tests/git: the
// differential harness `diff_of` (every working-tree diff made three ways and compared), the
// parsers of `git diff` output (-U0 hunk headers, --name-status, multi-file patches) and the
// comparisons built on them. The git CLI is the oracle; the tool itself never runs it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "context_pack/core/mapping.hpp"
#include "context_pack/git/repository.hpp"
#include "support/fixture.hpp"

namespace cptest {

// The repository at `repo`, opened; a failure fails the test.
cp::git::Repository open_repo(const Repo& repo);

// Every field of every delta, one line each: two diffs that print the same are the same.
std::string describe(const cp::git::Diff& diff);

// repo.diff(base, target). For the working tree (no target) the same diff is also made with
// its staged half from a second handle and with libgit2's index-to-workdir diff in place of
// our scan, and all three must describe the same.
cp::git::Diff diff_of(const cp::git::Repository& repo, const std::string& base,
                      const std::optional<std::string>& target);

// Trailing newlines, CRs and spaces removed.
std::string trim(std::string s);
std::vector<std::string> split_lines(const std::string& text);
// Bytes made visible for INFO: CR as \r, NUL as \0, and a cap on the size.
std::string visible(const std::string& text, std::size_t cap = 3000);

// One "-a,b +c,d" line a hunk, or "(no hunks)".
std::string show(const std::vector<cp::Hunk>& hunks);

// The hunks of a one-file patch, and whether git called it binary.
struct GitHunks {
    bool binary = false;
    std::vector<cp::Hunk> hunks;
};
GitHunks parse_patch(const std::string& patch);

// `git diff -U0 ... RANGE -- PATH` once per path (one shell for all of them), split per path.
std::map<std::string, std::string> git_patches(const Repo& repo, const std::string& range,
                                               const std::vector<std::string>& paths);

// A whole multi-file patch (`git diff -U0 -M ...`) split per `diff --git a/X b/Y` section,
// keyed by (X, Y). Paths in these fixtures have no spaces or quotes.
std::map<std::pair<std::string, std::string>, GitHunks> git_patch_sections(
    const std::string& patch);

// git's letter for a change: M, A, D, R, T, U.
char letter(cp::git::Change c);

// (letter, old path, new path); a one-path change has old == new.
using NameSet = std::set<std::tuple<char, std::string, std::string>>;
NameSet ours_names(const cp::git::Diff& diff);
// `git diff --name-status` output as a NameSet.
NameSet parse_name_status(const std::string& text);
std::string show(const NameSet& set);

// Compares, for every path given, our hunks for the delta whose base side is that path with
// the ones `git diff -U0 RANGE -- PATH` prints, and counts them in `compared`.
// `base_text`/`target_text` and `notes` are for messages.
void compare_hunks(const Repo& repo, const cp::git::Diff& diff, const std::string& range,
                   const std::vector<std::string>& paths,
                   const std::map<std::string, std::string>& base_text,
                   const std::map<std::string, std::string>& target_text, int& compared,
                   const std::map<std::string, std::string>& notes = {});

// git's view of the working tree as SPEC §3 defines it (on disk, staged or not, untracked
// files included): a throwaway index that `git add -A` fills, diffed with --cached ARGS.
std::string git_worktree_view(const Repo& repo, const std::string& args);

// A system-wide gitattributes file makes every working-tree diff take the whole way.
bool system_attributes();

// `n` numbered lines "PREFIX line i"; `edited` has line `line` as "PREFIX EDITED i".
std::string body(const std::string& prefix, int n = 20);
std::string edited(const std::string& prefix, int n = 20, int line = 7);
// Moves a file on disk (git sees a deletion and an untracked file).
void rename_file(const Repo& repo, const std::string& from, const std::string& to);

}  // namespace cptest
