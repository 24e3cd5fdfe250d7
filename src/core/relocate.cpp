#include "context_pack/core/relocate.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdint>
#include <functional>
#include <map>
#include <tuple>
#include <unordered_map>

#include "context_pack/core/line_map.hpp"

namespace cp {
namespace {

bool space(char c) {
    return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
}

// Where `needle` stands as consecutive lines of `hay`, lines compared by `same`.
template <class Line, class Same = std::equal_to<>>
std::vector<BlockMatch> scan(const std::vector<Line>& hay, const std::vector<Line>& needle,
                             bool whitespace, std::size_t limit, Same same = {}) {
    std::vector<BlockMatch> out;
    if (needle.empty() || needle.size() > hay.size()) return out;
    for (std::size_t i = 0; i + needle.size() <= hay.size() && out.size() < limit; ++i) {
        if (std::equal(needle.begin(), needle.end(), hay.begin() + std::ptrdiff_t(i), same))
            out.push_back({LineNo(i + 1), whitespace});
    }
    return out;
}

// ASCII classes, as git's own (no locale), from one table: these run over every line of a
// pair's changed files.
enum Class : std::uint8_t { kOther, kSpace, kDigit, kWord };
constexpr std::array<std::uint8_t, 256> kClasses = [] {
    std::array<std::uint8_t, 256> t{};
    for (unsigned char c : {' ', '\t', '\r', '\f', '\v'}) t[c] = kSpace;
    for (int c = '0'; c <= '9'; ++c) t[std::size_t(c)] = kDigit;
    for (int c = 'a'; c <= 'z'; ++c) t[std::size_t(c)] = kWord;
    for (int c = 'A'; c <= 'Z'; ++c) t[std::size_t(c)] = kWord;
    t['_'] = kWord;
    return t;
}();

Class class_of(char c) {
    return Class(kClasses[std::uint8_t(c)]);
}

bool word_byte(char c) {
    return class_of(c) >= kDigit;
}

enum class Token { Name, Number, Other };

// The tokens of a line, in order, whitespace left out: a name ([A-Za-z_][A-Za-z0-9_]*), a
// number with its letters (0x1f, 10u), or any other byte alone. `f(kind, text, spaced)`,
// `spaced` when whitespace stands between it and the token before. The one reading of a line
// that squeezed lines, shapes, their hashes and the names renamed all share.
template <class F>
void each_token(std::string_view line, F&& f) {
    bool gap = false, any = false;
    for (std::size_t i = 0; i < line.size();) {
        const Class c = class_of(line[i]);
        if (c == kSpace) {
            gap = any;
            ++i;
            continue;
        }
        const std::size_t from = i;
        const Token kind = c == kWord ? Token::Name : c == kDigit ? Token::Number : Token::Other;
        if (kind == Token::Other)
            ++i;
        else
            while (i < line.size() && word_byte(line[i])) ++i;
        f(kind, line.substr(from, i - from), gap);
        gap = false;
        any = true;
    }
}

// The identifiers of a line, in order.
std::vector<std::string_view> names_in(std::string_view line) {
    std::vector<std::string_view> out;
    each_token(line, [&](Token kind, std::string_view text, bool) {
        if (kind == Token::Name) out.push_back(text);
    });
    return out;
}

// A shape's bytes for a token: one marker for a name, the token itself otherwise.
std::string_view shape_bytes(Token kind, std::string_view text) {
    return kind == Token::Name ? std::string_view("\x01", 1) : text;
}

}  // namespace

namespace {

constexpr std::uint64_t kFnvBasis = 14695981039346656037ull, kFnvPrime = 1099511628211ull;

void fnv(std::uint64_t& h, char c) {
    h = (h ^ std::uint8_t(c)) * kFnvPrime;
}

}  // namespace

// each_token's reading, hashed as it goes: this runs over every line of the files a search
// looks in, and reading each token's bytes once is 0.6x the instructions of reading them again
// for the hashes (tests/core/test_relocate.cpp holds the two readings together).
LineHashes line_hashes(std::string_view line) {
    LineHashes h{kFnvBasis, kFnvBasis, 0};
    bool gap = false, any = false;
    const char* at = line.data();
    const char* const end = at + line.size();
    while (at < end) {
        const Class c = class_of(*at);
        if (c == kSpace) {
            gap = any;
            ++at;
            continue;
        }
        if (gap) fnv(h.squeezed, ' ');
        gap = false;
        any = true;
        if (c == kWord) {  // a name: its shape is one marker
            fnv(h.shape, '\x01');
            ++h.shape_bytes;
            do fnv(h.squeezed, *at++);
            while (at < end && word_byte(*at));
            continue;
        }
        do {  // a number with its letters, or another byte alone
            fnv(h.squeezed, *at);
            fnv(h.shape, *at++);
            ++h.shape_bytes;
        } while (c == kDigit && at < end && word_byte(*at));
    }
    return h;
}

namespace {

constexpr int kFilterProbes = 4;
constexpr std::size_t kFilterBitsPerLine = 20;

// The probes' bit numbers: double hashing over the hash's two halves.
template <class F>
void each_probe(std::uint64_t hash, std::uint64_t mask, F&& f) {
    const std::uint64_t step = (hash >> 32) | 1;
    for (int k = 0; k < kFilterProbes; ++k) f((hash + std::uint64_t(k) * step) & mask);
}

}  // namespace

LineFilter::LineFilter(std::string_view text) {
    std::vector<LineHashes> lines;
    lines.reserve(std::size_t(std::count(text.begin(), text.end(), '\n')) + 1);
    std::size_t items = 0;
    for (std::size_t at = 0; at < text.size();) {
        std::size_t end = text.find('\n', at);
        if (end == std::string_view::npos) end = text.size();
        const std::string_view line = text.substr(at, end - at);
        at = end + 1;
        if (is_margin(line)) continue;  // a margin ("}") is in every file and rules none out
        lines.push_back(line_hashes(line));
        items += 1 + (lines.back().shape_bytes >= kShapeVotes);
    }
    std::size_t bits = 64;
    while (bits < items * kFilterBitsPerLine) bits *= 2;
    bits_.assign(bits / 64, 0);
    mask_ = bits - 1;
    for (const LineHashes& h : lines) {
        add(h.squeezed);
        if (h.shape_bytes >= kShapeVotes) add(salted(h.shape));
    }
}

void LineFilter::add(std::uint64_t hash) {
    each_probe(hash, mask_,
               [&](std::uint64_t bit) { bits_[bit >> 6] |= std::uint64_t(1) << (bit & 63); });
}

bool LineFilter::may_hold(std::uint64_t hash) const {
    bool all = true;
    each_probe(hash, mask_,
               [&](std::uint64_t bit) { all = all && (bits_[bit >> 6] >> (bit & 63)) & 1; });
    return all;
}

std::string squeeze(std::string_view line) {
    std::string out;
    out.reserve(line.size());
    each_token(line, [&](Token, std::string_view text, bool spaced) {
        if (spaced) out += ' ';
        out += text;
    });
    return out;
}

std::string shape_of(std::string_view line) {
    std::string out;
    out.reserve(line.size());
    each_token(line,
               [&](Token kind, std::string_view text, bool) { out += shape_bytes(kind, text); });
    return out;
}

const std::vector<LineHashes>& Haystack::hashes() const {
    if (!hashed_) {
        hashes_.reserve(lines_.size());
        for (auto l : lines_) hashes_.push_back(line_hashes(l));
        hashed_ = true;
    }
    return hashes_;
}

std::vector<BlockMatch> find_block(const Haystack& haystack,
                                   const std::vector<std::string_view>& needle, std::size_t limit,
                                   Match how) {
    if (how != Match::Whitespace) {
        auto exact = scan(haystack.lines(), needle, false, limit);
        if (!exact.empty() || how == Match::Exact) return exact;
    }
    std::vector<LineHashes> hashed;
    for (std::string_view l : needle) hashed.push_back(line_hashes(l));
    return scan(haystack.hashes(), hashed, true, limit,
                [](const LineHashes& a, const LineHashes& b) { return a.squeezed == b.squeezed; });
}

bool is_margin(std::string_view line) {
    return std::all_of(line.begin(), line.end(), [](char c) {
        return space(c) || c == '{' || c == '}' || c == '(' || c == ')' || c == '[' || c == ']' ||
               c == ';' || c == ',';
    });
}

std::pair<std::size_t, std::size_t> core_of(const std::vector<std::string_view>& block) {
    std::size_t first = 0, last = block.size();
    while (first < last && is_margin(block[first])) ++first;
    while (last > first && is_margin(block[last - 1])) --last;
    return {first, last};
}

namespace {

// A line's character bigrams, whitespace left out, sorted: a cheap first test of likeness.
std::vector<std::uint16_t> bigrams(std::string_view line) {
    std::string dense;
    for (char c : line)
        if (!space(c)) dense += c;
    std::vector<std::uint16_t> out;
    for (std::size_t i = 0; i + 1 < dense.size(); ++i)
        out.push_back(std::uint16_t((std::uint8_t(dense[i]) << 8) | std::uint8_t(dense[i + 1])));
    std::sort(out.begin(), out.end());
    return out;
}

// Dice's coefficient of two sorted bigram lists.
double dice(const std::vector<std::uint16_t>& a, const std::vector<std::uint16_t>& b) {
    if (a.empty() || b.empty()) return 0;
    // At most 2 * min / (a + b), known without the merge: lines of unlike lengths go early.
    const std::size_t least = std::min(a.size(), b.size());
    if (2.0 * double(least) / double(a.size() + b.size()) < kEditedLine) return 0;
    std::size_t common = 0;
    for (std::size_t i = 0, j = 0; i < a.size() && j < b.size();) {
        if (a[i] == b[j])
            ++common, ++i, ++j;
        else if (a[i] < b[j])
            ++i;
        else
            ++j;
    }
    return 2.0 * double(common) / double(a.size() + b.size());
}

// Which of the lines aligned as renamed (one shape, other names) differ only by names each
// renamed one way across the place: every name of those lines and of the equal ones, old to
// new, counted; a line whose names ever go two ways, or come from two, is not renamed.
std::vector<bool> renamed_consistently(
    const std::vector<std::pair<std::string_view, std::string_view>>& lines,
    const std::vector<bool>& equal) {
    std::map<std::string_view, std::map<std::string_view, int>> to, from;
    std::vector<std::vector<std::pair<std::string_view, std::string_view>>> names(lines.size());
    for (std::size_t k = 0; k < lines.size(); ++k) {
        auto a = names_in(lines[k].first), b = names_in(lines[k].second);
        if (a.size() != b.size()) continue;  // one shape gives as many names
        for (std::size_t i = 0; i < a.size(); ++i) {
            names[k].emplace_back(a[i], b[i]);
            ++to[a[i]][b[i]];
            ++from[b[i]][a[i]];
        }
    }
    std::vector<bool> out(lines.size(), false);
    for (std::size_t k = 0; k < lines.size(); ++k) {
        if (equal[k] || names[k].empty()) continue;
        out[k] = std::all_of(names[k].begin(), names[k].end(), [&](const auto& n) {
            return to[n.first].size() == 1 && from[n.second].size() == 1;
        });
    }
    return out;
}

// Lines as numbers, for the alignment's many comparisons: the block's distinct squeezed lines
// and shapes numbered, each target line given the numbers of its own (-1: none of the
// block's), and whether it is telling.
struct LineIds {
    std::vector<int> line, shape;  // the block's, by core index
    std::vector<int> target_line, target_shape;
    std::vector<char> target_telling;
};

// The block's telling lines aligned in order with the lines of target[lo, hi): equal
// (squeezed) lines and lines renamed consistently weigh 1, edited ones (line_similarity >=
// kEditedLine) 1/2, as many as can be had (in the score a renamed line weighs kRenamedLine,
// so that only the same text scores 1); the place is from the first aligned line to the
// last.
SimilarMatch align(const LineIds& ids, const std::vector<std::size_t>& telling,
                   const std::vector<std::string_view>& raw_needle, const Haystack& hay,
                   std::size_t lo, std::size_t hi) {
    const std::size_t n = telling.size(), w = hi - lo;
    // Over the most lines aligned (kMaxSimilarLines), the equal lines' extra ones stay under
    // half a unit.
    constexpr int kUnit = 2 * int(kMaxSimilarLines) + 2;
    std::vector<std::vector<std::uint16_t>> needle_grams, target_grams(w);
    std::vector<bool> grams_made(w, false);  // a target line's bigrams, made when first asked
    for (std::size_t i : telling) needle_grams.push_back(bigrams(raw_needle[i]));
    auto edited = [&](std::size_t i, std::size_t j) {  // telling index, window index
        if (!grams_made[j]) target_grams[j] = bigrams(hay.lines()[lo + j]), grams_made[j] = true;
        return dice(needle_grams[i], target_grams[j]) >= kEditedLine &&
               line_similarity(raw_needle[telling[i]], hay.lines()[lo + j]) >= kEditedLine;
    };
    // score[i][j]: best weight aligning telling[0, i) with target[lo, lo + j): an edited line
    // weighs kUnit, an equal line or one of one shape twice that, an equal line one more, so
    // that of two alignments otherwise as heavy the one with more equal lines wins (a header
    // of one shape just above must not take a header's place from the header itself).
    // kind: 0 the block's line skipped, 1 the target's, 2 edited, 3 equal, 4 one shape.
    std::vector<std::vector<int>> score(n + 1, std::vector<int>(w + 1, 0));
    std::vector<std::vector<signed char>> kind(n + 1, std::vector<signed char>(w + 1, 0));
    for (std::size_t i = 1; i <= n; ++i) {
        const int a = ids.line[telling[i - 1]], a_shape = ids.shape[telling[i - 1]];
        for (std::size_t j = 1; j <= w; ++j) {
            int best = score[i - 1][j];
            signed char how = 0;
            if (score[i][j - 1] > best) best = score[i][j - 1], how = 1;
            const std::size_t t = lo + j - 1;
            int gain = 0;
            signed char as = 0;
            if (ids.target_telling[t]) {
                if (a == ids.target_line[t])
                    gain = 2 * kUnit + 1, as = 3;
                else if (a_shape == ids.target_shape[t])
                    gain = 2 * kUnit, as = 4;
                else if (score[i - 1][j - 1] + kUnit > best && edited(i - 1, j - 1))
                    gain = kUnit, as = 2;  // asked only where an edited line would count
            }
            if (gain && score[i - 1][j - 1] + gain > best)
                best = score[i - 1][j - 1] + gain, how = as;
            score[i][j] = best;
            kind[i][j] = how;
        }
    }
    // (telling index, window index, kind), in order.
    std::vector<std::tuple<std::size_t, std::size_t, signed char>> pairs;
    for (std::size_t i = n, j = w; i > 0 && j > 0;) {
        const signed char how = kind[i][j];
        if (how >= 2) {
            pairs.emplace_back(i - 1, j - 1, how);
            --i, --j;
        } else if (how == 1) {
            --j;
        } else {
            --i;
        }
    }
    std::reverse(pairs.begin(), pairs.end());
    // Lines of one shape count as renamed only where their names were renamed one way.
    std::vector<std::pair<std::string_view, std::string_view>> lines;
    std::vector<bool> equal;
    for (const auto& [i, j, how] : pairs) {
        lines.emplace_back(raw_needle[telling[i]], hay.lines()[lo + j]);
        equal.push_back(how == 3);
    }
    const std::vector<bool> consistent = renamed_consistently(lines, equal);
    SimilarMatch m;
    std::vector<std::pair<std::size_t, std::size_t>> kept;  // (telling index, target line)
    for (std::size_t k = 0; k < pairs.size(); ++k) {
        auto [i, j, how] = pairs[k];
        if (how == 4 && !consistent[k]) {
            if (!edited(i, j)) continue;
            how = 2;
        }
        (how == 3 ? m.equal : how == 4 ? m.renamed : m.edited)++;
        kept.emplace_back(i, lo + j);
    }
    if (kept.empty()) return m;
    for (const auto& [i, t] : kept) m.aligned.push_back(LineNo(t + 1));
    m.score =
        (double(m.equal) + kRenamedLine * double(m.renamed) + double(m.edited) / 2) / double(n);
    // The block's lines left unaligned at its ends are not known to be there: the place is
    // what was aligned (a quarter of a header moved elsewhere must not widen it).
    m.line = LineNo(kept.front().second) + 1;
    m.end_line = LineNo(kept.back().second) + 1;
    return m;
}

}  // namespace

std::vector<SimilarMatch> find_similar_block(const Haystack& haystack,
                                             const std::vector<std::string_view>& needle,
                                             std::size_t limit,
                                             std::optional<std::size_t> opening) {
    std::vector<SimilarMatch> out;
    const auto [first, last] = core_of(needle);
    if (last - first < 2 || needle.size() > kMaxSimilarLines) return out;
    const std::vector<std::string_view> core(needle.begin() + std::ptrdiff_t(first),
                                             needle.begin() + std::ptrdiff_t(last));
    std::vector<LineHashes> hashed;
    for (std::string_view line : core) hashed.push_back(line_hashes(line));
    std::vector<std::size_t> telling;
    std::unordered_map<std::uint64_t, std::vector<std::size_t>> where, where_shape;
    for (std::size_t i = 0; i < core.size(); ++i) {
        if (is_margin(core[i])) continue;
        telling.push_back(i);
        where[hashed[i].squeezed].push_back(i);
        if (hashed[i].shape_bytes >= kShapeVotes) where_shape[hashed[i].shape].push_back(i);
    }
    // Votes for where the block's first line would be, one for each equal telling line, or
    // one of a long shape (names renamed).
    const std::vector<LineHashes>& target = haystack.hashes();
    std::map<std::ptrdiff_t, std::vector<std::size_t>> votes;  // the block's lines voting
    for (std::size_t t = 0; t < target.size(); ++t) {
        auto it = where.find(target[t].squeezed);
        if (it == where.end()) {
            it = where_shape.find(target[t].shape);
            if (it == where_shape.end()) continue;
        }
        for (std::size_t i : it->second) votes[std::ptrdiff_t(t) - std::ptrdiff_t(i)].push_back(i);
    }
    // Nearby starts (a line added or removed inside the block shifts the rest) count together,
    // each of the block's lines once (as the resolve layer's file index counts them).
    const std::size_t min_votes = similar_votes_needed(telling.size());
    // Whether the opening line stands equal where it would at a start.
    auto opens = [&](std::ptrdiff_t start) {
        if (!opening || *opening < first || *opening >= last) return false;
        const std::size_t i = *opening - first;
        const std::ptrdiff_t t = start + std::ptrdiff_t(i);
        return t >= 0 && t < std::ptrdiff_t(target.size()) &&
               target[std::size_t(t)].squeezed == hashed[i].squeezed;
    };
    const std::ptrdiff_t slack = std::ptrdiff_t(core.size() / 4 + 2);
    std::vector<std::pair<std::size_t, std::ptrdiff_t>> starts;     // (votes near it, start)
    std::vector<std::ptrdiff_t> counted(core.size(), PTRDIFF_MIN);  // the start it counted for
    for (const auto& [start, lines] : votes) {
        std::size_t near = 0;
        for (auto it = votes.lower_bound(start - slack);
             it != votes.end() && it->first <= start + slack; ++it)
            for (std::size_t i : it->second)
                if (counted[i] != start) counted[i] = start, ++near;
        if (near >= min_votes || opens(start)) starts.emplace_back(near, start);
    }
    std::sort(starts.begin(), starts.end(), [](const auto& a, const auto& b) {
        return a.first != b.first ? a.first > b.first : a.second < b.second;
    });
    if (starts.empty()) return out;
    // The lines of the block and of the file as small ids, for the alignments.
    LineIds ids;
    {
        std::unordered_map<std::uint64_t, int> line_id, shape_id;
        for (std::size_t i = 0; i < core.size(); ++i) {
            ids.line.push_back(
                line_id.emplace(hashed[i].squeezed, int(line_id.size())).first->second);
            ids.shape.push_back(
                shape_id.emplace(hashed[i].shape, int(shape_id.size())).first->second);
        }
        auto id = [](const auto& known, std::uint64_t h) {
            auto it = known.find(h);
            return it == known.end() ? -1 : it->second;
        };
        for (std::size_t t = 0; t < target.size(); ++t) {
            ids.target_line.push_back(id(line_id, target[t].squeezed));
            ids.target_shape.push_back(id(shape_id, target[t].shape));
            ids.target_telling.push_back(!is_margin(haystack.lines()[t]));
        }
    }
    constexpr std::size_t kPlacesTried = 8;
    std::vector<SimilarMatch> tried;
    for (const auto& place : starts) {
        // A copy, not a structured binding: lambdas capture no bindings before C++20's rule
        // reached every compiler (clang 16).
        const auto start = place.second;
        if (tried.size() >= kPlacesTried) break;
        const bool seen = std::any_of(tried.begin(), tried.end(), [&](const SimilarMatch& m) {
            return start + 1 >= m.line - slack && start + 1 <= m.end_line;
        });
        if (seen) continue;
        const std::size_t lo = std::size_t(std::max<std::ptrdiff_t>(0, start - slack));
        const std::size_t hi = std::min(
            target.size(),
            std::size_t(std::max<std::ptrdiff_t>(0, start + std::ptrdiff_t(core.size()) + slack)));
        if (lo >= hi) continue;
        SimilarMatch m = align(ids, telling, core, haystack, lo, hi);
        if (m.aligned.empty()) continue;
        tried.push_back(std::move(m));
    }
    std::sort(tried.begin(), tried.end(), [](const SimilarMatch& a, const SimilarMatch& b) {
        return a.score != b.score ? a.score > b.score : a.line < b.line;
    });
    for (SimilarMatch& m : tried) {
        const bool overlaps = std::any_of(out.begin(), out.end(), [&](const SimilarMatch& o) {
            return m.line <= o.end_line && o.line <= m.end_line;
        });
        if (!overlaps && out.size() < limit) out.push_back(std::move(m));
    }
    return out;
}

bool distinctive(const std::vector<std::string_view>& block) {
    std::size_t total = 0, longest = 0;
    for (auto line : block) {
        std::size_t n = std::count_if(line.begin(), line.end(), [](char c) { return !space(c); });
        total += n;
        longest = std::max(longest, n);
    }
    return longest >= 8 && total >= 16;
}

}  // namespace cp
