// Each spec's revisions, resolved once for the whole batch: its base, its target (the working
// tree, HEAD in a bare repository, or its own base with --at-base) and --since, every distinct
// revision looked up once. A revision that names no commit is not an error: it becomes the
// reason every anchor of its spec gets. Main thread, with the pool's help.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "context_pack/core/result.hpp"
#include "context_pack/git/repository.hpp"
#include "context_pack/model/report.hpp"
#include "context_pack/model/spec.hpp"
#include "context_pack/resolve/pool.hpp"
#include "context_pack/resolve/resolve.hpp"

namespace cp {

// A spec with its revisions resolved: its report's header (base, target, since filled in) and,
// when a revision is wrong, the reason every anchor gets.
struct StartedSpec {
    SpecReport out;
    std::string problem;  // empty when base and target both resolved

    // The target commit, or nullopt for the working tree (an unresolved target has a problem).
    std::optional<std::string> target() const { return out.target_commit(); }
};

// One StartedSpec per spec, in order; a working-tree target's report names HEAD's commit.
// Errors only when HEAD cannot be read (a bare repository's target, or beside a working tree).
// With a pool, a batch's many revisions are looked up on its threads too, each on its reader.
Result<std::vector<StartedSpec>> start_specs(const git::Repository& repo,
                                             const std::vector<Spec>& specs,
                                             const ResolveOptions& options, Pool* pool);

}  // namespace cp
