// Line counting and splitting as git counts lines, and the whole-word test of git grep -w -F.
#include "context_pack/core/text.hpp"
#include "support/catch.hpp"

using namespace cp::text;
using namespace std::string_view_literals;

TEST_CASE("count_lines counts like git: a final line without newline is a line") {
    CHECK(count_lines("") == 0);
    CHECK(count_lines("\n") == 1);
    CHECK(count_lines("a") == 1);
    CHECK(count_lines("a\nb") == 2);
    CHECK(count_lines("a\nb\n") == 2);
    CHECK(count_lines("a\r\nb\r\n") == 2);
    CHECK(count_lines("\n\n\n") == 3);
}

TEST_CASE("count_lines stops at the most lines asked, and is exact below them") {
    CHECK(count_lines("a\nb\nc\n", 2) == 2);
    CHECK(count_lines("a\nb\nc", 3) == 3);
    CHECK(count_lines("a\nb\nc", 4) == 3);
    CHECK(count_lines("a\nb\nc\n", 4) == 3);
    CHECK(count_lines("\n\n", 1) == 1);
    CHECK(count_lines("", 1) == 0);
    CHECK(count_lines("a\nb", 0) == 0);
}

TEST_CASE("split_lines drops the newline and one carriage return before it") {
    CHECK(split_lines("") == std::vector<std::string_view>{});
    CHECK(split_lines("a\r\nb\r\n") == std::vector<std::string_view>{"a", "b"});
    CHECK(split_lines("a\nb") == std::vector<std::string_view>{"a", "b"});
    CHECK(split_lines("a\r\r\n\n") == std::vector<std::string_view>{"a\r", ""});
    CHECK(split_lines("x\r") == std::vector<std::string_view>{"x\r"});  // no newline: kept
}

TEST_CASE("split_lines over a range gives split_lines' lines of that range") {
    CHECK(split_lines("a\r\nb\nc", 2, 3) == std::vector<std::string_view>{"b", "c"});
    CHECK(split_lines("a\nb\n", 2, 5) == std::vector<std::string_view>{"b"});
    CHECK(split_lines("a\nb\n", 3, 3) == std::vector<std::string_view>{});
    CHECK(split_lines("x\r", 1, 1) == std::vector<std::string_view>{"x\r"});
    CHECK(split_lines("", 1, 2) == std::vector<std::string_view>{});
    // Every range of every content made of a few of these pieces.
    const std::string_view pieces[] = {"a", "\n", "\r", "\r\n", "bc"};
    for (unsigned code = 0; code < 5 * 5 * 5 * 5 * 5; ++code) {
        std::string content;
        for (unsigned c = code, k = 0; k < 5; ++k, c /= 5) content += pieces[c % 5];
        const auto all = split_lines(content);
        for (std::int64_t first = 1; first <= 7; ++first)
            for (std::int64_t last = first - 1; last <= 7; ++last) {
                std::vector<std::string_view> want;
                for (std::int64_t n = first; n <= last && n <= std::int64_t(all.size()); ++n)
                    want.push_back(all[std::size_t(n - 1)]);
                INFO(content << " " << first << ".." << last);
                CHECK(split_lines(content, first, last) == want);
            }
    }
}

TEST_CASE("looks_binary: a NUL byte in the first 8000 bytes") {
    CHECK_FALSE(looks_binary("plain text\n"));
    CHECK(looks_binary("a\0b"sv));
    std::string late(9000, 'a');
    late[8500] = '\0';
    CHECK_FALSE(looks_binary(late));
    late[7999] = '\0';
    CHECK(looks_binary(late));
}

TEST_CASE("contains_word: whole words as git grep -w -F") {
    CHECK(contains_word("foo", "foo"));
    CHECK(contains_word("foo(bar)", "foo"));
    CHECK(contains_word("x = foo;", "foo"));
    CHECK(contains_word("call(foo)", "foo"));
    CHECK(contains_word("a.foo.b", "foo"));
    CHECK_FALSE(contains_word("foobar", "foo"));
    CHECK_FALSE(contains_word("barfoo", "foo"));
    CHECK_FALSE(contains_word("foo_bar", "foo"));
    CHECK_FALSE(contains_word("_foo", "foo"));
    CHECK_FALSE(contains_word("foo2", "foo"));
    CHECK_FALSE(contains_word("2foo", "foo"));
    CHECK(contains_word("foo2 foo", "foo"));    // retries past a failed candidate
    CHECK(contains_word("foofoo foo", "foo"));  // and past an overlapping one
    CHECK(contains_word("é foo ü", "foo"));     // non-ASCII bytes are not word bytes
    CHECK(contains_word("éfooü", "foo"));
    CHECK(contains_word("--- !u!1 &1144072861", "&1144072861"));
    CHECK_FALSE(contains_word("&11440728612", "&1144072861"));
    CHECK_FALSE(contains_word("x&1144072861", "&1144072861"));  // git: 'x' before the match
    CHECK(contains_word("(&1144072861)", "&1144072861"));
    CHECK_FALSE(contains_word("", "foo"));
    CHECK_FALSE(contains_word("foo", ""));
}

