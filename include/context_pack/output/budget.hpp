// A token budget (--max-tokens, MCP max_tokens): the pack made to fit it, its text and its
// structured document alike, each cut named with what lifts it. First what the caps cut
// (windows and caller lists, by lowering max_lines); where the tables alone are over it, the
// code altogether, then the rows past as many as fit in each spec's table. A token is
// counted as kBytesPerToken bytes, as hosts estimate a result before they tokenize it.
#pragma once

#include <cstddef>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "context_pack/model/report.hpp"
#include "context_pack/output/json_output.hpp"
#include "context_pack/output/text_output.hpp"

namespace cp {

inline constexpr std::size_t kBytesPerToken = 4;

struct TokenBudget {
    std::size_t max_tokens = 0;  // named in the pointers ("over max_tokens 25000")
    std::string option;          // "max_tokens", "--max-tokens"
    std::size_t text_bytes = 0;  // the text's limit
    // The document, with the text (as a JSON string) where `text_in_whole`; 0 when no
    // document is made.
    std::size_t whole_bytes = 0;
    bool text_in_whole = true;
    int indent = -1;             // as the document is printed (nlohmann's dump)
    std::size_t text_after = 0;  // bytes the caller adds to the text (its warnings)
};

struct FittedPack {
    std::string text;
    std::optional<nlohmann::ordered_json> doc;  // with a whole_bytes limit
    bool over = false;  // even the smallest pack (no code, no rows) is over the budget
};

// `text`: the caps asked for; `doc`: the document's (its cuts, max_lines, max_tokens and the
// budget's cuts are set here).
FittedPack fit_pack(const Report& report, TextOptions text, JsonCaps doc,
                    const TokenBudget& budget);

}  // namespace cp
