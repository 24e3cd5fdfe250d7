// docs/spec.schema.json, the JSON Schema of a spec, as the build compiled it in
// (cmake/EmbedJson.cmake writes the definition into the build folder): the MCP tool's schema
// of its spec argument is made from it, so the file is the one copy.
#pragma once

#include <string_view>

namespace cp::mcp {

// The file's bytes, as they are.
std::string_view spec_schema_json();

}  // namespace cp::mcp
