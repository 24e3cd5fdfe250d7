// Where specs come from: a file, standard input or a folder of them, read for either front
// end and parsed by the model (spec.hpp). Reading is here, above the layers that take
// values only.
#pragma once

#include <cstdint>
#include <istream>
#include <string>
#include <vector>

#include "context_pack/core/result.hpp"
#include "context_pack/model/spec.hpp"

namespace cp {

// The most a spec input may hold; a larger file is refused before it is read, standard input
// once it passes the limit.
inline constexpr std::uint64_t kMaxSpecBytes = std::uint64_t{64} << 20;

// Reads one spec input: a regular file (".jsonl": one spec a line), "-" for `in` when there is
// one, or a folder, whose .json and .jsonl regular files are read in name order (other entries
// are skipped). Anything else (a FIFO, a device, a socket) is refused without waiting on it,
// as is an input over kMaxSpecBytes; an unreadable file, or a folder without spec files, is
// an Error naming it. `where` is added to a failed open's message.
Result<std::vector<Spec>> read_spec_input(const std::string& name, std::istream* in,
                                          const std::string& where = "");

}  // namespace cp
