// The one narrow layer over libgit2: open a repository, resolve a revision, look up a path at a
// commit, make the name-level diff (diff.hpp) for a (base, target), and read file content at
// the target. Only src/git/ includes <git2.h>; every libgit2 error becomes a one-line message
// there. It never writes to the repository.
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

#include "context_pack/core/line_log.hpp"
#include "context_pack/core/option_names.hpp"
#include "context_pack/core/result.hpp"
#include "context_pack/git/diff.hpp"

struct git_repository;

namespace cp::git {

struct RepoDeleter {
    void operator()(git_repository* repo) const;
};

// What a revision string names. Missing: it leads to an object the store cannot give (a
// reference to a missing object, a damaged commit, a commit whose tree is damaged), which is
// no absence: `problem` says which object, why, and the mend.
struct Revision {
    enum class Outcome { Commit, NotFound, Ambiguous, NotACommit, Invalid, Missing };
    Outcome outcome = Outcome::NotFound;
    std::string oid;                      // full hex for Commit, and the object for Missing
    std::vector<std::string> candidates;  // "1a2b3c4d5e commit" lines for Ambiguous
    std::string problem;                  // for Missing: one line, with its mend
};

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

inline constexpr std::uint64_t kDefaultMaxFileBytes = 128ull << 20;
inline constexpr std::size_t kDefaultMaxTreeDepth = 4096;  // git's core.maxTreeDepth
inline constexpr std::size_t kDefaultMaxTreePaths = std::size_t{1} << 21;  // 2,097,152

// A file a target tracks: a blob of a commit's tree, or (no id) a path the index lists (or
// an untracked one, for a caller scan), to be read from the working tree.
struct TrackedFile {
    std::string path;
    std::string oid;
};

// Paths in one buffer, for a search over every file of a tree: two arrays however many files
// there are (and, while it is made, a third of where each path ends), not a string a file.
// Not copied: `paths` point into `bytes`.
struct PathList {
    PathList() = default;
    PathList(const PathList&) = delete;
    PathList& operator=(const PathList&) = delete;
    std::string bytes;                    // the paths, one after another
    std::vector<std::string_view> paths;  // each a part of `bytes`, in path order
};

// git's repository environment (GIT_DIR, GIT_WORK_TREE, GIT_INDEX_FILE, GIT_OBJECT_DIRECTORY,
// GIT_ALTERNATE_OBJECT_DIRECTORIES, GIT_CEILING_DIRECTORIES), as git passes it to the
// commands it runs (`git --git-dir=X context-pack`, hooks). An unset variable is nullopt.
struct Environment {
    std::optional<std::string> git_dir, work_tree, index_file, object_directory, alternates,
        ceiling_directories;
    static Environment of_process();  // read from this process's environment
};

// A range followed back through history (Repository::line_history): lines `ranges` of `path`
// at the tip, 0-based and half-open as core/line_log keeps them.
struct LineQuery {
    std::string path;
    line_log::RangeSet ranges;
};
// A commit that changed a followed range, or the working tree's uncommitted changes.
struct LineChange {
    std::string commit;  // full hash; empty for the working tree
    std::int64_t author_time = 0;
    std::string subject;  // the message's first paragraph on one line (git's %s)
    bool worktree() const { return commit.empty(); }
};

// The first-parent line from a tip down to a base (Repository::first_parents).
struct FirstParents {
    // Oldest first, the tip last: the commits of `git rev-list --first-parent tip ^base`.
    // The first one's first parent is the base when the base is on the line.
    std::vector<std::string> commits;
    bool bounded = false;  // the walk stopped at its limit before it reached the base's side
};

// One handle on a repository.
//
// Threads: a handle serves one thread at a time and takes no lock. The main thread owns the
// handle open() gives; each pool thread owns a reader (open_reader) and calls on it what says
// "its owner" below. A pool thread may also call, on the main handle while the main thread
// goes on using it, what says "any thread": those read only values fixed at open, files
// beneath the working tree, or objects through the caller's own reader. The rest is for the
// main thread alone on the main handle: it reads through this handle's libgit2 repository or
// fills its caches (the mutable members below) from const methods. A pool thread may call the
// same on its own reader where they read only refs, commits, trees, blobs and attributes
// (resolve_commit, lookup, blob, diff and line_history between commits, tracked_files at a
// commit, diff_attribute, is_shallow): a reader has the main handle's working tree, index
// and settings, and caches of its own, so it gives the main handle's answers.
class Repository {
  public:
    // Every object directory objects are read from: the repository's (or
    // GIT_OBJECT_DIRECTORY's), then each alternate at any depth (info/alternates,
    // GIT_ALTERNATE_OBJECT_DIRECTORIES), as opened.
    struct ObjectDirectory {
        std::string path;
        bool alternate = false;
        bool from_environment = false;  // named by GIT_OBJECT_DIRECTORY or ..._DIRECTORIES
    };
    // A place the repository reads: `what` it is to the repository ("working tree", "git
    // directory", "common git directory", "object directory", "alternate object directory",
    // "index"), and the environment's variable that put it there, if any.
    struct Place {
        const char* what;
        std::string path;
        const char* variable = nullptr;
    };
    static Place place_of(const ObjectDirectory& objects);
    // The front end's word on a place, asked before anything in it is looked at (MCP: it
    // must lie inside the client's roots); an error refuses the open.
    using Admit = std::function<Result<Unit>(const Place&)>;

