// A direct read of git's index file, for a handful of paths: libgit2 1.5 parses every entry
// and verifies the file's SHA-1 before it answers anything (45 ms at 100,000 files), where
// these questions need one pass over the bytes. Used only to settle a working-tree diff path
// by path (Repository::worktree_diff_of). Versions 2 and 3; any other shape (version 4's
// compressed paths, a split or a sparse index, a damaged file) is "cannot tell", and the
// caller goes the whole way through libgit2.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace cp::git {

struct IndexEntry {
    std::uint32_t mode = 0;
    int stage = 0;
    bool assume_valid = false;   // update-index --assume-unchanged
    bool skip_worktree = false;  // sparse checkout
    bool intent_to_add = false;  // add -N
};

struct IndexLookup {
    std::map<std::string, std::vector<IndexEntry>, std::less<>> entries;  // paths asked for
    std::map<std::string, std::string> attributes;  // every .gitattributes tracked: its blob id
};

// nullopt: no index there, or one this reader does not take (see above).
std::optional<IndexLookup> read_index_entries(const std::string& index_file,
                                              const std::set<std::string, std::less<>>& paths);

}  // namespace cp::git
