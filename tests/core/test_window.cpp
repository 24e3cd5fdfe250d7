// Windows over hand-built anchor results: context clamped to the file, merging of spans that
// overlap or touch, the order of windows, deleted ranges, the anchored-line cap, long and CRLF
// lines, unavailable files, and which anchors get a window at all.
#include <fmt/format.h>

#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "context_pack/core/text.hpp"
#include "context_pack/core/window.hpp"
#include "context_pack/model/report.hpp"
#include "context_pack/resolve/pack.hpp"
#include "support/catch.hpp"
#include "support/fixture.hpp"

using cp::AnchorResult;
using cp::LineNo;
using cp::Status;
using cp::Window;
using cp::WindowOptions;

namespace {

using Files = std::map<std::string, std::string>;

// "L1\nL2\n...Ln\n".
std::string numbered(int n) {
    std::string out;
    for (int i = 1; i <= n; ++i) out += "L" + std::to_string(i) + "\n";
    return out;
}

// An anchor result at target path:first-last.
AnchorResult at(const std::string& path, LineNo first, LineNo last, Status status = Status::Same) {
    AnchorResult a;
    a.anchor.path = path;
    a.anchor.line = first;
    a.anchor.end_line = last;
    a.status = status;
    a.to = cp::Location{path, first, last};
    return a;
}

// An anchor whose lines were all deleted: an empty range after line q.
AnchorResult deleted_after(const std::string& path, LineNo q) {
    AnchorResult a = at(path, q + 1, q, Status::Touched);
    a.anchor.line = 40;
    a.anchor.end_line = 42;
    a.lines_deleted = true;
    return a;
}

// Rows are numbered 1.. in table order, as resolution numbers them.
std::vector<AnchorResult> rows(std::vector<AnchorResult> anchors) {
    for (std::size_t i = 0; i < anchors.size(); ++i) anchors[i].row = i + 1;
    return anchors;
}

// The windows of anchor results, each placed where the pack step places it.
std::vector<Window> windows_of(const std::vector<AnchorResult>& anchors, const cp::FileBytes& bytes,
                               const WindowOptions& options) {
    std::vector<std::optional<cp::TargetLines>> lines;
    for (const AnchorResult& a : anchors) {
        const cp::Location* at = a.window_location();
        lines.push_back(
            at ? std::optional<cp::TargetLines>({at->path, {at->line, at->end_line}, std::nullopt})
               : std::nullopt);
    }
    return cp::build_windows(lines, bytes, options);
}

cp::FileBytes from(const Files& files) {
    return [&files](const std::string& path) -> const std::string* {
        auto it = files.find(path);
        return it == files.end() ? nullptr : &it->second;
    };
}

WindowOptions with_context(int context, LineNo max_anchored = 100) {
    WindowOptions o;
    o.context = context;
    o.max_anchored = max_anchored;
    return o;
}

// The shown lines as "1 *2 3": each line's number, '*' before an anchored one.
std::string shown(const Window& w) {
    std::ostringstream out;
    for (std::size_t i = 0; i < w.lines.size(); ++i) {
        if (i) out << ' ';
        if (w.lines[i].anchored) out << '*';
        out << w.lines[i].number;
    }
    return out.str();
}

struct Expected {
    std::string path;
    LineNo first, last;
    std::vector<std::size_t> anchors;
    std::string lines;                         // as shown() renders them
    LineNo omitted_from = 0, omitted_to = -1;  // default: nothing omitted
};

struct Case {
    std::string name;
    std::vector<AnchorResult> anchors;
    WindowOptions options;
    std::vector<Expected> windows;
};

void check_windows(const Files& files, const Case& c) {
    INFO("case: " << c.name);
    auto windows = windows_of(c.anchors, from(files), c.options);
    REQUIRE(windows.size() == c.windows.size());
    for (std::size_t i = 0; i < windows.size(); ++i) {
        const Window& w = windows[i];
        const Expected& e = c.windows[i];
        INFO("window " << i);
        CHECK(w.path == e.path);
        CHECK(w.first == e.first);
        CHECK(w.last == e.last);
        CHECK(w.anchors == e.anchors);
        CHECK(shown(w) == e.lines);
        CHECK_FALSE(w.unavailable);
        for (const auto& l : w.lines) {
            CHECK(l.text == "L" + std::to_string(l.number));
            CHECK(l.cut_bytes == 0);
        }
        if (e.omitted_to >= e.omitted_from) {
            CHECK(w.omitted_from == e.omitted_from);
            CHECK(w.omitted_to == e.omitted_to);
            CHECK(w.omitted() == e.omitted_to - e.omitted_from + 1);
        } else {
            CHECK(w.omitted() == 0);
        }
    }
}

const Files kFiles = {{"a.c", numbered(20)}, {"b.c", numbered(10)}};

}  // namespace

