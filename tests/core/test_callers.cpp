// Caller lists: the one-pass scan for whole-word hits of several symbols (git grep -w -F's
// rule, one hit per line, binary files skipped), and the per-symbol summary (hits inside the
// symbol's own windows left out, the first few listed, per-file counts, the total).
#include <string>
#include <vector>

#include "context_pack/core/callers.hpp"
#include "support/catch.hpp"

using cp::CallerHit;
using cp::CallerScan;
using cp::LineNo;
using cp::Shown;

namespace {

// Hits as "path:line: text", easy to compare and to read in a failure.
std::vector<std::string> flat(const std::vector<CallerHit>& hits) {
    std::vector<std::string> out;
    for (const auto& h : hits) out.push_back(h.path + ":" + std::to_string(h.line) + ": " + h.text);
    return out;
}

std::vector<LineNo> line_numbers(const std::vector<CallerHit>& hits) {
    std::vector<LineNo> out;
    for (const auto& h : hits) out.push_back(h.line);
    return out;
}

using Lines = std::vector<std::string>;

}  // namespace

TEST_CASE("CallerScan: several symbols found in one scan", "[callers]") {
    CallerScan scan({"alpha", "beta", "gamma", "foo", "foo_bar", "never"});
    scan.scan("a.c", "alpha(beta);\nbeta = 1;\nfoo_bar();\n");
    scan.scan("b.c", "gamma alpha\nfoo();\n");
    CHECK(scan.files_scanned() == 2);
    CHECK(flat(scan.hits("alpha")) == Lines{"a.c:1: alpha(beta);", "b.c:1: gamma alpha"});
    CHECK(flat(scan.hits("beta")) == Lines{"a.c:1: alpha(beta);", "a.c:2: beta = 1;"});
    CHECK(flat(scan.hits("gamma")) == Lines{"b.c:1: gamma alpha"});
    // A symbol inside a longer one is not a hit there; the longer one is.
    CHECK(flat(scan.hits("foo")) == Lines{"b.c:2: foo();"});
    CHECK(flat(scan.hits("foo_bar")) == Lines{"a.c:3: foo_bar();"});
    CHECK(scan.hits("never").empty());
    CHECK(scan.hits("not asked for").empty());
}

TEST_CASE("CallerScan: whole words as git grep -w -F", "[callers]") {
    struct Row {
        std::string symbol;
        std::string line;
        bool hit;
    };
    const std::vector<Row> table = {
        {"foo", "foo", true},         // the whole line
        {"foo", "foo(1);", true},     // at line start
        {"foo", "return foo", true},  // at line end
        {"foo", "x = foo;", true},
        {"foo", "(foo)", true},
        {"foo", "a->foo.b", true},
        {"foo", "\tfoo\t", true},
        {"foo", "foobar", false},
        {"foo", "barfoo", false},
        {"foo", "_foo", false},
        {"foo", "foo_", false},
        {"foo", "foo1", false},
        {"foo", "1foo", false},
        {"foo", "Foo", false},  // -F is case-sensitive
        {"foo",
         "\xC3\xA9"
         "foo",
         true},  // é before: bytes >= 0x80 are not word bytes
        {"foo",
         "foo"
         "\xC3\xA9",
         true},  // é after
        {"foo",
         "\xC3\xA9"
         "foo"
         "\xC3\xBC",
         true},
        {"foo",
         "\x80"
         "foo"
         "\xFF",
         true},
        {"foo", "foofoo", false},
        {"foo", "foofoo foo", true},       // an overlapping failure, then a good one
        {"foo", "foo2 foo", true},         // a failed candidate, then a good one
        {"foo", "foo2 _foo foo_", false},  // every candidate fails
        {"aa", "aaa", false},
        {"aa", "aaa aa", true},
        {"&1144072861", "--- !u!1 &1144072861", true},
        {"&1144072861", "f(&1144072861)", true},
        {"&1144072861", "a&&1144072861", true},  // '&' is not a word byte
        {"&1144072861", "x&1144072861", false},  // git: a word byte before the match
        {"&1144072861", "&11440728612", false},
        {"&1144072861", "&1144072861_", false},
        {"ns::name", "ns::name();", true},
        {"ns::name", "outer::ns::name", true},
        {"ns::name", "xns::name", false},
        {"ns::name", "ns::names", false},
        {"ns::name", "ns::name_x ns::name", true},
        {"ns::name", "ns:: name", false},
    };
    for (const auto& r : table) {
        INFO("symbol '" << r.symbol << "' in '" << r.line << "'");
        for (const std::string ending : {"", "\n", "\r\n"}) {
            CallerScan scan({r.symbol});
            scan.scan("t.c", r.line + ending);
            const auto& hits = scan.hits(r.symbol);
            REQUIRE(hits.size() == (r.hit ? 1u : 0u));
            if (r.hit) {
                CHECK(hits[0].path == "t.c");
                CHECK(hits[0].line == 1);
                CHECK(hits[0].text == r.line);
                CHECK(hits[0].cut_bytes == 0);
            }
        }
    }
}

