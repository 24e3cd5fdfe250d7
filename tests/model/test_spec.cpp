// Spec parsing: the SPEC §2 shape, errors that name the JSON path, and --anchor arguments.
#include <fmt/format.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "context_pack/model/spec.hpp"
#include "support/catch.hpp"
#include "support/fixture.hpp"

using cp::AnchorKind;
using cp::parse_anchor_arg;
using cp::parse_spec;
using cp::parse_specs;

namespace {

std::string error_of(const std::string& json) {
    auto r = parse_spec(json, "plan.json");
    REQUIRE_FALSE(r.ok());
    return r.error().message;
}

}  // namespace

TEST_CASE("a full spec parses into anchors in input order, edits before reads") {
    auto r = parse_spec(R"({
      "id": "cut.r2", "base": "a7966142", "target": "main", "extra": {"ignored": true},
      "file_changes": [
        {"location": {"path": "src/a.hlsl", "line": 83, "end_line": 89, "symbol": "ball"},
         "change": "add the overload", "unknown": 1}
      ],
      "reads": [{"location": {"path": "t/b.cs", "line": 191}, "why": "the check to copy"}]
    })",
                        "plan.json");
    REQUIRE(r.ok());
    const cp::Spec& s = r.value();
    CHECK(s.id == "cut.r2");
    CHECK(s.base == "a7966142");
    CHECK(s.target == "main");
    REQUIRE(s.anchors.size() == 2);
    CHECK(s.anchors[0].kind == AnchorKind::Edit);
    CHECK(s.anchors[0].path == "src/a.hlsl");
    CHECK(s.anchors[0].line == 83);
    CHECK(s.anchors[0].last_line() == 89);
    CHECK(s.anchors[0].symbol == "ball");
    CHECK(s.anchors[0].note == "add the overload");
    CHECK(cp::anchor_label(s.anchors[0]) == "file_changes[0]");
    CHECK(s.anchors[1].kind == AnchorKind::Read);
    CHECK(s.anchors[1].last_line() == 191);
    CHECK_FALSE(s.anchors[1].symbol.has_value());
    CHECK(cp::anchor_label(s.anchors[1]) == "reads[0]");
}

TEST_CASE("null optional fields read as absent") {
    auto r = parse_spec(
        R"({"base": null, "file_changes": [{"location": {"path": "a", "line": 1,
            "end_line": null, "symbol": null}}]})",
        "p");
    REQUIRE(r.ok());
    CHECK_FALSE(r->base.has_value());
    CHECK_FALSE(r->anchors[0].end_line.has_value());
    CHECK_FALSE(r->anchors[0].symbol.has_value());
}

TEST_CASE("zero, negative and reversed lines parse, and resolution reports them") {
    auto r = parse_spec(
        R"({"base": "x", "file_changes": [{"location": {"path": "a", "line": 0}},
            {"location": {"path": "a", "line": -4, "end_line": -9}}]})",
        "p");
    REQUIRE(r.ok());
    CHECK(r->anchors[0].line == 0);
    CHECK(r->anchors[1].last_line() == -9);
}

TEST_CASE("an anchor written flat is told to nest its location") {
    CHECK(error_of(R"({"base": "x", "reads": [{"path": "a.c", "line": 3}]})") ==
          "plan.json: reads[0].location is missing; path, line, end_line and symbol go inside "
          "it: {\"location\": {\"path\": \"a.c\", \"line\": 3}}");
}

TEST_CASE("a wrong type names its JSON path") {
    CHECK(error_of(R"({"base": "x", "file_changes": [{}, {}, {}, {"location": {"path": "a",
          "line": "12"}}]})") == "plan.json: file_changes[0].location is missing");
    CHECK(error_of(R"({"file_changes": [{"location": {"path": "a", "line": "12"}}]})") ==
          "plan.json: file_changes[0].location.line must be an integer, not a string");
    CHECK(error_of(R"({"reads": [{"location": {"path": "a", "line": 1}}, {"location":
          {"path": "b", "line": 2.5}}]})") ==
          "plan.json: reads[1].location.line must be an integer, not a non-integer number");
    CHECK(error_of(R"({"base": 7})") == "plan.json: base must be a string, not an integer");
    CHECK(error_of(R"({"file_changes": {}})") ==
          "plan.json: file_changes must be an array, not an object");
    CHECK(error_of(R"({"file_changes": [3]})") ==
          "plan.json: file_changes[0] must be an object, not an integer");
    CHECK(error_of(R"({"file_changes": [{"location": {"line": 1}}]})") ==
          "plan.json: file_changes[0].location.path is missing or empty");
    CHECK(error_of(R"({"file_changes": [{"location": {"path": "a"}}]})") ==
          "plan.json: file_changes[0].location.line is missing");
    CHECK(error_of(R"({"file_changes": [{"location": {"path": "a", "line": 1},
          "change": false}]})") ==
          "plan.json: file_changes[0].change must be a string, not a boolean");
    CHECK(error_of("[1, 2]") == "plan.json: the spec must be a JSON object, not an array");
}

