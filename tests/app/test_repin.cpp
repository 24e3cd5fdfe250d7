// --repin as a planner runs it: the revised plan, re-checked with --at-base, finds every
// re-pinned anchor SAME with its symbol, on the text the original pack showed; unknown keys
// survive in value; the anchors that stay are named and fail the run; what --repin refuses.
#include <nlohmann/json.hpp>

#include "support/catch.hpp"
#include "support/fixture.hpp"
#include "support/random_text.hpp"

using cptest::context_pack;
using cptest::numbered;
using cptest::q;
using cptest::Repo;
using nlohmann::json;

namespace {

std::string write_spec(const cptest::TempDir& dir, const std::string& name,
                       const std::string& text) {
    auto path = dir.path() + "/" + name;
    cptest::sh("cat > " + q(path), text);
    return path;
}

// The anchored lines each anchor's window shows, by label: what the pack showed of it.
std::map<std::string, std::vector<std::string>> shown(const json& spec) {
    std::map<std::string, std::vector<std::string>> out;
    for (const auto& a : spec["anchors"]) {
        if (a["window"].is_null() || a["to"].is_null()) continue;
        const auto& w = spec["windows"][a["window"].get<std::size_t>()];
        std::vector<std::string> lines;
        for (const auto& l : w["lines"])
            if (l["line"] >= a["to"]["line"] && l["line"] <= a["to"]["end_line"])
                lines.push_back(l["text"]);
        out[a["label"]] = lines;
    }
    return out;
}

// A spec with the keys the tool writes or rewrites taken out: what must survive unchanged.
json planner_keys(json spec) {
    spec.erase("base");
    spec.erase("id");
    for (const char* list : {"file_changes", "reads"}) {
        if (!spec.contains(list)) continue;
        for (auto& e : spec[list]) {
            e.erase("was");
            e.erase("repin");
            for (const char* k : {"path", "line", "end_line"}) e["location"].erase(k);
        }
    }
    return spec;
}

// Checks the round trip: `revised` (one spec) at its own base finds each re-pinned anchor of
// it SAME, with its symbol, on the lines `original` (the pack of the first run) showed.
void check_round_trip(const Repo& repo, const cptest::TempDir& dir, const json& original,
                      const json& revised) {
    auto path = write_spec(dir, "revised.json", revised.dump());
    auto check = context_pack(repo.dir(), "--at-base --format json " + q(path));
    INFO(check.err);
    REQUIRE(check.status <= 1);
    auto at_base = json::parse(check.out)["specs"][0];
    auto before = shown(original);
    auto after = shown(at_base);
    std::size_t row = 0;
    for (const char* list : {"file_changes", "reads"}) {
        if (!revised.contains(list)) continue;
        for (const auto& entry : revised[list]) {
            const auto& a = at_base["anchors"][row];
            const auto& was = original["anchors"][row];
            ++row;
            INFO(entry.dump());
            if (entry.contains("repin") || was["status"] == "NEW") continue;
            CHECK(a["status"] == "SAME");
            if (entry["location"].contains("symbol")) CHECK(a["symbol_found"] == true);
            CHECK(a["base_blob"] == was["target_blob"]);
            CHECK(after[a["label"]] == before[was["label"]]);
        }
    }
}

}  // namespace

