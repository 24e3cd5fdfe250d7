// Rename detection alone (rename.hpp), through its pure seam: sources and targets handed in
// with an in-memory Files. A hand-worked table of git's rules (exact renames and which source
// an exact one takes, the 50% threshold and -M<n>%, the 75% pass over unique basenames, ties
// broken as git breaks them, one source for several targets, no copies, empty, binary and
// symlink files, the rename limit), each row also committed as a fixture and its pairs and
// percentages checked against `git diff -M --name-status`. Then the reading contract (content
// lazily, at most once, never for exact renames or pairs the sizes rule out) and the
// fingerprint helpers.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

#include "context_pack/git/rename.hpp"
#include "support/catch.hpp"
#include "support/fixture.hpp"
#include "support/git_diff.hpp"
#include "support/random_text.hpp"

namespace {

namespace rename = cp::rename;
using cptest::q;
using cptest::Repo;
using cptest::split_lines;

struct File {
    std::string path;
    std::string bytes;
    bool symlink = false;  // bytes: the link's target
};

// Files whose content comes from memory, counting every read of bytes.
class MemoryFiles : public rename::Files {
  public:
    MemoryFiles(const std::vector<File>& sources, const std::vector<File>& targets)
        : sides_{sources, targets} {}
    // The bytes stand for the blob id: a symlink and a file with the same bytes share one,
    // as they do in git.
    std::string content_id(rename::Side side, std::size_t i) override {
        return file(side, i).bytes;
    }
    std::uint64_t size(rename::Side side, std::size_t i) override {
        return file(side, i).bytes.size();
    }
    std::string_view bytes(rename::Side side, std::size_t i) override {
        ++reads[{side, i}];
        return file(side, i).bytes;
    }
    std::map<std::pair<rename::Side, std::size_t>, int> reads;

  private:
    const File& file(rename::Side side, std::size_t i) const {
        return sides_[side == rename::Side::Source ? 0 : 1].at(i);
    }
    std::vector<File> sides_[2];
};

std::vector<rename::Candidate> candidates(const std::vector<File>& files) {
    std::vector<rename::Candidate> out;
    for (const auto& f : files) out.push_back({f.path, !f.symlink});
    return out;
}

// (source, target, percent as git prints it: score * 100 / MAX_SCORE)
using Renames = std::set<std::tuple<std::string, std::string, int>>;

std::string show(const Renames& renames) {
    std::string out;
    for (const auto& [from, to, percent] : renames)
        out += "R" + std::to_string(percent) + " " + from + " -> " + to + "\n";
    return out.empty() ? "(no renames)\n" : out;
}

// `count` lines "PREFIX-NN\n" from `first`: each the same length, all distinct.
std::string lines(const std::string& prefix, int first, int count) {
    std::string out;
    char buf[16];
    for (int i = first; i < first + count; ++i) {
        std::snprintf(buf, sizeof buf, "-%02d\n", i);
        out += prefix + buf;
    }
    return out;
}

struct Row {
    const char* what;
    std::vector<File> sources, targets;  // each in path order
    Renames expected;                    // worked out by hand, and git's too
    int minimum_percent = 50;
    std::size_t limit = rename::kDefaultLimit;
};

Renames ours(const Row& row, MemoryFiles& files) {
    rename::Options options;
    options.minimum_score = row.minimum_percent * rename::kMaxScore / 100;
    options.limit = row.limit;
    auto sources = candidates(row.sources), targets = candidates(row.targets);
    Renames out;
    for (const auto& p : rename::find_renames(sources, targets, files, options)) {
        REQUIRE(p.source < sources.size());
        REQUIRE(p.target < targets.size());
        out.insert(
            {sources[p.source].path, targets[p.target].path, p.score * 100 / rename::kMaxScore});
    }
    return out;
}

void put(const Repo& repo, const File& f) {
    if (!f.symlink) return repo.write(f.path, f.bytes);
    auto made = cptest::sh("cd " + q(repo.dir()) + " && ln -s " + q(f.bytes) + " " + q(f.path));
    REQUIRE(made.status == 0);
}

// The row committed: the sources at base, the targets instead at the target commit; the
// renames `git diff -M` names between the two.
Renames gits(const Row& row) {
    Repo repo;
    repo.write("unrelated.txt", "stays\n");
    for (const auto& f : row.sources) put(repo, f);
    auto base = repo.commit("base");
    for (const auto& f : row.sources) repo.remove(f.path);
    for (const auto& f : row.targets) put(repo, f);
    auto target = repo.commit("target");
    auto listed = repo.git("diff --name-status -M" + std::to_string(row.minimum_percent) + "% -l" +
                           std::to_string(row.limit) + " " + base + " " + target);
    Renames out;
    for (const auto& line : split_lines(listed)) {
        if (line.empty() || line[0] != 'R') continue;
        auto tab1 = line.find('\t'), tab2 = line.rfind('\t');
        REQUIRE(tab1 != tab2);
        out.insert({line.substr(tab1 + 1, tab2 - tab1 - 1), line.substr(tab2 + 1),
                    std::stoi(line.substr(1, tab1 - 1))});
    }
    return out;
}

}  // namespace

