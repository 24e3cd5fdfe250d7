#include "context_pack/core/line_map.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <string>
#include <unordered_map>

#include "context_pack/core/text.hpp"

namespace cp {
namespace {

using Scores = LineMapScores;

const LineNo kBand = 30;            // past that, lines this far apart in a hunk are not compared
const std::size_t kTop = 8;         // candidates a removed line keeps for the finer score
const std::size_t kContext = 4;     // non-blank lines above and below that make a line's context
const std::size_t kAligned = 300;   // lines longer than this are compared by bigrams
const LineNo kSpan = 6;             // lines a split or a merge may take
const double kContentWeight = 0.6;  // LHDiff's weights: content 0.6, context 0.4
const double kJoinLength = 1.25;    // a line split (or merged) is this much longer than a piece
const double kJoinGain = 0.1;       // what joining lines must add to a line's similarity
const double kMovedContent = 0.9;   // a line taken from another hunk must read this alike
const double kCodeWeight = 0.95;    // what equal code with other comments counts as

bool space(char c) {
    return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v' || c == '\n';
}

std::string without_space(std::string_view line) {
    std::string out;
    out.reserve(line.size());
    for (char c : line)
        if (!space(c)) out += c;
    return out;
}

// Each byte of the line's code, without its comments (`/* */`, and `//` or ` #` to the end)
// and whitespace, given to `out`.
template <class Out>
void code_bytes(std::string_view line, Out out) {
    for (std::size_t i = 0; i < line.size(); ++i) {
        if (line.compare(i, 2, "/*") == 0) {
            auto end = line.find("*/", i + 2);
            if (end == std::string_view::npos) break;
            i = end + 1;
            continue;
        }
        if (line.compare(i, 2, "//") == 0 || (line[i] == '#' && i > 0 && space(line[i - 1]))) break;
        if (!space(line[i])) out(line[i]);
    }
}

// The line's code as code_bytes gives it; empty when that leaves nothing.
std::string code_of(std::string_view line) {
    std::string out;
    code_bytes(line, [&](char c) { out += c; });
    return out;
}

// A text's key in the map's index of equal lines (FNV-1a of its bytes).
struct Key {
    std::uint64_t h = 14695981039346656037ull;
    std::size_t bytes = 0;
    void operator()(char c) {
        h = (h ^ static_cast<unsigned char>(c)) * 1099511628211ull;
        ++bytes;
    }
};
std::uint64_t key_of(const std::string& text) {
    Key k;
    for (char c : text) k(c);
    return k.h;
}

std::vector<std::uint16_t> bigrams(const std::string& s) {
    std::vector<std::uint16_t> out;
    for (std::size_t i = 0; i + 1 < s.size(); ++i)
        out.push_back(std::uint16_t((static_cast<unsigned char>(s[i]) << 8) |
                                    static_cast<unsigned char>(s[i + 1])));
    std::sort(out.begin(), out.end());
    return out;
}

double dice(const std::vector<std::uint16_t>& x, const std::vector<std::uint16_t>& y) {
    if (x.empty() || y.empty()) return x.empty() && y.empty() ? 1.0 : 0.0;
    std::size_t common = 0;
    for (std::size_t i = 0, j = 0; i < x.size() && j < y.size();) {
        if (x[i] == y[j]) {
            ++common, ++i, ++j;
        } else if (x[i] < y[j]) {
            ++i;
        } else {
            ++j;
        }
    }
    return 2.0 * double(common) / double(x.size() + y.size());
}

// The edit distance of `text` from `pattern` of at most 64 bytes, by Myers' bit-parallel
// algorithm (as Hyyrö explains it): one pass over `text`, a machine word a column.
std::size_t edit_distance64(const std::string& pattern, const std::string& text) {
    std::uint64_t peq[256] = {};
    for (std::size_t i = 0; i < pattern.size(); ++i)
        peq[static_cast<unsigned char>(pattern[i])] |= std::uint64_t(1) << i;
    const std::uint64_t last = std::uint64_t(1) << (pattern.size() - 1);
    std::uint64_t pv = ~std::uint64_t(0), mv = 0;
    std::size_t score = pattern.size();
    for (char c : text) {
        const std::uint64_t eq = peq[static_cast<unsigned char>(c)];
        const std::uint64_t xv = eq | mv;
        const std::uint64_t xh = (((eq & pv) + pv) ^ pv) | eq;
        std::uint64_t ph = mv | ~(xh | pv);
        std::uint64_t mh = pv & xh;
        if (ph & last) ++score;
        if (mh & last) --score;
        ph = (ph << 1) | 1;
        mh <<= 1;
        pv = mh | ~(xv | ph);
        mv = ph & xv;
    }
    return score;
}

// One minus the edit distance over the longer length; bigram overlap past kAligned bytes.
double similarity(const std::string& a, const std::string& b) {
    if (a == b) return 1.0;
    if (a.empty() || b.empty()) return 0.0;
    if (a.size() > kAligned || b.size() > kAligned) return dice(bigrams(a), bigrams(b));
    if (std::min(a.size(), b.size()) <= 64) {
        const bool a_shorter = a.size() <= b.size();
        return 1.0 - double(edit_distance64(a_shorter ? a : b, a_shorter ? b : a)) /
                         double(std::max(a.size(), b.size()));
    }
    std::vector<std::size_t> row(b.size() + 1);
    for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i) {
        std::size_t diagonal = row[0];
        row[0] = i;
        for (std::size_t j = 1; j <= b.size(); ++j) {
            std::size_t up = row[j];
            row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] != b[j - 1])});
            diagonal = up;
        }
    }
    return 1.0 - double(row[b.size()]) / double(std::max(a.size(), b.size()));
}

