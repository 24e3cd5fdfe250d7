#include "context_pack/core/pathspec.hpp"

#include <fmt/format.h>
#include <fnmatch.h>

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

}  // namespace

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
        if (fnmatch(glob.c_str(), path.c_str(), 0) == 0) return true;
        // As git: a pattern that matches a leading directory names what lies beneath it.
        for (auto slash = path.find('/'); slash != std::string::npos;
             slash = path.find('/', slash + 1))
            if (fnmatch(glob.c_str(), path.substr(0, slash).c_str(), 0) == 0) return true;
    }
    return false;
}

}  // namespace cp