TEST_CASE("rename detection: hand-worked cases, each as git diff -M pairs them", "[git]") {
    const std::string ten = lines("aaaa", 1, 10);         // 80 bytes: a line is 10% of it
    auto keep = [](int same, const std::string& other) {  // `same` of ten's lines, then others
        return lines("aaaa", 1, same) + lines(other, same + 1, 10 - same);
    };
    std::string crlf = "x\n", lf = "x\n";
    for (int i = 1; i <= 20; ++i) {
        crlf += "line-" + std::to_string(10 + i) + "\r\n";
        lf += "line-" + std::to_string(10 + i) + "\n";
    }
    const std::string nul = std::string("\0\n", 2);
    const std::vector<Row> rows = {
        {"an exact rename", {{"a.txt", ten}}, {{"b.txt", ten}}, {{"a.txt", "b.txt", 100}}},
        {"exact, identical sources: the one with the target's basename",
         {{"one/x.txt", ten}, {"two/y.txt", ten}},
         {{"three/y.txt", ten}},
         {{"two/y.txt", "three/y.txt", 100}}},
        {"exact, identical sources, no basename in common: the first in path order",
         {{"a.txt", ten}, {"b.txt", ten}},
         {{"c.txt", ten}},
         {{"a.txt", "c.txt", 100}}},
        {"one source, two identical targets: one rename, the other added (no copies)",
         {{"a.txt", ten}},
         {{"b.txt", ten}, {"c.txt", ten}},
         {{"a.txt", "b.txt", 100}}},
        {"exactly 50% pairs",
         {{"a.txt", ten}},
         {{"b.txt", keep(5, "bbbb")}},
         {{"a.txt", "b.txt", 50}}},
        {"just under 50% (one byte more in the target) does not",
         {{"a.txt", ten}},
         {{"b.txt", keep(5, "bbbb") + "z"}},
         {}},
        {"40% does not", {{"a.txt", ten}}, {{"b.txt", keep(4, "bbbb")}}, {}},
        {"-M60%: a 50% pair is not taken", {{"a.txt", ten}}, {{"b.txt", keep(5, "bbbb")}}, {}, 60},
        {"-M60%: a 60% pair is",
         {{"a.txt", ten}},
         {{"b.txt", keep(6, "bbbb")}},
         {{"a.txt", "b.txt", 60}},
         60},
        {"one source, two similar targets: the more similar one",
         {{"a.txt", ten}},
         {{"b.txt", keep(6, "bbbb")}, {"c.txt", keep(8, "cccc")}},
         {{"a.txt", "c.txt", 80}}},
        {"one source, two targets as similar: the first target in path order",
         {{"a.txt", ten}},
         {{"b.txt", keep(6, "bbbb")}, {"c.txt", keep(6, "cccc")}},
         {{"a.txt", "b.txt", 60}}},
        {"two sources as similar: the one with the target's basename",
         {{"a/y.txt", keep(6, "yyyy")}, {"b/x.txt", keep(6, "xxxx")}},
         {{"c/x.txt", ten}},
         {{"b/x.txt", "c/x.txt", 60}}},
        {"two sources as similar, no basename in common: the first in path order",
         {{"a/p.txt", keep(6, "pppp")}, {"b/q.txt", keep(6, "qqqq")}},
         {{"c/r.txt", ten}},
         {{"a/p.txt", "c/r.txt", 60}}},
        {"a unique basename at 75% or more pairs before a better match elsewhere",
         {{"old/util.c", keep(8, "uuuu")}, {"other.c", keep(9, "oooo")}},
         {{"new/util.c", ten}},
         {{"old/util.c", "new/util.c", 80}}},
        {"a unique basename under 75%: the best match wins",
         {{"old/util.c", keep(7, "uuuu")}, {"other.c", keep(9, "oooo")}},
         {{"new/util.c", ten}},
         {{"other.c", "new/util.c", 90}}},
        {"a basename two sources share does not pair early",
         {{"a/util.c", keep(8, "uuuu")},
          {"b/util.c", keep(7, "vvvv")},
          {"other.c", keep(9, "oooo")}},
         {{"new/util.c", ten}},
         {{"other.c", "new/util.c", 90}}},
        {"two renames at once, each to its best",
         {{"a.txt", ten}, {"b.txt", lines("bbbb", 1, 10)}},
         {{"c.txt", lines("bbbb", 1, 9) + "cccc-99\n"}, {"d.txt", keep(7, "dddd")}},
         {{"a.txt", "d.txt", 70}, {"b.txt", "c.txt", 90}}},
        {"empty files: an exact rename",
         {{"e.txt", ""}},
         {{"f.txt", ""}},
         {{"e.txt", "f.txt", 100}}},
        {"an empty file and a non-empty one never pair", {{"e.txt", ""}}, {{"f.txt", "x\n"}}, {}},
        {"text: CRLF to LF scores on the LF bytes (the CR of CRLF not hashed)",
         {{"a.txt", crlf}},
         {{"b.txt", lf}},
         {{"a.txt", "b.txt", 89}}},
        {"binary: the same change keeps its CRs and pairs nothing",
         {{"a.bin", nul + crlf}},
         {{"b.bin", nul + lf}},
         {}},
        {"binary: a small edit pairs by similarity",
         {{"a.bin", nul + ten}},
         {{"b.bin", nul + keep(8, "bbbb")}},
         {{"a.bin", "b.bin", 80}}},
        {"a symlink renamed unchanged",
         {{"l1", "a.txt", true}},
         {{"l2", "a.txt", true}},
         {{"l1", "l2", 100}}},
        {"a symlink and a file with the same bytes are no rename",
         {{"link", "a.txt", true}},
         {{"file", "a.txt"}},
         {}},
        {"symlinks pair only exactly",
         {{"l1", "some/where/far/away", true}},
         {{"l2", "some/where/far/awax", true}},
         {}},
        {"over the rename limit: exact renames only",
         {{"a.txt", ten}, {"b.txt", lines("bbbb", 1, 10)}, {"c.txt", lines("cccc", 1, 10)}},
         {{"x.txt", ten}, {"y.txt", lines("bbbb", 1, 8) + "yyyy-99\nyyyy-98\n"}},
         {{"a.txt", "x.txt", 100}},
         50,
         1},
        {"within the rename limit: the inexact pair too",
         {{"a.txt", ten}, {"b.txt", lines("bbbb", 1, 10)}},
         {{"x.txt", ten}, {"y.txt", lines("bbbb", 1, 8) + "yyyy-99\nyyyy-98\n"}},
         {{"a.txt", "x.txt", 100}, {"b.txt", "y.txt", 80}},
         50,
         1},
    };
    for (const Row& row : rows) {
        INFO(row.what);
        auto by_path = [](const File& a, const File& b) { return a.path < b.path; };
        REQUIRE(std::is_sorted(row.sources.begin(), row.sources.end(), by_path));
        REQUIRE(std::is_sorted(row.targets.begin(), row.targets.end(), by_path));
        MemoryFiles files(row.sources, row.targets);
        auto got = ours(row, files);
        CHECK(show(got) == show(row.expected));
        CHECK(show(gits(row)) == show(row.expected));
        for (const auto& [file, count] : files.reads) CHECK(count == 1);  // at most once
    }
}

