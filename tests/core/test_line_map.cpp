// Line-level precision inside changed code: hand-worked cases of which target line each base
// line became, with the hunks written out as git would give them.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string_view>

#include "context_pack/core/line_map.hpp"
#include "support/catch.hpp"

namespace {

using cp::Hunk;
using cp::LineTier;

struct Case {
    std::vector<std::string> base, target;
    std::vector<Hunk> hunks;

    cp::LineMap map() const { return cp::LineMap(views(base), views(target), hunks); }
    static std::vector<std::string_view> views(const std::vector<std::string>& v) {
        return {v.begin(), v.end()};
    }
};

// Context that tells lines apart, as real code has.
std::vector<std::string> around(const std::string& tag, std::vector<std::string> middle) {
    std::vector<std::string> out = {"static int " + tag + "_setup(struct options *opts)", "{",
                                    "\tint " + tag + "_result = 0;"};
    out.insert(out.end(), middle.begin(), middle.end());
    for (const char* l : {"\treturn result;", "}", "", "/* the next function */"}) out.push_back(l);
    return out;
}

}  // namespace

TEST_CASE("line map: a line edited in place is Edited, kept lines map through the hunks") {
    Case c{around("a", {"\tif (opts->verbose)", "\t\tprintf(\"setting up %s\\n\", opts->name);"}),
           around("a", {"\tif (opts->verbose)",
                        "\t\tfprintf(stderr, \"setting up %s\\n\", opts->name);"}),
           {{5, 1, 5, 1}}};
    auto m = c.map();
    CHECK(m.at(5).tier == LineTier::Edited);
    CHECK(m.at(5).line == 5);
    CHECK(m.at(5).score >= cp::LineMapScores::kSure);
    CHECK(m.at(4).tier == LineTier::Exact);
    CHECK(m.at(4).line == 4);
    CHECK(m.at(4).score == 1.0);
}

TEST_CASE("line map: kept lines shift by what the hunks before them add and remove") {
    std::vector<std::string> base, target;
    for (int i = 1; i <= 20; ++i) base.push_back("line number " + std::to_string(i) + " of it");
    target = base;
    target.insert(target.begin() + 3, {"inserted one", "inserted two"});  // after line 3
    target.erase(target.begin() + 11);                                    // base line 10
    Case c{base, target, {{3, 0, 4, 2}, {10, 1, 11, 0}}};
    auto m = c.map();
    CHECK(m.at(3).line == 3);
    CHECK(m.at(4).line == 6);
    CHECK(m.at(9).line == 11);
    CHECK(m.at(10).tier == LineTier::Deleted);
    CHECK_FALSE(m.at(10).located());
    CHECK(m.at(11).line == 12);
    CHECK(m.at(20).line == 21);
}

TEST_CASE("line map: whitespace-only changes are Whitespace") {
    Case c{around("b", {"\tcount = count + 1;"}),
           around("b", {"        count = count+1;"}),
           {{4, 1, 4, 1}}};
    auto m = c.map();
    CHECK(m.at(4).tier == LineTier::Whitespace);
    CHECK(m.at(4).line == 4);
}

TEST_CASE("line map: a line split in two maps to both, first line first") {
    Case c{around("c", {"\tALLOC_GROW(tar_filters, nr_tar_filters + 1, alloc_tar_filters);"}),
           around("c",
                  {"\tALLOC_GROW(tar_filters,", "\t\t   nr_tar_filters + 1, alloc_tar_filters);"}),
           {{4, 1, 4, 2}}};
    auto m = c.map();
    CHECK(m.at(4).tier == LineTier::Split);
    CHECK(m.at(4).line == 4);
    CHECK(m.at(4).end_line == 5);
    CHECK(m.at(5).line == 6);  // the line after it, kept
}

TEST_CASE("line map: lines merged into one all map to it") {
    Case c{around("d", {"\tstruct strbuf buf =", "\t\tSTRBUF_INIT;", "\tsize_t len;"}),
           around("d", {"\tstruct strbuf buf = STRBUF_INIT;", "\tsize_t len;"}),
           {{4, 2, 4, 1}}};
    auto m = c.map();
    CHECK(m.at(4).line == 4);
    CHECK(m.at(5).line == 4);
    CHECK(m.at(5).tier == LineTier::Merged);
    CHECK(m.at(6).line == 5);
}

TEST_CASE("line map: a line replaced by unrelated text is Deleted, never guessed") {
    Case c{around("e", {"\tfree(opts->names);"}),
           around("e", {"\ttrace2_region_enter(\"setup\", \"load\", the_repository);"}),
           {{4, 1, 4, 1}}};
    auto m = c.map();
    CHECK(m.at(4).tier == LineTier::Deleted);
    CHECK_FALSE(m.at(4).located());
}

