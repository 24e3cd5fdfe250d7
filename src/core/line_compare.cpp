#include "line_compare.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <string>

#include "context_pack/core/line_map.hpp"
#include "context_pack/core/text.hpp"

namespace cp::line_compare {

bool space(char c) {
    return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v' || c == '\n';
}

bool word(char c) {
    return text::is_word_byte(static_cast<unsigned char>(c));
}

std::vector<std::string_view> tokens(std::string_view line) {
    std::vector<std::string_view> out;
    for (std::size_t i = 0; i < line.size();) {
        if (space(line[i])) {
            ++i;
            continue;
        }
        std::size_t from = i++;
        if (word(line[from]))
            while (i < line.size() && word(line[i])) ++i;
        out.push_back(line.substr(from, i - from));
    }
    return out;
}

bool name(std::string_view token) {
    return word(token[0]) && !(token[0] >= '0' && token[0] <= '9');
}

std::optional<std::size_t> wrapped_names(std::span<const std::string_view> a,
                                         std::span<const std::string_view> b) {
    if (a.empty() || b.empty() || a.size() == b.size()) return std::nullopt;
    if (a.size() > b.size()) std::swap(a, b);
    // The first place each word can stand keeps the most room for the rest.
    auto at = b.begin();
    for (std::string_view w : a) {
        at = std::find(at, b.end(), w);
        if (at == b.end()) return std::nullopt;
        ++at;
    }
    return std::size_t(std::count_if(a.begin(), a.end(), name));
}

namespace {
// Calls fn(word) for each word of `line` in order, until fn returns false.
template <class Fn>
void each_word(std::string_view line, Fn fn) {
    for (std::size_t i = 0; i < line.size();) {
        if (!word(line[i])) {
            ++i;
            continue;
        }
        const std::size_t from = i;
        while (i < line.size() && word(line[i])) ++i;
        if (!fn(line.substr(from, i - from))) return;
    }
}
}  // namespace

bool holds_in_order(std::span<const std::string_view> from, std::string_view line) {
    if (from.empty()) return false;
    std::size_t matched = 0;
    each_word(line, [&](std::string_view w) {
        if (w == from[matched]) ++matched;
        return matched < from.size();
    });
    return matched == from.size();
}

bool held_in_order(std::string_view line, std::span<const std::string_view> to) {
    std::size_t at = 0, count = 0;
    bool held = true;
    each_word(line, [&](std::string_view w) {
        while (at < to.size() && to[at] != w) ++at;
        if (at == to.size()) return held = false;
        ++at, ++count;
        return true;
    });
    return held && count > 0;
}

std::vector<std::string_view> words(std::string_view line) {
    std::vector<std::string_view> out;
    for (std::string_view t : tokens(line))
        if (word(t[0])) out.push_back(t);
    return out;
}

namespace {

const std::size_t kTop = 8;         // candidates a removed line keeps for the finer score
const std::size_t kContext = 4;     // non-blank lines above and below that make a line's context
const std::size_t kAligned = 300;   // lines longer than this are compared by bigrams
const double kContentWeight = 0.6;  // LHDiff's weights: content 0.6, context 0.4
const double kCodeWeight = 0.95;    // what equal code with other comments counts as

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

void add_tokens(std::string_view line, std::vector<std::uint32_t>& out) {
    for (std::string_view token : tokens(line)) {
        std::uint32_t h = 2166136261u;  // FNV-1a
        for (char c : token) h = (h ^ static_cast<unsigned char>(c)) * 16777619u;
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

// The tokens of the kContext non-blank lines above line `i` (0-based) and below it.
Bag context_of(const std::vector<std::string_view>& lines, std::size_t i) {
    std::vector<std::uint32_t> tokens;
    std::size_t taken = 0;
    for (std::size_t k = i; k > 0 && taken < kContext; --k)
        if (!text::is_blank(lines[k - 1])) add_tokens(lines[k - 1], tokens), ++taken;
    taken = 0;
    for (std::size_t k = i + 1; k < lines.size() && taken < kContext; ++k)
        if (!text::is_blank(lines[k])) add_tokens(lines[k], tokens), ++taken;
    return make_bag(std::move(tokens));
}

// The text of the lines `run` holds, joined.
std::string joined(const std::vector<Changed>& lines, const Run& run) {
    std::string out;
    for (std::size_t i = run.from; i <= run.to; ++i)
        if (run.holds(i)) out += lines[i].flat;
    return out;
}

bool all_telling(const std::vector<Changed>& lines, const Run& run) {
    for (std::size_t i = run.from; i <= run.to; ++i)
        if (run.holds(i) && !telling(lines[i].text)) return false;
    return true;
}

}  // namespace

std::uint64_t key_of(const std::string& text) {
    Key k;
    for (char c : text) k(c);
    return k.h;
}

namespace {
// One minus the edit distance over the longer length; bigram overlap past kAligned bytes, of
// the bigrams grams_a() and grams_b() give (made for the call, or made once with a line).
template <class GramsA, class GramsB>
double similarity_by(const std::string& a, const std::string& b, GramsA grams_a, GramsB grams_b) {
    if (a == b) return 1.0;
    if (a.empty() || b.empty()) return 0.0;
    if (a.size() > kAligned || b.size() > kAligned) return dice(grams_a(), grams_b());
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
}  // namespace

double similarity(const std::string& a, const std::string& b) {
    return similarity_by(
        a, b, [&] { return bigrams(a); }, [&] { return bigrams(b); });
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

WordBag bag_of(std::span<const std::string_view> words) {
    WordBag out{{words.begin(), words.end()}, 0};
    std::sort(out.words.begin(), out.words.end());
    for (std::size_t i = 0; i < out.words.size();) {
        std::size_t j = i;
        while (j < out.words.size() && out.words[j] == out.words[i]) ++j;
        out.norm2 += double(j - i) * double(j - i);
        i = j;
    }
    return out;
}

double words_alike(const WordBag& a, const WordBag& b) {
    if (a.words.empty() || b.words.empty()) return 0;
    if (2 * std::min(a.words.size(), b.words.size()) < std::max(a.words.size(), b.words.size()))
        return 0;
    std::size_t shared = 0;
    const auto& x = a.words;
    const auto& y = b.words;
    double dot = 0;
    for (std::size_t i = 0, j = 0; i < x.size() && j < y.size();) {
        if (x[i] < y[j]) {
            ++i;
        } else if (y[j] < x[i]) {
            ++j;
        } else {
            std::size_t ci = 0, cj = 0;
            const std::string_view w = x[i];
            while (i < x.size() && x[i] == w) ++i, ++ci;
            while (j < y.size() && y[j] == w) ++j, ++cj;
            dot += double(ci) * double(cj);
            shared += std::min(ci, cj);
        }
    }
    return shared < kRewordedShared ? 0 : dot / std::sqrt(a.norm2 * b.norm2);
}

std::vector<std::string_view> spoken_words(std::string_view line) {
    std::vector<std::string_view> out;
    each_word(line, [&](std::string_view w) {
        const std::size_t from = std::size_t(w.data() - line.data()), end = from + w.size();
        // After `%` and its flags: a width, then a letter or two (`d`, `5d`, `ld`, `1f`).
        std::size_t before = from;
        while (before > 0 &&
               std::string_view("-+ #.").find(line[before - 1]) != std::string_view::npos)
            --before;
        const std::size_t digits = std::size_t(
            std::find_if(w.begin(), w.end(), [](char c) { return c < '0' || c > '9'; }) -
            w.begin());
        const bool directive =
            before > 0 && line[before - 1] == '%' && w.size() > digits && w.size() - digits <= 2;
        // A string's prefix: a letter or two just before its quote (`f"`, `rb'`).
        const bool prefix =
            w.size() <= 2 && end < line.size() && (line[end] == '"' || line[end] == '\'') &&
            std::all_of(w.begin(), w.end(), [](char c) {
                return std::string_view("frbuFRBU").find(c) != std::string_view::npos;
            });
        if (!directive && !prefix) out.push_back(w);
        return true;
    });
    return out;
}

bool reworded(std::string_view a, std::string_view b) {
    return words_alike(bag_of(spoken_words(a)), bag_of(spoken_words(b))) >= kRewordedWords;
}

namespace {

// Calls `f(k, depth)` for each byte `k` of `line` outside quotes (a quote's escapes inside it
// passed over), with the depth of the brackets around it (a bracket's own is the depth outside
// it), until `f` returns false.
template <class F>
void each_unquoted(std::string_view line, F&& f) {
    int depth = 0;
    char quote = 0;
    for (std::size_t k = 0; k < line.size(); ++k) {
        const char c = line[k];
        if (quote) {
            if (c == '\\')
                ++k;
            else if (c == quote)
                quote = 0;
            continue;
        }
        if (c == '"' || c == '\'' || c == '`') {
            quote = c;
            continue;
        }
        if (c == ')' || c == ']' || c == '}') --depth;
        if (!f(k, depth)) return;
        if (c == '(' || c == '[' || c == '{') ++depth;
    }
}

}  // namespace

std::string_view unindented(std::string_view line) {
    return line.substr(std::min(line.size(), line.find_first_not_of(" \t")));
}

bool opens_with(std::string_view line, std::string_view word) {
    return line.starts_with(word) &&
           (line.size() == word.size() ||
            !text::is_word_byte(static_cast<unsigned char>(line[word.size()])));
}

std::string_view assigned_name(std::string_view line) {
    // A Python `with open(p) as f:` sets `f`, as `f = open(p)` did.
    if (std::string_view t = unindented(line);
        t.starts_with("with ") || t.starts_with("async with ")) {
        while (!t.empty() && space(t.back())) t.remove_suffix(1);
        if (t.ends_with(':')) {
            t.remove_suffix(1);
            std::size_t e = t.size();
            while (e > 0 && space(t[e - 1])) --e;
            std::size_t b = e;
            while (b > 0 && word(t[b - 1])) --b;
            if (b < e && b >= 4 && t.substr(b - 4, 4) == " as ") return t.substr(b, e - b);
        }
    }
    std::size_t at = std::string_view::npos;
    bool compared = false;  // `==` or `=>` came first
    each_unquoted(line, [&](std::size_t k, int depth) {
        if (line[k] != '=' || depth != 0) return true;
        compared = k + 1 < line.size() && (line[k + 1] == '=' || line[k + 1] == '>');
        at = k;
        return false;
    });
    if (at == std::string_view::npos || compared) return {};
    std::size_t end = at;
    auto skip_spaces = [&] {
        while (end > 0 && space(line[end - 1])) --end;
    };
    // A comparison (`!=`, `<=`, `>=`) assigns nothing; a compound assignment (`+=`, `|=`,
    // `<<=`) assigns the name before its operator.
    if (end > 0 && (line[end - 1] == '!' || line[end - 1] == '<' || line[end - 1] == '>')) {
        if (end < 3 || line[end - 2] != line[end - 1]) return {};
        end -= 2;
    } else if (end > 0 &&
               std::string_view("+-*/%&|^:~").find(line[end - 1]) != std::string_view::npos) {
        --end;
    }
    skip_spaces();
    // Past the indexes of the name assigned (`str [0]`, `grid[r][c]`).
    while (end > 0 && line[end - 1] == ']') {
        int open = 0;
        do {
            --end;
            if (line[end] == ']') ++open;
            if (line[end] == '[') --open;
        } while (end > 0 && open > 0);
        skip_spaces();
    }
    auto name_end = end;
    auto name_start = [&](std::size_t e) {
        while (e > 0 && (word(line[e - 1]) || line[e - 1] == '.')) --e;
        return e;
    };
    std::size_t start = name_start(name_end);
    if (start == name_end) return {};
    // A Python annotation (`x: int = 0`, `rows: list[int] = []`) names the type last.
    std::size_t before = start;
    while (before > 0 && space(line[before - 1])) --before;
    if (before > 0 && line[before - 1] == ':') {
        std::size_t e = before - 1;
        while (e > 0 && space(line[e - 1])) --e;
        const std::size_t s = name_start(e);
        if (s < e) start = s, name_end = e;
    }
    return line.substr(start, name_end - start);
}

std::string_view called_last(std::string_view line) {
    line = unindented(line);
    std::size_t first = 0;
    while (first < line.size() && word(line[first])) ++first;
    if (first == 0 || (line[0] >= '0' && line[0] <= '9')) return {};
    static constexpr std::string_view kKeywords[] = {
        "assert",  "await",        "case",  "catch",   "class",    "def",    "default", "del",
        "delete",  "do",           "elif",  "else",    "elsif",    "except", "fn",      "for",
        "foreach", "from",         "fun",   "func",    "function", "goto",   "if",      "import",
        "lambda",  "lock",         "new",   "package", "pass",     "raise",  "return",  "sub",
        "switch",  "synchronized", "throw", "try",     "unless",   "until",  "using",   "when",
        "while",   "with",         "yield"};
    if (std::find(std::begin(kKeywords), std::end(kKeywords), line.substr(0, first)) !=
        std::end(kKeywords))
        return {};
    std::size_t name_at = 0, name_end = 0;  // the last word read at depth 0
    std::string_view out;
    each_unquoted(line, [&](std::size_t k, int depth) {
        if (depth != 0) return true;
        if (line[k] == '(' && name_end > name_at) {
            std::size_t gap = name_end;
            while (gap < k && space(line[gap])) ++gap;
            // A name after another word is declared there (`void add(int v) {`), not called.
            std::size_t before = name_at;
            while (before > 0 && space(line[before - 1])) --before;
            if (gap == k && (before == 0 || !word(line[before - 1])))
                out = line.substr(name_at, name_end - name_at);
        } else if (word(line[k]) && (k == 0 || !word(line[k - 1]))) {
            name_at = name_end = k;
            while (name_end < line.size() && word(line[name_end])) ++name_end;
        }
        return true;
    });
    return out;
}

// A line that says something of where it is: four non-space bytes or more (not a blank line,
// a lone brace, `fi`, `;;`).
bool telling(std::string_view line) {
    return std::count_if(line.begin(), line.end(), [](char c) { return !space(c); }) >= 4;
}

bool worded(std::string_view line) {
    return std::any_of(line.begin(), line.end(), word);
}

// Line `n` of `lines`, of region `k` whose side starts at `start` with `count` lines.
double position_in(LineNo n, LineNo start, LineNo count) {
    return count > 1 ? double(n - start) / double(count - 1) : 0.5;
}

Changed prepare(const std::vector<std::string_view>& lines, LineNo n, std::size_t k, LineNo start,
                LineNo count) {
    Changed c;
    c.line = n;
    c.region = k;
    c.position = position_in(n, start, count);
    c.text = lines[std::size_t(n - 1)];
    c.flat = without_space(c.text);
    c.code = code_of(c.text);
    c.grams = bigrams(c.flat);
    if (c.code != c.flat) c.code_grams = bigrams(c.code);
    c.context = context_of(lines, std::size_t(n - 1));
    return c;
}

// Their text's similarity, or their code's where it says more: comments aside, but a little
// less than equal text, since the text did change.
double content_similarity(const Changed& a, const Changed& b) {
    // Long lines are compared by the bigrams prepared with them, not made again each time.
    auto alike = [](const std::string& x, const std::vector<std::uint16_t>& x_grams,
                    const std::string& y, const std::vector<std::uint16_t>& y_grams) {
        return similarity_by(
            x,
            y, [&]() -> const auto& { return x_grams; }, [&]() -> const auto& { return y_grams; });
    };
    const double text = alike(a.flat, a.grams, b.flat, b.grams);
    if (text == 1.0 || a.code.empty() || b.code.empty()) return text;
    const auto& a_code = a.code == a.flat ? a.grams : a.code_grams;
    const auto& b_code = b.code == b.flat ? b.grams : b.code_grams;
    return std::max(text, kCodeWeight * alike(a.code, a_code, b.code, b_code));
}

double combined(double content, double context) {
    return kContentWeight * content + (1 - kContentWeight) * context;
}

// How far apart two changed lines are: their places within one region, or 2 across regions.
double distance(const Changed& l, const Changed& r) {
    return l.region == r.region ? std::abs(l.position - r.position) : 2.0;
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

Run best_run(const std::string& text, const std::vector<Changed>& lines, std::size_t at,
             const std::vector<bool>& taken, bool gaps, double above) {
    Run best{at, at, above >= 0 ? above : similarity(text, lines[at].flat)};
    auto usable = [&](std::size_t i) {  // of its region, next to it, and free
        return i == at || (lines[i].region == lines[at].region &&
                           lines[i].line - lines[at].line == LineNo(i) - LineNo(at) && !taken[i]);
    };
    // What bounds a join's similarity by edit distance, so that one that cannot reach `floor`
    // is not compared: its length against the text's, and its bigrams the text has none of
    // (an edit changes two bigrams at most, so d of them are d / 2 edits at least).
    const std::size_t lo = at >= std::size_t(kSpan) ? at - std::size_t(kSpan) : 0;
    const auto grams = bigrams(text);
    std::vector<std::size_t> foreign;  // by line from `lo`
    for (std::size_t i = lo; i < lines.size() && i <= at + std::size_t(kSpan); ++i)
        foreign.push_back(std::size_t(std::count_if(
            lines[i].grams.begin(), lines[i].grams.end(),
            [&](std::uint16_t g) { return !std::binary_search(grams.begin(), grams.end(), g); })));
    auto compare = [&](Run run, double floor) {
        std::size_t size = 0, missing = 0;
        for (std::size_t i = run.from; i <= run.to; ++i)
            if (run.holds(i)) size += lines[i].flat.size(), missing += foreign[i - lo];
        if (size <= kAligned && text.size() <= kAligned) {
            const double longer = double(std::max(size, text.size()));
            const double bound = std::min(double(std::min(size, text.size())) / longer,
                                          1.0 - double(missing) / (2 * longer));
            if (bound <= floor) return;
        }
        run.content = similarity(text, joined(lines, run));
        if (run.content > floor && run.content > best.content) best = run;
    };
    // Each run around `at`.
    auto each_run = [&](auto&& visit) {
        for (std::size_t from = at;; --from) {
            if (!usable(from)) break;
            for (std::size_t to = at; to < lines.size() && LineNo(to - from) < kSpan; ++to) {
                if (!usable(to)) break;
                if (from != to) visit(from, to);
            }
            if (from == 0 || LineNo(at - from) + 1 >= kSpan) break;
        }
    };
    each_run([&](std::size_t from, std::size_t to) { compare({from, to}, best.content); });
    // A line alone reading kSureContent alike, or a whole run, needs no lines left out (with
    // `above`, the line alone was not compared).
    if (!gaps || (best.content >= LineMapScores::kSureContent && (above < 0 || best.joined())))
        return best;
    // No run reads kSureContent alike whole: the runs with kGaps of their lines inside left
    // out at most (never `at`) that read so, where the lines joined each say something
    // (`Modem`, `Switch`, `Hub` -> `ModeHub` is no merge of the first and the last).
    const double sure = LineMapScores::kSureContent - 1e-9;  // reads kSureContent: taken
    each_run([&](std::size_t from, std::size_t to) {
        // Its lengths bound every choice of lines left out: from the whole run's down to that
        // less the kGaps longest lines inside it (never `at`).
        std::size_t whole = 0, longest[kGaps] = {};
        for (std::size_t i = from; i <= to; ++i) {
            whole += lines[i].flat.size();
            if (i == from || i == to || i == at) continue;
            std::size_t size = lines[i].flat.size();
            for (std::size_t& l : longest)
                if (size > l) std::swap(size, l);
        }
        std::size_t least = whole;
        for (std::size_t l : longest) least -= l;
        if (whole <= kAligned && text.size() <= kAligned) {
            const double t = double(text.size());
            const double bound = double(whole) < t   ? double(whole) / t
                                 : double(least) > t ? t / double(least)
                                                     : 1.0;
            if (bound <= std::max(best.content, sure)) return;
        }
        for (std::uint32_t out = 1; out < 1u << (to - from - 1); ++out) {
            const Run run{from, to, 0, out << 1};
            if (std::popcount(run.left_out) <= kGaps && run.holds(at) && all_telling(lines, run))
                compare(run, std::max(best.content, sure));
        }
    });
    return best;
}

Keys keys_of(std::string_view line) {
    Keys k;
    for (char c : line)
        if (!space(c)) k.flat(c);
    code_bytes(line, k.code);
    return k;
}

}  // namespace cp::line_compare

namespace cp {

double line_similarity(std::string_view a, std::string_view b) {
    return line_compare::similarity(line_compare::without_space(a), line_compare::without_space(b));
}

}  // namespace cp