TEST_CASE("rename detection reads content lazily: never for exact renames or sizes far apart",
          "[git]") {
    const std::string ten = lines("aaaa", 1, 10);
    {
        INFO("exact renames only: ids, no bytes");
        std::vector<File> sources = {{"a.txt", ten}, {"b.txt", lines("bbbb", 1, 10)}};
        std::vector<File> targets = {{"c.txt", lines("bbbb", 1, 10)}, {"d.txt", ten}};
        MemoryFiles files(sources, targets);
        auto pairs = rename::find_renames(candidates(sources), candidates(targets), files);
        CHECK(pairs.size() == 2);
        CHECK(files.reads.empty());
    }
    {
        INFO("a target ten times the source's size cannot reach 50%: neither side read");
        std::vector<File> sources = {{"a.txt", ten}};
        std::vector<File> targets = {{"b.txt", ten + lines("bbbb", 1, 90)}};
        MemoryFiles files(sources, targets);
        CHECK(rename::find_renames(candidates(sources), candidates(targets), files).empty());
        CHECK(files.reads.empty());
    }
    {
        INFO("one source against three targets: read once, each target once");
        std::vector<File> sources = {{"a.txt", ten}};
        std::vector<File> targets = {{"b.txt", lines("aaaa", 1, 6) + lines("bbbb", 7, 4)},
                                     {"c.txt", lines("aaaa", 1, 7) + lines("cccc", 8, 3)},
                                     {"d.txt", lines("dddd", 1, 10)}};
        MemoryFiles files(sources, targets);
        auto pairs = rename::find_renames(candidates(sources), candidates(targets), files);
        REQUIRE(pairs.size() == 1);
        CHECK(pairs[0].target == 1);
        CHECK(pairs[0].score == 70 * rename::kMaxScore / 100);
        CHECK(files.reads.size() == 4);
        for (const auto& [file, count] : files.reads) CHECK(count == 1);
    }
    {
        INFO("nothing to pair: no sources, or no targets");
        std::vector<File> some = {{"a.txt", ten}}, none;
        MemoryFiles files(some, none);
        CHECK(rename::find_renames(candidates(some), {}, files).empty());
        MemoryFiles other(none, some);
        CHECK(rename::find_renames({}, candidates(some), other).empty());
    }
}

