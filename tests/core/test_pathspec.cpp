// --callers-in's pathspecs: what PathFilter takes, what it refuses with one line, and which
// repository-relative paths each form names.
#include <fnmatch.h>  // the reference glob_matches is checked against (tests run on POSIX)

#include <cstdint>
#include <string>
#include <vector>

#include "context_pack/core/pathspec.hpp"
#include "support/catch.hpp"

using cp::PathFilter;

namespace {

PathFilter filter(const std::vector<std::string>& patterns) {
    auto f = PathFilter::parse(patterns, "--callers-in");
    INFO((f.ok() ? "" : f.error().message));
    REQUIRE(f.ok());
    return f.value();
}

}  // namespace

TEST_CASE("PathFilter: no pattern, or '.', names every path") {
    CHECK(filter({}).everything());
    CHECK(filter({"."}).everything());
    CHECK(filter({"./"}).matches("any/where.c"));
    CHECK_FALSE(filter({"src"}).everything());
}

TEST_CASE("PathFilter: a path names itself and what lies beneath it, by whole components") {
    auto f = filter({"src", "docs/", "./tools/run.sh"});
    CHECK(f.matches("src"));
    CHECK(f.matches("src/a.c"));
    CHECK(f.matches("src/deep/b.c"));
    CHECK_FALSE(f.matches("srcs/a.c"));
    CHECK_FALSE(f.matches("lib/src/a.c"));
    CHECK(f.matches("docs/x.md"));
    CHECK(f.matches("tools/run.sh"));
    CHECK_FALSE(f.matches("tools/run.sh.bak"));
    CHECK_FALSE(f.matches("a.c"));
}

TEST_CASE("PathFilter: a glob matches the whole path, '*' across '/', or a leading directory") {
    auto f = filter({"src/*.c"});
    CHECK(f.matches("src/a.c"));
    CHECK(f.matches("src/deep/b.c"));  // as git's pathspecs: '*' matches '/' too
    CHECK_FALSE(f.matches("src/a.h"));
    CHECK_FALSE(f.matches("lib/a.c"));
    auto dirs = filter({"t?sts"});
    CHECK(dirs.matches("tests/x.cpp"));  // the pattern names the directory
    CHECK_FALSE(dirs.matches("test/x.cpp"));
    CHECK(filter({"*.[ch]"}).matches("deep/in/x.h"));
}

TEST_CASE("PathFilter: what is not accepted is refused with one line naming it") {
    const std::vector<std::string> refused = {"",      ":(glob)src", ":!src",    "/etc",
                                              "../up", "src/../..",  "src\\a.c", "a\nb"};
    for (const std::string& bad : refused) {
        INFO(bad);
        auto f = PathFilter::parse({"src", bad}, "--callers-in");
        REQUIRE_FALSE(f.ok());
        CHECK(f.error().message.starts_with("--callers-in "));
        CHECK(f.error().message.find('\n') == std::string::npos);
        CHECK(f.error().message.find("src/") != std::string::npos);  // the mend's example
    }
    auto magic = PathFilter::parse({":!src"}, "callers_in");
    REQUIRE_FALSE(magic.ok());
    CHECK(magic.error().message.find("pathspec magic") != std::string::npos);
    CHECK(magic.error().message.starts_with("callers_in "));
}

TEST_CASE("glob_matches is POSIX fnmatch without flags, over random patterns and paths") {
    // Patterns of '*', '?', plain bytes and bracket expressions (negated, with ranges, ']'
    // first), against short paths of the same bytes and '/': every answer fnmatch's.
    std::uint64_t state = 0x2545f4914f6cdd1dull;
    auto next = [&](std::size_t n) {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        return static_cast<std::size_t>(state % n);
    };
    const std::string plain = "ab/-!^]";
    auto bracket = [&] {
        std::string b = "[";
        if (next(3) == 0) b += next(2) ? '!' : '^';
        if (next(4) == 0) b += ']';
        for (std::size_t n = 1 + next(3); n; --n) {
            b += plain[next(plain.size() - 1)];  // no ']' but first
            if (next(3) == 0) b += std::string("-") + plain[next(plain.size() - 1)];
        }
        return b + "]";
    };
    const std::string path_bytes = "ab/-[]!^";
    std::size_t matched = 0;
    for (int i = 0; i < 200000; ++i) {
        std::string pattern, path;
        for (std::size_t n = next(6); n; --n) {
            switch (next(5)) {
                case 0:
                    pattern += '*';
                    break;
                case 1:
                    pattern += '?';
                    break;
                case 2:
                    pattern += bracket();
                    break;
                default:
                    pattern += plain[next(plain.size())];
                    break;
            }
        }
        for (std::size_t n = next(7); n; --n) path += path_bytes[next(path_bytes.size())];
        bool expected = fnmatch(pattern.c_str(), path.c_str(), 0) == 0;
        INFO("pattern '" << pattern << "' path '" << path << "'");
        REQUIRE(cp::glob_matches(pattern, path) == expected);
        matched += expected;
    }
    CHECK(matched > 10000);  // the cases are not all misses
    // A bracket that is never closed makes the pattern match nothing, as git's wildmatch
    // takes it (glibc's fnmatch is not consistent there).
    CHECK_FALSE(cp::glob_matches("[a", "[a"));
    CHECK_FALSE(cp::glob_matches("src/[", "src/["));
    CHECK_FALSE(cp::glob_matches("*[!a", "b"));
}
