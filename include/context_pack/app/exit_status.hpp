// The process's exit statuses (SPEC §5), shared by the command line and the MCP server:
// 0 every anchor resolved and every symbol found, 1 a pack printed with problems, 2 could
// not run at all.
#pragma once

namespace cp {

inline constexpr int kExitOk = 0;
inline constexpr int kExitProblems = 1;
inline constexpr int kExitCannotRun = 2;

}  // namespace cp
