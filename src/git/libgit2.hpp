// What every libgit2 user in src/git/ shares: the error funnel (failure), RAII handles, the
// library's one-time setup, and conversions from libgit2's types. Private to src/git/: no file
// outside it includes <git2.h>.
#pragma once

#include <git2.h>
#if LIBGIT2_VER_MAJOR > 1 || LIBGIT2_VER_MINOR >= 8
#include <git2/sys/errors.h>  // git_error_clear, since libgit2 1.8
#endif

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "context_pack/core/result.hpp"
#include "context_pack/git/repository.hpp"

namespace cp::git {

// libgit2 errors become one line here and nowhere else, with the mend where one is known.
// Where libgit2 may have read the index, `names` words the mend that names an option (an
// index libgit2 cannot read still leaves commit targets); object and tree reads need none.
// An error of libgit2's object database, zlib or an object's parse is marked as an object's
// failure (Error::object, Damaged), for a caller that can go on without that object.
// Neither returns where memory ran out: see memory_ran_out.
Error failure(std::string_view what, const OptionNames& names);
Error failure(std::string_view what);

// Throws std::bad_alloc when a libgit2 call just failed for want of memory: less than
// kMemoryProbe of address space is left (sys::address_space_short). libgit2 says so only at
// times ("failed to mmap"): a pack index it could not map makes an object "not found", a
// window it could not map makes it unreadable, which the run would report as absent or
// damaged. Said once at the top, with the mend (cli::run, an MCP call). The probe is larger
// than a pack window (16 MiB) and than the pack index of a repository of two million objects.
inline constexpr std::size_t kMemoryProbe = std::size_t{64} << 20;
void memory_ran_out();

// A read of the object `oid` that failed with `rc` (git_error_last() says why; call it before
// any other libgit2 call; memory_ran_out first), as one line marked as an object's failure
// (Error::object): missing, in a partial clone, with the fetch from its promisor remote that brings
// it; missing elsewhere, or damaged, with git fsck. `kind`: "blob", "tree", "commit" or "object";
// `of`: what it is to the caller ("of dir", "of commit 1a2b3c4d5e"), or empty.
struct Unreadable {
    Error error;
    bool missing = false;  // absent from the store (GIT_ENOTFOUND), not damaged
};
Unreadable unreadable(const Repository& repo, int rc, std::string_view kind, const git_oid& oid,
                      std::string_view of = {});

// A boolean setting; `fallback` when it is not set, nullopt when it is not a boolean.
std::optional<bool> config_bool(git_config* config, const char* name, bool fallback);
// An integer setting; `fallback` when it is not set, nullopt when it is not an integer.
std::optional<std::int64_t> config_int(git_config* config, const char* name, std::int64_t fallback);

// Process-wide libgit2 setup, once: the repository is trusted local data, and libgit2 must
// open repositories that use extensions.worktreeConfig.
void init_library();

// git_repository_set_workdir, skipped when `dir` already is the working tree: libgit2 1.5
// then returns early without freeing the path it made (a leak on every such call).
int set_workdir(git_repository* repo, const std::string& dir);
// The index at `path` as the repository's own (GIT_INDEX_FILE, a reader's copy of it), with
// its case and file-mode rules taken from the configuration; `what` names it in the error
// ("the index GIT_INDEX_FILE names").
Result<Unit> set_index_file(git_repository* repo, const std::string& path, std::string_view what,
                            const OptionNames& names);

// Every libgit2 object is freed by its type, once.
template <class T, void (*Free)(T*)>
struct Handle {
    T* ptr = nullptr;
    Handle() = default;
    Handle(const Handle&) = delete;
    Handle& operator=(const Handle&) = delete;
    Handle(Handle&& other) noexcept : ptr(std::exchange(other.ptr, nullptr)) {}
    Handle& operator=(Handle&& other) noexcept {
        if (this != &other) {
            if (ptr) Free(ptr);
            ptr = std::exchange(other.ptr, nullptr);
        }
        return *this;
    }
    ~Handle() {
        if (ptr) Free(ptr);
    }
    T** out() { return &ptr; }
    T* get() const { return ptr; }
};
using ObjectHandle = Handle<git_object, git_object_free>;
using CommitHandle = Handle<git_commit, git_commit_free>;
using TreeHandle = Handle<git_tree, git_tree_free>;
using EntryHandle = Handle<git_tree_entry, git_tree_entry_free>;
using BlobHandle = Handle<git_blob, git_blob_free>;
using OdbHandle = Handle<git_odb, git_odb_free>;

// The libgit2 repository behind a Repository, for the files of src/git/ (a friend of it).
git_repository* raw_handle(const Repository& repo);

inline std::string hex(const git_oid* oid) {
    char buf[GIT_OID_HEXSZ + 1];
    git_oid_tostr(buf, sizeof buf, oid);
    return buf;
}

inline EntryKind kind_of(git_filemode_t mode) {
    switch (mode) {
        case GIT_FILEMODE_LINK:
            return EntryKind::Symlink;
        case GIT_FILEMODE_COMMIT:
            return EntryKind::Submodule;
        case GIT_FILEMODE_TREE:
            return EntryKind::Directory;
        default:
            return EntryKind::File;
    }
}

// The root tree of the commit `commit_hex`, read through `repo`.
Result<Unit> read_commit_tree(const Repository& repo, const std::string& commit_hex,
                              TreeHandle& tree);

}  // namespace cp::git
