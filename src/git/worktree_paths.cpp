// The working tree's diff settled path by path (Repository::worktree_diff_of): the index read
// directly for the anchored paths alone, each file stat'ed, then hashed and compared with its
// entry at base, when nothing about it needs the whole diff.
#include <fmt/format.h>

#include <algorithm>
#include <set>

#include "context_pack/git/index_file.hpp"
#include "context_pack/sys/fs.hpp"
#include "libgit2.hpp"

namespace cp::git {
namespace {

// A path whose stat data and index entry leave it to be settled by its bytes.
struct Settle {
    const std::string* path;
    Entry at_base;
    sys::FileInfo st;
    const IndexEntry* indexed;
};

// core.filemode, when the config stores files as they are on disk (core.autocrlf off; the
// attributes are asked per path); nullopt when it does not, or cannot be read.
std::optional<bool> filemode_if_stored_as_is(git_repository* raw) {
    Handle<git_config, git_config_free> config;
    if (git_repository_config_snapshot(config.out(), raw) < 0) {
        git_error_clear();
        return std::nullopt;
    }
    auto autocrlf = config_bool(config.get(), "core.autocrlf", false);
    if (!autocrlf || *autocrlf) return std::nullopt;  // true, or input
    // libgit2's default: the executable bit on disk counts
    return config_bool(config.get(), "core.filemode", true).value_or(true);
}

// First what stat data and the index tell, for every path, so that a path that needs the
// whole diff (deleted, renamed, a symlink) is found before any file is hashed: the paths left
// to hash, or nullopt for the whole diff.
Result<std::optional<std::vector<Settle>>> settle_by_stat(
    const Repository& repo, const std::string& base,
    const std::set<std::string, std::less<>>& wanted, const IndexLookup& index) {
    const std::optional<std::vector<Settle>> whole;
    const std::string root = repo.workdir();
    std::vector<Settle> settle;
    for (const std::string& path : wanted) {
        if (repo.worktree_symlink(path)) return whole;
        auto found = repo.lookup(base, path);
        if (!found && found.error().unreadable_object()) continue;  // unresolved, as below
        if (!found) return found.error();
        if (!found->blocked_by.empty()) continue;  // unresolved before any delta is asked for
        auto disk = sys::lstat(root + path);
        bool on_disk = disk.has_value();
        sys::FileInfo st = disk.value_or(sys::FileInfo{});
        if (!found->entry) {  // absent at base: only what is on disk counts
            if (on_disk && st.kind != sys::Kind::regular && st.kind != sys::Kind::directory)
                return whole;
            continue;
        }
        if (found->entry->kind != EntryKind::File) continue;  // unresolved: not a file at base
        auto entry = index.entries.find(path);
        if (entry == index.entries.end() || entry->second.size() != 1) return whole;
        const IndexEntry& e = entry->second.front();
        if (e.stage != 0 || e.assume_valid || e.skip_worktree || e.intent_to_add ||
            (e.mode & 0170000) != 0100000)
            return whole;
        if (!on_disk || st.kind != sys::Kind::regular || st.size > repo.max_file_bytes())
            return whole;
        settle.push_back({&path, *found->entry, st, &e});
    }
    return std::optional<std::vector<Settle>>(std::move(settle));
}

// The deltas of the paths left to hash, each file hashed as it is on disk (attributes asked
// of `attributes`, see Repository::attribute_handle); nullopt for the whole diff, when a
// filter would convert one or it is no longer a file to read.
Result<std::optional<std::vector<Delta>>> hashed_deltas(const Repository& repo,
                                                        const Repository& attributes,
                                                        const std::vector<Settle>& settle,
                                                        bool filemode) {
    const std::optional<std::vector<Delta>> whole;
    std::vector<Delta> out;
    for (const Settle& s : settle) {
        const std::string& path = *s.path;
        if (auto safe = repo.side_files_of(path, Repository::SideFile::Attributes); !safe)
            return safe.error();
        Handle<git_filter_list, git_filter_list_free> filters;
        if (git_filter_list_load(filters.out(), raw_handle(attributes), nullptr, path.c_str(),
                                 GIT_FILTER_TO_ODB, GIT_FILTER_DEFAULT) < 0) {
            git_error_clear();
            return whole;
        }
        if (filters.get()) return whole;  // CRLF or ident would convert it
        auto bytes = repo.read_worktree(path);
        if (!bytes) return bytes.error();
        if (!bytes.value()) return whole;
        git_oid disk;
        if (git_odb_hash(&disk, bytes.value()->data(), bytes.value()->size(), GIT_OBJECT_BLOB) < 0)
            return failure(fmt::format("cannot hash {}", path), repo.option_names());
        // The mode counts as it does in the whole diff: from disk, or with core.filemode off,
        // from the index.
        bool executable = filemode ? s.st.owner_executable : (s.indexed->mode & 0100) != 0;
        if (hex(&disk) == s.at_base.oid && executable == s.at_base.executable)
            continue;  // unchanged
        Delta delta;
        delta.old_path = delta.new_path = path;
        delta.old_oid = s.at_base.oid;
        out.push_back(std::move(delta));
    }
    return std::optional<std::vector<Delta>>(std::move(out));
}

}  // namespace

Result<std::optional<Diff>> Repository::worktree_diff_of(
    const std::string& base, const std::vector<std::string>& paths) const {
    const std::optional<Diff> whole;  // "make the whole diff"
    if (workdir().empty()) return whole;
    // Files are stored as they are on disk when no clean filter applies to them: autocrlf
    // is off, and the attributes (checked per path below) convert nothing.
    auto filemode = filemode_if_stored_as_is(repo_.get());
    if (!filemode) return whole;

    std::set<std::string, std::less<>> wanted(paths.begin(), paths.end());
    auto index = read_index_entries(index_file(), wanted);
    if (!index) return whole;
    auto settle = settle_by_stat(*this, base, wanted, *index);
    if (!settle) return settle.error();
    if (!settle.value()) return whole;
    // Files are hashed as they are on disk, where libgit2's whole diff reads attributes from
    // disk and from the index's copy of each .gitattributes: the same rules when every
    // tracked one is on disk unchanged. Attributes are then asked without loading the index
    // (attribute_handle).
    for (const auto& [path, id] : index->attributes) {
        auto same = unchanged_on_disk(path, id);
        if (!same) return same.error();
        if (!same.value()) return whole;
    }
    auto deltas =
        hashed_deltas(*this, attribute_handle(&index->attributes), *settle.value(), *filemode);
    if (!deltas) return deltas.error();
    if (!deltas.value()) return whole;

    Diff out;
    out.repo_ = this;
    out.worktree_ = true;
    out.partial_ = true;
    out.answered_ = std::vector<std::string>(wanted.begin(), wanted.end());
    out.deltas_ = std::move(*deltas.value());
    std::sort(out.deltas_.begin(), out.deltas_.end(),
              [](const Delta& a, const Delta& b) { return a.old_path < b.old_path; });
    for (const auto& d : out.deltas_) out.by_new_.push_back(&d);
    return std::optional<Diff>(std::move(out));
}

}  // namespace cp::git
