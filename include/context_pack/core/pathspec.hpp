// What --callers-in takes: a subset of git's pathspecs, checked once and then matched against
// repository-relative paths. Pure.
//
// Accepted, each a repository-relative path with `/` separators:
//  - a path prefix: a file, or a directory and everything beneath it ("src", "src/",
//    "src/a.c"); "." is the whole tree; a leading "./" is dropped;
//  - a glob, when it holds `*`, `?` or `[`: matched against the whole path as git matches a
//    pathspec by default (fnmatch without FNM_PATHNAME: `*` also matches `/`; glob_matches
//    below), or, as git
//    does, as a prefix directory ("src/*" matches "src/a/b.c").
// Refused with one line: an empty pattern, pathspec magic (a leading `:`), an absolute path,
// a `..` component, a backslash, or a byte below 0x20.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "context_pack/core/result.hpp"

namespace cp {

// fnmatch(pattern, path, 0) without backslash escapes or character classes ("[[:digit:]]"),
// written out, as Windows has no fnmatch.
bool glob_matches(std::string_view pattern, std::string_view path);

class PathFilter {
  public:
    // No patterns: every path. `option` names the option in messages ("--callers-in").
    static Result<PathFilter> parse(const std::vector<std::string>& patterns,
                                    const std::string& option);

    bool everything() const { return whole_ || (prefixes_.empty() && globs_.empty()); }
    // Whether `path` (repository-relative) is one the patterns name.
    bool matches(const std::string& path) const;

  private:
    bool whole_ = false;  // "." was given: every path
    std::vector<std::string> prefixes_;
    std::vector<std::string> globs_;
};

}  // namespace cp
