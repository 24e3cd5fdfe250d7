#include "context_pack/resolve/resolve.hpp"

#include <fmt/format.h>

#include <future>
#include <map>
#include <memory>

#include "context_pack/resolve/content.hpp"
#include "context_pack/core/mapping.hpp"
#include "context_pack/resolve/pool.hpp"
#include "context_pack/core/relocate.hpp"
#include "context_pack/core/text.hpp"

namespace cp {
namespace {

using git::Change;
using git::EntryKind;
using git::Revision;

const char* kind_word(EntryKind kind) {
    switch (kind) {
        case EntryKind::File: return "file";
        case EntryKind::Symlink: return "symlink";
        case EntryKind::Submodule: return "submodule";
        case EntryKind::Directory: return "directory";
    }
    return "entry";
}

}  // namespace

// Why a revision did not name one commit, with the mend.
std::string revision_problem(const git::Repository& repo, const char* role, const std::string& rev,
                             const Revision& r) {
    switch (r.outcome) {
        case Revision::Outcome::Commit: return {};
        case Revision::Outcome::NotFound:
            if (repo.is_shallow())
                return fmt::format("{} {} not in this shallow clone: git fetch --unshallow origin",
                                   role, rev);
            return fmt::format("{} {} not in this repository: git fetch origin {}", role, rev, rev);
        case Revision::Outcome::Ambiguous: {
            std::string list;
            for (const auto& c : r.candidates) list += (list.empty() ? "" : ", ") + c;
            return fmt::format("{} {} is ambiguous{}{}{}; give more hex digits", role, rev,
                               list.empty() ? "" : " (", list, list.empty() ? "" : ")");
        }
        case Revision::Outcome::NotACommit:
            return fmt::format("{} {} names {}, not a commit", role, rev, text::short_oid(r.oid));
        case Revision::Outcome::Invalid:
            return fmt::format("{} '{}' is not a valid revision", role, rev);
        case Revision::Outcome::Missing:
            return fmt::format("{} {} names {}, which the object store cannot read: git fsck "
                               "names what is broken",
                               role, rev, text::short_oid(r.oid));
    }
    return {};
}

namespace {

// The pool's result for one anchored path: its hunks, and the blobs it read for them, which go
// to the content cache when resolution takes the hunks.
struct Fetched {
    std::optional<git::HunkInput> sides;
    Result<git::Hunks> hunks;
};

// Everything shared by the anchors of one (base, target): the diff, hunks per path, content.
struct Pair {
    Pair(std::string b, std::optional<std::string> t, git::Diff d)
        : base(std::move(b)), target(std::move(t)), diff(std::move(d)) {}
    std::string base;
    std::optional<std::string> target;  // nullopt: the working tree
    git::Diff diff;
    std::map<std::string, git::Hunks> hunks;  // by base path
    std::map<std::string, std::future<Fetched>> pending;  // on the pool, by base path
    std::optional<git::Diff> whole;  // when `diff` is partial and the whole one is needed
    std::map<std::string, std::unique_ptr<Haystack>> haystacks;  // target files, by path
};

class Resolver {
    // A spec's revisions, resolved: its report's header, the target (nullopt: the working
    // tree) and, when a revision is wrong, the reason every anchor gets.
    struct Start {
        SpecReport out;
        std::optional<std::string> target;
        std::string problem;
    };

public:
    Resolver(const git::Repository& repo, Content& content, bool search_elsewhere, Pool* pool)
        : repo_(repo), content_(content), search_elsewhere_(search_elsewhere), pool_(pool) {}

    // Tasks on the pool use the pairs: an early return waits for those still queued.
    ~Resolver() {
        for (auto& [key, diff] : diffs_) diff.wait();
        for (auto& [key, half] : staged_) half.wait();
        for (auto& [oid, read] : reads_) read.wait();
        for (auto& [key, p] : pairs_)
            for (auto& [path, fetched] : p->pending) fetched.wait();
    }