TEST_CASE("windows: context around anchors, clamped to the file", "[window]") {
    const std::vector<Case> cases = {
        {"context 3 in the middle",
         rows({at("a.c", 10, 10)}),
         with_context(3),
         {{"a.c", 7, 13, {0}, "7 8 9 *10 11 12 13"}}},
        {"context 3 clamped at the top",
         rows({at("a.c", 2, 2)}),
         with_context(3),
         {{"a.c", 1, 5, {0}, "1 *2 3 4 5"}}},
        {"context 3 on line 1",
         rows({at("a.c", 1, 2)}),
         with_context(3),
         {{"a.c", 1, 5, {0}, "*1 *2 3 4 5"}}},
        {"context 3 clamped at the bottom",
         rows({at("a.c", 19, 20)}),
         with_context(3),
         {{"a.c", 16, 20, {0}, "16 17 18 *19 *20"}}},
        {"context 3 ending two lines before the end",
         rows({at("a.c", 16, 18)}),
         with_context(3),
         {{"a.c", 13, 20, {0}, "13 14 15 *16 *17 *18 19 20"}}},
        {"context 0", rows({at("a.c", 7, 8)}), with_context(0), {{"a.c", 7, 8, {0}, "*7 *8"}}},
        {"context 0 on the last line",
         rows({at("b.c", 10, 10)}),
         with_context(0),
         {{"b.c", 10, 10, {0}, "*10"}}},
        {"a range past the end of the file is clamped",
         rows({at("b.c", 8, 14)}),
         with_context(1),
         {{"b.c", 7, 10, {0}, "7 *8 *9 *10"}}},
    };
    for (const auto& c : cases) check_windows(kFiles, c);
}

TEST_CASE("windows: only SAME, MOVED, TOUCHED and NEW anchors get one", "[window]") {
    const std::vector<Case> cases = {
        {"GONE and UNRESOLVED with a location still get none; NEW in a file at target does",
         rows({at("a.c", 5, 5, Status::Gone), at("a.c", 10, 10, Status::Moved),
               at("b.c", 2, 2, Status::New), at("b.c", 5, 5, Status::Touched),
               at("a.c", 15, 15, Status::Unresolved), at("b.c", 8, 8, Status::Same)}),
         with_context(0),
         {{"a.c", 10, 10, {1}, "*10"},
          {"b.c", 2, 2, {2}, "*2"},
          {"b.c", 5, 5, {3}, "*5"},
          {"b.c", 8, 8, {5}, "*8"}}},
        {"only non-window statuses",
         rows({at("a.c", 5, 5, Status::Gone), at("a.c", 7, 7, Status::Unresolved)}),
         with_context(3),
         {}},
        {"no anchors", {}, with_context(3), {}},
    };
    for (const auto& c : cases) check_windows(kFiles, c);

    // A window status without a location has nothing to show.
    auto lost = at("a.c", 5, 5);
    lost.to.reset();
    CHECK(windows_of({lost}, from(kFiles), with_context(3)).empty());
}