    // Opens the repository that contains `dir` (searching upwards, as git does), or the one
    // `env` names as git would from `dir` (`git -C dir`): GIT_DIR and GIT_WORK_TREE relative
    // to `dir`, GIT_INDEX_FILE and the object directories relative to the top of the working
    // tree, the ceiling directories bounding the search. Its errors, and those of every handle
    // opened from it, name options as `names` does.
    // `admit` is asked of each place the repository reads once git has found it: the working
    // tree, the git directories, each object directory (alternates at any depth included),
    // and the index, each before it is looked at (libgit2 has read the git directory's config
    // and HEAD to find it).
    // Main thread: telling a safe.directory refusal apart sets a process-wide libgit2 option.
    static Result<Repository> open(const std::string& dir,
                                   const OptionNames& names = kCommandLineNames,
                                   const Environment& env = {}, const Admit& admit = {});
    // How this handle's errors name the front end's options. Any thread.
    const OptionNames& option_names() const { return settings_.names; }

    // The promisor remote of a partial clone, as git finds it (extensions.partialClone, else
    // the first remote whose remote.<name>.promisor is true): a fetch from it brings an
    // object the clone lacks. Empty for a repository that is no partial clone. Read at open;
    // any thread.
    const std::string& promisor_remote() const { return settings_.promisor_remote; }

    bool is_bare() const;     // main thread
    bool is_shallow() const;  // main thread
    bool is_empty() const;    // no commit on any branch yet (git_repository_is_empty)
    // The pack indexes (objects/pack/*.idx, in every object directory) whose pack is gone:
    // their objects are missing, not absent, though libgit2 passes them over.
    std::vector<std::string> packs_without_data() const;
    std::string workdir() const;  // with a trailing '/'; empty when bare. Any thread.
    // The git directory, and the common one whose objects and refs it shares (another only
    // for a linked worktree), each with a trailing '/'. Any thread.
    std::string git_dir() const;
    std::string common_dir() const;
    // Every object directory objects are read from, as opened (ObjectDirectory).
    const std::vector<ObjectDirectory>& object_directories() const { return settings_.object_dirs; }

    Revision resolve_commit(std::string_view rev) const;  // main thread
    Result<std::string> head_commit() const;              // main thread
    // HEAD's commit, or nullopt on an unborn branch. Main thread.
    Result<std::optional<std::string>> head_commit_if_born() const;

    // Main thread: it fills the tree cache.
    Result<PathLookup> lookup(const std::string& commit, std::string_view path) const;
    // Its owner: the main thread on the main handle, a pool thread on its reader. A blob the
    // store cannot give (missing, damaged) is an Error saying so (Error::object); `of` says
    // there what the blob is to the caller ("of a.c at base"), or is empty.
    Result<std::string> blob(const std::string& oid, std::string_view of = {}) const;
    // Without reading it.
    Result<std::uint64_t> blob_size(const std::string& oid, std::string_view of = {}) const;
    // The blob, measured first: nullopt, and not read, when it is over the size limit.
    // Its owner, as blob().
    Result<std::optional<std::string>> blob_within_limit(const std::string& oid,
                                                         std::string_view of = {}) const;