TEST_CASE("line numbers past 64 bits are refused, not wrapped") {
    CHECK(error_of(R"({"file_changes": [{"location": {"path": "a",
          "line": 18446744073709551615}}]})") ==
          "plan.json: file_changes[0].location.line is too large for a line number");
    CHECK(error_of(R"({"file_changes": [{"location": {"path": "a",
          "line": 99999999999999999999999}}]})") ==
          "plan.json: file_changes[0].location.line is too large for a line number");
    CHECK(error_of(R"({"file_changes": [{"location": {"path": "a",
          "line": -1e19}}]})") ==
          "plan.json: file_changes[0].location.line is too small for a line number");
    CHECK(error_of(R"({"file_changes": [{"location": {"path": "a",
          "line": 1.5}}]})") ==
          "plan.json: file_changes[0].location.line must be an integer, not a non-integer number");
}

TEST_CASE("symbols are 1-128 bytes without whitespace") {
    CHECK(error_of(R"({"file_changes": [{"location": {"path": "a", "line": 1,
          "symbol": "two words"}}]})") ==
          "plan.json: file_changes[0].location.symbol must not contain whitespace or control "
          "characters");
    CHECK(error_of(R"({"file_changes": [{"location": {"path": "a", "line": 1,
          "symbol": ""}}]})") == "plan.json: file_changes[0].location.symbol must not be empty");
    std::string long_symbol(129, 'x');
    CHECK(error_of(R"({"file_changes": [{"location": {"path": "a", "line": 1, "symbol": ")" +
                   long_symbol + "\"}}]}") ==
          "plan.json: file_changes[0].location.symbol is 129 bytes long; a symbol is at most "
          "128 bytes");
    auto ok = parse_spec(R"({"file_changes": [{"location": {"path": "a.prefab", "line": 1,
          "symbol": "&1144072861"}}]})",
                         "p");
    REQUIRE(ok.ok());
    CHECK(ok->anchors[0].symbol == "&1144072861");
}

TEST_CASE("docs/spec.schema.json describes exactly the keys the parser reads") {
    // The schema's properties at each place are the parser's keys there (was and repin, which
    // --repin writes, included). tests/schema/spec.mjs checks the schema's types against the
    // parser.
    auto schema =
        nlohmann::json::parse(cptest::slurp(cptest::source_dir() + "/docs/spec.schema.json"));
    auto described = [](const nlohmann::json& object) {
        std::vector<std::string> keys;
        for (const auto& item : object.at("properties").items()) keys.push_back(item.key());
        std::sort(keys.begin(), keys.end());
        return keys;
    };
    auto sorted = [](const std::vector<std::string_view>& parsed) {
        std::vector<std::string> keys(parsed.begin(), parsed.end());
        std::sort(keys.begin(), keys.end());
        return keys;
    };
    const auto& keys = cp::spec_keys();
    const auto& edit = schema["properties"]["file_changes"]["items"];
    const auto& read = schema["properties"]["reads"]["items"];
    CHECK(described(schema) == sorted(keys.top));
    CHECK(described(edit) == sorted(keys.edit));
    CHECK(described(read) == sorted(keys.read));
    CHECK(described(edit["properties"]["location"]) == sorted(keys.location));
    CHECK(described(read["properties"]["location"]) == sorted(keys.location));
}

TEST_CASE("invalid JSON says where") {
    auto message = error_of(R"({"base": "x",)");
    CHECK(message.starts_with("plan.json: invalid JSON: parse error at line 1, column 14"));
}