TEST_CASE("rename fingerprints: git's spanhash chunks, similarity and basename", "[git]") {
    auto total = [](const auto& print) {
        std::uint64_t sum = 0;
        for (const auto& [hash, count] : print) sum += count;
        return sum;
    };
    // A chunk ends at a newline or after 64 bytes; a last chunk with neither is dropped.
    CHECK(rename::span_hashes("abc", true).empty());
    CHECK(total(rename::span_hashes("abc\n", true)) == 4);
    CHECK(total(rename::span_hashes("abc\ndef", true)) == 4);
    CHECK(total(rename::span_hashes(std::string(130, 'x'), true)) == 128);
    // Equal lines share one hash and add their bytes.
    auto twice = rename::span_hashes("same\nsame\n", true);
    REQUIRE(twice.size() == 1);
    CHECK(twice[0].second == 10);
    // Sorted by hash.
    auto many = rename::span_hashes(lines("zzzz", 1, 30), true);
    CHECK(many.size() == 30);
    CHECK(std::is_sorted(many.begin(), many.end()));
    // Text drops the CR of a CRLF pair (and does not count it); binary keeps it.
    CHECK(rename::span_hashes("a\r\nb\r\n", true) == rename::span_hashes("a\nb\n", true));
    CHECK(rename::span_hashes("a\r\nb\r\n", false) != rename::span_hashes("a\nb\n", false));
    CHECK(total(rename::span_hashes("a\rb\n", true)) == 4);  // a lone CR stays

    const std::string ten = lines("aaaa", 1, 10);
    CHECK(rename::similarity(ten, ten, rename::kDefaultScore) == rename::kMaxScore);
    CHECK(rename::similarity(ten, lines("aaaa", 1, 5) + lines("bbbb", 6, 5),
                             rename::kDefaultScore) == rename::kMaxScore / 2);
    // Sizes too far apart for the minimum: 0 before any hashing.
    CHECK(rename::similarity(ten, ten + ten + "x", rename::kDefaultScore) == 0);
    CHECK(rename::similarity(ten, ten + ten, rename::kDefaultScore) == rename::kMaxScore / 2);
    CHECK(rename::similarity("", "", rename::kDefaultScore) == 0);

    CHECK(rename::basename("a/b/c.txt") == "c.txt");
    CHECK(rename::basename("c.txt") == "c.txt");
    CHECK(rename::basename("dir/") == "");
}