TEST_CASE("CallerScan: one hit per line, even with several occurrences", "[callers]") {
    CallerScan scan({"foo"});
    scan.scan("a.c", "foo(foo);\nfoo foo foo\nbar\nfoobar(foo)\nfoo_x foo\n");
    CHECK(flat(scan.hits("foo")) == Lines{"a.c:1: foo(foo);", "a.c:2: foo foo foo",
                                          "a.c:4: foobar(foo)", "a.c:5: foo_x foo"});
}

TEST_CASE("CallerScan: a line with only failed candidates does not end the scan", "[callers]") {
    CallerScan scan({"foo"});
    scan.scan("a.c", "foobar foo_x xfoo\nfoo\n_foo\nend(foo)");
    CHECK(line_numbers(scan.hits("foo")) == std::vector<LineNo>{2, 4});
}

TEST_CASE("CallerScan: line numbers across many lines and without a final newline", "[callers]") {
    std::string text;
    std::vector<LineNo> expected;
    for (int i = 1; i <= 1000; ++i) {
        bool hit = i == 1 || i == 7 || i == 500 || i == 999 || i == 1000;
        text += hit ? "call foo(" + std::to_string(i) + ");" : "line " + std::to_string(i);
        if (hit) expected.push_back(i);
        text += "\n";
    }
    CallerScan scan({"foo", "line"});
    scan.scan("many.c", text);
    CHECK(line_numbers(scan.hits("foo")) == expected);
    REQUIRE(scan.hits("foo").size() == 5);
    CHECK(scan.hits("foo")[2].text == "call foo(500);");
    CHECK(scan.hits("line").size() == 995);
    CHECK(scan.hits("line").back().line == 998);
    CHECK(scan.hits("line").back().text == "line 998");

    CallerScan last({"foo"});
    last.scan("tail.c", "a\n\nb\nfoo");
    CHECK(flat(last.hits("foo")) == Lines{"tail.c:4: foo"});

    CallerScan blank({"foo"});
    blank.scan("blank.c", "\n\n\nfoo\n\n\nfoo");
    CHECK(line_numbers(blank.hits("foo")) == std::vector<LineNo>{4, 7});

    // Line numbers start again in every file.
    CallerScan two({"foo"});
    two.scan("x.c", "\n\nfoo\n");
    two.scan("y.c", "foo\n");
    CHECK(flat(two.hits("foo")) == Lines{"x.c:3: foo", "y.c:1: foo"});
}

TEST_CASE("CallerScan: CRLF text has no carriage return in hit text", "[callers]") {
    CallerScan scan({"foo"});
    scan.scan("w.c", "x\r\nfoo();\r\ncall foo\r\nfoo");
    CHECK(flat(scan.hits("foo")) == Lines{"w.c:2: foo();", "w.c:3: call foo", "w.c:4: foo"});
    for (const auto& h : scan.hits("foo")) CHECK(h.text.find('\r') == std::string::npos);
}

