// The boundary rule: carry a line range at base through the -U0 hunks of its file.
// Pure value types and one function, no git: hunks + range -> status + range at target.
// The rule is SPEC §3's (the rule of `git log -L`); tests/core/test_mapping.cpp holds its cases.
#pragma once

#include <cstdint>
#include <optional>
#include <span>

namespace cp {

using LineNo = std::int64_t;

// One -U0 hunk as `git diff` prints it: `@@ -old_start,old_count +new_start,new_count @@`.
// A count of 0 means an empty side placed *after* line `start` (0 = before the first line).
struct Hunk {
    LineNo old_start = 0;
    LineNo old_count = 0;
    LineNo new_start = 0;
    LineNo new_count = 0;

    friend bool operator==(const Hunk&, const Hunk&) = default;
};

// Inclusive line range. `end == start - 1` is the empty range placed after line `end`.
struct LineRange {
    LineNo start = 0;
    LineNo end = 0;

    bool empty() const { return end < start; }
    friend bool operator==(const LineRange&, const LineRange&) = default;
};

enum class LineStatus { Same, Moved, Touched };

struct Mapping {
    LineStatus status = LineStatus::Same;
    LineRange to;                // the range at target
    bool lines_deleted = false;  // nothing of the range survives and its hunks add nothing

    friend bool operator==(const Mapping&, const Mapping&) = default;
};

// Maps a non-empty range (1 <= start <= end) through hunks sorted by old_start that do not
// overlap one another, as libgit2 and git produce them.
Mapping map_range(std::span<const Hunk> hunks, LineRange range);

// True when the hunks remove every line of `range`: nothing of it survives at target, though
// the hunks may put other text in its place.
bool all_removed(std::span<const Hunk> hunks, LineRange range);

// True when `hunk` touches `range`: it removes a line in [start, end], or it inserts after
// line p with start <= p < end.
bool overlaps(const Hunk& hunk, LineRange range);

// Margins parted from the code: where a hunk touches `range` only in its `lead` first lines
// and its `trail` last lines (blank lines at base) or between them and the rest, putting new
// lines beside the anchor's code or taking its margins away with the code next to it, the
// rest's mapping: SAME or MOVED where no hunk touches it, else TOUCHED, never past the new
// lines at its edges. nullopt where no hunk touches the margins alone, or where the rest's
// lines are all deleted.
std::optional<Mapping> parted_margins(std::span<const Hunk> hunks, LineRange range, LineNo lead,
                                      LineNo trail);

}  // namespace cp
