// Line ranges carried back through one commit's diff, as `git log -L` carries them (git's
// line-log.c): the backward half of the boundary rule. Pure values, no git. A range here is
// 0-based and half-open, [start, end), as line-log.c keeps it; a set of them is sorted, with
// no empty, overlapping or adjacent members.
#pragma once

#include <span>
#include <vector>

#include "context_pack/core/mapping.hpp"

namespace cp::line_log {

struct Span {
    LineNo start = 0;
    LineNo end = 0;
    friend bool operator==(const Span&, const Span&) = default;
};
using RangeSet = std::vector<Span>;

// One diff as line-log.c's diff_ranges: hunk i is parent[i] -> target[i], in order.
struct DiffRanges {
    std::vector<Span> parent;
    std::vector<Span> target;
};

// -U0 hunks (old side: the parent, new side: the commit) as diff ranges.
DiffRanges diff_ranges(std::span<const Hunk> hunks);

// The inclusive 1-based range `first..last` as a range set (empty when last < first).
RangeSet range_of(LineNo first, LineNo last);

// Sorted, empty members dropped, overlapping and adjacent ones joined (sort_and_merge_range_set).
RangeSet normalized(RangeSet set);

// The union of two range sets (range_set_union).
RangeSet unite(const RangeSet& a, const RangeSet& b);

// What one commit's diff does to a range set at the commit: the hunks whose target side
// overlaps it are the commit's (`touched`, which makes the commit one that changed the
// lines), and the set at the parent is the rest shifted across the diff plus those hunks'
// parent sides (range_set_map_across_diff).
struct Carried {
    RangeSet parent;
    bool touched = false;
};
Carried carry_back(const RangeSet& at_commit, const DiffRanges& diff);

}  // namespace cp::line_log
