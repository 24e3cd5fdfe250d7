// Where specs come from: a file, standard input or a folder of them, read for either front
// end and parsed by the model (spec.hpp). Reading is here, above the layers that take
// values only.
#pragma once

#include <cstdint>
#include <functional>
#include <istream>
#include <string>
#include <vector>

#include "context_pack/core/result.hpp"
#include "context_pack/model/spec.hpp"

namespace cp {

// The most a spec input may hold; a larger file is refused before it is read, standard input
// once it passes the limit.
inline constexpr std::uint64_t kMaxSpecBytes = std::uint64_t{64} << 20;

// Where a path leads: absolute (from the current directory), with `.`, `..` and every
// symlink resolved as far as the path exists, the rest joined as it is written; no trailing
// `/` but for the root. Where it cannot be resolved (a loop, a component that cannot be
// searched), the absolute path with its dots alone resolved. With `within` (directories, each
// resolved; none: nowhere), nothing else is looked at: components are resolved one at a time while
// they stay inside one of them or on the way to one, and the first that leaves them is where the
// path leads, with the rest joined as written.
std::string location_of(const std::string& path, const std::vector<std::string>* within = nullptr);

// Whether `path` is `dir` or lies beneath it; both resolved, as location_of gives them.
bool at_or_under(const std::string& path, const std::string& dir);

// Which spec files a front end lets be read (the MCP server's roots). Asked of every spec
// file and folder read_spec_input would open: first of `name` as given, with the
// location_of it within `within` (nothing opened yet); then, of a regular file or folder
// once it is open, with where it really is (realpath, checked to be the very file opened).
// An Error refuses it, and nothing of it is read.
struct SpecGate {
    std::vector<std::string> within;  // for location_of
    std::function<Result<Unit>(const std::string& name, const std::string& location)> admit;
    explicit operator bool() const { return bool(admit); }
};

// Reads one spec input: a regular file (".jsonl": one spec a line), "-" for `in` when there is
// one, or a folder, whose .json and .jsonl regular files are read in name order (other entries
// are skipped). Anything else (a FIFO, a device, a socket) is refused without waiting on it,
// as is an input over kMaxSpecBytes; an unreadable file, or a folder without spec files, is
// an Error naming it. `where` is added to a failed open's message. With a `gate`, every file
// and folder is read only if it lets it.
Result<std::vector<Spec>> read_spec_input(const std::string& name, std::istream* in,
                                          const std::string& where = "", const SpecGate& gate = {});

}  // namespace cp