TEST_CASE("rename detection over the limit says so, with the limit git advises", "[git]") {
    // Three sources and two targets left after one exact rename: 3 x 2 over 1 x 1 and 2 x 2,
    // not over 3 x 3. git advises the larger count.
    std::vector<File> sources = {{"a.txt", lines("aaaa", 1, 10)},
                                 {"b.txt", lines("bbbb", 1, 10)},
                                 {"c.txt", lines("cccc", 1, 10)},
                                 {"e.txt", lines("eeee", 1, 10)}};
    std::vector<File> targets = {{"m.txt", lines("aaaa", 1, 9) + lines("mmmm", 10, 1)},
                                 {"n.txt", lines("bbbb", 1, 9) + lines("nnnn", 10, 1)},
                                 {"z.txt", lines("eeee", 1, 10)}};
    Repo repo;
    for (const auto& f : sources) put(repo, f);
    auto base = repo.commit("base");
    for (const auto& f : sources) repo.remove(f.path);
    for (const auto& f : targets) put(repo, f);
    auto target = repo.commit("target");
    for (std::size_t limit : {1, 2, 3, 0}) {
        INFO("limit " << limit);
        MemoryFiles files(sources, targets);
        rename::Options options;
        options.limit = limit;
        auto found =
            rename::detect_renames(candidates(sources), candidates(targets), files, options);
        auto git = repo.git_status("diff --name-status -M -l" + std::to_string(limit) + " " + base +
                                   " " + target + " 2>&1");
        INFO(git.out);
        bool git_skipped = git.out.find("at least 3 and retry") != std::string::npos;
        CHECK(found.skipped.has_value() == git_skipped);
        CHECK(found.pairs.size() == (git_skipped ? 1u : 3u));  // the exact rename either way
        if (!found.skipped) continue;
        CHECK(found.skipped->sources == 3);
        CHECK(found.skipped->targets == 2);
        CHECK(found.skipped->limit == limit);
        CHECK(found.skipped->needed == 3);
    }
}

// ---- detection restricted to some sources ----------------------------------------------------

// The pairs of listed sources, as (source, target, score).
using Scored = std::set<std::tuple<std::size_t, std::size_t, int>>;

Scored scored(const std::vector<rename::Pair>& pairs, const std::vector<bool>& listed) {
    Scored out;
    for (const auto& p : pairs)
        if (listed.at(p.source)) out.insert({p.source, p.target, p.score});
    return out;
}

TEST_CASE("restricted rename detection: a listed source whose rival has a better target elsewhere",
          "[git]") {
    // x is unlisted. On t1, the only target r reaches 50% on, x scores 80% and would take it;
    // but x scores 90% on t2, outside t1's column, and takes t2 first in the full detection,
    // leaving t1 to r. The restricted play cannot see that and must score the whole matrix.
    const std::string x = lines("A", 0, 20);
    const std::string r = lines("A", 0, 6) + lines("B", 0, 14);
    const std::string t1 = lines("A", 0, 16) + lines("B", 0, 4);
    std::vector<File> sources = {{"r1", r}, {"x1", x}};
    for (const bool x_has_a_better_target : {true, false}) {
        INFO("x scores " << (x_has_a_better_target ? "90%" : "0%") << " on t2");
        const std::string t2 =
            x_has_a_better_target ? lines("A", 2, 18) + lines("D", 0, 2) : lines("D", 0, 20);
        std::vector<File> targets = {{"t1", t1}, {"t2", t2}};
        MemoryFiles full_files(sources, targets), files(sources, targets);
        auto full = rename::detect_renames(candidates(sources), candidates(targets), full_files);
        rename::Options only_r;
        only_r.only_sources = std::vector<std::size_t>{0};
        auto restricted =
            rename::detect_renames(candidates(sources), candidates(targets), files, only_r);
        std::vector<bool> listed = {true, false};
        CHECK(scored(restricted.pairs, listed) == scored(full.pairs, listed));
        CHECK(restricted.pairs.size() == (x_has_a_better_target ? 1u : 0u));
        if (x_has_a_better_target) {
            REQUIRE(restricted.pairs.size() == 1);
            CHECK(restricted.pairs[0].target == 0);
            CHECK(restricted.pairs[0].score == rename::kMaxScore / 2);
        }
        CHECK(restricted.scored_all == x_has_a_better_target);
    }
}

