// Repository::diff, the recipe of a name-level diff, and a Diff's lookups by path.
#include <algorithm>
#include <functional>

#include "diff_steps.hpp"

namespace cp::git {

Result<Diff> Repository::diff(const std::string& base, const std::optional<std::string>& target,
                              const Repository* reader, const TakeStaged& take_staged,
                              const std::vector<std::string>* rename_sources) const {
    // Two commits' objects may come through the caller's own reader, so that another thread
    // diffs them; the working tree is this handle's.
    const Repository& objects = reader && target ? *reader : *this;
    TreeHandle base_tree;
    if (auto r = read_commit_tree(objects, base, base_tree); !r) return r.error();

    Diff out;
    out.repo_ = this;
    out.worktree_ = !target.has_value();
    std::vector<Delta> deltas;
    if (target) {
        // Our own walk: it skips every subtree whose id is unchanged, so its cost follows the
        // change, where libgit2 1.5's tree diff reads every tree of both commits (#6863).
        auto walked = commit_deltas(objects, base_tree.get(), *target);
        if (!walked) return walked.error();
        deltas = std::move(walked->deltas);
        out.unread_ = std::move(walked->unread);
    } else {
        // Staged and unstaged changes together, the unstaged half by our own scan when it can
        // tell: libgit2's stats every file by its absolute path on one thread.
        auto made = worktree_deltas(*this, base, base_tree.get(), take_staged, scan_worktree_);
        if (!made) return made.error();
        deltas = std::move(made->deltas);
        out.scanned_ = made->scanned;
    }
    // Renames over the whole name-level diff, as git finds them: a pathspec would hide the
    // other side of a renamed file.
    auto paired =
        pair_renames(*this, objects, std::move(deltas), out.worktree_, out.unread_, rename_sources);
    if (!paired) return paired.error();
    if (rename_sources) out.answered_ = *rename_sources;
    out.deltas_ = std::move(paired->deltas);
    out.renames_skipped_ = paired->skipped;
    std::sort(out.unread_.begin(), out.unread_.end(),
              [](const Unread& a, const Unread& b) { return a.path < b.path; });

    // Sorted by each side's path, for find_old and find_new.
    std::sort(out.deltas_.begin(), out.deltas_.end(),
              [](const Delta& a, const Delta& b) { return a.old_path < b.old_path; });
    for (const auto& d : out.deltas_) out.by_new_.push_back(&d);
    std::sort(out.by_new_.begin(), out.by_new_.end(),
              [](const Delta* a, const Delta* b) { return a->new_path < b->new_path; });
    return out;
}

const Delta* Diff::find_old(std::string_view path) const {
    auto it = std::lower_bound(deltas_.begin(), deltas_.end(), path,
                               [](const Delta& d, std::string_view p) { return d.old_path < p; });
    for (; it != deltas_.end() && it->old_path == path; ++it)
        if (it->change != Change::Added) return &*it;
    return nullptr;
}

bool Diff::answers_for(std::string_view path) const {
    if (!answered_) return true;
    if (std::binary_search(answered_->begin(), answered_->end(), path, std::less<>())) return true;
    if (partial_) return false;
    // Restricted renames: a path is answered unless it is a deletion or an addition, which
    // the whole detection might have paired.
    const Delta* old_side = find_old(path);
    const Delta* new_side = find_new(path);
    auto unpaired = [](const Delta* d) {
        return d && (d->change == Change::Deleted || d->change == Change::Added);
    };
    return !unpaired(old_side) && !unpaired(new_side);
}

const Unread* Diff::unread_at(std::string_view path) const {
    for (const Unread& u : unread_)
        if (u.subtree && path.size() > u.path.size() && path.starts_with(u.path) &&
            path[u.path.size()] == '/')
            return &u;
    return nullptr;
}

const Delta* Diff::find_new(std::string_view path) const {
    auto it = std::lower_bound(by_new_.begin(), by_new_.end(), path,
                               [](const Delta* d, std::string_view p) { return d->new_path < p; });
    for (; it != by_new_.end() && (*it)->new_path == path; ++it)
        if ((*it)->change != Change::Deleted) return *it;
    return nullptr;
}

}  // namespace cp::git