// A bag of tokens (runs of word bytes, and each other non-space byte), as sorted
// (hash, count) pairs, with its norm for the cosine.
struct Bag {
    std::vector<std::pair<std::uint32_t, std::uint32_t>> counts;
    double norm = 0;
};

void add_tokens(std::string_view line, std::vector<std::uint32_t>& out) {
    auto word = [](char c) { return text::is_word_byte(static_cast<unsigned char>(c)); };
    for (std::size_t i = 0; i < line.size();) {
        if (space(line[i])) {
            ++i;
            continue;
        }
        std::size_t from = i++;
        if (word(line[from]))
            while (i < line.size() && word(line[i])) ++i;
        std::uint32_t h = 2166136261u;  // FNV-1a
        for (std::size_t k = from; k < i; ++k)
            h = (h ^ static_cast<unsigned char>(line[k])) * 16777619u;
        out.push_back(h);
    }
}

Bag make_bag(std::vector<std::uint32_t> tokens) {
    Bag bag;
    std::sort(tokens.begin(), tokens.end());
    for (std::size_t i = 0; i < tokens.size();) {
        std::size_t j = i;
        while (j < tokens.size() && tokens[j] == tokens[i]) ++j;
        bag.counts.emplace_back(tokens[i], std::uint32_t(j - i));
        bag.norm += double(j - i) * double(j - i);
        i = j;
    }
    bag.norm = std::sqrt(bag.norm);
    return bag;
}

double cosine(const Bag& x, const Bag& y) {
    if (x.counts.empty() || y.counts.empty()) return x.counts.empty() && y.counts.empty();
    double dot = 0;
    for (std::size_t i = 0, j = 0; i < x.counts.size() && j < y.counts.size();) {
        if (x.counts[i].first == y.counts[j].first) {
            dot += double(x.counts[i].second) * double(y.counts[j].second);
            ++i, ++j;
        } else if (x.counts[i].first < y.counts[j].first) {
            ++i;
        } else {
            ++j;
        }
    }
    return dot / (x.norm * y.norm);
}

bool blank(std::string_view line) {
    return std::all_of(line.begin(), line.end(), space);
}

// A line that says something of where it is: four non-space bytes or more (not a blank line,
// a lone brace, `fi`, `;;`).
bool telling(std::string_view line) {
    return std::count_if(line.begin(), line.end(), [](char c) { return !space(c); }) >= 4;
}

// The tokens of the kContext non-blank lines above line `i` (0-based) and below it.
Bag context_of(const std::vector<std::string_view>& lines, std::size_t i) {
    std::vector<std::uint32_t> tokens;
    std::size_t taken = 0;
    for (std::size_t k = i; k > 0 && taken < kContext; --k)
        if (!blank(lines[k - 1])) add_tokens(lines[k - 1], tokens), ++taken;
    taken = 0;
    for (std::size_t k = i + 1; k < lines.size() && taken < kContext; ++k)
        if (!blank(lines[k])) add_tokens(lines[k], tokens), ++taken;
    return make_bag(std::move(tokens));
}

