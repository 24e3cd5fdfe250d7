#include "context_pack/core/line_log.hpp"

#include <algorithm>

namespace cp::line_log {
namespace {

bool overlap(const Span& a, const Span& b) {
    return !(a.end <= b.start || b.end <= a.start);
}

// The hunks whose target side overlaps a member of `rs` (diff_ranges_filter_touched).
DiffRanges touched_by(const DiffRanges& diff, const RangeSet& rs) {
    DiffRanges out;
    if (rs.empty()) return out;
    std::size_t j = 0;
    for (std::size_t i = 0; i < diff.target.size(); ++i) {
        while (diff.target[i].start >= rs[j].end) {
            if (++j == rs.size()) return out;
        }
        if (overlap(diff.target[i], rs[j])) {
            out.parent.push_back(diff.parent[i]);
            out.target.push_back(diff.target[i]);
        }
    }
    return out;
}

// a \ b (range_set_difference).
RangeSet difference(const RangeSet& a, const std::vector<Span>& b) {
    RangeSet out;
    std::size_t j = 0;
    for (const Span& s : a) {
        LineNo start = s.start, end = s.end;
        while (start < end) {
            while (j < b.size() && start >= b[j].end) ++j;
            if (j >= b.size() || end <= b[j].start) {
                out.push_back({start, end});
                break;
            }
            if (start >= b[j].start) {
                start = b[j].end;
            } else if (end > b[j].start) {
                if (start < b[j].start) out.push_back({start, b[j].start});
                start = b[j].end;
            }
        }
    }
    return out;
}

// Each member moved by the lines the diff's earlier hunks add or remove (range_set_shift_diff).
RangeSet shifted(const RangeSet& rs, const DiffRanges& diff) {
    RangeSet out;
    std::size_t j = 0;
    LineNo offset = 0;
    for (const Span& s : rs) {
        while (j < diff.target.size() && s.start >= diff.target[j].start) {
            offset += (diff.parent[j].end - diff.parent[j].start) -
                      (diff.target[j].end - diff.target[j].start);
            ++j;
        }
        out.push_back({s.start + offset, s.end + offset});
    }
    return out;
}

}  // namespace

DiffRanges diff_ranges(std::span<const Hunk> hunks) {
    DiffRanges out;
    for (const Hunk& h : hunks) {
        // A hunk header names the line before an empty side; a 0-based start is the line itself.
        LineNo old_at = h.old_count ? h.old_start - 1 : h.old_start;
        LineNo new_at = h.new_count ? h.new_start - 1 : h.new_start;
        out.parent.push_back({old_at, old_at + h.old_count});
        out.target.push_back({new_at, new_at + h.new_count});
    }
    return out;
}

RangeSet range_of(LineNo first, LineNo last) {
    if (last < first) return {};
    return {{first - 1, last}};
}

RangeSet normalized(RangeSet set) {
    std::stable_sort(set.begin(), set.end(),
                     [](const Span& a, const Span& b) { return a.start < b.start; });
    RangeSet out;
    for (const Span& s : set) {
        if (s.start == s.end) continue;
        if (!out.empty() && s.start <= out.back().end)
            out.back().end = std::max(out.back().end, s.end);
        else
            out.push_back(s);
    }
    return out;
}

RangeSet unite(const RangeSet& a, const RangeSet& b) {
    RangeSet out;
    std::size_t i = 0, j = 0;
    while (i < a.size() || j < b.size()) {
        const Span* next;
        if (i < a.size() && j < b.size()) {
            if (a[i].start < b[j].start)
                next = &a[i++];
            else if (a[i].start > b[j].start)
                next = &b[j++];
            else if (a[i].end < b[j].end)
                next = &a[i++];
            else
                next = &b[j++];
        } else if (i < a.size()) {
            next = &a[i++];
        } else {
            next = &b[j++];
        }
        if (next->start == next->end) continue;
        if (out.empty() || out.back().end < next->start)
            out.push_back(*next);
        else if (out.back().end < next->end)
            out.back().end = next->end;
    }
    return out;
}

Carried carry_back(const RangeSet& at_commit, const DiffRanges& diff) {
    DiffRanges touched = touched_by(diff, at_commit);
    RangeSet rest = shifted(difference(at_commit, touched.target), diff);
    return {unite(rest, touched.parent), !touched.parent.empty()};
}

}  // namespace cp::line_log
