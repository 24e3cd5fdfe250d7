// libFuzzer target: the boundary rule (cp::map_range, SPEC §3) against the brute-force
// reference in tests/support/mapping_reference.hpp.
//
// The bytes decode, front to back (missing bytes read as 0), into:
//   u16 le   old line count n = 1 + v % 1000
//   u16 le   range start    s = 1 + v % n
//   u16 le   range end      e = s + v % (n - s + 1)
//   then triples (gap, removed, inserted), one per edit while bytes remain: the edit sits at
//   old line at = cursor + gap (cursor starts at 1; stop once at > n + 1), removes
//   min(removed, n + 1 - at) old lines and inserts `inserted` new ones (an empty edit removes
//   one line, or inserts one at the end of the file); the next cursor is at + removed + 1, so
//   one unchanged line separates two hunks, as xdiff emits them.
// The edits become git -U0 hunk headers, and map_range's answer for [s, e] must equal the
// reference and hold the rule's invariants: within the target file unless lines_deleted, SAME
// only unshifted and with no hunk overlapping, every surviving line of the range inside the
// result, lines_deleted exactly when the result is empty.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "context_pack/core/mapping.hpp"
#include "support/mapping_reference.hpp"

namespace {

using cp::LineNo;

constexpr LineNo kMaxLines = 1000;

class Bytes {
  public:
    Bytes(const std::uint8_t* data, std::size_t size) : p_(data), n_(size) {}
    bool empty() const { return n_ == 0; }
    LineNo u8() {
        if (n_ == 0) return 0;
        --n_;
        return *p_++;
    }
    LineNo u16() {
        const LineNo lo = u8();
        return lo | (u8() << 8);
    }

  private:
    const std::uint8_t* p_;
    std::size_t n_;
};

[[noreturn]] void fail(const cptest::Script& sc, cp::LineRange r, const std::string& what) {
    std::fprintf(stderr, "fuzz_mapping: %s\n  script: %s\n  range [%lld, %lld]\n", what.c_str(),
                 cptest::describe(sc).c_str(), static_cast<long long>(r.start),
                 static_cast<long long>(r.end));
    std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    Bytes in(data, size);
    const LineNo n = 1 + in.u16() % kMaxLines;
    const LineNo s = 1 + in.u16() % n;
    const LineNo e = s + in.u16() % (n - s + 1);
    std::vector<cptest::Edit> edits;
    for (LineNo cursor = 1; !in.empty();) {
        const LineNo at = cursor + in.u8();
        LineNo removed = in.u8(), inserted = in.u8();
        if (at > n + 1) break;
        removed = std::min(removed, n + 1 - at);
        if (removed + inserted == 0) (at <= n ? removed : inserted) = 1;
        edits.push_back({at, removed, inserted});
        cursor = at + removed + 1;
    }
    const cptest::Script sc = cptest::apply_edits(n, std::move(edits));
    const cp::LineRange r{s, e};

    // The decoder's own promise: hunks exactly as git diff -U0 prints them.
    LineNo net = 0;
    for (std::size_t i = 0; i < sc.hunks.size(); ++i) {
        net += sc.hunks[i].new_count - sc.hunks[i].old_count;
        if (!cptest::hunk_shape_ok(sc, i))
            fail(sc, r, "decoder bug: hunk " + std::to_string(i) + " is not -U0 shaped");
    }
    if (static_cast<LineNo>(sc.new_file.size()) != n + net)
        fail(sc, r, "decoder bug: new line count disagrees with the hunks");

    const cp::Mapping got = cp::map_range(sc.hunks, r), want = cptest::reference(sc, r);
    const std::string problems = cptest::range_problems(sc, r, got, want);
    if (!problems.empty())
        fail(sc, r,
             "map_range gave " + cptest::describe(got) + ", the reference " +
                 cptest::describe(want) + ": " + problems);
    return 0;
}