// A changed line of one side, prepared for comparing.
struct Changed {
    LineNo line = 0;       // 1-based
    std::size_t hunk = 0;  // index of the hunk it belongs to
    double position = 0;   // 0..1 within its hunk's side
    std::string flat;      // without whitespace
    std::string code;      // and without comments
    std::vector<std::uint16_t> grams;
    Bag context;
};

// Line `n` of `lines`, of hunk `k` whose side starts at `start` with `count` lines.
Changed prepare(const std::vector<std::string_view>& lines, LineNo n, std::size_t k, LineNo start,
                LineNo count) {
    Changed c;
    c.line = n;
    c.hunk = k;
    c.position = count > 1 ? double(n - start) / double(count - 1) : 0.5;
    c.flat = without_space(lines[std::size_t(n - 1)]);
    c.code = code_of(lines[std::size_t(n - 1)]);
    c.grams = bigrams(c.flat);
    c.context = context_of(lines, std::size_t(n - 1));
    return c;
}

// Their text's similarity, or their code's where it says more: comments aside, but a little
// less than equal text, since the text did change.
double content_similarity(const Changed& a, const Changed& b) {
    double text = similarity(a.flat, b.flat);
    if (text == 1.0 || a.code.empty() || b.code.empty()) return text;
    return std::max(text, kCodeWeight * similarity(a.code, b.code));
}

struct Scored {
    std::size_t to = 0;  // index into the added lines
    double content = 0;
    double context = 0;
    double score = 0;
};

double combined(double content, double context) {
    return kContentWeight * content + (1 - kContentWeight) * context;
}

// How far apart two changed lines are: their places within one hunk, or 2 across hunks.
double distance(const Changed& l, const Changed& r) {
    return l.hunk == r.hunk ? std::abs(l.position - r.position) : 2.0;
}

// A removed line's best kTop counterparts among `pool`, best first: picked by the bigrams
// they share (the nearer first among equals, so that of many equal lines the ones around its
// place are kept), then scored by edit distance and context.
std::vector<Scored> best_of(const Changed& l, const std::vector<Changed>& added,
                            const std::vector<std::size_t>& pool) {
    struct Rough {
        std::size_t to;
        double grams, apart;
    };
    std::vector<Rough> rough;
    rough.reserve(pool.size());
    for (std::size_t r : pool)
        rough.push_back({r, dice(l.grams, added[r].grams), distance(l, added[r])});
    const std::size_t keep = std::min(kTop, rough.size());
    std::partial_sort(rough.begin(), rough.begin() + std::ptrdiff_t(keep), rough.end(),
                      [](const Rough& a, const Rough& b) {
                          return a.grams != b.grams ? a.grams > b.grams : a.apart < b.apart;
                      });
    std::vector<Scored> out;
    for (std::size_t k = 0; k < keep; ++k) {
        Scored s;
        s.to = rough[k].to;
        s.context = cosine(l.context, added[s.to].context);
        s.content = content_similarity(l, added[s.to]);
        s.score = combined(s.content, s.context);
        out.push_back(s);
    }
    std::sort(out.begin(), out.end(),
              [](const Scored& a, const Scored& b) { return a.score > b.score; });
    return out;
}

std::string joined(const std::vector<Changed>& lines, std::size_t from, std::size_t to) {
    std::string out;
    for (std::size_t i = from; i <= to; ++i) out += lines[i].flat;
    return out;
}

// The widest run around `at` in `lines` (same hunk, free but for `at`) whose joined text is
// most like `text`: the run's ends and its similarity.
struct Run {
    std::size_t from = 0, to = 0;
    double content = 0;
};
Run best_run(const std::string& text, const std::vector<Changed>& lines, std::size_t at,
             const std::vector<bool>& taken) {
    Run best{at, at, similarity(text, lines[at].flat)};
    auto usable = [&](std::size_t i) {  // of its hunk, next to it, and free
        return i == at || (lines[i].hunk == lines[at].hunk &&
                           lines[i].line - lines[at].line == LineNo(i) - LineNo(at) && !taken[i]);
    };
    for (std::size_t from = at;; --from) {
        if (!usable(from)) break;
        for (std::size_t to = at; to < lines.size() && LineNo(to - from) < kSpan; ++to) {
            if (!usable(to)) break;
            if (from == to) continue;
            double content = similarity(text, joined(lines, from, to));
            if (content > best.content) best = {from, to, content};
        }
        if (from == 0 || LineNo(at - from) + 1 >= kSpan) break;
    }
    return best;
}

}  // namespace