TEST_CASE("windows: spans that overlap or touch merge, a gap keeps them apart", "[window]") {
    const std::vector<Case> cases = {
        {"overlapping spans",
         rows({at("a.c", 5, 6), at("a.c", 7, 9)}),
         with_context(1),
         {{"a.c", 4, 10, {0, 1}, "4 *5 *6 *7 *8 *9 10"}}},
        {"overlapping spans, later anchor first in the file",
         rows({at("a.c", 7, 9), at("a.c", 5, 6)}),
         with_context(1),
         {{"a.c", 4, 10, {0, 1}, "4 *5 *6 *7 *8 *9 10"}}},
        {"overlapping anchored ranges",
         rows({at("a.c", 5, 8), at("a.c", 7, 10)}),
         with_context(0),
         {{"a.c", 5, 10, {0, 1}, "*5 *6 *7 *8 *9 *10"}}},
        {"one range inside another",
         rows({at("a.c", 4, 12), at("a.c", 6, 7)}),
         with_context(1),
         {{"a.c", 3, 13, {0, 1}, "3 *4 *5 *6 *7 *8 *9 *10 *11 *12 13"}}},
        {"spans that touch: 4-6 and 7-9",
         rows({at("a.c", 5, 5), at("a.c", 8, 8)}),
         with_context(1),
         {{"a.c", 4, 9, {0, 1}, "4 *5 6 7 *8 9"}}},
        {"spans that touch, in reverse table order",
         rows({at("a.c", 8, 8), at("a.c", 5, 5)}),
         with_context(1),
         {{"a.c", 4, 9, {0, 1}, "4 *5 6 7 *8 9"}}},
        {"anchored ranges that touch with context 0",
         rows({at("a.c", 5, 6), at("a.c", 7, 7)}),
         with_context(0),
         {{"a.c", 5, 7, {0, 1}, "*5 *6 *7"}}},
        {"a gap of one line: 4-6 and 8-10",
         rows({at("a.c", 5, 5), at("a.c", 9, 9)}),
         with_context(1),
         {{"a.c", 4, 6, {0}, "4 *5 6"}, {"a.c", 8, 10, {1}, "8 *9 10"}}},
        {"a gap of one line with context 0",
         rows({at("a.c", 5, 5), at("a.c", 7, 7)}),
         with_context(0),
         {{"a.c", 5, 5, {0}, "*5"}, {"a.c", 7, 7, {1}, "*7"}}},
        {"a chain of three touching spans with one apart",
         rows({at("a.c", 2, 2), at("a.c", 8, 8), at("a.c", 5, 5), at("a.c", 12, 12)}),
         with_context(1),
         {{"a.c", 1, 9, {0, 1, 2}, "1 *2 3 4 *5 6 7 *8 9"}, {"a.c", 11, 13, {3}, "11 *12 13"}}},
        {"a long span swallows a later short one",
         rows({at("a.c", 3, 15), at("a.c", 6, 6), at("a.c", 18, 18)}),
         with_context(1),
         {{"a.c",
           2,
           19,
           {0, 1, 2},
           "2 *3 *4 *5 *6 *7 *8 *9 *10 *11 *12 *13 *14 *15 16 17 *18 19"}}},
    };
    for (const auto& c : cases) check_windows(kFiles, c);
}

TEST_CASE("windows: ordered by the first anchor each holds, across files", "[window]") {
    const std::vector<Case> cases = {
        {"file order differs from table order",
         rows({at("a.c", 15, 15), at("a.c", 3, 3), at("b.c", 2, 2)}),
         with_context(0),
         {{"a.c", 15, 15, {0}, "*15"}, {"a.c", 3, 3, {1}, "*3"}, {"b.c", 2, 2, {2}, "*2"}}},
        {"files interleaved in the table",
         rows({at("b.c", 4, 4), at("a.c", 2, 2), at("b.c", 1, 1)}),
         with_context(0),
         {{"b.c", 4, 4, {0}, "*4"}, {"a.c", 2, 2, {1}, "*2"}, {"b.c", 1, 1, {2}, "*1"}}},
        {"a merged window sorts by its first anchor",
         rows({at("b.c", 2, 2), at("a.c", 10, 10), at("a.c", 3, 3), at("a.c", 4, 4)}),
         with_context(0),
         {{"b.c", 2, 2, {0}, "*2"}, {"a.c", 10, 10, {1}, "*10"}, {"a.c", 3, 4, {2, 3}, "*3 *4"}}},
        {"same lines in different files never merge",
         rows({at("a.c", 5, 5), at("b.c", 5, 5), at("a.c", 6, 6)}),
         with_context(1),
         {{"a.c", 4, 7, {0, 2}, "4 *5 *6 7"}, {"b.c", 4, 6, {1}, "4 *5 6"}}},
    };
    for (const auto& c : cases) check_windows(kFiles, c);
}

