// The JSON contract: the exact key set of every object, so a rename cannot slip through,
// and the values of one resolved spec; the document printed spec by spec.
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "context_pack/output/json_output.hpp"
#include "context_pack/resolve/pack.hpp"
#include "context_pack/resolve/resolve.hpp"
#include "support/catch.hpp"
#include "support/fixture.hpp"

using nlohmann::json;

namespace {

std::set<std::string> keys(const json& j) {
    std::set<std::string> out;
    for (auto it = j.begin(); it != j.end(); ++it) out.insert(it.key());
    return out;
}

}  // namespace

TEST_CASE("JSON output: fixed key set and values") {
    cptest::Repo repo;
    repo.write("a.c", cptest::numbered(10));
    repo.write("gone.c", "x\n");
    repo.write("other.c", "uses\ncall(L2);\nL20\n");
    auto base = repo.commit();
    repo.write("a.c", "top\n" + cptest::numbered(10));
    repo.remove("gone.c");
    auto o = cptest::context_pack(repo.dir(), "--format json --base " + base.substr(0, 12) +
                                                  " --anchor a.c:2-3@L2 --anchor gone.c:1");
    INFO(o.err);
    REQUIRE(o.status == 1);
    json doc = json::parse(o.out);

    CHECK(keys(doc) == std::set<std::string>{"format_version", "exit_status", "specs"});
    CHECK(doc["format_version"] == 1);
    CHECK(doc["exit_status"] == 1);
    REQUIRE(doc["specs"].size() == 1);
    const json& spec = doc["specs"][0];
    CHECK(keys(spec) == std::set<std::string>{"id", "source", "base", "base_rev", "target", "head",
                                              "target_rev", "since", "since_rev", "anchors",
                                              "windows", "callers", "warnings"});
    CHECK(spec["warnings"] == json::array());
    CHECK(spec["base"] == base);
    CHECK(spec["base_rev"] == base.substr(0, 12));
    CHECK(spec["target"] == "worktree");
    CHECK(spec["target_rev"].is_null());

    const std::set<std::string> anchor_keys{"row",
                                            "kind",
                                            "label",
                                            "path",
                                            "line",
                                            "end_line",
                                            "symbol",
                                            "status",
                                            "renamed",
                                            "followed",
                                            "to",
                                            "symbol_found",
                                            "lines_deleted",
                                            "reason",
                                            "exists_at_target",
                                            "binary",
                                            "why",
                                            "edited_since",
                                            "window",
                                            "by",
                                            "whitespace",
                                            "similarity",
                                            "diff",
                                            "found_at",
                                            "candidates",
                                            "candidates_total",
                                            "best",
                                            "line_map",
                                            "base_blob",
                                            "target_blob",
                                            "mention"};
    REQUIRE(spec["anchors"].size() == 2);
    const json& moved = spec["anchors"][0];
    CHECK(keys(moved) == anchor_keys);
    CHECK(moved["kind"] == "read");
    CHECK(moved["label"] == "--anchor[0]");
    CHECK(moved["path"] == "a.c");
    CHECK(moved["line"] == 2);
    CHECK(moved["end_line"] == 3);
    CHECK(moved["symbol"] == "L2");
    CHECK(moved["status"] == "MOVED");
    CHECK(moved["renamed"] == false);
    CHECK(keys(moved["to"]) == std::set<std::string>{"path", "line", "end_line"});
    CHECK(moved["to"] == json{{"path", "a.c"}, {"line", 3}, {"end_line", 4}});
    CHECK(moved["symbol_found"] == true);
    CHECK(moved["lines_deleted"] == false);
    CHECK(moved["reason"].is_null());
    CHECK(moved["row"] == 1);
    CHECK(moved["edited_since"].is_null());
    REQUIRE(moved["window"] == 0);  // an index into the spec's windows
    REQUIRE(spec["windows"].size() == 1);
    const json& w = spec["windows"][0];
    CHECK(keys(w) == std::set<std::string>{"path", "line", "end_line", "rows", "lines", "omitted",
                                           "unavailable", "definition"});
    CHECK(w["path"] == "a.c");
    CHECK(w["line"] == 1);  // three lines of context, clamped at the top
    CHECK(w["end_line"] == 7);
    CHECK(w["rows"] == json::array({1}));
    CHECK(w["omitted"].is_null());
    CHECK(w["unavailable"].is_null());
    REQUIRE(w["lines"].size() == 7);
    CHECK(keys(w["lines"][0]) ==
          std::set<std::string>{"line", "text", "anchored", "best", "cut_bytes"});
    CHECK(
        w["lines"][0] ==
        json{{"line", 1}, {"text", "top"}, {"anchored", false}, {"best", false}, {"cut_bytes", 0}});
    CHECK(w["lines"][2] ==
          json{{"line", 3}, {"text", "L2"}, {"anchored", true}, {"best", false}, {"cut_bytes", 0}});

    REQUIRE(spec["callers"].size() == 1);
    const json& callers = spec["callers"][0];
    CHECK(keys(callers) == std::set<std::string>{"symbol", "language", "groups", "total",
                                                 "in_windows", "files_searched", "hits",
                                                 "per_file"});
    CHECK(callers["symbol"] == "L2");
    CHECK(callers["total"] == 1);  // the other.c line; a.c's is in the window
    CHECK(callers["in_windows"] == 1);
    REQUIRE(callers["hits"].size() == 1);
    CHECK(keys(callers["hits"][0]) ==
          std::set<std::string>{"path", "line", "text", "cut_bytes", "group", "role"});
    CHECK(callers["hits"][0]["path"] == "other.c");
    CHECK(callers["hits"][0]["line"] == 2);
    CHECK(callers["hits"][0]["role"] == "use");
    CHECK(callers["per_file"] == json::array({json{{"path", "other.c"}, {"count", 1}}}));

    const json& gone = spec["anchors"][1];
    CHECK(keys(gone) == anchor_keys);
    CHECK(gone["status"] == "GONE");
    CHECK(gone["to"].is_null());
    CHECK(gone["symbol"].is_null());
    CHECK(gone["symbol_found"].is_null());
    CHECK(gone["reason"].is_string());
    CHECK(gone["window"].is_null());
    CHECK(spec["windows"][0]["rows"] == json::array({1}));
}

