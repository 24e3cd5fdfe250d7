// The report: what resolution found for every anchor of every spec, as plain values.
// Printers (table, JSON, and later windows and callers) read it; none of them resolves.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "context_pack/core/callers.hpp"
#include "context_pack/model/spec.hpp"
#include "context_pack/core/window.hpp"

namespace cp {

enum class Status { Same, Moved, Touched, Gone, New, Unresolved };
inline constexpr std::array kAllStatuses = {Status::Same, Status::Moved, Status::Touched,
                                            Status::Gone, Status::New,   Status::Unresolved};

std::string_view status_name(Status status);

struct Location {
    std::string path;
    std::int64_t line = 0;
    std::int64_t end_line = 0;  // end_line == line - 1: an empty range after line end_line
};

struct AnchorResult {
    Anchor anchor;
    std::size_t row = 0;                  // 1-based row in its spec's table
    Status status = Status::Unresolved;
    bool renamed = false;
    std::optional<Location> to;           // the range at target, for SAME/MOVED/TOUCHED
    std::optional<bool> symbol_found;     // null without a symbol or without a window
    bool lines_deleted = false;
    std::optional<bool> exists_at_target; // for NEW: whether the file is at the target
    bool binary = false;                  // the file is binary: no line hunks
    std::optional<std::string> reason;    // why GONE/UNRESOLVED, or a note on the outcome
    std::optional<bool> edited_since;     // with --since: a hunk since then touched its lines

    // Beyond the diff (SPEC §4a), when no line of the anchor survives where the diff put it:
    std::optional<std::string> by;        // "content": `to` comes from finding the base text
    bool whitespace = false;              // ... equal only once whitespace is ignored
    std::optional<Location> diff_to;      // the diff's own answer, kept when `by` replaced it
    bool diff_lines_deleted = false;
    std::optional<Location> found_at;     // the base text, found once in another file
    std::vector<Location> candidates;     // found in several places: listed, never picked
    std::size_t candidates_total = 0;
    std::optional<Location> best;         // in a wide TOUCHED range, the lines most like it
    double best_score = 0;

    // Where its window is: the relocated or mapped range, else where its text was found.
    const Location* window_location() const;

    // SAME, MOVED, TOUCHED or NEW with every symbol found.
    bool ok() const;
    // The table's status cell: "TOUCHED+RENAMED", "SAME", ...
    std::string status_label() const;
};

struct SpecReport {
    std::string source;
    std::string id;
    std::string base_rev;      // as written
    std::string base;          // full hash, empty when it did not resolve
    std::string target_rev;    // as written, empty for the working tree
    std::string target;        // full hash, "worktree", or empty when it did not resolve
    std::string since_rev;     // --since as written, empty without it
    std::string since;         // its full hash
    std::vector<AnchorResult> anchors;
    std::vector<Window> windows;   // filled by the pack step, not by resolution
    std::vector<Callers> callers;  // one per distinct symbol, in order of first use

    // The target commit, or nullopt for the working tree (and for an unresolved target).
    std::optional<std::string> target_commit() const;

    std::size_t count(Status status) const;
    std::size_t renamed_count() const;
    std::size_t symbol_missing_count() const;
};

struct Report {
    std::vector<SpecReport> specs;

    // SPEC §5: 0 when every anchor resolved and every symbol was found, else 1.
    int exit_status() const;
};

}  // namespace cp
