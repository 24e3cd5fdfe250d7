// Attributes: the diff attribute of a path, cached for the run, and the handle attributes are
// asked of (one with an empty index where that gives git's answers, so that libgit2 does not
// load the real index).
#include <fmt/format.h>
#include <git2/sys/repository.h>
#include <sys/stat.h>

#include "caches.hpp"
#include "context_pack/git/index_file.hpp"

namespace cp::git {

DiffAttribute Repository::diff_attribute(const std::string& path) const {
    auto known = attributes_->diff_attribute.find(path);
    if (known != attributes_->diff_attribute.end()) return known->second;
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
    if (git_repository_set_workdir(raw, workdir().c_str(), 0) < 0)
        return failure("cannot open the repository again");
    out.stores_ = stores_;
    out.max_file_bytes_ = max_file_bytes_;
    out.names_ = names_;
    out.max_tree_depth_ = max_tree_depth_;
    out.attributes_->decided = true;          // its attributes are asked of itself
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

DiffAttribute Diff::diff_attribute(const std::string& path) const {
    return repo_->diff_attribute(path);
}

}  // namespace cp::git
