#include "context_pack/resolve/resolve.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <functional>
#include <future>
#include <map>
#include <memory>
#include <optional>
#include <utility>

#include "anchor.hpp"
#include "context_pack/core/text.hpp"
#include "pairs.hpp"
#include "read_ahead.hpp"
#include "relocation.hpp"
#include "revisions.hpp"

namespace cp {
namespace {

// Provenance: the blob id of the file the anchor landed in at the target (README, "JSON").
Result<Unit> add_target_blob(Content& content, const std::optional<std::string>& target,
                             AnchorResult& r) {
    const std::string* path = r.to ? &r.to->path
                              : r.status == Status::New && r.exists_at_target == true
                                  ? &r.anchor.path
                                  : nullptr;
    if (!path) return Unit{};
    auto id = content.blob_id(target, *path);
    if (!id) return id.error();
    r.target_blob = std::move(id).value();
    return Unit{};
}

// A note on an anchor whose path a work tree's symlinked .gitattributes would have concerned:
// passed by, as git passes it (git::Repository::side_files_of). Not for an anchor whose path
// is no path of the tree (`..`, absolute: path_problem): nothing is looked at for it.
void note_ignored_attributes(const git::Repository& repo, AnchorResult& r) {
    if (path_problem(r.anchor.path)) return;
    for (const std::string& file : repo.ignored_attributes(r.anchor.path))
        r.add_note(text::printable(file) +
                   " is a symlink, which git passes by since 2.32: its rules were not read");
}

// One spec's anchors, each carried from its base onto its target, in the spec's order.
Result<SpecReport> resolve_spec(Content& content, AnchorRules& rules, Pairs& pairs,
                                const Spec& spec, StartedSpec started,
                                const std::function<void()>& each = {}) {
    SpecReport& out = started.out;
    // A wrong revision is every anchor's reason; otherwise the pair's diff, made once.
    Pair* p = nullptr;
    if (started.problem.empty()) {
        auto made = pairs.get(out.base, started.target());
        if (!made && !made.error().unreadable_object()) return made.error();
        if (made)
            p = made.value();
        else  // an object the whole diff needs: every anchor of the spec says which
            started.problem = made.error().message;
    }
    out.anchors.reserve(spec.anchors.size());
    for (const Anchor& anchor : spec.anchors) {
        AnchorResult r;
        r.anchor = anchor;
        r.row = out.anchors.size() + 1;
        if (!started.problem.empty()) {
            r.reason = started.problem;
        } else if (auto filled = rules.resolve(*p, r); !filled) {
            return filled.error();
        } else if (auto blob = add_target_blob(content, started.target(), r); !blob) {
            return blob.error();
        } else {
            note_ignored_attributes(content.repo(), r);
            if (!out.since.empty()) {  // --since: were its lines edited since then?
                auto edited = rules.edited_since(out.base, out.since, started.target(), r);
                if (!edited && !edited.error().unreadable_object()) return edited.error();
                if (edited)
                    r.edited_since = edited.value();
                else  // not known: said, and its window and callers shown
                    r.add_note("whether it was edited since " + out.since_rev +
                               " cannot be told: " + edited.error().message);
            }
        }
        out.anchors.push_back(std::move(r));
        if (each) each();
    }
    return std::move(out);
}

// --history: every anchor of the pair's specs that has lines at the target, followed back to
// the base in one walk (git::Repository::line_history).
Result<Unit> add_history(const git::Repository& repo, const PairGroup& group,
                         std::vector<SpecReport>& reports) {
    std::vector<git::LineQuery> queries;
    std::vector<AnchorResult*> asked;
    for (SpecReport& report : reports)
        for (AnchorResult& r : report.anchors) {
            if (!r.to || r.to->end_line < r.to->line) continue;
            queries.push_back({r.to->path, line_log::range_of(r.to->line, r.to->end_line)});
            asked.push_back(&r);
        }
    if (queries.empty()) return Unit{};
    auto found = repo.line_history(group.base, group.target, queries);
    if (!found && !found.error().unreadable_object()) return found.error();
    if (!found) {  // an object the walk needs: every anchor says so, its history unknown
        // In a shallow clone the walk stops at a missing parent; what mends it is the rest of
        // the history, not an fsck.
        const std::string why =
            repo.is_shallow() ? "this is a shallow clone, and the walk reached a commit whose "
                                "parents it lacks (git fetch --unshallow brings them)"
                              : found.error().message;
        for (AnchorResult* r : asked) r->add_note("its history cannot be told: " + why);
        return Unit{};
    }
    for (std::size_t q = 0; q < queries.size(); ++q) {
        auto& history = asked[q]->history.emplace();
        for (git::LineChange& c : found.value()[q])
            history.push_back({std::move(c.commit), c.author_time, std::move(c.subject)});
    }
    return Unit{};
}

// The specs in the order they are resolved: those on one pair together, each group where its
// first spec comes, so that a pair's diff, hunks and blobs are given up after its last spec.
std::vector<PairGroup> group_by_pair(const std::vector<StartedSpec>& starts) {
    std::vector<PairGroup> groups;
    std::map<std::string, std::size_t> by_key;
    for (std::size_t i = 0; i < starts.size(); ++i) {
        if (!starts[i].problem.empty()) {
            groups.emplace_back().specs.push_back(i);  // no pair
            continue;
        }
        const std::string& base = starts[i].out.base;
        auto target = starts[i].target();
        auto [at, made] = by_key.try_emplace(pair_key(base, target), groups.size());
        if (made) groups.push_back(PairGroup{{}, true, base, target});
        groups[at->second].specs.push_back(i);
    }
    return groups;
}

// Prose mentions whose path the base does not have: the one base file whose path is it or
// ends with "/" and it ("parser.c" for src/parser.c), else the mention's problem. Settled
// before the pairs are planned, which look for renames from the anchored paths. nullopt: no
// spec has such a mention.
Result<std::optional<std::vector<Spec>>> settle_mentions(const git::Repository& repo,
                                                         const std::vector<Spec>& specs,
                                                         const std::vector<StartedSpec>& starts) {
    std::optional<std::vector<Spec>> settled;
    std::map<std::string, std::unique_ptr<const git::PathList>> base_files;  // null: unread
    for (std::size_t i = 0; i < specs.size(); ++i) {
        if (!starts[i].problem.empty()) continue;
        const std::string& base = starts[i].out.base;
        for (std::size_t k = 0; k < specs[i].anchors.size(); ++k) {
            const Anchor& a = specs[i].anchors[k];
            if (!a.mention) continue;
            auto found = repo.lookup(base, a.path);
            if (!found && !found.error().unreadable_object()) return found.error();
            if (!found || found->entry || !found->blocked_by.empty()) continue;  // fill() says
            auto listed = base_files.find(base);
            if (listed == base_files.end()) {
                auto files = repo.tracked_paths(base, [](const std::string&, const Error&) {});
                listed = base_files.emplace(base, files ? std::move(files).value() : nullptr).first;
            }
            std::vector<std::string> named;
            std::size_t total = 0;
            if (listed->second)
                for (std::string_view f : listed->second->paths)
                    if (f.size() > a.path.size() && f.ends_with(a.path) &&
                        f[f.size() - a.path.size() - 1] == '/' && ++total <= 3)
                        named.emplace_back(f);
            if (!settled) settled = specs;
            Anchor& out = (*settled)[i].anchors[k];
            if (total == 1) {
                out.path = named.front();
                continue;
            }
            std::string list;
            for (const auto& n : named) list += (list.empty() ? "" : ", ") + text::printable(n);
            out.mention->problem =
                total == 0
                    ? fmt::format("no file at base is {0} or ends in /{0}", text::printable(a.path))
                    : fmt::format("{} names {} files at base: {}{}; write its path in full",
                                  text::printable(a.path), total, list,
                                  total > named.size() ? ", ..." : "");
        }
    }
    return settled;
}

// What resolves pairs through one handle: the main thread's, over the main handle, with the
// pool's head start; or, in a batch of pairs of commits, a pool task's over its reader, which
// resolves a pair alone. Either gives the same reports.
struct Resolver {
    Resolver(Content& c, Pool* pool, const RenameSources& sources)
        : content(c),
          ahead(c.repo(), c, pool),
          pairs(c.repo(), c, ahead, sources),
          relocator(c, pairs),
          rules(c.repo(), c, pairs, ahead, relocator) {}

