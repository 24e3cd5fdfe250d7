// Brute-force reference for the boundary rule (SPEC §3): random -U0-shaped edit scripts over
// files whose every line's identity is known; every range of the old file is mapped by hand
// (its surviving lines plus the new text of the hunks that hit it) and compared with map_range.
// The reference itself lives in support/mapping_reference.hpp, shared with tests/fuzz/.
#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "context_pack/core/mapping.hpp"
#include "support/catch.hpp"
#include "support/mapping_reference.hpp"

using cp::Hunk;
using cp::LineNo;
using cp::LineRange;
using cp::Mapping;
using cptest::Edit;
using cptest::Script;

namespace {

// Portable across standard libraries (the std distributions are not).
LineNo pick(std::mt19937_64& rng, LineNo lo, LineNo hi) {
    return lo + static_cast<LineNo>(rng() % static_cast<std::uint64_t>(hi - lo + 1));
}

Script generate(std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    const LineNo n = pick(rng, 0, 40);
    std::vector<Edit> edits;
    const LineNo max_gap = pick(rng, 0, 8), stop_odds = pick(rng, 2, 8);
    for (LineNo cursor = 1; pick(rng, 1, stop_odds) != 1;) {
        const LineNo at = cursor + pick(rng, 0, max_gap);
        if (at > n + 1) break;
        LineNo removed = pick(rng, 0, std::min<LineNo>(5, n + 1 - at));
        LineNo inserted = pick(rng, 0, 3);
        if (removed + inserted == 0) (at <= n && pick(rng, 0, 1) ? removed : inserted) = 1;
        edits.push_back({at, removed, inserted});
        cursor = at + removed + 1;  // xdiff never emits adjacent hunks
    }
    return cptest::apply_edits(n, std::move(edits));
}

// To replay a failure, set kFirstSeed to the seed it prints and kScripts to 1.
constexpr std::uint64_t kFirstSeed = 0xC0DE'0000, kScripts = 10'000;

}  // namespace

TEST_CASE("boundary rule agrees with a brute-force reference on random scripts", "[reference]") {
    std::uint64_t ranges = 0, failures = 0, statuses[3] = {}, deleted = 0;
    for (std::uint64_t seed = kFirstSeed; seed < kFirstSeed + kScripts && failures < 10; ++seed) {
        const Script sc = generate(seed);
        for (LineNo s = 1; s <= sc.n && failures < 10; ++s) {
            for (LineNo e = s; e <= sc.n && failures < 10; ++e) {
                const LineRange r{s, e};
                const Mapping got = cp::map_range(sc.hunks, r), want = cptest::reference(sc, r);
                const std::string problems = cptest::range_problems(sc, r, got, want);

                ++ranges, ++statuses[static_cast<int>(want.status)], deleted += want.lines_deleted;
                if (problems.empty()) continue;
                ++failures;
                INFO("seed " << seed << ": " << cptest::describe(sc));
                INFO("range [" << s << ", " << e << "]: " << problems);
                CHECK(cptest::describe(got) == cptest::describe(want));
                CHECK(problems.empty());
            }
        }
    }
    // The generator must reach every outcome, or the comparison above proves little.
    INFO(ranges << " ranges: " << statuses[0] << " SAME, " << statuses[1] << " MOVED, "
                << statuses[2] << " TOUCHED, " << deleted << " lines_deleted");
    CHECK(failures == 0);
    CHECK(ranges > 500'000);
    CHECK(statuses[0] > 10'000);
    CHECK(statuses[1] > 10'000);
    CHECK(statuses[2] > 10'000);
    CHECK(deleted > 1'000);
}

TEST_CASE("reference generator emits git -U0 shaped hunks", "[reference]") {
    for (std::uint64_t seed = kFirstSeed; seed < kFirstSeed + kScripts; ++seed) {
        const Script sc = generate(seed);
        LineNo net = 0;
        for (std::size_t i = 0; i < sc.hunks.size(); ++i) {
            const Hunk& h = sc.hunks[i];
            net += h.new_count - h.old_count;
            // The line a hunk sits after survives, its new lines follow it, and at least one
            // unchanged old line separates it from the previous hunk.
            const bool ok = cptest::hunk_shape_ok(sc, i);
            if (ok) continue;
            INFO("seed " << seed << ": " << cptest::describe(sc) << "; hunk " << i);
            CHECK(ok);
        }
        if (static_cast<LineNo>(sc.new_file.size()) != sc.n + net) {
            INFO("seed " << seed << ": " << cptest::describe(sc));
            CHECK(sc.new_file.size() == static_cast<std::size_t>(sc.n + net));
        }
    }
}