TEST_CASE("windows: deleted lines show context around the gap and no anchored lines", "[window]") {
    const std::vector<Case> cases = {
        {"gap after line 5, context 2",
         rows({deleted_after("a.c", 5)}),
         with_context(2),
         {{"a.c", 4, 7, {0}, "4 5 6 7"}}},
        {"gap after line 5, context 3",
         rows({deleted_after("a.c", 5)}),
         with_context(3),
         {{"a.c", 3, 8, {0}, "3 4 5 6 7 8"}}},
        {"gap at the top (q = 0)",
         rows({deleted_after("a.c", 0)}),
         with_context(3),
         {{"a.c", 1, 3, {0}, "1 2 3"}}},
        {"gap after the last line (q = 20)",
         rows({deleted_after("a.c", 20)}),
         with_context(3),
         {{"a.c", 18, 20, {0}, "18 19 20"}}},
        {"gap with context 0: nothing to show",
         rows({deleted_after("a.c", 5)}),
         with_context(0),
         {{"a.c", 6, 5, {0}, ""}}},
        {"gap touching an anchor's span merges",
         rows({deleted_after("a.c", 5), at("a.c", 8, 8)}),
         with_context(1),
         {{"a.c", 5, 9, {0, 1}, "5 6 7 *8 9"}}},
        {"gap one line away from an anchor's span stays apart",
         rows({at("a.c", 2, 2), deleted_after("a.c", 5)}),
         with_context(1),
         {{"a.c", 1, 3, {0}, "1 *2 3"}, {"a.c", 5, 6, {1}, "5 6"}}},
        {"gap at q = 0 next to line 1",
         rows({deleted_after("b.c", 0), at("b.c", 1, 1)}),
         with_context(1),
         {{"b.c", 1, 2, {0, 1}, "*1 2"}}},
    };
    for (const auto& c : cases) check_windows(kFiles, c);
}

TEST_CASE("windows: at most max_anchored anchored lines, the rest named", "[window]") {
    const std::vector<Case> cases = {
        {"cap 5 on a 10-line range",
         rows({at("a.c", 3, 12)}),
         with_context(2, 5),
         {{"a.c", 1, 14, {0}, "1 2 *3 *4 *5 *6 *7", 8, 14}}},
        {"cap 5 on exactly 5 lines: nothing omitted",
         rows({at("a.c", 3, 7)}),
         with_context(1, 5),
         {{"a.c", 2, 8, {0}, "2 *3 *4 *5 *6 *7 8"}}},
        {"cap 5 on 6 lines",
         rows({at("a.c", 3, 8)}),
         with_context(1, 5),
         {{"a.c", 2, 9, {0}, "2 *3 *4 *5 *6 *7", 8, 9}}},
        {"cap 5 counted across a merged window",
         rows({at("a.c", 3, 5), at("a.c", 7, 9)}),
         with_context(1, 5),
         {{"a.c", 2, 10, {0, 1}, "2 *3 *4 *5 6 *7 *8", 9, 10}}},
        {"cap 5 per window, not per file",
         rows({at("a.c", 2, 5), at("a.c", 12, 15)}),
         with_context(1, 5),
         {{"a.c", 1, 6, {0}, "1 *2 *3 *4 *5 6"}, {"a.c", 11, 16, {1}, "11 *12 *13 *14 *15 16"}}},
    };
    for (const auto& c : cases) check_windows(kFiles, c);
}

TEST_CASE("windows: the default cap of 100 on a 150-line range", "[window]") {
    const Files files = {{"big.c", numbered(200)}};
    WindowOptions options;  // defaults: context 3, 100 anchored lines
    REQUIRE(options.max_anchored == 100);
    REQUIRE(options.context == 3);
    auto windows = windows_of(rows({at("big.c", 21, 170)}), from(files), options);
    REQUIRE(windows.size() == 1);
    const Window& w = windows[0];
    CHECK(w.first == 18);
    CHECK(w.last == 173);
    REQUIRE(w.lines.size() == 103);  // 3 lines of context, then 100 anchored lines
    std::size_t anchored = 0;
    for (std::size_t i = 0; i < w.lines.size(); ++i) {
        CHECK(w.lines[i].number == static_cast<LineNo>(18 + i));
        CHECK(w.lines[i].anchored == (i >= 3));
        anchored += w.lines[i].anchored;
    }
    CHECK(anchored == 100);
    CHECK(w.lines.back().number == 120);
    CHECK(w.lines.back().text == "L120");
    // The rest of the window: anchored lines 121-170 and the context after them.
    CHECK(w.omitted_from == 121);
    CHECK(w.omitted_to == 173);
    CHECK(w.omitted() == 53);
}

