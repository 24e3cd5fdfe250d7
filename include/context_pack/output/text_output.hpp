// The text pack (SPEC §4): the status table first, then one block per window, then caller
// lists, within a cap on lines: each block is printed whole if it still fits, else named
// with the command that prints it; nothing is cut silently. Colour is decided by the caller, never
// here.
#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "context_pack/core/option_names.hpp"
#include "context_pack/model/report.hpp"

namespace cp {

// Files named with their hit counts where a caller list is cut.
inline constexpr std::size_t kFilesCounted = 20;
// The rows a pointer offers the code of, where a token budget left all code out.
inline constexpr std::size_t kCodeRowsSuggested = 10;

struct TextOptions {
    bool color = false;
    std::size_t width = 0;  // a terminal's columns: a longer table row's note goes beneath it
    bool table_only = false;
    std::size_t max_lines = 1500;  // the whole pack but the table
    // Rows of each spec's table, the rest named with the pointer that shows them: cut only
    // to keep within a token budget (output/budget.hpp), which `over` names ("max_tokens
    // 25000").
    std::size_t max_rows = std::size_t(-1);
    std::string over;
    bool code_cut = false;  // table_only set by the budget, not asked for: said, with a pointer
    std::string rerun;      // the command line that reprints one anchor, minus "--only N"
                            // and the caps below
    // The caps the pack step applied, for the pointers that say how to lift them.
    std::size_t max_window_lines = 100;
    std::size_t max_callers = 50;
    std::size_t max_line_bytes = 300;
    OptionNames names = kCommandLineNames;
    // When the current directory is not the repository's top: the top, which the pack's
    // paths are relative to, said in a first line (as git diff's paths are the top's).
    std::string paths_from;
    // How a pointer asks for the pack again: for some anchors (`rows`, a row "3" or a
    // range "4-9") or all, with a cap raised (`cap` to `value`) or none. Absent: the command
    // line's "RERUN --only 3 --max-window-lines 250", from `rerun` and `names`; a front end
    // with another syntax (MCP: only: ["3"], max_window_lines: 250) gives its own.
    std::function<std::string(std::optional<std::string> rows, const OptionName* cap,
                              std::size_t value)>
        again;
};

// What the text pack leaves out under max_lines, per spec in report order: the indexes of
// the windows and caller lists it names with a pointer instead of printing, ascending.
struct PackCuts {
    struct Spec {
        std::vector<std::size_t> windows;
        std::vector<std::size_t> callers;
    };
    std::vector<Spec> specs;
    std::size_t lines = 0;  // those counted against max_lines: tables and the blocks shown
};

// The table rows of a spec's anchors `first` to `last` (indexes), as `only` takes them: "4-9".
std::string rows_of(const SpecReport& spec, std::size_t first, std::size_t last);
// How many of a spec's first anchors a pointer offers the code of, where a token budget left
// all code out: kCodeRowsSuggested at most.
std::size_t code_rows(const SpecReport& spec);

// What max_lines leaves out of the pack, decided from the report and the caps alone: the text
// pack prints by it, and a JSON document cut as the text is (JsonCaps::cuts) takes it as is.
PackCuts plan_cuts(const Report& report, const TextOptions& options);
void print_pack(std::ostream& out, const Report& report, const TextOptions& options);
// The pack by a plan already made for these options (plan_cuts).
void print_pack(std::ostream& out, const Report& report, const TextOptions& options,
                const PackCuts& cuts);

}  // namespace cp
