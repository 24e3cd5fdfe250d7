// JSON text as the tool reads it: spec files, spec objects and MCP messages. Nesting is bounded
// at parse time (kMaxJsonDepth), so no later copy, dump or comparison of the value, all of which
// recurse, can overflow the stack; an error is one line without the "[json.exception...]" tag.
#pragma once

#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "context_pack/core/result.hpp"

namespace cp {

// Arrays and objects nested deeper than this are refused; a spec needs four levels.
inline constexpr int kMaxJsonDepth = 256;

// Parses one JSON text; a syntax error, a number out of range or nesting past kMaxJsonDepth is
// an Error such as "parse error at line 2, column 13: ...".
Result<nlohmann::json> parse_json(std::string_view text);
// The same, refusing an object that gives one key twice (a parser keeps only one of them, so
// what the writer meant is unknown): a spec.
Result<nlohmann::json> parse_json_unique_keys(std::string_view text);
Result<nlohmann::ordered_json> parse_ordered_json(std::string_view text);

// The string a JSON string token (quotes and escapes as written) stands for.
std::string json_string_value(std::string_view token);

// A JSON text that parse_json accepted, read token by token in document order, where a parsed
// value has lost the order of its keys and the bytes of its numbers and strings. It trusts
// the text to be well formed (it only finds where values begin and end), so it is for text
// parsed once already; a leading byte order mark is passed over, as the parser passes it.
class JsonTokens {
  public:
    explicit JsonTokens(std::string_view text);

    // Consumes `c` ('{', ':', ',', ...) when it comes next, after any whitespace.
    bool eat(char c);
    // The next byte after whitespace, '\0' at the end.
    char peek();
    // A string (with its quotes), number or literal, as written.
    std::string_view token();
    // A whole value as written, nested values and all.
    std::string_view value();

    // Reads an object ('{' next): `member(raw_key, key)` for each member in order, with the
    // member's value next, which `member` reads; `raw_key` is the key's token as written.
    template <class Member>
    void object(Member&& member) {
        eat('{');
        if (eat('}')) return;
        do {
            const std::string_view raw = token();
            eat(':');
            member(raw, json_string_value(raw));
        } while (eat(','));
        eat('}');
    }
    // Reads an array ('[' next): `element(i)` for each element, which it reads.
    template <class Element>
    void array(Element&& element) {
        eat('[');
        if (eat(']')) return;
        std::size_t i = 0;
        do element(i++);
        while (eat(','));
        eat(']');
    }

  private:
    void skip_space();

    std::string_view s_;
    std::size_t pos_ = 0;
};

}  // namespace cp
