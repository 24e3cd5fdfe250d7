// The steps of Repository::diff (diff.cpp), each beside its concern: a commit target's deltas
// by our tree walk (tree_walk.cpp), the working tree's from its two halves (worktree_diff.cpp),
// and renames paired over either (diff_renames.cpp). Private to src/git/.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "context_pack/git/rename.hpp"
#include "libgit2.hpp"

namespace cp::git {

// The name-level deltas from `base_tree` to the tree of the commit `target`, read through
// `objects`, recursing only into subtrees whose ids differ; submodules are not followed. A
// subtree the store does not give is `unread`, and nothing beneath it is walked.
struct CommitDeltas {
    std::vector<Delta> deltas;
    std::vector<Unread> unread;
};
Result<CommitDeltas> commit_deltas(const Repository& objects, const git_tree* base_tree,
                                   const std::string& target);

struct WorktreeDeltas {
    std::vector<Delta> deltas;
    bool scanned = false;  // the unstaged half came from our scan (worktree_scan.hpp)
};

// The working tree's deltas from `base` (whose tree is `base_tree`), staged and unstaged: the
// unstaged half by our scan when `scan` and it can tell, else by libgit2; the staged half from
// `take_staged` when given (see Repository::diff), else made here. A change that git diff BASE
// would not show (a staged edit undone on disk, submodules added or deleted) drops out.
Result<WorktreeDeltas> worktree_deltas(const Repository& repo, const std::string& base,
                                       git_tree* base_tree,
                                       const Repository::TakeStaged& take_staged, bool scan);

// `deltas` with git's renames paired (rename.hpp): deleted paths are the sources, added and
// untracked ones the targets; blobs are read through `objects`, working-tree files through
// `repo`, and files over `repo`'s size limit and submodules take no part. The pairs come
// first, then every delta left unpaired, in its order. The limit is git's diff.renameLimit;
// `skipped` says when it stopped inexact detection; it is read through `objects`. `unread`
// holds what the diff could not read (subtrees); blobs the store does not give join it, and
// when it is not empty, renames are found by id alone.
struct PairedDeltas {
    std::vector<Delta> deltas;
    std::optional<rename::Skipped> skipped;
};
// `only` (sorted): the deleted paths whose partners are wanted; null: every one's.
Result<PairedDeltas> pair_renames(const Repository& repo, const Repository& objects,
                                  std::vector<Delta> deltas, bool worktree,
                                  std::vector<Unread>& unread,
                                  const std::vector<std::string>* only = nullptr);

}  // namespace cp::git
