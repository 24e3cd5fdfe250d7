#include "context_pack/resolve/content.hpp"

namespace cp {

Result<const std::string*> Content::blob(const std::string& oid) {
    auto it = blobs_.find(oid);
    if (it == blobs_.end()) {
        auto bytes = repo_.blob_within_limit(oid);
        if (!bytes) return bytes.error();
        if (!bytes.value()) return static_cast<const std::string*>(nullptr);
        it = blobs_.emplace(oid, std::move(*bytes.value())).first;
    }
    return &it->second;
}

Result<const std::string*> Content::file(const std::optional<std::string>& target,
                                         const std::string& path) {
    if (!target) {
        auto it = worktree_.find(path);
        if (it == worktree_.end()) {
            auto bytes = repo_.read_worktree(path);
            if (!bytes) return bytes.error();
            it = worktree_.emplace(path, std::move(bytes).value()).first;
        }
        return it->second ? &*it->second : nullptr;
    }
    auto key = *target + ":" + path;
    auto it = at_commit_.find(key);
    if (it == at_commit_.end()) {
        auto found = repo_.lookup(*target, path);
        if (!found) return found.error();
        std::optional<std::string> oid;
        if (found->entry && found->entry->kind == git::EntryKind::File) oid = found->entry->oid;
        it = at_commit_.emplace(key, oid).first;
    }
    if (!it->second) return static_cast<const std::string*>(nullptr);
    return blob(*it->second);
}

}  // namespace cp
