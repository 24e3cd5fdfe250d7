// The caches a Repository fills from its const methods (mutable members, see repository.hpp):
// parsed trees for path lookups (up to kMaxTrees), and the diff attributes with the handle they are
// asked of. No lock: a handle serves one thread at a time, and these are filled on the main thread.
#pragma once

#include <map>
#include <memory>
#include <set>
#include <string>

#include "libgit2.hpp"

namespace cp::git {

// Parsed trees kept for path lookups, at most (about 14 MB of git/git's trees).
inline constexpr std::size_t kMaxTrees = 256;

struct Repository::Trees {
    struct OidLess {
        bool operator()(const git_oid& a, const git_oid& b) const {
            return git_oid_cmp(&a, &b) < 0;
        }
    };
    std::map<git_oid, TreeHandle, OidLess> by_id;
    std::map<std::string, git_oid> root_of;  // commit hex -> its tree's id
};
struct Repository::Attributes {
    std::map<std::string, DiffAttribute, std::less<>> diff_attribute;  // by path: fixed for a run
    bool decided = false;
    std::unique_ptr<Repository> handle;                // see attribute_handle()
    std::set<std::string, std::less<>> side_files_ok;  // side files found safe (side_files_of)
    // The work tree's .gitattributes and .gitignore files that are symlinks, passed by as git
    // passes them (side_files_of, where libgit2 reads them as absent too).
    std::set<std::string, std::less<>> side_files_ignored;
};

}  // namespace cp::git