TEST_CASE("repin: the revised plan round-trips through --at-base, unknown keys and all") {
    Repo repo;
    repo.write("a.c", numbered(30));
    repo.write("b.c", numbered(20, "B"));
    repo.write("gone.c", numbered(5, "G"));
    repo.write("sym.c", numbered(10, "S"));
    const auto base = repo.commit("base");
    repo.write("a.c", "// one\n// two\n" + numbered(30));  // moved down by two
    repo.git("mv b.c moved_b.c");
    repo.remove("gone.c");
    repo.write("sym.c", "S1\nS2\nchanged\nS4\n");  // S3 gone from lines 3-4
    const auto target = repo.commit("drift");
    cptest::TempDir dir;
    const std::string plan = R"({
  "ticket": {"n": 12345678901234567890123, "ratio": 1.50, "tags": ["x", "\u00e9"]},
  "id": "plan.r3",
  "base": ")" + base + R"(",
  "file_changes": [
    {"location": {"path": "a.c", "line": 5, "end_line": 8, "symbol": "L6", "col": 4},
     "change": "edit it", "owner": "ann"},
    {"location": {"path": "gone.c", "line": 2}, "change": "gone"},
    {"location": {"path": "new.c", "line": 1, "end_line": 3}, "change": "create it"}
  ],
  "reads": [
    {"location": {"path": "b.c", "line": 2, "end_line": 4, "symbol": "B3"}, "why": "renamed"},
    {"location": {"path": "sym.c", "line": 3, "end_line": 4, "symbol": "S3"}, "why": "missing"}
  ],
  "after": null
})";
    auto plan_path = write_spec(dir, "plan.json", plan);
    auto first = context_pack(repo.dir(), "--target " + target + " --format json " + q(plan_path));
    REQUIRE(first.status == 1);
    auto repinned = context_pack(repo.dir(), "--repin --target " + target + " " + q(plan_path));
    INFO(repinned.err);
    CHECK(repinned.status == 1);  // two anchors stay
    auto revised = json::parse(repinned.out);
    CHECK(repinned.out.find("\n  \"file_changes\": [\n") !=
          std::string::npos);  // one spec: indented
    CHECK(revised["id"] == "plan.r4");
    CHECK(revised["base"] == target);
    CHECK(planner_keys(revised) == planner_keys(json::parse(plan)));
    // The raw bytes of the unknown values are the plan's own.
    CHECK(repinned.out.find("12345678901234567890123") != std::string::npos);
    CHECK(repinned.out.find("1.50") != std::string::npos);
    CHECK(repinned.out.find(R"("\u00e9")") != std::string::npos);

    const auto& edits = revised["file_changes"];
    CHECK(edits[0]["location"] == json::parse(R"({"path": "a.c", "line": 7, "end_line": 10,
                                                  "symbol": "L6", "col": 4})"));
    CHECK(edits[0]["was"] == json{{"base", base}, {"path", "a.c"}, {"line", 5}, {"end_line", 8}});
    CHECK_FALSE(edits[0].contains("repin"));
    CHECK(edits[1]["location"] == json::parse(R"({"path": "gone.c", "line": 2})"));
    CHECK(edits[1]["repin"].get<std::string>().rfind("GONE: ", 0) == 0);
    CHECK_FALSE(edits[2].contains("repin"));  // still to be made
    const auto& reads = revised["reads"];
    CHECK(reads[0]["location"]["path"] == "moved_b.c");
    CHECK(reads[1]["repin"].get<std::string>().rfind("SYMBOL_MISSING: ", 0) == 0);
    CHECK(repinned.err.find("plan.json: file_changes[1] stays where it was: GONE") !=
          std::string::npos);
    CHECK(repinned.err.find("reads[1] stays where it was: SYMBOL_MISSING") != std::string::npos);

    check_round_trip(repo, dir, json::parse(first.out)["specs"][0], revised);

    // An anchor it kept is an older base's: read anywhere (every mode, the planner's check), it
    // is UNRESOLVED with why it was kept, never passed as fresh, until the planner revises it.
    auto revised_path = write_spec(dir, "kept.json", repinned.out);
    for (const char* mode : {"--at-base --format json", "--at-base --table --format json",
                             "--format json --target HEAD"}) {
        INFO(mode);
        auto check = context_pack(repo.dir(), std::string(mode) + " " + q(revised_path));
        CHECK(check.status == 1);
        auto anchors = json::parse(check.out)["specs"][0]["anchors"];
        for (std::size_t row : {std::size_t(1), std::size_t(4)}) {  // file_changes[1], reads[1]
            const auto& a = anchors[row];
            INFO(a.dump());
            CHECK(a["status"] == "UNRESOLVED");
            CHECK(a["reason"].get<std::string>().starts_with(
                "not carried by --repin, which marked it \""));
            CHECK(a["reason"].get<std::string>().ends_with(
                "; revise its location by hand, then delete its \"repin\" key"));
        }
        CHECK(anchors[1]["reason"].get<std::string>().find(edits[1]["repin"].get<std::string>()) !=
              std::string::npos);
        CHECK(anchors[0]["status"] != "UNRESOLVED");  // the carried ones resolve
    }
    // Revised by hand (the marker deleted), it resolves again.
    json fixed = revised;
    fixed["reads"][1].erase("repin");
    fixed["reads"][1]["location"] = json::parse(R"({"path": "sym.c", "line": 3})");
    auto fixed_path = write_spec(dir, "fixed.json", fixed.dump());
    auto resolved =
        json::parse(context_pack(repo.dir(), "--at-base --format json " + q(fixed_path)).out);
    CHECK(resolved["specs"][0]["anchors"][4]["status"] == "SAME");

    // A second revision onto the same commit: everything carried is SAME, `was` replaced.
    auto again_path = write_spec(dir, "again.json", repinned.out);
    auto again = context_pack(repo.dir(), "--repin --target " + target + " " + q(again_path));
    CHECK(again.err.find("unknown key 'was'") == std::string::npos);  // both are known keys
    CHECK(again.err.find("unknown key 'repin'") == std::string::npos);
    CHECK(again.err.find("unknown key 'ticket'") != std::string::npos);
    auto twice = json::parse(again.out);
    CHECK(twice["id"] == "plan.r5");
    CHECK(twice["file_changes"][0]["location"] == edits[0]["location"]);
    CHECK(twice["file_changes"][0]["was"]["base"] == target);
    CHECK(twice["file_changes"][0]["was"]["line"] == 7);
    // The anchors an earlier revision kept keep its marker and `was`, which name the base
    // their locations are at.
    CHECK(twice["file_changes"][1]["repin"] == edits[1]["repin"]);
    CHECK(twice["file_changes"][1]["was"] == edits[1]["was"]);
    CHECK(twice["reads"][1]["repin"] == reads[1]["repin"]);
    CHECK(again.err.find("file_changes[1] stays where it was: GONE") != std::string::npos);
}

