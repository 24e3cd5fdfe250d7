// The name-level diff between a base commit and a target (a commit or the working tree), with
// git's renames, and the -U0 line hunks of one of its deltas. A Diff is made by
// Repository::diff or Repository::worktree_diff_of and reads through the repository it came from.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "context_pack/core/mapping.hpp"
#include "context_pack/core/result.hpp"
#include "context_pack/git/rename.hpp"

struct git_diff;

namespace cp::git {

class Repository;

struct DiffDeleter {
    void operator()(git_diff* diff) const;
};

// The staged half of a working-tree diff (base tree to index), made through a reader handle
// (see Repository::staged_changes) so that another thread makes it while diff() stats the
// working tree.
struct StagedChanges {
    std::unique_ptr<git_diff, DiffDeleter> diff;
};

enum class EntryKind { File, Symlink, Submodule, Directory };

enum class Change { Modified, Added, Deleted, Renamed, TypeChanged, Conflicted };

// One changed path of a name-level diff; renames pair an old and a new path.
struct Delta {
    Change change = Change::Modified;
    std::string old_path;
    std::string new_path;
    std::string old_oid;  // the blob at base
    std::string new_oid;  // the blob at a target commit; empty in the working tree
    int similarity = 0;   // percent, for renames
    EntryKind old_kind = EntryKind::File;
    EntryKind new_kind = EntryKind::File;
    bool untracked = false;  // the target side is a working-tree file the index does not hold
};

// A part of a diff that the object store did not give (missing, or damaged): a subtree,
// beneath which nothing is known, or the blob of a rename candidate. Either leaves rename
// detection to exact renames (by id, which needs no content): a partner by content may lie in
// what could not be read.
struct Unread {
    std::string path;  // the subtree's, or the candidate file's
    bool subtree = false;
    bool at_base = true;  // the base side could not be read, else the target's
    std::string oid;
    std::string problem;     // one line naming the object, with its mend
    std::string fetch_from;  // missing from a partial clone: the promisor remote that has it
};

struct Hunks {
    bool binary = false;     // binary content: no line hunks
    bool too_large = false;  // a side over the file size limit: not read, no line hunks
    std::vector<Hunk> hunks;
};

// What the `diff` attribute says of a path: binary (-diff, binary), text (diff), or nothing.
enum class DiffAttribute { Unset, Binary, Text };

// Both sides of one delta as read for its hunks (or not read: a side over the size limit).
struct HunkInput {
    std::string old_path, new_path;
    bool has_old = true, has_new = true;  // false: added, deleted
    bool too_large = false;
    const std::string* given_old = nullptr;  // a side the caller holds, or null: owned here
    const std::string* given_new = nullptr;
    std::string owned_old, owned_new;
    std::string_view old_bytes() const { return given_old ? *given_old : owned_old; }
    std::string_view new_bytes() const { return given_new ? *given_new : owned_new; }
};

// How line_hunks reaches libgit2's xdiff. Direct: xdl_diff itself, in a build on a static
// libgit2 1.5 to 1.9 that holds it (cmake/Libgit2.cmake); Library: git_diff_buffers, libgit2's
// public API, which first hashes both sides with SHA-1. Both give the same hunks.
enum class XdiffCall { Direct, Library };
// Direct where this build has it, else Library.
XdiffCall default_xdiff_call();

// The -U0 hunks of both sides, equal to `git diff -U0`'s: binary as the diff attributes and
// then the content say, else xdiff (Myers with the indent heuristic) after git's trim of the
// common tail that -U0 diffs get. It reads no repository: any thread may run it. Asked for the
// Direct call in a build without it, an error.
Result<Hunks> line_hunks(const HunkInput& input, DiffAttribute old_attribute,
                         DiffAttribute new_attribute, XdiffCall call = default_xdiff_call());

// The -U0 hunks `git log -L` carries ranges through (line-log.c's collect_diff): xdiff's
// Myers without the indent heuristic (its diff options are all zero), every byte taken as
// text, after git's trim of the common tail. Reads no repository: any thread.
Result<std::vector<Hunk>> line_log_hunks(std::string_view parent, std::string_view commit,
                                         XdiffCall call = default_xdiff_call());

// One name-level diff with git's rename detection (see rename.hpp) between a base commit
// and a target commit or the working tree, where untracked files count as rename targets.
// Threads: a Diff does not change once made, so its lookups serve any thread; what reads
// follows the rules of its Repository (repository.hpp), as each method says.
class Diff {
  public:
    const std::vector<Delta>& deltas() const { return deltas_; }  // by base path
    // The same, by target path: an order that rename pairing does not change.
    const std::vector<const Delta*>& by_new_path() const { return by_new_; }
    const Delta* find_old(std::string_view path) const;  // the delta whose base side is path
    const Delta* find_new(std::string_view path) const;  // the delta whose target side is path
    // -U0 hunks for one delta, equal to `git diff -U0`'s: Myers with the indent heuristic,
    // after git's trim of the common tail that -U0 diffs get.
    // `old_bytes` and `new_bytes`, when the caller already holds a side (the base blob, the
    // target blob; not a working-tree file, which is read converted), save reading it again.
    // Main thread: it reads through the repository and asks its diff attributes.
    Result<Hunks> hunks(const Delta& delta, const std::string* old_bytes = nullptr,
                        const std::string* new_bytes = nullptr) const;
    // The half of hunks() that reads. At a commit target, blobs are read through `reader`
    // when given (see Repository::open_reader), so that another thread may run it: any
    // thread with `reader` its own reader. A working-tree diff's, the main thread (files are
    // read converted, through filters).
    Result<HunkInput> read_sides(const Delta& delta, const std::string* old_bytes = nullptr,
                                 const std::string* new_bytes = nullptr,
                                 const Repository* reader = nullptr) const;
    // The diff attribute of a path, as its hunks take it (Repository::diff_attribute).
    // Main thread (it fills the repository's diff-attribute cache).
    Result<DiffAttribute> diff_attribute(const std::string& path) const;
    // Made by Repository::worktree_diff_of: only the paths asked for, and not others it
    // would pair them with (renames, additions). Repository::diff makes the whole one.
    bool partial() const { return partial_; }
    // Whether a lookup of `path` on either side is answered as the whole diff (every path,
    // renames from every deleted one) answers it: always, but in a partial diff (the paths it
    // was made of) and in one whose renames were looked for only from some base paths
    // (Repository::diff's rename_sources: those, and paths that are no rename's).
    bool answers_for(std::string_view path) const;
    // A working-tree diff whose unstaged half came from our own scan (worktree_scan.hpp), not
    // from libgit2's; the two give the same deltas, and the scan steps aside when it cannot.
    bool scanned() const { return scanned_; }
    // Set when git's diff.renameLimit stopped inexact rename detection, as git diff -M warns:
    // a deleted path may then have a renamed twin that was not looked for.
    const std::optional<rename::Skipped>& renames_skipped() const { return renames_skipped_; }
    // What the diff could not read (see Unread), in path order. When there is any, renames
    // were found by id alone, and a deleted path may have a partner by content in it.
    const std::vector<Unread>& unread() const { return unread_; }
    // The unread subtree, on either side, that holds `path`, if any: the diff knows nothing
    // of what is beneath it.
    const Unread* unread_at(std::string_view path) const;

  private:
    friend class Repository;
    const Repository* repo_ = nullptr;
    bool worktree_ = false;
    bool partial_ = false;  // also: no clean filter applies, files are stored as they are
    bool scanned_ = false;  // the unstaged half came from worktree_scan.hpp
    std::optional<rename::Skipped> renames_skipped_;
    std::vector<Unread> unread_;
    std::vector<Delta> deltas_;  // sorted by old_path for lookup
    // Set: the paths a partial diff was made of, or the only base paths renames were looked
    // for from; sorted.
    std::optional<std::vector<std::string>> answered_;
    std::vector<const Delta*> by_new_;
};

}  // namespace cp::git
