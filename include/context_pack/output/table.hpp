// The status table (SPEC §4 item 1): per spec one header line with base, target and counts
// by status, then one row per anchor. Every coordinate is `path:line[-end]`, labelled by its
// column as being at base or at target. Returns the number of lines printed.
#pragma once

#include <cstddef>
#include <ostream>
#include <string>
#include <vector>

#include "context_pack/model/report.hpp"
#include "context_pack/model/summary.hpp"

namespace cp {

// The header's counts are of every anchor; the rows, of the first `rows_shown`. With a
// `width` (a terminal's columns; 0: none), a row longer than it gives its note a line of its
// own beneath, indented and wrapped to the width.
std::vector<std::string> spec_table(const SpecReport& spec, bool color,
                                    std::size_t rows_shown = std::size_t(-1),
                                    std::size_t width = 0);
std::size_t print_spec_table(std::ostream& out, const SpecReport& spec, bool color,
                             std::size_t rows_shown = std::size_t(-1), std::size_t width = 0);

// The drift summary over several specs: totals, then one row per spec and per path prefix.
void print_summary(std::ostream& out, const Summary& summary, bool color);

// "src/a.c:4-6", "src/a.c:4", or for an empty range "src/a.c:(deleted after 3)", the gap
// where a range's deleted lines stood.
std::string format_location(const Location& location);

// ANSI colour around text when `on`; the codes are SGR numbers such as "1" or "31".
std::string paint(bool on, const char* code, const std::string& text);

// A TOUCHED anchor's best lines, as the table's note gives them: "best a.c:41-42 (0.87,
// edited)", "best: ambiguous, …" or "best: none, its lines are gone". `a.best` and `a.to` set.
std::string best_note(const AnchorResult& a);

// The colour of a status cell: green SAME, cyan MOVED, yellow TOUCHED, red problems.
const char* status_color(const AnchorResult& anchor);

}  // namespace cp