// Line 3 of first() leaves it: `gone` at base, `arrived` in second() at the target.
Case moved_between_functions(const std::string& gone, const std::string& arrived) {
    std::vector<std::string> rest = {"\treturn 0;", "}", "", "int second(void)", "{"};
    Case c;
    c.base = {"int first(void)", "{", gone};
    c.base.insert(c.base.end(), rest.begin(), rest.end());
    c.target = {"int first(void)", "{"};
    c.target.insert(c.target.end(), rest.begin(), rest.end());
    c.target.push_back(arrived);
    for (auto* side : {&c.base, &c.target}) side->insert(side->end(), {"\treturn 1;", "}"});
    c.hunks = {{3, 1, 2, 0}, {8, 0, 8, 1}};
    return c;
}

TEST_CASE("line map: a line moved verbatim to another hunk is Moved") {
    const std::string line = "\tload_config_from_environment(opts, argv);";
    auto m = moved_between_functions(line, line).map();
    CHECK(m.at(3).tier == LineTier::Moved);
    CHECK(m.at(3).line == 8);
}

TEST_CASE("line map: a moved line that was also edited is not taken for a move") {
    auto m = moved_between_functions("\tprepare_the_index(opts, argv);",
                                     "\tprepare_some_cache(ctx, argv);")
                 .map();
    CHECK_FALSE(m.at(3).located());
}

TEST_CASE("line map: two equally good places are Ambiguous, with both as candidates") {
    // The removed line reads the same as two added ones in the same context.
    Case c{{"a", "b", "c", "\tvalue = compute(x);", "d", "e", "f"},
           {"a", "b", "c", "\tvalue = compute(y);", "\tvalue = compute(z);", "d", "e", "f"},
           {{4, 1, 4, 2}}};
    auto m = c.map();
    auto a = m.at(4);
    CHECK(a.tier == LineTier::Ambiguous);
    CHECK_FALSE(a.located());
    REQUIRE(a.candidates.size() >= 2);
    CHECK(((a.candidates[0].line == 4 && a.candidates[1].line == 5) ||
           (a.candidates[0].line == 5 && a.candidates[1].line == 4)));
}

TEST_CASE("line map: a range's answer spans its located lines, with the tier that says most") {
    Case c{around("f", {"\tif (opts->verbose)", "\t\tprintf(\"setting up %s\\n\", opts->name);",
                        "\tfree(opts->names);"}),
           around("f",
                  {"\tif (opts->verbose)", "\t\tfprintf(stderr, \"setting up %s\\n\", opts->name);",
                   "\ttrace2_region_enter(\"setup\", \"load\", the_repository);"}),
           {{5, 2, 5, 2}}};
    auto m = c.map();
    auto whole = cp::map_lines(m, {4, 6});
    CHECK(whole.line == 4);
    CHECK(whole.end_line == 5);
    CHECK(whole.tier == LineTier::Edited);
    REQUIRE(whole.lines.size() == 3);
    CHECK(whole.lines[0].tier == LineTier::Exact);
    CHECK(whole.lines[2].tier == LineTier::Deleted);
    CHECK(whole.score > 0.6);
    CHECK(whole.score < 1.0);
    auto gone = cp::map_lines(m, {6, 6});
    CHECK(gone.tier == LineTier::Deleted);
    CHECK(gone.line == 0);
}

TEST_CASE("line map: the similarity of two lines") {
    CHECK(cp::line_similarity("return value;", "return value;") == 1.0);
    CHECK(cp::line_similarity("  return value;", "return  value;") == 1.0);
    CHECK(cp::line_similarity("return value;", "return values;") > 0.9);
    CHECK(cp::line_similarity("return value;", "totally different") < 0.3);
    CHECK(cp::line_similarity("", "") == 1.0);
    CHECK(cp::line_similarity("x", "") == 0.0);
    std::string long_line(1000, 'a'), other(1000, 'a');
    other[500] = 'b';
    CHECK(cp::line_similarity(long_line, other) > 0.9);
}

TEST_CASE("line map: a line that gained a comment is Edited, not deleted") {
    Case c{around("g", {"\tint width = 0;"}),
           around("g", {"\tint width = 4;  /* room for the header */"}),
           {{4, 1, 4, 1}}};
    auto m = c.map();
    CHECK(m.at(4).tier == LineTier::Edited);
    CHECK(m.at(4).line == 4);
}