TEST_CASE("CallerScan: binary files are skipped but counted", "[callers]") {
    CallerScan scan({"foo"});
    scan.scan("a.c", "foo\n");
    scan.scan("bin.dat", std::string("foo\n\0foo\n", 9));
    scan.scan("b.c", "foo\n");
    CHECK(scan.files_scanned() == 3);
    CHECK(flat(scan.hits("foo")) == Lines{"a.c:1: foo", "b.c:1: foo"});

    // Git's rule: a NUL byte past the first 8000 bytes does not make a file binary.
    std::string late = "foo\n" + std::string(9000, 'a') + '\0' + "\nfoo\n";
    CallerScan text({"foo"});
    text.scan("late.c", late);
    CHECK(text.files_scanned() == 1);
    CHECK(line_numbers(text.hits("foo")) == std::vector<LineNo>{1, 3});
}

TEST_CASE("CallerScan: long hit lines are cut like window lines", "[callers]") {
    CallerScan scan({"foo"}, 10);
    std::string long_line = "foo " + std::string(20, 'x');
    std::string utf8 = "foo \xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9";  // 4 + 8 bytes
    scan.scan("a.c", long_line + "\n" + utf8 + "\n" + "foo 567890\n" + "foo 5678901234\r\n");
    const auto& hits = scan.hits("foo");
    REQUIRE(hits.size() == 4);
    CHECK(hits[0].text == "foo xxxxxx");
    CHECK(hits[0].cut_bytes == 14);
    CHECK(hits[1].text == "foo \xC3\xA9\xC3\xA9\xC3\xA9");  // 11th byte would split an 'é'
    CHECK(hits[1].cut_bytes == 2);
    CHECK(hits[2].text == "foo 567890");  // exactly the limit
    CHECK(hits[2].cut_bytes == 0);
    CHECK(hits[3].text == "foo 567890");  // the '\r' is not counted
    CHECK(hits[3].cut_bytes == 4);

    // A match past the cut is still a hit; its line is cut like any other.
    CallerScan late({"foo"}, 10);
    late.scan("b.c", std::string(30, ' ') + "foo\n");
    REQUIRE(late.hits("foo").size() == 1);
    CHECK(late.hits("foo")[0].text == std::string(10, ' '));
    CHECK(late.hits("foo")[0].cut_bytes == 23);
}

namespace {

CallerHit hit(const std::string& path, LineNo line) {
    return {path, line, path + " line " + std::to_string(line), 0, cp::CallerGroup::Code};
}

std::vector<std::string> counts(const cp::Callers& c) {
    std::vector<std::string> out;
    for (const auto& f : c.per_file) out.push_back(f.path + "=" + std::to_string(f.count));
    return out;
}

}  // namespace

TEST_CASE("summarize_callers: hits inside the symbol's shown spans are left out", "[callers]") {
    const std::vector<CallerHit> hits = {hit("a.c", 3), hit("a.c", 4), hit("a.c", 6),
                                         hit("a.c", 7), hit("b.c", 5), hit("c.c", 5)};
    // a.c:4-6 shown; b.c:5 in a span of its own; c.c:5 only in a span of another path.
    const std::vector<Shown> shown = {{"a.c", 4, 6}, {"b.c", 5, 5}, {"z.c", 1, 100}};
    auto c = cp::summarize_callers("foo", hits, shown, 50, 9);
    CHECK(c.symbol == "foo");
    CHECK(c.files_scanned == 9);
    CHECK(c.in_windows == 3);
    CHECK(c.total == 3);
    CHECK(flat(c.hits) == Lines{"a.c:3: a.c line 3", "a.c:7: a.c line 7", "c.c:5: c.c line 5"});
    CHECK(counts(c) == Lines{"a.c=2", "c.c=1"});

    // Without shown spans nothing is left out.
    auto all = cp::summarize_callers("foo", hits, {}, 50, 9);
    CHECK(all.in_windows == 0);
    CHECK(all.total == 6);
    CHECK(all.hits.size() == 6);
    CHECK(counts(all) == Lines{"a.c=4", "b.c=1", "c.c=1"});

    // A hit inside two overlapping spans is counted once.
    auto twice =
        cp::summarize_callers("foo", {hit("a.c", 5)}, {{"a.c", 1, 9}, {"a.c", 5, 5}}, 50, 1);
    CHECK(twice.in_windows == 1);
    CHECK(twice.total == 0);
    CHECK(twice.hits.empty());
    CHECK(twice.per_file.empty());
}

