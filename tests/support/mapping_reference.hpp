// Brute-force reference for the boundary rule (SPEC §3), shared by the Catch2 test
// (tests/core/test_mapping_reference.cpp, random scripts from a seeded generator) and the libFuzzer
// target (tests/fuzz/fuzz_mapping.cpp, scripts decoded from bytes).
//
// An edit script over a file whose every line's identity is known is applied by hand; from the
// result come the `git diff -U0` hunk headers that map_range reads and, for any range of the
// old file, the answer the rule must give (its surviving lines plus the new text of the hunks
// that hit it). Nothing here is used by the tool itself.
#pragma once

#include <algorithm>
#include <cstddef>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "context_pack/core/mapping.hpp"

namespace cptest {

using cp::Hunk;
using cp::LineNo;
using cp::LineRange;
using cp::LineStatus;
using cp::Mapping;

// One edit of the script: just before old line `at`, remove `removed` old lines, insert
// `inserted` fresh ones. `at == n + 1` appends at the end.
struct Edit {
    LineNo at, removed, inserted;
};

struct Script {
    LineNo n = 0;                            // old line count
    std::vector<Edit> edits;                 // sorted, one unchanged old line between any two
    std::vector<LineNo> new_file;            // per new line: old line number, or -fresh id
    std::vector<LineNo> new_pos;             // per old line (1-based): its new line, 0 if removed
    std::vector<std::vector<LineNo>> gone;   // per edit: the old lines it removes
    std::vector<std::vector<LineNo>> fresh;  // per edit: the new lines it inserts
    std::vector<Hunk> hunks;                 // per edit: its `git diff -U0` header
};

// Applies `edits` to the identities 1..n and reads the new file, the positions and the hunk
// headers off the result. The edits must be as xdiff emits them: sorted, each with
// 1 <= at <= n + 1, removed <= n + 1 - at, removed + inserted > 0, and at least one unchanged
// old line between two edits (next.at > at + removed).
inline Script apply_edits(LineNo n, std::vector<Edit> edits) {
    Script sc;
    sc.n = n;
    sc.edits = std::move(edits);

    // Apply the script to the identities 1..n.
    std::vector<std::size_t> owner;  // fresh id - 1 -> edit index
    std::size_t next = 0;
    for (LineNo line = 1; line <= sc.n + 1;) {
        if (next < sc.edits.size() && sc.edits[next].at == line) {
            const Edit& ed = sc.edits[next];
            for (LineNo k = 0; k < ed.inserted; ++k) {
                owner.push_back(next);
                sc.new_file.push_back(-static_cast<LineNo>(owner.size()));
            }
            sc.gone.emplace_back();
            for (LineNo k = 0; k < ed.removed; ++k) sc.gone.back().push_back(line + k);
            line += ed.removed;
            ++next;
        }
        if (line <= sc.n) sc.new_file.push_back(line);
        ++line;
    }

    // Read the positions and the hunk headers off the resulting new file.
    sc.new_pos.assign(static_cast<std::size_t>(sc.n) + 1, 0);
    sc.fresh.resize(sc.edits.size());
    for (std::size_t i = 0; i < sc.new_file.size(); ++i) {
        const LineNo id = sc.new_file[i], pos = static_cast<LineNo>(i) + 1;
        if (id > 0)
            sc.new_pos[static_cast<std::size_t>(id)] = pos;
        else
            sc.fresh[owner[static_cast<std::size_t>(-id - 1)]].push_back(pos);
    }
    for (std::size_t i = 0; i < sc.edits.size(); ++i) {
        const Edit& ed = sc.edits[i];
        const LineNo before = ed.at - 1;  // unchanged (or 0): the line the hunk sits after
        const LineNo new_count = static_cast<LineNo>(sc.fresh[i].size());
        sc.hunks.push_back(
            {ed.removed > 0 ? ed.at : before, ed.removed,
             new_count > 0 ? sc.fresh[i].front() : (before > 0 ? sc.new_pos[before] : 0),
             new_count});
    }
    return sc;
}

// Whether hunk i of a script has git's -U0 shape: the line it sits after survives, its new
// lines follow that line's new position, and at least one unchanged old line separates it from
// the previous hunk. (The whole script also needs new_file.size() == n + sum of net counts.)
inline bool hunk_shape_ok(const Script& sc, std::size_t i) {
    const Hunk& h = sc.hunks[i];
    const LineNo after = h.old_count > 0 ? h.old_start - 1 : h.old_start;
    const LineNo new_after = h.new_count > 0 ? h.new_start - 1 : h.new_start;
    auto at = [](const Hunk& g) { return g.old_count > 0 ? g.old_start : g.old_start + 1; };
    bool ok =
        h.old_count + h.new_count > 0 &&
        (after == 0 ? new_after == 0 : sc.new_pos[after] != 0 && sc.new_pos[after] == new_after) &&
        (i == 0 || at(sc.hunks[i - 1]) + sc.hunks[i - 1].old_count < at(h));
    for (std::size_t k = 0; ok && k < sc.fresh[i].size(); ++k)
        ok = sc.fresh[i][k] == h.new_start + static_cast<LineNo>(k);
    return ok;
}

// Whether edit i hits [s, e], from identities: it removes a line in it, or inserts after p
// with s <= p < e.
inline bool hits(const Script& sc, std::size_t i, LineRange r) {
    for (LineNo line : sc.gone[i])
        if (r.start <= line && line <= r.end) return true;
    const LineNo p = sc.edits[i].at - 1;
    return sc.gone[i].empty() && r.start <= p && p < r.end;
}

// The answer for a range 1 <= r.start <= r.end <= n, worked out line by line.
inline Mapping reference(const Script& sc, LineRange r) {
    bool touched = false;
    // The smallest new range covering the lines below; lo starts past every new line.
    LineNo lo = static_cast<LineNo>(sc.new_file.size()) + 1, hi = 0;
    auto cover = [&](LineNo pos) { lo = std::min(lo, pos), hi = std::max(hi, pos); };
    for (LineNo line = r.start; line <= r.end; ++line)
        if (sc.new_pos[line] != 0) cover(sc.new_pos[line]);
    for (std::size_t i = 0; i < sc.edits.size(); ++i) {
        if (!hits(sc, i, r)) continue;
        touched = true;
        for (LineNo pos : sc.fresh[i]) cover(pos);
    }
    if (!touched) {
        const LineRange to{sc.new_pos[r.start], sc.new_pos[r.end]};
        return {to == r ? LineStatus::Same : LineStatus::Moved, to, false};
    }
    if (lo <= hi) return {LineStatus::Touched, {lo, hi}, false};
    LineNo q = 0;  // new position of the last surviving old line before s
    for (LineNo line = 1; line < r.start; ++line)
        if (sc.new_pos[line] != 0) q = sc.new_pos[line];
    return {LineStatus::Touched, {q + 1, q}, true};
}

// Everything wrong with `got` = map_range(sc.hunks, r), given want = reference(sc, r): the
// comparison with the reference plus the rule's invariants. Empty when all is well.
inline std::string range_problems(const Script& sc, LineRange r, const Mapping& got,
                                  const Mapping& want) {
    const LineNo m = static_cast<LineNo>(sc.new_file.size());
    std::string problems;
    if (!(got == want)) problems += "differs from the reference; ";
    if (got.status == LineStatus::Same && !(got.to == r)) problems += "SAME but shifted; ";
    for (std::size_t i = 0; i < sc.hunks.size(); ++i) {
        if (got.status == LineStatus::Same && hits(sc, i, r))
            problems += "SAME but a hunk overlaps; ";
        if (cp::overlaps(sc.hunks[i], r) != hits(sc, i, r))
            problems += "overlaps() wrong for hunk " + std::to_string(i) + "; ";
    }
    for (LineNo line = r.start; line <= r.end; ++line) {
        const LineNo pos = sc.new_pos[line];
        if (pos != 0 && (pos < got.to.start || got.to.end < pos))
            problems += "surviving line " + std::to_string(line) + " outside; ";
    }
    if (!got.lines_deleted && (got.to.start < 1 || m < got.to.end))
        problems += "outside [1, new line count]; ";
    if (got.lines_deleted && (got.to.end < 0 || m < got.to.end))
        problems += "empty range placed outside the file; ";
    if (got.lines_deleted != got.to.empty()) problems += "lines_deleted disagrees with emptiness; ";
    return problems;
}

inline std::string describe(const Mapping& m) {
    static const char* const names[] = {"SAME", "MOVED", "TOUCHED"};
    std::ostringstream out;
    out << names[static_cast<int>(m.status)] << " [" << m.to.start << ", " << m.to.end << "]"
        << (m.lines_deleted ? " lines_deleted" : "");
    return out.str();
}

inline std::string describe(const Script& sc) {
    std::ostringstream out;
    out << sc.n << " old lines -> " << sc.new_file.size() << " new;";
    for (const Hunk& h : sc.hunks)
        out << " @@ -" << h.old_start << "," << h.old_count << " +" << h.new_start << ","
            << h.new_count << " @@";
    return out.str();
}

}  // namespace cptest
