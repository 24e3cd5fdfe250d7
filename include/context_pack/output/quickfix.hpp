// --format quickfix: one line per anchor, `path:line:1: STATUS text`, at the anchor's place at
// the target (at base when it has none there), which vim's quickfix list, Emacs's
// compilation mode and editors' problem matchers read.
#pragma once

#include <ostream>

#include "context_pack/model/report.hpp"

namespace cp {

void print_quickfix(std::ostream& out, const Report& report);

}  // namespace cp