TEST_CASE("summarize_callers: max_hits keeps the first hits in scan order", "[callers]") {
    const std::vector<CallerHit> hits = {hit("a.c", 1), hit("a.c", 2), hit("a.c", 9),
                                         hit("b.c", 1), hit("b.c", 2), hit("c.c", 4)};
    const std::vector<Shown> shown = {{"a.c", 2, 2}};
    auto three = cp::summarize_callers("foo", hits, shown, 3, 3);
    // a.c:2 is shown, so it takes no place among the three.
    CHECK(line_numbers(three.hits) == std::vector<LineNo>{1, 9, 1});
    CHECK(flat(three.hits) == Lines{"a.c:1: a.c line 1", "a.c:9: a.c line 9", "b.c:1: b.c line 1"});
    CHECK(three.total == 5);
    CHECK(three.in_windows == 1);
    CHECK(counts(three) == Lines{"a.c=2", "b.c=2", "c.c=1"});

    auto none = cp::summarize_callers("foo", hits, shown, 0, 3);
    CHECK(none.hits.empty());
    CHECK(none.total == 5);
    CHECK(counts(none) == Lines{"a.c=2", "b.c=2", "c.c=1"});

    auto exact = cp::summarize_callers("foo", hits, shown, 5, 3);
    CHECK(exact.hits.size() == 5);
    auto more = cp::summarize_callers("foo", hits, shown, 100, 3);
    CHECK(flat(more.hits) == flat(exact.hits));
    CHECK(more.hits.back().path == "c.c");
}

TEST_CASE("summarize_callers: per-file counts most first, ties in path order", "[callers]") {
    // Hits in an order other than path order, to tell a path tie-break from first appearance.
    const std::vector<CallerHit> hits = {hit("z.c", 1), hit("z.c", 2), hit("m.c", 1),
                                         hit("q.c", 1), hit("m.c", 2), hit("a.c", 1),
                                         hit("q.c", 2), hit("q.c", 3), hit("b.c", 8)};
    auto c = cp::summarize_callers("foo", hits, {}, 50, 5);
    CHECK(counts(c) == Lines{"q.c=3", "m.c=2", "z.c=2", "a.c=1", "b.c=1"});
    CHECK(c.total == 9);
    // The listed hits keep their given order.
    CHECK(c.hits.front().path == "z.c");
    CHECK(c.hits.back().path == "b.c");

    // Excluded hits do not count toward a file; a file whose hits are all shown is not listed.
    auto shown = cp::summarize_callers("foo", hits, {{"q.c", 1, 2}, {"b.c", 8, 8}}, 50, 5);
    CHECK(counts(shown) == Lines{"m.c=2", "z.c=2", "a.c=1", "q.c=1"});
    CHECK(shown.total == 6);
    CHECK(shown.in_windows == 3);
}