    // Files over this size are never read whole: no hunks, windows, symbol checks, callers
    // or renames come from them, and what they would have fed says why. Set on the main
    // thread before open_reader, whose readers copy it; read from any thread.
    void set_max_file_bytes(std::uint64_t bytes) { settings_.max_file_bytes = bytes; }
    std::uint64_t max_file_bytes() const { return settings_.max_file_bytes; }
    // How deep a commit's tree may be (core.maxTreeDepth, default 4096, as git 2.44): walks
    // past it are refused with an error, never followed. Read at open; any thread.
    std::size_t max_tree_depth() const { return settings_.max_tree_depth; }
    // How many paths one walk of commit trees may pass (tracked_files; a commit diff's walk,
    // which passes the paths whose entries differ): a tree that names one subtree many times
    // multiplies its paths (k small trees, each naming the one before twice, make 2^k), so
    // walks past the limit are refused with an error. Set on the main thread before
    // open_reader, whose readers copy it; read from any thread.
    void set_max_tree_paths(std::size_t paths) { settings_.max_tree_paths = paths; }
    std::size_t max_tree_paths() const { return settings_.max_tree_paths; }
    // Whether diff() may compare the working tree with the index by its own scan
    // (worktree_scan.hpp) before asking libgit2; on by default, off to compare the two.
    // Main thread.
    void set_worktree_scan(bool on) { scan_worktree_ = on; }

    // target: a commit, or nullopt for the working tree (what is on disk, staged or not).
    // Between two commits, objects are read through `reader` when given, so that another
    // thread may diff; the diff still belongs to this repository.
    // For the working tree, `staged`, when given, is called once the unstaged half (index to
    // working tree) is made here, for the staged half made elsewhere meanwhile; when it
    // returns nothing, the whole diff is made here.
    // `rename_sources`, when given (sorted), are the only base paths whose rename partners are
    // wanted: the partners found for them are the whole detection's, and other deleted paths
    // may stay unpaired (Diff::answers_for), which saves scoring them against every addition.
    // Any thread between two commits with `reader` the caller's own reader (this handle then
    // gives only its size limit); else the main thread: the working tree's diff stats files,
    // asks attributes and reads this handle's index.
    using TakeStaged = std::function<std::optional<StagedChanges>()>;
    Result<Diff> diff(const std::string& base, const std::optional<std::string>& target,
                      const Repository* reader = nullptr, const TakeStaged& staged = nullptr,
                      const std::vector<std::string>* rename_sources = nullptr) const;
    // For each query, the commits of `base..tip` that changed its lines, as
    // `git log -L <l>,<e>:<path> base..tip` lists them (git's line-log.c): the commits in
    // git log -L's order (graph order: each commit before its parents, a merge's later
    // parents' sides first), ranges carried back from each commit to its parents through
    // diffs of the followed paths alone (no indent heuristic), renames followed where a
    // followed path is added (every deletion a source, the added followed paths the only
    // targets); at a merge, the first parent against which the lines are unchanged takes
    // them and the merge is not listed, else every parent takes its side's and it is. One
    // walk for every query. `tip` nullopt: the working tree, its uncommitted changes (the
    // file as git would store it, against HEAD's) listed last when they touch the lines, and
    // the walk from HEAD (none on an unborn branch). Main thread.
    Result<std::vector<std::vector<LineChange>>> line_history(
        const std::string& base, const std::optional<std::string>& tip,
        const std::vector<LineQuery>& queries) const;

    // `git rev-list --first-parent tip ^base`, oldest first, at most `limit` commits (the
    // newest kept). Its owner, between commits.
    Result<FirstParents> first_parents(const std::string& base, const std::string& tip,
                                       std::size_t limit) const;
    // A commit's parents, in order (`git rev-list --no-walk --parents`). Its owner.
    Result<std::vector<std::string>> parents(const std::string& commit) const;

    // The base tree to `index_file` (the main handle's index, see index_file()): the staged
    // half of a working-tree diff, which this handle, a reader, can make on another thread.
    // Its owner, and only on a reader: it sets the handle's index to that file.
    Result<StagedChanges> staged_changes(const std::string& base,
                                         const std::string& index_file) const;
    // Any thread: a path fixed at open (GIT_INDEX_FILE when set, else the git dir's index).
    std::string index_file() const;

