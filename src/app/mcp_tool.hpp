// The MCP server's one tool, context_pack: its description and input and output schemas, its
// arguments read into a pipeline Request (named as the tool names them), and a call's result:
// the text pack plus the report as structuredContent, or an isError result with one line.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace cp::mcp {

using Json = nlohmann::ordered_json;  // keeps the report's key order in structuredContent

// What initialize tells the client the tool is for.
extern const char* const kInstructions;

// The tool as tools/list describes it to a client speaking `protocol`.
Json tool_description(std::string_view protocol);

// The result of one tools/call with these arguments; bad arguments are an isError result.
Json call_tool(const Json& arguments);

// An isError result saying `message` on one line.
Json tool_error(const std::string& message);

}  // namespace cp::mcp
