// The working tree against the index, as libgit2 1.5's git_diff_index_to_workdir gives it
// (with untracked files, recursing into untracked directories, typechanges asked for), for
// the common shape of a tree. libgit2 stats every file by its absolute path on one thread;
// this walks each directory once through its handle (sys::Dir: readdir, then fstatat by
// name) and takes the index from index_file.hpp, not from libgit2's parse. Where the platform
// has no stat data to compare as the index records it (sys::has_index_stat_data: Windows),
// it always steps aside.
//
// It answers only where it can answer as libgit2 would. Anything else is "cannot tell"
// (nullopt), and the caller makes libgit2's diff: an index this reader does not take, a
// conflict, an assume-unchanged, skip-worktree or intent-to-add entry, a type change (file
// to directory or symlink and back, a submodule that is not a directory), a tracked
// directory that is now a file or a symlink, a nested repository among untracked files, an
// unreadable directory, a file it needs to hash and cannot. Submodules count as libgit2
// counts them with submodules ignored: deleted when gone, else unmodified.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "context_pack/git/index_file.hpp"

namespace cp::git {

// The config that decides how stat data compares (libgit2's diff capabilities).
struct ScanRules {
    bool trust_mode = true;    // core.filemode
    bool has_symlinks = true;  // core.symlinks
    bool trust_ctime = true;   // core.trustctime
    bool nanoseconds = true;   // libgit2 built with GIT_USE_NSEC: nanoseconds compare too
};

struct ScanHooks {
    // Whether an untracked path (relative, no trailing '/') is ignored; nullopt: cannot tell.
    std::function<std::optional<bool>(const std::string& path)> ignored;
    // The blob id the file at `path` would be stored as, for a mode (a symlink's target, or
    // the file converted as git stores it); nullopt: cannot tell.
    std::function<std::optional<std::array<unsigned char, 20>>(const std::string& path,
                                                               std::uint32_t mode)>
        blob_id;
};

// One unstaged change, as libgit2 would record it.
struct ScanChange {
    enum class Kind { Deleted, Modified, Untracked };
    Kind kind = Kind::Modified;
    std::string path;
    const IndexRecord* index = nullptr;  // Deleted, Modified: the entry (old side)
    std::uint32_t mode = 0;              // Modified, Untracked: the mode on disk, as libgit2
                                         // takes it (0100755 for an executable file)
    std::optional<std::array<unsigned char, 20>> id;  // Modified: when the file was hashed
};

// `root`: the working tree, with a trailing '/'. The changes come in no particular order.
std::optional<std::vector<ScanChange>> scan_worktree(const std::string& root,
                                                     const IndexFile& index, const ScanRules& rules,
                                                     const ScanHooks& hooks);

}  // namespace cp::git
