// The revised plan (--repin): which anchors move and why the rest stay, by hand-worked cases,
// and the rewrite of a spec's JSON text: the tool's values replaced, `was` and `repin` written,
// every other byte of every value kept as it came.
#include <nlohmann/json.hpp>

#include "context_pack/model/spec.hpp"
#include "context_pack/output/repin.hpp"
#include "support/catch.hpp"

namespace {

const std::string kBase = "1111111111111111111111111111111111111111";
const std::string kTarget = "2222222222222222222222222222222222222222";

cp::Spec parsed(const std::string& text) {
    auto spec = cp::parse_spec(text, "plan.json");
    REQUIRE(spec);
    return std::move(spec).value();
}

// The report of `spec` with every anchor SAME where it was, onto kTarget.
cp::SpecReport same_everywhere(const cp::Spec& spec) {
    cp::SpecReport r;
    r.source = spec.source;
    r.base_rev = spec.base.value_or("");
    r.base = kBase;
    r.target = cp::Target::at(kTarget);
    for (const cp::Anchor& a : spec.anchors) {
        cp::AnchorResult ar;
        ar.anchor = a;
        ar.status = cp::Status::Same;
        ar.to = cp::Location{a.path, a.line, a.last_line()};
        if (a.symbol) ar.symbol_found = true;
        r.anchors.push_back(ar);
    }
    return r;
}

cp::AnchorResult result(cp::Status status, std::optional<cp::Location> to = std::nullopt) {
    cp::AnchorResult a;
    a.anchor.path = "a.c";
    a.anchor.line = 3;
    a.anchor.end_line = 5;
    a.status = status;
    a.to = std::move(to);
    return a;
}

}  // namespace

TEST_CASE("repin_answer: what moves with the plan and what stays, with why") {
    SECTION("SAME, MOVED and TOUCHED with lines left move to their range at the target") {
        for (auto status : {cp::Status::Same, cp::Status::Moved, cp::Status::Touched}) {
            auto a = result(status, cp::Location{"b.c", 7, 9});
            auto answer = cp::repin_answer(a);
            CHECK(answer.carried());
            REQUIRE(answer.to);
            CHECK(answer.to->path == "b.c");
            CHECK(answer.to->line == 7);
            CHECK(answer.to->end_line == 9);
        }
    }
    SECTION("a range whose lines were all deleted stays") {
        auto a = result(cp::Status::Touched, cp::Location{"a.c", 4, 3});
        a.lines_deleted = true;
        auto answer = cp::repin_answer(a);
        CHECK_FALSE(answer.to);
        CHECK(answer.why.find("its lines were deleted") != std::string::npos);
    }
    SECTION("GONE and UNRESOLVED stay with their reason, and where their text was found") {
        auto gone = result(cp::Status::Gone);
        gone.reason = "a.c deleted at target";
        gone.relocation = cp::Relocation{
            cp::Relocation::Candidates{{cp::Location{"x.c", 1, 3}, cp::Location{"y.c", 5, 7}}, 3},
            false, std::nullopt};
        auto answer = cp::repin_answer(gone);
        CHECK_FALSE(answer.to);
        CHECK(answer.why ==
              "GONE: a.c deleted at target; its text is in 3 places: x.c:1-3, y.c:5-7, ...");
        auto unresolved = result(cp::Status::Unresolved);
        unresolved.reason = "base 'nope' names no commit";
        CHECK(cp::repin_answer(unresolved).why == "UNRESOLVED: base 'nope' names no commit");
    }
    SECTION("a symbol missing from the lines, or not checked, keeps the anchor") {
        auto a = result(cp::Status::Moved, cp::Location{"a.c", 4, 6});
        a.anchor.symbol = "parse";
        a.symbol_found = false;
        CHECK(cp::repin_answer(a).why == "SYMBOL_MISSING: 'parse' is not in a.c:4-6 at the target");
        a.symbol_found = std::nullopt;
        CHECK(cp::repin_answer(a).why.find("could not be checked") != std::string::npos);
        a.symbol_found = true;
        CHECK(cp::repin_answer(a).carried());
    }
    SECTION("NEW: a file still to be made stays as it is; one that appeared is for the planner") {
        auto a = result(cp::Status::New);
        a.exists_at_target = false;
        auto answer = cp::repin_answer(a);
        CHECK(answer.carried());
        REQUIRE(answer.to);
        CHECK(answer.to->path == "a.c");
        CHECK(answer.to->line == 3);
        CHECK(answer.to->end_line == 5);
        a.exists_at_target = true;
        CHECK(cp::repin_answer(a).why.find("is at the target now") != std::string::npos);
    }
    SECTION("a path JSON cannot hold keeps the anchor") {
        auto a = result(cp::Status::Same, cp::Location{"bad\xff.c", 3, 5});
        CHECK(cp::repin_answer(a).why.find("not valid UTF-8") != std::string::npos);
    }
}

