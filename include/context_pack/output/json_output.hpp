// The JSON printer: the report as one document. Fixed fields (SPEC §4): top-level `specs`;
// per spec `base`, `target`, `anchors`; per anchor `kind`, `path`, `line`, `end_line`,
// `symbol`, `status`, `renamed`, `to`, `symbol_found`, `lines_deleted`, `reason`. Fields may
// be added, never renamed; tests/output/test_json_output.cpp asserts the exact key set. Windows are
// listed once per spec (`windows`), and each anchor's `window` is an index into them.
#pragma once

#include <nlohmann/json.hpp>
#include <ostream>

#include "context_pack/model/report.hpp"
#include "context_pack/output/text_output.hpp"

namespace cp {

inline constexpr int kJsonFormatVersion = 1;

// The caps a front end applied, for a document that says what they cut: then the document
// carries `caps`, `cut` (whether anything was), each window's and caller list's `cut` (left
// out under max_lines: its lines or hits emptied) and `lift` (the arguments that show the
// rest: {"only": ["3"], "max_window_lines": 250}), and each spec's `long_lines`. Without
// it the document is whole but for the pack step's own caps (`omitted`, `cut_bytes`).
struct JsonCaps {
    std::optional<std::size_t> max_lines;  // absent: not applied to the document
    std::size_t max_window_lines = 100;
    std::size_t max_callers = 50;
    std::size_t max_line_bytes = 300;
    const PackCuts* cuts = nullptr;  // what max_lines left out (print_pack)
    // The document an agent's host is sent by default (MCP): `compact` true, every anchor's
    // `line_map` null (a line of JSON per anchored line, 85% of a table's) and each caller
    // list's `per_file` the kFilesCounted files the text names, `per_file_more` the rest.
    bool compact = false;
    // What a token budget cut (output/budget.hpp), named in the document as the text names
    // it: `max_tokens` the budget, `code_cut` the windows and caller lists left out (each
    // spec's `code_cut`, with the arguments that show some), `max_rows` each spec's anchors
    // past that many left out (its `rows_more`).
    std::optional<std::size_t> max_tokens;
    bool code_cut = false;
    std::size_t max_rows = std::size_t(-1);

    // The window, caller and line-byte caps of the text pack; max_lines, which a front end
    // states apart, left unset.
    static JsonCaps of(const TextOptions& text);
};

nlohmann::ordered_json report_to_json(const Report& report, const JsonCaps* caps = nullptr);
void print_json(std::ostream& out, const Report& report, const JsonCaps* caps = nullptr);

// --format jsonl: JSON Lines, compact, one line a spec as it is finished ("type": "spec",
// then the fields of a spec in the document above), then one closing line ("type": "end")
// with the exit status and the batch summary.
void print_jsonl_spec(std::ostream& out, const SpecReport& spec);
void print_jsonl_end(std::ostream& out, const Report& report);

}  // namespace cp
