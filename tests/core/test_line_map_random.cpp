// The line map against random edit scripts: code-like base files, edited by a script whose
// every step is tracked (lines inserted, deleted, edited by one token, replaced by unrelated
// text, moved, split at a comma, merged), diffed by a plain LCS written here into -U0 hunks.
// What must hold for any input is asserted; how often the answers are right is measured and
// held only loosely.
#include <algorithm>
#include <cstdint>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "context_pack/core/line_map.hpp"
#include "support/catch.hpp"
#include "support/lcs_hunks.hpp"
#include "support/random_text.hpp"

namespace {

using cp::Hunk;
using cp::LineAnswer;
using cp::LineNo;
using cp::LineTier;

// Portable across standard libraries (the std distributions are not).
struct Rng {
    std::mt19937_64 engine;
    explicit Rng(std::uint64_t seed) : engine(seed) {}
    int in(int lo, int hi) {
        return lo + static_cast<int>(engine() % static_cast<std::uint64_t>(hi - lo + 1));
    }
    bool chance(int percent) { return in(1, 100) <= percent; }
    template <class T>
    const T& pick(const std::vector<T>& v) {
        return v[static_cast<std::size_t>(in(0, static_cast<int>(v.size()) - 1))];
    }
};

// What the script did to a base line.
enum class Fate { Kept, Deleted, Edited, Replaced, Moved, Split, Merged };

// A line of the file being edited: its text, the base lines it comes from (none for a new
// line), whether the script may still touch it, and whether it is unrelated text.
struct Item {
    std::string text;
    std::vector<LineNo> origins;
    bool pristine = false;
    bool unrelated = false;
};

// Code-like lines: identifiers and numbers made unique by a counter, so that only the lines
// meant to repeat (blank lines, braces, a few statements) do.
struct Words {
    Rng& rng;
    int counter = 0;

    std::string ident() {
        static const std::vector<std::string> stems = {
            "count",  "buffer", "opts", "entry", "index", "name",  "path",  "size",
            "offset", "result", "item", "node",  "flags", "state", "value", "list"};
        return rng.pick(stems) + "_" + std::to_string(++counter);
    }
    std::string number() { return std::to_string(100 + ++counter); }

    std::string code() {
        switch (rng.in(0, 6)) {
            case 0:
                return "\tint " + ident() + " = " + ident() + "(" + ident() + ", " + number() +
                       ");";
            case 1:
                return "\tif (" + ident() + " > " + number() + ") " + ident() + " += " + number() +
                       ";";
            case 2:
                return "\t" + ident() + "->" + ident() + " = " + ident() + " + " + number() + ";";
            case 3:
                return "\treturn " + ident() + "(" + ident() + ", " + number() + ");";
            case 4:
                return "static void " + ident() + "(struct " + ident() + " *" + ident() + ")";
            case 5:
                return "\t" + ident() + "(" + ident() + ", " + ident() + ", " + number() + ");";
            default:
                return "\tfor (" + ident() + " = 0; " + ident() + " < " + number() + "; ++i)";
        }
    }
    // Lines that repeat in real code.
    std::string common() {
        static const std::vector<std::string> lines = {"",         "}",  "{", "\treturn 0;",
                                                       "\tbreak;", "\t}"};
        return rng.pick(lines);
    }
    std::string line() { return rng.chance(80) ? code() : common(); }

