// Resolution: carry every anchor of every spec from its base onto its target and fill the
// report. One name-level diff per distinct (base, target), -U0 hunks once per anchored path,
// one content read per file whose symbols need checking. resolve() is the recipe; its parts
// sit beside it in src/resolve/: revisions, pairs (diffs and hunks), read_ahead (the pool's
// head start), anchor (the per-anchor rules) and relocation (beyond the diff).
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "context_pack/core/result.hpp"
#include "context_pack/git/repository.hpp"
#include "context_pack/model/report.hpp"
#include "context_pack/model/spec.hpp"
#include "context_pack/resolve/content.hpp"
#include "context_pack/resolve/pool.hpp"

namespace cp {

struct ResolveOptions {
    std::optional<std::string> base;    // --base: overrides every spec's base
    std::optional<std::string> target;  // --target: overrides every spec's target
    bool at_base = false;               // --at-base: every spec's target is its own base
    std::optional<std::string> since;   // --since: mark anchors whose lines changed since
    // --history: each anchor's history (AnchorResult::history), one walk of base..target
    // per pair for all of its anchors (git::Repository::line_history).
    bool history = false;
    // In the working tree, settle each anchored path alone when every one allows it, rather
    // than diffing the whole tree (see git::Repository::worktree_diff_of). The answers are
    // the same; off only to compare the two ways.
    bool settle_paths_alone = true;
    // Called with each spec's report as soon as it is resolved, in input order (--format
    // jsonl with --table prints it there and then). The report still holds every spec.
    std::function<void(const SpecReport&)> on_spec;
    // Called as anchors are resolved with how many are done, of how many in all the specs
    // (progress on a terminal, and over MCP): after each anchor the main thread resolves,
    // and after each spec.
    std::function<void(std::size_t done, std::size_t total)> on_progress;
};

// Errors are only what stops the whole run (a failed diff, an index libgit2 cannot read);
// per-anchor outcomes, including a base that is not in the repository and an object the store
// cannot give (missing, or damaged: the anchors that need it say so), are report data.
// `content` carries the repository and caches the file bytes that later steps read again.
// `pool`, when given, resolves pairs of commits on its threads when there are two or more,
// else reads and diffs ahead (see pool.hpp); the report is the same without.
Result<Report> resolve(Content& content, const std::vector<Spec>& specs,
                       const ResolveOptions& options, Pool* pool = nullptr);

// Why a revision did not name one commit, with the mend; empty when it did. `role` is
// "base", "target" or "--since".
std::string revision_problem(const git::Repository& repo, const char* role, const std::string& rev,
                             const git::Revision& revision);

// Why `path` cannot name a file inside the repository, or nullopt when it can.
std::optional<std::string> path_problem(std::string_view path);

}  // namespace cp