    // The working tree's diff for `paths` alone (as Repository::diff would give it for them),
    // when every one can be settled alone: a regular file at base that is one plain entry of
    // the index (no conflict, no skip-worktree, assume-unchanged or intent-to-add) and a
    // regular file on disk, or a path absent at base with no symlink there; no clean filter
    // (core.autocrlf, or attributes such as text, eol, ident) that would convert it; every
    // tracked .gitattributes on disk unchanged; no symlink on the way. Its cost follows the
    // paths, not the tree: no stat of every file, no libgit2 index. nullopt when a path does
    // not qualify; the caller then makes the whole diff. Main thread.
    Result<std::optional<Diff>> worktree_diff_of(const std::string& base,
                                                 const std::vector<std::string>& paths) const;

    // Another handle on the same repository (objects, working tree, index, settings), for
    // another thread's reads: libgit2 1.5 reads one handle's objects under one lock, so
    // threads sharing a handle would take turns. Main thread, before the threads that will
    // own the readers start.
    Result<Repository> open_reader() const;

    // Whether the file at `path` is on disk as the blob `id` (read raw, no filter).
    // Main thread.
    Result<bool> unchanged_on_disk(const std::string& path,
                                   const std::array<unsigned char, 20>& id) const;
    // File content in the working tree; nullopt when it is absent, not a regular file, over
    // the size limit, or reached through a symlink (reads never follow one, so they never
    // leave the tree). Any thread: no libgit2 call (pool threads reach it by read_tracked).
    Result<std::optional<std::string>> read_worktree(std::string_view path) const;
    // The blob id of a file a sparse checkout leaves off disk: a skip-worktree entry of the
    // index (stage 0) with nothing at its path, which git counts unchanged; nullopt for any
    // other path. Main thread: it reads the index through this handle.
    Result<std::optional<std::string>> not_checked_out(std::string_view path) const;
    // The diff attribute of a path (a driver counts by its diff.<driver>.binary setting);
    // an error when a side file libgit2 would read for it is refused (side_files_of).
    // Main thread: it fills the diff-attribute cache.
    Result<DiffAttribute> diff_attribute(const std::string& path) const;
    // The side files libgit2 opens by itself when asked about `path`: the .gitattributes
    // (or, for `SideFile::Ignore`, .gitignore) of the root and of each directory on the way,
    // and info/attributes (info/exclude) of the git directory. libgit2 1.5 stats and opens
    // them following symlinks and would block on a FIFO, so one that is there and not a
    // regular file or a directory is refused with a one-line error naming it and the mend,
    // as is, for attributes, a directory on the way that is a symlink to one. git 2.32 and
    // later pass by a symlinked .gitattributes or .gitignore in the work tree; so does the
    // libgit2 built here (CONTEXT_PACK_TREE_SYMLINKS_IGNORED), and such a file is passed by
    // and remembered (ignored_attributes); a system libgit2 would follow it, and it is
    // refused. Cheap: one lstat per directory for the run (cached). Main thread: it fills
    // that cache.
    enum class SideFile { Attributes, Ignore };
    Result<Unit> side_files_of(std::string_view path, SideFile which) const;
    // The work tree's .gitattributes on `path`'s way that are symlinks, passed by as git
    // passes them (side_files_of), for a note on the anchors they would have concerned; none
    // where side_files_of refuses the way (which the run says where attributes are asked).
    // Main thread, as side_files_of.
    std::vector<std::string> ignored_attributes(std::string_view path) const;
    // The first component of `path` that is a symlink in the working tree, if any.
    // Main thread.
    std::optional<std::string> worktree_symlink(std::string_view path) const;
    // The same converted as git stores it (CRLF and ident filters), for diffs and renames.
    // Main thread: filters and attributes go through this handle and its attribute handle.
    Result<std::optional<std::string>> read_worktree_as_stored(std::string_view path) const;
    // The blob id git would store for the working-tree file at `path`: git's blob hash of
    // read_worktree_as_stored's bytes. Nothing is written. nullopt when there is no regular
    // file there within the size limit. Main thread, as read_worktree_as_stored.
    Result<std::optional<std::string>> worktree_blob_id(std::string_view path) const;