    Result<Report> run(const std::vector<Spec>& specs, const ResolveOptions& options) {
        std::vector<Start> starts;  // each spec's revisions, resolved once
        for (const Spec& spec : specs) {
            auto start = start_spec(spec, options);
            if (!start) return start.error();
            starts.push_back(std::move(start).value());
        }
        if (options.settle_paths_alone) {
            if (auto settled = settle_paths_alone(specs, starts); !settled)
                return settled.error();
        }
        if (pool_) prefetch(specs, starts);
        Report report;
        for (std::size_t i = 0; i < specs.size(); ++i) {
            auto one = resolve_spec(specs[i], std::move(starts[i]), options);
            if (!one) return one.error();
            report.specs.push_back(std::move(one).value());
        }
        return report;
    }

private:
    const Revision& revision(const std::string& rev) {
        auto it = revisions_.find(rev);
        if (it == revisions_.end()) it = revisions_.emplace(rev, repo_.resolve_commit(rev)).first;
        return it->second;
    }

    static std::string pair_key(const std::string& base, const std::optional<std::string>& target) {
        return base + ":" + target.value_or("worktree");
    }

    Result<Pair*> pair(const std::string& base, const std::optional<std::string>& target) {
        auto key = pair_key(base, target);
        auto it = pairs_.find(key);
        if (it != pairs_.end()) return it->second.get();
        auto diff = [&]() -> Result<git::Diff> {  // the one name-level diff for this pair
            if (auto staged = staged_.find(key); staged != staged_.end()) {
                auto take = [&]() -> std::optional<git::StagedChanges> {
                    auto half = staged->second.get();  // failed: the whole diff is made here
                    if (!half) return std::nullopt;
                    return std::move(half).value();
                };
                auto made = repo_.diff(base, target, nullptr, take);
                if (staged->second.valid()) staged->second.wait();  // not taken: an error
                staged_.erase(staged);
                return made;
            }
            auto pending = diffs_.find(key);
            if (pending == diffs_.end()) return repo_.diff(base, target);
            auto made = pending->second.get();
            diffs_.erase(pending);
            return made;
        }();
        if (!diff) return diff.error();
        auto made = std::make_unique<Pair>(base, target, std::move(diff).value());
        return pairs_.emplace(key, std::move(made)).first->second.get();
    }