    // The group's specs, each handed to `take` with its index once resolved (with --history,
    // once the pair's are all followed back); then the pair is given up. `starts` of the
    // group's specs are moved from.
    Result<Unit> resolve(const PairGroup& group, const std::vector<Spec>& specs,
                         std::vector<StartedSpec>& starts, bool history,
                         const std::function<void(std::size_t, SpecReport)>& take,
                         const std::function<void(std::size_t)>& each_anchor = {}) {
        std::vector<SpecReport> held;  // --history: the pair's, until the walk is made
        for (std::size_t i : group.specs) {
            auto one = resolve_spec(content, rules, pairs, specs[i], std::move(starts[i]),
                                    each_anchor ? std::function<void()>([&] { each_anchor(i); })
                                                : std::function<void()>());
            if (!one) return one.error();
            one->history = history;
            if (history)
                held.push_back(std::move(one).value());
            else
                take(i, std::move(one).value());
        }
        if (history) {  // the pair's anchors all known: one walk for all of them
            if (group.has_pair)
                if (auto added = add_history(content.repo(), group, held); !added)
                    return added.error();
            for (std::size_t n = 0; n < held.size(); ++n) take(group.specs[n], std::move(held[n]));
        }
        rules.release_followed();
        if (group.has_pair) pairs.release(group.base, group.target);
        return Unit{};
    }

