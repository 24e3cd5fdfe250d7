// Following a file the diff between base and target deleted without a partner, as
// `git log --follow` would find it: along the first-parent line from the base to the target
// (and for the working tree, base to HEAD, then HEAD to the working tree), to each commit
// where the path went (the first after the last one without it), rename detection run there alone,
// then on from the new name. The anchor is then carried leg by leg, each leg's diff applying the
// union rule to the range the last one gave (AnchorRules::fill), so the answer is the composed
// mapping.
#include <fmt/format.h>

#include <algorithm>

#include "anchor.hpp"
#include "context_pack/core/text.hpp"

namespace cp {

using git::Change;
using git::EntryKind;

namespace {

// Renames followed at most for one file (and first-parent commits walked at most between a
// base and a target, Pairs::kMaxLineCommits): past them the file is not followed, and its
// reason says so.
constexpr std::size_t kMaxFollowRenames = 16;

std::string short_id(const std::string& commit) {
    return commit.substr(0, 12);
}

}  // namespace

Result<Pair*> AnchorRules::follow_pair(const std::string& base,
                                       const std::optional<std::string>& target,
                                       const std::string& path) {
    const bool made_here = !pairs_.has(pair_key(base, target));
    const std::vector<std::string> sources{path};
    auto got = pairs_.get(base, target, &sources);
    if (got && made_here) follow_pairs_.emplace_back(base, target);
    return got;
}

void AnchorRules::release_followed() {
    for (const auto& [base, target] : follow_pairs_) pairs_.release(base, target);
    follow_pairs_.clear();
    routes_.clear();
}

Result<bool> AnchorRules::route_commits(const std::string& base, const std::string& tip,
                                        std::string& path, Route& out) {
    auto line = pairs_.first_parents(base, tip);
    if (!line) return line.error();
    if (line.value()->bounded) {
        out.why = fmt::format(
            "not followed through history: more than {} commits lie on the first-parent line "
            "from base to target",
            Pairs::kMaxLineCommits);
        return false;
    }
    std::vector<std::string> revs{base};
    revs.insert(revs.end(), line.value()->commits.begin(), line.value()->commits.end());
    auto exists = [&](std::size_t k) -> Result<bool> {
        auto found = repo_.lookup(revs[k], path);
        if (!found) return found.error();
        return found->entry && found->entry->kind == EntryKind::File;
    };
    std::size_t from = 0;  // where `path` is, and the next leg starts
    for (std::size_t hops = 0;; ++hops) {
        // The first commit after `from` without the path, each looked at in turn: a name can
        // come back later for another file (git log --follow walks every commit too), so its
        // presence at the tip proves nothing, and a bisection could skip its first leaving.
        std::size_t hi = from + 1;
        for (; hi < revs.size(); ++hi) {
            auto there = exists(hi);
            if (!there) return there.error();
            if (!there.value()) break;
        }
        if (hi == revs.size()) {
            if (from + 1 < revs.size()) out.legs.push_back({revs[from], revs.back(), path});
            return true;
        }
        if (hops == kMaxFollowRenames) {
            out.why = fmt::format("followed through {} renames, and no further", kMaxFollowRenames);
            return false;
        }
        const std::size_t lo = hi - 1;
        auto step = follow_pair(revs[lo], revs[hi], path);
        if (!step) return step.error();
        auto answering = pairs_.diff_for(*step.value(), path);
        if (!answering) return answering.error();
        const git::Delta* d = answering.value()->find_old(path);
        if (d && d->change == Change::Deleted && answering.value()->renames_skipped()) {
            // Rename detection was skipped there too: the diff's advice stands alone.
            if (hops) out.why = fmt::format("followed to {}", text::printable(path));
            return false;
        }
        if (!d || d->change != Change::Renamed || d->new_kind != EntryKind::File) {
            out.why = fmt::format("{}deleted in {}, with no file of similar content there",
                                  hops ? "followed to " + text::printable(path) + ", " : "",
                                  short_id(revs[hi]));
            out.deleted = true;
            return false;
        }
        if (lo > from) out.legs.push_back({revs[from], revs[lo], path});
        out.legs.push_back({revs[lo], revs[hi], path});
        path = d->new_path;
        from = hi;
    }
}

Result<const AnchorRules::Route*> AnchorRules::route(const Pair& p, const std::string& path) {
    auto key = std::pair{pair_key(p.base, p.target), path};
    if (auto known = routes_.find(key); known != routes_.end()) return &known->second;
    Route out;
    std::string at = path;
    if (p.target) {
        auto followed = route_commits(p.base, *p.target, at, out);
        if (!followed) return followed.error();
        if (!followed.value()) out.legs.clear();
    } else {
        // The working tree: base to HEAD (followed through history where HEAD lacks the
        // path), then HEAD to the working tree, each with its own rename detection.
        auto head = repo_.head_commit_if_born();
        if (!head) return head.error();
        if (head.value() && *head.value() != p.base) {
            auto found = repo_.lookup(*head.value(), path);
            if (!found) return found.error();
            bool reached = true;
            if (found->entry && found->entry->kind == EntryKind::File) {
                out.legs.push_back({p.base, *head.value(), path});
            } else {
                auto followed = route_commits(p.base, *head.value(), at, out);
                if (!followed) return followed.error();
                reached = followed.value();
            }
            if (reached)
                out.legs.push_back({*head.value(), std::nullopt, at});
            else
                out.legs.clear();
        }
    }
    return &routes_.emplace(key, std::move(out)).first->second;
}

Result<Unit> AnchorRules::follow(Pair& p, AnchorResult& r, bool check_symbols) {
    const Anchor& a = r.anchor;
    auto found = route(p, a.path);
    if (!found) return found.error();
    const Route& way = *found.value();
    auto say = [&](const std::string& why) {
        if (!why.empty()) r.add_note(why);
        return Unit{};
    };
    if (way.legs.empty() && way.deleted) {
        r.reason = fmt::format("{} deleted at target: {}", text::printable(a.path), way.why);
        return Unit{};
    }
    if (way.legs.empty()) return say(way.why);

    // Each leg carries the range the last one gave.
    Location at{a.path, a.line, a.last_line()};
    bool touched = false;
    std::optional<RangeAnswer> best;
    std::vector<FollowedRename> renames;
    following_ = true;
    struct Reset {
        bool& flag;
        ~Reset() { flag = false; }
    } reset{following_};
    for (std::size_t k = 0; k < way.legs.size(); ++k) {
        const Leg& leg = way.legs[k];
        auto pair = follow_pair(leg.from, leg.to, at.path);
        if (!pair) return pair.error();
        AnchorResult step;
        step.anchor = a;
        step.anchor.path = at.path;
        step.anchor.line = at.line;
        step.anchor.end_line = at.end_line;
        step.anchor.mention.reset();
        if (auto filled = fill(*pair.value(), step, false); !filled) return filled.error();
        const bool carried = (step.status == Status::Same || step.status == Status::Moved ||
                              step.status == Status::Touched) &&
                             step.to && step.to->end_line >= step.to->line;
        if (!carried) {
            const std::string where = leg.to ? "in " + short_id(*leg.to) : "in the working tree";
            return say(fmt::format("followed to {} at {}, where {}", text::printable(at.path),
                                   leg.to ? short_id(leg.from) : "HEAD",
                                   step.lines_deleted
                                       ? "its lines were deleted " + where
                                       : step.reason.value_or("it was lost") + " (" + where + ")"));
        }
        if (step.to->path != at.path)
            renames.push_back({at.path, step.to->path, leg.to.value_or("")});
        // Line-level precision where the last leg alone changed its lines, and the range it
        // took had the anchor's length (line for line the anchor's lines).
        const bool alone = !touched && at.end_line - at.line == a.last_line() - a.line;
        touched = touched || step.status == Status::Touched;
        best = step.status == Status::Touched && alone ? step.best : std::nullopt;
        at = *step.to;
    }
    // As for a file the direct diff renamed: SAME when its lines kept their numbers.
    r.status = touched                                             ? Status::Touched
               : at.line == a.line && at.end_line == a.last_line() ? Status::Same
                                                                   : Status::Moved;
    r.renamed = at.path != a.path;
    r.lines_deleted = false;
    r.relocation.reset();
    r.to = at;
    r.best = std::move(best);
    r.followed = std::move(renames);
    std::string chain;
    for (const FollowedRename& f : r.followed)
        chain += fmt::format("{}{} -> {} ({})", chain.empty() ? "" : ", ", text::printable(f.from),
                             text::printable(f.to),
                             f.commit.empty() ? "in the working tree" : short_id(f.commit));
    r.reason = fmt::format("{} deleted at target; followed through its renames: {}",
                           text::printable(a.path), chain);
    return check_symbols ? check_symbol_there(p, r) : Unit{};
}

}  // namespace cp
