// Hand-worked cases of the boundary rule (SPEC §3), one per row.
#include "context_pack/core/mapping.hpp"
#include "support/catch.hpp"

using cp::Hunk;
using cp::LineRange;
using cp::LineStatus;
using cp::map_range;
using cp::Mapping;

namespace {

struct Case {
    const char* what;
    std::vector<Hunk> hunks;
    LineRange range;
    Mapping expected;
};

Mapping same(cp::LineNo s, cp::LineNo e) {
    return {LineStatus::Same, {s, e}, false};
}
Mapping moved(cp::LineNo s, cp::LineNo e) {
    return {LineStatus::Moved, {s, e}, false};
}
Mapping touched(cp::LineNo s, cp::LineNo e) {
    return {LineStatus::Touched, {s, e}, false};
}
Mapping deleted(cp::LineNo after) {
    return {LineStatus::Touched, {after + 1, after}, true};
}

}  // namespace

TEST_CASE("boundary rule: a 10-line file L1..L10 with anchor 4-6") {
    const LineRange r{4, 6};
    const std::vector<Case> cases = {
        {"no hunks", {}, r, same(4, 6)},
        {"two lines inserted between L3 and L4", {{3, 0, 4, 2}}, r, moved(6, 8)},
        {"two lines inserted between L6 and L7", {{6, 0, 7, 2}}, r, same(4, 6)},
        {"one line inserted between L4 and L5", {{4, 0, 5, 1}}, r, touched(4, 7)},
        {"one line inserted between L5 and L6", {{5, 0, 6, 1}}, r, touched(4, 7)},
        {"L5 edited", {{5, 1, 5, 1}}, r, touched(4, 6)},
        {"L4..L6 deleted", {{4, 3, 3, 0}}, r, deleted(3)},
        {"L4 deleted", {{4, 1, 3, 0}}, r, touched(4, 5)},
        {"L6 deleted", {{6, 1, 5, 0}}, r, touched(4, 5)},
        {"L3 and L4 replaced", {{3, 2, 3, 2}}, r, touched(3, 6)},
        {"L5 replaced by three lines", {{5, 1, 5, 3}}, r, touched(4, 8)},
        {"L1 edited and a line inserted after it", {{1, 1, 1, 2}}, r, moved(5, 7)},
        {"L3 deleted", {{3, 1, 2, 0}}, r, moved(3, 5)},
        {"L7 deleted", {{7, 1, 6, 0}}, r, same(4, 6)},
        {"L1..L3 deleted", {{1, 3, 0, 0}}, r, moved(1, 3)},
        {"L1..L10 deleted", {{1, 10, 0, 0}}, r, deleted(0)},
        {"L4..L6 replaced by two lines", {{4, 3, 4, 2}}, r, touched(4, 5)},
        {"L2..L8 replaced by one line", {{2, 7, 2, 1}}, r, touched(2, 2)},
        {"L4 and L6 deleted, L5 kept", {{4, 1, 3, 0}, {6, 1, 4, 0}}, r, touched(4, 4)},
        {"L3 deleted and L7 edited", {{3, 1, 2, 0}, {7, 1, 6, 1}}, r, moved(3, 5)},
        {"insert at the top, L5 edited", {{0, 0, 1, 1}, {5, 1, 6, 1}}, r, touched(5, 7)},
        {"L6 edited, lines appended at the end", {{6, 1, 6, 1}, {10, 0, 11, 3}}, r, touched(4, 6)},
    };
    for (const auto& c : cases) {
        INFO(c.what);
        CHECK(map_range(c.hunks, c.range) == c.expected);
    }
}

TEST_CASE("boundary rule: seed B5, two lines inserted after 99 and line 185 edited") {
    const std::vector<Hunk> hunks = {{99, 0, 100, 2}, {185, 1, 187, 1}};
    CHECK(map_range(hunks, {50, 60}) == same(50, 60));
    CHECK(map_range(hunks, {180, 190}) == touched(182, 192));
    CHECK(map_range(hunks, {300, 310}) == moved(302, 312));
}

TEST_CASE("boundary rule: one-line ranges") {
    CHECK(map_range(std::vector<Hunk>{{5, 0, 6, 3}}, {5, 5}) == same(5, 5));   // after it
    CHECK(map_range(std::vector<Hunk>{{4, 0, 5, 3}}, {5, 5}) == moved(8, 8));  // before it
    CHECK(map_range(std::vector<Hunk>{{5, 1, 5, 1}}, {5, 5}) == touched(5, 5));
    CHECK(map_range(std::vector<Hunk>{{5, 1, 4, 0}}, {5, 5}) == deleted(4));
    CHECK(map_range(std::vector<Hunk>{{5, 1, 5, 4}}, {5, 5}) == touched(5, 8));
}

