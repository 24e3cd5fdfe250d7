// The drift summary of a batch: counts by status, by spec and by path prefix.
#include <nlohmann/json.hpp>

#include "context_pack/model/summary.hpp"
#include "support/catch.hpp"
#include "support/fixture.hpp"

namespace {

cp::AnchorResult anchor(const std::string& path, cp::Status status, bool renamed = false,
                        std::optional<bool> symbol_found = std::nullopt) {
    cp::AnchorResult a;
    a.anchor.path = path;
    a.status = status;
    a.renamed = renamed;
    a.symbol_found = symbol_found;
    return a;
}

}  // namespace

TEST_CASE("summary: totals, per spec in input order, per prefix most first") {
    cp::Report report;
    cp::SpecReport one, two;
    one.id = "one";
    one.anchors = {anchor("src/a.c", cp::Status::Same), anchor("src/b.c", cp::Status::Moved, true),
                   anchor("README.md", cp::Status::Gone)};
    two.source = "plans.jsonl:2";
    two.anchors = {anchor("src/x/y.c", cp::Status::Touched, false, false),
                   anchor("docs/d.md", cp::Status::Same), anchor("src/c.c", cp::Status::New)};
    report.specs = {one, two};

    auto s = cp::summarize(report);
    CHECK(s.all.total == 6);
    CHECK(s.all.of(cp::Status::Same) == 2);
    CHECK(s.all.of(cp::Status::Moved) == 1);
    CHECK(s.all.of(cp::Status::Touched) == 1);
    CHECK(s.all.of(cp::Status::Gone) == 1);
    CHECK(s.all.of(cp::Status::New) == 1);
    CHECK(s.all.renamed == 1);
    CHECK(s.all.symbol_missing == 1);
    CHECK(s.all.drifted() == 4);
    REQUIRE(s.by_spec.size() == 2);
    CHECK(s.by_spec[0].first == "one");
    CHECK(s.by_spec[1].first == "plans.jsonl:2");  // no id: its source
    CHECK(s.by_spec[1].second.total == 3);
    REQUIRE(s.by_prefix.size() == 3);
    CHECK(s.by_prefix[0].first == "src/");
    CHECK(s.by_prefix[0].second.total == 4);
    CHECK(s.by_prefix[1].first == "(top)");  // ties keep path order: "(top)" < "docs/"
    CHECK(s.by_prefix[2].first == "docs/");
}

TEST_CASE("summary: a batch of specs prints one drift report, in text and JSON") {
    cptest::Repo repo;
    repo.write("src/a.c", cptest::numbered(10));
    repo.write("b.md", "b\n");
    auto base = repo.commit();
    repo.write("src/a.c", "top\n" + cptest::numbered(10));
    auto t1 = repo.commit();
    repo.git("rm -q b.md");
    auto t2 = repo.commit();
    std::string jsonl;
    for (auto [id, target] : {std::pair{"first", t1}, std::pair{"second", t2}})
        jsonl += "{\"id\": \"" + std::string(id) + "\", \"base\": \"" + base +
                 "\", \"target\": \"" + target +
                 "\", \"reads\": [{\"location\": {\"path\": \"src/a.c\", \"line\": 2}}, "
                 "{\"location\": {\"path\": \"b.md\", \"line\": 1}}]}\n";
    cptest::TempDir dir;
    cptest::sh("cat > " + cptest::q(dir.path() + "/plans.jsonl"), jsonl);
    auto text =
        cptest::context_pack(repo.dir(), "--table " + cptest::q(dir.path() + "/plans.jsonl"));
    INFO(text.out << text.err);
    CHECK(text.status == 1);
    CHECK(text.out.find("drift over 2 specs, 4 anchors: 3 drifted (75%), 0 RENAMED") !=
          std::string::npos);
    std::string squeezed;  // the columns with single spaces, to read rows as words
    for (char c : text.out)
        if (!(c == ' ' && !squeezed.empty() && squeezed.back() == ' ')) squeezed += c;
    CHECK(squeezed.find("\n first 2 1 1 0 0 0 0 0 0 50%\n") != std::string::npos);
    CHECK(squeezed.find("\n second 2 0 1 0 1 0 0 0 0 100%\n") != std::string::npos);
    CHECK(squeezed.find("\n src/ 2 0 2 0 0 0 0 0 0 100%\n") != std::string::npos);

    auto json = cptest::context_pack(
        repo.dir(), "--table --format json " + cptest::q(dir.path() + "/plans.jsonl"));
    auto doc = nlohmann::json::parse(json.out);
    CHECK(doc["summary"]["all"]["anchors"] == 4);
    CHECK(doc["summary"]["all"]["GONE"] == 1);
    CHECK(doc["summary"]["by_spec"][1]["spec"] == "second");
    CHECK(doc["summary"]["by_prefix"][0]["prefix"] == "(top)");

    auto single = cptest::context_pack(repo.dir(), "--table --base " + base + " --anchor b.md:1");
    CHECK(single.out.find("drift over") == std::string::npos);  // one spec: no summary
}

TEST_CASE("summary: a folder of specs is one batch, its files in name order") {
    cptest::Repo repo;
    repo.write("a.c", cptest::numbered(5));
    auto base = repo.commit();
    cptest::TempDir folder;
    auto spec = [&](const std::string& id) {
        return "{\"id\": \"" + id + "\", \"base\": \"" + base +
               "\", \"reads\": [{\"location\": {\"path\": \"a.c\", \"line\": 2}}]}";
    };
    cptest::sh("cat > " + cptest::q(folder.path() + "/b.json"), spec("second"));
    cptest::sh("cat > " + cptest::q(folder.path() + "/a.jsonl"), spec("first") + "\n");
    cptest::sh("echo ignored > " + cptest::q(folder.path() + "/notes.txt"));
    auto o = cptest::context_pack(repo.dir(), "--table " + cptest::q(folder.path()));
    INFO(o.err);
    CHECK(o.status == 0);
    auto first = o.out.find("first ("), second = o.out.find("second (");
    REQUIRE(first != std::string::npos);
    REQUIRE(second != std::string::npos);
    CHECK(first < second);
    CHECK(o.out.find("drift over 2 specs, 2 anchors") != std::string::npos);
}
