// Prose references (--prose): `path:line` and `path:line-end` written inside a spec's own text
// (`change`, `why`, and any other string value), taken as extra read anchors.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "context_pack/model/spec.hpp"

namespace cp {

// One mention in a text: bytes [at, at + size) of it.
struct MentionSpan {
    std::size_t at = 0;
    std::size_t size = 0;
    std::string path;  // a leading "./" dropped
    std::int64_t line = 0;
    std::optional<std::int64_t> end_line;
};

// The mentions in `text`, in order. A mention is a path, then ':' and a line number, then
// optionally '-' and an end line (a further ":COLUMN" is left out). The path is a run of
// letters, digits and `_ . / + -` that is not part of a longer word or a URL (no such byte,
// nor ':', before it), does not start with '/', and looks like a file: it holds a '/', or its
// name has an extension with a letter in it ("parser.c", "src/Makefile"; not "v1.2" or
// "localhost"). Numbers past 18 digits, and a number followed by a letter or digit, are no
// mention.
std::vector<MentionSpan> find_mentions(std::string_view text);

// Appends the spec's mentions to its anchors as reads labelled prose[i], in document order,
// each (path, line, end_line) once, from every string value but the tool's own: `id`, `base`,
// `target`, each entry's `location`, `was` and `repin`. The spec's JSON text must be there.
// At most kMaxProseMentions are taken; returns how many more distinct ones there were (the
// caller refuses the spec then: a cut is never silent). A field's keys are cut after 64 bytes.
inline constexpr std::size_t kMaxProseMentions = 10000;
std::size_t add_prose_anchors(Spec& spec);

}  // namespace cp
