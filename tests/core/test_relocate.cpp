// Beyond the diff (SPEC §4a): lines the diff lost are found by content, with how sure the
// answer is, and never guessed. Pure helpers first, then fixture histories.
#include <nlohmann/json.hpp>
#include <random>

#include "context_pack/core/relocate.hpp"
#include "support/catch.hpp"
#include "support/fixture.hpp"

using nlohmann::json;

namespace {

std::vector<std::string_view> lines(const std::vector<std::string>& v) {
    return {v.begin(), v.end()};
}

// A function of `n` distinctive lines named `name`, indented by `indent`.
std::string function(const std::string& name, int n, const std::string& indent = "") {
    std::string out = indent + "int " + name + "(int value) {\n";
    for (int i = 1; i <= n; ++i)
        out += indent + "    value = value * " + std::to_string(i + 1) + " + " + name + "_step;\n";
    return out + indent + "}\n";
}

std::string filler(int n, const std::string& tag) {
    std::string out;
    for (int i = 1; i <= n; ++i) out += "// " + tag + " filler line " + std::to_string(i) + "\n";
    return out;
}

json run(const cptest::Repo& repo, const std::string& base, const std::string& anchors) {
    auto o = cptest::context_pack(repo.dir(),
                                  "--format json --target HEAD --base " + base + " " + anchors);
    INFO(o.err);
    REQUIRE((o.status == 0 || o.status == 1));
    return json::parse(o.out)["specs"][0];
}

}  // namespace

TEST_CASE("relocate: find_block finds exact, then whitespace-insensitive, all occurrences") {
    std::vector<std::string> hay = {"a",         "int f() {",   "  return 1;", "}", "b",
                                    "int f() {", "  return 1;", "}",           "c"};
    std::vector<std::string> needle = {"int f() {", "  return 1;", "}"};
    auto m = cp::find_block(cp::Haystack(lines(hay)), lines(needle));
    REQUIRE(m.size() == 2);
    CHECK(m[0].line == 2);
    CHECK(m[1].line == 6);
    CHECK_FALSE(m[0].whitespace);
    std::vector<std::string> reindented = {"x", "    int f()  {", "\t\treturn 1;", "    }"};
    auto w = cp::find_block(cp::Haystack(lines(reindented)), lines(needle));
    REQUIRE(w.size() == 1);
    CHECK(w[0].line == 2);
    CHECK(w[0].whitespace);
    std::vector<std::string> other = {"int f() {", "  return 2;", "}"};
    CHECK(cp::find_block(cp::Haystack(lines(other)), lines(needle)).empty());
    CHECK(cp::find_block(cp::Haystack(lines(needle)), lines(hay))
              .empty());  // longer than the haystack
}

TEST_CASE("relocate: margins and the core of a block") {
    CHECK(cp::is_margin(""));
    CHECK(cp::is_margin("  });"));
    CHECK(cp::is_margin("\t{"));
    CHECK_FALSE(cp::is_margin("} else {"));
    CHECK_FALSE(cp::is_margin("x;"));
    CHECK(cp::core_of(lines({"", "int f() {", "  return 1;", "}", ""})) ==
          std::pair<std::size_t, std::size_t>{1, 3});
    auto none = cp::core_of(lines({"", "}", ""}));
    CHECK(none.first == none.second);
}

TEST_CASE("relocate: a line's shape makes every name one marker") {
    CHECK(cp::shape_of("w = w * 2;") == cp::shape_of("  count = count*2;"));
    CHECK(cp::shape_of("w = w * 2;") != cp::shape_of("w = w * 3;"));  // numbers are kept
    CHECK(cp::shape_of("x = 0x1f;") == cp::shape_of("y = 0x1f;"));
    CHECK(cp::shape_of("f(a, b)") != cp::shape_of("f(a)"));
}

TEST_CASE("relocate: line hashes agree with the squeezed lines and shapes they stand for") {
    const std::vector<std::string> samples = {
        "int x = 1;", "  int  x =\t1; ", "int x = 2;", "int y = 1;", "",         "   ",
        "f(a, b);",   "f(a,b);",         "f(a, b) ;",  "0x1f + n2",  "0x1f + m2"};
    CHECK(cp::squeeze("  int  x =\t1; ") == "int x = 1;");
    std::vector<std::string> squeezed;
    for (const std::string& s : samples) squeezed.push_back(cp::squeeze(s));
    for (std::size_t i = 0; i < samples.size(); ++i) {
        const cp::LineHashes hi = cp::line_hashes(samples[i]);
        CHECK(hi.shape_bytes == cp::shape_of(samples[i]).size());
        for (std::size_t j = 0; j < samples.size(); ++j) {
            INFO(samples[i] << " | " << samples[j]);
            const cp::LineHashes hj = cp::line_hashes(samples[j]);
            CHECK((hi.squeezed == hj.squeezed) == (squeezed[i] == squeezed[j]));
            CHECK((hi.shape == hj.shape) == (cp::shape_of(samples[i]) == cp::shape_of(samples[j])));
        }
    }
}