TEST_CASE("windows: long lines cut on a UTF-8 boundary", "[window]") {
    std::string e10;  // ten 'é', two bytes each
    for (int i = 0; i < 10; ++i) e10 += "\xC3\xA9";
    std::string euro3 = "\xE2\x82\xAC\xE2\x82\xAC\xE2\x82\xAC";  // three '€', three bytes each
    std::string smile2 = "\xF0\x9F\x98\x80\xF0\x9F\x98\x80";     // two 4-byte characters
    const Files files = {
        {"u.txt", e10 + "\n" + "abcdefghij\n" + "ab\n" + "abcde\n" + euro3 + "\n" + smile2 + "\n" +
                      "abcdefgh\r\n"},
    };
    struct Row {
        LineNo line;
        std::size_t limit;
        std::string text;
        std::size_t cut;
    };
    const std::vector<Row> table = {
        {1, 5, "\xC3\xA9\xC3\xA9", 16},       // odd limit: back off to a character start
        {1, 4, "\xC3\xA9\xC3\xA9", 16},       // even limit: on a boundary already
        {1, 1, "", 20},                       // not even one character fits
        {1, 20, e10, 0},                      // exactly the limit: not cut
        {1, 19, std::string(e10, 0, 18), 2},  // one byte short: the last character goes
        {2, 5, "abcde", 5},
        {3, 5, "ab", 0},
        {4, 5, "abcde", 0},
        {5, 5, "\xE2\x82\xAC", 6},
        {5, 6, "\xE2\x82\xAC\xE2\x82\xAC", 3},
        {5, 8, "\xE2\x82\xAC\xE2\x82\xAC", 3},
        {6, 7, "\xF0\x9F\x98\x80", 4},
        {6, 3, "", 8},
        {7, 3, "abc", 5},  // the '\r' is neither shown nor counted
        {7, 8, "abcdefgh", 0},
    };
    for (const auto& r : table) {
        INFO("line " << r.line << ", limit " << r.limit);
        WindowOptions options = with_context(0);
        options.max_line_bytes = r.limit;
        auto windows = windows_of(rows({at("u.txt", r.line, r.line)}), from(files), options);
        REQUIRE(windows.size() == 1);
        REQUIRE(windows[0].lines.size() == 1);
        CHECK(windows[0].lines[0].text == r.text);
        CHECK(windows[0].lines[0].cut_bytes == r.cut);
        CHECK(windows[0].lines[0].text.size() <= r.limit);
    }
}

TEST_CASE("cut_line: at most max bytes, never inside a UTF-8 sequence", "[window]") {
    struct Row {
        std::string line;
        std::size_t max;
        std::string kept;
        std::size_t cut;
    };
    const std::vector<Row> table = {
        {"", 0, "", 0},
        {"abc", 3, "abc", 0},
        {"abc", 10, "abc", 0},
        {"abcd", 3, "abc", 1},
        {"abc", 0, "", 3},
        {"a\xC3\xA9z", 2, "a", 3},  // 'é' at bytes 1-2 does not fit whole
        {"a\xC3\xA9z", 3, "a\xC3\xA9", 1},
        {"\xE2\x82\xAC!", 1, "", 4},
        {"\xE2\x82\xAC!", 2, "", 4},
        {"\xE2\x82\xAC!", 3, "\xE2\x82\xAC", 1},
        {"x\xF0\x9F\x98\x80y", 4, "x", 5},
        {"x\xF0\x9F\x98\x80y", 5, "x\xF0\x9F\x98\x80", 1},
    };
    for (const auto& r : table) {
        INFO("line of " << r.line.size() << " bytes, max " << r.max);
        std::string line = r.line;
        CHECK(cp::text::cut_line(line, r.max) == r.cut);
        CHECK(line == r.kept);
    }
}

