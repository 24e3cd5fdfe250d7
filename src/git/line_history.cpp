// Repository::line_history: `git log -L` for many ranges in one walk of base..tip. The walk
// is line-log.c's: commits in graph order (sort_in_topological_order without dates, as
// git log -L forces --topo-order), each followed range carried from a commit to its parents
// through the diff of the paths it lies in; renames looked for only where one of them is
// added. The range arithmetic is core/line_log's.
#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <string_view>
#include <unordered_map>

#include "context_pack/core/text.hpp"
#include "diff_steps.hpp"
#include "libgit2.hpp"

namespace cp::git {
namespace {

using line_log::RangeSet;
using Ranges = std::map<std::string, RangeSet>;  // path -> its lines (line-log.c's line_log_data)
using RevwalkHandle = Handle<git_revwalk, git_revwalk_free>;

struct Node {
    git_oid oid{};
    std::string hex;
    std::vector<std::string> parents;    // every parent, in order
    std::vector<std::ptrdiff_t> inside;  // each parent's index in the walk; -1 past base
};

Result<git_oid> oid_of(const std::string& hex) {
    git_oid oid;
    if (git_oid_fromstr(&oid, hex.c_str()) < 0) return failure("bad object id");
    return oid;
}

// A commit's parents, in order.
Result<std::vector<std::string>> parents_of(const Repository& repo, const git_oid& oid) {
    CommitHandle commit;
    if (int rc = git_commit_lookup(commit.out(), raw_handle(repo), &oid); rc < 0)
        return unreadable(repo, rc, "commit", oid).error;
    std::vector<std::string> out;
    for (unsigned i = 0; i < git_commit_parentcount(commit.get()); ++i)
        out.push_back(hex(git_commit_parent_id(commit.get(), i)));
    return out;
}

// base..tip, each commit with its parents, in graph order: a commit only after every child
// it has in the walk, and from a stack, so a merge's last parent's side comes first (git's
// sort_in_topological_order with REV_SORT_IN_GRAPH_ORDER, from the one tip).
Result<std::vector<Node>> walk_between(const Repository& repo, const std::string& base,
                                       const std::string& tip) {
    git_repository* raw = raw_handle(repo);
    RevwalkHandle walk;
    if (git_revwalk_new(walk.out(), raw) < 0) return failure("cannot walk history");
    auto tip_oid = oid_of(tip);
    if (!tip_oid) return tip_oid.error();
    if (git_revwalk_push(walk.get(), &tip_oid.value()) < 0)
        return failure(fmt::format("cannot walk history from {}", tip));
    if (!base.empty()) {
        auto base_oid = oid_of(base);
        if (!base_oid) return base_oid.error();
        if (git_revwalk_hide(walk.get(), &base_oid.value()) < 0)
            return failure(fmt::format("cannot walk history down to {}", base));
    }
    std::vector<Node> listed;
    std::unordered_map<std::string, std::size_t> index;
    for (git_oid oid;;) {
        int rc = git_revwalk_next(&oid, walk.get());
        if (rc == GIT_ITEROVER) break;
        if (rc < 0) return failure(fmt::format("cannot walk history from {}", tip));
        Node n;
        n.oid = oid;
        n.hex = hex(&oid);
        index.emplace(n.hex, listed.size());
        listed.push_back(std::move(n));
    }
    for (Node& n : listed) {
        auto parents = parents_of(repo, n.oid);
        if (!parents) return parents.error();
        for (std::string& parent : parents.value()) {
            auto at = index.find(parent);
            n.inside.push_back(at == index.end() ? -1 : std::ptrdiff_t(at->second));
            n.parents.push_back(std::move(parent));
        }
    }
    // Graph order: a parent is stacked once its last child in the walk is out.
    std::vector<std::size_t> indegree(listed.size(), 1);
    for (const Node& n : listed)
        for (auto p : n.inside)
            if (p >= 0) ++indegree[std::size_t(p)];
    std::vector<std::size_t> stack;
    for (std::size_t i = listed.size(); i-- > 0;)
        if (indegree[i] == 1) stack.push_back(i);
    std::vector<Node> out;
    std::vector<std::size_t> order_of(listed.size());
    std::vector<std::size_t> order;
    while (!stack.empty()) {
        std::size_t c = stack.back();
        stack.pop_back();
        for (auto p : listed[c].inside) {
            if (p < 0 || indegree[std::size_t(p)] == 0) continue;
            if (--indegree[std::size_t(p)] == 1) stack.push_back(std::size_t(p));
        }
        indegree[c] = 0;
        order_of[c] = order.size();
        order.push_back(c);
    }
    for (std::size_t c : order) {
        Node n = std::move(listed[c]);
        for (auto& p : n.inside)
            if (p >= 0) p = std::ptrdiff_t(order_of[std::size_t(p)]);
        out.push_back(std::move(n));
    }
    return out;
}

// One file's change from a parent to the commit, as line-log.c's queue holds it: the parent
// side absent (`old_oid` empty) for an addition that is no rename.
struct FilePair {
    std::string old_path, old_oid, new_oid;
};

// Whether git log follows renames here: diff.renames, true unless set false (its "copies"
// also finds copies, which -L would then follow; here it follows renames alone).
Result<bool> follows_renames(const Repository& repo) {
    Handle<git_config, git_config_free> config;
    if (git_repository_config_snapshot(config.out(), raw_handle(repo)) < 0)
        return failure("cannot read the repository's configuration");
    return config_bool(config.get(), "diff.renames", true).value_or(true);
}

class Walker {
  public:
    Walker(const Repository& repo, bool renames) : repo_(repo), renames_(renames) {}

