// Re-expansion: --since REV marks exactly the anchors whose lines an edit after REV touched
// (a hunk overlapping their range as it stood at REV, or their file renamed or deleted since)
// and shows windows and callers for those alone.
#include <nlohmann/json.hpp>

#include "support/catch.hpp"
#include "support/fixture.hpp"

using nlohmann::json;

TEST_CASE("since: exactly the anchors whose lines changed get windows") {
    cptest::Repo repo;
    repo.write("a.c", cptest::numbered(40));
    repo.write("b.c", cptest::numbered(10, "b"));
    repo.write("c.c", cptest::numbered(10, "c"));
    repo.write("d.c", cptest::numbered(10, "d"));
    auto base = repo.commit();
    // Work done before the implementer started: shifts a.c, edits inside anchor 3.
    repo.write("a.c", "head\n" + cptest::numbered(40));
    auto start = repo.commit();
    // The implementer's edits since `start`, uncommitted.
    auto a = repo.read("a.c");
    a.replace(a.find("L21\n"), 4, "L21 edited\n");  // inside anchor 2 (a.c:20-22)
    a.replace(a.find("L35\n"), 4, "L35 edited\n");  // between anchors: touches none
    repo.write("a.c", a);
    repo.git("mv b.c b2.c");                                 // anchor 4's file renamed
    repo.remove("c.c");                                      // anchor 5's file deleted
    repo.write("d.c", "top\n" + cptest::numbered(10, "d"));  // anchor 6 only shifted

    std::string anchors;
    for (const char* a2 :
         {"a.c:2-4@L3", "a.c:20-22@L21", "a.c:30-33", "b.c:2", "c.c:2", "d.c:5-6", "new.c:1"})
        anchors += std::string(" --anchor ") + a2;
    auto o = cptest::context_pack(repo.dir(),
                                  "--format json --since " + start + " --base " + base + anchors);
    INFO(o.err);
    REQUIRE((o.status == 0 || o.status == 1));
    json spec = json::parse(o.out)["specs"][0];
    CHECK(spec["since"] == start);
    const std::vector<bool> expected = {false, true, false, true, true, false, false};
    REQUIRE(spec["anchors"].size() == expected.size());
    for (std::size_t i = 0; i < expected.size(); ++i) {
        const json& anchor = spec["anchors"][i];
        INFO(anchor["path"] << ":" << anchor["line"]);
        CHECK(anchor["edited_since"] == expected[i]);
        bool windowed = !anchor["window"].is_null();
        bool resolved = anchor["status"] != "GONE" && anchor["status"] != "NEW";
        CHECK(windowed == (expected[i] && resolved));
    }
    // Callers only for the symbols of edited anchors.
    REQUIRE(spec["callers"].size() == 1);
    CHECK(spec["callers"][0]["symbol"] == "L21");

    auto text = cptest::context_pack(repo.dir(), "--since " + start + " --base " + base + anchors);
    CHECK(text.out.find("== a.c:") != std::string::npos);
    CHECK(text.out.find("#2 --anchor[1]") != std::string::npos);
    CHECK(text.out.find("#1 --anchor[0]") == std::string::npos);
    CHECK(text.out.find("#3 --anchor[2]") == std::string::npos);
}

TEST_CASE("since: nothing changed says so in one line") {
    cptest::Repo repo;
    repo.write("a.c", cptest::numbered(10));
    auto base = repo.commit();
    auto o =
        cptest::context_pack(repo.dir(), "--since HEAD --base " + base + " --anchor a.c:2-3@L2");
    CHECK(o.status == 0);
    CHECK(o.out.find("No anchor's lines changed since " + base.substr(0, 10) +
                     ": nothing to re-expand.\n") != std::string::npos);
    CHECK(o.out.find("== ") == std::string::npos);
}

TEST_CASE("since: a revision that is no commit is a usage error") {
    cptest::Repo repo;
    repo.write("a.c", "x\n");
    auto base = repo.commit();
    auto o = cptest::context_pack(repo.dir(), "--since nope --base " + base + " --anchor a.c:1");
    CHECK(o.status == 2);
    CHECK(o.err ==
          "context-pack: --since nope not in this repository; if it is on the remote, fetch it "
          "(git fetch origin) or give its full commit id\n");
}
