// One table of the options both front ends take: the command line's flags and the MCP tool's
// arguments, each with its range, default and help. The command line binds each flag to its
// field and takes its name, help and range check from here; the MCP tool's schema, its
// argument reading, `mcp --help` and the names errors give come from here too; a test holds
// the man page to it.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "context_pack/core/option_names.hpp"

namespace cp::options {

enum class Kind {
    Flag,    // given or not (a boolean argument over MCP)
    Text,    // one string: a revision, a directory
    List,    // strings, the flag repeated (an array over MCP)
    Number,  // a whole number within [min, max]
    Choice,  // one of `choices`
};

struct Option {
    std::string_view cli{};   // "--max-lines"; empty: an argument of the tool alone
    std::string_view tool{};  // "max_lines"; empty: a flag of the command line alone
    Kind kind = Kind::Flag;
    std::string_view metavar{};     // the command line's word for its value: N, REV
    std::int64_t min = 0, max = 0;  // a number's range
    // The default where one number is it; the tool's where it differs (max_tokens).
    std::optional<std::int64_t> fallback{}, tool_fallback{};
    std::vector<std::string_view> choices{};
    // The command line's help and the tool's description. Each may hold {range} ("0 to 1000",
    // "at least 16") and {default}; the tool's is short, as a host sends it on every turn.
    std::string_view help{}, brief{};

    std::optional<std::int64_t> default_for_tool() const {
        return tool_fallback ? tool_fallback : fallback;
    }
};

// Every option, in the order the command line's help lists them.
const std::vector<Option>& all();
// By its name on the command line ("--context") or over MCP ("context"); a name that is in no
// entry is a programming error (std::logic_error).
const Option& cli(std::string_view name);
const Option& tool(std::string_view name);
// Whether the MCP tool takes an argument of this name.
bool is_tool_argument(std::string_view name);

// "0 to 1000", or "at least 16" when the maximum is only a guard.
std::string range_of(const Option& o);
// The command line's help and the tool's description, {range} and {default} filled in.
std::string help_of(const Option& o);
std::string brief_of(const Option& o);
// The tool's argument names, in the table's order: "spec, anchor, repo, ...".
std::string tool_names();
// The tool's arguments' schemas (inputSchema's properties), spec among them.
nlohmann::json tool_properties();
// The names errors and pointers give, on the command line or over MCP.
OptionNames names_for_cli();
OptionNames names_for_tool();

// The pack's line cap: the one given, else none for a request that names its rows (--only
// or only asks for them whole), else the default.
std::optional<std::size_t> max_lines(std::optional<std::size_t> given, bool only_given);

}  // namespace cp::options
