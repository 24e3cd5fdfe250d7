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

}  // namespace cp