std::string_view tier_name(LineTier tier) {
    switch (tier) {
        case LineTier::Exact:
            return "exact";
        case LineTier::Whitespace:
            return "whitespace";
        case LineTier::Edited:
            return "edited";
        case LineTier::Split:
            return "split";
        case LineTier::Merged:
            return "merged";
        case LineTier::Moved:
            return "moved";
        case LineTier::Ambiguous:
            return "ambiguous";
        case LineTier::Deleted:
            return "deleted";
    }
    return "deleted";
}

double line_similarity(std::string_view a, std::string_view b) {
    return similarity(without_space(a), without_space(b));
}

LineMap::LineMap(std::shared_ptr<const std::string> base, std::shared_ptr<const std::string> target,
                 std::span<const Hunk> hunks)
    : base_text_(std::move(base)),
      target_text_(std::move(target)),
      hunks_(hunks.begin(), hunks.end()) {
    base_ = text::split_lines(*base_text_);
    target_ = text::split_lines(*target_text_);
    start();
}

LineMap::LineMap(const std::vector<std::string_view>& base,
                 const std::vector<std::string_view>& target, std::span<const Hunk> hunks)
    : hunks_(hunks.begin(), hunks.end()) {
    auto own = [](const std::vector<std::string_view>& lines,
                  std::vector<std::string_view>& views) {
        auto text = std::make_shared<std::string>();
        for (auto l : lines) text->append(l).push_back('\n');
        std::size_t at = 0;
        for (auto l : lines) views.emplace_back(text->data() + at, l.size()), at += l.size() + 1;
        return std::shared_ptr<const std::string>(std::move(text));
    };
    base_text_ = own(base, base_);
    target_text_ = own(target, target_);
    start();
}

void LineMap::start() {
    settled_.assign(hunks_.size(), false);
    answers_.resize(hunks_.size());
}

// Where lines of equal text are, for the lines that left their hunk: every added line by its
// text and its code, and how many removed lines have each.
void LineMap::index() const {
    if (indexed_) return;
    indexed_ = true;
    for (std::size_t k = 0; k < hunks_.size(); ++k) {
        const Hunk& h = hunks_[k];
        // A line's keys: its text without whitespace, and its code when that differs.
        auto keys = [](std::string_view line) {
            Key flat, code;
            for (char c : line)
                if (!space(c)) flat(c);
            code_bytes(line, code);
            return std::pair{flat, code};
        };
        for (LineNo n = h.new_start; n < h.new_start + h.new_count; ++n) {
            if (n < 1 || n > LineNo(target_.size())) continue;
            auto [flat, code] = keys(target_[std::size_t(n - 1)]);
            if (flat.bytes) added_by_text_[flat.h].emplace_back(n, k);
            if (code.bytes && code.h != flat.h) added_by_text_[code.h].emplace_back(n, k);
        }
        for (LineNo n = h.old_start; n < h.old_start + h.old_count; ++n) {
            if (n < 1 || n > LineNo(base_.size())) continue;
            auto [flat, code] = keys(base_[std::size_t(n - 1)]);
            ++removed_count_[flat.h];
            if (code.h != flat.h) ++removed_count_[code.h];
        }
    }
}