    // Carries `at` from `commit` to `parent` (empty: a root commit): the ranges at the parent,
    // and whether the commit changed any of the lines (process_all_files).
    Result<bool> carry(const std::string& commit, const std::string& parent, const Ranges& at,
                       Ranges& out) {
        auto pairs = pairs_of(commit, parent, at);
        if (!pairs) return pairs.error();
        bool changed = false;
        out.clear();
        for (const auto& [path, ranges] : at) {
            auto found = pairs->find(path);
            if (found == pairs->end()) {
                add(out, path, ranges);
                continue;
            }
            const FilePair& pair = found->second;
            auto diff = diff_of(pair.old_oid, pair.new_oid);
            if (!diff) return diff.error();
            if (!diff.value()) {  // not read (over the size limit): the lines stay as they are
                add(out, pair.old_path, ranges);
                continue;
            }
            auto carried = line_log::carry_back(ranges, *diff.value());
            changed = changed || carried.touched;
            add(out, pair.old_path, carried.parent);
        }
        return changed;
    }

    // Forgets what was read for the last commit.
    void next_commit() {
        deltas_.clear();
        diffs_.clear();
    }

  private:
    static void add(Ranges& out, const std::string& path, const RangeSet& ranges) {
        if (ranges.empty()) return;  // nothing left to follow in it
        auto [at, made] = out.try_emplace(path, ranges);
        if (!made) at->second = line_log::unite(at->second, ranges);
    }

    // The followed paths that differ from the parent, with their parent side: line-log.c's
    // queue_diffs. An added path may be a rename: then the whole tree diff, with every
    // deletion a source and the added followed paths the only targets.
    Result<std::map<std::string, FilePair>> pairs_of(const std::string& commit,
                                                     const std::string& parent, const Ranges& at) {
        std::map<std::string, FilePair> pairs;
        std::vector<std::string> added;
        for (const auto& [path, ranges] : at) {
            auto here = repo_.lookup(commit, path);
            if (!here) return here.error();
            if (!here->entry || here->entry->kind == EntryKind::Submodule ||
                here->entry->kind == EntryKind::Directory)
                continue;
            std::optional<Entry> there;
            if (!parent.empty()) {
                auto l = repo_.lookup(parent, path);
                if (!l) return l.error();
                if (l->entry && l->entry->kind != EntryKind::Directory &&
                    l->entry->kind != EntryKind::Submodule)
                    there = l->entry;
            }
            if (there && there->oid == here->entry->oid) continue;
            pairs[path] = FilePair{path, there ? there->oid : "", here->entry->oid};
            if (!there) added.push_back(path);
        }
        if (added.empty() || !renames_) return pairs;
        auto deltas = tree_deltas(commit, parent);
        if (!deltas) return deltas.error();
        std::vector<Delta> queue;
        for (const Delta* d : *deltas.value()) {
            if (d->change == Change::Deleted)
                queue.push_back(*d);
            else if (d->change == Change::Added &&
                     std::binary_search(added.begin(), added.end(), d->new_path))
                queue.push_back(*d);
        }
        std::vector<Unread> unread;
        auto paired = pair_renames(repo_, repo_, std::move(queue), false, unread);
        if (!paired) return paired.error();
        for (const Delta& d : paired->deltas)
            if (d.change == Change::Renamed) {
                auto p = pairs.find(d.new_path);
                if (p != pairs.end()) p->second = FilePair{d.old_path, d.old_oid, d.new_oid};
            }
        return pairs;
    }

