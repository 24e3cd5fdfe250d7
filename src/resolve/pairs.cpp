#include "pairs.hpp"

#include <algorithm>

#include "read_ahead.hpp"
#include "revisions.hpp"

namespace cp {

std::string pair_key(const std::string& base, const std::optional<std::string>& target) {
    return base + ":" + target.value_or("worktree");
}

Pairs::~Pairs() {
    ahead_.wait();
}

RenameSources rename_sources_of(const std::vector<Spec>& specs,
                                const std::vector<StartedSpec>& starts) {
    RenameSources sources;
    for (std::size_t i = 0; i < specs.size(); ++i) {
        if (!starts[i].problem.empty()) continue;
        auto& paths = sources[pair_key(starts[i].out.base, starts[i].target())];
        for (const Anchor& a : specs[i].anchors)
            if (!path_problem(a.path)) paths.push_back(a.path);
    }
    for (auto& [key, paths] : sources) {
        std::sort(paths.begin(), paths.end());
        paths.erase(std::unique(paths.begin(), paths.end()), paths.end());
    }
    return sources;
}

const std::vector<std::string>* Pairs::rename_sources(const std::string& key) const {
    auto it = rename_sources_.find(key);
    return it == rename_sources_.end() ? nullptr : &it->second;
}

Result<Pair*> Pairs::get(const std::string& base, const std::optional<std::string>& target,
                         const std::vector<std::string>* sources) {
    auto key = pair_key(base, target);
    auto it = pairs_.find(key);
    if (it != pairs_.end()) return it->second.get();
    // The one name-level diff for this pair.
    const auto* batch = rename_sources(key);
    auto diff = ahead_.diff(base, target, batch ? batch : sources);
    if (!diff) return diff.error();
    auto made = std::make_unique<Pair>(base, target, std::move(diff).value());
    return pairs_.emplace(key, std::move(made)).first->second.get();
}

void Pairs::release(const std::string& base, const std::optional<std::string>& target) {
    auto it = pairs_.find(pair_key(base, target));
    if (it == pairs_.end()) return;
    ahead_.release(*it->second);
    pairs_.erase(it);
}

Result<Unit> Pairs::settle_paths_alone(const std::vector<Spec>& specs,
                                       const std::vector<StartedSpec>& starts) {
    std::map<std::string, std::pair<std::string, std::vector<std::string>>> worktree;
    for (std::size_t i = 0; i < specs.size(); ++i) {
        const StartedSpec& start = starts[i];
        if (!start.problem.empty() || start.target()) continue;
        auto& [base, paths] = worktree[pair_key(start.out.base, std::nullopt)];
        base = start.out.base;
        for (const Anchor& a : specs[i].anchors)
            if (!path_problem(a.path)) paths.push_back(a.path);
    }
    for (auto& [key, wanted] : worktree) {
        auto& [base, paths] = wanted;
        if (pairs_.count(key)) continue;
        auto partial = repo_.worktree_diff_of(base, paths);
        if (!partial) return partial.error();
        if (!partial.value()) continue;
        pairs_.emplace(key,
                       std::make_unique<Pair>(base, std::nullopt, std::move(*partial.value())));
    }
    return Unit{};
}

Result<const git::Diff*> Pairs::diff_for(Pair& p, std::string_view path) {
    if (p.diff.answers_for(path)) return &p.diff;
    return made_whole(p);
}

Result<const git::Diff*> Pairs::whole_diff(Pair& p) {
    if (!p.diff.partial()) return &p.diff;
    return made_whole(p);
}

Result<const git::Diff*> Pairs::made_whole(Pair& p) {
    if (!p.whole) {
        auto whole = repo_.diff(p.base, p.target);
        if (!whole) return whole.error();
        p.whole = std::move(whole).value();
    }
    return &*p.whole;
}

Result<const git::Hunks*> Pairs::hunks_for(Pair& p, const git::Delta& delta,
                                           const std::string* old_bytes) {
    ahead_.collect_hunks(p, delta);
    auto it = p.hunks.find(delta.old_path);
    if (it == p.hunks.end()) {  // hunks once per anchored path
        Bytes new_bytes;        // the target blob, read through the cache
        if (p.target) {
            auto target = content_.blob(delta.new_oid);
            if (!target) return target.error();
            new_bytes = std::move(target).value();
        }
        auto hunks = p.diff.hunks(delta, old_bytes, new_bytes.get());
        if (!hunks) return hunks.error();
        it = p.hunks.emplace(delta.old_path, std::move(hunks).value()).first;
    }
    return &it->second;
}

Result<const git::FirstParents*> Pairs::first_parents(const std::string& base,
                                                      const std::string& tip) {
    auto key = std::pair{base, tip};
    if (auto known = lines_.find(key); known != lines_.end()) return &known->second;
    auto walked = repo_.first_parents(base, tip, kMaxLineCommits);
    if (!walked) return walked.error();
    return &lines_.emplace(key, std::move(walked).value()).first->second;
}

}  // namespace cp