    // Every (base, working tree) pair whose anchored paths can each be settled alone gets a
    // partial diff of them (git::Repository::worktree_diff_of): its cost follows the anchors,
    // not the size of the tree, and its answers are the whole diff's. Any other pair gets the
    // whole diff when it is first needed.
    Result<Unit> settle_paths_alone(const std::vector<Spec>& specs,
                                    const std::vector<Start>& starts) {
        std::map<std::string, std::pair<std::string, std::vector<std::string>>> worktree;
        for (std::size_t i = 0; i < specs.size(); ++i) {
            const Start& start = starts[i];
            if (!start.problem.empty() || start.target) continue;
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

    // The whole diff of a pair whose own may be partial (see settle_paths_alone).
    Result<const git::Diff*> whole_diff(Pair& p) {
        if (!p.diff.partial()) return &p.diff;
        if (!p.whole) {
            auto whole = repo_.diff(p.base, p.target);
            if (!whole) return whole.error();
            p.whole = std::move(whole).value();
        }
        return &*p.whole;
    }

    Result<Start> start_spec(const Spec& spec, const ResolveOptions& options) {
        Start start;
        SpecReport& out = start.out;
        out.source = spec.source;
        out.id = spec.id;
        out.base_rev = options.base ? *options.base : spec.base.value_or("");
        out.target_rev = options.target ? *options.target : spec.target.value_or("");
        if (options.at_base) out.target_rev = out.base_rev;  // check the spec at its own base

        std::string problem;
        const Revision& base = revision(out.base_rev);
        problem = revision_problem(repo_, "base", out.base_rev, base);
        if (base.outcome == Revision::Outcome::Commit) out.base = base.oid;

        std::optional<std::string> target;
        if (!out.target_rev.empty()) {
            const Revision& t = revision(out.target_rev);
            if (t.outcome == Revision::Outcome::Commit) {
                target = t.oid;
            } else if (problem.empty()) {
                problem = revision_problem(repo_, "target", out.target_rev, t);
            }
        } else if (repo_.is_bare()) {
            auto head = repo_.head_commit();  // a bare repository has no working tree
            if (!head) return head.error();
            target = head.value();
        }
        // An unresolved target is no working tree: the report says it is unknown.
        out.target = target                  ? Target::at(*target)
                     : out.target_rev.empty() ? Target::working_tree()
                                              : Target{};
        start.target = target;
        start.problem = problem;
        return start;
    }

    // Before resolving, the pool gets a head start on the reading and diffing: every pair of
    // commits' name diff, then for each anchor the xdiff of its path (with both blobs read
    // there at a commit target; a working-tree file is read here, through the filters) or the
    // base blob its checks read. Resolution takes the results where it would have made them,
    // and whatever this skips or fails at, it does (and reports) itself, with the same
    // functions, so the answers never depend on the pool.
    void prefetch(const std::vector<Spec>& specs, const std::vector<Start>& starts) {
        std::vector<std::pair<const Spec*, const Start*>> started;
        for (std::size_t i = 0; i < specs.size(); ++i) {
            const Spec& spec = specs[i];
            const Start& s = starts[i];
            if (!s.problem.empty()) continue;
            auto key = pair_key(s.out.base, s.target);
            // The working tree's diff stats files and reads attributes: it is made here,
            // below, while the pool makes its staged half and reads the anchored base blobs.
            if (!s.target && !pairs_.count(key) && !staged_.count(key)) {
                staged_.emplace(key, pool_->run([base = s.out.base, index = repo_.index_file()](
                                                    const git::Repository& reader) {
                    return reader.staged_changes(base, index);
                }));
                for (const Anchor& a : spec.anchors) {
                    if (path_problem(a.path)) continue;
                    auto found = repo_.lookup(s.out.base, a.path);
                    if (found && found->entry && found->entry->kind == EntryKind::File)
                        read_ahead(found->entry->oid);
                }
            }
            if (s.target && !pairs_.count(key) && !diffs_.count(key))
                diffs_.emplace(key, pool_->run([this, base = s.out.base, target = s.target](
                                                   const git::Repository& reader) {
                    return repo_.diff(base, target, &reader);
                }));
            started.emplace_back(&spec, &s);
        }
        for (const auto& [spec, s] : started) {
            auto made = pair(s->out.base, s->target);
            if (!made) continue;
            for (const Anchor& a : spec->anchors) schedule(*made.value(), a);
        }
    }

    void schedule(Pair& p, const Anchor& a) {
        if (path_problem(a.path)) return;
        const git::Delta* delta = p.diff.find_old(a.path);
        if (!delta) {  // unchanged, or absent at base
            auto found = repo_.lookup(p.base, a.path);
            if (found && found->entry && found->entry->kind == EntryKind::File)
                read_ahead(found->entry->oid);
            return;
        }
        if (delta->old_kind != EntryKind::File) return;
        if (delta->new_kind != EntryKind::File || delta->change == Change::Deleted ||
            delta->change == Change::TypeChanged) {
            read_ahead(delta->old_oid);  // relocation searches for its lines
            return;
        }
        if (p.hunks.count(delta->old_path) || p.pending.count(delta->old_path)) return;
        auto old_attribute = p.diff.diff_attribute(delta->old_path);
        auto new_attribute = p.diff.diff_attribute(delta->new_path);
        std::optional<git::HunkInput> sides;  // read here for the working tree
        if (!p.target) {
            collect_read(delta->old_oid);
            auto base = content_.blob(delta->old_oid);
            if (!base || !base.value()) return;
            auto read = p.diff.read_sides(*delta, base.value());
            if (!read) return;
            sides = std::move(read).value();
        }
        p.pending.emplace(
            delta->old_path,
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

    // A blob read on the pool, as Content::blob reads it (nullopt: over the size limit).
    void read_ahead(const std::string& oid) {
        if (content_.held(oid) || reads_.count(oid)) return;
        reads_.emplace(oid, pool_->run([oid](const git::Repository& reader) {
            return reader.blob_within_limit(oid);
        }));
    }

    // Takes a blob the pool read into the content cache. A failure is left for
    // Content::blob to meet and report.
    void collect_read(const std::string& oid) {
        auto pending = reads_.find(oid);
        if (pending == reads_.end()) return;
        auto got = pending->second.get();
        reads_.erase(pending);
        if (got && got.value()) content_.adopt(oid, std::move(*got.value()));
    }

    // Takes the pool's hunks for a delta, if it was given them: the hunks for hunks_for(), the
    // blobs read for the content cache. A failure is left for hunks_for() to meet and report.
    void collect(Pair& p, const git::Delta& delta) {
        auto pending = p.pending.find(delta.old_path);
        if (pending == p.pending.end()) return;
        Fetched got = pending->second.get();
        p.pending.erase(pending);
        if (!got.hunks) return;
        if (got.sides && p.target) {
            if (!got.sides->given_old && got.sides->has_old && !got.sides->too_large)
                content_.adopt(delta.old_oid, std::move(got.sides->owned_old));
            if (!got.sides->given_new && got.sides->has_new && !got.sides->too_large)
                content_.adopt(delta.new_oid, std::move(got.sides->owned_new));
        }
        p.hunks.emplace(delta.old_path, std::move(got.hunks).value());
    }

    Result<SpecReport> resolve_spec(const Spec& spec, Start started,
                                    const ResolveOptions& options) {
        SpecReport& out = started.out;
        const std::optional<std::string>& target = started.target;
        const std::string& problem = started.problem;

        Pair* p = nullptr;
        if (problem.empty()) {
            auto made = pair(out.base, target);
            if (!made) return made.error();
            p = made.value();
        }
        std::optional<std::string> since;
        if (options.since) {
            const Revision& s = revision(*options.since);
            out.since_rev = *options.since;
            if (s.outcome == Revision::Outcome::Commit) since = out.since = s.oid;
        }
        for (const Anchor& anchor : spec.anchors) {
            AnchorResult r;
            r.anchor = anchor;
            r.row = out.anchors.size() + 1;
            if (!problem.empty()) {
                r.reason = problem;
            } else if (auto filled = resolve_anchor(*p, r, true); !filled) {
                return filled.error();
            } else if (since) {
                auto edited = edited_since(out.base, *since, target, r);
                if (!edited) return edited.error();
                r.edited_since = edited.value();
            }
            out.anchors.push_back(std::move(r));
        }
        return std::move(out);
    }

    // Whether an edit between `since` and the target touched the anchor's lines as they stood
    // at `since`: a hunk overlapping them, or their file renamed or deleted since.
    Result<bool> edited_since(const std::string& base, const std::string& since,
                              const std::optional<std::string>& target, const AnchorResult& r) {
        auto later = pair(since, target);
        if (!later) return later.error();
        Pair& now = *later.value();
        if (r.status == Status::New) {  // a file the plan creates: any change to it counts
            return now.diff.find_old(r.anchor.path) != nullptr ||
                   now.diff.find_new(r.anchor.path) != nullptr;
        }
        auto earlier = pair(base, since);
        if (!earlier) return earlier.error();
        AnchorResult then;
        then.anchor = r.anchor;
        if (auto filled = resolve_anchor(*earlier.value(), then, false); !filled)
            return filled.error();
        if (!then.to || then.status == Status::Gone) return then.status != r.status;
        const git::Delta* delta = now.diff.find_old(then.to->path);
        if (!delta) return false;
        if (delta->change != Change::Modified) return true;  // renamed, deleted, retyped
        auto hunks = hunks_for(now, *delta);
        if (!hunks) return hunks.error();
        LineRange range{then.to->line, then.to->end_line};
        for (const Hunk& h : hunks.value()->hunks) {
            if (range.empty() ? h.old_count == 0 && h.old_start == range.end
                              : overlaps(h, range))
                return true;
        }
        return false;
    }

    Result<const git::Hunks*> hunks_for(Pair& p, const git::Delta& delta,
                                         const std::string* old_bytes = nullptr) {
        collect(p, delta);
        auto it = p.hunks.find(delta.old_path);
        if (it == p.hunks.end()) {  // hunks once per anchored path
            const std::string* new_bytes = nullptr;  // the target blob, if the cache holds it
            if (p.target) {
                auto target = content_.blob(delta.new_oid);
                if (!target) return target.error();
                new_bytes = target.value();
            }
            auto hunks = p.diff.hunks(delta, old_bytes, new_bytes);
            if (!hunks) return hunks.error();
            it = p.hunks.emplace(delta.old_path, std::move(hunks).value()).first;
        }
        return &it->second;
    }

    Result<Unit> resolve_anchor(Pair& p, AnchorResult& r, bool check_symbols) {
        const Anchor& a = r.anchor;
        if (auto bad = path_problem(a.path)) {
            r.reason = *bad;
            return Unit{};
        }
        if (a.line < 1) {
            r.reason = fmt::format("line {} is before the first line: lines count from 1", a.line);
            return Unit{};
        }
        if (a.last_line() < a.line) {
            r.reason = fmt::format("end_line {} is before line {}", a.last_line(), a.line);
            return Unit{};
        }

        auto found = repo_.lookup(p.base, a.path);
        if (!found) return found.error();
        const git::PathLookup& at_base = found.value();
        if (!at_base.blocked_by.empty()) {
            r.reason = fmt::format("{} lies inside {} {} at base; anchor files of this repository",
                                   a.path, kind_word(at_base.blocked_kind), at_base.blocked_by);
            return Unit{};
        }
        if (!at_base.entry) return resolve_new(p, r);
        if (at_base.entry->kind != EntryKind::File) {
            r.reason = fmt::format("{} is a {} at base, not a file", a.path,
                                   kind_word(at_base.entry->kind));
            return Unit{};
        }

        if (const git::Delta* d = p.diff.find_old(a.path)) collect(p, *d);
        collect_read(at_base.entry->oid);
        // A blob in the cache is within the size limit; any other is measured before it is read.
        auto base_size = content_.held(at_base.entry->oid)
                             ? Result<std::uint64_t>(0)
                             : repo_.blob_size(at_base.entry->oid);
        if (!base_size) return base_size.error();
        if (base_size.value() > repo_.max_file_bytes()) {
            r.reason = fmt::format("{} is {} MiB at base, over the {} MiB the tool reads; raise "
                                   "--max-file-mib to carry it",
                                   a.path, base_size.value() >> 20, repo_.max_file_bytes() >> 20);
            return Unit{};
        }
        auto base_content = content_.blob(at_base.entry->oid);
        if (!base_content) return base_content.error();
        std::int64_t lines = text::count_lines(*base_content.value());
        if (a.last_line() > lines) {
            r.reason = fmt::format("{}:{}-{} is past the end of the file at base ({} lines)",
                                   a.path, a.line, a.last_line(), lines);
            return Unit{};
        }
        r.binary = text::looks_binary(*base_content.value());

        LineRange range{a.line, a.last_line()};
        const git::Delta* delta = p.diff.find_old(a.path);
        if (!p.target) {
            // Reads never follow a symlink out of the working tree: refuse, don't guess.
            const std::string& there = delta ? delta->new_path : a.path;
            if (auto link = repo_.worktree_symlink(there)) {
                r.reason = fmt::format("{} is reached through the symlink {} in the working "
                                       "tree; refused, as it may lead outside the repository",
                                       there, *link);
                return Unit{};
            }
        }
        if (!delta) {  // unchanged between base and target
            r.status = Status::Same;
            r.to = Location{a.path, range.start, range.end};
            return check_symbols ? check_symbol(r, base_content.value()) : Unit{};
        }
        if (delta->change == Change::Deleted) {
            r.status = Status::Gone;
            r.reason = fmt::format("{} deleted at target; no file of similar content found",
                                   a.path);
            return relocate(p, r, *base_content.value(), nullptr, nullptr);
        }
        if (delta->change == Change::TypeChanged || delta->new_kind != EntryKind::File) {
            r.status = Status::Gone;
            r.reason = fmt::format("{} is a {} at target, no longer a file", delta->new_path,
                                   kind_word(delta->new_kind));
            return Unit{};
        }
        r.renamed = delta->change == Change::Renamed;

        auto found_hunks = hunks_for(p, *delta, base_content.value());
        if (!found_hunks) return found_hunks.error();
        const git::Hunks& h = *found_hunks.value();
        if (h.too_large) {
            r.reason = fmt::format("{} is over the {} MiB the tool reads at target; raise "
                                   "--max-file-mib to carry it",
                                   delta->new_path, repo_.max_file_bytes() >> 20);
            return Unit{};
        }
        if (h.binary || r.binary) {
            r.binary = true;
            if (!h.hunks.empty() || delta->change != Change::Renamed || delta->similarity < 100) {
                r.reason = fmt::format("binary file {} changed: no line hunks to carry the range",
                                       a.path);
                return Unit{};
            }
        }
        Mapping m = map_range(h.hunks, range);
        r.status = m.status == LineStatus::Same    ? Status::Same
                   : m.status == LineStatus::Moved ? Status::Moved
                                                   : Status::Touched;
        r.lines_deleted = m.lines_deleted;
        r.to = Location{delta->new_path, m.to.start, m.to.end};
        if (r.binary) return Unit{};

        auto target_content = content_.file(p.target, delta->new_path);
        if (!target_content) return target_content.error();
        // The diff lost the lines (none of them survives): look for them by content.
        if (r.lines_deleted || all_removed(h.hunks, range)) {
            auto relocated =
                relocate(p, r, *base_content.value(), target_content.value(), &h.hunks);
            if (!relocated) return relocated;
        } else if (r.status == Status::Touched && target_content.value()) {
            point_to_best(r, *base_content.value(), *target_content.value());
        }
        if (!check_symbols) return Unit{};
        return check_symbol(r, target_content.value());
    }

    // SPEC §4a: find the anchor's base text at the target when the diff lost it: exact
    // matches first, in its own file (only among lines the diff added there, so an old copy
    // that never moved is not taken for it) and, when windows are wanted, in every file the
    // diff added or changed; then the same ignoring whitespace. A unique match in its own file
    // moves an anchor whose lines were deleted ("by": "content") when the block vouches for
    // itself (three lines or more, or a neighbour that came along, and exact for one or two
    // lines); any other unique match is a pointer (found_at) and the status stays the diff's;
    // several are listed, never picked.
    Result<Unit> relocate(Pair& p, AnchorResult& r, const std::string& base_bytes,
                          const std::string* own_file, const std::vector<Hunk>* own_hunks) {
        auto base_lines = text::split_lines(base_bytes);
        std::vector<std::string_view> needle(base_lines.begin() + (r.anchor.line - 1),
                                             base_lines.begin() + r.anchor.last_line());
        if (!distinctive(needle)) return Unit{};
        const std::size_t limit = 10;
        const LineNo size = LineNo(needle.size());
        auto added = [&](LineNo at) {  // the match overlaps lines the diff added there
            if (!own_hunks) return true;
            return std::any_of(own_hunks->begin(), own_hunks->end(), [&](const Hunk& h) {
                return h.new_count > 0 && h.new_start <= at + size - 1 &&
                       at <= h.new_start + h.new_count - 1;
            });
        };
        std::vector<std::pair<std::string, BlockMatch>> found;
        for (Match how : {Match::Exact, Match::Whitespace}) {
            if (own_file && r.to) {
                for (const auto& m : find_block(haystack(p, r.to->path, *own_file), needle,
                                                limit + 1, how))
                    if (added(m.line)) found.emplace_back(r.to->path, m);
            }
            if (search_elsewhere_) {
                auto whole = whole_diff(p);
                if (!whole) return whole.error();
                for (const git::Delta& d : whole.value()->deltas()) {
                    if (found.size() > limit) break;
                    if (d.change == Change::Deleted || d.new_kind != EntryKind::File) continue;
                    if (r.to && d.new_path == r.to->path) continue;  // its own file: above
                    auto bytes = content_.file(p.target, d.new_path);
                    if (!bytes) return bytes.error();
                    if (!bytes.value() || text::looks_binary(*bytes.value())) continue;
                    for (const auto& m : find_block(haystack(p, d.new_path, *bytes.value()),
                                                    needle, limit + 1, how))
                        found.emplace_back(d.new_path, m);
                }
            }
            if (!found.empty()) break;
        }
        if (found.empty()) return Unit{};
        auto at = [&](const std::pair<std::string, BlockMatch>& f) {
            return Location{f.first, f.second.line, f.second.line + size - 1};
        };
        const bool whitespace = found[0].second.whitespace;
        // Several matches, or one or two lines found only by ignoring whitespace (weak
        // evidence), are listed, never picked.
        if (found.size() > 1 || (size < 3 && whitespace)) {
            Relocation::Candidates several;
            for (const auto& f : found)
                if (several.listed.size() < limit) several.listed.push_back(at(f));
            several.total = found.size();
            r.relocation = Relocation{std::move(several), whitespace};
            return Unit{};
        }
        const auto& only = found[0];
        bool own = r.to && only.first == r.to->path;
        bool sure = own && (size >= 3 ? true
                                      : !only.second.whitespace &&
                                            neighbours_agree(base_lines, r.anchor.line,
                                                             r.anchor.last_line(),
                                                             haystack(p, r.to->path, *own_file)
                                                                 .lines(),
                                                             only.second.line));
        if (!r.lines_deleted || !sure) {
            r.relocation = Relocation{Relocation::FoundAt{at(only)}, whitespace};
            return Unit{};
        }
        r.relocation = Relocation{Relocation::Moved{*r.to, true}, whitespace};
        r.to = at(only);
        r.status = r.to->line == r.anchor.line && r.to->path == r.anchor.path ? Status::Same
                                                                              : Status::Moved;
        r.lines_deleted = false;
        return Unit{};
    }

    // True when the line just above or just below a block at base is also just above or
    // below where it was found.
    static bool neighbours_agree(const std::vector<std::string_view>& base, LineNo first,
                                 LineNo last, const std::vector<std::string_view>& target,
                                 LineNo at) {
        LineNo size = last - first + 1;
        auto telling = [](std::string_view line) {  // a blank line or a lone brace tells nothing
            return std::count_if(line.begin(), line.end(),
                                 [](char c) { return c != ' ' && c != '\t' && c != '\r'; }) >= 4;
        };
        auto same = [&](std::size_t b, std::size_t t) {
            return base[b] == target[t] && telling(base[b]);
        };
        bool above = first > 1 && at > 1 && same(std::size_t(first - 2), std::size_t(at - 2));
        bool below = last < LineNo(base.size()) && at + size - 1 < LineNo(target.size()) &&
                     same(std::size_t(last), std::size_t(at + size - 1));
        return above || below;
    }

    // A target file's lines, prepared once per (pair, path) for every search in it.
    const Haystack& haystack(Pair& p, const std::string& path, const std::string& bytes) {
        auto it = p.haystacks.find(path);
        if (it == p.haystacks.end())
            it = p.haystacks.emplace(path, std::make_unique<Haystack>(text::split_lines(bytes)))
                     .first;
        return *it->second;
    }

    // A TOUCHED range much wider than the anchor: name the lines most like its base text.
    void point_to_best(AnchorResult& r, const std::string& base_bytes,
                       const std::string& target_bytes) {
        LineNo width = r.anchor.last_line() - r.anchor.line + 1;
        LineNo range = r.to->end_line - r.to->line + 1;
        if (range < 2 * width || range - width < 3) return;
        auto base = text::split_lines(base_bytes);
        auto target = text::split_lines(target_bytes);
        if (LineNo(target.size()) < r.to->end_line) return;
        auto slice = [](const std::vector<std::string_view>& v, LineNo from, LineNo to) {
            from = std::max<LineNo>(from, 1);
            to = std::min<LineNo>(to, LineNo(v.size()));
            return from > to ? std::vector<std::string_view>{}
                             : std::vector<std::string_view>(v.begin() + (from - 1),
                                                             v.begin() + to);
        };
        auto anchor = slice(base, r.anchor.line, r.anchor.last_line());
        auto before = slice(base, r.anchor.line - 3, r.anchor.line - 1);
        auto after = slice(base, r.anchor.last_line() + 1, r.anchor.last_line() + 3);
        auto window = slice(target, r.to->line, r.to->end_line);
        auto best = best_subrange(window, r.to->line, anchor, before, after);
        if (best.score <= 0) return;
        r.relocation = Relocation{
            Relocation::MostLike{Location{r.to->path, best.line, best.end_line}, best.score}};
    }

    Result<Unit> resolve_new(Pair& p, AnchorResult& r) {
        r.status = Status::New;
        bool exists = false;
        if (p.target) {
            auto at_target = repo_.lookup(*p.target, r.anchor.path);
            if (!at_target) return at_target.error();
            exists = at_target->entry.has_value();
        } else {
            exists = p.diff.find_new(r.anchor.path) != nullptr;
            if (!exists) {
                auto file = content_.file(std::nullopt, r.anchor.path);
                if (!file) return file.error();
                exists = file.value() != nullptr;
            }
        }
        r.exists_at_target = exists;
        r.reason = fmt::format("{} absent at base; {} at target", r.anchor.path,
                               exists ? "present" : "not yet");
        return Unit{};
    }

    Result<Unit> check_symbol(AnchorResult& r, const std::string* content) {
        if (!r.anchor.symbol || !content) return Unit{};  // no bytes to check: unchecked
        bool found = false;
        if (r.to && r.to->end_line >= r.to->line) {
            auto lines = text::split_lines(*content);
            for (auto n = r.to->line; n <= r.to->end_line && n <= std::int64_t(lines.size()); ++n)
                found = found || text::contains_word(lines[n - 1], *r.anchor.symbol);
        }
        r.symbol_found = found;
        return Unit{};
    }

    const git::Repository& repo_;
    Content& content_;
    bool search_elsewhere_;  // look for lost lines in other changed files too
    Pool* pool_;             // null: everything on this thread
    std::map<std::string, Revision> revisions_;
    std::map<std::string, std::unique_ptr<Pair>> pairs_;
    std::map<std::string, std::future<Result<git::Diff>>> diffs_;  // on the pool, by pair key
    std::map<std::string, std::future<Result<git::StagedChanges>>> staged_;  // by pair key
    std::map<std::string, std::future<Result<std::optional<std::string>>>> reads_;  // by blob id

};

}  // namespace

std::optional<std::string> path_problem(std::string_view path) {
    auto bad = [&](std::string_view why) {
        return fmt::format("path '{}' {}; write it relative to the repository root with / "
                           "separators",
                           text::printable(path), why);
    };
    if (path.empty()) return bad("is empty");
    if (path.front() == '/') return bad("is absolute");
    if (path.find('\\') != std::string_view::npos) return bad("holds a backslash");
    if (path.find('\0') != std::string_view::npos) return bad("holds a NUL byte");
    std::size_t pos = 0;
    for (;;) {
        auto slash = path.find('/', pos);
        auto part = path.substr(pos, slash == std::string_view::npos ? path.npos : slash - pos);
        if (part == "..") return bad("leaves the repository through '..'");
        if (part.empty() || part == ".") return bad("has an empty or '.' component");
        if (part == ".git") return bad("points into .git");
        if (slash == std::string_view::npos) return std::nullopt;
        pos = slash + 1;
    }
}

Result<Report> resolve(Content& content, const std::vector<Spec>& specs,
                       const ResolveOptions& options, Pool* pool) {
    return Resolver(content.repo(), content, options.search_elsewhere, pool).run(specs, options);
}

}  // namespace cp