    // The name-level deltas of the parent's tree to the commit's, once a commit and parent.
    Result<const std::vector<const Delta*>*> tree_deltas(const std::string& commit,
                                                         const std::string& parent) {
        auto& slot = deltas_[parent];
        if (!slot.made) {
            TreeHandle parent_tree;
            if (!parent.empty())
                if (auto r = read_commit_tree(repo_, parent, parent_tree); !r) return r.error();
            auto walked = commit_deltas(repo_, parent_tree.get(), commit);
            if (!walked) return walked.error();
            slot.deltas = std::move(walked->deltas);
            for (const Delta& d : slot.deltas) slot.view.push_back(&d);
            slot.made = true;
        }
        return &slot.view;
    }

    // The diff ranges of one blob pair (no old id: against nothing); nullopt when a side is
    // over the size limit.
    Result<const line_log::DiffRanges*> diff_of(const std::string& old_oid,
                                                const std::string& new_oid) {
        auto key = old_oid + ":" + new_oid;
        auto at = diffs_.find(key);
        if (at != diffs_.end()) return at->second ? &*at->second : nullptr;
        std::optional<line_log::DiffRanges> made;
        std::string old_bytes;
        bool readable = true;
        if (!old_oid.empty()) {
            auto b = repo_.blob_within_limit(old_oid);
            if (!b) return b.error();
            readable = b->has_value();
            if (readable) old_bytes = std::move(**b);
        }
        if (readable) {
            auto b = repo_.blob_within_limit(new_oid);
            if (!b) return b.error();
            if (b->has_value()) {
                auto hunks = line_log_hunks(old_bytes, **b);
                if (!hunks) return hunks.error();
                made = line_log::diff_ranges(hunks.value());
            }
        }
        auto& slot = diffs_[key] = std::move(made);
        return slot ? &*slot : nullptr;
    }

