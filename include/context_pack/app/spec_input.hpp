// Where specs come from: a file, standard input or a folder of them, read for either front
// end and parsed by the model (spec.hpp). Reading is here, above the layers that take
// values only.
#pragma once

#include <istream>
#include <string>
#include <vector>

#include "context_pack/core/result.hpp"
#include "context_pack/model/spec.hpp"

namespace cp {

// Reads one spec input: a file (".jsonl": one spec a line), "-" for `in`, or a folder, whose
// .json and .jsonl files are read in name order. An unreadable file, or a folder without
// spec files, is an Error naming it; `where` is added to a failed open's message.
Result<std::vector<Spec>> read_spec_input(const std::string& name, std::istream& in,
                                          const std::string& where = "");

}  // namespace cp
