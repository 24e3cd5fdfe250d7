#include "line_match.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>

#include "context_pack/core/line_map.hpp"

namespace cp::line_match {
namespace {

using Scores = LineMapScores;
using line_compare::combined;
using line_compare::content_similarity;
using line_compare::cosine;

const double kJoinLength = 1.1;         // a line split (or merged) is this much longer than a piece
const double kJoinGain = 0.1;           // what joining lines must add to a line's similarity
constexpr double kChainCost = 0.3;      // what each pair of a chain costs: fewer, better pairs win
const std::size_t kRenameReach = 64;    // added lines a free line is tried against, renamed
const std::size_t kRenameTokens = 200;  // lines of more tokens are not judged renamed
const double kSwapGain = 0.1;           // how much better two ordered pairs must read crossed
const std::size_t kWrapLines = 64;      // free lines a side between two pairs tried for wraps

// A candidate pair of removed line `l` and added line `r`.
struct Pairing {
    std::size_t l, r;
    double score, content;
};

struct State {
    const Lines& lines;
    const std::vector<std::vector<Scored>>& candidates;
    Choice& c;

    bool free(std::size_t i) const { return c.match[i] == kNone; }
    void take(std::size_t i, std::size_t r, double score, double content, How how) {
        c.match[i] = r, c.taken[r] = true, c.score[i] = score, c.content[i] = content;
        c.how[i] = how;
    }
    // How alike the contexts of removed line `i` and added line `r` read, and the score of
    // the pair when their text reads `content` alike.
    double context(std::size_t i, std::size_t r) const {
        return cosine(lines.left[i].context, lines.right[r].context);
    }
    double score(std::size_t i, std::size_t r, double content) const {
        return combined(content, context(i, r));
    }
    // Line `i`'s candidate on added line `r`, if it has one.
    const Scored* candidate(std::size_t i, std::size_t r) const {
        auto x = std::find_if(candidates[i].begin(), candidates[i].end(),
                              [&](const Scored& y) { return y.to == r; });
        return x == candidates[i].end() ? nullptr : &*x;
    }
};

// The pairs of `pairs` (sorted by `l`) that keep the order of both sides with the greatest
// total weight (each pair's score less kChainCost), in order: a Fenwick tree over the added
// lines holds the best chain ending at or before each, filled a removed line at a time.
std::vector<Pairing> heaviest_chain(const std::vector<Pairing>& pairs, std::size_t n) {
    struct Best {
        double weight = 0;
        std::ptrdiff_t pair = -1;
    };
    std::vector<Best> tree(n + 1);
    auto before = [&](std::size_t r) {  // the best chain ending on an added line before r
        Best out;
        for (std::size_t i = r; i > 0; i -= i & (~i + 1))
            if (tree[i].weight > out.weight) out = tree[i];
        return out;
    };
    auto put = [&](std::size_t r, Best b) {
        for (std::size_t i = r + 1; i <= n; i += i & (~i + 1))
            if (b.weight > tree[i].weight) tree[i] = b;
    };
    std::vector<Best> ending(pairs.size());
    Best top;
    for (std::size_t first = 0; first < pairs.size();) {
        std::size_t last = first;
        while (last < pairs.size() && pairs[last].l == pairs[first].l) ++last;
        for (std::size_t p = first; p < last; ++p) {  // a removed line's pairs exclude each other
            Best b = before(pairs[p].r);
            ending[p] = {b.weight + pairs[p].score - kChainCost, b.pair};
            if (ending[p].weight > top.weight) top = {ending[p].weight, std::ptrdiff_t(p)};
        }
        for (std::size_t p = first; p < last; ++p)
            put(pairs[p].r, {ending[p].weight, std::ptrdiff_t(p)});
        first = last;
    }
    std::vector<Pairing> chain;
    for (std::ptrdiff_t p = top.pair; p >= 0; p = ending[std::size_t(p)].pair)
        chain.push_back(pairs[std::size_t(p)]);
    std::reverse(chain.begin(), chain.end());
    return chain;
}

// Where line `i` surely went, in order or not, when its text is no other removed line's: the
// one candidate with its very text (as patience diff trusts a line unique on both sides,
// however many look-alikes it has), else the one candidate that reads kMovedContent alike.
const Scored* sure_move(const State& s, std::size_t i, const std::vector<bool>& unique) {
    if (!unique[i]) return nullptr;
    auto only = [&](double content) -> const Scored* {
        const Scored* out = nullptr;
        for (const Scored& x : s.candidates[i])
            if (x.content >= content) {
                if (out) return nullptr;
                out = &x;
            }
        return out;
    };
    const Scored* out = only(1.0);
    if (!out) out = only(kMovedContent);
    return out && out->score >= Scores::kFloor ? out : nullptr;
}

// The pairs of free lines reading at least kContent alike and scoring at least kFloor, on
// the region's own added lines, that keep both sides' order (and that of the lines the diff
// replaced, Lines::replaced) with the greatest total score.
void take_chain(State& s) {
    const Bounds bounds = chain_bounds(s.c, s.lines.own);
    std::vector<Pairing> pairs;
    for (std::size_t i = 0; i < s.lines.left.size(); ++i)
        if (s.free(i))
            for (const Scored& x : s.candidates[i])
                if (x.to < s.lines.own && !s.c.taken[x.to] && x.to >= bounds.low[i] &&
                    x.to < bounds.high[i] && x.score >= Scores::kFloor &&
                    x.content >= Scores::kContent)
                    pairs.push_back({i, x.to, x.score, x.content});
    for (const Pairing& p : heaviest_chain(pairs, s.lines.own))
        s.take(p.l, p.r, p.score, p.content, How::Chain);
}

// Pairs read under kContent alike that fill the chain's gaps: free lines and free added lines
// between the same two chained pairs (or a region's ends), reading kGapContent alike in
// contexts kGapContext alike, chained in order with the greatest total score. A line rewritten
// by half (`add("org.ui.Outline")` -> `add(IPage.ID_OUTLINE)`) among lines rewritten alike
// keeps its place; such a pair never outweighs a better pair across it, as it would in one
// chain with them.
void fill_gaps(State& s) {
    const Bounds bounds = chain_bounds(s.c, s.lines.own);
    std::vector<Pairing> pairs;
    for (std::size_t i = 0; i < s.lines.left.size(); ++i)
        if (s.free(i))
            for (const Scored& x : s.candidates[i])
                if (x.to >= bounds.low[i] && x.to < bounds.high[i] && !s.c.taken[x.to] &&
                    x.score >= Scores::kFloor && x.content >= Scores::kGapContent &&
                    x.content < Scores::kContent && x.context >= Scores::kGapContext)
                    pairs.push_back({i, x.to, x.score, x.content});
    for (const Pairing& p : heaviest_chain(pairs, s.lines.own))
        s.take(p.l, p.r, p.score, p.content, How::Chain);
}

// Names renamed in a region: old name -> the new names it became, each with the pairs that
// show it. A pair shows renames when its tokens stand at the same places, word for word, with
// only words differing (numbers may differ too, but are no names): `for (int x : xs)` ->
// `for (int v : values)` renames x and xs.
struct Rename {
    std::string_view to;
    std::size_t pairs = 0;
    std::size_t shown_by = 0;  // the removed line of the first pair that shows it
};
using Renames = std::unordered_map<std::string_view, std::vector<Rename>>;
using Tokens = std::vector<std::string_view>;

// The tokens of a side's lines, and their words, each made when first asked for.
class TokensOf {
  public:
    explicit TokensOf(const std::vector<Changed>& lines)
        : lines_(lines), made_(lines.size()), words_(lines.size()) {}
    const Tokens& operator[](std::size_t i) {
        if (!made_[i]) made_[i] = line_compare::tokens(lines_[i].text);
        return *made_[i];
    }
    const Tokens& words(std::size_t i) {
        if (!words_[i]) words_[i] = line_compare::words(lines_[i].text);
        return *words_[i];
    }