TEST_CASE("relocate: line hashes agree with squeezed lines and shapes on random short lines") {
    // A small alphabet and short lines, so that many lines share a squeezed form or a shape
    // and each pair's agreement is tested both ways.
    const std::string alphabet = "aZ_19 \t(;\x80";
    std::mt19937 rng(7);
    std::vector<std::string> lines;
    for (int i = 0; i < 600; ++i) {
        std::string line(rng() % 7, ' ');
        for (char& c : line) c = alphabet[rng() % alphabet.size()];
        lines.push_back(line);
    }
    std::size_t same_squeezed = 0, same_shape = 0;
    for (std::size_t i = 0; i < lines.size(); ++i) {
        const cp::LineHashes hi = cp::line_hashes(lines[i]);
        REQUIRE(hi.shape_bytes == cp::shape_of(lines[i]).size());
        for (std::size_t j = i + 1; j < lines.size(); ++j) {
            INFO("'" << lines[i] << "' | '" << lines[j] << "'");
            const cp::LineHashes hj = cp::line_hashes(lines[j]);
            const bool squeezed = cp::squeeze(lines[i]) == cp::squeeze(lines[j]);
            const bool shape = cp::shape_of(lines[i]) == cp::shape_of(lines[j]);
            same_squeezed += squeezed;
            same_shape += shape;
            REQUIRE((hi.squeezed == hj.squeezed) == squeezed);
            REQUIRE((hi.shape == hj.shape) == shape);
        }
    }
    CHECK(same_squeezed > 100);  // the pairs that share a form were many
    CHECK(same_shape > same_squeezed);
}

TEST_CASE("relocate: a line filter holds every telling line and long shape of its file") {
    std::string text;
    std::vector<std::string> held;
    for (int i = 0; i < 3000; ++i) {
        held.push_back("    total_" + std::to_string(i) + " += weigh(item, " + std::to_string(i) +
                       ");");
        text += held.back() + (i % 7 == 0 ? "\n}\n" : "\n");
    }
    const cp::LineFilter filter(text);
    for (const std::string& line : held) {
        const cp::LineHashes h = cp::line_hashes(line);
        REQUIRE(filter.may_hold_line(h.squeezed));
        REQUIRE(filter.may_hold_line(cp::line_hashes("  " + line + "\t").squeezed));
        REQUIRE(filter.may_hold_shape(h.shape));
    }
    // a rename keeps the shape, not the line
    CHECK(filter.may_hold_shape(cp::line_hashes("n += w(x, 5);").shape));
    // Lines it does not hold are only rarely said to be there: the filter is a filter.
    std::size_t said = 0;
    const int asked = 20000;
    for (int i = 0; i < asked; ++i) {
        const cp::LineHashes h =
            cp::line_hashes("total_" + std::to_string(i) + " -= other(" + std::to_string(i) + ");");
        said += filter.may_hold_line(h.squeezed);
        said += filter.may_hold_shape(h.shape);
    }
    CHECK(said < std::size_t(asked) * 2 / 200);  // under half a percent
    CHECK(filter.bytes() <= 3000 * 2 * 40 / 8);  // at most 40 bits a line and shape
}

