// core/line_log: ranges carried back through one diff, case by case as git's line-log.c
// carries them (the git-CLI differential test is tests/git/test_line_history.cpp).
#include "context_pack/core/line_log.hpp"
#include "support/catch.hpp"

using cp::Hunk;
using namespace cp::line_log;

namespace {

Carried through(std::vector<Hunk> hunks, RangeSet at) {
    return carry_back(at, diff_ranges(hunks));
}

}  // namespace

TEST_CASE("line_log: hunks as 0-based half-open ranges", "[line_log]") {
    auto d = diff_ranges(std::vector<Hunk>{{3, 0, 4, 2}, {7, 2, 10, 0}, {9, 1, 10, 1}});
    CHECK(d.parent == RangeSet{{3, 3}, {6, 8}, {8, 9}});
    CHECK(d.target == RangeSet{{3, 5}, {10, 10}, {9, 10}});
    CHECK(range_of(2, 4) == RangeSet{{1, 4}});
    CHECK(range_of(5, 4).empty());
}

TEST_CASE("line_log: a hunk outside the range shifts it, one inside is the commit's",
          "[line_log]") {
    // Lines 5-8 (0-based [4, 8)); two lines inserted after line 1.
    auto above = through({{1, 0, 2, 2}}, range_of(5, 8));
    CHECK_FALSE(above.touched);
    CHECK(above.parent == RangeSet{{2, 6}});
    // A change below: nothing moves.
    auto below = through({{12, 1, 12, 1}}, range_of(5, 8));
    CHECK_FALSE(below.touched);
    CHECK(below.parent == RangeSet{{4, 8}});
    // Line 6 replaced by two lines: the range at the parent is one line shorter.
    auto inside = through({{6, 1, 6, 2}}, range_of(5, 9));
    CHECK(inside.touched);
    CHECK(inside.parent == RangeSet{{4, 8}});
    // Lines added right after the range, or deleted right after it, do not touch it.
    CHECK_FALSE(through({{8, 0, 9, 2}}, range_of(5, 8)).touched);
    CHECK_FALSE(through({{9, 2, 8, 0}}, range_of(5, 8)).touched);
    // A deletion strictly inside it does.
    auto deleted = through({{6, 2, 5, 0}}, range_of(5, 8));
    CHECK(deleted.touched);
    CHECK(deleted.parent == RangeSet{{4, 10}});
}

TEST_CASE("line_log: an added file leaves nothing to follow", "[line_log]") {
    auto added = through({{0, 0, 1, 10}}, range_of(2, 5));
    CHECK(added.touched);
    CHECK(added.parent.empty());
}

TEST_CASE("line_log: union and normal form", "[line_log]") {
    CHECK(unite({{0, 2}, {5, 6}}, {{2, 3}, {6, 6}, {8, 9}}) == RangeSet{{0, 3}, {5, 6}, {8, 9}});
    CHECK(normalized({{5, 6}, {0, 2}, {3, 3}, {1, 4}}) == RangeSet{{0, 4}, {5, 6}});
}
