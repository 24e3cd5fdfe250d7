// The text pack (SPEC §4): the status table first, then one block per window, then caller
// lists, within a cap on lines: each block is printed whole if it still fits, else named
// with the command that prints it; nothing is cut silently. Colour is decided by the caller, never
// here.
#pragma once

#include <cstddef>
#include <ostream>
#include <string>

#include "context_pack/core/option_names.hpp"
#include "context_pack/model/report.hpp"

namespace cp {

struct TextOptions {
    bool color = false;
    bool table_only = false;
    std::size_t max_lines = 1500;  // the whole pack; the table itself is never cut
    std::string rerun;             // the command line that reprints one anchor, minus "--only N"
                                   // and the caps below
    // The caps the pack step applied, for the pointers that say how to lift them.
    std::size_t max_window_lines = 100;
    std::size_t max_callers = 50;
    std::size_t max_line_bytes = 300;
    OptionNames names = kCommandLineNames;
};

void print_pack(std::ostream& out, const Report& report, const TextOptions& options);

}  // namespace cp
