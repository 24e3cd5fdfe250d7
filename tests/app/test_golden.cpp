// Golden packs: the whole output of the binary over scripted fixtures (fixtures/demo.sh and
// tests/fixtures/edges.sh), compared byte for byte with tests/golden/. Run the suite with
// CONTEXT_PACK_REGENERATE=1 to rewrite the files after a deliberate change, then read the diff.
#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>

#include "support/catch.hpp"
#include "support/fixture.hpp"

namespace {

using cptest::slurp;

struct Golden {
    const char* name;     // tests/golden/<name>
    const char* fixture;  // the script that builds DIR/repo and DIR/plan.json
    const char* args;     // run in DIR/repo
    int status;
    const char* err_name = nullptr;  // tests/golden/<err_name> holds its stderr; else none
};

// Golden fixtures are built once per process; their hashes are fixed by their dates.
const std::string& fixture_dir(const std::string& script) {
    static std::map<std::string, std::unique_ptr<cptest::TempDir>> built;
    auto& dir = built[script];
    if (!dir) {
        dir = std::make_unique<cptest::TempDir>();
        auto o = cptest::sh(cptest::q(cptest::source_dir() + "/" + script) + " " +
                            cptest::q(dir->path()));
        INFO(o.err);
        REQUIRE(o.status == 0);
    }
    return dir->path();
}

void check_golden(const Golden& g) {
    INFO(g.name << ": context-pack " << g.args);
    auto dir = fixture_dir(g.fixture);
    auto o = cptest::context_pack(dir + "/repo", g.args);
    INFO(o.err);
    CHECK(o.status == g.status);
    if (!g.err_name) CHECK(o.err.empty());
    const char* regenerate = std::getenv("CONTEXT_PACK_REGENERATE");
    for (auto [name, got] : {std::pair{g.name, &o.out}, std::pair{g.err_name, &o.err}}) {
        if (!name) continue;
        auto path = cptest::source_dir() + "/tests/golden/" + name;
        if (regenerate && *regenerate && std::string(regenerate) != "0") {
            std::ofstream(path, std::ios::binary) << *got;
            WARN("regenerated " << path);
            continue;
        }
        auto expected = slurp(path);
        REQUIRE_FALSE(expected.empty());
        CHECK(*got == expected);
    }
}

}  // namespace

TEST_CASE("golden: the demo in its three uses, with --history, and its plan revised") {
    const Golden cases[] = {
        {"demo-orient.txt", "fixtures/demo.sh", "../plan.json", 1},
        {"demo-orient.json", "fixtures/demo.sh", "../plan.json --format json", 1},
        {"demo-table.txt", "fixtures/demo.sh", "../plan.json --table", 1},
        {"demo-at-base-table.txt", "fixtures/demo.sh", "../plan.json --at-base --table", 1},
        {"demo-since-table.txt", "fixtures/demo.sh", "../plan.json --since HEAD --table", 1},
        {"demo-at-base.txt", "fixtures/demo.sh", "../plan.json --at-base", 1},
        {"demo-since.txt", "fixtures/demo.sh", "../plan.json --since HEAD", 1},
        {"demo-since.json", "fixtures/demo.sh", "../plan.json --since HEAD --format json", 1},
        {"demo-since-none.txt", "fixtures/demo.sh", "../plan.json --since HEAD --target HEAD", 1},
        {"demo-only.txt", "fixtures/demo.sh", "../plan.json --only file_changes[1]", 0},
        {"demo-repin.out", "fixtures/demo.sh", "../plan.json --repin --prose --target HEAD", 1,
         "demo-repin.err"},
        {"demo-prose-table.txt", "fixtures/demo.sh", "../plan.json --prose --table", 1},
        {"demo-history-table.txt", "fixtures/demo.sh", "../plan.json --history --table", 1},
        {"demo-history.txt", "fixtures/demo.sh", "../plan.json --history --only 1 --only 4", 0},
        {"demo-history.json", "fixtures/demo.sh", "../plan.json --history --format json", 1},
    };
    for (const auto& g : cases) check_golden(g);
}

TEST_CASE("golden: caps, cuts, merged and deleted windows, CRLF, long lines, binary") {
    const Golden cases[] = {
        {"edges.txt", "tests/fixtures/edges.sh", "../plan.json", 1},
        {"edges.json", "tests/fixtures/edges.sh", "../plan.json --format json", 1},
        {"edges-capped.txt", "tests/fixtures/edges.sh", "../plan.json --max-lines 60", 1},
        {"edges-context0.txt", "tests/fixtures/edges.sh",
         "../plan.json --context 0 --only 7 --only 8", 0},
    };
    for (const auto& g : cases) check_golden(g);
}

TEST_CASE("golden: the README shows real output of the three uses") {
    // Each "<!-- golden: NAME -->" in the README is followed by a fenced block that must be
    // tests/golden/NAME; CONTEXT_PACK_REGENERATE=1 rewrites the blocks from the files.
    const std::string readme_path = cptest::source_dir() + "/README.md";
    auto readme = slurp(readme_path);
    const std::string marker = "<!-- golden: ";
    std::size_t blocks = 0;
    for (auto at = readme.find(marker); at != std::string::npos; at = readme.find(marker, at + 1)) {
        auto name_end = readme.find(" -->", at);
        auto name = readme.substr(at + marker.size(), name_end - at - marker.size());
        auto open = readme.find("```\n", name_end);
        auto close = readme.find("```", open + 4);
        REQUIRE(close != std::string::npos);
        auto golden = slurp(cptest::source_dir() + "/tests/golden/" + name);
        REQUIRE_FALSE(golden.empty());
        const char* regenerate = std::getenv("CONTEXT_PACK_REGENERATE");
        if (regenerate && *regenerate && std::string(regenerate) != "0")
            readme.replace(open + 4, close - open - 4, golden);
        else
            CHECK(readme.substr(open + 4, close - open - 4) == golden);
        ++blocks;
    }
    CHECK(blocks >= 3);
    const char* regenerate = std::getenv("CONTEXT_PACK_REGENERATE");
    if (regenerate && *regenerate && std::string(regenerate) != "0")
        std::ofstream(readme_path, std::ios::binary) << readme;
}
