// The command line: parse options, load specs, open the repository, resolve, print, and map
// the outcome to SPEC §5's exit status (0 all resolved, 1 pack printed with problems, 2 could
// not run). Errors reach the user here as one line on stderr, never earlier.
#pragma once

#include <iosfwd>

namespace cp::cli {

int run(int argc, char** argv, std::istream& in, std::ostream& out, std::ostream& err);

}  // namespace cp::cli
