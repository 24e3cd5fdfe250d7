// The one table of options (app/options.hpp) that the command line, the MCP tool's schema, its
// argument reading and `mcp --help` come from, held to the man page and to the names errors
// give: a default or range changed in one place shows everywhere, or a test here fails.
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>

#include "context_pack/app/options.hpp"
#include "context_pack/core/option_names.hpp"
#include "support/catch.hpp"
#include "support/fixture.hpp"
#include "support/mcp_session.hpp"

using Json = nlohmann::json;
namespace options = cp::options;

namespace {

// A name as the man page's source writes it: every '-' escaped.
std::string man_name(std::string_view cli) {
    std::string out;
    for (char c : cli) out += c == '-' ? std::string("\\-") : std::string(1, c);
    return out;
}

// The man page's paragraph for an option: from its tagged line to the next .TP or section.
std::string man_paragraph(const std::string& page, std::string_view cli) {
    const std::string name = man_name(cli);
    std::istringstream lines(page);
    std::string line, out;
    bool in = false;
    while (std::getline(lines, line)) {
        if (in && (line.rfind(".TP", 0) == 0 || line.rfind(".SH", 0) == 0)) break;
        const bool tag = line.rfind(".B", 0) == 0 || line.rfind(".I", 0) == 0;
        if (!in && tag) {
            // ".BI \-\-context " n"" or ".BR \-\-format " " text | ...": the name whole.
            const auto at = line.find(' ');
            const std::string first =
                at == std::string::npos ? "" : line.substr(at + 1, line.find(' ', at + 1) - at - 1);
            if (first == name) in = true;
        }
        if (in) out += line + "\n";
    }
    return out;
}

// The MCP tool's inputSchema, as tools/list serves it.
Json tool_schema() {
    auto s = cptest::run_session(
        {cptest::initialize(1), cptest::kInitialized, cptest::request(2, "tools/list")});
    REQUIRE(s.status == 0);
    return cptest::reply(s, 2)["result"]["tools"][0]["inputSchema"];
}

}  // namespace

TEST_CASE("options: the man page names every flag of the table with its default and range") {
    std::ifstream file(cptest::source_dir() + "/docs/context-pack.1.in");
    REQUIRE(file);
    const std::string page{std::istreambuf_iterator<char>(file), {}};
    std::size_t checked = 0;
    for (const options::Option& o : options::all()) {
        if (o.cli.empty()) continue;
        INFO(o.cli);
        const std::string paragraph = man_paragraph(page, o.cli);
        REQUIRE_FALSE(paragraph.empty());
        if (o.fallback)
            CHECK(paragraph.find("default " + std::to_string(*o.fallback)) != std::string::npos);
        if (o.tool_fallback)
            CHECK(paragraph.find(std::to_string(*o.tool_fallback)) != std::string::npos);
        if (o.kind == options::Kind::Number)
            CHECK(paragraph.find(std::to_string(o.min)) != std::string::npos);
        for (std::string_view choice : o.choices)
            CHECK(paragraph.find(std::string(choice)) != std::string::npos);
        ++checked;
    }
    CHECK(checked >= 20);
}

TEST_CASE("options: the README's table of caps gives the table's defaults") {
    std::ifstream file(cptest::source_dir() + "/README.md");
    REQUIRE(file);
    std::size_t rows = 0;
    for (std::string line; std::getline(file, line);) {
        // "| `--max-lines N` | 1500 | ...": a row of the caps table.
        if (line.rfind("| `--", 0) != 0) continue;
        const auto name_end = line.find_first_of(" `", 3);
        const std::string name = line.substr(3, name_end - 3);
        const auto cell = line.find("| ", line.find('|', 1)) + 2;
        const std::string fallback = line.substr(cell, line.find(" |", cell) - cell);
        INFO(line.substr(0, 60));
        const options::Option& o = options::cli(name);
        std::string expected = o.fallback ? std::to_string(*o.fallback) : "none";
        if (o.tool_fallback) expected += " (MCP: " + std::to_string(*o.tool_fallback) + ")";
        CHECK(fallback == expected);
        ++rows;
    }
    CHECK(rows >= 7);
}