TEST_CASE("repin over random histories: every re-pinned anchor is SAME at the new base") {
    for (std::uint64_t seed = 1; seed <= std::uint64_t(cptest::scaled(12)); ++seed) {
        INFO("seed " << seed);
        cptest::Gen gen(seed);
        Repo repo;
        std::vector<cptest::TextFile> files;
        for (int f = 0; f < 3; ++f) {
            files.push_back(gen.file());
            files.back().eol = cptest::Eol::Lf;
            repo.write("f" + std::to_string(f) + ".txt", files.back().text());
        }
        const auto base = repo.commit("base");
        json reads = json::array();
        for (int k = 0; k < 8; ++k) {
            const auto& file = files[std::size_t(gen.uniform(0, 2))];
            const int n = int(file.lines.size());
            if (n == 0) continue;
            const int line = gen.uniform(1, n);
            const int end = std::min(n, line + gen.uniform(0, 4));
            const auto index = std::size_t(&file - files.data());
            reads.push_back({{"location",
                              {{"path", "f" + std::to_string(index) + ".txt"},
                               {"line", line},
                               {"end_line", end}}},
                             {"why", "seed " + std::to_string(seed)}});
        }
        if (reads.empty()) continue;
        for (std::size_t f = 0; f < files.size(); ++f) {
            gen.edit(files[f]);
            files[f].eol = cptest::Eol::Lf;
            repo.write("f" + std::to_string(f) + ".txt", files[f].text());
        }
        const auto target = repo.commit("edits");
        cptest::TempDir dir;
        json plan = {{"id", "r.r1"}, {"base", base}, {"reads", reads}};
        auto plan_path = write_spec(dir, "plan.json", plan.dump());
        auto first =
            context_pack(repo.dir(), "--target " + target + " --format json " + q(plan_path));
        auto repinned = context_pack(repo.dir(), "--repin --target " + target + " " + q(plan_path));
        INFO(repinned.err);
        REQUIRE(repinned.status <= 1);
        check_round_trip(repo, dir, json::parse(first.out)["specs"][0], json::parse(repinned.out));
    }
}

