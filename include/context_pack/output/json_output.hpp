// The JSON printer: the report as one document. Fixed fields (SPEC §4): top-level `specs`;
// per spec `base`, `target`, `anchors`; per anchor `kind`, `path`, `line`, `end_line`,
// `symbol`, `status`, `renamed`, `to`, `symbol_found`, `lines_deleted`, `reason`. Fields may
// be added, never renamed; tests/output/test_json_output.cpp asserts the exact key set. Windows are
// listed once per spec (`windows`), and each anchor's `window` is an index into them.
#pragma once

#include <nlohmann/json.hpp>
#include <ostream>

#include "context_pack/model/report.hpp"

namespace cp {

inline constexpr int kJsonFormatVersion = 1;

nlohmann::ordered_json report_to_json(const Report& report);
void print_json(std::ostream& out, const Report& report);

// --format jsonl: JSON Lines, compact, one line a spec as it is finished ("type": "spec",
// then the fields of a spec in the document above), then one closing line ("type": "end")
// with the exit status and the batch summary.
void print_jsonl_spec(std::ostream& out, const SpecReport& spec);
void print_jsonl_end(std::ostream& out, const Report& report);

}  // namespace cp
