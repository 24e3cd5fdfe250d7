// --format quickfix: one line per anchor, `path:line:column: error|warning|note: STATUS text`, as
// compilers print them, at the anchor's place at the target (at base when it has none there;
// at its symbol, when found), which vim's quickfix list, Emacs's compilation mode and editors'
// problem matchers read. error: GONE, UNRESOLVED or a symbol missing; warning: TOUCHED; note:
// the rest.
#pragma once

#include <ostream>
#include <string>

#include "context_pack/model/report.hpp"

namespace cp {

// `cwd`: the current directory, absolute with / separators, which the paths are made
// relative to (as git grep and rg --vimgrep print them) so that an editor started there opens
// them; empty, or a report without a working directory, keeps the repository's paths.
void print_quickfix(std::ostream& out, const Report& report, const std::string& cwd = "");

// `path` (the repository's) from `cwd`: both directories absolute with / separators;
// `top` the repository's working directory. The absolute path when they share no root.
std::string path_from(const std::string& cwd, const std::string& top, const std::string& path);

}  // namespace cp
