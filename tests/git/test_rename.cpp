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
