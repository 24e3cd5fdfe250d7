// The pack step: after resolution, read each target's files once more to attach windows and
// caller lists to the report. Callers are found in one pass over each target's files for
// every symbol of every spec on that target: a commit's tracked files, or the working tree's
// tracked files and its untracked ones that are not ignored; --callers-in narrows them.
#pragma once

#include "context_pack/core/pathspec.hpp"
#include "context_pack/core/result.hpp"
#include "context_pack/core/window.hpp"
#include "context_pack/model/report.hpp"
#include "context_pack/resolve/content.hpp"
#include "context_pack/resolve/pool.hpp"

namespace cp {

struct PackOptions {
    WindowOptions window;
    std::size_t max_callers = 50;  // hits listed per symbol; beyond them, per-file counts
    bool callers = true;
    PathFilter callers_in;  // --callers-in: the files searched for callers (all by default)
    // Repository paths never searched for callers: the spec files read, where they lie in
    // the work tree (a plan mentions the symbols it is about; it calls none of them).
    std::vector<std::string> not_callers;
};

// With --since, only anchors whose lines were edited get windows and caller lists. `pool`,
// when given, shares the caller scan's reading; the result is the same without. A file the
// object store cannot give is passed over, and the anchors it concerns say so in their notes
// (their window not shown; callers not searched there).
Result<Unit> add_windows_and_callers(Content& content, Report& report, const PackOptions& options,
                                     Pool* pool = nullptr);

}  // namespace cp