TEST_CASE("relocate: find_similar_block weighs equal, renamed and edited lines") {
    std::vector<std::string> block = {"int width(const char *s) {",
                                      "    int n = 0;",
                                      "    n += glyph(s[0], 1);",
                                      "    n += glyph(s[1], 2);",
                                      "    n += glyph(s[2], 3);",
                                      "    trace(\"width\");",
                                      "    return n;",
                                      "}"};
    auto moved = [&](const std::string& from, const std::string& to) {
        std::vector<std::string> out = {"// above", "int unrelated = 1;"};
        for (std::string l : block) {
            for (std::size_t at = l.find(from); at != std::string::npos;
                 at = l.find(from, at + to.size()))
                l.replace(at, from.size(), to);
            out.push_back(l);
        }
        out.push_back("// below");
        return out;
    };
    SECTION("a parameter renamed everywhere it is used: those lines count as equal") {
        auto hay = moved("s[", "text[");
        hay[2] = "int width(const char *text) {";
        auto m = cp::find_similar_block(cp::Haystack(lines(hay)), lines(block));
        REQUIRE(m.size() == 1);
        CHECK(m[0].line == 3);
        CHECK(m[0].end_line == 9);  // the core: the closing brace is a margin
        CHECK(m[0].equal == 3);
        CHECK(m[0].renamed == 4);
        CHECK(m[0].score == Approx((3 + 4 * cp::kRenamedLine) / 7));
    }
    SECTION("one line edited counts a half") {
        auto hay = moved("glyph(s[1], 2)", "glyph(s[1], tab_width)");
        auto m = cp::find_similar_block(cp::Haystack(lines(hay)), lines(block));
        REQUIRE(m.size() == 1);
        CHECK(m[0].equal == 6);
        CHECK(m[0].edited == 1);
        CHECK(m[0].score == Approx(6.5 / 7));
    }
    SECTION("names renamed two ways are not a rename") {
        auto hay = moved("s[", "text[");
        hay[5] = "    n += glyph(str[1], 2);";  // s became text and str
        auto m = cp::find_similar_block(cp::Haystack(lines(hay)), lines(block));
        REQUIRE(m.size() == 1);
        CHECK(m[0].renamed < 3);
        CHECK(m[0].score < 1.0);
    }
    SECTION("nothing like it: no place") {
        std::vector<std::string> hay = {"alpha beta gamma", "delta epsilon", "zeta eta theta"};
        CHECK(cp::find_similar_block(cp::Haystack(lines(hay)), lines(block)).empty());
    }
}

TEST_CASE("relocate: a header of one shape just above does not take the block's own header") {
    // A function of platform branches, its local renamed on the way, pasted after another
    // function whose header reads as one shape with its own (`void f(void)`, `int g(void)`):
    // the alignment must pair its header with its own header, equal, not with the other.
    std::vector<std::string> block = {"int count_units(void)", "{",      "#ifdef HAVE_UNIT_COUNT",
                                      "\tlong units;",         "#endif", ""};
    for (int k = 0; k < 4; ++k) {
        const std::string n = std::to_string(k);
        block.insert(block.end(), {"#ifdef PLATFORM_" + n, "\tstruct probe_" + n + " p" + n + ";",
                                   "\tif (probe_" + n + "(&p" + n + ") > 0)",
                                   "\t\treturn (int)p" + n + ".count;", "#endif", ""});
    }
    block.insert(block.end(), {"#ifdef HAVE_UNIT_COUNT", "\tif ((units = (long)query_units()) > 0)",
                               "\t\treturn (int)units;", "#endif", "", "\treturn 1;", "}"});
    std::vector<std::string> hay = {"static struct table units_table = {",
                                    "\t\"units\",",
                                    "};",
                                    "",
                                    "void init_units_table(void)",
                                    "{",
                                    "\tregister_table(&units_table);",
                                    "}",
                                    ""};
    for (std::string l : block) {
        for (std::string from : {"units;", "(units =", "(int)units;"})
            if (auto at = l.find(from); at != std::string::npos)
                l.insert(at + from.find("units") + 5, "_v2");
        hay.push_back(l);
    }
    auto m = cp::find_similar_block(cp::Haystack(lines(hay)), lines(block));
    REQUIRE(m.size() == 1);
    CHECK(m[0].line == 10);
    CHECK(m[0].end_line == 45);
    CHECK(m[0].renamed == 3);
    CHECK(m[0].edited == 0);
}

TEST_CASE("relocate: only distinctive blocks are relocated") {
    CHECK_FALSE(cp::distinctive(lines({"}"})));
    CHECK_FALSE(cp::distinctive(lines({"", "  }", "return;"})));
    CHECK(cp::distinctive(lines({"int parse_args(int argc) {", "}"})));
    CHECK_FALSE(cp::distinctive(lines({"abcdefg", "hijklmn", "opq"})));  // no line of 8
}

