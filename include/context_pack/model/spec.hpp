// A spec: anchors pinned at a base revision, as the planner wrote them (SPEC §2).
// Parsing checks shapes and types only and names the JSON path of what is wrong; whether an
// anchor makes sense in the repository (line >= 1, inside the file) is decided by resolution.
#pragma once

#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "context_pack/core/result.hpp"

namespace cp {

enum class AnchorKind { Edit, Read };

// Where a prose anchor (--prose) was written: a `path:line` or `path:line-end` inside one of
// the spec's strings.
struct Mention {
    std::string field;  // the string's JSON path: "file_changes[0].change", "notes.risk[2]"
    std::string text;   // as written: "parser.c:18-30"
    // Set when the mention names no one file at base (a name several files have, or none).
    std::string problem;
};

struct Anchor {
    AnchorKind kind = AnchorKind::Edit;
    bool ad_hoc = false;    // given with --anchor rather than in a spec file
    std::size_t index = 0;  // position in file_changes[] or reads[], or among --anchor flags
    std::string path;
    std::int64_t line = 0;
    std::optional<std::int64_t> end_line;  // absent: one line
    std::optional<std::string> symbol;
    std::string note;                // the edit's `change` or the read's `why`
    std::optional<Mention> mention;  // a prose anchor: a read, `index` among the prose ones
    // The `repin` marker --repin wrote on an entry it could not carry (why it stayed): its
    // location is still the older base's, so it resolves to nothing until the planner
    // revises it and deletes the marker.
    std::optional<std::string> kept;

    std::int64_t last_line() const { return end_line.value_or(line); }
};

struct Spec {
    std::string source;  // where it came from: "plan.json", "drift.jsonl:12", "--anchor"
    std::string id;
    std::optional<std::string> base;
    std::optional<std::string> target;
    std::vector<Anchor> anchors;  // file_changes first, then reads, in input order
    // What the parser passed over: one line per unknown key, in key order at each place,
    // "file_changes[2].location: unknown key 'endline'; did you mean 'end_line'?" (no place
    // before a key at the top level).
    std::vector<std::string> warnings;
    // The JSON object as it was read (for a .jsonl input, its line); empty for --anchor. The
    // revised plan (--repin) is this text with the tool's own values rewritten.
    std::string json;
    // The file it was read from, where it really is (realpath); empty for standard input,
    // --anchor and a spec given inline. Never searched for callers: a plan is no caller.
    std::string file;
};

// The keys the parser reads at each place of a spec; any other is named in its warnings.
// docs/spec.schema.json describes each of them (tests/model/test_spec.cpp checks).
struct SpecKeys {
    std::vector<std::string_view> top;       // the spec object
    std::vector<std::string_view> edit;      // a file_changes[] entry
    std::vector<std::string_view> read;      // a reads[] entry
    std::vector<std::string_view> location;  // an entry's location
};
const SpecKeys& spec_keys();

// Parses one spec object. `source` prefixes error messages.
Result<Spec> parse_spec(std::string_view json_text, const std::string& source);

// Parses a whole input: one JSON spec, or with `jsonl` one spec per non-blank line.
Result<std::vector<Spec>> parse_specs(std::string_view text, const std::string& source, bool jsonl);

// The checks before anything runs: every spec has a base unless `base_given`, and some spec
// has an anchor. `base_hint` says how else to give a base ("pass --base REV").
Result<Unit> check_specs(const std::vector<Spec>& specs, bool base_given,
                         std::string_view base_hint);

// "an integer", "a string", "an object", ...: a JSON value's type as error messages say it.
const char* json_type_name(const nlohmann::json& value);
const char* json_type_name(const nlohmann::ordered_json& value);

// Parses an ad hoc anchor `PATH:LINE[-END][@SYMBOL]`; the path may itself contain ':' or '@'.
Result<Anchor> parse_anchor_arg(std::string_view arg);

// A symbol is 1-128 bytes with no whitespace or control byte.
std::optional<std::string> symbol_problem(std::string_view symbol);

// The known key an unknown `key` was most likely meant to be, or nullopt when none is close.
// Close: equal once case, '_' and '-' are ignored ("endLine", "end-line" for "end_line"), or
// that far apart (text::edit_distance) by at most 1 for a known key of 3 to 5 bytes and at most
// 2 for a longer one ("lnie", "symbl"); a key of 1 or 2 bytes ("id") only when equal so.
// The closest wins; a tie goes to the first in `known`.
std::optional<std::string> closest_key(std::string_view key,
                                       const std::vector<std::string_view>& known);

// The specs' warnings as lines for a person, "plan.json: reads[0]: unknown key 'wy'; ...":
// the first kMaxWarningLines, then one line with how many more (`all_in` says what lists every
// one: "--format json"); with `failing` (the option that makes a warning fail the run, --at-base) a
// closing line that says so. None without a warning.
inline constexpr std::size_t kMaxWarningLines = 10;
std::vector<std::string> warning_lines(const std::vector<Spec>& specs, std::string_view all_in,
                                       std::optional<std::string_view> failing);

// "file_changes[3]", "reads[0]", "prose[1]" or "--anchor[2]": how a person names the anchor.
std::string anchor_label(const Anchor& anchor);

}  // namespace cp