    // Calls `visit(path, bytes)` for every regular file the target tracks, in path order: the
    // blobs of a commit's tree, or for the working tree the index's paths read from disk.
    // Symlinks, submodules and files missing from disk are skipped. A file or a directory
    // whose object the store does not give (Error::object) is passed to `skip` with why, and
    // the walk goes on; without `skip`, it is the walk's error. Main thread.
    using FileVisitor = std::function<void(const std::string& path, std::string_view bytes)>;
    using SkipVisitor = std::function<void(const std::string& path, const Error& why)>;
    Result<Unit> for_each_tracked_file(const std::optional<std::string>& target,
                                       const FileVisitor& visit,
                                       const SkipVisitor& skip = nullptr) const;
    // The same in two steps, so that threads can share the reading: the files, in that
    // order (none read yet), then `visit` for files[begin, end), blobs read through `reader`
    // when given (see open_reader) and working-tree files from this handle's working tree.
    // tracked_files: main thread (it reads this handle's index or tree). read_tracked: any
    // thread with `reader` the caller's own reader; without one, the main thread. `skip` is
    // called on the thread that reads.
    Result<std::vector<TrackedFile>> tracked_files(const std::optional<std::string>& target,
                                                   const SkipVisitor& skip = nullptr) const;
    // The paths alone of the regular files a commit tracks, as tracked_files lists them;
    // `skip` as there. Main thread, or a pool thread on its reader.
    Result<std::unique_ptr<const PathList>> tracked_paths(const std::string& commit,
                                                          const SkipVisitor& skip = nullptr) const;
    // The working tree's untracked files that are not ignored, as git status lists them
    // (untracked directories walked into, .gitignore and info/exclude obeyed, each ignore
    // file checked as side_files_of does): regular files only, in path order. Main thread.
    Result<std::vector<std::string>> untracked_files() const;
    Result<Unit> read_tracked(const std::vector<TrackedFile>& files, std::size_t begin,
                              std::size_t end, const FileVisitor& visit,
                              const Repository* reader = nullptr,
                              const SkipVisitor& skip = nullptr) const;

    // Made, moved and destroyed by the thread that owns the handle.
    Repository();
    Repository(Repository&&) noexcept;
    Repository& operator=(Repository&&) noexcept;
    ~Repository();

  private:
    // The libgit2 repository, for the files of src/git/ (src/git/libgit2.hpp).
    friend git_repository* raw_handle(const Repository& repo);

    Result<Unit> take_environment(const std::string& dir, const Environment& env,
                                  const Admit& admit);
    Revision unreadable_revision(const std::string& spec, int rc) const;
    DiffAttribute diff_attribute_uncached(const std::string& path) const;
    // A second handle on this working tree whose index is empty.
    Result<Repository> open_without_index() const;
    // Where attributes are asked: a handle made by open_without_index, so that libgit2 does
    // not load the real index (a parse and a SHA-1 of it: 45 ms at 100,000 files), when that
    // gives the same answers: every .gitattributes the index tracks is a file on disk, which
    // libgit2 reads before it looks in the index. Else this handle. Main thread (it fills
    // the attribute cache). `tracked`: the index's .gitattributes (IndexLookup::attributes)
    // where the caller has just read them, so that the index is not read again; else they
    // are read here.
    const Repository& attribute_handle(
        const std::map<std::string, std::array<unsigned char, 20>>* tracked = nullptr) const;

    std::unique_ptr<git_repository, RepoDeleter> repo_;
    // Caches that const methods fill (src/git/caches.hpp). Mutable, and without a lock: a
    // handle serves one thread at a time, and the methods that fill them are the main
    // thread's (lookup, diff_attribute, attribute_handle and their callers).
    struct Trees;       // parsed trees by id, and each commit's root tree (lookup)
    struct Attributes;  // each path's diff attribute once asked, and attribute_handle()
    mutable std::unique_ptr<Trees> trees_;
    mutable std::unique_ptr<Attributes> attributes_;
    bool scan_worktree_ = true;
    // What every handle opened from this one (readers, the attribute handle) takes with it.
    struct Settings {
        std::uint64_t max_file_bytes = kDefaultMaxFileBytes;
        OptionNames names = kCommandLineNames;
        std::size_t max_tree_depth = kDefaultMaxTreeDepth;
        std::size_t max_tree_paths = kDefaultMaxTreePaths;
        // Where the environment put the index and the objects.
        std::string index_file;                    // empty: the git dir's index
        std::string object_directory;              // empty: the git dir's objects
        std::vector<std::string> alternates;       // added to the object database
        std::string promisor_remote;               // see promisor_remote()
        std::vector<ObjectDirectory> object_dirs;  // see object_directories()
    };
    Settings settings_;
};

// libgit2's version, as "1.5.1".
std::string library_version();

}  // namespace cp::git
