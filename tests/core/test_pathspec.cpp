// --callers-in's pathspecs: what PathFilter takes, what it refuses with one line, and which
// repository-relative paths each form names.
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
