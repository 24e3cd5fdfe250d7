// How alike two changed lines are, for the line map: their text (edit distance, whitespace
// aside, or their code with comments aside), their contexts (the tokens of the lines around
// them) and, for a split or a merge, a run of lines joined. The scores of LHDiff (Asaduzzaman
// et al., ICSM 2013); line_map.cpp picks candidates with them and line_match.cpp chooses.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "context_pack/core/mapping.hpp"

namespace cp::line_compare {

bool space(char c);
// A byte of a word: a letter, a digit, `_`, or a byte of a multi-byte character.
bool word(char c);
// A line's tokens: its runs of word bytes, and each other non-space byte.
std::vector<std::string_view> tokens(std::string_view line);
// A token that is a name: a word that does not start with a digit.
bool name(std::string_view token);
// A line's words: the tokens that are runs of word bytes.
std::vector<std::string_view> words(std::string_view line);
// Where the words of the list with fewer (`a` or `b`) stand in the other in their order, how
// many of them are names (not numbers): the one line wraps the other (`main()` ->
// `sys.exit(main(sys.argv))`); nullopt where they do not, or the lists are as long.
std::optional<std::size_t> wrapped_names(std::span<const std::string_view> a,
                                         std::span<const std::string_view> b);
// Whether `line` holds the words `from` (one or more) in their order, among any of its own.
// And whether the words of `line`, one or more, all stand in `to` in their order. Neither
// makes a list of the line's words; the first stops at the last of `from`, the second at the
// first word `to` lacks.
bool holds_in_order(std::span<const std::string_view> from, std::string_view line);
bool held_in_order(std::string_view line, std::span<const std::string_view> to);
// A line's words sorted, with the sum of the squares of their counts.
struct WordBag {
    std::vector<std::string_view> words;
    double norm2 = 0;
};
WordBag bag_of(std::span<const std::string_view> words);
constexpr std::size_t kRewordedShared = 3;  // words a line reworded must keep
constexpr double kRewordedWords = 0.65;     // how alike its words read, as bags
// How alike the words of two lines read as bags, in any order (cosine of their counts); 0
// where they share fewer than kRewordedShared words (`if (!argc)` and `argc--;` share one),
// or the one has fewer than half the other's (a piece of a line split: `final TimeZone
// timeZone) {` of `getDateInstance(final int style, final TimeZone timeZone) {`).
double words_alike(const WordBag& a, const WordBag& b);
// A line's words less those that only shape a string: the directives of a format string
// (`d` and `15s` of `"%d %-15s"`) and a string's prefix (`f` of `f"..."`), which a line
// reworded from the one form to the other loses or gains.
std::vector<std::string_view> spoken_words(std::string_view line);
// Whether line `b` rewords line `a`: their spoken words read kRewordedWords alike as bags
// (`print("%-15s %5d" % (word, n))` -> `print(f"{word:<15} {n:5d}")`).
bool reworded(std::string_view a, std::string_view b);
// The name a statement assigns, as written before its first `=` outside brackets and quotes
// (`total`, `self.items`; `hits` of `private final AtomicLong hits = new AtomicLong();`, `str`
// of `str [0] = ...`, `count` of `count += 1`, `x` of `x: int = 0`, `f` of `with open(p) as
// f:`); empty where it assigns
// none (`if (a == b)`, `for (int i = 0; ...)`, `f(x=1)`, `(a) => a`).
std::string_view assigned_name(std::string_view line);
// A line past its indentation (spaces and tabs).
std::string_view unindented(std::string_view line);
// Whether `line` opens with the word `word`, not with a longer word that starts so (`for`
// opens `for (...)` and `for x in y:`, not `format(x)`).
bool opens_with(std::string_view line, std::string_view word);
// The method or function a statement calls last, outside brackets and quotes: `add` of
// `scores.get(k).add(v);` and of `scores.computeIfAbsent(k, f).add(v);`, `close` of
// `f.close()`; empty for a line opening with a keyword (`if (...)`, `return f(x);`), for a
// name declared (`void add(int v) {`), and for a line calling nothing.
std::string_view called_last(std::string_view line);
// A line that says something of where it is: four non-space bytes or more (not a blank line,
// a lone brace, `fi`, `;;`).
bool telling(std::string_view line);
// A line with a word byte in it: not blank, not punctuation alone (`}`, `});`).
bool worded(std::string_view line);

// A text's key in the map's index of equal lines (FNV-1a of its bytes), fed a byte at a time.
struct Key {
    std::uint64_t h = 14695981039346656037ull;
    std::size_t bytes = 0;
    void operator()(char c) {
        h = (h ^ static_cast<unsigned char>(c)) * 1099511628211ull;
        ++bytes;
    }
};
std::uint64_t key_of(const std::string& text);
// The keys of a line: its text without whitespace, and its code (comments aside) as well.
struct Keys {
    Key flat, code;
};
Keys keys_of(std::string_view line);

// One minus the edit distance over the longer length; bigram overlap for very long lines
// (cp::line_similarity is the same of two lines as written).
double similarity(const std::string& a, const std::string& b);

// A bag of tokens (runs of word bytes, and each other non-space byte) with its norm.
struct Bag {
    std::vector<std::pair<std::uint32_t, std::uint32_t>> counts;  // (hash, count), sorted
    double norm = 0;
};
double cosine(const Bag& x, const Bag& y);

// How far line `n` stands within a side of `count` lines from `start`: 0 its first, 1 its
// last, 0.5 a side of one line.
double position_in(LineNo n, LineNo start, LineNo count);

// A changed line of one side, prepared for comparing.
struct Changed {
    LineNo line = 0;                        // 1-based
    std::size_t region = 0;                 // the region (hunks settled together) it belongs to
    double position = 0;                    // 0..1 within its region's side
    std::string_view text;                  // as written (the map's copy of the file)
    std::string flat;                       // without whitespace
    std::string code;                       // and without comments
    std::vector<std::uint16_t> grams;       // of flat, sorted
    std::vector<std::uint16_t> code_grams;  // of code, where it is not flat
    Bag context;  // the tokens of the four non-blank lines above and below
};
// Line `n` of `lines`, of region `region` whose side starts at `start` with `count` lines.
Changed prepare(const std::vector<std::string_view>& lines, LineNo n, std::size_t region,
                LineNo start, LineNo count);

// Their text's similarity, or their code's where it says more: comments aside, but a little
// less than equal text, since the text did change.
double content_similarity(const Changed& a, const Changed& b);
// The score of a pair: 0.6 its content's similarity and 0.4 its context's.
double combined(double content, double context);
// How far apart two changed lines are: their places within one region, or 2 across regions.
double distance(const Changed& l, const Changed& r);

// An added line as a removed line's candidate.
struct Scored {
    std::size_t to = 0;  // index into the added lines
    double content = 0;
    double context = 0;
    double score = 0;
};
// A removed line's best few counterparts among `pool` (indices into `added`), best first:
// picked by the bigrams they share (the nearer first among equals), then scored.
std::vector<Scored> best_of(const Changed& l, const std::vector<Changed>& added,
                            const std::vector<std::size_t>& pool);

// The run around `at` in `lines` (of one region, consecutive, free but for `at`, at most six
// lines) whose joined text is most like `text`: its ends and its similarity. With `gaps`,
// where no run reads kSureContent alike whole, up to kGaps lines inside a run may be left out
// of the join, where that makes it read so (lines merged around a line deleted between them:
// `if (i == index) {`, `offset = -1;`, `continue;` -> `if (i == index) continue;`, or a line
// split around lines put between its pieces); `left_out` has bit k set for line from + k.
struct Run {
    std::size_t from = 0, to = 0;
    double content = 0;
    std::uint32_t left_out = 0;
    bool joined() const { return to > from; }
    bool holds(std::size_t i) const {
        return i >= from && i <= to && !(left_out >> (i - from) & 1u);
    }
};
constexpr LineNo kSpan = 6;  // lines a split or a merge may take
constexpr int kGaps = 2;
// With `above`, only a join reading more than `above` alike is looked for (the line at `at`
// alone is not compared).
Run best_run(const std::string& text, const std::vector<Changed>& lines, std::size_t at,
             const std::vector<bool>& taken, bool gaps = false, double above = -1);

}  // namespace cp::line_compare