TEST_CASE("repinned_spec keeps every unknown value byte for byte, in place") {
    const std::string text =
        R"({"ticket": 12345678901234567890123, "id": "plan.r1", "ratio": 1.50,)"
        R"( "nested": {"a": [1e2, -0.0, "\u00e9\n", true, null, {}], "b": []},)"
        R"( "base": "abc", "file_changes": [{"owner": "\u0041nn", "location": {"path": "a.c",)"
        R"( "line": 3, "end_line": 5, "symbol": "f", "col": 7.25}, "change": "x",)"
        R"( "was": {"base": "old"}, "tail": [0.1]}], "z": "last"})";
    cp::Spec spec = parsed(text);
    cp::SpecReport report = same_everywhere(spec);
    report.anchors[0].status = cp::Status::Moved;
    report.anchors[0].to = cp::Location{"b/a.c", 10, 12};
    const std::string out = cp::repinned_spec(spec, report, -1);
    CHECK(
        out ==
        R"({"ticket":12345678901234567890123,"id":"plan.r2","ratio":1.50,)"
        R"("nested":{"a":[1e2,-0.0,"\u00e9\n",true,null,{}],"b":[]},)"
        R"("base":"2222222222222222222222222222222222222222","file_changes":[{"owner":"\u0041nn",)"
        R"("location":{"path":"b/a.c","line":10,"end_line":12,"symbol":"f","col":7.25},)"
        R"("change":"x","tail":[0.1],"was":{"base":"1111111111111111111111111111111111111111",)"
        R"("path":"a.c","line":3,"end_line":5}}],"z":"last"})");
    // Indented, it is the same JSON value.
    const std::string pretty = cp::repinned_spec(spec, report, 2);
    CHECK(pretty.find("\n  \"file_changes\": [\n    {") != std::string::npos);
    CHECK(nlohmann::json::parse(pretty) == nlohmann::json::parse(out));
    // An entry an earlier revision kept stays as it is, its marker and `was` with it: its
    // location is the base `was` names.
    cp::Spec kept = parsed(R"({"base": "abc", "reads": [{"location": {"path": "a.c", "line": 3},)"
                           R"( "was": {"base": "old", "path": "a.c", "line": 3, "end_line": 3},)"
                           R"( "repin": "GONE: a.c deleted"}]})");
    REQUIRE(kept.anchors[0].kept == "GONE: a.c deleted");
    cp::SpecReport kept_report = same_everywhere(kept);
    CHECK_FALSE(cp::repin_answer(kept_report.anchors[0]).carried());
    CHECK(cp::repin_answer(kept_report.anchors[0]).why == "GONE: a.c deleted");
    CHECK(cp::repinned_spec(kept, kept_report, -1) ==
          R"({"base":"2222222222222222222222222222222222222222","reads":[{"location":{"path":)"
          R"("a.c","line":3},"was":{"base":"old","path":"a.c","line":3,"end_line":3},)"
          R"("repin":"GONE: a.c deleted"}]})");
}