TEST_CASE("line map: a line moved to two places at once is Ambiguous between them") {
    std::vector<std::string> base = {"int first(void)",
                                     "{",
                                     "\tload_config_from_environment(opts, argv);",
                                     "\treturn 0;",
                                     "}",
                                     "",
                                     "int second(void)",
                                     "{",
                                     "\treturn 1;",
                                     "}",
                                     "",
                                     "int third(void)",
                                     "{",
                                     "\treturn 2;",
                                     "}"};
    std::vector<std::string> target = {"int first(void)",
                                       "{",
                                       "\treturn 0;",
                                       "}",
                                       "",
                                       "int second(void)",
                                       "{",
                                       "\tload_config_from_environment(opts, argv);",
                                       "\treturn 1;",
                                       "}",
                                       "",
                                       "int third(void)",
                                       "{",
                                       "\tload_config_from_environment(opts, argv);",
                                       "\treturn 2;",
                                       "}"};
    Case c{base, target, {{3, 1, 2, 0}, {8, 0, 8, 1}, {13, 0, 14, 1}}};
    auto a = c.map().at(3);
    CHECK(a.tier == LineTier::Ambiguous);
    REQUIRE(a.candidates.size() == 2);
    CHECK(((a.candidates[0].line == 8 && a.candidates[1].line == 14) ||
           (a.candidates[0].line == 14 && a.candidates[1].line == 8)));
}

TEST_CASE("line map: a brace left in place does not hold a range whose code moved away") {
    // Lines 3-4 (a call and its closing brace) go; the call reappears far down, the brace is
    // matched by the diff where it was.
    std::vector<std::string> base = {"static void setup(void)", "{",
                                     "\tinitialise_the_subsystem(ctx, flags);", "}"};
    std::vector<std::string> target = {"static void setup(void)", "{", "}"};
    for (int i = 0; i < 30; ++i) {
        base.push_back("int filler_" + std::to_string(i) + " = " + std::to_string(i) + ";");
        target.push_back(base.back());
    }
    target.push_back("\tinitialise_the_subsystem(ctx, flags);");
    Case c{base, target, {{3, 1, 2, 0}, {34, 0, 34, 1}}};
    auto m = c.map();
    REQUIRE(m.at(3).tier == LineTier::Moved);
    auto whole = cp::map_lines(m, {3, 4});
    CHECK(whole.line == 34);
    CHECK(whole.end_line == 34);
    CHECK(whole.tier == LineTier::Moved);
    CHECK(whole.lines[1].line == 3);  // the brace's own answer stays in the line map
}

TEST_CASE("line map: a lone brace is not taken for one added in another function") {
    // `if (ready) {` and its body are folded into one line; the `}` that closed it is the only
    // one removed, and another function far below adds the only new `}`. Nothing beside either
    // brace went with it: the brace is deleted, not moved there.
    std::vector<std::string> base = {"static void first(void)",    "{",   "\tif (ready) {",
                                     "\t\tignite(engine_handle);", "\t}", "}"};
    std::vector<std::string> target = {"static void first(void)", "{",
                                       "\tif (ready) ignite(engine_handle);", "}"};
    for (int i = 0; i < 30; ++i) {
        base.push_back("int filler_" + std::to_string(i) + " = " + std::to_string(i) + ";");
        target.push_back(base.back());
    }
    for (const char* l : {"static void second(void)", "{", "\tfinish_the_work(ctx);", "}"})
        base.push_back(l);
    for (const char* l : {"static void second(void)", "{", "\tif (done) {",
                          "\t\tfinish_the_work(ctx);", "\t}", "}"})
        target.push_back(l);
    Case c{base, target, {{3, 3, 3, 1}, {39, 1, 37, 3}}};
    auto m = c.map();
    CHECK(m.at(3).line == 3);
    CHECK(m.at(39).line == 38);
    CHECK_FALSE(m.at(5).located());
}

TEST_CASE("line map: a brace the diff kept elsewhere goes with the line it opens") {
    // `xmalloc_wrapper` moved to the end; the diff paired its `{` with the new function's in
    // its old place. The range of its first two lines is found whole where it went.
    std::vector<std::string> base = {
        "static int helper(void)",          "{", "\treturn compute_it(1);",     "}", "",
        "int xmalloc_wrapper(size_t size)", "{", "\treturn allocate_it(size);", "}"};
    std::vector<std::string> target = {base[0], base[1],           base[2],
                                       base[3], base[4],           "int other_function(int x)",
                                       "{",     "\treturn x + 1;", "}"};
    for (int i = 0; i < 30; ++i) target.push_back("int filler_" + std::to_string(i) + ";");
    for (int i = 5; i < 9; ++i) target.push_back(base[std::size_t(i)]);
    Case c{base, target, {{6, 1, 6, 1}, {8, 1, 8, 1}, {9, 0, 10, 34}}};
    auto m = c.map();
    REQUIRE(m.at(6).line == 40);
    REQUIRE(m.at(7).line == 7);  // the diff's `{`
    auto whole = cp::map_lines(m, {6, 7});
    CHECK(whole.line == 40);
    CHECK(whole.end_line == 41);
    CHECK(whole.lines[1].line == 41);
    CHECK(whole.tier == LineTier::Exact);
}

