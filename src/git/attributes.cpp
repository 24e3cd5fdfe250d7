// Attributes: the diff attribute of a path, cached for the run, and the handle attributes are
// asked of (one with an empty index where that gives git's answers, so that libgit2 does not
// load the real index).
#include <fmt/format.h>
#include <git2/sys/repository.h>

#include "caches.hpp"
#include "context_pack/core/text.hpp"
#include "context_pack/git/build_config.hpp"
#include "context_pack/git/index_file.hpp"
#include "context_pack/sys/fs.hpp"
#include "object_store.hpp"

namespace cp::git {
namespace {

// What a side file is when libgit2 must not open it; empty when it may (a regular file), or
// when libgit2 passes it by as absent (a directory).
std::string_view refused_kind(const sys::FileInfo& st) {
    switch (st.kind) {
        case sys::Kind::regular:
        case sys::Kind::directory:
            return {};
        case sys::Kind::symlink:
            return "a symlink";
        case sys::Kind::fifo:
            return "a FIFO";
        case sys::Kind::socket:
            return "a socket";
        case sys::Kind::char_device:
            return "a character device";
        case sys::Kind::block_device:
            return "a block device";
        case sys::Kind::other:
            break;
    }
    return "not a regular file";
}

Error refusal(const std::string& shown, std::string_view kind, std::string_view name) {
    const std::string rm = "rm " + text::shell_word(shown);
    if (kind == "a symlink")
        return Error{
            fmt::format("{} is a symlink; git ignores such a {} since 2.32, libgit2 "
                        "would follow it: remove it from the work tree ({}) or make it "
                        "a regular file",
                        shown, name, rm)};
    return Error{fmt::format("{} is {}, which libgit2 would open as a {} and {}: remove it ({})",
                             shown, kind, name,
                             kind == "a FIFO" ? "wait on forever" : "read as rules", rm)};
}

}  // namespace

Result<Unit> Repository::side_files_of(std::string_view path, SideFile which) const {
    const bool ignore = which == SideFile::Ignore;
    const std::string_view name = ignore ? ".gitignore" : ".gitattributes";
    auto& ok = attributes_->side_files_ok;
    // In the git directory: the owner's own, so a symlink there is followed, as git does; but
    // never a file that would block or be no file at all.
    const std::string info = ignore ? "info/exclude" : "info/attributes";
    if (!ok.contains(info)) {
        const std::string full = git_repository_commondir(repo_.get()) + info;
        auto st = sys::stat(full);
        if (st && !refused_kind(*st).empty()) return refusal(full, refused_kind(*st), info);
        ok.insert(info);
    }
    const std::string root = workdir();
    if (root.empty()) return Unit{};
    // The root's, then each directory's on the way to `path` (its last name is not one).
    std::string dir;
    for (std::size_t pos = 0;;) {
        const std::string key = dir + std::string(name);
        if (!ok.contains(key)) {
            auto st = sys::lstat(root + key);
            // A symlink: git passes it by, and so does the libgit2 built here.
            if (st && CONTEXT_PACK_TREE_SYMLINKS_IGNORED && st->kind == sys::Kind::symlink)
                attributes_->side_files_ignored.insert(key);
            else if (st && !refused_kind(*st).empty())
                return refusal(key, refused_kind(*st), name);
            ok.insert(key);
        }
        auto slash = path.find('/', pos);
        if (slash == std::string_view::npos) return Unit{};
        dir = std::string(path.substr(0, slash + 1));
        pos = slash + 1;
        // A directory on the way that is not one on disk (absent, a file): libgit2 finds
        // nothing beneath it. A symlink to a directory: an attribute question would look
        // through it, out of the tree; no ignore question is asked beneath it (neither diff
        // walks a symlink).
        if (!ok.contains(dir)) {
            const std::string shown = dir.substr(0, dir.size() - 1);
            auto st = sys::lstat(root + shown);
            if (!st || st->kind == sys::Kind::regular) return Unit{};
            if (st->kind == sys::Kind::symlink) {
                if (ignore) return Unit{};
                auto target = sys::stat(root + shown);
                if (!target || target->kind != sys::Kind::directory) return Unit{};
                return Error{
                    fmt::format("{} is a symlink in the work tree, through which "
                                "libgit2 would read {}{}: remove it (rm {})",
                                shown, dir, name, text::shell_word(shown))};
            }
            if (st->kind != sys::Kind::directory) return Unit{};
            ok.insert(dir);
        }
    }
}

std::vector<std::string> Repository::ignored_attributes(std::string_view path) const {
    // A side file refused on the way is said where attributes are asked, if they are.
    if (auto safe = side_files_of(path, SideFile::Attributes); !safe) return {};
    std::vector<std::string> out;
    for (const std::string& file : attributes_->side_files_ignored) {
        const std::string_view dir = std::string_view(file).substr(0, file.rfind('/') + 1);
        if (file.ends_with(".gitattributes") && path.starts_with(dir)) out.push_back(file);
    }
    return out;
}

Result<DiffAttribute> Repository::diff_attribute(const std::string& path) const {
    auto known = attributes_->diff_attribute.find(path);
    if (known != attributes_->diff_attribute.end()) return known->second;
    if (auto safe = side_files_of(path, SideFile::Attributes); !safe) return safe.error();
    DiffAttribute found = diff_attribute_uncached(path);
    attributes_->diff_attribute.emplace(path, found);
    return found;
}

Result<Repository> Repository::open_without_index() const {
    git_repository* raw = nullptr;
    // By its git dir, with this handle's working tree: the working tree may have no .git
    // (GIT_DIR and GIT_WORK_TREE), or another repository's.
    if (git_repository_open_ext(&raw, git_repository_path(repo_.get()),
                                GIT_REPOSITORY_OPEN_NO_SEARCH | GIT_REPOSITORY_OPEN_NO_DOTGIT,
                                nullptr) < 0)
        return failure("cannot open the repository again");
    Repository out;
    out.repo_.reset(raw);
    if (set_workdir(raw, workdir()) < 0) return failure("cannot open the repository again");
    if (auto used = use_object_store(raw, settings_.object_directory, settings_.alternates); !used)
        return used.error();
    out.settings_ = settings_;
    out.attributes_->decided = true;          // its attributes are asked of itself
    Handle<git_index, git_index_free> empty;  // the repository keeps its own reference
    if (git_index_new(empty.out()) < 0) return failure("cannot make an empty index");
    git_repository_set_index(raw, empty.get());
    return out;
}

const Repository& Repository::attribute_handle(
    const std::map<std::string, std::array<unsigned char, 20>>* tracked) const {
    if (!attributes_->decided) {
        attributes_->decided = true;
        const std::string root = workdir();
        std::optional<IndexLookup> read;
        if (!tracked && !root.empty()) {
            read = read_index_entries(index_file(), {});
            if (read) tracked = &read->attributes;
        }
        bool on_disk = !root.empty() && tracked;
        if (on_disk) {
            for (const auto& entry : *tracked) {
                auto st = on_disk ? sys::lstat(root + entry.first) : std::nullopt;
                on_disk = st && st->kind == sys::Kind::regular;
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
        case GIT_ATTR_VALUE_FALSE:
            return DiffAttribute::Binary;  // -diff, or the binary macro
        case GIT_ATTR_VALUE_TRUE:
            return DiffAttribute::Text;
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
        default:
            return DiffAttribute::Unset;
    }
}

Result<DiffAttribute> Diff::diff_attribute(const std::string& path) const {
    return repo_->diff_attribute(path);
}

}  // namespace cp::git
