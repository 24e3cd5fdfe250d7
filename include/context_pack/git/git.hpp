// The one narrow layer over libgit2: open a repository, resolve a revision, look up a path at a
// commit, the name-level diff with renames for a (base, target), -U0 hunks for one of its
// deltas, and file content at the target. No other file includes <git2.h>; every libgit2
// error becomes a one-line message here. It never writes to the repository.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "context_pack/core/mapping.hpp"
#include "context_pack/core/result.hpp"

struct git_repository;
struct git_diff;

namespace cp::git {

struct RepoDeleter {
    void operator()(git_repository* repo) const;
};
struct DiffDeleter {
    void operator()(git_diff* diff) const;
};

// The staged half of a working-tree diff (base tree to index), made through a reader handle
// (see Repository::staged_changes) so that another thread makes it while diff() stats the
// working tree.
struct StagedChanges {
    std::unique_ptr<git_diff, DiffDeleter> diff;
};

// What a revision string names.
struct Revision {
    enum class Outcome { Commit, NotFound, Ambiguous, NotACommit, Invalid, Missing };
    Outcome outcome = Outcome::NotFound;
    std::string oid;                      // full hex for Commit, and the object for Missing
    std::vector<std::string> candidates;  // "1a2b3c4d5e commit" lines for Ambiguous
};

enum class EntryKind { File, Symlink, Submodule, Directory };

// A path at a commit. `blocked_by` names a submodule or symlink that an ancestor of the path
// is, when the walk stopped there.
struct Entry {
    EntryKind kind = EntryKind::File;
    std::string oid;
    bool executable = false;  // a file with mode 100755
};
struct PathLookup {
    std::optional<Entry> entry;  // absent: no such path
    std::string blocked_by;      // an ancestor that is a submodule or symlink, if any
    EntryKind blocked_kind = EntryKind::File;
};

enum class Change { Modified, Added, Deleted, Renamed, TypeChanged, Conflicted };

// One changed path of a name-level diff; renames pair an old and a new path.
struct Delta {
    Change change = Change::Modified;
    std::string old_path;
    std::string new_path;
    std::string old_oid;         // the blob at base
    std::string new_oid;         // the blob at a target commit; empty in the working tree
    int similarity = 0;          // percent, for renames
    EntryKind old_kind = EntryKind::File;
    EntryKind new_kind = EntryKind::File;
};

struct Hunks {
    bool binary = false;     // binary content: no line hunks
    bool too_large = false;  // a side over the file size limit: not read, no line hunks
    std::vector<Hunk> hunks;
};

inline constexpr std::uint64_t kDefaultMaxFileBytes = 128ull << 20;

class Repository;

// A file a target tracks: a blob of a commit's tree, or (no id) a path the index lists, to
// be read from the working tree.
struct TrackedFile {
    std::string path;
    std::string oid;
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

// The -U0 hunks of both sides, equal to `git diff -U0`'s: binary as the diff attributes and
// then the content say, else xdiff (Myers with the indent heuristic) after git's trim of the
// common tail that -U0 diffs get. It reads no repository: any thread may run it.
Result<Hunks> line_hunks(const HunkInput& input, DiffAttribute old_attribute,
                         DiffAttribute new_attribute);

// One name-level diff with git's rename detection (see rename.hpp) between a base commit
// and a target commit or the working tree, where untracked files count as rename targets.
class Diff {
public:
    const std::vector<Delta>& deltas() const { return deltas_; }
    const Delta* find_old(std::string_view path) const;  // the delta whose base side is path
    const Delta* find_new(std::string_view path) const;  // the delta whose target side is path
    // -U0 hunks for one delta, equal to `git diff -U0`'s: Myers with the indent heuristic,
    // after git's trim of the common tail that -U0 diffs get.
    // `old_bytes` and `new_bytes`, when the caller already holds a side (the base blob, the
    // target blob; not a working-tree file, which is read converted), save reading it again.
    Result<Hunks> hunks(const Delta& delta, const std::string* old_bytes = nullptr,
                        const std::string* new_bytes = nullptr) const;
    // The half of hunks() that reads. At a commit target, blobs are read through `reader`
    // when given (see Repository::open_reader), so that another thread may run it.
    Result<HunkInput> read_sides(const Delta& delta, const std::string* old_bytes = nullptr,
                                 const std::string* new_bytes = nullptr,
                                 const Repository* reader = nullptr) const;
    // The diff attribute of a path, as its hunks take it.
    DiffAttribute diff_attribute(const std::string& path) const;
    // Made by Repository::worktree_diff_of: only the paths asked for, and not others it
    // would pair them with (renames, additions). Repository::diff makes the whole one.
    bool partial() const { return partial_; }
    // A working-tree diff whose unstaged half came from our own scan (worktree_scan.hpp), not
    // from libgit2's; the two give the same deltas, and the scan steps aside when it cannot.
    bool scanned() const { return scanned_; }

private:
    friend class Repository;
    const Repository* repo_ = nullptr;
    bool worktree_ = false;
    bool partial_ = false;  // also: no clean filter applies, files are stored as they are
    bool scanned_ = false;  // the unstaged half came from worktree_scan.hpp
    std::vector<Delta> deltas_;  // sorted by old_path for lookup
    std::vector<const Delta*> by_new_;
};

class Repository {
public:
    // Opens the repository that contains `dir` (searching upwards, as git does).
    static Result<Repository> open(const std::string& dir);

    bool is_bare() const;
    bool is_shallow() const;
    std::string workdir() const;  // with a trailing '/'; empty when bare

    Revision resolve_commit(std::string_view rev) const;
    Result<std::string> head_commit() const;

