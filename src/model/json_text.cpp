#include "context_pack/model/json_text.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <iterator>

namespace cp {
namespace {

// Whether `text` opens arrays and objects more than kMaxJsonDepth deep, by one pass over its
// bytes (brackets inside strings do not count). Checked before the parse, so that the value is
// never built deeper; nlohmann's parser callback would do it too, but its end_object walks the
// enclosing array each time, which makes a spec of 100,000 anchors quadratic.
bool too_deep(std::string_view text) {
    int depth = 0;
    bool in_string = false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        char c = text[i];
        if (in_string) {
            if (c == '\\')
                ++i;
            else if (c == '"')
                in_string = false;
        } else if (c == '"') {
            in_string = true;
        } else if (c == '[' || c == '{') {
            if (++depth > kMaxJsonDepth) return true;
        } else if (c == ']' || c == '}') {
            --depth;
        }
    }
    return false;
}

// What nlohmann's parser says it expected; nothing else may follow a quote of the input.
bool token_names(std::string_view s) {
    static constexpr std::string_view kNames[] = {"true literal",
                                                  "false literal",
                                                  "null literal",
                                                  "string literal",
                                                  "number literal",
                                                  "'['",
                                                  "'{'",
                                                  "']'",
                                                  "'}'",
                                                  "':'",
                                                  "','",
                                                  "end of input",
                                                  "'[', '{', or a literal"};
    return std::find(std::begin(kNames), std::end(kNames), s) != std::end(kNames);
}

// nlohmann's message, without its tag and without the bytes it quotes: a spec file may hold
// anything (a secret pasted by mistake), and no message is to repeat it. What is left is the
// position and what was wrong and expected, all words of the parser's own.
std::string parse_message(const nlohmann::json::exception& e) {
    if (e.id == 406) return "a number is out of the range of a double";  // it quoted the number
    // "[json.exception.parse_error.101] parse error at line 1, column 2: syntax error while
    // parsing value - invalid literal; last read: 'tru'; expected '[', '{', or a literal"
    std::string_view what = e.what();
    if (auto p = what.find("] "); p != std::string_view::npos) what.remove_prefix(p + 2);
    auto quote = what.find("; last read: '");
    if (quote == std::string_view::npos) return std::string(what);  // "unexpected ']'" etc.
    std::string message(what.substr(0, quote));
    auto expected = what.rfind("; expected ");
    if (expected != std::string_view::npos && expected > quote &&
        token_names(what.substr(expected + 11)))
        message += what.substr(expected);
    return message;
}

template <class Json>
Result<Json> parse(std::string_view text) {
    if (too_deep(text))
        return Error{fmt::format("arrays and objects nested deeper than {} levels", kMaxJsonDepth)};
    try {
        return Json::parse(text);
    } catch (const nlohmann::json::exception& e) {  // parse_error, and out_of_range for 1e400
        return Error{parse_message(e)};
    }
}

}  // namespace

Result<nlohmann::json> parse_json(std::string_view text) {
    return parse<nlohmann::json>(text);
}

Result<nlohmann::ordered_json> parse_ordered_json(std::string_view text) {
    return parse<nlohmann::ordered_json>(text);
}

}  // namespace cp
