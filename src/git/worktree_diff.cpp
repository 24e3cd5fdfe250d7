// The working tree's name-level diff: the staged half (base tree to index) and the unstaged
// half (index to working tree, by our scan or by libgit2) joined as
// git_diff_tree_to_workdir_with_index joins them, then git diff BASE's answer for each change
// (a staged edit undone on disk is no change, racily clean entries re-hashed).
#include <fmt/format.h>
#include <git2/sys/repository.h>

#include <algorithm>
#include <cstring>
#include <optional>
#include <set>
#include <utility>

#include "context_pack/core/text.hpp"
#include "context_pack/git/index_file.hpp"
#include "context_pack/git/worktree_scan.hpp"
#include "context_pack/sys/fs.hpp"
#include "diff_steps.hpp"

namespace cp::git {
namespace {

// Options for both halves of a working-tree diff, set in full: left at zero, libgit2 would
// take them from the repository's config. Renames are found by rename.cpp, as git finds them.
git_diff_options worktree_diff_options() {
    git_diff_options opts;
    git_diff_options_init(&opts, GIT_DIFF_OPTIONS_VERSION);  // fails only on a wrong version
    opts.flags = GIT_DIFF_INCLUDE_TYPECHANGE | GIT_DIFF_SKIP_BINARY_CHECK |
                 GIT_DIFF_INCLUDE_UNTRACKED | GIT_DIFF_RECURSE_UNTRACKED_DIRS;
    opts.ignore_submodules = GIT_SUBMODULE_IGNORE_ALL;
    return opts;
}

// One side of a working-tree delta, and the delta, as libgit2 records them: the shape both
// halves of a working-tree diff are joined in, whichever made them.
struct RawFile {
    std::string path;
    git_oid id{};
    std::uint32_t mode = 0;
    std::uint32_t flags = 0;
};
struct RawDelta {
    git_delta_t status = GIT_DELTA_UNMODIFIED;
    RawFile old_file, new_file;
};

std::vector<RawDelta> raw_deltas(const git_diff* diff) {
    std::vector<RawDelta> out;
    for (size_t i = 0, n = git_diff_num_deltas(diff); i < n; ++i) {
        const git_diff_delta* d = git_diff_get_delta(diff, i);
        auto side = [](const git_diff_file& f) {
            return RawFile{f.path ? f.path : "", f.id, f.mode, f.flags};
        };
        out.push_back({d->status, side(d->old_file), side(d->new_file)});
    }
    return out;
}

// A change the scan found, recorded as libgit2's index-to-workdir diff records it
// (diff_delta__from_one and __from_two): a working-tree id never counts as valid there.
RawDelta raw_of(const ScanChange& c) {
    RawDelta d;
    d.old_file.path = d.new_file.path = c.path;
    d.old_file.flags = GIT_DIFF_FLAG_VALID_ID;
    if (c.index) {
        git_oid_fromraw(&d.old_file.id, c.index->id.data());
        d.old_file.mode = c.index->mode;
    }
    switch (c.kind) {
        case ScanChange::Kind::Deleted:
            d.status = GIT_DELTA_DELETED;
            d.new_file.flags = GIT_DIFF_FLAG_VALID_ID;
            break;
        case ScanChange::Kind::Modified:
            d.status = GIT_DELTA_MODIFIED;
            d.new_file.mode = c.mode;
            if (c.id) git_oid_fromraw(&d.new_file.id, c.id->data());
            break;
        case ScanChange::Kind::Untracked:
            d.status = GIT_DELTA_UNTRACKED;
            d.new_file.mode = c.mode;
            break;
    }
    return d;
}

// libgit2's git_diff__merge with git_diff__merge_like_cgit: the staged half (base tree to
// index) and the unstaged half (index to working tree) joined path by path, as
// git_diff_tree_to_workdir_with_index joins them; unmodified results drop out.
std::vector<RawDelta> join_halves(std::vector<RawDelta> staged, std::vector<RawDelta> unstaged) {
    auto by_path = [](const RawDelta& a, const RawDelta& b) {
        return a.old_file.path < b.old_file.path;
    };
    std::sort(staged.begin(), staged.end(), by_path);
    std::sort(unstaged.begin(), unstaged.end(), by_path);
    auto join = [](RawDelta& a, RawDelta& b) -> RawDelta& {
        if (b.status == GIT_DELTA_CONFLICTED) return b;
        if (a.status == GIT_DELTA_CONFLICTED) return a;
        if (b.status == GIT_DELTA_UNMODIFIED || a.status == GIT_DELTA_DELETED) return a;
        if (a.status == GIT_DELTA_UNMODIFIED || a.status == GIT_DELTA_UNTRACKED ||
            a.status == GIT_DELTA_UNREADABLE)
            return b;
        if (b.status == GIT_DELTA_DELETED) {
            if (a.status == GIT_DELTA_ADDED) b.status = GIT_DELTA_UNMODIFIED;
        } else {
            b.status = a.status;
        }
        b.old_file.id = a.old_file.id;
        b.old_file.mode = a.old_file.mode;
        b.old_file.flags = a.old_file.flags;
        return b;
    };
    std::vector<RawDelta> out;
    std::size_t i = 0, j = 0;
    while (i < staged.size() || j < unstaged.size()) {
        int cmp = j == unstaged.size() ? -1
                  : i == staged.size() ? 1
                                       : staged[i].old_file.path.compare(unstaged[j].old_file.path);
        RawDelta d = cmp < 0   ? std::move(staged[i++])
                     : cmp > 0 ? std::move(unstaged[j++])
                               : std::move(join(staged[i++], unstaged[j++]));
        if (d.status == GIT_DELTA_UNMODIFIED || d.status == GIT_DELTA_IGNORED ||
            d.status == GIT_DELTA_UNREADABLE)
            continue;
        out.push_back(std::move(d));
    }
    return out;
}

// The unstaged half by worktree_scan.hpp, with libgit2 deciding what it decides in its own
// diff: ignore rules, clean filters for a file whose stat data no longer vouches for it.
// A side file libgit2 must not open (Repository::side_files_of) is an error; nullopt: the scan
// cannot tell.
Result<std::optional<std::vector<RawDelta>>> scan_unstaged(const Repository& repo,
                                                           git_repository* raw,
                                                           const IndexFile& index) {
    const std::optional<std::vector<RawDelta>> cannot_tell;
    Handle<git_config, git_config_free> config;
    if (git_repository_config_snapshot(config.out(), raw) < 0) {
        git_error_clear();
        return cannot_tell;
    }
    auto ignorecase = config_bool(config.get(), "core.ignorecase", false);
    auto filemode = config_bool(config.get(), "core.filemode", true);
    auto symlinks = config_bool(config.get(), "core.symlinks", true);
    auto trustctime = config_bool(config.get(), "core.trustctime", true);
    if (!ignorecase || *ignorecase || !filemode || !symlinks || !trustctime) return cannot_tell;
    ScanRules rules;
    rules.trust_mode = *filemode;
    rules.has_symlinks = *symlinks;
    rules.trust_ctime = *trustctime;
    rules.nanoseconds = (git_libgit2_features() & GIT_FEATURE_NSEC) != 0;

    const std::string root = repo.workdir();
    ScanHooks hooks;
    std::optional<Error> refused;  // a .gitignore on the way that libgit2 must not open
    hooks.ignored = [&](const std::string& path) -> std::optional<bool> {
        if (auto safe = repo.side_files_of(path, Repository::SideFile::Ignore); !safe) {
            refused = safe.error();
            return std::nullopt;
        }
        int ignored = 0;
        if (git_ignore_path_is_ignored(&ignored, raw, path.c_str()) < 0) {
            git_error_clear();
            return std::nullopt;
        }
        return ignored != 0;
    };
    hooks.blob_id = [&](const std::string& path,
                        std::uint32_t mode) -> std::optional<std::array<unsigned char, 20>> {
        std::string bytes;
        if ((mode & 0170000) == GIT_FILEMODE_LINK) {  // the link's target, as git stores it
            auto target = sys::read_link(root + path);
            if (!target) return std::nullopt;
            bytes = std::move(*target);
        } else {
            auto file = repo.read_worktree_as_stored(path);
            if (!file || !file.value()) return std::nullopt;  // over the limit, say
            bytes = std::move(*file.value());
        }
        git_oid oid;
        if (git_odb_hash(&oid, bytes.data(), bytes.size(), GIT_OBJECT_BLOB) < 0) {
            git_error_clear();
            return std::nullopt;
        }
        std::array<unsigned char, 20> out{};
        std::memcpy(out.data(), oid.id, out.size());
        return out;
    };
    // A file the scan must hash goes through filters whose attributes are read from disk
    // (git's rule; see Repository::attribute_handle), where libgit2's own diff also reads the
    // index's copy of each .gitattributes. The two agree when every tracked one is unchanged.
    for (const IndexRecord& r : index.entries) {
        if (r.path != ".gitattributes" && !r.path.ends_with("/.gitattributes")) continue;
        auto same = repo.unchanged_on_disk(r.path, r.id);
        if (!same || !same.value()) return cannot_tell;  // an error is libgit2's to meet
    }
    auto changes = scan_worktree(root, index, rules, hooks);
    if (refused) return *refused;
    if (!changes) return cannot_tell;
    std::vector<RawDelta> out;
    for (const ScanChange& c : *changes) out.push_back(raw_of(c));
    return std::optional<std::vector<RawDelta>>(std::move(out));
}

// Both halves joined, with the index they were made against, which the racy-git rule reads:
// the file our scan read, or else libgit2's.
struct Joined {
    std::vector<RawDelta> raw;
    std::optional<IndexFile> scanned;         // the index the scan compared with
    Handle<git_index, git_index_free> index;  // libgit2's, when the scan did not run
    std::int64_t index_mtime = 0;