    Content& content;
    // The pairs are declared after the read-ahead, so they outlive the pool's tasks that
    // read their diffs.
    ReadAhead ahead;
    Pairs pairs;
    Relocator relocator;
    AnchorRules rules;
};

// A batch's pairs of commits, each resolved on the pool by a task of its own, over the
// thread's reader, with a content cache of its own (the pairs in flight share the budget of
// --cache-mib, each a thread's part of it), while the main thread takes the results
// in order and resolves the other groups. Waits for the tasks it queued when it goes, so that
// none outlives what it reads; those not yet begun then do nothing.
class PairTasks {
  public:
    using Done = std::vector<std::pair<std::size_t, SpecReport>>;  // spec index, report

    // Queues every group of `groups` between two commits.
    PairTasks(Pool& pool, const Content& content, const std::vector<PairGroup>& groups,
              const std::vector<Spec>& specs, std::vector<StartedSpec>& starts,
              const RenameSources& sources, const ResolveOptions& options)
        : tasks_(groups.size()) {
        for (std::size_t g = 0; g < groups.size(); ++g) {
            if (!groups[g].has_pair || !groups[g].target) continue;
            tasks_[g] = pool.run([&, g, budget = content.budget() / pool.size()](
                                     const git::Repository& reader) -> Result<Done> {
                Done done;
                if (stop_) return done;
                Content own(reader, budget);
                Resolver resolver(own, nullptr, sources);
                auto made = resolver.resolve(
                    groups[g], specs, starts, options.history,
                    [&](std::size_t i, SpecReport r) { done.emplace_back(i, std::move(r)); });
                if (!made) return made.error();
                return done;
            });
        }
    }
    ~PairTasks() {
        stop_ = true;
        for (auto& task : tasks_)
            if (task.valid()) task.wait();
    }

