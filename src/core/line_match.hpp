// Which added line each removed line of a region became, given their candidates: the choice
// step of the line map, one added line to one removed line, by these rules in turn (after the
// pairs of blocks that moved between regions, which line_map.cpp finds for the whole file):
//   moved    a line that reads almost the same as one added line of the region (and as no
//            other), its text no other removed line's, in order or not;
//   replaced a hunk's one removed line and one added line, reading half alike: the diff put
//            the one in the other's place between kept lines, and the chain keeps their order;
//   chain    the pairs that keep both sides' order with the greatest total score (a heaviest
//            common subsequence), so that an edited block pairs in order;
//   edge     a hunk's first removed and first added line (or its last and last), both left
//            free, when they read half alike: the diff put them beside the same kept line,
//            though a line moved across them kept them out of the chain;
//   grown    the free lines beside a moved line, on both sides, reading half alike: the
//            block it moved with (as blocks moved between regions carry their edited lines);
//   lone     a single line moved between regions, if the chain left it free (an edit in
//            place outranks a lone copy elsewhere);
//   gaps     then, between the chain's pairs, lines rewritten by about half in contexts that
//            read alike, chained in order the same way (a copy elsewhere outranks them);
//   renamed  then, between the ordered pairs, lines that read alike once the names the pairs
//            show renamed (`sum` -> `result`, `int` -> `long`) are renamed in them too (as
//            alike as a sure pair, or as a gap's pair in contexts as alike);
//   wrapped  then a removed and an added line between the same ordered pairs, the one
//            wrapping the other (the words of the one with fewer, renamed as the pairs show,
//            in the other in their order) and each the only free line there that does:
//            `main()` -> `sys.exit(main(sys.argv))`, `def add(a, b):` -> `def add(a: M,
//            b: M) -> M:`, in place however little alike it reads; a chained pair whose
//            lines wrap so, or differ in one word for a like one, is made sure of;
//   reworded then a removed and an added line between the same ordered pairs whose words
//            read 0.65 alike as bags (cosine), three of them shared, in contexts that read
//            alike, each the other's best there: `print("%-15s %5d" % (word, n))` ->
//            `print(f"{word:<15} {n:5d}")` (a format string's directives and a string's
//            prefix are no words);
//   assigned then a removed and an added line between the same ordered pairs that set the
//            same name (case and `_` aside: `retries` -> `RETRIES`), each the only free
//            line there on its side to set it: `private int hits = 0;` -> `private final
//            AtomicLong hits = new AtomicLong();`, or the only loop's head there; a chained
//            pair whose lines set the same name, and no free line between its neighbours
//            sets it, is made sure of;
//   kin      then a chained or wrapped pair under sure alike whose lines do different things (set
//            other names, a declaration and a loop's head, or call other methods last) gives its
//            added line to the one free removed line between its neighbours that does what it does,
//            where no other added line there does: `int length = strlen (s);` `char *copy = malloc
//            (length + 1);` -> `copy = strdup (s);` is the second line's;
//   switched then the heads of an `if` chain (`} else if (t.equals("-")) {`, `elif`, `else`)
//            and the arms of a `switch` (`case "-":`, `default:`) put between the same ordered
//            pairs, as many of each, least indented there: each head its arm's label, in
//            order (an arm of several labels left open);
//   swapped  two neighbouring ordered pairs whose lines read much more alike crossed, paired
//            crossed (two statements put the other way round);
//   runs     an ordered line with a twin as good beside its neighbour's counterpart takes
//            that twin (of equal lines, the one that continues the run);
//   joined   a line split into several added lines, or lines merged into one, when joined
//            they read much more alike than any one does (around a line deleted between
//            them too: `if (i == index) {`, `offset = -1;`, `continue;`, or put between),
//            taking lines from weaker ordered or edge pairs where only that join reads sure;
//            a line answered however little alike (wrapped, reworded, assigned, kin,
//            switched) takes others joined to it only where the join reads sure.
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "line_compare.hpp"

namespace cp::line_match {

using line_compare::Changed;
using line_compare::Run;
using line_compare::Scored;

// A region's changed lines: its removed lines in base order, and its own added lines in target
// order followed by added lines of other regions (candidates it may name, never take).
struct Lines {
    std::vector<Changed> left, right;
    std::size_t own = 0;  // right[0, own) are the region's own
    // (removed, added): each hunk's first removed and first added line, and its last and
    // last, for hunks with lines on both sides.
    std::vector<std::pair<std::size_t, std::size_t>> edges;
    // (removed, added): the lines of each hunk of one removed and one added line, which the
    // diff put in one place between the same kept lines.
    std::vector<std::pair<std::size_t, std::size_t>> replaced;
};

// Block: of a block moved between regions, or grown around a line moved within its region.
// Wrapped: ordered, and answered however little alike (take_wrapped, take_reworded,
// take_assigned, give_to_kin, take_switched).
enum class How { None, Block, Chain, Edge, Moved, Split, Merged, Renamed, Wrapped };

// Whether a pair keeps the order of both sides within its region: the chain and what fills
// its gaps.
constexpr bool ordered(How how) {
    return how == How::Chain || how == How::Renamed || how == How::Wrapped;
}

constexpr std::size_t kNone = SIZE_MAX;

// How alike a line must read to be taken from its place (a sure move), or, when several lines
// of the file read so, to be left open between them (Ambiguous) rather than deleted.
constexpr double kMovedContent = 0.9;

struct Choice {
    std::vector<std::size_t> match;  // by removed line: its added line (the first of a split)
    std::vector<double> score, content;
    std::vector<How> how;
    std::vector<Run> split;   // How::Split: the added lines it became
    std::vector<bool> taken;  // by added line
};

// `candidates`: each removed line's scored candidates, best first; `unique`: whether its
// text (and its code) is no other removed line's; `block`: pairs (removed, added) of blocks
// moved between regions, taken first; `lone`: such pairs of a single line, taken when the
// ordered pairs leave the line free (an edit in place outranks a lone copy elsewhere);
// `reserved`: own added lines that a block or lone line of another region may take.
using Pairs = std::vector<std::pair<std::size_t, std::size_t>>;
// For each removed line, the own added lines [low, high) that keep the order of the chain:
// after the ordered line before it, before the ordered line after it.
struct Bounds {
    std::vector<std::size_t> low, high;
};
Bounds chain_bounds(const Choice& c, std::size_t own);
// Whether removed line `i`'s pair continues a neighbour's: the base line before (after) it, one
// that says something (line_compare::telling), is paired with the added line just before
// (after) its own.
bool continues(const Lines& lines, const Choice& c, std::size_t i);

Choice choose(const Lines& lines, const std::vector<std::vector<Scored>>& candidates,
              const std::vector<bool>& unique, const Pairs& block, const Pairs& lone,
              const std::vector<bool>& reserved);

}  // namespace cp::line_match