TEST_CASE("relocate: a function moved down its file is MOVED by content") {
    cptest::Repo repo;
    repo.write("a.c", filler(5, "top") + function("mover", 6) + filler(20, "mid"));
    auto base = repo.commit();
    repo.write("a.c", filler(5, "top") + filler(20, "mid") + function("mover", 6));
    repo.commit();
    auto spec = run(repo, base, "--anchor a.c:6-13@mover");
    const json& a = spec["anchors"][0];
    CHECK(a["status"] == "MOVED");
    CHECK(a["by"] == "content");
    CHECK(a["whitespace"] == false);
    CHECK(a["to"] == json{{"path", "a.c"}, {"line", 26}, {"end_line", 33}});
    CHECK(a["diff"]["lines_deleted"] == true);  // the diff's own answer stays available
    CHECK(a["symbol_found"] == true);
    CHECK(a["window"] == 0);
    CHECK(spec["windows"][0]["line"] == 23);
}

TEST_CASE("relocate: moved into another file is MOVED there, the diff's answer kept") {
    cptest::Repo repo;
    repo.write("a.c", filler(5, "a") + function("traveller", 5) + filler(5, "a2"));
    repo.write("b.c", filler(8, "b"));
    auto base = repo.commit();
    repo.write("a.c", filler(5, "a") + filler(5, "a2"));
    repo.write("b.c", filler(8, "b") + function("traveller", 5));
    repo.commit();
    const json a = run(repo, base, "--anchor a.c:6-12@traveller")["anchors"][0];
    INFO(a.dump());
    CHECK(a["status"] == "MOVED");
    CHECK(a["by"] == "content");
    CHECK(a["to"] == json{{"path", "b.c"}, {"line", 9}, {"end_line", 15}});
    CHECK(a["symbol_found"] == true);  // looked for in b.c, where the lines are
    CHECK(a["diff"]["to"] == json{{"path", "a.c"}, {"line", 6}, {"end_line", 5}});
    CHECK(a["diff"]["lines_deleted"] == true);
    CHECK(a["found_at"].is_null());
    CHECK_FALSE(a["window"].is_null());  // the window shows where its lines are now
}

TEST_CASE("relocate: moved and reindented is found, marked whitespace") {
    cptest::Repo repo;
    repo.write("a.c", function("nested", 4) + filler(12, "x"));
    auto base = repo.commit();
    repo.write("a.c", filler(12, "x") + "namespace n {\n" + function("nested", 4, "    ") + "}\n");
    repo.commit();
    const json a = run(repo, base, "--anchor a.c:1-6")["anchors"][0];
    CHECK(a["status"] == "MOVED");
    CHECK(a["by"] == "content");
    CHECK(a["whitespace"] == true);
    CHECK(a["to"]["line"] == 14);
}

TEST_CASE("relocate: a file split in two, its deleted file's blocks found in the new ones") {
    cptest::Repo repo;
    repo.write("all.c", function("first", 5) + function("second", 5));
    auto base = repo.commit();
    repo.remove("all.c");
    repo.write("one.c", "// one\n" + function("first", 5));
    repo.write("two.c", "// two\n" + function("second", 5));
    repo.commit();
    auto spec = run(repo, base, "--anchor all.c:1-7 --anchor all.c:8-14");
    // git pairs all.c with two.c as a rename: the second function maps by the diff, and the
    // first, replaced there by one comment line, is found in one.c and taken.
    const json& first = spec["anchors"][0];
    INFO(first.dump());
    CHECK(first["status"] == "MOVED");
    CHECK(first["by"] == "content");
    CHECK(first["to"] == json{{"path", "one.c"}, {"line", 2}, {"end_line", 8}});
    // What the union rule kept: the comment line that took its place in two.c.
    CHECK(first["diff"]["to"] == json{{"path", "two.c"}, {"line", 1}, {"end_line", 1}});
    CHECK(first["found_at"].is_null());
    CHECK(spec["windows"][0]["path"] == "one.c");
    const json& second = spec["anchors"][1];
    CHECK(second["status"] == "MOVED");
    CHECK(second["to"] == json{{"path", "two.c"}, {"line", 2}, {"end_line", 8}});
    CHECK(second["found_at"].is_null());
}