TEST_CASE("repin: several specs give JSON Lines, and --anchor flags give a plan of reads") {
    Repo repo;
    repo.write("a.c", numbered(10));
    const auto base = repo.commit("base");
    repo.write("a.c", "// top\n" + numbered(10));
    const auto target = repo.commit("drift");
    cptest::TempDir dir;
    std::string lines;
    for (int i = 0; i < 3; ++i)
        lines += R"({"id": "s)" + std::to_string(i) + R"(.r1", "base": ")" + base +
                 R"(", "reads": [{"location": {"path": "a.c", "line": )" + std::to_string(i + 1) +
                 "}}]}\n";
    auto batch = context_pack(
        repo.dir(), "--repin --target " + target + " " + q(write_spec(dir, "batch.jsonl", lines)));
    INFO(batch.err);
    CHECK(batch.status == 0);
    CHECK(batch.err.empty());
    std::vector<json> out;
    for (std::size_t at = 0, nl; (nl = batch.out.find('\n', at)) != std::string::npos; at = nl + 1)
        out.push_back(json::parse(batch.out.substr(at, nl - at)));
    REQUIRE(out.size() == 3);
    for (int i = 0; i < 3; ++i) {
        CHECK(out[std::size_t(i)]["id"] == "s" + std::to_string(i) + ".r2");
        CHECK(out[std::size_t(i)]["reads"][0]["location"]["line"] == i + 2);
    }
    // One spec on one line with --format jsonl.
    auto one = context_pack(repo.dir(), "--repin --format jsonl --target " + target + " --base " +
                                            base + " --anchor a.c:3-4@L3");
    CHECK(one.status == 0);
    CHECK(std::count(one.out.begin(), one.out.end(), '\n') == 1);
    CHECK(json::parse(one.out) ==
          json::parse(R"({"base": ")" + target + R"(", "reads": [{"location": {"path": "a.c",
             "line": 4, "end_line": 5, "symbol": "L3"}, "was": {"base": ")" +
                      base + R"(", "path": "a.c", "line": 3, "end_line": 4}}]})"));
}

TEST_CASE("bad input B80: --repin refuses what cannot make a revised plan, with the mend") {
    Repo repo;
    repo.write("a.c", numbered(10));
    const auto base = repo.commit("base");
    const std::string anchor = " --base " + base + " --anchor a.c:2";
    auto worktree = context_pack(repo.dir(), "--repin" + anchor);
    CHECK(worktree.status == 2);
    CHECK(worktree.out.empty());
    CHECK(worktree.err ==
          "context-pack: --repin revises a plan onto a commit, and the target of --anchor is the "
          "working tree; commit the changes first, then give --target REV (HEAD for the commit "
          "just made)\n");
    auto only = context_pack(repo.dir(), "--repin --target HEAD --only 1" + anchor);
    CHECK(only.status == 2);
    CHECK(only.err == "context-pack: --repin revises every anchor of the plan; drop --only\n");
    auto quickfix = context_pack(repo.dir(), "--repin --target HEAD --format quickfix" + anchor);
    CHECK(quickfix.status == 2);
    CHECK(quickfix.err.find("drop --format quickfix") != std::string::npos);
    // At its own base a plan is re-pinned in place.
    auto at_base = context_pack(repo.dir(), "--repin --at-base" + anchor);
    CHECK(at_base.status == 0);
    CHECK(json::parse(at_base.out)["base"] == base);
}