TEST_CASE("line map: lines the diff kept on both sides of an insertion stay where it kept them") {
    // A function added between two: git puts it after the first one's `}` and blank line,
    // which is where they stay, though the added function ends with the same two lines.
    std::vector<std::string> base = {"\treturn error;", "}", "", "int mingw_open(const char *name)",
                                     "{"};
    std::vector<std::string> target = {base[0], base[1], base[2], "static int in_use(int code)",
                                       "{"};
    for (int i = 0; i < 30; ++i) target.push_back("\tcheck_" + std::to_string(i) + "();");
    for (int i = 1; i < 5; ++i) target.push_back(base[std::size_t(i)]);
    Case c{base, target, {{3, 0, 4, 34}}};
    auto m = c.map();
    auto whole = cp::map_lines(m, {2, 5});
    CHECK(whole.line == 2);
    CHECK(whole.end_line == 39);
    CHECK(whole.lines[0].line == 2);  // its `}`
    CHECK(whole.lines[2].line == 38);
}

TEST_CASE("line map: the similarity of lines agrees with a plain edit-distance table") {
    // Short lines take a bit-parallel path, long ones the table: both must give the same.
    auto reference = [](const std::string& a, const std::string& b) {
        std::vector<std::vector<std::size_t>> d(a.size() + 1,
                                                std::vector<std::size_t>(b.size() + 1));
        for (std::size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
        for (std::size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
        for (std::size_t i = 1; i <= a.size(); ++i)
            for (std::size_t j = 1; j <= b.size(); ++j)
                d[i][j] = std::min(
                    {d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] != b[j - 1])});
        if (a.empty() && b.empty()) return 1.0;
        if (a.empty() || b.empty()) return 0.0;
        return 1.0 - double(d[a.size()][b.size()]) / double(std::max(a.size(), b.size()));
    };
    std::uint32_t state = 12345;
    auto next = [&](std::uint32_t n) {
        state = state * 1664525u + 1013904223u;
        return (state >> 8) % n;
    };
    for (int round = 0; round < 3000; ++round) {
        std::string a, b;
        const char* alphabet = round % 2 ? "ab" : "abcdefghij(){};=";
        std::size_t letters = std::strlen(alphabet);
        std::size_t na = next(round % 3 == 0 ? 120 : 70), nb = next(round % 3 == 0 ? 120 : 70);
        for (std::size_t i = 0; i < na; ++i) a += alphabet[next(std::uint32_t(letters))];
        for (std::size_t i = 0; i < nb; ++i) b += alphabet[next(std::uint32_t(letters))];
        INFO(a << " / " << b);
        REQUIRE(cp::line_similarity(a, b) == Approx(reference(a, b)));
    }
}

TEST_CASE("line map: bigrams one line has and the other lacks bound their similarity") {
    // A merge's joins are not compared where this bound rules them out (line_compare.cpp,
    // best_run): an edit changes two bigrams at most, so a line with d bigrams the other has
    // none of is d / 2 edits from it at least. Lines of up to 300 bytes, as the bound is used.
    std::uint32_t state = 777;
    auto next = [&](std::uint32_t n) {
        state = state * 1664525u + 1013904223u;
        return (state >> 8) % n;
    };
    for (int round = 0; round < 3000; ++round) {
        const char* alphabet = round % 2 ? "abc" : "abcdefghij(){};=";
        const std::size_t letters = std::strlen(alphabet);
        std::string a, b;
        for (std::size_t i = 0, n = 1 + next(round % 3 == 0 ? 300 : 60); i < n; ++i)
            a += alphabet[next(std::uint32_t(letters))];
        b = a;  // b: a edited a few times, so that the bound is often near the similarity
        for (std::size_t k = 0, edits = next(12); k < edits && !b.empty(); ++k) {
            const std::size_t at = next(std::uint32_t(b.size()));
            if (k % 3 == 0)
                b.erase(at, 1);
            else if (k % 3 == 1)
                b[at] = alphabet[next(std::uint32_t(letters))];
            else
                b.insert(at, 1, alphabet[next(std::uint32_t(letters))]);
        }
        if (b.empty()) continue;
        std::size_t missing = 0;  // a's bigrams, each where it stands, that b has nowhere
        for (std::size_t i = 0; i + 1 < a.size(); ++i)
            missing += b.find(std::string_view(a).substr(i, 2)) == std::string::npos;
        const double longer = double(std::max(a.size(), b.size()));
        INFO(a << " / " << b);
        REQUIRE(cp::line_similarity(a, b) <= 1.0 - double(missing) / (2 * longer) + 1e-12);
    }
}
