// What is left of the first git layer, to be split in turn: the working tree's diff (whole
// and path by path), the rename step, and Repository::diff, which drives them.
#include "diff_steps.hpp"

#include <fmt/format.h>
#include <git2/sys/repository.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <set>
#include <utility>

#include "context_pack/git/index_file.hpp"
#include "context_pack/git/rename.hpp"
#include "context_pack/git/worktree_scan.hpp"
#include "context_pack/core/text.hpp"

namespace cp::git {
namespace {

std::optional<Change> change_of(git_delta_t status) {
    switch (status) {
        case GIT_DELTA_MODIFIED: return Change::Modified;
        case GIT_DELTA_ADDED:
        case GIT_DELTA_UNTRACKED:
        case GIT_DELTA_COPIED: return Change::Added;
        case GIT_DELTA_DELETED: return Change::Deleted;
        case GIT_DELTA_RENAMED: return Change::Renamed;
        case GIT_DELTA_TYPECHANGE: return Change::TypeChanged;
        case GIT_DELTA_CONFLICTED: return Change::Conflicted;
        default: return std::nullopt;  // unmodified, ignored, unreadable
    }
}

// What rename detection reads: blobs at base for sources, blobs or converted working-tree
// files for targets, each at most once.
class RenameFiles : public rename::Files {
public:
    RenameFiles(const Repository& repo, const std::vector<const Delta*>& sources,
                const std::vector<const Delta*>& targets, bool worktree)
        : repo_(repo), sources_(sources), targets_(targets), worktree_(worktree),
          bytes_{std::vector<std::optional<std::string>>(sources.size()),
                 std::vector<std::optional<std::string>>(targets.size())} {}

    std::string content_id(rename::Side side, std::size_t i) override {
        if (side == rename::Side::Source) return sources_[i]->old_oid;
        if (!worktree_) return targets_[i]->new_oid;
        auto b = bytes(side, i);
        git_oid oid;
        if (git_odb_hash(&oid, b.data(), b.size(), GIT_OBJECT_BLOB) < 0) {
            remember(failure("cannot hash a working-tree file"));
            return {};
        }
        return hex(&oid);
    }

    std::uint64_t size(rename::Side side, std::size_t i) override { return bytes(side, i).size(); }

    std::string_view bytes(rename::Side side, std::size_t i) override {
        bool source = side == rename::Side::Source;
        auto& slot = bytes_[source ? 0 : 1][i];
        if (!slot) {
            const Delta& d = source ? *sources_[i] : *targets_[i];
            if (!source && worktree_) {
                auto file = repo_.read_worktree_as_stored(d.new_path);
                if (!file) remember(file.error());
                slot = file && file.value() ? *file.value() : std::string();
            } else {
                auto blob = repo_.blob(source ? d.old_oid : d.new_oid);
                if (!blob) remember(blob.error());
                slot = blob ? blob.value() : std::string();
            }
        }
        return *slot;
    }

    const std::optional<Error>& error() const { return error_; }

private:
    void remember(Error e) {
        if (!error_) error_ = std::move(e);
    }