    // A path's stage-0 entry in the index the halves were made against, if it holds one.
    struct Entry {
        git_oid id;
        std::int64_t mtime = 0;
        bool skip_worktree = false;  // sparse checkout: not on disk, counted unchanged
    };
    std::optional<Entry> entry(const std::string& path) const {
        if (scanned) {
            auto& entries = scanned->entries;
            auto it = std::lower_bound(
                entries.begin(), entries.end(), path,
                [](const IndexRecord& r, const std::string& p) { return r.path < p; });
            if (it == entries.end() || it->path != path || it->flags.stage != 0)
                return std::nullopt;
            Entry out;
            git_oid_fromraw(&out.id, it->id.data());
            out.mtime = std::int32_t(it->mtime_s);
            out.skip_worktree = it->flags.skip_worktree;
            return out;
        }
        const git_index_entry* e =
            index.get() ? git_index_get_bypath(index.get(), path.c_str(), 0) : nullptr;
        if (!e) return std::nullopt;
        return Entry{e->id, e->mtime.seconds,
                     (e->flags_extended & GIT_INDEX_ENTRY_SKIP_WORKTREE) != 0};
    }

    // The index's id and modification time for a path (stage 0), if it holds it.
    using Indexed = std::pair<git_oid, std::int64_t>;
    std::optional<Indexed> indexed(const std::string& path) const {
        auto e = entry(path);
        if (!e) return std::nullopt;
        return Indexed{e->id, e->mtime};
    }

