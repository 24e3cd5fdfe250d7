#include "context_pack/core/pathspec.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "context_pack/core/text.hpp"

namespace cp {

namespace {

Error refused(const std::string& option, const std::string& pattern, const char* why) {
    return Error{
        fmt::format("{} {}: {}; give a repository-relative directory, file or glob "
                    "such as src/ or 'src/*.c'",
                    option, text::shell_word(text::printable(pattern)), why)};
}

// The bracket expression at `p` (just past its '['), against `c`: whether it matches, and
// where it ends (past its ']'); npos when it has no ']', which makes the pattern match
// nothing, as glibc's fnmatch and git's wildmatch both take it.
std::pair<bool, std::size_t> bracket(std::string_view pattern, std::size_t p, char c) {
    bool negated = p < pattern.size() && (pattern[p] == '!' || pattern[p] == '^');
    if (negated) ++p;
    bool matched = false;
    for (std::size_t i = p; i < pattern.size(); ++i) {
        if (pattern[i] == ']' && i > p) return {matched != negated, i + 1};
        unsigned char lo = static_cast<unsigned char>(pattern[i]), hi = lo;
        if (i + 2 < pattern.size() && pattern[i + 1] == '-' && pattern[i + 2] != ']') {
            hi = static_cast<unsigned char>(pattern[i + 2]);
            i += 2;
        }
        auto u = static_cast<unsigned char>(c);
        if (lo <= u && u <= hi) matched = true;
    }
    return {false, std::string_view::npos};
}

}  // namespace

// fnmatch(pattern, path, 0) as POSIX defines it, backslashes aside (parse refuses them): '*'
// any run of bytes, '/' too; '?' any one byte; '[...]' one of a set, with ranges and '!' or
// '^' to negate. A '*' that fails is retried one byte further on, as the last '*' alone needs.
bool glob_matches(std::string_view pattern, std::string_view path) {
    std::size_t p = 0, s = 0;
    std::size_t star = std::string_view::npos, resume = 0;
    while (s < path.size()) {
        if (p < pattern.size() && pattern[p] == '*') {
            star = p++;
            resume = s;
            continue;
        }
        if (p < pattern.size()) {
            if (pattern[p] == '?') {
                ++p;
                ++s;
                continue;
            }
            if (pattern[p] == '[') {
                auto [matched, end] = bracket(pattern, p + 1, path[s]);
                if (end == std::string_view::npos) return false;
                if (matched) {
                    p = end;
                    ++s;
                    continue;
                }
            } else if (pattern[p] == path[s]) {
                ++p;
                ++s;
                continue;
            }
        }
        if (star == std::string_view::npos) return false;
        p = star + 1;
        s = ++resume;
    }
    while (p < pattern.size() && pattern[p] == '*') ++p;
    return p == pattern.size();
}

Result<PathFilter> PathFilter::parse(const std::vector<std::string>& patterns,
                                     const std::string& option) {
    PathFilter f;
    for (const std::string& given : patterns) {
        std::string p = given;
        while (p.starts_with("./")) p.erase(0, 2);
        if (given.empty()) return refused(option, given, "an empty pattern names nothing");
        if (p.starts_with(":"))
            return refused(option, given, "pathspec magic (a leading ':') is not accepted");
        if (p.starts_with("/")) return refused(option, given, "an absolute path is not accepted");
        if (p.find('\\') != std::string::npos)
            return refused(option, given, "a backslash is not accepted");
        if (std::any_of(p.begin(), p.end(), [](char c) { return (unsigned char)c < 0x20; }))
            return refused(option, given, "a control character is not accepted");
        std::string_view rest = p;
        for (std::size_t pos = 0; pos <= rest.size();) {
            auto slash = rest.find('/', pos);
            auto part = rest.substr(pos, slash == std::string_view::npos ? rest.npos : slash - pos);
            if (part == "..")
                return refused(option, given, "a '..' component leaves the repository");
            if (slash == std::string_view::npos) break;
            pos = slash + 1;
        }
        if (p.empty() || p == ".") {
            f.whole_ = true;
            continue;
        }
        while (p.size() > 1 && p.back() == '/') p.pop_back();
        if (p.find_first_of("*?[") != std::string::npos)
            f.globs_.push_back(p);
        else
            f.prefixes_.push_back(p);
    }
    return f;
}

bool PathFilter::matches(const std::string& path) const {
    if (everything()) return true;
    for (const std::string& prefix : prefixes_)
        if (path == prefix || (path.starts_with(prefix) && path[prefix.size()] == '/')) return true;
    for (const std::string& glob : globs_) {
        if (glob_matches(glob, path)) return true;
        // As git: a pattern that matches a leading directory names what lies beneath it.
        for (auto slash = path.find('/'); slash != std::string::npos;
             slash = path.find('/', slash + 1))
            if (glob_matches(glob, std::string_view(path).substr(0, slash))) return true;
    }
    return false;
}

}  // namespace cp
