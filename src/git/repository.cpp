// Opening a repository (and its readers), revisions, blobs by id, and the handle's lifetime.
#include <fmt/format.h>
#include <git2/sys/repository.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <mutex>
#include <shared_mutex>

#include "caches.hpp"
#include "context_pack/core/text.hpp"
#include "context_pack/sys/fs.hpp"
#include "object_store.hpp"

namespace cp::git {
namespace {

// Whether a count in a revision (`~N`, `^N`, `@{N}`, `@{-N}`) is past what git takes (an
// int): libgit2 1.5 wraps such a count around, and `main@{9999999999999999999}` would name
// the branch's tip.
bool has_count_out_of_range(std::string_view rev) {
    for (std::size_t i = 0; i < rev.size(); ++i) {
        std::size_t start = i + 1;
        if (rev[i] == '@' && start < rev.size() && rev[start] == '{')
            ++start;
        else if (rev[i] != '~' && rev[i] != '^')
            continue;
        if (start < rev.size() && rev[start] == '-') ++start;
        std::size_t end = start;
        while (end < rev.size() && rev[end] >= '0' && rev[end] <= '9') ++end;
        std::string_view digits = rev.substr(start, end - start);
        while (digits.size() > 1 && digits.front() == '0') digits.remove_prefix(1);
        if (digits.size() > 10 || (digits.size() == 10 && digits > "2147483647")) return true;
    }
    return false;
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
    walk.found.erase(
        std::unique(walk.found.begin(), walk.found.end(),
                    [](const git_oid& a, const git_oid& b) { return git_oid_equal(&a, &b); }),
        walk.found.end());
    for (const auto& id : walk.found) {
        size_t len = 0;
        git_object_t type = GIT_OBJECT_INVALID;
        git_odb_read_header(&len, &type, odb.get(), &id);
        out.push_back(fmt::format("{} {}", hex(&id), git_object_type2string(type)));
    }
    return out;
}

// core.maxTreeDepth, as git reads it: a positive integer, else the default.
Result<std::size_t> read_max_tree_depth(git_repository* raw) {
    Handle<git_config, git_config_free> config;
    if (git_repository_config_snapshot(config.out(), raw) < 0)
        return failure("cannot read the repository's configuration");
    auto depth = config_int(config.get(), "core.maxTreeDepth", kDefaultMaxTreeDepth);
    if (!depth || *depth < 1)
        return Error{
            "core.maxTreeDepth must be a positive integer; fix it with git config "
            "core.maxTreeDepth 4096"};
    return static_cast<std::size_t>(*depth);
}

// The promisor remote of a partial clone, as git finds it: extensions.partialClone, else the
// first remote whose remote.<name>.promisor is true. Empty when there is none.
std::string read_promisor_remote(git_repository* raw) {
    Handle<git_config, git_config_free> config;
    if (git_repository_config_snapshot(config.out(), raw) < 0) {
        git_error_clear();
        return {};
    }
    std::string found;
    git_buf named = GIT_BUF_INIT;
    if (git_config_get_string_buf(&named, config.get(), "extensions.partialclone") == 0)
        found = named.ptr;
    git_buf_dispose(&named);
    // Every entry, filtered here: libgit2 1.5's glob iterator leaks its regex match data.
    git_config_iterator* it = nullptr;
    if (found.empty() && git_config_iterator_new(&it, config.get()) == 0) {
        git_config_entry* entry = nullptr;
        while (found.empty() && git_config_next(&entry, it) == 0) {
            int on = 0;
            std::string_view name = entry->name;  // remote.<name>.promisor, the name as written
            if (name.size() > 16 && name.starts_with("remote.") && name.ends_with(".promisor") &&
                git_config_parse_bool(&on, entry->value) == 0 && on)
                found = name.substr(7, name.size() - 7 - 9);
        }
        git_config_iterator_free(it);
    }
    git_error_clear();
    return found;
}

// `path` taken from `dir`, as git takes a relative path from the directory it runs in.
std::string absolute_from(const std::string& dir, const std::string& path) {
    std::error_code ec;
    auto whole = std::filesystem::absolute(std::filesystem::path(dir) / path, ec);
    return (ec ? std::filesystem::path(dir) / path : whole).lexically_normal().string();
}

// The entries of a ':'-separated list of paths, as git splits GIT_ALTERNATE_OBJECT_DIRECTORIES.
std::vector<std::string> split_paths(const std::string& list) {
    std::vector<std::string> out;
    for (std::size_t pos = 0; pos <= list.size();) {
        std::size_t end = std::min(list.find(':', pos), list.size());
        if (end > pos) out.push_back(list.substr(pos, end - pos));
        pos = end + 1;
    }
    return out;
}

bool is_directory(const std::string& path) {
    std::error_code ec;
    return std::filesystem::is_directory(path, ec);
}

// Whether the repository's configuration sets core.worktree.
bool has_core_worktree(git_repository* raw) {
    Handle<git_config, git_config_free> config;
    if (git_repository_config_snapshot(config.out(), raw) < 0) return false;
    git_config_entry* entry = nullptr;
    int rc = git_config_get_entry(&entry, config.get(), "core.worktree");
    git_config_entry_free(entry);
    git_error_clear();
    return rc == 0;
}

// What a repository format extension libgit2 refuses says, as one line: the object format
// (extensions.objectFormat, e.g. sha256; libgit2 1.5 names the extension, 1.9 says "unknown
// object format") or ref storage (extensions.refStorage, e.g. reftable) it names, read from
// the repository's config at `start`. Empty for another error.
std::string unsupported_format(const std::string& start, const char* ceiling) {
    const git_error* e = git_error_last();
    if (!e || !e->message) return {};
    const std::string detail = e->message;
    const char* key = detail.find("extensions.objectformat") != std::string::npos ||
                              detail.find("unknown object format") != std::string::npos
                          ? "extensions.objectFormat"
                      : detail.find("extensions.refstorage") != std::string::npos
                          ? "extensions.refStorage"
                          : nullptr;
    if (!key) return {};
    std::string value = "?";
    git_buf found = GIT_BUF_INIT;
    if (git_repository_discover(&found, start.c_str(), 0, ceiling) == 0) {
        Handle<git_config, git_config_free> config;
        git_buf named = GIT_BUF_INIT;
        if (git_config_open_ondisk(config.out(), (std::string(found.ptr) + "config").c_str()) ==
                0 &&
            git_config_get_string_buf(&named, config.get(), key) == 0)
            value = named.ptr;
        git_buf_dispose(&named);
    }
    git_buf_dispose(&found);
    git_error_clear();
    int major = 0, minor = 0, patch = 0;
    git_libgit2_version(&major, &minor, &patch);
    return std::string(key) == "extensions.objectFormat"
               ? fmt::format(
                     "the repository stores objects as {} ({} = {}), which this tool "
                     "(libgit2 {}.{}) cannot read; only SHA-1 repositories are supported",
                     text::printable(value), key, text::printable(value), major, minor)
               : fmt::format(
                     "the repository keeps its refs in {} ({} = {}), which this tool "
                     "(libgit2 {}.{}) cannot read; only the files ref storage is supported",
                     text::printable(value), key, text::printable(value), major, minor);
}

}  // namespace

Environment Environment::of_process() {
    auto get = [](const char* name) -> std::optional<std::string> {
        const char* value = std::getenv(name);
        if (!value) return std::nullopt;
        return std::string(value);
    };
    Environment env;
    env.git_dir = get("GIT_DIR");
    env.work_tree = get("GIT_WORK_TREE");
    env.index_file = get("GIT_INDEX_FILE");
    env.object_directory = get("GIT_OBJECT_DIRECTORY");
    env.alternates = get("GIT_ALTERNATE_OBJECT_DIRECTORIES");
    env.ceiling_directories = get("GIT_CEILING_DIRECTORIES");
    return env;
}

// The environment's working tree, index and object directories, on the handle open() made.
Repository::Place Repository::place_of(const ObjectDirectory& objects) {
    return {objects.alternate ? "alternate object directory" : "object directory", objects.path,
            !objects.from_environment ? nullptr
            : objects.alternate       ? "GIT_ALTERNATE_OBJECT_DIRECTORIES"
                                      : "GIT_OBJECT_DIRECTORY"};
}

Result<Unit> Repository::take_environment(const std::string& dir, const Environment& env,
                                          const Admit& admit) {
    git_repository* raw = repo_.get();
    if (env.work_tree) {
        if (env.work_tree->empty() || !is_directory(absolute_from(dir, *env.work_tree)))
            return Error{
                fmt::format("GIT_WORK_TREE names {}, which is not a directory; unset it or fix it",
                            text::printable(*env.work_tree))};
        if (set_workdir(raw, absolute_from(dir, *env.work_tree)) < 0)
            return failure("cannot use the working tree GIT_WORK_TREE names");
    } else if (env.git_dir && !git_repository_is_bare(raw) && !has_core_worktree(raw)) {
        // git: with GIT_DIR and neither GIT_WORK_TREE nor core.worktree, the working tree is
        // the directory git runs in.
        if (set_workdir(raw, absolute_from(dir, ".")) < 0)
            return failure("cannot use the current directory as the working tree");
    }
    // The front end's word on a place, asked before the place is looked at.
    auto ask = [&admit](const Place& place) { return admit ? admit(place) : Result<Unit>(Unit{}); };
    // The places git found, before they are read (libgit2 has read the git directory's
    // config and HEAD to open it).
    if (admit) {  // named only for a front end that asks
        std::vector<Place> places;
        if (!workdir().empty())
            places.push_back({"working tree", workdir(),
                              env.work_tree ? "GIT_WORK_TREE"
                              : env.git_dir ? "GIT_DIR"
                                            : nullptr});
        places.push_back({"git directory", git_dir(), env.git_dir ? "GIT_DIR" : nullptr});
        if (common_dir() != git_dir()) places.push_back({"common git directory", common_dir()});
        for (const Place& place : places)
            if (auto admitted = admit(place); !admitted) return admitted;
    }
    // git takes these after moving to the top of the working tree (the git dir when bare).
    const std::string top =
        git_repository_workdir(raw) ? git_repository_workdir(raw) : git_repository_path(raw);
    if (env.object_directory) {
        settings_.object_directory = absolute_from(top, *env.object_directory);
        if (auto admitted = ask(place_of({settings_.object_directory, false, true})); !admitted)
            return admitted;
        if (env.object_directory->empty() || !is_directory(settings_.object_directory))
            return Error{fmt::format(
                "GIT_OBJECT_DIRECTORY names {}, which is not a directory; unset it or fix it",
                text::printable(*env.object_directory))};
    }
    if (env.alternates)
        for (const auto& alternate : split_paths(*env.alternates))
            settings_.alternates.push_back(absolute_from(top, alternate));
    // The git directory's own files (HEAD, config, index, packed-refs, refs at every level)
    // are regular files before libgit2 opens one; the object directories' are checked as
    // they are assembled, a loose object as it is read.
    for (const std::string& own : {git_dir(), common_dir()}) {
        if (auto refused = refuse_special_files(own, 0); !refused) return refused.error();
        if (auto refused = refuse_special_files(own + "refs", 16); !refused) return refused.error();
    }
    auto used = use_object_store(raw, settings_.object_directory, settings_.alternates, admit);
    if (!used) return used.error();
    settings_.object_dirs = std::move(used).value();
    if (env.index_file && !env.index_file->empty()) {
        settings_.index_file = absolute_from(top, *env.index_file);
        if (auto admitted = ask({"index", index_file(), "GIT_INDEX_FILE"}); !admitted)
            return admitted;
        if (auto refused = refuse_special_file(settings_.index_file, " or unset GIT_INDEX_FILE");
            !refused)
            return refused.error();
        return set_index_file(raw, settings_.index_file, "the index GIT_INDEX_FILE names",
                              settings_.names);
    }
    return ask({"index", index_file()});  // through a symlink, perhaps
}

git_repository* raw_handle(const Repository& repo) {
    return repo.repo_.get();
}

Repository::Repository()
    : trees_(std::make_unique<Trees>()), attributes_(std::make_unique<Attributes>()) {}
Repository::Repository(Repository&&) noexcept = default;
Repository& Repository::operator=(Repository&& other) noexcept {
    trees_ = std::move(other.trees_);  // trees go before the repository that owns them
    attributes_ = std::move(other.attributes_);
    repo_ = std::move(other.repo_);
    scan_worktree_ = other.scan_worktree_;
    settings_ = std::move(other.settings_);
    return *this;
}
Repository::~Repository() = default;  // the caches are declared after repo_: they go first

namespace {

// libgit2's ownership check is one switch for the whole process: an open (shared) never
// overlaps the retry that turns it off (exclusive), which MCP calls on their own threads
// could otherwise race.
std::shared_mutex& owner_validation_lock() {
    static std::shared_mutex lock;
    return lock;
}

}  // namespace

Result<Repository> Repository::open(const std::string& dir, const OptionNames& names,
                                    const Environment& env, const Admit& admit) {
    init_library();
    // A file is no place to start from (git -C: "cannot change to 'a.c': Not a directory"),
    // though libgit2 would search up from the directory holding it.
    std::error_code ec;
    if (const auto st = std::filesystem::status(dir.empty() ? "." : dir, ec);
        !ec && std::filesystem::exists(st) && !std::filesystem::is_directory(st))
        return Error{
            fmt::format("cannot open the repository at '{}': not a directory; name "
                        "the repository's directory",
                        text::printable(dir))};
    // As git: GIT_DIR names the git dir itself, no search; else a search up from `dir` that
    // stops below each ceiling directory.
    std::string start = dir;
    unsigned flags = 0;
    const char* ceiling = nullptr;
    if (env.git_dir) {
        if (env.git_dir->empty())
            return Error{"GIT_DIR is set but empty; unset it or name the repository's git dir"};
        start = absolute_from(dir, *env.git_dir);
        flags = GIT_REPOSITORY_OPEN_NO_SEARCH | GIT_REPOSITORY_OPEN_NO_DOTGIT;
    } else if (env.ceiling_directories) {
        ceiling = env.ceiling_directories->c_str();
    }
    git_repository* raw = nullptr;
    int opened;
    {
        std::shared_lock validated(owner_validation_lock());
        opened = git_repository_open_ext(&raw, start.c_str(), flags, ceiling);
    }
    if (opened == 0) {
        Repository repo;
        repo.repo_.reset(raw);
        repo.settings_.names = names;
        if (auto taken = repo.take_environment(dir, env, admit); !taken) return taken.error();
        repo.settings_.promisor_remote = read_promisor_remote(raw);
        if (auto depth = read_max_tree_depth(raw); !depth)
            return depth.error();
        else
            repo.settings_.max_tree_depth = depth.value();
        return repo;
    }
    if (auto format = unsupported_format(start, ceiling); !format.empty()) return Error{format};
    Error error = failure("cannot open the repository");
    // libgit2 1.5 reports a safe.directory refusal as a config lookup failure: try again
    // without the ownership check only to tell that case apart, then refuse all the same.
    int retry;
    {
        std::unique_lock unvalidated(owner_validation_lock());
        git_libgit2_opts(GIT_OPT_SET_OWNER_VALIDATION, 0);
        retry = git_repository_open_ext(&raw, start.c_str(), flags, ceiling);
        git_libgit2_opts(GIT_OPT_SET_OWNER_VALIDATION, 1);
    }
    if (retry == 0) {
        std::string where =
            git_repository_workdir(raw) ? git_repository_workdir(raw) : git_repository_path(raw);
        if (where.size() > 1 && where.back() == '/') where.pop_back();
        git_repository_free(raw);
        return Error{
            fmt::format("the repository at {} is owned by another user; if you trust it, run: "
                        "git config --global --add safe.directory {}",
                        text::printable(where), text::shell_word(where))};
    }
    const git_error* e = git_error_last();
    const bool absent =
        e && ((e->klass == GIT_ERROR_REPOSITORY && std::strstr(e->message, "could not find")) ||
              e->klass == GIT_ERROR_OS);
    if (absent && env.git_dir)
        return Error{
            fmt::format("GIT_DIR names {}, which is not a git repository; unset it or fix it",
                        text::printable(*env.git_dir))};
    if (e && e->klass == GIT_ERROR_REPOSITORY && std::strstr(e->message, "could not find")) {
        if (env.git_dir)
            return Error{
                fmt::format("GIT_DIR names {}, which is not a git repository; unset it or fix it",
                            text::printable(*env.git_dir))};
        return Error{fmt::format(
            "not a git repository (or any parent up to {}): {}; run inside one or pass {}",
            ceiling ? "GIT_CEILING_DIRECTORIES" : "/", text::printable(dir), names.repo.give)};
    }
    return error;
}

Result<Repository> Repository::open_reader() const {
    git_repository* raw = nullptr;
    if (git_repository_open_ext(&raw, git_repository_path(repo_.get()),
                                GIT_REPOSITORY_OPEN_NO_SEARCH | GIT_REPOSITORY_OPEN_BARE,
                                nullptr) < 0)
        return failure("cannot open the repository again");
    Repository reader;
    reader.repo_.reset(raw);
    // The same working tree and index, for what a pair of commits asks of them: the diff
    // attribute (.gitattributes on disk, then in the index).
    if (const char* work = git_repository_workdir(repo_.get()); work && set_workdir(raw, work) < 0)
        return failure("cannot open the repository again");
    if (auto used = use_object_store(raw, settings_.object_directory, settings_.alternates); !used)
        return used.error();
    if (!settings_.index_file.empty())
        if (auto set = set_index_file(raw, settings_.index_file, "the index GIT_INDEX_FILE names",
                                      settings_.names);
            !set)
            return set.error();
    reader.settings_ = settings_;
    return reader;
}

bool Repository::is_bare() const {
    return git_repository_is_bare(repo_.get());
}

std::vector<std::string> Repository::packs_without_data() const {
    std::vector<std::string> out;
    for (const ObjectDirectory& objects : object_directories()) {
        const std::string pack = objects.path + "/pack/";
        sys::Dir dir = sys::Dir::open(pack);
        auto entries = dir.is_open() ? dir.list() : std::nullopt;
        if (!entries) continue;
        for (const auto& e : *entries) {
            if (!e.name.ends_with(".idx")) continue;
            const std::string data = e.name.substr(0, e.name.size() - 4) + ".pack";
            if (!sys::stat(pack + data)) out.push_back(pack + e.name);
        }
    }
    std::sort(out.begin(), out.end());
    return out;
}

bool Repository::is_empty() const {
    const int empty = git_repository_is_empty(repo_.get());
    if (empty < 0) git_error_clear();
    return empty == 1;
}

bool Repository::is_shallow() const {
    return git_repository_is_shallow(repo_.get()) == 1;
}

std::string Repository::workdir() const {
    const char* w = git_repository_workdir(repo_.get());
    return w ? w : "";
}

std::string Repository::git_dir() const {
    return git_repository_path(repo_.get());
}

std::string Repository::common_dir() const {
    return git_repository_commondir(repo_.get());
}

Revision Repository::resolve_commit(std::string_view rev) const {
    Revision out;
    std::string spec(rev);
    ObjectHandle obj;
    // libgit2 would read up to a NUL byte: "main\0x" is no revision, not main.
    int rc = rev.empty() || has_count_out_of_range(rev) || rev.find('\0') != std::string_view::npos
                 ? GIT_EINVALIDSPEC
                 : git_revparse_single(obj.out(), repo_.get(), spec.c_str());
    if (rc == GIT_EAMBIGUOUS) {
        out.outcome = Revision::Outcome::Ambiguous;
        if (is_hex_prefix(rev)) out.candidates = ambiguous_candidates(repo_.get(), rev);
        return out;
    }
    if (rc == GIT_EINVALIDSPEC) {
        out.outcome = Revision::Outcome::Invalid;
        return out;
    }
    if (rc < 0) return unreadable_revision(spec, rc);
    ObjectHandle commit;
    if (git_object_peel(commit.out(), obj.get(), GIT_OBJECT_COMMIT) < 0) {
        // A tag whose target the store cannot give is that target's failure.
        git_error_clear();
        if (git_object_type(obj.get()) == GIT_OBJECT_TAG) {
            const git_oid* target = git_tag_target_id(reinterpret_cast<git_tag*>(obj.get()));
            ObjectHandle pointed;
            if (int read = git_object_lookup(pointed.out(), repo_.get(), target, GIT_OBJECT_ANY);
                read < 0) {
                out.outcome = Revision::Outcome::Missing;
                out.oid = hex(target);
                out.problem = unreadable(*this, read, "object", *target).error.message;
                return out;
            }
        }
        out.outcome = Revision::Outcome::NotACommit;
        out.oid = hex(git_object_id(obj.get()));
        return out;
    }
    out.oid = hex(git_object_id(commit.get()));
    // Every use of a commit reads its tree: a tree the store cannot give makes it unusable.
    const git_oid* tree_id = git_commit_tree_id(reinterpret_cast<git_commit*>(commit.get()));
    TreeHandle tree;
    if (int read = git_tree_lookup(tree.out(), repo_.get(), tree_id); read < 0) {
        out.outcome = Revision::Outcome::Missing;
        out.problem =
            unreadable(*this, read, "tree", *tree_id, "of commit " + text::short_oid(out.oid))
                .error.message;
        return out;
    }
    out.outcome = Revision::Outcome::Commit;
    return out;
}

// Why `spec` named nothing: absent (NotFound), or an object it leads to that the store cannot
// give (Missing: a reference to a missing object, a damaged one), which is no absence.
// `rc` and libgit2's last error are git_revparse_single's.
Revision Repository::unreadable_revision(const std::string& spec, int rc) const {
    memory_ran_out();
    Revision out;
    const git_error* e = git_error_last();
    const int klass = e ? e->klass : GIT_ERROR_NONE;
    const std::string detail = e && e->message ? e->message : "";
    if (rc == GIT_ENOTFOUND && klass != GIT_ERROR_ODB) {  // no object, no reference, by that name
        git_error_clear();
        return out;
    }
    // The object it names: a whole id, a reference's, or the one a unique prefix names.
    git_oid named;
    bool known = spec.size() == GIT_OID_HEXSZ && git_oid_fromstr(&named, spec.c_str()) == 0;
    if (!known) {  // a reference, by its full name or as git dwims a short one
        Handle<git_reference, git_reference_free> ref, direct;
        known = git_reference_dwim(ref.out(), repo_.get(), spec.c_str()) == 0 &&
                git_reference_resolve(direct.out(), ref.get()) == 0 &&
                git_reference_target(direct.get());
        if (known) git_oid_cpy(&named, git_reference_target(direct.get()));
    }
    if (!known && is_hex_prefix(spec)) {
        git_oid prefix;
        OdbHandle odb;
        known = git_oid_fromstrn(&prefix, spec.c_str(), spec.size()) == 0 &&
                git_repository_odb(odb.out(), repo_.get()) == 0 &&
                git_odb_exists_prefix(&named, odb.get(), &prefix, spec.size()) == 0;
    }
    const char* kind = "object";
    if (known) {
        OdbHandle odb;
        size_t size = 0;
        git_object_t type = GIT_OBJECT_INVALID;
        if (git_repository_odb(odb.out(), repo_.get()) == 0 &&
            git_odb_read_header(&size, &type, odb.get(), &named) == 0)
            kind = git_object_type2string(type);
    }
    out.outcome = Revision::Outcome::Missing;
    if (!known) {
        git_error_clear();
        out.problem = fmt::format(
            "an object it leads to cannot be read ({}): git fsck names what is broken; restore "
            "it from a good clone of the repository",
            text::printable(detail));
        return out;
    }
    git_error_set_str(klass, detail.c_str());  // as the revision's read left it
    out.oid = hex(&named);
    out.problem = unreadable(*this, rc, kind, named).error.message;
    return out;
}

Result<std::string> Repository::head_commit() const {
    git_oid oid;
    if (git_reference_name_to_id(&oid, repo_.get(), "HEAD") < 0)
        return failure("cannot resolve HEAD");
    return hex(&oid);
}

Result<std::optional<std::string>> Repository::head_commit_if_born() const {
    int unborn = git_repository_head_unborn(repo_.get());
    if (unborn < 0) return failure("cannot read HEAD");
    if (unborn == 1) return std::optional<std::string>();
    auto head = head_commit();
    if (!head) return head.error();
    return std::optional<std::string>(std::move(head).value());
}

Result<std::string> Repository::blob(const std::string& oid_hex, std::string_view of) const {
    git_oid oid;
    if (git_oid_fromstr(&oid, oid_hex.c_str()) < 0) return failure("bad object id");
    BlobHandle blob;
    if (int rc = git_blob_lookup(blob.out(), repo_.get(), &oid); rc < 0)
        return unreadable(*this, rc, "blob", oid, of).error;
    auto size = static_cast<std::size_t>(git_blob_rawsize(blob.get()));
    return std::string(static_cast<const char*>(git_blob_rawcontent(blob.get())), size);
}

Result<std::uint64_t> Repository::blob_size(const std::string& oid_hex, std::string_view of) const {
    git_oid oid;
    if (git_oid_fromstr(&oid, oid_hex.c_str()) < 0) return failure("bad object id");
    OdbHandle odb;
    if (git_repository_odb(odb.out(), repo_.get()) < 0) return failure("cannot open the odb");
    size_t size = 0;
    git_object_t type = GIT_OBJECT_INVALID;
    if (int rc = git_odb_read_header(&size, &type, odb.get(), &oid); rc < 0)
        return unreadable(*this, rc, "blob", oid, of).error;
    return std::uint64_t(size);
}

Result<std::optional<std::string>> Repository::blob_within_limit(const std::string& oid,
                                                                 std::string_view of) const {
    auto size = blob_size(oid, of);
    if (!size) return size.error();
    if (size.value() > settings_.max_file_bytes) return std::optional<std::string>();
    auto bytes = blob(oid, of);
    if (!bytes) return bytes.error();
    return std::optional<std::string>(std::move(bytes).value());
}

std::string Repository::index_file() const {
    if (!settings_.index_file.empty()) return settings_.index_file;
    return std::string(git_repository_path(repo_.get())) + "index";
}

}  // namespace cp::git