TEST_CASE("relocate: a deleted file's block is found in a new file too unlike it to be a rename") {
    cptest::Repo repo;
    repo.write("old.c", function("keeper", 5) + filler(30, "old"));
    auto base = repo.commit();
    repo.remove("old.c");
    repo.write("fresh.c", filler(40, "fresh") + function("keeper", 5));
    repo.commit();
    const json a = run(repo, base, "--anchor old.c:1-7@keeper")["anchors"][0];
    INFO(a.dump());
    CHECK(a["status"] == "MOVED");
    CHECK(a["by"] == "content");
    CHECK(a["to"] == json{{"path", "fresh.c"}, {"line", 41}, {"end_line", 47}});
    CHECK(a["symbol_found"] == true);
    CHECK(a["diff"]["to"].is_null());  // the diff deleted its file
    CHECK(a["followed"].empty());      // no rename on the way: found by content alone
    CHECK(a["window"] == 0);
}

TEST_CASE("relocate: a duplicated block is ambiguous and listed, never picked") {
    cptest::Repo repo;
    repo.write("a.c", filler(3, "a") + function("twin", 4) + filler(10, "b"));
    auto base = repo.commit();
    repo.write("a.c", filler(10, "b") + function("twin", 4) + filler(2, "c") + function("twin", 4));
    repo.commit();
    const json a = run(repo, base, "--anchor a.c:4-9")["anchors"][0];
    CHECK(a["by"].is_null());
    CHECK(a["found_at"].is_null());
    CHECK(a["candidates_total"] == 2);
    CHECK(a["candidates"].size() == 2);
    CHECK(a["candidates"][0]["line"] == 11);
    CHECK(a["candidates"][1]["line"] == 19);
}

TEST_CASE("relocate: a rewritten region names the anchor's best lines and a line map") {
    cptest::Repo repo;
    repo.write("a.c", filler(4, "top") + function("kept", 4) + filler(4, "bottom"));
    auto base = repo.commit();
    // Its first line gives way to six new lines and an edited signature: one hunk, inside.
    auto text = repo.read("a.c");
    auto sig = std::string("int kept(int value) {\n");
    text.replace(text.find(sig), sig.size(),
                 filler(6, "inserted") + "int kept(int value) {  /* edited */\n");
    repo.write("a.c", text);
    repo.commit();
    const json a = run(repo, base, "--anchor a.c:5-10")["anchors"][0];
    INFO(a.dump());
    REQUIRE(a["status"] == "TOUCHED");
    REQUIRE(a["to"] == json{{"path", "a.c"}, {"line", 5}, {"end_line", 16}});
    REQUIRE_FALSE(a["best"].is_null());
    CHECK(a["best"] == json{{"path", "a.c"},
                            {"line", 11},
                            {"end_line", 16},
                            {"score", a["best"]["score"]},
                            {"tier", "edited"}});
    CHECK(a["best"]["score"].get<double>() > 0.8);
    CHECK(a["best"]["score"].get<double>() < 1.0);
    // One entry a base line: the edited signature, then the kept lines below it.
    REQUIRE(a["line_map"].size() == 6);
    CHECK(a["line_map"][0]["base"] == 5);
    CHECK(a["line_map"][0]["target"] == 11);
    CHECK(a["line_map"][0]["tier"] == "edited");
    for (int i = 1; i < 6; ++i) {
        CHECK(a["line_map"][i]["base"] == 5 + i);
        CHECK(a["line_map"][i]["target"] == 11 + i);
        CHECK(a["line_map"][i]["score"] == 1.0);
        CHECK(a["line_map"][i]["tier"] == "exact");
    }
}

TEST_CASE("relocate: a deleted block that exists nowhere stays lost, with no pointer") {
    cptest::Repo repo;
    repo.write("a.c", filler(3, "a") + function("vanished", 4) + filler(3, "b"));
    repo.write("other.c", filler(3, "o"));
    auto base = repo.commit();
    repo.write("a.c", filler(3, "a") + filler(3, "b"));
    repo.write("other.c", filler(4, "o"));
    repo.commit();
    const json a = run(repo, base, "--anchor a.c:4-9")["anchors"][0];
    CHECK(a["status"] == "TOUCHED");
    CHECK(a["lines_deleted"] == true);
    CHECK(a["by"].is_null());
    CHECK(a["found_at"].is_null());
    CHECK(a["candidates"].empty());
}

TEST_CASE("relocate: short generic blocks are never relocated") {
    cptest::Repo repo;
    repo.write("a.c", "x\n}\ny\n" + filler(5, "z"));
    auto base = repo.commit();
    repo.write("a.c", "x\ny\n" + filler(5, "z") + "}\n");
    repo.commit();
    const json a = run(repo, base, "--anchor a.c:2")["anchors"][0];
    CHECK(a["lines_deleted"] == true);
    CHECK(a["by"].is_null());
}