    const Repository& repo_;
    const std::vector<const Delta*>& sources_;
    const std::vector<const Delta*>& targets_;
    bool worktree_;
    std::vector<std::optional<std::string>> bytes_[2];
    std::optional<Error> error_;
};


// Options for both halves of a working-tree diff, set in full: left at zero, libgit2 would
// take them from the repository's config. Renames are found by rename.cpp, as git finds them.
git_diff_options worktree_diff_options() {
    git_diff_options opts = GIT_DIFF_OPTIONS_INIT;
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
        RawDelta d = cmp < 0 ? std::move(staged[i++])
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
std::optional<std::vector<RawDelta>> scan_unstaged(const Repository& repo, git_repository* raw,
                                                   const IndexFile& index) {
    Handle<git_config, git_config_free> config;
    if (git_repository_config_snapshot(config.out(), raw) < 0) {
        git_error_clear();
        return std::nullopt;
    }
    auto ignorecase = config_bool(config.get(), "core.ignorecase", false);
    auto filemode = config_bool(config.get(), "core.filemode", true);
    auto symlinks = config_bool(config.get(), "core.symlinks", true);
    auto trustctime = config_bool(config.get(), "core.trustctime", true);
    if (!ignorecase || *ignorecase || !filemode || !symlinks || !trustctime) return std::nullopt;
    ScanRules rules;
    rules.trust_mode = *filemode;
    rules.has_symlinks = *symlinks;
    rules.trust_ctime = *trustctime;
    rules.nanoseconds = (git_libgit2_features() & GIT_FEATURE_NSEC) != 0;

    const std::string root = repo.workdir();
    ScanHooks hooks;
    hooks.ignored = [&](const std::string& path) -> std::optional<bool> {
        int ignored = 0;
        if (git_ignore_path_is_ignored(&ignored, raw, path.c_str()) < 0) {
            git_error_clear();
            return std::nullopt;
        }
        return ignored != 0;
    };
    hooks.blob_id = [&](const std::string& path, std::uint32_t mode)
        -> std::optional<std::array<unsigned char, 20>> {
        std::string bytes;
        if ((mode & 0170000) == GIT_FILEMODE_LINK) {  // the link's target, as git stores it
            std::vector<char> target(4096);
            auto n = ::readlink((root + path).c_str(), target.data(), target.size());
            if (n < 0 || std::size_t(n) == target.size()) return std::nullopt;
            bytes.assign(target.data(), std::size_t(n));
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
        if (!same || !same.value()) return std::nullopt;  // an error is libgit2's to meet
    }
    auto changes = scan_worktree(root, index, rules, hooks);
    if (!changes) return std::nullopt;
    std::vector<RawDelta> out;
    for (const ScanChange& c : *changes) out.push_back(raw_of(c));
    return out;
}

}  // namespace

Result<std::optional<Diff>> Repository::worktree_diff_of(
    const std::string& base, const std::vector<std::string>& paths) const {
    const std::optional<Diff> whole;  // "make the whole diff"
    const std::string root = workdir();
    if (root.empty()) return whole;
    // Files are stored as they are on disk when no clean filter applies to them: autocrlf
    // is off, and the attributes (checked per path below) convert nothing.
    Handle<git_config, git_config_free> config;
    if (git_repository_config_snapshot(config.out(), repo_.get()) < 0) {
        git_error_clear();
        return whole;
    }
    auto autocrlf = config_bool(config.get(), "core.autocrlf", false);
    if (!autocrlf || *autocrlf) return whole;  // true, or input
    // libgit2's default: the executable bit on disk counts
    const bool filemode = config_bool(config.get(), "core.filemode", true).value_or(true);

    std::set<std::string, std::less<>> wanted(paths.begin(), paths.end());
    auto index = read_index_entries(index_file(), wanted);
    if (!index) return whole;
    // First what stat data and the index tell, for every path, so that a path that needs
    // the whole diff (deleted, renamed, a symlink) is found before any file is hashed.
    struct Settle {
        const std::string* path;
        Entry at_base;
        struct stat st;
        const IndexEntry* indexed;
    };
    std::vector<Settle> settle;
    for (const std::string& path : wanted) {
        if (worktree_symlink(path)) return whole;
        auto found = lookup(base, path);
        if (!found) return found.error();
        if (!found->blocked_by.empty()) continue;  // unresolved before any delta is asked for
        struct stat st {};
        bool on_disk = ::lstat((root + path).c_str(), &st) == 0;
        if (!found->entry) {  // absent at base: only what is on disk counts
            if (on_disk && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode)) return whole;
            continue;
        }
        if (found->entry->kind != EntryKind::File) continue;  // unresolved: not a file at base
        auto entry = index->entries.find(path);
        if (entry == index->entries.end() || entry->second.size() != 1) return whole;
        const IndexEntry& e = entry->second.front();
        if (e.stage != 0 || e.assume_valid || e.skip_worktree || e.intent_to_add ||
            (e.mode & 0170000) != 0100000)
            return whole;
        if (!on_disk || !S_ISREG(st.st_mode) || std::uint64_t(st.st_size) > max_file_bytes_)
            return whole;
        settle.push_back({&path, *found->entry, st, &e});
    }
    // Files are hashed as they are on disk, where libgit2's whole diff reads attributes from
    // disk and from the index's copy of each .gitattributes: the same rules when every
    // tracked one is on disk unchanged. Attributes are then asked without loading the index
    // (attribute_handle).
    for (const auto& [path, id] : index->attributes) {
        auto same = unchanged_on_disk(path, id);
        if (!same) return same.error();
        if (!same.value()) return whole;
    }
    const Repository& attributes = attribute_handle();
    Diff out;
    out.repo_ = this;
    out.worktree_ = true;
    out.partial_ = true;
    for (const Settle& s : settle) {
        const std::string& path = *s.path;
        Handle<git_filter_list, git_filter_list_free> filters;
        if (git_filter_list_load(filters.out(), attributes.repo_.get(), nullptr, path.c_str(),
                                 GIT_FILTER_TO_ODB, GIT_FILTER_DEFAULT) < 0) {
            git_error_clear();
            return whole;
        }
        if (filters.get()) return whole;  // CRLF or ident would convert it
        auto bytes = read_worktree(path);
        if (!bytes) return bytes.error();
        if (!bytes.value()) return whole;
        git_oid disk;
        if (git_odb_hash(&disk, bytes.value()->data(), bytes.value()->size(), GIT_OBJECT_BLOB) < 0)
            return failure(fmt::format("cannot hash {}", path));
        // The mode counts as it does in the whole diff: from disk, or with core.filemode off,
        // from the index.
        bool executable =
            filemode ? (s.st.st_mode & S_IXUSR) != 0 : (s.indexed->mode & 0100) != 0;
        if (hex(&disk) == s.at_base.oid && executable == s.at_base.executable)
            continue;  // unchanged
        Delta delta;
        delta.old_path = delta.new_path = path;
        delta.old_oid = s.at_base.oid;
        out.deltas_.push_back(std::move(delta));
    }
    std::sort(out.deltas_.begin(), out.deltas_.end(),
              [](const Delta& a, const Delta& b) { return a.old_path < b.old_path; });
    for (const auto& d : out.deltas_) out.by_new_.push_back(&d);
    return std::optional<Diff>(std::move(out));
}

Result<StagedChanges> Repository::staged_changes(const std::string& base,
                                                 const std::string& index_file) const {
    TreeHandle base_tree;
    if (auto r = read_commit_tree(repo_.get(), base, base_tree); !r) return r.error();
    Handle<git_index, git_index_free> index;
    if (git_index_open(index.out(), index_file.c_str()) < 0)
        return failure("cannot read the index");
    // Owned by this handle, the index takes its case and file-mode rules from the config,
    // as the main handle's own index does.
    git_repository_set_index(repo_.get(), index.get());
    if (git_index_set_caps(index.get(), GIT_INDEX_CAPABILITY_FROM_OWNER) < 0)
        return failure("cannot read the index");
    git_diff_options opts = worktree_diff_options();
    StagedChanges staged;
    git_diff* raw = nullptr;
    if (git_diff_tree_to_index(&raw, repo_.get(), base_tree.get(), index.get(), &opts) < 0)
        return failure("cannot diff the base and the index");
    staged.diff.reset(raw);
    return staged;
}

Result<Diff> Repository::diff(const std::string& base, const std::optional<std::string>& target,
                              const Repository* reader, const TakeStaged& take_staged) const {
    const Repository& objects = reader && target ? *reader : *this;  // reads them
    TreeHandle base_tree;
    if (auto r = read_commit_tree(objects.repo_.get(), base, base_tree); !r) return r.error();

    Diff out;
    out.repo_ = this;
    out.worktree_ = !target.has_value();
    std::vector<Delta> deltas;
    if (target) {
        // Our own walk: it skips every subtree whose id is unchanged, so its cost follows the
        // change, where libgit2 1.5's tree diff reads every tree of both commits (#6863).
        auto walked = commit_deltas(objects, base_tree.get(), *target);
        if (!walked) return walked.error();
        deltas = std::move(walked).value();
    } else {
        git_diff_options opts = worktree_diff_options();
        std::vector<RawDelta> raw;
        // The unstaged half by our own scan when it can tell (worktree_scan.hpp), else by
        // libgit2. Staged and unstaged changes together, without re-hashing every file the
        // index already vouches for; the index is not written. With the staged half made
        // already, the unstaged half is joined to it as git_diff_tree_to_workdir_with_index
        // does.
        std::optional<IndexFile> scanned;  // the index the scan compared with
        if (scan_worktree_) {
            auto index = read_index_file(index_file());
            auto unstaged = index ? scan_unstaged(*this, repo_.get(), *index) : std::nullopt;
            if (unstaged) {
                auto staged = take_staged ? take_staged() : std::nullopt;
                Handle<git_diff, git_diff_free> own;
                const git_diff* half = staged && staged->diff ? staged->diff.get() : nullptr;
                if (!half) {
                    if (git_diff_tree_to_index(own.out(), repo_.get(), base_tree.get(), nullptr,
                                               &opts) < 0)
                        return failure("cannot diff the base and the index");
                    half = own.get();
                }
                raw = join_halves(raw_deltas(half), std::move(*unstaged));
                scanned = std::move(index);
                out.scanned_ = true;
            }
        }
        Handle<git_index, git_index_free> index;  // for the racy-git rule below
        std::int64_t index_mtime = 0;
        if (scanned) {
            index_mtime = scanned->mtime_s;
        } else {
            Handle<git_diff, git_diff_free> whole;
            if (take_staged) {
                Handle<git_diff, git_diff_free> unstaged;
                if (git_diff_index_to_workdir(unstaged.out(), repo_.get(), nullptr, &opts) < 0)
                    return failure("cannot diff the index and the working tree");
                auto staged = take_staged();
                if (staged && staged->diff &&
                    git_diff_merge(staged->diff.get(), unstaged.get()) == 0)
                    whole.ptr = staged->diff.release();
                else
                    git_error_clear();  // the halves disagree (on case, say): the whole diff below
            }
            if (!whole.get() && git_diff_tree_to_workdir_with_index(whole.out(), repo_.get(),
                                                                    base_tree.get(), &opts) < 0)
                return failure("cannot diff the base and the working tree");
            raw = raw_deltas(whole.get());
            if (git_repository_index(index.out(), repo_.get()) < 0) git_error_clear();
            struct stat index_stat {};
            index_mtime = ::stat(index_file().c_str(), &index_stat) == 0 ? index_stat.st_mtime : 0;
        }
        // The index's id and modification time for a path (stage 0), if it holds it.
        using Indexed = std::pair<git_oid, std::int64_t>;
        auto indexed = [&](const std::string& path) -> std::optional<Indexed> {
            if (scanned) {
                auto& entries = scanned->entries;
                auto it = std::lower_bound(entries.begin(), entries.end(), path,
                                           [](const IndexRecord& r, const std::string& p) {
                                               return r.path < p;
                                           });
                if (it == entries.end() || it->path != path || it->flags.stage != 0)
                    return std::nullopt;
                git_oid id;
                git_oid_fromraw(&id, it->id.data());
                return Indexed{id, std::int32_t(it->mtime_s)};
            }
            const git_index_entry* e =
                index.get() ? git_index_get_bypath(index.get(), path.c_str(), 0) : nullptr;
            if (!e) return std::nullopt;
            return Indexed{e->id, e->mtime.seconds};
        };
        for (const RawDelta& d : raw) {
            auto change = change_of(d.status);
            if (!change) continue;
            if (*change == Change::Modified && d.old_file.mode == d.new_file.mode &&
                d.old_file.mode != GIT_FILEMODE_COMMIT) {
                // A staged edit undone on disk is still "modified" to libgit2, which diffs
                // through the index; git diff BASE says unchanged. When libgit2 hashed the
                // file, the ids tell. Otherwise only a file whose id libgit2 did not work out,
                // or a racily clean entry (written in the index's own second, git's racy-git
                // rule), can hold the base bytes, and only such a file is hashed here.
                if (git_oid_equal(&d.old_file.id, &d.new_file.id)) continue;
                auto e = indexed(d.new_file.path);
                bool racy = e && git_oid_equal(&e->first, &d.new_file.id) &&
                            e->second >= index_mtime;
                bool unknown = !(d.new_file.flags & GIT_DIFF_FLAG_VALID_ID) ||
                               git_oid_is_zero(&d.new_file.id);
                if (racy || unknown) {
                    auto bytes = read_worktree_as_stored(d.new_file.path);
                    if (!bytes) return bytes.error();
                    git_oid disk;
                    if (bytes.value() &&
                        git_odb_hash(&disk, bytes.value()->data(), bytes.value()->size(),
                                     GIT_OBJECT_BLOB) == 0 &&
                        git_oid_equal(&disk, &d.old_file.id))
                        continue;
                }
            }
            Delta delta;
            delta.change = *change;
            delta.old_path = d.old_file.path;
            delta.new_path = d.new_file.path;
            delta.old_oid = hex(&d.old_file.id);
            delta.old_kind = kind_of(static_cast<git_filemode_t>(d.old_file.mode));
            delta.new_kind = kind_of(static_cast<git_filemode_t>(d.new_file.mode));
            if (delta.change == Change::Conflicted) {  // libgit2 leaves the base side empty
                auto at_base = lookup(base, delta.old_path);
                if (!at_base) return at_base.error();
                if (!at_base->entry) {
                    delta.change = Change::Added;
                } else {
                    delta.old_oid = at_base->entry->oid;
                    delta.old_kind = at_base->entry->kind;
                }
            }
            if (delta.new_kind == EntryKind::Submodule ||
                delta.old_kind == EntryKind::Submodule) {
                if (delta.change == Change::Added || delta.change == Change::Deleted) continue;
            }
            deltas.push_back(std::move(delta));
        }
    }

    // Deleted paths are rename sources, added and untracked ones targets, in path order.
    std::vector<const Delta*> sources, targets;
    for (const Delta& d : deltas) {
        if (d.change == Change::Deleted) sources.push_back(&d);
        if (d.change == Change::Added && d.new_kind != EntryKind::Directory) targets.push_back(&d);
    }
    auto by_old = [](const Delta* a, const Delta* b) { return a->old_path < b->old_path; };
    auto by_new = [](const Delta* a, const Delta* b) { return a->new_path < b->new_path; };
    std::sort(sources.begin(), sources.end(), by_old);
    std::sort(targets.begin(), targets.end(), by_new);
    // Files over the size limit take no part in rename detection: it would read them whole.
    auto small = [&](const Delta* d, bool source) -> Result<bool> {
        if (!source && out.worktree_) {
            struct stat st {};
            return !(::lstat((workdir() + d->new_path).c_str(), &st) == 0 &&
                     std::uint64_t(st.st_size) > max_file_bytes_);
        }
        auto size = objects.blob_size(source ? d->old_oid : d->new_oid);
        if (!size) return size.error();
        return size.value() <= max_file_bytes_;
    };
    for (auto* list : {&sources, &targets}) {
        std::vector<const Delta*> kept;
        for (const Delta* d : *list) {
            if (d->old_kind == EntryKind::Submodule || d->new_kind == EntryKind::Submodule) continue;
            auto ok = small(d, list == &sources);
            if (!ok) return ok.error();
            if (ok.value()) kept.push_back(d);
        }
        *list = std::move(kept);
    }
    std::vector<rename::Candidate> source_names, target_names;
    for (const Delta* d : sources) source_names.push_back({d->old_path, d->old_kind == EntryKind::File});
    for (const Delta* d : targets) target_names.push_back({d->new_path, d->new_kind == EntryKind::File});
    RenameFiles files(objects, sources, targets, out.worktree_);
    auto pairs = rename::find_renames(source_names, target_names, files);
    if (files.error()) return *files.error();

    std::vector<bool> paired(deltas.size());
    for (const rename::Pair& p : pairs) {
        const Delta& from = *sources[p.source];
        const Delta& to = *targets[p.target];
        Delta renamed = from;
        renamed.change = from.old_path == to.new_path ? Change::Modified : Change::Renamed;
        renamed.new_path = to.new_path;
        renamed.new_oid = to.new_oid;
        renamed.new_kind = to.new_kind;
        renamed.similarity = p.score * 100 / rename::kMaxScore;
        paired[static_cast<std::size_t>(&from - deltas.data())] = true;
        paired[static_cast<std::size_t>(&to - deltas.data())] = true;
        out.deltas_.push_back(std::move(renamed));
    }
    for (std::size_t i = 0; i < deltas.size(); ++i)
        if (!paired[i]) out.deltas_.push_back(std::move(deltas[i]));

    std::sort(out.deltas_.begin(), out.deltas_.end(),
              [](const Delta& a, const Delta& b) { return a.old_path < b.old_path; });
    for (const auto& d : out.deltas_) out.by_new_.push_back(&d);
    std::sort(out.by_new_.begin(), out.by_new_.end(), by_new);
    return out;
}

const Delta* Diff::find_old(std::string_view path) const {
    auto it = std::lower_bound(deltas_.begin(), deltas_.end(), path,
                               [](const Delta& d, std::string_view p) { return d.old_path < p; });
    for (; it != deltas_.end() && it->old_path == path; ++it)
        if (it->change != Change::Added) return &*it;
    return nullptr;
}

const Delta* Diff::find_new(std::string_view path) const {
    auto it = std::lower_bound(by_new_.begin(), by_new_.end(), path,
                               [](const Delta* d, std::string_view p) { return d->new_path < p; });
    for (; it != by_new_.end() && (*it)->new_path == path; ++it)
        if ((*it)->change != Change::Deleted) return *it;
    return nullptr;
}

}  // namespace cp::git