  private:
    const std::vector<Changed>& lines_;
    std::vector<std::optional<Tokens>> made_, words_;
};

Renames renames_of(const State& s, TokensOf& left, TokensOf& right) {
    Renames out;
    for (std::size_t i = 0; i < s.lines.left.size(); ++i) {
        const std::size_t r = s.c.match[i];
        if (r == kNone || r >= s.lines.own || s.c.how[i] == How::Split ||
            s.c.how[i] == How::Merged || s.lines.left[i].flat == s.lines.right[r].flat)
            continue;
        const Tokens& a = left[i];
        const Tokens& b = right[r];
        if (a.size() != b.size() || a.size() > kRenameTokens) continue;
        bool words = true;
        for (std::size_t k = 0; k < a.size() && words; ++k)
            words = a[k] == b[k] || (line_compare::word(a[k][0]) && line_compare::word(b[k][0]));
        if (!words) continue;
        for (std::size_t k = 0; k < a.size(); ++k) {
            if (a[k] == b[k] || !line_compare::name(a[k]) || !line_compare::name(b[k])) continue;
            auto& images = out[a[k]];
            auto x = std::find_if(images.begin(), images.end(),
                                  [&](const Rename& y) { return y.to == b[k]; });
            if (x == images.end())
                images.push_back({b[k], 1, i});
            else if (x->shown_by != i)
                ++x->pairs;
        }
    }
    return out;
}

// Tokens `mine` (of removed line `self`) with each name renamed as another pair than line
// `self`'s shows it renamed, where the new name is one of `theirs`; without whitespace (as
// Changed::flat), empty when it renames nothing.
std::string_view renamed_token(std::string_view t, const Tokens& theirs, const Renames& renames,
                               std::size_t self) {
    if (auto x = renames.find(t); x != renames.end())
        for (const Rename& image : x->second)
            if ((image.pairs > 1 || image.shown_by != self) &&
                std::find(theirs.begin(), theirs.end(), image.to) != theirs.end())
                return image.to;
    return t;
}
std::string renamed(const Tokens& mine, const Tokens& theirs, const Renames& renames,
                    std::size_t self) {
    std::string out;
    bool any = false;
    for (std::string_view t : mine) {
        const std::string_view to = renamed_token(t, theirs, renames, self);
        any = any || to != t;
        out += to;
    }
    return any ? out : std::string();
}

// What the region's pairs show renamed, and how alike a removed and an added line read with
// those names renamed (0 where it renames nothing in them).
class Renaming {
  public:
    // `left` and `right`: the tokens of the region's lines, which it reads and fills.
    Renaming(const State& s, TokensOf& left, TokensOf& right)
        : left_(left),
          right_(right),
          renames_(renames_of(s, left_, right_)),
          s_(s),
          named_(s.lines.left.size(), -1) {}
    bool any() const { return !renames_.empty(); }
    // Whether removed line `i` has a name that the pairs show renamed.
    bool names(std::size_t i) {
        if (named_[i] < 0) {
            const Tokens& mine = left_[i];
            named_[i] = std::any_of(mine.begin(), mine.end(),
                                    [&](std::string_view t) { return renames_.count(t) > 0; });
        }
        return named_[i] > 0;
    }
    double content(std::size_t i, std::size_t r) {
        if (renames_.empty() || left_[i].size() > kRenameTokens || right_[r].size() > kRenameTokens)
            return 0;
        const std::string text = renamed(left_[i], right_[r], renames_, i);
        return text.empty() ? 0 : line_compare::similarity(text, s_.lines.right[r].flat);
    }
    // Whether one line wraps the other: the words (names and numbers) of the one with fewer
    // stand in the other in their order, removed line `i` read with the names the pairs show
    // renamed (`r = 3` -> `radius = float(argv[1]) if argv else 3` where `area(r)` became
    // `area(radius)`; not `if not xs:` -> `xs = [x for x in xs if not x.done]`). Where it
    // does, how many names the one with fewer words holds; nullopt where it does not.
    std::optional<std::size_t> wraps(std::size_t i, std::size_t r) {
        const Tokens& mine = left_.words(i);
        const Tokens& theirs = right_.words(r);
        if (mine.empty() || theirs.empty() || mine.size() == theirs.size()) return std::nullopt;
        if (mine.size() > kRenameTokens || theirs.size() > kRenameTokens || !names(i))
            return line_compare::wrapped_names(mine, theirs);
        Tokens renamed;
        renamed.reserve(mine.size());
        for (std::string_view t : mine) renamed.push_back(renamed_as(t, theirs, i));
        return line_compare::wrapped_names(renamed, theirs);
    }

