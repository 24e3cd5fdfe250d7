// The -U0 hunks of a plain LCS of two files, as git gives a diff's hunks, for the line map's
// tests: hand-worked cases write their files only, and the random edit scripts check their
// answers against the same diff.
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "context_pack/core/mapping.hpp"

namespace cptest {

struct LcsDiff {
    std::vector<cp::Hunk> hunks;
    std::vector<cp::LineNo> kept;  // by base line - 1: its partner at the target, or 0
};

// `drop`, when given, is asked of each equal pair in order and leaves it unmatched when it
// says so, as a diff that is not minimal leaves a few (git's histogram and patience diffs do).
inline LcsDiff lcs_diff(const std::vector<std::string>& base,
                        const std::vector<std::string>& target,
                        const std::function<bool()>& drop = {}) {
    using cp::LineNo;
    const std::size_t n = base.size(), m = target.size();
    std::vector<std::vector<std::uint16_t>> lcs(n + 1, std::vector<std::uint16_t>(m + 1, 0));
    for (std::size_t i = n; i-- > 0;)
        for (std::size_t j = m; j-- > 0;)
            lcs[i][j] = base[i] == target[j] ? std::uint16_t(lcs[i + 1][j + 1] + 1)
                                             : std::max(lcs[i + 1][j], lcs[i][j + 1]);
    std::vector<std::pair<LineNo, LineNo>> pairs = {{0, 0}};
    for (std::size_t i = 0, j = 0; i < n && j < m;) {
        if (base[i] == target[j]) {
            if (!drop || !drop()) pairs.emplace_back(LineNo(i + 1), LineNo(j + 1));
            ++i, ++j;
        } else if (lcs[i + 1][j] >= lcs[i][j + 1]) {
            ++i;
        } else {
            ++j;
        }
    }
    pairs.emplace_back(LineNo(n + 1), LineNo(m + 1));
    LcsDiff out;
    out.kept.assign(n, 0);
    for (std::size_t k = 0; k + 1 < pairs.size(); ++k) {
        auto [i0, j0] = pairs[k];
        auto [i1, j1] = pairs[k + 1];
        if (i0 >= 1 && i0 <= LineNo(n)) out.kept[std::size_t(i0 - 1)] = j0;
        const LineNo old_count = i1 - i0 - 1, new_count = j1 - j0 - 1;
        if (old_count + new_count == 0) continue;
        out.hunks.push_back(
            {old_count ? i0 + 1 : i0, old_count, new_count ? j0 + 1 : j0, new_count});
    }
    return out;
}

}  // namespace cptest