TEST_CASE("summarize_callers over a scan: the whole flow", "[callers]") {
    CallerScan scan({"foo", "bar"});
    scan.scan("a.c", "int foo() {\n  return 1;\n}\nint x = foo();\n");
    scan.scan("b.c", "foo(); bar();\nfoo();\n");
    scan.scan("c.bin", std::string("foo\0", 4));
    auto c =
        cp::summarize_callers("foo", scan.hits("foo"), {{"a.c", 1, 3}}, 2, scan.files_scanned());
    CHECK(c.files_scanned == 3);
    CHECK(c.in_windows == 1);
    CHECK(c.total == 3);
    CHECK(flat(c.hits) == Lines{"a.c:4: int x = foo();", "b.c:1: foo(); bar();"});
    CHECK(counts(c) == Lines{"b.c=2", "a.c=1"});

    auto b =
        cp::summarize_callers("bar", scan.hits("bar"), {{"a.c", 1, 3}}, 2, scan.files_scanned());
    CHECK(b.total == 1);
    CHECK(b.in_windows == 0);
    CHECK(counts(b) == Lines{"b.c=1"});
}

TEST_CASE("caller groups: the own language by extension family, docs and test data last",
          "[callers]") {
    using cp::CallerGroup;
    auto c = cp::language_family("src/a.c");
    CHECK(c == std::vector<std::string>{".c", ".h"});
    CHECK(cp::caller_group("lib/x.h", c) == CallerGroup::Language);
    CHECK(cp::caller_group("lib/X.C", c) == CallerGroup::Language);  // any letter case
    CHECK(cp::caller_group("lib/x.cpp", c) == CallerGroup::Code);
    CHECK(cp::caller_group("Makefile", c) == CallerGroup::Code);
    auto cpp = cp::language_family("a.cpp");
    CHECK(cp::caller_group("b.hpp", cpp) == CallerGroup::Language);
    CHECK(cp::caller_group("b.h", cpp) == CallerGroup::Language);
    CHECK(cp::caller_group("b.c", cpp) == CallerGroup::Code);
    auto h = cp::language_family("a.h");  // C, C++ and Objective-C's
    CHECK(cp::caller_group("b.c", h) == CallerGroup::Language);
    CHECK(cp::caller_group("b.cc", h) == CallerGroup::Language);
    CHECK(cp::caller_group("b.py", h) == CallerGroup::Code);
    auto ts = cp::language_family("web/app.ts");
    CHECK(cp::caller_group("web/old.js", ts) == CallerGroup::Language);
    auto odd = cp::language_family("x.zig");  // unknown: its own extension alone
    CHECK(odd == std::vector<std::string>{".zig"});
    CHECK(cp::caller_group("y.zig", odd) == CallerGroup::Language);
    CHECK(cp::language_family("Makefile").empty());
    CHECK(cp::caller_group("GNUmakefile", {}) == CallerGroup::Code);
    // Documentation and test data, whatever the extension.
    for (const char* docs : {"docs/api.c", "README", "readme.rst", "notes.md", "a/b/NEWS",
                             "tests/fixtures/sample.c", "pkg/testdata/in.go", "x/golden/out.c",
                             "Documentation/git.txt", "data.csv", "LICENSE.mit"}) {
        INFO(docs);
        CHECK(cp::caller_group(docs, c) == CallerGroup::Docs);
    }
    CHECK(cp::caller_group("src/docsy.c", c) == CallerGroup::Language);  // whole components
    CHECK(cp::caller_group("src/news_feed.c", c) == CallerGroup::Language);
}