TEST_CASE("jsonl: one spec a line, blank lines skipped, errors name the line") {
    auto r = parse_specs("{\"base\": \"a\"}\n\n{\"base\": \"b\"}\n", "d.jsonl", true);
    REQUIRE(r.ok());
    REQUIRE(r->size() == 2);
    CHECK((*r)[1].base == "b");
    CHECK((*r)[1].source == "d.jsonl:3");
    auto bad = parse_specs("{\"base\": \"a\"}\n{\"base\": 1}\n", "d.jsonl", true);
    REQUIRE_FALSE(bad.ok());
    CHECK(bad.error().message == "d.jsonl:2: base must be a string, not an integer");
}

TEST_CASE("ad hoc anchors: PATH:LINE, an optional END and SYMBOL") {
    auto a = parse_anchor_arg("src/main.c:40-52@parse_args");
    REQUIRE(a.ok());
    CHECK(a->path == "src/main.c");
    CHECK(a->line == 40);
    CHECK(a->end_line == 52);
    CHECK(a->symbol == "parse_args");
    CHECK(a->ad_hoc);

    auto one = parse_anchor_arg("README.md:7");
    REQUIRE(one.ok());
    CHECK(one->last_line() == 7);
    CHECK_FALSE(one->symbol.has_value());

    auto colons = parse_anchor_arg("dir:12/we:ird@x.c:3@ns::name");  // ':' and '@' in the path
    REQUIRE(colons.ok());
    CHECK(colons->path == "dir:12/we:ird@x.c");
    CHECK(colons->line == 3);
    CHECK(colons->symbol == "ns::name");

    auto zero = parse_anchor_arg("a.c:0");
    REQUIRE(zero.ok());
    CHECK(zero->line == 0);

    for (const char* bad : {"a.c", "a.c:", "a.c:x", ":5", "a.c:5-", "a.c:-5", "a.c:5@",
                            "a.c:99999999999999999999", "a.c:1@has space"}) {
        INFO(bad);
        auto r = parse_anchor_arg(bad);
        REQUIRE_FALSE(r.ok());
        CHECK(r.error().message.starts_with(std::string("'") + bad + "': "));
    }
    // Lines, then the symbol after ':' as in other tools' PATH:LINE:COLUMN, where '@' is meant.
    auto colon_symbol = parse_anchor_arg("src/a.c:40-52:parse");
    REQUIRE_FALSE(colon_symbol.ok());
    CHECK(colon_symbol.error().message ==
          "'src/a.c:40-52:parse': a symbol follows @, not ':' (did you mean "
          "src/a.c:40-52@parse?); write PATH:LINE[-END][@SYMBOL], e.g. "
          "src/main.c:40-52@parse_args");
    CHECK(parse_anchor_arg("a.c:7:x").error().message.find("did you mean a.c:7@x?") !=
          std::string::npos);
    CHECK(parse_anchor_arg("a.c:7:").error().message.find("no :LINE") != std::string::npos);
}

TEST_CASE("closest_key: case, '_' and '-' ignored, 1 edit for 3-5 bytes, 2 beyond, 0 for 1-2") {
    const std::vector<std::string_view> location = {"path", "line", "end_line", "symbol"};
    const std::vector<std::string_view> top = {"id", "base", "target", "file_changes", "reads"};
    struct Row {
        const char* typed;
        const std::vector<std::string_view>* known;
        std::optional<std::string> meant;
    };
    const Row rows[] = {
        // Equal once case, '_' and '-' are ignored, at any length.
        {"endline", &location, "end_line"},
        {"endLine", &location, "end_line"},
        {"end-line", &location, "end_line"},
        {"END_LINE", &location, "end_line"},
        {"ID", &top, "id"},
        {"File-Changes", &top, "file_changes"},
        // One edit (a swap counts as one) from a key of 3 to 5 bytes.
        {"lnie", &location, "line"},
        {"lines", &location, "line"},
        {"pth", &location, "path"},
        {"bse", &top, "base"},
        {"read", &top, "reads"},
        // Two edits from a longer key.
        {"sybmol", &location, "symbol"},
        {"symbl", &location, "symbol"},
        {"targte", &top, "target"},
        {"file_chanes", &top, "file_changes"},
        {"filechange", &top, "file_changes"},
        {"end_lnie", &location, "end_line"},
        // The closest wins: "lin" is one from "line", further from the rest.
        {"lin", &location, "line"},
        // Not close.
        {"ix", &top, std::nullopt},  // a 2-byte key only when equal so
        {"i", &top, std::nullopt},
        {"lien_x", &location, std::nullopt},   // 3 from "line"
        {"paths_", &location, "path"},         // folded "paths": 1 from "path"
        {"pathss", &location, std::nullopt},   // 2 from "path", which allows 1
        {"simbuul", &location, std::nullopt},  // 3 from "symbol"
        {"start_line", &location, std::nullopt},
        {"", &location, std::nullopt},
        {"extra", &top, std::nullopt},
        {"changes", &top, std::nullopt},
    };
    for (const Row& r : rows) {
        INFO(r.typed);
        CHECK(cp::closest_key(r.typed, *r.known) == r.meant);
    }
}

