// The report: what resolution found for every anchor of every spec, as plain values.
// Printers (table, JSON, and later windows and callers) read it; none of them resolves.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "context_pack/core/callers.hpp"
#include "context_pack/core/line_map.hpp"
#include "context_pack/core/window.hpp"
#include "context_pack/model/spec.hpp"

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

// Beyond the diff (SPEC §4a), one of three answers. When no line of an anchor survives where
// the diff put it, its base text is searched for by content: found once and vouched for, it
// moves the anchor (Moved); found once otherwise, it is a pointer (FoundAt); found several
// times, the places are listed (Candidates). There is no default: a Relocation is always one
// of the three.
struct Relocation {
    // `to` and the status come from the text found in its own file; the diff's answer kept.
    struct Moved {
        std::optional<Location> diff_to;  // the diff's `to`; nullopt: its file was deleted
        bool diff_lines_deleted = false;  // the diff's `lines_deleted`
        // Not found by content: the diff kept every line, and put others between its code and
        // its blank margins (core/mapping's parted_margins); `to` is its code there.
        bool margins = false;
    };
    // Found once, but not taken for the anchor: the status stays the diff's.
    struct FoundAt {
        Location at;
    };
    // Found in several places, or in one by too weak a match (a block of one or two lines
    // found whitespace-blind or by likeness): listed, never picked.
    struct Candidates {
        std::vector<Location> listed;
        std::size_t total = 0;  // every place found, listed or not
    };
    std::variant<Moved, FoundAt, Candidates> found;
    bool whitespace = false;  // equal only once whitespace is ignored
    // Found by likeness, lightly edited (core/relocate's find_similar_block): the share of
    // its telling lines found there (equal ones 1, edited ones 1/2); nullopt for a found copy.
    std::optional<double> similarity;

    const Moved* moved() const { return std::get_if<Moved>(&found); }
    const FoundAt* found_at() const { return std::get_if<FoundAt>(&found); }
    const Candidates* candidates() const { return std::get_if<Candidates>(&found); }
};

// --history: a commit between base and target that changed the anchor's lines (as
// `git log -L` lists them for its range at the target), or the working tree's uncommitted
// changes that touch them.
struct HistoryEntry {
    std::string commit;            // the full hash; empty for the working tree
    std::int64_t author_time = 0;  // seconds since the epoch; 0 for the working tree
    std::string subject;           // the message's first paragraph on one line, as written

    bool worktree() const { return commit.empty(); }
    bool operator==(const HistoryEntry&) const = default;
};

// A rename the anchor was followed through where the direct diff lost its file
// (resolve/follow): `from` became `to` in `commit` (full hash), or, with none, between HEAD and
// the working tree.
struct FollowedRename {
    std::string from, to;
    std::string commit;
    bool operator==(const FollowedRename&) const = default;
};

struct AnchorResult {
    Anchor anchor;
    std::size_t row = 0;  // 1-based row in its spec's table
    Status status = Status::Unresolved;
    bool renamed = false;
    std::optional<Location> to;        // the range at target: SAME/MOVED/TOUCHED, NEW in a file
    std::optional<bool> symbol_found;  // null without a symbol or without a window
    // Where the symbol was found first in `to`: its line and 1-based byte column.
    std::optional<std::pair<LineNo, std::size_t>> symbol_at;
    bool lines_deleted = false;
    std::optional<bool> exists_at_target;  // for NEW: whether the file is at the target
    bool binary = false;                   // the file is binary: no line hunks
    std::optional<std::string> reason;     // why GONE/UNRESOLVED, or a note on the outcome
    std::optional<bool> edited_since;      // with --since: a hunk since then touched its lines
    // Provenance: the blob id of its file at base, and of the file `to` names at the target
    // (a NEW anchor's own file) as git would store it; nullopt where there is none.
    std::optional<std::string> base_blob;
    std::optional<std::string> target_blob;

    std::optional<Relocation> relocation;  // beyond the diff: see Relocation
    // A TOUCHED anchor's line-level precision (core/line_map): which lines of its file at the
    // target (`to`'s path) its base lines became. Beside `to`, never instead of it.
    std::optional<RangeAnswer> best;
    // --history: the commits that changed its lines at the target, newest first, the working
    // tree's changes last. nullopt without --history, and for an anchor with no lines at the
    // target to follow (GONE, UNRESOLVED, NEW in a file absent there, an emptied range).
    std::optional<std::vector<HistoryEntry>> history;
    // Where the diff between base and target deleted its file without a partner and the file
    // was followed through history (and the working tree's steps) to where it is now: each
    // rename on the way, oldest first. Empty otherwise.
    std::vector<FollowedRename> followed;

    // Where its window is: the relocated or mapped range, else where its text was found.
    const Location* window_location() const;

    // Adds a note on the outcome after any `reason` holds ("; " between them).
    void add_note(const std::string& note);
    // SAME, MOVED, TOUCHED or NEW with every symbol found and its lines not all deleted.
    bool ok() const;
    // The table's status cell: "TOUCHED+RENAMED", "SAME", ...
    std::string status_label() const;
};

// What a spec was carried onto: a commit, the working tree, or neither when its target
// revision did not resolve.
struct Target {
    enum class Kind { Unresolved, WorkingTree, Commit };
    Kind kind = Kind::Unresolved;
    std::string commit;  // the full hash, for Kind::Commit only

    static Target working_tree() { return {Kind::WorkingTree, {}}; }
    static Target at(std::string commit) { return {Kind::Commit, std::move(commit)}; }

    bool resolved() const { return kind != Kind::Unresolved; }
    // The full hash, "worktree", or empty when unresolved (the JSON's "target").
    std::string name() const;
    bool operator==(const Target&) const = default;
};

struct SpecReport {
    std::string source;
    std::string id;
    std::string base_rev;    // as written
    std::string base;        // full hash, empty when it did not resolve
    std::string target_rev;  // as written, empty for the working tree
    Target target;
    // For a working-tree target: the commit HEAD names (nullopt on an unborn branch, and for
    // any other target).
    std::optional<std::string> head;
    std::string since_rev;  // --since as written, empty without it
    std::string since;      // its full hash
    std::vector<AnchorResult> anchors;
    std::vector<Window> windows;        // filled by the pack step, not by resolution
    std::vector<Callers> callers;       // one per distinct symbol, in order of first use
    std::vector<std::string> warnings;  // the spec's (Spec::warnings): unknown keys
    bool history = false;               // --history was asked: anchors carry their history

    // The target commit, or nullopt for the working tree (and for an unresolved target).
    std::optional<std::string> target_commit() const;

    std::size_t count(Status status) const;
    std::size_t renamed_count() const;
    std::size_t symbol_missing_count() const;
};

struct Report {
    std::vector<SpecReport> specs;
    // The repository's working directory, absolute (empty when it has none): what its paths
    // are relative to.
    std::string workdir;
    // --at-base, the planner's check: a spec's warning (an unknown key) fails it too.
    bool warnings_fail = false;

    // SPEC §5: 0 when every anchor resolved and every symbol was found, else 1; 1 too for a
    // warning when warnings_fail.
    int exit_status() const;
    std::size_t warning_count() const;
};

}  // namespace cp
