#include "read_ahead.hpp"

#include <algorithm>

#include "context_pack/resolve/resolve.hpp"  // path_problem
#include "pairs.hpp"

namespace cp {

using git::Change;
using git::EntryKind;

void ReadAhead::wait() {
    for (auto& [key, diff] : diffs_) diff.wait();
    for (auto& [key, half] : staged_) half.wait();
    for (auto& [oid, read] : reads_) read.wait();
    for (auto& [key, fetched] : hunks_) fetched.wait();
}

void ReadAhead::plan(const std::vector<Spec>& specs, const std::vector<PairGroup>& groups,
                     Pairs& pairs) {
    specs_ = &specs;
    groups_ = &groups;
    pairs_ = &pairs;
}

void ReadAhead::advance(std::size_t g) {
    if (!pool_ || !groups_) return;
    const auto& groups = *groups_;
    // Diffs for as many pairs ahead as there are threads to make them, twice over.
    const std::size_t diffs_to = std::min(groups.size(), g + 2 * pool_->size() + 1);
    for (; diffs_queued_ < diffs_to; ++diffs_queued_) {
        const PairGroup& group = groups[diffs_queued_];
        if (!group.has_pair) continue;
        for (std::size_t i : group.specs) queue_diff(group, (*specs_)[i]);
    }
    // Reads for this pair and the next, which the pool makes while this one is resolved.
    const std::size_t reads_to = std::min(groups.size(), g + 2);
    for (scheduled_ = std::max(scheduled_, g); scheduled_ < reads_to; ++scheduled_) {
        const PairGroup& group = groups[scheduled_];
        if (!group.has_pair) continue;
        auto made = pairs_->get(group.base, group.target);
        if (!made) continue;
        for (std::size_t i : group.specs)
            for (const Anchor& a : (*specs_)[i].anchors) schedule(*made.value(), a);
    }
}

void ReadAhead::release(const Pair& p) {
    for (auto it = hunks_.lower_bound({&p, std::string()});
         it != hunks_.end() && it->first.first == &p;) {
        it->second.wait();
        it = hunks_.erase(it);
    }
    auto key = pair_key(p.base, p.target);
    if (auto read = reads_for_.find(key); read != reads_for_.end()) {
        for (const std::string& oid : read->second) collect_blob(oid);
        reads_for_.erase(read);
    }
}

void ReadAhead::queue_diff(const PairGroup& group, const Spec& spec) {
    const auto& target = group.target;
    auto key = pair_key(group.base, target);
    Pairs& pairs = *pairs_;
    // The working tree's diff stats files and reads attributes: it is made on the main
    // thread, while the pool makes its staged half and reads the anchored base blobs.
    if (!target && !pairs.has(key) && !staged_.count(key)) {
        staged_.emplace(key, pool_->run([base = group.base, index = repo_.index_file()](
                                            const git::Repository& reader) {
            return reader.staged_changes(base, index);
        }));
        for (const Anchor& a : spec.anchors) {
            if (path_problem(a.path)) continue;
            auto found = repo_.lookup(group.base, a.path);
            if (found && found->entry && found->entry->kind == EntryKind::File)
                read_blob(found->entry->oid, key);
        }
    }
    if (target && !pairs.has(key) && !diffs_.count(key)) {
        const std::vector<std::string>* only = pairs.rename_sources(key);  // outlives the task
        diffs_.emplace(key, pool_->run([&repo = repo_, base = group.base, target,
                                        only](const git::Repository& reader) {
            return repo.diff(base, target, &reader, nullptr, only);
        }));
    }
}

void ReadAhead::schedule(Pair& p, const Anchor& a) {
    if (path_problem(a.path) || !p.diff.answers_for(a.path)) return;
    const git::Delta* delta = p.diff.find_old(a.path);
    const std::string key = pair_key(p.base, p.target);
    if (!delta) {  // unchanged, or absent at base
        auto found = repo_.lookup(p.base, a.path);
        if (found && found->entry && found->entry->kind == EntryKind::File)
            read_blob(found->entry->oid, key);
        return;
    }
    if (delta->old_kind != EntryKind::File) return;
    if (delta->new_kind != EntryKind::File || delta->change == Change::Deleted ||
        delta->change == Change::TypeChanged) {
        read_blob(delta->old_oid, key);  // relocation searches for its lines
        return;
    }
    if (p.hunks.count(delta->old_path) || hunks_.count({&p, delta->old_path})) return;
    auto old_attribute_asked = p.diff.diff_attribute(delta->old_path);
    auto new_attribute_asked = p.diff.diff_attribute(delta->new_path);
    if (!old_attribute_asked || !new_attribute_asked) return;  // the error is met where needed
    auto old_attribute = old_attribute_asked.value(), new_attribute = new_attribute_asked.value();
    std::optional<git::HunkInput> sides;  // read here for the working tree
    Bytes base;                           // which its old side points into
    if (!p.target) {
        collect_blob(delta->old_oid);
        auto read_base = content_.blob(delta->old_oid);
        if (!read_base || !read_base.value()) return;
        base = std::move(read_base).value();
        auto read = p.diff.read_sides(*delta, base.get());
        if (!read) return;
        sides = std::move(read).value();
    }
    hunks_.emplace(std::pair{&p, delta->old_path},
                   pool_->run([&diff = p.diff, delta, sides = std::move(sides), base, old_attribute,
                               new_attribute](const git::Repository& reader) mutable -> Fetched {
                       if (!sides) {
                           auto read = diff.read_sides(*delta, nullptr, nullptr, &reader);
                           if (!read) return Fetched{{}, read.error()};
                           sides = std::move(read).value();
                       }
                       auto hunks = git::line_hunks(*sides, old_attribute, new_attribute);
                       return Fetched{std::move(sides), std::move(hunks)};
                   }));
}

void ReadAhead::read_blob(const std::string& oid, const std::string& key) {
    if (content_.held(oid) || reads_.count(oid)) return;
    reads_.emplace(oid, pool_->run([oid](const git::Repository& reader) {
        return reader.blob_within_limit(oid);
    }));
    reads_for_[key].push_back(oid);
}

Result<git::Diff> ReadAhead::diff(const std::string& base, const std::optional<std::string>& target,
                                  const std::vector<std::string>* rename_sources) {
    auto key = pair_key(base, target);
    if (auto staged = staged_.find(key); staged != staged_.end()) {
        auto take = [&]() -> std::optional<git::StagedChanges> {
            auto half = staged->second.get();  // failed: the whole diff is made here
            if (!half) return std::nullopt;
            return std::move(half).value();
        };
        auto made = repo_.diff(base, target, nullptr, take, rename_sources);
        if (staged->second.valid()) staged->second.wait();  // not taken: an error
        staged_.erase(staged);
        return made;
    }
    auto pending = diffs_.find(key);
    if (pending == diffs_.end()) return repo_.diff(base, target, nullptr, nullptr, rename_sources);
    auto made = pending->second.get();
    diffs_.erase(pending);
    return made;
}

void ReadAhead::collect_blob(const std::string& oid) {
    auto pending = reads_.find(oid);
    if (pending == reads_.end()) return;
    auto got = pending->second.get();
    reads_.erase(pending);
    if (got && got.value()) content_.adopt(oid, std::move(*got.value()));
}

void ReadAhead::collect_hunks(Pair& p, const git::Delta& delta) {
    auto pending = hunks_.find({&p, delta.old_path});
    if (pending == hunks_.end()) return;
    Fetched got = pending->second.get();
    hunks_.erase(pending);
    if (!got.hunks) return;
    if (got.sides && p.target) {
        if (!got.sides->given_old && got.sides->has_old && !got.sides->too_large)
            content_.adopt(delta.old_oid, std::move(got.sides->owned_old));
        if (!got.sides->given_new && got.sides->has_new && !got.sides->too_large)
            content_.adopt(delta.new_oid, std::move(got.sides->owned_new));
    }
    p.hunks.emplace(delta.old_path, std::move(got.hunks).value());
}

}  // namespace cp
