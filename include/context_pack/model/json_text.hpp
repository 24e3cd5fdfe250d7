// JSON text as the tool reads it: spec files, spec objects and MCP messages. Nesting is bounded
// at parse time (kMaxJsonDepth), so no later copy, dump or comparison of the value, all of which
// recurse, can overflow the stack; an error is one line without the "[json.exception...]" tag.
#pragma once

#include <nlohmann/json.hpp>
#include <string_view>

#include "context_pack/core/result.hpp"

namespace cp {

// Arrays and objects nested deeper than this are refused; a spec needs four levels.
inline constexpr int kMaxJsonDepth = 256;

// Parses one JSON text; a syntax error, a number out of range or nesting past kMaxJsonDepth is
// an Error such as "parse error at line 2, column 13: ...".
Result<nlohmann::json> parse_json(std::string_view text);
Result<nlohmann::ordered_json> parse_ordered_json(std::string_view text);

}  // namespace cp