    // Whether group `g` is the pool's.
    bool has(std::size_t g) const { return tasks_[g].valid(); }
    // Its reports, once its task is done (an exception it threw, thrown here).
    Result<Done> take(std::size_t g) { return tasks_[g].get(); }

  private:
    std::atomic<bool> stop_{false};
    std::vector<std::future<Result<Done>>> tasks_;
};

}  // namespace

Result<Report> resolve(Content& content, const std::vector<Spec>& given,
                       const ResolveOptions& options, Pool* pool) {
    const git::Repository& repo = content.repo();
    // Every spec's base, target and since, each revision looked up once.
    auto started = start_specs(repo, given, options, pool);
    if (!started) return started.error();
    std::vector<StartedSpec>& starts = started.value();
    auto mentions = settle_mentions(repo, given, starts);
    if (!mentions) return mentions.error();
    const std::vector<Spec>& specs = mentions.value() ? *mentions.value() : given;

    const std::vector<PairGroup> groups = group_by_pair(starts);
    const RenameSources sources = rename_sources_of(specs, starts);
    // Two pairs of commits or more: each resolved whole on a pool thread. Else the main
    // thread resolves every pair, the pool reading and diffing a little ahead.
    const auto between_commits = std::count_if(groups.begin(), groups.end(), [](const auto& g) {
        return g.has_pair && g.target.has_value();
    });
    const bool by_pair = pool && between_commits >= 2;
    Resolver main(content, by_pair ? nullptr : pool, sources);
    // A working tree whose anchored paths are simple is diffed at those paths alone.
    if (options.settle_paths_alone) {
        if (auto settled = main.pairs.settle_paths_alone(specs, starts); !settled)
            return settled.error();
    }
    main.ahead.plan(specs, groups, main.pairs);
    // The last group on each base: past it, the base's paths listed for near misses go.
    std::map<std::string, std::size_t> last_on_base;
    for (std::size_t g = 0; g < groups.size(); ++g)
        if (groups[g].has_pair) last_on_base[groups[g].base] = g;

    std::vector<std::optional<SpecReport>> done(specs.size());
    std::size_t told = 0;  // specs given to on_spec, in input order
    // Progress in anchors, so that one large spec shows it too: each anchor the main thread
    // resolves, and a spec's rest when it is taken (a pool thread resolved it whole).
    std::size_t anchors = 0, resolved = 0;
    for (const Spec& spec : specs) anchors += spec.anchors.size();
    std::vector<std::size_t> counted(specs.size());
    auto count = [&](std::size_t i, std::size_t upto) {
        resolved += upto - counted[i];
        counted[i] = upto;
        if (options.on_progress) options.on_progress(resolved, anchors);
    };
    auto take = [&](std::size_t i, SpecReport one) {
        done[i] = std::move(one);
        for (; told < done.size() && done[told]; ++told)
            if (options.on_spec) options.on_spec(*done[told]);
        count(i, specs[i].anchors.size());
    };
    auto each_anchor = [&](std::size_t i) {
        if (counted[i] + 1 < specs[i].anchors.size()) count(i, counted[i] + 1);  // the last: take
    };
    std::optional<PairTasks> tasks;
    if (by_pair) tasks.emplace(*pool, content, groups, specs, starts, sources, options);
    for (std::size_t g = 0; g < groups.size(); ++g) {
        const PairGroup& group = groups[g];
        if (tasks && tasks->has(g)) {
            auto got = tasks->take(g);
            if (!got) return got.error();
            for (auto& [i, one] : got.value()) take(i, std::move(one));
            continue;
        }
        main.ahead.advance(g);
        if (auto made = main.resolve(group, specs, starts, options.history, take, each_anchor);
            !made)
            return made.error();
        if (group.has_pair && last_on_base[group.base] == g) main.rules.forget_paths(group.base);
    }
    Report report;
    for (auto& one : done) report.specs.push_back(std::move(*one));
    return report;
}

}  // namespace cp