TEST_CASE("overlap: removal of a line in range, or insertion strictly inside") {
    const LineRange r{4, 6};
    CHECK(cp::overlaps({4, 1, 4, 1}, r));
    CHECK(cp::overlaps({6, 2, 6, 0}, r));
    CHECK(cp::overlaps({1, 4, 1, 0}, r));
    CHECK_FALSE(cp::overlaps({1, 3, 1, 0}, r));
    CHECK_FALSE(cp::overlaps({7, 1, 7, 1}, r));
    CHECK_FALSE(cp::overlaps({3, 0, 4, 1}, r));  // insertion just before the start
    CHECK(cp::overlaps({4, 0, 5, 1}, r));
    CHECK(cp::overlaps({5, 0, 6, 1}, r));
    CHECK_FALSE(cp::overlaps({6, 0, 7, 1}, r));  // insertion just after the end
}

TEST_CASE("all_removed: every line of the range removed, whatever replaced it") {
    const LineRange r{4, 6};
    CHECK(cp::all_removed(std::vector<Hunk>{{4, 3, 3, 0}}, r));
    CHECK(cp::all_removed(std::vector<Hunk>{{2, 6, 2, 1}}, r));
    CHECK(cp::all_removed(std::vector<Hunk>{{3, 2, 3, 1}, {5, 2, 4, 3}}, r));  // adjacent hunks
    CHECK_FALSE(cp::all_removed(std::vector<Hunk>{{4, 1, 3, 0}, {6, 1, 4, 0}}, r));  // L5 lives
    CHECK_FALSE(cp::all_removed(std::vector<Hunk>{{4, 2, 4, 5}}, r));
    CHECK_FALSE(cp::all_removed(std::vector<Hunk>{{5, 0, 6, 3}}, r));  // an insertion only
    CHECK_FALSE(cp::all_removed(std::vector<Hunk>{}, r));
}

TEST_CASE("parted margins: lines put between an anchor's blank margins and its code") {
    // Anchor 10-20: line 10 blank, its code 11-19, line 20 blank.
    const LineRange r{10, 20};
    using V = std::vector<Hunk>;
    auto code = [&](V hunks, cp::LineNo lead, cp::LineNo trail) -> std::optional<Mapping> {
        return cp::parted_margins(hunks, r, lead, trail);
    };
    auto moved = [](cp::LineNo a, cp::LineNo b) {
        return std::optional<Mapping>(Mapping{LineStatus::Moved, {a, b}, false});
    };
    auto same = std::optional<Mapping>(Mapping{LineStatus::Same, {11, 19}, false});
    // Five lines put after its leading blank line: its code is at 16-24.
    CHECK(code(V{{10, 0, 11, 5}}, 1, 1) == moved(16, 24));
    // Three after its code, before the trailing blank line: the code stays at 11-19.
    CHECK(code(V{{19, 0, 20, 3}}, 1, 1) == same);
    // Both, and a hunk before the anchor shifting everything by two.
    CHECK(code(V{{2, 1, 2, 3}, {10, 0, 13, 4}, {19, 0, 27, 1}}, 1, 1) == moved(17, 25));
    // Two leading blank lines, lines put between them: still beside the code.
    CHECK(code(V{{10, 0, 11, 2}}, 2, 1) == moved(14, 21));
    // Its trailing blank line taken away with the code after it; its leading one replaced.
    CHECK(code(V{{20, 12, 19, 0}}, 1, 1) == same);
    CHECK(code(V{{8, 3, 8, 1}}, 1, 1) == moved(9, 17));
    // Lines put before it and one of its lines edited: TOUCHED, its code's lines alone.
    CHECK(code(V{{10, 0, 11, 5}, {15, 1, 20, 1}}, 1, 1) ==
          std::optional<Mapping>(Mapping{LineStatus::Touched, {16, 24}, false}));
    // Not parted: lines put inside its code alone, nothing inside the range, no margin on
    // the side touched, every line of its code removed, or no code at all.
    CHECK_FALSE(code(V{{12, 0, 13, 2}}, 1, 1));
    CHECK_FALSE(code(V{{9, 0, 10, 5}, {20, 0, 26, 1}}, 1, 1));
    CHECK_FALSE(code(V{{19, 2, 19, 0}}, 1, 1));
    CHECK_FALSE(code(V{{10, 0, 11, 5}}, 0, 1));
    CHECK_FALSE(code(V{{19, 0, 20, 3}}, 1, 0));
    CHECK_FALSE(code(V{{10, 0, 11, 2}, {11, 9, 12, 0}}, 1, 1));
    CHECK_FALSE(code(V{{10, 0, 11, 1}}, 6, 5));
}