TEST_CASE("windows: CRLF lines are shown without the carriage return", "[window]") {
    const Files files = {{"w.txt", "one\r\ntwo\r\nthree\r\nfour\r\n"}};
    auto windows = windows_of(rows({at("w.txt", 2, 3)}), from(files), with_context(1));
    REQUIRE(windows.size() == 1);
    CHECK(shown(windows[0]) == "1 *2 *3 4");
    std::vector<std::string> texts;
    for (const auto& l : windows[0].lines) texts.push_back(l.text);
    CHECK(texts == std::vector<std::string>{"one", "two", "three", "four"});
    for (const auto& l : windows[0].lines) CHECK(l.cut_bytes == 0);
}

TEST_CASE("windows: binary and missing files are unavailable, with no lines", "[window]") {
    const Files files = {
        {"bin.dat", std::string("ab\0cd\nxx\nyy\n", 12)},
        {"a.c", numbered(20)},
    };
    auto anchors = rows({at("bin.dat", 1, 1), at("a.c", 5, 5), at("gone.c", 2, 3),
                         at("bin.dat", 3, 3), at("gone.c", 9, 9)});
    auto windows = windows_of(anchors, from(files), with_context(1));
    REQUIRE(windows.size() == 3);

    // Every anchor in an unavailable file shares its one window.
    const Window& bin = windows[0];
    CHECK(bin.path == "bin.dat");
    CHECK(bin.anchors == std::vector<std::size_t>{0, 3});
    REQUIRE(bin.unavailable);
    CHECK(bin.unavailable->find("binary") != std::string::npos);
    CHECK(bin.lines.empty());

    CHECK(windows[1].path == "a.c");
    CHECK_FALSE(windows[1].unavailable);
    CHECK(shown(windows[1]) == "4 *5 6");

    const Window& gone = windows[2];
    CHECK(gone.path == "gone.c");
    CHECK(gone.anchors == std::vector<std::size_t>{2, 4});
    REQUIRE(gone.unavailable);
    CHECK(gone.unavailable->find("no readable file") != std::string::npos);
    CHECK(gone.lines.empty());

    // No lines shown means none left out past the cap either.
    CHECK(bin.omitted() == 0);
    CHECK(gone.omitted() == 0);
}

TEST_CASE("windows: with since, anchors not edited since get none", "[window]") {
    cptest::Repo repo;
    repo.write("a.c", numbered(20));
    repo.write("b.c", numbered(10));
    repo.write("c.c", numbered(10));
    repo.commit();
    auto opened = cp::git::Repository::open(repo.dir());
    REQUIRE(opened.ok());
    cp::Content content(opened.value());

    cp::Report report;
    cp::SpecReport spec;
    spec.target = cp::Target::working_tree();
    auto edited = [](AnchorResult a, std::optional<bool> since, const char* symbol) {
        a.edited_since = since;
        a.anchor.symbol = symbol;
        return a;
    };
    spec.anchors = rows({edited(at("a.c", 5, 5), false, "L5"), edited(at("b.c", 3, 3), true, "L3"),
                         edited(at("c.c", 7, 7), std::nullopt, "L7"),
                         edited(at("a.c", 15, 15), false, "L15")});
    report.specs.push_back(spec);

    cp::PackOptions options;
    options.window = with_context(0);
    auto added = cp::add_windows_and_callers(content, report, options);
    REQUIRE(added.ok());
    const auto& windows = report.specs[0].windows;
    REQUIRE(windows.size() == 2);
    // Indices are the anchors' positions in the spec's own table.
    CHECK(windows[0].path == "b.c");
    CHECK(windows[0].anchors == std::vector<std::size_t>{1});
    CHECK(shown(windows[0]) == "*3");
    CHECK(windows[1].path == "c.c");
    CHECK(windows[1].anchors == std::vector<std::size_t>{2});
    CHECK(shown(windows[1]) == "*7");

    // The untouched anchors' symbols get no caller list either.
    std::vector<std::string> symbols;
    for (const auto& c : report.specs[0].callers) symbols.push_back(c.symbol);
    CHECK(symbols == std::vector<std::string>{"L3", "L7"});
}

