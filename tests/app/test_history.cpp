// --history through the binary: the JSON's history (newest first, capped at 20 with the cut
// named, the working tree last, null without lines at the target), the table's column, the
// window header's newest commits with subjects escaped, the MCP argument, and nothing of it
// without --history.
#include <nlohmann/json.hpp>
#include <string>

#include "support/catch.hpp"
#include "support/fixture.hpp"

using nlohmann::json;

namespace {

struct History {
    cptest::Repo repo;
    std::string base;
    std::vector<std::string> commits;  // oldest first
};

// a.c's line 3 edited by 23 commits after base, one of them with an escape in its subject;
// gone.c deleted; line 3 edited again in the working tree.
void build(History& h) {
    auto& repo = h.repo;
    repo.write("a.c", cptest::numbered(10));
    repo.write("gone.c", "x\n");
    h.base = repo.commit("base");
    std::string text = cptest::numbered(10);
    for (int i = 0; i < 23; ++i) {
        text.replace(text.find("L3"), text.find('\n', text.find("L3")) - text.find("L3"),
                     "L3 v" + std::to_string(i));
        repo.write("a.c", text);
        h.commits.push_back(
            repo.commit(i == 22 ? "edit \x1b[31mred\x1b[0m" : "edit " + std::to_string(i)));
    }
    repo.remove("gone.c");
    h.commits.push_back(repo.commit("delete gone.c"));
    text.replace(text.find("L9"), 2, "L9 uncommitted");
    repo.write("a.c", text);
}

}  // namespace

TEST_CASE("history option: JSON, table and windows", "[history]") {
    History h;
    build(h);
    const std::string anchors =
        " --base " + h.base + " --anchor a.c:2-4 --anchor a.c:9 --anchor a.c:6 --anchor gone.c:1";
    auto o = cptest::context_pack(h.repo.dir(), "--format json --history" + anchors);
    INFO(o.err);
    REQUIRE(o.status == 1);
    json doc = json::parse(o.out);
    const json& a = doc["specs"][0]["anchors"];
    REQUIRE(a.size() == 4);
    // Newest first, 20 of the 23 commits, the cut named.
    REQUIRE(a[0]["history"].size() == 20);
    CHECK(a[0]["history"][0]["commit"] == h.commits[22]);
    CHECK(a[0]["history"][0]["subject"] == "edit \x1b[31mred\x1b[0m");
    CHECK(a[0]["history"][0]["author_time"].is_number_integer());
    CHECK(a[0]["history"][19]["commit"] == h.commits[3]);
    CHECK(a[0]["history_more"] == json{{"count", 3}, {"by", "history_cap"}, {"cap", 20}});
    // Only the working tree's change touches line 9; nothing touches line 6.
    CHECK(a[1]["history"] ==
          json::array({{{"commit", "worktree"}, {"author_time", nullptr}, {"subject", nullptr}}}));
    CHECK(a[1]["history_more"].is_null());
    CHECK(a[2]["history"] == json::array());
    // GONE: no lines at the target to follow.
    CHECK(a[3]["status"] == "GONE");
    CHECK(a[3]["history"].is_null());

    // The same at a commit target: no working-tree entry.
    o = cptest::context_pack(h.repo.dir(),
                             "--format json --history --target HEAD --only 2" + anchors);
    doc = json::parse(o.out);
    CHECK(doc["specs"][0]["anchors"][0]["history"] == json::array());

    // The text: a history column, the newest three in the window header, subjects escaped.
    o = cptest::context_pack(h.repo.dir(), "--history --color never" + anchors);
    CHECK(o.out.find('\x1b') == std::string::npos);
    CHECK(o.out.find("history  note") != std::string::npos);
    CHECK(o.out.find("  history: 23 commits since base\n") != std::string::npos);
    CHECK(o.out.find("    " + h.commits[22].substr(0, 10) + " edit \\x1b[31mred\\x1b[0m\n") !=
          std::string::npos);
    CHECK(o.out.find("    " + h.commits[20].substr(0, 10) + " edit 20\n") != std::string::npos);
    CHECK(o.out.find("    … +20 more\n") != std::string::npos);
    CHECK(o.out.find("  history: 0 commits since base, and uncommitted changes\n"
                     "    worktree (uncommitted changes)\n") != std::string::npos);
    CHECK(o.out.find("  history: no commit since base changed these lines\n") != std::string::npos);

    // JSON Lines with --table: each spec's line carries its history too.
    o = cptest::context_pack(h.repo.dir(), "--format jsonl --table --history" + anchors);
    auto line = json::parse(o.out.substr(0, o.out.find('\n')));
    CHECK(line["anchors"][0]["history"].size() == 20);
    CHECK(line["anchors"][3]["history"].is_null());

    // Without --history, none of it.
    o = cptest::context_pack(h.repo.dir(), "--format json" + anchors);
    doc = json::parse(o.out);
    CHECK_FALSE(doc["specs"][0]["anchors"][0].contains("history"));
    o = cptest::context_pack(h.repo.dir(), "--table" + anchors);
    CHECK(o.out.find("history") == std::string::npos);
}

TEST_CASE("history option: a subject of kilobytes is cut after 1000 bytes, and says so",
          "[history]") {
    cptest::Repo repo;
    repo.write("a.c", cptest::numbered(5));
    const auto base = repo.commit("base");
    repo.write("a.c", "X1\nL2\nL3\nL4\nL5\n");
    const auto target = repo.commit(std::string(5000, 's'));
    auto o = cptest::context_pack(repo.dir(), "--history --format json --target " + target +
                                                  " --base " + base + " --anchor a.c:1-2");
    INFO(o.err);
    const auto history = json::parse(o.out)["specs"][0]["anchors"][0]["history"];
    REQUIRE(history.size() == 1);
    CHECK(history[0]["subject"] == std::string(1000, 's') + "… (+4000 bytes)");
}

TEST_CASE("history option: in a shallow clone, git log -L's answer or the mend that brings it",
          "[history]") {
    cptest::Repo repo;
    repo.write("a.c", cptest::numbered(5));
    repo.commit("one");
    repo.write("a.c", "X1\nL2\nL3\nL4\nL5\n");
    repo.commit("two");
    repo.write("a.c", "Y1\nL2\nL3\nL4\nL5\n");
    repo.commit("three");
    cptest::TempDir dir;
    const std::string clone = dir.path() + "/clone";
    auto made = cptest::sh("git clone -q --depth 2 " + cptest::q("file://" + repo.dir()) + " " +
                           cptest::q(clone));
    REQUIRE(made.status == 0);
    auto o = cptest::context_pack(clone,
                                  "--history --format json --target HEAD --base HEAD~1 "
                                  "--anchor a.c:1-2");
    INFO(o.err);
    REQUIRE(o.status <= 1);
    const auto a = json::parse(o.out)["specs"][0]["anchors"][0];
    if (a["history"].is_null()) {
        CHECK(a["reason"].get<std::string>().find(
                  "its history cannot be told: this is a shallow clone, and the walk reached a "
                  "commit whose parents it lacks (git fetch --unshallow brings them)") !=
              std::string::npos);
    } else {
        REQUIRE(a["history"].size() == 1);
        CHECK(a["history"][0]["subject"] == "three");
    }
}