TEST_CASE("unknown keys are accepted and named with their JSON paths, top level first") {
    auto r = parse_spec(R"({
      "bse": "x", "base": "HEAD", "extra": {"ignored": true},
      "file_changes": [
        {"location": {"path": "a.c", "line": 1}},
        {"location": {"path": "a.c", "line": 1, "endline": 2, "Symbol": "f"}, "chnage": "c",
         "why": "w"}
      ],
      "reads": [{"location": {"path": "b.c", "line": 3, "zz": 1}, "change": "c", "endLine": 4,
                 "symbol": "f"}]
    })",
                        "plan.json");
    REQUIRE(r.ok());
    CHECK(r.value().anchors.size() == 3);
    CHECK(r.value().anchors[1].end_line == std::nullopt);  // not read under a wrong name
    CHECK(r.value().warnings ==
          std::vector<std::string>{
              "unknown key 'bse'; did you mean 'base'?",
              "unknown key 'extra'",
              "file_changes[1].location: unknown key 'Symbol'; did you mean 'symbol'?",
              "file_changes[1].location: unknown key 'endline'; did you mean 'end_line'?",
              "file_changes[1]: unknown key 'chnage'; did you mean 'change'?",
              "file_changes[1]: unknown key 'why'; did you mean 'change'? ('why' is for reads)",
              "reads[0].location: unknown key 'zz'",
              "reads[0]: unknown key 'change'; did you mean 'why'? ('change' is for "
              "file_changes)",
              "reads[0]: unknown key 'endLine'; did you mean 'location.end_line'?",
              "reads[0]: unknown key 'symbol'; did you mean 'location.symbol'?",
          });
    CHECK_FALSE(r.value().anchors[2].symbol.has_value());
    auto clean = parse_spec(
        R"({"id": "x", "base": "b", "target": "t", "file_changes": [{"location": {"path": "a",
        "line": 1, "end_line": 2, "symbol": "s"}, "change": "c"}], "reads": [{"location":
        {"path": "a", "line": 1}, "why": "w"}]})",
        "plan.json");
    REQUIRE(clean.ok());
    CHECK(clean.value().warnings.empty());
}

TEST_CASE("an unknown key is shown escaped and cut after 64 bytes") {
    auto r = parse_spec("{\"base\": \"b\", \"a\\u001b[2J\": 1, \"" + std::string(100, 'k') +
                            "\": 1, \"reads\": []}",
                        "plan.json");
    REQUIRE(r.ok());
    REQUIRE(r.value().warnings.size() == 2);
    CHECK(r.value().warnings[0] == "unknown key 'a\\x1b[2J'");
    CHECK(r.value().warnings[1] == "unknown key '" + std::string(64, 'k') + "...'");
}

TEST_CASE("warning_lines: ten, then the count of the rest, then --at-base's verdict") {
    cp::Spec a, b;
    a.source = "a.json";
    b.source = "b.jsonl:2";
    for (int i = 0; i < 7; ++i) a.warnings.push_back(fmt::format("unknown key 'a{}'", i));
    for (int i = 0; i < 5; ++i) b.warnings.push_back(fmt::format("unknown key 'b{}'", i));
    auto lines = cp::warning_lines({a, b}, "the JSON", std::nullopt);
    REQUIRE(lines.size() == 11);
    CHECK(lines[0] == "a.json: unknown key 'a0'");
    CHECK(lines[9] == "b.jsonl:2: unknown key 'b2'");
    CHECK(lines[10] ==
          "2 more unknown keys not shown; the JSON lists every one in each spec's warnings");
    auto failing = cp::warning_lines({a}, "the JSON", "--at-base");
    REQUIRE(failing.size() == 8);
    CHECK(failing.back() ==
          "--at-base: 7 unknown keys in the plan, so the check fails (exit status 1); mend or "
          "remove them");
    CHECK(cp::warning_lines({cp::Spec{}}, "x", "--at-base").empty());
}