// The answers for the lines hunk `k` removes, made when one is first asked for: each is
// matched among the lines the hunk adds and, when its text is the only one of the removed
// lines, the lines of that text the other hunks add.
void LineMap::settle(std::size_t k) const {
    if (settled_[k]) return;
    settled_[k] = true;
    const Hunk& h = hunks_[k];
    std::vector<Changed> left, right;
    for (LineNo n = h.old_start; n < h.old_start + h.old_count && n <= LineNo(base_.size()); ++n)
        left.push_back(prepare(base_, n, k, h.old_start, h.old_count));
    for (LineNo n = h.new_start; n < h.new_start + h.new_count && n <= LineNo(target_.size()); ++n)
        right.push_back(prepare(target_, n, k, h.new_start, h.new_count));
    const std::size_t own = right.size();  // its own added lines, in line order, come first
    std::vector<LineAnswer>& answers = answers_[k];
    answers.assign(left.size(), LineAnswer{});
    if (left.empty()) return;
    index();
    std::map<LineNo, std::size_t> elsewhere;  // target line -> index in `right`
    std::unordered_map<std::string, std::vector<std::size_t>> by_text;
    for (const Changed& l : left)
        for (const std::string* text : {&l.flat, &l.code}) {
            if (text->empty()) continue;
            auto same = added_by_text_.find(key_of(*text));
            if (same == added_by_text_.end()) continue;
            for (std::size_t c = 0; c < same->second.size() && c < kTop; ++c) {
                auto [n, hunk] = same->second[c];
                if (hunk == k) continue;
                auto [at, added] = elsewhere.try_emplace(n, right.size());
                if (added)
                    right.push_back(
                        prepare(target_, n, hunk, hunks_[hunk].new_start, hunks_[hunk].new_count));
                by_text[*text].push_back(at->second);
            }
        }

    // Candidates: the added lines near its place in its own hunk, and those elsewhere whose
    // text, or code, is its own (a line from another hunk must read almost the same anyway).
    std::vector<std::vector<Scored>> candidates(left.size());
    for (std::size_t i = 0; i < left.size(); ++i) {
        const Changed& l = left[i];
        std::vector<std::size_t> pool;
        LineNo centre = h.new_start + LineNo(std::llround(l.position * double(h.new_count - 1)));
        auto first =
            std::lower_bound(right.begin(), right.begin() + std::ptrdiff_t(own), centre - kBand,
                             [](const Changed& c, LineNo line) { return c.line < line; });
        for (auto r = first; r != right.begin() + std::ptrdiff_t(own) && r->line <= centre + kBand;
             ++r)
            pool.push_back(std::size_t(r - right.begin()));
        for (const std::string* text : {&l.flat, &l.code})
            if (auto same = by_text.find(*text); same != by_text.end())
                pool.insert(pool.end(), same->second.begin(), same->second.end());
        std::sort(pool.begin(), pool.end());
        pool.erase(std::unique(pool.begin(), pool.end()), pool.end());
        candidates[i] = best_of(l, right, pool);
    }

    // One added line to one removed line, the best pairs first: the same hunk before another,
    // then the nearer position, then the earlier line.
    struct Pairing {
        std::size_t l, r;
        double score;
    };
    std::vector<Pairing> pairings;
    for (std::size_t i = 0; i < left.size(); ++i) {
        // A line from another hunk must read almost the same, be the only one that does, and
        // its text be no other removed line's.
        auto alike = std::count_if(candidates[i].begin(), candidates[i].end(),
                                   [](const Scored& s) { return s.content >= kMovedContent; });
        const bool unique = removed_count_[key_of(left[i].flat)] == 1 &&
                            (left[i].code.empty() || removed_count_[key_of(left[i].code)] == 1);
        for (const Scored& s : candidates[i])
            if (s.score >= Scores::kFloor && s.content >= Scores::kContent &&
                (right[s.to].hunk == left[i].hunk ||
                 (s.content >= kMovedContent && alike == 1 && unique)))
                pairings.push_back({i, s.to, s.score});
    }
    auto nearness = [&](const Pairing& p) { return distance(left[p.l], right[p.r]); };
    std::stable_sort(pairings.begin(), pairings.end(), [&](const Pairing& a, const Pairing& b) {
        if (a.score != b.score) return a.score > b.score;
        return nearness(a) < nearness(b);
    });
    const std::size_t none = left.size() + right.size();
    std::vector<std::size_t> match(left.size(), none);
    std::vector<double> score(left.size(), 0);
    std::vector<bool> taken(right.size(), false), merged(left.size(), false);
    for (const Pairing& p : pairings) {
        if (match[p.l] != none || taken[p.r]) continue;
        match[p.l] = p.r, taken[p.r] = true, score[p.l] = p.score;
    }

    // A removed line split into several added lines, or several removed lines merged into one:
    // joined, they read much more alike than any one of them does.
    std::vector<Run> split(left.size());
    std::vector<bool> left_taken(left.size());
    for (std::size_t i = 0; i < left.size(); ++i) left_taken[i] = match[i] != none;
    for (std::size_t i = 0; i < left.size(); ++i) {
        std::size_t r = match[i];
        if (r == none && !candidates[i].empty() && !taken[candidates[i][0].to]) {
            r = candidates[i][0].to;  // no single line was enough: perhaps several are
        }
        if (r == none) continue;
        double alone = content_similarity(left[i], right[r]);
        if (alone >= 0.95) continue;
        // Only a line that is much longer than its counterpart can have been split, and only
        // a much shorter one merged.
        const double longer = double(left[i].flat.size()), shorter = double(right[r].flat.size());
        Run run = longer >= kJoinLength * shorter ? best_run(left[i].flat, right, r, taken)
                                                  : Run{r, r, alone};
        if (run.to > run.from && run.content >= alone + kJoinGain) {
            double sc = combined(run.content, cosine(left[i].context, right[r].context));
            if (sc < Scores::kFloor) continue;
            for (std::size_t q = run.from; q <= run.to; ++q) taken[q] = true;
            match[i] = r, score[i] = sc, left_taken[i] = true;
            split[i] = run;
            continue;
        }
        if (match[i] == none || shorter < kJoinLength * longer) continue;
        Run joined_left = best_run(right[r].flat, left, i, left_taken);
        if (joined_left.to > joined_left.from && joined_left.content >= alone + kJoinGain) {
            double sc = combined(joined_left.content, cosine(left[i].context, right[r].context));
            for (std::size_t q = joined_left.from; q <= joined_left.to; ++q) {
                match[q] = r, score[q] = std::max(sc, Scores::kFloor), left_taken[q] = true;
                merged[q] = true;
            }
        }
    }

    for (std::size_t i = 0; i < left.size(); ++i) {
        LineAnswer& a = answers[i];
        const std::size_t r = match[i];
        if (r == none) {
            // Its text is in several other hunks, nearly as it was: moved, but to which?
            for (const Scored& s : candidates[i])
                if (s.content >= kMovedContent && !taken[s.to] && a.candidates.size() < 3)
                    a.candidates.push_back({right[s.to].line, s.score});
            a.tier = a.candidates.size() > 1 ? LineTier::Ambiguous : LineTier::Deleted;
            if (a.tier == LineTier::Deleted) a.candidates.clear();
            continue;
        }
        a.score = score[i];
        // A free line scoring about as well leaves the choice open.
        bool rival = !merged[i] && split[i].to == split[i].from &&
                     std::any_of(candidates[i].begin(), candidates[i].end(), [&](const Scored& s) {
                         return s.to != r && !taken[s.to] && s.score >= score[i] - Scores::kMargin;
                     });
        if (a.score < Scores::kSure || rival) {
            a.tier = LineTier::Ambiguous;
            for (const Scored& s : candidates[i])
                if (s.score >= Scores::kFloor && s.content >= Scores::kContent &&
                    a.candidates.size() < 3)
                    a.candidates.push_back({right[s.to].line, s.score});
            if (std::none_of(a.candidates.begin(), a.candidates.end(),
                             [&](const LineCandidate& c) { return c.line == right[r].line; }))
                a.candidates.insert(a.candidates.begin(), {right[r].line, a.score});
            continue;
        }
        const bool joined_run = split[i].to > split[i].from;
        a.line = right[joined_run ? split[i].from : r].line;
        a.end_line = right[joined_run ? split[i].to : r].line;
        std::string_view old_text = base_[std::size_t(left[i].line - 1)];
        std::string_view new_text = target_[std::size_t(right[r].line - 1)];
        a.tier = joined_run                      ? LineTier::Split
                 : merged[i]                     ? LineTier::Merged
                 : left[i].hunk != right[r].hunk ? LineTier::Moved
                 : old_text == new_text          ? LineTier::Exact
                 : left[i].flat == right[r].flat ? LineTier::Whitespace
                                                 : LineTier::Edited;
    }
}