TEST_CASE("JSON output: an edit anchor carries its change, a NEW one whether it exists") {
    cptest::Repo repo;
    repo.write("a.c", "a\n");
    auto base = repo.commit();
    auto o = cptest::context_pack(
        repo.dir(), "--format json -",
        R"({"base": "HEAD", "file_changes": [{"location": {"path": "n.c", "line": 1},
            "change": "create it"}]})");
    REQUIRE(o.status == 0);
    json a = json::parse(o.out)["specs"][0]["anchors"][0];
    CHECK(a["kind"] == "edit");
    CHECK(a["label"] == "file_changes[0]");
    CHECK(a["change"] == "create it");
    CHECK_FALSE(a.contains("why"));
    CHECK(a["status"] == "NEW");
    CHECK(a["exists_at_target"] == false);
    CHECK(a["to"].is_null());
}

TEST_CASE("JSON output: the document printed spec by spec is report_to_json's, byte for byte") {
    cptest::Repo repo;
    repo.write("a.c", cptest::numbered(30));
    repo.write("b\xff.c", "int f(void);\n\"quoted\"\ttab\n");  // a path that is not UTF-8
    auto base = repo.commit();
    repo.write("a.c", "top\n" + cptest::numbered(30));
    auto target = repo.commit();
    auto opened = cp::git::Repository::open(repo.dir());
    REQUIRE(opened.ok());
    auto spec = [&](const std::vector<std::string>& anchors) {
        cp::Spec s;
        s.source = "test";
        s.base = base;
        s.target = target;
        for (const auto& a : anchors) s.anchors.push_back(cp::parse_anchor_arg(a).value());
        return s;
    };
    std::vector<std::vector<cp::Spec>> batches{
        {},
        {spec({"a.c:2-3@L2"})},
        {spec({"a.c:2-3@L2", "b\xff.c:1@f"}), spec({"a.c:40"}), spec({"gone.c:1"})}};
    batches[2][1].warnings = {"unknown key 'bse'; did you mean 'base'?",
                              "reads[0]: unknown key 'b\xff'"};  // not UTF-8 either
    // More specs than one round of the printer's (32), in an odd number: made on two threads
    // a round at a time, still printed in order.
    auto& many = batches.emplace_back();
    for (int i = 0; i < 71; ++i) many.push_back(spec({"a.c:" + std::to_string(1 + i % 7)}));
    for (const auto& specs : batches) {
        INFO(specs.size() << " specs");
        cp::Content content(opened.value());
        auto report = cp::resolve(content, specs, {});
        REQUIRE(report.ok());
        cp::PackOptions pack;
        REQUIRE(cp::add_windows_and_callers(content, report.value(), pack).ok());
        std::ostringstream printed;
        cp::print_json(printed, report.value());
        if (specs.size() == 3)
            CHECK(printed.str().find("\"warnings\": [\n        \"unknown key 'bse'; did you mean "
                                     "'base'?\",") != std::string::npos);
        CHECK(
            printed.str() ==
            cp::report_to_json(report.value()).dump(2, ' ', false, json::error_handler_t::replace) +
                "\n");
    }
}
