// Rename detection as `git diff -M` does it (git 2.39's diffcore-rename): exact renames by
// content id first, then pairs whose unique basenames match at 75% similarity, then the
// best pairs of the remaining sources x targets at git's default 50%, skipped (and said so)
// when that matrix exceeds the rename limit squared. Similarity is git's spanhash estimate, so
// scores and pairings match git's. Pure: content arrives through a callback interface.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace cp::rename {

inline constexpr int kMaxScore = 60000;             // git's MAX_SCORE: 100%
inline constexpr int kDefaultScore = 30000;         // git's DEFAULT_RENAME_SCORE: 50%
inline constexpr std::size_t kDefaultLimit = 1000;  // git's diff.renameLimit default

enum class Side { Source, Target };

struct Candidate {
    std::string path;
    bool regular = true;  // not a symlink: only regular files pair by similarity
};

// Where rename detection reads what it needs, lazily and at most once per file.
class Files {
  public:
    virtual ~Files() = default;
    virtual std::string content_id(Side side, std::size_t index) = 0;  // the blob id
    virtual std::uint64_t size(Side side, std::size_t index) = 0;
    virtual std::string_view bytes(Side side, std::size_t index) = 0;
};

struct Pair {
    std::size_t source = 0;
    std::size_t target = 0;
    int score = 0;  // 0..kMaxScore
};

struct Options {
    int minimum_score = kDefaultScore;
    std::size_t limit = kDefaultLimit;  // 0: no limit (git's diff.renameLimit of 0 or less)
    // Set: only these sources (indices into `sources`) need their partner, and the detection
    // answers with exactly the pairs the full one gives them (see detect_renames).
    std::optional<std::vector<std::size_t>> only_sources;
};

// Inexact detection skipped: the sources and targets left after exact and basename pairs,
// whose product is over limit squared, and the limit git would advise (the larger count).
struct Skipped {
    std::size_t sources = 0;
    std::size_t targets = 0;
    std::size_t limit = 0;
    std::size_t needed = 0;
};

struct Detection {
    std::vector<Pair> pairs;
    std::optional<Skipped> skipped;  // set when the limit stopped inexact detection
    // With only_sources: the restricted scoring could not settle the answer alone, and the
    // full matrix was scored.
    bool scored_all = false;
};

// `sources` are deleted paths, `targets` added ones, each in path order.
//
// With only_sources, the pairs are those of the full detection whose source is listed, found
// without scoring every other source against every target. Exact renames and the limit are
// settled as in full. Each listed source is scored against every target; the targets where
// one scores at least the minimum (the ones it may take) get the full detection's whole
// column, every source against them, so their best four are known; the greedy choice is then
// played over those columns alone. What lies outside them (other sources against other
// targets) can change it only by taking a source before its turn in a column, which needs a
// score at least as high elsewhere: each other source the play gives a target is scored
// against the rest, and where any reaches its score there, the full matrix settles it.
Detection detect_renames(const std::vector<Candidate>& sources,
                         const std::vector<Candidate>& targets, Files& files,
                         const Options& options = {});

// The pairs of detect_renames alone.
std::vector<Pair> find_renames(const std::vector<Candidate>& sources,
                               const std::vector<Candidate>& targets, Files& files,
                               const Options& options = {});

// git's spanhash fingerprint of a file: byte counts per hash of its 64-byte-or-line chunks,
// sorted by hash. `text` drops the CR of CRLF pairs.
std::vector<std::pair<std::uint32_t, std::uint32_t>> span_hashes(std::string_view bytes, bool text);

// git's estimate_similarity for two regular files' bytes: 0..kMaxScore, 0 when their sizes
// differ too much for `minimum_score` to be reachable.
int similarity(std::string_view source, std::string_view target, int minimum_score);

// The portion of `path` after its last '/'.
std::string_view basename(std::string_view path);

}  // namespace cp::rename
