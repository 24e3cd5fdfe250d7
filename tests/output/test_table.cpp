// The status table on a terminal: a row that would run past the terminal's width gives its
// note a line of its own beneath, wrapped to the width; elsewhere (a file, a pipe: width 0)
// every row is one line, as before.
#include <sstream>

#include "context_pack/output/table.hpp"
#include "support/catch.hpp"
#include "support/fixture.hpp"
#include "support/git_diff.hpp"

namespace {

cp::SpecReport two_rows(const std::string& long_note) {
    cp::SpecReport r;
    r.source = "plan.json";
    r.base_rev = "main";
    r.base = "1111111111111111111111111111111111111111";
    r.target = cp::Target::at("2222222222222222222222222222222222222222");
    for (const char* note : {"", "x"}) {
        cp::AnchorResult a;
        a.anchor.path = "src/a.c";
        a.anchor.line = 4;
        a.status = cp::Status::Gone;
        a.row = r.anchors.size() + 1;
        if (*note) a.reason = long_note;
        r.anchors.push_back(a);
    }
    return r;
}

}  // namespace

TEST_CASE("table: a note past a terminal's width goes beneath its row, wrapped") {
    std::string note = "src/a.c deleted at target";
    for (int i = 0; i < 12; ++i) note += " and a word or two more";
    const auto spec = two_rows(note);

    std::ostringstream whole;
    CHECK(cp::print_spec_table(whole, spec, false) == 4);  // header, head, two rows
    const auto one_line = cptest::split_lines(whole.str());
    REQUIRE(one_line.size() == 4);
    CHECK(one_line[3].ends_with(note));

    std::ostringstream narrow;
    const std::size_t printed = cp::print_spec_table(narrow, spec, false, std::size_t(-1), 60);
    const auto lines = cptest::split_lines(narrow.str());
    CHECK(printed == lines.size());
    REQUIRE(lines.size() > 5);
    // The rows (but the spec's header line) within the width; the note's words all there, in
    // order, on indented lines beneath the second row; the first row, which has no note, alone.
    for (std::size_t i = 1; i < lines.size(); ++i) {
        INFO(lines[i]);
        CHECK(lines[i].size() <= 60);
    }
    CHECK(lines[2] == one_line[2]);
    CHECK(lines[3].find("deleted") == std::string::npos);
    std::string joined;
    for (std::size_t i = 4; i < lines.size(); ++i) {
        CHECK(lines[i].starts_with("   "));
        joined += (joined.empty() ? "" : " ") + lines[i].substr(lines[i].find_first_not_of(' '));
    }
    CHECK(joined == note);
    // Wide enough: as without a width.
    std::ostringstream wide;
    cp::print_spec_table(wide, spec, false, std::size_t(-1), 1000);
    CHECK(wide.str() == whole.str());
}

TEST_CASE("table: the command line fits the terminal it prints on, not a pipe") {
    cptest::Repo repo;
    repo.write("a.c", cptest::numbered(10));
    const std::string base = repo.commit();
    repo.remove("a.c");
    const std::string run =
        cptest::q(cptest::binary()) + " --table --color never --base " + base + " --anchor a.c:2-4";
    auto piped = cptest::sh("cd " + cptest::q(repo.dir()) + " && " + run);
    const auto row = cptest::split_lines(piped.out).back();
    REQUIRE(row.size() > 70);  // the GONE note makes the row long
    // A terminal of 70 columns.
    auto on_terminal =
        cptest::sh_on_terminal("cd " + cptest::q(repo.dir()) + " && stty cols 70 && " + run);
    INFO(on_terminal.out);
    std::size_t longest = 0;
    for (auto line : cptest::split_lines(on_terminal.out)) {
        if (!line.empty() && line.back() == '\r') line.pop_back();
        if (line.find("anchor:") == std::string::npos) longest = std::max(longest, line.size());
    }
    CHECK(longest <= 70);
    CHECK(on_terminal.out.find("deleted at target") != std::string::npos);
}