    // The id of a path's stage-0 entry when it is marked skip-worktree (sparse checkout).
    std::optional<git_oid> skip_worktree(const std::string& path) const {
        auto e = entry(path);
        if (!e || !e->skip_worktree) return std::nullopt;
        return e->id;
    }
};

// The unstaged half by our own scan, joined with the staged half (from `take_staged`, or made
// here): nullopt when the scan cannot tell, and libgit2 makes the halves.
Result<std::optional<Joined>> scanned_halves(const Repository& repo, git_tree* base_tree,
                                             const Repository::TakeStaged& take_staged) {
    auto index = read_index_file(repo.index_file());
    std::optional<std::vector<RawDelta>> unstaged;
    if (index) {
        auto scanned = scan_unstaged(repo, raw_handle(repo), *index);
        if (!scanned) return scanned.error();
        unstaged = std::move(scanned).value();
    }
    if (!unstaged) return std::optional<Joined>();
    auto staged = take_staged ? take_staged() : std::nullopt;
    Handle<git_diff, git_diff_free> own;
    const git_diff* half = staged && staged->diff ? staged->diff.get() : nullptr;
    if (!half) {
        git_diff_options opts = worktree_diff_options();
        if (git_diff_tree_to_index(own.out(), raw_handle(repo), base_tree, nullptr, &opts) < 0)
            return failure("cannot diff the base and the index", repo.option_names());
        half = own.get();
    }
    Joined out;
    out.raw = join_halves(raw_deltas(half), std::move(*unstaged));
    out.index_mtime = index->mtime_s;
    out.scanned = std::move(index);
    return std::optional<Joined>(std::move(out));
}

// libgit2 skips an entry named .git in any letter case.
bool is_dot_git(std::string_view name) {
    auto lower = [](char c) { return char(c >= 'A' && c <= 'Z' ? c + 32 : c); };
    return name.size() == 4 && name[0] == '.' && lower(name[1]) == 'g' && lower(name[2]) == 'i' &&
           lower(name[3]) == 't';
}

// The untracked directories beneath `prefix` (open as `dir`) that libgit2's diff walks, those
// not ignored and not nested repositories, each .gitignore checked before libgit2 is asked
// about the names beside it. Directories of tracked files (`tracked`) are walked through.
// Symlinks are never followed.
Result<Unit> side_files_of_untracked(const Repository& repo, git_repository* raw,
                                     const sys::Dir& dir, const std::string& prefix,
                                     const std::set<std::string, std::less<>>& tracked) {
    auto entries = dir.list();
    if (!entries) return Unit{};  // unreadable: libgit2 drops it too
    std::vector<std::string> subdirs;
    for (sys::Dir::Entry& e : *entries) {
        if (is_dot_git(e.name)) continue;
        bool is_dir = e.kind == sys::Kind::directory;
        if (!e.kind) {
            auto st = dir.stat(e.name);
            is_dir = st && st->kind == sys::Kind::directory;
        }
        if (is_dir) subdirs.push_back(std::move(e.name));
    }
    for (const std::string& name : subdirs) {
        const std::string path = prefix + name;
        if (!tracked.contains(path + "/")) {
            int ignored = 0;
            if (auto safe = repo.side_files_of(path, Repository::SideFile::Ignore); !safe)
                return safe.error();
            if (git_ignore_path_is_ignored(&ignored, raw, path.c_str()) < 0) {
                git_error_clear();  // libgit2's diff meets it
                return Unit{};
            }
            if (ignored) continue;
        }
        sys::Dir sub = dir.dir(name);
        if (!sub.is_open()) continue;
        if (!tracked.contains(path + "/") && sub.stat(".git", true))
            continue;  // a nested repository: libgit2 does not walk it
        if (auto safe = repo.side_files_of(path + "/.", Repository::SideFile::Ignore); !safe)
            return safe.error();
        if (auto inner = side_files_of_untracked(repo, raw, sub, path + "/", tracked); !inner)
            return inner.error();
    }
    return Unit{};
}

// libgit2's whole diff opens the .gitignore of every directory it walks and the
// .gitattributes on the way to each file it hashes: those of every directory holding a
// tracked file are checked first (Repository::side_files_of), once each, then the untracked
// directories it would walk. It lists every directory itself, so this adds no more than a
// fraction of its own work, and only to runs that leave the diff to it.
Result<Unit> side_files_of_index(const Repository& repo, git_repository* raw) {
    Handle<git_index, git_index_free> index;
    if (git_repository_index(index.out(), raw) < 0) {
        git_error_clear();  // libgit2's diff meets it
        return Unit{};
    }
    std::set<std::string, std::less<>> tracked;  // directories of tracked files, with a '/'
    std::string_view last_dir = "/";
    for (std::size_t i = 0, n = git_index_entrycount(index.get()); i < n; ++i) {
        std::string_view path = git_index_get_byindex(index.get(), i)->path;
        std::string_view dir = path.substr(0, path.rfind('/') + 1);
        if (dir == last_dir) continue;
        last_dir = dir;
        if (auto safe = repo.side_files_of(path, Repository::SideFile::Ignore); !safe)
            return safe.error();
        // libgit2 hashes no file beneath a symlink: no attribute is asked there.
        if (repo.worktree_symlink(path)) continue;
        if (auto safe = repo.side_files_of(path, Repository::SideFile::Attributes); !safe)
            return safe.error();
        for (auto slash = dir.find('/'); slash != std::string_view::npos;
             slash = dir.find('/', slash + 1))
            tracked.emplace(dir.substr(0, slash + 1));
    }
    if (auto safe = repo.side_files_of(".", Repository::SideFile::Ignore); !safe)
        return safe.error();
    sys::Dir top = sys::Dir::open(repo.workdir());
    if (!top.is_open()) return Unit{};
    return side_files_of_untracked(repo, raw, top, "", tracked);
}

// libgit2's halves: the unstaged half made here merged into the staged half from
// `take_staged`, or, without one or when they disagree, the whole diff at once. Staged and
// unstaged changes together, without re-hashing every file the index already vouches for;
// the index is not written.
Result<Joined> libgit2_halves(const Repository& repo, git_tree* base_tree,
                              const Repository::TakeStaged& take_staged) {
    git_repository* raw = raw_handle(repo);
    if (auto safe = side_files_of_index(repo, raw); !safe) return safe.error();
    git_diff_options opts = worktree_diff_options();
    Handle<git_diff, git_diff_free> whole;
    if (take_staged) {
        Handle<git_diff, git_diff_free> unstaged;
        if (git_diff_index_to_workdir(unstaged.out(), raw, nullptr, &opts) < 0)
            return failure("cannot diff the index and the working tree", repo.option_names());
        auto staged = take_staged();
        if (staged && staged->diff && git_diff_merge(staged->diff.get(), unstaged.get()) == 0)
            whole.ptr = staged->diff.release();
        else
            git_error_clear();  // the halves disagree (on case, say): the whole diff below
    }
    if (!whole.get() && git_diff_tree_to_workdir_with_index(whole.out(), raw, base_tree, &opts) < 0)
        return failure("cannot diff the base and the working tree", repo.option_names());
    Joined out;
    out.raw = raw_deltas(whole.get());
    if (git_repository_index(out.index.out(), raw) < 0) git_error_clear();
    auto index_stat = sys::stat(repo.index_file());
    out.index_mtime = index_stat ? index_stat->mtime_s : 0;
    return out;
}

// A staged edit undone on disk is still "modified" to libgit2, which diffs through the index;
// git diff BASE says unchanged. When libgit2 hashed the file, the ids tell. Otherwise only a
// file whose id libgit2 did not work out, or a racily clean entry (written in the index's own
// second, git's racy-git rule), can hold the base bytes, and only such a file is hashed here.
Result<bool> undone_on_disk(const Repository& repo, const RawDelta& d, const Joined& joined) {
    if (git_oid_equal(&d.old_file.id, &d.new_file.id)) return true;
    auto e = joined.indexed(d.new_file.path);
    bool racy = e && git_oid_equal(&e->first, &d.new_file.id) && e->second >= joined.index_mtime;
    bool unknown = !(d.new_file.flags & GIT_DIFF_FLAG_VALID_ID) || git_oid_is_zero(&d.new_file.id);
    if (!racy && !unknown) return false;
    auto bytes = repo.read_worktree_as_stored(d.new_file.path);
    if (!bytes) return bytes.error();
    git_oid disk;
    return bytes.value() &&
           git_odb_hash(&disk, bytes.value()->data(), bytes.value()->size(), GIT_OBJECT_BLOB) ==
               0 &&
           git_oid_equal(&disk, &d.old_file.id);
}

std::optional<Change> change_of(git_delta_t status) {
    switch (status) {
        case GIT_DELTA_MODIFIED:
            return Change::Modified;
        case GIT_DELTA_ADDED:
        case GIT_DELTA_UNTRACKED:
        case GIT_DELTA_COPIED:
            return Change::Added;
        case GIT_DELTA_DELETED:
            return Change::Deleted;
        case GIT_DELTA_RENAMED:
            return Change::Renamed;
        case GIT_DELTA_TYPECHANGE:
            return Change::TypeChanged;
        case GIT_DELTA_CONFLICTED:
            return Change::Conflicted;
        default:
            return std::nullopt;  // unmodified, ignored, unreadable
    }
}

// The delta git diff BASE shows for a joined one, or nullopt when it shows none.
Result<std::optional<Delta>> delta_of(const Repository& repo, const std::string& base,
                                      const RawDelta& d, const Joined& joined) {
    auto change = change_of(d.status);
    if (!change) return std::optional<Delta>();
    // A sparse checkout's entry outside the cone is absent from disk by design: git counts
    // it unchanged in the working tree, where libgit2 1.5 reports it deleted.
    if (*change == Change::Deleted) {
        auto sparse = joined.skip_worktree(d.old_file.path);
        if (sparse && git_oid_equal(&*sparse, &d.old_file.id)) return std::optional<Delta>();
    }
    if (*change == Change::Modified && d.old_file.mode == d.new_file.mode &&
        d.old_file.mode != GIT_FILEMODE_COMMIT) {
        auto undone = undone_on_disk(repo, d, joined);
        if (!undone) return undone.error();
        if (undone.value()) return std::optional<Delta>();
    }
    Delta delta;
    delta.change = *change;
    delta.old_path = d.old_file.path;
    delta.new_path = d.new_file.path;
    delta.old_oid = hex(&d.old_file.id);
    delta.old_kind = kind_of(static_cast<git_filemode_t>(d.old_file.mode));
    delta.new_kind = kind_of(static_cast<git_filemode_t>(d.new_file.mode));
    delta.untracked = d.status == GIT_DELTA_UNTRACKED;
    if (delta.change == Change::Conflicted) {  // libgit2 leaves the base side empty
        auto at_base = repo.lookup(base, delta.old_path);
        if (!at_base) return at_base.error();
        if (!at_base->entry) {
            delta.change = Change::Added;
        } else {
            delta.old_oid = at_base->entry->oid;
            delta.old_kind = at_base->entry->kind;
        }
    }
    if (delta.new_kind == EntryKind::Submodule || delta.old_kind == EntryKind::Submodule) {
        if (delta.change == Change::Added || delta.change == Change::Deleted)
            return std::optional<Delta>();
    }
    return std::optional<Delta>(std::move(delta));
}

// A path deleted from the index but left on disk (git rm --cached) is also untracked, as git
// status shows it; both halves' joins keep only the deletion. The untracked file, when not
// ignored, is added back as the rename target it is, so that the deletion can pair with it.
std::optional<RawDelta> left_on_disk(const Repository& repo, const RawDelta& deleted) {
    const std::string& path = deleted.old_file.path;
    auto st = sys::lstat(repo.workdir() + path);
    if (!st || (st->kind != sys::Kind::regular && st->kind != sys::Kind::symlink))
        return std::nullopt;
    int ignored = 0;
    if (git_ignore_path_is_ignored(&ignored, raw_handle(repo), path.c_str()) < 0) {
        git_error_clear();
        return std::nullopt;
    }
    if (ignored) return std::nullopt;
    RawDelta d;
    d.status = GIT_DELTA_UNTRACKED;
    d.old_file.path = d.new_file.path = path;
    d.new_file.mode = st->kind == sys::Kind::symlink ? GIT_FILEMODE_LINK
                      : st->owner_executable         ? GIT_FILEMODE_BLOB_EXECUTABLE
                                                     : GIT_FILEMODE_BLOB;
    return d;
}

}  // namespace

Result<StagedChanges> Repository::staged_changes(const std::string& base,
                                                 const std::string& index_file) const {
    TreeHandle base_tree;
    if (auto r = read_commit_tree(*this, base, base_tree); !r) return r.error();
    Handle<git_index, git_index_free> index;
    if (git_index_open(index.out(), index_file.c_str()) < 0)
        return failure("cannot read the index", settings_.names);
    // Owned by this handle, the index takes its case and file-mode rules from the config,
    // as the main handle's own index does.
    git_repository_set_index(repo_.get(), index.get());
    if (git_index_set_caps(index.get(), GIT_INDEX_CAPABILITY_FROM_OWNER) < 0)
        return failure("cannot read the index", settings_.names);
    git_diff_options opts = worktree_diff_options();
    StagedChanges staged;
    git_diff* raw = nullptr;
    if (git_diff_tree_to_index(&raw, repo_.get(), base_tree.get(), index.get(), &opts) < 0)
        return failure("cannot diff the base and the index", settings_.names);
    staged.diff.reset(raw);
    return staged;
}

Result<std::vector<std::string>> Repository::untracked_files() const {
    std::vector<std::string> out;
    auto keep = [&](const RawDelta& d) {
        // Regular files only: not a symlink, nor a nested repository (a directory).
        if (d.status == GIT_DELTA_UNTRACKED && (d.new_file.mode & 0170000) == 0100000 &&
            !d.new_file.path.empty() && d.new_file.path.back() != '/')
            out.push_back(d.new_file.path);
    };
    bool listed = false;
    if (auto index = read_index_file(index_file())) {
        auto scanned = scan_unstaged(*this, raw_handle(*this), *index);
        if (!scanned) return scanned.error();
        if (scanned.value()) {
            for (const RawDelta& d : *scanned.value()) keep(d);
            listed = true;
        }
    }
    if (!listed) {  // as libgit2's diff of the index and the working tree lists them
        if (auto safe = side_files_of_index(*this, raw_handle(*this)); !safe) return safe.error();
        git_diff_options opts = worktree_diff_options();
        Handle<git_diff, git_diff_free> unstaged;
        if (git_diff_index_to_workdir(unstaged.out(), raw_handle(*this), nullptr, &opts) < 0)
            return failure("cannot list the untracked files of the working tree", settings_.names);
        for (const RawDelta& d : raw_deltas(unstaged.get())) keep(d);
    }
    std::sort(out.begin(), out.end());
    return out;
}

Result<WorktreeDeltas> worktree_deltas(const Repository& repo, const std::string& base,
                                       git_tree* base_tree,
                                       const Repository::TakeStaged& take_staged, bool scan) {
    // An index file too short to be one (git: "index file smaller than expected"), which
    // libgit2 would say "no longer exists" of.
    if (auto st = sys::stat(repo.index_file());
        st && st->kind == sys::Kind::regular && st->size < 32)
        return Error{fmt::format(
            "{} is {} bytes, too short to be an index, as git says too: "
            "rebuild it from HEAD (git reset), or pass {}",
            text::printable(repo.index_file()), st->size, repo.option_names().target.give)};
    // The unstaged half by our own scan when it can tell (worktree_scan.hpp), else by
    // libgit2; with the staged half made already, the unstaged half is joined to it.
    std::optional<Joined> joined;
    if (scan) {
        auto scanned = scanned_halves(repo, base_tree, take_staged);
        if (!scanned) return scanned.error();
        if (scanned.value()) joined.emplace(std::move(*scanned.value()));
    }
    if (!joined) {
        auto made = libgit2_halves(repo, base_tree, take_staged);
        if (!made) return made.error();
        joined.emplace(std::move(made).value());
    }
    WorktreeDeltas out;
    out.scanned = joined->scanned.has_value();
    for (const RawDelta& d : joined->raw) {
        auto delta = delta_of(repo, base, d, *joined);
        if (!delta) return delta.error();
        if (!delta.value()) continue;
        bool deleted = delta.value()->change == Change::Deleted;
        out.deltas.push_back(std::move(*delta.value()));
        if (!deleted || joined->indexed(d.old_file.path)) continue;
        if (auto untracked = left_on_disk(repo, d)) {
            auto added = delta_of(repo, base, *untracked, *joined);
            if (!added) return added.error();
            if (added.value()) out.deltas.push_back(std::move(*added.value()));
        }
    }
    return out;
}

}  // namespace cp::git
