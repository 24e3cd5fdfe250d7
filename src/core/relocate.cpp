#include "context_pack/core/relocate.hpp"

#include <algorithm>
#include <cctype>
#include <unordered_map>

namespace cp {
namespace {

bool space(char c) {
    return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
}

// The line with leading and trailing whitespace dropped and inner runs made one space.
std::string squeeze(std::string_view line) {
    std::string out;
    out.reserve(line.size());
    std::size_t i = 0;
    while (i < line.size()) {
        while (i < line.size() && space(line[i])) ++i;
        std::size_t word = i;
        while (i < line.size() && !space(line[i])) ++i;
        if (i == word) break;
        if (!out.empty()) out += ' ';
        out.append(line.data() + word, i - word);
    }
    return out;
}

template <class Key>
std::vector<BlockMatch> scan(const std::vector<Key>& hay, const std::vector<Key>& needle,
                             bool whitespace, std::size_t limit) {
    std::vector<BlockMatch> out;
    if (needle.empty() || needle.size() > hay.size()) return out;
    for (std::size_t i = 0; i + needle.size() <= hay.size() && out.size() < limit; ++i) {
        if (std::equal(needle.begin(), needle.end(), hay.begin() + std::ptrdiff_t(i)))
            out.push_back({LineNo(i + 1), whitespace});
    }
    return out;
}

std::vector<std::string> squeezed(const std::vector<std::string_view>& lines) {
    std::vector<std::string> out;
    out.reserve(lines.size());
    for (auto l : lines) out.push_back(squeeze(l));
    return out;
}

std::vector<std::uint16_t> bigrams(std::string_view line) {
    std::string s;
    for (char c : line)
        if (!space(c)) s += c;
    std::vector<std::uint16_t> out;
    for (std::size_t i = 0; i + 1 < s.size(); ++i)
        out.push_back(std::uint16_t((static_cast<unsigned char>(s[i]) << 8) |
                                    static_cast<unsigned char>(s[i + 1])));
    std::sort(out.begin(), out.end());
    return out;
}

}  // namespace

const std::vector<std::string>& Haystack::squeezed() const {
    if (!squeezed_made_) {
        squeezed_ = cp::squeezed(lines_);
        squeezed_made_ = true;
    }
    return squeezed_;
}

std::vector<BlockMatch> find_block(const Haystack& haystack,
                                   const std::vector<std::string_view>& needle, std::size_t limit,
                                   Match how) {
    if (how != Match::Whitespace) {
        auto exact = scan(haystack.lines(), needle, false, limit);
        if (!exact.empty() || how == Match::Exact) return exact;
    }
    return scan(haystack.squeezed(), squeezed(needle), true, limit);
}

bool distinctive(const std::vector<std::string_view>& block) {
    std::size_t total = 0, longest = 0;
    for (auto line : block) {
        std::size_t n = std::count_if(line.begin(), line.end(), [](char c) { return !space(c); });
        total += n;
        longest = std::max(longest, n);
    }
    return longest >= 8 && total >= 16;
}

double line_similarity(std::string_view a, std::string_view b) {
    auto x = bigrams(a), y = bigrams(b);
    if (x.empty() && y.empty()) return squeeze(a) == squeeze(b) ? 1.0 : 0.0;
    std::size_t common = 0;
    for (std::size_t i = 0, j = 0; i < x.size() && j < y.size();) {
        if (x[i] == y[j]) {
            ++common, ++i, ++j;
        } else if (x[i] < y[j]) {
            ++i;
        } else {
            ++j;
        }
    }
    return 2.0 * double(common) / double(x.size() + y.size());
}

BestRange best_subrange(const std::vector<std::string_view>& window, LineNo first,
                        const std::vector<std::string_view>& anchor,
                        const std::vector<std::string_view>& before,
                        const std::vector<std::string_view>& after) {
    BestRange best;
    const std::size_t n = anchor.size();
    if (n == 0 || window.size() < n) return best;
    // Content counts 0.8 and context 0.2, as LHDiff weighs a line against its neighbourhood.
    for (std::size_t i = 0; i + n <= window.size(); ++i) {
        double content = 0;
        for (std::size_t k = 0; k < n; ++k) content += line_similarity(window[i + k], anchor[k]);
        content /= double(n);
        double context = 0;
        std::size_t pairs = 0;
        for (std::size_t k = 0; k < before.size(); ++k, ++pairs) {
            std::size_t at = i >= k + 1 ? i - k - 1 : window.size();
            if (at < window.size())
                context += line_similarity(window[at], before[before.size() - 1 - k]);
        }
        for (std::size_t k = 0; k < after.size(); ++k, ++pairs) {
            std::size_t at = i + n + k;
            if (at < window.size()) context += line_similarity(window[at], after[k]);
        }
        double score = pairs ? 0.8 * content + 0.2 * context / double(pairs) : content;
        if (score > best.score) best = {first + LineNo(i), first + LineNo(i + n) - 1, score};
    }
    return best;
}

}  // namespace cp
