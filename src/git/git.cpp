#include "context_pack/git/repository.hpp"

#include "context_pack/git/index_file.hpp"
#include "context_pack/git/rename.hpp"
#include "context_pack/core/text.hpp"
#include "context_pack/git/worktree_scan.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <git2.h>
#include <git2/sys/repository.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <map>
#include <set>
#include <utility>

// libgit2's init (Debian builds it with mbedTLS for HTTPS) parses the system's whole CA bundle,
// about 140 certificates: 3.5 ms and 55 million instructions, a quarter of a small run, for a
// tool that never opens a network connection. The link wraps mbedTLS's parser
// (-Wl,--wrap=mbedtls_x509_crt_parse_file, CMakeLists.txt), so libgit2's call lands here:
// libgit2 gets an empty chain of trusted roots, and were a TLS connection ever made, it would
// fail verification rather than trust anything.
namespace {
int ca_bundle_calls = 0;
}
extern "C" int __wrap_mbedtls_x509_crt_parse_file(void* /*chain*/, const char* /*path*/) {
    ++ca_bundle_calls;
    return 0;
}

// libgit2 1.5's bundled xdiff (git's own), called directly for line hunks:
// git_patch_from_buffers runs the same xdl_diff but first hashes both buffers with SHA-1 to
// tell whether they are equal, a fifth of a large run's instructions. The static libgit2.a
// (CMakeLists.txt) holds the symbol, which the shared library does not export. These are the
// types of libgit2 1.5's src/libgit2/xdiff/xdiff.h, field for field; another libgit2 version
// does not build here until they are checked against its own.
#if LIBGIT2_VER_MAJOR != 1 || LIBGIT2_VER_MINOR != 5
#error "line_hunks calls libgit2 1.5's xdiff: check src/libgit2/xdiff/xdiff.h of this version"
#endif
extern "C" {
struct XdiffMmfile {
    char* ptr;
    long size;
};
struct XdiffParam {
    unsigned long flags;
    void** ignore_regex;
    size_t ignore_regex_nr;
    char** anchors;
    size_t anchors_nr;
};
struct XdiffEmitCallback {
    void* priv;
    int (*out_hunk)(void*, long, long, long, long, const char*, long);
    int (*out_line)(void*, XdiffMmfile*, int);
};
struct XdiffEmitConf {
    long ctxlen;
    long interhunkctxlen;
    unsigned long flags;
    long (*find_func)(const char*, long, char*, long, void*);
    void* find_func_priv;
    int (*hunk_func)(long old_at, long old_count, long new_at, long new_count, void* priv);
};
int xdl_diff(XdiffMmfile* old_file, XdiffMmfile* new_file, const XdiffParam* param,
             const XdiffEmitConf* conf, XdiffEmitCallback* callback);
}
namespace {
constexpr unsigned long kXdfIndentHeuristic = 1ul << 23;  // XDF_INDENT_HEURISTIC
constexpr std::size_t kXdiffMaxSize = 1024ul * 1024 * 1023;  // GIT_XDIFF_MAX_SIZE
}  // namespace