    Result<PathLookup> lookup(const std::string& commit, std::string_view path) const;
    Result<std::string> blob(const std::string& oid) const;
    Result<std::uint64_t> blob_size(const std::string& oid) const;  // without reading it
    // The blob, measured first: nullopt, and not read, when it is over the size limit.
    Result<std::optional<std::string>> blob_within_limit(const std::string& oid) const;

    // Files over this size are never read whole: no hunks, windows, symbol checks, callers
    // or renames come from them, and what they would have fed says why.
    void set_max_file_bytes(std::uint64_t bytes) { max_file_bytes_ = bytes; }
    std::uint64_t max_file_bytes() const { return max_file_bytes_; }
    // Whether diff() may compare the working tree with the index by its own scan
    // (worktree_scan.hpp) before asking libgit2; on by default, off to compare the two.
    void set_worktree_scan(bool on) { scan_worktree_ = on; }

    // target: a commit, or nullopt for the working tree (what is on disk, staged or not).
    // Between two commits, objects are read through `reader` when given, so that another
    // thread may diff; the diff still belongs to this repository.
    // For the working tree, `staged`, when given, is called once the unstaged half (index to
    // working tree) is made here, for the staged half made elsewhere meanwhile; when it
    // returns nothing, the whole diff is made here.
    using TakeStaged = std::function<std::optional<StagedChanges>()>;
    Result<Diff> diff(const std::string& base, const std::optional<std::string>& target,
                      const Repository* reader = nullptr,
                      const TakeStaged& staged = nullptr) const;
    // The base tree to `index_file` (the main handle's index, see index_file()): the staged
    // half of a working-tree diff, which this handle, a reader, can make on another thread.
    Result<StagedChanges> staged_changes(const std::string& base,
                                         const std::string& index_file) const;
    std::string index_file() const;

    // The working tree's diff for `paths` alone (as Repository::diff would give it for them),
    // when every one can be settled alone: a regular file at base that is one plain entry of
    // the index (no conflict, no skip-worktree, assume-unchanged or intent-to-add) and a
    // regular file on disk, or a path absent at base with no symlink there; no clean filter
    // (core.autocrlf, or attributes such as text, eol, ident) that would convert it; every
    // tracked .gitattributes on disk unchanged; no symlink on the way. Its cost follows the
    // paths, not the tree: no stat of every file, no libgit2 index. nullopt when a path does
    // not qualify; the caller then makes the whole diff.
    Result<std::optional<Diff>> worktree_diff_of(const std::string& base,
                                                 const std::vector<std::string>& paths) const;

    // Another handle on the same object database, for another thread's reads (blobs, trees,
    // commits; nothing of the working tree): libgit2 1.5 reads one handle's objects under one
    // lock, so threads sharing a handle would take turns.
    Result<Repository> open_reader() const;

    // Whether the file at `path` is on disk as the blob `id` (read raw, no filter).
    Result<bool> unchanged_on_disk(const std::string& path,
                                   const std::array<unsigned char, 20>& id) const;
    // File content in the working tree; nullopt when it is absent, not a regular file, over
    // the size limit, or reached through a symlink (reads never follow one, so they never
    // leave the tree).
    Result<std::optional<std::string>> read_worktree(std::string_view path) const;
    // The diff attribute of a path (a driver counts by its diff.<driver>.binary setting).
    DiffAttribute diff_attribute(const std::string& path) const;
    // The first component of `path` that is a symlink in the working tree, if any.
    std::optional<std::string> worktree_symlink(std::string_view path) const;
    // The same converted as git stores it (CRLF and ident filters), for diffs and renames.
    Result<std::optional<std::string>> read_worktree_as_stored(std::string_view path) const;

    // Calls `visit(path, bytes)` for every regular file the target tracks, in path order: the
    // blobs of a commit's tree, or for the working tree the index's paths read from disk.
    // Symlinks, submodules and files missing from disk are skipped.
    using FileVisitor = std::function<void(const std::string& path, std::string_view bytes)>;
    Result<Unit> for_each_tracked_file(const std::optional<std::string>& target,
                                       const FileVisitor& visit) const;
    // The same in two steps, so that threads can share the reading: the files, in that
    // order (none read yet), then `visit` for files[begin, end), blobs read through `reader`
    // when given (see open_reader) and working-tree files from this handle's working tree.
    Result<std::vector<TrackedFile>> tracked_files(const std::optional<std::string>& target) const;
    Result<Unit> read_tracked(const std::vector<TrackedFile>& files, std::size_t begin,
                              std::size_t end, const FileVisitor& visit,
                              const Repository* reader = nullptr) const;

    Repository();
    Repository(Repository&&) noexcept;
    Repository& operator=(Repository&&) noexcept;
    ~Repository();

private:
    DiffAttribute diff_attribute_uncached(const std::string& path) const;
    // A second handle on this working tree whose index is empty.
    Result<Repository> open_without_index() const;
    // Where attributes are asked: a handle made by open_without_index, so that libgit2 does
    // not load the real index (a parse and a SHA-1 of it: 45 ms at 100,000 files), when that
    // gives the same answers: every .gitattributes the index tracks is a file on disk, which
    // libgit2 reads before it looks in the index. Else this handle.
    const Repository& attribute_handle() const;
    // Parsed trees, by id (path lookups walk the same ones again and again), and each path's
    // diff attribute once asked for.
    struct Trees;
    std::unique_ptr<git_repository, RepoDeleter> repo_;
    std::unique_ptr<Trees> trees_;
    std::uint64_t max_file_bytes_ = kDefaultMaxFileBytes;
    bool scan_worktree_ = true;
};

// Whether libgit2's init skipped parsing the CA bundle (see git.cpp): true once a repository
// was opened, with Debian's mbedTLS build of libgit2.
bool ca_bundle_skipped();

// libgit2's version, as "1.5.1".
std::string library_version();

}  // namespace cp::git