    struct TreeDeltas {
        bool made = false;
        std::vector<Delta> deltas;
        std::vector<const Delta*> view;
    };
    const Repository& repo_;
    const bool renames_;
    std::map<std::string, TreeDeltas> deltas_;  // by parent, for the current commit
    std::map<std::string, std::optional<line_log::DiffRanges>> diffs_;
};

// git's %s (pretty.c's format_subject): the lines of the message's first paragraph, each
// without its trailing whitespace, joined by a space.
// Blank lines before it are skipped (skip_blank_lines); git's isspace is " \t\n\r".
constexpr std::size_t kMaxSubjectBytes = 1000;

std::string subject_of(std::string_view message) {
    std::string out;
    bool leading = true;
    while (!message.empty()) {
        std::size_t end = message.find('\n');
        std::string_view line = message.substr(0, end);
        message = end == std::string_view::npos ? std::string_view() : message.substr(end + 1);
        while (!line.empty() &&
               std::string_view(" \t\n\r").find(line.back()) != std::string_view::npos)
            line.remove_suffix(1);
        if (line.empty() && leading) continue;
        if (line.empty()) break;
        leading = false;
        if (!out.empty()) out += ' ';
        out += line;
    }
    return out;
}

Result<LineChange> change_of(const Repository& repo, const git_oid& oid) {
    CommitHandle commit;
    if (int rc = git_commit_lookup(commit.out(), raw_handle(repo), &oid); rc < 0)
        return unreadable(repo, rc, "commit", oid).error;
    LineChange c;
    c.commit = hex(&oid);
    c.author_time = git_commit_author(commit.get())->when.time;
    const char* message = git_commit_message(commit.get());
    c.subject = subject_of(message ? message : "");
    // A subject is a line to read; one of megabytes would be copied into every anchor it
    // touched. Cut as a code line is, and say so.
    if (std::size_t cut = text::cut_line(c.subject, kMaxSubjectBytes))
        c.subject += fmt::format("… (+{} bytes)", cut);
    return c;
}

}  // namespace

Result<std::vector<std::vector<LineChange>>> Repository::line_history(
    const std::string& base, const std::optional<std::string>& tip,
    const std::vector<LineQuery>& queries) const {
    std::vector<std::vector<LineChange>> out(queries.size());
    std::vector<Ranges> start(queries.size());
    for (std::size_t q = 0; q < queries.size(); ++q)
        if (!queries[q].ranges.empty()) start[q][queries[q].path] = queries[q].ranges;
    std::vector<bool> in_worktree(queries.size());
    std::optional<std::string> from = tip;
    if (!tip) {  // the working tree: its changes against HEAD first, then the walk from HEAD
        auto head = head_commit_if_born();
        if (!head) return head.error();
        from = head.value();
        std::optional<Diff> renames;  // HEAD to the working tree, made once if a path needs it
        // Per path, once however many anchors it holds: where it was at HEAD, and the diff.
        struct Side {
            bool followed = false;  // a file on disk within the size limit
            std::string old_path, old_oid;
            line_log::DiffRanges diff;
        };
        std::map<std::string, Side> sides;
        auto side_of = [&](const std::string& path) -> Result<const Side*> {
            if (auto known = sides.find(path); known != sides.end()) return &known->second;
            Side& side = sides[path];
            auto bytes = read_worktree_as_stored(path);
            if (!bytes) return bytes.error();
            if (!bytes.value()) return &side;  // not a file on disk: nothing to follow
            side.old_path = path;
            if (from) {
                auto l = lookup(*from, path);
                if (!l) return l.error();
                if (l->entry && l->entry->kind == EntryKind::File) {
                    side.old_oid = l->entry->oid;
                } else {
                    if (!renames) {
                        auto made = diff(*from, std::nullopt);
                        if (!made) return made.error();
                        renames = std::move(made).value();
                    }
                    const Delta* d = renames->find_new(path);
                    if (d && d->change == Change::Renamed) {
                        side.old_path = d->old_path;
                        side.old_oid = d->old_oid;
                    }
                }
            }
            std::string old_bytes;
            if (!side.old_oid.empty()) {
                auto b = blob_within_limit(side.old_oid);
                if (!b) return b.error();
                if (!b->has_value()) return &side;  // over the size limit: not followed
                old_bytes = std::move(**b);
            }
            auto hunks = line_log_hunks(old_bytes, *bytes.value());
            if (!hunks) return hunks.error();
            side.diff = line_log::diff_ranges(hunks.value());
            side.followed = true;
            return &side;
        };
        for (std::size_t q = 0; q < queries.size(); ++q) {
            if (start[q].empty()) continue;
            auto side = side_of(queries[q].path);
            if (!side) return side.error();
            if (!side.value()->followed) continue;
            const Side& s = *side.value();
            auto carried = line_log::carry_back(queries[q].ranges, s.diff);
            in_worktree[q] = carried.touched;
            start[q].clear();
            if (!s.old_oid.empty() && !carried.parent.empty())
                start[q][s.old_path] = carried.parent;
        }
    }
    if (from) {
        auto walked = walk_between(*this, base, *from);
        if (!walked) return walked.error();
        const std::vector<Node>& nodes = walked.value();
        // Per commit of the walk, each query's ranges there (line-log.c's decoration).
        std::vector<std::map<std::size_t, Ranges>> at(nodes.size());
        if (!nodes.empty())
            for (std::size_t q = 0; q < queries.size(); ++q)
                if (!start[q].empty()) at[0][q] = std::move(start[q]);
        auto renames = follows_renames(*this);
        if (!renames) return renames.error();
        Walker walker(*this, renames.value());
        std::vector<std::vector<std::size_t>> shown(queries.size());
        auto give = [&](std::ptrdiff_t parent, std::size_t q, Ranges ranges) {
            if (parent < 0 || ranges.empty()) return;
            auto [slot, made] = at[std::size_t(parent)].try_emplace(q, std::move(ranges));
            if (made) return;
            for (auto& [path, set] : ranges) {
                auto [p, fresh] = slot->second.try_emplace(path, set);
                if (!fresh) p->second = line_log::unite(p->second, set);
            }
        };
        for (std::size_t c = 0; c < nodes.size(); ++c) {
            const Node& node = nodes[c];
            walker.next_commit();
            for (auto& [q, ranges] : at[c]) {
                if (node.parents.size() <= 1) {
                    Ranges parent_ranges;
                    const std::string parent = node.parents.empty() ? "" : node.parents[0];
                    auto changed = walker.carry(node.hex, parent, ranges, parent_ranges);
                    if (!changed) return changed.error();
                    if (changed.value()) shown[q].push_back(c);
                    if (!node.parents.empty()) give(node.inside[0], q, std::move(parent_ranges));
                    continue;
                }
                // A merge: the first parent that leaves the lines unchanged takes them all.
                std::vector<Ranges> candidates(node.parents.size());
                bool all_changed = true;
                for (std::size_t p = 0; p < node.parents.size(); ++p) {
                    auto changed = walker.carry(node.hex, node.parents[p], ranges, candidates[p]);
                    if (!changed) return changed.error();
                    if (!changed.value()) {
                        give(node.inside[p], q, std::move(candidates[p]));
                        all_changed = false;
                        break;
                    }
                }
                if (!all_changed) continue;
                shown[q].push_back(c);
                for (std::size_t p = 0; p < node.parents.size(); ++p)
                    give(node.inside[p], q, std::move(candidates[p]));
            }
            at[c].clear();
        }
        std::map<std::size_t, LineChange> changes;  // each shown commit read once
        for (std::size_t q = 0; q < queries.size(); ++q)
            for (std::size_t c : shown[q]) {
                auto made = changes.find(c);
                if (made == changes.end()) {
                    auto change = change_of(*this, nodes[c].oid);
                    if (!change) return change.error();
                    made = changes.emplace(c, std::move(change).value()).first;
                }
                out[q].push_back(made->second);
            }
    }
    for (std::size_t q = 0; q < queries.size(); ++q)
        if (in_worktree[q]) out[q].push_back(LineChange{});
    return out;
}

Result<FirstParents> Repository::first_parents(const std::string& base, const std::string& tip,
                                               std::size_t limit) const {
    git_repository* raw = raw_handle(*this);
    auto tip_oid = oid_of(tip);
    auto base_oid = oid_of(base);
    if (!tip_oid) return tip_oid.error();
    if (!base_oid) return base_oid.error();
    // Down the line until the base, which is where it usually is; else `tip ^base` walked
    // as git does, marking the base's side.
    for (bool hide : {false, true}) {
        RevwalkHandle walk;
        if (git_revwalk_new(walk.out(), raw) < 0) return failure("cannot walk history");
        if (git_revwalk_simplify_first_parent(walk.get()) < 0 ||
            git_revwalk_push(walk.get(), &tip_oid.value()) < 0 ||
            (hide && git_revwalk_hide(walk.get(), &base_oid.value()) < 0))
            return failure(fmt::format("cannot walk history from {} down to {}", tip, base));
        FirstParents out;
        bool reached = hide;
        for (git_oid oid;;) {
            int rc = git_revwalk_next(&oid, walk.get());
            if (rc == GIT_ITEROVER) break;
            if (rc < 0) return failure(fmt::format("cannot walk history from {}", tip));
            if (git_oid_equal(&oid, &base_oid.value())) {
                reached = true;
                break;
            }
            if (out.commits.size() == limit) {
                out.bounded = true;
                break;
            }
            out.commits.push_back(hex(&oid));
        }
        if (!reached && !out.bounded) continue;
        std::reverse(out.commits.begin(), out.commits.end());
        return out;
    }
    return FirstParents{};
}

Result<std::vector<std::string>> Repository::parents(const std::string& commit) const {
    auto oid = oid_of(commit);
    if (!oid) return oid.error();
    return parents_of(*this, oid.value());
}

}  // namespace cp::git
