// `context-pack mcp`: a Model Context Protocol server over stdio (newline-delimited JSON-RPC 2.0)
// with one tool, `context_pack`, that runs the pipeline and returns the text pack plus the JSON
// document. Bad input is a tool result with isError, never a dead server; end of input exits 0.
#pragma once

#include <array>
#include <iosfwd>
#include <string_view>

namespace cp::mcp {

inline constexpr std::string_view kToolName = "context_pack";

// Newest first; an initialize asking for another version is answered with the first.
inline constexpr std::array<std::string_view, 4> kProtocolVersions = {"2025-11-25", "2025-06-18",
                                                                      "2025-03-26", "2024-11-05"};

// Reads one JSON-RPC message (or batch) a line from `in`, writes each reply as one line to
// `out` and flushes it; `err` gets only diagnostics. A tools/call runs on a thread of its own
// (at most 8 at once), writing its reply (and its progress) whenever it is done, so replies
// may come in another order than the requests; at end of input the running calls are
// answered first. Returns the exit status: 0 at end of input.
int serve(std::istream& in, std::ostream& out, std::ostream& err);

// `context-pack mcp [--help]`: argv[1] is "mcp". Returns the process's exit status.
int run(int argc, char** argv, std::istream& in, std::ostream& out, std::ostream& err);

}  // namespace cp::mcp