TEST_CASE(
    "restricted rename detection gives the full detection's pairs of its sources, "
    "over random file sets",
    "[git]") {
    // Files of 2 to 12 lines drawn from a small vocabulary, so that many pairs score near the
    // thresholds; targets mostly edited copies of sources; basenames often shared, so that the
    // basename pass both pairs and stays out; symlinks, empty files and tight limits now and
    // then. Each case runs the full detection and the restricted one for a random subset.
    std::uint64_t state = 0x9e3779b97f4a7c15ull;
    auto next = [&](std::uint64_t n) {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        return state % n;
    };
    auto text = [&](std::size_t n) {
        std::string out;
        for (std::size_t i = 0; i < n; ++i) out += "line " + std::to_string(next(16)) + "\n";
        return out;
    };
    auto edited = [&](const std::string& from) {
        auto kept = split_lines(from);
        std::string out;
        for (const auto& line : kept)
            if (next(5)) out += line + "\n";
        for (std::size_t extra = next(3); extra; --extra)
            out += "new " + std::to_string(next(9)) + "\n";
        return out;
    };
    const char* dirs[] = {"", "d/", "e/f/"};
    const char* names[] = {"a.c", "b.c", "c.h", "m", "n.txt"};
    auto paths = [&](std::size_t n, const char* side) {
        std::set<std::string> out;
        while (out.size() < n)
            out.insert(std::string(dirs[next(3)]) + (next(3) ? "" : side) + names[next(5)] +
                       (next(4) ? "" : std::to_string(next(3))));
        return std::vector<std::string>(out.begin(), out.end());
    };
    std::size_t settled = 0, cases = 0, compared = 0;
    for (int round = 0; round < cptest::scaled(3000); ++round) {
        std::size_t n = 1 + next(9), m = 1 + next(9);
        std::vector<File> sources, targets;
        for (const auto& p : paths(n, "s")) {
            File f{p, next(12) ? text(2 + next(11)) : ""};
            f.symlink = next(20) == 0;
            sources.push_back(f);
        }
        for (const auto& p : paths(m, "t")) {
            const File& from = sources[next(sources.size())];
            File f{p, next(4) ? edited(from.bytes) : next(3) ? from.bytes : text(2 + next(11))};
            f.symlink = next(20) == 0;
            targets.push_back(f);
        }
        rename::Options options;
        const int percents[] = {50, 50, 30, 80, 100};
        options.minimum_score = percents[next(5)] * rename::kMaxScore / 100;
        const std::size_t limits[] = {1000, 1000, 0, 1, 2, 3, 5};
        options.limit = limits[next(7)];
        std::vector<bool> listed(sources.size());
        std::vector<std::size_t> only;
        for (std::size_t s = 0; s < sources.size(); ++s)
            if (next(3) == 0) {
                listed[s] = true;
                only.push_back(s);
            }
        INFO("round " << round);
        MemoryFiles full_files(sources, targets), files(sources, targets);
        auto full =
            rename::detect_renames(candidates(sources), candidates(targets), full_files, options);
        options.only_sources = only;
        auto restricted =
            rename::detect_renames(candidates(sources), candidates(targets), files, options);
        CHECK(scored(restricted.pairs, listed) == scored(full.pairs, listed));
        CHECK(restricted.pairs.size() == scored(restricted.pairs, listed).size());
        CHECK(restricted.skipped.has_value() == full.skipped.has_value());
        if (restricted.skipped && full.skipped) {
            CHECK(restricted.skipped->sources == full.skipped->sources);
            CHECK(restricted.skipped->targets == full.skipped->targets);
        }
        // Never more content read than the full detection reads.
        CHECK(files.reads.size() <= full_files.reads.size());
        ++cases;
        compared += scored(full.pairs, listed).size();
        if (!restricted.scored_all) ++settled;
    }
    INFO(settled << " of " << cases << " settled without the full matrix; " << compared
                 << " pairs compared");
    CHECK(compared > std::size_t(cptest::scaled(1000)));
    CHECK(settled * 10 > cases * 9);
}
