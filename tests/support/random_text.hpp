// Random text files and line-level edit scripts for the differential git tests: files in a
// few styles (code with braces, prose, runs of one line, unique lines), LF, CRLF or mixed
// endings, with or without a final newline, and edits of every kind (insert, delete, replace,
// move, duplicate, endings flipped, emptied, rewritten), all from a seeded generator.
#pragma once

#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace cptest {

enum class Style { Vocab, Code, Prose, Unique, Runs };
enum class Eol { Lf, Crlf, Mixed };

struct TextFile {
    Style style = Style::Unique;
    Eol eol = Eol::Lf;
    std::vector<std::string> lines;  // without '\n'; a CRLF line keeps its '\r'
    bool final_newline = true;

    // With `text=auto`, a last line ending in CR and no final newline leaves a lone CR; in an
    // index blob libgit2 1.5 and git treat it differently (the "known divergence" case in
    // tests/git/test_attributes.cpp), so `no_lone_cr` drops that CR from what gets staged or
    // committed there.
    std::string text(bool no_lone_cr = false) const;
};

class Gen {
  public:
    explicit Gen(std::uint64_t seed) : rng_(seed) {}

    int uniform(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng_); }
    bool chance(double p) { return std::bernoulli_distribution(p)(rng_); }
    template <class T>
    const T& pick(const std::vector<T>& v) {
        return v[static_cast<std::size_t>(uniform(0, static_cast<int>(v.size()) - 1))];
    }

    // `line` with the file's line ending ('\r' added for CRLF).
    std::string eol(const TextFile& f, std::string line);
    // One line in the file's style.
    std::string line(const TextFile& f);
    std::vector<std::string> lines(const TextFile& f, int n);
    // A block of C-like code with braces and blank lines: the shape where Myers has choices
    // and the indent heuristic picks among them.
    std::vector<std::string> block(const TextFile& f);
    // At least `n` new lines: code blocks for a code file, else single lines.
    std::vector<std::string> fresh(const TextFile& f, int n);
    // A new file of a random style, ending and size (sometimes empty, sometimes long).
    TextFile file();
    // A position in [0, n], biased towards the top and the bottom.
    int position(int n);
    // One random edit, or several.
    void edit_once(TextFile& f);
    void edit(TextFile& f);

  private:
    std::mt19937_64 rng_;
};

// CP_TEST_GIT_SEED from the environment, else `fallback`: a failing seed can be run again.
std::uint64_t seed_from_env(std::uint64_t fallback);

// How many cases a randomised test runs: `full`, or that many times CONTEXT_PACK_TEST_SCALE (a
// fraction; scripts/test.sh --sanitize sets it, where every case costs several times as
// much), at least one.
int scaled(int full);

}  // namespace cptest
