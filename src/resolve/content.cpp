#include "context_pack/resolve/content.hpp"

#include <algorithm>

#include "context_pack/core/text.hpp"

namespace cp {

const Bytes& Content::keep(const std::string& oid, std::string bytes) {
    const std::uint64_t size = bytes.size();
    uses_.push_front(oid);
    auto& kept = blobs_[oid] =
        Kept{std::make_shared<const std::string>(std::move(bytes)), uses_.begin()};
    kept_ += size;
    // The least recently used go first; the one just kept stays, even alone over the budget.
    while (kept_ > budget_ && uses_.size() > 1) {
        auto last = blobs_.find(uses_.back());
        kept_ -= last->second.bytes->size();
        blobs_.erase(last);
        uses_.pop_back();
    }
    peak_ = std::max(peak_, kept_);
    return kept.bytes;
}

void Content::adopt(const std::string& oid, std::string bytes) {
    if (!blobs_.count(oid)) keep(oid, std::move(bytes));
}

Result<Bytes> Content::blob(const std::string& oid, std::string_view of) {
    if (auto it = blobs_.find(oid); it != blobs_.end()) {
        uses_.splice(uses_.begin(), uses_, it->second.use);
        return it->second.bytes;
    }
    auto bytes = repo_.blob_within_limit(oid, of);
    if (!bytes) return bytes.error();
    if (!bytes.value()) return Bytes();
    return keep(oid, std::move(*bytes.value()));
}

Result<Bytes> Content::file(const std::optional<std::string>& target, const std::string& path) {
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
                    it = worktree_.emplace(path, kept.value()).first;
                    return it->second;
                }
            }
            Bytes kept;
            if (bytes.value())
                kept = std::make_shared<const std::string>(std::move(*bytes.value()));
            it = worktree_.emplace(path, std::move(kept)).first;
        }
        return it->second;
    }
    auto id = id_at(*target, path);
    if (!id && id.error().unreadable_object())
        return Error{text::printable(path) + " at target: " + id.error().message,
                     id.error().object};
    if (!id) return id.error();
    if (!*id.value()) return Bytes();
    return blob(**id.value(), "of " + text::printable(path) + " at target");
}

Result<const std::optional<std::string>*> Content::id_at(const std::string& commit,
                                                         const std::string& path) {
    auto key = commit + ":" + path;
    auto it = at_commit_.find(key);
    if (it == at_commit_.end()) {
        auto found = repo_.lookup(commit, path);
        if (!found) return found.error();
        std::optional<std::string> oid;
        if (found->entry && found->entry->kind == git::EntryKind::File) oid = found->entry->oid;
        it = at_commit_.emplace(std::move(key), std::move(oid)).first;
    }
    return &it->second;
}

Result<std::optional<std::string>> Content::blob_id(const std::optional<std::string>& target,
                                                    const std::string& path) {
    using Id = std::optional<std::string>;
    if (target) {
        auto id = id_at(*target, path);
        if (!id && id.error().unreadable_object()) return Id();
        if (!id) return id.error();
        return *id.value();
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
