// The steps of Repository::diff, each beside its concern. Private to src/git/.
#pragma once

#include <string>
#include <vector>

#include "libgit2.hpp"

namespace cp::git {

// The name-level deltas from `base_tree` to the tree of the commit `target`, read through
// `objects`, recursing only into subtrees whose ids differ; submodules are not followed.
Result<std::vector<Delta>> commit_deltas(const Repository& objects, const git_tree* base_tree,
                                         const std::string& target);

}  // namespace cp::git
