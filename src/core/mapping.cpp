#include "context_pack/core/mapping.hpp"

#include <algorithm>

namespace cp {
namespace {

LineNo net(const Hunk& h) {
    return h.new_count - h.old_count;
}

// True when every old line the hunk removes, or its insertion point, lies before `line`.
bool before(const Hunk& h, LineNo line) {
    return h.old_count == 0 ? h.old_start < line : h.old_start + h.old_count - 1 < line;
}

bool removes(const Hunk& h, LineNo line) {
    return h.old_count > 0 && h.old_start <= line && line < h.old_start + h.old_count;
}

// Where old line `line` lands at target: through the hunks before it if it survives, else at
// the first (want_first) or last line of the new side of the hunk that removed it. A pure
// deletion has an empty new side after line new_start: its "first" line is the one after it
// and its "last" the one before it, so a fully deleted range maps to an empty range.
LineNo carry(std::span<const Hunk> hunks, LineNo line, bool want_first) {
    LineNo shift = 0;
    for (const Hunk& h : hunks) {
        if (removes(h, line)) {
            if (h.new_count == 0) return want_first ? h.new_start + 1 : h.new_start;
            return want_first ? h.new_start : h.new_start + h.new_count - 1;
        }
        if (!before(h, line)) break;
        shift += net(h);
    }
    return line + shift;
}

}  // namespace

bool overlaps(const Hunk& h, LineRange r) {
    if (h.old_count == 0) return r.start <= h.old_start && h.old_start < r.end;
    return h.old_start <= r.end && r.start <= h.old_start + h.old_count - 1;
}

bool all_removed(std::span<const Hunk> hunks, LineRange range) {
    LineNo next = range.start;  // the first line of the range not yet known removed
    for (const Hunk& h : hunks) {
        if (h.old_count == 0) continue;
        if (h.old_start > next) break;
        next = std::max(next, h.old_start + h.old_count);
        if (next > range.end) return true;
    }
    return false;
}

Mapping map_range(std::span<const Hunk> hunks, LineRange range) {
    bool touched = false;
    for (const Hunk& h : hunks) touched = touched || overlaps(h, range);

    Mapping m;
    m.to = {carry(hunks, range.start, true), carry(hunks, range.end, false)};
    if (touched) {
        m.status = LineStatus::Touched;
        m.lines_deleted = m.to.empty();
    } else {
        m.status = m.to.start == range.start ? LineStatus::Same : LineStatus::Moved;
    }
    return m;
}

std::optional<Mapping> parted_margins(std::span<const Hunk> hunks, LineRange range, LineNo lead,
                                      LineNo trail) {
    const LineRange core{range.start + lead, range.end - trail};
    if (lead < 0 || trail < 0 || core.empty()) return std::nullopt;
    bool parted = false;
    for (const Hunk& h : hunks) parted = parted || (overlaps(h, range) && !overlaps(h, core));
    if (!parted) return std::nullopt;
    Mapping m = map_range(hunks, core);
    if (m.lines_deleted) return std::nullopt;
    return m;
}

}  // namespace cp