    // Whether removed line `i` and added line `r` differ in one word alone, for one reading
    // kContent like it, with a word the same beside it (`# grades_old.py` -> `# grades_new.py`;
    // not `return value;` -> `return last;`, nor `Red` -> `Reded`).
    bool one_word(std::size_t i, std::size_t r) {
        const Tokens& a = left_[i];
        const Tokens& b = right_[r];
        if (a.size() != b.size()) return false;
        std::size_t differ = kNone, same = 0;
        for (std::size_t k = 0; k < a.size(); ++k)
            if (a[k] != b[k]) {
                if (differ != kNone || !line_compare::word(a[k][0]) || !line_compare::word(b[k][0]))
                    return false;
                differ = k;
            } else if (line_compare::word(a[k][0])) {
                ++same;
            }
        return differ != kNone && same >= 1 &&
               line_compare::similarity(std::string(a[differ]), std::string(b[differ])) >=
                   Scores::kContent;
    }

  private:
    std::string_view renamed_as(std::string_view t, const Tokens& theirs, std::size_t i) const {
        return renamed_token(t, theirs, renames_, i);
    }
    TokensOf &left_, &right_;
    Renames renames_;
    const State& s_;
    std::vector<signed char> named_;  // names(i), once asked: -1 not yet
};

// Lines judged once the names that the region's pairs show renamed are renamed in them too: a
// chained pair under kSureContent alike that reads so renamed is made sure of; free lines are
// paired with free added lines between the same ordered pairs, by the heaviest chain, when they
// read kSureContent alike so renamed, or kGapContent alike in contexts kGapContext alike (as in the
// chain's gaps). `int sum = 0;` -> `long result = 0;` where `return sum;` became
// `return result;` and `int total(` became `long total(`. At most kRenameReach added lines are
// tried for each.
void take_renamed(State& s, Renaming& names) {
    if (!names.any()) return;
    for (std::size_t i = 0; i < s.lines.left.size(); ++i)
        if (s.c.how[i] == How::Chain && s.c.content[i] < Scores::kSureContent && names.names(i))
            if (const double content = names.content(i, s.c.match[i]);
                content >= Scores::kSureContent)
                s.take(i, s.c.match[i], std::max(s.score(i, s.c.match[i], content), s.c.score[i]),
                       content, How::Renamed);
    const Bounds bounds = chain_bounds(s.c, s.lines.own);
    std::vector<Pairing> pairs;
    for (std::size_t i = 0; i < s.lines.left.size(); ++i) {
        if (!s.free(i) || !names.names(i)) continue;
        for (std::size_t r = bounds.low[i]; r < bounds.high[i] && r < bounds.low[i] + kRenameReach;
             ++r) {
            if (s.c.taken[r]) continue;
            const double content = names.content(i, r);
            if (content < Scores::kGapContent) continue;
            const double around = s.context(i, r), score = combined(content, around);
            if ((content >= Scores::kSureContent || around >= Scores::kGapContext) &&
                score >= Scores::kFloor)
                pairs.push_back({i, r, score, content});
        }
    }
    for (const Pairing& p : heaviest_chain(pairs, s.lines.own))
        s.take(p.l, p.r, p.score, p.content, How::Renamed);
}

// Calls fn(low, high, mine, theirs) for each gap between the same two ordered pairs (or a
// region's end) with free lines with a word on both sides: `mine` the free removed lines there,
// `theirs` the free added lines among the own added lines [low, high).
template <class Fn>
void for_each_gap(const State& s, Fn fn) {
    const Bounds bounds = chain_bounds(s.c, s.lines.own);
    const auto& left = s.lines.left;
    for (std::size_t first = 0, last = 0; first < left.size(); first = last) {
        for (last = first + 1; last < left.size() && bounds.low[last] == bounds.low[first];) ++last;
        std::vector<std::size_t> mine, theirs;
        for (std::size_t j = first; j < last; ++j)
            if (s.free(j) && line_compare::worded(left[j].text)) mine.push_back(j);
        for (std::size_t q = bounds.low[first]; !mine.empty() && q < bounds.high[first]; ++q)
            if (!s.c.taken[q] && line_compare::worded(s.lines.right[q].text)) theirs.push_back(q);
        if (!mine.empty() && !theirs.empty())
            fn(bounds.low[first], bounds.high[first], mine, theirs);
    }
}

// Removed line `i` and added line `r` as a pair answered in place however little alike they
// read: scored as they are, but never under kFloor, so that it weighs something in its chain.
static_assert(Scores::kFloor > kChainCost,
              "a pair answered in place weighs something in its chain");
Pairing in_place(const State& s, std::size_t i, std::size_t r) {
    const double content = content_similarity(s.lines.left[i], s.lines.right[r]);
    return {i, r, std::max(s.score(i, r, content), Scores::kFloor), content};
}

// Whether removed line `i` is in a chained pair not sure of: under kSureContent alike and
// scoring under kSure, which a rule of its own may make sure of.
bool unsure(const State& s, std::size_t i) {
    return s.c.how[i] == How::Chain && s.c.content[i] < Scores::kSureContent &&
           s.c.score[i] < Scores::kSure;
}

// Pairs of one gap [low, high) taken in order: chained over the gap's own added lines alone.
// Each gap holds its own lines on both sides: taking them leaves the others as they were.
void take_in_order(State& s, std::vector<Pairing> gap, std::size_t low, std::size_t high, How how) {
    if (gap.size() > 1) {
        for (Pairing& p : gap) p.r -= low;
        gap = heaviest_chain(gap, high - low);
        for (Pairing& p : gap) p.r += low;
    }
    for (const Pairing& p : gap) s.take(p.l, p.r, p.score, p.content, how);
}

// Pairs answered however little alike (How::Wrapped), found gap by gap: `pairs(mine, theirs)`
// gives a gap's, taken in order. Between pairs with more than kWrapLines free lines with a
// word on either side, none is tried.
template <class Fn>
void take_in_gaps(State& s, Fn pairs) {
    for_each_gap(s, [&](std::size_t low, std::size_t high, const std::vector<std::size_t>& mine,
                        const std::vector<std::size_t>& theirs) {
        if (mine.size() > kWrapLines || theirs.size() > kWrapLines) return;
        take_in_order(s, pairs(mine, theirs), low, high, How::Wrapped);
    });
}

// Removed and added lines between the same two ordered pairs (or a region's end), the one
// wrapping the other (Renaming::wraps), each the only line there that wraps or is wrapped by
// the other: however little alike they read by edit distance, the one became the other, in its
// place (`main()` -> `sys.exit(main(sys.argv))`, or back; `def add(a, b):` -> `def add(a:
// Matrix, b: Matrix) -> Matrix:` beside its body's edited lines). Such pairs are chained in
// order (take_in_gaps).
void take_wrapped(State& s, Renaming& names) {
    const auto& left = s.lines.left;
    // A chained pair not sure of, the one line wrapping the other with two names or more, or
    // the two differing in one word for a like one, is made sure of (`def letter(score):` ->
    // `def letter(score: float) -> str:`, 0.6 alike; `# grades_old.py` -> `# grades_new.py`).
    for (std::size_t i = 0; i < left.size(); ++i)
        if (unsure(s, i) &&
            (names.wraps(i, s.c.match[i]).value_or(0) >= 2 || names.one_word(i, s.c.match[i])))
            s.c.how[i] = How::Wrapped;
    take_in_gaps(
        s,
        [&](const std::vector<std::size_t>& mine,
            const std::vector<std::size_t>& theirs) -> std::vector<Pairing> {
            // Each line's one wrapping counterpart, kNone for none, kTwo for more than one.
            constexpr std::size_t kTwo = kNone - 1;
            std::vector<std::size_t> of_mine(mine.size(), kNone), of_theirs(theirs.size(), kNone);
            auto note = [&](std::size_t& slot, std::size_t k) { slot = slot == kNone ? k : kTwo; };
            // Alone on both sides, any wrap; among others, one of two names or more.
            const std::size_t least = mine.size() == 1 && theirs.size() == 1 ? 0 : 2;
            for (std::size_t a = 0; a < mine.size(); ++a)
                for (std::size_t b = 0; b < theirs.size(); ++b)
                    if (const auto n = names.wraps(mine[a], theirs[b]); n && *n >= least)
                        note(of_mine[a], b), note(of_theirs[b], a);
            std::vector<Pairing> gap;
            for (std::size_t a = 0; a < mine.size(); ++a) {
                const std::size_t b = of_mine[a];
                if (b >= kTwo || of_theirs[b] != a) continue;
                gap.push_back(in_place(s, mine[a], theirs[b]));
            }
            return gap;
        });
}

// Lines reworded in place: a removed and an added line between the same two ordered pairs
// whose words read kRewordedWords alike in any order (line_compare::words_alike), in contexts
// kGapContext alike, each the other's best so there: a format string rewritten (`print("%d words" %
// (n,))` -> `print(f"{n} words")`, `"Account of " + owner` -> `String.format("Account of %s",
// owner)`). Chained in order. At 0.6 a test's title took a command below it that shares four
// of its words (`test_expect_success TTY 'git tag as alias respects pager.tag with -l'` ->
// `test_terminal git -c pager.tag=false tag -l &&`).
void take_reworded(State& s) {
    take_in_gaps(
        s,
        [&](const std::vector<std::size_t>& mine,
            const std::vector<std::size_t>& theirs) -> std::vector<Pairing> {
            std::vector<std::size_t> best_of_mine(mine.size(), kNone),
                best_of_theirs(theirs.size(), kNone);
            std::vector<double> mine_best(mine.size(), 0), theirs_best(theirs.size(), 0);
            std::vector<line_compare::WordBag> their_bags;
            their_bags.reserve(theirs.size());
            for (std::size_t r : theirs)
                their_bags.push_back(
                    line_compare::bag_of(line_compare::spoken_words(s.lines.right[r].text)));
            for (std::size_t a = 0; a < mine.size(); ++a) {
                const line_compare::WordBag bag =
                    line_compare::bag_of(line_compare::spoken_words(s.lines.left[mine[a]].text));
                for (std::size_t b = 0; b < theirs.size(); ++b) {
                    const double w = line_compare::words_alike(bag, their_bags[b]);
                    if (w > mine_best[a]) mine_best[a] = w, best_of_mine[a] = b;
                    if (w > theirs_best[b]) theirs_best[b] = w, best_of_theirs[b] = a;
                }
            }
            std::vector<Pairing> gap;
            for (std::size_t a = 0; a < mine.size(); ++a) {
                const std::size_t b = best_of_mine[a];
                if (b == kNone || best_of_theirs[b] != a ||
                    mine_best[a] < line_compare::kRewordedWords)
                    continue;
                if (s.context(mine[a], theirs[b]) < Scores::kGapContext) continue;
                gap.push_back(in_place(s, mine[a], theirs[b]));
            }
            return gap;
        });
}

// Whether two names set are one, case and `_` aside (`rooms` -> `ROOMS`, `max_size` ->
// `maxSize`).
bool same_name(std::string_view a, std::string_view b) {
    for (std::size_t i = 0, j = 0;; ++i, ++j) {
        while (i < a.size() && a[i] == '_') ++i;
        while (j < b.size() && b[j] == '_') ++j;
        if (i == a.size() || j == b.size()) return i == a.size() && j == b.size();
        if (std::tolower(static_cast<unsigned char>(a[i])) !=
            std::tolower(static_cast<unsigned char>(b[j])))
            return false;
    }
}

// What a line does: the name it sets, the head of a loop, or the call it makes last.
struct Role {
    enum Kind : std::uint8_t { None, Sets, Loop, Calls } kind = None;
    std::string_view name;  // set or called
    bool empty() const { return kind == None; }
    bool operator==(const Role& o) const {
        return kind == o.kind && (kind == Sets ? same_name(name, o.name) : name == o.name);
    }
};

// What a line does, for take_assigned and give_to_kin: the name it sets
// (line_compare::assigned_name), whether it heads a `for` or `while` loop, and the call it
// makes last (line_compare::called_last).
struct Doing {
    std::string_view sets, calls;
    bool loop = false;
    // What take_assigned pairs lines by: the name it sets, else a loop's head.
    Role subject() const {
        return !sets.empty() ? Role{Role::Sets, sets} : loop ? Role{Role::Loop, {}} : Role{};
    }
    // Its role for give_to_kin: its subject, else its last call.
    Role role() const {
        const Role of = subject();
        return !of.empty() ? of : !calls.empty() ? Role{Role::Calls, calls} : Role{};
    }
};

Doing doing(std::string_view line) {
    Doing d;
    d.sets = line_compare::assigned_name(line);
    d.calls = line_compare::called_last(line);
    const std::string_view text = line_compare::unindented(line);
    d.loop = line_compare::opens_with(text, "for") || line_compare::opens_with(text, "while");
    return d;
}

// Each removed line's and each own added line's, read once.
struct Doings {
    std::vector<Doing> left, right;
    explicit Doings(const Lines& lines) {
        for (const Changed& l : lines.left) left.push_back(doing(l.text));
        for (std::size_t q = 0; q < lines.own; ++q) right.push_back(doing(lines.right[q].text));
    }
};

// Lines that assign the same name between the same two ordered pairs (or a region's end),
// each the only free line there on its side to assign it (Doing::subject: the name
// line_compare::assigned_name reads, case and `_` aside, or else the head of a loop): the
// statement that sets it, rewritten (`private int hits = 0;` -> `private final AtomicLong hits
// = new AtomicLong();`, `sum += o.prices.get(i);` -> `sum += price;`, `for name in cart:` ->
// `for name, qty in self.items.items():`), however little alike they read. Chained in order.
void take_assigned(State& s, const Doings& doings) {
    auto subject_of = [&](std::size_t i) { return doings.left[i].subject(); };
    auto their_subject = [&](std::size_t q) { return doings.right[q].subject(); };
    // A chained pair not sure of whose lines set the same name, which no free added line
    // between its neighbours' sets, is made sure of.
    const Bounds bounds = chain_bounds(s.c, s.lines.own);
    for (std::size_t i = 0; i < s.lines.left.size(); ++i) {
        const Role name = subject_of(i);
        if (!unsure(s, i) || name.empty() || their_subject(s.c.match[i]) != name) continue;
        bool rival = false;
        for (std::size_t q = bounds.low[i]; q < bounds.high[i] && !rival; ++q)
            rival = !s.c.taken[q] && their_subject(q) == name;
        if (!rival) s.c.how[i] = How::Wrapped;
    }
    take_in_gaps(s,
                 [&](const std::vector<std::size_t>& mine,
                     const std::vector<std::size_t>& theirs) -> std::vector<Pairing> {
                     auto once = [](const std::vector<std::size_t>& at, const auto& sets,
                                    const Role& name) {
                         return std::count_if(at.begin(), at.end(),
                                              [&](std::size_t k) { return sets(k) == name; }) == 1;
                     };
                     std::vector<Pairing> gap;
                     for (std::size_t i : mine) {
                         const Role name = subject_of(i);
                         if (name.empty() || !once(mine, subject_of, name) ||
                             !once(theirs, their_subject, name))
                             continue;
                         const std::size_t r =
                             *std::find_if(theirs.begin(), theirs.end(),
                                           [&](std::size_t q) { return their_subject(q) == name; });
                         gap.push_back(in_place(s, i, r));
                     }
                     return gap;
                 });
}

// A chained or wrapped pair under kSureContent alike whose lines do different things
// (Doing::role: line `a` sets `length`, its added line sets `str`; a declaration paired with a
// loop's head; a `put` with an `add`), where the one free removed line between the pair's
// ordered neighbours that does what the added line does is there, and no other added line
// there does it: the added line is that line's (two statements made one keep the one whose
// work the new line does: `int length = strlen(a);` `int str = malloc(length + 1);` -> `str =
// strdup(a);`; `for (int i = 0; ...) {` `char c = s.charAt(i);` -> `for (char c :
// s.toCharArray()) {`), and line `a` is left free.
void give_to_kin(State& s, const Doings& doings) {
    const std::size_t own = s.lines.own;
    auto role_of = [&](std::size_t i) { return doings.left[i].role(); };
    auto their_role = [&](std::size_t q) { return doings.right[q].role(); };
    const std::size_t n = s.lines.left.size();
    for (std::size_t a = 0; a < n; ++a) {
        if ((s.c.how[a] != How::Chain && s.c.how[a] != How::Wrapped) ||
            s.c.content[a] >= Scores::kSureContent || s.c.match[a] >= own)
            continue;
        const std::size_t q = s.c.match[a];
        const Role role = their_role(q);
        if (role.empty() || role_of(a).empty() || role_of(a) == role) continue;
        // The gap line `a`'s pair stands in: between the ordered pairs beside it.
        std::size_t above = a, below = a + 1;
        while (above > 0 && !ordered(s.c.how[above - 1])) --above;
        while (below < n && !ordered(s.c.how[below])) ++below;
        const std::size_t low = above > 0 ? s.c.match[above - 1] + 1 : 0;
        const std::size_t high = below < n ? s.c.match[below] : own;
        std::size_t kin = kNone, kins = 0;
        for (std::size_t i = above; i < below; ++i)
            if (s.free(i) && role_of(i) == role) kin = i, ++kins;
        bool rival = false;
        for (std::size_t r = low; r < high && !rival; ++r) rival = r != q && their_role(r) == role;
        if (kins != 1 || rival) continue;
        s.c.match[a] = kNone, s.c.how[a] = How::None, s.c.score[a] = s.c.content[a] = 0;
        const Pairing p = in_place(s, kin, q);
        s.take(p.l, p.r, p.score, p.content, How::Wrapped);
    }
}

// A chain of `if` branches made a `switch`, between the same two ordered pairs (or a
// region's end): the branches' heads (`if (...) {`, `} else if (...) {`, `elif ...:`, `} else
// {`), those least indented there, and the arms of the switch (runs of `case ...:` or
// `default:` lines beside each other, those least indented there), as many of each, an `else`
// last where a `default` is: each head became its arm's label (`} else if (t.equals("-")) {`
// -> `case "-":`). An arm of several labels is left open: which of them the branch became is
// unknown.
void take_switched(State& s) {
    take_in_gaps(
        s,
        [&](const std::vector<std::size_t>& mine,
            const std::vector<std::size_t>& theirs) -> std::vector<Pairing> {
            using line_compare::opens_with, line_compare::unindented;
            auto indent = [](std::string_view line) {
                return line.size() - unindented(line).size();
            };
            auto past = [](std::string_view line,
                           std::size_t n) {  // its text past n bytes and spaces
                return unindented(line.substr(std::min(n, line.size())));
            };
            // Each head and label: its index, indentation, and whether it is the last resort.
            struct Part {
                std::size_t at, indent;
                bool otherwise;
            };
            std::vector<Part> heads, labels;
            for (std::size_t a : mine) {
                const std::string_view line = s.lines.left[a].text;
                std::string_view t = unindented(line);
                if (t.starts_with("}")) t = past(t, 1);
                if (opens_with(t, "if") || opens_with(t, "elif") || opens_with(t, "else"))
                    heads.push_back(
                        {a, indent(line), opens_with(t, "else") && !opens_with(past(t, 4), "if")});
            }
            for (std::size_t b : theirs) {
                const std::string_view line = s.lines.right[b].text;
                const std::string_view t = unindented(line);
                if (opens_with(t, "case") || opens_with(t, "default"))
                    labels.push_back(
                        {b, indent(line), opens_with(t, "default") || opens_with(past(t, 4), "_")});
            }
            auto least = [](std::vector<Part>& parts) {
                if (parts.empty()) return;
                std::size_t in = parts.front().indent;
                for (const Part& p : parts) in = std::min(in, p.indent);
                std::erase_if(parts, [&](const Part& p) { return p.indent != in; });
            };
            least(heads), least(labels);
            // The switch's arms: labels on neighbouring lines are one arm.
            std::vector<std::vector<Part>> arms;
            for (const Part& p : labels) {
                if (arms.empty() ||
                    s.lines.right[p.at].line != s.lines.right[arms.back().back().at].line + 1)
                    arms.emplace_back();
                arms.back().push_back(p);
            }
            if (heads.empty() || heads.size() != arms.size() ||
                heads.back().otherwise != arms.back().back().otherwise)
                return {};
            std::vector<Pairing> gap;
            for (std::size_t k = 0; k < heads.size(); ++k)
                if (arms[k].size() == 1 && heads[k].otherwise == arms[k].front().otherwise)
                    gap.push_back(in_place(s, heads[k].at, arms[k].front().at));
            return gap;
        });
}

// Two neighbouring ordered pairs whose lines read much more alike crossed: each kSureContent
// alike to the other's added line and kSwapGain more than to its own, as written (names the
// pairs themselves renamed would argue for whichever way they were paired). Two statements
// swapped and edited (`println("Sum: " + calc.add(x, y))` and `println("Product: " + ...)`
// put the other way round) pair crossed, not in order.
void swap_crossed(State& s) {
    std::vector<std::size_t> ordered_lines;
    for (std::size_t i = 0; i < s.lines.left.size(); ++i)
        if (ordered(s.c.how[i])) ordered_lines.push_back(i);
    auto alike = [&](std::size_t i, std::size_t r) {
        return content_similarity(s.lines.left[i], s.lines.right[r]);
    };
    for (std::size_t k = 0; k + 1 < ordered_lines.size(); ++k) {
        const std::size_t i = ordered_lines[k], j = ordered_lines[k + 1];
        const std::size_t r = s.c.match[i], q = s.c.match[j];
        const double crossed_i = alike(i, q), crossed_j = alike(j, r);
        if (crossed_i < Scores::kSureContent || crossed_j < Scores::kSureContent ||
            crossed_i < alike(i, r) + kSwapGain || crossed_j < alike(j, q) + kSwapGain)
            continue;
        s.take(i, q, s.score(i, q, crossed_i), crossed_i, How::Moved);
        s.take(j, r, s.score(j, r, crossed_j), crossed_j, How::Moved);
        ++k;
    }
}

// The own added line paired with the base line `step` (-1 or 1) from removed line `i`, when
// that line is a removed line too and says something (a brace or blank line beside it may be
// anyone's); else kNone.
std::size_t neighbour_pair(const Lines& lines, const Choice& c, std::size_t i, int step) {
    const std::size_t j = i + std::size_t(step);
    if ((step < 0 && i == 0) || j >= lines.left.size()) return kNone;
    const std::size_t q = c.match[j];
    if (q == kNone || q >= lines.own || lines.left[j].line != lines.left[i].line + step ||
        !line_compare::telling(lines.left[j].text))
        return kNone;
    return q;
}

// An ordered line whose added line has a free rival as good (a twin) that continues a
// neighbour's pair, moved there: of equal lines, the one beside its neighbour's counterpart (a
// neighbour that says something: a brace or blank line beside it may be anyone's).
// `stop= string.indexOf("|", start);` after `start= stop+1;` takes the `end = ...` after that
// line's counterpart, not an equal one further down.
void keep_runs(State& s) {
    const auto& left = s.lines.left;
    const auto& right = s.lines.right;
    for (std::size_t i = 0; i < left.size(); ++i) {
        // A wrapped pair is sure for its own place alone.
        if (!ordered(s.c.how[i]) || s.c.how[i] == How::Wrapped || continues(s.lines, s.c, i))
            continue;
        for (int step : {-1, 1}) {
            const std::size_t q = neighbour_pair(s.lines, s.c, i, step);
            if (q == kNone) continue;
            const std::size_t want = q - std::size_t(step);
            if (want >= s.lines.own || s.c.taken[want] || right[want].line != right[q].line - step)
                continue;
            const Scored* x = s.candidate(i, want);
            if (!x || x->score < s.c.score[i] - Scores::kMargin || x->content < Scores::kContent)
                continue;
            s.c.taken[s.c.match[i]] = false;
            s.take(i, want, x->score, x->content, s.c.how[i]);
            break;
        }
    }
}

// Pairs the hunks give (Lines::replaced, Lines::edges), taken as `how` when both lines are
// free, read at least kContent alike and score at least kFloor.
void take_hunk_pairs(State& s, const std::vector<std::pair<std::size_t, std::size_t>>& pairs,
                     How how) {
    for (auto [l, r] : pairs) {
        if (!s.free(l) || s.c.taken[r]) continue;
        const Scored* x = s.candidate(l, r);
        if (x && x->score >= Scores::kFloor && x->content >= Scores::kContent)
            s.take(l, r, x->score, x->content, how);
    }
}

// Each line that reads kMovedContent alike to one added line of the region among its
// candidates and to no other, whose text no other removed line has, in order or not: best
// pairs first, then the nearer. Taken before the chain, so that reordered look-alike lines (a
// sorted list) each find their own copy rather than the neighbour in their old place.
void take_moved(State& s, const std::vector<bool>& unique) {
    std::vector<Pairing> moved;
    for (std::size_t i = 0; i < s.lines.left.size(); ++i)
        if (const Scored* x = s.free(i) ? sure_move(s, i, unique) : nullptr;
            x && x->to < s.lines.own)
            moved.push_back({i, x->to, x->score, x->content});
    auto nearness = [&](const Pairing& p) {
        return line_compare::distance(s.lines.left[p.l], s.lines.right[p.r]);
    };
    std::stable_sort(moved.begin(), moved.end(), [&](const Pairing& a, const Pairing& b) {
        if (a.score != b.score) return a.score > b.score;
        return nearness(a) < nearness(b);
    });
    for (const Pairing& p : moved)
        if (s.free(p.l) && !s.c.taken[p.r]) s.take(p.l, p.r, p.score, p.content, How::Moved);
}

// The lines around each line moved in its region (take_moved) that moved with it: free, beside
// it on both sides (the next line up or down of each, at the same distance), reading kContent
// alike or the one rewording the other (line_compare::reworded), up to the first that is not. A
// function moved above others in the same hunks carries its edited lines (`def greet(name):` ->
// `def greet(person_name):`) as a block moved between regions does.
void grow_moved(State& s) {
    const auto& left = s.lines.left;
    const auto& right = s.lines.right;
    for (std::size_t i = 0; i < left.size(); ++i) {
        if (s.c.how[i] != How::Moved) continue;
        const std::size_t r = s.c.match[i];
        for (int step : {-1, 1})
            for (std::size_t k = 1;; ++k) {
                const std::ptrdiff_t li = std::ptrdiff_t(i) + step * std::ptrdiff_t(k);
                const std::ptrdiff_t ri = std::ptrdiff_t(r) + step * std::ptrdiff_t(k);
                if (li < 0 || ri < 0 || std::size_t(li) >= left.size() ||
                    std::size_t(ri) >= s.lines.own)
                    break;
                const std::size_t l2 = std::size_t(li), r2 = std::size_t(ri);
                const LineNo apart = LineNo(step) * LineNo(k);
                if (!s.free(l2) || s.c.taken[r2] || left[l2].line != left[i].line + apart ||
                    right[r2].line != right[r].line + apart)
                    break;
                const double alike = content_similarity(left[l2], right[r2]);
                if (alike < Scores::kContent &&
                    !line_compare::reworded(left[l2].text, right[r2].text))
                    break;
                s.take(l2, r2, s.score(l2, r2, alike), alike, How::Block);
            }
    }
}

// A removed line split into several added lines, or several removed lines merged into one:
// joined, they read kJoinGain more alike than the one line alone (or half of what it lacks). A line
// matched alone is tried against its counterpart; a free one against its best free candidate, and
// then the lines merged must make up nearly all of it (kSureContent). Where no join of free lines
// does, lines that weaker ordered or edge pairs took may join it too (they read under
// kSureContent alike to their added line), when the join reads kSureContent alike and kJoinGain
// more than each of those pairs: `public double get() {` and `return v;` -> `public double get() {
// return v; }`, though the chain had paired `return v;` with a `return w;` added below.
void take_joins(State& s) {
    const auto& left = s.lines.left;
    const auto& right = s.lines.right;
    Choice& c = s.c;
    std::vector<bool> left_taken(left.size());
    for (std::size_t i = 0; i < left.size(); ++i) left_taken[i] = !s.free(i);
    // The removed line paired with each own added line as the joins start.
    std::vector<std::size_t> owner(right.size(), kNone);
    for (std::size_t i = 0; i < left.size(); ++i)
        if (c.match[i] != kNone) owner[c.match[i]] = i;
    // Whether a join may break line q's pair: ordered or a hunk's edge, under kSureContent alike.
    auto breakable = [&](std::size_t q) {
        return (ordered(c.how[q]) || c.how[q] == How::Edge) && c.content[q] < Scores::kSureContent;
    };
    // The line that holds added line t in a pair a join may break, else kNone.
    auto breakable_owner = [&](std::size_t t) {
        const std::size_t q = owner[t];
        return q != kNone && c.match[q] == t && breakable(q) ? q : kNone;
    };
    // `taken` with the lines a join around `at` may reach (a run holds line_compare::kSpan
    // lines at most) that `held` says are in pairs it may break made free; nullopt where it
    // makes none free.
    auto loosened = [](std::vector<bool> taken, std::size_t at,
                       auto&& held) -> std::optional<std::vector<bool>> {
        const std::size_t reach = std::size_t(line_compare::kSpan) - 1;
        bool any = false;
        for (std::size_t q = at > reach ? at - reach : 0; q < taken.size() && q <= at + reach; ++q)
            if (q != at && taken[q] && held(q)) taken[q] = false, any = true;
        if (!any) return std::nullopt;
        return taken;
    };
    // The join of `text` around line `at` of `lines` that may take the lines `held` says are
    // in pairs it may break: reading `least` alike at least, and kJoinGain more alike than the pair
    // of each line it takes (`pair_of` gives that pair's removed line); nullopt where none does.
    auto breaking_join = [&](const std::string& text, const std::vector<Changed>& lines,
                             std::size_t at, const std::vector<bool>& taken, double least,
                             auto&& held, auto&& pair_of) -> std::optional<Run> {
        const auto loose = loosened(taken, at, held);
        if (!loose) return std::nullopt;
        const Run run =
            line_compare::best_run(text, lines, at, *loose, /*gaps=*/true, least - 1e-9);
        if (!run.joined()) return std::nullopt;
        for (std::size_t q = run.from; q <= run.to; ++q)
            if (const std::size_t l = run.holds(q) ? pair_of(q) : kNone;
                l != kNone && run.content < c.content[l] + kJoinGain)
                return std::nullopt;
        return run;
    };
    for (std::size_t i = 0; i < left.size(); ++i) {
        // In a merge found from a line before it, or of a block settled beforehand.
        if (c.how[i] == How::Merged || c.how[i] == How::Block) continue;
        std::size_t r = c.match[i];
        if (r != kNone && r >= s.lines.own) continue;
        if (r == kNone) {
            auto next =
                std::find_if(s.candidates[i].begin(), s.candidates[i].end(),
                             [&](const Scored& x) { return x.to < s.lines.own && !c.taken[x.to]; });
            if (next == s.candidates[i].end()) continue;
            r = next->to;
        }
        const double alone = content_similarity(left[i], right[r]);
        if (alone >= 0.95) continue;
        // What joining must add: kJoinGain, or half of what the line alone lacks.
        const double gain = std::min(kJoinGain, (1 - alone) / 2);
        // What a join that breaks weaker pairs must read.
        const double least = std::max(alone + gain, Scores::kSureContent);
        // A line paired however little alike by what its words say (How::Wrapped) is joined
        // only where the join reads kSureContent alike, as a free line is merged: a weak
        // pair's likeness is little to gain on.
        const double floor = c.how[i] == How::Wrapped ? Scores::kSureContent : 0;
        const double mine = double(left[i].flat.size()), theirs = double(right[r].flat.size());
        if (mine >= kJoinLength * theirs) {
            Run run = line_compare::best_run(left[i].flat, right, r, c.taken, /*gaps=*/true);
            if (!run.joined() || run.content < std::max({alone + gain, Scores::kContent, floor})) {
                const auto broken = breaking_join(
                    left[i].flat, right, r, c.taken, least,
                    [&](std::size_t t) { return breakable_owner(t) != kNone; }, breakable_owner);
                if (!broken) continue;
                run = *broken;
            }
            const double score = s.score(i, r, run.content);
            if (score < Scores::kFloor) continue;
            if (c.match[i] != kNone) c.taken[c.match[i]] = false;
            for (std::size_t q = run.from; q <= run.to; ++q) {
                if (!run.holds(q)) continue;
                if (const std::size_t l = breakable_owner(q); l != kNone && l != i) {
                    c.match[l] = kNone, c.how[l] = How::None, c.score[l] = c.content[l] = 0;
                    left_taken[l] = false;
                }
                c.taken[q] = true;
            }
            s.take(i, run.from, score, run.content, How::Split);
            c.split[i] = run;
            left_taken[i] = true;
        } else if (theirs >= kJoinLength * mine) {
            Run run = line_compare::best_run(right[r].flat, left, i, left_taken, /*gaps=*/true);
            if (!run.joined() || run.content < std::max(alone + gain, floor) ||
                (c.match[i] == kNone && run.content < Scores::kSureContent)) {
                const auto broken = breaking_join(
                    right[r].flat, left, i, left_taken, least, breakable,
                    [&](std::size_t q) { return q != i && c.match[q] != kNone ? q : kNone; });
                if (!broken) continue;
                run = *broken;
            }
            const double score = s.score(i, r, run.content);
            for (std::size_t q = run.from; q <= run.to; ++q) {
                if (!run.holds(q)) continue;
                if (c.match[q] != kNone) c.taken[c.match[q]] = false;
                s.take(q, r, std::max(score, Scores::kFloor), run.content, How::Merged);
                left_taken[q] = true;
            }
        }
    }
}

}  // namespace

bool continues(const Lines& lines, const Choice& c, std::size_t i) {
    const std::size_t r = c.match[i];
    if (r == kNone || r >= lines.own) return false;
    for (int step : {-1, 1})
        if (const std::size_t q = neighbour_pair(lines, c, i, step);
            q != kNone && lines.right[q].line == lines.right[r].line + step)
            return true;
    return false;
}

Bounds chain_bounds(const Choice& c, std::size_t own) {
    const std::size_t n = c.match.size();
    Bounds b{std::vector<std::size_t>(n), std::vector<std::size_t>(n)};
    for (std::size_t i = 0, last = 0; i < n; ++i) {
        b.low[i] = last;
        if (ordered(c.how[i])) last = c.match[i] + 1;
    }
    for (std::size_t i = n, next = own; i-- > 0;) {
        b.high[i] = next;
        if (ordered(c.how[i])) next = c.match[i];
    }
    return b;
}

Choice choose(const Lines& lines, const std::vector<std::vector<Scored>>& candidates,
              const std::vector<bool>& unique, const Pairs& block, const Pairs& lone,
              const std::vector<bool>& reserved) {
    Choice c;
    const std::size_t n = lines.left.size();
    c.match.assign(n, kNone);
    c.score.assign(n, 0);
    c.content.assign(n, 0);
    c.how.assign(n, How::None);
    c.split.resize(n);
    c.taken.assign(lines.right.size(), false);
    for (std::size_t r = 0; r < reserved.size() && r < lines.own; ++r) c.taken[r] = reserved[r];
    State s{lines, candidates, c};
    auto take_moved_between = [&](const Pairs& pairs) {
        for (auto [l, r] : pairs) {
            if (!s.free(l)) continue;
            const double alike = content_similarity(lines.left[l], lines.right[r]);
            s.take(l, r, s.score(l, r, alike), alike, How::Block);
        }
    };
    take_moved_between(block);
    take_moved(s, unique);
    // The lines of hunks of one removed and one added line: the diff put the one in the
    // other's place, so they are ordered before the chain, which keeps their order: a header
    // renamed in place, `def mark_done(num):` -> `def complete_todo(num):`, is not given up to
    // the header of a function removed above it that reads as much like the new one.
    take_hunk_pairs(s, lines.replaced, How::Chain);
    take_chain(s);
    // The hunks' edges the chain left free: the diff put them beside the same kept line.
    take_hunk_pairs(s, lines.edges, How::Edge);
    grow_moved(s);
    take_moved_between(lone);
    fill_gaps(s);
    TokensOf left_tokens(lines.left), right_tokens(lines.right);
    Renaming names(s, left_tokens, right_tokens);
    take_renamed(s, names);
    take_wrapped(s, names);
    take_reworded(s);
    const Doings doings(lines);
    take_assigned(s, doings);
    give_to_kin(s, doings);
    take_switched(s);
    swap_crossed(s);
    keep_runs(s);
    take_joins(s);
    return c;
}

}  // namespace cp::line_match
