// Prose references (--prose): which `path:line` mentions a text holds, by hand-worked cases,
// and which of a spec's strings they are taken from.
#include "context_pack/model/prose.hpp"
#include "support/catch.hpp"

namespace {

// The mentions as "path:line" or "path:line-end", each with the bytes it covered.
std::vector<std::string> mentions(std::string_view text) {
    std::vector<std::string> out;
    for (const auto& m : cp::find_mentions(text)) {
        std::string s = m.path + ":" + std::to_string(m.line);
        if (m.end_line) s += "-" + std::to_string(*m.end_line);
        s += " [" + std::string(text.substr(m.at, m.size)) + "]";
        out.push_back(s);
    }
    return out;
}

using V = std::vector<std::string>;

}  // namespace

TEST_CASE("find_mentions: paths with a line or a range, and what is not one") {
    CHECK(mentions("see src/parser.c:18-30 and parser.h:4.") ==
          V{"src/parser.c:18-30 [src/parser.c:18-30]", "parser.h:4 [parser.h:4]"});
    CHECK(mentions("(util.c:5), `a/b.py:7`, \"x.rs:1-2\"") ==
          V{"util.c:5 [util.c:5]", "a/b.py:7 [a/b.py:7]", "x.rs:1-2 [x.rs:1-2]"});
    CHECK(mentions("./lib/x.c:3 at line:col lib/y.c:10:5") ==
          V{"lib/x.c:3 [./lib/x.c:3]", "lib/y.c:10 [lib/y.c:10]"});
    CHECK(mentions("src/Makefile:12 and .gitignore:2") ==
          V{"src/Makefile:12 [src/Makefile:12]", ".gitignore:2 [.gitignore:2]"});
    CHECK(mentions("a.c:10- is one line; a.c:10-x too") == V{"a.c:10 [a.c:10]", "a.c:10 [a.c:10]"});
    // Not mentions: URLs, hosts, versions, times, absolute paths, words running on.
    CHECK(mentions("http://host.com:80/x https://a.io:443") == V{});
    CHECK(mentions("localhost:8080 v1.2:3 12:30 /usr/include/x.h:10") == V{});
    CHECK(mentions("a.c:10abc a.c:1_ a.c: x.c:") == V{});
    CHECK(mentions("a.c:1234567890123456789") == V{});  // past 18 digits
    CHECK(mentions("caf\xc3\xa9.c:3") == V{});          // a name in another script, cut
    CHECK(mentions("") == V{});
}

TEST_CASE("add_prose_anchors: every string but the tool's own, once each, as prose reads") {
    auto spec = cp::parse_spec(R"({
      "id": "a.c:1", "base": "b.c:2", "target": "c.c:3",
      "file_changes": [{"location": {"path": "x.c", "line": 1, "symbol": "y.c:9"},
                        "change": "move a.c:10-12 to b.c:4", "was": {"path": "w.c:1"},
                        "repin": "r.c:1"}],
      "reads": [{"location": {"path": "z.c", "line": 2}, "why": "see a.c:10-12 again"}],
      "notes": {"risk": ["d.c:7", 3, null, {"deep": "e/f.md:2-3"}]}
    })",
                               "plan.json");
    REQUIRE(spec);
    cp::add_prose_anchors(spec.value());
    const auto& anchors = spec->anchors;
    REQUIRE(anchors.size() == 6);  // 2 of the spec's own, then 4 mentions
    struct Want {
        const char* path;
        std::int64_t line;
        std::optional<std::int64_t> end;
        const char* field;
    };
    const Want want[] = {{"a.c", 10, 12, "file_changes[0].change"},
                         {"b.c", 4, std::nullopt, "file_changes[0].change"},
                         {"d.c", 7, std::nullopt, "notes.risk[0]"},
                         {"e/f.md", 2, 3, "notes.risk[3].deep"}};
    for (std::size_t i = 0; i < 4; ++i) {
        const cp::Anchor& a = anchors[2 + i];
        INFO(i);
        CHECK(a.kind == cp::AnchorKind::Read);
        CHECK(a.index == i);
        CHECK(cp::anchor_label(a) == "prose[" + std::to_string(i) + "]");
        CHECK(a.path == want[i].path);
        CHECK(a.line == want[i].line);
        CHECK(a.end_line == want[i].end);
        REQUIRE(a.mention);
        CHECK(a.mention->field == want[i].field);
        CHECK(a.note == std::string("mentioned in ") + want[i].field);
    }
    CHECK(anchors[2].mention->text == "a.c:10-12");
}