LineAnswer LineMap::at(LineNo base_line) const {
    const bool says = base_line >= 1 && base_line <= LineNo(base_.size()) &&
                      telling(base_[std::size_t(base_line - 1)]);
    // The hunk that removes it, if one does: the last one starting at or before it.
    auto after = std::upper_bound(hunks_.begin(), hunks_.end(), base_line,
                                  [](LineNo line, const Hunk& h) { return line < h.old_start; });
    if (after != hunks_.begin()) {
        const auto k = std::size_t(after - hunks_.begin() - 1);
        const Hunk& h = hunks_[k];
        if (h.old_count && base_line < h.old_start + h.old_count &&
            base_line <= LineNo(base_.size())) {
            settle(k);
            LineAnswer a = answers_[k][std::size_t(base_line - h.old_start)];
            a.telling = says;
            return a;
        }
    }
    LineAnswer kept;  // where the boundary rule puts a line no hunk removes
    kept.line = kept.end_line = map_range(hunks_, {base_line, base_line}).to.start;
    kept.score = 1;
    kept.tier = LineTier::Exact;
    kept.telling = says;
    kept.kept = true;
    return kept;
}

namespace {

// The tier that says most about what became of a range.
int rank(LineTier t) {
    switch (t) {
        case LineTier::Exact:
            return 0;
        case LineTier::Whitespace:
            return 1;
        case LineTier::Edited:
            return 2;
        case LineTier::Merged:
            return 3;
        case LineTier::Split:
            return 4;
        case LineTier::Moved:
            return 5;
        default:
            return -1;
    }
}

}  // namespace