TEST_CASE(
    "visible escapes control bytes but keeps tabs and text, and printable names newline, tab "
    "and carriage return") {
    struct Row {
        std::string_view in, visible, printable;
    };
    const Row rows[] = {
        {"plain", "plain", "plain"},
        {"a\tb", "a\tb", "a\\tb"},                          // code keeps its tabs
        {"\x1b[31mred", "\\x1b[31mred", "\\x1b[31mred"},    // a terminal escape
        {"over\rwrite", "over\\x0dwrite", "over\\rwrite"},  // CR forging a line
        {"a\nb", "a\\x0ab", "a\\nb"},                       // LF forging a line
        {"nul\0x"sv, "nul\\x00x", "nul\\x00x"},             // NUL
        {"del\x7f", "del\\x7f", "del\\x7f"},                // DEL
        {"csi\xc2\x9b"
         "2J",
         "csi\\u009b2J", "csi\\u009b2J"},  // C1 CSI in UTF-8
        {"\xc2\xa0nbsp \xc3\xa9", "\xc2\xa0nbsp \xc3\xa9", "\xc2\xa0nbsp \xc3\xa9"},  // text
        {"end\xc2", "end\xc2", "end\xc2"},  // a lone lead byte is not a control
    };
    for (const Row& r : rows) {
        INFO(printable(r.in));
        CHECK(visible(r.in) == r.visible);
        CHECK(printable(r.in) == r.printable);
    }
}

TEST_CASE("edit_distance: optimal string alignment, cut at the limit") {
    struct Row {
        const char* a;
        const char* b;
        std::size_t limit, distance;
    };
    const Row rows[] = {
        {"", "", 2, 0},
        {"line", "line", 2, 0},
        {"line", "lines", 2, 1},
        {"line", "lnie", 2, 1},
        {"line", "lin", 2, 1},
        {"line", "lime", 2, 1},
        {"ca", "abc", 3, 3},  // no byte edited twice (true Damerau: 2)
        {"symbol", "sybmol", 2, 1},
        {"abc", "xyz", 5, 3},
        {"abc", "xyz", 1, 2},
        {"a", "abcdef", 2, 3},
        {"kitten", "sitting", 3, 3},
    };
    for (const Row& r : rows) {
        INFO(r.a << " / " << r.b << " within " << r.limit);
        CHECK(cp::text::edit_distance(r.a, r.b, r.limit) == r.distance);
        CHECK(cp::text::edit_distance(r.b, r.a, r.limit) == r.distance);
    }
}

TEST_CASE("similar_paths: the same basename elsewhere, or a typo away with the same extension") {
    const std::vector<std::string_view> base = {"README.md",  "lib/util.c",  "src/Makefile",
                                                "src/a.c",    "src/cache.c", "src/parser.c",
                                                "src/util.c", "test/util.c", "tools/parser.py"};
    struct Row {
        const char* absent;
        std::vector<std::string> meant;
    };
    const std::vector<Row> rows = {
        {"src/parsr.c", {"src/parser.c"}},                        // one byte left out
        {"src/praser.c", {"src/parser.c"}},                       // two swapped: one edit
        {"src/Parser.c", {"src/parser.c"}},                       // case
        {"scr/parser.c", {"src/parser.c"}},                       // in the directory
        {"src/parser_.c", {"src/parser.c"}},                      // one byte more
        {"src/prser_.c", {"src/parser.c"}},                       // two edits from a 6-byte stem
        {"src/cach.c", {"src/cache.c"}},                          // one from a 4-byte stem
        {"src/cch.c", {}},                                        // two from it: too far
        {"src/parser.h", {}},                                     // another extension
        {"src/parser.cc", {}},                                    // another extension
        {"src/b.c", {}},                                          // a 1-byte stem: never a typo
        {"util.c", {"lib/util.c", "src/util.c", "test/util.c"}},  // basename, sorted
        {"docs/README.md", {"README.md"}},
        {"lib/Makefile", {"src/Makefile"}},
        {"src/brand_new.c", {}},
        {"src/lexer.c", {}},
    };
    for (const Row& r : rows) {
        INFO(r.absent);
        CHECK(cp::text::similar_paths(r.absent, base, 5) == r.meant);
    }
    std::size_t more = 0;
    CHECK(cp::text::similar_paths("x/util.c", base, 2, &more) ==
          std::vector<std::string>{"lib/util.c", "src/util.c"});
    CHECK(more == 1);
    CHECK(cp::text::similar_paths("src/util.c", base, 5) ==
          std::vector<std::string>{"lib/util.c", "test/util.c"});  // never itself
}

TEST_CASE("visible and printable escape lone C1 bytes and the characters that reorder text") {
    using cp::text::printable;
    using cp::text::visible;
    CHECK(visible("a\x9b"
                  "31mb") == "a\\x9b31mb");  // an 8-bit CSI, not UTF-8
    CHECK(visible("\xe2\x80\xae"
                  "cba") == "\\u202ecba");  // RIGHT-TO-LEFT OVERRIDE
    CHECK(printable("x\xe2\x81\xa6y\xe2\x81\xa9") == "x\\u2066y\\u2069");
    CHECK(visible("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80") ==
          "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80");  // text stays text
    CHECK(visible("\xff\xfe") == "\xff\xfe");            // not UTF-8, and no control
    CHECK(visible("\xe2\x80") == "\xe2\\x80");           // a cut sequence: its C1 byte escaped
    CHECK(visible("\xc2\x85") == "\\u0085");             // C1 as UTF-8, as before
}