    // Text that shares no token, nor any byte but spaces, with the code above: upper-case
    // words, '$' and ':'.
    std::string unrelated() {
        static const std::vector<std::string> words = {"ZORP", "QUAX",  "MIBBLE", "WUNK",
                                                       "FROB", "GLORK", "SNARF",  "PLUGH"};
        std::string tag;
        for (int n = ++counter; n > 0; n /= 26) tag += static_cast<char>('A' + n % 26);
        return "    " + rng.pick(words) + "::" + rng.pick(words) + "$ " + tag + " " +
               rng.pick(words);
    }
};

bool word_byte(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

std::size_t non_space(std::string_view s) {
    return static_cast<std::size_t>(std::count_if(
        s.begin(), s.end(), [](char c) { return c != ' ' && c != '\t' && c != '\r'; }));
}

// One random case: the two files, each base line's fate and true target lines (1-based, in
// order; empty when it has none), and which target lines hold unrelated text.
struct Case {
    std::vector<std::string> base, target;
    std::vector<Fate> fate;                  // by base line - 1
    std::vector<std::vector<LineNo>> truth;  // by base line - 1
    std::vector<bool> unrelated;             // by target line - 1
    std::vector<Hunk> hunks;
    std::vector<LineNo> kept;  // by base line - 1: its LCS partner, or 0
};

// Indices of the items the script may still touch, optionally only runs of `len` of them.
std::vector<std::size_t> runs(const std::vector<Item>& items, std::size_t len) {
    std::vector<std::size_t> out;
    for (std::size_t i = 0; i + len <= items.size(); ++i) {
        bool ok = true;
        for (std::size_t k = i; k < i + len && ok; ++k) ok = items[k].pristine;
        if (ok) out.push_back(i);
    }
    return out;
}

void edit_once(Rng& rng, Words& words, std::vector<Item>& items, std::vector<Fate>& fate) {
    auto mark = [&](Item& it, Fate f) {
        for (LineNo o : it.origins) fate[static_cast<std::size_t>(o - 1)] = f;
        it.pristine = false;
    };
    switch (rng.in(0, 6)) {
        case 0: {  // insert new lines
            auto at = static_cast<std::size_t>(rng.in(0, static_cast<int>(items.size())));
            std::vector<Item> fresh(static_cast<std::size_t>(rng.in(1, 4)));
            for (Item& it : fresh) it.text = words.line();
            items.insert(items.begin() + std::ptrdiff_t(at), fresh.begin(), fresh.end());
            return;
        }
        case 1: {  // delete a run
            auto len = static_cast<std::size_t>(rng.in(1, 4));
            auto starts = runs(items, len);
            if (starts.empty()) return;
            std::size_t at = rng.pick(starts);
            for (std::size_t k = at; k < at + len; ++k) mark(items[k], Fate::Deleted);
            items.erase(items.begin() + std::ptrdiff_t(at),
                        items.begin() + std::ptrdiff_t(at + len));
            return;
        }
        case 2: {  // change one token
            auto starts = runs(items, 1);
            std::vector<std::size_t> with_tokens;
            for (std::size_t i : starts)
                if (std::any_of(items[i].text.begin(), items[i].text.end(),
                                [](char c) { return c >= '0' && c <= '9'; }))
                    with_tokens.push_back(i);
            if (with_tokens.empty()) return;
            Item& it = items[rng.pick(with_tokens)];
            std::vector<std::pair<std::size_t, std::size_t>>
                tokens;  // [from, to) of idents, numbers
            for (std::size_t i = 0; i < it.text.size();) {
                if (!word_byte(it.text[i])) {
                    ++i;
                    continue;
                }
                std::size_t from = i;
                while (i < it.text.size() && word_byte(it.text[i])) ++i;
                std::string tok = it.text.substr(from, i - from);
                if (tok.find('_') != std::string::npos || (tok[0] >= '0' && tok[0] <= '9'))
                    tokens.emplace_back(from, i);
            }
            if (tokens.empty()) return;
            auto [from, to] = rng.pick(tokens);
            const bool digit = it.text[from] >= '0' && it.text[from] <= '9';
            it.text.replace(from, to - from, digit ? words.number() : words.ident());
            mark(it, Fate::Edited);
            return;
        }
        case 3: {  // replace by unrelated text
            auto starts = runs(items, 1);
            if (starts.empty()) return;
            Item& it = items[rng.pick(starts)];
            it.text = words.unrelated();
            mark(it, Fate::Replaced);
            it.origins.clear();
            it.unrelated = true;
            return;
        }
        case 4: {  // move a block
            auto len = static_cast<std::size_t>(rng.in(1, 4));
            auto starts = runs(items, len);
            if (starts.empty() || items.size() <= len + 1) return;
            std::size_t at = rng.pick(starts);
            std::vector<Item> block(items.begin() + std::ptrdiff_t(at),
                                    items.begin() + std::ptrdiff_t(at + len));
            items.erase(items.begin() + std::ptrdiff_t(at),
                        items.begin() + std::ptrdiff_t(at + len));
            std::size_t to = at;
            while (to == at)
                to = static_cast<std::size_t>(rng.in(0, static_cast<int>(items.size())));
            for (Item& it : block) mark(it, Fate::Moved);
            items.insert(items.begin() + std::ptrdiff_t(to), block.begin(), block.end());
            return;
        }
        case 5: {  // split at a comma
            std::vector<std::size_t> commas;
            for (std::size_t i : runs(items, 1))
                if (items[i].text.find(", ") != std::string::npos) commas.push_back(i);
            if (commas.empty()) return;
            std::size_t at = rng.pick(commas);
            Item first = items[at];
            std::size_t comma = first.text.find(", ");
            Item second = first;
            second.text = "\t\t" + first.text.substr(comma + 2);
            first.text = first.text.substr(0, comma + 1);
            mark(first, Fate::Split);
            second.pristine = false;
            items[at] = first;
            items.insert(items.begin() + std::ptrdiff_t(at + 1), second);
            return;
        }
        default: {  // merge two lines
            auto starts = runs(items, 2);
            if (starts.empty()) return;
            std::size_t at = rng.pick(starts);
            Item& a = items[at];
            const Item& b = items[at + 1];
            std::string rest =
                b.text.substr(std::min(b.text.find_first_not_of(" \t"), b.text.size()));
            a.text += " " + rest;
            a.origins.insert(a.origins.end(), b.origins.begin(), b.origins.end());
            mark(a, Fate::Merged);
            items.erase(items.begin() + std::ptrdiff_t(at + 1));
            return;
        }
    }
}

// The -U0 hunks of a plain LCS of the two files, and each base line's partner (0: removed).
// With `loose`, a few kept lines are left unmatched, as a diff that is not minimal leaves them
// (git's histogram and patience diffs do): only then does a hunk remove and add the same line.
void diff(Case& c, Rng& rng, bool loose) {
    auto d = cptest::lcs_diff(c.base, c.target, [&] { return loose && rng.chance(3); });
    c.hunks = std::move(d.hunks);
    c.kept = std::move(d.kept);
}

Case generate(std::uint64_t seed) {
    Rng rng(seed);
    Words words{rng};
    Case c;
    std::vector<Item> items;
    const int n = rng.in(10, 200);
    for (int i = 1; i <= n; ++i) {
        // A few lines repeat a line already in the file, as code does.
        std::string text = (!items.empty() && rng.chance(4)) ? rng.pick(items).text : words.line();
        items.push_back({text, {LineNo(i)}, true, false});
        c.base.push_back(text);
    }
    c.fate.assign(std::size_t(n), Fate::Kept);
    const int edits = rng.in(1, 6);
    for (int e = 0; e < edits; ++e) edit_once(rng, words, items, c.fate);
    c.truth.assign(std::size_t(n), {});
    for (std::size_t t = 0; t < items.size(); ++t) {
        c.target.push_back(items[t].text);
        c.unrelated.push_back(items[t].unrelated);
        for (LineNo o : items[t].origins) c.truth[std::size_t(o - 1)].push_back(LineNo(t + 1));
    }
    diff(c, rng, rng.chance(30));
    return c;
}

std::vector<std::string_view> views(const std::vector<std::string>& v) {
    return {v.begin(), v.end()};
}

std::string describe(const Case& c) {
    std::ostringstream out;
    out << "base:\n";
    for (std::size_t i = 0; i < c.base.size(); ++i)
        out << "  " << i + 1 << " |" << c.base[i] << "\n";
    out << "target:\n";
    for (std::size_t i = 0; i < c.target.size(); ++i)
        out << "  " << i + 1 << " |" << c.target[i] << "\n";
    out << "hunks:";
    for (const Hunk& h : c.hunks)
        out << " @@ -" << h.old_start << "," << h.old_count << " +" << h.new_start << ","
            << h.new_count << " @@";
    return out.str();
}

std::string describe(const LineAnswer& a) {
    std::ostringstream out;
    out << cp::tier_name(a.tier) << " " << a.line << ".." << a.end_line << " score " << a.score
        << " candidates";
    for (const auto& k : a.candidates) out << " " << k.line << "(" << k.score << ")";
    return out.str();
}

// A located answer's last line.
LineNo last(const LineAnswer& a) {
    return a.end_line ? a.end_line : a.line;
}

bool same(const LineAnswer& a, const LineAnswer& b) {
    if (a.line != b.line || a.end_line != b.end_line || a.score != b.score || a.tier != b.tier ||
        a.telling != b.telling || a.candidates.size() != b.candidates.size())
        return false;
    for (std::size_t k = 0; k < a.candidates.size(); ++k)
        if (a.candidates[k].line != b.candidates[k].line ||
            a.candidates[k].score != b.candidates[k].score ||
            a.candidates[k].end_line != b.candidates[k].end_line)
            return false;
    return true;
}

// To replay a failure, set kFirstSeed to the seed it prints and kCases to 1.
constexpr std::uint64_t kFirstSeed = 0x11AE'0000, kCases = 250;

struct Tally {
    long exact = 0, wrong = 0, ambiguous = 0, deleted = 0;
    long total() const { return exact + wrong + ambiguous + deleted; }
};

}  // namespace

TEST_CASE("line map: properties that hold for random edit scripts", "[line_map][random]") {
    std::map<Fate, Tally> tally;
    long failures = 0, removed_lines = 0, ranges = 0, rebuilt = 0, verbatim = 0, replaced = 0,
         kept_ranges = 0, gapped = 0, gapped_off = 0;
    const std::uint64_t cases = std::uint64_t(cptest::scaled(int(kCases)));
    for (std::uint64_t seed = kFirstSeed; seed < kFirstSeed + cases && failures < 5; ++seed) {
        const Case c = generate(seed);
        const cp::LineMap map(views(c.base), views(c.target), c.hunks);
        const LineNo n = LineNo(c.base.size()), m = LineNo(c.target.size());

        // Which hunk each removed base line and each added target line belongs to.
        std::vector<int> removed_in(std::size_t(n) + 1, -1), added_in(std::size_t(m) + 1, -1);
        for (std::size_t h = 0; h < c.hunks.size(); ++h) {
            const Hunk& k = c.hunks[h];
            for (LineNo l = k.old_start; l < k.old_start + k.old_count; ++l)
                removed_in[std::size_t(l)] = int(h);
            for (LineNo l = k.new_start; l < k.new_start + k.new_count; ++l)
                added_in[std::size_t(l)] = int(h);
        }
        auto in_new_side = [&](LineNo from, LineNo to) {
            return std::any_of(c.hunks.begin(), c.hunks.end(), [&](const Hunk& k) {
                return k.new_count > 0 && k.new_start <= from && to < k.new_start + k.new_count;
            });
        };

        std::vector<std::string> problems;
        // The hunks themselves: sorted, a kept line between any two, and they turn the base
        // into the target.
        std::vector<std::string> rebuilt_target;
        LineNo next = 1;  // the next base line not yet copied
        for (std::size_t h = 0; h < c.hunks.size(); ++h) {
            const Hunk& k = c.hunks[h];
            const LineNo upto = k.old_count ? k.old_start - 1 : k.old_start;  // kept lines
            if (upto < next - (h == 0 ? 1 : 0))
                problems.push_back("hunk " + std::to_string(h) + " out of order");
            for (; next <= upto && next <= n; ++next)
                rebuilt_target.push_back(c.base[std::size_t(next - 1)]);
            if (LineNo(rebuilt_target.size()) + 1 != (k.new_count ? k.new_start : k.new_start + 1))
                problems.push_back("hunk " + std::to_string(h) + " new_start");
            for (LineNo l = k.new_start; l < k.new_start + k.new_count; ++l)
                rebuilt_target.push_back(c.target[std::size_t(l - 1)]);
            next += k.old_count;
        }
        for (; next <= n; ++next) rebuilt_target.push_back(c.base[std::size_t(next - 1)]);
        if (rebuilt_target != c.target) problems.push_back("the hunks do not make the target");
        auto problem = [&](LineNo b, const LineAnswer& a, const std::string& what) {
            problems.push_back("base line " + std::to_string(b) + " (" + describe(a) +
                               "): " + what);
        };
        std::vector<LineAnswer> answers(std::size_t(n) + 1);
        if (seed % 4 == 0) {  // built again, the map answers the same
            const cp::LineMap again(views(c.base), views(c.target), c.hunks);
            ++rebuilt;
            for (LineNo b = 1; b <= n; ++b)
                if (!same(map.at(b), again.at(b)))
                    problem(b, map.at(b), "differs when the map is built again");
        }
        // Target line -> the removed base lines located on it.
        std::vector<std::vector<LineNo>> claims(std::size_t(m) + 1);
        for (LineNo b = 1; b <= n; ++b) {
            const LineAnswer a = map.at(b);
            answers[std::size_t(b)] = a;
            if (a.score < 0 || a.score > 1) problem(b, a, "score outside [0, 1]");
            for (const auto& k : a.candidates) {
                if (k.score < 0 || k.score > 1) problem(b, a, "candidate score outside [0, 1]");
                if (k.line < 1 || k.last() > m) problem(b, a, "candidate outside the target");
            }
            if (a.tier == LineTier::Ambiguous || a.tier == LineTier::Deleted) {
                if (a.line != 0) problem(b, a, "unlocated tier with a line");
                if (a.tier == LineTier::Ambiguous && a.candidates.empty())
                    problem(b, a, "Ambiguous without candidates");
                if (a.tier == LineTier::Deleted && !a.candidates.empty())
                    problem(b, a, "Deleted with candidates");
            } else if (!a.located()) {
                problem(b, a, "a located tier without a line");
            }
            if (a.located() && (a.line < 1 || last(a) > m || last(a) < a.line))
                problem(b, a, "located outside [1, target size]");

            const LineNo partner = c.kept[std::size_t(b - 1)];
            if (partner) {  // kept by the diff
                LineNo shift = 0;
                for (const Hunk& k : c.hunks)
                    if ((k.old_count ? k.old_start + k.old_count - 1 : k.old_start) < b)
                        shift += k.new_count - k.old_count;
                if (partner != b + shift) problem(b, a, "the test's diff is wrong");
                if (a.line != partner || a.end_line != partner || a.tier != LineTier::Exact ||
                    a.score != 1.0)
                    problem(b, a, "kept line not at " + std::to_string(partner));
                continue;
            }
            ++removed_lines;
            if (a.located()) {
                if (!in_new_side(a.line, last(a))) problem(b, a, "not inside a hunk's new side");
                // Never on a line less than kGapContent alike (under kContent only in the
                // chain's gaps), and a split or merge only when it scores kSure (a line in an
                // ordered chain or carried by its block may score less).
                if (a.content < cp::LineMapScores::kGapContent || a.content > 1)
                    problem(b, a, "located on a line under kGapContent alike");
                if ((a.tier == LineTier::Split || a.tier == LineTier::Merged) &&
                    a.score < cp::LineMapScores::kSure)
                    problem(b, a, "split or merged under kSure");
                for (LineNo t = a.line; t <= last(a) && t <= m; ++t)
                    if (t >= 1) claims[std::size_t(t)].push_back(b);
            }

            // A verbatim, unique counterpart in the same hunk: that line, or no pick at all.
            const std::string& text = c.base[std::size_t(b - 1)];
            const auto in_target = std::count(c.target.begin(), c.target.end(), text);
            const auto in_base = std::count(c.base.begin(), c.base.end(), text);
            if (in_target == 1 && in_base == 1 && non_space(text) >= 8) {
                const LineNo t =
                    LineNo(std::find(c.target.begin(), c.target.end(), text) - c.target.begin()) +
                    1;
                const bool applies = added_in[std::size_t(t)] >= 0 &&
                                     added_in[std::size_t(t)] == removed_in[std::size_t(b)];
                verbatim += applies;
                if (applies && !(a.tier == LineTier::Ambiguous ||
                                 (a.tier == LineTier::Exact && a.line == t && a.end_line == t)))
                    problem(b, a, "its unique verbatim counterpart is line " + std::to_string(t));
            }

            // Replaced by unrelated text with nothing like it added: never put on such text.
            if (c.fate[std::size_t(b - 1)] == Fate::Replaced) {
                double best = 0;
                for (LineNo t = 1; t <= m; ++t)
                    if (added_in[std::size_t(t)] >= 0)
                        best =
                            std::max(best, cp::line_similarity(text, c.target[std::size_t(t - 1)]));
                replaced += best < cp::LineMapScores::kGapContent;
                if (best < cp::LineMapScores::kGapContent && a.located())
                    for (LineNo t = a.line; t <= last(a); ++t)
                        if (c.unrelated[std::size_t(t - 1)])
                            problem(b, a, "located on unrelated text, line " + std::to_string(t));
            }

            // Accuracy, where the script knows the answer.
            const auto& truth = c.truth[std::size_t(b - 1)];
            const Fate f = c.fate[std::size_t(b - 1)];
            if (truth.empty() || f == Fate::Replaced || f == Fate::Deleted) continue;
            Tally& t = tally[f];
            if (a.tier == LineTier::Ambiguous) {
                ++t.ambiguous;
            } else if (!a.located()) {
                ++t.deleted;
            } else if (a.line == truth.front() && last(a) == truth.back()) {
                ++t.exact;
            } else {
                ++t.wrong;
            }
        }

        // One target line to one removed line, but for merges; a split's lines to it alone.
        for (LineNo t = 1; t <= m; ++t) {
            const auto& who = claims[std::size_t(t)];
            for (std::size_t x = 0; x < who.size(); ++x)
                for (std::size_t y = x + 1; y < who.size(); ++y) {
                    const LineAnswer &ax = answers[std::size_t(who[x])],
                                     &ay = answers[std::size_t(who[y])];
                    const std::string both = "target line " + std::to_string(t) +
                                             " shared with base line " + std::to_string(who[y]) +
                                             " (" + describe(ay) + ")";
                    if (ax.tier == LineTier::Split || ay.tier == LineTier::Split)
                        problem(who[x], ax, "a split's " + both);
                    else if (ax.tier != LineTier::Merged && ay.tier != LineTier::Merged)
                        problem(who[x], ax, both);
                }
        }

        // Ranges.
        Rng rng(seed ^ 0x5EED);
        for (int r = 0; r < 12; ++r) {
            const LineNo s = rng.in(1, int(n));
            const LineNo e = std::min<LineNo>(n, s + rng.in(0, 12));
            const cp::RangeAnswer got = cp::map_lines(map, {s, e});
            ++ranges;
            const std::string where =
                "range " + std::to_string(s) + ".." + std::to_string(e) + " (" +
                std::string(cp::tier_name(got.tier)) + " " + std::to_string(got.line) + ".." +
                std::to_string(got.end_line) + " score " + std::to_string(got.score) + "): ";
            if (LineNo(got.lines.size()) != e - s + 1) problems.push_back(where + "lines.size()");
            LineNo lo = 0, hi = 0;
            bool all_kept = true;
            for (LineNo b = s; b <= e; ++b) {
                const LineAnswer& a = answers[std::size_t(b)];
                all_kept = all_kept && c.kept[std::size_t(b - 1)] != 0;
                if (!a.located()) continue;
                lo = lo ? std::min(lo, a.line) : a.line;
                hi = std::max(hi, last(a));
            }
            if (got.line > 0 && (got.line < lo || got.end_line > hi || got.end_line < got.line))
                problems.push_back(where + "outside its lines' span " + std::to_string(lo) + ".." +
                                   std::to_string(hi));
            // All kept and still together at the target: exactly their span. (All kept with new
            // lines put between them is held only by the known-failing case further down:
            // map_lines drops or splits such lines as if they were guesses.)
            const LineNo from = all_kept ? c.kept[std::size_t(s - 1)] : 0,
                         to = all_kept ? c.kept[std::size_t(e - 1)] : 0;
            const bool exact_span = got.tier == LineTier::Exact && got.score == 1.0 &&
                                    got.line == from && got.end_line == to;
            kept_ranges += all_kept && to - from == e - s;
            gapped += all_kept && to - from != e - s;
            gapped_off += all_kept && to - from != e - s && !exact_span;
            if (all_kept && to - from == e - s && !exact_span)
                problems.push_back(where + "all kept, want exact " + std::to_string(from) + ".." +
                                   std::to_string(to));
        }

        if (problems.empty()) continue;
        ++failures;
        std::string all;
        for (const auto& p : problems) all += p + "\n";
        INFO("seed " << seed << "\n" << describe(c));
        INFO(all);
        CHECK(problems.empty());
    }

    std::ostringstream figures;
    static const char* const names[] = {"kept",  "deleted", "edited", "replaced",
                                        "moved", "split",   "merged"};
    Tally sum;
    for (const auto& [f, t] : tally) {
        figures << names[int(f)] << ": " << t.total() << " removed lines, " << t.exact << " exact, "
                << t.wrong << " wrong, " << t.ambiguous << " ambiguous, " << t.deleted
                << " deleted\n";
        sum.exact += t.exact, sum.wrong += t.wrong, sum.ambiguous += t.ambiguous,
            sum.deleted += t.deleted;
    }
    figures << "all: " << sum.total() << " of " << removed_lines << " removed lines, " << sum.exact
            << " exact, " << sum.wrong << " wrong, " << sum.ambiguous << " ambiguous, "
            << sum.deleted << " deleted\n"
            << ranges << " ranges: " << kept_ranges << " all kept and together, " << gapped
            << " all kept with new lines between, " << gapped_off
            << " of those not their exact span\n"
            << verbatim << " lines with a unique verbatim counterpart, " << replaced
            << " replaced by unrelated text, " << rebuilt << " maps built twice";
    INFO(figures.str());
    CHECK(failures == 0);
    const Tally& edited = tally[Fate::Edited];
    // Enough of each kind to say something (fewer where the cases are fewer, under
    // CONTEXT_PACK_TEST_SCALE).
    CHECK(edited.total() > cptest::scaled(100));
    CHECK(verbatim > cptest::scaled(100));
    CHECK(replaced > cptest::scaled(50));
    CHECK(kept_ranges > cptest::scaled(1000));
    CHECK(edited.wrong * 20 < edited.exact + edited.wrong);
}

// Found by the test above: a range whose every line the diff kept, with new lines put between
// them, spans them all, however many new lines there are (kept lines are not guesses to group).
TEST_CASE("line map: a range of kept lines with new lines between them spans them all",
          "[line_map]") {
    const std::string call = "\tint value_1 = compute(opts, 7);";
    SECTION("a kept brace past the new lines") {
        std::vector<std::string> base = {call, "}"};
        std::vector<std::string> target = {call, "\tint a = 1;", "\tint b = 2;", "}"};
        const std::vector<Hunk> hunks = {{1, 0, 2, 2}};
        const cp::LineMap map(views(base), views(target), hunks);
        const cp::RangeAnswer got = cp::map_lines(map, {1, 2});
        REQUIRE(map.at(2).line == 4);
        CHECK(got.tier == LineTier::Exact);
        CHECK(got.line == 1);
        CHECK(got.end_line == 4);
    }
    SECTION("two kept lines far apart") {
        std::vector<std::string> base = {call, "\treturn value_1 + 3;"};
        std::vector<std::string> target = {call};
        for (int i = 0; i < 5; ++i) target.push_back("\tint x" + std::to_string(i) + " = 1;");
        target.push_back(base[1]);
        const std::vector<Hunk> hunks = {{1, 0, 2, 5}};
        const cp::LineMap map(views(base), views(target), hunks);
        const cp::RangeAnswer got = cp::map_lines(map, {1, 2});
        REQUIRE(map.at(2).line == 7);
        CHECK(got.tier == LineTier::Exact);
        CHECK(got.line == 1);
        CHECK(got.end_line == 7);
    }
}