TEST_CASE("summarize_callers: hits grouped, own language first, counts per group", "[callers]") {
    const std::vector<CallerHit> hits = {hit("README.md", 3), hit("a.c", 1), hit("b.py", 2),
                                         hit("docs/x.c", 1),  hit("z.h", 4), hit("z.h", 5)};
    auto c = cp::summarize_callers("foo", hits, {}, 50, 6, "src/own.c");
    CHECK(flat(c.hits) == Lines{"a.c:1: a.c line 1", "z.h:4: z.h line 4", "z.h:5: z.h line 5",
                                "b.py:2: b.py line 2", "README.md:3: README.md line 3",
                                "docs/x.c:1: docs/x.c line 1"});
    CHECK(c.hits[0].group == cp::CallerGroup::Language);
    CHECK(c.hits[3].group == cp::CallerGroup::Code);
    CHECK(c.hits[5].group == cp::CallerGroup::Docs);
    CHECK(c.language == std::vector<std::string>{".c", ".h"});
    CHECK(c.groups[0].hits == 3);
    CHECK(c.groups[0].files == 2);
    CHECK(c.groups[1].hits == 1);
    CHECK(c.groups[1].files == 1);
    CHECK(c.groups[2].hits == 2);
    CHECK(c.groups[2].files == 2);
    CHECK(c.total == 6);
    // The cap keeps the first hits in that order: the own language's come first.
    auto two = cp::summarize_callers("foo", hits, {}, 2, 6, "src/own.c");
    CHECK(flat(two.hits) == Lines{"a.c:1: a.c line 1", "z.h:4: z.h line 4"});
    CHECK(two.groups[2].hits == 2);  // counted though not listed
}

TEST_CASE("caller_role: definitions, declarations and comments told from uses", "[callers]") {
    struct Case {
        const char* path;
        const char* line;
        cp::CallerRole role;
    };
    using R = cp::CallerRole;
    const Case cases[] = {
        // C: a head, a prototype, calls in every place, a macro, comments
        {"a.c", "static int parse(const char *s)", R::Definition},
        {"a.c", "int parse(const char *s) {", R::Definition},
        {"a.c", "int parse(const char *s,", R::Definition},
        {"a.c", "use parse(1) in a", R::Use},  // not a head: what follows is no body
        {"a.c", "char *parse(void);", R::Declaration},
        {"a.h", "extern int parse(const char *s);", R::Declaration},
        {"a.c", "\tparse(argv[1]);", R::Use},
        {"a.c", "\tn = parse(s);", R::Use},
        {"a.c", "\treturn parse(s);", R::Use},
        {"a.c", "\tif (parse(s) < 0)", R::Use},
        {"a.c", "\tstate->parse(s);", R::Use},
        {"a.c", "#define parse(s) parse_with(s, 0)", R::Definition},
        {"a.c", "\t/* parse the rest */", R::Comment},
        {"a.c", "\t * parse() returns -1 on error", R::Comment},
        {"a.c", "\t// parse it again", R::Comment},
        {"a.c", "struct parse;", R::Declaration},
        {"a.c", "struct parse {", R::Definition},
        // C++: a member defined out of line, a qualified call
        {"a.cpp", "std::string Parser::parse(int n) const {", R::Definition},
        {"a.cpp", "\tauto x = ns::parse(n);", R::Use},
        {"a.cpp", "\tns::parse(n);", R::Use},
        // other languages
        {"a.py", "def parse(text):", R::Definition},
        {"a.py", "class parse(Base):", R::Definition},
        {"a.py", "    # parse is called twice", R::Comment},
        {"a.py", "    return parse(text)", R::Use},
        {"a.sh", "parse() {", R::Definition},
        {"a.sh", "\tparse \"$1\"", R::Use},
        {"a.sh", "# parse the options", R::Comment},
        {"a.go", "func parse(s string) int {", R::Definition},
        {"a.rs", "pub fn parse(s: &str) -> i32 {", R::Definition},
        {"a.js", "function parse(s) {", R::Definition},
        {"a.js", "const parse = (s) => s;", R::Definition},
        {"a.js", "  return parse(s);", R::Use},
        {"a.java", "    public static int parse(String s) {", R::Definition},
        {"a.lua", "-- parse the table", R::Comment},
        // a file of no known language only uses it, but for a shell function's head
        {"README.md", "# parse", R::Use},
        {"notes.txt", "int parse(void);", R::Use},
        {"git-parse", "parse() {", R::Definition},
    };
    for (const Case& c : cases) {
        INFO(c.path << ": " << c.line);
        CHECK(cp::caller_role_name(cp::caller_role(c.path, c.line, "parse")) ==
              cp::caller_role_name(c.role));
    }
}
