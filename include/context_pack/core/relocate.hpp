// Beyond the diff: find an anchor's base text at the target when diff mapping lost it (its
// lines all deleted, or its file gone). Exact matches first, then matches that differ only in
// whitespace; a unique match is an answer, several are listed, never picked. Pure: lines in.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "context_pack/core/mapping.hpp"

namespace cp {

struct BlockMatch {
    LineNo line = 0;          // first line of the match, 1-based
    bool whitespace = false;  // equal only once whitespace is ignored
};

// A line with its leading and trailing whitespace dropped and every inner run of it made one
// space.
std::string squeeze(std::string_view line);

// A line's tokens, identifiers ([A-Za-z_][A-Za-z0-9_]*) each made one marker byte and every
// other byte kept, whitespace left out: `w = w * 2;` and `n = n * 2;` have one shape.
std::string shape_of(std::string_view line);

// Hashes of a line's squeezed form and of its shape, made in one pass without building
// either: what lines are compared by when whitespace is aside or names may be renamed.
struct LineHashes {
    std::uint64_t squeezed = 0, shape = 0;
    std::size_t shape_bytes = 0;  // the length of the shape
};
LineHashes line_hashes(std::string_view line);

// A file's lines prepared for searching: as they are, and hashed (line_hashes, made once, on
// the first search that needs them). Build one per file and search it many times.
class Haystack {
  public:
    explicit Haystack(std::vector<std::string_view> lines) : lines_(std::move(lines)) {}
    const std::vector<std::string_view>& lines() const { return lines_; }
    const std::vector<LineHashes>& hashes() const;

  private:
    std::vector<std::string_view> lines_;
    mutable std::vector<LineHashes> hashes_;
    mutable bool hashed_ = false;
};

// Which squeezed lines and long shapes (kShapeVotes) a file's telling lines have, as a Bloom
// filter (four probes, 20 to 40 bits a line): whether a block could be in a file, asked of
// 2.5 to 5 bytes a line instead of the file. Never says no to a line the file holds; says yes
// to one it does not about once in a thousand, which only costs a search.
class LineFilter {
  public:
    explicit LineFilter(std::string_view text);
    bool may_hold_line(std::uint64_t squeezed) const { return may_hold(squeezed); }
    bool may_hold_shape(std::uint64_t shape) const { return may_hold(salted(shape)); }
    std::size_t bytes() const { return bits_.size() * sizeof(std::uint64_t); }

  private:
    static std::uint64_t salted(std::uint64_t shape) { return shape ^ 0x5bd1e9955bd1e995ull; }
    void add(std::uint64_t hash);
    bool may_hold(std::uint64_t hash) const;
    std::vector<std::uint64_t> bits_;
    std::uint64_t mask_ = 0;  // of a bit's number
};

// How find_block compares lines: exactly, ignoring whitespace, or exactly first and ignoring
// whitespace only when that found nothing.
enum class Match { Exact, Whitespace, ExactThenWhitespace };

// Every place where `needle` occurs as consecutive whole lines of `haystack`, compared as
// `how` says; ignoring whitespace means leading, trailing and the amount of it between
// words. At most `limit` are returned.
std::vector<BlockMatch> find_block(const Haystack& haystack,
                                   const std::vector<std::string_view>& needle,
                                   std::size_t limit = 11, Match how = Match::ExactThenWhitespace);

// A line that tells nothing of the code it stands in: blank, or only brackets and separators
// ("}", "});", "{"). An anchor's range often holds such margins around its code.
bool is_margin(std::string_view line);

// The lines of `block` from its first line that is not a margin to its last: [first, last),
// 0-based; empty (first == last) when every line is a margin.
std::pair<std::size_t, std::size_t> core_of(const std::vector<std::string_view>& block);

// A place where a block's code is, lightly edited: most of its telling lines (not margins)
// there in order, equal once whitespace is ignored, equal but for names renamed the same way
// across the place (a renamed local or parameter: `renamed`), or like one another
// (line_similarity at least kEditedLine, a changed literal or call).
struct SimilarMatch {
    LineNo line = 0;      // the first target line of the place, 1-based
    LineNo end_line = 0;  // its last
    // (equal + renamed * kRenamedLine + edited / 2) over the block's telling lines: 1 only
    // for the same text
    double score = 0;
    std::size_t equal = 0;
    std::size_t renamed = 0;  // equal once names are renamed, one name always to one name
    std::size_t edited = 0;
    std::vector<LineNo> aligned;  // the target lines its telling lines were aligned with
};
inline constexpr double kEditedLine = 0.6;
inline constexpr double kRenamedLine = 0.9;

// The places in `haystack` where at least two of `needle`'s telling lines, and a fifth of
// them, occur (whitespace aside, or with names renamed) near one another, each scored by aligning
// the block's telling lines with the lines there (order kept, at most a quarter of the block's
// length of slack either side); best first, places that overlap a better one dropped; at most
// `limit`. A needle of more than kMaxSimilarLines lines is not searched. `opening`, the index
// in `needle` of the line that defines the anchor's symbol, votes for a place on its own, equal
// there: a short function whose other lines are short and renamed has few votes otherwise.
inline constexpr std::size_t kMaxSimilarLines = 400;
// A shape votes only when it has this many bytes: `f(x);` is everywhere.
inline constexpr std::size_t kShapeVotes = 10;
// The votes (equal lines, long shapes) a place needs for a block of `telling` telling lines.
// A place kTakeSimilar alike has a fifth of them equal or renamed (the rest at best edited,
// at half weight); fewer are not looked at.
inline std::size_t similar_votes_needed(std::size_t telling) {
    return std::max<std::size_t>(2, (telling + 4) / 5);
}
std::vector<SimilarMatch> find_similar_block(const Haystack& haystack,
                                             const std::vector<std::string_view>& needle,
                                             std::size_t limit = 4,
                                             std::optional<std::size_t> opening = std::nullopt);

// True when a block is specific enough that a unique match means something: some line holds
// at least 8 non-space bytes and the block at least 16, so a lone "}" is never relocated.
bool distinctive(const std::vector<std::string_view>& block);

}  // namespace cp
