// A direct read of git's index file: libgit2 1.5 parses every entry and verifies the file's
// SHA-1 before it answers anything (45 ms at 100,000 files), where these questions need one
// pass over the bytes. Used to settle a working-tree diff path by path
// (Repository::worktree_diff_of) and to compare the whole working tree with the index
// (worktree_scan.hpp). Versions 2 and 3; any other shape (version 4's compressed paths, a
// split or a sparse index, a damaged file) is "cannot tell", and the caller goes the whole
// way through libgit2.
#pragma once

#include <array>
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
    std::map<std::string, std::array<unsigned char, 20>> attributes;      // every .gitattributes
                                                                          // tracked: its blob id
};

// nullopt: no index there, or one this reader does not take (see above).
std::optional<IndexLookup> read_index_entries(const std::string& index_file,
                                              const std::set<std::string, std::less<>>& paths);

// One entry whole, as the index file stores it: the stat data git compares with the file on
// disk (times in seconds and nanoseconds, all fields 32 bits), the id, the flags.
struct IndexRecord {
    std::string path;
    std::array<unsigned char, 20> id{};
    std::uint32_t ctime_s = 0, ctime_ns = 0, mtime_s = 0, mtime_ns = 0;
    std::uint32_t dev = 0, ino = 0, mode = 0, uid = 0, gid = 0, size = 0;
    IndexEntry flags;
};

struct IndexFile {
    std::vector<IndexRecord> entries;  // in the index's order: by path, then stage
    std::int64_t mtime_s = 0;          // the file's own modification time (racy git)
    std::int64_t mtime_ns = 0;
};

std::optional<IndexFile> read_index_file(const std::string& index_file);

}  // namespace cp::git
