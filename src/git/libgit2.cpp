// The error funnel, the library's setup and the deleters of the public handles.
#include "libgit2.hpp"

#include <fmt/format.h>
#include <git2/sys/repository.h>  // git_repository_set_index
#include <stdlib.h>

#include <climits>
#include <cstdlib>
#include <iterator>
#include <new>

#include "context_pack/core/text.hpp"
#include "context_pack/sys/fs.hpp"
#include "context_pack/sys/memory.hpp"

namespace cp::git {

namespace {

// libgit2's last error message, without its trailing newline or full stop, its bytes a
// terminal would act on escaped: it quotes the repository's (an index extension's signature,
// a path, a ref name).
std::string last_detail(const git_error* e) {
    std::string detail = e && e->message ? e->message : "unknown libgit2 error";
    while (!detail.empty() && (detail.back() == '\n' || detail.back() == '.')) detail.pop_back();
    return text::printable(detail);
}

Error failure(std::string_view what, const OptionNames* names) {
    memory_ran_out();
    const git_error* e = git_error_last();
    std::string detail = last_detail(e);
    std::string mend;
    std::string or_target = names ? ", or pass " + names->target.give : "";
    if (detail.find("extension: 'link'") != std::string::npos)
        mend =
            "; the index is a split index, which libgit2 1.5 cannot read: run "
            "git update-index --no-split-index" +
            or_target;
    else if (detail.find("extension: 'sdir'") != std::string::npos)
        mend =
            "; the index is a sparse index, which libgit2 1.5 cannot read: run "
            "git config index.sparse false && git sparse-checkout reapply" +
            or_target;
    else if (e && e->klass == GIT_ERROR_ZLIB)
        mend = "; the object store is damaged: git fsck names what is broken";
    else if (e && e->klass == GIT_ERROR_ODB)
        mend = "; an object is missing or unreadable: git fsck names what is broken";
    const bool object = e && (e->klass == GIT_ERROR_ZLIB || e->klass == GIT_ERROR_ODB ||
                              e->klass == GIT_ERROR_OBJECT);
    const bool missing = detail.starts_with("object not found");  // libgit2's GIT_ENOTFOUND
    return Error{fmt::format("{}: {}{}", what, detail, mend), !object   ? Error::Object::None
                                                              : missing ? Error::Object::Missing
                                                                        : Error::Object::Damaged};
}

}  // namespace

void memory_ran_out() {
    if (sys::address_space_short(kMemoryProbe)) {
        git_error_clear();
        throw std::bad_alloc();
    }
}

Error failure(std::string_view what, const OptionNames& names) {
    return failure(what, &names);
}

Error failure(std::string_view what) {
    return failure(what, nullptr);
}

Unreadable unreadable(const Repository& repo, int rc, std::string_view kind, const git_oid& oid,
                      std::string_view of) {
    memory_ran_out();
    const git_error* e = git_error_last();
    const int klass = e ? e->klass : GIT_ERROR_NONE;
    const std::string id = hex(&oid);
    std::string detail = last_detail(e);
    if (const std::string named = "loose object " + text::short_oid(id) + ": ";
        detail.starts_with(named))  // said below
        detail.erase(0, named.size());
    const std::string what =
        fmt::format("{} {}{}{}", kind, text::short_oid(id), of.empty() ? "" : " ", of);
    const char* restore =
        "git fsck names what is broken; restore it from a good clone of the repository";
    Unreadable out;
    // A type that does not match is damage: the id came from a tree or commit naming its type.
    out.missing = rc == GIT_ENOTFOUND && klass != GIT_ERROR_INVALID;
    std::string message;
    if (out.missing && !repo.promisor_remote().empty())
        message = fmt::format(
            "{} is not in this partial clone; fetch it from its promisor remote: git fetch {} {}",
            what, text::shell_word(repo.promisor_remote()), id);
    else if (out.missing)
        message = fmt::format("{} is missing from the object store: {}", what, restore);
    else if (klass == GIT_ERROR_OS)
        message = fmt::format("{} cannot be read ({}): {}", what, detail, restore);
    else
        message = fmt::format("{} is damaged in the object store ({}): {}", what, detail, restore);
    out.error = Error{std::move(message), klass == GIT_ERROR_NOMEMORY ? Error::Object::None
                                          : out.missing               ? Error::Object::Missing
                                                                      : Error::Object::Damaged};
    git_error_clear();
    return out;
}

std::optional<bool> config_bool(git_config* config, const char* name, bool fallback) {
    int value = 0;
    int rc = git_config_get_bool(&value, config, name);
    git_error_clear();
    if (rc == GIT_ENOTFOUND) return fallback;
    if (rc < 0) return std::nullopt;
    return value != 0;
}

std::optional<std::int64_t> config_int(git_config* config, const char* name,
                                       std::int64_t fallback) {
    std::int64_t value = 0;
    int rc = git_config_get_int64(&value, config, name);
    git_error_clear();
    if (rc == GIT_ENOTFOUND) return fallback;
    if (rc < 0) return std::nullopt;
    return value;
}

int set_workdir(git_repository* repo, const std::string& dir) {
    // libgit2 compares the real path, with a trailing '/', to the one it holds.
    std::string want = sys::real_path(dir).value_or(dir);
    if (want.empty() || want.back() != '/') want += '/';
    const char* now = git_repository_workdir(repo);
    if (now && want == now) return 0;
    return git_repository_set_workdir(repo, dir.c_str(), 0);
}

Result<Unit> set_index_file(git_repository* repo, const std::string& path, std::string_view what,
                            const OptionNames& names) {
    Handle<git_index, git_index_free> index;  // the repository keeps its own reference
    if (git_index_open(index.out(), path.c_str()) < 0 ||
        (git_repository_set_index(repo, index.get()),
         git_index_set_caps(index.get(), GIT_INDEX_CAPABILITY_FROM_OWNER) < 0))
        return failure(fmt::format("cannot read {}", what), names);
    return Unit{};
}

void init_library() {
    static const bool done = [] {
        git_libgit2_init();
        // Packed objects are not hashed again on every read, as git diff does not hash them:
        // zlib's checksum of each entry and libgit2's size and delta checks catch damage
        // there. Loose objects are hashed by our own reader (object_store.hpp).
        git_libgit2_opts(GIT_OPT_ENABLE_STRICT_HASH_VERIFICATION, 0);
        // A partial clone's objects that were never fetched are missing, and said so with
        // the fetch that brings them: libgit2 1.5 fetches nothing by itself, nor does the tool.
        // extensions.preciousObjects forbids deleting objects, which the tool never does.
        const char* extensions[] = {"worktreeconfig", "partialclone", "preciousobjects"};
        git_libgit2_opts(GIT_OPT_SET_EXTENSIONS, extensions, std::size(extensions));
        // Packs are mapped 16 MiB at a time, 320 MiB at most at once (libgit2's defaults on
        // 64-bit systems: 1 GiB windows, 8 GiB): a batch over many pairs touches most of a
        // large pack, and every page of it touched would stay in the process's memory. On
        // git/git's 496 MB pack, a 300-pair batch's peak is 145 MB where it would be 300 MB.
        // Every handle of the process shares a pack's windows (libgit2 keeps one pack file a
        // path): pool threads reading far apart in the pack closed and mapped 64 MiB windows
        // again and again, where twenty windows of 16 MiB keep what each reads. Each window
        // closed and mapped again costs an unmap seen by every core and its pages' faults:
        // 256 MiB mapped 1,650 windows in that batch, 320 MiB 770 (docs/performance.md).
        git_libgit2_opts(GIT_OPT_SET_MWINDOW_SIZE, std::size_t{16} << 20);
        git_libgit2_opts(GIT_OPT_SET_MWINDOW_MAPPED_LIMIT, std::size_t{320} << 20);
        // No object cache of libgit2's: it keeps every small tree and commit read, up to
        // 256 MiB, for a batch about 15 MB at 300 pairs of git/git; the trees that path
        // lookups read again are kept, within a bound, by the tree cache (caches.hpp).
        git_libgit2_opts(GIT_OPT_ENABLE_CACHING, 0);
        return true;
    }();
    (void)done;
}

Result<Unit> read_commit_tree(const Repository& repo, const std::string& commit_hex,
                              TreeHandle& tree) {
    git_oid oid;
    if (git_oid_fromstr(&oid, commit_hex.c_str()) < 0) return failure("bad object id");
    CommitHandle commit;
    if (int rc = git_commit_lookup(commit.out(), raw_handle(repo), &oid); rc < 0)
        return unreadable(repo, rc, "commit", oid).error;
    if (int rc = git_tree_lookup(tree.out(), raw_handle(repo), git_commit_tree_id(commit.get()));
        rc < 0)
        return unreadable(repo, rc, "tree", *git_commit_tree_id(commit.get()),
                          "of commit " + text::short_oid(commit_hex))
            .error;
    return Unit{};
}

void RepoDeleter::operator()(git_repository* repo) const {
    git_repository_free(repo);
}
void DiffDeleter::operator()(git_diff* diff) const {
    git_diff_free(diff);
}

std::string library_version() {
    int major = 0, minor = 0, rev = 0;
    git_libgit2_version(&major, &minor, &rev);
    return fmt::format("{}.{}.{}", major, minor, rev);
}

}  // namespace cp::git
