// Reads beneath the working tree: never through a symlink (O_NOFOLLOW at every step, so no
// read leaves the tree), raw or converted as git stores the file, and the symlink check of a
// path's components.
#include <fmt/format.h>

#include <cerrno>
#include <cstring>
#include <vector>

#include "context_pack/sys/fs.hpp"
#include "libgit2.hpp"

namespace cp::git {
namespace {

// Reads `rel` beneath the directory `root` without following a symlink anywhere on the way,
// so no read leaves the working tree. `present` is false when there is no regular file
// there (absent, a directory, or reached through a symlink).
Result<std::string> read_beneath(const std::string& root, std::string_view rel, bool& present,
                                 std::uint64_t max_bytes) {
    present = false;
    std::vector<sys::Dir> parents;
    parents.push_back(sys::Dir::open(root.empty() ? "." : root));
    if (!parents.back().is_open())
        return Error{fmt::format("cannot open {}: {}", root, std::strerror(errno))};
    auto absent = [] {
        return errno == ENOENT || errno == ENOTDIR || errno == ELOOP || errno == EISDIR;
    };
    sys::File file;
    for (std::size_t pos = 0;;) {
        auto slash = rel.find('/', pos);
        std::string name(rel.substr(pos, slash == std::string_view::npos ? rel.npos : slash - pos));
        if (slash == std::string_view::npos) {
            file = parents.back().file(name, sys::File::nonblocking);
            if (!file.is_open()) {
                if (absent()) return std::string();
                return Error{fmt::format("cannot open {}: {}", rel, std::strerror(errno))};
            }
            break;
        }
        sys::Dir next = parents.back().dir(name);
        if (!next.is_open()) {
            if (absent()) return std::string();
            return Error{fmt::format("cannot open {}: {}", rel, std::strerror(errno))};
        }
        parents.push_back(std::move(next));
        pos = slash + 1;
    }
    auto st = file.info();
    if (!st || st->kind != sys::Kind::regular) return std::string();
    if (st->size > max_bytes) return std::string();  // too large: not read
    std::string content;
    content.reserve(static_cast<std::size_t>(st->size));
    char buf[1 << 16];
    for (;;) {
        auto n = file.read(buf, sizeof buf);
        if (n < 0) return Error{fmt::format("cannot read {}: {}", rel, std::strerror(errno))};
        if (n == 0) break;
        content.append(buf, static_cast<std::size_t>(n));
    }
    present = true;
    return content;
}

}  // namespace

Result<std::optional<std::string>> Repository::read_worktree(std::string_view path) const {
    bool present = false;
    auto content = read_beneath(workdir(), path, present, settings_.max_file_bytes);
    if (!content) return content.error();
    if (!present) return std::optional<std::string>();
    return std::optional<std::string>(std::move(content).value());
}

Result<std::optional<std::string>> Repository::not_checked_out(std::string_view path) const {
    const std::optional<std::string> none;
    if (workdir().empty()) return none;
    const std::string rel(path);
    if (sys::lstat(workdir() + rel)) return none;
    Handle<git_index, git_index_free> index;
    if (git_repository_index(index.out(), repo_.get()) < 0)
        return failure("cannot read the index", settings_.names);
    const git_index_entry* e = git_index_get_bypath(index.get(), rel.c_str(), 0);
    if (!e || !(e->flags_extended & GIT_INDEX_ENTRY_SKIP_WORKTREE)) return none;
    return std::optional<std::string>(hex(&e->id));
}

Result<bool> Repository::unchanged_on_disk(const std::string& path,
                                           const std::array<unsigned char, 20>& id) const {
    auto bytes = read_worktree(path);
    if (!bytes) return bytes.error();
    git_oid disk;
    if (!bytes.value() ||
        git_odb_hash(&disk, bytes.value()->data(), bytes.value()->size(), GIT_OBJECT_BLOB) < 0) {
        git_error_clear();
        return false;
    }
    return std::memcmp(disk.id, id.data(), id.size()) == 0;
}

std::optional<std::string> Repository::worktree_symlink(std::string_view path) const {
    std::string at = workdir();
    for (std::size_t pos = 0;;) {
        auto slash = path.find('/', pos);
        std::string_view prefix = path.substr(0, slash);
        auto st = sys::lstat(at + std::string(prefix));
        if (!st) return std::nullopt;
        if (st->kind == sys::Kind::symlink) return std::string(prefix);
        if (slash == std::string_view::npos) return std::nullopt;
        pos = slash + 1;
    }
}

Result<std::optional<std::string>> Repository::read_worktree_as_stored(
    std::string_view path) const {
    auto raw = read_worktree(path);
    if (!raw || !raw.value()) return raw;
    std::string rel(path);
    if (auto safe = side_files_of(path, SideFile::Attributes); !safe) return safe.error();
    Handle<git_filter_list, git_filter_list_free> filters;
    // Only libgit2's built-in filters exist here (CRLF, ident): nothing runs a program. Whether
    // any applies is asked without the index where that gives the same answer; a filter that
    // applies is loaded through this handle, as CRLF's rules look into the real index.
    auto load = [&](const Repository& from) {
        return git_filter_list_load(filters.out(), from.repo_.get(), nullptr, rel.c_str(),
                                    GIT_FILTER_TO_ODB, GIT_FILTER_ALLOW_UNSAFE);
    };
    const Repository& asked = attribute_handle();
    if (load(asked) < 0)
        return failure(fmt::format("cannot load the filters for {}", rel), settings_.names);
    if (!filters.get()) return raw;
    if (&asked != this) {
        git_filter_list_free(std::exchange(filters.ptr, nullptr));
        if (load(*this) < 0)
            return failure(fmt::format("cannot load the filters for {}", rel), settings_.names);
        if (!filters.get()) return raw;
    }
    git_buf out = GIT_BUF_INIT;
    const std::string& in = *raw.value();
    if (git_filter_list_apply_to_buffer(&out, filters.get(), in.data(), in.size()) < 0)
        return failure(fmt::format("cannot convert {} as git stores it", rel), settings_.names);
    std::string converted(out.ptr, out.size);
    git_buf_dispose(&out);
    return std::optional<std::string>(std::move(converted));
}

Result<std::optional<std::string>> Repository::worktree_blob_id(std::string_view path) const {
    auto stored = read_worktree_as_stored(path);
    if (!stored) return stored.error();
    if (!stored.value()) return std::optional<std::string>();
    git_oid oid;
    if (git_odb_hash(&oid, stored.value()->data(), stored.value()->size(), GIT_OBJECT_BLOB) < 0)
        return failure(fmt::format("cannot hash {}", std::string(path)), settings_.names);
    return std::optional<std::string>(hex(&oid));
}

}  // namespace cp::git