TEST_CASE("options: the tool's schema is the table's, each number's range and default") {
    const Json schema = tool_schema();
    const Json& properties = schema["properties"];
    std::set<std::string> names;
    for (const options::Option& o : options::all()) {
        if (o.tool.empty()) continue;
        INFO(o.tool);
        names.insert(std::string(o.tool));
        REQUIRE(properties.contains(std::string(o.tool)));
        const Json& p = properties[std::string(o.tool)];
        if (o.kind == options::Kind::Number) {
            CHECK(p["minimum"] == o.min);
            CHECK(p["maximum"] == o.max);
            if (auto d = o.default_for_tool())
                CHECK(p["description"].get<std::string>().find("default " + std::to_string(*d)) !=
                      std::string::npos);
        }
        if (o.kind == options::Kind::Flag) CHECK(p["type"] == "boolean");
        if (o.kind == options::Kind::List) CHECK(p["type"] == "array");
    }
    CHECK(properties.size() == names.size());  // nothing besides the table
    CHECK(schema["additionalProperties"] == false);
    // mcp --help lists each argument.
    const std::string help = cptest::context_pack(".", "mcp --help").out;
    for (const std::string& name : names)
        CHECK(help.find("\n  " + name + " ") != std::string::npos);
}

TEST_CASE("options: the names errors give are the table's, on the command line and over MCP") {
    const cp::OptionNames cli = options::names_for_cli(), tool = options::names_for_tool();
    const cp::OptionNames& core = cp::kCommandLineNames;
    // Core's defaults (the names a request carries unless its front end gives its own) are
    // the command line's as the table writes them.
    for (auto field : {&cp::OptionNames::repo, &cp::OptionNames::base, &cp::OptionNames::target,
                       &cp::OptionNames::at_base, &cp::OptionNames::since, &cp::OptionNames::only,
                       &cp::OptionNames::repin, &cp::OptionNames::prose,
                       &cp::OptionNames::max_file_mib, &cp::OptionNames::max_lines,
                       &cp::OptionNames::max_window_lines, &cp::OptionNames::max_callers,
                       &cp::OptionNames::max_line_bytes, &cp::OptionNames::callers_in}) {
        INFO((core.*field).name);
        CHECK((cli.*field).name == (core.*field).name);
        CHECK((cli.*field).give == (core.*field).give);
        CHECK(options::tool((tool.*field).name).cli == (cli.*field).name);
    }
}

TEST_CASE("options: every argument of the tool is read, refused when mistyped") {
    // An object is the wrong type for every argument: one that the server did not read would
    // pass unnoticed.
    for (const options::Option& o : options::all()) {
        if (o.tool.empty() || o.tool == "spec") continue;
        INFO(o.tool);
        Json args = {{"spec", "{}"}, {std::string(o.tool), Json::object()}};
        auto s = cptest::run_session({cptest::initialize(1), cptest::call(3, args)});
        const std::string text =
            cptest::reply(s, 3)["result"]["content"][0]["text"].get<std::string>();
        CHECK(text.rfind(std::string(o.tool), 0) == 0);  // "context must be an integer, ..."
    }
}

TEST_CASE("options: the line cap is the default, none for named rows, or the one given") {
    const auto fallback = std::size_t(*options::cli("--max-lines").fallback);
    CHECK(options::max_lines(std::nullopt, false) == fallback);
    CHECK(options::max_lines(std::nullopt, true) == std::nullopt);
    CHECK(options::max_lines(7, true) == std::size_t{7});
    CHECK(options::max_lines(7, false) == std::size_t{7});
    CHECK(options::range_of(options::cli("--context")) == "0 to 1000");
    CHECK(options::range_of(options::cli("--max-line-bytes")) == "at least 16");
    CHECK(options::help_of(options::cli("--context")).find("0 to 1000 (default 3)") !=
          std::string::npos);
    CHECK_THROWS_AS(options::cli("--no-such"), std::logic_error);
}
