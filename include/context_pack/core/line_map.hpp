// Line-level precision inside changed code: which target line each base line of a file became,
// as LHDiff asks it (Asaduzzaman et al., ICSM 2013). Lines the diff keeps map through its
// hunks; each line a hunk removes is matched against the lines the diff added near its place
// and, by equal text, anywhere in the file, by the similarity of its text and of the lines
// around it, one added line to one removed line: blocks moved between regions and lines moved
// first, then in order within a region of hunks (with names renamed as the region's pairs
// show them renamed), then lines split and merged (src/core/line_match.hpp).
// Below a stated score a line is never given a single answer. Pure: lines and hunks in.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "context_pack/core/mapping.hpp"

namespace cp {

// How a base line's counterpart was found. Exact to Moved answer one line (or, for Split, a
// run of lines); Ambiguous names candidates and picks none; Deleted has no counterpart.
enum class LineTier { Exact, Whitespace, Edited, Split, Merged, Moved, Ambiguous, Deleted };

std::string_view tier_name(LineTier tier);

struct LineCandidate {
    LineNo line = 0;
    double score = 0;
    LineNo end_line = 0;  // 0: the one line `line`
    LineNo last() const { return end_line ? end_line : line; }
};

struct LineAnswer {
    LineNo line = 0;  // first target line; 0 for Ambiguous and Deleted
    LineNo end_line = 0;
    double score = 0;    // 0..1: 1 for a line the diff kept
    double content = 0;  // 0..1: the similarity of the two lines' text (located lines;
                         // for a renamed line, with the names renamed)
    LineTier tier = LineTier::Deleted;
    std::vector<LineCandidate> candidates;  // Ambiguous only, best first
    bool telling = true;                    // the base line has four non-space bytes or more
    bool kept = false;                      // the diff kept the line (no hunk removed it)

    bool located() const { return line > 0; }
};

// The scores the answers rest on (documented in docs/design.md, "Line-level precision").
// A score is 0.6 the similarity of the two lines' text and 0.4 that of their contexts (the
// four non-blank lines above and below), as LHDiff weighs them. An added line whose text is
// less than kContent like a removed line's is not its counterpart (an unrelated line put in
// its place), unless it reads kGapContent alike, their contexts kGapContext alike, and it
// keeps the order of the lines paired around it, or reads kSureContent alike once the names
// that other pairs of its region show renamed are renamed in it. A removed line's counterpart
// scoring under kSure is answered Ambiguous (when it scores at least kFloor, else it has none),
// unless it pairs in order within its region (or at its hunk's edge) and reads kSureContent alike,
// or its block carried it; one answered is still Ambiguous when another added line that no other
// removed line took (for a line paired in order, one that keeps the order; at a hunk's edge, one of
// its region) scores within kMargin of it.
struct LineMapScores {
    static constexpr double kContent = 0.5;
    static constexpr double kGapContent = 0.4;
    static constexpr double kGapContext = 0.8;
    static constexpr double kFloor = 0.45;
    static constexpr double kSure = 0.6;
    static constexpr double kMargin = 0.04;
    static constexpr double kSureContent = 0.8;
};

// The map keeps both files and settles a region's lines the first time one of them is asked
// for, so that a file with many hunks costs only those its anchors touch (and an index of
// every changed line's text, which settles the blocks moved between regions).
class LineMap {
  public:
    // `hunks`: the file's -U0 hunks from base to target, sorted, as map_range takes them.
    // The files' bytes are shared, not copied, and kept while the map lives.
    LineMap(std::shared_ptr<const std::string> base, std::shared_ptr<const std::string> target,
            std::span<const Hunk> hunks);
    LineMap(const std::vector<std::string_view>& base, const std::vector<std::string_view>& target,
            std::span<const Hunk> hunks);

    // The answer for a base line (1-based, within the base file).
    LineAnswer at(LineNo base_line) const;
    // Whether base line `base_line` and target line `target_line` read the same, byte for byte
    // (false for a line outside its file).
    bool same_text(LineNo base_line, LineNo target_line) const;

  private:
    // Hunks whose lines are matched as one (see start()), and the span their sides cover.
    struct Region {
        std::size_t first = 0, last = 0;  // hunks
        LineNo old_start = 0, old_count = 0, new_start = 0, new_count = 0;
        // The line of one side at `position` (0..1) of the way through it: where a changed
        // line of the other side is looked for.
        LineNo at(double position, bool old_side) const;
    };
    void start();
    void index() const;
    void settle(std::size_t region) const;
    std::size_t region_at(LineNo line, bool old_side) const;
    // Whether base line `l`, of a block moved between regions, is its block's only line: it
    // grew no line, nor was grown, and no block line is beside it on both sides.
    bool lone_block(LineNo l) const;
    // Whether line `n` (of the base with `old_side`, else of the target) has an edit in place:
    // a changed line of the other side in its region, within kBand of its place there and of
    // no block moved between regions, that reads `floor` like it (kSureContent at least).
    bool edited_in_place(LineNo n, bool old_side, double floor) const;

    std::shared_ptr<const std::string> base_text_, target_text_;
    std::vector<std::string_view> base_, target_;  // their lines
    std::vector<Hunk> hunks_;
    std::vector<Region> regions_;
    std::vector<std::size_t> region_of_;                    // by hunk
    mutable std::vector<bool> settled_;                     // by region
    mutable std::vector<std::vector<LineAnswer>> answers_;  // by hunk, a removed line each
    // What index() makes: added lines by the key of their text and code, removed lines'
    // keys counted, and the blocks moved between regions (base line -> target line).
    mutable bool indexed_ = false;
    mutable std::unordered_map<std::uint64_t, std::vector<LineNo>> added_by_key_;
    mutable std::unordered_map<std::uint64_t, std::size_t> removed_count_;
    mutable std::unordered_map<LineNo, LineNo> block_;
    mutable std::unordered_set<LineNo> blocked_;  // the target lines of block_
    mutable std::unordered_set<LineNo> grown_;    // base lines of blocks that grew from a start
};

// The answer for a range of base lines: the span of target lines its located lines map to.
// Blank lines and braces that the diff kept away from the rest of the range, found moved, are
// put beside it where they read the same (the diff matched them with another `{`).
// Blank lines and braces do not place a range that has other lines; lines found far apart
// place it by their largest group when that holds most of them, else the groups are
// candidates (Ambiguous).
struct RangeAnswer {
    LineNo line = 0;  // 0 when no line of the range is located
    LineNo end_line = 0;
    double score = 0;  // the mean score of its located lines
    LineTier tier = LineTier::Deleted;
    std::vector<LineCandidate> candidates;  // Ambiguous only
    std::vector<LineAnswer> lines;          // one per base line of the range
};
RangeAnswer map_lines(const LineMap& map, LineRange range);

// Similarity of two lines in 0..1 with whitespace ignored: one minus their edit distance over
// the longer's length (bigram overlap for lines too long to align).
double line_similarity(std::string_view a, std::string_view b);

}  // namespace cp
