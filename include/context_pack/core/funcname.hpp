// Enclosing definitions for window headers: the nearest line at or above a point that opens
// a function, class or section, as git's funcname rules find a hunk's context. The rule is
// picked by the file's extension (C, C++, HLSL/GLSL, C#, Java, Kotlin, Rust, Go, Python,
// JavaScript/TypeScript, shell, Markdown); other files use git's default rule, a line that
// starts with a letter, '_' or '$'. Pure: lines in.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "context_pack/core/mapping.hpp"

namespace cp {

struct Definition {
    LineNo line = 0;
    std::string text;  // the line, trimmed, at most 120 bytes
};

// The language rule's name for a path: "cpp", "csharp", ..., or "default".
std::string_view funcname_language(std::string_view path);

// The definition enclosing line `at` (1-based): the nearest line at or above it that the rule
// matches, looking back at most 10,000 lines.
std::optional<Definition> enclosing_definition(std::string_view path,
                                               const std::vector<std::string_view>& lines,
                                               LineNo at);

}  // namespace cp
