// The status table printer (SPEC §4 item 1): per spec one header line with base, target and
// counts by status, then one row per anchor. Every coordinate is `path:line[-end]`, labelled
// by its column as being at base or at target.
#pragma once

#include <ostream>

#include "context_pack/report.hpp"

namespace cp {

void print_table(std::ostream& out, const Report& report);

// "src/a.c:4-6", "src/a.c:4", or for an empty range "src/a.c:(deleted after 3)", the gap
// where a range's deleted lines stood.
std::string format_location(const Location& location);

}  // namespace cp