namespace cp::git {
namespace {

// libgit2 errors become one line here and nowhere else, with the mend where one is known.
Error failure(std::string_view what) {
    const git_error* e = git_error_last();
    std::string detail = e && e->message ? e->message : "unknown libgit2 error";
    while (!detail.empty() && (detail.back() == '\n' || detail.back() == '.')) detail.pop_back();
    std::string mend;
    if (detail.find("extension: 'link'") != std::string::npos)
        mend = "; the index is a split index, which libgit2 1.5 cannot read: run "
               "git update-index --no-split-index, or pass --target REV";
    else if (detail.find("extension: 'sdir'") != std::string::npos)
        mend = "; the index is a sparse index, which libgit2 1.5 cannot read: run "
               "git config index.sparse false && git sparse-checkout reapply, or pass --target REV";
    else if (e && e->klass == GIT_ERROR_ZLIB)
        mend = "; the object store is damaged: git fsck names what is broken";
    else if (e && e->klass == GIT_ERROR_ODB)
        mend = "; an object is missing or unreadable: git fsck names what is broken";
    return Error{fmt::format("{}: {}{}", what, detail, mend)};
}

// A boolean setting; `fallback` when it is not set, nullopt when it is not a boolean.
std::optional<bool> config_bool(git_config* config, const char* name, bool fallback) {
    int value = 0;
    int rc = git_config_get_bool(&value, config, name);
    git_error_clear();
    if (rc == GIT_ENOTFOUND) return fallback;
    if (rc < 0) return std::nullopt;
    return value != 0;
}

template <class T, void (*Free)(T*)>
struct Handle {
    T* ptr = nullptr;
    Handle() = default;
    Handle(const Handle&) = delete;
    Handle& operator=(const Handle&) = delete;
    Handle(Handle&& other) noexcept : ptr(std::exchange(other.ptr, nullptr)) {}
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

// Process-wide libgit2 setup, once: the repository is trusted local data, and libgit2 must
// open repositories that use extensions.worktreeConfig.
void init_library() {
    static const bool done = [] {
        git_libgit2_init();
        git_libgit2_opts(GIT_OPT_ENABLE_STRICT_HASH_VERIFICATION, 0);
        const char* extensions[] = {"worktreeconfig"};
        git_libgit2_opts(GIT_OPT_SET_EXTENSIONS, extensions, std::size(extensions));
        return true;
    }();
    (void)done;
}

std::string hex(const git_oid* oid) {
    char buf[GIT_OID_HEXSZ + 1];
    git_oid_tostr(buf, sizeof buf, oid);
    return buf;
}

EntryKind kind_of(git_filemode_t mode) {
    switch (mode) {
        case GIT_FILEMODE_LINK: return EntryKind::Symlink;
        case GIT_FILEMODE_COMMIT: return EntryKind::Submodule;
        case GIT_FILEMODE_TREE: return EntryKind::Directory;
        default: return EntryKind::File;
    }
}

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

Result<Unit> read_commit_tree(git_repository* repo, const std::string& commit_hex,
                              TreeHandle& tree) {
    git_oid oid;
    if (git_oid_fromstr(&oid, commit_hex.c_str()) < 0) return failure("bad object id");
    CommitHandle commit;
    if (git_commit_lookup(commit.out(), repo, &oid) < 0)
        return failure(fmt::format("cannot read commit {}", text::short_oid(commit_hex)));
    if (git_commit_tree(tree.out(), commit.get()) < 0)
        return failure(fmt::format("cannot read the tree of {}", text::short_oid(commit_hex)));
    return Unit{};
}

bool is_hex_prefix(std::string_view rev) {
    return rev.size() >= 4 && rev.size() < GIT_OID_HEXSZ &&
           rev.find_first_not_of("0123456789abcdefABCDEF") == std::string_view::npos;
}

// The objects an ambiguous hex prefix names, as "<hash> <type>", at most ten.
std::vector<std::string> ambiguous_candidates(git_repository* repo, std::string_view prefix) {
    std::vector<std::string> out;
    OdbHandle odb;
    if (git_repository_odb(odb.out(), repo) < 0) return out;
    struct Walk {
        std::string prefix;
        std::vector<git_oid> found;
    } walk{std::string(prefix), {}};
    for (auto& c : walk.prefix) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    git_odb_foreach(
        odb.get(),
        [](const git_oid* id, void* payload) {
            auto* w = static_cast<Walk*>(payload);
            if (hex(id).starts_with(w->prefix) && w->found.size() < 10) w->found.push_back(*id);
            return 0;
        },
        &walk);
    std::sort(walk.found.begin(), walk.found.end(),
              [](const git_oid& a, const git_oid& b) { return git_oid_cmp(&a, &b) < 0; });
    walk.found.erase(std::unique(walk.found.begin(), walk.found.end(),
                                 [](const git_oid& a, const git_oid& b) {
                                     return git_oid_equal(&a, &b);
                                 }),
                     walk.found.end());
    for (const auto& id : walk.found) {
        size_t len = 0;
        git_object_t type = GIT_OBJECT_INVALID;
        git_odb_read_header(&len, &type, odb.get(), &id);
        out.push_back(fmt::format("{} {}", hex(&id), git_object_type2string(type)));
    }
    return out;
}

struct Fd {
    int fd = -1;
    Fd(int f) : fd(f) {}
    Fd(const Fd&) = delete;
    Fd& operator=(const Fd&) = delete;
    ~Fd() {
        if (fd >= 0) ::close(fd);
    }
};

// Reads `rel` beneath the directory `root` without following a symlink anywhere on the way,
// so no read leaves the working tree. `present` is false when there is no regular file
// there (absent, a directory, or reached through a symlink).
Result<std::string> read_beneath(const std::string& root, std::string_view rel, bool& present,
                                 std::uint64_t max_bytes) {
    present = false;
    Fd dir(::open(root.empty() ? "." : root.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
    if (dir.fd < 0) return Error{fmt::format("cannot open {}: {}", root, std::strerror(errno))};
    std::size_t pos = 0;
    int at = dir.fd;
    std::vector<std::unique_ptr<Fd>> parents;
    for (;;) {
        auto slash = rel.find('/', pos);
        std::string name(rel.substr(pos, slash == std::string_view::npos ? rel.npos : slash - pos));
        bool last = slash == std::string_view::npos;
        int flags = O_RDONLY | O_NOFOLLOW | O_CLOEXEC | (last ? O_NONBLOCK : O_DIRECTORY);
        int fd = ::openat(at, name.c_str(), flags);
        if (fd < 0) {
            if (errno == ENOENT || errno == ENOTDIR || errno == ELOOP || errno == EISDIR)
                return std::string();
            return Error{fmt::format("cannot open {}: {}", rel, std::strerror(errno))};
        }
        parents.push_back(std::make_unique<Fd>(fd));
        at = fd;
        if (last) break;
        pos = slash + 1;
    }
    struct stat st {};
    if (fstat(at, &st) < 0 || !S_ISREG(st.st_mode)) return std::string();
    if (std::uint64_t(st.st_size) > max_bytes) return std::string();  // too large: not read
    std::string content;
    content.reserve(static_cast<std::size_t>(st.st_size));
    char buf[1 << 16];
    for (;;) {
        auto n = ::read(at, buf, sizeof buf);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) return Error{fmt::format("cannot read {}: {}", rel, std::strerror(errno))};
        if (n == 0) break;
        content.append(buf, static_cast<std::size_t>(n));
    }
    present = true;
    return content;
}

}  // namespace

void RepoDeleter::operator()(git_repository* repo) const { git_repository_free(repo); }
void DiffDeleter::operator()(git_diff* diff) const { git_diff_free(diff); }


bool ca_bundle_skipped() { return ca_bundle_calls > 0; }

std::string library_version() {
    int major = 0, minor = 0, rev = 0;
    git_libgit2_version(&major, &minor, &rev);
    return fmt::format("{}.{}.{}", major, minor, rev);
}

Result<Repository> Repository::open(const std::string& dir) {
    init_library();
    git_repository* raw = nullptr;
    if (git_repository_open_ext(&raw, dir.c_str(), 0, nullptr) == 0) {
        Repository repo;
        repo.repo_.reset(raw);
        return repo;
    }
    Error error = failure("cannot open the repository");
    // libgit2 1.5 reports a safe.directory refusal as a config lookup failure: try again
    // without the ownership check only to tell that case apart, then refuse all the same.
    git_libgit2_opts(GIT_OPT_SET_OWNER_VALIDATION, 0);
    int retry = git_repository_open_ext(&raw, dir.c_str(), 0, nullptr);
    git_libgit2_opts(GIT_OPT_SET_OWNER_VALIDATION, 1);
    if (retry == 0) {
        std::string where = git_repository_workdir(raw) ? git_repository_workdir(raw)
                                                        : git_repository_path(raw);
        if (where.size() > 1 && where.back() == '/') where.pop_back();
        git_repository_free(raw);
        return Error{fmt::format(
            "the repository at {} is owned by another user; if you trust it, run: "
            "git config --global --add safe.directory {}",
            where, where)};
    }
    const git_error* e = git_error_last();
    if (e && e->klass == GIT_ERROR_REPOSITORY && std::strstr(e->message, "could not find"))
        return Error{fmt::format(
            "not a git repository (or any parent up to /): {}; run inside one or pass -C DIR",
            dir)};
    return error;
}

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

Result<Repository> Repository::open_reader() const {
    git_repository* raw = nullptr;
    if (git_repository_open_ext(&raw, git_repository_path(repo_.get()),
                                GIT_REPOSITORY_OPEN_NO_SEARCH | GIT_REPOSITORY_OPEN_BARE,
                                nullptr) < 0)
        return failure("cannot open the repository again");
    Repository reader;
    reader.repo_.reset(raw);
    reader.max_file_bytes_ = max_file_bytes_;
    return reader;
}

bool Repository::is_bare() const { return git_repository_is_bare(repo_.get()); }

bool Repository::is_shallow() const { return git_repository_is_shallow(repo_.get()) == 1; }

std::string Repository::workdir() const {
    const char* w = git_repository_workdir(repo_.get());
    return w ? w : "";
}

Revision Repository::resolve_commit(std::string_view rev) const {
    Revision out;
    std::string spec(rev);
    ObjectHandle obj;
    int rc = rev.empty() ? GIT_EINVALIDSPEC : git_revparse_single(obj.out(), repo_.get(), spec.c_str());
    if (rc == GIT_EAMBIGUOUS) {
        out.outcome = Revision::Outcome::Ambiguous;
        if (is_hex_prefix(rev)) out.candidates = ambiguous_candidates(repo_.get(), rev);
        return out;
    }
    if (rc == GIT_EINVALIDSPEC) {
        out.outcome = Revision::Outcome::Invalid;
        return out;
    }
    if (rc < 0) {
        // A reference that names an object the store cannot produce is damage, not absence.
        git_oid named;
        if (git_reference_name_to_id(&named, repo_.get(), spec.c_str()) == 0) {
            out.outcome = Revision::Outcome::Missing;
            out.oid = hex(&named);
            return out;
        }
        out.outcome = Revision::Outcome::NotFound;
        return out;
    }
    ObjectHandle commit;
    if (git_object_peel(commit.out(), obj.get(), GIT_OBJECT_COMMIT) < 0) {
        out.outcome = Revision::Outcome::NotACommit;
        out.oid = hex(git_object_id(obj.get()));
        return out;
    }
    out.outcome = Revision::Outcome::Commit;
    out.oid = hex(git_object_id(commit.get()));
    return out;
}

Result<std::string> Repository::head_commit() const {
    git_oid oid;
    if (git_reference_name_to_id(&oid, repo_.get(), "HEAD") < 0)
        return failure("cannot resolve HEAD");
    return hex(&oid);
}

struct Repository::Trees {
    struct OidLess {
        bool operator()(const git_oid& a, const git_oid& b) const { return git_oid_cmp(&a, &b) < 0; }
    };
    std::map<git_oid, TreeHandle, OidLess> by_id;
    std::map<std::string, git_oid> root_of;  // commit hex -> its tree's id
};
struct Repository::Attributes {
    std::map<std::string, DiffAttribute, std::less<>> diff_attribute;  // by path: fixed for a run
    bool decided = false;
    std::unique_ptr<Repository> handle;  // see attribute_handle()
};

git_repository* raw_handle(const Repository& repo) { return repo.repo_.get(); }

Repository::Repository()
    : trees_(std::make_unique<Trees>()), attributes_(std::make_unique<Attributes>()) {}
Repository::Repository(Repository&&) noexcept = default;
Repository& Repository::operator=(Repository&& other) noexcept {
    trees_ = std::move(other.trees_);  // trees go before the repository that owns them
    attributes_ = std::move(other.attributes_);
    repo_ = std::move(other.repo_);
    return *this;
}
Repository::~Repository() = default;  // the caches are declared after repo_: they go first

Result<PathLookup> Repository::lookup(const std::string& commit, std::string_view path) const {
    auto tree_of = [&](const git_oid& id) -> Result<const git_tree*> {
        auto it = trees_->by_id.find(id);
        if (it == trees_->by_id.end()) {
            TreeHandle t;
            if (git_tree_lookup(t.out(), repo_.get(), &id) < 0)
                return failure(fmt::format("cannot read tree {}", text::short_oid(hex(&id))));
            it = trees_->by_id.emplace(id, std::move(t)).first;
        }
        return it->second.get();
    };
    auto root_id = trees_->root_of.find(commit);
    if (root_id == trees_->root_of.end()) {
        TreeHandle root;
        if (auto r = read_commit_tree(repo_.get(), commit, root); !r) return r.error();
        git_oid id = *git_tree_id(root.get());
        trees_->by_id.try_emplace(id, std::move(root));
        root_id = trees_->root_of.emplace(commit, id).first;
    }
    auto root = tree_of(root_id->second);
    if (!root) return root.error();
    PathLookup out;
    const git_tree* tree = root.value();
    std::size_t pos = 0;
    for (;;) {
        auto slash = path.find('/', pos);
        std::string name(path.substr(pos, slash == std::string_view::npos ? path.npos : slash - pos));
        const git_tree_entry* e = git_tree_entry_byname(tree, name.c_str());
        if (!e) return out;
        auto kind = kind_of(git_tree_entry_filemode(e));
        if (slash == std::string_view::npos) {
            out.entry = Entry{kind, hex(git_tree_entry_id(e)),
                              git_tree_entry_filemode(e) == GIT_FILEMODE_BLOB_EXECUTABLE};
            return out;
        }
        if (kind != EntryKind::Directory) {
            if (kind == EntryKind::File) return out;  // a file where a directory was expected
            out.blocked_by = std::string(path.substr(0, slash));
            out.blocked_kind = kind;
            return out;
        }
        auto sub = tree_of(*git_tree_entry_id(e));
        if (!sub) return sub.error();
        tree = sub.value();
        pos = slash + 1;
    }
}

Result<std::string> Repository::blob(const std::string& oid_hex) const {
    git_oid oid;
    if (git_oid_fromstr(&oid, oid_hex.c_str()) < 0) return failure("bad object id");
    BlobHandle blob;
    if (git_blob_lookup(blob.out(), repo_.get(), &oid) < 0)
        return failure(fmt::format("cannot read blob {}", text::short_oid(oid_hex)));
    auto size = static_cast<std::size_t>(git_blob_rawsize(blob.get()));
    return std::string(static_cast<const char*>(git_blob_rawcontent(blob.get())), size);
}

Result<std::uint64_t> Repository::blob_size(const std::string& oid_hex) const {
    git_oid oid;
    if (git_oid_fromstr(&oid, oid_hex.c_str()) < 0) return failure("bad object id");
    OdbHandle odb;
    if (git_repository_odb(odb.out(), repo_.get()) < 0) return failure("cannot open the odb");
    size_t size = 0;
    git_object_t type = GIT_OBJECT_INVALID;
    if (git_odb_read_header(&size, &type, odb.get(), &oid) < 0)
        return failure(fmt::format("cannot read blob {}", text::short_oid(oid_hex)));
    return std::uint64_t(size);
}

Result<std::optional<std::string>> Repository::blob_within_limit(const std::string& oid) const {
    auto size = blob_size(oid);
    if (!size) return size.error();
    if (size.value() > max_file_bytes_) return std::optional<std::string>();
    auto bytes = blob(oid);
    if (!bytes) return bytes.error();
    return std::optional<std::string>(std::move(bytes).value());
}

Result<std::optional<std::string>> Repository::read_worktree(std::string_view path) const {
    bool present = false;
    auto content = read_beneath(workdir(), path, present, max_file_bytes_);
    if (!content) return content.error();
    if (!present) return std::optional<std::string>();
    return std::optional<std::string>(std::move(content).value());
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

Result<std::vector<TrackedFile>> Repository::tracked_files(
    const std::optional<std::string>& target) const {
    std::vector<TrackedFile> files;
    if (!target) {
        Handle<git_index, git_index_free> index;
        if (git_repository_index(index.out(), repo_.get()) < 0)
            return failure("cannot read the index");
        for (size_t i = 0, n = git_index_entrycount(index.get()); i < n; ++i) {
            const git_index_entry* e = git_index_get_byindex(index.get(), i);
            auto mode = static_cast<git_filemode_t>(e->mode);
            if (mode == GIT_FILEMODE_LINK || mode == GIT_FILEMODE_COMMIT) continue;
            if (!files.empty() && files.back().path == e->path) continue;  // conflict stages
            files.push_back({e->path, {}});
        }
        return files;
    }
    TreeHandle tree;
    if (auto r = read_commit_tree(repo_.get(), *target, tree); !r) return r.error();
    int rc = git_tree_walk(
        tree.get(), GIT_TREEWALK_PRE,
        [](const char* root, const git_tree_entry* entry, void* payload) {
            auto mode = git_tree_entry_filemode(entry);
            if (mode != GIT_FILEMODE_BLOB && mode != GIT_FILEMODE_BLOB_EXECUTABLE) return 0;
            static_cast<std::vector<TrackedFile>*>(payload)->push_back(
                {std::string(root) + git_tree_entry_name(entry), hex(git_tree_entry_id(entry))});
            return 0;
        },
        &files);
    if (rc < 0) return failure("cannot walk the target's tree");
    return files;
}

Result<Unit> Repository::read_tracked(const std::vector<TrackedFile>& files, std::size_t begin,
                                      std::size_t end, const FileVisitor& visit,
                                      const Repository* reader) const {
    const Repository& objects = reader ? *reader : *this;
    OdbHandle odb;
    if (git_repository_odb(odb.out(), objects.repo_.get()) < 0)
        return failure("cannot open the odb");
    for (std::size_t i = begin; i < end; ++i) {
        const TrackedFile& f = files[i];
        if (f.oid.empty()) {  // the working tree's file (this handle's working tree)
            bool present = false;
            auto bytes = read_beneath(workdir(), f.path, present, max_file_bytes_);
            if (!bytes) return bytes.error();
            if (present) visit(f.path, bytes.value());
            continue;
        }
        git_oid oid;
        if (git_oid_fromstr(&oid, f.oid.c_str()) < 0) return failure("bad object id");
        size_t size = 0;
        git_object_t type = GIT_OBJECT_INVALID;
        if (git_odb_read_header(&size, &type, odb.get(), &oid) == 0 && size > max_file_bytes_)
            continue;  // over the size limit: not read
        BlobHandle blob;
        if (git_blob_lookup(blob.out(), objects.repo_.get(), &oid) < 0)
            return failure(fmt::format("cannot read {}", f.path));
        visit(f.path, std::string_view(static_cast<const char*>(git_blob_rawcontent(blob.get())),
                                       static_cast<std::size_t>(git_blob_rawsize(blob.get()))));
    }
    return Unit{};
}

Result<Unit> Repository::for_each_tracked_file(const std::optional<std::string>& target,
                                               const FileVisitor& visit) const {
    auto files = tracked_files(target);
    if (!files) return files.error();
    return read_tracked(files.value(), 0, files->size(), visit);
}

DiffAttribute Repository::diff_attribute(const std::string& path) const {
    auto known = attributes_->diff_attribute.find(path);
    if (known != attributes_->diff_attribute.end()) return known->second;
    DiffAttribute found = diff_attribute_uncached(path);
    attributes_->diff_attribute.emplace(path, found);
    return found;
}

Result<Repository> Repository::open_without_index() const {
    git_repository* raw = nullptr;
    if (git_repository_open_ext(&raw, workdir().c_str(), GIT_REPOSITORY_OPEN_NO_SEARCH, nullptr) <
        0)
        return failure("cannot open the repository again");
    Repository out;
    out.repo_.reset(raw);
    out.max_file_bytes_ = max_file_bytes_;
    out.attributes_->decided = true;  // its attributes are asked of itself
    Handle<git_index, git_index_free> empty;  // the repository keeps its own reference
    if (git_index_new(empty.out()) < 0) return failure("cannot make an empty index");
    git_repository_set_index(raw, empty.get());
    return out;
}

const Repository& Repository::attribute_handle() const {
    if (!attributes_->decided) {
        attributes_->decided = true;
        const std::string root = workdir();
        auto tracked = root.empty() ? std::nullopt : read_index_entries(index_file(), {});
        bool on_disk = tracked.has_value();
        if (tracked) {
            for (const auto& entry : tracked->attributes) {
                struct stat st {};
                on_disk = on_disk && ::lstat((root + entry.first).c_str(), &st) == 0 &&
                          S_ISREG(st.st_mode);
            }
        }
        if (on_disk) {
            auto opened = open_without_index();
            if (opened)
                attributes_->handle = std::make_unique<Repository>(std::move(opened).value());
        }
    }
    return attributes_->handle ? *attributes_->handle : *this;
}

DiffAttribute Repository::diff_attribute_uncached(const std::string& path) const {
    const char* value = nullptr;
    if (git_attr_get(&value, attribute_handle().repo_.get(), GIT_ATTR_CHECK_FILE_THEN_INDEX,
                     path.c_str(), "diff") < 0)
        return DiffAttribute::Unset;
    switch (git_attr_value(value)) {
        case GIT_ATTR_VALUE_FALSE: return DiffAttribute::Binary;  // -diff, or the binary macro
        case GIT_ATTR_VALUE_TRUE: return DiffAttribute::Text;
        case GIT_ATTR_VALUE_STRING: {  // a driver: binary only if diff.<driver>.binary says so
            Handle<git_config, git_config_free> config;
            int flag = 0;
            if (git_repository_config_snapshot(config.out(), repo_.get()) == 0 &&
                git_config_get_bool(&flag, config.get(),
                                    fmt::format("diff.{}.binary", value).c_str()) == 0)
                return flag ? DiffAttribute::Binary : DiffAttribute::Text;
            git_error_clear();
            return DiffAttribute::Unset;
        }
        default: return DiffAttribute::Unset;
    }
}

std::optional<std::string> Repository::worktree_symlink(std::string_view path) const {
    std::string at = workdir();
    for (std::size_t pos = 0;;) {
        auto slash = path.find('/', pos);
        std::string_view prefix = path.substr(0, slash);
        struct stat st {};
        if (lstat((at + std::string(prefix)).c_str(), &st) < 0) return std::nullopt;
        if (S_ISLNK(st.st_mode)) return std::string(prefix);
        if (slash == std::string_view::npos) return std::nullopt;
        pos = slash + 1;
    }
}

Result<std::optional<std::string>> Repository::read_worktree_as_stored(
    std::string_view path) const {
    auto raw = read_worktree(path);
    if (!raw || !raw.value()) return raw;
    std::string rel(path);
    Handle<git_filter_list, git_filter_list_free> filters;
    // Only libgit2's built-in filters exist here (CRLF, ident): nothing runs a program. Whether
    // any applies is asked without the index where that gives the same answer; a filter that
    // applies is loaded through this handle, as CRLF's rules look into the real index.
    auto load = [&](const Repository& from) {
        return git_filter_list_load(filters.out(), from.repo_.get(), nullptr, rel.c_str(),
                                    GIT_FILTER_TO_ODB, GIT_FILTER_ALLOW_UNSAFE);
    };
    const Repository& asked = attribute_handle();
    if (load(asked) < 0) return failure(fmt::format("cannot load the filters for {}", rel));
    if (!filters.get()) return raw;
    if (&asked != this) {
        git_filter_list_free(std::exchange(filters.ptr, nullptr));
        if (load(*this) < 0) return failure(fmt::format("cannot load the filters for {}", rel));
        if (!filters.get()) return raw;
    }
    git_buf out = GIT_BUF_INIT;
    const std::string& in = *raw.value();
    if (git_filter_list_apply_to_buffer(&out, filters.get(), in.data(), in.size()) < 0)
        return failure(fmt::format("cannot convert {} as git stores it", rel));
    std::string converted(out.ptr, out.size);
    git_buf_dispose(&out);
    return std::optional<std::string>(std::move(converted));
}

namespace {

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

// git's trim_common_tail for -U0 diffs (xdiff-interface.c): drop the identical tail in
// 1 KiB blocks, keeping the rest of the line the last block cut into.
void trim_common_tail(std::string_view& a, std::string_view& b) {
    constexpr std::size_t kBlock = 1024;
    std::size_t trimmed = 0, recovered = 0;
    std::size_t smaller = std::min(a.size(), b.size());
    while (kBlock + trimmed <= smaller &&
           std::memcmp(a.data() + a.size() - trimmed - kBlock,
                       b.data() + b.size() - trimmed - kBlock, kBlock) == 0)
        trimmed += kBlock;
    const char* ap = a.data() + a.size() - trimmed;
    while (recovered < trimmed)
        if (ap[recovered++] == '\n') break;
    a = a.substr(0, a.size() - (trimmed - recovered));
    b = b.substr(0, b.size() - (trimmed - recovered));
}

// git's tree order: names compare bytewise, a tree's name as if it ended in '/'.
int tree_order(const git_tree_entry* a, const git_tree_entry* b) {
    std::string_view x = git_tree_entry_name(a), y = git_tree_entry_name(b);
    std::size_t n = std::min(x.size(), y.size());
    if (int c = std::memcmp(x.data(), y.data(), n)) return c;
    auto next = [n](std::string_view s, const git_tree_entry* e) -> int {
        if (s.size() > n) return static_cast<unsigned char>(s[n]);
        return git_tree_entry_filemode(e) == GIT_FILEMODE_TREE ? '/' : 0;
    };
    return next(x, a) - next(y, b);
}

Result<Unit> diff_trees(git_repository* repo, const git_tree* a, const git_tree* b,
                        const std::string& prefix, std::vector<Delta>& out);

// Every file under a tree that one side lacks, as added or deleted.
Result<Unit> one_side(git_repository* repo, const git_tree_entry* e, const std::string& path,
                      bool added, std::vector<Delta>& out) {
    auto mode = git_tree_entry_filemode(e);
    if (mode == GIT_FILEMODE_COMMIT) return Unit{};  // submodules are not followed
    if (mode == GIT_FILEMODE_TREE) {
        TreeHandle t;
        if (git_tree_lookup(t.out(), repo, git_tree_entry_id(e)) < 0)
            return failure(fmt::format("cannot read tree {}", path));
        return added ? diff_trees(repo, nullptr, t.get(), path + "/", out)
                     : diff_trees(repo, t.get(), nullptr, path + "/", out);
    }
    Delta d;
    d.change = added ? Change::Added : Change::Deleted;
    d.old_path = d.new_path = path;
    (added ? d.new_oid : d.old_oid) = hex(git_tree_entry_id(e));
    (added ? d.new_kind : d.old_kind) = kind_of(mode);
    out.push_back(std::move(d));
    return Unit{};
}

// The name-level diff of two trees (either may be null: empty), recursing only into
// subtrees whose ids differ.
Result<Unit> diff_trees(git_repository* repo, const git_tree* a, const git_tree* b,
                        const std::string& prefix, std::vector<Delta>& out) {
    std::size_t na = a ? git_tree_entrycount(a) : 0, nb = b ? git_tree_entrycount(b) : 0;
    for (std::size_t i = 0, j = 0; i < na || j < nb;) {
        const git_tree_entry* x = i < na ? git_tree_entry_byindex(a, i) : nullptr;
        const git_tree_entry* y = j < nb ? git_tree_entry_byindex(b, j) : nullptr;
        int c = !x ? 1 : !y ? -1 : tree_order(x, y);
        if (c < 0) {
            if (auto r = one_side(repo, x, prefix + git_tree_entry_name(x), false, out); !r)
                return r;
            ++i;
            continue;
        }
        if (c > 0) {
            if (auto r = one_side(repo, y, prefix + git_tree_entry_name(y), true, out); !r) return r;
            ++j;
            continue;
        }
        ++i, ++j;
        auto mx = git_tree_entry_filemode(x), my = git_tree_entry_filemode(y);
        if (mx == my && git_oid_equal(git_tree_entry_id(x), git_tree_entry_id(y))) continue;
        std::string path = prefix + git_tree_entry_name(x);
        bool tx = mx == GIT_FILEMODE_TREE, ty = my == GIT_FILEMODE_TREE;
        if (tx && ty) {
            TreeHandle ta, tb;
            if (git_tree_lookup(ta.out(), repo, git_tree_entry_id(x)) < 0 ||
                git_tree_lookup(tb.out(), repo, git_tree_entry_id(y)) < 0)
                return failure(fmt::format("cannot read tree {}", path));
            if (auto r = diff_trees(repo, ta.get(), tb.get(), path + "/", out); !r) return r;
            continue;
        }
        if (tx || ty || (mx == GIT_FILEMODE_COMMIT) != (my == GIT_FILEMODE_COMMIT)) {
            // A directory or submodule became a file, or the other way round.
            if (auto r = one_side(repo, x, path, false, out); !r) return r;
            if (auto r = one_side(repo, y, path, true, out); !r) return r;
            continue;
        }
        if (mx == GIT_FILEMODE_COMMIT || my == GIT_FILEMODE_COMMIT) continue;  // submodules
        Delta d;
        d.old_path = d.new_path = path;
        d.old_oid = hex(git_tree_entry_id(x));
        d.new_oid = hex(git_tree_entry_id(y));
        d.old_kind = kind_of(mx);
        d.new_kind = kind_of(my);
        d.change = d.old_kind == d.new_kind ? Change::Modified : Change::TypeChanged;
        out.push_back(std::move(d));
    }
    return Unit{};
}

}  // namespace

namespace {

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

std::string Repository::index_file() const {
    return std::string(git_repository_path(repo_.get())) + "index";
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
        TreeHandle target_tree;
        if (auto r = read_commit_tree(objects.repo_.get(), *target, target_tree); !r)
            return r.error();
        // Our own walk: it skips every subtree whose id is unchanged, so its cost follows the
        // change, where libgit2 1.5's tree diff reads every tree of both commits (#6863).
        if (auto r =
                diff_trees(objects.repo_.get(), base_tree.get(), target_tree.get(), "", deltas);
            !r)
            return r.error();
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

Result<HunkInput> Diff::read_sides(const Delta& delta, const std::string* given_old,
                                   const std::string* given_new, const Repository* reader) const {
    const Repository& from = reader && !worktree_ ? *reader : *repo_;  // reads objects
    HunkInput in;
    in.old_path = delta.old_path;
    in.new_path = delta.new_path;
    in.has_old = delta.change != Change::Added;  // an added file diffs against nothing at base,
    in.has_new = delta.change != Change::Deleted;  // a deleted one against nothing at target
    // Sides over the size limit are not read: no line hunks from them.
    const std::uint64_t max = repo_->max_file_bytes();
    auto over = [&](const std::string& oid) -> Result<bool> {
        auto size = from.blob_size(oid);
        if (!size) return size.error();
        return size.value() > max;
    };
    if (worktree_) given_new = nullptr;  // a working-tree file is read converted, below
    if (in.has_old && !given_old) {
        auto big = over(delta.old_oid);
        if (!big) return big.error();
        in.too_large = big.value();
    }
    if (in.has_new && !given_new && !in.too_large) {
        if (worktree_) {
            struct stat st {};
            in.too_large = ::lstat((repo_->workdir() + delta.new_path).c_str(), &st) == 0 &&
                           std::uint64_t(st.st_size) > max;
        } else {
            auto big = over(delta.new_oid);
            if (!big) return big.error();
            in.too_large = big.value();
        }
    }
    if (in.too_large) return in;
    in.given_old = given_old;
    in.given_new = given_new;
    if (in.has_old && !given_old) {
        auto bytes = from.blob(delta.old_oid);
        if (!bytes) return bytes.error();
        in.owned_old = std::move(bytes).value();
    }
    if (!in.has_new || given_new) {
    } else if (worktree_) {
        auto file = partial_ ? repo_->read_worktree(delta.new_path)
                             : repo_->read_worktree_as_stored(delta.new_path);
        if (!file) return file.error();
        if (file.value()) in.owned_new = std::move(*file.value());
    } else {
        auto bytes = from.blob(delta.new_oid);
        if (!bytes) return bytes.error();
        in.owned_new = std::move(bytes).value();
    }
    return in;
}

Result<Hunks> line_hunks(const HunkInput& in, DiffAttribute old_attribute,
                         DiffAttribute new_attribute) {
    if (in.too_large) return Hunks{false, true, {}};
    // Binary as git diff decides: the diff attribute first, then the content.
    auto binary = [&](DiffAttribute attribute, std::string_view bytes) {
        switch (attribute) {
            case DiffAttribute::Binary: return true;
            case DiffAttribute::Text: return false;
            case DiffAttribute::Unset: return text::looks_binary(bytes);
        }
        return false;
    };
    if ((in.has_old && binary(old_attribute, in.old_bytes())) ||
        (in.has_new && binary(new_attribute, in.new_bytes())))
        return Hunks{true, false, {}};

    std::string_view a = in.old_bytes(), b = in.new_bytes();
    trim_common_tail(a, b);
    if (a.size() > kXdiffMaxSize || b.size() > kXdiffMaxSize)  // libgit2 calls them binary
        return Hunks{true, false, {}};
    init_library();  // xdiff allocates through libgit2's allocator
    Hunks out;
    XdiffMmfile old_file{const_cast<char*>(a.data()), long(a.size())};
    XdiffMmfile new_file{const_cast<char*>(b.data()), long(b.size())};
    XdiffParam param{};
    param.flags = kXdfIndentHeuristic;  // git diff's default, as GIT_DIFF_INDENT_HEURISTIC
    XdiffEmitConf conf{};  // -U0: no context, hunks never joined across unchanged lines
    conf.hunk_func = [](long old_at, long old_count, long new_at, long new_count,
                        void* to) -> int {
        // 0-based first lines as xdiff counts them; a hunk header (and libgit2's hunks) names
        // the line before an empty side.
        auto& hunks = static_cast<Hunks*>(to)->hunks;
        hunks.push_back({old_count ? old_at + 1 : old_at, old_count,
                         new_count ? new_at + 1 : new_at, new_count});
        return 0;
    };
    XdiffEmitCallback callback{};
    callback.priv = &out;
    if (xdl_diff(&old_file, &new_file, &param, &conf, &callback) < 0)
        return Error{fmt::format("cannot diff {}: out of memory", in.new_path)};
    return out;
}

DiffAttribute Diff::diff_attribute(const std::string& path) const {
    return repo_->diff_attribute(path);
}

Result<Hunks> Diff::hunks(const Delta& delta, const std::string* old_bytes,
                          const std::string* new_bytes) const {
    auto in = read_sides(delta, old_bytes, new_bytes);
    if (!in) return in.error();
    return line_hunks(in.value(), diff_attribute(delta.old_path),
                      diff_attribute(delta.new_path));
}

}  // namespace cp::git
