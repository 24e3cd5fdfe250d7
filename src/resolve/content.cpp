#include "context_pack/resolve/content.hpp"

#include "context_pack/core/text.hpp"

namespace cp {

Result<const std::string*> Content::blob(const std::string& oid, std::string_view of) {
    auto it = blobs_.find(oid);
    if (it == blobs_.end()) {
        auto bytes = repo_.blob_within_limit(oid, of);
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
            if (!bytes.value()) {
                // Outside a sparse checkout, the file as git counts it is the index's blob.
                auto sparse = repo_.not_checked_out(path);
                if (!sparse) return sparse.error();
                if (sparse.value()) {
                    auto kept =
                        blob(*sparse.value(), "of " + text::printable(path) + " in the index");
                    if (!kept) return kept.error();
                    if (kept.value()) bytes.value() = *kept.value();
                }
            }
            it = worktree_.emplace(path, std::move(bytes).value()).first;
        }
        return it->second ? &*it->second : nullptr;
    }
    auto key = *target + ":" + path;
    auto it = at_commit_.find(key);
    if (it == at_commit_.end()) {
        auto found = repo_.lookup(*target, path);
        if (!found && found.error().unreadable_object())
            return Error{text::printable(path) + " at target: " + found.error().message,
                         found.error().object};
        if (!found) return found.error();
        std::optional<std::string> oid;
        if (found->entry && found->entry->kind == git::EntryKind::File) oid = found->entry->oid;
        it = at_commit_.emplace(key, oid).first;
    }
    if (!it->second) return static_cast<const std::string*>(nullptr);
    return blob(*it->second, "of " + text::printable(path) + " at target");
}

Result<std::optional<std::string>> Content::blob_id(const std::optional<std::string>& target,
                                                    const std::string& path) {
    using Id = std::optional<std::string>;
    if (target) {
        auto found = repo_.lookup(*target, path);
        if (!found && found.error().unreadable_object()) return Id();
        if (!found) return found.error();
        if (!found->entry || found->entry->kind != git::EntryKind::File) return Id();
        return Id(found->entry->oid);
    }
    auto it = worktree_ids_.find(path);
    if (it == worktree_ids_.end()) {
        auto id = repo_.worktree_blob_id(path);
        if (!id) return id.error();
        if (!id.value()) {  // outside a sparse checkout, the index's blob, as git counts it
            auto sparse = repo_.not_checked_out(path);
            if (!sparse) return sparse.error();
            id.value() = sparse.value();
        }
        it = worktree_ids_.emplace(path, std::move(id).value()).first;
    }
    return it->second;
}

}  // namespace cp
