#include "read_ahead.hpp"

#include "pairs.hpp"
#include "revisions.hpp"

namespace cp {

using git::Change;
using git::EntryKind;

void ReadAhead::wait() {
    for (auto& [key, diff] : diffs_) diff.wait();
    for (auto& [key, half] : staged_) half.wait();
    for (auto& [oid, read] : reads_) read.wait();
    for (auto& [key, fetched] : hunks_) fetched.wait();
}

void ReadAhead::start(const std::vector<Spec>& specs, const std::vector<StartedSpec>& starts,
                      Pairs& pairs) {
    std::vector<std::pair<const Spec*, const StartedSpec*>> started;
    for (std::size_t i = 0; i < specs.size(); ++i) {
        if (!starts[i].problem.empty()) continue;
        queue_diff(starts[i], specs[i], pairs);
        started.emplace_back(&specs[i], &starts[i]);
    }
    for (const auto& [spec, s] : started) {
        auto made = pairs.get(s->out.base, s->target());
        if (!made) continue;
        for (const Anchor& a : spec->anchors) schedule(*made.value(), a);
    }
}

void ReadAhead::queue_diff(const StartedSpec& s, const Spec& spec, Pairs& pairs) {
    const auto target = s.target();
    auto key = pair_key(s.out.base, target);
    // The working tree's diff stats files and reads attributes: it is made on the main
    // thread, while the pool makes its staged half and reads the anchored base blobs.
    if (!target && !pairs.has(key) && !staged_.count(key)) {
        staged_.emplace(key, pool_->run([base = s.out.base, index = repo_.index_file()](
                                            const git::Repository& reader) {
            return reader.staged_changes(base, index);
        }));
        for (const Anchor& a : spec.anchors) {
            if (path_problem(a.path)) continue;
            auto found = repo_.lookup(s.out.base, a.path);
            if (found && found->entry && found->entry->kind == EntryKind::File)
                read_blob(found->entry->oid);
        }
    }
    if (target && !pairs.has(key) && !diffs_.count(key)) {
        const std::vector<std::string>* only = pairs.rename_sources(key);  // outlives the task
        diffs_.emplace(key, pool_->run([&repo = repo_, base = s.out.base, target,
                                        only](const git::Repository& reader) {
            return repo.diff(base, target, &reader, nullptr, only);
        }));
    }
}

void ReadAhead::schedule(Pair& p, const Anchor& a) {
    if (path_problem(a.path) || !p.diff.answers_for(a.path)) return;
    const git::Delta* delta = p.diff.find_old(a.path);
    if (!delta) {  // unchanged, or absent at base
        auto found = repo_.lookup(p.base, a.path);
        if (found && found->entry && found->entry->kind == EntryKind::File)
            read_blob(found->entry->oid);
        return;
    }
    if (delta->old_kind != EntryKind::File) return;
    if (delta->new_kind != EntryKind::File || delta->change == Change::Deleted ||
        delta->change == Change::TypeChanged) {
        read_blob(delta->old_oid);  // relocation searches for its lines
        return;
    }
    if (p.hunks.count(delta->old_path) || hunks_.count({&p, delta->old_path})) return;
    auto old_attribute_asked = p.diff.diff_attribute(delta->old_path);
    auto new_attribute_asked = p.diff.diff_attribute(delta->new_path);
    if (!old_attribute_asked || !new_attribute_asked) return;  // the error is met where needed
    auto old_attribute = old_attribute_asked.value(), new_attribute = new_attribute_asked.value();
    std::optional<git::HunkInput> sides;  // read here for the working tree
    if (!p.target) {
        collect_blob(delta->old_oid);
        auto base = content_.blob(delta->old_oid);
        if (!base || !base.value()) return;
        auto read = p.diff.read_sides(*delta, base.value());
        if (!read) return;
        sides = std::move(read).value();
    }
    hunks_.emplace(std::pair{&p, delta->old_path},
                   pool_->run([&diff = p.diff, delta, sides = std::move(sides), old_attribute,
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

void ReadAhead::read_blob(const std::string& oid) {
    if (content_.held(oid) || reads_.count(oid)) return;
    reads_.emplace(oid, pool_->run([oid](const git::Repository& reader) {
        return reader.blob_within_limit(oid);
    }));
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