RangeAnswer map_lines(const LineMap& map, LineRange range) {
    RangeAnswer out;
    const LineNo width = range.end - range.start + 1;
    bool any_telling = false;
    for (LineNo n = range.start; n <= range.end; ++n) {
        out.lines.push_back(map.at(n));
        any_telling = any_telling || out.lines.back().telling;
    }
    // The lines that place the range: its telling lines found at the target (or, in a range
    // of blank lines and braces, any found). A brace left in place does not hold a range whose
    // code went elsewhere.
    std::vector<const LineAnswer*> placing;
    for (const LineAnswer& a : out.lines)
        if (a.located() && (a.telling || !any_telling)) placing.push_back(&a);
    if (placing.empty()) {
        for (const LineAnswer& a : out.lines)
            if (a.tier == LineTier::Ambiguous) {
                out.candidates = a.candidates;
                break;
            }
        out.tier = out.candidates.empty() ? LineTier::Deleted : LineTier::Ambiguous;
        out.score = out.candidates.empty() ? 0 : out.candidates.front().score;
        return out;
    }
    // Lines found far apart: the largest group of them places the range when it holds most of
    // them; otherwise the groups are the candidates.
    std::sort(placing.begin(), placing.end(),
              [](const LineAnswer* a, const LineAnswer* b) { return a->line < b->line; });
    struct Group {
        LineNo first = 0, last = 0;
        std::size_t size = 0;
        double total = 0;
        bool kept = false;  // holds a line the diff kept
    };
    std::vector<Group> groups;
    const LineAnswer* previous = nullptr;
    for (const LineAnswer* a : placing) {
        // Lines the diff kept stay together whatever it put between them: it keeps their order.
        bool together = previous && previous->kept && a->kept;
        if (groups.empty() || (a->line > groups.back().last + width + 3 && !together))
            groups.push_back({a->line, a->end_line, 0, 0, false});
        Group& g = groups.back();
        g.last = std::max(g.last, a->end_line);
        ++g.size;
        g.total += a->score;
        g.kept = g.kept || a->kept;
        previous = a;
    }
    std::stable_sort(groups.begin(), groups.end(),
                     [](const Group& a, const Group& b) { return a.size > b.size; });
    const Group& most = groups.front();
    if (2 * most.size < placing.size() || (groups.size() > 1 && groups[1].size == most.size)) {
        for (const Group& g : groups)
            if (out.candidates.size() < 3)
                out.candidates.push_back({g.first, g.total / double(g.size), g.last});
        out.tier = LineTier::Ambiguous;
        out.score = out.candidates.front().score;
        return out;
    }
    // The other lines found within reach of the group join it, and the lines the diff kept
    // join a group that holds such a line.
    double total = 0;
    std::size_t counted = 0;
    LineTier tier = LineTier::Exact;
    for (const LineAnswer& a : out.lines) {
        const bool reach = a.end_line >= most.first - width && a.line <= most.last + width;
        if (!a.located() || !(reach || (a.kept && most.kept))) continue;
        out.line = out.line ? std::min(out.line, a.line) : a.line;
        out.end_line = std::max(out.end_line, a.end_line);
        total += a.score;
        ++counted;
        if (rank(a.tier) > rank(tier)) tier = a.tier;
    }
    out.score = total / double(counted);
    out.tier = tier;
    return out;
}

}  // namespace cp