TEST_CASE("pack: caller lists are the same with the scan shared by a pool", "[window]") {
    // Enough files that the pool cuts them into many runs; hits everywhere, in nested
    // directories (the tree's walk order), a binary file, a file over the size limit, and in
    // the working tree an edited file and a deleted one. Scanned alone and by pools of 2 and
    // 5 threads, every caller list must match entry for entry.
    cptest::Repo repo;
    for (int i = 0; i < 400; ++i) {
        std::string dir = i % 3 == 0 ? "a/" : i % 3 == 1 ? "a/b/" : "c-d/";
        std::string text;
        for (int n = 0; n < 12; ++n)
            text += (n + i) % 5 == 0   ? "call(foo); /* " + std::to_string(n) + " */\n"
                    : (n + i) % 7 == 0 ? "bar_baz = foo + 1;\n"
                                       : "nothing " + std::to_string(n) + "\n";
        repo.write(dir + "f" + std::to_string(i) + ".c", text);
    }
    repo.write("blob.bin", std::string("foo\0bar_baz", 11));
    repo.write("huge.c", std::string(3000, 'y') + "\nfoo\n");
    repo.commit();
    repo.write("a/f0.c", "foo foo\nbar_baz\n");
    repo.remove("c-d/f2.c");

    auto opened = cp::git::Repository::open(repo.dir());
    REQUIRE(opened.ok());
    opened->set_max_file_bytes(2048);
    auto callers_with = [&](const std::string& target, unsigned jobs) {
        cp::Content content(opened.value());
        cp::Report report;
        cp::SpecReport spec;
        spec.target = target == "worktree" ? cp::Target::working_tree() : cp::Target::at(target);
        AnchorResult a = at("a/f3.c", 2, 2);
        a.anchor.symbol = "foo";
        AnchorResult b = at("a/b/f4.c", 1, 1);
        b.anchor.symbol = "bar_baz";
        spec.anchors = rows({a, b});
        report.specs.push_back(spec);
        cp::PackOptions options;
        options.max_callers = 1000;
        auto pool = cp::Pool::start(opened.value(), jobs);
        auto added = cp::add_windows_and_callers(content, report, options, pool.get());
        REQUIRE(added.ok());
        std::ostringstream out;
        for (const auto& c : report.specs[0].callers) {
            out << c.symbol << " total " << c.total << " in windows " << c.in_windows << " scanned "
                << c.files_scanned << "\n";
            for (const auto& h : c.hits) out << h.path << ":" << h.line << ": " << h.text << "\n";
            for (const auto& f : c.per_file) out << f.path << " " << f.count << "\n";
        }
        return out.str();
    };
    for (const std::string& target : {repo.head(), std::string("worktree")}) {
        INFO("target " << target);
        auto alone = callers_with(target, 1);
        std::istringstream first(alone);
        std::string symbol, word;
        std::size_t total = 0, in_windows = 0, scanned = 0;
        first >> symbol >> word >> total >> word >> word >> in_windows >> word >> scanned;
        CHECK(symbol == "foo");
        CHECK(total > 500);     // hits in most files
        CHECK(scanned >= 400);  // every file (a deleted one, the huge one aside) and the binary
        CHECK(callers_with(target, 2) == alone);
        CHECK(callers_with(target, 5) == alone);
    }
}

TEST_CASE("windows: a TOUCHED anchor's best lines are marked apart from the rest of it",
          "[window]") {
    const Files files = kFiles;
    std::vector<std::optional<cp::TargetLines>> anchors = {
        cp::TargetLines{"a.c", {5, 9}, cp::LineRange{7, 8}},
        cp::TargetLines{"a.c", {12, 12}, std::nullopt}};
    auto windows = cp::build_windows(anchors, from(files), with_context(1));
    REQUIRE(windows.size() == 1);
    std::string marks;
    for (const cp::WindowLine& l : windows[0].lines)
        marks += fmt::format("{}{}{} ", l.best ? "!" : "", l.anchored ? "*" : "", l.number);
    CHECK(marks == "4 *5 *6 !*7 !*8 *9 10 11 *12 13 ");
}