TEST_CASE("repinned_spec: base, id, end_line and the anchors that stay") {
    SECTION("a spec without base gets one first; a null base is replaced where it is") {
        cp::Spec spec = parsed(R"({"reads": [{"location": {"path": "a.c", "line": 2}}]})");
        auto out = cp::repinned_spec(spec, same_everywhere(spec), -1);
        CHECK(out.rfind(R"({"base":")" + kTarget + R"(","reads":)", 0) == 0);
        spec = parsed(
            R"({"id": null, "base": null, "reads": [{"location": {"path": "a.c", "line": 2}}]})");
        out = cp::repinned_spec(spec, same_everywhere(spec), -1);
        CHECK(out.rfind(R"({"id":null,"base":")" + kTarget + "\"", 0) == 0);
    }
    SECTION("a byte order mark before the spec is passed over, as the parser passes it over") {
        cp::Spec spec = parsed(
            "\xEF\xBB\xBF"
            R"({"id": "b.r1", "reads": [{"location": {"path": "a.c", "line": 2}}]})");
        auto out = nlohmann::json::parse(cp::repinned_spec(spec, same_everywhere(spec), -1));
        CHECK(out["id"] == "b.r2");
        CHECK(out["base"] == kTarget);
    }
    SECTION("ids: .rN counts up in decimal; any other id is kept") {
        for (auto [id, next] :
             {std::pair{"p.r1", "p.r2"}, std::pair{"p.r9", "p.r10"}, std::pair{"p.r199", "p.r200"},
              std::pair{"p.r0", "p.r1"}, std::pair{"p", "p"}, std::pair{"p.r", "p.r"},
              std::pair{"r1", "r1"}, std::pair{"p.rx1", "p.rx1"}}) {
            cp::Spec spec = parsed(std::string(R"({"id": ")") + id +
                                   R"(", "reads": [{"location": {"path": "a.c", "line": 2}}]})");
            auto out = nlohmann::json::parse(cp::repinned_spec(spec, same_everywhere(spec), -1));
            CHECK(out["id"] == next);
        }
    }
    SECTION("a one-line anchor that widened gets end_line after line; one that did not, none") {
        cp::Spec spec =
            parsed(R"({"reads": [{"location": {"path": "a.c", "line": 2, "symbol": "s"}},)"
                   R"( {"location": {"path": "a.c", "line": 4}}]})");
        auto report = same_everywhere(spec);
        report.anchors[0].status = cp::Status::Touched;
        report.anchors[0].to = cp::Location{"a.c", 2, 3};
        auto out = cp::repinned_spec(spec, report, -1);
        CHECK(out.find(R"("location":{"path":"a.c","line":2,"end_line":3,"symbol":"s"})") !=
              std::string::npos);
        CHECK(out.find(R"("location":{"path":"a.c","line":4},"was")") != std::string::npos);
    }
    SECTION("an anchor that stays keeps its location as written, and says why") {
        cp::Spec spec = parsed(
            R"({"base": "b", "file_changes": [{"location": {"end_line": 9, "path": "gone.c",)"
            R"( "line": 1}, "change": "c"}]})");
        auto report = same_everywhere(spec);
        report.base = "";  // the base did not resolve: `was` says it as written
        report.anchors[0].status = cp::Status::Gone;
        report.anchors[0].to.reset();
        report.anchors[0].reason = "gone.c deleted at target";
        auto out = cp::repinned_spec(spec, report, -1);
        CHECK(out.find(R"("location":{"end_line":9,"path":"gone.c","line":1},"change":"c",)"
                       R"("was":{"base":"b","path":"gone.c","line":1,"end_line":9},)"
                       R"("repin":"GONE: gone.c deleted at target"})") != std::string::npos);
        CHECK(cp::kept_count(report) == 1);
        auto lines = cp::kept_lines({report});
        REQUIRE(lines.size() == 1);
        CHECK(lines[0] ==
              "plan.json: file_changes[0] stays where it was: GONE: gone.c deleted at target");
    }
    SECTION("a target that did not resolve leaves the base as it was") {
        cp::Spec spec =
            parsed(R"({"base": "b", "reads": [{"location": {"path": "a.c", "line": 2}}]})");
        auto report = same_everywhere(spec);
        report.target = cp::Target{};
        report.anchors[0].status = cp::Status::Unresolved;
        report.anchors[0].reason = "target 'x' names no commit";
        auto out = nlohmann::json::parse(cp::repinned_spec(spec, report, -1));
        CHECK(out["base"] == "b");
        CHECK(out["reads"][0]["repin"] == "UNRESOLVED: target 'x' names no commit");
    }
    SECTION("--anchor flags become a plan of reads") {
        cp::Spec spec;
        spec.source = "--anchor";
        for (auto arg : {"a.c:3-5@f", "b.c:7"}) {
            auto a = cp::parse_anchor_arg(arg);
            REQUIRE(a);
            a->index = spec.anchors.size();
            spec.anchors.push_back(*a);
        }
        auto report = same_everywhere(spec);
        report.anchors[1].to = cp::Location{"b.c", 8, 8};
        auto out = nlohmann::json::parse(cp::repinned_spec(spec, report, -1));
        CHECK(out["base"] == kTarget);
        CHECK(out["reads"][0]["location"] ==
              nlohmann::json::parse(R"({"path": "a.c", "line": 3, "end_line": 5, "symbol": "f"})"));
        CHECK(out["reads"][1]["location"] ==
              nlohmann::json::parse(R"({"path": "b.c", "line": 8})"));
        CHECK(out["reads"][1]["was"]["line"] == 7);
    }
}

TEST_CASE("repinned_spec rewrites a carried prose mention alone, its string's escapes kept") {
    const std::string text =
        R"({"reads": [{"location": {"path": "b.c", "line": 1}, "why": "caf\u00e9 \/ \u0041 )"
        R"(\ud83d\ude00 see a.c:5 and a.c:9 \t tab"}], "x": ["a.c:5", "q\u002ec:1 a.c:5"]})";
    cp::Spec spec = parsed(text);
    cp::SpecReport report = same_everywhere(spec);
    auto mention = [&](const char* written, std::int64_t line, cp::Status status,
                       std::optional<cp::Location> to) {
        cp::AnchorResult a;
        a.anchor.kind = cp::AnchorKind::Read;
        a.anchor.index = report.anchors.size() - 1;
        a.anchor.path = "a.c";
        a.anchor.line = line;
        a.anchor.mention = cp::Mention{"reads[0].why", written, {}};
        a.status = status;
        a.to = std::move(to);
        report.anchors.push_back(a);
    };
    mention("a.c:5", 5, cp::Status::Moved, cp::Location{"a.c", 7, 7});
    mention("a.c:9", 9, cp::Status::Gone, std::nullopt);  // stays as written
    const std::string out = cp::repinned_spec(spec, report, -1);
    CHECK(out.find(R"("why":"caf\u00e9 \/ \u0041 \ud83d\ude00 see a.c:7 and a.c:9 \t tab")") !=
          std::string::npos);
    CHECK(out.find(R"("x":["a.c:7","q\u002ec:1 a.c:7"])") != std::string::npos);
}
