// Byte-level text helpers shared by resolution and the printers: counting and slicing lines
// the way git counts them, and the whole-word test of `git grep -w -F`.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace cp::text {

// Number of lines as git counts them: every '\n' ends one, and trailing bytes without a final
// newline are one more. An empty buffer has 0 lines. Counting stops at `most` lines: whether a
// file reaches a line is told without reading past it.
std::int64_t count_lines(std::string_view content,
                         std::int64_t most = std::numeric_limits<std::int64_t>::max());

// The lines of `content`, without their '\n' and without one '\r' before it (CRLF files).
std::vector<std::string_view> split_lines(std::string_view content);
// Lines `first` to `last` (1-based, both included) as split_lines gives them, fewer where the
// content ends before `last`; the lines before `first` are passed over, those after not read.
std::vector<std::string_view> split_lines(std::string_view content, std::int64_t first,
                                          std::int64_t last);

// Git's binary test: a NUL byte in the first 8000 bytes.
bool looks_binary(std::string_view content);

// True when a byte is a word byte for -w: an ASCII letter, digit or '_'. Inline: the
// caller scan asks it of every byte of every file.
inline constexpr auto kWordBytes = [] {
    std::array<bool, 256> table{};
    for (int c = 0; c < 256; ++c)
        table[std::size_t(c)] =
            (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
    return table;
}();
inline bool is_word_byte(unsigned char c) {
    return kWordBytes[c];
}

// True when `line` holds nothing but whitespace (spaces, tabs, line ends, form feeds).
bool is_blank(std::string_view line);

// True when `needle` occurs in `line` with no word byte just before or just after it, as
// `git grep -w -F` would match it (it retries past a failed candidate).
bool contains_word(std::string_view line, std::string_view needle);
// Where the first such occurrence starts (a byte offset), if any.
std::optional<std::size_t> find_word(std::string_view line, std::string_view needle);

// `bytes` with control characters escaped (\n, \t, \xNN, and as visible() does), for
// one-line messages and cells.
std::string printable(std::string_view bytes);

// `line` as a terminal may show it and a person read it: control bytes (C0 but the tab, DEL,
// the C1 controls that UTF-8 encodes as C2 80-9F, and a lone byte 80-9F, which a terminal in
// 8-bit mode takes for one) escaped as \xNN or \u00NN, and the bidirectional overrides and
// isolates (U+202A-202E, U+2066-2069) as \uNNNN, so that file contents, names, subjects and
// spec text can neither forge lines, send terminal escapes nor reorder what is shown; tabs
// and other text as they are.
std::string visible(std::string_view line);

// Cuts a line to at most `max_bytes` bytes without splitting a UTF-8 sequence; returns the
// number of bytes cut.
std::size_t cut_line(std::string& line, std::size_t max_bytes);

// The first 10 hex digits of an object id, as tables and messages show it.
std::string short_oid(std::string_view oid);

// `word` as one shell word: as it is when it needs no quoting, else in single quotes.
std::string shell_word(std::string_view word);

// `text` in lines of at most `room` bytes, broken at spaces (a word longer stays whole).
std::vector<std::string> wrapped(const std::string& text, std::size_t room);

// The Damerau-Levenshtein distance between `a` and `b` in its optimal-string-alignment form
// (insertions, deletions, substitutions and swaps of two adjacent bytes, each 1; no byte
// edited twice), or `limit + 1` as soon as it is known to exceed `limit`.
std::size_t edit_distance(std::string_view a, std::string_view b, std::size_t limit);

// The paths of `paths` that an absent `path` was likely meant to be, sorted, at most `most`
// (`*more` gets how many were left out): those with its basename in another directory, and
// those a typo away: the same extension (the basename from its last '.'), and the whole paths
// at most 2 edits apart (edit_distance) when the basename's stem (before the extension) is 6
// bytes or longer, at most 1 for a stem of 3 to 5 bytes, and none for a shorter one ("a.c" is
// not "b.c"). One pass over `paths`; `path` itself is never among them.
std::vector<std::string> similar_paths(std::string_view path,
                                       std::span<const std::string_view> paths, std::size_t most,
                                       std::size_t* more = nullptr);

}  // namespace cp::text
