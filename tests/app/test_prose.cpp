// --prose as a user runs it: mentions in a spec's text resolved like reads (a bare name for the
// one file that has it, UNRESOLVED with the candidates otherwise), and re-pinned in the text.
#include <nlohmann/json.hpp>

#include "support/catch.hpp"
#include "support/fixture.hpp"

using cptest::context_pack;
using cptest::numbered;
using cptest::q;
using cptest::Repo;
using nlohmann::json;

TEST_CASE("prose: mentions resolve as reads, by name when one base file has it") {
    Repo repo;
    repo.write("src/parser.c", numbered(10, "P"));
    repo.write("lib/util.c", numbered(10, "U"));
    repo.write("a/dup.c", "x\n");
    repo.write("b/dup.c", "y\n");
    const auto base = repo.commit("base");
    repo.write("src/parser.c", "// one\n// two\n" + numbered(10, "P"));
    repo.git("mv lib/util.c lib/strings.c");
    const auto target = repo.commit("drift");
    cptest::TempDir dir;
    const std::string plan = R"({"id": "p.r1", "base": ")" + base + R"(",
  "file_changes": [{"location": {"path": "src/parser.c", "line": 1},
    "change": "see parser.c:3-4, dup.c:1, nothere.c:2 and ./lib/util.c:5; parser.c:3-4 again"}],
  "notes": ["lib/util.c:5"]})";
    const auto path = dir.path() + "/plan.json";
    cptest::sh("cat > " + q(path), plan);

    auto plain = context_pack(repo.dir(), "--target " + target + " --table " + q(path));
    CHECK(plain.out.find("prose") == std::string::npos);  // only when asked

    auto o = context_pack(repo.dir(), "--prose --target " + target + " --format json " + q(path));
    INFO(o.err);
    CHECK(o.status == 1);
    const auto anchors = json::parse(o.out)["specs"][0]["anchors"];
    REQUIRE(anchors.size() == 5);  // the edit, then four distinct mentions
    CHECK(anchors[0]["mention"].is_null());
    CHECK(anchors[1]["label"] == "prose[0]");
    CHECK(anchors[1]["kind"] == "read");
    CHECK(anchors[1]["path"] == "src/parser.c");
    CHECK(anchors[1]["status"] == "MOVED");
    CHECK(anchors[1]["to"]["line"] == 5);
    CHECK(anchors[1]["mention"] ==
          json{{"field", "file_changes[0].change"}, {"text", "parser.c:3-4"}});
    CHECK(anchors[2]["status"] == "UNRESOLVED");
    CHECK(anchors[2]["reason"] ==
          "dup.c names 2 files at base: a/dup.c, b/dup.c; write its path in full");
    CHECK(anchors[3]["status"] == "UNRESOLVED");
    CHECK(anchors[3]["reason"] == "no file at base is nothere.c or ends in /nothere.c");
    CHECK(anchors[4]["path"] == "lib/util.c");
    CHECK(anchors[4]["renamed"] == true);
    CHECK(anchors[4]["mention"]["text"] == "./lib/util.c:5");

    auto table = context_pack(repo.dir(), "--prose --target " + target + " --table " + q(path));
    CHECK(table.out.find(" prose  src/parser.c:3-4") != std::string::npos);

    // Re-pinned in the text: numbers moved, a renamed file's path written anew, the rest kept.
    auto re = context_pack(repo.dir(), "--prose --repin --target " + target + " " + q(path));
    INFO(re.err);
    CHECK(re.status == 1);
    const auto revised = json::parse(re.out);
    CHECK(revised["file_changes"][0]["change"] ==
          "see parser.c:5-6, dup.c:1, nothere.c:2 and lib/strings.c:5; parser.c:5-6 again");
    CHECK(revised["notes"][0] == "lib/strings.c:5");
    CHECK(re.err.find("prose[1] stays where it was: UNRESOLVED: dup.c names 2 files") !=
          std::string::npos);
    CHECK(re.err.find("prose[2] stays where it was") != std::string::npos);

    // The revised plan at its own base: every mention re-pinned is SAME.
    const auto again = dir.path() + "/revised.json";
    cptest::sh("cat > " + q(again), re.out);
    auto check = context_pack(repo.dir(), "--prose --at-base --format json " + q(again));
    const auto at_base = json::parse(check.out)["specs"][0]["anchors"];
    REQUIRE(at_base.size() == 5);
    CHECK(at_base[1]["status"] == "SAME");
    CHECK(at_base[1]["path"] == "src/parser.c");
    CHECK(at_base[1]["line"] == 5);
    CHECK(at_base[4]["status"] == "SAME");
    CHECK(at_base[4]["path"] == "lib/strings.c");
}

TEST_CASE("bad input B81: a mention that names no one file is UNRESOLVED, look-alikes are none") {
    Repo repo;
    repo.write("a/dup.c", "x\n");
    repo.write("b/dup.c", "y\n");
    repo.write("one.c", numbered(3));
    const auto base = repo.commit("base");
    cptest::TempDir dir;
    const auto path = dir.path() + "/plan.json";
    cptest::sh(
        "cat > " + q(path),
        R"({"base": ")" + base +
            R"(", "reads": [{"location":
        {"path": "one.c", "line": 1}, "why": ")"
            R"(dup.c:1 nothere.c:2 one.c:9 http://h.io:8 localhost:8080 v1.2:3 12:30 /usr/x.h:1 one.c:2abc"}]})");
    auto o = context_pack(repo.dir(), "--prose --at-base --format json " + q(path));
    CHECK(o.status == 1);
    const auto anchors = json::parse(o.out)["specs"][0]["anchors"];
    REQUIRE(anchors.size() == 4);  // the read, then dup.c, nothere.c and one.c:9 only
    CHECK(anchors[1]["reason"] ==
          "dup.c names 2 files at base: a/dup.c, b/dup.c; write its path in full");
    CHECK(anchors[2]["reason"] == "no file at base is nothere.c or ends in /nothere.c");
    for (std::size_t i = 1; i < 4; ++i) CHECK(anchors[i]["status"] == "UNRESOLVED");
    CHECK(anchors[3]["reason"].get<std::string>().find("past the end of the file") !=
          std::string::npos);
}

TEST_CASE("bad input B82: more prose mentions than one spec may hold is refused, not cut") {
    Repo repo;
    repo.write("a.c", numbered(3));
    const auto base = repo.commit("base");
    std::string why;
    for (int i = 1; i <= 10002; ++i) why += "a.c:" + std::to_string(i) + " ";
    const std::string long_key(100000, 'k');
    cptest::TempDir dir;
    const auto path = dir.path() + "/plan.json";
    cptest::sh("cat > " + q(path), json{{"base", base},
                                        {"reads", {{{"location", {{"path", "a.c"}, {"line", 1}}}}}},
                                        {long_key, why}}
                                       .dump());
    auto o = context_pack(repo.dir(), "--prose --at-base --table " + q(path));
    CHECK(o.status == 2);
    CHECK(o.out.empty());
    CHECK(o.err.find(": --prose takes at most 10000 distinct path:line mentions from a spec's "
                     "text, and it holds 2 more; cite fewer in one spec, or drop --prose\n") !=
          std::string::npos);
    // Without --prose the same spec is a plain one.
    CHECK(context_pack(repo.dir(), "--target HEAD --table " + q(path)).status == 0);
}
