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

struct Anchor {
    AnchorKind kind = AnchorKind::Edit;
    bool ad_hoc = false;    // given with --anchor rather than in a spec file
    std::size_t index = 0;  // position in file_changes[] or reads[], or among --anchor flags
    std::string path;
    std::int64_t line = 0;
    std::optional<std::int64_t> end_line;  // absent: one line
    std::optional<std::string> symbol;
    std::string note;  // the edit's `change` or the read's `why`

    std::int64_t last_line() const { return end_line.value_or(line); }
};

struct Spec {
    std::string source;  // where it came from: "plan.json", "drift.jsonl:12", "--anchor"
    std::string id;
    std::optional<std::string> base;
    std::optional<std::string> target;
    std::vector<Anchor> anchors;  // file_changes first, then reads, in input order
};

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

// "file_changes[3]", "reads[0]" or "--anchor[2]": how a person names the anchor.
std::string anchor_label(const Anchor& anchor);

}  // namespace cp
